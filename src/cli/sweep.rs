//! `smoothscale sweep SCENARIO --seeds A..B [--strategy NAME]... [--out DIR]`:
//! every seed from A (included) to B (excluded) × every strategy, in parallel;
//! prints count, mean, p50, p95 and max per metric and strategy and writes
//! them to `DIR/sweep.json`, and every run's figures, a row per seed and
//! strategy, to `DIR/runs.csv` (the runs and statistics are
//! `smoothscale::sim::sweep`'s). A progress bar shows on standard error when
//! it is a terminal.

use std::path::PathBuf;

use clap::Args;

use smoothscale::sim::{self, sweep};

use super::outputs::{self, SweepInfo};
use super::progress::progress_bar;
use super::simulate::{choose_strategies, out_dir, read_scenario, violation, write_outputs};
use super::{table, Failure};

/// Arguments of `sweep`.
#[derive(Args)]
pub(crate) struct SweepArgs {
    /// The scenario file (TOML; see docs/simulator.md and `simulations/`).
    scenario: PathBuf,
    /// The seeds: A..B runs A, A+1, …, B-1.
    #[arg(long, value_name = "A..B")]
    seeds: String,
    /// A strategy to run instead of the scenario's list; repeat for several.
    #[arg(long = "strategy", value_name = "NAME")]
    strategies: Vec<String>,
    /// The output directory [default: out/<scenario name>].
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
}

/// Runs the sweep, writes `sweep.json` and `runs.csv`, prints the table.
pub(crate) fn run(args: &SweepArgs) -> Result<(), Failure> {
    let seeds =
        sweep::SeedRange::parse(&args.seeds).map_err(|e| Failure::BadInput(e.to_string()))?;
    let (scenario, text) = read_scenario(&args.scenario)?;
    let strategies = choose_strategies(&scenario, &args.strategies)?;
    let out = out_dir(args.out.as_deref(), &scenario);

    let bar = progress_bar(seeds.len().saturating_mul(strategies.len() as u64));
    let figures = sweep::run_seeds(&scenario, &strategies, seeds, &|| bar.inc(1));
    bar.finish_and_clear();
    let figures = figures.map_err(|e| violation(&e, &args.scenario))?;

    let info = SweepInfo {
        scenario: scenario.name.clone(),
        scenario_hash: sim::scenario_hash(&text),
        seeds,
    };
    let stats = sweep::aggregate(&figures);
    write_outputs(
        &out,
        &[
            ("sweep.json", outputs::sweep_json(&info, &stats)),
            ("runs.csv", outputs::runs_csv(&figures)),
        ],
    )?;
    eprintln!("wrote sweep.json and runs.csv to {}", out.display());
    super::emit(&table::sweep_table(&info, &stats))
}
