//! What a strategy implements against: the [`Assignor`] trait, the static
//! [`StrategyInfo`] record it describes itself by ([`Claims`],
//! [`LeaveBehaviour`]), and [`AssignError`], why it may give no plan.
//!
//! Every strategy imports these from here; the registry
//! (`super::registry`) names the strategies, and `super` only re-exports.

use crate::model::{ClusterState, Plan};

/// Why an assignor could not produce a plan.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AssignError {
    /// The input cannot be served by this strategy (for instance, resource
    /// demands that fit on no client). The message names what does not fit.
    #[error("{0}")]
    Infeasible(String),
    /// A broken internal invariant: a bug in the strategy, never the input's fault.
    #[error("internal error in strategy {strategy}: {message}")]
    Internal {
        /// The strategy that failed.
        strategy: &'static str,
        /// What went wrong.
        message: String,
    },
}

/// Which rules of [`crate::validate()`] a strategy promises to keep beyond the
/// ones every plan keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Claims {
    /// Every stateful task gets `min(num_standby_replicas, clients − 1)` standbys.
    pub standby_count: bool,
    /// At most `max_warmup_replicas` warm-ups in one plan.
    pub warmup_budget: bool,
    /// On every client that states `cpu`, `ram_mb` or `disk_mb`, the actives' stated
    /// demands add up to no more than it (tasks without a stated demand are
    /// not counted here; a strategy's own defaults are its tests' business).
    pub resource_capacity: bool,
    /// With `standby_count`: a warm-up may stand in for one standby of its
    /// task (KIP-441's first design converts a standby into a learner), so a
    /// stateful task has at most `min(num_standby_replicas, clients − 1)`
    /// standbys, and at least that many counting its warm-ups.
    pub warmups_stand_in: bool,
}

impl Claims {
    /// No claim beyond the rules every plan keeps: what [`crate::validate()`]
    /// checks of a plan whose strategy promises nothing more.
    pub const NONE: Claims = Claims {
        standby_count: false,
        warmup_budget: false,
        resource_capacity: false,
        warmups_stand_in: false,
    };
}

/// How a graceful leave (a client asking to leave the group) behaves under
/// a strategy, as the simulator plays it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LeaveBehaviour {
    /// The client leaves at once; its tasks are reassigned at the next
    /// rebalance (Kafka Streams today).
    #[default]
    Immediate,
    /// The leaver's tasks are handed over first: the client stays in the
    /// group, marked [`leaving`](crate::model::Client::leaving), until
    /// learners elsewhere are ready or `scale_down_timeout` has passed
    /// (KIP-441's first design).
    HandsOver,
}

/// What a strategy is, in one static record: how it is selected, what it
/// does, what it promises and how a graceful leave behaves under it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StrategyInfo {
    /// The name the strategy is selected by (`kip441`); the name its plans carry.
    pub name: &'static str,
    /// One line saying what the strategy is.
    pub description: &'static str,
    /// The rules of [`crate::validate()`] the strategy promises to keep.
    pub claims: Claims,
    /// How a graceful leave behaves.
    pub leave: LeaveBehaviour,
}

/// A task-assignment strategy: data in, plan out.
///
/// Implementations are pure and deterministic: the same state gives the same
/// plan, with no clock, I/O or unseeded randomness.
pub trait Assignor: Sync {
    /// What the strategy is: name, description, claims, leave behaviour.
    fn info(&self) -> &'static StrategyInfo;
    /// Assigns every task of `state` to its clients.
    ///
    /// # Errors
    /// [`AssignError::Infeasible`] when the strategy cannot serve `state`
    /// (for instance resource demands that fit on no client);
    /// [`AssignError::Internal`] on a broken internal invariant (a bug).
    fn assign(&self, state: &ClusterState) -> Result<Plan, AssignError>;
}
