//! When to ask for the next rebalance: when the slowest warm-up is predicted
//! to have caught up.

use std::collections::{BTreeMap, BTreeSet};

use crate::model::{ClientIx, IxVec, TaskIx};

use super::work::Work;

/// The measuring rebalance asked for when the leader has observed no
/// restore rate yet: a minute, by which the warm-ups are part-way.
pub(super) const MEASURE_MS: u64 = 60_000;

/// How many probing intervals the follow-up may wait at most.
pub(super) const MAX_INTERVALS: u64 = 4;

/// The follow-up delay, in ms: none without warm-ups; with them, when the
/// slowest warm-up is predicted to have caught up ([`records_ahead`]: its
/// client restores its actives first, then shares its rate among its
/// replicas) at the observed restore rate, plus a tenth and a second (lags
/// are reported, not live), at most [`MAX_INTERVALS`] probing intervals: the
/// prediction replaces the fixed interval. When no rate was observed:
/// [`MEASURE_MS`] (or the probing interval, if shorter), unless warm-ups of
/// the previous plan are still restoring, whose progress the leader would
/// have observed had there been any (a changelog written faster than it
/// restores, or a front that observes no rates): then the probing interval,
/// as Kafka probes. `standby`: each client's standbys in the plan.
pub(super) fn deadline(
    work: &Work<'_>,
    standby: &IxVec<ClientIx, BTreeSet<TaskIx>>,
) -> Option<u64> {
    let config = work.state.config();
    let interval = config.probing_rebalance_interval_ms;
    let mut warmups: BTreeMap<ClientIx, Vec<TaskIx>> = BTreeMap::new();
    for (t, w) in work.warmup.iter_enumerated() {
        if let Some(c) = *w {
            warmups.entry(c).or_default().push(t);
        }
    }
    let slowest = warmups
        .iter()
        .map(|(&c, tasks)| records_ahead(work, c, tasks, &standby[c]))
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
    let ms = slowest * 1000 / u128::from(rate.max(1));
    let padded = ms + ms / 10 + 1000;
    Some(
        u64::try_from(padded)
            .unwrap_or(u64::MAX)
            .min(interval.saturating_mul(MAX_INTERVALS)),
    )
}

/// Records client `c` reads before the slowest of its warm-ups `warmups`
/// (not empty) has caught up: everything its actives have left to restore
/// (they take the client's rate first), then, its replicas sharing the rate
/// equally, `min(x, w)` of each replica with `x` left, where `w` is what
/// that warm-up reads to come within `acceptable_recovery_lag`. `standby`:
/// its standbys. O(its actives and replicas).
fn records_ahead(
    work: &Work<'_>,
    c: ClientIx,
    warmups: &[TaskIx],
    standby: &BTreeSet<TaskIx>,
) -> u128 {
    let acceptable = u128::from(work.state.config().acceptable_recovery_lag);
    let left = |t: TaskIx| u128::from(work.lag(c, t).restore_records(work.end_offset(t)));
    let slowest = warmups
        .iter()
        .map(|&t| left(t).saturating_sub(acceptable))
        .max()
        .unwrap_or(0);
    let actives: u128 = work.stateful_on[c].iter().map(|&t| left(t)).sum();
    let shared: u128 = standby
        .iter()
        .chain(warmups)
        .map(|&t| left(t).min(slowest))
        .sum();
    actives + shared
}
