//! The integration test binary: one binary, one module per subject.

mod cli;
mod convergence;
mod flow;
mod golden;
mod heron;
mod kip441_reference;
mod kip441_spec;
mod learner;
mod optimal;
mod properties;
mod samza;
mod scenario;
mod sim_cli;
mod simulation;
mod sticky;
mod support;
mod wire;
