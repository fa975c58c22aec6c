//! Section 6: per-task outage distributions. 100 held-out seeds of random churn and
//! of two scripted scenarios perturbed per seed (task sizes and write rates
//! ±20 %, event times ±2 min), four strategies; the empirical distribution
//! function of each task's total downtime pooled over the seeds, with a 95 %
//! band from resampling whole seeds (tasks of one run are not independent);
//! and each strategy against kip441 (smooth also against kip441-learner)
//! seed by seed, on a run's total task downtime and its longest one.
//!
//! Every run's task downtimes go to `data/outages.csv`; `--fast` reads them
//! back instead of running the simulations.

use std::collections::BTreeMap;
use std::path::Path;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use smoothscale::sim::report::{Fixed, Paired, Verdict};
use smoothscale::sim::PerturbSpec;

use super::{claim, swept, Paper};
use crate::fmt;
use crate::plot::{self, Chart, Corner, Dash, Kind, Scale};
use crate::runs;

pub const SEEDS: u64 = 100;
const SCENARIOS: [&str; 3] = ["random-churn", "crash-disk-loss", "rack-outage"];
const STRATEGIES: [&str; 4] = ["kip441", "kip441-learner", "sticky", "smooth"];
/// Their curves' dashes: where curves run together, the one drawn on top
/// leaves gaps through which the others show.
const DASHES: [Dash; 4] = [Dash::Solid, Dash::Long, Dash::Dashed, Dash::Dotted];
/// The perturbation of the scripted scenarios.
const PERTURB: PerturbSpec = PerturbSpec {
    state_records: 0.2,
    write_rate: 0.2,
    event_time_ms: 120_000,
};
/// Resamples of the seeds for the bands and intervals.
const RESAMPLES: usize = 200;
/// Points at which the distribution functions are drawn.
const GRID: usize = 240;

/// Runs the simulations (or reads them back), draws one chart per scenario.
///
/// # Errors
///
/// A run that fails, unreadable data, or a chart that cannot be drawn.
pub fn section(root: &Path, fast: bool, paper: &mut Paper) -> Result<(), String> {
    let csv = swept(root, fast, "outages", paper, simulate)?;
    render(&csv, paper)
}

fn simulate(root: &Path) -> Result<String, String> {
    let mut scenarios = Vec::new();
    for name in SCENARIOS {
        let mut s = runs::scenario(root, name)?;
        if s.churn.is_none() {
            s.perturb = Some(PERTURB);
        }
        scenarios.push(s);
    }
    let jobs = runs::jobs(&scenarios, &runs::strategies(&STRATEGIES)?, SEEDS);
    let done = runs::run_all(&jobs)?;
    let mut csv = String::from("scenario,seed,strategy,tasks_never_down,downtimes_ms\n");
    for (job, d) in jobs.iter().zip(&done) {
        let mut down: Vec<u64> = d
            .result
            .metrics
            .task_down_ms
            .iter()
            .map(|m| m.get())
            .collect();
        down.sort_unstable();
        let zeros = down.iter().take_while(|&&m| m == 0).count();
        let rest: Vec<String> = down[zeros..].iter().map(u64::to_string).collect();
        csv.push_str(&format!(
            "{},{},{},{zeros},{}\n",
            job.scenario.name,
            job.seed,
            d.result.strategy,
            rest.join(" ")
        ));
    }
    Ok(csv)
}

/// One run's task downtimes in seconds, sorted.
type Run = Vec<f64>;

fn parse(csv: &str) -> Result<BTreeMap<(String, String), Vec<Run>>, String> {
    let mut runs: BTreeMap<(String, String), Vec<Run>> = BTreeMap::new();
    for (n, line) in csv.lines().enumerate().skip(1) {
        let bad = || format!("data/outages.csv line {}", n + 1);
        let f: Vec<&str> = line.splitn(5, ',').collect();
        if f.len() != 5 {
            return Err(bad());
        }
        let zeros: usize = f[3].parse().map_err(|_| bad())?;
        let mut run = vec![0.0; zeros];
        for ms in f[4].split_whitespace() {
            let ms: u64 = ms.parse().map_err(|_| bad())?;
            run.push(ms as f64 / 1000.0);
        }
        runs.entry((f[0].to_string(), f[2].to_string()))
            .or_default()
            .push(run);
    }
    Ok(runs)
}

/// Per (scenario, strategy), per seed: the run's total task downtime and
/// its longest task downtime (ms).
type PerSeed = BTreeMap<(String, String), BTreeMap<u64, (u64, u64)>>;

fn per_seed(csv: &str) -> Result<PerSeed, String> {
    let mut out = PerSeed::new();
    for (n, line) in csv.lines().enumerate().skip(1) {
        let bad = || format!("data/outages.csv line {}", n + 1);
        let f: Vec<&str> = line.splitn(5, ',').collect();
        if f.len() != 5 {
            return Err(bad());
        }
        let (mut total, mut longest) = (0u64, 0u64);
        for ms in f[4].split_whitespace() {
            let ms: u64 = ms.parse().map_err(|_| bad())?;
            total = total.checked_add(ms).ok_or_else(bad)?;
            longest = longest.max(ms);
        }
        out.entry((f[0].to_string(), f[2].to_string()))
            .or_default()
            .insert(f[1].parse().map_err(|_| bad())?, (total, longest));
    }
    Ok(out)
}

/// The pairs ([`Paired::of`]) of `strategy` and `baseline` on `scenario`,
/// one per seed both ran, of the figure `pick` takes from a run (ms).
fn pairs(
    seeds: &PerSeed,
    scenario: &str,
    strategy: &str,
    baseline: &str,
    pick: fn(&(u64, u64)) -> u64,
) -> Vec<(Fixed, Fixed)> {
    let get = |s: &str| seeds.get(&(scenario.to_string(), s.to_string()));
    let (Some(mine), Some(base)) = (get(strategy), get(baseline)) else {
        return Vec::new();
    };
    let secs = |ms| Fixed {
        scaled: u128::from(ms),
        decimals: 3,
    };
    mine.iter()
        .filter_map(|(seed, m)| Some((secs(pick(m)), secs(pick(base.get(seed)?)))))
        .collect()
}

/// The comparisons of the section: each strategy against kip441 and smooth
/// against kip441-learner, per scenario, on a run's total and longest task
/// downtime; and per scenario the sentence of what they say.
fn compare(seeds: &PerSeed, paper: &mut Paper) -> Result<(), String> {
    let mut rows = Vec::new();
    for scenario in SCENARIOS {
        let mut said = Vec::new();
        let mut comparisons: Vec<(&str, &str)> =
            STRATEGIES[1..].iter().map(|s| (*s, "kip441")).collect();
        comparisons.push(("smooth", "kip441-learner"));
        for (strategy, baseline) in comparisons {
            let total = Paired::of(&pairs(seeds, scenario, strategy, baseline, |r| r.0));
            let longest = Paired::of(&pairs(seeds, scenario, strategy, baseline, |r| r.1));
            claim(
                "no run of the section is left out of its comparison",
                total.n as u64 == SEEDS,
            )?;
            for p in [&total, &longest] {
                claim(
                    "a strategy is called lower only where the 95 % interval lies below 0",
                    (p.verdict == Verdict::Lower) == p.ci95.is_some_and(|(_, h)| h.is_negative()),
                )?;
            }
            let (t, l) = (fmt::paired(&total, 1), fmt::paired(&longest, 1));
            said.push(format!(
                "`{strategy}` against `{baseline}`: {}",
                match total.verdict {
                    Verdict::NoSignificantDifference => "no significant difference".to_string(),
                    v => format!("{} ({} task-s, {})", v.as_str(), t.mean, t.ci),
                }
            ));
            rows.push(vec![
                scenario.to_string(),
                format!("{strategy} against {baseline}"),
                t.mean,
                t.ci,
                t.wins,
                t.verdict.to_string(),
                l.mean,
                l.ci,
                l.wins,
                l.verdict.to_string(),
            ]);
        }
        paper.set(&format!("outages.{scenario}.paired"), said.join("; "));
    }
    paper.set(
        "outages.paired",
        fmt::table(
            &[
                "scenario",
                "comparison",
                "total downtime difference (task-s)",
                "95 % CI",
                "seeds lower / higher / equal",
                "verdict",
                "longest task downtime difference (s)",
                "95 % CI",
                "seeds lower / higher / equal",
                "verdict",
            ],
            2,
            &rows,
        ),
    );
    Ok(())
}

/// The nearest-rank percentile of sorted values, `permille` thousandths in.
fn percentile(sorted: &[f64], permille: usize) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = (permille * sorted.len()).div_ceil(1000).max(1);
    sorted[rank.min(sorted.len()) - 1]
}

fn pooled(runs: &[&Run]) -> Vec<f64> {
    let mut all: Vec<f64> = runs.iter().flat_map(|r| r.iter().copied()).collect();
    all.sort_by(f64::total_cmp);
    all
}

/// The shortest positive downtime of any strategy's runs and the longest
/// (s); (1, 1) when no task was ever down.
fn extent(mine: &[(&str, &Vec<Run>)]) -> (f64, f64) {
    let all = mine
        .iter()
        .flat_map(|(_, runs)| runs.iter().flatten().copied());
    let (lo, hi) = all
        .filter(|&v| v > 0.0)
        .fold((f64::INFINITY, 0.0_f64), |(lo, hi), v| {
            (lo.min(v), hi.max(v))
        });
    if lo.is_finite() {
        (lo, hi)
    } else {
        (1.0, 1.0)
    }
}

/// The largest power of ten strictly below `shortest`.
fn edge_below(shortest: f64) -> f64 {
    10f64.powf(shortest.log10().ceil() - 1.0)
}

/// A task down at most this long (s) was down for detection and pauses only.
const SHORT_S: f64 = 120.0;

/// Which strategies kept every task's downtime within [`SHORT_S`] over all
/// runs, and how long the others left one down.
fn short_and_long(longest: &[(&str, f64)]) -> String {
    let names = |short: bool| -> Vec<String> {
        longest
            .iter()
            .filter(|&&(_, max)| (max <= SHORT_S) == short)
            .map(|&(s, max)| {
                if short {
                    format!("`{s}`")
                } else {
                    format!("`{s}` (up to {} s)", fmt::num(max, 1))
                }
            })
            .collect()
    };
    let (short, long) = (names(true), names(false));
    let minutes = SHORT_S / 60.0;
    match (short.is_empty(), long.is_empty()) {
        (false, false) => format!(
            "{} kept every task's downtime within {minutes} minutes in every run (the session timeout and rebalance pauses), their curves reaching 1 within the first two minutes; {} left tasks down longer",
            short.join(", "),
            long.join(", ")
        ),
        (false, true) => format!(
            "every strategy kept every task's downtime within {minutes} minutes in every run"
        ),
        _ => format!(
            "every strategy left some task down longer than {minutes} minutes: {}",
            long.join(", ")
        ),
    }
}

fn render(csv: &str, paper: &mut Paper) -> Result<(), String> {
    let runs = parse(csv)?;
    compare(&per_seed(csv)?, paper)?;
    let mut rows = Vec::new();
    // Each chart's left edge and shortest outage (s).
    let mut edges: Vec<(f64, f64)> = Vec::new();
    for scenario in SCENARIOS {
        let mut longest: Vec<(&str, f64)> = Vec::new();
        let mine: Vec<(&str, &Vec<Run>)> = STRATEGIES
            .iter()
            .filter_map(|s| {
                runs.get(&(scenario.to_string(), s.to_string()))
                    .map(|r| (*s, r))
            })
            .collect();
        // A log time axis from the decade below the shortest outage (where
        // each curve is the share of tasks never down) to the longest.
        let (shortest, x_max) = extent(&mine);
        let edge = edge_below(shortest);
        edges.push((edge, shortest));
        let grid: Vec<f64> = (0..=GRID)
            .map(|i| edge * (x_max / edge).powf(i as f64 / GRID as f64))
            .collect();
        let mut chart = Chart::new(
            &format!("{scenario}: per-task downtime, {SEEDS} held-out seeds"),
            "a task's total downtime over the run (s, log scale)",
            "share of tasks down at most that long",
        );
        chart.x_scale = Scale::Log;
        chart.legend = Corner::LowerRight;
        chart.y_range = Some((0.0, 1.02));
        let mut rng = ChaCha8Rng::seed_from_u64(0);
        // The curves, drawn after every band so that no band covers one.
        let mut curves: Vec<(usize, Vec<(f64, f64)>)> = Vec::new();
        for (i, (strategy, strategy_runs)) in mine.iter().enumerate() {
            let all: Vec<&Run> = strategy_runs.iter().collect();
            let cdf = |sample: &[&Run]| -> Vec<f64> {
                let total: usize = sample.iter().map(|r| r.len()).sum();
                grid.iter()
                    .map(|&x| {
                        let below: usize =
                            sample.iter().map(|r| r.partition_point(|&v| v <= x)).sum();
                        below as f64 / total.max(1) as f64
                    })
                    .collect()
            };
            let center = cdf(&all);
            let mut lows = vec![f64::INFINITY; grid.len()];
            let mut highs = vec![f64::NEG_INFINITY; grid.len()];
            let mut resampled_cdfs: Vec<Vec<f64>> = Vec::with_capacity(RESAMPLES);
            let mut p99s = Vec::with_capacity(RESAMPLES);
            for _ in 0..RESAMPLES {
                let sample: Vec<&Run> = (0..all.len())
                    .map(|_| all[rng.random_range(0..all.len())])
                    .collect();
                resampled_cdfs.push(cdf(&sample));
                p99s.push(percentile(&pooled(&sample), 990));
            }
            for g in 0..grid.len() {
                let mut at: Vec<f64> = resampled_cdfs.iter().map(|c| c[g]).collect();
                at.sort_by(f64::total_cmp);
                lows[g] = percentile(&at, 25);
                highs[g] = percentile(&at, 975);
            }
            let color = plot::color(strategy, i);
            chart.add(
                "",
                color,
                Kind::Band(highs),
                grid.iter().copied().zip(lows).collect(),
            );
            curves.push((i, grid.iter().copied().zip(center).collect()));
            p99s.sort_by(f64::total_cmp);
            let everything = pooled(&all);
            longest.push((strategy, everything.last().copied().unwrap_or(0.0)));
            let down = everything.iter().filter(|&&v| v > 0.0).count();
            rows.push(vec![
                scenario.to_string(),
                (*strategy).to_string(),
                all.len().to_string(),
                fmt::num(100.0 * down as f64 / everything.len().max(1) as f64, 1),
                fmt::num(percentile(&everything, 500), 1),
                fmt::num(percentile(&everything, 900), 1),
                format!(
                    "{} ({} – {})",
                    fmt::num(percentile(&everything, 990), 1),
                    fmt::num(percentile(&p99s, 25), 1),
                    fmt::num(percentile(&p99s, 975), 1)
                ),
                fmt::num(everything.last().copied().unwrap_or(0.0), 1),
            ]);
        }
        for (i, points) in curves {
            let strategy = mine[i].0;
            let dash = DASHES[STRATEGIES.iter().position(|s| *s == strategy).unwrap_or(0)];
            chart.add(
                strategy,
                plot::color(strategy, i),
                Kind::Steps(dash),
                points,
            );
        }
        paper.figure(&format!("outages-{scenario}"), &chart, &|at| {
            let places: Vec<String> = at
                .iter()
                .map(|p| format!("{} s", fmt::num(p.0, 1)))
                .collect();
            plot::and_list(&places)
        })?;
        paper.set(
            &format!("outages.{scenario}.short"),
            short_and_long(&longest),
        );
    }
    let edge = edges.iter().map(|e| e.0).fold(f64::INFINITY, f64::min);
    let shortest = edges.iter().map(|e| e.1).fold(f64::INFINITY, f64::min);
    claim(
        "every chart starts below the shortest outage",
        edges.iter().all(|&(e, s)| e < s),
    )?;
    let edges_differ = edges.iter().any(|e| e.0 != edge);
    paper.set(
        "outages.edge",
        if edges_differ {
            "at a power of ten below the shortest outage of its scenario".to_string()
        } else {
            format!(
                "at {} s, below the shortest outage of any run ({} s),",
                fmt::num(edge, 0),
                fmt::num(shortest, 1)
            )
        },
    );
    paper.set("outages.seeds", SEEDS.to_string());
    paper.set(
        "outages.perturbation",
        format!(
            "each task's state size within ±{} % and write rate within ±{} %, each event's time within ±{} minutes",
            fmt::num(PERTURB.state_records * 100.0, 0),
            fmt::num(PERTURB.write_rate * 100.0, 0),
            fmt::num(PERTURB.event_time_ms as f64 / 60_000.0, 0)
        ),
    );
    paper.set("outages.seed_range", runs::seeds_text(SEEDS));
    paper.set("outages.resamples", RESAMPLES.to_string());
    paper.set(
        "outages.table",
        fmt::table(
            &[
                "scenario",
                "strategy",
                "runs",
                "tasks ever down (%)",
                "p50 (s)",
                "p90 (s)",
                "p99 (s) (95 % interval)",
                "max (s)",
            ],
            2,
            &rows,
        ),
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_time_axis_starts_a_power_of_ten_below_the_shortest_outage() {
        assert!((edge_below(5.0) - 1.0).abs() < 1e-9);
        assert!((edge_below(10.0) - 1.0).abs() < 1e-9);
        assert!((edge_below(0.3) - 0.1).abs() < 1e-9);
        let runs = [vec![0.0, 0.0, 5.0, 60.0], vec![0.0, 1_267.0]];
        let mine = [("kip441", &runs.to_vec())];
        assert_eq!(extent(&mine), (5.0, 1_267.0));
    }
}
