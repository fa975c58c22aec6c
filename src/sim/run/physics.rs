//! Restore physics in continuous time: who reads how fast, and when the next
//! thing happens.
//!
//! Quantities are integers in milli-records and rates in milli-records per
//! ms (= records/s), so a rate times a time in ms is exact. Bandwidth is
//! shared max-min fairly ([`water_fill`]) at two levels:
//!
//! - **The cluster**, when it has a restore bandwidth (what the brokers can
//!   serve): each client asks for its own restore rate if it has anything to
//!   catch up, else for what its caught-up replicas need to follow their
//!   actives; clients that ask for less than the fair level get what they ask.
//! - **A client**: its restoring actives share its bandwidth equally and take
//!   all of it (actives first); a client with none gives it to its standbys
//!   and warm-ups, where a replica that is caught up (lag 0) asks only for its
//!   active's write rate and the others share the rest equally.
//!
//! Rates are exact fractions ([`Ratio`]) and stay constant between two
//! instants where something changes: an active finishes restoring, a replica
//! reaches its changelog's end, or a replica's lag crosses the acceptable
//! recovery lag (either way). [`Ratio::ms_to_cover`] computes those instants,
//! rounded up to the millisecond, so the engine stops there and nothing
//! depends on how often it looks. The only rounding is that of the instant
//! (at most 1 ms) and of the work done in a stretch (less than one
//! milli-record per reader). Products are taken in 128 bits; the scenario's
//! limits (rates ≤ 10⁹ records/s, docs/limits.md) keep them far from its
//! end, and past it they saturate rather than wrap.

/// A rate in milli-records per ms, as an exact fraction `num / den`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Ratio {
    num: u128,
    den: u128,
}

impl Ratio {
    /// Nothing.
    pub(crate) const ZERO: Ratio = Ratio { num: 0, den: 1 };

    /// A whole rate.
    pub(crate) fn int(rate: u64) -> Ratio {
        Ratio {
            num: u128::from(rate),
            den: 1,
        }
    }

    /// This rate shared equally by `n` (≥ 1) readers.
    pub(crate) fn split(self, n: usize) -> Ratio {
        Ratio {
            num: self.num,
            den: self.den * n.max(1) as u128,
        }
    }

    /// This rate divided by `k` (≥ 1).
    pub(crate) fn per(self, k: u64) -> Ratio {
        Ratio {
            num: self.num,
            den: self.den * u128::from(k.max(1)),
        }
    }

    /// The work done at this rate in `ms`, rounded down.
    pub(crate) fn over(self, ms: u64) -> u128 {
        self.num.saturating_mul(u128::from(ms)) / self.den
    }

    /// How this rate compares with the whole rate `rate`: the net rate
    /// `self − rate` as (numerator, denominator, sign ≥ 0).
    fn net(self, rate: u64) -> (u128, u128, bool) {
        let against = u128::from(rate).saturating_mul(self.den);
        if self.num >= against {
            (self.num - against, self.den, true)
        } else {
            (against - self.num, self.den, false)
        }
    }

    /// The first whole ms by which a reader at this rate, whose target grows
    /// at `growth`, has closed a gap of `gap` milli-records; `None` if it
    /// never does (it reads no faster than the target grows, or there is no
    /// gap).
    pub(crate) fn ms_to_cover(self, growth: u64, gap: u128) -> Option<u64> {
        let (num, den, gaining) = self.net(growth);
        if !gaining || num == 0 || gap == 0 {
            return None;
        }
        Some(ms_of(gap.saturating_mul(den).div_ceil(num)))
    }

    /// The first whole ms at which a reader at this rate, whose target grows
    /// at `growth` faster than it reads, has fallen more than `room`
    /// milli-records further behind; `None` if it does not fall behind.
    pub(crate) fn ms_to_fall_behind(self, growth: u64, room: u128) -> Option<u64> {
        let (num, den, gaining) = self.net(growth);
        if gaining || num == 0 {
            return None;
        }
        Some(ms_of((room.saturating_mul(den) / num).saturating_add(1)))
    }
}

/// A time in ms; past `u64` is never (the end of the clock comes first).
fn ms_of(ms: u128) -> u64 {
    u64::try_from(ms).unwrap_or(u64::MAX)
}

/// Shares `capacity` max-min fairly among readers with the given demands
/// (`None`: as much as it can get): a reader asking for less than the fair
/// level gets what it asks, the others split what is left equally. Returns
/// each reader's rate, in input order. Exact: the rates sum to at most
/// `capacity`, and to `capacity` when some reader's demand is open or the
/// demands exceed it.
pub(crate) fn water_fill(capacity: Ratio, demands: &[Option<u64>]) -> Vec<Ratio> {
    let mut order: Vec<usize> = (0..demands.len()).collect();
    // Finite demands first, smallest first; open ones last.
    order.sort_by_key(|&i| (demands[i].is_none(), demands[i], i));
    let mut out = vec![Ratio::ZERO; demands.len()];
    let mut left = capacity;
    for (k, &i) in order.iter().enumerate() {
        let level = left.split(order.len() - k);
        match demands[i] {
            Some(d) if level.num >= u128::from(d).saturating_mul(level.den) => {
                out[i] = Ratio::int(d);
                left.num -= u128::from(d) * left.den;
            }
            _ => {
                for &j in &order[k..] {
                    out[j] = level;
                }
                return out;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fill(capacity: u64, demands: &[Option<u64>]) -> Vec<Ratio> {
        water_fill(Ratio::int(capacity), demands)
    }

    #[test]
    fn open_demands_split_equally() {
        let r = fill(10, &[None, None, None]);
        assert!(r.iter().all(|&x| x == Ratio::int(10).split(3)));
        // 10/3 per ms over 3 ms is 10: nothing lost.
        assert_eq!(r[0].over(3), 10);
        assert_eq!(r[0].over(1), 3);
    }

    #[test]
    fn a_small_demand_is_met_and_leaves_the_rest() {
        // Capacity 10; one reader asks 2 (a caught-up standby following a
        // write rate of 2), two want all they can get: 2, 4, 4.
        let r = fill(10, &[None, Some(2), None]);
        assert_eq!(r[1], Ratio::int(2));
        assert_eq!(r[0].over(1000), 4000);
        assert_eq!(r[2].over(1000), 4000);
    }

    #[test]
    fn demands_above_the_level_share_it() {
        // Capacity 9 for demands 2, 5, 6: 2 is met, 7 left for two: 3.5 each.
        let r = fill(9, &[Some(5), Some(2), Some(6)]);
        assert_eq!(r[1], Ratio::int(2));
        assert_eq!(r[0].over(2), 7);
        assert_eq!(r[2].over(2), 7);
        // All finite demands met: each gets its own, the rest is unused.
        let r = fill(100, &[Some(5), Some(2)]);
        assert_eq!(r, vec![Ratio::int(5), Ratio::int(2)]);
        assert!(fill(100, &[]).is_empty());
    }

    #[test]
    fn the_instant_a_gap_closes() {
        // 1,000,000 records/s chasing a target written at 11,000 records/s:
        // net 989,000 milli-records per ms. A gap of 1,000,000 records (10^9
        // milli) closes after 1011.1 ms: at 1012 ms. Down to the acceptable
        // lag of 10,000 records (10^7 milli): 990,000,000 / 989,000 =
        // 1001.01 ms, so at 1002 ms.
        let rate = Ratio::int(1_000_000);
        assert_eq!(rate.ms_to_cover(11_000, 1_000_000_000), Some(1012));
        assert_eq!(rate.ms_to_cover(11_000, 990_000_000), Some(1002));
        // No faster than the writes: never.
        assert_eq!(Ratio::int(11_000).ms_to_cover(11_000, 5), None);
        assert_eq!(Ratio::int(10_000).ms_to_cover(11_000, 5), None);
        assert_eq!(rate.ms_to_cover(0, 0), None);
        // A third of 10 per ms against writes of 2: net 4/3; 8 takes 6 ms.
        assert_eq!(Ratio::int(10).split(3).ms_to_cover(2, 8), Some(6));
    }

    #[test]
    fn the_instant_a_reader_falls_behind() {
        // Reading 3 per ms against writes of 5: 2 more behind per ms; with
        // 7 of room it is past it (9 > 7) at 4 ms, not at 3 ms (6 ≤ 7).
        assert_eq!(Ratio::int(3).ms_to_fall_behind(5, 7), Some(4));
        assert_eq!(Ratio::int(3).ms_to_fall_behind(5, 8), Some(5));
        assert_eq!(Ratio::int(5).ms_to_fall_behind(5, 8), None);
        assert_eq!(Ratio::int(6).ms_to_fall_behind(5, 8), None);
    }
}
