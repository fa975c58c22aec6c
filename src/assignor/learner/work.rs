//! The mutable assignment `kip441-learner` builds, indexed by position.
//!
//! Clients and tasks are referred to by their position in the sorted lists of
//! the [`ClusterState`], so index order is id order and every tie is broken
//! by the index. `load` holds each client's *intended* count per kind of
//! task: the actives it runs, minus those a learner elsewhere is taking from
//! it, plus those its own learners are taking over.

use std::collections::BTreeSet;

use crate::assignor::{plan_of, task_ids};
use crate::model::{ClientPlan, ClusterState, Lag, Plan};

/// A client index (position in `ClusterState::clients()`).
pub(super) type Client = usize;
/// A task index (position in `ClusterState::tasks()`).
pub(super) type Task = usize;

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
    pub leaving: Vec<bool>,
    pub active: Vec<BTreeSet<Task>>,
    pub standby: Vec<BTreeSet<Task>>,
    pub learner: Vec<BTreeSet<Task>>,
    /// The client running each task as active.
    pub owner: Vec<Option<Client>>,
    /// The client learning each task (at most one).
    pub learner_of: Vec<Option<Client>>,
    /// The previous owner of each task among the clients.
    pub prev_owner: Vec<Option<Client>>,
    /// Clients that held each task as a learner (previous warm-up), in order.
    pub prev_learners: Vec<Vec<Client>>,
    /// Intended counts per kind: `load[kind][client]`.
    pub load: [Vec<usize>; 2],
}

impl<'s> Work<'s> {
    pub(super) fn new(state: &'s ClusterState) -> Work<'s> {
        let clients = state.clients();
        let n = clients.len();
        let t = state.tasks().len();
        let mut leaving: Vec<bool> = clients.iter().map(|c| c.leaving).collect();
        if leaving.iter().all(|&l| l) {
            leaving.fill(false);
        }
        let mut prev_owner = vec![None; t];
        let mut prev_learners = vec![Vec::new(); t];
        for (c, client) in clients.iter().enumerate() {
            let position = |id| state.task_position(id).expect("validated: a known task");
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
            active: vec![BTreeSet::new(); n],
            standby: vec![BTreeSet::new(); n],
            learner: vec![BTreeSet::new(); n],
            owner: vec![None; t],
            learner_of: vec![None; t],
            prev_owner,
            prev_learners,
            load: [vec![0; n], vec![0; n]],
        }
    }

    pub(super) fn client_count(&self) -> usize {
        self.active.len()
    }

    pub(super) fn kind(&self, t: Task) -> Kind {
        if self.state.tasks()[t].stateful {
            Kind::Stateful
        } else {
            Kind::Stateless
        }
    }

    /// The lag of `c` on `t` (the end offset when `c` reported none).
    pub(super) fn lag(&self, c: Client, t: Task) -> Lag {
        self.state
            .lag(&self.state.clients()[c], &self.state.tasks()[t])
    }

    /// Whether `c` is caught up on `t`: the rule kip441 uses (within
    /// `acceptable_recovery_lag`, or running).
    pub(super) fn caught_up(&self, c: Client, t: Task) -> bool {
        self.lag(c, t)
            .is_caught_up(self.state.config().acceptable_recovery_lag)
    }

    /// Whether `c` held `t` as a standby proper (not as a learner) before.
    pub(super) fn had_standby(&self, c: Client, t: Task) -> bool {
        let client = &self.state.clients()[c];
        let id = self.state.tasks()[t].id;
        client.previous_standby.contains(&id) && !client.previous_warmup.contains(&id)
    }

    /// The clients' weights in the fair share: capacity, 0 when leaving.
    pub(super) fn weights(&self) -> Vec<u32> {
        self.state
            .clients()
            .iter()
            .zip(&self.leaving)
            .map(|(c, &leaving)| if leaving { 0 } else { c.capacity })
            .collect()
    }

    pub(super) fn capacity(&self, c: Client) -> u32 {
        self.state.clients()[c].capacity
    }

    pub(super) fn holds(&self, c: Client, t: Task) -> bool {
        self.owner[t] == Some(c) || self.learner_of[t] == Some(c) || self.standby[c].contains(&t)
    }

    /// Makes `c` the active of unassigned `t`.
    pub(super) fn set_active(&mut self, c: Client, t: Task) {
        debug_assert!(self.owner[t].is_none() && !self.holds(c, t));
        self.active[c].insert(t);
        self.owner[t] = Some(c);
        self.load[self.kind(t) as usize][c] += 1;
    }

    /// Hands the active of `t` over to `to` at once.
    pub(super) fn move_active(&mut self, t: Task, to: Client) {
        let from = self.owner[t].expect("a placed task");
        self.active[from].remove(&t);
        self.load[self.kind(t) as usize][from] -= 1;
        self.owner[t] = None;
        self.set_active(to, t);
    }

    /// Places a learner of `t` on `c`: `c` is to take the active over.
    pub(super) fn add_learner(&mut self, c: Client, t: Task) {
        let from = self.owner[t].expect("a placed task");
        debug_assert!(self.learner_of[t].is_none() && !self.holds(c, t));
        self.learner[c].insert(t);
        self.learner_of[t] = Some(c);
        self.load[Kind::Stateful as usize][from] -= 1;
        self.load[Kind::Stateful as usize][c] += 1;
    }

    pub(super) fn add_standby(&mut self, c: Client, t: Task) {
        debug_assert!(!self.holds(c, t));
        self.standby[c].insert(t);
    }

    /// Actives, standbys and learners on `c`.
    pub(super) fn assigned_count(&self, c: Client) -> usize {
        self.active[c].len() + self.standby[c].len() + self.learner[c].len()
    }

    /// The plan these sets describe: learners as warm-ups, and a follow-up
    /// as soon as any of them has caught up.
    pub(super) fn into_plan(self, name: &str) -> Plan {
        let state = self.state;
        let plans = (0..self.client_count()).map(|c| ClientPlan {
            active: task_ids(state, &self.active[c]),
            standby: task_ids(state, &self.standby[c]),
            warmup: task_ids(state, &self.learner[c]),
        });
        let mut plan = plan_of(state, name, plans);
        plan.followup_when_caught_up = self
            .learner_of
            .iter()
            .enumerate()
            .filter(|(_, l)| l.is_some())
            .map(|(t, _)| state.tasks()[t].id)
            .collect();
        plan
    }
}
