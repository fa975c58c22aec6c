//! Containers as values: Samza's container ids.
//!
//! Active container `i` is named `i`; with a replication factor `R > 1` its
//! standby containers are `i-0 … i-(R−2)`, as Samza's `StandbyTaskUtil`
//! names them. An active container and its standby containers form a
//! *family*: they hold the same tasks, so no two of them may share a host.

use std::fmt;

use crate::model::ContainerId;

use super::positions::SlotIx;

/// One container of the job: an active container or one of its standby
/// containers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Member {
    /// The active container of the family (its logical container id).
    pub slot: SlotIx,
    /// `Some(r)` for standby container `slot-r`, `None` for the active one.
    pub standby: Option<usize>,
}

impl Member {
    /// Active container `slot`.
    pub(super) fn active(slot: SlotIx) -> Member {
        Member {
            slot,
            standby: None,
        }
    }

    /// Standby container `slot-r`.
    pub(super) fn standby(slot: SlotIx, r: usize) -> Member {
        Member {
            slot,
            standby: Some(r),
        }
    }

    /// The container a name means: `i` or `i-r` with `i` and `r` written in
    /// decimal without a sign or leading zeros (as Samza writes them), `i`
    /// below 2³². `None` for any other name.
    pub(super) fn parse(name: &str) -> Option<Member> {
        let (slot, standby) = match name.split_once('-') {
            None => (name, None),
            Some((slot, r)) => (slot, Some(number(r)?)),
        };
        let slot = u32::try_from(number(slot)?).ok()?;
        Some(Member {
            slot: SlotIx::from_raw(slot),
            standby,
        })
    }

    /// The model's name of the container.
    pub(super) fn id(self) -> ContainerId {
        ContainerId::new(self.to_string())
    }
}

/// A decimal number written without a sign or leading zeros.
fn number(s: &str) -> Option<usize> {
    let canonical =
        !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) && (s == "0" || !s.starts_with('0'));
    if canonical {
        s.parse().ok()
    } else {
        None
    }
}

impl fmt::Display for Member {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.standby {
            None => write!(f, "{}", self.slot.index()),
            Some(r) => write!(f, "{}-{r}", self.slot.index()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back() {
        for name in ["0", "7", "12-0", "3-2"] {
            assert_eq!(
                Member::parse(name).map(|m| m.to_string()),
                Some(name.into())
            );
        }
        for name in [
            "",
            "-1",
            "01",
            "1-",
            "1-01",
            "a",
            "1-0-0",
            "+1",
            "4294967296",
        ] {
            assert_eq!(Member::parse(name), None, "{name:?}");
        }
    }
}
