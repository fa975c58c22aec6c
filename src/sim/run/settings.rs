//! The scenario's plain values the engine reads, in the simulator's units:
//! converted once, at the run's entry, so that from there every sum and
//! product is checked.

use super::units::{MilliRecords, Millis, Rate, Records, SimTime};
use super::world::Pauses;
use crate::sim::scenario::Scenario;

/// The scenario's settings in the simulator's units.
pub(crate) struct Settings {
    pub duration: SimTime,
    pub sample_every: Millis,
    pub step: Millis,
    pub session_timeout: Millis,
    pub rebalance_pause: Millis,
    /// The part of `rebalance_pause` a revoked task spends being revoked.
    pub revocation_pause: Millis,
    /// Static membership (`group.instance.id`).
    pub static_membership: bool,
    /// A second rebalance after one that revokes actives (cooperative).
    pub second_round: bool,
    pub state_cleanup_delay: Millis,
    pub scale_down_timeout: Option<Millis>,
    pub acceptable_lag: Records,
    pub restore_bandwidth: Option<Rate>,
    /// Whether any task has input (else the processing model has nothing to do).
    pub inputs: bool,
    /// Standbys per stateful task (`config.num_standby_replicas`).
    pub standbys: u32,
    /// Whether every task pauses in every rebalance (the eager protocol).
    pub eager: bool,
}

impl Settings {
    /// The settings of `scenario`.
    pub(crate) fn of(scenario: &Scenario) -> Settings {
        let cluster = &scenario.cluster;
        Settings {
            duration: SimTime::new(scenario.duration_ms),
            sample_every: Millis::new(scenario.sample_every_ms),
            step: Millis::new(scenario.step_ms),
            session_timeout: Millis::new(cluster.session_timeout_ms),
            rebalance_pause: Millis::new(cluster.rebalance_pause_ms),
            revocation_pause: Millis::new(cluster.revocation_pause_ms),
            static_membership: cluster.static_membership,
            second_round: cluster.second_round
                && cluster.protocol == crate::sim::scenario::Protocol::Cooperative,
            state_cleanup_delay: Millis::new(cluster.state_cleanup_delay_ms),
            scale_down_timeout: cluster.scale_down_timeout_ms.map(Millis::new),
            acceptable_lag: Records::new(scenario.config.acceptable_recovery_lag),
            restore_bandwidth: cluster.restore_bandwidth.map(Rate::new),
            inputs: scenario.subtopologies.iter().any(|s| s.input_rate > 0),
            standbys: scenario.config.num_standby_replicas,
            eager: cluster.protocol == crate::sim::scenario::Protocol::Eager,
        }
    }

    /// How long tasks pause when a plan is applied.
    pub(crate) fn pauses(&self) -> Pauses {
        Pauses {
            revoked: self.rebalance_pause,
            resumed: self.rebalance_pause.saturating_minus(self.revocation_pause),
            eager: self.eager,
        }
    }

    /// Milli-records of lag under which a copy counts as caught up.
    pub(crate) fn acceptable_milli(&self) -> u64 {
        // Past what milli-records hold, every lag is under it.
        self.acceptable_lag
            .to_milli()
            .unwrap_or(MilliRecords::MAX)
            .get()
    }
}
