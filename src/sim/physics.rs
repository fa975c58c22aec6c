//! Restore physics: processor sharing of a client's restore bandwidth.
//!
//! Quantities are integers in milli-records so that a rate in records/s times
//! a time in ms is exact (records/s × ms = milli-records). A client restores
//! at `restore_rate` milli-records per ms, shared equally among its
//! restoring replicas, actives first: replicas get only what actives leave.
//!
//! The sums inside [`share`] saturate on purpose: they are only compared
//! with the capacity, and a saturated cost is (rightly) more than it.

use super::units::{MilliRecords, Millis, Rate};

/// What one sharer received in a chunk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Share {
    /// Work received.
    pub received: MilliRecords,
    /// When the sharer's need was met, from the chunk start (rounded up to
    /// a millisecond); `None` if it was not met within the chunk.
    pub done_at_ms: Option<Millis>,
}

/// Shares `capacity` milli-records of work, delivered at `rate` milli-records
/// per ms, equally among sharers with the given `needs` (processor sharing:
/// a sharer that is done leaves its share to the others). Returns each
/// sharer's share, in input order, and the capacity left over.
///
/// Exact in integers except that work not divisible among the unfinished
/// sharers is dropped (less than one milli-record each).
pub(crate) fn share(
    needs: &[MilliRecords],
    rate: Rate,
    capacity: MilliRecords,
) -> (Vec<Share>, MilliRecords) {
    let need = |i: usize| needs[i].get();
    let (rate, capacity) = (rate.get(), capacity.get());
    let mut out = vec![
        Share {
            received: MilliRecords::ZERO,
            done_at_ms: None
        };
        needs.len()
    ];
    let mut order: Vec<usize> = (0..needs.len()).collect();
    order.sort_by_key(|&i| (needs[i], i));
    let mut used: u64 = 0;
    let mut level: u64 = 0;
    let mut remaining = needs.len() as u64;
    for (k, &i) in order.iter().enumerate() {
        let delta = need(i) - level;
        let cost = delta.saturating_mul(remaining);
        if used.saturating_add(cost) <= capacity {
            used += cost;
            level = need(i);
            out[i] = Share {
                received: needs[i],
                done_at_ms: Some(Millis::new(used.div_ceil(rate.max(1)))),
            };
            remaining -= 1;
        } else {
            let raise = (capacity - used) / remaining;
            level += raise;
            for &j in &order[k..] {
                out[j].received = MilliRecords::new(level);
            }
            return (out, MilliRecords::ZERO);
        }
    }
    (out, MilliRecords::new(capacity - used))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn share(needs: &[u64], rate: u64, capacity: u64) -> (Vec<Share>, u64) {
        let needs: Vec<MilliRecords> = needs.iter().map(|&n| MilliRecords::new(n)).collect();
        let (s, left) = super::share(&needs, Rate::new(rate), MilliRecords::new(capacity));
        (s, left.get())
    }

    fn done(received: u64, at: u64) -> Share {
        Share {
            received: MilliRecords::new(received),
            done_at_ms: Some(Millis::new(at)),
        }
    }

    #[test]
    fn equal_needs_finish_together() {
        // Two replicas of 1000 milli-records at 10 per ms: 2000 of work, 200 ms.
        let (s, left) = share(&[1000, 1000], 10, 5000);
        assert_eq!(s[0], done(1000, 200));
        assert_eq!(s[1], done(1000, 200));
        assert_eq!(left, 3000);
    }

    #[test]
    fn a_finished_sharer_leaves_its_share_to_the_others() {
        // Needs 100 and 1000 at rate 10: the small one is done at 20 ms (both
        // at 5/ms); the big one then gets all 10/ms: 1000 - 100 = 900 more,
        // 90 ms, done at 110 ms.
        let (s, left) = share(&[1000, 100], 10, 10_000);
        assert_eq!(s[1], done(100, 20));
        assert_eq!(s[0], done(1000, 110));
        assert_eq!(left, 10_000 - 1100);
    }

    #[test]
    fn capacity_runs_out_evenly() {
        let (s, left) = share(&[1000, 1000, 10], 10, 610);
        assert_eq!(s[2].received.get(), 10);
        assert_eq!(s[0].received.get(), 300);
        assert_eq!(s[1].received.get(), 300);
        assert_eq!(s[0].done_at_ms, None);
        assert_eq!(left, 0);
    }

    #[test]
    fn nothing_to_share() {
        let (s, left) = share(&[], 10, 100);
        assert!(s.is_empty());
        assert_eq!(left, 100);
    }
}
