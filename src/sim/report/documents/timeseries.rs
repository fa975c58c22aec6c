//! `timeseries.csv` (module doc of [`super`]).

use std::fmt::Write as _;

use super::csv_field;
use crate::sim::report::Fixed;
use crate::sim::{RunResult, Sample};

/// The CSV header of `timeseries.csv`: [`TimeseriesRow`]'s fields.
pub const TIMESERIES_HEADER: &str =
    "strategy,t_s,available_tasks,restoring_tasks,imbalance,max_replicas_per_client,backlog_records,restored_records";

/// One row of `timeseries.csv`: one sample of one strategy.
struct TimeseriesRow<'a> {
    strategy: &'a str,
    /// Seconds, 3 decimals.
    t_s: Fixed,
    /// Interval means, 3 decimals.
    available_tasks: Fixed,
    restoring_tasks: Fixed,
    /// Tasks per thread, interval mean, 3 decimals.
    imbalance: Fixed,
    max_replicas_per_client: u64,
    /// Interval mean, rounded half up.
    backlog_records: u64,
    restored_records: u64,
}

impl<'a> TimeseriesRow<'a> {
    fn of(strategy: &'a str, sample: &Sample) -> TimeseriesRow<'a> {
        TimeseriesRow {
            strategy,
            t_s: Fixed::at(sample.t_ms),
            available_tasks: Fixed::milli(sample.available_tasks_milli),
            restoring_tasks: Fixed::milli(sample.restoring_tasks_milli),
            imbalance: Fixed::milli(sample.imbalance_milli),
            max_replicas_per_client: sample.max_replicas_per_client,
            backlog_records: sample.backlog_records,
            restored_records: sample.restored_records.get(),
        }
    }

    /// The row in [`TIMESERIES_HEADER`]'s column order, ending in `\n`.
    fn write(&self, out: &mut String) {
        let _ = writeln!(
            out,
            "{},{},{},{},{},{},{},{}",
            csv_field(self.strategy),
            self.t_s,
            self.available_tasks,
            self.restoring_tasks,
            self.imbalance,
            self.max_replicas_per_client,
            self.backlog_records,
            self.restored_records
        );
    }
}

/// `timeseries.csv`: the header, then one row per sample, strategies in run
/// order, samples in time order. Lines end in `\n`.
pub fn timeseries_csv(results: &[RunResult]) -> String {
    let mut out = String::from(TIMESERIES_HEADER);
    out.push('\n');
    for result in results {
        for sample in &result.samples {
            TimeseriesRow::of(&result.strategy, sample).write(&mut out);
        }
    }
    out
}
