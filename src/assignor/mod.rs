//! The [`Assignor`] trait every strategy implements, and the registry of
//! strategies by name.

pub mod heron;
pub mod kip441;
pub mod learner;
mod load;
pub mod optimal;
pub(crate) mod rack;
pub mod samza;
pub mod share;
pub mod smooth;
pub mod sticky;

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

static ALL: &[&dyn Assignor] = &[
    &kip441::Kip441,
    &learner::Kip441Learner,
    &sticky::LegacySticky,
    &sticky::FallbackPrior,
    &samza::Samza,
    &heron::HeronRoundRobin,
    &heron::HeronFirstFitDecreasing,
    &heron::HeronResourceCompliantRoundRobin,
    &optimal::Optimal,
    &smooth::Smooth,
];

/// Every registered strategy, in a fixed order.
pub fn all() -> &'static [&'static dyn Assignor] {
    ALL
}

/// The strategy registered under `name`.
pub fn by_name(name: &str) -> Option<&'static dyn Assignor> {
    ALL.iter().copied().find(|a| a.info().name == name)
}

/// The registered names, in registry order.
pub fn names() -> Vec<&'static str> {
    ALL.iter().map(|a| a.info().name).collect()
}

/// The KIP-925 diagnostic of a strategy that runs the rack optimisation
/// (`kip441`, `sticky`): the reason when `rack_aware_strategy` asks for it but
/// an enabling condition fails; nothing when it is off or applied.
pub(crate) fn rack_awareness_diagnostic(state: &ClusterState) -> Option<String> {
    rack::enablement(state).diagnostic(state)
}

/// The diagnostic of a strategy that does not apply KIP-925 rack-aware
/// optimisation although `rack_aware_strategy` asks for it; `why` says why.
pub(crate) fn rack_awareness_not_applied(state: &ClusterState, why: &str) -> Option<String> {
    let strategy = state.config().rack_aware_strategy;
    (strategy != crate::model::RackAwareStrategy::None)
        .then(|| format!("rack_aware_strategy {strategy:?} was not applied: {why}"))
}

/// The ids of the tasks at `positions`.
pub(crate) fn task_ids<'a>(
    state: &ClusterState,
    positions: impl IntoIterator<Item = &'a crate::model::TaskIx>,
) -> std::collections::BTreeSet<crate::model::TaskId> {
    state.ids_at(positions)
}

/// The plan of `strategy` giving the clients of `state`, in order, these
/// client plans; no follow-up, no diagnostics, no containers yet.
pub(crate) fn plan_of(
    state: &ClusterState,
    strategy: &str,
    client_plans: impl IntoIterator<Item = crate::model::ClientPlan>,
) -> Plan {
    let ids = state.clients().iter().map(|c| c.id.clone());
    Plan {
        strategy: strategy.to_string(),
        clients: ids.zip(client_plans).collect(),
        followup_rebalance_ms: None,
        followup_when_caught_up: std::collections::BTreeSet::new(),
        diagnostics: Vec::new(),
        containers: std::collections::BTreeMap::new(),
    }
}
