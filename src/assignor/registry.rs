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

/// The registered names, in registry order.
pub fn names() -> Vec<&'static str> {
    ALL.iter().map(|a| a.info().name).collect()
}
