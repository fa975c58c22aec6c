//! The mutable assignment the legacy sticky steps build, indexed by position.
//!
//! Clients and tasks are referred to by their typed position ([`ClientIx`],
//! [`TaskIx`]) in the sorted lists of the [`ClusterState`], so index order is
//! id order. Two indexes stand in for
//! Kafka's scans over every client:
//!
//! - `by_load` holds every client keyed by Kafka's
//!   `hasMoreAvailableCapacityThan` order — assigned replicas per thread
//!   ascending, then capacity descending — and then by index, so its first
//!   element is the client Kafka's scan would keep (the scan only replaces its
//!   candidate by a strictly better one, and it visits clients in id order);
//! - `empty` holds the clients with no replica yet, in id order: Kafka's
//!   `findLeastLoaded` returns the first such client it meets.

use std::cmp::Reverse;
use std::collections::BTreeSet;

use crate::assignor::common::plan_of;
use crate::assignor::load::Load;
use crate::model::{ClientIx, ClientPlan, ClusterState, IxVec, Plan, TaskIx};

/// Kafka's "more available capacity" order: lower load first, then larger
/// capacity. `a < b` exactly when `a.hasMoreAvailableCapacityThan(b)`.
pub(super) type Availability = (Load, Reverse<u32>);

/// Which of a client's sets a task goes to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Role {
    Active,
    Standby,
}

/// Per-client actives and standbys, with the indexes the steps need.
pub(super) struct Work {
    pub capacity: IxVec<ClientIx, u32>,
    pub active: IxVec<ClientIx, BTreeSet<TaskIx>>,
    pub standby: IxVec<ClientIx, BTreeSet<TaskIx>>,
    /// The clients holding each task, in any role (at most `1 + standbys`).
    pub holders: IxVec<TaskIx, Vec<ClientIx>>,
    /// Every client keyed by (availability, index); see the module doc.
    pub by_load: BTreeSet<(Availability, ClientIx)>,
    /// Clients with no replica yet, by index.
    pub empty: BTreeSet<ClientIx>,
    /// Set once the rack optimiser has moved actives: each task's active
    /// owner before it did, and how many actives each client had then.
    /// Kafka recorded the task pairs of that placement and the optimiser
    /// does not record new ones (see `pairs.rs`).
    pub former: Option<(IxVec<TaskIx, ClientIx>, IxVec<ClientIx, usize>)>,
}

impl Work {
    pub(super) fn new(state: &ClusterState) -> Work {
        let capacity: IxVec<ClientIx, u32> = state.clients().iter().map(|c| c.capacity).collect();
        let n = capacity.len();
        let mut work = Work {
            active: IxVec::from_elem(BTreeSet::new(), n),
            standby: IxVec::from_elem(BTreeSet::new(), n),
            holders: IxVec::from_elem(Vec::new(), state.tasks().len()),
            by_load: BTreeSet::new(),
            empty: state.client_ixs().collect(),
            former: None,
            capacity,
        };
        work.by_load = state
            .client_ixs()
            .map(|c| (work.availability(c), c))
            .collect();
        work
    }

    pub(super) fn client_count(&self) -> usize {
        self.capacity.len()
    }

    /// Kafka's `assignedTaskCount`: actives and standbys on `c`.
    pub(super) fn assigned_count(&self, c: ClientIx) -> usize {
        self.active[c].len() + self.standby[c].len()
    }

    /// Kafka's `assignedTasks`: every task on `c`, actives then standbys
    /// (the two sets are disjoint).
    pub(super) fn assigned(&self, c: ClientIx) -> impl Iterator<Item = TaskIx> + '_ {
        self.active[c].iter().chain(&self.standby[c]).copied()
    }

    pub(super) fn availability(&self, c: ClientIx) -> Availability {
        (
            Load::of(self.assigned_count(c), self.capacity[c]),
            Reverse(self.capacity[c]),
        )
    }

    /// Kafka's `a.hasMoreAvailableCapacityThan(b)`.
    pub(super) fn more_available(&self, a: ClientIx, b: ClientIx) -> bool {
        self.availability(a) < self.availability(b)
    }

    /// Kafka's `shouldBalanceLoad`: `c` has reached its capacity (as many
    /// replicas as threads) and some client has more available capacity.
    pub(super) fn should_balance(&self, c: ClientIx) -> bool {
        let reached = self.assigned_count(c) >= self.capacity[c] as usize;
        reached
            && self
                .by_load
                .first()
                .is_some_and(|&(best, _)| best < self.availability(c))
    }

    pub(super) fn holds(&self, c: ClientIx, t: TaskIx) -> bool {
        self.holders[t].contains(&c)
    }

    pub(super) fn assign(&mut self, c: ClientIx, t: TaskIx, role: Role) {
        debug_assert!(!self.holds(c, t), "client {c} already holds task {t}");
        let before = self.availability(c);
        match role {
            Role::Active => self.active[c].insert(t),
            Role::Standby => self.standby[c].insert(t),
        };
        self.holders[t].push(c);
        self.empty.remove(&c);
        self.by_load.remove(&(before, c));
        self.by_load.insert((self.availability(c), c));
    }

    /// Removes `t` from `c` (only the rack optimiser removes replicas).
    pub(super) fn unassign(&mut self, c: ClientIx, t: TaskIx, role: Role) {
        let before = self.availability(c);
        match role {
            Role::Active => self.active[c].remove(&t),
            Role::Standby => self.standby[c].remove(&t),
        };
        self.holders[t].retain(|&h| h != c);
        if self.assigned_count(c) == 0 {
            self.empty.insert(c);
        }
        self.by_load.remove(&(before, c));
        self.by_load.insert((self.availability(c), c));
    }

    /// The plan these sets describe (no warm-ups, no follow-up).
    pub(super) fn into_plan(self, state: &ClusterState, name: &str) -> Plan {
        let plans = self.capacity.indices().map(|c| ClientPlan {
            active: state.ids_at(&self.active[c]),
            standby: state.ids_at(&self.standby[c]),
            warmup: BTreeSet::new(),
        });
        plan_of(state, name, plans)
    }
}

impl crate::assignor::rack::RackWork for Work {
    fn client_count(&self) -> usize {
        Work::client_count(self)
    }

    fn active_owner(&self, t: TaskIx) -> Option<ClientIx> {
        self.holders[t]
            .iter()
            .copied()
            .find(|&c| self.active[c].contains(&t))
    }

    fn move_active(&mut self, t: TaskIx, from: ClientIx, to: ClientIx) {
        self.unassign(from, t, Role::Active);
        self.assign(to, t, Role::Active);
    }

    fn standbys(&self, c: ClientIx) -> Vec<TaskIx> {
        self.standby[c].iter().copied().collect()
    }

    fn holders(&self, t: TaskIx) -> Vec<ClientIx> {
        let mut holders = self.holders[t].clone();
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
