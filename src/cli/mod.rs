//! Command-line parsing and dispatch. Exit codes: 0 ok, 1 an invariant was
//! violated (or standard output could not be written), 2 bad input (one line
//! on stderr naming the field and value).

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
    Simulate(simulate::SimulateArgs),
    /// Run a scenario with each strategy over many seeds, in parallel.
    ///
    /// Prints n, mean, p50, p95 and max per metric and strategy (nearest-rank
    /// percentiles over the completed runs) and writes them to sweep.json.
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
        Err(e) => {
            let code = e.exit_code();
            let _ = e.print();
            return code;
        }
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

fn strategies_table() -> String {
    let all = smoothscale::assignor::all();
    let width = all.iter().map(|a| a.name().len()).max().unwrap_or(0);
    all.iter()
        .map(|a| format!("{:width$}  {}\n", a.name(), a.description()))
        .collect()
}
