//! The working assignment of one `smooth` run: who runs each task, where
//! warm-ups go, how many actives each client is headed for, and the index of
//! clients by load that every pass picks from.
//!
//! Clients and tasks are referred to by their typed position ([`ClientIx`],
//! [`TaskIx`]) in the sorted lists of the [`ClusterState`], so index order is
//! id order and every tie broken by the index is broken by the id; per-task
//! and per-client values are [`IxVec`]s, which a position of the other kind
//! cannot index.

use std::collections::BTreeSet;

use crate::assignor::share::share_bounds;
use crate::model::{Client, ClientIx, ClusterState, IxVec, Lag, TaskIx};

/// The assignment being built.
pub(super) struct Work<'a> {
    pub state: &'a ClusterState,
    /// Each task's active client (`None` until placed).
    pub owner: IxVec<TaskIx, Option<ClientIx>>,
    /// Each task's warm-up client (at most one per task).
    pub warmup: IxVec<TaskIx, Option<ClientIx>>,
    /// Each task's weight, its observed input rate, when every task has one
    /// and one is above 0 ([`weights`]); else `None` and only counts matter.
    pub weight: Option<IxVec<TaskIx, u64>>,
    /// Stateful actives each client is headed for: its stateful actives,
    /// plus warm-ups on it, minus its actives with a warm-up elsewhere.
    pub stateful: Measure,
    /// Actives each client runs, all tasks (a warm-up's task where it runs);
    /// from the stateless pass on, its stateless actives plus its stateful
    /// count held within its share bounds ([`Work::settle_stateful`]).
    pub total: Measure,
    /// The input load each client runs now: the weights of its actives.
    pub input: Measure,
    /// Actives of each client, stateless and stateful apart, in task order
    /// (a stateful active with a warm-up elsewhere is no longer listed).
    pub stateless_on: IxVec<ClientIx, BTreeSet<TaskIx>>,
    pub stateful_on: IxVec<ClientIx, BTreeSet<TaskIx>>,
    /// Warm-ups placed so far.
    pub warmups: usize,
}

/// One quantity summed per client: each client's load, the range its share
/// allows, and the clients by load per thread.
pub(super) struct Measure {
    /// Each client's load.
    pub load: IxVec<ClientIx, u64>,
    /// Each client's share range `(lo, hi)`: of `n` actives, `⌊n·k/K⌋` to
    /// `⌈n·k/K⌉` (k its threads, K all threads); unbounded for the input.
    pub bounds: IxVec<ClientIx, (u64, u64)>,
    capacity: IxVec<ClientIx, u32>,
    /// The clients by load per thread, while `indexed`.
    by_load: BTreeSet<(u128, ClientIx)>,
    /// Whether `by_load` is kept: a measure no pass reads yet keeps its
    /// loads only ([`Measure::index`] builds it).
    indexed: bool,
}

impl Measure {
    /// A count of `n` actives over `state`'s clients, each 0 so far.
    fn counting(state: &ClusterState, n: usize) -> Measure {
        let bounds = share_bounds(state, n)
            .into_iter()
            .map(|(lo, hi)| (lo as u64, hi as u64))
            .collect();
        Measure::with_bounds(state, bounds)
    }

    /// A sum without bounds over `state`'s clients, each 0 so far.
    fn unbounded(state: &ClusterState) -> Measure {
        Measure::with_bounds(
            state,
            IxVec::from_elem((0, u64::MAX), state.clients().len()),
        )
    }

    fn with_bounds(state: &ClusterState, bounds: IxVec<ClientIx, (u64, u64)>) -> Measure {
        let capacity: IxVec<ClientIx, u32> = state.clients().iter().map(|c| c.capacity).collect();
        Measure {
            load: IxVec::from_elem(0, capacity.len()),
            bounds,
            capacity,
            by_load: BTreeSet::new(),
            indexed: false,
        }
    }

    /// Builds the index by load (O(C log C)) and keeps it from now on.
    pub fn index(&mut self) {
        self.by_load = self
            .load
            .indices()
            .map(|c| (self.per_thread(c), c))
            .collect();
        self.indexed = true;
    }

    /// Client `c`'s threads.
    pub fn threads(&self, c: ClientIx) -> u32 {
        self.capacity[c]
    }

    /// Client `c`'s load per thread, exactly comparable.
    pub fn per_thread(&self, c: ClientIx) -> u128 {
        load_of(self.load[c], self.capacity[c])
    }

    /// What client `c`'s load per thread would be at `load`.
    pub fn per_thread_at(&self, c: ClientIx, load: u64) -> u128 {
        load_of(load, self.capacity[c])
    }

    fn set(&mut self, c: ClientIx, load: u64) {
        if self.indexed {
            self.by_load.remove(&(self.per_thread(c), c));
        }
        self.load[c] = load;
        if self.indexed {
            self.by_load.insert((self.per_thread(c), c));
        }
    }

    fn add(&mut self, c: ClientIx, w: u64) {
        self.set(c, self.load[c] + w);
    }

    fn sub(&mut self, c: ClientIx, w: u64) {
        self.set(c, self.load[c] - w);
    }

    /// Whether `c` stays within its upper bound with one more.
    pub fn fits(&self, c: ClientIx) -> bool {
        self.load[c] < self.bounds[c].1
    }

    /// Whether `c` stays within its lower bound with one less.
    pub fn gives(&self, c: ClientIx) -> bool {
        self.load[c] > self.bounds[c].0
    }

    /// Whether `c` is above its upper bound.
    pub fn over(&self, c: ClientIx) -> bool {
        self.load[c] > self.bounds[c].1
    }

    /// Whether `c` is below its lower bound.
    pub fn under(&self, c: ClientIx) -> bool {
        self.load[c] < self.bounds[c].0
    }

    /// The clients from the least loaded up; ties by id. (Indexed only.)
    pub fn ascending(&self) -> impl Iterator<Item = ClientIx> + '_ {
        debug_assert!(self.indexed);
        self.by_load.iter().map(|&(_, c)| c)
    }

    /// The least loaded client `skip` does not reject; ties by id.
    pub fn least_loaded(&self, skip: impl Fn(ClientIx) -> bool) -> Option<ClientIx> {
        self.ascending().find(|&c| !skip(c))
    }

    /// The most loaded client `skip` does not reject; ties by the highest id.
    /// (Indexed only.)
    pub fn most_loaded(&self, skip: impl Fn(ClientIx) -> bool) -> Option<ClientIx> {
        debug_assert!(self.indexed);
        self.by_load
            .iter()
            .rev()
            .map(|&(_, c)| c)
            .find(|&c| !skip(c))
    }
}

/// The heaviest weight a task may have, so that the weights of up to 2^32
/// tasks sum within u64: an input rate above it (4.3 billion records/s on
/// one task) weighs as much as it.
const MAX_WEIGHT: u64 = u32::MAX as u64;

/// Each task's weight: its observed input rate (at most [`MAX_WEIGHT`]),
/// when every task has one and one is above 0; else `None`.
pub(super) fn weights(state: &ClusterState) -> Option<IxVec<TaskIx, u64>> {
    let rates: Vec<u64> = state
        .tasks()
        .iter()
        .map(|t| t.input_rate)
        .collect::<Option<_>>()?;
    rates
        .iter()
        .any(|&r| r > 0)
        .then(|| rates.into_iter().map(|r| r.min(MAX_WEIGHT)).collect())
}

impl<'a> Work<'a> {
    pub fn new(state: &'a ClusterState) -> Work<'a> {
        let clients = state.clients().len();
        let tasks = state.tasks().len();
        let stateful = state.stateful_flags().iter().filter(|&&s| s).count();
        let mut counted = Measure::counting(state, stateful);
        counted.index();
        Work {
            state,
            owner: IxVec::from_elem(None, tasks),
            warmup: IxVec::from_elem(None, tasks),
            weight: weights(state),
            stateful: counted,
            total: Measure::counting(state, tasks),
            input: Measure::unbounded(state),
            stateless_on: IxVec::from_elem(BTreeSet::new(), clients),
            stateful_on: IxVec::from_elem(BTreeSet::new(), clients),
            warmups: 0,
        }
    }

    /// Counts each client's stateful actives in `total` as what the
    /// stateful balance will bring them to: its count now held within its
    /// share bounds. A client that will receive stateful actives over the
    /// next rebalances (its warm-ups come in rounds) is not filled up with
    /// stateless ones it would shed again when they arrive, nor is a donor
    /// relieved of stateless ones it would take back.
    pub fn settle_stateful(&mut self) {
        for c in self.clients() {
            let (lo, hi) = self.stateful.bounds[c];
            let settled = self.stateful.load[c].clamp(lo, hi);
            self.total
                .set(c, self.stateless_on[c].len() as u64 + settled);
        }
    }

    /// Task `t`'s weight (0 without weights).
    pub fn weight_of(&self, t: TaskIx) -> u64 {
        self.weight.as_ref().map_or(0, |w| w[t])
    }

    /// Every client, ascending.
    pub fn clients(&self) -> impl DoubleEndedIterator<Item = ClientIx> + Clone {
        self.total.load.indices()
    }

    /// Every task, ascending.
    pub fn tasks(&self) -> impl DoubleEndedIterator<Item = TaskIx> + Clone {
        self.owner.indices()
    }

    /// The client at `c`.
    pub fn client(&self, c: ClientIx) -> &'a Client {
        &self.state.clients()[c.index()]
    }

    /// Whether task `t` is stateful.
    pub fn stateful(&self, t: TaskIx) -> bool {
        self.state.stateful_flags()[t.index()]
    }

    /// Task `t`'s changelog end offset: what it restores from nothing.
    pub fn end_offset(&self, t: TaskIx) -> u64 {
        self.state.end_offsets()[t.index()]
    }

    /// Places task `t`'s active on `c`.
    pub fn place(&mut self, t: TaskIx, c: ClientIx) {
        debug_assert!(self.owner[t].is_none());
        self.owner[t] = Some(c);
        self.on(c, t).insert(t);
        if self.stateful(t) {
            self.stateful.add(c, 1);
        }
        self.total.add(c, 1);
        self.input.add(c, self.weight_of(t));
    }

    /// Moves task `t`'s active from its owner to `c` now.
    pub fn move_active(&mut self, t: TaskIx, c: ClientIx) {
        let from = self.owner[t].expect("a placed task");
        self.on(from, t).remove(&t);
        if self.stateful(t) {
            self.stateful.sub(from, 1);
        }
        self.total.sub(from, 1);
        self.input.sub(from, self.weight_of(t));
        self.owner[t] = None;
        self.place(t, c);
    }

    /// Puts a warm-up of stateful task `t` on `c`: `c` is headed for the
    /// active, which runs where it is until the warm-up has caught up.
    pub fn warm_up(&mut self, t: TaskIx, c: ClientIx) {
        let from = self.owner[t].expect("a placed task");
        self.on(from, t).remove(&t);
        self.stateful.sub(from, 1);
        self.stateful.add(c, 1);
        self.warmup[t] = Some(c);
        self.warmups += 1;
    }

    fn on(&mut self, c: ClientIx, t: TaskIx) -> &mut BTreeSet<TaskIx> {
        if self.stateful(t) {
            &mut self.stateful_on[c]
        } else {
            &mut self.stateless_on[c]
        }
    }

    /// Client `c`'s lag on task `t` (a stateful task without a report: its
    /// end offset).
    pub fn lag(&self, c: ClientIx, t: TaskIx) -> Lag {
        self.state
            .lag(self.client(c), &self.state.tasks()[t.index()])
    }

    /// Whether client `c` is caught up on task `t`.
    pub fn caught_up(&self, c: ClientIx, t: TaskIx) -> bool {
        self.lag(c, t)
            .is_caught_up(self.state.config().acceptable_recovery_lag)
    }
}

/// `load / capacity` as an integer that orders exactly: the load scaled by
/// 2^64 over the capacity, rounded down. Capacities are at least 1 and below
/// 2^32, so two different quotients differ by at least 1/(k1·k2) > 2^-64:
/// their scaled values differ by more than 1 and keep their order; equal
/// quotients give equal values.
pub(super) fn load_of(load: u64, capacity: u32) -> u128 {
    (u128::from(load) << 64) / u128::from(capacity.max(1))
}
