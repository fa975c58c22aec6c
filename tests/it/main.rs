//! The integration test binary: one binary, one module per subject.

// Tests build small clusters from literal counts (a few hundred tasks at
// most), so their `usize` → `u32` casts of loop counters cannot truncate; the
// library itself converts with checks.
#![allow(clippy::cast_possible_truncation)]

mod cli;
mod convergence;
mod flow;
mod golden;
mod heron;
mod kip441_reference;
mod kip441_spec;
mod learner;
mod optimal;
mod paired;
mod properties;
mod samza;
mod samza_fidelity;
mod scenario;
mod sim_cli;
mod simulation;
mod smooth;
mod sticky;
mod support;
mod sweep;
mod wire;
