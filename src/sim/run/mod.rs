//! Running a scenario: [`run`] plays one strategy through one scenario and
//! seed in virtual time.
//!
//! The folder follows the run: `engine.rs` drives it (the loop, the
//! rebalances); `world.rs` is the state (clients by `ClientNo`,
//! tasks by position, stores, the assignment in force); `agenda.rs` what is
//! due when, `churn.rs` the churn drawn from the seed and `membership.rs`
//! what a happening does to the group; `leader.rs` what the group leader
//! sees (the cluster state, the observed restore rate); `stretch.rs`,
//! `physics.rs` and `backlog.rs` the physics of a stretch of constant rates;
//! `census.rs` counts the world at an instant and `ledger.rs` owns every
//! accumulator and closes into [`RunMetrics`]; `units.rs` the checked units.
//!
//! Time advances in stretches that end at the next event, sample, pause
//! end, step boundary or the end of the run, or earlier at the first instant
//! the physics changes (`stretch`): an active finishes restoring, a standby
//! or warm-up reaches its changelog's end, or a replica's lag crosses
//! `acceptable_recovery_lag`. Rates are constant within a stretch, so
//! restores, catch-ups and the rebalances they trigger happen at their exact
//! instant (rounded up to the millisecond) whatever the `step`; the step only
//! bounds how long a stretch may be.
//!
//! Samples lie on a grid: the one at 0 holds the values then, each later
//! one their time averages over the interval since the one before.
//!
//! # Learners (`kip441-learner`)
//!
//! A plan's `followup_when_caught_up` is honoured at the instant a listed
//! warm-up's copy gets within `acceptable_recovery_lag`: its client rejoins
//! and a rebalance runs at that instant, counted apart
//! (`caught_up_rebalances`). A listed warm-up already caught up when its
//! plan is applied triggers nothing (the plan was made knowing it). Under a
//! strategy that [hands over on
//! leave](crate::assignor::LeaveBehaviour::HandsOver), a graceful leave of a
//! scale-in marks the client `leaving` (a membership rebalance) instead of
//! removing it; it leaves (another membership rebalance) as soon as each of
//! its actives has a caught-up warm-up on another member (at once when it
//! runs none), or `scale_down_timeout` after it asked, whichever is first.
//! A leaving client that crashes stops leaving; a bounce is not a leave.
//! The scale-in is the event convergence is timed from, not the final leave.
//!
//! # Units and overflow
//!
//! The scenario's plain numbers are converted into the simulator's units
//! once, at the entry (`settings.rs`); from there every sum and product is
//! checked. A happening due past the end of the clock (`u64::MAX` ms: a
//! restart `duration` or a bounce `interval` of 10^8 days) comes after the
//! end of every run, so it is not scheduled, which is what the scenario
//! means. Any other overflow stops the run with a [`SimError`] naming the
//! quantity ([`SimProblem::Overflow`]).

mod agenda;
mod backlog;
mod census;
mod churn;
mod delay;
mod engine;
mod leader;
mod ledger;
mod membership;
mod physics;
mod result;
mod settings;
mod stretch;
pub mod units;
mod world;

#[cfg(test)]
mod tests;

pub use ledger::{RunMetrics, Sample};
pub use result::{Outcome, RunResult, SimError, SimProblem};

use engine::{stop, Run};
use units::SimTime;
use world::World;

use crate::assignor::Assignor;
use crate::sim::scenario::Scenario;

/// Runs `assignor` through `scenario` with `seed` (which draws the churn).
///
/// At time 0 the initial clients hold the strategy's plan of a cold cluster,
/// warmed: every replica caught up and every active running. That first
/// rebalance is not counted. A plan that breaks `validate` stops the run with
/// a [`SimError`]; an infeasible input stops it with [`Outcome::Infeasible`].
/// A quantity that overflows its unit stops it with a [`SimError`] too
/// ([`SimProblem::Overflow`], module doc).
///
/// # Errors
///
/// A [`SimError`] when the scenario breaks a rule or limit of
/// [`Scenario::check`] (checked first, so a scenario built in code is bounded
/// as a read one is), a plan breaks `validate` or a quantity overflows.
pub fn run(scenario: &Scenario, assignor: &dyn Assignor, seed: u64) -> Result<RunResult, SimError> {
    check(scenario, assignor, seed)?;
    run_unchecked(scenario, assignor, seed)
}

/// [`Scenario::check`], as the [`SimError`] a run of `assignor` with `seed`
/// would stop with: what [`run`] does first, and a sweep once for all its runs.
pub(crate) fn check(
    scenario: &Scenario,
    assignor: &dyn Assignor,
    seed: u64,
) -> Result<(), SimError> {
    scenario
        .check()
        .map_err(|e| stop(assignor, SimTime::ZERO, seed, SimProblem::Invalid(e)))
}

/// [`run`] without [`Scenario::check`]: for a scenario already checked (a
/// sweep checks once), and for the engine's tests, which drive its own
/// checked arithmetic past the limits on purpose.
pub(crate) fn run_unchecked(
    scenario: &Scenario,
    assignor: &dyn Assignor,
    seed: u64,
) -> Result<RunResult, SimError> {
    let at_start = |problem| stop(assignor, SimTime::ZERO, seed, problem);
    // The seed's perturbation (`[perturb]`), the same for every strategy.
    let perturbed = scenario
        .perturbed(seed)
        .map_err(|e| at_start(SimProblem::Invalid(e)))?;
    let world = World::new(&perturbed, seed).map_err(|o| at_start(SimProblem::Overflow(o)))?;
    Run::new(&perturbed, assignor, seed, world).play()
}
