//! `smoothscale generate [--preset NAME] [--stateful N] … [--seed N]`: a
//! synthetic cluster state as JSON on standard output, for `assign` and for
//! measuring (`/usr/bin/time -v smoothscale assign big.json`).

use clap::{Args, ValueEnum};

use smoothscale::generate::{self, History, Spec};
use smoothscale::model::InputError;
use smoothscale::wire;

use super::Failure;

/// The history kinds of [`History`], for the command line.
#[derive(Clone, Copy, ValueEnum)]
enum HistoryArg {
    /// No previous assignment, no lags.
    Cold,
    /// `--reports` lag reports per stateful task on seeded clients.
    Sparse,
    /// Everything drawn, settings included.
    Random,
}

/// Arguments of `generate`.
#[derive(Args)]
pub(crate) struct GenerateArgs {
    /// Start from a named shape (`--list` shows them); the flags below override it.
    #[arg(long)]
    preset: Option<String>,
    /// List the presets and exit.
    #[arg(long)]
    list: bool,
    /// Stateful tasks [default: 100].
    #[arg(long)]
    stateful: Option<u32>,
    /// Stateless tasks [default: 0].
    #[arg(long)]
    stateless: Option<u32>,
    /// Subtopologies the tasks are dealt over [default: 1].
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    subtopologies: Option<u32>,
    /// Clients [default: 10].
    #[arg(long)]
    clients: Option<u32>,
    /// Threads per client (with `--history random`, the most) [default: 1].
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    threads: Option<u32>,
    /// num_standby_replicas [default: 1].
    #[arg(long)]
    standbys: Option<u32>,
    /// What the clients remember [default: cold].
    #[arg(long, value_enum)]
    history: Option<HistoryArg>,
    /// Lag reports per stateful task with `--history sparse` [default: 3].
    #[arg(long)]
    reports: Option<u32>,
    /// The seed of every random draw.
    #[arg(long, default_value_t = 0)]
    seed: u64,
}

/// Builds the spec, generates, prints the state.
pub(crate) fn run(args: &GenerateArgs) -> Result<(), Failure> {
    if args.list {
        let mut text = String::new();
        for p in generate::presets() {
            text.push_str(&format!("{:<20} {}\n", p.name, p.about));
        }
        return super::emit(&text);
    }
    let mut spec = match &args.preset {
        Some(name) => generate::preset(name).ok_or_else(|| {
            let names: Vec<&str> = generate::presets().iter().map(|p| p.name).collect();
            Failure::BadInput(InputError::one_of("--preset", &names, name).to_string())
        })?,
        None => Spec {
            stateful: 100,
            stateless: 0,
            subtopologies: 1,
            clients: 10,
            threads: 1,
            standbys: 1,
            history: History::Cold,
        },
    };
    let set = |field: &mut u32, value: Option<u32>| {
        if let Some(v) = value {
            *field = v;
        }
    };
    set(&mut spec.stateful, args.stateful);
    set(&mut spec.stateless, args.stateless);
    set(&mut spec.subtopologies, args.subtopologies);
    set(&mut spec.clients, args.clients);
    set(&mut spec.threads, args.threads);
    set(&mut spec.standbys, args.standbys);
    let preset_reports = match spec.history {
        History::Sparse { reports } => Some(reports),
        _ => None,
    };
    spec.history = match (args.history, preset_reports) {
        (Some(HistoryArg::Cold), _) => History::Cold,
        (Some(HistoryArg::Random), _) => History::Random,
        (Some(HistoryArg::Sparse), reports) | (None, reports @ Some(_)) => History::Sparse {
            reports: args.reports.or(reports).unwrap_or(3),
        },
        (None, None) => spec.history,
    };
    if args.reports.is_some() && !matches!(spec.history, History::Sparse { .. }) {
        return Err(Failure::BadInput(
            "--reports needs --history sparse (or a sparse preset)".into(),
        ));
    }
    let state =
        generate::generate(&spec, args.seed).map_err(|e| Failure::BadInput(e.to_string()))?;
    super::emit(&wire::state_to_json(&state))
}
