//! [`Task`]: one unit of work and what it needs.

use std::collections::BTreeSet;

use super::TaskId;

/// One task: a partition of a subtopology.
///
/// A task is stateful when it has a changelog-backed store; only stateful tasks
/// have lags, standbys and warm-ups. Resource demands and racks are optional and
/// used only by the strategies that read them.
#[derive(Debug, Clone, PartialEq)]
pub struct Task {
    /// The task's id.
    pub id: TaskId,
    /// Whether the task has a changelog-backed store.
    pub stateful: bool,
    /// Records in the task's changelog: the lag of a client with no local state.
    pub end_offset: u64,
    /// CPU cores the task needs (packing strategies).
    pub cpu: Option<f64>,
    /// Memory the task needs, in MiB (packing strategies).
    pub ram_mb: Option<u64>,
    /// Disk the task needs, in MiB (packing strategies).
    pub disk_mb: Option<u64>,
    /// Racks holding replicas of the task's input partitions (KIP-925).
    pub racks: BTreeSet<String>,
    /// Racks holding replicas of the task's changelog partitions (KIP-925).
    pub changelog_racks: BTreeSet<String>,
    /// Records per second arriving at the task's input partitions, as the
    /// group leader observed them (from their end offsets between two
    /// rebalances): the task's load. Read by `smooth` only; the other
    /// strategies ignore it.
    pub input_rate: Option<u64>,
}

impl Task {
    /// A stateful task whose changelog holds `end_offset` records.
    pub fn stateful(id: TaskId, end_offset: u64) -> Self {
        Task {
            id,
            stateful: true,
            end_offset,
            cpu: None,
            ram_mb: None,
            disk_mb: None,
            racks: BTreeSet::new(),
            changelog_racks: BTreeSet::new(),
            input_rate: None,
        }
    }

    /// A stateless task.
    pub fn stateless(id: TaskId) -> Self {
        Task {
            stateful: false,
            ..Task::stateful(id, 0)
        }
    }
}
