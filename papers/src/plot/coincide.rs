//! Marks drawn on top of one another, which hide each other: markers of
//! different series within a few pixels, and stretches of line where two
//! lines run on one another (two neighbouring vertices each on the other
//! line's). A marker on a line, or lines that only meet at a vertex, hide
//! nothing and are left alone. Every figure's caption says where marks
//! coincide, in the words [`describe`] makes of [`Chart::coincidences`].

use super::{Chart, Kind, AREA};

/// Says where in a chart some points are, in words: "1, 2 and 4 warm-ups".
pub type Places = dyn Fn(&[(f64, f64)]) -> String;

/// Marks closer than this (px) are drawn on one another.
pub const NEAR_PX: f64 = 4.0;

/// Series whose marks coincide, and where.
#[derive(Debug, PartialEq)]
pub struct Coincidence {
    /// The series' names, in the chart's order.
    pub names: Vec<String>,
    /// Where: points of the first series named, in data units, by x.
    pub at: Vec<(f64, f64)>,
    /// Whether every mark of every series named is among them.
    pub everywhere: bool,
}

/// A point drawn with a marker or as a vertex of a line.
struct Mark {
    series: usize,
    /// Its place in its series.
    index: usize,
    /// A marker (else a bare line's vertex).
    marker: bool,
    point: (f64, f64),
    pixel: (f64, f64),
}

/// The root of `i` in a union-find forest, halving paths on the way.
fn root(parent: &mut [usize], mut i: usize) -> usize {
    while parent[i] != i {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    i
}

impl Chart {
    /// The marks of the series that can hide one another, in pixels.
    fn marks(&self) -> Vec<Mark> {
        let (x_axis, y_axis) = self.axes();
        let mut marks = Vec::new();
        for (series, s) in self.series.iter().enumerate() {
            let marker = match s.kind {
                Kind::Points | Kind::LinePoints => true,
                Kind::Line(_) => false,
                // Rings circle other points; a band belongs to its curve.
                Kind::Steps(_) | Kind::Band(_) | Kind::Rings => continue,
            };
            for (index, &(x, y)) in s.points.iter().enumerate() {
                let (Some(px), Some(py)) = (x_axis.place(x), y_axis.place(y)) else {
                    continue;
                };
                marks.push(Mark {
                    series,
                    index,
                    marker,
                    point: (x, y),
                    pixel: (x_axis.fraction(px) * AREA.0, y_axis.fraction(py) * AREA.1),
                });
            }
        }
        marks
    }

    /// Marks of different series within [`NEAR_PX`] of each other (chains
    /// of such marks taken together; markers with markers, line vertices
    /// with line vertices), grouped by the series that meet. Lines count
    /// only where two neighbouring vertices coincide: a stretch of line is
    /// hidden.
    pub fn coincidences(&self) -> Vec<Coincidence> {
        let marks = self.marks();
        let mut parent: Vec<usize> = (0..marks.len()).collect();
        for i in 0..marks.len() {
            for j in i + 1..marks.len() {
                let (a, b) = (&marks[i], &marks[j]);
                let d = (a.pixel.0 - b.pixel.0).hypot(a.pixel.1 - b.pixel.1);
                if a.marker == b.marker && d < NEAR_PX {
                    let (ri, rj) = (root(&mut parent, i), root(&mut parent, j));
                    parent[ri.max(rj)] = ri.min(rj);
                }
            }
        }
        // Each cluster's members.
        let mut clusters: Vec<(usize, Vec<usize>)> = Vec::new();
        for i in 0..marks.len() {
            let r = root(&mut parent, i);
            match clusters.iter_mut().find(|(c, _)| *c == r) {
                Some((_, members)) => members.push(i),
                None => clusters.push((r, vec![i])),
            }
        }
        // Group the clusters of two or more series by those series: the
        // places (the first series' mark) and how many marks they hold.
        let mut groups: Vec<(Vec<usize>, Vec<&Mark>, usize)> = Vec::new();
        for (_, members) in clusters {
            let mut series: Vec<usize> = members.iter().map(|&m| marks[m].series).collect();
            series.sort_unstable();
            series.dedup();
            if series.len() < 2 {
                continue;
            }
            let Some(first) = members
                .iter()
                .map(|&m| &marks[m])
                .min_by_key(|m| (m.series, m.index))
            else {
                continue;
            };
            match groups.iter_mut().find(|(s, _, _)| *s == series) {
                Some((_, at, n)) => {
                    at.push(first);
                    *n += members.len();
                }
                None => groups.push((series, vec![first], members.len())),
            }
        }
        let mut found = Vec::new();
        for (series, mut at, covered) in groups {
            if at.iter().any(|m| !m.marker) {
                // Line vertices: only those with a neighbour also hidden.
                let indices: Vec<usize> = at.iter().map(|m| m.index).collect();
                at.retain(|m| {
                    indices.contains(&(m.index + 1))
                        || m.index.checked_sub(1).is_some_and(|i| indices.contains(&i))
                });
                if at.is_empty() {
                    continue;
                }
            }
            let all: usize = series
                .iter()
                .map(|&s| marks.iter().filter(|m| m.series == s).count())
                .sum();
            let mut points: Vec<(f64, f64)> = at.iter().map(|m| m.point).collect();
            points.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
            found.push(Coincidence {
                names: series
                    .iter()
                    .map(|&s| self.series[s].name.clone())
                    .collect(),
                at: points,
                everywhere: covered == all,
            });
        }
        found
    }
}

/// `items` joined as a list in words: "a", "a and b", "a, b and c".
pub fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// Names as a list in words, with the words they all begin with (and
/// then those they all end with) said once: "smooth every 1, 5 and 10
/// min", "kip441 and optimal".
pub fn names_list(names: &[String]) -> String {
    let words: Vec<Vec<&str>> = names.iter().map(|n| n.split(' ').collect()).collect();
    let shortest = words.iter().map(Vec::len).min().unwrap_or(0);
    let first = words.first().cloned().unwrap_or_default();
    let mut head = 0;
    while head < shortest && words.iter().all(|w| w[head] == first[head]) {
        head += 1;
    }
    let from_end = |w: &[&str], k: usize| w[w.len() - 1 - k].to_string();
    let mut tail = 0;
    while tail + head < shortest
        && words
            .iter()
            .all(|w| from_end(w, tail) == from_end(&first, tail))
    {
        tail += 1;
    }
    // Every name keeps a word of its own.
    if names.len() < 2 || head == 0 || words.iter().any(|w| w.len() == head + tail) {
        return and_list(names);
    }
    let middles: Vec<String> = words
        .iter()
        .map(|w| w[head..w.len() - tail].join(" "))
        .collect();
    let ends = |range: &[&str]| range.join(" ");
    [
        ends(&first[..head]),
        and_list(&middles),
        ends(&first[first.len() - tail..]),
    ]
    .iter()
    .filter(|part| !part.is_empty())
    .cloned()
    .collect::<Vec<_>>()
    .join(" ")
}

/// The coincidences as a sentence for a caption, with a leading space
/// ("` Drawn on one another: a and b at every point; c and d at P and
/// Q.`"), the places of each in the words of `places`; empty when there
/// are none.
pub fn describe(found: &[Coincidence], places: &Places) -> String {
    if found.is_empty() {
        return String::new();
    }
    let parts: Vec<String> = found
        .iter()
        .map(|c| {
            let names = names_list(&c.names);
            if c.everywhere {
                format!("{names} everywhere")
            } else {
                format!("{names} at {}", places(&c.at))
            }
        })
        .collect();
    format!(" Drawn on one another: {}.", parts.join("; "))
}

#[cfg(test)]
mod tests {
    use super::super::{Chart, Kind, Scale};
    use super::*;
    use crate::plot::style::Dash;
    use crate::plot::GREY;

    fn chart() -> Chart {
        let mut c = Chart::new("t", "x", "y");
        c.x_scale = Scale::Log;
        c.y_scale = Scale::Log;
        c
    }

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn near_points_of_different_series_coincide() {
        let mut c = chart();
        let xs = [1_000.0, 10_000.0, 100_000.0];
        c.add(
            "sticky",
            GREY,
            Kind::LinePoints,
            xs.iter().map(|&x| (x, x / 1_400.0)).collect(),
        );
        c.add(
            "fallback",
            GREY,
            Kind::LinePoints,
            xs.iter().map(|&x| (x, x / 1_380.0)).collect(),
        );
        c.add(
            "far",
            GREY,
            Kind::LinePoints,
            xs.iter().map(|&x| (x, x / 10.0)).collect(),
        );
        let found = c.coincidences();
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].names, ["sticky", "fallback"]);
        assert!(found[0].everywhere);
        let words = describe(&found, &|_| String::new());
        assert_eq!(
            words,
            " Drawn on one another: sticky and fallback everywhere."
        );
    }

    #[test]
    fn apart_points_and_one_series_own_points_do_not() {
        let mut c = chart();
        c.add(
            "a",
            GREY,
            Kind::Points,
            vec![(1.0, 1.0), (1.0, 1.0), (10.0, 10.0)],
        );
        c.add("b", GREY, Kind::Points, vec![(1.0, 100.0), (1.3, 10.0)]);
        c.add("steps", GREY, Kind::Steps(Dash::Solid), vec![(1.0, 1.0)]);
        assert!(c.coincidences().is_empty());
        assert_eq!(describe(&[], &|_| String::new()), "");
    }

    #[test]
    fn lines_coincide_along_a_stretch_not_at_a_vertex() {
        let mut c = chart();
        c.x_scale = Scale::Linear;
        let law = |label: &str, ys: [f64; 4]| (label.to_string(), ys);
        for (label, ys) in [
            law("law for 1 min", [3.6, 1.8, 0.9, 0.45]),
            law("law for 5 min", [4.0, 2.0, 1.0, 0.5]),
            law("law for 10 min", [4.0, 2.0, 1.0, 0.5]),
        ] {
            let pts = [1.0, 2.0, 4.0, 8.0].iter().copied().zip(ys).collect();
            c.add(&label, GREY, Kind::Line(Dash::Dashed), pts);
        }
        // A marker on a line's vertex hides nothing.
        c.add("smooth", GREY, Kind::Points, vec![(1.0, 4.0)]);
        let found = c.coincidences();
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].names, ["law for 5 min", "law for 10 min"]);
        assert!(found[0].everywhere);
        let words = describe(&found, &|_| String::new());
        assert_eq!(
            words,
            " Drawn on one another: law for 5 and 10 min everywhere."
        );
    }

    #[test]
    fn partial_coincidences_name_their_places() {
        let mut c = chart();
        c.add(
            "smooth every 5 min",
            GREY,
            Kind::Points,
            vec![(1.0, 4.0), (2.0, 2.0)],
        );
        c.add(
            "smooth every 10 min",
            GREY,
            Kind::Points,
            vec![(1.0, 4.0), (2.0, 3.0)],
        );
        let found = c.coincidences();
        assert_eq!(found.len(), 1);
        assert!(!found[0].everywhere);
        assert_eq!(found[0].at, [(1.0, 4.0)]);
        let words = describe(&found, &|at| format!("{} warm-up", at[0].0));
        assert_eq!(
            words,
            " Drawn on one another: smooth every 5 and 10 min at 1 warm-up."
        );
    }

    #[test]
    fn lists_read_as_words() {
        assert_eq!(and_list(&strings(&["a"])), "a");
        assert_eq!(and_list(&strings(&["a", "b", "c"])), "a, b and c");
        assert_eq!(
            names_list(&strings(&["kip441", "kip441-learner"])),
            "kip441 and kip441-learner"
        );
        assert_eq!(
            names_list(&strings(&["kip441 every 1 min", "kip441 every 5 min"])),
            "kip441 every 1 and 5 min"
        );
        assert_eq!(
            names_list(&strings(&["the law", "the law for 5 min"])),
            "the law and the law for 5 min"
        );
        assert_eq!(
            names_list(&strings(&["the law for 1 min", "smooth every 1 min"])),
            "the law for 1 min and smooth every 1 min"
        );
    }
}
