//! [`Scenario`]: what a simulation replays (see `docs/simulator.md`), as
//! checked data.
//!
//! Reading a scenario from TOML, with errors naming the key, is
//! [`Scenario::from_toml`] (in `file.rs`); it checks each value
//! against its type as it reads it, then calls [`Scenario::check`], the one
//! place where the rules between values are checked: events inside the
//! duration, racks and subtopologies that exist, the clients' membership the
//! events imply, and the limits (`limits.rs`).
//!
//! The folder: `file.rs` reads the TOML text (`document.rs` is its shape,
//! key for key, `values.rs` its checked leaf values, `duration.rs` its
//! durations); `check.rs` and `membership.rs` check the rules between
//! values, against `limits.rs`; `perturb.rs` draws a seed's variation;
//! `overrides.rs` sets a sweep's parameter values; `seeds.rs` the seeds a
//! sweep runs; `strategies.rs` which strategies a scenario runs.

mod check;
pub(crate) mod client_no;
mod document;
pub mod duration;
pub(crate) mod file;
#[cfg(test)]
mod keys;
pub mod limits;
mod membership;
pub mod overrides;
pub(crate) mod perturb;
mod seeds;
mod spec;
mod strategies;
mod values;

pub use file::MAX_SCENARIO_BYTES;
pub use limits::*;
pub use seeds::{SeedRange, HELD_OUT_SEEDS_FROM, MAX_SEEDS};
pub use spec::{
    ChurnKind, ChurnSpec, ClusterSpec, Event, EventKind, GroupNo, GroupSpec, InputSkew,
    PerturbSpec, Protocol, Scenario, SubtopologySpec, Target, DEFAULT_GROUP,
    DEFAULT_PROCESS_COST_MILLI,
};
pub use strategies::{choose_strategies, scenario_strategies};
