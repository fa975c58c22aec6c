//! The native side of smoothscale's Kafka Streams `TaskAssignor`
//! (`bindings/java`, class `io.smoothscale.kafka.NativeBridge`).
//!
//! Java sends the application state as one byte array in the crossing format
//! (`docs/crossing-format.md`, [`state`]); [`assign`] decodes it into a
//! `ClusterState`, runs the named strategy, checks the plan with
//! `smoothscale::validate` and its claims, and answers one byte array
//! ([`plan`]). Every failure — a malformed message, an invalid state, an
//! infeasible input, a plan that breaks an invariant, even a panic — comes
//! back as a one-line message, which the exports throw as
//! `io.smoothscale.kafka.SmoothscaleException`: the group leader gets an
//! exception, never an aborted JVM.

pub mod bytes;
mod exports;
pub mod handout;
pub mod plan;
pub mod state;

use std::panic::{catch_unwind, AssertUnwindSafe};

use smoothscale::{assignor, generate, validate};

/// Runs `strategy` on the state message `bytes` and returns the plan message.
///
/// # Errors
/// One line: an unknown strategy, a malformed message or invalid state
/// (naming the field), an infeasible input, a plan failing `validate`, or a
/// panic inside the core.
pub fn assign(strategy: &str, bytes: &[u8]) -> Result<Vec<u8>, String> {
    contain(|| {
        let assignor = find(strategy)?;
        let decoded = state::decode(bytes)?;
        let plan = assignor
            .assign(&decoded.state)
            .map_err(|e| format!("{strategy} cannot assign this state: {e}"))?;
        if let Err(violations) = validate(&decoded.state, &plan, assignor.info().claims) {
            return Err(format!(
                "{strategy} produced a plan that fails validation: {}{}",
                violations[0],
                match violations.len() {
                    1 => String::new(),
                    n => format!(" (and {} more)", n - 1),
                }
            ));
        }
        Ok(plan::encode(
            &decoded.state,
            &plan,
            &decoded.message_index_of_task,
        ))
    })
}

/// Checks the handout message `bytes` (an assignment as Kafka Streams hands
/// it out, [`handout`]): `Ok(None)` when it keeps every rule Kafka promises
/// of an assignment, else `Ok(Some(violations))`, one line.
///
/// # Errors
/// A malformed message, naming the field and byte offset; a panic.
pub fn check_handout(bytes: &[u8]) -> Result<Option<String>, String> {
    contain(|| handout::check(bytes))
}

/// The state message of the `smoothscale generate` preset `name` with `seed`
/// (benchmarks and tests on the Java side).
///
/// # Errors
/// An unknown preset (naming the known ones).
pub fn generate_preset(name: &str, seed: u64) -> Result<Vec<u8>, String> {
    contain(|| {
        let spec = generate::preset(name).ok_or_else(|| {
            let names: Vec<&str> = generate::presets().iter().map(|p| p.name).collect();
            format!("preset must be one of {}, got {name:?}", names.join(", "))
        })?;
        let state = generate::generate(&spec, seed).map_err(|e| e.to_string())?;
        Ok(state::encode(&state))
    })
}

/// Nanoseconds for `iterations` runs of `strategy` on the decoded state
/// message `bytes`; decoding is not timed. The wall clock is read here, in
/// the benchmark's entry point, never in the core.
///
/// # Errors
/// As [`assign`], before the timing starts.
#[allow(
    clippy::disallowed_methods,
    reason = "the benchmark entry point times the core"
)]
pub fn time_assign(strategy: &str, bytes: &[u8], iterations: u32) -> Result<u128, String> {
    contain(|| {
        let assignor = find(strategy)?;
        let decoded = state::decode(bytes)?;
        let start = std::time::Instant::now();
        for _ in 0..iterations {
            assignor
                .assign(&decoded.state)
                .map_err(|e| format!("{strategy} cannot assign this state: {e}"))?;
        }
        Ok(start.elapsed().as_nanos())
    })
}

/// The registered strategy names.
pub fn strategies() -> Vec<&'static str> {
    assignor::names()
}

/// The strategy called `name`.
///
/// # Errors
/// An unknown name, with the known ones.
pub fn find(name: &str) -> Result<&'static dyn assignor::Assignor, String> {
    assignor::by_name(name).ok_or_else(|| {
        format!(
            "strategy must be one of {}, got {name:?}",
            strategies().join(", ")
        )
    })
}

/// Runs `work`, turning a panic into an error line: no panic may unwind
/// into the JVM.
fn contain<T>(work: impl FnOnce() -> Result<T, String>) -> Result<T, String> {
    catch_unwind(AssertUnwindSafe(work)).unwrap_or_else(|payload| {
        let what = payload
            .downcast_ref::<&str>()
            .map(|s| (*s).to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic without a message".into());
        Err(format!(
            "smoothscale panicked: {}",
            smoothscale::model::one_line(&what)
        ))
    })
}

#[cfg(test)]
mod tests;
