//! `smoothscale assign [--strategy NAME] [--metrics] [FILE|-]`.

use std::io::BufReader;
use std::path::PathBuf;

use clap::Args;

use smoothscale::wire::ReadError;
use smoothscale::{assignor, wire, ClusterState};

use super::Failure;

/// Arguments of `assign`.
#[derive(Args)]
pub(crate) struct AssignArgs {
    /// The strategy to run (see `smoothscale strategies`).
    #[arg(long, default_value = "kip441")]
    strategy: String,
    /// Add the plan's metrics (balance, moves, restore volume) to the output.
    #[arg(long)]
    metrics: bool,
    /// The cluster state as JSON; `-` or nothing reads standard input.
    file: Option<PathBuf>,
}

/// Reads the state, assigns, validates, prints the plan.
pub(crate) fn run(args: &AssignArgs) -> Result<(), Failure> {
    let strategy = assignor::named("--strategy", &args.strategy)
        .map_err(|e| Failure::BadInput(e.to_string()))?;
    let state = read_state(args.file.as_ref())?;
    let plan = wire::assign_json(strategy, &state, args.metrics).map_err(|e| {
        if e.is_bad_input() {
            Failure::BadInput(e.to_string())
        } else {
            Failure::Violation(e.to_string())
        }
    })?;
    super::emit(&plan)
}

/// Reads and checks the state in one streaming pass (see
/// [`wire::state_from_reader`]: at most [`wire::MAX_INPUT_BYTES`]).
fn read_state(file: Option<&PathBuf>) -> Result<ClusterState, Failure> {
    let (source, result) = match file {
        Some(path) if path.as_os_str() != "-" => {
            let source = path.display().to_string();
            let file = std::fs::File::open(path)
                .map_err(|e| Failure::BadInput(format!("cannot read {source}: {e}")))?;
            (source, wire::state_from_reader(BufReader::new(file)))
        }
        _ => (
            "standard input".to_string(),
            wire::state_from_reader(BufReader::new(std::io::stdin().lock())),
        ),
    };
    result.map_err(|e| match e {
        ReadError::Io(e) => Failure::BadInput(format!("cannot read {source}: {e}")),
        ReadError::Input(e) => Failure::BadInput(e.to_string()),
    })
}
