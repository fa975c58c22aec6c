//! `smoothscale simulate SCENARIO [--strategy NAME]... [--seed N] [--out DIR]
//! [--wide]`, and what `sweep` shares with it: reading the scenario, choosing the
//! strategies, the replay command, writing the output directory.
//!
//! Nothing is written before every run has succeeded: outputs are rendered in
//! memory, then written all or nothing (`outputs::write_outputs`), so a
//! failed run (exit 1 or 2) or a failed write leaves DIR as it was.

use std::path::{Path, PathBuf};

use clap::Args;
use rayon::prelude::*;

use smoothscale::assignor::Assignor;
use smoothscale::sim::documents::{self, RunInfo};
use smoothscale::sim::MAX_SCENARIO_BYTES;
use smoothscale::sim::{self, Scenario, SimError};

use super::progress::RunProgress;
use super::{plot, table, Failure};

pub(crate) use super::outputs::write_outputs;

/// Arguments of `simulate`.
#[derive(Args)]
pub(crate) struct SimulateArgs {
    /// The scenario file (TOML; see docs/simulator.md and `simulations/`).
    scenario: PathBuf,
    /// A strategy to run instead of the scenario's list; repeat for several.
    #[arg(long = "strategy", value_name = "NAME")]
    strategies: Vec<String>,
    /// The seed, instead of the scenario's.
    #[arg(long)]
    seed: Option<u64>,
    /// The output directory [default: out/<scenario name>].
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Print every column of the table (max outage, p99 delay, deficit,
    /// active and standby moves, converge, imbalance, standby cover,
    /// cross-rack records too); without it the table shows what users feel
    /// most (unavailability, lag, drain time, restore traffic, rebalances,
    /// load imbalance), within 120 columns.
    #[arg(long)]
    wide: bool,
}

/// Runs the scenario with each strategy, writes the outputs, prints the table.
pub(crate) fn run(args: &SimulateArgs) -> Result<(), Failure> {
    let (scenario, text) = read_scenario(&args.scenario)?;
    let strategies = choose_strategies(&scenario, &args.strategies)?;
    let seed = args.seed.unwrap_or(scenario.seed);
    let out = out_dir(args.out.as_deref(), &scenario);

    let progress = RunProgress::start(strategies.len());
    let runs: Vec<Result<sim::RunResult, SimError>> = strategies
        .par_iter()
        .map(|strategy| {
            let run = sim::run(&scenario, *strategy, seed);
            progress.ended(strategy.info().name, &run);
            run
        })
        .collect();
    progress.finish();
    let results = runs
        .into_iter()
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| violation(&e, &args.scenario))?;

    let info = RunInfo::of(&scenario, &text, seed);
    let mut files = vec![
        ("summary.json", documents::summary_json(&info, &results)),
        ("timeseries.csv", documents::timeseries_csv(&results)),
    ];
    // The runs met the seed's perturbed event times (they passed this
    // check, or the runs stopped above); the markers show those.
    let shown = scenario
        .perturbed(seed)
        .unwrap_or_else(|_| scenario.clone());
    let plots = plot::plots(&plot::Context::of(&shown, seed), &results)
        .map_err(|e| Failure::Output(e.to_string()))?;
    files.extend(plots.into_iter().map(|p| (p.file_name, p.svg)));
    write_outputs(&out, &files)?;
    eprintln!("wrote {} files to {}", files.len(), out.display());
    super::emit(&table::comparison_table(&info, &results, args.wide))
}

/// Reads and checks the scenario file; returns it with its text (for the hash).
pub(crate) fn read_scenario(path: &Path) -> Result<(Scenario, String), Failure> {
    use std::io::Read;
    let cannot =
        |e: std::io::Error| Failure::BadInput(format!("cannot read {}: {e}", path.display()));
    let file = std::fs::File::open(path).map_err(cannot)?;
    let mut text = String::new();
    // One byte past the limit tells a file at the limit from a longer one.
    file.take(MAX_SCENARIO_BYTES + 1)
        .read_to_string(&mut text)
        .map_err(cannot)?;
    if text.len() as u64 > MAX_SCENARIO_BYTES {
        return Err(Failure::BadInput(format!(
            "{} is larger than the limit of {MAX_SCENARIO_BYTES} bytes for a scenario file",
            path.display()
        )));
    }
    let scenario = Scenario::from_toml(&text)
        .map_err(|e| Failure::BadInput(format!("{}: {e}", path.display())))?;
    Ok((scenario, text))
}

/// The strategies to run: those given with `--strategy` (in that order), else
/// the scenario's ([`sim::choose_strategies`]).
pub(crate) fn choose_strategies(
    scenario: &Scenario,
    names: &[String],
) -> Result<Vec<&'static dyn Assignor>, Failure> {
    sim::choose_strategies(scenario, names, "--strategy")
        .map_err(|e| Failure::BadInput(e.to_string()))
}

/// `--out`, or `out/<scenario name>` with characters other than letters,
/// digits, `-`, `_` and `.` replaced by `_`.
pub(crate) fn out_dir(out: Option<&Path>, scenario: &Scenario) -> PathBuf {
    if let Some(dir) = out {
        return dir.to_path_buf();
    }
    let name: String = scenario
        .name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect();
    let name = if name.is_empty() || name.chars().all(|c| c == '.') {
        "scenario".to_string()
    } else {
        name
    };
    Path::new("out").join(name)
}

/// A run that stopped: a quantity that overflowed is bad input (exit 2,
/// naming it); a broken invariant exits 1 with the seed and the command that
/// replays it.
pub(crate) fn violation(e: &SimError, scenario: &Path) -> Failure {
    if e.is_bad_input() {
        return Failure::BadInput(format!("{}: {e}", scenario.display()));
    }
    Failure::Violation(format!(
        "{e}; replay with: smoothscale simulate {} --strategy {} --seed {}",
        shell_word(&scenario.display().to_string()),
        e.strategy,
        e.seed
    ))
}

/// `word` as one shell word: as is when it is plain, else single-quoted.
fn shell_word(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c));
    if plain {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use smoothscale::sim::SimProblem;

    #[test]
    fn a_violation_names_the_seed_and_the_replay_command() {
        let e = SimError {
            strategy: "kip441".to_string(),
            at_ms: sim::SimTime::new(1_500),
            seed: 42,
            problem: SimProblem::Violations(vec!["task 0_1 has no active".to_string()]),
        };
        let Failure::Violation(message) = violation(&e, Path::new("sims/my run.toml")) else {
            panic!("a violation exits 1");
        };
        assert!(message.contains("with seed 42"), "{message}");
        assert!(message.contains("task 0_1 has no active"), "{message}");
        assert!(
            message.ends_with(
                "replay with: smoothscale simulate 'sims/my run.toml' --strategy kip441 --seed 42"
            ),
            "{message}"
        );
    }

    #[test]
    fn default_output_directory() {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/simulations/scale-out.toml"
        ))
        .unwrap();
        let scenario = Scenario::from_toml(&text).unwrap();
        assert_eq!(out_dir(None, &scenario), Path::new("out/scale-out"));
        assert_eq!(out_dir(Some(Path::new("x")), &scenario), Path::new("x"));
    }

    #[test]
    fn an_overflow_is_bad_input_naming_the_quantity() {
        let e = SimError {
            strategy: "kip441".to_string(),
            at_ms: sim::SimTime::new(0),
            seed: 1,
            problem: SimProblem::Overflow(sim::Overflow::of("subtopologies[0].state_records")),
        };
        let Failure::BadInput(message) = violation(&e, Path::new("big.toml")) else {
            panic!("an overflow exits 2");
        };
        assert!(
            message.starts_with("big.toml: subtopologies[0].state_records does not fit"),
            "{message}"
        );
    }

    #[test]
    fn shell_words() {
        assert_eq!(
            shell_word("simulations/scale-out.toml"),
            "simulations/scale-out.toml"
        );
        assert_eq!(shell_word("my file.toml"), "'my file.toml'");
        assert_eq!(shell_word("it's.toml"), r"'it'\''s.toml'");
    }
}
