//! The restore rate the group leader observes
//! ([`ClusterState::observed_restore_rate`](crate::model::ClusterState::observed_restore_rate)),
//! from what a Kafka Streams leader sees: the lags members report at each
//! rebalance and the time between rebalances.
//!
//! At a rebalance, every member's replica (standby or warm-up) of the plan
//! in force whose reported lag fell from `L0` at the previous rebalance to
//! `L1` now gives a sample `(L0 − L1) × 1000 / Δt_ms` records per second, rounded
//! down (0 ignored): a lower bound of that replica's rate, since it may have
//! caught up before now. The observation is the largest sample of the
//! rebalance; without samples the leader keeps its previous one.

use std::collections::BTreeMap;

use super::units::SimTime;
use super::world::World;

/// Lags in records reported at one rebalance, by (client, task).
type Lags = BTreeMap<(usize, usize), u64>;

/// The leader's memory between rebalances, per run.
#[derive(Debug, Clone, Default)]
pub(crate) struct RateObserver {
    /// The last rebalance's time and the lags reported then.
    last: Option<(SimTime, Lags)>,
    /// The observation in force.
    observed: Option<u64>,
}

impl RateObserver {
    /// The observation at a rebalance at `now`, before its plan is applied
    /// (`world` holds the plan in force); remembers the lags reported now.
    pub(crate) fn observe(&mut self, world: &World, now: SimTime) -> Option<u64> {
        let lags = world.reported_lags();
        if let Some((then, before)) = &self.last {
            let ms = u128::from(now.since(*then).get());
            let best = before
                .iter()
                .filter(|&(&(c, t), _)| world.clients[c].replicas.contains(&t))
                .filter_map(|(key, &l0)| {
                    let l1 = *lags.get(key)?;
                    (l1 < l0 && ms > 0).then(|| u128::from(l0 - l1) * 1000 / ms)
                })
                .filter(|&rate| rate > 0)
                .max();
            if let Some(best) = best {
                self.observed = Some(u64::try_from(best).unwrap_or(u64::MAX));
            }
        }
        self.last = Some((now, lags));
        self.observed
    }
}
