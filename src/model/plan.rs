//! [`Plan`]: an assignor's output.

use std::collections::{BTreeMap, BTreeSet};

use super::{ClientId, Container, ContainerId, TaskId};

/// What one client is given.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ClientPlan {
    /// Tasks the client processes.
    pub active: BTreeSet<TaskId>,
    /// Standby replicas (they count toward `num_standby_replicas`).
    pub standby: BTreeSet<TaskId>,
    /// Warm-up replicas: extra, temporary standbys on the client a task should
    /// move to (KIP-441); they do not count toward `num_standby_replicas`.
    pub warmup: BTreeSet<TaskId>,
}

impl ClientPlan {
    /// Whether the client holds `task` in any role.
    pub fn holds(&self, task: TaskId) -> bool {
        self.active.contains(&task) || self.standby.contains(&task) || self.warmup.contains(&task)
    }
}

/// An assignment: per client its active, standby and warm-up tasks, and
/// whether a follow-up rebalance is wanted: after a delay (probing) or when
/// learners have caught up.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Plan {
    /// The strategy that made the plan.
    pub strategy: String,
    /// Every client of the state, by id.
    pub clients: BTreeMap<ClientId, ClientPlan>,
    /// Rebalance again after this many milliseconds (a probing rebalance);
    /// `None` when no follow-up is wanted.
    pub followup_rebalance_ms: Option<u64>,
    /// Rebalance as soon as a warm-up (a *learner*, KIP-441's first design)
    /// of one of these tasks has caught up: its client rejoins at once
    /// instead of waiting for a probing rebalance. Every listed task has a
    /// warm-up in the plan; empty when no such follow-up is wanted.
    pub followup_when_caught_up: BTreeSet<TaskId>,
    /// Notes from the strategy about what it did not do and why.
    pub diagnostics: Vec<String>,
    /// The containers the plan runs, by name, for a strategy that groups
    /// tasks into containers (`samza`); empty for the others. Every active
    /// of a client is in exactly one of its containers.
    pub containers: BTreeMap<ContainerId, Container>,
}

impl Plan {
    /// The client running each task as active.
    pub fn active_owners(&self) -> BTreeMap<TaskId, &ClientId> {
        let mut owners = BTreeMap::new();
        for (id, client) in &self.clients {
            for &task in &client.active {
                owners.insert(task, id);
            }
        }
        owners
    }

    /// Whether the plan asks for a follow-up rebalance of either kind.
    pub fn wants_followup(&self) -> bool {
        self.followup_rebalance_ms.is_some() || !self.followup_when_caught_up.is_empty()
    }

    /// Total warm-up replicas in the plan.
    pub fn warmup_count(&self) -> usize {
        self.clients.values().map(|c| c.warmup.len()).sum()
    }

    /// The client holding the most replicas (standbys and warm-ups), the
    /// lowest id among equals, and how many; `None` without clients.
    pub fn most_replicas(&self) -> Option<(&ClientId, usize)> {
        self.clients
            .iter()
            .map(|(id, c)| (id, c.standby.len() + c.warmup.len()))
            .max_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(a.0)))
    }
}
