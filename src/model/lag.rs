//! [`Lag`]: how far a client's copy of a task's store is behind its changelog.

use std::cmp::Ordering;
use std::fmt;

/// Records a client must replay before its copy of a task's store is current.
///
/// Kafka Streams reports two sentinels beside plain record counts: the client
/// runs the task as a caught-up active (`Running`, Kafka's −2), or its offset is
/// unknown (`Unknown`, Kafka's −3, sent for standbys by members older than
/// subscription version 7). A stateful task with no reported lag on a client
/// has no local state there: its lag is the task's end offset.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Lag {
    /// The client runs the task as a caught-up active. Always caught up.
    Running,
    /// The client's position is unknown. Never caught up.
    Unknown,
    /// This many records behind the end of the changelog.
    Records(u64),
}

impl Lag {
    /// Kafka's "most caught-up" sort key: a plain numeric sort of the reported
    /// value, so `Unknown` (−3) < `Running` (−2) < `Records(0)` < `Records(1)` …
    ///
    /// Kafka's quirk is kept on purpose: an unknown lag ranks as *more* caught
    /// up than the running owner (it only arises during upgrades).
    pub fn sort_key(self) -> i128 {
        match self {
            Lag::Unknown => -3,
            Lag::Running => -2,
            Lag::Records(n) => i128::from(n),
        }
    }

    /// Kafka's caught-up predicate: running, or within `acceptable_recovery_lag`
    /// records; every lag, even `Unknown`, when the acceptable lag is
    /// [`ACCEPT_ANY_LAG`] or more.
    pub fn is_caught_up(self, acceptable_recovery_lag: u64) -> bool {
        match self {
            Lag::Running => true,
            _ if acceptable_recovery_lag >= ACCEPT_ANY_LAG => true,
            Lag::Unknown => false,
            Lag::Records(n) => n <= acceptable_recovery_lag,
        }
    }

    /// Records a client would replay before processing: `Running` replays
    /// nothing; `Unknown` is counted as a full restore of `end_offset`.
    pub fn restore_records(self, end_offset: u64) -> u64 {
        match self {
            Lag::Running => 0,
            Lag::Unknown => end_offset,
            Lag::Records(n) => n,
        }
    }
}

/// Kafka's `Long.MAX_VALUE`: an acceptable recovery lag this large makes every
/// client caught up on every task, unknown lags included.
pub const ACCEPT_ANY_LAG: u64 = i64::MAX as u64;

impl PartialOrd for Lag {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Lag {
    /// The order of [`Lag::sort_key`].
    fn cmp(&self, other: &Self) -> Ordering {
        self.sort_key().cmp(&other.sort_key())
    }
}

impl fmt::Display for Lag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Lag::Running => f.write_str("running"),
            Lag::Unknown => f.write_str("unknown"),
            Lag::Records(n) => write!(f, "{n}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sentinels_sort_first_as_in_kafka() {
        let mut lags = vec![Lag::Records(5), Lag::Running, Lag::Records(0), Lag::Unknown];
        lags.sort();
        assert_eq!(
            lags,
            vec![Lag::Unknown, Lag::Running, Lag::Records(0), Lag::Records(5)]
        );
    }

    #[test]
    fn caught_up_follows_kafka() {
        assert!(Lag::Running.is_caught_up(0));
        assert!(!Lag::Unknown.is_caught_up(ACCEPT_ANY_LAG - 1));
        assert!(Lag::Unknown.is_caught_up(ACCEPT_ANY_LAG));
        assert!(Lag::Records(100).is_caught_up(100));
        assert!(!Lag::Records(101).is_caught_up(100));
        assert!(Lag::Records(u64::MAX).is_caught_up(ACCEPT_ANY_LAG));
    }
}
