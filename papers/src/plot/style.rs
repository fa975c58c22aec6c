//! How a series looks: its colour, the dash pattern of its line (if it has
//! one) and its marker (if it has one). The legend draws each entry's
//! swatch from the same look, so a swatch is the series in miniature, and
//! no two entries of one chart may look alike.

use plotters::prelude::*;

/// A line's dash pattern.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dash {
    /// Unbroken.
    Solid,
    /// Long dashes (14 px on, 5 off).
    Long,
    /// Dashes (8 px on, 5 off): predictions and bounds.
    Dashed,
    /// Dots (2 px on, 4 off).
    Dotted,
}

impl Dash {
    /// Pixels on and off; `None` for a solid line.
    pub fn pattern(self) -> Option<(u32, u32)> {
        match self {
            Dash::Solid => None,
            Dash::Long => Some((14, 5)),
            Dash::Dashed => Some((8, 5)),
            Dash::Dotted => Some((2, 4)),
        }
    }
}

/// A point's marker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Marker {
    /// A filled disc of this radius (px).
    Disc(u32),
    /// A hollow ring of this radius (px).
    Ring(u32),
}

/// What a legend swatch shows of a series.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Look {
    /// The colour.
    pub color: RGBColor,
    /// The line and its dashes; `None` for markers alone.
    pub line: Option<Dash>,
    /// The marker at each point; `None` for a bare line.
    pub marker: Option<Marker>,
    /// A filled area (a band) rather than a line or markers.
    pub fill: bool,
}

/// Width of a legend swatch (px).
pub const SWATCH: i32 = 30;

/// Width of a series' line (px).
pub const LINE_WIDTH: u32 = 2;

/// A legend swatch: the look of a series in miniature, drawn (by
/// `draw`) as a dashed path from 0 to [`SWATCH`] px with a circle in its
/// middle, either of which may be invisible.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Swatch {
    /// The line's dash and gap (px); a dash of 0 draws no line, a gap of 0
    /// a solid one.
    pub dash: (u32, u32),
    /// The line's colour and width.
    pub line: ShapeStyle,
    /// The marker's radius (px).
    pub radius: u32,
    /// The marker's style: filled (a disc), stroked (a ring) or
    /// transparent (none).
    pub marker: ShapeStyle,
}

impl Look {
    /// The legend swatch of a series that looks like this: its line with
    /// its dashes and colour, its marker, or a thick stroke of a fill.
    pub fn swatch(self) -> Swatch {
        let none = ShapeStyle::from(&TRANSPARENT);
        let width = if self.fill { 10 } else { LINE_WIDTH };
        let line = ShapeStyle::from(&self.color).stroke_width(width);
        let dash = match (self.fill, self.line) {
            (true, _) => (SWATCH_PX, 0),
            (false, Some(d)) => d.pattern().unwrap_or((SWATCH_PX, 0)),
            (false, None) => (0, 0),
        };
        let (radius, marker) = match self.marker {
            Some(Marker::Disc(r)) => (r, self.color.filled()),
            Some(Marker::Ring(r)) => (r, ShapeStyle::from(&self.color).stroke_width(1)),
            None => (0, none),
        };
        Swatch {
            dash,
            line,
            radius,
            marker,
        }
    }
}

/// [`SWATCH`] as a dash length.
const SWATCH_PX: u32 = SWATCH.unsigned_abs();

/// The legend labels that share a look with an earlier entry, each with
/// the label it cannot be told from.
pub fn alike<'a>(entries: &[(&'a str, Look)]) -> Vec<(&'a str, &'a str)> {
    let mut same = Vec::new();
    for (i, (label, look)) in entries.iter().enumerate() {
        if let Some((first, _)) = entries[..i].iter().find(|(_, l)| l == look) {
            same.push((*first, *label));
        }
    }
    same
}

#[cfg(test)]
mod tests {
    use super::*;

    const INDIGO: RGBColor = RGBColor(0x33, 0x22, 0x88);
    const ROSE: RGBColor = RGBColor(0xCC, 0x66, 0x77);

    fn look(color: RGBColor, line: Option<Dash>, marker: Option<Marker>) -> Look {
        Look {
            color,
            line,
            marker,
            fill: false,
        }
    }

    #[test]
    fn entries_alike_in_colour_dash_and_marker_are_found() {
        let solid = look(INDIGO, Some(Dash::Solid), Some(Marker::Disc(3)));
        let entries = [
            ("kip441", solid),
            ("law", look(INDIGO, Some(Dash::Dashed), None)),
            (
                "learner",
                look(ROSE, Some(Dash::Solid), Some(Marker::Disc(3))),
            ),
            ("floor", solid),
        ];
        assert_eq!(alike(&entries), [("kip441", "floor")]);
    }

    #[test]
    fn colour_dash_or_marker_alone_tells_entries_apart() {
        let entries = [
            ("a", look(INDIGO, Some(Dash::Solid), None)),
            ("b", look(ROSE, Some(Dash::Solid), None)),
            ("c", look(INDIGO, Some(Dash::Dotted), None)),
            ("d", look(INDIGO, Some(Dash::Solid), Some(Marker::Disc(3)))),
            ("e", look(INDIGO, None, Some(Marker::Disc(3)))),
        ];
        assert!(alike(&entries).is_empty());
    }

    #[test]
    fn a_swatch_carries_its_series_dashes_colour_and_marker() {
        let dashed = look(INDIGO, Some(Dash::Dashed), None).swatch();
        assert_eq!(dashed.dash, (8, 5));
        assert_eq!(dashed.line.color, INDIGO.to_rgba());
        assert!(dashed.marker.color.alpha() < f64::EPSILON, "no marker");
        let solid = look(ROSE, Some(Dash::Solid), Some(Marker::Disc(3))).swatch();
        assert_eq!(solid.dash.1, 0, "a solid line has no gaps");
        assert!(solid.dash.0 > 0);
        assert_eq!((solid.radius, solid.marker.filled), (3, true));
        assert_eq!(solid.marker.color, ROSE.to_rgba());
        let points = look(ROSE, None, Some(Marker::Disc(4))).swatch();
        assert_eq!(points.dash.0, 0, "markers alone draw no line");
        let ring = look(INDIGO, None, Some(Marker::Ring(8))).swatch();
        assert_eq!((ring.radius, ring.marker.filled), (8, false));
        // Every dash pattern has gaps and they differ from each other.
        let patterns: Vec<_> = [Dash::Long, Dash::Dashed, Dash::Dotted]
            .iter()
            .map(|d| look(INDIGO, Some(*d), None).swatch().dash)
            .collect();
        assert!(patterns.iter().all(|&(on, off)| on > 0 && off > 0));
        assert!(
            patterns[0] != patterns[1] && patterns[1] != patterns[2] && patterns[0] != patterns[2]
        );
    }
}
