//! [`AssignmentConfig`]: Kafka Streams' assignment settings, with Kafka's defaults.

/// KIP-925's rack-aware optimisation mode (`rack.aware.assignment.strategy`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum RackAwareStrategy {
    /// No rack-aware optimisation (Kafka's default).
    #[default]
    None,
    /// Minimise cross-rack traffic, keeping every client's task count.
    MinTraffic,
    /// Minimise cross-rack traffic, capping each client's share of a subtopology.
    BalanceSubtopology,
}

/// Assignment settings shared by every strategy (KIP-441, KIP-708, KIP-925 names).
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
        }
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
