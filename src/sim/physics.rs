//! Restore physics: processor sharing of a client's restore bandwidth.
//!
//! Quantities are integers in milli-records so that a rate in records/s times
//! a time in ms is exact (records/s × ms = milli-records). A client restores
//! at `restore_rate` milli-records per ms, shared equally among its
//! restoring replicas, actives first: replicas get only what actives leave.

/// What one sharer received in a chunk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Share {
    /// Work received, milli-records.
    pub received: u64,
    /// When the sharer's need was met, in ms from the chunk start (rounded
    /// up); `None` if it was not met within the chunk.
    pub done_at_ms: Option<u64>,
}

/// Shares `capacity` milli-records of work, delivered at `rate` milli-records
/// per ms, equally among sharers with the given `needs` (processor sharing:
/// a sharer that is done leaves its share to the others). Returns each
/// sharer's share, in input order, and the capacity left over.
///
/// Exact in integers except that work not divisible among the unfinished
/// sharers is dropped (less than one milli-record each).
pub(crate) fn share(needs: &[u64], rate: u64, capacity: u64) -> (Vec<Share>, u64) {
    let mut out = vec![
        Share {
            received: 0,
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
        let delta = needs[i] - level;
        let cost = delta.saturating_mul(remaining);
        if used.saturating_add(cost) <= capacity {
            used += cost;
            level = needs[i];
            out[i] = Share {
                received: needs[i],
                done_at_ms: Some(used.div_ceil(rate.max(1))),
            };
            remaining -= 1;
        } else {
            let raise = (capacity - used) / remaining;
            level += raise;
            for &j in &order[k..] {
                out[j].received = level;
            }
            return (out, 0);
        }
    }
    (out, capacity - used)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_needs_finish_together() {
        // Two replicas of 1000 milli-records at 10 per ms: 2000 of work, 200 ms.
        let (s, left) = share(&[1000, 1000], 10, 5000);
        assert_eq!(
            s[0],
            Share {
                received: 1000,
                done_at_ms: Some(200)
            }
        );
        assert_eq!(
            s[1],
            Share {
                received: 1000,
                done_at_ms: Some(200)
            }
        );
        assert_eq!(left, 3000);
    }

    #[test]
    fn a_finished_sharer_leaves_its_share_to_the_others() {
        // Needs 100 and 1000 at rate 10: the small one is done at 20 ms (both
        // at 5/ms); the big one then gets all 10/ms: 1000 - 100 = 900 more,
        // 90 ms, done at 110 ms.
        let (s, left) = share(&[1000, 100], 10, 10_000);
        assert_eq!(
            s[1],
            Share {
                received: 100,
                done_at_ms: Some(20)
            }
        );
        assert_eq!(
            s[0],
            Share {
                received: 1000,
                done_at_ms: Some(110)
            }
        );
        assert_eq!(left, 10_000 - 1100);
    }

    #[test]
    fn capacity_runs_out_evenly() {
        let (s, left) = share(&[1000, 1000, 10], 10, 610);
        assert_eq!(s[2].received, 10);
        assert_eq!(s[0].received, 300);
        assert_eq!(s[1].received, 300);
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
