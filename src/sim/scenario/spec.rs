//! [`Scenario`] as checked data: the cluster, its workload, the assignment
//! settings, the scripted events, random churn and the seed's perturbation.
//! Reading one is `file.rs`; checking one is `check.rs`.

use std::collections::BTreeMap;

use crate::model::AssignmentConfig;

/// A whole scenario: the cluster, its workload, the assignment settings, the
/// scripted events and random churn. Every duration is in milliseconds.
///
/// A scenario read by [`Scenario::from_toml`] has passed [`Scenario::check`];
/// one built in code should be checked before it is simulated.
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
    /// The longest stretch the engine advances at once; restores, catch-ups
    /// and backlogs are exact whatever it is (it changes no figure beyond
    /// rounding).
    pub step_ms: u64,
    /// Strategies to run, by name; `None` runs every registered strategy.
    pub strategies: Option<Vec<String>>,
    /// The cluster at time 0.
    pub cluster: ClusterSpec,
    /// The topology: one entry per subtopology (id = position).
    pub subtopologies: Vec<SubtopologySpec>,
    /// Assignment settings given to every strategy.
    pub config: AssignmentConfig,
    /// Scripted events, sorted by time (stable for equal times) when read.
    pub events: Vec<Event>,
    /// Random churn drawn from the seed.
    pub churn: Option<ChurnSpec>,
    /// Seeded variation of task sizes, write rates and event times
    /// ([`Scenario::perturbed`]); `None` varies nothing.
    pub perturb: Option<PerturbSpec>,
}

/// How much a seed varies a scripted scenario (`[perturb]`): each bound is
/// the half-width of a uniform draw around the scenario's value, so that
/// seeds give a distribution. Zero varies nothing.
#[derive(Debug, Clone, PartialEq)]
pub struct PerturbSpec {
    /// Each stateful task's initial changelog is `state_records × (1 + u)`,
    /// `u` uniform in `[−state_records, +state_records]` (a fraction, 0 to 1),
    /// rounded to whole records.
    pub state_records: f64,
    /// Each stateful task's write rate (its subtopology's and every
    /// `write_spike`'s) is multiplied by its own `1 + u`, `u` uniform in
    /// `[−write_rate, +write_rate]` (a fraction, 0 to 1), rounded to whole
    /// records per second.
    pub write_rate: f64,
    /// Each scripted event's time moves by a whole number of milliseconds
    /// uniform in `[−event_time, +event_time]`, clamped inside the run and
    /// never before an event scripted earlier.
    pub event_time_ms: u64,
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
    /// Client tags (KIP-708): for each key, values dealt round-robin to
    /// clients in order of creation, like `racks` (client `cK` has
    /// `values[K mod len]` for every key; a value may repeat, so
    /// `["z1", "z1", "z2", "z2"]` puts clients in pairs); at most 5 keys.
    pub tags: BTreeMap<String, Vec<String>>,
    /// Replicas of each input and changelog partition, on this many
    /// consecutive racks (leader first); at most the number of racks.
    pub replication_factor: u32,
    /// CPU cores each client offers (read by the heron strategies); `None`:
    /// not stated.
    pub cpu: Option<f64>,
    /// MiB of RAM each client offers (heron strategies); `None`: not stated.
    pub ram_mb: Option<u64>,
    /// MiB of disk each client offers (heron strategies); `None`: not stated.
    pub disk_mb: Option<u64>,
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
    /// Records per second the whole cluster can restore at once (what the
    /// brokers serve to restoring consumers), shared max-min fairly among
    /// the clients that restore; `None`: no limit beyond each client's
    /// `restore_rate`.
    pub restore_bandwidth: Option<u64>,
    /// Records per second one thread processes; `None`: no limit (a running
    /// active never falls behind its input).
    pub process_rate: Option<u64>,
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
    /// Records per second arriving at each task's input, whether its active
    /// runs or not (the processing model, `cluster.process_rate`).
    pub input_rate: u64,
    /// CPU cores each task needs (read by the heron strategies); `None`:
    /// not stated.
    pub cpu: Option<f64>,
    /// MiB of RAM each task needs (heron strategies); `None`: not stated.
    pub ram_mb: Option<u64>,
    /// MiB of disk each task needs (heron strategies); `None`: not stated.
    pub disk_mb: Option<u64>,
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
    /// Mean number of churn events per hour of simulated time; the run draws
    /// [`ChurnSpec::draws`] of them.
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

impl ChurnSpec {
    /// How many churn events a run draws: `events_per_hour` over
    /// `until − from`, rounded to the nearest integer (not finite, or past
    /// `u64`, for absurd rates: [`Scenario::check`] refuses those).
    pub fn draws(&self) -> f64 {
        let span = self.until_ms.saturating_sub(self.from_ms);
        (self.events_per_hour * span as f64 / 3_600_000.0).round()
    }
}

impl Scenario {
    /// Its tasks: the partitions of all its subtopologies.
    pub fn total_tasks(&self) -> u64 {
        self.subtopologies
            .iter()
            .map(|s| u64::from(s.partitions))
            .sum()
    }

    /// Whether it asks for standbys (`num_standby_replicas > 0`): the
    /// standby-cover figure means nothing without.
    pub fn standbys_asked(&self) -> bool {
        self.config.num_standby_replicas > 0
    }
}
