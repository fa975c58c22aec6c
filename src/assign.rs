//! [`assign`]: one assignment as every front runs it (the command line, the
//! Python package, the Kafka Streams adapter through JNI, the simulator):
//! run the strategy, then [`validate`] its plan with the strategy's claims.
//! Its failure keeps the caller's fault apart from a bug, and every front
//! maps the two the same way:
//!
//! | [`AssignFailure`] | command line | Python | Java (JNI) |
//! |---|---|---|---|
//! | [`Infeasible`](AssignFailure::Infeasible): the input | exit 2 | `ValueError` | `SmoothscaleInputException` |
//! | [`Internal`](AssignFailure::Internal), [`Invariants`](AssignFailure::Invariants): a bug | exit 1 | `InvariantViolation` | `SmoothscaleInvariantException` |
//!
//! The message is the failure's one line ([`Display`](std::fmt::Display)),
//! the same on every front.

use crate::assignor::{AssignError, Assignor};
use crate::model::{ClusterState, Plan};
use crate::validate::{validate, Violation};

/// Why [`assign`] gave no plan.
#[derive(Debug, Clone, PartialEq)]
pub enum AssignFailure {
    /// The strategy cannot serve this state ([`AssignError::Infeasible`]):
    /// the caller's input; the message names what does not fit.
    Infeasible(String),
    /// The strategy failed inside ([`AssignError::Internal`]): a bug.
    Internal(String),
    /// The plan broke these invariants of [`validate`]: a bug in the strategy.
    Invariants {
        /// The strategy.
        strategy: &'static str,
        /// Every invariant broken, in [`validate`]'s order (never empty).
        violations: Vec<Violation>,
    },
}

impl AssignFailure {
    /// Whether the caller's input is at fault (exit 2, `ValueError`,
    /// `SmoothscaleInputException`) rather than the strategy (a bug).
    pub fn is_bad_input(&self) -> bool {
        matches!(self, AssignFailure::Infeasible(_))
    }

    /// What went wrong, one problem per entry: the strategy's message, or
    /// each invariant broken.
    pub fn problems(&self) -> Vec<String> {
        match self {
            AssignFailure::Infeasible(m) | AssignFailure::Internal(m) => vec![m.clone()],
            AssignFailure::Invariants { violations, .. } => {
                violations.iter().map(ToString::to_string).collect()
            }
        }
    }
}

impl std::fmt::Display for AssignFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AssignFailure::Infeasible(m) | AssignFailure::Internal(m) => f.write_str(m),
            AssignFailure::Invariants { strategy, .. } => write!(
                f,
                "strategy {strategy} broke an invariant: {}",
                self.problems().join("; ")
            ),
        }
    }
}

impl std::error::Error for AssignFailure {}

/// The plan of `strategy` for `state`, once it has passed [`validate`] with
/// the strategy's claims.
///
/// # Errors
///
/// [`AssignFailure::Infeasible`] when the strategy cannot serve the state;
/// [`AssignFailure::Internal`] when it fails inside;
/// [`AssignFailure::Invariants`] when its plan breaks an invariant (naming
/// every broken one).
///
/// # Examples
/// ```
/// use smoothscale::{assign, assignor, AssignmentConfig, Client, ClusterState, Task, TaskId};
///
/// let tasks = vec![Task::stateful(TaskId::new(0, 0), 10)];
/// let state = ClusterState::new(AssignmentConfig::default(), tasks, vec![Client::new("a", 1)]).unwrap();
/// let plan = assign(assignor::by_name("kip441").unwrap(), &state).unwrap();
/// assert_eq!(plan.clients.values().map(|c| c.active.len()).sum::<usize>(), 1);
/// ```
pub fn assign(strategy: &dyn Assignor, state: &ClusterState) -> Result<Plan, AssignFailure> {
    let plan = strategy.assign(state).map_err(|e| match e {
        AssignError::Infeasible(_) => AssignFailure::Infeasible(e.to_string()),
        AssignError::Internal { .. } => AssignFailure::Internal(e.to_string()),
    })?;
    validate(state, &plan, strategy.info().claims).map_err(|violations| {
        AssignFailure::Invariants {
            strategy: strategy.info().name,
            violations,
        }
    })?;
    Ok(plan)
}
