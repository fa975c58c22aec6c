//! The files `simulate` and `sweep` write, and how they are written.
//!
//! `summary.json`, `sweep.json` and `timeseries.csv` are written from typed
//! documents (the structs below, serialised with serde), filled from the
//! library's data ([`Figures`], [`StrategySweep`], the runs' samples): the
//! library's types carry no serialisation. docs/simulator.md describes the
//! files; every number is printed with a fixed count of decimals
//! ([`Fixed`]), every list in a fixed order, so the same runs give the same
//! bytes on every machine and thread count. JSON is pretty-printed with a
//! two-space indent and ends in a newline.
//!
//! # `summary.json`
//!
//! ```text
//! {
//!   "scenario": "scale-out",
//!   "scenario_hash": "…",
//!   "seed": 7,
//!   "version": "0.1.0",
//!   "strategies": {
//!     "kip441": {                       // one entry per strategy, in run order
//!       "outcome": "completed",         // or {"infeasible_at_s": 12.500, "message": "…"}
//!       "unavailable_task_s": {"stateful": 1.000, "stateless": 0.000, "total": 1.000},
//!       "max_outage_s": 1.000,
//!       "task_downtime_s": {"p50": 0.000, "p99": 1.000, "max": 1.000},  // each task's total, over tasks
//!       "tasks_affected": 1,
//!       "restored_records": {"active": 0, "replica": 0, "total": 0,
//!                            "recovery": 0, "steady_replication": 0},
//!       "active_moves": 0,
//!       "stateful_active_moves": 0,
//!       "stateless_active_moves": 0,
//!       "standby_moves": 0,
//!       "rebalances": {"membership": 0, "probing": 0, "caught_up": 0, "total": 0},
//!       "time_to_converge_s": 60.000,   // or null: never converged
//!       "time_to_full_availability_s": 0.000,  // each: or null, never
//!       "time_to_full_redundancy_s": 0.000,
//!       "time_to_restores_done_s": 0.000,
//!       "max_replicas_per_client": 2,
//!       "time_to_drain_s": 0.000,       // or null: a backlog never drained
//!       "backlog": {"mean_records": 0, "max_records": 0},  // input not processed yet
//!       "final_members": 3,             // members of the group at the end
//!       "imbalance": {"time_weighted": 0.125, "final": 0.000},
//!       "standby_coverage": 0.9950,     // or null: no stateful task or no standbys asked
//!       "cross_rack_records": 0,
//!       "cross_rack_actives": 0.000,    // time-weighted; null when no time was covered
//!       "restore_over_optimal": {"records": 0, "rebalances": 0}
//!     }
//!   }
//! }
//! ```
//!
//! The figures, their units and decimals are `smoothscale::sim::report`'s.
//!
//! # `timeseries.csv`
//!
//! Header `strategy,t_s,available_tasks,restoring_tasks,imbalance,max_replicas_per_client,backlog_records,restored_records`,
//! then one row per sample: strategies in run order, samples in time order.
//! The first sample of a strategy holds the values at 0 s; each later one the
//! means over the interval since the one before (`available_tasks`,
//! `restoring_tasks`, `imbalance`, 3 decimals; `backlog_records`, the input
//! not processed yet, an integer), the most replicas on one member during
//! it, and the records restored so far. `t_s` has 3 decimals.
//! Lines end in `\n`.
//!
//! # `sweep.json`
//!
//! ```text
//! {
//!   "scenario": "scale-out",
//!   "scenario_hash": "…",
//!   "seeds": "1..11",
//!   "version": "0.1.0",
//!   "parameters": ["config.max_warmup_replicas"],   // the keys varied; [] when none
//!   "points": [                                      // one per combination; one when none
//!     {
//!       "parameters": {"config.max_warmup_replicas": 1},
//!       "strategies": {
//!         "kip441": {                                // run order
//!           "runs": 10,
//!           "completed": 10,
//!           "infeasible_seeds": [],
//!           "metrics": {                             // `report::flat_metrics` order
//!             "unavailable_task_s.stateful": {"n": 10, "mean": 1.235, "std": 0.412,
//!               "ci95_half_width": 0.295, "p50": 1.200, "p95": 2.000, "max": 2.000},
//!             …
//!           }
//!         }
//!       }
//!     }
//!   ]
//! }
//! ```
//!
//! `n` counts the completed runs with a value (nulls left out); `std` is the
//! sample standard deviation (divisor `n − 1`) and `ci95_half_width` half the
//! 95% confidence interval of the mean (Student's t, `n − 1` degrees of
//! freedom): the interval is `mean ± ci95_half_width`; both null for `n < 2`.
//! The statistics (exact arithmetic, the t table, nearest-rank percentiles,
//! the roundings) are `smoothscale::sim::sweep`'s and `sim::dispersion`'s.
//! Parameter values are JSON numbers, strings, booleans or arrays as TOML
//! gave them.
//!
//! # `runs.csv` and `runs.json`
//!
//! One row per run, by point, then seed, then strategy: the parameter
//! values, `seed`, `strategy`, `outcome` (`completed` or `infeasible`) and
//! every metric of `summary.json` under its flat name, the same figures in
//! both files. `runs.json`:
//!
//! ```text
//! {
//!   "scenario": "scale-out", "scenario_hash": "…", "seeds": "1..11", "version": "0.1.0",
//!   "parameters": ["config.max_warmup_replicas"],
//!   "runs": [
//!     {"parameters": {"config.max_warmup_replicas": 1}, "seed": 1, "strategy": "kip441",
//!      "outcome": "completed", "metrics": {"unavailable_task_s.stateful": 1.200, …}},
//!     …
//!   ]
//! }
//! ```
//!
//! # All or nothing
//!
//! [`write_outputs`] stages every file as a hidden temporary file in DIR
//! (`.NAME.PID.tmp`), then moves each old file aside (`.NAME.PID.old`) and
//! renames the new one in; if any step fails, the renames already done are
//! undone and the staged files removed, so a failed write leaves DIR as it
//! was (as far as the file system allows: a crash between two renames can
//! leave a mix). Hidden files of earlier runs that were killed are cleaned
//! up first (an old file moved aside is put back when its place is empty).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde::ser::{Error as _, SerializeMap};
use serde::{Serialize, Serializer};
use serde_json::value::RawValue;

use smoothscale::sim::overrides::{label, Setting};
use smoothscale::sim::report::{Figures, Fixed};
use smoothscale::sim::sweep::{PointSweep, RunFigures, SeedRange, Stats, StrategySweep};
use smoothscale::sim::{Outcome, RunResult, Sample};
use smoothscale::wire;

use super::plot::PLOT_FILES;
use super::Failure;

/// The crate version written into every output.
pub(crate) const VERSION: &str = env!("CARGO_PKG_VERSION");

/// What the outputs of `simulate` say besides the runs themselves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RunInfo {
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

/// What `sweep.json` and `runs.json` say besides the runs and statistics.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SweepInfo {
    /// The scenario's name.
    pub scenario: String,
    /// `scenario_hash` of the scenario file's text.
    pub scenario_hash: String,
    /// The seeds run.
    pub seeds: SeedRange,
    /// The keys varied, in order (none when only seeds vary).
    pub parameters: Vec<String>,
}

/// A [`Fixed`] as a JSON number with its decimals (`12.350`, not `12.35`).
#[derive(Debug, Clone, Copy)]
struct Num(Fixed);

impl Serialize for Num {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        RawValue::from_string(self.0.to_string())
            .map_err(S::Error::custom)?
            .serialize(serializer)
    }
}

fn opt(value: Option<Fixed>) -> Option<Num> {
    value.map(Num)
}

/// A JSON object whose keys come in the order given (strategies in run
/// order, metrics in output order).
#[derive(Debug)]
struct InOrder<T>(Vec<(String, T)>);

impl<T: Serialize> Serialize for InOrder<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (key, value) in &self.0 {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

/// `summary.json`.
#[derive(Serialize)]
struct SummaryDoc<'a> {
    scenario: &'a str,
    scenario_hash: &'a str,
    seed: u64,
    version: &'static str,
    strategies: InOrder<StrategyDoc<'a>>,
}

/// One strategy's entry of `summary.json`.
#[derive(Serialize)]
struct StrategyDoc<'a> {
    outcome: OutcomeDoc<'a>,
    unavailable_task_s: UnavailableDoc,
    max_outage_s: Num,
    task_downtime_s: DowntimeDoc,
    tasks_affected: Num,
    restored_records: RestoredDoc,
    active_moves: Num,
    stateful_active_moves: Num,
    stateless_active_moves: Num,
    standby_moves: Num,
    rebalances: RebalancesDoc,
    time_to_converge_s: Option<Num>,
    time_to_full_availability_s: Option<Num>,
    time_to_full_redundancy_s: Option<Num>,
    time_to_restores_done_s: Option<Num>,
    max_replicas_per_client: Num,
    time_to_drain_s: Option<Num>,
    backlog: BacklogDoc,
    final_members: Num,
    imbalance: ImbalanceDoc,
    standby_coverage: Option<Num>,
    cross_rack_records: Num,
    cross_rack_actives: Option<Num>,
    restore_over_optimal: OverOptimalDoc,
}

/// `"completed"`, or `{"infeasible_at_s": …, "message": …}`.
#[derive(Serialize)]
#[serde(untagged)]
enum OutcomeDoc<'a> {
    Completed(&'static str),
    Infeasible {
        infeasible_at_s: Num,
        message: &'a str,
    },
}

#[derive(Serialize)]
struct UnavailableDoc {
    stateful: Num,
    stateless: Num,
    total: Num,
}

#[derive(Serialize)]
struct RestoredDoc {
    active: Num,
    replica: Num,
    total: Num,
    recovery: Num,
    steady_replication: Num,
}

#[derive(Serialize)]
struct RebalancesDoc {
    membership: Num,
    probing: Num,
    caught_up: Num,
    total: Num,
}

#[derive(Serialize)]
struct ImbalanceDoc {
    time_weighted: Option<Num>,
    #[serde(rename = "final")]
    at_end: Num,
}

#[derive(Serialize)]
struct DowntimeDoc {
    p50: Option<Num>,
    p99: Option<Num>,
    max: Option<Num>,
}

#[derive(Serialize)]
struct BacklogDoc {
    mean_records: Option<Num>,
    max_records: Num,
}

#[derive(Serialize)]
struct OverOptimalDoc {
    records: Num,
    rebalances: Num,
}

impl<'a> StrategyDoc<'a> {
    fn of(result: &'a RunResult, standbys_asked: bool) -> StrategyDoc<'a> {
        let f = Figures::of(result, standbys_asked);
        StrategyDoc {
            outcome: match &result.outcome {
                Outcome::Completed => OutcomeDoc::Completed("completed"),
                Outcome::Infeasible { at_ms, message } => OutcomeDoc::Infeasible {
                    infeasible_at_s: Num(Fixed::at(*at_ms)),
                    message,
                },
            },
            unavailable_task_s: UnavailableDoc {
                stateful: Num(f.unavailable_task_s.first),
                stateless: Num(f.unavailable_task_s.second),
                total: Num(f.unavailable_task_s.total),
            },
            max_outage_s: Num(f.max_outage_s),
            task_downtime_s: DowntimeDoc {
                p50: opt(f.task_downtime.p50),
                p99: opt(f.task_downtime.p99),
                max: opt(f.task_downtime.max),
            },
            tasks_affected: Num(f.task_downtime.affected),
            restored_records: RestoredDoc {
                active: Num(f.restored_records.first),
                replica: Num(f.restored_records.second),
                total: Num(f.restored_records.total),
                recovery: Num(f.recovery_records),
                steady_replication: Num(f.steady_replication_records),
            },
            active_moves: Num(f.active_moves),
            stateful_active_moves: Num(f.stateful_active_moves),
            stateless_active_moves: Num(f.stateless_active_moves),
            standby_moves: Num(f.standby_moves),
            rebalances: RebalancesDoc {
                membership: Num(f.rebalances.membership),
                probing: Num(f.rebalances.probing),
                caught_up: Num(f.rebalances.caught_up),
                total: Num(f.rebalances.total),
            },
            time_to_converge_s: opt(f.time_to_converge_s),
            time_to_full_availability_s: opt(f.time_to_full_availability_s),
            time_to_full_redundancy_s: opt(f.time_to_full_redundancy_s),
            time_to_restores_done_s: opt(f.time_to_restores_done_s),
            max_replicas_per_client: Num(f.max_replicas_per_client),
            time_to_drain_s: opt(f.time_to_drain_s),
            backlog: BacklogDoc {
                mean_records: opt(f.backlog_mean_records),
                max_records: Num(f.backlog_max_records),
            },
            final_members: Num(f.final_members),
            imbalance: ImbalanceDoc {
                time_weighted: opt(f.imbalance_time_weighted),
                at_end: Num(f.imbalance_final),
            },
            standby_coverage: opt(f.standby_coverage),
            cross_rack_records: Num(f.cross_rack_records),
            cross_rack_actives: opt(f.cross_rack_actives),
            restore_over_optimal: OverOptimalDoc {
                records: Num(f.restore_over_optimal_records),
                rebalances: Num(f.restore_over_optimal_rebalances),
            },
        }
    }
}

/// `sweep.json`.
#[derive(Serialize)]
struct SweepDoc<'a> {
    scenario: &'a str,
    scenario_hash: &'a str,
    seeds: String,
    version: &'static str,
    parameters: &'a [String],
    points: Vec<PointDoc<'a>>,
}

/// One point of `sweep.json`.
#[derive(Serialize)]
struct PointDoc<'a> {
    parameters: InOrder<&'a toml::Value>,
    strategies: InOrder<StrategySweepDoc<'a>>,
}

/// The parameter values of a point or run, keyed by parameter.
fn settings_doc(settings: &[Setting]) -> InOrder<&toml::Value> {
    InOrder(settings.iter().map(|s| (s.key.clone(), &s.value)).collect())
}

/// One strategy's entry of `sweep.json`.
#[derive(Serialize)]
struct StrategySweepDoc<'a> {
    runs: usize,
    completed: usize,
    infeasible_seeds: &'a [u64],
    metrics: InOrder<StatsDoc>,
}

/// Count, mean, spread, p50, p95 and max of one metric.
#[derive(Serialize)]
struct StatsDoc {
    n: usize,
    mean: Option<Num>,
    std: Option<Num>,
    ci95_half_width: Option<Num>,
    p50: Option<Num>,
    p95: Option<Num>,
    max: Option<Num>,
}

impl StatsDoc {
    fn of(stats: &Stats) -> StatsDoc {
        StatsDoc {
            n: stats.n,
            mean: opt(stats.mean),
            std: opt(stats.std),
            ci95_half_width: opt(stats.ci95_half_width),
            p50: opt(stats.p50),
            p95: opt(stats.p95),
            max: opt(stats.max),
        }
    }
}

/// `summary.json`: the run's identity, then each strategy's outcome and
/// figures, in run order.
pub(crate) fn summary_json(info: &RunInfo, results: &[RunResult]) -> String {
    wire::write(&SummaryDoc {
        scenario: &info.scenario,
        scenario_hash: &info.scenario_hash,
        seed: info.seed,
        version: VERSION,
        strategies: InOrder(
            results
                .iter()
                .map(|r| (r.strategy.clone(), StrategyDoc::of(r, info.standbys_asked)))
                .collect(),
        ),
    })
}

/// `sweep.json`: the sweep's identity and parameters, then per point its
/// parameter values and per strategy the runs, the seeds that stopped as
/// infeasible and the statistics per flat metric.
pub(crate) fn sweep_json(info: &SweepInfo, sweep: &[PointSweep]) -> String {
    wire::write(&SweepDoc {
        scenario: &info.scenario,
        scenario_hash: &info.scenario_hash,
        seeds: info.seeds.to_string(),
        version: VERSION,
        parameters: &info.parameters,
        points: sweep
            .iter()
            .map(|point| PointDoc {
                parameters: settings_doc(&point.settings),
                strategies: InOrder(point.strategies.iter().map(strategy_doc).collect()),
            })
            .collect(),
    })
}

/// One strategy's entry of a point of `sweep.json`, with its name.
fn strategy_doc(s: &StrategySweep) -> (String, StrategySweepDoc<'_>) {
    let doc = StrategySweepDoc {
        runs: s.runs,
        completed: s.runs - s.infeasible_seeds.len(),
        infeasible_seeds: &s.infeasible_seeds,
        metrics: InOrder(
            s.metrics
                .iter()
                .map(|(key, stats)| (key.clone(), StatsDoc::of(stats)))
                .collect(),
        ),
    };
    (s.strategy.clone(), doc)
}

/// `runs.json`.
#[derive(Serialize)]
struct RunsDoc<'a> {
    scenario: &'a str,
    scenario_hash: &'a str,
    seeds: String,
    version: &'static str,
    parameters: &'a [String],
    runs: Vec<RunDoc<'a>>,
}

/// One run of `runs.json`.
#[derive(Serialize)]
struct RunDoc<'a> {
    parameters: InOrder<&'a toml::Value>,
    seed: u64,
    strategy: &'a str,
    outcome: &'static str,
    metrics: InOrder<Option<Num>>,
}

/// `completed` or `infeasible`.
fn outcome_word(f: &RunFigures) -> &'static str {
    if f.completed {
        "completed"
    } else {
        "infeasible"
    }
}

/// `runs.json`: the sweep's identity and parameters, then every run as
/// `runs.csv` lists it (module doc).
pub(crate) fn runs_json(info: &SweepInfo, figures: &[RunFigures]) -> String {
    wire::write(&RunsDoc {
        scenario: &info.scenario,
        scenario_hash: &info.scenario_hash,
        seeds: info.seeds.to_string(),
        version: VERSION,
        parameters: &info.parameters,
        runs: figures
            .iter()
            .map(|f| RunDoc {
                parameters: settings_doc(&f.settings),
                seed: f.seed,
                strategy: &f.strategy,
                outcome: outcome_word(f),
                metrics: InOrder(
                    f.metrics
                        .iter()
                        .map(|(k, v)| (k.clone(), opt(*v)))
                        .collect(),
                ),
            })
            .collect(),
    })
}

/// The CSV header of `timeseries.csv`: [`TimeseriesRow`]'s fields.
pub(crate) const TIMESERIES_HEADER: &str =
    "strategy,t_s,available_tasks,restoring_tasks,imbalance,max_replicas_per_client,backlog_records,restored_records";

/// One row of `timeseries.csv`: one sample of one strategy.
struct TimeseriesRow<'a> {
    strategy: &'a str,
    /// Seconds, 3 decimals.
    t_s: Fixed,
    /// Interval means, 3 decimals.
    available_tasks: Fixed,
    restoring_tasks: Fixed,
    /// Tasks per thread, interval mean, 3 decimals.
    imbalance: Fixed,
    max_replicas_per_client: u64,
    /// Interval mean, rounded half up.
    backlog_records: u64,
    restored_records: u64,
}

impl<'a> TimeseriesRow<'a> {
    fn of(strategy: &'a str, sample: &Sample) -> TimeseriesRow<'a> {
        TimeseriesRow {
            strategy,
            t_s: Fixed::at(sample.t_ms),
            available_tasks: Fixed::milli(sample.available_tasks_milli),
            restoring_tasks: Fixed::milli(sample.restoring_tasks_milli),
            imbalance: Fixed::milli(sample.imbalance_milli),
            max_replicas_per_client: sample.max_replicas_per_client,
            backlog_records: sample.backlog_records,
            restored_records: sample.restored_records.get(),
        }
    }

    /// The row in [`TIMESERIES_HEADER`]'s column order, ending in `\n`.
    fn write(&self, out: &mut String) {
        let _ = writeln!(
            out,
            "{},{},{},{},{},{},{},{}",
            csv_field(self.strategy),
            self.t_s,
            self.available_tasks,
            self.restoring_tasks,
            self.imbalance,
            self.max_replicas_per_client,
            self.backlog_records,
            self.restored_records
        );
    }
}

/// `timeseries.csv`: the header, then one row per sample, strategies in run
/// order, samples in time order. Lines end in `\n`.
pub(crate) fn timeseries_csv(results: &[RunResult]) -> String {
    let mut out = String::from(TIMESERIES_HEADER);
    out.push('\n');
    for result in results {
        for sample in &result.samples {
            TimeseriesRow::of(&result.strategy, sample).write(&mut out);
        }
    }
    out
}

/// `runs.csv` of a sweep: one row per run, by point, seed, then strategy
/// (the order the runs were listed in): the parameters' values (a column per
/// key of `parameters`, named by it; strings as they are, other values as
/// TOML writes them), `seed,strategy,outcome`, then every metric of
/// `summary.json` under its flat name (`unavailable_task_s.stateful`, …); a
/// null value is an empty field. An infeasible run's figures cover the time
/// before it stopped.
pub(crate) fn runs_csv(parameters: &[String], figures: &[RunFigures]) -> String {
    let mut out = String::new();
    for key in parameters {
        out.push_str(&csv_field(key));
        out.push(',');
    }
    out.push_str("seed,strategy,outcome");
    if let Some(first) = figures.first() {
        for (name, _) in &first.metrics {
            out.push(',');
            out.push_str(name);
        }
    }
    out.push('\n');
    for f in figures {
        for setting in &f.settings {
            out.push_str(&csv_field(&label(&setting.value)));
            out.push(',');
        }
        let outcome = outcome_word(f);
        let _ = write!(out, "{},{},{outcome}", f.seed, csv_field(&f.strategy));
        for (_, value) in &f.metrics {
            out.push(',');
            if let Some(v) = value {
                out.push_str(&v.to_string());
            }
        }
        out.push('\n');
    }
    out
}

/// A CSV field, quoted only when it has to be.
fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

/// Every file name `simulate` and `sweep` write: the hidden files of a
/// killed run are recognised by them.
fn output_names() -> impl Iterator<Item = &'static str> {
    [
        "summary.json",
        "timeseries.csv",
        "sweep.json",
        "runs.csv",
        "runs.json",
    ]
    .into_iter()
    .chain(PLOT_FILES)
}

/// `.NAME.PID.SUFFIX`, the hidden name of a staged (`tmp`) or set-aside
/// (`old`) file.
fn hidden(dir: &Path, name: &str, pid: u32, suffix: &str) -> PathBuf {
    dir.join(format!(".{name}.{pid}.{suffix}"))
}

/// Whether process `pid` may still be running: on systems without `/proc`
/// every process may be.
fn may_be_running(pid: u32) -> bool {
    !Path::new("/proc/self").exists() || Path::new(&format!("/proc/{pid}")).exists()
}

/// Removes the hidden files that runs killed while writing into `dir` left
/// behind (not those of a process still running); an old file set aside is
/// put back when its place is empty. Best effort: what cannot be removed stays.
fn clean_up_after_killed_runs(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let Some(text) = file_name.to_str() else {
            continue;
        };
        for name in output_names() {
            let Some(rest) = text
                .strip_prefix('.')
                .and_then(|t| t.strip_prefix(name))
                .and_then(|t| t.strip_prefix('.'))
            else {
                continue;
            };
            let Some((pid, suffix)) = rest.split_once('.') else {
                continue;
            };
            let Ok(pid) = pid.parse::<u32>() else {
                continue;
            };
            if pid == std::process::id() || may_be_running(pid) {
                continue;
            }
            let path = entry.path();
            let target = dir.join(name);
            match suffix {
                "tmp" => {
                    let _ = std::fs::remove_file(&path);
                }
                "old" if std::fs::symlink_metadata(&target).is_err() => {
                    let _ = std::fs::rename(&path, &target);
                }
                "old" => {
                    let _ = std::fs::remove_file(&path);
                }
                _ => {}
            }
        }
    }
}

/// One file on its way into place.
struct Staged {
    temp: PathBuf,
    target: PathBuf,
    /// Where the file it replaces was set aside, once it was.
    old: Option<PathBuf>,
}

/// Writes `files` into `dir` (created if needed), all or nothing (module
/// doc). An existing directory where a file goes fails before anything is
/// touched.
pub(crate) fn write_outputs(dir: &Path, files: &[(&str, String)]) -> Result<(), Failure> {
    let fail = |what: &Path, e: &dyn std::fmt::Display| {
        Failure::Output(format!(
            "cannot write {}: {e}; nothing was written",
            what.display()
        ))
    };
    let existed = dir.exists();
    std::fs::create_dir_all(dir).map_err(|e| fail(dir, &e))?;
    let written = write_into(dir, files, fail);
    if written.is_err() && !existed {
        // DIR was not there: it goes again (when empty, as it should be).
        let _ = std::fs::remove_dir(dir);
    }
    written
}

/// [`write_outputs`] into the existing `dir`.
fn write_into(
    dir: &Path,
    files: &[(&str, String)],
    fail: impl Fn(&Path, &dyn std::fmt::Display) -> Failure,
) -> Result<(), Failure> {
    clean_up_after_killed_runs(dir);
    for (name, _) in files {
        let target = dir.join(name);
        if std::fs::metadata(&target).is_ok_and(|m| m.is_dir()) {
            return Err(fail(&target, &"it is a directory"));
        }
    }
    let pid = std::process::id();
    let mut staged: Vec<Staged> = Vec::with_capacity(files.len());
    for (name, contents) in files {
        let temp = hidden(dir, name, pid, "tmp");
        staged.push(Staged {
            temp: temp.clone(),
            target: dir.join(name),
            old: None,
        });
        if let Err(e) = std::fs::write(&temp, contents) {
            undo(&staged, 0);
            return Err(fail(&dir.join(name), &e));
        }
    }
    for i in 0..staged.len() {
        let (name, _) = files[i];
        let step = &mut staged[i];
        if std::fs::symlink_metadata(&step.target).is_ok() {
            let old = hidden(dir, name, pid, "old");
            if let Err(e) = std::fs::rename(&step.target, &old) {
                undo(&staged, i);
                return Err(fail(&staged[i].target, &e));
            }
            step.old = Some(old);
        }
        if let Err(e) = std::fs::rename(&step.temp, &step.target) {
            undo(&staged, i + 1);
            return Err(fail(&staged[i].target, &e));
        }
    }
    for step in &staged {
        if let Some(old) = &step.old {
            let _ = std::fs::remove_file(old);
        }
    }
    Ok(())
}

/// Undoes a failed write: the first `moved` files (whose old file may have
/// been set aside and whose new one may be in place) get their old state
/// back; every staged file is removed.
fn undo(staged: &[Staged], moved: usize) {
    for step in staged[..moved].iter().rev() {
        let new_in_place = !step.temp.exists();
        match &step.old {
            Some(old) => {
                let _ = std::fs::rename(old, &step.target);
            }
            None if new_in_place => {
                let _ = std::fs::remove_file(&step.target);
            }
            None => {}
        }
    }
    for step in staged {
        let _ = std::fs::remove_file(&step.temp);
    }
}

/// Runs and sweeps with hand-computed figures, for the tests of the
/// outputs and tables.
#[cfg(test)]
pub(crate) mod fixtures {
    use smoothscale::sim::sweep::{aggregate, PointSweep, RunFigures, SeedRange};
    use smoothscale::sim::{
        report, Millis, Outcome, Records, RunMetrics, RunResult, Sample, SimTime,
    };

    use super::{RunInfo, SweepInfo};

    pub(crate) fn info() -> RunInfo {
        RunInfo {
            scenario: "tiny".to_string(),
            scenario_hash: "abc123".to_string(),
            seed: 7,
            standbys_asked: true,
        }
    }

    pub(crate) fn completed() -> RunResult {
        RunResult {
            strategy: "kip441".to_string(),
            metrics: RunMetrics {
                unavailable_stateful_task_ms: Millis::new(12_345),
                unavailable_stateless_task_ms: Millis::new(5),
                max_outage_ms: Millis::new(6_000),
                // 12,345 + 5 task-ms over six tasks; one was down twice.
                task_down_ms: [6_000, 6_345, 0, 0, 0, 5].map(Millis::new).to_vec(),
                restored_active_records: Records::new(1_000),
                restored_replica_records: Records::new(234),
                // 200 of the 234 read by caught-up standbys following.
                steady_replica_records: Records::new(200),
                active_moves: 3,
                stateful_active_moves: 2,
                standby_moves: 4,
                membership_rebalances: 2,
                probing_rebalances: 1,
                caught_up_rebalances: 4,
                converge_ms: Some(Millis::new(60_000)),
                full_availability_ms: Some(Millis::new(30_000)),
                full_redundancy_ms: None,
                restores_done_ms: Some(Millis::new(90_000)),
                drained_ms: Some(Millis::new(45_000)),
                // 30 records behind for 60 of the 120 s: 15 on average.
                backlog_twice_milli_ms: 2 * 30_000 * 60_000,
                max_backlog_milli: 30_000,
                max_replicas_per_client: 2,
                final_members: 3,
                // 1 task/thread for a quarter of 120 s, else 0: 0.25.
                imbalance_milli_ms: 1000 * 30_000,
                final_imbalance_milli: 500,
                // 4 stateful tasks × 120 s, covered 2/3 of it: 0.6667 (rounded up).
                covered_task_ms: 320_000,
                cross_rack_records: Records::new(99),
                // 3 cross-rack actives for 30 s of 120 s: 0.750.
                cross_rack_active_task_ms: 3 * 30_000,
                restore_over_optimal_records: Records::new(500),
                rebalances_within_optimal_shares: 2,
            },
            samples: vec![
                Sample {
                    t_ms: SimTime::ZERO,
                    available_tasks_milli: 6_000,
                    restoring_tasks_milli: 0,
                    imbalance_milli: 0,
                    max_replicas_per_client: 1,
                    backlog_records: 0,
                    restored_records: Records::ZERO,
                },
                Sample {
                    t_ms: SimTime::new(60_000),
                    available_tasks_milli: 5_250,
                    restoring_tasks_milli: 750,
                    imbalance_milli: 1500,
                    max_replicas_per_client: 2,
                    backlog_records: 15,
                    restored_records: Records::new(1_234),
                },
            ],
            outcome: Outcome::Completed,
            stateful_tasks: 4,
            covered_ms: Millis::new(120_000),
        }
    }

    pub(crate) fn infeasible() -> RunResult {
        RunResult {
            strategy: "heron-rr".to_string(),
            metrics: RunMetrics::default(),
            samples: vec![Sample {
                t_ms: SimTime::ZERO,
                available_tasks_milli: 6_000,
                ..Sample::default()
            }],
            outcome: Outcome::Infeasible {
                at_ms: SimTime::new(1_500),
                message: "task 0_1 \"fits\" nowhere".to_string(),
            },
            stateful_tasks: 4,
            covered_ms: Millis::new(1_500),
        }
    }

    fn figures(seed: u64, strategy: &str, unavailable_ms: u64, completed: bool) -> RunFigures {
        let result = RunResult {
            strategy: strategy.to_string(),
            metrics: RunMetrics {
                unavailable_stateful_task_ms: Millis::new(unavailable_ms),
                active_moves: seed,
                converge_ms: (seed % 2 == 0).then_some(Millis::new(seed * 1000)),
                ..RunMetrics::default()
            },
            samples: vec![Sample::default()],
            outcome: if completed {
                Outcome::Completed
            } else {
                Outcome::Infeasible {
                    at_ms: SimTime::new(5),
                    message: "no room".to_string(),
                }
            },
            stateful_tasks: 2,
            covered_ms: Millis::new(1000),
        };
        RunFigures {
            point: 0,
            settings: Vec::new(),
            seed,
            strategy: strategy.to_string(),
            completed,
            metrics: report::flat_metrics(&result, false),
        }
    }

    pub(crate) fn sweep_info() -> SweepInfo {
        SweepInfo {
            scenario: "tiny".to_string(),
            scenario_hash: "h".to_string(),
            seeds: SeedRange { start: 1, end: 4 },
            parameters: Vec::new(),
        }
    }

    pub(crate) fn sample_runs() -> Vec<RunFigures> {
        vec![
            figures(1, "kip441", 1_000, true),
            figures(1, "heron-rr", 9_000, false),
            figures(2, "kip441", 3_000, true),
            figures(2, "heron-rr", 4_000, true),
            figures(3, "kip441", 2_000, true),
            figures(3, "heron-rr", 5_000, true),
        ]
    }

    pub(crate) fn sample_sweep() -> Vec<PointSweep> {
        aggregate(&sample_runs())
    }
}

#[cfg(test)]
mod tests {
    use super::fixtures::{completed, infeasible, info, sample_runs, sample_sweep, sweep_info};
    use super::*;
    use smoothscale::sim::report::flat_metrics;

    #[test]
    fn summary_json_has_the_documented_shape() {
        let text = summary_json(&info(), &[completed(), infeasible()]);
        let expected = format!(
            r#"{{
  "scenario": "tiny",
  "scenario_hash": "abc123",
  "seed": 7,
  "version": "{VERSION}",
  "strategies": {{
    "kip441": {{
      "outcome": "completed",
      "unavailable_task_s": {{
        "stateful": 12.345,
        "stateless": 0.005,
        "total": 12.350
      }},
      "max_outage_s": 6.000,
      "task_downtime_s": {{
        "p50": 0.000,
        "p99": 6.345,
        "max": 6.345
      }},
      "tasks_affected": 3,
      "restored_records": {{
        "active": 1000,
        "replica": 234,
        "total": 1234,
        "recovery": 1034,
        "steady_replication": 200
      }},
      "active_moves": 3,
      "stateful_active_moves": 2,
      "stateless_active_moves": 1,
      "standby_moves": 4,
      "rebalances": {{
        "membership": 2,
        "probing": 1,
        "caught_up": 4,
        "total": 7
      }},
      "time_to_converge_s": 60.000,
      "time_to_full_availability_s": 30.000,
      "time_to_full_redundancy_s": null,
      "time_to_restores_done_s": 90.000,
      "max_replicas_per_client": 2,
      "time_to_drain_s": 45.000,
      "backlog": {{
        "mean_records": 15,
        "max_records": 30
      }},
      "final_members": 3,
      "imbalance": {{
        "time_weighted": 0.250,
        "final": 0.500
      }},
      "standby_coverage": 0.6667,
      "cross_rack_records": 99,
      "cross_rack_actives": 0.750,
      "restore_over_optimal": {{
        "records": 500,
        "rebalances": 2
      }}
    }},
    "heron-rr": {{
      "outcome": {{
        "infeasible_at_s": 1.500,
        "message": "task 0_1 \"fits\" nowhere"
      }},
      "unavailable_task_s": {{
        "stateful": 0.000,
        "stateless": 0.000,
        "total": 0.000
      }},
      "max_outage_s": 0.000,
      "task_downtime_s": {{
        "p50": null,
        "p99": null,
        "max": null
      }},
      "tasks_affected": 0,
      "restored_records": {{
        "active": 0,
        "replica": 0,
        "total": 0,
        "recovery": 0,
        "steady_replication": 0
      }},
      "active_moves": 0,
      "stateful_active_moves": 0,
      "stateless_active_moves": 0,
      "standby_moves": 0,
      "rebalances": {{
        "membership": 0,
        "probing": 0,
        "caught_up": 0,
        "total": 0
      }},
      "time_to_converge_s": null,
      "time_to_full_availability_s": null,
      "time_to_full_redundancy_s": null,
      "time_to_restores_done_s": null,
      "max_replicas_per_client": 0,
      "time_to_drain_s": null,
      "backlog": {{
        "mean_records": 0,
        "max_records": 0
      }},
      "final_members": 0,
      "imbalance": {{
        "time_weighted": 0.000,
        "final": 0.000
      }},
      "standby_coverage": 0.0000,
      "cross_rack_records": 0,
      "cross_rack_actives": 0.000,
      "restore_over_optimal": {{
        "records": 0,
        "rebalances": 0
      }}
    }}
  }}
}}
"#
        );
        assert_eq!(text, expected);
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(value["strategies"]["kip441"]["imbalance"]["final"], 0.5);
    }

    /// The summary nests exactly the library's flat metrics, in their order
    /// (`sweep.json` uses the flat names).
    #[test]
    fn summary_keys_are_the_flat_metrics() {
        let text = summary_json(&info(), &[completed()]);
        let mut keys = Vec::new();
        let mut depth_keys: Vec<String> = Vec::new();
        for line in text.lines() {
            let trimmed = line.trim_start();
            let depth = (line.len() - trimmed.len()) / 2;
            let Some(rest) = trimmed.strip_prefix('"') else {
                continue;
            };
            let key = rest.split('"').next().unwrap().to_string();
            depth_keys.truncate(depth.saturating_sub(3));
            if depth >= 3 && key != "outcome" {
                let full = depth_keys
                    .iter()
                    .chain(std::iter::once(&key))
                    .cloned()
                    .collect::<Vec<_>>()
                    .join(".");
                if !trimmed.ends_with('{') {
                    keys.push(full);
                }
            }
            if trimmed.ends_with('{') && depth >= 3 {
                depth_keys.push(key);
            }
        }
        let flat: Vec<String> = flat_metrics(&completed(), true)
            .into_iter()
            .map(|(k, _)| k)
            .collect();
        assert_eq!(keys, flat);
    }

    #[test]
    fn coverage_is_null_without_standbys() {
        let mut no_standbys = info();
        no_standbys.standbys_asked = false;
        let text = summary_json(&no_standbys, &[completed()]);
        assert!(text.contains("\"standby_coverage\": null"), "{text}");
    }

    #[test]
    fn runs_csv_has_a_row_per_run_and_a_column_per_metric() {
        let figures = [
            RunFigures {
                point: 0,
                settings: Vec::new(),
                seed: 3,
                strategy: "kip441".into(),
                completed: true,
                metrics: vec![
                    ("max_outage_s".into(), Some(Fixed::int(5))),
                    ("time_to_converge_s".into(), None),
                ],
            },
            RunFigures {
                point: 0,
                settings: Vec::new(),
                seed: 3,
                strategy: "a,b".into(),
                completed: false,
                metrics: vec![
                    ("max_outage_s".into(), Some(Fixed::int(0))),
                    ("time_to_converge_s".into(), Some(Fixed::int(7))),
                ],
            },
        ];
        assert_eq!(
            runs_csv(&[], &figures),
            "seed,strategy,outcome,max_outage_s,time_to_converge_s\n\
             3,kip441,completed,5,\n\
             3,\"a,b\",infeasible,0,7\n"
        );
        assert_eq!(runs_csv(&[], &[]), "seed,strategy,outcome\n");

        // Parameter columns first, values as labels.
        let with = |key: &str, value: toml::Value, f: &RunFigures| RunFigures {
            settings: vec![
                Setting {
                    key: key.to_string(),
                    value,
                },
                Setting {
                    key: "cluster.racks".to_string(),
                    value: toml::Value::Array(vec!["a".into(), "b".into()]),
                },
            ],
            ..f.clone()
        };
        let rows = [
            with("cluster.session_timeout", "30s".into(), &figures[0]),
            with("cluster.session_timeout", 45_000.into(), &figures[1]),
        ];
        let keys = [
            "cluster.session_timeout".to_string(),
            "cluster.racks".into(),
        ];
        assert_eq!(
            runs_csv(&keys, &rows),
            "cluster.session_timeout,cluster.racks,seed,strategy,outcome,max_outage_s,time_to_converge_s\n\
             30s,\"[\"\"a\"\", \"\"b\"\"]\",3,kip441,completed,5,\n\
             45000,\"[\"\"a\"\", \"\"b\"\"]\",3,\"a,b\",infeasible,0,7\n"
        );
    }

    #[test]
    fn runs_json_has_the_runs_csv_figures() {
        let mut info = sweep_info();
        info.parameters = vec!["config.max_warmup_replicas".to_string()];
        let runs: Vec<RunFigures> = sample_runs()
            .into_iter()
            .map(|f| RunFigures {
                settings: vec![Setting {
                    key: "config.max_warmup_replicas".to_string(),
                    value: toml::Value::Integer(2),
                }],
                ..f
            })
            .collect();
        let json = runs_json(&info, &runs);
        let value: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(value["parameters"][0], "config.max_warmup_replicas");
        let rows = value["runs"].as_array().unwrap();
        assert_eq!(rows.len(), runs.len());
        assert_eq!(rows[1]["strategy"], "heron-rr");
        assert_eq!(rows[1]["outcome"], "infeasible");
        assert_eq!(rows[1]["parameters"]["config.max_warmup_replicas"], 2);
        // Every figure of runs.csv, as written there (raw JSON numbers).
        #[derive(serde::Deserialize)]
        struct Raw {
            runs: Vec<RawRun>,
        }
        #[derive(serde::Deserialize)]
        struct RawRun {
            metrics: std::collections::BTreeMap<String, Box<RawValue>>,
        }
        let raw: Raw = serde_json::from_str(&json).unwrap();
        let csv = runs_csv(&info.parameters, &runs);
        let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
        assert_eq!(raw.runs.len(), csv.lines().count() - 1);
        for (run, line) in raw.runs.iter().zip(csv.lines().skip(1)) {
            let fields: Vec<&str> = line.split(',').collect();
            assert_eq!(fields.len(), header.len());
            for (name, field) in header.iter().zip(&fields).skip(4) {
                let value = run.metrics[*name].get();
                let value = if value == "null" { "" } else { value };
                assert_eq!(value, *field, "{name}");
            }
        }
        for (row, line) in rows.iter().zip(csv.lines().skip(1)) {
            assert_eq!(row["seed"].to_string(), line.split(',').nth(1).unwrap());
        }
        // Fixed decimals, keys in order.
        assert!(
            json.contains("\"unavailable_task_s.stateful\": 1.000,"),
            "{json}"
        );
        let at = |k: &str| json.find(k).unwrap();
        assert!(at("\"scenario\"") < at("\"parameters\"") && at("\"parameters\"") < at("\"runs\""));
    }

    #[test]
    fn timeseries_csv_rows_by_strategy_then_time() {
        let text = timeseries_csv(&[completed(), infeasible()]);
        assert_eq!(
            text,
            "strategy,t_s,available_tasks,restoring_tasks,imbalance,max_replicas_per_client,backlog_records,restored_records\n\
             kip441,0.000,6.000,0.000,0.000,1,0,0\n\
             kip441,60.000,5.250,0.750,1.500,2,15,1234\n\
             heron-rr,0.000,6.000,0.000,0.000,0,0,0\n"
        );
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("say \"x\""), "\"say \"\"x\"\"\"");
    }

    #[test]
    fn sweep_json_shape() {
        let json = sweep_json(&sweep_info(), &sample_sweep());
        let value: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(value["seeds"], "1..4");
        assert_eq!(value["version"], VERSION);
        assert_eq!(value["parameters"].as_array().unwrap().len(), 0);
        let point = &value["points"][0];
        assert_eq!(point["parameters"].as_object().unwrap().len(), 0);
        assert_eq!(point["strategies"]["heron-rr"]["infeasible_seeds"][0], 1);
        assert_eq!(point["strategies"]["heron-rr"]["completed"], 2);
        let active = &point["strategies"]["kip441"]["metrics"]["active_moves"];
        assert_eq!(active["n"], 3);
        assert_eq!(active["p95"], 3);
        // Active moves 1, 2, 3: mean 2, std 1, half-width 4.303 / √3.
        assert!(
            json.contains("\"mean\": 2.000,\n              \"std\": 1.000,\n              \"ci95_half_width\": 2.484,"),
            "{json}"
        );
        assert!(json.contains(
            "\"standby_coverage\": {\n              \"n\": 0,\n              \"mean\": null,\n              \"std\": null,"
        ));
        assert!(json.contains("\"infeasible_seeds\": [],"), "{json}");
        assert!(json.ends_with("}\n"));
        let order = [
            "\"scenario\"",
            "\"scenario_hash\"",
            "\"seeds\"",
            "\"version\"",
            "\"parameters\"",
            "\"points\"",
            "\"strategies\"",
        ];
        let at: Vec<usize> = order.iter().map(|k| json.find(k).unwrap()).collect();
        assert!(at.windows(2).all(|w| w[0] < w[1]));
    }

    fn temp_dir(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("smoothscale-write-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn outputs_are_written_whole_and_leave_no_hidden_files() {
        let dir = temp_dir("whole");
        std::fs::write(dir.join("summary.json"), "old").unwrap();
        let files = [
            ("summary.json", "one".to_string()),
            ("sweep.json", "two".to_string()),
        ];
        assert!(write_outputs(&dir, &files).is_ok());
        assert_eq!(names(&dir), ["summary.json", "sweep.json"]);
        assert_eq!(
            std::fs::read_to_string(dir.join("summary.json")).unwrap(),
            "one"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_failed_rename_puts_every_old_file_back() {
        let dir = temp_dir("undo");
        std::fs::write(dir.join("summary.json"), "old summary").unwrap();
        std::fs::write(dir.join("sweep.json"), "old sweep").unwrap();
        // The second file cannot be set aside: its hidden name is taken by a
        // directory that is not empty.
        let blocker = hidden(&dir, "sweep.json", std::process::id(), "old");
        std::fs::create_dir_all(blocker.join("x")).unwrap();
        let files = [
            ("summary.json", "new summary".to_string()),
            ("sweep.json", "new sweep".to_string()),
            ("timeseries.csv", "new series".to_string()),
        ];
        assert!(matches!(
            write_outputs(&dir, &files),
            Err(Failure::Output(_))
        ));
        let read = |n: &str| std::fs::read_to_string(dir.join(n)).unwrap();
        assert_eq!(read("summary.json"), "old summary");
        assert_eq!(read("sweep.json"), "old sweep");
        std::fs::remove_dir_all(&blocker).unwrap();
        assert_eq!(names(&dir), ["summary.json", "sweep.json"]);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_failed_write_into_a_new_directory_removes_it() {
        let parent = temp_dir("new");
        let dir = parent.join("out");
        // A name in a directory that does not exist cannot be staged.
        let files = [
            ("summary.json", "one".to_string()),
            ("missing/x.txt", "two".to_string()),
        ];
        assert!(write_outputs(&dir, &files).is_err());
        assert!(!dir.exists());
        let _ = std::fs::remove_dir_all(&parent);
    }

    #[test]
    fn hidden_files_of_killed_runs_are_cleaned_up() {
        let dir = temp_dir("killed");
        // No process has this id (Linux's largest is 2^22).
        let dead = 999_999_999;
        std::fs::write(hidden(&dir, "summary.json", dead, "tmp"), "half").unwrap();
        std::fs::write(hidden(&dir, "timeseries.csv", dead, "old"), "series").unwrap();
        std::fs::write(dir.join(".unrelated.1.tmp"), "keep").unwrap();
        assert!(write_outputs(&dir, &[("summary.json", "new".to_string())]).is_ok());
        if Path::new("/proc/self").exists() {
            assert_eq!(
                names(&dir),
                [".unrelated.1.tmp", "summary.json", "timeseries.csv"]
            );
            // The old file set aside went back to its empty place.
            let series = std::fs::read_to_string(dir.join("timeseries.csv")).unwrap();
            assert_eq!(series, "series");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
