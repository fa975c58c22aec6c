//! End-to-end delay: how long each input record waits between its arrival
//! and its processing, as a distribution over records.
//!
//! A task's input arrives at a constant rate `λ` and is processed in order,
//! so the record processed at time `t` arrived when the records processed
//! so far had all arrived: it waited exactly `backlog(t) / λ`, whatever the
//! processing did before. Within a stretch the backlog changes linearly, so
//! the records a task processes over it waited from `backlog₀ / λ` to
//! `backlog₁ / λ`, spread evenly ([`Segment`]). A record not processed by
//! the end counts with its age then (a lower bound on its wait).
//!
//! [`DelayHistogram`] keeps the records by wait in buckets of 1 ms below
//! 128 ms and of at most 1/64 of their lower edge above, so a percentile is
//! its bucket's upper edge, at most 1.6 % (or 1 ms) above the exact value;
//! the maximum is exact (rounded up to the millisecond). Integers
//! throughout: the same input gives the same figures anywhere.

use super::units::Millis;

/// Records waiting from `from / input` to `to / input` ms, spread evenly.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Segment {
    /// The task's input rate, milli-records per ms (≥ 1 for any mass).
    pub input: u64,
    /// The backlog (milli-records) the first of them found ahead.
    pub from: u128,
    /// The backlog the last of them found ahead.
    pub to: u128,
    /// How many (milli-records).
    pub mass: u128,
}

impl Segment {
    /// A backlog of `backlog` milli-records taken whole: the ages of its
    /// records spread evenly from 0 to `backlog / input`.
    pub(crate) fn aged(input: u64, backlog: u64) -> Segment {
        Segment {
            input,
            from: 0,
            to: u128::from(backlog),
            mass: u128::from(backlog),
        }
    }
}

/// Buckets of 1 ms below this many ms.
const LINEAR: u64 = 128;
/// Buckets per doubling above [`LINEAR`].
const PER_OCTAVE: u64 = 64;

/// The bucket of a wait of `ms` milliseconds (at most 3,775, for
/// `u64::MAX`).
#[allow(clippy::cast_possible_truncation)]
fn bucket(ms: u64) -> usize {
    if ms < LINEAR {
        return ms as usize;
    }
    let octave = 63 - u64::from(ms.leading_zeros()); // ≥ 7
    let shift = octave - 6;
    let mantissa = ms >> shift; // 64..=127
    (LINEAR + (shift - 1) * PER_OCTAVE + (mantissa - PER_OCTAVE)) as usize
}

/// The waits of bucket `b`, `[low, high)` in ms.
fn bounds(b: usize) -> (u64, u64) {
    let b = b as u64;
    if b < LINEAR {
        return (b, b + 1);
    }
    let shift = (b - LINEAR) / PER_OCTAVE + 1;
    let mantissa = (b - LINEAR) % PER_OCTAVE + PER_OCTAVE;
    (mantissa << shift, (mantissa + 1) << shift)
}

/// Records by how long they waited (module doc).
#[derive(Debug, Clone, Default)]
pub(crate) struct DelayHistogram {
    /// Milli-records that waited not at all.
    zero: u128,
    /// Milli-records by bucket of wait.
    buckets: Vec<u128>,
    /// The longest wait, in µs (rounded up).
    max_us: u128,
}

impl DelayHistogram {
    /// Adds `mass` milli-records processed as they arrived.
    pub(crate) fn on_time(&mut self, mass: u128) {
        self.zero += mass;
    }

    /// Adds a segment's records.
    pub(crate) fn add(&mut self, s: &Segment) {
        if s.mass == 0 || s.input == 0 {
            return;
        }
        let input = u128::from(s.input);
        // Waits in µs: backlog (milli-records) ÷ rate (milli-records/ms).
        let (a, b) = (s.from.min(s.to), s.from.max(s.to));
        let (low, high) = (a * 1000 / input, (b * 1000).div_ceil(input));
        self.max_us = self.max_us.max(high);
        if high == 0 {
            self.zero += s.mass;
            return;
        }
        if low == high {
            self.put(low / 1000, s.mass);
            return;
        }
        // Spread evenly over [low, high) µs, bucket by bucket; what integer
        // division leaves goes to the last bucket.
        let span = high - low;
        let mut left = s.mass;
        let mut b = bucket(ms_of(low / 1000));
        loop {
            let (_, edge) = bounds(b);
            let edge_us = u128::from(edge) * 1000;
            if edge_us >= high {
                self.put_bucket(b, left);
                return;
            }
            let from = low.max(u128::from(bounds(b).0) * 1000);
            let share = s.mass * (edge_us - from) / span;
            self.put_bucket(b, share);
            left -= share;
            b += 1;
        }
    }

    fn put(&mut self, ms: u128, mass: u128) {
        self.put_bucket(bucket(ms_of(ms)), mass);
    }

    fn put_bucket(&mut self, b: usize, mass: u128) {
        if self.buckets.len() <= b {
            self.buckets.resize(b + 1, 0);
        }
        self.buckets[b] += mass;
    }

    /// The `percent`-th percentile of the waits (nearest rank over
    /// milli-records), as its bucket's upper edge and never above the
    /// maximum; `None` with no record.
    pub(crate) fn percentile(&self, percent: u32) -> Option<Millis> {
        let total = self.zero + self.buckets.iter().sum::<u128>();
        if total == 0 {
            return None;
        }
        let rank = (total * u128::from(percent)).div_ceil(100).max(1);
        if rank <= self.zero {
            return Some(Millis::ZERO);
        }
        let mut seen = self.zero;
        for (b, &mass) in self.buckets.iter().enumerate() {
            seen += mass;
            if seen >= rank {
                let high = u128::from(bounds(b).1) * 1000;
                return Some(Millis::new(ms_of(high.min(self.max_us).div_ceil(1000))));
            }
        }
        self.max()
    }

    /// The longest wait, rounded up to the ms; `None` with no record.
    pub(crate) fn max(&self) -> Option<Millis> {
        let any = self.zero > 0 || self.buckets.iter().any(|&m| m > 0);
        any.then(|| Millis::new(ms_of(self.max_us.div_ceil(1000))))
    }
}

/// A wait in ms as `u64` (past it, the end of the clock).
fn ms_of(v: u128) -> u64 {
    u64::try_from(v).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_tile_the_line() {
        let mut previous_high = 0;
        for b in 0..3000 {
            let (low, high) = bounds(b);
            assert_eq!(low, previous_high, "bucket {b}");
            assert!(high > low);
            assert_eq!(bucket(low), b);
            assert_eq!(bucket(high - 1), b);
            if low >= LINEAR {
                // At most 1/64 of the lower edge wide.
                assert!((high - low) * 64 <= low, "bucket {b}: {low}..{high}");
            }
            previous_high = high;
        }
    }

    #[test]
    fn waits_by_hand() {
        let mut h = DelayHistogram::default();
        assert_eq!(h.percentile(50), None);
        // 90 records with no backlog: no wait.
        h.add(&Segment {
            input: 1,
            from: 0,
            to: 0,
            mass: 90_000,
        });
        // 10 records processed while the backlog fell from 10 milli-records
        // to none, at an input of 1 milli-record per ms (1 record/s): waits
        // spread over 10 ms down to 0.
        h.add(&Segment {
            input: 1,
            from: 10,
            to: 0,
            mass: 10_000,
        });
        assert_eq!(h.percentile(50), Some(Millis::ZERO));
        assert_eq!(h.percentile(90), Some(Millis::ZERO));
        assert_eq!(h.max(), Some(Millis::new(10)));
        // The 99th percentile: rank 99,000 of 100,000, 9,000 into the
        // spread of 1,000 per ms: the end of the bucket [8, 9), 9 ms.
        assert_eq!(h.percentile(99), Some(Millis::new(9)));
        assert_eq!(h.percentile(95), Some(Millis::new(5)));
        assert_eq!(h.percentile(100), Some(Millis::new(10)));
    }

    #[test]
    fn a_spread_away_from_zero_stays_where_it_is() {
        // 100 records that waited 40 to 45 s, evenly: the median 42.5 s.
        let mut h = DelayHistogram::default();
        h.add(&Segment {
            input: 100,
            from: 4_500_000,
            to: 4_000_000,
            mass: 100_000,
        });
        let p50 = h.percentile(50).unwrap().get();
        assert!((42_500..=42_500 + 42_500 / 64).contains(&p50), "{p50}");
        assert_eq!(h.percentile(1).unwrap().get() / 1000, 40);
        assert_eq!(h.max(), Some(Millis::new(45_000)));
    }

    #[test]
    fn long_waits_are_within_their_bucket() {
        let mut h = DelayHistogram::default();
        // A backlog of an hour's input aged evenly: the median wait is 30
        // minutes, within 1/64 above.
        let hour_ms = 3_600_000u64;
        h.add(&Segment::aged(5, 5 * hour_ms));
        let p50 = h.percentile(50).unwrap().get();
        assert!(
            (1_800_000..=1_800_000 + 1_800_000 / 64).contains(&p50),
            "{p50}"
        );
        assert_eq!(h.max(), Some(Millis::new(hour_ms)));
        assert_eq!(h.percentile(100), Some(Millis::new(hour_ms)));
    }
}
