//! Command-line parsing and dispatch. Exit codes: 0 ok (also `--help` and
//! `--version`), 1 an invariant was violated (or standard output could not be
//! written), 2 bad input or bad arguments (one line on stderr, `error: ...`,
//! naming the field or flag and the value).

mod assign;
mod generate;
mod outputs;
mod plot;
mod progress;
mod simulate;
mod sweep;
mod table;

use clap::{Parser, Subcommand};
use smoothscale::model::one_line;

/// Assign stream-processing tasks to instances and compare balancing strategies.
#[derive(Parser)]
#[command(name = "smoothscale", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Read a cluster state (JSON) and print the plan of a strategy (JSON).
    Assign(assign::AssignArgs),
    /// List the strategies with a one-line description each.
    Strategies,
    /// Print a synthetic cluster state (JSON): a preset shape or your own.
    Generate(generate::GenerateArgs),
    /// Run a scenario (TOML) with each strategy and compare them.
    ///
    /// Prints a comparison table; writes summary.json, timeseries.csv and SVG
    /// plots into the output directory, only once every run has succeeded.
    ///
    /// The table, one row per strategy, shows by default what users feel,
    /// within 120 columns (--wide: every column), with a key under it saying
    /// what each column means: unavailable = task-seconds without a running
    /// active; lag = input records behind, time-weighted mean over all
    /// tasks; drain = the longest time from an event until no input backlog
    /// was left ("never": a backlog still there at the end); restored =
    /// records replayed by restoring actives, standbys and warm-ups;
    /// rebalances counted (the initial plan not); load imb. = the busiest
    /// member's input load per thread over the mean, time-weighted. --wide
    /// adds the longest outage, the 99th-percentile wait of an input
    /// record, the input not processed by the end, active and standby
    /// moves, the time to converge, the task-count imbalance, standby cover
    /// and cross-rack records. "-" means the figure does not apply; a run
    /// stopped as infeasible shows its outcome, not partial figures. Figures
    /// print as summary.json writes them. summary.json has these and more
    /// (lag in record-seconds, p50/p99/max waits, times to full
    /// availability, full redundancy and restores done, recovery against
    /// steady replication, the most replicas on one client), each defined
    /// in docs/simulator.md#metrics.
    ///
    /// Scenario files are TOML; every key (its type, default, unit and
    /// meaning) is listed in docs/simulator.md#scenario-files. Durations are
    /// milliseconds or
    /// strings such as "45s", "10m", "1h30m". Without a [perturb] table a
    /// scenario depends on the seed only through its [churn]; [perturb]
    /// (state_records and write_rate as fractions, event_time as a duration)
    /// varies task sizes, write rates and event times per seed, so a sweep
    /// over a scripted scenario gives a distribution.
    Simulate(simulate::SimulateArgs),
    /// Run a scenario with each strategy over many seeds, in parallel.
    ///
    /// With --set KEY=V1,V2 (or a [sweep] table in the scenario) it also
    /// varies scenario keys, running every combination of their values.
    /// Prints, per combination, strategy and metric (those of the simulate
    /// table; --wide: every headline metric), over the completed runs:
    /// n (runs with a value; nulls such as "never converged" are left out),
    /// mean, std (the sample standard deviation, divisor n-1), ±ci95 (half
    /// the width of the 95% confidence interval of the mean, Student's t with
    /// n-1 degrees of freedom from a 3-decimal table; std and ±ci95 are "-"
    /// for n < 2), and the nearest-rank p50, p95 and max. All computed
    /// exactly from the printed decimals. Writes them to sweep.json, and
    /// every run's figures (a row per combination, seed and strategy, with
    /// the parameter values as columns) to runs.csv and runs.json.
    Sweep(sweep::SweepArgs),
}

/// A failure that ends the command, with its exit code.
pub(crate) enum Failure {
    /// Bad input: exit 2.
    BadInput(String),
    /// A plan broke an invariant: exit 1.
    Violation(String),
    /// Standard output or an output file could not be written: exit 1.
    Output(String),
}

/// Writes `text` to standard output. A reader that went away (a closed pipe,
/// as in `smoothscale assign x.json | head -1`) is not an error.
pub(crate) fn emit(text: &str) -> Result<(), Failure> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(Failure::Output(format!(
            "cannot write to standard output: {e}"
        ))),
        _ => Ok(()),
    }
}

/// Runs the command line; returns the process exit code.
pub fn run() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return argument_error(&e),
    };
    let result = match cli.command {
        Command::Assign(args) => assign::run(&args),
        Command::Strategies => emit(&strategies_table()),
        Command::Generate(args) => generate::run(&args),
        Command::Simulate(args) => simulate::run(&args),
        Command::Sweep(args) => sweep::run(&args),
    };
    match result {
        Ok(()) => 0,
        Err(Failure::BadInput(msg)) => {
            eprintln!("error: {}", one_line(&msg));
            2
        }
        Err(Failure::Violation(msg) | Failure::Output(msg)) => {
            eprintln!("error: {}", one_line(&msg));
            1
        }
    }
}

/// Prints `--help` and `--version` as clap does (exit 0); any other argument
/// error as the contract's one line, `error: WHAT (tip: ...); usage: ...`
/// (exit 2), instead of clap's several lines.
fn argument_error(e: &clap::Error) -> i32 {
    use clap::error::ErrorKind;
    if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
        let _ = e.print();
        return 0;
    }
    eprintln!("error: {}", one_line(&argument_error_line(e)));
    2
}

/// The one line of an argument error, without `error: `.
fn argument_error_line(e: &clap::Error) -> String {
    use clap::error::ErrorKind;
    // Plain text: clap's styles are not written by `Display`.
    let text = e.render().to_string();
    let usage = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("Usage: "))
        .map(str::trim);
    if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
        let usage = usage.unwrap_or("smoothscale <COMMAND>");
        return format!("a command is required; usage: {usage} (see smoothscale --help)");
    }
    // clap's lines up to the usage: the message, its continuation lines
    // (the missing arguments, the possible values) and tips.
    let mut what = Vec::new();
    let mut tips = Vec::new();
    for l in text.lines().map(str::trim) {
        if l.starts_with("Usage:") || l.starts_with("For more information") {
            break;
        }
        if let Some(tip) = l.strip_prefix("tip: ") {
            tips.push(tip);
        } else if !l.is_empty() {
            what.push(l.strip_prefix("error: ").unwrap_or(l));
        }
    }
    let mut line = what.join(" ");
    if line.is_empty() {
        line.push_str("invalid arguments");
    }
    if !tips.is_empty() {
        line.push_str(&format!(" (tip: {})", tips.join("; ")));
    }
    if let Some(usage) = usage {
        line.push_str(&format!("; usage: {usage}"));
    }
    // clap echoes the value given whole: keep the line short.
    const MAX_CHARS: usize = 400;
    if line.chars().count() > MAX_CHARS {
        line = line.chars().take(MAX_CHARS).collect::<String>() + "…";
    }
    line
}

fn strategies_table() -> String {
    let all = smoothscale::assignor::all();
    let width = all.iter().map(|a| a.info().name.len()).max().unwrap_or(0);
    all.iter()
        .map(|a| format!("{:width$}  {}\n", a.info().name, a.info().description))
        .collect()
}
