//! `smoothscale sweep SCENARIO --seeds A..B [--set KEY=V1,V2]... [--strategy
//! NAME]... [--baseline NAME] [--out DIR]`: every combination of the
//! parameter values (`--set` and the scenario's `[sweep]` table;
//! `smoothscale::sim::overrides`) × every seed from A (included) to B
//! (excluded) × every strategy, in parallel; prints n, mean, std, the 95%
//! confidence half-width, p50, p95 and max per headline metric (the
//! `simulate` table's; `--wide` all of them), point and strategy, then each
//! other strategy paired with the baseline seed by seed (mean difference,
//! its 95% confidence interval, lower/higher/equal counts, verdict), with a
//! key, and writes them for every metric to `DIR/sweep.json`, and every
//! run's figures, a row per point, seed and strategy, to `DIR/runs.csv` and
//! `DIR/runs.json` (the runs and statistics are `smoothscale::sim::sweep`'s).
//! A progress bar shows on standard error when it is a terminal, and a note
//! when the seeds mix development and held-out ones
//! ([`SeedRange::mixes_held_out`]).

use std::path::PathBuf;

use clap::Args;

use smoothscale::sim::documents::{self, SweepInfo};
use smoothscale::sim::overrides::{self, Axis};
use smoothscale::sim::report::aggregate;
use smoothscale::sim::scenario::SeedRange;
use smoothscale::sim::sweep;

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
    /// Vary a scenario key over a comma-separated list of TOML values
    /// (`config.max_warmup_replicas=1,2,4`, `cluster.session_timeout=30s,45s`,
    /// `subtopologies[0].write_rate=1000,5000`); repeat for several keys: the
    /// sweep runs every combination. Replaces the scenario's `[sweep]` entry
    /// of the same key.
    #[arg(long = "set", value_name = "KEY=V1,V2,...")]
    sets: Vec<String>,
    /// A strategy to run instead of the scenario's list; repeat for several.
    #[arg(long = "strategy", value_name = "NAME")]
    strategies: Vec<String>,
    /// The strategy every other one is compared with seed by seed (the
    /// table's paired block, sweep.json's `paired`) [default: the first
    /// strategy run].
    #[arg(long, value_name = "NAME")]
    baseline: Option<String>,
    /// The output directory [default: out/<scenario name>].
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Print a row for every headline metric (restored records, standby
    /// moves, standby cover, cross-rack records too); without it the table
    /// has the figures asked about most, within 120 columns.
    #[arg(long)]
    wide: bool,
}

/// Runs the sweep, writes `sweep.json`, `runs.csv` and `runs.json`, prints
/// the table.
pub(crate) fn run(args: &SweepArgs) -> Result<(), Failure> {
    let bad = |e: smoothscale::model::InputError| Failure::BadInput(e.to_string());
    let seeds = SeedRange::parse(&args.seeds).map_err(bad)?;
    let flags: Vec<Axis> = args
        .sets
        .iter()
        .map(|arg| Axis::parse_flag(arg))
        .collect::<Result<_, _>>()
        .map_err(bad)?;
    let (scenario, text) = read_scenario(&args.scenario)?;
    let points = overrides::sweep_points(&text, &flags)
        .map_err(|e| Failure::BadInput(format!("{}: {e}", args.scenario.display())))?;
    let runs_per_strategy =
        sweep::runs_per_strategy(points.len(), seeds, "--seeds").map_err(bad)?;
    let strategies = choose_strategies(&scenario, &args.strategies)?;
    let baseline =
        sweep::choose_baseline(&strategies, args.baseline.as_deref(), "--baseline").map_err(bad)?;
    let out = out_dir(args.out.as_deref(), &scenario);
    if seeds.mixes_held_out() {
        eprintln!(
            "note: seeds {seeds} mix development seeds (below {}) and held-out ones",
            SeedRange::HELD_OUT_FROM
        );
    }

    let bar = progress_bar(runs_per_strategy.saturating_mul(strategies.len() as u64));
    let figures = sweep::run_points(&points, &strategies, seeds, &|| bar.inc(1));
    bar.finish_and_clear();
    let figures =
        figures.map_err(|e| at_point(violation(&e.error, &args.scenario), &points[e.point]))?;

    let info = SweepInfo::of(&scenario, &text, seeds, &points);
    let stats = aggregate(&figures, &baseline);
    write_outputs(
        &out,
        &[
            ("sweep.json", documents::sweep_json(&info, &stats)),
            ("runs.csv", documents::runs_csv(&info.parameters, &figures)),
            ("runs.json", documents::runs_json(&info, &figures)),
        ],
    )?;
    eprintln!(
        "wrote sweep.json, runs.csv and runs.json to {}",
        out.display()
    );
    super::emit(&table::sweep_table(&info, &stats, args.wide))
}

/// A failure of a run at `point`, saying the parameter values it ran with
/// (the replay command runs the file's own values: set these in it first).
fn at_point(failure: Failure, point: &overrides::SweepPoint) -> Failure {
    let Some(values) = point.values_text() else {
        return failure;
    };
    let with = format!(" (with {values}: set them in the file to replay)");
    match failure {
        Failure::BadInput(m) => Failure::BadInput(m + &with),
        Failure::Violation(m) => Failure::Violation(m + &with),
        Failure::Output(m) => Failure::Output(m + &with),
    }
}
