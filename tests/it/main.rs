//! The integration test binary: one binary, one module per subject.

mod cli;
mod convergence;
mod kip441_spec;
mod properties;
mod support;
mod wire;
