//! When to ask for the next rebalance: when the slowest warm-up is predicted
//! to have caught up.

use super::work::Work;

/// The measuring rebalance asked for when the leader has observed no
/// restore rate yet: a minute, by which the warm-ups are part-way.
pub(super) const MEASURE_MS: u64 = 60_000;

/// How many probing intervals the follow-up may wait at most.
pub(super) const MAX_INTERVALS: u64 = 4;

/// The follow-up delay, in ms: none without warm-ups; with them, the
/// slowest warm-up's lag over the observed restore rate, plus a tenth and a
/// second (lags are reported, not live), at most [`MAX_INTERVALS`] probing
/// intervals: the prediction replaces the fixed interval. When no rate was
/// observed: [`MEASURE_MS`] (or the probing interval, if shorter), unless
/// warm-ups of the previous plan are still restoring, whose progress the
/// leader would have observed had there been any (a changelog written
/// faster than it restores, or a front that observes no rates, such as the
/// Kafka Streams adapter today): then the probing interval, as Kafka probes.
pub(super) fn deadline(work: &Work<'_>) -> Option<u64> {
    let config = work.state.config();
    let interval = config.probing_rebalance_interval_ms;
    let end_offsets = work.state.end_offsets();
    let slowest = work
        .warmup
        .iter()
        .enumerate()
        .filter_map(|(t, w)| w.map(|c| work.lag(c, t).restore_records(end_offsets[t])))
        .max()?;
    let Some(rate) = work.state.observed_restore_rate() else {
        let measured_before = work
            .state
            .clients()
            .iter()
            .any(|c| !c.previous_warmup.is_empty());
        return Some(if measured_before {
            interval
        } else {
            MEASURE_MS.min(interval)
        });
    };
    let ms = u128::from(slowest) * 1000 / u128::from(rate.max(1));
    let padded = ms + ms / 10 + 1000;
    Some(
        u64::try_from(padded)
            .unwrap_or(u64::MAX)
            .min(interval.saturating_mul(MAX_INTERVALS)),
    )
}
