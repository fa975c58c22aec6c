//! `paper`: regenerates `papers/paper.md`, its SVG figures and its data
//! tables from the bundled scenarios (`simulations/`), the simulator's sweeps
//! and the measured inputs in `papers/data/` (benchmarks and live runs, which
//! no deterministic command can repeat).
//!
//! ```text
//! cargo run --release -p smoothscale-paper                 # rewrite papers/ (about 5 min on 2 cores)
//! cargo run --release -p smoothscale-paper -- --check      # fail if papers/ differs
//! cargo run --release -p smoothscale-paper -- --check --fast
//! ```
//!
//! Every number in the text is a `{{key}}` of `papers/template.md` filled
//! from the results; a key the template names but no section gives, or one a
//! section gives that the template never uses, is an error. `--fast` reruns
//! every experiment except the seed sweeps (sections 2, 4, 6 and 7's rack
//! outage with its disks lost), whose per-run figures it reads back from
//! `papers/data/` instead. Every sweep runs held-out seeds
//! (`smoothscale::sim::scenario::HELD_OUT_SEEDS_FROM` and up).

#![forbid(unsafe_code)]

mod fmt;
mod output;
mod plot;
mod runs;
mod sections;
mod template;

use std::path::PathBuf;
use std::process::ExitCode;

/// How `paper` was asked to run.
struct Args {
    check: bool,
    fast: bool,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        check: false,
        fast: false,
    };
    for arg in std::env::args().skip(1) {
        match arg.as_str() {
            "--check" => args.check = true,
            "--fast" => args.fast = true,
            "-h" | "--help" => {
                println!("{}", USAGE);
                std::process::exit(0);
            }
            other => return Err(format!("unknown argument {other:?}\n{USAGE}")),
        }
    }
    Ok(args)
}

const USAGE: &str = "\
Regenerates papers/paper.md, papers/figures/*.svg and papers/data/*.csv from the bundled
scenarios and the measured inputs in papers/data/.

Usage: paper [--fast] [--check]

  --fast   read the seed sweeps (sections 2, 4, 6 and 7) from papers/data/ instead of
           running them; every other experiment runs
  --check  write nothing; exit 1 when a file differs from what it regenerates";

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("paper: {e}");
            return ExitCode::from(2);
        }
    };
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let outputs = match sections::build(&root, args.fast) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("paper: {e}");
            return ExitCode::from(2);
        }
    };
    let result = if args.check {
        output::check(&root, &outputs, args.fast)
    } else {
        output::write(&root, &outputs)
    };
    match result {
        Ok(message) => {
            println!("{message}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("paper: {e}");
            ExitCode::FAILURE
        }
    }
}
