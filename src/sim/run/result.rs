//! What one simulated run produces: integer metrics in the simulator's
//! units, a sampled time series and how the run ended. Figures in seconds
//! and shares are `report`'s job; files, tables and plots the command line's.

use super::units::{Millis, Overflow, Records, SimTime};

/// Metrics of one strategy on one scenario and seed, integers as accumulated.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RunMetrics {
    /// Task-milliseconds of stateful tasks with no running active.
    pub unavailable_stateful_task_ms: Millis,
    /// Task-milliseconds of stateless tasks with no running active.
    pub unavailable_stateless_task_ms: Millis,
    /// The longest single outage of one task.
    pub max_outage_ms: Millis,
    /// Each task's total time without a running active, in task order
    /// (after the initial plan; an outage open at the end counts to the end).
    pub task_down_ms: Vec<Millis>,
    /// Records replayed by restoring actives.
    pub restored_active_records: Records,
    /// Records replayed by standbys and warm-ups.
    pub restored_replica_records: Records,
    /// The part of `restored_replica_records` read by replicas that were
    /// caught up (at their changelog's end) and followed their running
    /// active: steady-state replication, not recovery.
    pub steady_replica_records: Records,
    /// Tasks whose active changed client, summed over rebalances.
    pub active_moves: u64,
    /// The stateful ones among `active_moves`.
    pub stateful_active_moves: u64,
    /// Standbys (and warm-ups) placed on a client that did not hold the task
    /// as a replica before, summed over rebalances.
    pub standby_moves: u64,
    /// Rebalances triggered by joins, leaves and noticed crashes.
    pub membership_rebalances: u64,
    /// Probing (follow-up) rebalances.
    pub probing_rebalances: u64,
    /// Rebalances triggered by a learner that caught up (a plan's
    /// `followup_when_caught_up`).
    pub caught_up_rebalances: u64,
    /// From the last scripted or churn event until the first plan that asks
    /// for no follow-up and is balanced (active spread per thread ≤ 1) and
    /// stays so; `None` if that never happens before the end.
    pub converge_ms: Option<Millis>,
    /// From the last scripted or churn event until every task has a running
    /// active and keeps one to the end; `None` if that never happens.
    pub full_availability_ms: Option<Millis>,
    /// From the last event until every stateful task has the caught-up
    /// standbys it asks for (`min(num_standby_replicas, members − 1)`) and
    /// keeps them to the end; `None` if never.
    pub full_redundancy_ms: Option<Millis>,
    /// From the last event until every restore is done (no active
    /// restoring, every standby and warm-up at its changelog's end) and
    /// none starts again before the end; `None` if never.
    pub restores_done_ms: Option<Millis>,
    /// From the last event until no task has an input backlog and none
    /// falls behind again before the end; `None` if never.
    pub drained_ms: Option<Millis>,
    /// Σ over time of 2 × the total input backlog (milli-records) × ms:
    /// divide by 2,000 × the duration for the mean records behind.
    pub backlog_twice_milli_ms: u128,
    /// The most input records (milli-records) behind at once, over all tasks.
    pub max_backlog_milli: u64,
    /// The most standbys and warm-ups one member held at any time.
    pub max_replicas_per_client: u64,
    /// Times a stateful task lost every copy of its state: the last store
    /// of it on a client that is in the group or may come back was deleted
    /// (a disk lost, the state cleaner) or left with a client scaled in, so
    /// whoever runs it next restores its whole changelog.
    pub tasks_lost_every_copy: u64,
    /// Members of the group at the end (crashed clients not counted).
    pub final_members: u64,
    /// Σ over time of (max − min actives per thread) × 1000 × ms: divide by
    /// the duration for the time-weighted imbalance.
    pub imbalance_milli_ms: u128,
    /// (max − min actives per thread) × 1000 at the end.
    pub final_imbalance_milli: u64,
    /// Σ over time of the stateful tasks covered by their caught-up standbys,
    /// × ms: divide by (stateful tasks × duration) for the time-weighted share.
    pub covered_task_ms: u128,
    /// Restore records read by a client from a changelog in another rack.
    pub cross_rack_records: Records,
    /// Σ over time of the actives (of the plan in force) on a client outside
    /// their task's racks, × ms: divide by the duration for the time-weighted
    /// count of actives reading their input across racks.
    pub cross_rack_active_task_ms: u128,
    /// Σ over counted rebalances whose plan meets `optimal`'s share bounds of
    /// the records its actives restore beyond `optimal`'s
    /// ([`crate::metrics::distance_to_optimal`]).
    pub restore_over_optimal_records: Records,
    /// How many counted rebalances were measured that way.
    pub rebalances_within_optimal_shares: u64,
}

/// One sample of the time series, on the grid `0, sample_every, 2 ×
/// sample_every, …`. The first holds the values at time 0; every later one
/// holds their time averages over the interval since the one before (so a
/// 5-second pause inside a minute shows as the share of the minute it
/// took, not as a dip), except `restored_records`, a running total.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Sample {
    /// Simulated time: the end of the interval.
    pub t_ms: SimTime,
    /// Tasks with a running active, mean over the interval, × 1000.
    pub available_tasks_milli: u64,
    /// Stateful actives restoring, mean over the interval, × 1000.
    pub restoring_tasks_milli: u64,
    /// max − min actives per thread, × 1000, mean over the interval.
    pub imbalance_milli: u64,
    /// The most standbys and warm-ups on one member during the interval.
    pub max_replicas_per_client: u64,
    /// Input records not processed yet, over all tasks, mean over the
    /// interval (the processing model; 0 without input rates).
    pub backlog_records: u64,
    /// Records restored so far (actives and replicas).
    pub restored_records: Records,
}

/// How a run ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Ran to the scenario's duration.
    Completed,
    /// The strategy could not serve an input (`AssignError::Infeasible`); the
    /// run stopped there and its metrics cover `[0, at_ms)`.
    Infeasible {
        /// When.
        at_ms: SimTime,
        /// The strategy's message.
        message: String,
    },
}

/// One strategy's run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunResult {
    /// The strategy's name.
    pub strategy: String,
    /// The metrics.
    pub metrics: RunMetrics,
    /// Samples at 0, `sample_every`, 2 × `sample_every`, … up to the duration.
    pub samples: Vec<Sample>,
    /// How the run ended.
    pub outcome: Outcome,
    /// Stateful tasks in the scenario (the denominator of standby coverage).
    pub stateful_tasks: u64,
    /// Simulated time covered by the metrics.
    pub covered_ms: Millis,
}

/// A run that had to stop: a strategy broke an invariant, or a quantity of
/// the simulation overflowed its unit.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", describe(self))]
pub struct SimError {
    /// The strategy.
    pub strategy: String,
    /// When.
    pub at_ms: SimTime,
    /// The run's seed.
    pub seed: u64,
    /// What went wrong.
    pub problem: SimProblem,
}

/// What stopped a run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SimProblem {
    /// What `validate` reported: a bug in the strategy (exit 1).
    Violations(Vec<String>),
    /// A quantity overflowed: the scenario asks for more than the
    /// simulator's 64-bit counters hold (bad input, exit 2).
    Overflow(Overflow),
    /// The scenario breaks a rule or a limit of [`super::Scenario::check`]
    /// (a scenario built in code; the reader checks as it reads): bad
    /// input, exit 2.
    Invalid(crate::model::InputError),
}

impl SimError {
    /// Whether the run stopped on the scenario's fault (an overflowing
    /// quantity, a rule of `Scenario::check`: exit 2) rather than a
    /// strategy's (an invariant broken: exit 1).
    pub fn is_bad_input(&self) -> bool {
        matches!(
            self.problem,
            SimProblem::Overflow(_) | SimProblem::Invalid(_)
        )
    }
}

fn describe(e: &SimError) -> String {
    match &e.problem {
        SimProblem::Violations(violations) => format!(
            "strategy {} broke an invariant at t={} ms with seed {}: {}",
            e.strategy,
            e.at_ms.get(),
            e.seed,
            violations.join("; ")
        ),
        SimProblem::Overflow(o) => format!(
            "{o} (at t={} ms, strategy {}, seed {}): the simulator counts in 64 bits; lower the scenario's sizes, rates or duration",
            e.at_ms.get(),
            e.strategy,
            e.seed
        ),
        SimProblem::Invalid(error) => format!("scenario {error}"),
    }
}
