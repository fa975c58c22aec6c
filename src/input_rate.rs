//! The input rate a group leader observes for a task between two rebalances
//! ([`Task::input_rate`](crate::Task::input_rate)), from what a Kafka leader
//! can read: the end offsets of the task's source partitions at each
//! rebalance and the time between them. One rule for every leader: the
//! simulator's and the Kafka Streams adapter's (through JNI).
//!
//! Records appended to a task's source partitions between the two
//! rebalances, `E1 − E0` (their end offsets summed over the task's source
//! partitions), over the time between them: `(E1 − E0) × 1000 / Δt_ms`
//! records per second, rounded to the nearest. End offsets that went back
//! (a partition deleted and re-created, a topic the task no longer reads)
//! give no observation: the task's load is then unknown, not 0.
//!
//! A sample less than [`MIN_WINDOW_MS`] old gives none either (a cooperative
//! second round a moment after the first would see a few records, or none),
//! so a leader keeps its samples: at a rebalance it observes from the newest
//! sample at least that old, then keeps the end offsets now as a sample if
//! they are at least that much newer than its newest one (or it has none),
//! and drops the samples older than the one it used. After its first
//! [`MIN_WINDOW_MS`] every rebalance has an observation, over at least that
//! long.

/// The shortest time between two samples that gives an observation: 10 s.
pub const MIN_WINDOW_MS: u64 = 10_000;

/// The input rate in records per second of a task whose source partitions'
/// end offsets summed to `then` at the earlier sample and `now` at this
/// rebalance, `elapsed_ms` later. `None` when less than [`MIN_WINDOW_MS`]
/// passed or the sum went back.
///
/// # Examples
/// ```
/// use smoothscale::input_rate::observe;
///
/// // 3,000 records appended in 10 s: 300 records/s.
/// assert_eq!(observe(10_000, 13_000, 10_000), Some(300));
/// // 15 records in 20 s: 0.75 rounds to 1.
/// assert_eq!(observe(0, 15, 20_000), Some(1));
/// assert_eq!(observe(5, 4, 60_000), None);
/// assert_eq!(observe(5, 9, 9_999), None);
/// ```
pub fn observe(then: u64, now: u64, elapsed_ms: u64) -> Option<u64> {
    let appended = now.checked_sub(then)?;
    if elapsed_ms < MIN_WINDOW_MS {
        return None;
    }
    let scaled = u128::from(appended) * 1000 + u128::from(elapsed_ms / 2);
    u64::try_from(scaled / u128::from(elapsed_ms)).ok()
}

#[cfg(test)]
mod tests {
    use super::observe;

    #[test]
    fn rounds_to_the_nearest_and_never_overflows() {
        assert_eq!(observe(0, 5, 10_000), Some(1));
        assert_eq!(observe(0, 5, 10_001), Some(0));
        // At least 10 s apart: a rate is at most a tenth of the offsets.
        assert_eq!(observe(0, u64::MAX, 10_000), Some(u64::MAX / 10 + 1));
        assert_eq!(observe(u64::MAX, u64::MAX, u64::MAX), Some(0));
        assert_eq!(observe(7, 7, 50_000), Some(0));
    }
}
