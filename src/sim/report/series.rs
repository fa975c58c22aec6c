//! The time-series record: each quantity a run's samples hold
//! ([`TIME_SERIES`]), as `timeseries.csv`, `series.json` and the plots show
//! it over simulated time.

use super::fixed::Fixed;
use crate::sim::run::Sample;

/// One quantity of the time series ([`Sample`]), as the plots show it over
/// simulated time.
#[derive(Debug, Clone, Copy)]
pub struct TimeSeries {
    /// Its column in `timeseries.csv` and its key in `series.json`
    /// (`available_tasks`).
    pub column: &'static str,
    /// What it is (`available tasks`).
    pub title: &'static str,
    /// What a value counts (`tasks with a running active`).
    pub label: &'static str,
    /// The unit (`tasks`); empty for a count of records, which a plot
    /// scales to thousands, millions or billions.
    pub unit: &'static str,
    /// What a chart of it says, centred, when it is 0 throughout every run
    /// (`no input backlog in any run`).
    pub nothing: &'static str,
    /// The value of one sample.
    pub value: fn(&Sample) -> Fixed,
}

/// The time series a run's samples hold, in the order the plots come.
/// Each sample after the first is a mean over its interval ([`Sample`]).
pub const TIME_SERIES: [TimeSeries; 6] = [
    TimeSeries {
        column: "available_tasks",
        title: "available tasks",
        label: "tasks with a running active (interval mean)",
        unit: "tasks",
        nothing: "no task available in any run",
        value: |s| Fixed::milli(s.available_tasks_milli),
    },
    TimeSeries {
        column: "restoring_tasks",
        title: "restoring tasks",
        label: "stateful actives restoring (interval mean)",
        unit: "tasks",
        nothing: "no task restoring in any run",
        value: |s| Fixed::milli(s.restoring_tasks_milli),
    },
    TimeSeries {
        column: "imbalance",
        title: "imbalance",
        label: "max - min active tasks per thread (interval mean)",
        unit: "tasks/thread",
        nothing: "no imbalance in any run: actives per thread even throughout",
        value: |s| Fixed::milli(s.imbalance_milli),
    },
    TimeSeries {
        column: "restored_records",
        title: "cumulative restored records",
        label: "records restored so far",
        unit: "",
        nothing: "no records restored in any run",
        value: |s| Fixed::int(s.restored_records.get()),
    },
    TimeSeries {
        column: "backlog_records",
        title: "input backlog",
        label: "input records not processed yet, all tasks (interval mean)",
        unit: "",
        nothing: "no input backlog in any run",
        value: |s| Fixed::int(s.backlog_records),
    },
    TimeSeries {
        column: "max_replicas_per_client",
        title: "replicas on the busiest client",
        label: "most standbys and warm-ups on one member (interval max)",
        unit: "replicas",
        nothing: "no standby or warm-up in any run",
        value: |s| Fixed::int(s.max_replicas_per_client),
    },
];
