//! Many seeds of one scenario (what `smoothscale sweep` runs): every point
//! of a parameter sweep ([`overrides`](super::overrides); one point when no
//! parameter varies) × every seed of a [`SeedRange`] × every strategy, in
//! parallel with rayon, aggregated per (point, strategy) and metric as count,
//! mean, standard deviation, 95% confidence half-width, p50, p95 and max.
//! Writing `sweep.json`, `runs.csv`, `runs.json` and the table is the
//! command line's job (docs/simulator.md).
//!
//! # Determinism
//!
//! Runs are spread over rayon's threads but collected in (point, seed,
//! strategy) order, and every statistic is computed with integers from that
//! ordered list, so the outputs are the same bytes on one thread or many. If
//! runs fail, the reported failure is the first in that order (the first
//! point, then the lowest seed, then the first strategy), whichever thread
//! found it first.
//!
//! # Statistics
//!
//! Per strategy only the runs that completed are aggregated (a run stopped as
//! infeasible covers less time and is not comparable); their seeds are listed.
//! Null values (a run that never converged, coverage without standbys) are
//! left out, and `n` says how many values there were. With `n` values sorted
//! ascending, `pN` is the nearest-rank percentile: the value of rank
//! `⌈N/100 × n⌉` (1-based, at least 1), so p50 of `[1, 2, 3, 4]` is 2, p95 of
//! 1..=20 is 19, and p95 of ten values is the largest. `mean` is the exact
//! mean rounded half up, with as many decimals as the metric has but at
//! least 3 (the mean of integer counts has 3). `std` (the sample standard
//! deviation, divisor `n − 1`) and `ci95_half_width` (Student's t: the 95%
//! confidence interval of the mean is `mean ± ci95_half_width`) have the
//! mean's decimals and are none for `n < 2`; how they are computed exactly
//! is [`dispersion`](super::report::dispersion)'s.
//!
//! # Paired comparisons
//!
//! Every strategy meets the same churn and perturbation on a seed, so each
//! is also compared with a baseline ([`choose_baseline`]: `--baseline`, by
//! default the first strategy) seed by seed: per metric, over the seeds
//! where both completed with a value, the mean of the differences, its 95%
//! confidence interval, how many seeds come out lower, higher and equal,
//! and a verdict ([`Paired`](super::report::Paired)).

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use rayon::prelude::*;

use crate::assignor::Assignor;
use crate::model::InputError;

use super::report::RunFigures;
use super::run::SimError;
use super::run::{check, run_unchecked};
use super::scenario::overrides::SweepPoint;
use super::scenario::{SeedRange, MAX_SEEDS};

/// The runs per strategy of a sweep of `seeds` at `points` points, within
/// [`MAX_SEEDS`]; `given_as` names the seeds in errors (`--seeds`).
///
/// # Errors
///
/// An [`InputError`] at `given_as` when they make more than [`MAX_SEEDS`]
/// runs per strategy.
pub fn runs_per_strategy(
    points: usize,
    seeds: SeedRange,
    given_as: &str,
) -> Result<u64, InputError> {
    let runs = (points as u64).saturating_mul(seeds.len());
    if runs > MAX_SEEDS {
        return Err(InputError::new(
            given_as,
            format!(
                "and the parameter values make {points} points × {} seeds = {runs} runs per \
                 strategy, more than the limit of {MAX_SEEDS}",
                seeds.len()
            ),
        ));
    }
    Ok(runs)
}

/// The baseline the other strategies are compared with: `name` when it is
/// one of `strategies` (those the sweep runs), by default the first;
/// `given_as` names it in errors (`--baseline`).
///
/// # Errors
///
/// An [`InputError`] at `given_as` when `name` is not a strategy of
/// `strategies`, or there is none.
pub fn choose_baseline(
    strategies: &[&dyn Assignor],
    name: Option<&str>,
    given_as: &str,
) -> Result<String, InputError> {
    let names: Vec<&str> = strategies.iter().map(|s| s.info().name).collect();
    match name {
        Some(name) if names.contains(&name) => Ok(name.to_string()),
        Some(name) => Err(InputError::one_of(given_as, &names, name)),
        None => names
            .first()
            .map(|first| (*first).to_string())
            .ok_or_else(|| InputError::new(given_as, "has no strategy to default to")),
    }
}

/// A run of a sweep that failed: its point (index into the sweep's points)
/// and why.
#[derive(Debug)]
pub struct PointFailure {
    /// The index of the failing run's point.
    pub point: usize,
    /// The failure.
    pub error: SimError,
}

/// Runs every strategy on every seed of `seeds` at every point of
/// `points`, in parallel, and returns the figures in (point, seed, strategy)
/// order. `on_run` is called after each run (from any thread): the progress
/// bar. On invariant violations, returns the first failing run in that
/// order; runs after a known failure are skipped.
///
/// # Errors
///
/// A [`PointFailure`] for a point's scenario that breaks
/// [`Scenario::check`] (checked once per point, before any run), else that
/// of the first failing run.
///
/// [`Scenario::check`]: super::Scenario::check
pub fn run_points(
    points: &[SweepPoint],
    strategies: &[&dyn Assignor],
    seeds: SeedRange,
    on_run: &(dyn Fn() + Sync),
) -> Result<Vec<RunFigures>, PointFailure> {
    let never = AtomicBool::new(false);
    run_points_until(points, strategies, seeds, on_run, &never)
        .unwrap_or_else(|| unreachable!("nothing sets the flag"))
}

/// [`run_points`], stopped early when `stop` becomes true (from any
/// thread: Ctrl-C in the Python package): the runs under way finish, no
/// other starts, and it returns `None`.
///
/// # Errors
///
/// As [`run_points`].
pub fn run_points_until(
    points: &[SweepPoint],
    strategies: &[&dyn Assignor],
    seeds: SeedRange,
    on_run: &(dyn Fn() + Sync),
    stop: &AtomicBool,
) -> Option<Result<Vec<RunFigures>, PointFailure>> {
    if let Some(&first) = strategies.first() {
        for (point, at) in points.iter().enumerate() {
            // Once for every run below, which then skip it.
            if let Err(error) = check(&at.scenario, first, seeds.start) {
                return Some(Err(PointFailure { point, error }));
            }
        }
    }
    let first_failure = AtomicUsize::new(usize::MAX);
    let jobs: Vec<(usize, u64, &dyn Assignor)> = (0..points.len())
        .flat_map(|point| {
            (seeds.start..seeds.end)
                .flat_map(move |seed| strategies.iter().map(move |s| (point, seed, *s)))
        })
        .collect();
    let outcomes: Vec<Option<Result<RunFigures, PointFailure>>> = jobs
        .par_iter()
        .enumerate()
        .map(|(job, &(point, seed, strategy))| {
            if job > first_failure.load(Ordering::Relaxed) || stop.load(Ordering::Relaxed) {
                return None;
            }
            let at = &points[point];
            let outcome = run_unchecked(&at.scenario, strategy, seed);
            if outcome.is_err() {
                first_failure.fetch_min(job, Ordering::Relaxed);
            }
            on_run();
            Some(
                outcome
                    .map(|result| RunFigures::of(point, at, seed, &result))
                    .map_err(|error| PointFailure { point, error }),
            )
        })
        .collect();
    // Every job before the first failing one ran (the known failure only
    // ever moves down, and only later jobs are skipped), so the first error
    // in order is the same whatever the threads did; a job skipped before
    // it was skipped because of `stop`.
    let mut figures = Vec::with_capacity(outcomes.len());
    for outcome in outcomes {
        match outcome {
            Some(Ok(f)) => figures.push(f),
            Some(Err(e)) => return Some(Err(e)),
            None => return None,
        }
    }
    Some(Ok(figures))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assignor;

    #[test]
    fn the_baseline_is_a_strategy_of_the_run_and_the_first_by_default() {
        let named = |name| assignor::by_name(name).expect("a registered strategy");
        let run = [named("kip441"), named("sticky")];
        assert_eq!(choose_baseline(&run, None, "--baseline").unwrap(), "kip441");
        assert_eq!(
            choose_baseline(&run, Some("sticky"), "--baseline").unwrap(),
            "sticky"
        );
        for bad in ["nope", "smooth"] {
            let e = choose_baseline(&run, Some(bad), "--baseline").unwrap_err();
            assert_eq!(
                e.to_string(),
                format!("--baseline must be one of kip441, sticky, got \"{bad}\"")
            );
        }
        assert_eq!(
            choose_baseline(&[], None, "baseline").unwrap_err().path,
            "baseline"
        );
    }
}
