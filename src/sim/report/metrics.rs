//! The metric record: every figure of a run, declared once ([`METRICS`]).
//! Each entry has its flat name (`name.part` for a metric with parts), its
//! definition, how its exact decimal is computed from the run's ledger
//! ([`RunMetrics`]) with integer arithmetic, and the column it has in the
//! command line's tables, if any. Everything that shows figures is derived
//! from it: `summary.json` (the flat names nested at their `.`), the rows of
//! `runs.csv` and `runs.json`, the statistics of `sweep.json`, the tables,
//! the paper, and the metrics table of docs/simulator.md (generated from the
//! definitions here; the test `report::metrics::tests::the_docs_list_every_metric`
//! fails when it differs).
//!
//! To add a metric: accumulate it in the ledger (`sim/run/ledger.rs`), add
//! its entry here, and regenerate the docs
//! (`SMOOTHSCALE_BLESS=1 cargo test --lib the_docs_list_every_metric`).
//!
//! Seconds have 3 decimals (exact: the simulator counts milliseconds);
//! imbalance is in active tasks per thread, 3 decimals, its time-weighted
//! value rounded half up; standby coverage is a share of 0..1, 4 decimals,
//! rounded half up. Time-weighted figures divide by the time the run covered
//! (`RunResult::covered_ms`, shorter than the scenario for a run that
//! stopped as infeasible) and are null when that time is 0.

use std::ops::Index;

use super::dispersion::nearest_rank;
use super::fixed::Fixed;
use crate::sim::run::units::Millis;
use crate::sim::run::{RunMetrics, RunResult};

/// What a metric is computed from: a run's ledger and what the scenario asked.
#[derive(Debug, Clone)]
pub struct Source<'a> {
    /// The run's metrics, as accumulated.
    pub metrics: &'a RunMetrics,
    /// Milliseconds the run covered: the denominator of time-weighted figures.
    pub covered_ms: u128,
    /// Stateful tasks in the scenario: the denominator of standby coverage.
    pub stateful_tasks: u64,
    /// Whether the scenario asks for standbys (`num_standby_replicas > 0`).
    pub standbys_asked: bool,
    /// Each task's total downtime, ascending (`metrics.task_down_ms`
    /// sorted once for the percentiles).
    pub task_down_sorted: Vec<Millis>,
}

impl<'a> Source<'a> {
    /// The source of `result`'s figures; `standbys_asked` is whether the
    /// scenario asks for standbys.
    pub fn of(result: &'a RunResult, standbys_asked: bool) -> Source<'a> {
        let mut task_down_sorted = result.metrics.task_down_ms.clone();
        task_down_sorted.sort_unstable();
        Source {
            metrics: &result.metrics,
            covered_ms: u128::from(result.covered_ms.get()),
            stateful_tasks: result.stateful_tasks,
            standbys_asked,
            task_down_sorted,
        }
    }
}

/// A column of the command line's tables: its title and unit, what the
/// key under the tables says of it, what a null prints as, and whether it
/// shows only in the wide tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Column {
    /// The column's title (`unavailable`).
    pub title: &'static str,
    /// Its unit, shown in parentheses under the title (`task-s`).
    pub unit: &'static str,
    /// What it is, in a phrase: the key printed under the tables.
    pub gloss: &'static str,
    /// What the tables print for a null value: `never` for a time that
    /// never came, `-` for a figure that does not apply.
    pub null: &'static str,
    /// Whether the tables show it only when asked for every column
    /// (`--wide`); the others are the figures asked about most, and fit a
    /// terminal of 120 columns.
    pub wide_only: bool,
}

/// One metric of a run.
#[derive(Debug, Clone, Copy)]
pub struct Metric {
    /// Its flat name: `name.part` for a metric with parts
    /// (`unavailable_task_s.stateful`), the unit last (`_s` seconds).
    pub key: &'static str,
    /// What it is, one sentence or two (docs/simulator.md's table).
    pub doc: &'static str,
    /// Its value for a run; `None` is null (never happened, not applicable).
    pub value: fn(&Source<'_>) -> Option<Fixed>,
    /// Its column in the `simulate` and `sweep` tables, if it has one.
    pub column: Option<Column>,
}

/// Every metric, in output order: `summary.json` nests them in this order,
/// `runs.csv` has a column each in it, the tables show those with a column.
pub const METRICS: &[Metric] = &[
    Metric {
        key: "unavailable_task_s.stateful",
        doc: "task-seconds of stateful tasks with no Running active (Down, Paused or Restoring)",
        value: |s| Some(Fixed::seconds(s.metrics.unavailable_stateful_task_ms)),
        column: None,
    },
    Metric {
        key: "unavailable_task_s.stateless",
        doc: "task-seconds of stateless tasks with no Running active",
        value: |s| Some(Fixed::seconds(s.metrics.unavailable_stateless_task_ms)),
        column: None,
    },
    Metric {
        key: "unavailable_task_s.total",
        doc: "task-seconds of all tasks with no Running active",
        value: |s| {
            let m = s.metrics;
            let ms = u128::from(m.unavailable_stateful_task_ms.get())
                + u128::from(m.unavailable_stateless_task_ms.get());
            Some(Fixed {
                scaled: ms,
                decimals: 3,
            })
        },
        column: Some(Column {
            title: "unavailable",
            unit: "task-s",
            gloss: "task-seconds without a running active (down, paused by a rebalance or restoring)",
            null: "-",
            wide_only: false,
        }),
    },
    Metric {
        key: "max_outage_s",
        doc: "the longest single outage of one task (an outage open at the end counts up to the end)",
        value: |s| Some(Fixed::seconds(s.metrics.max_outage_ms)),
        column: Some(Column {
            title: "max outage",
            unit: "s",
            gloss: "the longest outage of one task",
            null: "-",
            wide_only: true,
        }),
    },
    Metric {
        key: "task_downtime_s.p50",
        doc: "each task's total time without a running active over the run (outages added up; the totals add up to `unavailable_task_s.total`), the nearest-rank median over tasks (the value of rank `⌈N/100 × tasks⌉` for `pN`)",
        value: |s| downtime_rank(s, 50),
        column: None,
    },
    Metric {
        key: "task_downtime_s.p99",
        doc: "the same, 99th percentile over tasks",
        value: |s| downtime_rank(s, 99),
        column: None,
    },
    Metric {
        key: "task_downtime_s.max",
        doc: "the same, the most any task was down",
        value: |s| downtime_rank(s, 100),
        column: None,
    },
    Metric {
        key: "tasks_affected",
        doc: "tasks that were without a running active for any time",
        value: |s| {
            let affected = s.metrics.task_down_ms.iter().filter(|d| d.get() > 0).count();
            Some(Fixed::int(affected as u64))
        },
        column: None,
    },
    Metric {
        key: "backlog.record_s",
        doc: "consumer lag over time: Σ over tasks of input records behind × seconds (the backlog's integral; a record 10 s behind for a minute is 600 record-s); null without input",
        value: |s| {
            let m = s.metrics;
            (m.input_records.get() > 0).then(|| Fixed::ratio(m.backlog_twice_milli_ms, 2_000_000, 0)).flatten()
        },
        column: None,
    },
    Metric {
        key: "backlog.mean_records",
        doc: "input records not processed yet, over all tasks, time-weighted (rounded half up)",
        value: |s| Fixed::ratio(s.metrics.backlog_twice_milli_ms, s.covered_ms.saturating_mul(2000), 0),
        column: Some(Column {
            title: "lag",
            unit: "records",
            gloss: "input records behind, over all tasks, time-weighted mean (the consumer lag; backlog.record_s is its integral)",
            null: "-",
            wide_only: false,
        }),
    },
    Metric {
        key: "backlog.max_records",
        doc: "the most input records behind at once, over all tasks",
        value: |s| Some(Fixed::int(s.metrics.max_backlog_milli.div_ceil(1000))),
        column: None,
    },
    Metric {
        key: "delay_s.p50",
        doc: "how long an input record waited between its arrival and its processing (records of a task processed in order: the one processed at `t` waited backlog(t) ÷ input rate; one still waiting at the end counts its age then), the median over records, as the upper edge of its histogram bucket (at most 1.6 % or 1 ms above); null without input",
        value: |s| s.metrics.delay_ms.map(|d| Fixed::seconds(d[0])),
        column: None,
    },
    Metric {
        key: "delay_s.p99",
        doc: "the same, 99th percentile over records",
        value: |s| s.metrics.delay_ms.map(|d| Fixed::seconds(d[1])),
        column: Some(Column {
            title: "p99 delay",
            unit: "s",
            gloss: "99th percentile over input records of the wait from arrival to processing",
            null: "-",
            wide_only: true,
        }),
    },
    Metric {
        key: "delay_s.max",
        doc: "the same, the longest wait (exact, rounded up to the millisecond)",
        value: |s| s.metrics.delay_ms.map(|d| Fixed::seconds(d[2])),
        column: None,
    },
    Metric {
        key: "worst_drain_s",
        doc: "over every event (scripted, churn, each bounce and restart), the time from it until no task had an input backlog and none fell behind again before the next event (an event whose backlog was still there at the next one drains when that one's does), the longest; 0 with no event; null if some event's backlog never drained",
        value: |s| s.metrics.worst_event_drain_ms.map(Fixed::seconds),
        column: Some(Column {
            title: "drain",
            unit: "s",
            gloss: "the longest time from an event until no input backlog was left; never: a backlog still there at the end",
            null: "never",
            wide_only: false,
        }),
    },
    Metric {
        key: "time_to_drain_s",
        doc: "the same as the other `time_to_…` for no task having an input backlog (the processing model)",
        value: |s| s.metrics.drained_ms.map(Fixed::seconds),
        column: None,
    },
    Metric {
        key: "throughput_deficit.records",
        doc: "input records not processed by the end, over all tasks (what a growing backlog leaves)",
        value: |s| Some(Fixed::int(s.metrics.final_backlog.get())),
        column: Some(Column {
            title: "deficit",
            unit: "records",
            gloss: "input not processed by the end",
            null: "-",
            wide_only: true,
        }),
    },
    Metric {
        key: "throughput_deficit.share",
        doc: "the same as a share of the input that arrived over the run, 4 decimals; null without input",
        value: |s| {
            let m = s.metrics;
            Fixed::ratio(u128::from(m.final_backlog.get()), u128::from(m.input_records.get()), 4)
        },
        column: None,
    },
    Metric {
        key: "restored_records.active",
        doc: "records replayed by restoring actives",
        value: |s| Some(Fixed::int(s.metrics.restored_active_records.get())),
        column: None,
    },
    Metric {
        key: "restored_records.replica",
        doc: "records replayed by standbys and warm-ups",
        value: |s| Some(Fixed::int(s.metrics.restored_replica_records.get())),
        column: None,
    },
    Metric {
        key: "restored_records.total",
        doc: "records replayed by actives and replicas",
        value: |s| {
            let m = s.metrics;
            Some(sum(
                m.restored_active_records.get(),
                m.restored_replica_records.get(),
            ))
        },
        column: Some(Column {
            title: "restored",
            unit: "records",
            gloss: "records replayed by restoring actives, standbys and warm-ups",
            null: "-",
            wide_only: false,
        }),
    },
    Metric {
        key: "restored_records.recovery",
        doc: "the part of the total restored to recover: by actives, and by replicas behind their changelog's end",
        value: |s| {
            let m = s.metrics;
            // Steady replication is part of what replicas read.
            let replica = m
                .restored_replica_records
                .get()
                .saturating_sub(m.steady_replica_records.get());
            Some(sum(m.restored_active_records.get(), replica))
        },
        column: None,
    },
    Metric {
        key: "restored_records.steady_replication",
        doc: "the part of the total read by standbys at their changelog's end following their running active",
        value: |s| Some(Fixed::int(s.metrics.steady_replica_records.get())),
        column: None,
    },
    Metric {
        key: "active_moves",
        doc: "actives that changed client, summed over rebalances",
        value: |s| Some(Fixed::int(s.metrics.active_moves)),
        column: Some(Column {
            title: "active moves",
            unit: "tasks",
            gloss: "actives that changed client",
            null: "-",
            wide_only: true,
        }),
    },
    Metric {
        key: "stateful_active_moves",
        doc: "the stateful tasks among `active_moves`",
        value: |s| Some(Fixed::int(s.metrics.stateful_active_moves)),
        column: None,
    },
    Metric {
        key: "stateless_active_moves",
        doc: "the stateless tasks among `active_moves`",
        value: |s| {
            let m = s.metrics;
            Some(Fixed::int(m.active_moves - m.stateful_active_moves))
        },
        column: None,
    },
    Metric {
        key: "standby_moves",
        doc: "standbys and warm-ups placed on a client that did not hold one of the task, summed over rebalances",
        value: |s| Some(Fixed::int(s.metrics.standby_moves)),
        column: Some(Column {
            title: "standby moves",
            unit: "replicas",
            gloss: "standbys and warm-ups placed on a client that held none of the task",
            null: "-",
            wide_only: true,
        }),
    },
    Metric {
        key: "rebalances.membership",
        doc: "rebalances triggered by joins, leaves and noticed crashes (the initial plan not counted)",
        value: |s| Some(Fixed::int(s.metrics.membership_rebalances)),
        column: None,
    },
    Metric {
        key: "rebalances.probing",
        doc: "probing (follow-up) rebalances",
        value: |s| Some(Fixed::int(s.metrics.probing_rebalances)),
        column: None,
    },
    Metric {
        key: "rebalances.caught_up",
        doc: "rebalances triggered by a learner that caught up (a plan's `followup_when_caught_up`)",
        value: |s| Some(Fixed::int(s.metrics.caught_up_rebalances)),
        column: None,
    },
    Metric {
        key: "rebalances.second_round",
        doc: "the cooperative protocol's second rounds, after rebalances that revoked running actives (`cluster.second_round`)",
        value: |s| Some(Fixed::int(s.metrics.second_round_rebalances)),
        column: None,
    },
    Metric {
        key: "rebalances.total",
        doc: "all counted rebalances",
        value: |s| {
            let m = s.metrics;
            let total = u128::from(m.membership_rebalances)
                + u128::from(m.probing_rebalances)
                + u128::from(m.caught_up_rebalances)
                + u128::from(m.second_round_rebalances);
            Some(Fixed {
                scaled: total,
                decimals: 0,
            })
        },
        column: Some(Column {
            title: "rebalances",
            unit: "count",
            gloss: "rebalances after the initial plan (membership, probing, caught-up and second rounds)",
            null: "-",
            wide_only: false,
        }),
    },
    Metric {
        key: "time_to_converge_s",
        doc: "from the last event until the first plan that asks for no follow-up and is balanced (active spread per thread ≤ 1) and stays so to the end: when the assignment stops changing, not when the tasks it moved run again; 0 when the event's own rebalance made such a plan (or the event changed nothing and one was in force), however long the actives it moved then restore (`max_outage_s` and `time_to_full_availability_s` show that); null if that never happens",
        value: |s| s.metrics.converge_ms.map(Fixed::seconds),
        column: Some(Column {
            title: "converge",
            unit: "s",
            gloss: "from the last event until the plan in force asks for no follow-up and is balanced (active spread ≤ 1 per thread), to the end; 0: the event's own rebalance made such a plan, however long the tasks it moved then restore (see max outage); never: not by the end",
            null: "never",
            wide_only: true,
        }),
    },
    Metric {
        key: "time_to_full_availability_s",
        doc: "from the last event until every task has a running active and keeps one to the end; 0 if that held before the event and was not broken; null if never",
        value: |s| s.metrics.full_availability_ms.map(Fixed::seconds),
        column: None,
    },
    Metric {
        key: "time_to_full_redundancy_s",
        doc: "the same for every stateful task having `min(num_standby_replicas, members − 1)` caught-up standbys on members (as `standby_coverage` counts)",
        value: |s| s.metrics.full_redundancy_ms.map(Fixed::seconds),
        column: None,
    },
    Metric {
        key: "time_to_restores_done_s",
        doc: "the same for the data: no active restoring and every standby and warm-up at its changelog's end",
        value: |s| s.metrics.restores_done_ms.map(Fixed::seconds),
        column: None,
    },
    Metric {
        key: "max_replicas_per_client",
        doc: "the most standbys and warm-ups one member held at once (Kafka's standby pile-up shows here)",
        value: |s| Some(Fixed::int(s.metrics.max_replicas_per_client)),
        column: None,
    },
    Metric {
        key: "tasks_lost_every_copy",
        doc: "times a stateful task lost every copy of its state: the last store of it on a client in the group or able to come back was deleted (a disk lost with a crash or a rack, the state cleaner) or left with a client scaled in; whoever runs it next restores its whole changelog",
        value: |s| Some(Fixed::int(s.metrics.tasks_lost_every_copy)),
        column: None,
    },
    Metric {
        key: "final_members",
        doc: "members of the group at the end (crashed and departed clients not counted)",
        value: |s| Some(Fixed::int(s.metrics.final_members)),
        column: None,
    },
    Metric {
        key: "load_imbalance.time_weighted",
        doc: "the busiest member's load per thread over the mean load per thread of the members, where a task's load is its input rate × `process_cost` (1.000: even; 2.000: one member's threads carry twice the mean), for the plan in force, time-weighted (rounded half up), 3 decimals; null without input",
        value: |s| {
            s.metrics
                .load_imbalance_milli_ms
                .and_then(|sum| Fixed::ratio(sum, s.covered_ms.saturating_mul(1000), 3))
        },
        column: Some(Column {
            title: "load imb.",
            unit: "max/mean",
            gloss: "the busiest member's input load per thread over the mean, time-weighted (1.000 is even)",
            null: "-",
            wide_only: false,
        }),
    },
    Metric {
        key: "load_imbalance.final",
        doc: "the same at the end",
        value: |s| s.metrics.final_load_imbalance_milli.map(Fixed::milli),
        column: None,
    },
    Metric {
        key: "imbalance.time_weighted",
        doc: "max − min over members of actives per thread (each rounded up to 1/1000), time-weighted (rounded half up), 3 decimals",
        value: |s| Fixed::ratio(s.metrics.imbalance_milli_ms, s.covered_ms.saturating_mul(1000), 3),
        column: Some(Column {
            title: "imbalance",
            unit: "tasks/thread",
            gloss: "max − min actives per thread over members, time-weighted",
            null: "-",
            wide_only: true,
        }),
    },
    Metric {
        key: "imbalance.final",
        doc: "the same at the end",
        value: |s| Some(Fixed::milli(s.metrics.final_imbalance_milli)),
        column: None,
    },
    Metric {
        key: "standby_coverage",
        doc: "time-weighted share of stateful tasks that have at least `min(num_standby_replicas, members − 1)` standbys (warm-ups not counted) on live members within `acceptable_recovery_lag`; 4 decimals; null with no stateful task or no standbys asked",
        value: |s| {
            if !s.standbys_asked || s.stateful_tasks == 0 {
                return None;
            }
            let den = u128::from(s.stateful_tasks).saturating_mul(s.covered_ms);
            Fixed::ratio(s.metrics.covered_task_ms, den, 4)
        },
        column: Some(Column {
            title: "standby cover",
            unit: "share",
            gloss: "time-weighted share of stateful tasks with their caught-up standbys",
            null: "-",
            wide_only: true,
        }),
    },
    Metric {
        key: "cross_rack_records",
        doc: "restored records read by a client outside the rack of the task's changelog",
        value: |s| Some(Fixed::int(s.metrics.cross_rack_records.get())),
        column: Some(Column {
            title: "cross-rack",
            unit: "records",
            gloss: "records restored from a changelog in another rack",
            null: "-",
            wide_only: true,
        }),
    },
    Metric {
        key: "cross_rack_actives",
        doc: "time-weighted count of actives (of the plan in force) on a client outside their task's racks, 3 decimals",
        value: |s| Fixed::ratio(s.metrics.cross_rack_active_task_ms, s.covered_ms, 3),
        column: None,
    },
    Metric {
        key: "restore_over_optimal.records",
        doc: "over the rebalances whose plan gives every member between ⌊T·k/K⌋ and ⌈T·k/K⌉ actives, the records its actives restore beyond the `optimal` strategy's minimum for the same input (a plan restoring less than that minimum stops the run as a bug in `optimal`, exit 1)",
        value: |s| Some(Fixed::int(s.metrics.restore_over_optimal_records.get())),
        column: None,
    },
    Metric {
        key: "restore_over_optimal.rebalances",
        doc: "how many rebalances were measured that way (plans outside those bounds are not comparable)",
        value: |s| Some(Fixed::int(s.metrics.rebalances_within_optimal_shares)),
        column: None,
    },
];

/// `a + b` as an integer figure, without overflow.
fn sum(a: u64, b: u64) -> Fixed {
    Fixed {
        scaled: u128::from(a) + u128::from(b),
        decimals: 0,
    }
}

/// The nearest-rank `percent`-th percentile of the tasks' total downtimes,
/// seconds; `None` without tasks.
fn downtime_rank(s: &Source<'_>, percent: u32) -> Option<Fixed> {
    nearest_rank(&s.task_down_sorted, percent).map(Fixed::seconds)
}

/// Every metric of one run, in [`METRICS`] order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Figures {
    values: Vec<Option<Fixed>>,
}

impl Figures {
    /// The figures of `result`; `standbys_asked` is whether the scenario
    /// asks for standbys (`num_standby_replicas > 0`).
    pub fn of(result: &RunResult, standbys_asked: bool) -> Figures {
        let source = Source::of(result, standbys_asked);
        Figures {
            values: METRICS.iter().map(|m| (m.value)(&source)).collect(),
        }
    }

    /// Each metric with its value, in [`METRICS`] order.
    pub fn iter(&self) -> impl Iterator<Item = (&'static Metric, Option<Fixed>)> + '_ {
        METRICS.iter().zip(self.values.iter().copied())
    }

    /// The value of the metric `key`: `None` when it is not a metric,
    /// `Some(None)` when its value is null.
    pub fn get(&self, key: &str) -> Option<Option<Fixed>> {
        self.iter().find(|(m, _)| m.key == key).map(|(_, v)| v)
    }

    /// The figures flattened: `(key, value)` in [`METRICS`] order.
    pub fn flat(&self) -> Vec<(String, Option<Fixed>)> {
        self.iter().map(|(m, v)| (m.key.to_string(), v)).collect()
    }
}

impl Index<&str> for Figures {
    type Output = Option<Fixed>;

    /// The value of the metric `key` (`None`: null).
    ///
    /// # Panics
    ///
    /// When `key` is not the key of a metric of [`METRICS`].
    fn index(&self, key: &str) -> &Option<Fixed> {
        let i = METRICS
            .iter()
            .position(|m| m.key == key)
            .unwrap_or_else(|| panic!("{key:?} is not a metric of sim::report::METRICS"));
        &self.values[i]
    }
}

/// [`Figures::flat`] of `result`.
pub fn flat_metrics(result: &RunResult, standbys_asked: bool) -> Vec<(String, Option<Fixed>)> {
    Figures::of(result, standbys_asked).flat()
}

/// The metrics table of docs/simulator.md: a row per metric, its key and
/// definition, in output order.
pub fn docs_table() -> String {
    let mut out = String::from("| metric | definition |\n|---|---|\n");
    for m in METRICS {
        out.push_str(&format!("| `{}` | {} |\n", m.key, m.doc));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::run::units::Records;
    use crate::sim::run::Outcome;

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
    fn figures_by_hand() {
        let f = Figures::of(&completed(), true);
        let shown = |key: &str| f[key].map(|v| v.to_string());
        assert_eq!(shown("unavailable_task_s.total").unwrap(), "12.350");
        assert_eq!(shown("restored_records.total").unwrap(), "1234");
        assert_eq!(shown("imbalance.time_weighted").unwrap(), "0.250");
        assert_eq!(shown("standby_coverage").unwrap(), "0.6667");
        assert_eq!(shown("time_to_converge_s").unwrap(), "60.000");
        assert_eq!(f.get("no_such_metric"), None);
    }

    #[test]
    fn coverage_is_none_without_standbys_or_stateful_tasks() {
        assert_eq!(Figures::of(&completed(), false)["standby_coverage"], None);
        let mut stateless = completed();
        stateless.stateful_tasks = 0;
        assert_eq!(Figures::of(&stateless, true)["standby_coverage"], None);
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
        assert_eq!(flat.len(), METRICS.len());
    }

    /// The keys are distinct, and a metric with parts has them together
    /// (`summary.json` nests consecutive keys with the same name).
    #[test]
    fn keys_are_distinct_and_parts_are_together() {
        let mut seen: Vec<&str> = Vec::new();
        let mut names: Vec<&str> = Vec::new();
        for m in METRICS {
            assert!(!seen.contains(&m.key), "{} twice", m.key);
            seen.push(m.key);
            let name = m.key.split('.').next().unwrap_or(m.key);
            if names.last() != Some(&name) {
                assert!(!names.contains(&name), "the parts of {name} are apart");
                names.push(name);
            }
        }
    }

    /// docs/simulator.md lists every metric as [`METRICS`] defines it.
    #[test]
    fn the_docs_list_every_metric() {
        crate::sim::generated::check(
            "docs/simulator.md",
            "metrics",
            &docs_table(),
            "src/sim/report/metrics.rs",
        );
    }
}
