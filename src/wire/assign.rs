//! One assignment as the JSON fronts run it (the command line's `assign`,
//! the Python package's `assign`): [`crate::assign()`] (assign, then
//! `validate` with the strategy's claims), written as the wire format's
//! plan with or without its metrics.

use crate::assign::{assign, AssignFailure};
use crate::assignor::Assignor;
use crate::metrics::plan_metrics;
use crate::model::ClusterState;

/// The plan of `strategy` for `state` as JSON (the wire format's plan, with
/// `metrics` when asked), once it has passed `validate` with the
/// strategy's claims.
///
/// # Errors
///
/// The [`AssignFailure`] of [`crate::assign()`]: the input when the strategy
/// cannot serve the state, a bug when it fails inside or its plan breaks an
/// invariant; a bug ([`AssignFailure::Internal`]) too when the metrics find
/// the plan beating `optimal` ([`crate::metrics::OptimalBeaten`]).
pub fn assign_json(
    strategy: &dyn Assignor,
    state: &ClusterState,
    metrics: bool,
) -> Result<String, AssignFailure> {
    let plan = assign(strategy, state)?;
    let figures = metrics
        .then(|| plan_metrics(state, &plan))
        .transpose()
        .map_err(|beaten| AssignFailure::Internal(beaten.to_string()))?;
    Ok(super::plan_to_json(&plan, figures))
}
