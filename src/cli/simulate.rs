//! `smoothscale simulate SCENARIO [--strategy NAME]... [--seed N] [--out DIR]`,
//! and what `sweep` shares with it: reading the scenario, choosing the
//! strategies, the replay command, writing the output directory.
//!
//! Nothing is written before every run has succeeded: outputs are rendered in
//! memory, written to hidden temporary files in DIR and renamed into place, so
//! a failed run (exit 1 or 2) leaves DIR as it was.

use std::path::{Path, PathBuf};

use clap::Args;
use rayon::prelude::*;

use smoothscale::assignor::{self, Assignor};
use smoothscale::sim::{self, plot, report, Scenario, SimError};

use super::Failure;

/// Arguments of `simulate`.
#[derive(Args)]
pub(crate) struct SimulateArgs {
    /// The scenario file (TOML; see DESIGN §5 and `simulations/`).
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
}

/// Runs the scenario with each strategy, writes the outputs, prints the table.
pub(crate) fn run(args: &SimulateArgs) -> Result<(), Failure> {
    let (scenario, text) = read_scenario(&args.scenario)?;
    let strategies = choose_strategies(&scenario, &args.strategies)?;
    let seed = args.seed.unwrap_or(scenario.seed);
    let out = out_dir(args.out.as_deref(), &scenario);

    let runs: Vec<Result<sim::RunResult, SimError>> = strategies
        .par_iter()
        .map(|strategy| sim::run(&scenario, *strategy, seed))
        .collect();
    let results = runs
        .into_iter()
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| violation(&e, &args.scenario))?;

    let info = report::RunInfo {
        scenario: scenario.name.clone(),
        scenario_hash: sim::scenario_hash(&text),
        seed,
        standbys_asked: scenario.config.num_standby_replicas > 0,
    };
    let mut files = vec![
        ("summary.json", report::summary_json(&info, &results)),
        ("timeseries.csv", report::timeseries_csv(&results)),
    ];
    let plots =
        plot::plots(&scenario.name, &results).map_err(|e| Failure::Output(e.to_string()))?;
    files.extend(plots.into_iter().map(|p| (p.file_name, p.svg)));
    write_outputs(&out, &files)?;
    eprintln!("wrote {} files to {}", files.len(), out.display());
    super::emit(&report::comparison_table(&info, &results))
}

/// Reads and checks the scenario file; returns it with its text (for the hash).
pub(crate) fn read_scenario(path: &Path) -> Result<(Scenario, String), Failure> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Failure::BadInput(format!("cannot read {}: {e}", path.display())))?;
    let scenario = Scenario::from_toml(&text)
        .map_err(|e| Failure::BadInput(format!("{}: {e}", path.display())))?;
    Ok((scenario, text))
}

/// The strategies to run: those given with `--strategy` (in that order), else
/// the scenario's. Unknown or repeated names are bad input.
pub(crate) fn choose_strategies(
    scenario: &Scenario,
    names: &[String],
) -> Result<Vec<&'static dyn Assignor>, Failure> {
    let chosen: Vec<&'static dyn Assignor> = if names.is_empty() {
        sim::scenario_strategies(scenario).map_err(|e| Failure::BadInput(e.to_string()))?
    } else {
        names
            .iter()
            .map(|name| {
                assignor::by_name(name).ok_or_else(|| {
                    Failure::BadInput(format!(
                        "--strategy must be one of {}, got {name:?}",
                        assignor::names().join(", ")
                    ))
                })
            })
            .collect::<Result<_, _>>()?
    };
    for (i, a) in chosen.iter().enumerate() {
        if chosen[..i].iter().any(|b| b.info().name == a.info().name) {
            let place = if names.is_empty() {
                format!("strategies[{i}]")
            } else {
                "--strategy".to_string()
            };
            return Err(Failure::BadInput(format!(
                "{place} names {:?} twice",
                a.info().name
            )));
        }
    }
    Ok(chosen)
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

/// A broken invariant: exit 1 with the seed and the command that replays it.
pub(crate) fn violation(e: &SimError, scenario: &Path) -> Failure {
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

/// Writes `files` into `dir` (created if needed): every file first to a
/// hidden temporary name, then all renamed into place, so readers never see
/// a half-written file.
pub(crate) fn write_outputs(dir: &Path, files: &[(&str, String)]) -> Result<(), Failure> {
    let fail = |what: &Path, e: std::io::Error| {
        Failure::Output(format!("cannot write {}: {e}", what.display()))
    };
    std::fs::create_dir_all(dir).map_err(|e| fail(dir, e))?;
    let mut written: Vec<(PathBuf, PathBuf)> = Vec::new();
    for (name, contents) in files {
        let temp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
        if let Err(e) = std::fs::write(&temp, contents) {
            let _ = std::fs::remove_file(&temp);
            for (t, _) in &written {
                let _ = std::fs::remove_file(t);
            }
            return Err(fail(&dir.join(name), e));
        }
        written.push((temp, dir.join(name)));
    }
    for (i, (temp, path)) in written.iter().enumerate() {
        if let Err(e) = std::fs::rename(temp, path) {
            for (t, _) in &written[i..] {
                let _ = std::fs::remove_file(t);
            }
            return Err(fail(path, e));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_violation_names_the_seed_and_the_replay_command() {
        let e = SimError {
            strategy: "kip441".to_string(),
            at_ms: 1_500,
            seed: 42,
            violations: vec!["task 0_1 has no active".to_string()],
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
    fn outputs_are_written_whole_and_leave_no_temporary_files() {
        let dir = std::env::temp_dir().join(format!("smoothscale-write-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let files = [("a.txt", "one".to_string()), ("b.txt", "two".to_string())];
        assert!(write_outputs(&dir, &files).is_ok());
        let mut names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(names, ["a.txt", "b.txt"]);
        assert_eq!(std::fs::read_to_string(dir.join("b.txt")).unwrap(), "two");
        let _ = std::fs::remove_dir_all(&dir);
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
