//! Containers as values: Samza's container ids.
//!
//! Active container `i` is named `i`; with a replication factor `R > 1` its
//! standby containers are `i-0 … i-(R−2)`, as Samza's `StandbyTaskUtil`
//! names them. An active container and its standby containers form a
//! *family*: they hold the same tasks, so no two of them may share a host.

use std::fmt;

use super::positions::SlotIx;

/// One container of the job: an active container or one of its standby
/// containers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct ContainerId {
    /// The active container of the family (its logical container id).
    pub slot: SlotIx,
    /// `Some(r)` for standby container `slot-r`, `None` for the active one.
    pub standby: Option<usize>,
}

impl ContainerId {
    /// Active container `slot`.
    pub(super) fn active(slot: SlotIx) -> ContainerId {
        ContainerId {
            slot,
            standby: None,
        }
    }

    /// Standby container `slot-r`.
    pub(super) fn standby(slot: SlotIx, r: usize) -> ContainerId {
        ContainerId {
            slot,
            standby: Some(r),
        }
    }
}

impl fmt::Display for ContainerId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.standby {
            None => write!(f, "{}", self.slot.index()),
            Some(r) => write!(f, "{}-{r}", self.slot.index()),
        }
    }
}
