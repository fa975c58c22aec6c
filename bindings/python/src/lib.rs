//! `smoothscale._core`, the native module of smoothscale's Python package
//! (`bindings/python/python/smoothscale`, which wraps it in typed
//! functions): the library's assignment and simulator, text in and text
//! out. Every document it returns is the one the command line prints or
//! writes, byte for byte (`smoothscale::wire::assign_json`,
//! `smoothscale::sim::documents`); the package parses them.
//!
//! Bad input raises `ValueError` with the command line's one-line message;
//! a plan or run that breaks an invariant (a bug) raises
//! `smoothscale.InvariantViolation`. Every call that runs strategies
//! releases the GIL; a sweep stops at Ctrl-C (it polls Python's signal
//! handlers while its runs go on in other threads).

mod sweep;

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use pyo3::create_exception;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use rayon::prelude::*;

use smoothscale::model::one_line;
use smoothscale::sim::documents::{self, RunInfo};
use smoothscale::sim::{self, Scenario, SimError};
use smoothscale::wire::{self, ReadError};
use smoothscale::{assignor, ClusterState};

create_exception!(
    smoothscale,
    InvariantViolation,
    PyRuntimeError,
    "A plan or a simulated run broke an assignment invariant: a bug in a strategy, never the input's fault."
);

/// Bad input: `ValueError` with the command line's message, on one line.
fn bad(message: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(one_line(&message.to_string()))
}

/// A broken invariant.
fn violation(message: impl std::fmt::Display) -> PyErr {
    InvariantViolation::new_err(one_line(&message.to_string()))
}

/// The registered strategies, as (name, description) pairs in registry order.
#[pyfunction]
fn strategies() -> Vec<(&'static str, &'static str)> {
    assignor::all()
        .iter()
        .map(|a| (a.info().name, a.info().description))
        .collect()
}

/// The strategy called `name`.
fn strategy(name: &str) -> PyResult<&'static dyn smoothscale::Assignor> {
    assignor::named("strategy", name).map_err(bad)
}

/// The plan of `strategy` for the state `state_json` (the wire format), as
/// the command line's `assign [--metrics]` prints it.
#[pyfunction]
#[pyo3(signature = (state_json, strategy_name, metrics))]
fn assign(
    py: Python<'_>,
    state_json: &str,
    strategy_name: &str,
    metrics: bool,
) -> PyResult<String> {
    let strategy = strategy(strategy_name)?;
    py.detach(|| {
        let state: ClusterState =
            wire::state_from_reader(state_json.as_bytes()).map_err(|e| match e {
                ReadError::Io(e) => bad(format!("cannot read the state: {e}")),
                ReadError::Input(e) => bad(e),
            })?;
        wire::assign_json(strategy, &state, metrics).map_err(|e| {
            if e.is_bad_input() {
                bad(e)
            } else {
                violation(e)
            }
        })
    })
}

/// A scenario read from `text`, errors prefixed with `source` (its path, or
/// `scenario` for text given directly), as the command line reports them.
fn scenario(text: &str, source: &str) -> PyResult<Scenario> {
    if text.len() as u64 > sim::MAX_SCENARIO_BYTES {
        return Err(bad(format!(
            "{source} is larger than the limit of {} bytes for a scenario file",
            sim::MAX_SCENARIO_BYTES
        )));
    }
    Scenario::from_toml(text).map_err(|e| bad(format!("{source}: {e}")))
}

/// A run that stopped: an overflowing quantity or invalid point is bad
/// input, anything else a broken invariant.
fn run_error(e: &SimError, source: &str) -> PyErr {
    if e.is_bad_input() {
        bad(format!("{source}: {e}"))
    } else {
        violation(e)
    }
}

/// Runs the scenario `text` with each strategy (those named, else the
/// scenario's) and `seed` (else the scenario's), in parallel; returns the
/// command line's `summary.json` and `timeseries.csv` and the plots' data
/// (`series.json`).
#[pyfunction]
#[pyo3(signature = (text, source, strategy_names, seed))]
fn simulate(
    py: Python<'_>,
    text: &str,
    source: &str,
    strategy_names: Vec<String>,
    seed: Option<u64>,
) -> PyResult<(String, String, String)> {
    let scenario = scenario(text, source)?;
    let chosen = sim::choose_strategies(&scenario, &strategy_names, "strategies").map_err(bad)?;
    let seed = seed.unwrap_or(scenario.seed);
    let runs = interruptible(py, |_| {
        chosen
            .par_iter()
            .map(|s| sim::run(&scenario, *s, seed))
            .collect::<Vec<_>>()
    })?;
    let results = runs
        .into_iter()
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| run_error(&e, source))?;
    let info = RunInfo::of(&scenario, text, seed);
    Ok((
        documents::summary_json(&info, &results),
        documents::timeseries_csv(&results),
        documents::series_json(scenario.total_tasks(), &results),
    ))
}

/// Runs `work` on another thread with the GIL released, checking Python's
/// signal handlers every 50 ms meanwhile; on Ctrl-C (a handler raising),
/// sets the flag `work` is given, waits for it to return, and raises.
fn interruptible<T: Send>(
    py: Python<'_>,
    work: impl FnOnce(&AtomicBool) -> T + Send,
) -> PyResult<T> {
    let stop = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let handle = scope.spawn(|| work(&stop));
        loop {
            let finished = py.detach(|| {
                for _ in 0..25 {
                    if handle.is_finished() {
                        break;
                    }
                    std::thread::sleep(Duration::from_millis(2));
                }
                handle.is_finished()
            });
            if finished {
                break;
            }
            if let Err(interrupt) = py.check_signals() {
                stop.store(true, Ordering::Relaxed);
                // The runs under way finish; none starts.
                let _ = py.detach(|| handle.join());
                return Err(interrupt);
            }
        }
        handle
            .join()
            .map_err(|_| violation("a simulation panicked (a bug in smoothscale)"))
    })
}

/// The module.
#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("VERSION", documents::VERSION)?;
    m.add("MAX_SCENARIO_BYTES", sim::MAX_SCENARIO_BYTES)?;
    m.add(
        "InvariantViolation",
        m.py().get_type::<InvariantViolation>(),
    )?;
    m.add_function(wrap_pyfunction!(strategies, m)?)?;
    m.add_function(wrap_pyfunction!(assign, m)?)?;
    m.add_function(wrap_pyfunction!(simulate, m)?)?;
    m.add_function(wrap_pyfunction!(sweep::sweep, m)?)?;
    m.add_function(wrap_pyfunction!(sweep::sweep_chunk, m)?)?;
    m.add_function(wrap_pyfunction!(sweep::sweep_merge, m)?)?;
    Ok(())
}
