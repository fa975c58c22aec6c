//! `series.json`: the data the command line's charts draw, one entry per
//! time series of [`TIME_SERIES`] and then the cumulative unavailability
//! ([`cumulative`]), each with its title, label, unit and one line per run:
//!
//! ```text
//! {
//!   "series": [
//!     {"column": "available_tasks", "title": "available tasks",
//!      "label": "tasks with a running active (interval mean)", "unit": "tasks",
//!      "runs": {
//!        "kip441": {"t_s": [0.000, 30.000, …], "value": [12.000, 11.500, …],
//!                   "infeasible_at_s": null}      // or when the run stopped
//!      }},
//!     …
//!     {"column": "unavailable_task_s_so_far", "title": "cumulative unavailability", …}
//!   ]
//! }
//! ```
//!
//! The values are those of `timeseries.csv` (the same decimals); the
//! cumulative unavailability has 6 decimals.

use serde::Serialize;

use super::format::{opt, InOrder, Num};
use crate::sim::report::cumulative;
use crate::sim::report::{Fixed, TIME_SERIES};
use crate::sim::run::units::Millis;
use crate::sim::run::{Outcome, RunResult};
use crate::wire;

/// The key of the cumulative unavailability in `series.json`.
pub const UNAVAILABLE_SO_FAR: &str = "unavailable_task_s_so_far";

/// `series.json`.
#[derive(Serialize)]
struct SeriesDoc {
    series: Vec<OneSeries>,
}

/// One chart's data.
#[derive(Serialize)]
struct OneSeries {
    column: &'static str,
    title: &'static str,
    label: &'static str,
    unit: &'static str,
    runs: InOrder<Line>,
}

/// One run's line: times and values, in time order.
#[derive(Serialize)]
struct Line {
    t_s: Vec<Num>,
    value: Vec<Num>,
    infeasible_at_s: Option<Num>,
}

impl Line {
    fn of(result: &RunResult, points: impl Iterator<Item = (u64, Fixed)>) -> Line {
        let (t_s, value) = points
            .map(|(t_ms, v)| (Num(Fixed::seconds(Millis::new(t_ms))), Num(v)))
            .unzip();
        let stopped = match &result.outcome {
            Outcome::Completed => None,
            Outcome::Infeasible { at_ms, .. } => Some(Fixed::at(*at_ms)),
        };
        Line {
            t_s,
            value,
            infeasible_at_s: opt(stopped),
        }
    }
}

/// `series.json` of `results` (strategies in run order) of a scenario with
/// `total_tasks` tasks (the sum of its subtopologies' partitions).
pub fn series_json(total_tasks: u64, results: &[RunResult]) -> String {
    let mut series: Vec<OneSeries> = TIME_SERIES
        .iter()
        .map(|s| OneSeries {
            column: s.column,
            title: s.title,
            label: s.label,
            unit: s.unit,
            runs: InOrder(
                results
                    .iter()
                    .map(|r| {
                        let points = r.samples.iter().map(|x| (x.t_ms.get(), (s.value)(x)));
                        (r.strategy.clone(), Line::of(r, points))
                    })
                    .collect(),
            ),
        })
        .collect();
    series.push(OneSeries {
        column: UNAVAILABLE_SO_FAR,
        title: cumulative::TITLE,
        label: cumulative::LABEL,
        unit: cumulative::UNIT,
        runs: InOrder(
            results
                .iter()
                .map(|r| {
                    let sums = cumulative::unavailable_so_far(total_tasks, &r.samples);
                    (r.strategy.clone(), Line::of(r, sums.into_iter()))
                })
                .collect(),
        ),
    });
    wire::write(&SeriesDoc { series })
}
