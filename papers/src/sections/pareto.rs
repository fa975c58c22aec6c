//! Section 4: unavailability against time to converge over the
//! configuration space. Random churn, seeds 0..20, every registered
//! strategy at every combination of `max_warmup_replicas` and
//! `probing_rebalance_interval`; one point per strategy and configuration
//! (means over the seeds), the Pareto-optimal ones ringed.
//!
//! The per-run figures are written to `data/pareto.csv`; `--fast` reads them
//! back instead of running the sweep.

use std::collections::BTreeMap;
use std::path::Path;

use smoothscale::assignor;

use super::{swept, Paper};
use crate::fmt;
use crate::plot::{self, Chart, Corner, Kind, Scale};
use crate::runs;

const SEEDS: u64 = 20;
const WARMUPS: [u32; 4] = [1, 2, 4, 8];
const INTERVALS_MIN: [u64; 3] = [1, 5, 10];

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
    let jobs = runs::jobs(
        variants.iter().map(|(_, _, s)| s),
        assignor::all(),
        Some(SEEDS),
    );
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

fn render(csv: &str, paper: &mut Paper) -> Result<(), String> {
    let mut sums: BTreeMap<Config, (Vec<f64>, Vec<f64>)> = BTreeMap::new();
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
        let entry = sums.entry(key).or_default();
        entry.0.push(f[5].parse().map_err(|_| bad())?);
        if !f[6].is_empty() {
            entry.1.push(f[6].parse().map_err(|_| bad())?);
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
        &format!("Random churn, {SEEDS} seeds: unavailability against time to converge"),
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
