//! The deterministic churn simulator: a scenario and a seed in, per-strategy
//! metrics and time series out, as data ([`RunResult`], [`report::Figures`],
//! [`sweep::StrategySweep`]) and as the text of the documents the command
//! line writes ([`documents`]); files, tables, plots and progress bars are
//! the command line's. Virtual time in the simulator's checked units ([`units`]),
//! one seeded ChaCha generator per run, no wall clock; every tie broken by id
//! order. The model, the scenario format and the outputs are described in
//! docs/simulator.md.

pub mod report;
mod run;
pub mod scenario;
pub mod sweep;

pub use report::documents;
pub use run::units;
pub use run::{run, Outcome, RunMetrics, RunResult, Sample, SimError, SimProblem};
pub use scenario::duration::{format_duration, parse_duration, DurationError};
pub use scenario::overrides;
pub use scenario::file::scenario_hash;
pub use scenario::{
    ChurnKind, ChurnSpec, ClusterSpec, Event, EventKind, PerturbSpec, Protocol, Scenario,
    SubtopologySpec,
};
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
                    InputError::one_of(format!("strategies[{i}]"), &assignor::names(), name)
                })
            })
            .collect(),
    }
}

/// The largest scenario text read (1 MiB): the bundled ones are under 3 KB,
/// and a scenario's sizes are bounded by `Scenario::check` anyway.
pub const MAX_SCENARIO_BYTES: u64 = 1 << 20;

/// The strategies to run: those `names` gives (in that order), else the
/// scenario's ([`scenario_strategies`]). `given_as` names where `names` came
/// from in errors (`--strategy` on the command line).
///
/// # Errors
///
/// An [`InputError`] at `given_as` for an unknown name, or at `given_as` or
/// `strategies[i]` for a name given twice.
pub fn choose_strategies(
    scenario: &Scenario,
    names: &[String],
    given_as: &str,
) -> Result<Vec<&'static dyn Assignor>, InputError> {
    let chosen: Vec<&'static dyn Assignor> = if names.is_empty() {
        scenario_strategies(scenario)?
    } else {
        names
            .iter()
            .map(|name| {
                assignor::by_name(name)
                    .ok_or_else(|| InputError::one_of(given_as, &assignor::names(), name))
            })
            .collect::<Result<_, _>>()?
    };
    for (i, a) in chosen.iter().enumerate() {
        if chosen[..i].iter().any(|b| b.info().name == a.info().name) {
            let place = if names.is_empty() {
                format!("strategies[{i}]")
            } else {
                given_as.to_string()
            };
            return Err(InputError::new(
                place,
                format!("names {:?} twice", a.info().name),
            ));
        }
    }
    Ok(chosen)
}
