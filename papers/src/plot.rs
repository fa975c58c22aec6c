//! The paper's charts: one plotting area with labelled axes (units in the
//! labels), a legend inside the area, and series drawn as lines, dashed
//! lines (predictions and bounds), markers, steps (distribution functions)
//! or shaded bands (confidence bands). A strategy has the same colour in
//! every chart, the one `smoothscale simulate`'s charts give it
//! (`smoothscale::sim::report::palette`).
//!
//! Plotters is built without fonts (`svg_backend` only): labels are SVG
//! `<text>` in a generic sans-serif family, so the bytes do not depend on the
//! machine's fonts.

use plotters::prelude::*;

use smoothscale::sim::report::palette;

/// Grey, for bounds and predictions that belong to no strategy.
pub const GREY: RGBColor = RGBColor(0x66, 0x66, 0x66);

/// The colour of a strategy (by registry place, as in `smoothscale
/// simulate`'s plots), else of the `i`-th series.
pub fn color(strategy_or_index: &str, i: usize) -> RGBColor {
    let (r, g, b) = palette::colour(palette::place(strategy_or_index).unwrap_or(i));
    RGBColor(r, g, b)
}

/// How a series is drawn.
pub enum Kind {
    /// A dashed line: a prediction or a bound.
    Dashed,
    /// A marker per point, no line.
    Points,
    /// A solid line with a marker per point.
    LinePoints,
    /// A step function (an empirical distribution function).
    Steps,
    /// A shaded band from the points (lower) to `upper` (same x).
    Band(Vec<f64>),
    /// Hollow rings around points (highlighting others).
    Rings,
}

/// One series.
pub struct Series {
    /// Its legend entry; empty for none.
    pub label: String,
    /// Its colour.
    pub color: RGBColor,
    /// How it is drawn.
    pub kind: Kind,
    /// Its points (x, y).
    pub points: Vec<(f64, f64)>,
}

/// Where the legend goes.
#[derive(Clone, Copy)]
pub enum Corner {
    /// Upper left.
    UpperLeft,
    /// Upper right.
    UpperRight,
    /// Lower right.
    LowerRight,
}

/// A chart.
pub struct Chart {
    /// The title above the area.
    pub title: String,
    /// The x axis label, unit included.
    pub x_label: String,
    /// The y axis label, unit included.
    pub y_label: String,
    /// The series, drawn in order.
    pub series: Vec<Series>,
    /// Where the legend goes.
    pub legend: Corner,
    /// The y range; from the data (and 0) when absent.
    pub y_range: Option<(f64, f64)>,
}

impl Chart {
    /// An empty chart.
    pub fn new(title: &str, x_label: &str, y_label: &str) -> Chart {
        Chart {
            title: title.into(),
            x_label: x_label.into(),
            y_label: y_label.into(),
            series: Vec::new(),
            legend: Corner::UpperRight,
            y_range: None,
        }
    }

    /// Adds a series.
    pub fn add(&mut self, label: &str, color: RGBColor, kind: Kind, points: Vec<(f64, f64)>) {
        self.series.push(Series {
            label: label.into(),
            color,
            kind,
            points,
        });
    }

    /// The chart as an SVG document.
    ///
    /// # Errors
    ///
    /// What plotters says when it cannot draw.
    pub fn svg(&self) -> Result<String, String> {
        let mut text = String::new();
        {
            let root = SVGBackend::with_string(&mut text, (820, 500)).into_drawing_area();
            self.draw(&root)
                .map_err(|e| format!("{}: {e}", self.title))?;
            root.present().map_err(|e| format!("{}: {e}", self.title))?;
        }
        Ok(text)
    }

    fn ranges(&self) -> ((f64, f64), (f64, f64)) {
        let xs = self
            .series
            .iter()
            .flat_map(|s| s.points.iter().map(|p| p.0));
        let ys = self.series.iter().flat_map(|s| {
            let upper: &[f64] = match &s.kind {
                Kind::Band(u) => u,
                _ => &[],
            };
            s.points.iter().map(|p| p.1).chain(upper.iter().copied())
        });
        let (x0, x1) = bounds(xs);
        let (y0, y1) = bounds(ys);
        let pad = |a: f64, b: f64| {
            let d = if b > a { (b - a) * 0.04 } else { 1.0 };
            (a - d, b + d)
        };
        let y = self
            .y_range
            .unwrap_or_else(|| pad(y0.min(0.0), y1.max(0.0)));
        (pad(x0, x1), y)
    }

    fn draw(
        &self,
        root: &DrawingArea<SVGBackend<'_>, plotters::coord::Shift>,
    ) -> Result<(), Box<dyn std::error::Error>> {
        root.fill(&WHITE)?;
        let ((x0, x1), (y0, y1)) = self.ranges();
        let mut chart = ChartBuilder::on(root)
            .caption(&self.title, ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(42)
            .y_label_area_size(78)
            .build_cartesian_2d(x0..x1, y0..y1)?;
        chart
            .configure_mesh()
            .x_desc(&self.x_label)
            .y_desc(&self.y_label)
            .x_label_formatter(&|v| tick(*v))
            .y_label_formatter(&|v| tick(*v))
            .light_line_style(RGBColor(0xEE, 0xEE, 0xEE))
            .draw()?;
        for s in &self.series {
            let style = ShapeStyle::from(&s.color).stroke_width(2);
            let pts = s.points.clone();
            let drawn = match &s.kind {
                Kind::Dashed => chart.draw_series(DashedLineSeries::new(pts, 8, 5, style))?,
                Kind::Points => chart
                    .draw_series(pts.into_iter().map(|p| Circle::new(p, 4, s.color.filled())))?,
                Kind::LinePoints => {
                    chart.draw_series(LineSeries::new(pts.clone(), style))?;
                    chart
                        .draw_series(pts.into_iter().map(|p| Circle::new(p, 3, s.color.filled())))?
                }
                Kind::Steps => {
                    let mut stepped = Vec::with_capacity(pts.len() * 2);
                    for (i, &(x, y)) in pts.iter().enumerate() {
                        if i > 0 {
                            stepped.push((x, pts[i - 1].1));
                        }
                        stepped.push((x, y));
                    }
                    chart.draw_series(LineSeries::new(stepped, style))?
                }
                Kind::Band(upper) => {
                    let mut outline: Vec<(f64, f64)> = pts.clone();
                    outline.extend(pts.iter().zip(upper).rev().map(|(p, u)| (p.0, *u)));
                    let fill = mix(s.color);
                    chart.draw_series(std::iter::once(Polygon::new(outline, fill.filled())))?
                }
                Kind::Rings => {
                    chart
                        .draw_series(pts.into_iter().map(|p| {
                            Circle::new(p, 8, ShapeStyle::from(&s.color).stroke_width(1))
                        }))?
                }
            };
            if !s.label.is_empty() {
                let color = s.color;
                drawn.label(&s.label).legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 18, y)], color.stroke_width(3))
                });
            }
        }
        let position = match self.legend {
            Corner::UpperLeft => SeriesLabelPosition::UpperLeft,
            Corner::UpperRight => SeriesLabelPosition::UpperRight,
            Corner::LowerRight => SeriesLabelPosition::LowerRight,
        };
        chart
            .configure_series_labels()
            .position(position)
            .background_style(WHITE)
            .border_style(RGBColor(0xAA, 0xAA, 0xAA))
            .label_font(("sans-serif", 13))
            .draw()?;
        Ok(())
    }
}

/// The colour halfway to white, for bands.
fn mix(c: RGBColor) -> RGBColor {
    let half = |v: u8| u8::try_from((u16::from(v) + 255) / 2).unwrap_or(u8::MAX);
    RGBColor(half(c.0), half(c.1), half(c.2))
}

/// Smallest and largest of `values` (0..1 when there are none).
fn bounds(values: impl Iterator<Item = f64>) -> (f64, f64) {
    let (lo, hi) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
        (lo.min(v), hi.max(v))
    });
    if lo.is_finite() {
        (lo, hi)
    } else {
        (0.0, 1.0)
    }
}

/// A tick label: thousands grouped, at most two decimals, none when whole.
fn tick(v: f64) -> String {
    if (v - v.round()).abs() < 1e-9 {
        crate::fmt::num(v, 0)
    } else {
        let text = crate::fmt::num(v, 2);
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}
