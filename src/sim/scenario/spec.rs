//! [`Scenario`] as checked data: the cluster, its workload, the assignment
//! settings, the scripted events, random churn and the seed's perturbation.
//! Reading one is `file.rs`; checking one is `check.rs`.

use std::collections::BTreeMap;
use std::fmt;

use crate::model::ix::position;
use crate::model::Ix;

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
    /// The part of `rebalance_pause_ms` a task that changes owner spends
    /// being revoked (its previous owner commits and closes it); a task
    /// with no running previous owner pauses only the rest.
    pub revocation_pause_ms: u64,
    /// Static membership (`group.instance.id`): a member that stops without
    /// leaving keeps its tasks until the session timeout; back before it,
    /// it resumes them with no rebalance. Static members send no LeaveGroup
    /// when bounced.
    pub static_membership: bool,
    /// Under the cooperative protocol, a rebalance that revokes actives is
    /// followed by a second one once the revocation is done
    /// (`revocation_pause_ms` later), where the strategy runs again and may
    /// promote a warm-up caught up by then.
    pub second_round: bool,
    /// Client groups (`[[cluster.groups]]`); empty: every client is like the
    /// cluster's defaults above ([`ClusterSpec::groups`]). When not empty,
    /// `clients` is the sum of their `clients`.
    pub groups: Vec<GroupSpec>,
}

/// A group of alike clients: how many exist at time 0 and what each offers.
/// Scale-outs, scale-ins and crashes may name a group.
#[derive(Debug, Clone, PartialEq)]
pub struct GroupSpec {
    /// Its name (`big`).
    pub name: String,
    /// Its clients at time 0.
    pub clients: u32,
    /// Threads per client.
    pub threads: u32,
    /// Records per second one client restores.
    pub restore_rate: u64,
    /// Records per second one thread processes; `None`: no limit.
    pub process_rate: Option<u64>,
    /// The rack of every client of the group; `None`: dealt round robin
    /// from the cluster's `racks` by creation number.
    pub rack: Option<String>,
    /// Tag values every client of the group has; a key not given is dealt
    /// round robin from the cluster's `tags`.
    pub tags: BTreeMap<String, String>,
    /// CPU cores each client offers; `None`: not stated.
    pub cpu: Option<f64>,
    /// MiB of RAM each client offers; `None`: not stated.
    pub ram_mb: Option<u64>,
    /// MiB of disk each client offers; `None`: not stated.
    pub disk_mb: Option<u64>,
}

position!(
    /// The position of a group in [`ClusterSpec::groups`]: `cluster.groups[i]`.
    pub GroupNo,
    "group"
);

impl ClusterSpec {
    /// The client groups: those of the scenario, or one group `default` of
    /// `clients` clients with the cluster's values.
    pub fn groups(&self) -> Vec<GroupSpec> {
        if !self.groups.is_empty() {
            return self.groups.clone();
        }
        vec![GroupSpec {
            name: DEFAULT_GROUP.to_string(),
            clients: self.clients,
            threads: self.threads,
            restore_rate: self.restore_rate,
            process_rate: self.process_rate,
            rack: None,
            tags: BTreeMap::new(),
            cpu: self.cpu,
            ram_mb: self.ram_mb,
            disk_mb: self.disk_mb,
        }]
    }

    /// The group named `name`, by position.
    pub fn group_named(&self, name: &str) -> Option<GroupNo> {
        self.groups()
            .iter()
            .position(|g| g.name == name)
            .map(GroupNo::from_position)
    }

    /// The group of each client at time 0, in creation order: the first
    /// group's clients, then the next group's.
    pub fn initial_groups(&self) -> Vec<GroupNo> {
        let groups = self.groups();
        let mut out = Vec::new();
        for (g, group) in groups.iter().enumerate() {
            out.extend(std::iter::repeat_n(
                GroupNo::from_position(g),
                group.clients as usize,
            ));
        }
        out
    }

    /// The rack of the client of creation number `k` in `group`: the
    /// group's, else `racks[k mod len]`; `None` without racks.
    pub fn client_rack<'a>(&'a self, group: &'a GroupSpec, k: usize) -> Option<&'a str> {
        group
            .rack
            .as_deref()
            .or_else(|| (!self.racks.is_empty()).then(|| self.racks[k % self.racks.len()].as_str()))
    }

    /// The tags of the client of creation number `k` in `group`: the
    /// group's values, the others dealt `values[k mod len]`.
    pub fn client_tags(&self, group: &GroupSpec, k: usize) -> BTreeMap<String, String> {
        self.tags
            .iter()
            .map(|(key, values)| {
                let value = group
                    .tags
                    .get(key)
                    .cloned()
                    .unwrap_or_else(|| values[k % values.len()].clone());
                (key.clone(), value)
            })
            .collect()
    }
}

/// The name of the one group of a cluster without `[[cluster.groups]]`.
pub const DEFAULT_GROUP: &str = "default";

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
    /// Records per second arriving at each task's input on average, whether
    /// its active runs or not (the processing model, `cluster.process_rate`);
    /// `input_skew` shares the subtopology's total among its tasks.
    pub input_rate: u64,
    /// How the subtopology's input is spread over its partitions.
    pub input_skew: InputSkew,
    /// Thread time one record of this subtopology costs, in thousandths of
    /// what `process_rate` counts (1000: a thread processes `process_rate`
    /// records/s of it; 4000: a quarter of that).
    pub process_cost_milli: u32,
    /// CPU cores each task needs (read by the heron strategies); `None`:
    /// not stated.
    pub cpu: Option<f64>,
    /// MiB of RAM each task needs (heron strategies); `None`: not stated.
    pub ram_mb: Option<u64>,
    /// MiB of disk each task needs (heron strategies); `None`: not stated.
    pub disk_mb: Option<u64>,
}

/// How a subtopology's input (`input_rate` × `partitions` records/s in all)
/// is spread over its partitions; partition `p` has rank `p` (partition 0
/// is the hottest).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum InputSkew {
    /// Every partition gets `input_rate`.
    Uniform,
    /// Partition `p` gets a share proportional to `1 / (p + 1)^exponent`.
    Zipf {
        /// The exponent, > 0.
        exponent: f64,
    },
    /// The first `partitions` partitions each get `factor` times what each
    /// of the others gets.
    Hot {
        /// How many partitions are hot, fewer than the subtopology's.
        partitions: u32,
        /// How many times a cold partition's rate a hot one gets, ≥ 1.
        factor: f64,
    },
}

/// The default `process_cost`: one record costs what `process_rate` counts.
pub const DEFAULT_PROCESS_COST_MILLI: u32 = 1000;

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
        /// The group they belong to; `None`: the first group.
        group: Option<String>,
    },
    /// The `count` highest-numbered live clients (of `group`, if given)
    /// leave gracefully.
    ScaleIn {
        /// How many.
        count: u32,
        /// Only clients of this group; `None`: any.
        group: Option<String>,
    },
    /// A client crashes; the group notices after the session timeout.
    Crash {
        /// The client, or the group whose lowest-numbered live client crashes.
        client: Target,
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
        /// Whether a bounced client sends LeaveGroup (leaves at once);
        /// without, it stops and the group notices after the session timeout
        /// unless it is back first. `None`: it does unless membership is
        /// static.
        leave_group: Option<bool>,
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

/// Which client an event names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// A client by name (`c3`).
    Client(String),
    /// The lowest-numbered live client of a group, by the group's name.
    Group(String),
}

impl From<&str> for Target {
    /// A client by name.
    fn from(name: &str) -> Target {
        Target::Client(name.to_string())
    }
}

impl From<String> for Target {
    /// A client by name.
    fn from(name: String) -> Target {
        Target::Client(name)
    }
}

impl std::fmt::Display for Target {
    /// `c3`, or `a client of big`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Target::Client(name) => f.write_str(name),
            Target::Group(group) => write!(f, "a client of {group}"),
        }
    }
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
    /// Clients a `burst` crashes.
    pub burst_size: u32,
    /// The span a `burst`'s crashes are spread evenly over.
    pub burst_window_ms: u64,
    /// How long a `zone_outage`'s clients stay down.
    pub zone_outage_ms: u64,
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
    /// `burst_size` random live clients crash, spread evenly over
    /// `burst_window` (one draw decides whether they lose their state).
    Burst,
    /// Every live client of a random rack crashes and restarts
    /// `zone_outage_duration` later.
    ZoneOutage,
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

impl SubtopologySpec {
    /// Each partition's input rate in records/s, by partition: the
    /// subtopology's `input_rate × partitions` shared by `input_skew`'s
    /// weights, each rounded to the nearest whole record (half away from 0).
    pub fn input_rates(&self) -> Vec<u64> {
        let n = self.partitions as usize;
        let weights: Vec<f64> = match self.input_skew {
            InputSkew::Uniform => return vec![self.input_rate; n],
            InputSkew::Zipf { exponent } => (0..n)
                .map(|p| 1.0 / ((p + 1) as f64).powf(exponent))
                .collect(),
            InputSkew::Hot { partitions, factor } => (0..n)
                .map(|p| if p < partitions as usize { factor } else { 1.0 })
                .collect(),
        };
        let total = self.input_rate as f64 * n as f64;
        let sum: f64 = weights.iter().sum();
        // At most the total, 10⁶ × 10⁵ (`Scenario::check`): `as` is exact.
        #[allow(clippy::cast_possible_truncation)]
        weights
            .iter()
            .map(|w| (total * w / sum).round() as u64)
            .collect()
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
