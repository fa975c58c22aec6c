//! The documents a scenario file is read into: its shape, key for key.
//!
//! The doc comment of every field below is that key's reference, the one
//! place it is written: what it means, then a line `Type: … · Default: …`
//! (for the event kinds of [`Kind`], a line `Keys: …`). docs/simulator.md
//! shows them as tables generated from this file (`keys.rs`; its test fails
//! when the two differ, and `SMOOTHSCALE_BLESS=1 cargo test --lib` rewrites
//! the tables).

use std::collections::BTreeMap;

use serde::Deserialize;

use super::duration::Duration;
use super::spec::{
    ChurnKind, ChurnSpec, ClusterSpec, Event, EventKind, PerturbSpec, Protocol, Scenario,
    SubtopologySpec,
};
use super::values::*;
use crate::assignor;
use crate::model::{
    key_path, quote, AssignmentConfig, InputError, RackAwareStrategy,
    MIN_PROBING_REBALANCE_INTERVAL_MS,
};

/// Default longest stretch (`step`).
pub const DEFAULT_STEP_MS: u64 = 1_000;
/// Default time between two samples (`sample_every`).
pub const DEFAULT_SAMPLE_EVERY_MS: u64 = 60_000;
/// Default `cluster.session_timeout`: Kafka's `session.timeout.ms` since 3.0.
pub const DEFAULT_SESSION_TIMEOUT_MS: u64 = 45_000;
/// Default `cluster.rebalance_pause`.
pub const DEFAULT_REBALANCE_PAUSE_MS: u64 = 5_000;
/// Default `cluster.state_cleanup_delay`: Kafka's `state.cleanup.delay.ms`.
pub const DEFAULT_STATE_CLEANUP_DELAY_MS: u64 = 600_000;
/// Default `churn.lose_state_probability`.
pub const DEFAULT_LOSE_STATE_PROBABILITY: f64 = 0.5;

/// Top level:
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ScenarioDoc {
    /// Short name; letters, digits, `-`, `_`, `.` only (it names output files).
    ///
    /// Type: string · Default: required
    name: String,
    /// One line: the question the scenario answers.
    ///
    /// Type: string · Default: `""`
    description: Option<String>,
    /// The seed when the command line gives none; draws the churn and the
    /// perturbation.
    ///
    /// Type: integer · Default: required
    seed: U64,
    /// Simulated time to run, ≥ 1 ms.
    ///
    /// Type: duration · Default: required
    duration: Duration<1>,
    /// The longest stretch the simulator advances at once, ≥ 1 ms; restores,
    /// catch-ups and the rebalances they trigger happen at their computed
    /// instants whatever it is, so it changes no figure beyond rounding.
    ///
    /// Type: duration · Default: `"1s"`
    step: Option<Duration<1>>,
    /// Time between two samples of the time series; a multiple of `step`.
    ///
    /// Type: duration · Default: `"1m"`
    sample_every: Option<Duration<1>>,
    /// The strategies to run, registered names, in this order.
    ///
    /// Type: names · Default: every registered strategy
    strategies: Option<Vec<String>>,
    /// The clients, below.
    ///
    /// Type: table · Default: required
    cluster: ClusterDoc,
    /// The topology, below; subtopology `i` is the `i`-th entry.
    ///
    /// Type: array of tables · Default: required (≥ 1)
    subtopologies: Vec<SubtopologyDoc>,
    /// The assignment settings every strategy gets, below.
    ///
    /// Type: table · Default: Kafka's defaults
    config: Option<ConfigDoc>,
    /// Scripted events, below; replayed in time order, equal times in file
    /// order.
    ///
    /// Type: array of tables · Default: none
    events: Option<Vec<EventDoc>>,
    /// Random churn drawn from the seed, below.
    ///
    /// Type: table · Default: no churn
    churn: Option<ChurnDoc>,
    /// Seeded variation of a scripted scenario, below.
    ///
    /// Type: table · Default: no perturbation
    perturb: Option<PerturbDoc>,
}

/// `[cluster]`:
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ClusterDoc {
    /// Clients `c0 … c{n−1}` at time 0, ≥ 1.
    ///
    /// Type: integer · Default: required
    clients: Count,
    /// Threads per client (its capacity), ≥ 1.
    ///
    /// Type: integer · Default: `1`
    threads: Option<Count>,
    /// Racks dealt round robin to clients in order of creation: `cK` is in
    /// `racks[K mod len]`.
    ///
    /// Type: names · Default: `[]`
    racks: Option<Vec<String>>,
    /// Records per second one client restores, shared by its restoring
    /// replicas; 1 to 10⁹.
    ///
    /// Type: integer · Default: required
    restore_rate: Int<1, { u64::MAX }>,
    /// How long the group takes to notice a crash (Kafka's
    /// `session.timeout.ms`).
    ///
    /// Type: duration · Default: `"45s"`
    session_timeout: Option<Duration>,
    /// How long a task that changes owner (eager: every task) pauses in a
    /// rebalance.
    ///
    /// Type: duration · Default: `"5s"`
    rebalance_pause: Option<Duration>,
    /// How long a store no longer held stays on a running client's disk
    /// (Kafka's `state.cleanup.delay.ms`).
    ///
    /// Type: duration · Default: `"10m"`
    state_cleanup_delay: Option<Duration>,
    /// `"cooperative"` (KIP-429) or `"eager"`.
    ///
    /// Type: string · Default: `"cooperative"`
    protocol: Option<Choice<Protocol>>,
    /// How long a leaving client waits for learners to take its tasks over
    /// (`kip441-learner` only).
    ///
    /// Type: duration · Default: none: as long as it takes
    scale_down_timeout: Option<Duration>,
    /// Records per second the whole cluster can restore at once (what the
    /// brokers serve to restoring consumers), shared max-min fairly among
    /// the clients that restore: a client that only follows its actives gets
    /// what that needs, the others split the rest; 1 to 10⁹.
    ///
    /// Type: integer · Default: none: no cluster-wide limit
    restore_bandwidth: Option<Int<1, { u64::MAX }>>,
    /// Records per second one thread processes of its running actives' input
    /// (the processing model): shared like restore bandwidth, an active with
    /// no backlog takes its input rate and the others split the rest;
    /// without it a running active never falls behind; 1 to 10⁹.
    ///
    /// Type: integer · Default: none: no limit
    process_rate: Option<Int<1, { u64::MAX }>>,
    /// Client tags (KIP-708's `client.tag.*`), e.g. `{ zone = ["z1", "z2"] }`:
    /// for each key, its values dealt round robin like `racks` (`cK` has
    /// `values[K mod len]`; a value may repeat, so `["z1", "z1", "z2", "z2"]`
    /// puts clients in pairs); at most 5 keys of 1 to 20 characters, values
    /// of 1 to 30 characters. Read by the tag-aware standby assignors when
    /// `config.rack_aware_assignment_tags` names the key.
    ///
    /// Type: table of names · Default: `{}`
    tags: Option<BTreeMap<String, Vec<String>>>,
    /// Replicas of every input and changelog partition, on this many
    /// consecutive racks: the task of index `n` (in task-id order) has
    /// replicas in `racks[n mod len]` (its leader), `racks[(n+1) mod len]`,
    /// …; at most the number of racks. KIP-925's rack-aware assignment reads
    /// every replica's rack.
    ///
    /// Type: integer · Default: `1`
    replication_factor: Option<Count>,
    /// CPU cores each client offers, > 0 and ≤ 10⁶; read by the `heron-*`
    /// strategies (not stated: Heron's container default, 10 cores).
    ///
    /// Type: number · Default: not stated
    cpu: Option<Number>,
    /// MiB of RAM each client offers, 1 to 2³⁰; read by the `heron-*`
    /// strategies (not stated: 10,240).
    ///
    /// Type: integer · Default: not stated
    ram_mb: Option<RamMb>,
    /// MiB of disk each client offers, 1 to 2³⁰; read by `heron-ffd` and
    /// `heron-rcrr` (not stated: Heron's container default, 10,240, so 9
    /// tasks of the default 1,024 after padding).
    ///
    /// Type: integer · Default: not stated
    disk_mb: Option<RamMb>,
}

/// `[[subtopologies]]`:
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SubtopologyDoc {
    /// Its tasks `i_0 … i_{partitions−1}`, ≥ 1; the sum over subtopologies
    /// at most 100,000.
    ///
    /// Type: integer · Default: required
    partitions: Count,
    /// Whether its tasks have changelog-backed state.
    ///
    /// Type: boolean · Default: `false`
    stateful: Option<bool>,
    /// Records in each task's changelog at time 0, at most 10¹²; stateful
    /// only.
    ///
    /// Type: integer · Default: `0`
    state_records: Option<U64>,
    /// Records per second each task appends to its changelog while its
    /// active runs, at most 10⁶; stateful only.
    ///
    /// Type: integer · Default: `0`
    write_rate: Option<U64>,
    /// Records per second arriving at each task's input topic, whether its
    /// active runs or not: a task down, paused or restoring falls behind by
    /// it, a running one catches up with what its client's threads have to
    /// spare (`cluster.process_rate`); 0 to 10⁶.
    ///
    /// Type: integer · Default: `0`
    input_rate: Option<U64>,
    /// CPU cores each task needs, > 0 and ≤ 10⁶; read by the `heron-*`
    /// strategies (not stated: Heron's instance default, 1 core).
    ///
    /// Type: number · Default: not stated
    cpu: Option<Number>,
    /// MiB of RAM each task needs, 1 to 2³⁰; read by the `heron-*`
    /// strategies (not stated: 1,024).
    ///
    /// Type: integer · Default: not stated
    ram_mb: Option<RamMb>,
    /// MiB of disk each task needs, 1 to 2³⁰; read by `heron-ffd` and
    /// `heron-rcrr` (not stated: 1,024).
    ///
    /// Type: integer · Default: not stated
    disk_mb: Option<RamMb>,
}

/// `[perturb]` (seeded variation, so that a sweep over the seeds of a
/// scripted scenario gives a distribution; each draw comes from its own
/// stream of the run's seed, apart from the churn's, and is made before any
/// strategy runs, so every strategy meets the same values):
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PerturbDoc {
    /// Each stateful task starts with `state_records × (1 + u)` records, `u`
    /// uniform in `[−x, +x]`, rounded.
    ///
    /// Type: fraction · Default: `0`
    state_records: Option<Number>,
    /// Each stateful task's write rate, its subtopology's and every
    /// `write_spike`'s, is multiplied by its own `1 + u`, `u` uniform in
    /// `[−x, +x]`, rounded to records/s.
    ///
    /// Type: fraction · Default: `0`
    write_rate: Option<Number>,
    /// Each scripted event moves by a whole number of milliseconds uniform
    /// in `[−d, +d]`, clamped to `[0, duration]` and never before an event
    /// scripted before it.
    ///
    /// Type: duration · Default: `0`
    event_time: Option<Duration>,
}

/// `[config]` (Kafka's names and defaults, as in the wire format's
/// `config`):
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ConfigDoc {
    /// Standbys per stateful task.
    ///
    /// Type: integer · Default: `0`
    num_standby_replicas: Option<U32>,
    /// Records a copy may be behind and still count as caught up.
    ///
    /// Type: integer · Default: `10000`
    acceptable_recovery_lag: Option<U64>,
    /// Warm-ups in flight at once, ≥ 1.
    ///
    /// Type: integer · Default: `2`
    max_warmup_replicas: Option<Count>,
    /// Time to the follow-up rebalance while warm-ups run, ≥ `"1m"`.
    ///
    /// Type: duration · Default: `"10m"`
    probing_rebalance_interval: Option<Duration<{ MIN_PROBING_REBALANCE_INTERVAL_MS }>>,
    /// Client tag keys standbys are spread over (KIP-708), at most 5 of 1 to
    /// 20 characters.
    ///
    /// Type: names · Default: `[]`
    rack_aware_assignment_tags: Option<Vec<String>>,
    /// KIP-925: `"none"`, `"min_traffic"` or `"balance_subtopology"`.
    ///
    /// Type: string · Default: `"none"`
    rack_aware_strategy: Option<Choice<RackAwareStrategy>>,
    /// KIP-925 cost of a partition read across racks, 0 to 2³² − 1.
    ///
    /// Type: integer · Default: the strategy's
    rack_aware_traffic_cost: Option<U32>,
    /// KIP-925 cost of moving a task, 0 to 2³² − 1.
    ///
    /// Type: integer · Default: the strategy's
    rack_aware_non_overlap_cost: Option<U32>,
    /// Samza's `cluster-manager.fault-domain-aware.standby.enabled`, read by
    /// `samza` only: no two containers of one family on one rack.
    ///
    /// Type: boolean · Default: `false`
    samza_fault_domain_aware_standby: Option<bool>,
}

/// The kinds of scripted events: what each does, then a line `Keys: …`
/// with the keys an event of the kind may have besides `at` and `kind`
/// (the default in parentheses).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    /// `count` new clients join, the next numbers.
    ///
    /// Keys: `count` (`1`)
    ScaleOut,
    /// The `count` highest-numbered live clients leave gracefully; fewer
    /// than the live clients.
    ///
    /// Keys: `count` (`1`)
    ScaleIn,
    /// A live client crashes, with `lose_state` losing its stores.
    ///
    /// Keys: `client` (required), `lose_state` (`false`)
    Crash,
    /// A crashed client comes back.
    ///
    /// Keys: `client` (required)
    Restart,
    /// Every live client in turn, `interval` apart, leaves and rejoins
    /// `downtime` later.
    ///
    /// Keys: `interval` (required, ≥ 1 ms), `downtime` (required)
    RollingBounce,
    /// Every live client of `rack` crashes; with `duration` (≥ 1 ms) they
    /// restart that much later.
    ///
    /// Keys: `rack` (required), `lose_state` (`false`), `duration` (none: no restart)
    RackOutage,
    /// The write rate (records/s per task) of a stateful subtopology, or one
    /// partition, changes.
    ///
    /// Keys: `subtopology` (required), `partition` (all), `write_rate` (required)
    WriteSpike,
}

impl Named for Kind {
    const CHOICES: &'static [(&'static str, Self)] = &[
        ("scale_out", Kind::ScaleOut),
        ("scale_in", Kind::ScaleIn),
        ("crash", Kind::Crash),
        ("restart", Kind::Restart),
        ("rolling_bounce", Kind::RollingBounce),
        ("rack_outage", Kind::RackOutage),
        ("write_spike", Kind::WriteSpike),
    ];
}

impl Kind {
    fn name(self) -> &'static str {
        Kind::CHOICES
            .iter()
            .find(|(_, k)| *k == self)
            .map_or("", |(name, _)| name)
    }

    /// The keys an event of this kind may have.
    pub(super) fn keys(self) -> &'static [&'static str] {
        match self {
            Kind::ScaleOut | Kind::ScaleIn => &["at", "kind", "count"],
            Kind::Crash => &["at", "kind", "client", "lose_state"],
            Kind::Restart => &["at", "kind", "client"],
            Kind::RollingBounce => &["at", "kind", "interval", "downtime"],
            Kind::RackOutage => &["at", "kind", "rack", "lose_state", "duration"],
            Kind::WriteSpike => &["at", "kind", "subtopology", "partition", "write_rate"],
        }
    }
}

/// `[[events]]`: every event has `at` (duration, required, at most
/// `duration`) and `kind` (required); its other keys depend on the kind, and
/// a key of another kind is an error:
///
/// (The fields below are the keys of every kind; those of another kind than
/// `kind` are refused when the table becomes an [`Event`]. The table of
/// kinds is generated from [`Kind`].)
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EventDoc {
    at: Duration,
    kind: Choice<Kind>,
    count: Option<Count>,
    client: Option<String>,
    lose_state: Option<bool>,
    interval: Option<Duration<1>>,
    downtime: Option<Duration>,
    rack: Option<String>,
    duration: Option<Duration<1>>,
    subtopology: Option<U32>,
    partition: Option<U32>,
    write_rate: Option<U64>,
}

/// `[churn]`:
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ChurnDoc {
    /// Mean churn events per hour, > 0: the run draws
    /// `round(events_per_hour × (until − from) / 1 h)`.
    ///
    /// Type: number · Default: required
    events_per_hour: Number,
    /// Drawn uniformly from `"crash"`, `"restart"`, `"scale_out"`,
    /// `"scale_in"`; no repeats.
    ///
    /// Type: array of strings · Default: all four
    kinds: Option<Vec<Choice<ChurnKind>>>,
    /// Churn starts here; before `until`.
    ///
    /// Type: duration · Default: `0`
    from: Option<Duration>,
    /// No churn after this; at most `duration`.
    ///
    /// Type: duration · Default: `duration`
    until: Option<Duration>,
    /// Chance that a drawn crash loses its client's stores.
    ///
    /// Type: fraction · Default: `0.5`
    lose_state_probability: Option<Number>,
}

impl ScenarioDoc {
    pub(super) fn into_scenario(self) -> Read<Scenario> {
        let events = match self.events {
            Some(list) => list
                .into_iter()
                .enumerate()
                .map(|(i, e)| e.into_event(&format!("events[{i}]")))
                .collect::<Read<Vec<Event>>>()?,
            None => Vec::new(),
        };
        Ok(Scenario {
            name: scenario_name(self.name)?,
            description: one_line_text("description", self.description.unwrap_or_default())?,
            seed: self.seed.0,
            duration_ms: self.duration.ms(),
            sample_every_ms: self
                .sample_every
                .map_or(DEFAULT_SAMPLE_EVERY_MS, Duration::ms),
            step_ms: self.step.map_or(DEFAULT_STEP_MS, Duration::ms),
            strategies: self.strategies.map(strategy_names).transpose()?,
            cluster: self.cluster.into_cluster()?,
            subtopologies: subtopologies(self.subtopologies)?,
            config: read_config(self.config)?,
            events,
            churn: self
                .churn
                .map(|c| c.into_churn(self.duration.ms()))
                .transpose()?,
            perturb: self.perturb.map(PerturbDoc::into_perturb).transpose()?,
        })
    }
}

fn scenario_name(s: String) -> Read<String> {
    if s.is_empty() {
        return fail("name", "must not be empty, got \"\"".to_string());
    }
    if !s
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
    {
        return fail(
            "name",
            format!(
                "must have only letters, digits, '-', '_' and '.', got {}",
                quote(&s)
            ),
        );
    }
    Ok(s)
}

fn one_line_text(path: &str, s: String) -> Read<String> {
    if s.chars().any(char::is_control) {
        return fail(path, format!("must be one line, got {}", quote(&s)));
    }
    Ok(s)
}

fn strategy_names(names: Vec<String>) -> Read<Vec<String>> {
    if names.is_empty() {
        return fail(
            "strategies",
            "must name at least one strategy (leave it out to run all), got []".to_string(),
        );
    }
    for (i, name) in names.iter().enumerate() {
        let here = format!("strategies[{i}]");
        assignor::named(here.as_str(), name)?;
        if names[..i].contains(name) {
            return fail(here, format!("lists {} twice", quote(name)));
        }
    }
    Ok(names)
}

impl ClusterDoc {
    fn into_cluster(self) -> Read<ClusterSpec> {
        Ok(ClusterSpec {
            clients: self.clients.small(),
            threads: self.threads.map_or(1, Int::small),
            racks: names("cluster.racks", self.racks.unwrap_or_default())?,
            restore_rate: self.restore_rate.0,
            session_timeout_ms: self
                .session_timeout
                .map_or(DEFAULT_SESSION_TIMEOUT_MS, Duration::ms),
            rebalance_pause_ms: self
                .rebalance_pause
                .map_or(DEFAULT_REBALANCE_PAUSE_MS, Duration::ms),
            state_cleanup_delay_ms: self
                .state_cleanup_delay
                .map_or(DEFAULT_STATE_CLEANUP_DELAY_MS, Duration::ms),
            protocol: self.protocol.map_or(Protocol::Cooperative, |c| c.0),
            scale_down_timeout_ms: self.scale_down_timeout.map(Duration::ms),
            restore_bandwidth: self.restore_bandwidth.map(|b| b.0),
            process_rate: self.process_rate.map(|r| r.0),
            tags: self.tags.unwrap_or_default(),
            replication_factor: self.replication_factor.map_or(1, Int::small),
            cpu: self.cpu.map(|n| positive("cluster.cpu", &n)).transpose()?,
            ram_mb: self.ram_mb.map(|n| n.0),
            disk_mb: self.disk_mb.map(|n| n.0),
        })
    }
}

fn subtopologies(docs: Vec<SubtopologyDoc>) -> Read<Vec<SubtopologySpec>> {
    if docs.is_empty() {
        return fail(
            "subtopologies",
            "must list at least one subtopology, got []".to_string(),
        );
    }
    docs.into_iter()
        .enumerate()
        .map(|(i, s)| {
            let stateful = s.stateful.unwrap_or(false);
            if !stateful {
                for (key, value) in [("state_records", s.state_records), ("write_rate", s.write_rate)] {
                    if let Some(v) = value {
                        return fail(
                            format!("subtopologies[{i}].{key}"),
                            format!(
                                "applies to stateful subtopologies only (set stateful = true), got {}",
                                v.0
                            ),
                        );
                    }
                }
            }
            Ok(SubtopologySpec {
                partitions: s.partitions.small(),
                stateful,
                state_records: s.state_records.map_or(0, |n| n.0),
                write_rate: s.write_rate.map_or(0, |n| n.0),
                input_rate: s.input_rate.map_or(0, |n| n.0),
                cpu: s
                    .cpu
                    .map(|n| positive(&format!("subtopologies[{i}].cpu"), &n))
                    .transpose()?,
                ram_mb: s.ram_mb.map(|n| n.0),
                disk_mb: s.disk_mb.map(|n| n.0),
            })
        })
        .collect()
}

/// `[config]` into the model's settings, checked by the model's one
/// validator ([`AssignmentConfig::check`]). Kept apart so that it can read
/// the shared wire document instead.
fn read_config(doc: Option<ConfigDoc>) -> Read<AssignmentConfig> {
    let Some(doc) = doc else {
        return Ok(AssignmentConfig::default());
    };
    let d = AssignmentConfig::default();
    let config = AssignmentConfig {
        num_standby_replicas: doc
            .num_standby_replicas
            .map_or(d.num_standby_replicas, Int::small),
        acceptable_recovery_lag: doc
            .acceptable_recovery_lag
            .map_or(d.acceptable_recovery_lag, |n| n.0),
        max_warmup_replicas: doc
            .max_warmup_replicas
            .map_or(d.max_warmup_replicas, Int::small),
        probing_rebalance_interval_ms: doc
            .probing_rebalance_interval
            .map_or(d.probing_rebalance_interval_ms, Duration::ms),
        rack_aware_assignment_tags: doc.rack_aware_assignment_tags.unwrap_or_default(),
        rack_aware_strategy: doc
            .rack_aware_strategy
            .map_or(d.rack_aware_strategy, |c| c.0),
        rack_aware_traffic_cost: doc.rack_aware_traffic_cost.map(Int::small),
        rack_aware_non_overlap_cost: doc.rack_aware_non_overlap_cost.map(Int::small),
        samza_fault_domain_aware_standby: doc.samza_fault_domain_aware_standby.unwrap_or(false),
    };
    // The interval's lower bound is already its type's
    // (`Duration<MIN_PROBING_REBALANCE_INTERVAL_MS>`, a message with the
    // duration as written), so the rules left to the model's check name keys
    // this file shares with the JSON format.
    config.check()?;
    Ok(config)
}

impl EventDoc {
    /// The keys given, in the order of the struct.
    fn given(&self) -> [(&'static str, bool); 10] {
        [
            ("count", self.count.is_some()),
            ("client", self.client.is_some()),
            ("lose_state", self.lose_state.is_some()),
            ("interval", self.interval.is_some()),
            ("downtime", self.downtime.is_some()),
            ("rack", self.rack.is_some()),
            ("duration", self.duration.is_some()),
            ("subtopology", self.subtopology.is_some()),
            ("partition", self.partition.is_some()),
            ("write_rate", self.write_rate.is_some()),
        ]
    }

    fn into_event(self, here: &str) -> Read<Event> {
        let kind = self.kind.0;
        let keys = kind.keys();
        if let Some((key, _)) = self
            .given()
            .into_iter()
            .find(|&(key, given)| given && !keys.contains(&key))
        {
            return fail(
                key_path(here, key),
                format!(
                    "is an unknown key for kind {:?} (expected one of {})",
                    kind.name(),
                    keys.join(", ")
                ),
            );
        }
        let missing = |key: &str| InputError::new(key_path(here, key), "is missing");
        let lose_state = self.lose_state.unwrap_or(false);
        let kind = match kind {
            Kind::ScaleOut => EventKind::ScaleOut {
                count: self.count.map_or(1, Int::small),
            },
            Kind::ScaleIn => EventKind::ScaleIn {
                count: self.count.map_or(1, Int::small),
            },
            Kind::Crash => EventKind::Crash {
                client: self.client.ok_or_else(|| missing("client"))?,
                lose_state,
            },
            Kind::Restart => EventKind::Restart {
                client: self.client.ok_or_else(|| missing("client"))?,
            },
            Kind::RollingBounce => EventKind::RollingBounce {
                interval_ms: self.interval.ok_or_else(|| missing("interval"))?.ms(),
                downtime_ms: self.downtime.ok_or_else(|| missing("downtime"))?.ms(),
            },
            Kind::RackOutage => EventKind::RackOutage {
                rack: self.rack.ok_or_else(|| missing("rack"))?,
                lose_state,
                duration_ms: self.duration.map(Duration::ms),
            },
            Kind::WriteSpike => EventKind::WriteSpike {
                subtopology: self
                    .subtopology
                    .ok_or_else(|| missing("subtopology"))?
                    .small(),
                partition: self.partition.map(Int::small),
                write_rate: self.write_rate.ok_or_else(|| missing("write_rate"))?.0,
            },
        };
        Ok(Event {
            at_ms: self.at.ms(),
            kind,
        })
    }
}

impl PerturbDoc {
    fn into_perturb(self) -> Read<PerturbSpec> {
        let fraction = |key: &str, n: Option<Number>| -> Read<f64> {
            match n {
                None => Ok(0.0),
                Some(n) if (0.0..=1.0).contains(&n.value) => Ok(n.value),
                Some(n) => fail(
                    format!("perturb.{key}"),
                    format!("must be a fraction between 0 and 1, got {}", n.shown),
                ),
            }
        };
        Ok(PerturbSpec {
            state_records: fraction("state_records", self.state_records)?,
            write_rate: fraction("write_rate", self.write_rate)?,
            event_time_ms: self.event_time.map_or(0, Duration::ms),
        })
    }
}

impl ChurnDoc {
    /// The churn; `until` defaults to the scenario's `duration_ms`.
    fn into_churn(self, duration_ms: u64) -> Read<ChurnSpec> {
        let rate = &self.events_per_hour;
        if rate.value <= 0.0 {
            return fail(
                "churn.events_per_hour",
                format!("must be greater than 0, got {}", rate.shown),
            );
        }
        let lose_state_probability = match self.lose_state_probability {
            None => DEFAULT_LOSE_STATE_PROBABILITY,
            Some(p) if (0.0..=1.0).contains(&p.value) => p.value,
            Some(p) => {
                return fail(
                    "churn.lose_state_probability",
                    format!("must be between 0 and 1, got {}", p.shown),
                )
            }
        };
        let kinds = match self.kinds {
            None => ChurnKind::CHOICES.iter().map(|&(_, k)| k).collect(),
            Some(list) => {
                if list.is_empty() {
                    return fail(
                        "churn.kinds",
                        "must list at least one kind, got []".to_string(),
                    );
                }
                let mut kinds: Vec<ChurnKind> = Vec::with_capacity(list.len());
                for (i, Choice(kind)) in list.into_iter().enumerate() {
                    if kinds.contains(&kind) {
                        let name = ChurnKind::CHOICES
                            .iter()
                            .find(|(_, k)| *k == kind)
                            .map_or("", |(name, _)| name);
                        return fail(
                            format!("churn.kinds[{i}]"),
                            format!("lists {} twice", quote(name)),
                        );
                    }
                    kinds.push(kind);
                }
                kinds
            }
        };
        Ok(ChurnSpec {
            events_per_hour: rate.value,
            kinds,
            from_ms: self.from.map_or(0, Duration::ms),
            until_ms: self.until.map_or(duration_ms, Duration::ms),
            lose_state_probability,
        })
    }
}
