//! The input rate a group leader observes for a task between two rebalances
//! ([`Task::input_rate`](crate::Task::input_rate)), from what a Kafka leader
//! can read: the end offsets of the task's source partitions at each
//! rebalance and the time between them. One rule for every leader: the
//! simulator's and the Kafka Streams adapter's (through JNI).
//!
//! Records appended to a task's source partitions between the two
//! rebalances, `E1 − E0` (their end offsets summed over the task's source
//! partitions), over the time between them: `(E1 − E0) × 1000 / Δt_ms`
//! records per second, rounded to the nearest. No time passed, or end offsets
//! that went back (a partition deleted and re-created, a topic the task no
//! longer reads), give no observation: the task's load is then unknown, not 0.

/// The input rate in records per second of a task whose source partitions'
/// end offsets summed to `then` at the previous rebalance and `now` at this
/// one, `elapsed_ms` later. `None` when no time passed or the sum went back.
///
/// # Examples
/// ```
/// use smoothscale::input_rate::observe;
///
/// // 3,000 records appended in 10 s: 300 records/s.
/// assert_eq!(observe(10_000, 13_000, 10_000), Some(300));
/// // 2 records in 3 s: 0.67 rounds to 1.
/// assert_eq!(observe(0, 2, 3_000), Some(1));
/// assert_eq!(observe(5, 4, 1_000), None);
/// assert_eq!(observe(5, 9, 0), None);
/// ```
pub fn observe(then: u64, now: u64, elapsed_ms: u64) -> Option<u64> {
    let appended = now.checked_sub(then)?;
    if elapsed_ms == 0 {
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
        assert_eq!(observe(0, 1, 2_000), Some(1));
        assert_eq!(observe(0, 1, 2_001), Some(0));
        assert_eq!(observe(0, u64::MAX, 1), None);
        assert_eq!(observe(0, u64::MAX, 1_000), Some(u64::MAX));
        assert_eq!(observe(7, 7, 5_000), Some(0));
    }
}
