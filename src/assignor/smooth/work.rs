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
    /// Actives each client is headed for: its actives, plus warm-ups on it,
    /// minus its actives with a warm-up elsewhere.
    pub count: IxVec<ClientIx, usize>,
    /// Each client's share bounds (⌊T·k/K⌋, ⌈T·k/K⌉) of all tasks.
    pub bounds: IxVec<ClientIx, (usize, usize)>,
    /// Clients by (load, id), the load of `count`.
    by_load: BTreeSet<(u128, ClientIx)>,
    /// Actives of each client, stateless and stateful apart, in task order.
    pub stateless_on: IxVec<ClientIx, BTreeSet<TaskIx>>,
    pub stateful_on: IxVec<ClientIx, BTreeSet<TaskIx>>,
    /// Warm-ups placed so far.
    pub warmups: usize,
}

impl<'a> Work<'a> {
    pub fn new(state: &'a ClusterState) -> Work<'a> {
        let clients = state.clients().len();
        let tasks = state.tasks().len();
        let mut work = Work {
            state,
            owner: IxVec::from_elem(None, tasks),
            warmup: IxVec::from_elem(None, tasks),
            count: IxVec::from_elem(0, clients),
            bounds: IxVec::from_raw(share_bounds(state, tasks)),
            by_load: BTreeSet::new(),
            stateless_on: IxVec::from_elem(BTreeSet::new(), clients),
            stateful_on: IxVec::from_elem(BTreeSet::new(), clients),
            warmups: 0,
        };
        for c in state.client_ixs() {
            work.by_load.insert((work.load(c), c));
        }
        work
    }

    /// Every client, ascending.
    pub fn clients(&self) -> impl DoubleEndedIterator<Item = ClientIx> + Clone {
        self.count.indices()
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

    /// The load of client `c`: its count per thread, exactly comparable.
    pub fn load(&self, c: ClientIx) -> u128 {
        load_of(self.count[c], self.client(c).capacity)
    }

    /// Changes a client's count, keeping the index by load.
    fn set_count(&mut self, c: ClientIx, count: usize) {
        self.by_load.remove(&(self.load(c), c));
        self.count[c] = count;
        self.by_load.insert((self.load(c), c));
    }

    /// The least loaded client `skip` does not reject; ties by id.
    pub fn least_loaded(&self, skip: impl Fn(ClientIx) -> bool) -> Option<ClientIx> {
        self.by_load.iter().map(|&(_, c)| c).find(|&c| !skip(c))
    }

    /// The most loaded client `skip` does not reject; ties by the highest id.
    pub fn most_loaded(&self, skip: impl Fn(ClientIx) -> bool) -> Option<ClientIx> {
        self.by_load
            .iter()
            .rev()
            .map(|&(_, c)| c)
            .find(|&c| !skip(c))
    }

    /// Places task `t`'s active on `c`.
    pub fn place(&mut self, t: TaskIx, c: ClientIx) {
        debug_assert!(self.owner[t].is_none());
        self.owner[t] = Some(c);
        self.on(c, t).insert(t);
        self.set_count(c, self.count[c] + 1);
    }

    /// Moves task `t`'s active from its owner to `c` now.
    pub fn move_active(&mut self, t: TaskIx, c: ClientIx) {
        let from = self.owner[t].expect("a placed task");
        self.on(from, t).remove(&t);
        self.set_count(from, self.count[from] - 1);
        self.owner[t] = None;
        self.place(t, c);
    }

    /// Puts a warm-up of task `t` on `c`: `c` is headed for the active.
    pub fn warm_up(&mut self, t: TaskIx, c: ClientIx) {
        let from = self.owner[t].expect("a placed task");
        self.on(from, t).remove(&t);
        self.set_count(from, self.count[from] - 1);
        self.set_count(c, self.count[c] + 1);
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

/// `count / capacity` as an integer that orders exactly: the count scaled by
/// 2^64 over the capacity (capacities are at least 1 and at most 2^32 − 1,
/// counts below 2^32: two different loads differ by more than 2^-64, so
/// their scaled values differ, and equal loads are equal).
pub(super) fn load_of(count: usize, capacity: u32) -> u128 {
    ((count as u128) << 64) / u128::from(capacity.max(1))
}
