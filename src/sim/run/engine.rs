//! The driver: the loop that advances virtual time stretch by stretch,
//! applies what is due, runs the strategy at each rebalance and tells the
//! ledger what happened. The world is the state (`world.rs`), the
//! membership changes are `membership.rs`, the physics of a stretch is
//! `stretch.rs`, the accounting `ledger.rs`.

use std::collections::BTreeSet;

use super::agenda::{Agenda, Happening};
use super::backlog;
use super::census::Census;
use super::churn;
use super::delay::Segment;
use super::leader::{InputObserver, RateObserver};
use super::ledger::{InputAtEnd, Ledger, PlanInForce, Trigger};
use super::result::{Outcome, RunResult, SimError, SimProblem};
use super::settings::Settings;
use super::stretch::{self, Reader};
use super::units::{Millis, Overflow, Rate, SimTime};
use super::world::{ActiveState, ClientNo, Status, World};
use crate::assign::{assign, AssignFailure};
use crate::assignor::Assignor;
use crate::metrics;
use crate::model::{Plan, TaskIx};
use crate::sim::scenario::Scenario;

/// One run: the scenario, the strategy and the seed; the world and the
/// agenda; the leader's memory; the ledger.
pub(super) struct Run<'a> {
    pub(super) scenario: &'a Scenario,
    pub(super) assignor: &'a dyn Assignor,
    seed: u64,
    pub(super) settings: Settings,
    pub(super) world: World,
    pub(super) now: SimTime,
    pub(super) agenda: Agenda,
    /// When the probing rebalance the plan in force asked for is due.
    probe_at: Option<SimTime>,
    /// When the cooperative protocol's second round is due (the plan in
    /// force revoked actives).
    second_round_at: Option<SimTime>,
    /// Learners (client, task) whose catching up triggers a rebalance.
    watch: BTreeSet<(ClientNo, TaskIx)>,
    /// The leader's observation of the replicas' restore rate.
    observer: RateObserver,
    /// The leader's observation of the tasks' input rates.
    input_observer: InputObserver,
    pub(super) ledger: Ledger,
}

impl<'a> Run<'a> {
    /// A run of `assignor` through `scenario` (already perturbed for `seed`)
    /// with `seed`'s churn, nothing assigned yet.
    pub(super) fn new(
        scenario: &'a Scenario,
        assignor: &'a dyn Assignor,
        seed: u64,
        world: World,
    ) -> Run<'a> {
        let mut agenda = Agenda::default();
        for (i, e) in scenario.events.iter().enumerate() {
            agenda.push(SimTime::new(e.at_ms), Happening::Scripted(i));
        }
        if let Some(spec) = &scenario.churn {
            for e in churn::schedule(spec, seed) {
                agenda.push(e.at_ms, Happening::Churn(e));
            }
        }
        Run {
            scenario,
            assignor,
            seed,
            settings: Settings::of(scenario),
            ledger: Ledger::new(world.tasks.len()),
            world,
            now: SimTime::ZERO,
            agenda,
            probe_at: None,
            second_round_at: None,
            watch: BTreeSet::new(),
            observer: RateObserver::default(),
            input_observer: InputObserver::default(),
        }
    }

    /// Runs to the end (or to an infeasible input) and returns the result.
    pub(super) fn play(mut self) -> Result<RunResult, SimError> {
        let outcome = self.go()?;
        self.finish(outcome)
    }

    fn go(&mut self) -> Result<Outcome, SimError> {
        if let Err(outcome) = self.start()? {
            return Ok(outcome);
        }
        let duration = self.settings.duration;
        let sample_every = self.settings.sample_every;
        // `None`: past the end of the clock.
        let mut next_sample = Some(SimTime::ZERO);
        loop {
            self.end_pauses();
            if let Some(trigger) = self.happenings() {
                if let Err(outcome) = self.rebalance(trigger)? {
                    return Ok(outcome);
                }
            }
            self.clean_stores();
            if next_sample == Some(self.now) {
                let census = self.census(&[]);
                let backlog: u128 = self
                    .world
                    .tasks
                    .iter()
                    .map(|t| u128::from(t.backlog.get()))
                    .sum();
                let now = self.now;
                self.ledger
                    .sample(now, &census, backlog)
                    .map_err(|o| self.overflow(o))?;
                next_sample = self.now.checked_after(sample_every);
            }
            if self.now >= duration {
                return Ok(Outcome::Completed);
            }
            let end = self.stretch_end(next_sample.map_or(duration, |at| at.min(duration)));
            self.now = self.physics(end).map_err(|o| self.overflow(o))?;
        }
    }

    /// The initial plan of the cold cluster, warmed: every replica caught
    /// up and every active running. That first rebalance is not counted.
    fn start(&mut self) -> Result<Result<(), Outcome>, SimError> {
        if let Err(outcome) = self.rebalance(Trigger::Membership)? {
            return Ok(Err(outcome));
        }
        for t in self.world.tasks.indices() {
            let task = &self.world.tasks[t];
            let (end, owner) = (task.end, task.owner);
            let holders: Vec<ClientNo> = owner
                .into_iter()
                .chain(task.replicas.iter().copied())
                .collect();
            for c in holders {
                if let Some(store) = self.world.clients[c].stores.get_mut(&t) {
                    store.offset = end;
                }
            }
            if owner.is_some() {
                self.set_state(t, ActiveState::Running, SimTime::ZERO);
            }
        }
        self.ledger.started();
        Ok(Ok(()))
    }

    /// Sets task `t`'s active state at `at`; the ledger counts the outage it
    /// ends.
    pub(super) fn set_state(&mut self, t: TaskIx, state: ActiveState, at: SimTime) {
        if let Some(outage) = self.world.set_state(t, state, at) {
            self.ledger.outage(t, outage);
        }
    }

    /// The latest end of the stretch starting now (the physics may end it
    /// earlier).
    fn stretch_end(&self, next_sample: SimTime) -> SimTime {
        let mut end = match self.now.checked_after(self.settings.step) {
            Some(step_end) => next_sample.min(step_end),
            None => next_sample,
        };
        if let Some(at) = self.agenda.next_at() {
            end = end.min(at);
        }
        for at in [self.probe_at, self.second_round_at].into_iter().flatten() {
            end = end.min(at);
        }
        for task in self.world.tasks.iter() {
            if let ActiveState::Paused(Some(until)) = task.state {
                end = end.min(until);
            }
        }
        end.max(self.now.next())
    }

    /// Ends the pauses that are over now.
    fn end_pauses(&mut self) {
        for t in self.world.tasks.indices() {
            if let Some(outage) = self.world.resolve_pause(t, self.now) {
                self.ledger.outage(t, outage);
            }
        }
    }

    /// Handles everything due now; the rebalance it calls for, if any.
    fn happenings(&mut self) -> Option<Trigger> {
        let mut trigger = None;
        if self.probe_at.is_some_and(|at| at <= self.now) {
            self.probe_at = None;
            trigger = Some(Trigger::Probing);
        }
        if self.second_round_at.is_some_and(|at| at <= self.now) {
            self.second_round_at = None;
            trigger = Some(Trigger::SecondRound);
        }
        while let Some(what) = self.agenda.pop_due(self.now) {
            if self.happen(what) {
                trigger = Some(Trigger::Membership);
            }
        }
        for c in self.world.members() {
            if self.world.clients[c].leaving_since.is_some() && self.handed_over(c) {
                self.ledger.unsettle();
                if self.leave(c, Status::Gone) {
                    trigger = Some(Trigger::Membership);
                }
            }
        }
        if trigger.is_none() && self.learner_caught_up() {
            trigger = Some(Trigger::CaughtUp);
        }
        trigger
    }

    /// Whether a watched learner has caught up (it stops being watched).
    fn learner_caught_up(&mut self) -> bool {
        if self.watch.is_empty() {
            return false;
        }
        let acceptable = self.settings.acceptable_lag;
        let ready: Vec<(ClientNo, TaskIx)> = self
            .watch
            .iter()
            .copied()
            .filter(|&(c, t)| self.world.caught_up_warmups(t, acceptable).contains(&c))
            .collect();
        for pair in &ready {
            self.watch.remove(pair);
        }
        !ready.is_empty()
    }

    /// Runs the strategy on the members and applies its plan.
    fn rebalance(&mut self, trigger: Trigger) -> Result<Result<(), Outcome>, SimError> {
        for client in self.world.clients.iter_mut() {
            if client.status == Status::CrashedMember {
                client.status = Status::Crashed;
            }
        }
        self.ledger.rebalance(trigger);
        let acceptable = self.settings.acceptable_lag.get();
        let rate = self.observer.observe(&self.world, self.now, acceptable);
        let input_rates = self.input_observer.observe(&self.world, self.now);
        let state = self
            .world
            .cluster_state(self.scenario, &input_rates)
            .and_then(|state| state.with_observed_restore_rate(rate))
            .map_err(|e| self.error(vec![format!("the simulator built a bad state: {e}")]))?;
        let plan = match assign(self.assignor, &state) {
            Ok(plan) => plan,
            Err(AssignFailure::Infeasible(message)) => {
                return Ok(Err(Outcome::Infeasible {
                    at_ms: self.now,
                    message,
                }));
            }
            Err(e) => return Err(self.error(e.problems())),
        };
        let cross_rack_actives = metrics::cross_rack_actives(&state, &plan);
        // A plan beating `optimal` on its own objective means `optimal` is
        // wrong: the run stops as on a broken invariant (exit 1, the replay).
        let over_optimal = metrics::distance_to_optimal(&state, &plan)
            .map_err(|beaten| self.error(vec![beaten.to_string()]))?;
        let now = self.now;
        let applied = self.world.apply(&plan, now, self.settings.pauses());
        // Revoked actives are assigned in a second round once revoked.
        self.second_round_at = (self.settings.second_round && applied.revoked > 0)
            .then(|| now.checked_after(self.settings.revocation_pause.max(Millis::new(1))))
            .flatten();
        for &(t, outage) in &applied.closed {
            self.ledger.outage(t, outage);
        }
        self.probe_at = plan
            .followup_rebalance_ms
            .and_then(|d| self.now.checked_after(Millis::new(d)));
        self.watch_learners(&plan);
        let imbalance_milli = self.world.imbalance_milli();
        let in_force = PlanInForce {
            active_moves: applied.active_moves,
            replica_moves: applied.replica_moves,
            over_optimal,
            cross_rack_actives,
            imbalance_milli,
            load_imbalance_milli: self
                .settings
                .inputs
                .then(|| self.world.load_imbalance_milli())
                .flatten(),
            settled: !plan.wants_followup() && imbalance_milli <= 1000,
        };
        self.ledger
            .plan(now, in_force)
            .map_err(|o| self.overflow(o))?;
        Ok(Ok(()))
    }

    /// Watches the warm-ups of the plan's `followup_when_caught_up` tasks
    /// that are not caught up yet.
    fn watch_learners(&mut self, plan: &Plan) {
        let acceptable = self.settings.acceptable_lag;
        self.watch.clear();
        for t in self.world.tasks.indices() {
            if !plan
                .followup_when_caught_up
                .contains(&self.world.tasks[t].id)
            {
                continue;
            }
            let ready = self.world.caught_up_warmups(t, acceptable);
            let task = &self.world.tasks[t];
            for &c in task.replicas.difference(&task.standbys) {
                if !ready.contains(&c) {
                    self.watch.insert((c, t));
                }
            }
        }
    }

    /// Deletes the stores the state cleaner deletes now.
    fn clean_stores(&mut self) {
        let deleted = self
            .world
            .clean_stores(self.now, self.settings.state_cleanup_delay);
        self.ledger.lost_every_copy(self.world.last_copies(deleted));
    }

    /// The readers of now ([`stretch::readers`] with the scenario's rates).
    fn readers(&self) -> Vec<Reader> {
        stretch::readers(&self.world, self.settings.restore_bandwidth.map(Rate::get))
    }

    /// The [`Census`] of now, with `readers` (only whether every restore is
    /// done reads them).
    fn census(&self, readers: &[Reader]) -> Census {
        Census::of(
            &self.world,
            readers,
            self.settings.acceptable_milli(),
            self.settings.standbys,
        )
    }

    /// One stretch from now: to `end`, or to the first instant before it at
    /// which a rate changes (module doc of `stretch`). The world advances
    /// and the ledger counts; returns the instant reached.
    fn physics(&mut self, end: SimTime) -> Result<SimTime, Overflow> {
        let readers = self.readers();
        let processing = backlog::processors(&mut self.world, self.settings.inputs);
        let acceptable = self.settings.acceptable_milli();
        let dt = stretch::length(
            &readers,
            &processing.processors,
            acceptable,
            end.since(self.now),
        );
        // `dt` is at most `end − now`, or 1 ms when `end` is now + 1.
        let stop = self.now.checked_after(dt).unwrap_or(end);
        let census = self.census(&readers);
        self.ledger.conditions(self.now, &census);
        self.ledger.stretch(dt, &census)?;
        let flow = stretch::advance(
            &mut self.world,
            &readers,
            &processing,
            dt,
            self.settings.inputs,
        )?;
        self.ledger.flow(&flow)?;
        for &t in &flow.finished {
            self.set_state(t, ActiveState::Running, stop);
        }
        Ok(stop)
    }

    /// The run's result: the ledger closed at the end.
    fn finish(self, outcome: Outcome) -> Result<RunResult, SimError> {
        let now = self.now;
        let open: Vec<(TaskIx, SimTime)> = self
            .world
            .tasks
            .iter_enumerated()
            .filter_map(|(t, task)| task.outage_since.map(|since| (t, since)))
            .collect();
        let census = self.census(&self.readers());
        let members = self.world.members().len() as u64;
        let strategy = self.assignor.info().name.to_string();
        let stateful_tasks = self.world.tasks.iter().filter(|t| t.stateful).count() as u64;
        let (seed, assignor) = (self.seed, self.assignor);
        let covered = u128::from(now.since(SimTime::ZERO).get());
        let input = InputAtEnd {
            arrived_milli: self
                .world
                .tasks
                .iter()
                .map(|t| u128::from(t.input_rate.get()) * covered)
                .sum(),
            waiting: self
                .world
                .tasks
                .iter()
                .filter(|t| t.backlog.get() > 0)
                .map(|t| Segment::aged(t.input_rate.get(), t.backlog.get()))
                .collect(),
        };
        let (metrics, samples) = self
            .ledger
            .close(now, open, &census, members, &input)
            .map_err(|o| stop(assignor, now, seed, SimProblem::Overflow(o)))?;
        Ok(RunResult {
            strategy,
            metrics,
            samples,
            outcome,
            stateful_tasks,
            covered_ms: now.since(SimTime::ZERO),
        })
    }

    /// A run stopped now by broken invariants.
    fn error(&self, violations: Vec<String>) -> SimError {
        stop(
            self.assignor,
            self.now,
            self.seed,
            SimProblem::Violations(violations),
        )
    }

    /// A run stopped now by an overflowing quantity.
    pub(super) fn overflow(&self, overflow: Overflow) -> SimError {
        stop(
            self.assignor,
            self.now,
            self.seed,
            SimProblem::Overflow(overflow),
        )
    }
}

/// The error of a run of `assignor` with `seed` stopped at `at` by `problem`.
pub(super) fn stop(
    assignor: &dyn Assignor,
    at: SimTime,
    seed: u64,
    problem: SimProblem,
) -> SimError {
    SimError {
        strategy: assignor.info().name.to_string(),
        at_ms: at,
        seed,
        problem,
    }
}
