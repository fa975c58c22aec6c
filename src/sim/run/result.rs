//! What one simulated run produces: integer metrics in the simulator's
//! units, a sampled time series and how the run ended. Figures in seconds
//! and shares are `report`'s job; files, tables and plots the command line's.

use super::ledger::{RunMetrics, Sample};
use super::units::{Millis, Overflow, SimTime};

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
