//! The restore rate the group leader observes
//! ([`ClusterState::observed_restore_rate`](crate::model::ClusterState::observed_restore_rate)),
//! from what a Kafka Streams leader sees: the lags members report at each
//! rebalance and the time between rebalances.
//!
//! At a rebalance, every member's replica (standby or warm-up) of the plan
//! in force whose reported lag fell from `L0` at the previous rebalance (the
//! changelog's end offset then, if it reported none: it had no store) to
//! `L1` now gives a sample `(L0 − L1) × 1000 / Δt_ms` records per second, rounded
//! down (0 ignored). A replica still behind (`L1` above
//! `acceptable_recovery_lag`) restored all that time: its sample is its
//! rate. One that has caught up may have done so before now: its sample is
//! only a lower bound, which can be far below the rate (a replica that
//! caught up in the first minute of an hour): the leader keeps its previous
//! observation instead. The observation is the largest sample of the
//! replicas still behind; without one the leader keeps its previous
//! observation (none before the first).

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
            // (still behind, rate) of every sample.
            // Every replica of the plan in force; one that reported no lag
            // then had no store: its lag was the whole changelog.
            let held = (0..world.clients.len())
                .flat_map(|c| world.clients[c].replicas.iter().map(move |&t| (c, t)));
            let samples: Vec<(bool, u64)> = held
                .filter_map(|key| {
                    let l0 = before.get(&key).copied().unwrap_or(ends[key.1]);
                    let l1 = *lags.get(&key)?;
                    let rate = (l1 < l0 && ms > 0).then(|| u128::from(l0 - l1) * 1000 / ms)?;
                    Some((l1 > acceptable, u64::try_from(rate).unwrap_or(u64::MAX)))
                })
                .filter(|&(_, rate)| rate > 0)
                .collect();
            if let Some(exact) = samples.iter().filter(|s| s.0).map(|s| s.1).max() {
                self.observed = Some(exact);
            }
        }
        self.last = Some((now, lags, world.end_offsets()));
        self.observed
    }
}
