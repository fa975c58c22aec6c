//! The deterministic churn simulator: a scenario and a seed in, per-strategy
//! metrics and time series out, as data ([`RunResult`], [`report::Figures`],
//! [`sweep::StrategySweep`]); files, tables, plots and progress bars are the
//! command line's. Virtual time in the simulator's checked units ([`units`]),
//! one seeded ChaCha generator per run, no wall clock; every tie broken by id
//! order. The model, the scenario format and the outputs are described in
//! docs/simulator.md.

mod backlog;
mod churn;
pub mod dispersion;
mod duration;
mod engine;
pub mod overrides;
mod perturb;
mod physics;
pub mod report;
mod result;
mod scenario;
mod scenario_toml;
mod stretch;
pub mod sweep;
pub mod units;
mod world;

#[cfg(test)]
mod tests;

pub use duration::{format_duration, parse_duration, DurationError};
pub use engine::run;
pub use result::{Outcome, RunMetrics, RunResult, Sample, SimError, SimProblem};
pub use scenario::{
    ChurnKind, ChurnSpec, ClusterSpec, Event, EventKind, PerturbSpec, Protocol, Scenario,
    SubtopologySpec,
};
pub use scenario_toml::scenario_hash;
pub use units::{MilliRecords, Millis, Overflow, Rate, Records, SimTime};

use crate::assignor::{self, Assignor};
use crate::model::InputError;

/// The strategies a scenario runs: those it names (in its order), or every
/// registered strategy.
///
/// # Errors
///
/// An [`InputError`] naming `strategies[i]` for an unknown name.
pub fn scenario_strategies(scenario: &Scenario) -> Result<Vec<&'static dyn Assignor>, InputError> {
    match &scenario.strategies {
        None => Ok(assignor::all().to_vec()),
        Some(names) => names
            .iter()
            .enumerate()
            .map(|(i, name)| {
                assignor::by_name(name).ok_or_else(|| {
                    InputError::new(
                        format!("strategies[{i}]"),
                        format!(
                            "must be one of {}, got {name:?}",
                            assignor::names().join(", ")
                        ),
                    )
                })
            })
            .collect(),
    }
}
