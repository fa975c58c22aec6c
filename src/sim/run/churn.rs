//! Random churn drawn from the seed, before any strategy runs, so every
//! strategy meets the same churn.
//!
//! Only `u64` draws from ChaCha8 are used (rand's portable primitive); times,
//! kinds, targets and coin flips are mapped from them by this module's own
//! arithmetic, so the schedule does not depend on rand's sampling helpers.

use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::units::SimTime;
use crate::sim::scenario::{ChurnKind, ChurnSpec};

/// One drawn churn event; its target is chosen when it happens, from
/// `pick` among the candidates then present (the same for every strategy,
/// since membership does not depend on the strategy).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ChurnEvent {
    pub at_ms: SimTime,
    pub kind: ChurnKind,
    pub pick: u64,
    pub lose_state: bool,
}

/// Draws the churn schedule of `spec` from `seed`, sorted by time.
pub(crate) fn schedule(spec: &ChurnSpec, seed: u64) -> Vec<ChurnEvent> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let span = spec.until_ms.saturating_sub(spec.from_ms);
    let expected = spec.events_per_hour * span as f64 / 3_600_000.0;
    // At most MAX_CHURN_EVENTS (`Scenario::check`); `as` saturates.
    #[allow(clippy::cast_possible_truncation)]
    let count = expected.round() as u64;
    if spec.kinds.is_empty() || span == 0 {
        return Vec::new();
    }
    let mut events: Vec<ChurnEvent> = (0..count)
        .map(|_| {
            // `span + 1` may be 2^64: the offset is taken in 128 bits, and
            // `from_ms + offset` is at most `until_ms`.
            let offset =
                u64::try_from(u128::from(rng.next_u64()) % (u128::from(span) + 1)).unwrap_or(span);
            let at_ms = SimTime::new(spec.from_ms.saturating_add(offset));
            let kind = spec.kinds[pick(rng.next_u64(), spec.kinds.len())];
            let pick = rng.next_u64();
            let coin = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
            ChurnEvent {
                at_ms,
                kind,
                pick,
                lose_state: coin < spec.lose_state_probability,
            }
        })
        .collect();
    events.sort_by_key(|e| e.at_ms);
    events
}

impl ChurnSpec {
    /// The instant and kind of every churn event this spec draws with
    /// `seed`, sorted by time: the schedule every run of the scenario with
    /// that seed meets (the plots mark it). An event whose kind finds no
    /// target when it comes (a restart with no crashed client) changes nothing.
    pub fn drawn_events(&self, seed: u64) -> Vec<(SimTime, ChurnKind)> {
        schedule(self, seed)
            .into_iter()
            .map(|e| (e.at_ms, e.kind))
            .collect()
    }
}

/// The `k`-th draw derived from `draw` (SplitMix64's finaliser of
/// `draw + k`): the targets of a burst's later crashes, from the seed.
pub(crate) fn derived(draw: u64, k: u64) -> u64 {
    let mut z = draw.wrapping_add(k.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The position `draw` selects among `len > 0` items: `draw mod len`.
pub(crate) fn pick(draw: u64, len: usize) -> usize {
    let len = u64::try_from(len).expect("a length fits in u64");
    usize::try_from(draw % len).expect("below a usize length")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec() -> ChurnSpec {
        ChurnSpec {
            events_per_hour: 2.0,
            kinds: vec![ChurnKind::Crash, ChurnKind::Restart],
            from_ms: 0,
            until_ms: 6 * 3_600_000,
            lose_state_probability: 0.5,
            burst_size: 2,
            burst_window_ms: 60_000,
            zone_outage_ms: 600_000,
        }
    }

    #[test]
    fn the_same_seed_draws_the_same_schedule() {
        assert_eq!(schedule(&spec(), 7), schedule(&spec(), 7));
        assert_ne!(schedule(&spec(), 7), schedule(&spec(), 8));
        let s = schedule(&spec(), 7);
        assert_eq!(s.len(), 12);
        assert!(s.windows(2).all(|w| w[0].at_ms <= w[1].at_ms));
        assert!(s.iter().all(|e| e.at_ms.get() <= 6 * 3_600_000));
    }

    #[test]
    fn drawn_events_are_the_schedule() {
        let drawn = spec().drawn_events(7);
        let schedule: Vec<(SimTime, ChurnKind)> = schedule(&spec(), 7)
            .iter()
            .map(|e| (e.at_ms, e.kind))
            .collect();
        assert_eq!(drawn, schedule);
        assert_eq!(drawn.len(), 12);
    }
}
