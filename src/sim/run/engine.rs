//! The simulation loop: events, rebalances and physics in virtual time.
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
//! warm-up's copy gets within `acceptable_recovery_lag`: its client rejoins and a rebalance runs at that
//! instant, counted apart (`caught_up_rebalances`). A listed warm-up already
//! caught up when its plan is applied triggers nothing (the plan was made
//! knowing it). Under a strategy that [hands over on
//! leave](crate::assignor::LeaveBehaviour::HandsOver), a graceful leave
//! of a scale-in marks the client `leaving` (a membership rebalance) instead
//! of removing it; it leaves (another membership rebalance) as soon as each
//! of its actives has a caught-up warm-up on another member (at once when it
//! runs none), or `scale_down_timeout` after it asked, whichever is first.
//! A leaving client that crashes stops leaving; a bounce is not a leave.
//! The scale-in is the event convergence is timed from, not the final leave.
//!
//! # Units and overflow
//!
//! The scenario's plain numbers are converted into the simulator's units
//! (`units`) once, at the entry ([`Settings`]); from there every sum and
//! product is checked. A happening due past the end of the clock
//! (`u64::MAX` ms: a restart `duration` or a bounce `interval` of
//! 10^8 days) comes after the end of every run, so it is not scheduled,
//! which is what the scenario means. Any other overflow stops the run with
//! a [`SimError`] naming the quantity ([`SimProblem::Overflow`]).

use std::collections::{BTreeMap, BTreeSet};

use crate::assignor::{AssignError, Assignor, LeaveBehaviour};
use crate::metrics;
use crate::validate::validate;

use super::backlog::{self, Processor};
use super::churn::{self, ChurnEvent};
use super::leader::RateObserver;
use super::stretch::{self, Reader};
use super::units::{
    accumulate, records_of, MilliRecords, Millis, Overflow, Rate, Records, SimTime,
};
use super::world::{ActiveState, Status, World};
use super::{Outcome, RunMetrics, RunResult, Sample, SimError, SimProblem};
use crate::sim::{ChurnKind, EventKind, Protocol, Scenario};

/// The scenario's plain values the engine reads, in the simulator's units:
/// converted once, at the engine's entry.
struct Settings {
    duration: SimTime,
    sample_every: Millis,
    step: Millis,
    restore_rate: Rate,
    session_timeout: Millis,
    rebalance_pause: Millis,
    state_cleanup_delay: Millis,
    scale_down_timeout: Option<Millis>,
    acceptable_lag: Records,
    restore_bandwidth: Option<Rate>,
    process_rate: Option<Rate>,
    /// Whether any task has input (else the processing model has nothing to do).
    inputs: bool,
}

impl Settings {
    fn of(scenario: &Scenario) -> Settings {
        let cluster = &scenario.cluster;
        Settings {
            duration: SimTime::new(scenario.duration_ms),
            sample_every: Millis::new(scenario.sample_every_ms),
            step: Millis::new(scenario.step_ms),
            restore_rate: Rate::new(cluster.restore_rate),
            session_timeout: Millis::new(cluster.session_timeout_ms),
            rebalance_pause: Millis::new(cluster.rebalance_pause_ms),
            state_cleanup_delay: Millis::new(cluster.state_cleanup_delay_ms),
            scale_down_timeout: cluster.scale_down_timeout_ms.map(Millis::new),
            acceptable_lag: Records::new(scenario.config.acceptable_recovery_lag),
            restore_bandwidth: cluster.restore_bandwidth.map(Rate::new),
            process_rate: cluster.process_rate.map(Rate::new),
            inputs: scenario.subtopologies.iter().any(|s| s.input_rate > 0),
        }
    }
}

/// Something that happens at a time.
#[derive(Debug, Clone)]
enum Happening {
    /// The scenario's event of this index.
    Scripted(usize),
    /// A churn event.
    Churn(ChurnEvent),
    /// The group notices that this client crashed.
    Notice(usize),
    /// A bounced client leaves.
    Leave(usize),
    /// A bounced client comes back.
    Rejoin(usize),
    /// A crashed client restarts (after a rack outage).
    Restart(usize),
    /// A leaving client's `scale_down_timeout` is over; the time it asked
    /// to leave tells a stale timeout from the current one.
    LeaveTimeout(usize, SimTime),
}

/// Why a rebalance happens.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Trigger {
    CaughtUp,
    Probing,
    Membership,
}

struct Run<'a> {
    scenario: &'a Scenario,
    assignor: &'a dyn Assignor,
    seed: u64,
    settings: Settings,
    world: World,
    now: SimTime,
    /// Due happenings by (time, rank, insertion order): restarts after a rack
    /// outage rank before everything else due at the same time, as the
    /// scenario reader's membership check assumes.
    queue: BTreeMap<(SimTime, u8, u64), Happening>,
    seq: u64,
    probe_at: Option<SimTime>,
    /// Learners (client, task) whose catching up triggers a rebalance.
    watch: BTreeSet<(usize, usize)>,
    /// The leader's observation of the replicas' restore rate.
    restore_rate: RateObserver,
    metrics: RunMetrics,
    samples: Vec<Sample>,
    imbalance_milli: u64,
    settled_since: Option<SimTime>,
    last_event_ms: SimTime,
    restored_milli: u128,
    restored_active_milli: u128,
    cross_rack_milli: u128,
    /// Actives of the plan in force outside their task's racks.
    cross_rack_actives: u64,
    steady_milli: u128,
    /// Since when every task runs, every stateful task has its caught-up
    /// standbys, and every restore is done (`None`: not now).
    available_since: Option<SimTime>,
    redundant_since: Option<SimTime>,
    restored_since: Option<SimTime>,
    /// Since when no task has a backlog.
    drained_since: Option<SimTime>,
    /// What the samples average since the last one.
    window: Window,
}

/// What a stretch starts with, counted once: the tasks by what their active
/// does, and the cluster-wide conditions the metrics follow.
#[derive(Debug, Clone, Copy, Default)]
struct Census {
    /// Stateful and stateless tasks without a running active.
    down_stateful: u64,
    down_stateless: u64,
    /// Stateful actives restoring.
    restoring: u64,
    /// Stateful tasks, and those covered by their caught-up standbys.
    stateful: u64,
    covered: u64,
    /// Whether no task has an input backlog.
    drained: bool,
    /// The most standbys and warm-ups on one member.
    max_replicas: u64,
}

/// Integrals over the current sample interval.
#[derive(Debug, Clone, Copy, Default)]
struct Window {
    from: SimTime,
    available_task_ms: u128,
    restoring_task_ms: u128,
    imbalance_milli_ms: u128,
    max_replicas: u64,
    /// Σ over stretches of (backlog at start + at end) × ms, milli-records.
    backlog_twice_milli_ms: u128,
}

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
        .map_err(|e| stopped_at_start(assignor, seed, SimProblem::Invalid(e)))
}

/// The error of a run stopped before its first step.
fn stopped_at_start(assignor: &dyn Assignor, seed: u64, problem: SimProblem) -> SimError {
    SimError {
        strategy: assignor.info().name.to_string(),
        at_ms: SimTime::ZERO,
        seed,
        problem,
    }
}

/// [`run`] without [`Scenario::check`]: for a scenario already checked (a
/// sweep checks once), and for the engine's tests, which drive its own
/// checked arithmetic past the limits on purpose.
pub(crate) fn run_unchecked(
    scenario: &Scenario,
    assignor: &dyn Assignor,
    seed: u64,
) -> Result<RunResult, SimError> {
    // The seed's perturbation (`[perturb]`), the same for every strategy.
    let perturbed = scenario
        .perturbed(seed)
        .map_err(|e| stopped_at_start(assignor, seed, SimProblem::Invalid(e)))?;
    let scenario = &perturbed;
    let world = World::new(scenario, seed)
        .map_err(|o| stopped_at_start(assignor, seed, SimProblem::Overflow(o)))?;
    let mut run = Run {
        scenario,
        assignor,
        seed,
        settings: Settings::of(scenario),
        world,
        now: SimTime::ZERO,
        queue: BTreeMap::new(),
        seq: 0,
        probe_at: None,
        watch: BTreeSet::new(),
        restore_rate: RateObserver::default(),
        metrics: RunMetrics::default(),
        samples: Vec::new(),
        imbalance_milli: 0,
        settled_since: None,
        last_event_ms: SimTime::ZERO,
        restored_milli: 0,
        restored_active_milli: 0,
        cross_rack_milli: 0,
        cross_rack_actives: 0,
        steady_milli: 0,
        available_since: None,
        redundant_since: None,
        restored_since: None,
        drained_since: None,
        window: Window::default(),
    };
    for (i, e) in scenario.events.iter().enumerate() {
        run.push(SimTime::new(e.at_ms), Happening::Scripted(i));
    }
    if let Some(spec) = &scenario.churn {
        for e in churn::schedule(spec, seed) {
            run.push(e.at_ms, Happening::Churn(e));
        }
    }
    let outcome = run.go()?;
    run.finish(outcome)
}

impl Run<'_> {
    fn push(&mut self, at: SimTime, what: Happening) {
        let rank = u8::from(!matches!(what, Happening::Restart(_)));
        self.queue.insert((at, rank, self.seq), what);
        self.seq += 1;
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
            let trigger = self.happenings();
            if let Some(trigger) = trigger {
                if let Err(outcome) = self.rebalance(trigger)? {
                    return Ok(outcome);
                }
            }
            self.cleanup_stores();
            if next_sample == Some(self.now) {
                self.sample().map_err(|o| self.overflow(o))?;
                next_sample = self.now.checked_after(sample_every);
            }
            if self.now >= duration {
                return Ok(Outcome::Completed);
            }
            let end = self.stretch_end(next_sample.map_or(duration, |at| at.min(duration)));
            self.now = self.physics(end).map_err(|o| self.overflow(o))?;
        }
    }

    /// The initial plan of the cold cluster, warmed.
    fn start(&mut self) -> Result<Result<(), Outcome>, SimError> {
        if let Err(outcome) = self.rebalance(Trigger::Membership)? {
            return Ok(Err(outcome));
        }
        self.metrics = RunMetrics::default();
        self.steady_milli = 0;
        for t in 0..self.world.tasks.len() {
            let end = self.world.tasks[t].end;
            let holders: Vec<usize> = self.world.tasks[t]
                .owner
                .into_iter()
                .chain(self.world.tasks[t].replicas.iter().copied())
                .collect();
            for c in holders {
                if let Some(store) = self.world.clients[c].stores.get_mut(&t) {
                    store.offset = end;
                }
            }
            if self.world.tasks[t].owner.is_some() {
                self.world.set_state(t, ActiveState::Running, SimTime::ZERO);
            }
        }
        self.world.max_outage_ms = Millis::ZERO;
        for task in &mut self.world.tasks {
            task.down_ms = Millis::ZERO;
        }
        Ok(Ok(()))
    }

    /// The latest end of the stretch starting now (the physics may end it
    /// earlier).
    fn stretch_end(&self, next_sample: SimTime) -> SimTime {
        let mut end = match self.now.checked_after(self.settings.step) {
            Some(step_end) => next_sample.min(step_end),
            None => next_sample,
        };
        if let Some((&(at, _, _), _)) = self.queue.first_key_value() {
            end = end.min(at);
        }
        if let Some(at) = self.probe_at {
            end = end.min(at);
        }
        for task in &self.world.tasks {
            if let ActiveState::Paused(Some(until)) = task.state {
                end = end.min(until);
            }
        }
        end.max(self.now.next())
    }

    fn end_pauses(&mut self) {
        for t in 0..self.world.tasks.len() {
            self.world.resolve_pause(t, self.now);
        }
    }

    /// Handles everything due now; the rebalance it calls for, if any.
    fn happenings(&mut self) -> Option<Trigger> {
        let mut trigger = None;
        if self.probe_at.is_some_and(|at| at <= self.now) {
            self.probe_at = None;
            trigger = Some(Trigger::Probing);
        }
        while let Some(entry) = self.queue.first_entry() {
            if entry.key().0 > self.now {
                break;
            }
            let what = entry.remove();
            if self.happen(what) {
                trigger = Some(Trigger::Membership);
            }
        }
        for c in self.world.members() {
            if self.world.clients[c].leaving_since.is_some() && self.handed_over(c) {
                self.settled_since = None;
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

    /// Whether every active of leaving client `c` has a caught-up warm-up on
    /// another member (stateless ones need none).
    fn handed_over(&self, c: usize) -> bool {
        let acceptable = self.settings.acceptable_lag;
        self.world.clients[c].actives.iter().all(|&t| {
            !self.world.tasks[t].stateful
                || self
                    .world
                    .caught_up_warmups(t, acceptable)
                    .iter()
                    .any(|&w| w != c)
        })
    }

    /// Whether a watched learner has caught up (it stops being watched).
    fn learner_caught_up(&mut self) -> bool {
        if self.watch.is_empty() {
            return false;
        }
        let acceptable = self.settings.acceptable_lag;
        let ready: Vec<(usize, usize)> = self
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

    /// Applies one happening; whether membership changed.
    fn happen(&mut self, what: Happening) -> bool {
        let now = self.now;
        let changed = match what {
            Happening::Scripted(i) => {
                self.last_event_ms = now;
                self.scripted(i)
            }
            Happening::Churn(e) => {
                self.last_event_ms = now;
                self.churn(e)
            }
            Happening::Notice(c) => {
                let noticed = self.world.clients[c].status == Status::CrashedMember;
                if noticed {
                    self.world.clients[c].status = Status::Crashed;
                }
                noticed
            }
            Happening::Leave(c) => {
                self.last_event_ms = now;
                self.leave(c, Status::Away)
            }
            Happening::Rejoin(c) | Happening::Restart(c) => {
                self.last_event_ms = now;
                self.rejoin(c)
            }
            Happening::LeaveTimeout(c, asked) => {
                self.world.clients[c].leaving_since == Some(asked) && self.leave(c, Status::Gone)
            }
        };
        if changed {
            self.settled_since = None;
        }
        changed
    }

    fn scripted(&mut self, i: usize) -> bool {
        let now = self.now;
        match &self.scenario.events[i].kind {
            EventKind::ScaleOut { count } => {
                for _ in 0..*count {
                    self.world.add_client(now);
                }
                *count > 0
            }
            EventKind::ScaleIn { count } => {
                let mut members = self.staying_members();
                let mut changed = false;
                for _ in 0..*count {
                    if members.len() <= 1 {
                        break;
                    }
                    let c = members.pop().expect("more than one member");
                    changed |= self.scale_in(c);
                }
                changed
            }
            EventKind::Crash { client, lose_state } => {
                let c = self.world.client_named(client);
                c.is_some_and(|c| self.crash(c, *lose_state))
            }
            EventKind::Restart { client } => {
                let c = self.world.client_named(client);
                c.is_some_and(|c| self.rejoin(c))
            }
            EventKind::RollingBounce {
                interval_ms,
                downtime_ms,
            } => {
                let (interval, downtime) = (Millis::new(*interval_ms), Millis::new(*downtime_ms));
                for (k, c) in self.world.members().into_iter().enumerate() {
                    // Past the end of the clock: this bounce and the later
                    // ones never come (module doc).
                    let Some(at) = interval
                        .checked_times(k as u64)
                        .and_then(|wait| now.checked_after(wait))
                    else {
                        break;
                    };
                    self.push(at, Happening::Leave(c));
                    if let Some(back) = at.checked_after(downtime) {
                        self.push(back, Happening::Rejoin(c));
                    }
                }
                false
            }
            EventKind::RackOutage {
                rack,
                lose_state,
                duration_ms,
            } => {
                let mut changed = false;
                for c in self.world.members() {
                    if self.world.clients[c].rack.as_deref() == Some(rack.as_str()) {
                        changed |= self.crash(c, *lose_state);
                        let back = duration_ms.and_then(|d| now.checked_after(Millis::new(d)));
                        if let Some(back) = back {
                            self.push(back, Happening::Restart(c));
                        }
                    }
                }
                changed
            }
            EventKind::WriteSpike {
                subtopology,
                partition,
                write_rate,
            } => {
                for task in &mut self.world.tasks {
                    if task.stateful
                        && task.id.subtopology == *subtopology
                        && partition.is_none_or(|p| p == task.id.partition)
                    {
                        task.set_write_rate(*write_rate);
                    }
                }
                false
            }
        }
    }

    fn churn(&mut self, e: ChurnEvent) -> bool {
        let members = self.staying_members();
        match e.kind {
            // Churn never leaves fewer than two members: a group of one is
            // balanced by definition and would count as converged at once.
            ChurnKind::Crash if members.len() > 2 => {
                let c = members[churn::pick(e.pick, members.len())];
                self.crash(c, e.lose_state)
            }
            ChurnKind::Restart => {
                let crashed: Vec<usize> = (0..self.world.clients.len())
                    .filter(|&c| {
                        matches!(
                            self.world.clients[c].status,
                            Status::Crashed | Status::CrashedMember
                        )
                    })
                    .collect();
                if crashed.is_empty() {
                    return false;
                }
                let c = crashed[churn::pick(e.pick, crashed.len())];
                self.rejoin(c)
            }
            ChurnKind::ScaleOut => {
                self.world.add_client(self.now);
                true
            }
            ChurnKind::ScaleIn if members.len() > 2 => {
                let c = *members.last().expect("members");
                self.scale_in(c)
            }
            ChurnKind::Crash | ChurnKind::ScaleIn => false,
        }
    }

    /// Members not leaving, in creation order.
    fn staying_members(&self) -> Vec<usize> {
        let mut members = self.world.members();
        members.retain(|&c| self.world.clients[c].leaving_since.is_none());
        members
    }

    /// Member `c` is scaled in: it leaves at once, or, under a strategy that
    /// hands over on leave, it asks to leave and waits (module doc).
    fn scale_in(&mut self, c: usize) -> bool {
        if self.assignor.info().leave == LeaveBehaviour::Immediate {
            return self.leave(c, Status::Gone);
        }
        self.world.clients[c].leaving_since = Some(self.now);
        let timeout = self.settings.scale_down_timeout;
        if let Some(at) = timeout.and_then(|t| self.now.checked_after(t)) {
            self.push(at, Happening::LeaveTimeout(c, self.now));
        }
        true
    }

    /// A member crashes: its actives stop now; the group notices later.
    /// Crashes change membership only when noticed, so this returns false.
    fn crash(&mut self, c: usize, lose_state: bool) -> bool {
        if self.world.clients[c].status != Status::Member {
            return false;
        }
        self.world.clients[c].status = Status::CrashedMember;
        self.world.clients[c].leaving_since = None;
        if lose_state {
            let lost = std::mem::take(&mut self.world.clients[c].stores);
            self.metrics.tasks_lost_every_copy += self.world.last_copies(lost.into_keys());
        }
        for t in self.world.clients[c].actives.clone() {
            self.world.set_state(t, ActiveState::Down, self.now);
        }
        self.settled_since = None;
        if let Some(at) = self.now.checked_after(self.settings.session_timeout) {
            self.push(at, Happening::Notice(c));
        }
        false
    }

    /// A member leaves gracefully (its tasks stop now; state survives).
    fn leave(&mut self, c: usize, status: Status) -> bool {
        if self.world.clients[c].status != Status::Member {
            return false;
        }
        self.world.clients[c].status = status;
        self.world.clients[c].leaving_since = None;
        for t in self.world.clients[c].actives.clone() {
            self.world.set_state(t, ActiveState::Down, self.now);
        }
        if status == Status::Gone {
            let left = self.world.clients[c].stores.keys().copied();
            self.metrics.tasks_lost_every_copy += self.world.last_copies(left);
        }
        true
    }

    /// A crashed or bounced client comes back into the group.
    fn rejoin(&mut self, c: usize) -> bool {
        let status = self.world.clients[c].status;
        if !matches!(
            status,
            Status::Crashed | Status::CrashedMember | Status::Away
        ) {
            return false;
        }
        self.world.clients[c].status = Status::Member;
        self.world.clients[c].up_since = self.now;
        true
    }

    /// Runs the strategy on the members and applies its plan.
    fn rebalance(&mut self, trigger: Trigger) -> Result<Result<(), Outcome>, SimError> {
        for client in &mut self.world.clients {
            if client.status == Status::CrashedMember {
                client.status = Status::Crashed;
            }
        }
        match trigger {
            Trigger::Membership => self.metrics.membership_rebalances += 1,
            Trigger::Probing => self.metrics.probing_rebalances += 1,
            Trigger::CaughtUp => self.metrics.caught_up_rebalances += 1,
        }
        let rate =
            self.restore_rate
                .observe(&self.world, self.now, self.settings.acceptable_lag.get());
        let state = self
            .world
            .cluster_state(self.scenario)
            .and_then(|state| state.with_observed_restore_rate(rate))
            .map_err(|e| self.error(vec![format!("the simulator built a bad state: {e}")]))?;
        let plan = match self.assignor.assign(&state) {
            Ok(plan) => plan,
            Err(AssignError::Infeasible(message)) => {
                return Ok(Err(Outcome::Infeasible {
                    at_ms: self.now,
                    message,
                }));
            }
            Err(e) => return Err(self.error(vec![e.to_string()])),
        };
        if let Err(violations) = validate(&state, &plan, self.assignor.info().claims) {
            return Err(self.error(violations.iter().map(ToString::to_string).collect()));
        }
        self.cross_rack_actives = metrics::cross_rack_actives(&state, &plan);
        if let Some(excess) = metrics::distance_to_optimal(&state, &plan) {
            self.metrics.restore_over_optimal_records = self
                .metrics
                .restore_over_optimal_records
                .plus(Records::new(excess), "restore_over_optimal.records")
                .map_err(|o| self.overflow(o))?;
            self.metrics.rebalances_within_optimal_shares += 1;
        }
        let eager = self.scenario.cluster.protocol == Protocol::Eager;
        let (active_moves, replica_moves) =
            self.world
                .apply(&plan, self.now, self.settings.rebalance_pause, eager);
        self.metrics.active_moves += active_moves.total;
        self.metrics.stateful_active_moves += active_moves.stateful;
        self.metrics.standby_moves += replica_moves;
        self.probe_at = plan
            .followup_rebalance_ms
            .and_then(|d| self.now.checked_after(Millis::new(d)));
        self.watch_learners(&plan);
        self.imbalance_milli = self.imbalance();
        let settled = !plan.wants_followup() && self.imbalance_milli <= 1000;
        if !settled {
            self.settled_since = None;
        } else if self.settled_since.is_none() {
            self.settled_since = Some(self.now);
        }
        Ok(Ok(()))
    }

    /// Watches the warm-ups of the plan's `followup_when_caught_up` tasks
    /// that are not caught up yet.
    fn watch_learners(&mut self, plan: &crate::model::Plan) {
        let acceptable = self.settings.acceptable_lag;
        self.watch.clear();
        for t in 0..self.world.tasks.len() {
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

    fn error(&self, violations: Vec<String>) -> SimError {
        self.stop(SimProblem::Violations(violations))
    }

    fn overflow(&self, overflow: Overflow) -> SimError {
        self.stop(SimProblem::Overflow(overflow))
    }

    fn stop(&self, problem: SimProblem) -> SimError {
        SimError {
            strategy: self.assignor.info().name.to_string(),
            at_ms: self.now,
            seed: self.seed,
            problem,
        }
    }

    /// max − min actives per thread over members, × 1000.
    fn imbalance(&self) -> u64 {
        let loads: Vec<u64> = self
            .world
            .members()
            .into_iter()
            .map(|c| {
                let client = &self.world.clients[c];
                (client.actives.len() as u64 * 1000).div_ceil(u64::from(client.threads))
            })
            .collect();
        let max = loads.iter().copied().max().unwrap_or(0);
        let min = loads.iter().copied().min().unwrap_or(0);
        max - min
    }

    /// Deletes stores released longer ago than the cleanup delay, as Kafka
    /// Streams' state directory cleaner does: only inside a running member
    /// (a crashed, bounced or departed client deletes nothing, and a
    /// restarted one keeps its stores on disk and reports them), and not
    /// before the cleaner's first pass, one delay after the client started.
    fn cleanup_stores(&mut self) {
        let delay = self.settings.state_cleanup_delay;
        let now = self.now;
        let due = |since: SimTime| since.checked_after(delay).is_some_and(|at| at <= now);
        let mut deleted = Vec::new();
        for client in &mut self.world.clients {
            if client.status != Status::Member || !due(client.up_since) {
                continue;
            }
            client.stores.retain(|&t, s| {
                let keep = s.released_at.is_none_or(|at| !due(at));
                if !keep {
                    deleted.push(t);
                }
                keep
            });
        }
        self.metrics.tasks_lost_every_copy += self.world.last_copies(deleted);
    }

    /// The sample at now: the values at time 0, else the means over the
    /// interval since the last sample (module doc).
    fn sample(&mut self) -> Result<(), Overflow> {
        let restored_records = records_of(self.restored_milli, "restored_records.total")?;
        let max_replicas = self.max_replicas();
        let span = u128::from(self.now.since(self.window.from).get());
        let w = self.window;
        let mean = |integral: u128| {
            u64::try_from((integral * 1000 + span / 2) / span.max(1)).unwrap_or(u64::MAX)
        };
        let sample = if self.now == SimTime::ZERO {
            Sample {
                t_ms: self.now,
                available_tasks_milli: self.count(ActiveState::Running) * 1000,
                restoring_tasks_milli: self.count(ActiveState::Restoring) * 1000,
                imbalance_milli: self.imbalance_milli,
                max_replicas_per_client: max_replicas,
                backlog_records: self.backlog_records(),
                restored_records,
            }
        } else {
            Sample {
                t_ms: self.now,
                available_tasks_milli: mean(w.available_task_ms),
                restoring_tasks_milli: mean(w.restoring_task_ms),
                imbalance_milli: mean(w.imbalance_milli_ms / 1000),
                max_replicas_per_client: w.max_replicas,
                backlog_records: u64::try_from(
                    (w.backlog_twice_milli_ms + span * 1000) / (span.max(1) * 2000),
                )
                .unwrap_or(u64::MAX),
                restored_records,
            }
        };
        self.samples.push(sample);
        self.window = Window {
            from: self.now,
            max_replicas,
            ..Window::default()
        };
        Ok(())
    }

    /// Input records behind now, over all tasks (rounded half up).
    fn backlog_records(&self) -> u64 {
        let milli: u128 = self
            .world
            .tasks
            .iter()
            .map(|t| u128::from(t.backlog.get()))
            .sum();
        u64::try_from((milli + 500) / 1000).unwrap_or(u64::MAX)
    }

    /// Tasks whose active is in `state`.
    fn count(&self, state: ActiveState) -> u64 {
        self.world.tasks.iter().filter(|t| t.state == state).count() as u64
    }

    /// The most standbys and warm-ups one member holds now.
    fn max_replicas(&self) -> u64 {
        self.world
            .members()
            .into_iter()
            .map(|c| self.world.clients[c].replicas.len() as u64)
            .max()
            .unwrap_or(0)
    }

    /// Milli-records of lag under which a copy counts as caught up.
    fn acceptable_milli(&self) -> u64 {
        // Past what milli-records hold, every lag is under it.
        self.settings
            .acceptable_lag
            .to_milli()
            .unwrap_or(MilliRecords::MAX)
            .get()
    }

    /// One stretch from now: to `end`, or to the first instant before it at
    /// which a rate changes (module doc). Reads, writes and accounting over
    /// it; returns the instant reached.
    fn physics(&mut self, end: SimTime) -> Result<SimTime, Overflow> {
        let readers = self.readers();
        let processors = self.processors();
        let acceptable = self.acceptable_milli();
        let limit = end.since(self.now).get();
        let ms = readers
            .iter()
            .filter_map(|r| r.next_change(acceptable))
            .chain(processors.iter().filter_map(Processor::ms_to_drain))
            .fold(limit, u64::min)
            .max(1);
        let dt = Millis::new(ms);
        // `ms` is at most `end − now`, or 1 ms when `end` is now + 1.
        let stop = self.now.checked_after(dt).unwrap_or(end);
        let census = self.census();
        self.observe(&readers, census);
        self.accumulate(dt, census)?;
        let mut finished = Vec::new();
        for r in &readers {
            let read = r.read_over(ms);
            let read = MilliRecords::new(u64::try_from(read).map_err(|_| {
                Overflow::of(format!(
                    "a store's offset of task {}",
                    self.world.tasks[r.task].id
                ))
            })?);
            self.receive(r, read)?;
            if r.active && read.get() == r.lag {
                finished.push(r.task);
            }
        }
        self.write(dt)?;
        self.process(&processors, dt)?;
        for t in finished {
            self.world.set_state(t, ActiveState::Running, stop);
        }
        Ok(stop)
    }

    /// The running actives and their processing rates now. Without a
    /// `process_rate` a running active has no backlog: it is cleared here.
    fn processors(&mut self) -> Vec<Processor> {
        if !self.settings.inputs {
            return Vec::new();
        }
        match self.settings.process_rate {
            Some(rate) => backlog::processors(&self.world, rate.get()),
            None => {
                for task in &mut self.world.tasks {
                    if task.state == ActiveState::Running {
                        task.backlog = MilliRecords::ZERO;
                    }
                }
                Vec::new()
            }
        }
    }

    /// Input arrives at every task over `dt`; running actives process
    /// theirs. Accounts the backlog over the stretch.
    fn process(&mut self, processors: &[Processor], dt: Millis) -> Result<(), Overflow> {
        if !self.settings.inputs {
            return Ok(());
        }
        let ms = dt.get();
        let mut after: Vec<Option<u128>> = vec![None; self.world.tasks.len()];
        for p in processors {
            after[p.task] = Some(p.backlog_after(ms));
        }
        let mut twice: u128 = 0;
        let mut total: u128 = 0;
        for (t, task) in self.world.tasks.iter_mut().enumerate() {
            let before = u128::from(task.backlog.get());
            let now = after[t].unwrap_or_else(|| {
                if task.state == ActiveState::Running {
                    before
                } else {
                    before + u128::from(task.input_rate.get()) * u128::from(ms)
                }
            });
            let backlog = u64::try_from(now).map_err(|_| {
                Overflow::of(format!(
                    "the input backlog of task {} (subtopologies[{}].input_rate over time, in milli-records)",
                    task.id, task.id.subtopology
                ))
            })?;
            task.backlog = MilliRecords::new(backlog);
            twice += (before + now) * u128::from(ms);
            total += now;
        }
        let m = &mut self.metrics;
        m.backlog_twice_milli_ms = m
            .backlog_twice_milli_ms
            .checked_add(twice)
            .ok_or_else(|| Overflow::of("backlog.mean_records"))?;
        m.max_backlog_milli = m
            .max_backlog_milli
            .max(u64::try_from(total).unwrap_or(u64::MAX));
        self.window.backlog_twice_milli_ms = self
            .window
            .backlog_twice_milli_ms
            .checked_add(twice)
            .ok_or_else(|| Overflow::of("samples"))?;
        Ok(())
    }

    /// Notes, at the start of a stretch, which of the cluster-wide
    /// conditions hold: every task running, every stateful task covered by
    /// its caught-up standbys (`covered` of them are), every restore done;
    /// and the replica pile-up.
    fn observe(&mut self, readers: &[Reader], census: Census) {
        let now = self.now;
        let since = |holds: bool, since: Option<SimTime>| holds.then(|| since.unwrap_or(now));
        let running = census.down_stateful + census.down_stateless == 0;
        let restored = readers.iter().all(Reader::following);
        self.drained_since = since(census.drained, self.drained_since);
        self.available_since = since(running, self.available_since);
        self.redundant_since = since(census.covered == census.stateful, self.redundant_since);
        self.restored_since = since(restored, self.restored_since);
        self.window.max_replicas = self.window.max_replicas.max(census.max_replicas);
        self.metrics.max_replicas_per_client = self
            .metrics
            .max_replicas_per_client
            .max(census.max_replicas);
    }

    /// The [`Census`] of now: one pass over the tasks.
    fn census(&self) -> Census {
        let mut census = Census {
            drained: true,
            covered: self.covered_tasks() as u64,
            max_replicas: self.max_replicas(),
            ..Census::default()
        };
        for task in &self.world.tasks {
            census.stateful += u64::from(task.stateful);
            census.drained &= task.backlog == MilliRecords::ZERO;
            match (task.state, task.stateful) {
                (ActiveState::Running, _) => {}
                (state, true) => {
                    census.down_stateful += 1;
                    census.restoring += u64::from(state == ActiveState::Restoring);
                }
                (_, false) => census.down_stateless += 1,
            }
        }
        census
    }

    /// The readers of now ([`stretch::readers`] with the scenario's rates).
    fn readers(&self) -> Vec<Reader> {
        stretch::readers(
            &self.world,
            self.settings.restore_rate.get(),
            self.settings.restore_bandwidth.map(Rate::get),
        )
    }

    /// Accounting over a stretch of `dt` from now, rates and states constant:
    /// outages, coverage, imbalance, cross-rack actives and the sample
    /// window, from the stretch's `census`.
    fn accumulate(&mut self, dt: Millis, census: Census) -> Result<(), Overflow> {
        let down = (census.down_stateful, census.down_stateless);
        let m = &mut self.metrics;
        m.covered_task_ms = accumulate(m.covered_task_ms, census.covered, dt, "standby_coverage")?;
        let add = |sum: Millis, n: u64, what: &str| {
            dt.checked_times(n)
                .ok_or_else(|| Overflow::of(what))
                .and_then(|span| sum.plus(span, what))
        };
        m.unavailable_stateful_task_ms = add(
            m.unavailable_stateful_task_ms,
            down.0,
            "unavailable_task_s.stateful",
        )?;
        m.unavailable_stateless_task_ms = add(
            m.unavailable_stateless_task_ms,
            down.1,
            "unavailable_task_s.stateless",
        )?;
        m.imbalance_milli_ms = accumulate(
            m.imbalance_milli_ms,
            self.imbalance_milli,
            dt,
            "imbalance.time_weighted",
        )?;
        m.cross_rack_active_task_ms = accumulate(
            m.cross_rack_active_task_ms,
            self.cross_rack_actives,
            dt,
            "cross_rack_actives",
        )?;
        let running = self.world.tasks.len() as u64 - down.0 - down.1;
        let w = &mut self.window;
        w.available_task_ms = accumulate(w.available_task_ms, running, dt, "samples")?;
        w.restoring_task_ms = accumulate(w.restoring_task_ms, census.restoring, dt, "samples")?;
        w.imbalance_milli_ms =
            accumulate(w.imbalance_milli_ms, self.imbalance_milli, dt, "samples")?;
        Ok(())
    }

    /// The changelogs of running actives grow over `dt`; their owners'
    /// stores follow.
    fn write(&mut self, dt: Millis) -> Result<(), Overflow> {
        for t in 0..self.world.tasks.len() {
            let task = &mut self.world.tasks[t];
            if task.state != ActiveState::Running {
                continue;
            }
            let changelog = |id: crate::model::TaskId| {
                Overflow::of(format!(
                    "the changelog of task {id} (subtopologies[{}].write_rate over time, in milli-records)",
                    id.subtopology
                ))
            };
            let written = task
                .write_rate
                .checked_over(dt)
                .ok_or_else(|| changelog(task.id))?;
            task.end = task
                .end
                .checked_plus(written)
                .ok_or_else(|| changelog(task.id))?;
            let end_offset = task.end;
            let owner = task.owner.expect("a running task has an owner");
            if let Some(store) = self.world.clients[owner].stores.get_mut(&t) {
                store.offset = end_offset;
            }
        }
        Ok(())
    }

    /// A reader's work over a stretch: its store's offset, the totals.
    fn receive(&mut self, r: &Reader, read: MilliRecords) -> Result<(), Overflow> {
        if read == MilliRecords::ZERO {
            return Ok(());
        }
        let (c, t) = (r.client, r.task);
        if let Some(store) = self.world.clients[c].stores.get_mut(&t) {
            store.offset = store.offset.plus(read, "a store's offset")?;
        }
        let milli = u128::from(read.get());
        let total =
            |sum: u128, what: &str| sum.checked_add(milli).ok_or_else(|| Overflow::of(what));
        self.restored_milli = total(self.restored_milli, "restored_records.total")?;
        if r.active {
            self.restored_active_milli =
                total(self.restored_active_milli, "restored_records.active")?;
        } else if r.following() {
            self.steady_milli = total(self.steady_milli, "restored_records.steady_replication")?;
        }
        let task_rack = self.world.tasks[t].changelog_rack.as_deref();
        if task_rack.is_some() && self.world.clients[c].rack.as_deref() != task_rack {
            self.cross_rack_milli = total(self.cross_rack_milli, "cross_rack_records")?;
        }
        Ok(())
    }

    /// The stateful tasks whose caught-up standbys on members number at
    /// least `min(num_standby_replicas, members − 1)`.
    fn covered_tasks(&self) -> usize {
        let wanted = self.scenario.config.num_standby_replicas as usize;
        let members = self.world.members().len();
        let needed = wanted.min(members.saturating_sub(1));
        let acceptable = self.acceptable_milli();
        self.world
            .tasks
            .iter()
            .enumerate()
            .filter(|(_, t)| t.stateful)
            .filter(|(t, task)| {
                let caught_up = task
                    .standbys
                    .iter()
                    .filter(|&&c| self.world.clients[c].status == Status::Member)
                    .filter(|&&c| {
                        self.world.clients[c].stores.get(t).is_some_and(|s| {
                            task.end.get().saturating_sub(s.offset.get()) <= acceptable
                        })
                    })
                    .count();
                caught_up >= needed
            })
            .count()
    }

    fn finish(mut self, outcome: Outcome) -> Result<RunResult, SimError> {
        let now = self.now;
        for t in 0..self.world.tasks.len() {
            if let Some(since) = self.world.tasks[t].outage_since {
                self.world.max_outage_ms = self.world.max_outage_ms.max(now.since(since));
                let task = &mut self.world.tasks[t];
                task.add_down(now.since(since));
            }
        }
        let records = |milli: u128, what: &str| records_of(milli, what);
        let totals = (|| {
            Ok::<_, Overflow>((
                records(self.restored_active_milli, "restored_records.active")?,
                records(
                    self.restored_milli - self.restored_active_milli,
                    "restored_records.replica",
                )?,
                records(self.cross_rack_milli, "cross_rack_records")?,
            ))
        })();
        let (active, replica, cross_rack) = totals.map_err(|o| self.overflow(o))?;
        let steady = records_of(self.steady_milli, "restored_records.steady_replication")
            .map_err(|o| self.overflow(o))?;
        let readers = self.readers();
        self.observe(&readers, self.census());
        let m = &mut self.metrics;
        m.max_outage_ms = self.world.max_outage_ms;
        m.task_down_ms = self.world.tasks.iter().map(|t| t.down_ms).collect();
        m.restored_active_records = active;
        m.restored_replica_records = replica;
        m.steady_replica_records = steady;
        m.cross_rack_records = cross_rack;
        m.final_imbalance_milli = self.imbalance_milli;
        m.final_members = self.world.members().len() as u64;
        // Settled before the last event (one that changed nothing): 0.
        let after_last_event = |since: Option<SimTime>| since.map(|s| s.since(self.last_event_ms));
        m.converge_ms = after_last_event(self.settled_since);
        m.full_availability_ms = after_last_event(self.available_since);
        m.full_redundancy_ms = after_last_event(self.redundant_since);
        m.restores_done_ms = after_last_event(self.restored_since);
        m.drained_ms = after_last_event(self.drained_since);
        Ok(RunResult {
            strategy: self.assignor.info().name.to_string(),
            metrics: self.metrics,
            samples: self.samples,
            outcome,
            stateful_tasks: self.world.tasks.iter().filter(|t| t.stateful).count() as u64,
            covered_ms: now.since(SimTime::ZERO),
        })
    }
}
