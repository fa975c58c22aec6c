//! How the charts tell strategies apart: a colour from the colour-blind-safe
//! palette of [`palette`], a line pattern and a marker shape, all three fixed by the
//! strategy's place in the registry, so a strategy looks the same in every
//! scenario's charts. Each of the ten registered strategies differs from
//! every other in all three; past ten, the colours repeat darkened.

use plotters::prelude::*;
use smoothscale::sim::report::palette;

/// SVG `stroke-dasharray` of each strategy's line (dash, gap, …, in
/// pixels); the first is solid.
const DASHES: [Option<&str>; 10] = [
    None,
    Some("10 5"),
    Some("3 4"),
    Some("8 3 2 3"),
    Some("16 4"),
    Some("2 2"),
    Some("8 3 2 3 2 3"),
    Some("12 3 3 3"),
    Some("5 5"),
    Some("14 3 3 3 3 3"),
];

/// The marker drawn on a strategy's line, and beside its legend entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Shape {
    Circle,
    Square,
    TriangleUp,
    Diamond,
    TriangleDown,
    Plus,
    Star,
    TriangleLeft,
    TriangleRight,
    Cross,
}

const SHAPES: [Shape; 10] = [
    Shape::Circle,
    Shape::Square,
    Shape::TriangleUp,
    Shape::Diamond,
    Shape::TriangleDown,
    Shape::Plus,
    Shape::Star,
    Shape::TriangleLeft,
    Shape::TriangleRight,
    Shape::Cross,
];

/// The colour of events (scripted and churn) and their lines' pattern. No
/// strategy uses it, so its lines can be told apart in the SVG text.
pub(super) const EVENT_COLOR: RGBColor = RGBColor(0x55, 0x55, 0x55);
const EVENT_DASH: &str = "4 3";

/// Stroke widths in pixels: a strategy's line (and its legend sample), an
/// event line, and the axes with their ticks. Only lines of a strategy's
/// width are dashed in its pattern, so the axes stay solid even in a
/// strategy's colour (black is one).
pub(super) const LINE_WIDTH: u32 = 2;
pub(super) const EVENT_WIDTH: u32 = 1;
pub(super) const AXIS_WIDTH: u32 = 1;
const _: () = assert!(AXIS_WIDTH != LINE_WIDTH);

/// How one strategy is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Look {
    /// Its colour.
    pub color: RGBColor,
    /// Its line pattern (`None`: solid).
    pub dash: Option<&'static str>,
    /// Its marker.
    pub shape: Shape,
}

impl Look {
    /// The look of the strategy `name`: by its place in the registry, or
    /// after the registered ones (`fallback` is its place among the runs)
    /// for a name the registry does not know.
    pub fn of(name: &str, fallback: usize) -> Look {
        let i = palette::place(name).unwrap_or(smoothscale::assignor::names().len() + fallback);
        Look::at(i)
    }

    /// The `i`-th look: [`palette::colour`], a dash pattern and a marker.
    pub fn at(i: usize) -> Look {
        let (r, g, b) = palette::colour(i);
        Look {
            color: RGBColor(r, g, b),
            dash: DASHES[i % DASHES.len()],
            shape: SHAPES[i % SHAPES.len()],
        }
    }
}

impl Shape {
    /// The shape's outline as pixel offsets from its centre, about 10
    /// pixels across; drawn filled, so it carries no stroke and
    /// [`dash_lines`] leaves it whole.
    pub fn outline(self) -> Vec<(i32, i32)> {
        match self {
            // A dodecagon of radius 5 reads as a circle at this size.
            Shape::Circle => vec![
                (5, 0),
                (4, 3),
                (3, 4),
                (0, 5),
                (-3, 4),
                (-4, 3),
                (-5, 0),
                (-4, -3),
                (-3, -4),
                (0, -5),
                (3, -4),
                (4, -3),
            ],
            Shape::Square => vec![(-4, -4), (4, -4), (4, 4), (-4, 4)],
            Shape::TriangleUp => vec![(0, -5), (5, 4), (-5, 4)],
            Shape::Diamond => vec![(0, -6), (5, 0), (0, 6), (-5, 0)],
            Shape::TriangleDown => vec![(0, 5), (5, -4), (-5, -4)],
            Shape::Plus => vec![
                (-2, -6),
                (2, -6),
                (2, -2),
                (6, -2),
                (6, 2),
                (2, 2),
                (2, 6),
                (-2, 6),
                (-2, 2),
                (-6, 2),
                (-6, -2),
                (-2, -2),
            ],
            Shape::Star => vec![
                (0, -6),
                (2, -2),
                (6, -2),
                (3, 1),
                (4, 6),
                (0, 3),
                (-4, 6),
                (-3, 1),
                (-6, -2),
                (-2, -2),
            ],
            Shape::TriangleLeft => vec![(-5, 0), (4, -5), (4, 5)],
            Shape::TriangleRight => vec![(5, 0), (-4, -5), (-4, 5)],
            // An X: a plus turned by 45°.
            Shape::Cross => vec![
                (-4, -5),
                (0, -1),
                (4, -5),
                (5, -4),
                (1, 0),
                (5, 4),
                (4, 5),
                (0, 1),
                (-4, 5),
                (-5, 4),
                (-1, 0),
                (-5, -4),
            ],
        }
    }
}

/// The outline of the mark of a run that stopped as infeasible: a bold
/// "×", 18 pixels across, larger than any strategy's marker and unlike
/// all of them.
pub(super) fn stop_outline() -> Vec<(i32, i32)> {
    vec![
        (-9, -6),
        (-6, -9),
        (0, -3),
        (6, -9),
        (9, -6),
        (3, 0),
        (9, 6),
        (6, 9),
        (0, 3),
        (-6, 9),
        (-9, 6),
        (-3, 0),
    ]
}

/// Gives the lines of every look but the solid ones their dash pattern,
/// and event lines theirs. Plotters has no dashed stroke style (its dashed
/// series draws every dash as an element of its own, hundreds of kilobytes
/// per chart), so SVG's own `stroke-dasharray` is added to the lines drawn
/// in a look's colour at [`LINE_WIDTH`] (its polyline and its legend
/// sample; markers and text are filled, and the axes and ticks, black like
/// one strategy, are [`AXIS_WIDTH`] wide, so they stay solid) and to the
/// event colour's at [`EVENT_WIDTH`]; `opacity="1"`, SVG's default, is left
/// out: ImageMagick draws a `fill="none"` polyline that carries it as a
/// filled polygon.
pub(super) fn dash_lines(mut svg: String, looks: &[Look]) -> String {
    let dashes = looks
        .iter()
        .filter_map(|look| look.dash.map(|d| (look.color, LINE_WIDTH, d)))
        .chain([(EVENT_COLOR, EVENT_WIDTH, EVENT_DASH)]);
    for (RGBColor(r, g, b), width, dash) in dashes {
        let colour = format!("stroke=\"#{r:02X}{g:02X}{b:02X}\"");
        let stroke = format!("{colour} stroke-width=\"{width}\"");
        let dashed = format!("{colour} stroke-dasharray=\"{dash}\" stroke-width=\"{width}\"");
        svg = svg.replace(&stroke, &dashed);
    }
    svg.replace(" opacity=\"1\"", "")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ten_registered_strategies_differ_in_colour_pattern_and_marker() {
        let names = smoothscale::assignor::names();
        assert_eq!(names.len(), 10, "one look each for the registry's ten");
        let looks: Vec<Look> = names.iter().map(|n| Look::of(n, 0)).collect();
        for (i, a) in looks.iter().enumerate() {
            for b in &looks[..i] {
                assert_ne!(a.color, b.color);
                assert_ne!(a.dash, b.dash);
                assert_ne!(a.shape, b.shape);
            }
            assert_ne!(a.color, EVENT_COLOR);
        }
        // Past the registry: still a colour of its own.
        let extra = Look::of("not-registered", 2);
        assert!(looks.iter().all(|l| l.color != extra.color));
        assert_eq!(Look::of("kip441", 5), looks[0]);
    }

    #[test]
    fn dashes_go_on_lines_in_the_looks_colour_only() {
        let look = Look::at(1);
        let RGBColor(r, g, b) = look.color;
        let svg = format!(
            "<polyline fill=\"none\" opacity=\"1\" stroke=\"#{r:02X}{g:02X}{b:02X}\" stroke-width=\"2\"/>\
             <polygon opacity=\"1\" fill=\"#{r:02X}{g:02X}{b:02X}\"/>"
        );
        let out = dash_lines(svg, &[Look::at(0), look]);
        assert_eq!(out.matches("stroke-dasharray=\"10 5\"").count(), 1, "{out}");
        assert!(!out.contains("opacity"), "{out}");
    }

    /// The last registered strategy is black, like the axes: its line is
    /// dashed, an axis of the same colour at the axes' width is not.
    #[test]
    fn an_axis_in_a_strategys_colour_stays_solid() {
        let black = Look::at(9);
        assert_eq!(black.color, RGBColor(0, 0, 0));
        let line = |width: u32| {
            format!("<polyline fill=\"none\" stroke=\"#000000\" stroke-width=\"{width}\" points=\"83,39 83,477\"/>")
        };
        let out = dash_lines(line(LINE_WIDTH) + &line(AXIS_WIDTH), &[black]);
        assert_eq!(out.matches("stroke-dasharray").count(), 1, "{out}");
        assert!(out.contains(&line(AXIS_WIDTH)), "{out}");
    }
}
