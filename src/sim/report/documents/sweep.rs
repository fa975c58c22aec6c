//! `sweep.json`, `runs.json` and `runs.csv` (module doc of [`super`]).

use std::fmt::Write as _;

use serde::Serialize;

use super::format::{csv_field, opt, InOrder, Num, SignedNum};
use super::info::{SweepInfo, VERSION};
use crate::sim::report::{Paired, PointPaired, PointSweep, RunFigures, Stats, StrategySweep};
use crate::sim::scenario::overrides::{label, Setting};
use crate::wire;

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
    paired: PairedDoc<'a>,
}

/// The `paired` object of a point: the baseline, then per other strategy
/// and metric its comparison.
#[derive(Serialize)]
struct PairedDoc<'a> {
    baseline: &'a str,
    strategies: InOrder<InOrder<PairedStatsDoc>>,
}

impl PairedDoc<'_> {
    fn of(paired: &PointPaired) -> PairedDoc<'_> {
        PairedDoc {
            baseline: &paired.baseline,
            strategies: InOrder(
                paired
                    .strategies
                    .iter()
                    .map(|s| {
                        let metrics = s
                            .metrics
                            .iter()
                            .map(|(key, p)| (key.clone(), PairedStatsDoc::of(p)))
                            .collect();
                        (s.strategy.clone(), InOrder(metrics))
                    })
                    .collect(),
            ),
        }
    }
}

/// One metric of one strategy against the baseline.
#[derive(Serialize)]
struct PairedStatsDoc {
    n: usize,
    mean_difference: Option<SignedNum>,
    ci95_half_width: Option<Num>,
    ci95: Option<[SignedNum; 2]>,
    lower: usize,
    higher: usize,
    equal: usize,
    verdict: &'static str,
}

impl PairedStatsDoc {
    fn of(p: &Paired) -> PairedStatsDoc {
        PairedStatsDoc {
            n: p.n,
            mean_difference: p.mean_difference.map(SignedNum),
            ci95_half_width: opt(p.ci95_half_width),
            ci95: p.ci95.map(|(low, high)| [SignedNum(low), SignedNum(high)]),
            lower: p.lower,
            higher: p.higher,
            equal: p.equal,
            verdict: p.verdict.as_str(),
        }
    }
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

/// `sweep.json`: the sweep's identity and parameters, then per point its
/// parameter values, per strategy the runs, the seeds that stopped as
/// infeasible and the statistics per flat metric, and the paired
/// comparisons with the baseline.
pub fn sweep_json(info: &SweepInfo, sweep: &[PointSweep]) -> String {
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
                paired: PairedDoc::of(&point.paired),
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
pub fn runs_json(info: &SweepInfo, figures: &[RunFigures]) -> String {
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

/// `runs.csv` of a sweep: one row per run, by point, seed, then strategy
/// (the order the runs were listed in): the parameters' values (a column per
/// key of `parameters`, named by it; strings as they are, other values as
/// TOML writes them), `seed,strategy,outcome`, then every metric of
/// `summary.json` under its flat name (`unavailable_task_s.stateful`, …); a
/// null value is an empty field. An infeasible run's figures cover the time
/// before it stopped.
pub fn runs_csv(parameters: &[String], figures: &[RunFigures]) -> String {
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
