//! The native side of smoothscale's Kafka Streams `TaskAssignor`
//! (`bindings/java`, class `io.smoothscale.kafka.NativeBridge`).
//!
//! Java sends the application state as one byte array in the crossing format
//! (`docs/crossing-format.md`, [`state`]); [`assign`] decodes it into a
//! `ClusterState`, runs the named strategy through `smoothscale::assign` (the
//! strategy, then `validate` with its claims: the one entry every front
//! uses), and answers one byte array ([`plan`]). The leader's observed
//! restore rate is the core's rule too ([`observe_restore_rate`],
//! [`observation`]), and so is each task's input rate, read from the state
//! message ([`input_rates`] answers what the core read).
//!
//! Every failure is a [`Failure`]: the caller's input ([`Failure::Input`]:
//! an unknown strategy or preset, a malformed message, an invalid state, an
//! input the strategy cannot serve) or a bug ([`Failure::Bug`]: a strategy
//! failing inside, a plan breaking an invariant, a panic). Its message is the
//! one line the command line prints for the same failure (after `error: `).
//! The exports throw the first as `io.smoothscale.kafka.SmoothscaleInputException`
//! and the second as `io.smoothscale.kafka.SmoothscaleInvariantException`,
//! both `SmoothscaleException`s: the group leader gets an exception, never an
//! aborted JVM.

pub mod bytes;
mod exports;
pub mod handout;
pub mod observation;
pub mod plan;
pub mod state;

use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};

use smoothscale::model::{one_line, InputError};
use smoothscale::{assignor, generate, AssignFailure, Assignor};

use crate::bytes::FormatError;

/// Why a call gave no answer: the caller's input or a bug, with the one-line
/// message the command line prints for the same failure.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// The caller's input: an unknown strategy or preset, a malformed
    /// message, a message that is not a valid state, an input the strategy
    /// cannot serve (`AssignFailure::Infeasible`). Exit 2 on the command
    /// line; `SmoothscaleInputException` in Java.
    Input(String),
    /// A bug: a strategy failing inside (`AssignFailure::Internal`), a plan
    /// breaking an invariant (`AssignFailure::Invariants`), a panic, the JNI
    /// glue failing. Exit 1 on the command line;
    /// `SmoothscaleInvariantException` in Java.
    Bug(String),
}

impl Failure {
    /// Bad input, its message on one line.
    pub fn input(message: impl fmt::Display) -> Self {
        Failure::Input(one_line(&message.to_string()))
    }

    /// A bug, its message on one line.
    pub fn bug(message: impl fmt::Display) -> Self {
        Failure::Bug(one_line(&message.to_string()))
    }

    /// Whether the caller's input is at fault rather than a bug.
    pub fn is_bad_input(&self) -> bool {
        matches!(self, Failure::Input(_))
    }

    /// The one-line message.
    pub fn message(&self) -> &str {
        match self {
            Failure::Input(m) | Failure::Bug(m) => m,
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

impl std::error::Error for Failure {}

impl From<FormatError> for Failure {
    fn from(e: FormatError) -> Self {
        Failure::input(e)
    }
}

impl From<InputError> for Failure {
    fn from(e: InputError) -> Self {
        Failure::input(e)
    }
}

impl From<AssignFailure> for Failure {
    fn from(e: AssignFailure) -> Self {
        if e.is_bad_input() {
            Failure::input(e)
        } else {
            Failure::bug(e)
        }
    }
}

/// Runs `strategy` on the state message `bytes` and returns the plan message.
///
/// # Errors
/// [`Failure::Input`]: an unknown strategy, a malformed message or invalid
/// state (naming the field), an input the strategy cannot serve.
/// [`Failure::Bug`]: the strategy failing inside, its plan breaking an
/// invariant, a panic inside the core.
pub fn assign(strategy: &str, bytes: &[u8]) -> Result<Vec<u8>, Failure> {
    contain(|| assign_with(find(strategy)?, bytes))
}

/// [`assign`] with the strategy itself (tests run strategies that are not
/// registered through it).
fn assign_with(strategy: &dyn Assignor, bytes: &[u8]) -> Result<Vec<u8>, Failure> {
    let decoded = state::decode(bytes)?;
    let plan = smoothscale::assign(strategy, &decoded.state)?;
    Ok(plan::encode(
        &decoded.state,
        &plan,
        &decoded.message_index_of_task,
    ))
}

/// Checks the handout message `bytes` (an assignment as Kafka Streams hands
/// it out, [`handout`]): `Ok(None)` when it keeps every rule Kafka promises
/// of an assignment, else `Ok(Some(violations))`, one line. Violations are
/// the answer, not a failure.
///
/// # Errors
/// [`Failure::Input`]: a malformed message, naming the field and byte offset,
/// or one that is not a valid state. [`Failure::Bug`]: a panic.
pub fn check_handout(bytes: &[u8]) -> Result<Option<String>, Failure> {
    contain(|| handout::check(bytes))
}

/// The restore rate the group leader observes, records per second, from the
/// observation message `bytes` ([`observation`]), by the core's rule
/// (`smoothscale::restore_rate::observe`); `None` when there is none.
///
/// # Errors
/// [`Failure::Input`]: a malformed message. [`Failure::Bug`]: a panic.
pub fn observe_restore_rate(bytes: &[u8]) -> Result<Option<u64>, Failure> {
    contain(|| Ok(observation::decode(bytes)?.observe()))
}

/// The input rate the core reads for each task of the state message `bytes`
/// (`Task::input_rate`, by `smoothscale::input_rate::observe` from the
/// leader's input offsets, [`state`]), in the message's task order: records
/// per second, `None` where unknown.
///
/// # Errors
/// [`Failure::Input`]: a malformed message or invalid state, as [`assign`].
/// [`Failure::Bug`]: a panic.
pub fn input_rates(bytes: &[u8]) -> Result<Vec<Option<u64>>, Failure> {
    contain(|| {
        let decoded = state::decode(bytes)?;
        let mut rates = vec![None; decoded.message_index_of_task.len()];
        for (task, &index) in decoded
            .state
            .tasks()
            .iter()
            .zip(&decoded.message_index_of_task)
        {
            if let Some(slot) = usize::try_from(index).ok().and_then(|i| rates.get_mut(i)) {
                *slot = task.input_rate;
            }
        }
        Ok(rates)
    })
}

/// The shortest time between two samples of a task's input offsets that
/// gives an input rate, in milliseconds (`smoothscale::input_rate::MIN_WINDOW_MS`):
/// the group leader keeps its samples by it (Java's `InputRateObserver`), so
/// the constant is declared once, in the core.
pub fn input_rate_window_ms() -> u64 {
    smoothscale::input_rate::MIN_WINDOW_MS
}

/// The state message of the `smoothscale generate` preset `name` with `seed`
/// (benchmarks and tests on the Java side).
///
/// # Errors
/// [`Failure::Input`]: an unknown preset (naming the known ones).
pub fn generate_preset(name: &str, seed: u64) -> Result<Vec<u8>, Failure> {
    contain(|| {
        let spec = generate::preset(name).ok_or_else(|| {
            let names: Vec<&str> = generate::presets().iter().map(|p| p.name).collect();
            InputError::one_of("preset", &names, name)
        })?;
        let state = generate::generate(&spec, seed)?;
        Ok(state::encode(&state))
    })
}

/// Nanoseconds for `iterations` runs of `strategy` on the decoded state
/// message `bytes`. Decoding and one run through `smoothscale::assign` (the
/// strategy and `validate`, so the failures are [`assign`]'s) come first,
/// untimed. The wall clock is read here, in the benchmark's entry point,
/// never in the core.
///
/// # Errors
/// As [`assign`], before the timing starts; [`Failure::Bug`] if a timed run
/// fails where the untimed one did not (a strategy is deterministic).
#[allow(
    clippy::disallowed_methods,
    reason = "the benchmark entry point times the core"
)]
pub fn time_assign(strategy: &str, bytes: &[u8], iterations: u32) -> Result<u128, Failure> {
    contain(|| {
        let assignor = find(strategy)?;
        let decoded = state::decode(bytes)?;
        smoothscale::assign(assignor, &decoded.state)?;
        let start = std::time::Instant::now();
        for _ in 0..iterations {
            assignor.assign(&decoded.state).map_err(|e| {
                Failure::bug(format!(
                    "strategy {strategy} failed on a repeated run of one state: {e}"
                ))
            })?;
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
/// [`Failure::Input`]: an unknown name, with the known ones
/// (`strategy must be one of kip441, …, got "x"`).
pub fn find(name: &str) -> Result<&'static dyn Assignor, Failure> {
    Ok(assignor::named("strategy", name)?)
}

/// Runs `work`, turning a panic into a [`Failure::Bug`]: no panic may unwind
/// into the JVM.
fn contain<T>(work: impl FnOnce() -> Result<T, Failure>) -> Result<T, Failure> {
    catch_unwind(AssertUnwindSafe(work)).unwrap_or_else(|payload| {
        let what = payload
            .downcast_ref::<&str>()
            .map(|s| (*s).to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic without a message".into());
        Err(Failure::bug(format!("smoothscale panicked: {what}")))
    })
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod golden;
