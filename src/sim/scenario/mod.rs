//! [`Scenario`]: what a simulation replays (see `docs/simulator.md`), as
//! checked data.
//!
//! Reading a scenario from TOML, with errors naming the key, is
//! [`Scenario::from_toml`] (in `scenario_toml.rs`); it checks each value
//! against its type as it reads it, then calls [`Scenario::check`], the one
//! place where the rules between values are checked: events inside the
//! duration, racks and subtopologies that exist, the clients' membership the
//! events imply, and the limits below.
//!
//! # Limits
//!
//! A scenario is a small file that can ask for unbounded memory or time, so
//! the sizes and the simulated work it asks for are bounded before anything
//! is allocated or simulated; past a limit the scenario is refused with the
//! key, its value and the limit (exit 2 on the command line). The limits are
//! far above every bundled scenario (at most 8 h: 28,800 steps and 481
//! samples; 48 tasks; 6 clients, 34 counting every join random churn may
//! draw; 29 churn events) and above realistic research use
//! (a Kafka Streams group of thousands of instances, tens of thousands of
//! tasks, months of simulated time at a 1 s step):
//!
//! | what | limit | why |
//! |---|---|---|
//! | any duration (`duration`, timeouts, `at`, `interval`, …) | [`MAX_DURATION_MS`] = 3650 days | sums of a few times stay far inside `u64` milliseconds (a rolling bounce over every client: 10,000 × 3650 days ≈ 3.2·10¹⁵ ms) |
//! | physics steps, `duration / step` | [`MAX_STEPS`] = 10,000,000 | 115 days at the default 1 s step; each step visits every task and client |
//! | samples, `duration / sample_every + 1` | [`MAX_SAMPLES`] = 100,000 | per strategy, in memory, in `timeseries.csv` and in every plot (69 days at the default 1 min) |
//! | clients that can ever exist: `cluster.clients`, plus every `scale_out`, plus the churn draws when `scale_out` is a churn kind | [`MAX_CLIENTS`] = 10,000 | clients are never reused |
//! | tasks, the sum of `partitions` | [`MAX_TASKS`] = 100,000 | |
//! | tasks × clients that can ever exist | [`MAX_TASK_CLIENTS`] = 100,000,000 | a rebalance reads every client's view of every task |
//! | simulated work, steps × (tasks + clients that can ever exist) | [`MAX_WORK`] = 10¹⁰ | every step visits every task and client: about 30 ns each in a release build on a 2-core machine, so about 5 minutes per strategy at the limit (10,000 tasks for 10 days at a 1 s step fit) |
//! | scripted events, `[[events]]` | [`MAX_EVENTS`] = 10,000 | each is replayed against the clients here and in the run |
//! | churn draws, `events_per_hour × (until − from)` | [`MAX_CHURN_EVENTS`] = 100,000 | drawn, stored and replayed before anything else; 11 years at 1 per hour |
//! | `state_records` per task | [`MAX_STATE_RECORDS`] = 10¹² | changelogs are counted in milli-records in `u64`: 10¹² records plus 10 years of writes at the highest rate stay below 2⁶⁴ milli-records |
//! | `write_rate` per task (subtopologies and `write_spike`), `input_rate` per task | [`MAX_WRITE_RATE`] = 10⁶ records/s | above one Kafka partition's write throughput |
//! | `cluster.restore_rate` per client, `cluster.restore_bandwidth`, `cluster.process_rate` per thread | [`MAX_RESTORE_RATE`] = 10⁹ records/s | |
//! | `cpu` of a task or a client | [`MAX_CPU`] = 10⁶ cores | far above any machine; sums over 100,000 tasks stay exact to a millionth of a core in `f64` |
//! | `ram_mb` or `disk_mb` of a task or a client | [`MAX_RAM_MB`] = 2³⁰ MiB (1 PiB) | far above any machine |
//! | `state_records` and write rates after `[perturb]` | the limits above, at the top of the drawn range (`× (1 + fraction)`) | a drawn value never passes a limit the scenario would be refused for |

pub mod duration;
pub(crate) mod file;
pub mod overrides;
pub(crate) mod perturb;
mod seeds;

pub use seeds::{SeedRange, MAX_SEEDS};

use std::collections::BTreeMap;

use duration::format_duration;
use crate::model::{
    key_path, quote, AssignmentConfig, InputError, MAX_TAG_KEYS, MAX_TAG_KEY_LEN, MAX_TAG_VALUE_LEN,
};

/// The longest duration any key of a scenario may give: 3650 days.
pub const MAX_DURATION_MS: u64 = 3_650 * 86_400_000;
/// The most physics steps a run may take (`duration / step`, rounded up).
pub const MAX_STEPS: u64 = 10_000_000;
/// The most samples of the time series a run may take.
pub const MAX_SAMPLES: u64 = 100_000;
/// The most clients that can ever exist in a run.
pub const MAX_CLIENTS: u64 = 10_000;
/// The most tasks (the sum of the subtopologies' partitions).
pub const MAX_TASKS: u64 = 100_000;
/// The most tasks × clients that can ever exist.
pub const MAX_TASK_CLIENTS: u64 = 100_000_000;
/// The most simulated work: physics steps × (tasks + clients that can ever exist).
pub const MAX_WORK: u64 = 10_000_000_000;
/// The most scripted events.
pub const MAX_EVENTS: usize = 10_000;
/// The most random churn events a run may draw.
pub const MAX_CHURN_EVENTS: u64 = 100_000;
/// The most changelog records a task may start with.
pub const MAX_STATE_RECORDS: u64 = 1_000_000_000_000;
/// The highest write rate of a task, records per second.
pub const MAX_WRITE_RATE: u64 = 1_000_000;
/// The highest restore rate of a client, records per second.
pub const MAX_RESTORE_RATE: u64 = 1_000_000_000;
/// The most CPU cores a task needs or a client offers.
pub const MAX_CPU: f64 = 1_000_000.0;
/// The most MiB of RAM a task needs or a client offers (1 PiB).
pub const MAX_RAM_MB: u64 = 1 << 30;

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

type Checked = Result<(), InputError>;

fn fail(path: impl Into<String>, message: String) -> Checked {
    Err(InputError::new(path, message))
}

/// `value` (shown as `shown`) is at most `limit`, a limit on `what`.
fn at_most(path: &str, value: u64, limit: u64, what: &str) -> Checked {
    if value > limit {
        return fail(
            path,
            format!("must be at most {limit} (the limit on {what}), got {value}"),
        );
    }
    Ok(())
}

/// A duration is at most [`MAX_DURATION_MS`].
fn short_enough(path: &str, ms: u64) -> Checked {
    if ms > MAX_DURATION_MS {
        return fail(
            path,
            format!(
                "must be at most {:?} (the limit on durations), got {:?}",
                format_duration(MAX_DURATION_MS),
                format_duration(ms)
            ),
        );
    }
    Ok(())
}

impl Scenario {
    /// Its tasks: the partitions of all its subtopologies.
    pub fn total_tasks(&self) -> u64 {
        self.subtopologies
            .iter()
            .map(|s| u64::from(s.partitions))
            .sum()
    }

    /// Checks the rules between values and the limits (module doc): events
    /// inside the duration naming racks, subtopologies and clients that exist
    /// at that time, churn inside the duration, and every size and amount of
    /// work the scenario asks for. The first problem found is returned as one
    /// line naming the key, `events[2].client must name a live client, got
    /// "c9" (…)`.
    ///
    /// `events` may be in any order: they are replayed in time order (equal
    /// times in list order) and named by their position in the list.
    /// Single values are checked by their types when read
    /// ([`Scenario::from_toml`], with the value as written in the message);
    /// this repeats only the few single-value rules the simulation relies on
    /// (positive durations and counts, a finite positive churn rate), so that
    /// a scenario built in code is safe to run once it has passed. Times are
    /// compared and added with checked arithmetic only.
    ///
    /// # Errors
    ///
    /// The first rule or limit broken, with the key's path and its value.
    pub fn check(&self) -> Result<(), InputError> {
        self.check_durations()?;
        self.check_time()?;
        self.check_sizes()?;
        self.check_resources()?;
        self.check_cluster_tags()?;
        self.check_events()?;
        self.check_perturb()?;
        self.check_churn()?;
        let scripted_clients = self.check_membership()?;
        self.check_clients(scripted_clients)
    }

    fn check_durations(&self) -> Checked {
        let c = &self.cluster;
        let mut durations = vec![
            ("duration".to_string(), self.duration_ms),
            ("step".to_string(), self.step_ms),
            ("sample_every".to_string(), self.sample_every_ms),
            ("cluster.session_timeout".to_string(), c.session_timeout_ms),
            ("cluster.rebalance_pause".to_string(), c.rebalance_pause_ms),
            (
                "cluster.state_cleanup_delay".to_string(),
                c.state_cleanup_delay_ms,
            ),
            (
                "config.probing_rebalance_interval".to_string(),
                self.config.probing_rebalance_interval_ms,
            ),
        ];
        if let Some(ms) = c.scale_down_timeout_ms {
            durations.push(("cluster.scale_down_timeout".to_string(), ms));
        }
        for (i, e) in self.events.iter().enumerate() {
            durations.push((format!("events[{i}].at"), e.at_ms));
            match e.kind {
                EventKind::RollingBounce {
                    interval_ms,
                    downtime_ms,
                } => {
                    durations.push((format!("events[{i}].interval"), interval_ms));
                    durations.push((format!("events[{i}].downtime"), downtime_ms));
                }
                EventKind::RackOutage {
                    duration_ms: Some(ms),
                    ..
                } => durations.push((format!("events[{i}].duration"), ms)),
                _ => {}
            }
        }
        if let Some(churn) = &self.churn {
            durations.push(("churn.from".to_string(), churn.from_ms));
            durations.push(("churn.until".to_string(), churn.until_ms));
        }
        if let Some(perturb) = &self.perturb {
            durations.push(("perturb.event_time".to_string(), perturb.event_time_ms));
        }
        durations
            .iter()
            .try_for_each(|(path, ms)| short_enough(path, *ms))
    }

    fn check_time(&self) -> Checked {
        let (duration, step, every) = (self.duration_ms, self.step_ms, self.sample_every_ms);
        for (path, ms) in [
            ("duration", duration),
            ("step", step),
            ("sample_every", every),
        ] {
            if ms == 0 {
                return fail(path, "must be at least \"1ms\", got \"0ms\"".to_string());
            }
        }
        if every % step != 0 {
            return fail(
                "sample_every",
                format!(
                    "must be a multiple of step {:?}, got {:?}",
                    format_duration(step),
                    format_duration(every)
                ),
            );
        }
        let steps = duration.div_ceil(step);
        if steps > MAX_STEPS {
            return fail(
                "duration",
                format!(
                    "must take at most {MAX_STEPS} steps of {:?} (the limit on physics steps), got {:?}: {steps} steps",
                    format_duration(step),
                    format_duration(duration)
                ),
            );
        }
        // The sample at 0 and one every `every` (`every` is at least 1).
        let samples = (duration / every).saturating_add(1);
        if samples > MAX_SAMPLES {
            return fail(
                "sample_every",
                format!(
                    "must give at most {MAX_SAMPLES} samples over duration {:?} (the limit on samples), got {:?}: {samples} samples",
                    format_duration(duration),
                    format_duration(every)
                ),
            );
        }
        Ok(())
    }

    fn check_sizes(&self) -> Checked {
        let c = &self.cluster;
        at_most(
            "cluster.clients",
            u64::from(c.clients),
            MAX_CLIENTS,
            "clients",
        )?;
        at_most(
            "cluster.restore_rate",
            c.restore_rate,
            MAX_RESTORE_RATE,
            "restore rates",
        )?;
        for (key, rate) in [
            ("cluster.restore_bandwidth", c.restore_bandwidth),
            ("cluster.process_rate", c.process_rate),
        ] {
            if let Some(rate) = rate {
                at_most(key, rate, MAX_RESTORE_RATE, "restore and processing rates")?;
            }
        }
        let mut tasks: u64 = 0;
        for (i, sub) in self.subtopologies.iter().enumerate() {
            let path = |key: &str| format!("subtopologies[{i}].{key}");
            // Each count is at most 2^32 − 1, so this sum cannot overflow.
            tasks = tasks.saturating_add(u64::from(sub.partitions));
            if tasks > MAX_TASKS {
                return fail(
                    path("partitions"),
                    format!(
                        "must keep the tasks at most {MAX_TASKS} (the limit on tasks), got {}: {tasks} tasks so far",
                        sub.partitions
                    ),
                );
            }
            at_most(
                &path("state_records"),
                sub.state_records,
                MAX_STATE_RECORDS,
                "changelog records per task",
            )?;
            at_most(
                &path("write_rate"),
                sub.write_rate,
                MAX_WRITE_RATE,
                "write rates",
            )?;
            at_most(
                &path("input_rate"),
                sub.input_rate,
                MAX_WRITE_RATE,
                "input rates",
            )?;
        }
        Ok(())
    }

    fn check_events(&self) -> Checked {
        if self.events.len() > MAX_EVENTS {
            return fail(
                "events",
                format!(
                    "must list at most {MAX_EVENTS} events (the limit on scripted events), got {}",
                    self.events.len()
                ),
            );
        }
        for (i, e) in self.events.iter().enumerate() {
            let path = |key: &str| format!("events[{i}].{key}");
            if e.at_ms > self.duration_ms {
                return fail(
                    path("at"),
                    format!(
                        "must be at most the scenario's duration {:?}, got {:?}",
                        format_duration(self.duration_ms),
                        format_duration(e.at_ms)
                    ),
                );
            }
            match &e.kind {
                EventKind::ScaleOut { count } | EventKind::ScaleIn { count } if *count == 0 => {
                    return fail(path("count"), "must be at least 1, got 0".to_string());
                }
                EventKind::RollingBounce { interval_ms: 0, .. } => {
                    return fail(
                        path("interval"),
                        "must be at least \"1ms\", got \"0ms\"".to_string(),
                    );
                }
                EventKind::RackOutage {
                    rack, duration_ms, ..
                } => {
                    if !self.cluster.racks.iter().any(|r| r == rack) {
                        let known = if self.cluster.racks.is_empty() {
                            "cluster.racks is empty".to_string()
                        } else {
                            format!("cluster.racks: {}", self.cluster.racks.join(", "))
                        };
                        return fail(
                            path("rack"),
                            format!(
                                "must name a rack of cluster.racks, got {} ({known})",
                                quote(rack)
                            ),
                        );
                    }
                    if *duration_ms == Some(0) {
                        return fail(
                            path("duration"),
                            "must be at least \"1ms\", got \"0ms\"".to_string(),
                        );
                    }
                }
                EventKind::WriteSpike {
                    subtopology,
                    partition,
                    write_rate,
                } => {
                    let n = self.subtopologies.len();
                    let Some(spec) = self.subtopologies.get(*subtopology as usize) else {
                        return fail(
                            path("subtopology"),
                            format!(
                                "must name a subtopology 0..={}, got {subtopology}",
                                n.saturating_sub(1)
                            ),
                        );
                    };
                    if !spec.stateful {
                        return fail(
                            path("subtopology"),
                            format!(
                                "must name a stateful subtopology, got {subtopology} (stateless)"
                            ),
                        );
                    }
                    if let Some(p) = partition.filter(|&p| p >= spec.partitions) {
                        return fail(
                            path("partition"),
                            format!(
                                "must be below subtopologies[{subtopology}].partitions = {}, got {p}",
                                spec.partitions
                            ),
                        );
                    }
                    at_most(
                        &path("write_rate"),
                        *write_rate,
                        MAX_WRITE_RATE,
                        "write rates",
                    )?;
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// Stated CPU, RAM and disk: positive and within [`MAX_CPU`],
    /// [`MAX_RAM_MB`] (RAM and disk alike).
    fn check_resources(&self) -> Checked {
        let cluster = &self.cluster;
        let mut stated = vec![(
            "cluster".to_string(),
            cluster.cpu,
            cluster.ram_mb,
            cluster.disk_mb,
        )];
        for (i, s) in self.subtopologies.iter().enumerate() {
            stated.push((format!("subtopologies[{i}]"), s.cpu, s.ram_mb, s.disk_mb));
        }
        for (at, cpu, ram_mb, disk_mb) in stated {
            if let Some(cpu) = cpu {
                if !(cpu.is_finite() && cpu > 0.0) {
                    return fail(
                        format!("{at}.cpu"),
                        format!("must be positive, got {cpu:?}"),
                    );
                }
                if cpu > MAX_CPU {
                    return fail(
                        format!("{at}.cpu"),
                        format!("must be at most {MAX_CPU:?} (the limit on cpu), got {cpu:?}"),
                    );
                }
            }
            for (key, mb) in [("ram_mb", ram_mb), ("disk_mb", disk_mb)] {
                let Some(mb) = mb else { continue };
                if mb == 0 {
                    return fail(
                        format!("{at}.{key}"),
                        "must be at least 1, got 0".to_string(),
                    );
                }
                at_most(&format!("{at}.{key}"), mb, MAX_RAM_MB, key)?;
            }
        }
        Ok(())
    }

    /// Tags as Kafka allows them (KIP-708) and the replication factor
    /// against the racks.
    fn check_cluster_tags(&self) -> Checked {
        let c = &self.cluster;
        if c.tags.len() > MAX_TAG_KEYS {
            return fail(
                "cluster.tags",
                format!(
                    "must have at most {MAX_TAG_KEYS} keys, got {}: {}",
                    c.tags.len(),
                    c.tags
                        .keys()
                        .map(|k| quote(k))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            );
        }
        for (key, values) in &c.tags {
            let at = key_path("cluster.tags", key);
            if key.is_empty() || key.chars().count() > MAX_TAG_KEY_LEN {
                return fail(
                    "cluster.tags",
                    format!(
                        "keys must have 1 to {MAX_TAG_KEY_LEN} characters, got {}",
                        quote(key)
                    ),
                );
            }
            if values.is_empty() {
                return fail(at, "must list at least one value, got []".to_string());
            }
            for (i, v) in values.iter().enumerate() {
                if v.is_empty() || v.chars().count() > MAX_TAG_VALUE_LEN {
                    return fail(
                        format!("{at}[{i}]"),
                        format!(
                            "must have 1 to {MAX_TAG_VALUE_LEN} characters, got {}",
                            quote(v)
                        ),
                    );
                }
            }
        }
        let rf = c.replication_factor;
        if rf == 0 {
            return fail(
                "cluster.replication_factor",
                "must be at least 1, got 0".to_string(),
            );
        }
        if rf > 1 && rf as usize > c.racks.len() {
            return fail(
                "cluster.replication_factor",
                format!(
                    "must be at most the number of cluster.racks ({}): replicas sit on distinct racks, got {rf}",
                    c.racks.len()
                ),
            );
        }
        Ok(())
    }

    /// The perturbation's fractions, and the largest values it may draw
    /// against the limits on state and write rates.
    fn check_perturb(&self) -> Checked {
        let Some(p) = &self.perturb else {
            return Ok(());
        };
        for (key, x) in [
            ("state_records", p.state_records),
            ("write_rate", p.write_rate),
        ] {
            if !(0.0..=1.0).contains(&x) {
                return fail(
                    format!("perturb.{key}"),
                    format!("must be a fraction between 0 and 1, got {x:?}"),
                );
            }
        }
        let top = |value: u64, x: f64| (value as f64 * (1.0 + x)).round();
        for (i, s) in self.subtopologies.iter().enumerate() {
            let drawn = top(s.state_records, p.state_records);
            if drawn > MAX_STATE_RECORDS as f64 {
                return fail(
                    "perturb.state_records",
                    format!(
                        "must keep subtopologies[{i}].state_records = {} at most {MAX_STATE_RECORDS} (the limit on state_records) when drawn, got {:?}: up to {drawn:.0}",
                        s.state_records, p.state_records
                    ),
                );
            }
        }
        let mut rates: Vec<(String, u64)> = self
            .subtopologies
            .iter()
            .enumerate()
            .map(|(i, s)| (format!("subtopologies[{i}].write_rate"), s.write_rate))
            .collect();
        for (i, e) in self.events.iter().enumerate() {
            if let EventKind::WriteSpike { write_rate, .. } = e.kind {
                rates.push((format!("events[{i}].write_rate"), write_rate));
            }
        }
        for (key, rate) in rates {
            let drawn = top(rate, p.write_rate);
            if drawn > MAX_WRITE_RATE as f64 {
                return fail(
                    "perturb.write_rate",
                    format!(
                        "must keep {key} = {rate} at most {MAX_WRITE_RATE} (the limit on write rates) when drawn, got {:?}: up to {drawn:.0}",
                        p.write_rate
                    ),
                );
            }
        }
        Ok(())
    }

    fn check_churn(&self) -> Checked {
        let Some(churn) = &self.churn else {
            return Ok(());
        };
        let x = churn.events_per_hour;
        if !(x.is_finite() && x > 0.0) {
            return fail(
                "churn.events_per_hour",
                format!("must be a finite number greater than 0, got {x:?}"),
            );
        }
        let p = churn.lose_state_probability;
        if !(0.0..=1.0).contains(&p) {
            return fail(
                "churn.lose_state_probability",
                format!("must be between 0 and 1, got {p:?}"),
            );
        }
        if churn.kinds.is_empty() {
            return fail(
                "churn.kinds",
                "must list at least one kind, got []".to_string(),
            );
        }
        if churn.until_ms > self.duration_ms {
            return fail(
                "churn.until",
                format!(
                    "must be at most the scenario's duration {:?}, got {:?}",
                    format_duration(self.duration_ms),
                    format_duration(churn.until_ms)
                ),
            );
        }
        if churn.from_ms >= churn.until_ms {
            let (from, until) = (
                format_duration(churn.from_ms),
                format_duration(churn.until_ms),
            );
            return if churn.until_ms == 0 {
                fail(
                    "churn.until",
                    format!("must be after churn.from {from:?}, got {until:?}"),
                )
            } else {
                fail(
                    "churn.from",
                    format!("must be before churn.until {until:?}, got {from:?}"),
                )
            };
        }
        let draws = churn.draws();
        // Also true for a rate so high that the count is infinite.
        if draws.is_nan() || draws > MAX_CHURN_EVENTS as f64 {
            return fail(
                "churn.events_per_hour",
                format!(
                    "must draw at most {MAX_CHURN_EVENTS} churn events from {:?} to {:?} (the limit on churn events), got {x:?}: {draws:.0} events",
                    format_duration(churn.from_ms),
                    format_duration(churn.until_ms)
                ),
            );
        }
        Ok(())
    }

    /// The clients the churn may add besides the scripted ones, then
    /// tasks × clients and the simulated work, against their limits.
    fn check_clients(&self, scripted_clients: u64) -> Checked {
        let mut clients = scripted_clients;
        if let Some(churn) = &self.churn {
            if churn.kinds.contains(&ChurnKind::ScaleOut) {
                // At most MAX_CHURN_EVENTS (checked above).
                #[allow(clippy::cast_possible_truncation)]
                let draws = churn.draws() as u64;
                clients = clients.saturating_add(draws);
                if clients > MAX_CLIENTS {
                    return fail(
                        "churn.events_per_hour",
                        format!(
                            "must keep the clients at most {MAX_CLIENTS} (the limit on clients), got {:?}: {scripted_clients} clients and up to {draws} churn scale-outs",
                            churn.events_per_hour
                        ),
                    );
                }
            }
        }
        let tasks: u64 = self
            .subtopologies
            .iter()
            .map(|s| u64::from(s.partitions))
            .sum();
        let product = tasks.saturating_mul(clients);
        if product > MAX_TASK_CLIENTS {
            return fail(
                "cluster.clients",
                format!(
                    "must keep tasks × clients at most {MAX_TASK_CLIENTS} (the limit on tasks × clients), got {}: {tasks} tasks × up to {clients} clients (with scale-outs and churn)",
                    self.cluster.clients
                ),
            );
        }
        let steps = self.duration_ms.div_ceil(self.step_ms.max(1));
        let work = steps.saturating_mul(tasks.saturating_add(clients));
        if work > MAX_WORK {
            return fail(
                "duration",
                format!(
                    "must keep steps × (tasks + clients) at most {MAX_WORK} (the limit on simulated work), got {:?}: {steps} steps of {:?} × ({tasks} tasks + up to {clients} clients)",
                    format_duration(self.duration_ms),
                    format_duration(self.step_ms)
                ),
            );
        }
        Ok(())
    }

    /// Replays the scripted events' membership in time order; returns how
    /// many clients the script creates in all.
    ///
    /// Clients `c0 … c{clients−1}` are live at time 0; `scale_out` creates the
    /// next numbers (numbers are never reused); `scale_in` makes the
    /// highest-numbered live clients leave (crashed clients stay crashed) and
    /// must leave one live client; `crash` needs a live client, `restart` a
    /// crashed one (a client that left is gone for good); `rack_outage` needs
    /// a client of its rack to exist by then, crashes the live ones and, with
    /// `duration`, restarts those still crashed that much later. At equal
    /// times the outage restarts come first (earliest scheduled first), then
    /// the events in list order. `rolling_bounce` changes no membership: its
    /// clients leave and come back with their state. Random churn is drawn
    /// while simulating and is not replayed here.
    fn check_membership(&self) -> Result<u64, InputError> {
        let cluster = &self.cluster;
        let mut members = vec![Member::Live; cluster.clients as usize];
        // Outage restarts not yet applied, by (time, order of scheduling).
        let mut restarts: BTreeMap<(u64, usize), Vec<usize>> = BTreeMap::new();
        let rack_of = |k: usize| -> Option<&str> {
            (!cluster.racks.is_empty()).then(|| cluster.racks[k % cluster.racks.len()].as_str())
        };
        let mut order: Vec<usize> = (0..self.events.len()).collect();
        order.sort_by_key(|&i| self.events[i].at_ms);
        for (n, &i) in order.iter().enumerate() {
            let event = &self.events[i];
            let at = |key: &str| format!("events[{i}].{key}");
            let when = format_duration(event.at_ms);
            while let Some(entry) = restarts.first_entry() {
                if entry.key().0 > event.at_ms {
                    break;
                }
                for k in entry.remove() {
                    if members[k] == Member::Crashed {
                        members[k] = Member::Live;
                    }
                }
            }
            let live = members.iter().filter(|m| **m == Member::Live).count();
            match &event.kind {
                EventKind::ScaleOut { count } => {
                    let total = (members.len() as u64).saturating_add(u64::from(*count));
                    if total > MAX_CLIENTS {
                        return Err(InputError::new(
                            at("count"),
                            format!(
                                "must keep the clients at most {MAX_CLIENTS} (the limit on clients), got {count}: {total} clients by {when}"
                            ),
                        ));
                    }
                    members.resize(
                        usize::try_from(total).expect("bounded by MAX_CLIENTS above"),
                        Member::Live,
                    );
                }
                EventKind::ScaleIn { count } => {
                    if *count as usize >= live {
                        return Err(InputError::new(
                            at("count"),
                            format!(
                                "must leave at least one live client, got {count} with {live} live at {when}"
                            ),
                        ));
                    }
                    let mut left = 0;
                    for m in members.iter_mut().rev() {
                        if left == *count {
                            break;
                        }
                        if *m == Member::Live {
                            *m = Member::Left;
                            left += 1;
                        }
                    }
                }
                EventKind::Crash { client, .. } => {
                    let k = expect(&members, client, Member::Live, &at("client"), &when)?;
                    members[k] = Member::Crashed;
                }
                EventKind::Restart { client } => {
                    let k = expect(&members, client, Member::Crashed, &at("client"), &when)?;
                    members[k] = Member::Live;
                }
                EventKind::RollingBounce { .. } | EventKind::WriteSpike { .. } => {}
                EventKind::RackOutage {
                    rack, duration_ms, ..
                } => {
                    let in_rack: Vec<usize> = (0..members.len())
                        .filter(|&k| rack_of(k) == Some(rack.as_str()))
                        .collect();
                    if in_rack.is_empty() {
                        return Err(InputError::new(
                            at("rack"),
                            format!(
                                "must name a rack some client has, got {rack:?} (only c0..c{} exist at {when})",
                                members.len().saturating_sub(1)
                            ),
                        ));
                    }
                    let crashed: Vec<usize> = in_rack
                        .into_iter()
                        .filter(|&k| members[k] == Member::Live)
                        .collect();
                    for &k in &crashed {
                        members[k] = Member::Crashed;
                    }
                    if let Some(d) = duration_ms {
                        // Both are at most MAX_DURATION_MS (checked first); a
                        // restart past u64 would never happen.
                        if let Some(back) = event.at_ms.checked_add(*d) {
                            restarts.insert((back, n), crashed);
                        }
                    }
                }
            }
        }
        Ok(members.len() as u64)
    }
}

/// Where a client is in the membership replay.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Member {
    Live,
    Crashed,
    Left,
}

/// `"c12"` → 12; `None` for anything that is not a client name (`"c012"`, `"x"`).
fn client_number(name: &str) -> Option<usize> {
    let digits = name.strip_prefix('c')?;
    let plain = !digits.is_empty()
        && digits.bytes().all(|b| b.is_ascii_digit())
        && (digits == "0" || !digits.starts_with('0'));
    plain.then(|| digits.parse().ok()).flatten()
}

/// The number of the client `name`, which must be in state `want`.
fn expect(
    members: &[Member],
    name: &str,
    want: Member,
    path: &str,
    when: &str,
) -> Result<usize, InputError> {
    let wanted = match want {
        Member::Live => "a live client",
        Member::Crashed => "a crashed client",
        Member::Left => "a client that left",
    };
    let Some(k) = client_number(name) else {
        return Err(InputError::new(
            path,
            format!("must name {wanted} (c0, c1, …), got {name:?}"),
        ));
    };
    let why = match members.get(k) {
        None => format!(
            "no such client at {when}: c0..c{} exist",
            members.len().saturating_sub(1)
        ),
        Some(m) if *m == want => return Ok(k),
        Some(Member::Live) => format!("it is live at {when}"),
        Some(Member::Crashed) => format!("it has crashed by {when}"),
        Some(Member::Left) => format!("it has left by {when}"),
    };
    Err(InputError::new(
        path,
        format!("must name {wanted}, got {name:?} ({why})"),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn client_names() {
        assert_eq!(client_number("c0"), Some(0));
        assert_eq!(client_number("c12"), Some(12));
        for bad in [
            "",
            "c",
            "c01",
            "C1",
            "c-1",
            "c1x",
            "x1",
            "c99999999999999999999999",
        ] {
            assert_eq!(client_number(bad), None, "{bad:?}");
        }
    }
}
