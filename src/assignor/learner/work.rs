//! The mutable assignment `kip441-learner` builds, indexed by position.
//!
//! Clients and tasks are referred to by their typed position ([`ClientIx`],
//! [`TaskIx`]) in the sorted lists of the [`ClusterState`], so index order is
//! id order and every tie is broken by the index. `load` holds each client's *intended* count per kind of
//! task: the actives it runs, minus those a learner elsewhere is taking from
//! it, plus those its own learners are taking over.

use std::collections::BTreeSet;

use crate::assignor::common::plan_of;
use crate::model::{ClientIx, ClientPlan, ClusterState, IxVec, Lag, Plan, TaskIx};

/// Each client's fair share `(lo, hi)` of a kind of task.
pub(super) type Bounds = IxVec<ClientIx, (usize, usize)>;

/// The two kinds of task, balanced apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    Stateful = 0,
    Stateless = 1,
}

/// Per-client sets of actives, standbys and learners, with the indexes the
/// steps need.
pub(super) struct Work<'s> {
    pub state: &'s ClusterState,
    /// Whether each client is leaving; no client is when every client is.
    pub leaving: IxVec<ClientIx, bool>,
    pub active: IxVec<ClientIx, BTreeSet<TaskIx>>,
    pub standby: IxVec<ClientIx, BTreeSet<TaskIx>>,
    pub learner: IxVec<ClientIx, BTreeSet<TaskIx>>,
    /// The client running each task as active.
    pub owner: IxVec<TaskIx, Option<ClientIx>>,
    /// The client learning each task (at most one).
    pub learner_of: IxVec<TaskIx, Option<ClientIx>>,
    /// The previous owner of each task among the clients.
    pub prev_owner: IxVec<TaskIx, Option<ClientIx>>,
    /// Clients that held each task as a learner (previous warm-up), in order.
    pub prev_learners: IxVec<TaskIx, Vec<ClientIx>>,
    /// Intended counts per kind: `load[kind][client]`.
    pub load: [IxVec<ClientIx, usize>; 2],
}

impl<'s> Work<'s> {
    pub(super) fn new(state: &'s ClusterState) -> Work<'s> {
        let clients = state.clients();
        let n = clients.len();
        let t = state.tasks().len();
        let mut leaving: IxVec<ClientIx, bool> = clients.iter().map(|c| c.leaving).collect();
        if leaving.iter().all(|&l| l) {
            leaving = IxVec::from_elem(false, n);
        }
        let mut prev_owner = IxVec::from_elem(None, t);
        let mut prev_learners = IxVec::from_elem(Vec::new(), t);
        for (c, client) in state.client_ixs().zip(clients) {
            let position = |id| state.task_ix(id).expect("validated: a known task");
            for &id in &client.previous_active {
                prev_owner[position(id)] = Some(c);
            }
            for &id in &client.previous_warmup {
                prev_learners[position(id)].push(c);
            }
        }
        Work {
            state,
            leaving,
            active: IxVec::from_elem(BTreeSet::new(), n),
            standby: IxVec::from_elem(BTreeSet::new(), n),
            learner: IxVec::from_elem(BTreeSet::new(), n),
            owner: IxVec::from_elem(None, t),
            learner_of: IxVec::from_elem(None, t),
            prev_owner,
            prev_learners,
            load: [IxVec::from_elem(0, n), IxVec::from_elem(0, n)],
        }
    }

    pub(super) fn client_count(&self) -> usize {
        self.active.len()
    }

    /// Every client, ascending.
    pub(super) fn clients(&self) -> impl DoubleEndedIterator<Item = ClientIx> + Clone {
        self.active.indices()
    }

    /// Every task, ascending.
    pub(super) fn tasks(&self) -> impl DoubleEndedIterator<Item = TaskIx> + Clone {
        self.owner.indices()
    }

    /// The task at `t`.
    pub(super) fn task(&self, t: TaskIx) -> &'s crate::model::Task {
        &self.state.tasks()[t.index()]
    }

    /// The client at `c`.
    pub(super) fn client(&self, c: ClientIx) -> &'s crate::model::Client {
        &self.state.clients()[c.index()]
    }

    pub(super) fn kind(&self, t: TaskIx) -> Kind {
        if self.task(t).stateful {
            Kind::Stateful
        } else {
            Kind::Stateless
        }
    }

    /// The lag of `c` on `t` (the end offset when `c` reported none).
    pub(super) fn lag(&self, c: ClientIx, t: TaskIx) -> Lag {
        self.state.lag(self.client(c), self.task(t))
    }

    /// Whether `c` is caught up on `t`: the rule kip441 uses (within
    /// `acceptable_recovery_lag`, or running).
    pub(super) fn caught_up(&self, c: ClientIx, t: TaskIx) -> bool {
        self.lag(c, t)
            .is_caught_up(self.state.config().acceptable_recovery_lag)
    }

    /// Whether `c` held `t` as a standby proper (not as a learner) before.
    pub(super) fn had_standby(&self, c: ClientIx, t: TaskIx) -> bool {
        let client = self.client(c);
        let id = self.task(t).id;
        client.previous_standby.contains(&id) && !client.previous_warmup.contains(&id)
    }

    /// The clients' weights in the fair share: capacity, 0 when leaving.
    pub(super) fn weights(&self) -> IxVec<ClientIx, u32> {
        self.state
            .clients()
            .iter()
            .zip(&self.leaving)
            .map(|(c, &leaving)| if leaving { 0 } else { c.capacity })
            .collect()
    }

    pub(super) fn capacity(&self, c: ClientIx) -> u32 {
        self.client(c).capacity
    }

    pub(super) fn holds(&self, c: ClientIx, t: TaskIx) -> bool {
        self.owner[t] == Some(c) || self.learner_of[t] == Some(c) || self.standby[c].contains(&t)
    }

    /// Makes `c` the active of unassigned `t`.
    pub(super) fn set_active(&mut self, c: ClientIx, t: TaskIx) {
        debug_assert!(self.owner[t].is_none() && !self.holds(c, t));
        self.active[c].insert(t);
        self.owner[t] = Some(c);
        self.load[self.kind(t) as usize][c] += 1;
    }

    /// Hands the active of `t` over to `to` at once.
    pub(super) fn move_active(&mut self, t: TaskIx, to: ClientIx) {
        let from = self.owner[t].expect("a placed task");
        self.active[from].remove(&t);
        self.load[self.kind(t) as usize][from] -= 1;
        self.owner[t] = None;
        self.set_active(to, t);
    }

    /// Places a learner of `t` on `c`: `c` is to take the active over.
    pub(super) fn add_learner(&mut self, c: ClientIx, t: TaskIx) {
        let from = self.owner[t].expect("a placed task");
        debug_assert!(self.learner_of[t].is_none() && !self.holds(c, t));
        self.learner[c].insert(t);
        self.learner_of[t] = Some(c);
        self.load[Kind::Stateful as usize][from] -= 1;
        self.load[Kind::Stateful as usize][c] += 1;
    }

    /// Cancels the learner of `t`: its owner keeps the task.
    pub(super) fn remove_learner(&mut self, t: TaskIx) {
        let c = self.learner_of[t].take().expect("a task with a learner");
        let owner = self.owner[t].expect("a placed task");
        self.learner[c].remove(&t);
        self.load[Kind::Stateful as usize][c] -= 1;
        self.load[Kind::Stateful as usize][owner] += 1;
    }

    pub(super) fn add_standby(&mut self, c: ClientIx, t: TaskIx) {
        debug_assert!(!self.holds(c, t));
        self.standby[c].insert(t);
    }

    /// Actives, standbys and learners on `c`.
    pub(super) fn assigned_count(&self, c: ClientIx) -> usize {
        self.active[c].len() + self.standby[c].len() + self.learner[c].len()
    }

    /// The plan these sets describe: learners as warm-ups, and a follow-up
    /// as soon as any of them has caught up.
    pub(super) fn into_plan(self, name: &str) -> Plan {
        let state = self.state;
        let plans = self.clients().map(|c| ClientPlan {
            active: state.ids_at(&self.active[c]),
            standby: state.ids_at(&self.standby[c]),
            warmup: state.ids_at(&self.learner[c]),
        });
        let mut plan = plan_of(state, name, plans);
        plan.followup_when_caught_up = self
            .learner_of
            .iter_enumerated()
            .filter(|(_, l)| l.is_some())
            .map(|(t, _)| state.tasks()[t.index()].id)
            .collect();
        plan
    }
}
