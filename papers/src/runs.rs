//! Running the simulator over many (scenario, strategy, seed) jobs in
//! parallel, results in job order whatever the threads did.

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::Path;

use rayon::prelude::*;

use smoothscale::assignor::{self, Assignor};
use smoothscale::sim::report::{Figures, Fixed, Paired, Stats};
use smoothscale::sim::scenario::HELD_OUT_SEEDS_FROM;
use smoothscale::sim::{self, EventKind, RunResult, Scenario};

use crate::fmt;

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

/// The seeds of a sweep of `n` runs per scenario and strategy: the first `n`
/// held-out seeds, from [`HELD_OUT_SEEDS_FROM`] on. Seeds below it are for
/// development and tuning; no design choice was made on these.
pub fn seeds(n: u64) -> Range<u64> {
    HELD_OUT_SEEDS_FROM..HELD_OUT_SEEDS_FROM + n
}

/// The seeds of [`seeds`] in words: "seed 1,000,000" or "seeds 1,000,000
/// to 1,000,019".
pub fn seeds_text(n: u64) -> String {
    let range = seeds(n);
    if n == 1 {
        format!("seed {}", fmt::int(range.start))
    } else {
        format!(
            "seeds {} to {}",
            fmt::int(range.start),
            fmt::int(range.end - 1)
        )
    }
}

/// Every scenario with every strategy at each of the seeds of [`seeds`]`(n)`,
/// scenario by scenario, seed by seed within a scenario.
pub fn jobs<'a>(
    scenarios: impl IntoIterator<Item = &'a Scenario>,
    strategies: &[&'static dyn Assignor],
    n: u64,
) -> Vec<Job<'a>> {
    let mut jobs = Vec::new();
    for scenario in scenarios {
        for seed in seeds(n) {
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

/// Whether every seed gives `s` the same run: no random churn and no
/// perturbation, so that one seed stands for all.
pub fn seed_free(s: &Scenario) -> bool {
    s.churn.is_none()
        && s.perturb
            .as_ref()
            .is_none_or(|p| p.state_records == 0.0 && p.write_rate == 0.0 && p.event_time_ms == 0)
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

/// Runs kept as figures: one row per run, the figures of `keys` (metric
/// keys of `smoothscale::sim::report::METRICS`), written to and read back
/// from a CSV (`scenario,seed,strategy,outcome,KEY…`), so that `--fast`
/// redraws a section from its committed data.
pub struct RunTable {
    /// The metric keys, in column order.
    pub keys: Vec<String>,
    /// The runs, in the order they were made.
    pub rows: Vec<RunRow>,
}

/// One run of a [`RunTable`].
pub struct RunRow {
    /// The scenario's name.
    pub scenario: String,
    /// The seed.
    pub seed: u64,
    /// The strategy.
    pub strategy: String,
    /// `completed`, or `infeasible at N s`.
    pub outcome: String,
    /// The figures, in the table's key order; none when null or not run to
    /// the end.
    pub values: Vec<Option<Fixed>>,
}

impl RunRow {
    /// Whether the run completed (else it stopped as infeasible).
    pub fn completed(&self) -> bool {
        self.outcome == "completed"
    }
}

impl RunTable {
    /// The figures `keys` of each finished job, `scenario` naming each
    /// job's scenario (a variant may not be called as its file is).
    pub fn of(
        keys: &[&str],
        jobs: &[Job<'_>],
        done: &[Done],
        scenario: impl Fn(&Job<'_>) -> String,
    ) -> RunTable {
        let rows = jobs
            .iter()
            .zip(done)
            .map(|(job, d)| {
                let (outcome, values) = match &d.result.outcome {
                    sim::Outcome::Completed => (
                        "completed".to_string(),
                        keys.iter().map(|k| d.maybe(k)).collect(),
                    ),
                    sim::Outcome::Infeasible { at_ms, .. } => (
                        format!("infeasible at {} s", at_ms.get() / 1000),
                        vec![None; keys.len()],
                    ),
                };
                RunRow {
                    scenario: scenario(job),
                    seed: job.seed,
                    strategy: d.result.strategy.clone(),
                    outcome,
                    values,
                }
            })
            .collect();
        RunTable {
            keys: keys.iter().map(|k| (*k).to_string()).collect(),
            rows,
        }
    }

    /// The table as CSV.
    pub fn csv(&self) -> String {
        let mut out = format!("scenario,seed,strategy,outcome,{}\n", self.keys.join(","));
        for r in &self.rows {
            let cells: Vec<String> = r.values.iter().map(|v| fmt::cell(*v)).collect();
            out.push_str(&format!(
                "{},{},{},{},{}\n",
                r.scenario,
                r.seed,
                r.strategy,
                r.outcome,
                cells.join(",")
            ));
        }
        out
    }

    /// Reads back what [`Self::csv`] wrote to `data/NAME.csv`, which must
    /// hold every key of `keys`.
    ///
    /// # Errors
    ///
    /// A malformed line or a missing column, naming the file.
    pub fn parse(name: &str, csv: &str, keys: &[&str]) -> Result<RunTable, String> {
        let mut lines = csv.lines();
        let header: Vec<&str> = lines.next().unwrap_or("").split(',').collect();
        let expected: Vec<&str> = ["scenario", "seed", "strategy", "outcome"]
            .into_iter()
            .chain(keys.iter().copied())
            .collect();
        if header != expected {
            return Err(format!(
                "data/{name}.csv: the header is not {:?}: rerun `cargo run --release -p smoothscale-paper`",
                expected.join(",")
            ));
        }
        let mut rows = Vec::new();
        for (n, line) in lines.enumerate() {
            let bad = || format!("data/{name}.csv line {}: {line:?}", n + 2);
            let f: Vec<&str> = line.split(',').collect();
            if f.len() != expected.len() {
                return Err(bad());
            }
            let values = f[4..]
                .iter()
                .map(|v| {
                    if v.is_empty() {
                        Ok(None)
                    } else {
                        fmt::parse_fixed(v).map(Some).ok_or_else(bad)
                    }
                })
                .collect::<Result<_, _>>()?;
            rows.push(RunRow {
                scenario: f[0].to_string(),
                seed: f[1].parse().map_err(|_| bad())?,
                strategy: f[2].to_string(),
                outcome: f[3].to_string(),
                values,
            });
        }
        Ok(RunTable {
            keys: keys.iter().map(|k| (*k).to_string()).collect(),
            rows,
        })
    }

    /// The position of `key` among the columns.
    ///
    /// # Panics
    ///
    /// When the table does not keep `key`: a bug in the paper.
    fn column(&self, key: &str) -> usize {
        self.keys
            .iter()
            .position(|k| k == key)
            .unwrap_or_else(|| panic!("the paper reads {key}, which its table does not keep"))
    }

    /// The runs of `strategy` on `scenario`, in seed order as made.
    pub fn runs<'t>(
        &'t self,
        scenario: &'t str,
        strategy: &'t str,
    ) -> impl Iterator<Item = &'t RunRow> + 't {
        self.rows
            .iter()
            .filter(move |r| r.scenario == scenario && r.strategy == strategy)
    }

    /// The figure `key` of `row` (none when null or not completed).
    pub fn value(&self, row: &RunRow, key: &str) -> Option<Fixed> {
        row.values[self.column(key)]
    }

    /// The non-null figures `key` of the completed runs of `strategy` on
    /// `scenario`.
    pub fn values(&self, scenario: &str, strategy: &str, key: &str) -> Vec<Fixed> {
        let at = self.column(key);
        self.runs(scenario, strategy)
            .filter(|r| r.completed())
            .filter_map(|r| r.values[at])
            .collect()
    }

    /// Count, mean and 95 % interval of [`Self::values`].
    pub fn stats(&self, scenario: &str, strategy: &str, key: &str) -> Stats {
        Stats::of(&self.values(scenario, strategy, key))
    }

    /// Completed runs of `strategy` on `scenario` whose figure `key` is null
    /// (the event never happened within the run).
    pub fn nulls(&self, scenario: &str, strategy: &str, key: &str) -> usize {
        let at = self.column(key);
        self.runs(scenario, strategy)
            .filter(|r| r.completed() && r.values[at].is_none())
            .count()
    }

    /// `strategy` against `baseline` on `scenario`, seed by seed: the figure
    /// `key` over the seeds where both completed with a value.
    pub fn paired(&self, scenario: &str, key: &str, strategy: &str, baseline: &str) -> Paired {
        let at = self.column(key);
        let base: BTreeMap<u64, Fixed> = self
            .runs(scenario, baseline)
            .filter(|r| r.completed())
            .filter_map(|r| r.values[at].map(|v| (r.seed, v)))
            .collect();
        let pairs: Vec<(Fixed, Fixed)> = self
            .runs(scenario, strategy)
            .filter(|r| r.completed())
            .filter_map(|r| Some((r.values[at]?, *base.get(&r.seed)?)))
            .collect();
        Paired::of(&pairs)
    }
}
