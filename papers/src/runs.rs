//! Running the simulator over many (scenario, strategy, seed) jobs in
//! parallel, results in job order whatever the threads did.

use std::path::Path;

use rayon::prelude::*;

use smoothscale::assignor::{self, Assignor};
use smoothscale::sim::report::{Figures, Fixed};
use smoothscale::sim::{self, EventKind, RunResult, Scenario};

/// One simulation to run.
pub struct Job<'a> {
    /// The scenario (already varied).
    pub scenario: &'a Scenario,
    /// The strategy.
    pub strategy: &'static dyn Assignor,
    /// The seed.
    pub seed: u64,
}

/// A finished simulation: its result and the simulator's figures of it.
pub struct Done {
    /// The run, time series included.
    pub result: RunResult,
    /// Its figures as `smoothscale simulate` reports them.
    pub figures: Figures,
}

impl Done {
    /// The figure `key` of the run (a key of `smoothscale::sim::report::METRICS`),
    /// which the paper expects to have a value.
    ///
    /// # Panics
    ///
    /// When `key` is not a metric or its value is null: a bug in the paper.
    pub fn figure(&self, key: &str) -> Fixed {
        self.figures[key].unwrap_or_else(|| panic!("the paper reads {key}, which is null here"))
    }

    /// The figure `key` of the run, null (`None`) when it never happened.
    ///
    /// # Panics
    ///
    /// When `key` is not a metric: a bug in the paper.
    pub fn maybe(&self, key: &str) -> Option<Fixed> {
        self.figures[key]
    }

    /// Seconds after the last event until assignment and data converged: the
    /// later of a settled, balanced plan and every restore done; `None` when
    /// either never happened.
    pub fn converged(&self) -> Option<Fixed> {
        let m = &self.result.metrics;
        Some(Fixed::seconds(m.converge_ms?.max(m.restores_done_ms?)))
    }
}

/// Clients the scale-out events of `s` add.
pub fn newcomers(s: &Scenario) -> u64 {
    s.events
        .iter()
        .map(|e| match e.kind {
            EventKind::ScaleOut { count, .. } => u64::from(count),
            _ => 0,
        })
        .sum()
}

/// Stateful replicas of `s`: each stateful task's active and standbys.
pub fn stateful_replicas(s: &Scenario) -> u64 {
    let tasks: u64 = s
        .subtopologies
        .iter()
        .filter(|t| t.stateful)
        .map(|t| u64::from(t.partitions))
        .sum();
    tasks * (1 + u64::from(s.config.num_standby_replicas))
}

/// Runs every job, in parallel; results in the jobs' order.
///
/// # Errors
///
/// The first failing job's scenario, strategy, seed and error.
pub fn run_all(jobs: &[Job<'_>]) -> Result<Vec<Done>, String> {
    jobs.par_iter()
        .map(|job| {
            let result = sim::run(job.scenario, job.strategy, job.seed).map_err(|e| {
                format!(
                    "{} with {} (seed {}): {e}",
                    job.scenario.name,
                    job.strategy.info().name,
                    job.seed
                )
            })?;
            let figures = Figures::of(&result, job.scenario.config.num_standby_replicas > 0);
            Ok(Done { result, figures })
        })
        .collect()
}

/// A strategy by name.
///
/// # Errors
///
/// When no strategy has that name.
pub fn strategy(name: &str) -> Result<&'static dyn Assignor, String> {
    assignor::by_name(name).ok_or_else(|| format!("no strategy {name:?}"))
}

/// The strategies called `names`, in that order.
///
/// # Errors
///
/// When a name is not a strategy's.
pub fn strategies(names: &[&str]) -> Result<Vec<&'static dyn Assignor>, String> {
    names.iter().map(|n| strategy(n)).collect()
}

/// Every scenario with every strategy, scenario by scenario: at the
/// scenario's own seed, or at each seed `0..n` with `Some(n)` (seed by seed
/// within a scenario).
pub fn jobs<'a>(
    scenarios: impl IntoIterator<Item = &'a Scenario>,
    strategies: &[&'static dyn Assignor],
    seeds: Option<u64>,
) -> Vec<Job<'a>> {
    let mut jobs = Vec::new();
    for scenario in scenarios {
        let seeds = seeds.map_or(scenario.seed..scenario.seed + 1, |n| 0..n);
        for seed in seeds {
            for &strategy in strategies {
                jobs.push(Job {
                    scenario,
                    strategy,
                    seed,
                });
            }
        }
    }
    jobs
}

/// Reads a bundled scenario, `simulations/NAME.toml`.
///
/// # Errors
///
/// The file or the scenario's error.
pub fn scenario(root: &Path, name: &str) -> Result<Scenario, String> {
    let path = root.join("../simulations").join(format!("{name}.toml"));
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    Scenario::from_toml(&text).map_err(|e| format!("simulations/{name}.toml: {e}"))
}

/// The bundled scenarios' names, sorted.
///
/// # Errors
///
/// When `simulations/` cannot be read.
pub fn bundled(root: &Path) -> Result<Vec<String>, String> {
    let dir = root.join("../simulations");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name.strip_suffix(".toml").map(str::to_string)
        })
        .collect();
    names.sort();
    Ok(names)
}
