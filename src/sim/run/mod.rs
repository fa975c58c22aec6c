//! Running a scenario: [`run`] plays one strategy through one scenario and
//! seed in virtual time.

mod backlog;
mod churn;
mod engine;
mod leader;
mod physics;
mod result;
mod stretch;
pub mod units;
mod world;

#[cfg(test)]
mod tests;

pub(crate) use engine::{check, run_unchecked};
pub use engine::run;
pub use result::{Outcome, RunMetrics, RunResult, Sample, SimError, SimProblem};
