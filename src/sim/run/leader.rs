//! The restore rate the group leader observes
//! ([`ClusterState::observed_restore_rate`](crate::model::ClusterState::observed_restore_rate)),
//! from what a Kafka Streams leader sees: the lags members report at each
//! rebalance and the time between rebalances.
//!
//! A member restores at one rate, which its restoring replicas share (the
//! simulator's physics, as a Kafka Streams instance's restore consumer
//! reads for all its stores). At a rebalance, every member's replicas
//! (standbys and warm-ups) of the plan in force restored `L0 − L1` records
//! each, their lag at the previous rebalance (the changelog's end offset
//! then, if it reported none: it had no store) less the lag now (nothing
//! where the lag grew). When one of them is still behind (`L1` above
//! `acceptable_recovery_lag`), the member restored replicas all that time:
//! the sum over `Δt_ms`, `Σ (L0 − L1) × 1000 / Δt_ms` records per second
//! rounded down, is its rate (0 ignored). A member whose replicas have all
//! caught up may have done so long before now: its sum is only a lower
//! bound, which can be far below the rate (replicas that caught up in the
//! first minute of an hour), and the leader does not use it. The
//! observation is the largest rate of the members with a replica still
//! behind; without one the leader keeps its previous observation (none
//! before the first).

use std::collections::BTreeMap;

use super::units::SimTime;
use super::world::World;

/// Lags in records reported at one rebalance, by (client, task).
type Lags = BTreeMap<(usize, usize), u64>;

/// The leader's memory between rebalances, per run: the last rebalance's
/// time, the lags reported then and the changelogs' end offsets then.
#[derive(Debug, Clone, Default)]
pub(crate) struct RateObserver {
    /// The last rebalance's time and the lags reported then.
    last: Option<(SimTime, Lags, Vec<u64>)>,
    /// The observation in force.
    observed: Option<u64>,
}

impl RateObserver {
    /// The observation at a rebalance at `now`, before its plan is applied
    /// (`world` holds the plan in force); remembers the lags reported now.
    pub(crate) fn observe(&mut self, world: &World, now: SimTime, acceptable: u64) -> Option<u64> {
        let lags = world.reported_lags();
        if let Some((then, before, ends)) = &self.last {
            let ms = u128::from(now.since(*then).get());
            // Per member: the records its replicas of the plan in force
            // restored (one that reported no lag then had no store: its lag
            // was the whole changelog), and whether one is still behind.
            let mut best: Option<u64> = None;
            for (c, client) in world.clients.iter().enumerate() {
                let mut records = 0u128;
                let mut behind = false;
                for &t in &client.replicas {
                    let Some(&l1) = lags.get(&(c, t)) else {
                        continue;
                    };
                    let l0 = before.get(&(c, t)).copied().unwrap_or(ends[t]);
                    records += u128::from(l0.saturating_sub(l1));
                    behind |= l1 > acceptable;
                }
                if behind && ms > 0 {
                    let rate = u64::try_from(records * 1000 / ms).unwrap_or(u64::MAX);
                    if rate > 0 {
                        best = best.max(Some(rate));
                    }
                }
            }
            if best.is_some() {
                self.observed = best;
            }
        }
        self.last = Some((now, lags, world.end_offsets()));
        self.observed
    }
}
