//! The mutable assignment the KIP-441 steps build, indexed by position.
//!
//! Clients and tasks are referred to by their position in the sorted lists of
//! the [`ClusterState`], so index order is id order and every tie Kafka breaks
//! by process id is broken by the index. The `by_load` index orders every
//! client by its assigned load, which makes Kafka's
//! `ConstrainedPrioritySet::poll` an ordered walk instead of a re-keyed queue.
//! It is re-keyed lazily: a change only marks the client, and the marked
//! clients are re-keyed when the order is next read — most changes (task
//! movements, balance moves) happen between reads, and a client changed many
//! times is re-keyed once.

use std::cell::RefCell;
use std::collections::BTreeSet;

pub(super) use crate::assignor::load::Load;
use crate::assignor::{plan_of, task_ids};
use crate::model::{ClientPlan, ClusterState, Plan};

/// A client index (position in `ClusterState::clients()`).
pub(super) type Client = usize;
/// A task index (position in `ClusterState::tasks()`).
pub(super) type Task = usize;

/// Which of a client's sets a step works on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Role {
    Active,
    Standby,
}

/// Per-client sets of actives, standbys and warm-ups, with the indexes the
/// steps need.
pub(super) struct Work {
    pub capacity: Vec<u32>,
    pub active: Vec<BTreeSet<Task>>,
    pub standby: Vec<BTreeSet<Task>>,
    pub warmup: Vec<BTreeSet<Task>>,
    /// The client running each task as active.
    pub owner: Vec<Option<Client>>,
    /// Clients holding each task as standby or warm-up, ascending: a short
    /// sorted list (a task has a handful of replicas), cheaper than a tree.
    pub replicas: Vec<Vec<Client>>,
    /// Every client keyed by (assigned load, index): Kafka's "least loaded"
    /// order, re-keyed when read.
    by_load: RefCell<LoadOrder>,
}

/// Clients ordered by (load, index), with the clients whose key may be stale.
struct LoadOrder {
    set: BTreeSet<(Load, Client)>,
    /// The load each client is filed under in `set`.
    key: Vec<Load>,
    /// Clients changed since the last read, each once.
    dirty: Vec<Client>,
    is_dirty: Vec<bool>,
}

impl LoadOrder {
    fn new(loads: impl Iterator<Item = Load>) -> LoadOrder {
        let key: Vec<Load> = loads.collect();
        let n = key.len();
        LoadOrder {
            set: key.iter().enumerate().map(|(c, &l)| (l, c)).collect(),
            key,
            dirty: Vec::new(),
            is_dirty: vec![false; n],
        }
    }

    fn mark(&mut self, c: Client) {
        if !self.is_dirty[c] {
            self.is_dirty[c] = true;
            self.dirty.push(c);
        }
    }

    /// Re-files every marked client under its current load.
    fn refresh(&mut self, load: impl Fn(Client) -> Load) {
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

impl Work {
    pub(super) fn new(state: &ClusterState) -> Work {
        let capacity: Vec<u32> = state.clients().iter().map(|c| c.capacity).collect();
        let n = capacity.len();
        let t = state.tasks().len();
        let by_load = RefCell::new(LoadOrder::new((0..n).map(|_| Load(0.0))));
        Work {
            capacity,
            active: vec![BTreeSet::new(); n],
            standby: vec![BTreeSet::new(); n],
            warmup: vec![BTreeSet::new(); n],
            owner: vec![None; t],
            replicas: vec![Vec::new(); t],
            by_load,
        }
    }

    pub(super) fn client_count(&self) -> usize {
        self.capacity.len()
    }

    /// Actives, standbys and warm-ups on `c`.
    pub(super) fn assigned_count(&self, c: Client) -> usize {
        self.active[c].len() + self.standby[c].len() + self.warmup[c].len()
    }

    /// Kafka's `assignedTaskLoad`: all replicas per thread.
    pub(super) fn assigned_load(&self, c: Client) -> Load {
        Load::of(self.assigned_count(c), self.capacity[c])
    }

    /// Kafka's `activeTaskLoad`: actives per thread.
    pub(super) fn active_load(&self, c: Client) -> Load {
        Load::of(self.active[c].len(), self.capacity[c])
    }

    pub(super) fn holds(&self, c: Client, t: Task) -> bool {
        self.owner[t] == Some(c) || self.replicas[t].binary_search(&c).is_ok()
    }

    pub(super) fn has_standby(&self, c: Client, t: Task) -> bool {
        self.standby[c].contains(&t)
    }

    pub(super) fn tasks(&self, c: Client, role: Role) -> &BTreeSet<Task> {
        match role {
            Role::Active => &self.active[c],
            Role::Standby => &self.standby[c],
        }
    }

    /// Changes `c`'s sets with `f`, marking it for `by_load` (O(1): the
    /// re-keying waits for the next read, once per client however often it
    /// changed, and only if its load did).
    fn rekey(&mut self, c: Client, f: impl FnOnce(&mut Work)) {
        f(self);
        self.by_load.get_mut().mark(c);
    }

    pub(super) fn assign(&mut self, c: Client, t: Task, role: Role) {
        debug_assert!(!self.holds(c, t), "client {c} already holds task {t}");
        self.rekey(c, |w| match role {
            Role::Active => {
                w.active[c].insert(t);
                w.owner[t] = Some(c);
            }
            Role::Standby => {
                w.standby[c].insert(t);
                insert_sorted(&mut w.replicas[t], c);
            }
        });
    }

    pub(super) fn unassign(&mut self, c: Client, t: Task, role: Role) {
        self.rekey(c, |w| match role {
            Role::Active => {
                w.active[c].remove(&t);
                w.owner[t] = None;
            }
            Role::Standby => {
                w.standby[c].remove(&t);
                remove_sorted(&mut w.replicas[t], c);
            }
        });
    }

    /// Moves `t` on `c` from one role to the other (a swap half); the load is
    /// unchanged.
    pub(super) fn switch_role(&mut self, c: Client, t: Task, from: Role) {
        let to = match from {
            Role::Active => Role::Standby,
            Role::Standby => Role::Active,
        };
        self.unassign(c, t, from);
        self.assign(c, t, to);
    }

    /// Adds a warm-up of `t` on `c`.
    pub(super) fn add_warmup(&mut self, c: Client, t: Task) {
        self.rekey(c, |w| {
            w.warmup[c].insert(t);
            insert_sorted(&mut w.replicas[t], c);
        });
    }

    /// Relabels `c`'s standby of `t` as a warm-up; the load is unchanged.
    pub(super) fn standby_to_warmup(&mut self, c: Client, t: Task) {
        self.standby[c].remove(&t);
        self.warmup[c].insert(t);
    }

    /// The first client in least-loaded order that satisfies `accept`.
    pub(super) fn least_loaded(&self, mut accept: impl FnMut(Client) -> bool) -> Option<Client> {
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
    pub(super) fn load_order(&self) -> Vec<(Load, Client)> {
        self.load_order_now().set.iter().copied().collect()
    }

    /// The plan these sets describe.
    pub(super) fn into_plan(self, state: &ClusterState, name: &str) -> Plan {
        let plans = (0..self.client_count()).map(|c| ClientPlan {
            active: task_ids(state, &self.active[c]),
            standby: task_ids(state, &self.standby[c]),
            warmup: task_ids(state, &self.warmup[c]),
        });
        plan_of(state, name, plans)
    }
}

/// Adds `c` to a sorted list (it is not there yet).
fn insert_sorted(list: &mut Vec<Client>, c: Client) {
    if let Err(i) = list.binary_search(&c) {
        list.insert(i, c);
    }
}

/// Removes `c` from a sorted list, if there.
fn remove_sorted(list: &mut Vec<Client>, c: Client) {
    if let Ok(i) = list.binary_search(&c) {
        list.remove(i);
    }
}

impl crate::assignor::rack::RackWork for Work {
    fn client_count(&self) -> usize {
        Work::client_count(self)
    }

    fn active_owner(&self, t: Task) -> Option<Client> {
        self.owner[t]
    }

    fn move_active(&mut self, t: Task, from: Client, to: Client) {
        self.unassign(from, t, Role::Active);
        self.assign(to, t, Role::Active);
    }

    fn standbys(&self, c: Client) -> Vec<Task> {
        self.standby[c].iter().copied().collect()
    }

    fn holders(&self, t: Task) -> Vec<Client> {
        let mut holders: Vec<Client> = self.replicas[t].clone();
        holders.extend(self.owner[t]);
        holders.sort_unstable();
        holders
    }

    fn holds(&self, c: Client, t: Task) -> bool {
        Work::holds(self, c, t)
    }

    fn move_standby(&mut self, t: Task, from: Client, to: Client) {
        self.unassign(from, t, Role::Standby);
        self.assign(to, t, Role::Standby);
    }
}
