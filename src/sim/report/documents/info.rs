//! What the documents say besides the runs: the identity of a run
//! ([`RunInfo`]) or a sweep ([`SweepInfo`]) and the crate version.

use crate::sim::scenario::file::scenario_hash;
use crate::sim::scenario::overrides::SweepPoint;
use crate::sim::scenario::Scenario;
use crate::sim::scenario::SeedRange;

/// The crate version written into every output.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// What the outputs of `simulate` say besides the runs themselves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunInfo {
    /// The scenario's name.
    pub scenario: String,
    /// `scenario_hash` of the scenario file's text.
    pub scenario_hash: String,
    /// The seed every strategy ran with.
    pub seed: u64,
    /// Whether the scenario asks for standbys (`num_standby_replicas > 0`);
    /// when not, standby coverage is null.
    pub standbys_asked: bool,
}

impl RunInfo {
    /// The identity of `scenario`, read from `text`, run with `seed`.
    pub fn of(scenario: &Scenario, text: &str, seed: u64) -> RunInfo {
        RunInfo {
            scenario: scenario.name.clone(),
            scenario_hash: scenario_hash(text),
            seed,
            standbys_asked: scenario.standbys_asked(),
        }
    }
}

/// What `sweep.json` and `runs.json` say besides the runs and statistics.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SweepInfo {
    /// The scenario's name.
    pub scenario: String,
    /// `scenario_hash` of the scenario file's text.
    pub scenario_hash: String,
    /// The seeds run.
    pub seeds: SeedRange,
    /// The keys varied, in order (none when only seeds vary).
    pub parameters: Vec<String>,
}

impl SweepInfo {
    /// The identity of a sweep of `scenario`, read from `text`, over `seeds`
    /// at `points` (the keys varied are those of its first point).
    pub fn of(
        scenario: &Scenario,
        text: &str,
        seeds: SeedRange,
        points: &[SweepPoint],
    ) -> SweepInfo {
        SweepInfo {
            scenario: scenario.name.clone(),
            scenario_hash: scenario_hash(text),
            seeds,
            parameters: points
                .first()
                .map(|p| p.settings.iter().map(|s| s.key.clone()).collect())
                .unwrap_or_default(),
        }
    }
}
