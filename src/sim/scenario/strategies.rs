//! Which strategies a run plays: those the command line names, else those
//! the scenario names, else every registered one.

use super::spec::Scenario;
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
            .map(|(i, name)| assignor::named(format!("strategies[{i}]"), name))
            .collect(),
    }
}

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
            .map(|name| assignor::named(given_as, name))
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
