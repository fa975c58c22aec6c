//! One assignment as every front runs it (the command line's `assign`, the
//! Python package's `assign`): assign, check the plan with [`validate`] and
//! the strategy's claims, write it as JSON with or without its metrics.

use crate::assignor::{AssignError, Assignor};
use crate::metrics::plan_metrics;
use crate::model::ClusterState;
use crate::validate;

/// Why [`assign_json`] gave no plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AssignFailure {
    /// The caller's input: a state this strategy cannot serve (infeasible
    /// for it), or, for a front that reads the state too, one that cannot be
    /// read; exit 2 on the command line.
    BadInput(String),
    /// The strategy failed inside or its plan broke an invariant: a bug,
    /// exit 1 on the command line.
    Violation(String),
}

impl std::fmt::Display for AssignFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AssignFailure::BadInput(m) | AssignFailure::Violation(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for AssignFailure {}

/// The plan of `strategy` for `state` as JSON (the wire format's plan, with
/// `metrics` when asked), once it has passed [`validate`] with the
/// strategy's claims.
///
/// # Errors
///
/// [`AssignFailure::BadInput`] when the strategy cannot assign the state;
/// [`AssignFailure::Violation`] when it fails inside or its plan breaks an
/// invariant (naming every broken one).
pub fn assign_json(
    strategy: &dyn Assignor,
    state: &ClusterState,
    metrics: bool,
) -> Result<String, AssignFailure> {
    let plan = strategy.assign(state).map_err(|e| match e {
        AssignError::Infeasible(_) => AssignFailure::BadInput(e.to_string()),
        AssignError::Internal { .. } => AssignFailure::Violation(e.to_string()),
    })?;
    if let Err(violations) = validate(state, &plan, strategy.info().claims) {
        let list: Vec<String> = violations.iter().map(ToString::to_string).collect();
        return Err(AssignFailure::Violation(format!(
            "strategy {} broke an invariant: {}",
            strategy.info().name,
            list.join("; ")
        )));
    }
    let figures = metrics.then(|| plan_metrics(state, &plan));
    Ok(super::plan_to_json(&plan, figures))
}
