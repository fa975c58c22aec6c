//! [`Scenario`]: what a simulation replays (DESIGN §5), as checked data.
//!
//! Reading a scenario from TOML, with errors naming the key, is
//! [`Scenario::from_toml`] (in `scenario_toml.rs`).

use crate::model::AssignmentConfig;

/// A whole scenario: the cluster, its workload, the assignment settings, the
/// scripted events and random churn. Every duration is in milliseconds.
#[derive(Debug, Clone, PartialEq)]
pub struct Scenario {
    /// Short name (`scale-out`).
    pub name: String,
    /// One sentence: the question the scenario answers.
    pub description: String,
    /// The seed used when the command line gives none.
    pub seed: u64,
    /// Simulated time to run.
    pub duration_ms: u64,
    /// Time between two samples of the time series.
    pub sample_every_ms: u64,
    /// Physics step: restore and write progress is computed per step.
    pub step_ms: u64,
    /// Strategies to run, by name; `None` runs every registered strategy.
    pub strategies: Option<Vec<String>>,
    /// The cluster at time 0.
    pub cluster: ClusterSpec,
    /// The topology: one entry per subtopology (id = position).
    pub subtopologies: Vec<SubtopologySpec>,
    /// Assignment settings given to every strategy.
    pub config: AssignmentConfig,
    /// Scripted events, sorted by time (stable for equal times).
    pub events: Vec<Event>,
    /// Random churn drawn from the seed.
    pub churn: Option<ChurnSpec>,
}

/// The cluster at time 0 and how it behaves.
#[derive(Debug, Clone, PartialEq)]
pub struct ClusterSpec {
    /// Clients at time 0, named `c0`, `c1`, ….
    pub clients: u32,
    /// Threads per client (the client's capacity).
    pub threads: u32,
    /// Racks dealt round-robin to clients in order of creation (may be empty).
    pub racks: Vec<String>,
    /// Records per second one client restores, shared by its restoring replicas.
    pub restore_rate: u64,
    /// How long the group takes to notice a crashed client.
    pub session_timeout_ms: u64,
    /// How long a task that changes owner (or, eager, every task) pauses in a rebalance.
    pub rebalance_pause_ms: u64,
    /// How long a store no longer held in any role stays on its client's disk.
    pub state_cleanup_delay_ms: u64,
    /// The rebalance protocol.
    pub protocol: Protocol,
    /// How long a gracefully leaving client waits for learners elsewhere to
    /// take its tasks over before it leaves anyway (KIP-441's first design,
    /// `scale.down.timeout.ms`); `None` waits as long as it takes. Read only
    /// under strategies that hand over on leave (`kip441-learner`).
    pub scale_down_timeout_ms: Option<u64>,
}

/// Kafka's rebalance protocols.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Protocol {
    /// Only tasks that change owner pause (KIP-429).
    Cooperative,
    /// Every task pauses in every rebalance.
    Eager,
}

/// One subtopology: `partitions` tasks `S_0 … S_{partitions-1}`.
#[derive(Debug, Clone, PartialEq)]
pub struct SubtopologySpec {
    /// Number of tasks.
    pub partitions: u32,
    /// Whether its tasks have changelog-backed state.
    pub stateful: bool,
    /// Changelog records per task at time 0.
    pub state_records: u64,
    /// Records per second each task appends to its changelog while its active runs.
    pub write_rate: u64,
}

/// A scripted event.
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    /// When it happens.
    pub at_ms: u64,
    /// What happens.
    pub kind: EventKind,
}

/// What an event does.
#[derive(Debug, Clone, PartialEq)]
pub enum EventKind {
    /// `count` new clients join (the next ids).
    ScaleOut {
        /// How many.
        count: u32,
    },
    /// The `count` highest-numbered live clients leave gracefully.
    ScaleIn {
        /// How many.
        count: u32,
    },
    /// A client crashes; the group notices after the session timeout.
    Crash {
        /// The client (`c3`).
        client: String,
        /// Whether its local state is lost with it.
        lose_state: bool,
    },
    /// A crashed client comes back.
    Restart {
        /// The client.
        client: String,
    },
    /// Every live client, in id order, leaves gracefully and rejoins
    /// `downtime_ms` later; one client every `interval_ms`.
    RollingBounce {
        /// Time between two clients' bounces.
        interval_ms: u64,
        /// Time a bounced client is away.
        downtime_ms: u64,
    },
    /// Every live client of `rack` crashes; with `duration_ms`, they restart
    /// that much later.
    RackOutage {
        /// The rack.
        rack: String,
        /// Whether local state is lost.
        lose_state: bool,
        /// When set, the clients restart after this long.
        duration_ms: Option<u64>,
    },
    /// The write rate of a subtopology's tasks (or of one task) changes.
    WriteSpike {
        /// The subtopology.
        subtopology: u32,
        /// One partition only, or all when `None`.
        partition: Option<u32>,
        /// The new rate, records per second per task.
        write_rate: u64,
    },
}

/// Random churn: events drawn from the seed, the same for every strategy.
#[derive(Debug, Clone, PartialEq)]
pub struct ChurnSpec {
    /// Mean number of churn events per hour of simulated time.
    pub events_per_hour: f64,
    /// The kinds to draw from, uniformly.
    pub kinds: Vec<ChurnKind>,
    /// Churn starts here.
    pub from_ms: u64,
    /// No churn event after this.
    pub until_ms: u64,
    /// Probability that a drawn crash loses its client's state.
    pub lose_state_probability: f64,
}

/// A kind of random churn event; its target is drawn when it happens.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum ChurnKind {
    /// A random live client crashes.
    Crash,
    /// A random crashed client restarts.
    Restart,
    /// One client joins.
    ScaleOut,
    /// The highest-numbered live client leaves.
    ScaleIn,
}
