//! `timeseries.csv` (module doc of [`super`]): a row per strategy and
//! sample, the values of the time-series record
//! ([`TIME_SERIES`](crate::sim::report::TIME_SERIES)) in the file's column
//! order.

use std::fmt::Write as _;

use super::format::csv_field;
use crate::sim::report::{Fixed, TimeSeries, TIME_SERIES};
use crate::sim::run::RunResult;

/// The time series in `timeseries.csv`'s column order (the file's order
/// predates the record's, which is the plots').
const COLUMNS: [&str; 6] = [
    "available_tasks",
    "restoring_tasks",
    "imbalance",
    "max_replicas_per_client",
    "backlog_records",
    "restored_records",
];

/// The CSV header of `timeseries.csv`: the strategy, the sample's time in
/// seconds, then the time series.
pub const TIMESERIES_HEADER: &str =
    "strategy,t_s,available_tasks,restoring_tasks,imbalance,max_replicas_per_client,backlog_records,restored_records";

/// The record's entry of each column, in column order.
fn columns() -> [&'static TimeSeries; 6] {
    COLUMNS.map(|name| {
        TIME_SERIES
            .iter()
            .find(|s| s.column == name)
            .unwrap_or_else(|| panic!("{name} is a time series of the record"))
    })
}

/// `timeseries.csv`: the header, then one row per sample, strategies in run
/// order, samples in time order. Lines end in `\n`.
pub fn timeseries_csv(results: &[RunResult]) -> String {
    let columns = columns();
    let mut out = String::from(TIMESERIES_HEADER);
    out.push('\n');
    for result in results {
        for sample in &result.samples {
            let _ = write!(
                out,
                "{},{}",
                csv_field(&result.strategy),
                Fixed::at(sample.t_ms)
            );
            for series in columns {
                let _ = write!(out, ",{}", (series.value)(sample));
            }
            out.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_header_names_the_columns() {
        let header = format!("strategy,t_s,{}", COLUMNS.join(","));
        assert_eq!(header, TIMESERIES_HEADER);
        assert_eq!(columns().len(), TIME_SERIES.len());
    }
}
