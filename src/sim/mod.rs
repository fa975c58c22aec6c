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
pub use scenario::file::scenario_hash;
pub use scenario::overrides;
pub use scenario::{choose_strategies, scenario_strategies, MAX_SCENARIO_BYTES};
pub use scenario::{
    ChurnKind, ChurnSpec, ClusterSpec, Event, EventKind, PerturbSpec, Protocol, Scenario,
    SubtopologySpec,
};
pub use units::{MilliRecords, Millis, Overflow, Rate, Records, SimTime};
