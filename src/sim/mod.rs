//! The deterministic churn simulator: a scenario and a seed in, per-strategy
//! metrics and time series out, as data ([`RunResult`], [`report::Figures`],
//! [`report::StrategySweep`]) and as the text of the documents every front
//! writes or returns ([`documents`]); files, tables, plots and progress bars
//! are the command line's. Virtual time in the simulator's checked units
//! ([`units`]), one seeded ChaCha generator per run, no wall clock; every tie
//! broken by id order. The model, the scenario format and the outputs are
//! described in docs/simulator.md.
//!
//! The folders follow the data, each pointing only down:
//!
//! - [`scenario`]: reading and checking a scenario (the TOML reader, its
//!   documents and leaf values, the rules between values, the limits, the
//!   seed's perturbation, a sweep's parameter values and seeds);
//! - `run`: running it ([`run()`]: the engine drives, the world is the state,
//!   the ledger owns every accumulator and closes into [`RunMetrics`]);
//! - [`report`]: reporting it (one metric record, [`report::METRICS`], from
//!   which every document, table and statistic is derived; the time series;
//!   statistics over seeds; the documents);
//! - [`sweep`]: many seeds and parameter values in parallel, on top of the
//!   three.

#[cfg(test)]
mod generated;
pub mod report;
mod run;
pub mod scenario;
pub mod sweep;

pub use report::documents;
pub use run::units;
pub use run::{run, Outcome, RunMetrics, RunResult, Sample, SimError, SimProblem};
pub use scenario::duration::{format_duration, parse_duration, DurationError};
pub use scenario::file::scenario_hash;
pub use scenario::overrides;
pub use scenario::{choose_strategies, scenario_strategies, MAX_SCENARIO_BYTES};
pub use scenario::{
    ChurnKind, ChurnSpec, ClusterSpec, Event, EventKind, GroupSpec, InputSkew, PerturbSpec,
    Protocol, Scenario, SubtopologySpec, Target, DEFAULT_GROUP, DEFAULT_PROCESS_COST_MILLI,
};
pub use units::{MilliRecords, Millis, Overflow, Rate, Records, SimTime};
