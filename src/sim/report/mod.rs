//! The figures of a run: every metric as an exact decimal ([`Fixed`]),
//! computed from the run's integers with integer arithmetic, in a typed
//! record ([`Figures`]) and flattened (`name.part`, for statistics over
//! seeds). Writing them (`summary.json`, `timeseries.csv`, tables, plots)
//! is the command line's job; docs/simulator.md describes the outputs.
//!
//! Seconds have 3 decimals (exact: the simulator counts milliseconds);
//! `imbalance` is in active tasks per thread, 3 decimals, its time-weighted
//! value rounded half up; `standby_coverage` is a share of 0..1, 4 decimals,
//! rounded half up. Time-weighted figures divide by the time the run covered
//! (`RunResult::covered_ms`), which is shorter than the scenario for a run that
//! stopped as infeasible; they are `None` when that time is 0.
//! `standby_coverage` is `None` when the scenario asks for no standbys or has
//! no stateful task.
//!
//! `cross_rack_actives` is the time-weighted count of actives (of the plan in
//! force) on a client outside their task's rack, 3 decimals.
//! `restore_over_optimal` sums, over the counted rebalances whose plan gives
//! every member between ⌊T·k/K⌋ and ⌈T·k/K⌉ actives, the records its actives
//! restore beyond the `optimal` strategy's minimum for the same input
//! (`metrics::distance_to_optimal`); `rebalances` says how many were
//! measured (plans outside those bounds are not comparable and skipped).

pub mod cumulative;
pub mod dispersion;
pub mod documents;
mod fixed;
pub mod palette;
mod stats;

pub use fixed::Fixed;
pub use stats::{aggregate, nearest_rank, PointSweep, RunFigures, Stats, StrategySweep};

use crate::sim::units::Millis;
use crate::sim::{RunResult, Sample};

/// Three parts and their sum.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Split {
    /// Of stateful tasks (or actives).
    pub first: Fixed,
    /// Of stateless tasks (or replicas).
    pub second: Fixed,
    /// The sum.
    pub total: Fixed,
}

/// How long each task was without a running active over the run: the
/// nearest-rank percentiles over all tasks (`pN` is the value of rank
/// `⌈N/100 × tasks⌉` in ascending order) and how many were ever down.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TaskDowntime {
    /// The median task's downtime, seconds.
    pub p50: Option<Fixed>,
    /// The 99th percentile, seconds.
    pub p99: Option<Fixed>,
    /// The most any task was down, seconds.
    pub max: Option<Fixed>,
    /// Tasks down for any time at all.
    pub affected: Fixed,
}

impl TaskDowntime {
    fn of(down: &[Millis]) -> TaskDowntime {
        let mut sorted = down.to_vec();
        sorted.sort_unstable();
        let rank = |p: u32| stats::nearest_rank(&sorted, p).map(Fixed::seconds);
        TaskDowntime {
            p50: rank(50),
            p99: rank(99),
            max: rank(100),
            affected: Fixed::int(sorted.iter().filter(|d| d.get() > 0).count() as u64),
        }
    }
}

/// Rebalances by trigger.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rebalances {
    /// Joins, leaves and noticed crashes.
    pub membership: Fixed,
    /// Probing (follow-up) rebalances.
    pub probing: Fixed,
    /// Learners that caught up.
    pub caught_up: Fixed,
    /// The sum.
    pub total: Fixed,
}

/// Every metric of one run, in output order (module doc for units).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Figures {
    /// Task-seconds without a running active: stateful, stateless, total.
    pub unavailable_task_s: Split,
    /// The longest outage of one task, seconds.
    pub max_outage_s: Fixed,
    /// Each task's total downtime: percentiles over tasks, tasks affected.
    pub task_downtime: TaskDowntime,
    /// Records restored: by actives, by replicas, total.
    pub restored_records: Split,
    /// Records restored to recover (by actives, and by replicas behind their
    /// changelog's end) and records caught-up standbys read to follow their
    /// running actives (steady-state replication); they sum to the total.
    pub recovery_records: Fixed,
    /// See `recovery_records`.
    pub steady_replication_records: Fixed,
    /// Actives that changed client.
    pub active_moves: Fixed,
    /// The stateful ones among them.
    pub stateful_active_moves: Fixed,
    /// The stateless ones.
    pub stateless_active_moves: Fixed,
    /// Replicas placed on a client that did not hold the task as one.
    pub standby_moves: Fixed,
    /// Counted rebalances.
    pub rebalances: Rebalances,
    /// Seconds from the last event to a settled plan; `None`: never.
    pub time_to_converge_s: Option<Fixed>,
    /// Seconds from the last event until every task runs for good; `None`: never.
    pub time_to_full_availability_s: Option<Fixed>,
    /// Seconds from the last event until every stateful task has its
    /// caught-up standbys for good; `None`: never.
    pub time_to_full_redundancy_s: Option<Fixed>,
    /// Seconds from the last event until every restore is done for good
    /// (the data converged); `None`: never.
    pub time_to_restores_done_s: Option<Fixed>,
    /// The most standbys and warm-ups one member held at once.
    pub max_replicas_per_client: Fixed,
    /// Times a stateful task lost every copy of its state.
    pub tasks_lost_every_copy: Fixed,
    /// Seconds from the last event until no task has an input backlog for
    /// good; `None`: never.
    pub time_to_drain_s: Option<Fixed>,
    /// Input records behind, over all tasks: time-weighted mean (`None`
    /// when no time was covered) and the most at once.
    pub backlog_mean_records: Option<Fixed>,
    /// See `backlog_mean_records`.
    pub backlog_max_records: Fixed,
    /// Members of the group at the end.
    pub final_members: Fixed,
    /// Time-weighted imbalance (tasks per thread), `None` when no time was covered.
    pub imbalance_time_weighted: Option<Fixed>,
    /// Imbalance at the end.
    pub imbalance_final: Fixed,
    /// Time-weighted share of stateful tasks covered by caught-up standbys.
    pub standby_coverage: Option<Fixed>,
    /// Records restored across racks.
    pub cross_rack_records: Fixed,
    /// Time-weighted count of actives outside their task's racks.
    pub cross_rack_actives: Option<Fixed>,
    /// Records restored beyond `optimal`'s minimum.
    pub restore_over_optimal_records: Fixed,
    /// Rebalances measured that way.
    pub restore_over_optimal_rebalances: Fixed,
}

impl Figures {
    /// The figures of `result`; `standbys_asked` is whether the scenario
    /// asks for standbys (`num_standby_replicas > 0`).
    pub fn of(result: &RunResult, standbys_asked: bool) -> Figures {
        let m = &result.metrics;
        let covered = u128::from(result.covered_ms.get());
        let int = Fixed::int;
        let sum = |a: u64, b: u64| Fixed {
            scaled: u128::from(a) + u128::from(b),
            decimals: 0,
        };
        let unavailable = (
            m.unavailable_stateful_task_ms.get(),
            m.unavailable_stateless_task_ms.get(),
        );
        let restored = (
            m.restored_active_records.get(),
            m.restored_replica_records.get(),
        );
        Figures {
            unavailable_task_s: Split {
                first: Fixed::seconds(m.unavailable_stateful_task_ms),
                second: Fixed::seconds(m.unavailable_stateless_task_ms),
                total: Fixed {
                    scaled: u128::from(unavailable.0) + u128::from(unavailable.1),
                    decimals: 3,
                },
            },
            max_outage_s: Fixed::seconds(m.max_outage_ms),
            task_downtime: TaskDowntime::of(&m.task_down_ms),
            restored_records: Split {
                first: int(restored.0),
                second: int(restored.1),
                total: sum(restored.0, restored.1),
            },
            // Steady replication is part of what replicas read.
            recovery_records: Fixed {
                scaled: u128::from(restored.0)
                    + u128::from(restored.1.saturating_sub(m.steady_replica_records.get())),
                decimals: 0,
            },
            steady_replication_records: int(m.steady_replica_records.get()),
            active_moves: int(m.active_moves),
            stateful_active_moves: int(m.stateful_active_moves),
            stateless_active_moves: int(m.active_moves - m.stateful_active_moves),
            standby_moves: int(m.standby_moves),
            rebalances: Rebalances {
                membership: int(m.membership_rebalances),
                probing: int(m.probing_rebalances),
                caught_up: int(m.caught_up_rebalances),
                total: Fixed {
                    scaled: u128::from(m.membership_rebalances)
                        + u128::from(m.probing_rebalances)
                        + u128::from(m.caught_up_rebalances),
                    decimals: 0,
                },
            },
            time_to_converge_s: m.converge_ms.map(Fixed::seconds),
            time_to_full_availability_s: m.full_availability_ms.map(Fixed::seconds),
            time_to_full_redundancy_s: m.full_redundancy_ms.map(Fixed::seconds),
            time_to_restores_done_s: m.restores_done_ms.map(Fixed::seconds),
            max_replicas_per_client: int(m.max_replicas_per_client),
            tasks_lost_every_copy: int(m.tasks_lost_every_copy),
            time_to_drain_s: m.drained_ms.map(Fixed::seconds),
            backlog_mean_records: Fixed::ratio(
                m.backlog_twice_milli_ms,
                covered.saturating_mul(2000),
                0,
            ),
            backlog_max_records: int(m.max_backlog_milli.div_ceil(1000)),
            final_members: int(m.final_members),
            imbalance_time_weighted: Fixed::ratio(
                m.imbalance_milli_ms,
                covered.saturating_mul(1000),
                3,
            ),
            imbalance_final: Fixed::milli(m.final_imbalance_milli),
            standby_coverage: if standbys_asked && result.stateful_tasks > 0 {
                Fixed::ratio(
                    m.covered_task_ms,
                    u128::from(result.stateful_tasks).saturating_mul(covered),
                    4,
                )
            } else {
                None
            },
            cross_rack_records: int(m.cross_rack_records.get()),
            cross_rack_actives: Fixed::ratio(m.cross_rack_active_task_ms, covered, 3),
            restore_over_optimal_records: int(m.restore_over_optimal_records.get()),
            restore_over_optimal_rebalances: int(m.rebalances_within_optimal_shares),
        }
    }

    /// The figures flattened, in output order: a metric with parts gives
    /// `name.part` entries (`unavailable_task_s.stateful`), as `summary.json`
    /// nests them.
    pub fn flat(&self) -> Vec<(&'static str, Option<Fixed>)> {
        let u = &self.unavailable_task_s;
        let r = &self.restored_records;
        let b = &self.rebalances;
        vec![
            ("unavailable_task_s.stateful", Some(u.first)),
            ("unavailable_task_s.stateless", Some(u.second)),
            ("unavailable_task_s.total", Some(u.total)),
            ("max_outage_s", Some(self.max_outage_s)),
            ("task_downtime_s.p50", self.task_downtime.p50),
            ("task_downtime_s.p99", self.task_downtime.p99),
            ("task_downtime_s.max", self.task_downtime.max),
            ("tasks_affected", Some(self.task_downtime.affected)),
            ("restored_records.active", Some(r.first)),
            ("restored_records.replica", Some(r.second)),
            ("restored_records.total", Some(r.total)),
            ("restored_records.recovery", Some(self.recovery_records)),
            (
                "restored_records.steady_replication",
                Some(self.steady_replication_records),
            ),
            ("active_moves", Some(self.active_moves)),
            ("stateful_active_moves", Some(self.stateful_active_moves)),
            ("stateless_active_moves", Some(self.stateless_active_moves)),
            ("standby_moves", Some(self.standby_moves)),
            ("rebalances.membership", Some(b.membership)),
            ("rebalances.probing", Some(b.probing)),
            ("rebalances.caught_up", Some(b.caught_up)),
            ("rebalances.total", Some(b.total)),
            ("time_to_converge_s", self.time_to_converge_s),
            (
                "time_to_full_availability_s",
                self.time_to_full_availability_s,
            ),
            ("time_to_full_redundancy_s", self.time_to_full_redundancy_s),
            ("time_to_restores_done_s", self.time_to_restores_done_s),
            (
                "max_replicas_per_client",
                Some(self.max_replicas_per_client),
            ),
            ("tasks_lost_every_copy", Some(self.tasks_lost_every_copy)),
            ("time_to_drain_s", self.time_to_drain_s),
            ("backlog.mean_records", self.backlog_mean_records),
            ("backlog.max_records", Some(self.backlog_max_records)),
            ("final_members", Some(self.final_members)),
            ("imbalance.time_weighted", self.imbalance_time_weighted),
            ("imbalance.final", Some(self.imbalance_final)),
            ("standby_coverage", self.standby_coverage),
            ("cross_rack_records", Some(self.cross_rack_records)),
            ("cross_rack_actives", self.cross_rack_actives),
            (
                "restore_over_optimal.records",
                Some(self.restore_over_optimal_records),
            ),
            (
                "restore_over_optimal.rebalances",
                Some(self.restore_over_optimal_rebalances),
            ),
        ]
    }
}

/// [`Figures::flat`] of `result`, keys as strings.
pub fn flat_metrics(result: &RunResult, standbys_asked: bool) -> Vec<(String, Option<Fixed>)> {
    Figures::of(result, standbys_asked)
        .flat()
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect()
}

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
        value: |s| Fixed::milli(s.available_tasks_milli),
    },
    TimeSeries {
        column: "restoring_tasks",
        title: "restoring tasks",
        label: "stateful actives restoring (interval mean)",
        unit: "tasks",
        value: |s| Fixed::milli(s.restoring_tasks_milli),
    },
    TimeSeries {
        column: "imbalance",
        title: "imbalance",
        label: "max - min active tasks per thread (interval mean)",
        unit: "tasks/thread",
        value: |s| Fixed::milli(s.imbalance_milli),
    },
    TimeSeries {
        column: "restored_records",
        title: "cumulative restored records",
        label: "records restored so far",
        unit: "",
        value: |s| Fixed::int(s.restored_records.get()),
    },
    TimeSeries {
        column: "backlog_records",
        title: "input backlog",
        label: "input records not processed yet, all tasks (interval mean)",
        unit: "",
        value: |s| Fixed::int(s.backlog_records),
    },
    TimeSeries {
        column: "max_replicas_per_client",
        title: "replicas on the busiest client",
        label: "most standbys and warm-ups on one member (interval max)",
        unit: "replicas",
        value: |s| Fixed::int(s.max_replicas_per_client),
    },
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::{Outcome, Records, RunMetrics};

    fn completed() -> RunResult {
        RunResult {
            strategy: "kip441".to_string(),
            metrics: RunMetrics {
                unavailable_stateful_task_ms: Millis::new(12_345),
                unavailable_stateless_task_ms: Millis::new(5),
                max_outage_ms: Millis::new(6_000),
                restored_active_records: Records::new(1_000),
                restored_replica_records: Records::new(234),
                converge_ms: Some(Millis::new(60_000)),
                // 1 task/thread for a quarter of 120 s, else 0: 0.25.
                imbalance_milli_ms: 1000 * 30_000,
                // 4 stateful tasks × 120 s, covered 2/3 of it: 0.6667 (rounded up).
                covered_task_ms: 320_000,
                ..RunMetrics::default()
            },
            samples: Vec::new(),
            outcome: Outcome::Completed,
            stateful_tasks: 4,
            covered_ms: Millis::new(120_000),
        }
    }

    #[test]
    fn fixed_prints_exact_decimals() {
        assert_eq!(Fixed::seconds(Millis::ZERO).to_string(), "0.000");
        assert_eq!(Fixed::seconds(Millis::new(12_345)).to_string(), "12.345");
        assert_eq!(Fixed::seconds(Millis::new(7)).to_string(), "0.007");
        assert_eq!(Fixed::int(42).to_string(), "42");
        assert_eq!(Fixed::ratio(2, 3, 4).unwrap().to_string(), "0.6667");
        assert_eq!(Fixed::ratio(1, 8, 2).unwrap().to_string(), "0.13");
        assert_eq!(Fixed::ratio(5, 1, 3).unwrap().to_string(), "5.000");
        assert_eq!(Fixed::ratio(1, 0, 3), None);
    }

    #[test]
    fn figures_by_hand() {
        let f = Figures::of(&completed(), true);
        assert_eq!(f.unavailable_task_s.total.to_string(), "12.350");
        assert_eq!(f.restored_records.total.to_string(), "1234");
        assert_eq!(f.imbalance_time_weighted.unwrap().to_string(), "0.250");
        assert_eq!(f.standby_coverage.unwrap().to_string(), "0.6667");
        assert_eq!(f.time_to_converge_s.unwrap().to_string(), "60.000");
    }

    #[test]
    fn coverage_is_none_without_standbys_or_stateful_tasks() {
        assert_eq!(Figures::of(&completed(), false).standby_coverage, None);
        let mut stateless = completed();
        stateless.stateful_tasks = 0;
        assert_eq!(Figures::of(&stateless, true).standby_coverage, None);
    }

    #[test]
    fn time_weighted_figures_are_none_when_no_time_was_covered() {
        let mut empty = completed();
        empty.covered_ms = Millis::ZERO;
        let flat = flat_metrics(&empty, true);
        let get = |k: &str| flat.iter().find(|(n, _)| n == k).unwrap().1;
        assert_eq!(get("imbalance.time_weighted"), None);
        assert_eq!(get("standby_coverage"), None);
        assert_eq!(
            get("max_outage_s"),
            Some(Fixed::seconds(Millis::new(6_000)))
        );
        assert_eq!(flat.len(), 38);
    }
}
