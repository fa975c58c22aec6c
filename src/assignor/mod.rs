//! The [`Assignor`] trait every strategy implements, and the registry of
//! strategies by name.
//!
//! This file only declares the modules and re-exports their public items:
//! the trait and the types a strategy implements against are in `strategy`,
//! the registry (the one place that names every strategy) in `registry`, and
//! the crate-private helpers the strategies share in `common`. A strategy
//! imports from those files, never from here, so no import runs back up
//! from a strategy to this module.

mod common;
pub mod heron;
pub mod kip441;
pub mod learner;
mod load;
pub mod optimal;
pub(crate) mod rack;
mod registry;
pub mod samza;
pub mod share;
pub mod smooth;
pub mod sticky;
mod strategy;

pub use registry::{all, by_name, named, names};
pub use strategy::{AssignError, Assignor, Claims, LeaveBehaviour, StrategyInfo};
