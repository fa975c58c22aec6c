//! `smoothscale assign [--strategy NAME] [--metrics] [FILE|-]`.

use std::io::Read;
use std::path::PathBuf;

use clap::Args;

use smoothscale::{assignor, metrics, validate, wire, AssignError};

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
    let strategy = assignor::by_name(&args.strategy).ok_or_else(|| {
        Failure::BadInput(format!(
            "--strategy must be one of {}, got {:?}",
            assignor::names().join(", "),
            args.strategy
        ))
    })?;
    let text = read_input(args.file.as_ref())?;
    let state = wire::state_from_json(&text).map_err(|e| Failure::BadInput(e.to_string()))?;
    let plan = strategy.assign(&state).map_err(|e| match e {
        AssignError::Infeasible(_) => Failure::BadInput(e.to_string()),
        AssignError::Internal { .. } => Failure::Violation(e.to_string()),
    })?;
    if let Err(violations) = validate(&state, &plan, strategy.info().claims) {
        let list: Vec<String> = violations.iter().map(ToString::to_string).collect();
        return Err(Failure::Violation(format!(
            "strategy {} broke an invariant: {}",
            strategy.info().name,
            list.join("; ")
        )));
    }
    let figures = args.metrics.then(|| metrics::plan_metrics(&state, &plan));
    super::emit(&wire::plan_to_json(&plan, figures))
}

fn read_input(file: Option<&PathBuf>) -> Result<String, Failure> {
    match file {
        Some(path) if path.as_os_str() != "-" => std::fs::read_to_string(path)
            .map_err(|e| Failure::BadInput(format!("cannot read {}: {e}", path.display()))),
        _ => {
            let mut text = String::new();
            std::io::stdin()
                .read_to_string(&mut text)
                .map_err(|e| Failure::BadInput(format!("cannot read standard input: {e}")))?;
            Ok(text)
        }
    }
}
