//! Drawing a [`Chart`] with plotters, in axis space (a logarithmic axis
//! holds decimal logarithms), with the ticks [`Axis::ticks`] chooses.

use std::ops::Range;

use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint, Ranged};
use plotters::element::DashedPathElement;
use plotters::prelude::*;

use super::style::{LINE_WIDTH, SWATCH};
use super::{Axis, Chart, Corner, Kind, Marker, SIZE};

/// The chart drawn to an SVG document.
pub fn svg(chart: &Chart) -> Result<String, String> {
    let mut text = String::new();
    {
        let root = SVGBackend::with_string(&mut text, SIZE).into_drawing_area();
        draw(chart, &root).map_err(|e| e.to_string())?;
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(text)
}

/// An axis as plotters draws it: linear in axis space, ticked where
/// [`Axis::ticks`] says.
struct Ticked {
    lo: f64,
    hi: f64,
    bold: Vec<f64>,
    light: Vec<f64>,
}

impl Ticked {
    fn new(axis: &Axis) -> Ticked {
        let (bold, light) = axis.ticks();
        Ticked {
            lo: axis.lo,
            hi: axis.hi,
            bold,
            light,
        }
    }
}

impl Ranged for Ticked {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    #[allow(clippy::cast_possible_truncation)] // a pixel, clamped to a few times the chart
    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        let share = if self.hi > self.lo {
            (value - self.lo) / (self.hi - self.lo)
        } else {
            0.5
        };
        let span = f64::from(limit.1 - limit.0);
        (f64::from(limit.0) + span * share.clamp(-4.0, 5.0) + 1e-3).floor() as i32
    }

    fn key_points<H: KeyPointHint>(&self, hint: H) -> Vec<f64> {
        if hint.weight().allow_light_points() {
            self.light.clone()
        } else {
            self.bold.clone()
        }
    }

    fn range(&self) -> Range<f64> {
        self.lo..self.hi
    }
}

/// The points in axis space, leaving out those the axes cannot show.
fn placed(x: &Axis, y: &Axis, points: &[(f64, f64)]) -> Vec<(f64, f64)> {
    points
        .iter()
        .filter_map(|&(px, py)| Some((x.place(px)?, y.place(py)?)))
        .collect()
}

fn draw(
    chart: &Chart,
    root: &DrawingArea<SVGBackend<'_>, plotters::coord::Shift>,
) -> Result<(), Box<dyn std::error::Error>> {
    root.fill(&WHITE)?;
    let (x_axis, y_axis) = chart.axes();
    let mut area = ChartBuilder::on(root)
        .caption(&chart.title, ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(42)
        .y_label_area_size(78)
        .build_cartesian_2d(Ticked::new(&x_axis), Ticked::new(&y_axis))?;
    area.configure_mesh()
        .x_desc(&chart.x_label)
        .y_desc(&chart.y_label)
        .x_label_formatter(&|v| x_axis.label(*v))
        .y_label_formatter(&|v| y_axis.label(*v))
        .light_line_style(RGBColor(0xEE, 0xEE, 0xEE))
        .draw()?;
    for s in &chart.series {
        let look = s.look();
        let style = ShapeStyle::from(&s.color).stroke_width(LINE_WIDTH);
        let pts = placed(&x_axis, &y_axis, &s.points);
        let drawn = match &s.kind {
            Kind::Line(dash) => match dash.pattern() {
                None => area.draw_series(LineSeries::new(pts, style))?,
                Some((on, off)) => area.draw_series(DashedLineSeries::new(pts, on, off, style))?,
            },
            Kind::Steps(dash) => {
                let mut stepped = Vec::with_capacity(pts.len() * 2);
                for (i, &(x, y)) in pts.iter().enumerate() {
                    if i > 0 {
                        stepped.push((x, pts[i - 1].1));
                    }
                    stepped.push((x, y));
                }
                match dash.pattern() {
                    None => area.draw_series(LineSeries::new(stepped, style))?,
                    Some((on, off)) => {
                        area.draw_series(DashedLineSeries::new(stepped, on, off, style))?
                    }
                }
            }
            Kind::Points | Kind::LinePoints | Kind::Rings => {
                if matches!(s.kind, Kind::LinePoints) {
                    area.draw_series(LineSeries::new(pts.clone(), style))?;
                }
                let marker = look.marker.unwrap_or(Marker::Disc(super::POINT));
                area.draw_series(pts.into_iter().map(|p| marker_at(p, marker, s.color)))?
            }
            Kind::Band(upper) => {
                let lower: Vec<(f64, f64)> = s.points.clone();
                let top: Vec<(f64, f64)> =
                    lower.iter().zip(upper).map(|(p, u)| (p.0, *u)).collect();
                let mut outline = placed(&x_axis, &y_axis, &lower);
                outline.extend(placed(&x_axis, &y_axis, &top).into_iter().rev());
                let fill = mix(s.color);
                area.draw_series(std::iter::once(Polygon::new(outline, fill.filled())))?
            }
        };
        if !s.label.is_empty() {
            drawn.label(&s.label).legend(move |at| {
                let sw = look.swatch();
                EmptyElement::at(at)
                    + DashedPathElement::new(
                        vec![(0, 0), (SWATCH, 0)],
                        sw.dash.0,
                        sw.dash.1,
                        sw.line,
                    )
                    + Circle::new((SWATCH / 2, 0), sw.radius, sw.marker)
            });
        }
    }
    let position = match chart.legend {
        Corner::UpperLeft => SeriesLabelPosition::UpperLeft,
        Corner::UpperRight => SeriesLabelPosition::UpperRight,
        Corner::LowerRight => SeriesLabelPosition::LowerRight,
    };
    area.configure_series_labels()
        .position(position)
        .legend_area_size(SWATCH + 8)
        .background_style(WHITE)
        .border_style(RGBColor(0xAA, 0xAA, 0xAA))
        .label_font(("sans-serif", 13))
        .draw()?;
    Ok(())
}

/// A marker at `p`.
fn marker_at(p: (f64, f64), marker: Marker, color: RGBColor) -> Circle<(f64, f64), u32> {
    match marker {
        Marker::Disc(r) => Circle::new(p, r, color.filled()),
        Marker::Ring(r) => Circle::new(p, r, ShapeStyle::from(&color).stroke_width(1)),
    }
}

/// The colour 70 % of the way to white, for bands: light enough that a
/// curve drawn over another's band stays visible.
fn mix(c: RGBColor) -> RGBColor {
    let light = |v: u8| u8::try_from((3 * u16::from(v) + 7 * 255) / 10).unwrap_or(u8::MAX);
    RGBColor(light(c.0), light(c.1), light(c.2))
}
