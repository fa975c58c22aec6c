//! The ledger of a run: every accumulator in one place. The engine tells it
//! what happened (a rebalance and its plan, an outage closed, a stretch's
//! census and flow, an event, copies lost), and it keeps the integrals,
//! counters, maxima and "since when" markers the metrics are made of, and
//! the samples of the time series ([`Sample`]). [`Ledger::close`] gives the
//! run's [`RunMetrics`] and samples; the figures in seconds and shares are
//! `report`'s.
//!
//! To add a metric: a field of [`RunMetrics`], where it is accumulated
//! here, and its entry in the metric record (`sim::report::metrics`).

use super::census::Census;
use super::delay::{DelayHistogram, Segment};
use super::stretch::Flow;
use super::units::{accumulate, records_of, Millis, Overflow, Records, SimTime};
use super::world::ActiveMoves;
use crate::model::{IxVec, TaskIx};

/// Metrics of one strategy on one scenario and seed, integers as accumulated.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RunMetrics {
    /// Task-milliseconds of stateful tasks with no running active.
    pub unavailable_stateful_task_ms: Millis,
    /// Task-milliseconds of stateless tasks with no running active.
    pub unavailable_stateless_task_ms: Millis,
    /// The longest single outage of one task.
    pub max_outage_ms: Millis,
    /// Each task's total time without a running active, in task order
    /// (after the initial plan; an outage open at the end counts to the end).
    pub task_down_ms: Vec<Millis>,
    /// Records replayed by restoring actives.
    pub restored_active_records: Records,
    /// Records replayed by standbys and warm-ups.
    pub restored_replica_records: Records,
    /// The part of `restored_replica_records` read by replicas that were
    /// caught up (at their changelog's end) and followed their running
    /// active: steady-state replication, not recovery.
    pub steady_replica_records: Records,
    /// Tasks whose active changed client, summed over rebalances.
    pub active_moves: u64,
    /// The stateful ones among `active_moves`.
    pub stateful_active_moves: u64,
    /// Standbys (and warm-ups) placed on a client that did not hold the task
    /// as a replica before, summed over rebalances.
    pub standby_moves: u64,
    /// Rebalances triggered by joins, leaves and noticed crashes.
    pub membership_rebalances: u64,
    /// Probing (follow-up) rebalances.
    pub probing_rebalances: u64,
    /// Rebalances triggered by a learner that caught up (a plan's
    /// `followup_when_caught_up`).
    pub caught_up_rebalances: u64,
    /// The cooperative protocol's second rounds (`cluster.second_round`).
    pub second_round_rebalances: u64,
    /// From the last scripted or churn event until the first plan that asks
    /// for no follow-up and is balanced (active spread per thread ≤ 1) and
    /// stays so; `None` if that never happens before the end.
    pub converge_ms: Option<Millis>,
    /// From the last scripted or churn event until every task has a running
    /// active and keeps one to the end; `None` if that never happens.
    pub full_availability_ms: Option<Millis>,
    /// From the last event until every stateful task has the caught-up
    /// standbys it asks for (`min(num_standby_replicas, members − 1)`) and
    /// keeps them to the end; `None` if never.
    pub full_redundancy_ms: Option<Millis>,
    /// From the last event until every restore is done (no active
    /// restoring, every standby and warm-up at its changelog's end) and
    /// none starts again before the end; `None` if never.
    pub restores_done_ms: Option<Millis>,
    /// From the last event until no task has an input backlog and none
    /// falls behind again before the end; `None` if never.
    pub drained_ms: Option<Millis>,
    /// Σ over time of 2 × the total input backlog (milli-records) × ms:
    /// divide by 2,000 × the duration for the mean records behind.
    pub backlog_twice_milli_ms: u128,
    /// The most input records (milli-records) behind at once, over all tasks.
    pub max_backlog_milli: u64,
    /// Input records not processed by the end, over all tasks.
    pub final_backlog: Records,
    /// Input records that arrived over the run, over all tasks.
    pub input_records: Records,
    /// The 50th and 99th percentiles and the maximum of how long an input
    /// record waited between its arrival and its processing (one not
    /// processed by the end: its age then); `None` without input.
    pub delay_ms: Option<[Millis; 3]>,
    /// The longest time from an event until no task had an input backlog
    /// and none fell behind again before the next event; `None` when some
    /// event's backlog was never gone. 0 with no event.
    pub worst_event_drain_ms: Option<Millis>,
    /// The start and every event, in time order, each with the time from it
    /// until its backlog was gone (as `worst_event_drain_ms` counts it);
    /// `None`: never, by the end.
    pub event_drains: Vec<(SimTime, Option<Millis>)>,
    /// Σ over time of the busiest member's load per thread over the mean
    /// load per thread (input rate × cost of the actives of the plan in
    /// force), × 1000 × ms; `None` without input.
    pub load_imbalance_milli_ms: Option<u128>,
    /// The same at the end, × 1000.
    pub final_load_imbalance_milli: Option<u64>,
    /// The most standbys and warm-ups one member held at any time.
    pub max_replicas_per_client: u64,
    /// Times a stateful task lost every copy of its state: the last store
    /// of it on a client that is in the group or may come back was deleted
    /// (a disk lost, the state cleaner) or left with a client scaled in, so
    /// whoever runs it next restores its whole changelog.
    pub tasks_lost_every_copy: u64,
    /// Members of the group at the end (crashed clients not counted).
    pub final_members: u64,
    /// Σ over time of (max − min actives per thread) × 1000 × ms: divide by
    /// the duration for the time-weighted imbalance.
    pub imbalance_milli_ms: u128,
    /// (max − min actives per thread) × 1000 at the end.
    pub final_imbalance_milli: u64,
    /// Σ over time of the stateful tasks covered by their caught-up standbys,
    /// × ms: divide by (stateful tasks × duration) for the time-weighted share.
    pub covered_task_ms: u128,
    /// Restore records read by a client from a changelog in another rack.
    pub cross_rack_records: Records,
    /// Σ over time of the actives (of the plan in force) on a client outside
    /// their task's racks, × ms: divide by the duration for the time-weighted
    /// count of actives reading their input across racks.
    pub cross_rack_active_task_ms: u128,
    /// Σ over counted rebalances whose plan meets `optimal`'s share bounds of
    /// the records its actives restore beyond `optimal`'s
    /// ([`crate::metrics::distance_to_optimal`]).
    pub restore_over_optimal_records: Records,
    /// How many counted rebalances were measured that way.
    pub rebalances_within_optimal_shares: u64,
}

/// One sample of the time series, on the grid `0, sample_every, 2 ×
/// sample_every, …`. The first holds the values at time 0; every later one
/// holds their time averages over the interval since the one before (so a
/// 5-second pause inside a minute shows as the share of the minute it
/// took, not as a dip), except `restored_records`, a running total.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Sample {
    /// Simulated time: the end of the interval.
    pub t_ms: SimTime,
    /// Tasks with a running active, mean over the interval, × 1000.
    pub available_tasks_milli: u64,
    /// Stateful actives restoring, mean over the interval, × 1000.
    pub restoring_tasks_milli: u64,
    /// max − min actives per thread, × 1000, mean over the interval.
    pub imbalance_milli: u64,
    /// The most standbys and warm-ups on one member during the interval.
    pub max_replicas_per_client: u64,
    /// Input records not processed yet, over all tasks, mean over the
    /// interval (the processing model; 0 without input rates).
    pub backlog_records: u64,
    /// Records restored so far (actives and replicas).
    pub restored_records: Records,
}

/// The input at the end of a run, for [`Ledger::close`].
#[derive(Debug, Clone, Default)]
pub(crate) struct InputAtEnd {
    /// Milli-records that arrived over the run, over all tasks.
    pub arrived_milli: u128,
    /// Each task's backlog still waiting, as its records' ages.
    pub waiting: Vec<Segment>,
}

/// Why a rebalance happens.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Trigger {
    /// A learner the plan asked about caught up.
    CaughtUp,
    /// A probing (follow-up) rebalance came due.
    Probing,
    /// The cooperative protocol's second round after revocations.
    SecondRound,
    /// A join, a leave or a noticed crash.
    Membership,
}

/// What a plan put in force, for the ledger.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct PlanInForce {
    /// Actives that changed client, and the stateful ones among them.
    pub active_moves: ActiveMoves,
    /// Replicas placed on a client that did not hold the task as one.
    pub replica_moves: u64,
    /// Records its actives restore beyond `optimal`'s, when it meets
    /// `optimal`'s share bounds.
    pub over_optimal: Option<u64>,
    /// Its actives outside their task's racks.
    pub cross_rack_actives: u64,
    /// max − min actives per thread over members, × 1000.
    pub imbalance_milli: u64,
    /// The busiest member's load per thread over the mean, × 1000; `None`
    /// without input.
    pub load_imbalance_milli: Option<u64>,
    /// Whether it asks for no follow-up and is balanced (spread ≤ 1).
    pub settled: bool,
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

/// Since when a condition holds (`None`: not now).
#[derive(Debug, Clone, Copy, Default)]
struct Since {
    /// The plan in force settled (no follow-up, balanced).
    settled: Option<SimTime>,
    /// Every task runs.
    available: Option<SimTime>,
    /// Every stateful task has its caught-up standbys.
    redundant: Option<SimTime>,
    /// Every restore is done.
    restored: Option<SimTime>,
    /// No task has a backlog.
    drained: Option<SimTime>,
}

/// Every accumulator of a run (module doc).
#[derive(Debug, Clone)]
pub(crate) struct Ledger {
    totals: RunMetrics,
    samples: Vec<Sample>,
    window: Window,
    since: Since,
    /// The last scripted or churn event: times to converge count from it.
    last_event: SimTime,
    /// Of the plan in force: its imbalance, its load imbalance and its
    /// cross-rack actives.
    imbalance_milli: u64,
    load_imbalance_milli: Option<u64>,
    cross_rack_actives: u64,
    /// Input records by how long they waited.
    delays: DelayHistogram,
    /// Events whose backlog is not known to be gone yet: each one's time.
    undrained: Vec<SimTime>,
    /// Events at the instant of the last [`Ledger::event`], not yet seen by
    /// [`Ledger::conditions`].
    arriving: Vec<SimTime>,
    /// Milli-records restored: by all readers, by actives, by replicas
    /// following their actives, across racks.
    restored_milli: u128,
    restored_active_milli: u128,
    steady_milli: u128,
    cross_rack_milli: u128,
    /// Each task's closed outages, and the longest one.
    task_down: IxVec<TaskIx, Millis>,
    max_outage: Millis,
}

impl Ledger {
    /// An empty ledger for `tasks` tasks.
    pub(crate) fn new(tasks: usize) -> Ledger {
        Ledger {
            totals: RunMetrics::default(),
            samples: Vec::new(),
            window: Window::default(),
            since: Since::default(),
            last_event: SimTime::ZERO,
            imbalance_milli: 0,
            load_imbalance_milli: None,
            cross_rack_actives: 0,
            delays: DelayHistogram::default(),
            undrained: Vec::new(),
            arriving: Vec::new(),
            restored_milli: 0,
            restored_active_milli: 0,
            steady_milli: 0,
            cross_rack_milli: 0,
            task_down: IxVec::from_elem(Millis::ZERO, tasks),
            max_outage: Millis::ZERO,
        }
    }

    /// Forgets what the initial plan counted: it is not a rebalance, and
    /// the cluster starts warm.
    pub(crate) fn started(&mut self) {
        self.totals = RunMetrics::default();
        self.steady_milli = 0;
        self.max_outage = Millis::ZERO;
        self.task_down.iter_mut().for_each(|d| *d = Millis::ZERO);
        self.delays = DelayHistogram::default();
        // The start counts as an event for the drain: a cluster
        // overloaded from the start never drains.
        self.arriving.push(SimTime::ZERO);
    }

    /// A rebalance for `trigger`.
    pub(crate) fn rebalance(&mut self, trigger: Trigger) {
        let t = &mut self.totals;
        match trigger {
            Trigger::Membership => t.membership_rebalances += 1,
            Trigger::Probing => t.probing_rebalances += 1,
            Trigger::CaughtUp => t.caught_up_rebalances += 1,
            Trigger::SecondRound => t.second_round_rebalances += 1,
        }
    }

    /// The plan a rebalance at `now` put in force.
    ///
    /// # Errors
    ///
    /// An [`Overflow`] of `restore_over_optimal.records`.
    pub(crate) fn plan(&mut self, now: SimTime, plan: PlanInForce) -> Result<(), Overflow> {
        let t = &mut self.totals;
        if let Some(excess) = plan.over_optimal {
            t.restore_over_optimal_records = t
                .restore_over_optimal_records
                .plus(Records::new(excess), "restore_over_optimal.records")?;
            t.rebalances_within_optimal_shares += 1;
        }
        t.active_moves += plan.active_moves.total;
        t.stateful_active_moves += plan.active_moves.stateful;
        t.standby_moves += plan.replica_moves;
        self.cross_rack_actives = plan.cross_rack_actives;
        self.imbalance_milli = plan.imbalance_milli;
        self.load_imbalance_milli = plan.load_imbalance_milli;
        if !plan.settled {
            self.since.settled = None;
        } else if self.since.settled.is_none() {
            self.since.settled = Some(now);
        }
        Ok(())
    }

    /// Something changed that unsettles the group (membership, a crash).
    pub(crate) fn unsettle(&mut self) {
        self.since.settled = None;
    }

    /// A scripted or churn event happened at `now`.
    pub(crate) fn event(&mut self, now: SimTime) {
        self.last_event = now;
        self.arriving.push(now);
    }

    /// The events whose backlog is gone (the world is drained now, since
    /// `drained`), each its time from the event to then (0 when it made no
    /// backlog); `all`: every event, else only those before now.
    fn drain_events(&mut self, now: SimTime, drained: Option<SimTime>, all: bool) {
        let Some(since) = drained else { return };
        let m = &mut self.totals;
        self.undrained.retain(|&e| {
            if !all && e >= now {
                return true;
            }
            let took = since.max(e).since(e);
            let worst = m.worst_event_drain_ms.get_or_insert(Millis::ZERO);
            *worst = (*worst).max(took);
            m.event_drains.push((e, Some(took)));
            false
        });
    }

    /// `n` tasks lost every copy of their state.
    pub(crate) fn lost_every_copy(&mut self, n: u64) {
        self.totals.tasks_lost_every_copy += n;
    }

    /// Task `t`'s outage of `length` ended.
    pub(crate) fn outage(&mut self, t: TaskIx, length: Millis) {
        self.task_down[t] = self.task_down[t]
            .checked_plus(length)
            .unwrap_or(Millis::MAX);
        self.max_outage = self.max_outage.max(length);
    }

    /// Notes, at `now`, which of the cluster-wide conditions hold (every
    /// task running, every stateful task covered, every restore done, no
    /// backlog) and the replica pile-up.
    pub(crate) fn conditions(&mut self, now: SimTime, census: &Census) {
        let since = |holds: bool, since: Option<SimTime>| holds.then(|| since.unwrap_or(now));
        let s = &mut self.since;
        let running = census.down_stateful + census.down_stateless == 0;
        s.drained = since(census.drained, s.drained);
        // An event is drained when the world is drained at a later instant
        // (the backlogs it made are gone; none arose, or they drained before
        // the next event came): events of this instant wait for the next.
        let drained = s.drained;
        self.drain_events(now, drained, false);
        self.undrained.append(&mut self.arriving);
        let s = &mut self.since;
        s.available = since(running, s.available);
        s.redundant = since(census.covered == census.stateful, s.redundant);
        s.restored = since(census.restored, s.restored);
        self.window.max_replicas = self.window.max_replicas.max(census.max_replicas);
        let t = &mut self.totals;
        t.max_replicas_per_client = t.max_replicas_per_client.max(census.max_replicas);
    }

    /// A stretch of `dt` from now, rates and states constant as `census`
    /// counted them: outages, coverage, imbalance, cross-rack actives and
    /// the sample window.
    ///
    /// # Errors
    ///
    /// An [`Overflow`] naming the metric.
    pub(crate) fn stretch(&mut self, dt: Millis, census: &Census) -> Result<(), Overflow> {
        let m = &mut self.totals;
        m.covered_task_ms = accumulate(m.covered_task_ms, census.covered, dt, "standby_coverage")?;
        let add = |sum: Millis, n: u64, what: &str| {
            dt.checked_times(n)
                .ok_or_else(|| Overflow::of(what))
                .and_then(|span| sum.plus(span, what))
        };
        m.unavailable_stateful_task_ms = add(
            m.unavailable_stateful_task_ms,
            census.down_stateful,
            "unavailable_task_s.stateful",
        )?;
        m.unavailable_stateless_task_ms = add(
            m.unavailable_stateless_task_ms,
            census.down_stateless,
            "unavailable_task_s.stateless",
        )?;
        m.imbalance_milli_ms = accumulate(
            m.imbalance_milli_ms,
            self.imbalance_milli,
            dt,
            "imbalance.time_weighted",
        )?;
        if let Some(load) = self.load_imbalance_milli {
            m.load_imbalance_milli_ms = Some(accumulate(
                m.load_imbalance_milli_ms.unwrap_or(0),
                load,
                dt,
                "load_imbalance.time_weighted",
            )?);
        }
        m.cross_rack_active_task_ms = accumulate(
            m.cross_rack_active_task_ms,
            self.cross_rack_actives,
            dt,
            "cross_rack_actives",
        )?;
        let w = &mut self.window;
        w.available_task_ms = accumulate(w.available_task_ms, census.running, dt, "samples")?;
        w.restoring_task_ms = accumulate(w.restoring_task_ms, census.restoring, dt, "samples")?;
        w.imbalance_milli_ms =
            accumulate(w.imbalance_milli_ms, self.imbalance_milli, dt, "samples")?;
        Ok(())
    }

    /// What flowed over a stretch: records restored and the input backlog.
    ///
    /// # Errors
    ///
    /// An [`Overflow`] naming the metric.
    pub(crate) fn flow(&mut self, flow: &Flow) -> Result<(), Overflow> {
        let total = |sum: u128, milli: u128, what: &str| {
            sum.checked_add(milli).ok_or_else(|| Overflow::of(what))
        };
        self.restored_milli = total(self.restored_milli, flow.restored, "restored_records.total")?;
        self.restored_active_milli = total(
            self.restored_active_milli,
            flow.restored_active,
            "restored_records.active",
        )?;
        self.steady_milli = total(
            self.steady_milli,
            flow.steady,
            "restored_records.steady_replication",
        )?;
        self.cross_rack_milli =
            total(self.cross_rack_milli, flow.cross_rack, "cross_rack_records")?;
        self.delays.on_time(flow.on_time);
        for segment in &flow.delays {
            self.delays.add(segment);
        }
        if let Some((twice, backlog)) = flow.backlog {
            let m = &mut self.totals;
            m.backlog_twice_milli_ms =
                total(m.backlog_twice_milli_ms, twice, "backlog.mean_records")?;
            m.max_backlog_milli = m
                .max_backlog_milli
                .max(u64::try_from(backlog).unwrap_or(u64::MAX));
            let w = &mut self.window;
            w.backlog_twice_milli_ms = total(w.backlog_twice_milli_ms, twice, "samples")?;
        }
        Ok(())
    }

    /// The sample at `now`, of the world as `census` counted it (with
    /// `backlog_milli` milli-records of input behind, over all tasks): the
    /// values at time 0, else the means over the interval since the last
    /// sample.
    ///
    /// # Errors
    ///
    /// An [`Overflow`] of the records restored so far.
    pub(crate) fn sample(
        &mut self,
        now: SimTime,
        census: &Census,
        backlog_milli: u128,
    ) -> Result<(), Overflow> {
        let restored_records = records_of(self.restored_milli, "restored_records.total")?;
        let span = u128::from(now.since(self.window.from).get());
        let w = self.window;
        let mean = |integral: u128| {
            u64::try_from((integral * 1000 + span / 2) / span.max(1)).unwrap_or(u64::MAX)
        };
        let sample = if now == SimTime::ZERO {
            Sample {
                t_ms: now,
                available_tasks_milli: census.running * 1000,
                restoring_tasks_milli: census.restoring * 1000,
                imbalance_milli: self.imbalance_milli,
                max_replicas_per_client: census.max_replicas,
                backlog_records: u64::try_from((backlog_milli + 500) / 1000).unwrap_or(u64::MAX),
                restored_records,
            }
        } else {
            Sample {
                t_ms: now,
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
            from: now,
            max_replicas: census.max_replicas,
            ..Window::default()
        };
        Ok(())
    }

    /// The run's metrics and samples at its end, `now`: the outages still
    /// open (`open`: each task's, since when) count to the end, the
    /// conditions are noted a last time (`census`), `final_members` members
    /// are in the group, and `input` tells what input arrived and is still
    /// waiting.
    ///
    /// # Errors
    ///
    /// An [`Overflow`] of a total in records.
    pub(crate) fn close(
        mut self,
        now: SimTime,
        open: impl IntoIterator<Item = (TaskIx, SimTime)>,
        census: &Census,
        final_members: u64,
        input: &InputAtEnd,
    ) -> Result<(RunMetrics, Vec<Sample>), Overflow> {
        for (t, since) in open {
            self.outage(t, now.since(since));
        }
        let active = records_of(self.restored_active_milli, "restored_records.active")?;
        let replica = records_of(
            self.restored_milli - self.restored_active_milli,
            "restored_records.replica",
        )?;
        let cross_rack = records_of(self.cross_rack_milli, "cross_rack_records")?;
        let steady = records_of(self.steady_milli, "restored_records.steady_replication")?;
        self.conditions(now, census);
        let drained = self.since.drained;
        self.undrained.append(&mut self.arriving);
        self.drain_events(now, drained, true);
        if self.undrained.is_empty() {
            self.totals.worst_event_drain_ms.get_or_insert(Millis::ZERO);
        } else {
            self.totals.worst_event_drain_ms = None;
        }
        let never = self.undrained.iter().map(|&e| (e, None));
        self.totals.event_drains.extend(never);
        // Resolved in batches; stable, so events of one instant keep their order.
        self.totals.event_drains.sort_by_key(|&(e, _)| e);
        for segment in &input.waiting {
            self.delays.add(segment);
        }
        let m = &mut self.totals;
        m.final_backlog = records_of(
            input.waiting.iter().map(|s| s.mass).sum(),
            "throughput_deficit.records",
        )?;
        m.input_records = records_of(input.arrived_milli, "throughput_deficit.share")?;
        m.delay_ms = self
            .delays
            .percentile(50)
            .zip(self.delays.percentile(99))
            .zip(self.delays.max())
            .map(|((p50, p99), max)| [p50, p99, max]);
        m.final_load_imbalance_milli = self.load_imbalance_milli;
        m.max_outage_ms = self.max_outage;
        m.task_down_ms = self.task_down.into_raw();
        m.restored_active_records = active;
        m.restored_replica_records = replica;
        m.steady_replica_records = steady;
        m.cross_rack_records = cross_rack;
        m.final_imbalance_milli = self.imbalance_milli;
        m.final_members = final_members;
        // Settled before the last event (one that changed nothing): 0.
        let last_event = self.last_event;
        let after_last_event = |since: Option<SimTime>| since.map(|s| s.since(last_event));
        let s = self.since;
        m.converge_ms = after_last_event(s.settled);
        m.full_availability_ms = after_last_event(s.available);
        m.full_redundancy_ms = after_last_event(s.redundant);
        m.restores_done_ms = after_last_event(s.restored);
        m.drained_ms = after_last_event(s.drained);
        Ok((self.totals, self.samples))
    }
}
