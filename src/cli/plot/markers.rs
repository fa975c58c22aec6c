//! The events the time-series charts mark: the scenario's scripted events
//! (a dashed vertical line with a short label: `scale-out +2`, `crash c3`)
//! and the churn the seed draws (a tick at the top with a letter), and
//! where their labels go so that they do not overlap.

use smoothscale::sim::{ChurnKind, EventKind, Scenario};

/// A scripted event as a chart marks it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Marker {
    /// When, in simulated milliseconds.
    pub at_ms: u64,
    /// What (`scale-out +2`).
    pub label: String,
}

/// A drawn churn event as a chart marks it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct ChurnMark {
    /// When, in simulated milliseconds.
    pub at_ms: u64,
    /// Its letter: `C` crash, `R` restart, `+` join, `-` leave.
    pub letter: char,
}

/// What the letters of churn marks mean, for the legend.
pub(super) const CHURN_KEY: &str = "C crash, R restart, + join, - leave";

/// The markers of `scenario`'s scripted events, by time (a rack outage that
/// ends gives a second marker when its clients come back).
pub(super) fn scripted(scenario: &Scenario) -> Vec<Marker> {
    let mut markers = Vec::new();
    for event in &scenario.events {
        let mut mark = |at_ms: u64, label: String| markers.push(Marker { at_ms, label });
        let disk = |lose_state: bool| if lose_state { ", disk lost" } else { "" };
        let of = |group: &Option<String>| group.as_ref().map_or(String::new(), |g| format!(" {g}"));
        match &event.kind {
            EventKind::ScaleOut { count, group } => {
                mark(event.at_ms, format!("scale-out +{count}{}", of(group)));
            }
            EventKind::ScaleIn { count, group } => {
                mark(event.at_ms, format!("scale-in -{count}{}", of(group)));
            }
            EventKind::Crash { client, lose_state } => {
                mark(event.at_ms, format!("crash {client}{}", disk(*lose_state)));
            }
            EventKind::Restart { client } => mark(event.at_ms, format!("restart {client}")),
            EventKind::RollingBounce { .. } => mark(event.at_ms, "rolling bounce".to_string()),
            EventKind::RackOutage {
                rack,
                lose_state,
                duration_ms,
            } => {
                mark(
                    event.at_ms,
                    format!("rack {rack} down{}", disk(*lose_state)),
                );
                if let Some(back) = duration_ms.and_then(|d| event.at_ms.checked_add(d)) {
                    mark(back, format!("rack {rack} back"));
                }
            }
            EventKind::WriteSpike {
                subtopology,
                partition,
                write_rate,
            } => {
                let tasks = partition.map_or_else(
                    || format!("{subtopology}_*"),
                    |p| format!("{subtopology}_{p}"),
                );
                mark(event.at_ms, format!("writes {tasks}: {write_rate}/s"));
            }
        }
    }
    // Stable: events at the same instant keep the scenario's order.
    markers.sort_by_key(|m| m.at_ms);
    markers
}

/// The churn `scenario` draws with `seed`, by time (none without churn).
pub(super) fn churn(scenario: &Scenario, seed: u64) -> Vec<ChurnMark> {
    let Some(spec) = &scenario.churn else {
        return Vec::new();
    };
    spec.drawn_events(seed)
        .into_iter()
        .map(|(at, kind)| ChurnMark {
            at_ms: at.get(),
            letter: match kind {
                ChurnKind::Crash => 'C',
                ChurnKind::Restart => 'R',
                ChurnKind::ScaleOut => '+',
                ChurnKind::ScaleIn => '-',
                ChurnKind::Burst => 'B',
                ChurnKind::ZoneOutage => 'Z',
            },
        })
        .collect()
}

/// `ms` as a short duration for a label: hours, minutes and seconds with
/// the zero parts left out (`12m`, `1h30m`, `2h0m5s` is `2h5s`); below a
/// second, milliseconds (`0s` at 0). Leftover milliseconds past a second
/// are dropped.
pub(crate) fn short_time(ms: u64) -> String {
    if ms == 0 {
        return "0s".to_string();
    }
    if ms < 1_000 {
        return format!("{ms}ms");
    }
    let (h, m, s) = (ms / 3_600_000, ms / 60_000 % 60, ms / 1_000 % 60);
    let mut out = String::new();
    for (n, unit) in [(h, "h"), (m, "m"), (s, "s")] {
        if n > 0 {
            out.push_str(&format!("{n}{unit}"));
        }
    }
    out
}

/// Rows of labels at most, below the top of the chart.
pub(super) const LABEL_ROWS: usize = 3;

/// Where a label goes: its row (0 at the top) and whether it runs left of
/// its line (near the right edge) instead of right of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Placement {
    /// The row.
    pub row: usize,
    /// Text ends at the line instead of starting there.
    pub leftward: bool,
}

/// Pixels between a line and its label, and between two labels in a row.
const GAP: i32 = 4;

/// The placement of each label, given its line's pixel `x` (ascending) and
/// its estimated width, in a plot whose area ends at pixel `right`: the
/// first row where it does not overlap the label before it; `None` (line
/// without a label) when every row is taken there.
pub(super) fn place_labels(labels: &[(i32, i32)], right: i32) -> Vec<Option<Placement>> {
    let mut row_end = [i32::MIN; LABEL_ROWS];
    labels
        .iter()
        .map(|&(x, width)| {
            let leftward = x + GAP + width > right;
            let (start, end) = if leftward {
                (x - GAP - width, x - GAP)
            } else {
                (x + GAP, x + GAP + width)
            };
            let row = row_end
                .iter()
                .position(|&e| e.saturating_add(GAP) <= start)?;
            row_end[row] = end;
            Some(Placement { row, leftward })
        })
        .collect()
}

/// The estimated width in pixels of `text` at `size` pixels: plotters
/// without fonts does not measure text, so about 0.6 em per character.
pub(super) fn text_width(text: &str, size: u32) -> i32 {
    let chars = i32::try_from(text.chars().count()).unwrap_or(i32::MAX / 2);
    let size = i32::try_from(size).unwrap_or(12);
    chars.saturating_mul(size).saturating_mul(6) / 10
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scenario(events: &str) -> Scenario {
        let text = format!(
            r#"
name = "markers"
description = "event markers"
seed = 1
duration = "2h"
sample_every = "1m"
[cluster]
clients = 3
threads = 1
racks = ["r1", "r2"]
restore_rate = 1000
session_timeout = "45s"
rebalance_pause = "5s"
state_cleanup_delay = "10m"
protocol = "cooperative"
[[subtopologies]]
partitions = 4
stateful = true
state_records = 1000
write_rate = 10
{events}
"#
        );
        Scenario::from_toml(&text).unwrap()
    }

    #[test]
    fn scripted_events_get_short_labels_in_time_order() {
        let s = scenario(
            r#"
[[events]]
at = "40m"
kind = "crash"
client = "c0"
lose_state = true
[[events]]
at = "10m"
kind = "scale_out"
count = 2
[[events]]
at = "20m"
kind = "rack_outage"
rack = "r2"
duration = "30m"
[[events]]
at = "45m"
kind = "restart"
client = "c0"
[[events]]
at = "1h"
kind = "scale_in"
count = 1
[[events]]
at = "1h10m"
kind = "write_spike"
subtopology = 0
write_rate = 500
"#,
        );
        assert_eq!(
            scripted(&s)
                .into_iter()
                .map(|m| (m.at_ms / 60_000, m.label))
                .collect::<Vec<_>>(),
            [
                (10, "scale-out +2".to_string()),
                (20, "rack r2 down".to_string()),
                (40, "crash c0, disk lost".to_string()),
                (45, "restart c0".to_string()),
                (50, "rack r2 back".to_string()),
                (60, "scale-in -1".to_string()),
                (70, "writes 0_*: 500/s".to_string()),
            ]
        );
        assert!(churn(&s, 1).is_empty());
    }

    #[test]
    fn churn_marks_follow_the_seed() {
        let s = scenario(
            r#"
[churn]
events_per_hour = 6
kinds = ["crash", "restart", "scale_out", "scale_in"]
from = "10m"
until = "1h40m"
"#,
        );
        let marks = churn(&s, 3);
        // 6 an hour over 1.5 h.
        assert_eq!(marks.len(), 9);
        assert!(marks.windows(2).all(|w| w[0].at_ms <= w[1].at_ms));
        assert!(marks
            .iter()
            .all(|m| (600_000..=6_000_000).contains(&m.at_ms) && "CR+-".contains(m.letter)));
        assert_eq!(marks, churn(&s, 3));
        assert_ne!(marks, churn(&s, 4));
    }

    #[test]
    fn short_times() {
        assert_eq!(short_time(0), "0s");
        assert_eq!(short_time(500), "500ms");
        assert_eq!(short_time(45_000), "45s");
        assert_eq!(short_time(12 * 60_000), "12m");
        assert_eq!(short_time(12 * 60_000 + 45_500), "12m45s");
        assert_eq!(short_time(90 * 60_000), "1h30m");
        assert_eq!(short_time(2 * 3_600_000 + 5_000), "2h5s");
    }

    #[test]
    fn labels_take_the_first_free_row() {
        // Three labels 50 px wide at 100, 120 and 300; a fourth at 990 near
        // the right edge (1000) runs leftward.
        let placed = place_labels(
            &[
                (100, 50),
                (120, 50),
                (130, 50),
                (140, 50),
                (300, 50),
                (990, 50),
            ],
            1000,
        );
        let rows: Vec<Option<usize>> = placed.iter().map(|p| p.map(|p| p.row)).collect();
        assert_eq!(rows, [Some(0), Some(1), Some(2), None, Some(0), Some(0)]);
        assert!(placed[5].unwrap().leftward);
        assert!(!placed[4].unwrap().leftward);
        assert_eq!(text_width("scale-out +2", 10), 72);
    }
}
