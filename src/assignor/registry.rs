//! The registry of strategies: the one file that names every strategy,
//! in a fixed order, and finds one by the name its plans carry.

use super::heron::{HeronFirstFitDecreasing, HeronResourceCompliantRoundRobin, HeronRoundRobin};
use super::kip441::Kip441;
use super::learner::Kip441Learner;
use super::optimal::Optimal;
use super::samza::Samza;
use super::smooth::Smooth;
use super::sticky::{FallbackPrior, LegacySticky};
use super::strategy::Assignor;
use crate::model::InputError;

static ALL: &[&dyn Assignor] = &[
    &Kip441,
    &Kip441Learner,
    &LegacySticky,
    &FallbackPrior,
    &Samza,
    &HeronRoundRobin,
    &HeronFirstFitDecreasing,
    &HeronResourceCompliantRoundRobin,
    &Optimal,
    &Smooth,
];

/// Every registered strategy, in a fixed order.
pub fn all() -> &'static [&'static dyn Assignor] {
    ALL
}

/// The strategy registered under `name`.
pub fn by_name(name: &str) -> Option<&'static dyn Assignor> {
    ALL.iter().copied().find(|a| a.info().name == name)
}

/// The strategy registered under `name`, given at `path` (`--strategy`,
/// `strategies[2]`).
///
/// # Errors
///
/// An [`InputError`] at `path` listing the registered names, for a name no
/// strategy has: every front's message for an unknown strategy.
pub fn named(path: impl Into<String>, name: &str) -> Result<&'static dyn Assignor, InputError> {
    by_name(name).ok_or_else(|| InputError::one_of(path, &names(), name))
}

/// The registered names, in registry order.
pub fn names() -> Vec<&'static str> {
    ALL.iter().map(|a| a.info().name).collect()
}
