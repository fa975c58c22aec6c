//! [`Container`]s: the processes a strategy groups tasks into, for the
//! strategies that have them (`samza`: Samza's logical containers).
//!
//! A strategy with containers says in its plan which containers it runs, on
//! which client and with which tasks ([`crate::Plan::containers`]); the next
//! state carries them back as [`crate::ClusterState::previous_containers`],
//! the way Samza's coordinator stream keeps the task → container mapping and
//! each container's last host across rebalances. The record belongs to the
//! job, not to a client: it outlives the client a container ran on.

use std::collections::BTreeSet;
use std::fmt;

use super::{ClientId, TaskId};

/// A container's name, as the job knows it: Samza's logical container id
/// (`"0"`, `"1"`; its standby containers `"0-0"`, `"0-1"`). Any non-empty
/// string; ordered by its string order.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ContainerId(String);

impl ContainerId {
    /// Wraps a container name.
    pub fn new(id: impl Into<String>) -> Self {
        ContainerId(id.into())
    }

    /// The name as written.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for ContainerId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<&str> for ContainerId {
    fn from(s: &str) -> Self {
        ContainerId::new(s)
    }
}

/// One container: the client it runs (or last ran) on and its tasks by role.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Container {
    /// The client running it. In a previous record, the client it last ran
    /// on, which may have left since.
    pub client: ClientId,
    /// The tasks it processes.
    pub active: BTreeSet<TaskId>,
    /// The tasks it keeps standby copies of. Samza's standby containers copy
    /// every task of their active container, stateless ones too; only the
    /// stateful ones are standby replicas in the client's plan (a stateless
    /// task has no store to keep).
    pub standby: BTreeSet<TaskId>,
}

impl Container {
    /// A container on `client` with no tasks yet.
    pub fn on(client: impl Into<ClientId>) -> Self {
        Container {
            client: client.into(),
            active: BTreeSet::new(),
            standby: BTreeSet::new(),
        }
    }

    /// The same container processing `tasks`.
    pub fn with_active(mut self, tasks: impl IntoIterator<Item = TaskId>) -> Self {
        self.active.extend(tasks);
        self
    }

    /// The same container keeping standby copies of `tasks`.
    pub fn with_standby(mut self, tasks: impl IntoIterator<Item = TaskId>) -> Self {
        self.standby.extend(tasks);
        self
    }
}
