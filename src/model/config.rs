//! [`AssignmentConfig`]: Kafka Streams' assignment settings, with Kafka's
//! defaults, and [`AssignmentConfig::check`], the one place their rules live.
//! No serialisation here: the JSON reader (`wire`) and the scenario reader
//! convert their documents into this type.

use super::error::quote;
use super::InputError;

/// KIP-925's rack-aware optimisation mode (`rack.aware.assignment.strategy`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum RackAwareStrategy {
    /// No rack-aware optimisation (Kafka's default).
    #[default]
    None,
    /// Minimise cross-rack traffic, keeping every client's task count.
    MinTraffic,
    /// Minimise cross-rack traffic, capping each client's share of a subtopology.
    BalanceSubtopology,
}

/// Assignment settings shared by every strategy (KIP-441, KIP-708, KIP-925
/// names), and the one Samza setting `samza` reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AssignmentConfig {
    /// Standby replicas per stateful task (`num.standby.replicas`, default 0).
    pub num_standby_replicas: u32,
    /// A client this many records behind or fewer is caught up
    /// (`acceptable.recovery.lag`, default 10 000).
    pub acceptable_recovery_lag: u64,
    /// Warm-up replicas alive at once (`max.warmup.replicas`, default 2, at least 1).
    pub max_warmup_replicas: u32,
    /// Delay of a probing rebalance (`probing.rebalance.interval.ms`, default
    /// 600 000, at least 60 000).
    pub probing_rebalance_interval_ms: u64,
    /// Client tag keys standbys are spread over (`rack.aware.assignment.tags`, at most 5).
    pub rack_aware_assignment_tags: Vec<String>,
    /// KIP-925 mode.
    pub rack_aware_strategy: RackAwareStrategy,
    /// KIP-925 cost of a cross-rack placement; `None` takes the strategy's default.
    pub rack_aware_traffic_cost: Option<u32>,
    /// KIP-925 cost of moving a task; `None` takes the strategy's default.
    pub rack_aware_non_overlap_cost: Option<u32>,
    /// Samza's `cluster-manager.fault-domain-aware.standby.enabled` (default
    /// off), read by `samza` alone: no two containers of one family (an
    /// active container and its standby containers) on one rack either.
    pub samza_fault_domain_aware_standby: bool,
}

impl Default for AssignmentConfig {
    fn default() -> Self {
        AssignmentConfig {
            num_standby_replicas: 0,
            acceptable_recovery_lag: 10_000,
            max_warmup_replicas: 2,
            probing_rebalance_interval_ms: 600_000,
            rack_aware_assignment_tags: Vec::new(),
            rack_aware_strategy: RackAwareStrategy::None,
            rack_aware_traffic_cost: None,
            rack_aware_non_overlap_cost: None,
            samza_fault_domain_aware_standby: false,
        }
    }
}

impl AssignmentConfig {
    /// Checks the rules of every setting: `max_warmup_replicas` at least 1,
    /// `probing_rebalance_interval_ms` at least
    /// [`MIN_PROBING_REBALANCE_INTERVAL_MS`], at most [`MAX_TAG_KEYS`]
    /// `rack_aware_assignment_tags` of 1 to [`MAX_TAG_KEY_LEN`] characters,
    /// none listed twice.
    ///
    /// # Errors
    ///
    /// The first broken rule, naming `config.FIELD` and the value.
    pub fn check(&self) -> Result<(), InputError> {
        if self.max_warmup_replicas < 1 {
            return Err(InputError::new(
                "config.max_warmup_replicas",
                format!("must be at least 1, got {}", self.max_warmup_replicas),
            ));
        }
        if self.probing_rebalance_interval_ms < MIN_PROBING_REBALANCE_INTERVAL_MS {
            return Err(InputError::new(
                "config.probing_rebalance_interval_ms",
                format!(
                    "must be at least {MIN_PROBING_REBALANCE_INTERVAL_MS}, got {}",
                    self.probing_rebalance_interval_ms
                ),
            ));
        }
        let tags = &self.rack_aware_assignment_tags;
        if tags.len() > MAX_TAG_KEYS {
            return Err(InputError::new(
                "config.rack_aware_assignment_tags",
                format!(
                    "must list at most {MAX_TAG_KEYS} tag keys, got {}",
                    tags.len()
                ),
            ));
        }
        for (i, key) in tags.iter().enumerate() {
            let at = format!("config.rack_aware_assignment_tags[{i}]");
            if key.is_empty() || key.chars().count() > MAX_TAG_KEY_LEN {
                return Err(InputError::new(
                    at,
                    format!(
                        "must have 1 to {MAX_TAG_KEY_LEN} characters, got {}",
                        quote(key)
                    ),
                ));
            }
            if tags[..i].contains(key) {
                return Err(InputError::new(at, format!("lists {} twice", quote(key))));
            }
        }
        Ok(())
    }
}

/// Kafka's lower bound for `probing.rebalance.interval.ms`.
pub const MIN_PROBING_REBALANCE_INTERVAL_MS: u64 = 60_000;
/// KIP-708's limit on the number of client tag keys.
pub const MAX_TAG_KEYS: usize = 5;
/// KIP-708's limit on the length of a client tag key.
pub const MAX_TAG_KEY_LEN: usize = 20;
/// KIP-708's limit on the length of a client tag value.
pub const MAX_TAG_VALUE_LEN: usize = 30;
