//! The mutable assignment the KIP-441 steps build, indexed by position.
//!
//! Clients and tasks are referred to by their typed position ([`ClientIx`],
//! [`TaskIx`]) in the sorted lists of the [`ClusterState`], so index order is
//! id order and every tie Kafka breaks by process id is broken by the index.
//!
//! The placement is stored by task: each task's active owner and its replicas
//! (a short sorted list, inline for up to four), plus each client's counts.
//! That is all the movement steps read, and it keeps the working set small
//! and in task order. The balance passes and the pairwise standby optimiser
//! also walk a client's tasks in order: for them [`Work::index_clients`]
//! builds per-client sets in one pass over the tasks, kept up to date until
//! [`Work::forget_clients`]. The plan's per-client lists are one [`Rows`]
//! bucketing of the tasks.
//!
//! The `by_load` index orders every client by its assigned load, which makes
//! Kafka's `ConstrainedPrioritySet::poll` an ordered walk instead of a re-keyed
//! queue. It is re-keyed lazily: a change only marks the client, and the marked
//! clients are re-keyed when the order is next read — most changes (task
//! movements, balance moves) happen between reads, and a client changed many
//! times is re-keyed once.

use std::cell::RefCell;
use std::collections::BTreeSet;

use smallvec::SmallVec;

use super::rows::Rows;
use crate::assignor::common::plan_of;
pub(super) use crate::assignor::load::Load;
use crate::model::{ClientIx, ClientPlan, ClusterState, IxVec, Plan, TaskId, TaskIx};

/// Which of a client's sets a step works on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Role {
    Active,
    Standby,
}

/// What a client holds of a task besides the active.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Replica {
    Standby,
    Warmup,
}

/// A task's replicas, sorted by client: each entry is `client << 1`, plus 1
/// for a warm-up (a client holds at most one replica of a task, so the order
/// of entries is the order of clients). A state has at most
/// [`crate::model::MAX_CLIENTS`] (2^30) clients, so the shift cannot overflow.
type Replicas = SmallVec<[u32; 4]>;

/// A task's owner slot when no client runs it.
const NO_OWNER: u32 = u32::MAX;

/// How many tasks of each kind a client holds.
#[derive(Debug, Clone, Copy, Default)]
struct Counts {
    active: u32,
    standby: u32,
    warmup: u32,
}

/// Per-client ordered sets of actives and standbys, for the steps that walk a
/// client's tasks in order.
struct ClientSets {
    active: IxVec<ClientIx, BTreeSet<TaskIx>>,
    standby: IxVec<ClientIx, BTreeSet<TaskIx>>,
}

/// The placement by task, with per-client counts and the indexes the steps
/// need.
pub(super) struct Work {
    pub capacity: IxVec<ClientIx, u32>,
    counts: IxVec<ClientIx, Counts>,
    /// The client running each task as active ([`ClientIx::raw`]), or
    /// `NO_OWNER`.
    owner: IxVec<TaskIx, u32>,
    replicas: IxVec<TaskIx, Replicas>,
    /// Per-client sets while a step needs them ([`Work::index_clients`]).
    sets: Option<ClientSets>,
    /// Every client keyed by (assigned load, index): Kafka's "least loaded"
    /// order, re-keyed when read.
    by_load: RefCell<LoadOrder>,
}

/// Clients ordered by (load, index), with the clients whose key may be stale.
struct LoadOrder {
    set: BTreeSet<(Load, ClientIx)>,
    /// The load each client is filed under in `set`.
    key: IxVec<ClientIx, Load>,
    /// Clients changed since the last read, each once.
    dirty: Vec<ClientIx>,
    is_dirty: IxVec<ClientIx, bool>,
}

impl LoadOrder {
    fn new(loads: impl Iterator<Item = Load>) -> LoadOrder {
        let key: IxVec<ClientIx, Load> = loads.collect();
        let n = key.len();
        LoadOrder {
            set: key.iter_enumerated().map(|(c, &l)| (l, c)).collect(),
            key,
            dirty: Vec::new(),
            is_dirty: IxVec::from_elem(false, n),
        }
    }

    fn mark(&mut self, c: ClientIx) {
        if !self.is_dirty[c] {
            self.is_dirty[c] = true;
            self.dirty.push(c);
        }
    }

    /// Re-files every marked client under its current load.
    fn refresh(&mut self, load: impl Fn(ClientIx) -> Load) {
        for c in std::mem::take(&mut self.dirty) {
            self.is_dirty[c] = false;
            let now = load(c);
            if now != self.key[c] {
                self.set.remove(&(self.key[c], c));
                self.set.insert((now, c));
                self.key[c] = now;
            }
        }
    }
}

/// The entry of `c` in a task's replica list.
fn entry(c: ClientIx, kind: Replica) -> u32 {
    debug_assert!(
        c.index() < crate::model::MAX_CLIENTS,
        "checked by the state"
    );
    (c.raw() << 1) | u32::from(kind == Replica::Warmup)
}

fn client_of(entry: u32) -> ClientIx {
    ClientIx::from_raw(entry >> 1)
}

fn kind_of(entry: u32) -> Replica {
    if entry & 1 == 1 {
        Replica::Warmup
    } else {
        Replica::Standby
    }
}

impl Work {
    pub(super) fn new(state: &ClusterState) -> Work {
        let capacity: IxVec<ClientIx, u32> = state.clients().iter().map(|c| c.capacity).collect();
        let n = capacity.len();
        let t = state.tasks().len();
        let by_load = RefCell::new(LoadOrder::new((0..n).map(|_| Load(0.0))));
        Work {
            capacity,
            counts: IxVec::from_elem(Counts::default(), n),
            owner: IxVec::from_elem(NO_OWNER, t),
            replicas: IxVec::from_elem(Replicas::new(), t),
            sets: None,
            by_load,
        }
    }

    pub(super) fn client_count(&self) -> usize {
        self.capacity.len()
    }

    /// Every client, ascending.
    pub(super) fn clients(&self) -> impl DoubleEndedIterator<Item = ClientIx> + Clone {
        self.capacity.indices()
    }

    /// Every task, ascending.
    pub(super) fn all_tasks(&self) -> impl DoubleEndedIterator<Item = TaskIx> + Clone {
        self.owner.indices()
    }

    /// Actives, standbys and warm-ups on `c`.
    pub(super) fn assigned_count(&self, c: ClientIx) -> usize {
        let n = self.counts[c];
        (n.active + n.standby + n.warmup) as usize
    }

    /// Kafka's `assignedTaskLoad`: all replicas per thread.
    pub(super) fn assigned_load(&self, c: ClientIx) -> Load {
        Load::of(self.assigned_count(c), self.capacity[c])
    }

    /// Kafka's `activeTaskLoad`: actives per thread.
    pub(super) fn active_load(&self, c: ClientIx) -> Load {
        Load::of(self.counts[c].active as usize, self.capacity[c])
    }

    /// The client running `t` as active.
    pub(super) fn owner(&self, t: TaskIx) -> Option<ClientIx> {
        let o = self.owner[t];
        (o != NO_OWNER).then(|| ClientIx::from_raw(o))
    }

    /// The clients holding a standby or warm-up of `t`, ascending, with which.
    pub(super) fn replicas(&self, t: TaskIx) -> impl Iterator<Item = (ClientIx, Replica)> + '_ {
        self.replicas[t].iter().map(|&e| (client_of(e), kind_of(e)))
    }

    /// The clients holding a standby of `t`, ascending.
    pub(super) fn standby_holders(&self, t: TaskIx) -> impl Iterator<Item = ClientIx> + '_ {
        self.replicas(t)
            .filter(|&(_, kind)| kind == Replica::Standby)
            .map(|(c, _)| c)
    }

    /// Where `c` sits in `t`'s replica list.
    fn find(&self, c: ClientIx, t: TaskIx) -> Result<usize, usize> {
        self.replicas[t].binary_search_by_key(&c, |&e| client_of(e))
    }

    pub(super) fn holds(&self, c: ClientIx, t: TaskIx) -> bool {
        self.owner(t) == Some(c) || self.find(c, t).is_ok()
    }

    pub(super) fn has_standby(&self, c: ClientIx, t: TaskIx) -> bool {
        self.find(c, t)
            .is_ok_and(|i| kind_of(self.replicas[t][i]) == Replica::Standby)
    }

    /// Builds the per-client sets of actives and standbys (one pass over the
    /// tasks) unless they are already kept; [`Work::tasks`] reads them.
    pub(super) fn index_clients(&mut self) {
        if self.sets.is_some() {
            return;
        }
        let n = self.client_count();
        let mut active: IxVec<ClientIx, Vec<TaskIx>> = IxVec::from_elem(Vec::new(), n);
        let mut standby: IxVec<ClientIx, Vec<TaskIx>> = IxVec::from_elem(Vec::new(), n);
        for t in self.all_tasks() {
            if let Some(c) = self.owner(t) {
                active[c].push(t);
            }
            for c in self.standby_holders(t) {
                standby[c].push(t);
            }
        }
        // Pushed in task order, so each list is sorted: the trees are built
        // in bulk.
        let sets = |lists: IxVec<ClientIx, Vec<TaskIx>>| {
            lists.into_iter().map(BTreeSet::from_iter).collect()
        };
        self.sets = Some(ClientSets {
            active: sets(active),
            standby: sets(standby),
        });
    }

    /// Stops keeping the per-client sets.
    pub(super) fn forget_clients(&mut self) {
        self.sets = None;
    }

    /// `c`'s actives or standbys, ascending; needs [`Work::index_clients`].
    pub(super) fn tasks(&self, c: ClientIx, role: Role) -> &BTreeSet<TaskIx> {
        let sets = self.sets.as_ref().expect("index_clients before tasks");
        match role {
            Role::Active => &sets.active[c],
            Role::Standby => &sets.standby[c],
        }
    }

    pub(super) fn assign(&mut self, c: ClientIx, t: TaskIx, role: Role) {
        debug_assert!(!self.holds(c, t), "client {c} already holds task {t}");
        match role {
            Role::Active => {
                self.owner[t] = c.raw();
                self.counts[c].active += 1;
            }
            Role::Standby => {
                self.add_replica(c, t, Replica::Standby);
            }
        }
        if let Some(sets) = &mut self.sets {
            match role {
                Role::Active => sets.active[c].insert(t),
                Role::Standby => sets.standby[c].insert(t),
            };
        }
        self.by_load.get_mut().mark(c);
    }

    pub(super) fn unassign(&mut self, c: ClientIx, t: TaskIx, role: Role) {
        match role {
            Role::Active => {
                debug_assert_eq!(self.owner(t), Some(c));
                self.owner[t] = NO_OWNER;
                self.counts[c].active -= 1;
            }
            Role::Standby => {
                if let Ok(i) = self.find(c, t) {
                    debug_assert_eq!(kind_of(self.replicas[t][i]), Replica::Standby);
                    self.replicas[t].remove(i);
                    self.counts[c].standby -= 1;
                }
            }
        }
        if let Some(sets) = &mut self.sets {
            match role {
                Role::Active => sets.active[c].remove(&t),
                Role::Standby => sets.standby[c].remove(&t),
            };
        }
        self.by_load.get_mut().mark(c);
    }

    /// Moves `t` on `c` from one role to the other (a swap half); the load is
    /// unchanged.
    pub(super) fn switch_role(&mut self, c: ClientIx, t: TaskIx, from: Role) {
        let to = match from {
            Role::Active => Role::Standby,
            Role::Standby => Role::Active,
        };
        self.unassign(c, t, from);
        self.assign(c, t, to);
    }

    /// Adds a warm-up of `t` on `c`.
    pub(super) fn add_warmup(&mut self, c: ClientIx, t: TaskIx) {
        self.add_replica(c, t, Replica::Warmup);
        self.by_load.get_mut().mark(c);
    }

    fn add_replica(&mut self, c: ClientIx, t: TaskIx, kind: Replica) {
        if let Err(i) = self.find(c, t) {
            self.replicas[t].insert(i, entry(c, kind));
            match kind {
                Replica::Standby => self.counts[c].standby += 1,
                Replica::Warmup => self.counts[c].warmup += 1,
            }
        }
    }

    /// Relabels `c`'s standby of `t` as a warm-up; the load is unchanged.
    pub(super) fn standby_to_warmup(&mut self, c: ClientIx, t: TaskIx) {
        if let Ok(i) = self.find(c, t) {
            self.replicas[t][i] = entry(c, Replica::Warmup);
            self.counts[c].standby -= 1;
            self.counts[c].warmup += 1;
            if let Some(sets) = &mut self.sets {
                sets.standby[c].remove(&t);
            }
        }
    }

    /// The first client in least-loaded order that satisfies `accept`.
    pub(super) fn least_loaded(
        &self,
        mut accept: impl FnMut(ClientIx) -> bool,
    ) -> Option<ClientIx> {
        let order = self.load_order_now();
        let found = order.set.iter().map(|&(_, c)| c).find(|&c| accept(c));
        found
    }

    /// `by_load`, every marked client re-keyed first.
    fn load_order_now(&self) -> std::cell::RefMut<'_, LoadOrder> {
        let mut order = self.by_load.borrow_mut();
        order.refresh(|c| self.assigned_load(c));
        order
    }

    /// `by_load` as read: every (load, client) key in order.
    #[cfg(test)]
    pub(super) fn load_order(&self) -> Vec<(Load, ClientIx)> {
        self.load_order_now().set.iter().copied().collect()
    }

    /// The tasks `c` holds as `kind` (active when `None`), ascending: a scan
    /// of every task, for tests.
    #[cfg(test)]
    pub(super) fn held(&self, c: ClientIx, kind: Option<Replica>) -> BTreeSet<TaskIx> {
        self.all_tasks()
            .filter(|&t| match kind {
                None => self.owner(t) == Some(c),
                Some(k) => self
                    .find(c, t)
                    .is_ok_and(|i| kind_of(self.replicas[t][i]) == k),
            })
            .collect()
    }

    /// The plan this placement describes: every (client, kind) list of ids
    /// bucketed in one pass over the tasks, so each list is in id order.
    pub(super) fn into_plan(self, state: &ClusterState, name: &str) -> Plan {
        let ids = state.task_ids();
        let held: usize = self.clients().map(|c| self.assigned_count(c)).sum();
        let mut buckets: Vec<u32> = Vec::with_capacity(held);
        let mut values: Vec<TaskId> = Vec::with_capacity(held);
        for (t, &id) in self.all_tasks().zip(ids) {
            let active = self.owner(t).map(|c| (c, None));
            let replicas = self.replicas(t).map(|(c, k)| (c, Some(k)));
            for (c, kind) in active.into_iter().chain(replicas) {
                buckets.push(plan_bucket(c, kind));
                values.push(id);
            }
        }
        let rows = Rows::keyed(3 * self.client_count(), &buckets, &values);
        let set = |c: ClientIx, kind: Option<Replica>| {
            rows.row(plan_bucket(c, kind) as usize)
                .iter()
                .copied()
                .collect()
        };
        let plans = self.clients().map(|c| ClientPlan {
            active: set(c, None),
            standby: set(c, Some(Replica::Standby)),
            warmup: set(c, Some(Replica::Warmup)),
        });
        plan_of(state, name, plans)
    }
}

/// The plan list of `c`'s actives (`None`) or replicas of a kind: below
/// `3 · 2^30` since a state has at most [`crate::model::MAX_CLIENTS`] clients.
fn plan_bucket(c: ClientIx, kind: Option<Replica>) -> u32 {
    let k = match kind {
        None => 0,
        Some(Replica::Standby) => 1,
        Some(Replica::Warmup) => 2,
    };
    debug_assert!(
        c.index() < crate::model::MAX_CLIENTS,
        "checked by the state"
    );
    3 * c.raw() + k
}

impl crate::assignor::rack::RackWork for Work {
    fn client_count(&self) -> usize {
        Work::client_count(self)
    }

    fn active_owner(&self, t: TaskIx) -> Option<ClientIx> {
        self.owner(t)
    }

    fn move_active(&mut self, t: TaskIx, from: ClientIx, to: ClientIx) {
        self.unassign(from, t, Role::Active);
        self.assign(to, t, Role::Active);
    }

    /// Needs [`Work::index_clients`].
    fn standbys(&self, c: ClientIx) -> Vec<TaskIx> {
        self.tasks(c, Role::Standby).iter().copied().collect()
    }

    fn holders(&self, t: TaskIx) -> Vec<ClientIx> {
        let mut holders: Vec<ClientIx> = self.replicas(t).map(|(c, _)| c).collect();
        holders.extend(self.owner(t));
        holders.sort_unstable();
        holders
    }

    fn holds(&self, c: ClientIx, t: TaskIx) -> bool {
        Work::holds(self, c, t)
    }

    fn move_standby(&mut self, t: TaskIx, from: ClientIx, to: ClientIx) {
        self.unassign(from, t, Role::Standby);
        self.assign(to, t, Role::Standby);
    }
}
