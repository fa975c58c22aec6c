//! The paper's charts: one plotting area with labelled axes (units in the
//! labels; each linear or logarithmic), a legend inside the area, and
//! series drawn as lines (solid or dashed), markers, steps (distribution
//! functions) or shaded bands (confidence bands). A strategy has the same
//! colour in every chart, the one `smoothscale simulate`'s charts give it
//! (`smoothscale::sim::report::palette`).
//!
//! Two rules hold for every chart, so that a reader can trust the picture:
//! each legend swatch is drawn as its series is (colour, dashes, marker) and
//! no two entries look alike (else [`Chart::svg`] fails), and the marks
//! drawn on top of one another are found ([`Chart::coincidences`]) for the
//! caption to name.
//!
//! Plotters is built without fonts (`svg_backend` only): labels are SVG
//! `<text>` in a generic sans-serif family, so the bytes do not depend on the
//! machine's fonts.

mod axis;
mod coincide;
mod draw;
mod style;

use plotters::prelude::RGBColor;

use smoothscale::sim::report::palette;

pub use axis::{Axis, Scale};
pub use coincide::{and_list, describe, Places};
pub use style::{Dash, Look, Marker};

/// The size of a chart (px).
const SIZE: (u32, u32) = (820, 500);

/// The size of a chart's plotting area inside its axes (px), as plotters
/// lays it out for [`SIZE`] with the margins of [`draw`].
const AREA: (f64, f64) = (718.0, 405.0);

/// Grey, for bounds and predictions that belong to no strategy.
pub const GREY: RGBColor = RGBColor(0x66, 0x66, 0x66);

/// The colour of a strategy (by registry place, as in `smoothscale
/// simulate`'s plots), else of the `i`-th series.
pub fn color(strategy_or_index: &str, i: usize) -> RGBColor {
    let (r, g, b) = palette::colour(palette::place(strategy_or_index).unwrap_or(i));
    RGBColor(r, g, b)
}

/// The radius of a point's disc (px).
const POINT: u32 = 4;
/// The radius of a line's vertex disc (px).
const VERTEX: u32 = 3;
/// The radius of a highlighting ring (px).
const RING: u32 = 8;

/// How a series is drawn.
pub enum Kind {
    /// A line with this dash pattern (dashed: a prediction or a bound).
    Line(Dash),
    /// A marker per point, no line.
    Points,
    /// A solid line with a marker per point.
    LinePoints,
    /// A step function (an empirical distribution function).
    Steps(Dash),
    /// A shaded band from the points (lower) to `upper` (same x).
    Band(Vec<f64>),
    /// Hollow rings around points (highlighting others).
    Rings,
}

/// One series.
pub struct Series {
    /// Its legend entry; empty for none.
    pub label: String,
    /// What the captions call it (the label unless set otherwise).
    pub name: String,
    /// Its colour.
    pub color: RGBColor,
    /// How it is drawn.
    pub kind: Kind,
    /// Its points (x, y).
    pub points: Vec<(f64, f64)>,
}

impl Series {
    /// How the series looks, in the chart and in its legend swatch.
    pub fn look(&self) -> Look {
        let (line, marker, fill) = match &self.kind {
            Kind::Line(d) | Kind::Steps(d) => (Some(*d), None, false),
            Kind::Points => (None, Some(Marker::Disc(POINT)), false),
            Kind::LinePoints => (Some(Dash::Solid), Some(Marker::Disc(VERTEX)), false),
            Kind::Band(_) => (None, None, true),
            Kind::Rings => (None, Some(Marker::Ring(RING)), false),
        };
        Look {
            color: self.color,
            line,
            marker,
            fill,
        }
    }
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
    /// The x axis's scale.
    pub x_scale: Scale,
    /// The y axis's scale.
    pub y_scale: Scale,
    /// The y range (values); from the data (and 0 on a linear axis) when
    /// absent.
    pub y_range: Option<(f64, f64)>,
}

impl Chart {
    /// An empty chart with linear axes.
    pub fn new(title: &str, x_label: &str, y_label: &str) -> Chart {
        Chart {
            title: title.into(),
            x_label: x_label.into(),
            y_label: y_label.into(),
            series: Vec::new(),
            legend: Corner::UpperRight,
            x_scale: Scale::Linear,
            y_scale: Scale::Linear,
            y_range: None,
        }
    }

    /// Adds a series (named as labelled); returns it to rename.
    pub fn add(
        &mut self,
        label: &str,
        color: RGBColor,
        kind: Kind,
        points: Vec<(f64, f64)>,
    ) -> &mut Series {
        self.series.push(Series {
            label: label.into(),
            name: label.into(),
            color,
            kind,
            points,
        });
        let last = self.series.len() - 1;
        &mut self.series[last]
    }

    /// The axes the data needs: x from the points, y from the points and
    /// bands (and 0 on a linear axis) unless [`Chart::y_range`] is set.
    pub fn axes(&self) -> (Axis, Axis) {
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
        let x = Axis::fit(self.x_scale, xs, false);
        let y = match self.y_range {
            Some((lo, hi)) => Axis::between(self.y_scale, lo, hi),
            None => Axis::fit(self.y_scale, ys, true),
        };
        (x, y)
    }

    /// Checks the legend: no two entries may look alike.
    ///
    /// # Errors
    ///
    /// The entries that cannot be told apart.
    pub fn check_legend(&self) -> Result<(), String> {
        let entries: Vec<(&str, Look)> = self
            .series
            .iter()
            .filter(|s| !s.label.is_empty())
            .map(|s| (s.label.as_str(), s.look()))
            .collect();
        let same = style::alike(&entries);
        if same.is_empty() {
            Ok(())
        } else {
            let pairs: Vec<String> = same
                .iter()
                .map(|(a, b)| format!("{a:?} and {b:?}"))
                .collect();
            Err(format!(
                "{}: legend entries drawn alike (colour, dashes and marker): {}",
                self.title,
                pairs.join(", ")
            ))
        }
    }

    /// The chart as an SVG document.
    ///
    /// # Errors
    ///
    /// Legend entries that look alike, or what plotters says when it
    /// cannot draw.
    pub fn svg(&self) -> Result<String, String> {
        self.check_legend()?;
        draw::svg(self).map_err(|e| format!("{}: {e}", self.title))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chart_whose_legend_has_twins_is_not_drawn() {
        let mut c = Chart::new("speed", "tasks", "ms");
        c.add(
            "floor",
            color("floor", 0),
            Kind::LinePoints,
            vec![(1.0, 1.0)],
        );
        c.add(
            "kip441",
            color("kip441", 1),
            Kind::LinePoints,
            vec![(1.0, 2.0)],
        );
        let e = c.svg().err().unwrap_or_default();
        assert!(e.contains("\"floor\" and \"kip441\""), "{e}");
        c.series[0].color = GREY;
        assert!(c.svg().is_ok());
    }

    #[test]
    fn a_prediction_may_share_its_measurement_colour_if_dashed() {
        let mut c = Chart::new("law", "w", "h");
        let teal = color("", 6);
        c.add("kip441, 10 min", teal, Kind::LinePoints, vec![(1.0, 2.0)]);
        c.add(
            "law, 10 min",
            teal,
            Kind::Line(Dash::Dashed),
            vec![(1.0, 1.0)],
        );
        c.add("", teal, Kind::Line(Dash::Dashed), vec![(2.0, 1.0)]);
        assert!(c.check_legend().is_ok());
        let svg = c.svg().unwrap_or_default();
        assert!(svg.starts_with("<svg"), "{svg}");
    }
}
