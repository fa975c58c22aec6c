//! The restore rate a group leader observes between two rebalances
//! ([`ClusterState::observed_restore_rate`](crate::ClusterState::observed_restore_rate)),
//! from what a Kafka Streams leader sees: the lags members report at each
//! rebalance and the time between them. One rule for every leader: the
//! simulator's and the Kafka Streams adapter's (through JNI).
//!
//! A member restores at one rate, which its restoring replicas share (as a
//! Kafka Streams instance's restore consumer reads for all its stores). At a
//! rebalance, every replica (standby or warm-up) of the plan in force
//! restored `L0 − L1` records: its lag at the previous rebalance less its lag
//! now (nothing where the lag grew). When one of a member's replicas is still
//! behind (`L1` above `acceptable_recovery_lag`), the member restored
//! replicas all that time: `Σ (L0 − L1) × 1000 / Δt_ms` records per second,
//! rounded down, is its rate (0 ignored). A member whose replicas have all
//! caught up may have done so long before now: its sum is only a lower bound,
//! which can be far below the rate, and is not used. The observation is the
//! largest rate of the members with a replica still behind; [`observe`]
//! returns `None` without one, and the leader keeps its previous observation.

use std::collections::BTreeMap;

/// The observed restore rate, records per second, from the replicas of the
/// plan in force: `before` holds each replica's lag at the previous
/// rebalance, by (member, task), `now` the lags members report now, and
/// `elapsed_ms` the time between the two rebalances. A replica without a lag
/// now (its member is gone, or reported none) is left out. `None` when no
/// member with a replica still behind restored anything, or no time passed.
///
/// The members and tasks are the caller's keys (positions, names): only
/// their order matters, which groups a member's replicas together.
///
/// # Examples
/// ```
/// use std::collections::BTreeMap;
/// use smoothscale::restore_rate::observe;
///
/// // Member 0's two replicas restored 30,000 and 20,000 records in 10 s;
/// // one is still 5,000 behind (above an acceptable lag of 100).
/// let before = BTreeMap::from([((0, 'a'), 40_000), ((0, 'b'), 20_000)]);
/// let now = BTreeMap::from([((0, 'a'), 10_000), ((0, 'b'), 0)]);
/// assert_eq!(observe(&before, &now, 10_000, 100), Some(5_000));
/// // Once every replica has caught up, the sum is only a lower bound.
/// let caught_up = BTreeMap::from([((0, 'a'), 0), ((0, 'b'), 0)]);
/// assert_eq!(observe(&before, &caught_up, 10_000, 100), None);
/// ```
pub fn observe<M: Ord + Copy, T: Ord + Copy>(
    before: &BTreeMap<(M, T), u64>,
    now: &BTreeMap<(M, T), u64>,
    elapsed_ms: u64,
    acceptable_recovery_lag: u64,
) -> Option<u64> {
    if elapsed_ms == 0 {
        return None;
    }
    let mut best: Option<u64> = None;
    let mut member: Option<(M, u128, bool)> = None;
    let mut close = |done: Option<(M, u128, bool)>| {
        if let Some((_, records, true)) = done {
            let rate = u64::try_from(records * 1000 / u128::from(elapsed_ms)).unwrap_or(u64::MAX);
            if rate > 0 {
                best = best.max(Some(rate));
            }
        }
    };
    for (&(m, t), &then) in before {
        let Some(&lag) = now.get(&(m, t)) else {
            continue;
        };
        if member.is_some_and(|(current, _, _)| current != m) {
            close(member.take());
        }
        let (_, records, behind) = member.get_or_insert((m, 0, false));
        *records += u128::from(then.saturating_sub(lag));
        *behind |= lag > acceptable_recovery_lag;
    }
    close(member);
    best
}

#[cfg(test)]
mod tests {
    use super::observe;
    use std::collections::BTreeMap;

    #[test]
    fn the_fastest_member_still_behind_by_hand() {
        // Member 1: 6,000 records in 2 s with a replica behind: 3,000/s.
        // Member 2: 10,000 in 2 s but caught up: a lower bound, ignored.
        // Member 3: its lag grew (nothing restored): 0, ignored.
        let before = BTreeMap::from([
            ((1, 0), 5_000),
            ((1, 1), 4_000),
            ((2, 0), 10_000),
            ((3, 2), 100),
        ]);
        let now = BTreeMap::from([
            ((1, 0), 2_000),
            ((1, 1), 1_000),
            ((2, 0), 50),
            ((3, 2), 900),
        ]);
        assert_eq!(observe(&before, &now, 2_000, 100), Some(3_000));
        // Rounded down: 6,000 records in 7 s.
        assert_eq!(observe(&before, &now, 7_000, 100), Some(857));
        assert_eq!(observe(&before, &now, 0, 100), None);
    }

    #[test]
    fn replicas_without_a_lag_now_are_left_out() {
        let before = BTreeMap::from([((0, 0), 9_000), ((0, 1), 9_000)]);
        let now = BTreeMap::from([((0, 1), 8_000)]);
        assert_eq!(observe(&before, &now, 1_000, 0), Some(1_000));
        assert_eq!(observe(&before, &BTreeMap::new(), 1_000, 0), None);
    }
}
