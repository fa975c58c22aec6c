//! Section 2: every bundled scenario with every registered strategy over
//! [`SEEDS`] held-out seeds, the scripted scenarios perturbed per seed; the
//! means and their 95 % intervals, and per scenario the strategy with the
//! lowest mean unavailability compared seed by seed with kip441 and with
//! the runner-up.
//!
//! The per-run figures are written to `data/headline.csv`; `--fast` reads
//! them back instead of running the grid.

use std::path::Path;

use smoothscale::assignor;
use smoothscale::sim::report::{Fixed, Paired, Verdict};
use smoothscale::sim::{PerturbSpec, Scenario};

use super::{claim, swept, Paper};
use crate::fmt;
use crate::runs::{self, RunTable};

/// Seeds per scenario and strategy.
pub const SEEDS: u64 = 20;
/// The perturbation of a scripted scenario: each task's state size and
/// write rate within ± this fraction.
const SIZE_AND_RATE: f64 = 0.2;
/// Each scripted event's time within ± this (ms), or within ± a tenth of
/// the run when that is less.
const EVENT_TIME_MS: u64 = 120_000;
/// The figures kept per run (`data/headline.csv`).
pub const KEYS: [&str; 23] = [
    "unavailable_task_s.total",
    "unavailable_task_s.stateful",
    "unavailable_task_s.stateless",
    "max_outage_s",
    "task_downtime_s.p99",
    "backlog.mean_records",
    "worst_drain_s",
    "delay_s.p99",
    "throughput_deficit.records",
    "restored_records.recovery",
    "restored_records.steady_replication",
    "restored_records.active",
    "restored_records.total",
    "rebalances.membership",
    "rebalances.probing",
    "rebalances.caught_up",
    "time_to_full_availability_s",
    "time_to_full_redundancy_s",
    "time_to_converge_s",
    "max_replicas_per_client",
    "tasks_lost_every_copy",
    "restore_over_optimal.records",
    "restore_over_optimal.rebalances",
];
const UNAVAILABLE: &str = "unavailable_task_s.total";

/// The runs of this section, kept for the failures section.
pub struct Headline {
    /// The bundled scenarios as run (sorted by name), perturbed.
    pub scenarios: Vec<Scenario>,
    /// Every run's figures.
    pub table: RunTable,
}

/// The bundled scenarios, each scripted one given a perturbation whose
/// event shifts keep the membership rules at every seed of the sweep; and
/// the sentence saying what was perturbed how.
fn perturbed(root: &Path) -> Result<(Vec<Scenario>, String), String> {
    let mut scenarios = Vec::new();
    let mut short = Vec::new();
    let mut unshifted = Vec::new();
    let mut churned = Vec::new();
    for name in runs::bundled(root)? {
        let mut s = runs::scenario(root, &name)?;
        if s.churn.is_some() {
            churned.push(format!("`{name}`"));
        }
        if s.churn.is_none() && s.perturb.is_none() {
            let shift = EVENT_TIME_MS.min(s.duration_ms / 10);
            if shift < EVENT_TIME_MS {
                short.push(format!(
                    "`{name}`, ±{} s",
                    fmt::fixed_to(Fixed::milli(shift), 1)
                ));
            }
            let perturb = |event_time_ms| PerturbSpec {
                state_records: SIZE_AND_RATE,
                write_rate: SIZE_AND_RATE,
                event_time_ms,
            };
            s.perturb = Some(perturb(shift));
            if runs::seeds(SEEDS).any(|seed| s.perturbed(seed).is_err()) {
                s.perturb = Some(perturb(0));
                unshifted.push(format!("`{name}`"));
            }
        }
        claim(
            "every scenario of the headline differs from seed to seed",
            !runs::seed_free(&s),
        )?;
        scenarios.push(s);
    }
    let mut text = format!(
        "{} draws its churn from the seed; every other scenario is scripted and is perturbed per seed: each task's state size and write rate within ±{} %, each event's time within ±{} minutes",
        plot_list(&churned),
        fmt::num(SIZE_AND_RATE * 100.0, 0),
        fmt::num(EVENT_TIME_MS as f64 / 60_000.0, 0),
    );
    if !short.is_empty() {
        text.push_str(&format!(
            ", or a tenth of the run where that is less ({})",
            short.join("; ")
        ));
    }
    if unshifted.is_empty() {
        text.push_str(", in scripted order (every shifted seed keeps the membership rules)");
    } else {
        text.push_str(&format!(
            ", in scripted order; {} refuse event shifts at some seed (a shifted event breaks a membership rule), so only their sizes and rates are perturbed",
            plot_list(&unshifted)
        ));
    }
    Ok((scenarios, text))
}

fn plot_list(items: &[String]) -> String {
    crate::plot::and_list(items)
}

fn sweep(scenarios: &[Scenario]) -> Result<String, String> {
    let jobs = runs::jobs(scenarios, assignor::all(), SEEDS);
    let done = runs::run_all(&jobs)?;
    Ok(RunTable::of(&KEYS, &jobs, &done, |j| j.scenario.name.clone()).csv())
}

/// A strategy's part of one scenario in the table's words.
fn row(t: &RunTable, scenario: &str, strategy: &str) -> Vec<String> {
    let runs = t.runs(scenario, strategy).count();
    let completed = t.runs(scenario, strategy).filter(|r| r.completed()).count();
    let mut row = vec![scenario.to_string(), strategy.to_string()];
    row.push(if completed == runs {
        runs.to_string()
    } else {
        format!("{completed} ({} infeasible)", runs - completed)
    });
    if completed == 0 {
        row.push("infeasible at every seed".to_string());
        return row;
    }
    let stats = |key| t.stats(scenario, strategy, key);
    let with_never = |key, decimals| {
        let never = t.nulls(scenario, strategy, key);
        let s = stats(key);
        match (s.n, never) {
            (0, _) => "never".to_string(),
            (_, 0) => fmt::mean_ci(&s, decimals),
            _ => format!("{} ({never} never)", fmt::mean_ci(&s, decimals)),
        }
    };
    let input = stats("delay_s.p99").n > 0;
    row.push(fmt::mean_ci(&stats(UNAVAILABLE), 1));
    row.push(fmt::mean(&stats("unavailable_task_s.stateless"), 1));
    row.push(if input {
        fmt::mean_ci(&stats("backlog.mean_records"), 0)
    } else {
        "no input".to_string()
    });
    row.push(if input {
        with_never("worst_drain_s", 1)
    } else {
        "no input".to_string()
    });
    row.push(fmt::mean(&stats("max_outage_s"), 1));
    row.push(fmt::mean(&stats("restored_records.recovery"), 0));
    row.push(format!(
        "{} / {} / {}",
        fmt::mean(&stats("rebalances.membership"), 1),
        fmt::mean(&stats("rebalances.probing"), 1),
        fmt::mean(&stats("rebalances.caught_up"), 1)
    ));
    row.push(with_never("time_to_full_availability_s", 1));
    row.push(with_never("time_to_converge_s", 1));
    row
}

/// One scenario's verdicts: the lowest mean unavailability among the
/// strategies that completed every run, and that strategy against kip441
/// and against the runner-up.
struct Verdicts {
    scenario: String,
    /// The lowest mean's strategies (ties: the same mean), registry order.
    lowest: Vec<String>,
    lowest_mean: Fixed,
    /// The strategies compared with the lowest one.
    against: Vec<Against>,
}

/// The lowest strategy of a scenario against another, seed by seed.
struct Against {
    /// The other strategy.
    other: String,
    /// Whether it is the runner-up (the next mean).
    runner_up: bool,
    /// Its mean unavailability.
    mean: Fixed,
    /// lowest − other.
    paired: Paired,
}

fn verdicts(t: &RunTable, scenario: &str) -> Option<Verdicts> {
    let mut means: Vec<(String, Fixed)> = Vec::new();
    for s in assignor::all() {
        let name = s.info().name;
        let all = t.runs(scenario, name).all(|r| r.completed());
        let stats = t.stats(scenario, name, UNAVAILABLE);
        if all && stats.n as u64 == SEEDS {
            means.push((name.to_string(), stats.mean?));
        }
    }
    let lowest_mean = means.iter().map(|(_, m)| *m).min()?;
    let lowest: Vec<String> = means
        .iter()
        .filter(|(_, m)| *m == lowest_mean)
        .map(|(s, _)| s.clone())
        .collect();
    let best = &lowest[0];
    let mut against = Vec::new();
    let runner_up = means
        .iter()
        .filter(|(_, m)| *m > lowest_mean)
        .min_by_key(|(_, m)| *m);
    if !lowest.iter().any(|s| s == "kip441") {
        if let Some((_, m)) = means.iter().find(|(s, _)| s == "kip441") {
            against.push(Against {
                other: "kip441".to_string(),
                runner_up: runner_up.is_some_and(|(s, _)| s == "kip441"),
                mean: *m,
                paired: t.paired(scenario, UNAVAILABLE, best, "kip441"),
            });
        }
    }
    if let Some((s, m)) = runner_up.filter(|(s, _)| s != "kip441") {
        against.push(Against {
            other: s.clone(),
            runner_up: true,
            mean: *m,
            paired: t.paired(scenario, UNAVAILABLE, best, s),
        });
    }
    Some(Verdicts {
        scenario: scenario.to_string(),
        lowest,
        lowest_mean,
        against,
    })
}

/// Runs the grid (or reads it back) and writes the tables.
///
/// # Errors
///
/// A scenario that cannot be read, a run that fails, unreadable data, or a
/// statement of the text the results do not bear out.
pub fn section(root: &Path, fast: bool, paper: &mut Paper) -> Result<Headline, String> {
    let (scenarios, perturbation) = perturbed(root)?;
    let csv = swept(root, fast, "headline", paper, |_| sweep(&scenarios))?;
    let table = RunTable::parse("headline", &csv, &KEYS)?;
    let strategies = assignor::all();
    claim(
        "every scenario ran with every strategy at every seed",
        table.rows.len() as u64 == scenarios.len() as u64 * strategies.len() as u64 * SEEDS,
    )?;
    let mut rows = Vec::new();
    let mut verdict_rows = Vec::new();
    let mut all_verdicts = Vec::new();
    for s in &scenarios {
        for st in strategies {
            rows.push(row(&table, &s.name, st.info().name));
        }
        let v = verdicts(&table, &s.name).ok_or_else(|| {
            format!(
                "{}: no strategy completed every seed: the verdicts need one",
                s.name
            )
        })?;
        let lowest = if v.lowest.len() == 1 {
            v.lowest[0].clone()
        } else {
            format!("{} (tied with {})", v.lowest[0], v.lowest[1..].join(", "))
        };
        if v.against.is_empty() {
            verdict_rows.push(vec![
                s.name.clone(),
                lowest.clone(),
                fmt::fixed_to(v.lowest_mean, 1),
                "every strategy that completed every run: the same mean".to_string(),
            ]);
        }
        for a in &v.against {
            let p = &a.paired;
            let text = fmt::paired(p, 1);
            claim(
                "a verdict reads \"lower\" only where the 95 % interval lies below 0",
                (p.verdict == Verdict::Lower) == p.ci95.is_some_and(|(_, high)| high.is_negative()),
            )?;
            verdict_rows.push(vec![
                s.name.clone(),
                lowest.clone(),
                fmt::fixed_to(v.lowest_mean, 1),
                if a.runner_up {
                    format!("{} (runner-up)", a.other)
                } else {
                    a.other.clone()
                },
                fmt::fixed_to(a.mean, 1),
                text.mean,
                text.ci,
                text.wins,
                text.verdict.to_string(),
            ]);
        }
        all_verdicts.push(v);
    }
    for row in &mut rows {
        row.resize(12, String::new());
    }
    for row in &mut verdict_rows {
        row.resize(9, String::new());
    }
    paper.set(
        "headline.table",
        fmt::table(
            &[
                "scenario",
                "strategy",
                "runs",
                "unavailable (task-s)",
                "of which stateless",
                "lag (records)",
                "drain (s)",
                "max outage (s)",
                "recovery (records)",
                "rebalances (membership / probing / caught-up)",
                "full availability (s)",
                "converge (s)",
            ],
            2,
            &rows,
        ),
    );
    paper.set(
        "headline.verdicts",
        fmt::table(
            &[
                "scenario",
                "lowest mean unavailability",
                "its mean (task-s)",
                "compared with",
                "their mean (task-s)",
                "mean difference (task-s)",
                "95 % CI",
                "seeds lower / higher / equal",
                "verdict",
            ],
            2,
            &verdict_rows,
        ),
    );
    summary(&all_verdicts, paper);
    // A low mean unavailability can come with a plan that never settles.
    let unsettled: Vec<String> = strategies
        .iter()
        .map(|st| st.info().name)
        .filter_map(|name| {
            let places: Vec<String> = all_verdicts
                .iter()
                .filter(|v| v.lowest.iter().any(|s| s == name))
                .filter(|v| table.nulls(&v.scenario, name, "time_to_converge_s") as u64 == SEEDS)
                .map(|v| format!("`{}`", v.scenario))
                .collect();
            (!places.is_empty()).then(|| format!("{name} on {}", crate::plot::and_list(&places)))
        })
        .collect();
    paper.set(
        "headline.unsettled",
        if unsettled.is_empty() {
            String::new()
        } else {
            format!(
                " A lowest mean can come with a plan that never settles; among the lowest, no run converged for {} (the converge column).",
                unsettled.join("; ")
            )
        },
    );
    optimal_is_no_bound(&table, &scenarios, paper)?;
    paper.set("headline.scenarios", scenarios.len().to_string());
    paper.set("headline.strategies", strategies.len().to_string());
    paper.set("headline.seeds", runs::seeds_text(SEEDS));
    paper.set("headline.seed_count", SEEDS.to_string());
    paper.set("headline.perturbation", perturbation);
    Ok(Headline { scenarios, table })
}

/// The verdicts in a sentence: which strategy is lowest where, and where
/// the lowest mean is not significantly below kip441's or the runner-up's.
fn summary(all: &[Verdicts], paper: &mut Paper) {
    let mut by_strategy: Vec<(String, Vec<String>)> = Vec::new();
    for v in all {
        let who = if v.lowest.len() == 1 {
            v.lowest[0].clone()
        } else {
            format!("{} (tied)", crate::plot::and_list(&v.lowest))
        };
        match by_strategy.iter_mut().find(|(s, _)| *s == who) {
            Some((_, list)) => list.push(format!("`{}`", v.scenario)),
            None => by_strategy.push((who, vec![format!("`{}`", v.scenario)])),
        }
    }
    by_strategy.sort_by_key(|(_, list)| std::cmp::Reverse(list.len()));
    let lowest: Vec<String> = by_strategy
        .iter()
        .map(|(s, list)| format!("{s} on {}", crate::plot::and_list(list)))
        .collect();
    let mut not_kip = Vec::new();
    let mut not_runner = Vec::new();
    let mut below_both = Vec::new();
    let mut kip441_lowest = Vec::new();
    for v in all {
        if v.lowest.iter().any(|s| s == "kip441") {
            kip441_lowest.push(format!("`{}`", v.scenario));
        }
        // Below both: compared with kip441 (so kip441 is not among the
        // lowest) and lower than every strategy compared.
        let mut lower_than_all = v.against.iter().any(|a| a.other == "kip441");
        for a in &v.against {
            if a.paired.verdict != Verdict::Lower {
                lower_than_all = false;
                let place = format!("`{}` ({} against {})", v.scenario, v.lowest[0], a.other);
                if a.other == "kip441" {
                    not_kip.push(place.clone());
                }
                if a.runner_up {
                    not_runner.push(place);
                }
            }
        }
        if lower_than_all {
            below_both.push(format!("`{}`", v.scenario));
        }
    }
    let none = |v: &[String]| {
        if v.is_empty() {
            "none".to_string()
        } else {
            crate::plot::and_list(v)
        }
    };
    paper.set("headline.lowest", lowest.join("; "));
    paper.set("headline.below_both", none(&below_both));
    paper.set(
        "headline.kip441_lowest",
        if kip441_lowest.is_empty() {
            String::new()
        } else {
            format!(
                " kip441 itself shares the lowest mean on {}.",
                crate::plot::and_list(&kip441_lowest)
            )
        },
    );
    paper.set("headline.not_below_kip441", none(&not_kip));
    paper.set("headline.not_below_runner_up", none(&not_runner));
}

/// What section 1 says of `optimal`: it minimises one rebalance's restore
/// within its shares (no plan within them restored less: its own excess
/// over its minimum is 0 in every run), which bounds nothing over a run:
/// the scenarios where another strategy restored significantly fewer
/// records, or was significantly less unavailable.
fn optimal_is_no_bound(
    t: &RunTable,
    scenarios: &[Scenario],
    paper: &mut Paper,
) -> Result<(), String> {
    claim(
        "optimal restores the fewest records at each rebalance within its shares",
        t.rows
            .iter()
            .filter(|r| r.strategy == "optimal" && r.completed())
            .all(|r| t.value(r, "restore_over_optimal.records") == Some(Fixed::int(0))),
    )?;
    // Where smooth (or any other strategy) was significantly below optimal.
    let below = |scenario: &str, key: &str, other: &str| {
        t.paired(scenario, key, other, "optimal").verdict == Verdict::Lower
    };
    let names = |key: &'static str| -> Vec<String> {
        scenarios
            .iter()
            .filter(|s| below(&s.name, key, "smooth"))
            .map(|s| format!("`{}`", s.name))
            .collect()
    };
    let (restores, unavailable) = (names("restored_records.recovery"), names(UNAVAILABLE));
    let any = scenarios
        .iter()
        .filter(|s| {
            assignor::all()
                .iter()
                .map(|a| a.info().name)
                .any(|o| o != "optimal" && below(&s.name, "restored_records.recovery", o))
        })
        .count();
    claim(
        "over a run smooth restores significantly fewer records than optimal somewhere",
        !restores.is_empty(),
    )?;
    claim(
        "over a run smooth is significantly less unavailable than optimal somewhere",
        !unavailable.is_empty(),
    )?;
    let of = |v: &[String]| {
        if v.len() == scenarios.len() {
            format!("all {} scenarios", v.len())
        } else {
            format!(
                "{} of the {} scenarios ({})",
                v.len(),
                scenarios.len(),
                crate::plot::and_list(v)
            )
        }
    };
    paper.set("headline.optimal_smooth_restores", of(&restores));
    paper.set("headline.optimal_smooth_unavailable", of(&unavailable));
    paper.set(
        "headline.optimal_any_restores",
        if any == scenarios.len() {
            format!("every one of the {any} scenarios")
        } else {
            format!("{any} of the {} scenarios", scenarios.len())
        },
    );
    Ok(())
}
