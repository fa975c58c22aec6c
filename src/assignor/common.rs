//! Crate-private helpers shared by the strategies: the plan of a run's
//! per-client plans ([`plan_of`], [`task_ids`]) and the KIP-925 rack-awareness
//! diagnostics a plan carries ([`rack_awareness_diagnostic`],
//! [`rack_awareness_not_applied`]).

use std::collections::{BTreeMap, BTreeSet};

use crate::model::{ClientPlan, ClusterState, Plan, RackAwareStrategy, TaskId, TaskIx};

use super::rack;

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
    (strategy != RackAwareStrategy::None)
        .then(|| format!("rack_aware_strategy {strategy:?} was not applied: {why}"))
}

/// The ids of the tasks at `positions`.
pub(crate) fn task_ids<'a>(
    state: &ClusterState,
    positions: impl IntoIterator<Item = &'a TaskIx>,
) -> BTreeSet<TaskId> {
    state.ids_at(positions)
}

/// The plan of `strategy` giving the clients of `state`, in order, these
/// client plans; no follow-up, no diagnostics, no containers yet.
pub(crate) fn plan_of(
    state: &ClusterState,
    strategy: &str,
    client_plans: impl IntoIterator<Item = ClientPlan>,
) -> Plan {
    let ids = state.clients().iter().map(|c| c.id.clone());
    Plan {
        strategy: strategy.to_string(),
        clients: ids.zip(client_plans).collect(),
        followup_rebalance_ms: None,
        followup_when_caught_up: BTreeSet::new(),
        diagnostics: Vec::new(),
        containers: BTreeMap::new(),
    }
}
