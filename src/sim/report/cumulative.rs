//! The cumulative unavailability of a run, from its time series: the
//! task-seconds without a running active so far, at each sample.
//!
//! Each sample after the first stands for the interval since the one
//! before, so the sum adds, per interval, (tasks − available tasks) × its
//! length: exact when the samples hold interval means (then the last value
//! is the run's `unavailable_task_s.total` up to the last sample), and off
//! by at most one interval per outage when they hold the values at the
//! sample instants. Integer arithmetic throughout, so the figures are the
//! same on every machine.

use super::fixed::Fixed;
use super::series::TIME_SERIES;
use crate::sim::run::Sample;

/// What the series is, as a chart titles it.
pub const TITLE: &str = "cumulative unavailability";
/// What a value counts.
pub const LABEL: &str = "task-seconds without a running active so far";
/// The unit of a value.
pub const UNIT: &str = "task-s";
/// What a chart of it says when it is 0 throughout every run.
pub const NOTHING: &str = "no task unavailable in any run";
/// The metric (a key of [`METRICS`](super::METRICS)) the series ends at
/// within sampling error: a chart's legend gives its value, as
/// `summary.json` does.
pub const TOTAL: &str = "unavailable_task_s.total";

/// The library's series of available tasks, the one this sum is taken of.
const AVAILABLE: usize = 0;

/// The task-seconds without a running active from 0 to each sample's
/// time, given the scenario's `total_tasks`: one value per sample (0 at
/// the first), with 6 decimals.
pub fn unavailable_so_far(total_tasks: u64, samples: &[Sample]) -> Vec<(u64, Fixed)> {
    let available = &TIME_SERIES[AVAILABLE];
    let mut sum: u128 = 0;
    let mut previous: Option<u64> = None;
    samples
        .iter()
        .map(|sample| {
            let t = sample.t_ms.get();
            if let Some(before) = previous {
                let down_milli = (u128::from(total_tasks) * 1000)
                    .saturating_sub(milli((available.value)(sample)));
                sum = sum.saturating_add(down_milli * u128::from(t.saturating_sub(before)));
            }
            previous = Some(t);
            // Milli-tasks × milliseconds: 10^-6 task-seconds.
            (
                t,
                Fixed {
                    scaled: sum,
                    decimals: 6,
                },
            )
        })
        .collect()
}

/// `value` in thousandths (values with more decimals are cut to three).
fn milli(value: Fixed) -> u128 {
    match value.decimals {
        d @ 0..=3 => value.scaled * 10u128.pow(3 - d),
        d => value.scaled / 10u128.pow(d - 3),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::run::units::SimTime;

    /// Samples with these available-task counts, a minute apart.
    fn samples(available: &[u64]) -> Vec<Sample> {
        let series = &TIME_SERIES[AVAILABLE];
        assert_eq!(series.title, "available tasks");
        available
            .iter()
            .zip(0u64..)
            .map(|(&a, i)| {
                let mut s = Sample {
                    t_ms: SimTime::new(i * 60_000),
                    ..Sample::default()
                };
                set_available(&mut s, a);
                assert_eq!(milli((series.value)(&s)), u128::from(a) * 1000);
                s
            })
            .collect()
    }

    fn set_available(s: &mut Sample, tasks: u64) {
        s.available_tasks_milli = tasks * 1000;
    }

    #[test]
    fn by_hand() {
        // 10 tasks; the minutes ending at 1, 2, 3 have 10, 7 and 9 tasks
        // available: 0 + 3 × 60 + 1 × 60 = 240 task-seconds.
        let sums = unavailable_so_far(10, &samples(&[10, 10, 7, 9]));
        let shown: Vec<String> = sums.iter().map(|(_, f)| f.to_string()).collect();
        assert_eq!(shown, ["0.000000", "0.000000", "180.000000", "240.000000"]);
        assert_eq!(sums[3].0, 180_000);
        assert!(unavailable_so_far(10, &[]).is_empty());
    }

    #[test]
    fn the_total_is_a_metric() {
        assert!(super::super::METRICS.iter().any(|m| m.key == TOTAL));
    }

    #[test]
    fn thousandths() {
        assert_eq!(milli(Fixed::int(3)), 3000);
        assert_eq!(milli(Fixed::milli(2500)), 2500);
        assert_eq!(
            milli(Fixed {
                scaled: 12_345,
                decimals: 4
            }),
            1234
        );
    }
}
