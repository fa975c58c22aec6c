//! Section 4: unavailability against time to converge over the
//! configuration space. Random churn, the first 20 held-out seeds, every registered
//! strategy at every combination of `max_warmup_replicas` and
//! `probing_rebalance_interval`; one point per strategy and configuration
//! (means over the seeds), the Pareto-optimal ones ringed; and smooth and
//! kip441-learner against kip441 at each configuration, seed by seed.
//!
//! The per-run figures are written to `data/pareto.csv`; `--fast` reads them
//! back instead of running the sweep.

use std::collections::BTreeMap;
use std::path::Path;

use smoothscale::assignor;
use smoothscale::sim::report::{Fixed, Paired, Verdict};

use super::{claim, swept, Paper};
use crate::fmt;
use crate::plot::{self, Chart, Corner, Kind, Scale};
use crate::runs;

pub const SEEDS: u64 = 20;
const WARMUPS: [u32; 4] = [1, 2, 4, 8];
const INTERVALS_MIN: [u64; 3] = [1, 5, 10];
/// The strategies compared with kip441 seed by seed.
const AGAINST_KIP441: [&str; 2] = ["smooth", "kip441-learner"];

/// Runs the sweep (or reads it back) and draws the plot.
///
/// # Errors
///
/// A run that fails, unreadable data, or a chart that cannot be drawn.
pub fn section(root: &Path, fast: bool, paper: &mut Paper) -> Result<(), String> {
    let csv = swept(root, fast, "pareto", paper, sweep)?;
    render(&csv, paper)
}

fn sweep(root: &Path) -> Result<String, String> {
    let base = runs::scenario(root, "random-churn")?;
    let mut variants = Vec::new();
    for w in WARMUPS {
        for interval in INTERVALS_MIN {
            let mut s = base.clone();
            s.config.max_warmup_replicas = w;
            s.config.probing_rebalance_interval_ms = interval * 60_000;
            variants.push((w, interval, s));
        }
    }
    let jobs = runs::jobs(variants.iter().map(|(_, _, s)| s), assignor::all(), SEEDS);
    let done = runs::run_all(&jobs)?;
    let mut csv = String::from(
        "max_warmup_replicas,interval_min,seed,strategy,completed,unavailable_task_s,converge_s\n",
    );
    // The jobs run variant by variant, each variant's seeds and strategies together.
    let per_variant = jobs.len() / variants.len();
    for (i, (job, d)) in jobs.iter().zip(&done).enumerate() {
        let (w, interval, _) = &variants[i / per_variant];
        csv.push_str(&format!(
            "{w},{interval},{},{},{},{},{}\n",
            job.seed,
            d.result.strategy,
            d.result.outcome == smoothscale::sim::Outcome::Completed,
            d.figure("unavailable_task_s.total"),
            fmt::cell(d.maybe("time_to_converge_s"))
        ));
    }
    Ok(csv)
}

/// Means of one strategy at one configuration.
struct Point {
    strategy: String,
    warmups: u32,
    interval: u64,
    unavailable: f64,
    converge: f64,
    converged: usize,
    runs: usize,
}

/// A strategy at one configuration: (strategy, warm-ups, probing interval in
/// minutes), whose runs' unavailability and convergence values are gathered.
type Config = (String, u32, u64);

/// One completed run's exact figures: unavailability and, when it
/// converged, its time to converge.
type Exact = (Fixed, Option<Fixed>);

fn render(csv: &str, paper: &mut Paper) -> Result<(), String> {
    let mut sums: BTreeMap<Config, (Vec<f64>, Vec<f64>)> = BTreeMap::new();
    // By configuration and strategy, by seed.
    let mut exact: BTreeMap<Config, BTreeMap<u64, Exact>> = BTreeMap::new();
    for (n, line) in csv.lines().enumerate().skip(1) {
        let bad = || format!("data/pareto.csv line {}: {line:?}", n + 1);
        let f: Vec<&str> = line.split(',').collect();
        if f.len() != 7 {
            return Err(bad());
        }
        if f[4] != "true" {
            continue;
        }
        let key = (
            f[3].to_string(),
            f[0].parse().map_err(|_| bad())?,
            f[1].parse().map_err(|_| bad())?,
        );
        let unavailable = fmt::parse_fixed(f[5]).ok_or_else(bad)?;
        let converge = if f[6].is_empty() {
            None
        } else {
            Some(fmt::parse_fixed(f[6]).ok_or_else(bad)?)
        };
        exact
            .entry(key.clone())
            .or_default()
            .insert(f[2].parse().map_err(|_| bad())?, (unavailable, converge));
        let entry = sums.entry(key).or_default();
        entry.0.push(unavailable.to_f64());
        if let Some(c) = converge {
            entry.1.push(c.to_f64());
        }
    }
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len().max(1) as f64;
    let points: Vec<Point> = sums
        .into_iter()
        .map(|((strategy, warmups, interval), (u, c))| Point {
            strategy,
            warmups,
            interval,
            unavailable: mean(&u),
            converge: mean(&c),
            converged: c.len(),
            runs: u.len(),
        })
        .collect();
    // Pareto-optimal among points whose every run converged.
    let full: Vec<&Point> = points.iter().filter(|p| p.converged == p.runs).collect();
    let optimal: Vec<&Point> = full
        .iter()
        .copied()
        .filter(|p| {
            !full.iter().any(|q| {
                q.unavailable <= p.unavailable
                    && q.converge <= p.converge
                    && (q.unavailable < p.unavailable || q.converge < p.converge)
            })
        })
        .collect();
    let mut chart = Chart::new(
        &format!("Random churn, {SEEDS} held-out seeds: unavailability against time to converge"),
        "mean time to converge after the last event (s)",
        "mean unavailability (task-s)",
    );
    chart.legend = Corner::UpperRight;
    // Unavailability spans two orders of magnitude over the strategies.
    chart.y_scale = Scale::Log;
    let mut order: Vec<&str> = Vec::new();
    for s in assignor::all() {
        let name = s.info().name;
        if points.iter().any(|p| p.strategy == name) {
            order.push(name);
        }
    }
    let configurations = WARMUPS.len() * INTERVALS_MIN.len();
    let (mut undrawn, mut single) = (Vec::new(), Vec::new());
    for (i, name) in order.iter().enumerate() {
        let pts: Vec<(f64, f64)> = points
            .iter()
            .filter(|p| p.strategy == *name && p.converged > 0)
            .map(|p| (p.converge, p.unavailable))
            .collect();
        if pts.is_empty() {
            undrawn.push(name.to_string());
            continue;
        }
        if pts.len() == configurations && pts.iter().all(|p| *p == pts[0]) {
            single.push(name.to_string());
        }
        chart.add(name, plot::color(name, i), Kind::Points, pts);
    }
    chart.add(
        "Pareto-optimal (every run converged)",
        plot::GREY,
        Kind::Rings,
        optimal
            .iter()
            .map(|p| (p.converge, p.unavailable))
            .collect(),
    );
    paper.figure("pareto", &chart, &|at| {
        let places: Vec<String> = at
            .iter()
            .map(|p| format!("({} s, {} task-s)", fmt::num(p.0, 0), fmt::num(p.1, 0)))
            .collect();
        plot::and_list(&places)
    })?;
    paper.set(
        "pareto.single",
        if single.is_empty() {
            String::new()
        } else {
            format!(
                " The {configurations} points of each of {} coincide: the same means at every configuration.",
                plot::and_list(&single)
            )
        },
    );
    paper.set(
        "pareto.undrawn",
        if undrawn.is_empty() {
            String::new()
        } else {
            format!(
                " No point for {}: none of {} runs converged.",
                plot::and_list(&undrawn),
                if undrawn.len() == 1 { "its" } else { "their" }
            )
        },
    );
    // A strategy that ignores the settings has the same point at every one.
    let mut grouped: Vec<(&Point, Vec<String>)> = Vec::new();
    for p in &optimal {
        let setting = format!("{} warm-ups, {} min", p.warmups, p.interval);
        match grouped.iter_mut().find(|(q, _)| {
            q.strategy == p.strategy && q.unavailable == p.unavailable && q.converge == p.converge
        }) {
            Some((_, settings)) => settings.push(setting),
            None => grouped.push((p, vec![setting])),
        }
    }
    let rows: Vec<Vec<String>> = grouped
        .iter()
        .map(|(p, settings)| {
            vec![
                p.strategy.clone(),
                if settings.len() == configurations {
                    "every configuration".to_string()
                } else {
                    settings.join("; ")
                },
                fmt::num(p.unavailable, 1),
                fmt::num(p.converge, 1),
            ]
        })
        .collect();
    paper.set(
        "pareto.optimal",
        fmt::table(
            &[
                "strategy",
                "configurations (max_warmup_replicas, probing interval)",
                "mean unavailable (task-s)",
                "mean converge (s)",
            ],
            2,
            &rows,
        ),
    );
    let never: Vec<String> = order
        .iter()
        .filter_map(|name| {
            let mine: Vec<&Point> = points.iter().filter(|p| p.strategy == *name).collect();
            let runs: usize = mine.iter().map(|p| p.runs).sum();
            let converged: usize = mine.iter().map(|p| p.converged).sum();
            (converged < runs).then(|| format!("{name} {converged} of {runs}"))
        })
        .collect();
    paired(&exact, paper)?;
    paper.set("pareto.seeds", runs::seeds_text(SEEDS));
    paper.set("pareto.seed_count", SEEDS.to_string());
    paper.set(
        "pareto.never",
        if never.is_empty() {
            "every run converged".to_string()
        } else {
            format!("runs that converged: {}", never.join(", "))
        },
    );
    Ok(())
}

/// Each strategy of [`AGAINST_KIP441`] against kip441 at each
/// configuration, seed by seed: unavailability over every seed where both
/// completed, time to converge over the seeds where both converged.
fn paired(exact: &BTreeMap<Config, BTreeMap<u64, Exact>>, paper: &mut Paper) -> Result<(), String> {
    let mut rows = Vec::new();
    let mut lower = Vec::new();
    for name in AGAINST_KIP441 {
        let mut counts = [0usize; 3];
        for w in WARMUPS {
            for interval in INTERVALS_MIN {
                let runs = |s: &str| exact.get(&(s.to_string(), w, interval));
                let (Some(mine), Some(base)) = (runs(name), runs("kip441")) else {
                    return Err(format!(
                        "data/pareto.csv: no {name} or kip441 at {w} warm-ups, {interval} min"
                    ));
                };
                let pairs = |pick: fn(&Exact) -> Option<Fixed>| -> Vec<(Fixed, Fixed)> {
                    mine.iter()
                        .filter_map(|(seed, m)| Some((pick(m)?, pick(base.get(seed)?)?)))
                        .collect()
                };
                let u = Paired::of(&pairs(|e| Some(e.0)));
                let c = Paired::of(&pairs(|e| e.1));
                claim(
                    "a strategy is called lower than kip441 only where the 95 % interval lies below 0",
                    (u.verdict == Verdict::Lower) == u.ci95.is_some_and(|(_, h)| h.is_negative()),
                )?;
                counts[match u.verdict {
                    Verdict::Lower => 0,
                    Verdict::Higher => 1,
                    Verdict::NoSignificantDifference => 2,
                }] += 1;
                let (ut, ct) = (fmt::paired(&u, 1), fmt::paired(&c, 1));
                rows.push(vec![
                    name.to_string(),
                    format!("{w} warm-ups, {interval} min"),
                    ut.mean,
                    ut.ci,
                    ut.wins,
                    ut.verdict.to_string(),
                    c.n.to_string(),
                    ct.mean,
                    ct.ci,
                    ct.verdict.to_string(),
                ]);
            }
        }
        let configurations = WARMUPS.len() * INTERVALS_MIN.len();
        let words = ["lower", "higher", "no significant difference"];
        let parts: Vec<String> = counts
            .iter()
            .zip(words)
            .filter(|(n, _)| **n > 0)
            .map(|(n, what)| format!("{what} at {n}"))
            .collect();
        lower.push(match counts.iter().position(|n| *n == configurations) {
            Some(i) => format!(
                "{name}'s is {} at all {configurations} configurations",
                words[i]
            ),
            None => format!(
                "{name}'s is {} of the {configurations} configurations",
                plot::and_list(&parts)
            ),
        });
    }
    paper.set("pareto.against_kip441", plot::and_list(&lower));
    paper.set(
        "pareto.paired",
        fmt::table(
            &[
                "strategy",
                "configuration",
                "unavailable − kip441's (task-s)",
                "95 % CI",
                "seeds lower / higher / equal",
                "verdict",
                "seeds both converged",
                "converge − kip441's (s)",
                "95 % CI",
                "verdict",
            ],
            2,
            &rows,
        ),
    );
    Ok(())
}
