//! The simulation loop (being written).

use crate::assignor::Assignor;

use super::{Outcome, RunMetrics, RunResult, Scenario, SimError};

/// Runs `assignor` through `scenario` with `seed`.
pub fn run(scenario: &Scenario, assignor: &dyn Assignor, seed: u64) -> Result<RunResult, SimError> {
    let _ = seed;
    Ok(RunResult {
        strategy: assignor.name().to_string(),
        metrics: RunMetrics::default(),
        samples: Vec::new(),
        outcome: Outcome::Completed,
        stateful_tasks: 0,
        covered_ms: scenario.duration_ms,
    })
}
