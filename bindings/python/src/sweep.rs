//! Sweeps: all seeds here ([`sweep`]), or split over workers, each running
//! some seeds ([`sweep_chunk`]) and the caller putting their chunks back
//! together ([`sweep_merge`], `smoothscale::sim::documents::chunk`) into the
//! same documents [`sweep`] returns.

use pyo3::prelude::*;

use smoothscale::sim::documents::{self, chunk, SweepInfo};
use smoothscale::sim::overrides::{self, Axis, SweepPoint};
use smoothscale::sim::report::{aggregate, RunFigures};
use smoothscale::sim::scenario::SeedRange;
use smoothscale::sim::sweep as sweeps;
use smoothscale::sim::{self, Scenario};
use smoothscale::Assignor;

use super::{bad, interruptible, run_error, scenario};

/// A sweep, checked and ready to run: its points, strategies, seeds and
/// the baseline the strategies are paired with.
struct Prepared {
    info: SweepInfo,
    points: Vec<SweepPoint>,
    strategies: Vec<&'static dyn Assignor>,
    baseline: String,
}

impl Prepared {
    /// Reads the scenario, the `--set`-style axes, the strategies and the
    /// baseline, with the command line's checks and messages.
    fn new(
        text: &str,
        source: &str,
        seeds: (u64, u64),
        strategy_names: &[String],
        sets: &[String],
        baseline: Option<&str>,
    ) -> PyResult<Prepared> {
        let seeds = SeedRange {
            start: seeds.0,
            end: seeds.1,
        };
        if seeds.is_empty() {
            return Err(bad(format!(
                "seeds must hold at least one seed, got {}",
                seeds
            )));
        }
        let axes: Vec<Axis> = sets
            .iter()
            .map(|arg| Axis::parse_flag(arg))
            .collect::<Result<_, _>>()
            .map_err(bad)?;
        let scenario: Scenario = scenario(text, source)?;
        let points =
            overrides::sweep_points(text, &axes).map_err(|e| bad(format!("{source}: {e}")))?;
        sweeps::runs_per_strategy(points.len(), seeds, "seeds").map_err(bad)?;
        let strategies =
            sim::choose_strategies(&scenario, strategy_names, "strategies").map_err(bad)?;
        let baseline = sweeps::choose_baseline(&strategies, baseline, "baseline").map_err(bad)?;
        let info = SweepInfo::of(&scenario, text, seeds, &points);
        Ok(Prepared {
            info,
            points,
            strategies,
            baseline,
        })
    }

    /// Runs `seeds` (a part of the sweep's, or all of them).
    fn run(&self, py: Python<'_>, source: &str, seeds: SeedRange) -> PyResult<Vec<RunFigures>> {
        let outcome = interruptible(py, |stop| {
            sweeps::run_points_until(&self.points, &self.strategies, seeds, &|| {}, stop)
        })?;
        match outcome {
            // Stopped without a pending signal: cannot happen (only a
            // raising handler stops a run), but never report partial runs.
            None => Err(pyo3::exceptions::PyKeyboardInterrupt::new_err(
                "sweep stopped",
            )),
            Some(Ok(figures)) => Ok(figures),
            Some(Err(e)) => Err(with_point(
                run_error(&e.error, source),
                &self.points[e.point],
                py,
            )),
        }
    }

    /// `sweep.json`, `runs.json` and `runs.csv` of the whole sweep.
    fn documents(&self, figures: &[RunFigures]) -> (String, String, String) {
        let stats = aggregate(figures, &self.baseline);
        (
            documents::sweep_json(&self.info, &stats),
            documents::runs_json(&self.info, figures),
            documents::runs_csv(&self.info.parameters, figures),
        )
    }
}

/// A failure at a point, saying its parameter values (as the command line
/// does).
fn with_point(err: PyErr, point: &SweepPoint, py: Python<'_>) -> PyErr {
    let Some(values) = point.values_text() else {
        return err;
    };
    let message = format!("{} (with {values})", err.value(py));
    if err.is_instance_of::<pyo3::exceptions::PyValueError>(py) {
        super::bad(message)
    } else {
        super::violation(message)
    }
}

/// Runs every strategy on every seed of `start..end` at every point, in
/// parallel; returns `sweep.json`, `runs.json` and `runs.csv` as the command
/// line's `sweep` writes them (`baseline` as `--baseline`).
#[pyfunction]
#[pyo3(signature = (text, source, start, end, strategy_names, sets, baseline=None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn sweep(
    py: Python<'_>,
    text: &str,
    source: &str,
    start: u64,
    end: u64,
    strategy_names: Vec<String>,
    sets: Vec<String>,
    baseline: Option<String>,
) -> PyResult<(String, String, String)> {
    let prepared = Prepared::new(
        text,
        source,
        (start, end),
        &strategy_names,
        &sets,
        baseline.as_deref(),
    )?;
    let figures = prepared.run(py, source, prepared.info.seeds)?;
    Ok(prepared.documents(&figures))
}

/// Runs the seeds `part_start..part_end` of the sweep over `start..end`
/// (a worker's share) and returns their figures as a chunk; `baseline` is
/// checked as [`sweep`] checks it (a chunk holds no comparison).
#[pyfunction]
#[pyo3(signature = (text, source, start, end, strategy_names, sets, part_start, part_end, baseline=None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn sweep_chunk(
    py: Python<'_>,
    text: &str,
    source: &str,
    start: u64,
    end: u64,
    strategy_names: Vec<String>,
    sets: Vec<String>,
    part_start: u64,
    part_end: u64,
    baseline: Option<String>,
) -> PyResult<String> {
    let prepared = Prepared::new(
        text,
        source,
        (start, end),
        &strategy_names,
        &sets,
        baseline.as_deref(),
    )?;
    if part_start >= part_end || part_start < start || part_end > end {
        return Err(bad(format!(
            "a part of the seeds must be a non-empty range within {start}..{end}, got {part_start}..{part_end}"
        )));
    }
    let part = SeedRange {
        start: part_start,
        end: part_end,
    };
    let figures = prepared.run(py, source, part)?;
    Ok(chunk::chunk_json(&figures))
}

/// The documents of the sweep over `start..end` from the chunks of its
/// parts: what [`sweep`] returns for the same arguments.
#[pyfunction]
#[pyo3(signature = (text, source, start, end, strategy_names, sets, chunks, baseline=None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn sweep_merge(
    text: &str,
    source: &str,
    start: u64,
    end: u64,
    strategy_names: Vec<String>,
    sets: Vec<String>,
    chunks: Vec<String>,
    baseline: Option<String>,
) -> PyResult<(String, String, String)> {
    let prepared = Prepared::new(
        text,
        source,
        (start, end),
        &strategy_names,
        &sets,
        baseline.as_deref(),
    )?;
    let names: Vec<&str> = prepared.strategies.iter().map(|s| s.info().name).collect();
    let texts: Vec<&str> = chunks.iter().map(String::as_str).collect();
    let figures =
        chunk::assemble(&texts, &prepared.points, prepared.info.seeds, &names).map_err(bad)?;
    Ok(prepared.documents(&figures))
}
