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
    ChurnKind, ChurnSpec, ClusterSpec, Event, EventKind, GroupSpec, InputSkew, PerturbSpec,
    Protocol, Scenario, SubtopologySpec, Target, DEFAULT_PROCESS_COST_MILLI,
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
/// Default `churn.burst_size`.
pub const DEFAULT_BURST_SIZE: u32 = 2;
/// Default `churn.burst_window`.
pub const DEFAULT_BURST_WINDOW_MS: u64 = 60_000;
/// Default `churn.zone_outage_duration`.
pub const DEFAULT_ZONE_OUTAGE_MS: u64 = 600_000;
/// The churn kinds drawn when `churn.kinds` is not given: the four uniform
/// ones (the correlated `burst` and `zone_outage` only when asked for).
pub const DEFAULT_CHURN_KINDS: [ChurnKind; 4] = [
    ChurnKind::Crash,
    ChurnKind::Restart,
    ChurnKind::ScaleOut,
    ChurnKind::ScaleIn,
];

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
    /// Clients `c0 … c{n−1}` at time 0, ≥ 1; with `groups`, leave it out
    /// (each group gives its own).
    ///
    /// Type: integer · Default: required without `groups`
    clients: Option<Count>,
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
    /// The part of `rebalance_pause` a task that changes owner spends being
    /// revoked (its running owner commits and closes it); a task with no
    /// running previous owner (down, or new) pauses only the rest; at most
    /// `rebalance_pause`.
    ///
    /// Type: duration · Default: `0`
    revocation_pause: Option<Duration>,
    /// Static membership (`group.instance.id`): a member that stops without
    /// leaving (a crash, a bounce: static members send no LeaveGroup) keeps
    /// its tasks, down, until `session_timeout`; back before it, it resumes
    /// them with no rebalance.
    ///
    /// Type: boolean · Default: `false`
    static_membership: Option<bool>,
    /// Cooperative protocol only: a rebalance that revokes running actives
    /// is followed by a second one when the revocation is done
    /// (`revocation_pause` later, at least 1 ms), where the strategy runs
    /// again with the lags then (a warm-up caught up by then is promoted at
    /// once), as Kafka's cooperative rebalancing does.
    ///
    /// Type: boolean · Default: `false`
    second_round: Option<bool>,
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
    /// Client groups, below: clients that differ (instance sizes, restore
    /// and processing speeds, racks). Clients are numbered in group order at
    /// time 0 (the first group's `c0 …`, then the next group's); a
    /// `scale_out` adds clients of one group. The keys above are the
    /// defaults of every group.
    ///
    /// Type: array of tables · Default: one group `default` of `clients`
    groups: Option<Vec<GroupDoc>>,
}

/// `[[cluster.groups]]` (each key not given is the cluster's):
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GroupDoc {
    /// The group's name, which events use; letters, digits, `-`, `_`, `.`;
    /// distinct.
    ///
    /// Type: string · Default: required
    name: String,
    /// Its clients at time 0 (0 for a group only scale-outs add to).
    ///
    /// Type: integer · Default: `0`
    clients: Option<U32>,
    /// Threads per client of the group (its capacity, which every strategy
    /// reads), ≥ 1.
    ///
    /// Type: integer · Default: `cluster.threads`
    threads: Option<Count>,
    /// Records per second one client of the group restores; 1 to 10⁹.
    ///
    /// Type: integer · Default: `cluster.restore_rate`
    restore_rate: Option<Int<1, { u64::MAX }>>,
    /// Records per second one thread of the group processes; 1 to 10⁹.
    ///
    /// Type: integer · Default: `cluster.process_rate`
    process_rate: Option<Int<1, { u64::MAX }>>,
    /// The rack of every client of the group.
    ///
    /// Type: string · Default: dealt from `cluster.racks`
    rack: Option<String>,
    /// Tag values of every client of the group, e.g. `{ zone = "z1" }`; a key
    /// not given is dealt from `cluster.tags`.
    ///
    /// Type: table of strings · Default: `{}`
    tags: Option<BTreeMap<String, String>>,
    /// CPU cores each client of the group offers, > 0 and ≤ 10⁶.
    ///
    /// Type: number · Default: `cluster.cpu`
    cpu: Option<Number>,
    /// MiB of RAM each client of the group offers, 1 to 2³⁰.
    ///
    /// Type: integer · Default: `cluster.ram_mb`
    ram_mb: Option<RamMb>,
    /// MiB of disk each client of the group offers, 1 to 2³⁰.
    ///
    /// Type: integer · Default: `cluster.disk_mb`
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
    /// Records per second arriving at each task's input topic on average,
    /// whether its active runs or not: a task down, paused or restoring falls
    /// behind by it, a running one catches up with what its client's threads
    /// have to spare (`cluster.process_rate`); 0 to 10⁶. `input_skew` shares
    /// the subtopology's `input_rate × partitions` among its tasks.
    ///
    /// Type: integer · Default: `0`
    input_rate: Option<U64>,
    /// How the input is spread over the partitions: `"uniform"` (each gets
    /// `input_rate`), `"zipf"` (partition `p` gets a share proportional to
    /// `1 / (p + 1)^zipf_exponent`) or `"hot"` (the first `hot_partitions`
    /// each get `hot_factor` times what each other partition gets); each
    /// task's rate is rounded to records/s and must stay at most 10⁶.
    ///
    /// Type: string · Default: `"uniform"`
    input_skew: Option<Choice<SkewKind>>,
    /// The Zipf exponent, > 0 and ≤ 10; with `input_skew = "zipf"` only.
    ///
    /// Type: number · Default: `1`
    zipf_exponent: Option<Number>,
    /// How many partitions are hot, fewer than `partitions`; with
    /// `input_skew = "hot"` only.
    ///
    /// Type: integer · Default: `1`
    hot_partitions: Option<Count>,
    /// How many times a cold partition's rate a hot one gets, 1 to 1,000;
    /// with `input_skew = "hot"` only.
    ///
    /// Type: number · Default: `10`
    hot_factor: Option<Number>,
    /// Thread time one record costs, relative to what `cluster.process_rate`
    /// counts: a thread processes `process_rate / process_cost` records/s
    /// of this subtopology (stateful work that costs more than stateless
    /// says so here); 0.001 to 1,000, in thousandths.
    ///
    /// Type: number · Default: `1`
    process_cost: Option<Number>,
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
    /// `count` new clients of `group` join, the next numbers.
    ///
    /// Keys: `count` (`1`), `group` (the first group)
    ScaleOut,
    /// The `count` highest-numbered live clients (of `group`, if given) leave
    /// gracefully; fewer than the live clients.
    ///
    /// Keys: `count` (`1`), `group` (any)
    ScaleIn,
    /// A live client crashes, with `lose_state` losing its stores: `client`
    /// by name, or the lowest-numbered live client of `group` (one of the
    /// two).
    ///
    /// Keys: `client` (or `group`), `group` (or `client`), `lose_state` (`false`)
    Crash,
    /// A crashed client comes back.
    ///
    /// Keys: `client` (required)
    Restart,
    /// Every live client in turn, `interval` apart, leaves and rejoins
    /// `downtime` later; with `leave_group = false` (and always under static
    /// membership) it stops without leaving, and the group notices after
    /// the session timeout unless it is back first.
    ///
    /// Keys: `interval` (required, ≥ 1 ms), `downtime` (required), `leave_group` (`true`; `false` under static membership)
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
            Kind::ScaleOut | Kind::ScaleIn => &["at", "kind", "count", "group"],
            Kind::Crash => &["at", "kind", "client", "group", "lose_state"],
            Kind::Restart => &["at", "kind", "client"],
            Kind::RollingBounce => &["at", "kind", "interval", "downtime", "leave_group"],
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
    group: Option<String>,
    lose_state: Option<bool>,
    interval: Option<Duration<1>>,
    downtime: Option<Duration>,
    leave_group: Option<bool>,
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
    /// `"scale_in"` and the correlated `"burst"` (`burst_size` crashes
    /// within `burst_window`) and `"zone_outage"` (every live client of a
    /// random rack crashes and restarts `zone_outage_duration` later; needs
    /// racks); no repeats.
    ///
    /// Type: array of strings · Default: the first four
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
    /// Clients a `burst` crashes, 2 to 1,000 (fewer when fewer than two
    /// members would stay).
    ///
    /// Type: integer · Default: `2`
    burst_size: Option<Count>,
    /// The span a `burst`'s crashes are spread evenly over (0: at once).
    ///
    /// Type: duration · Default: `"1m"`
    burst_window: Option<Duration>,
    /// How long a `zone_outage`'s clients stay down before they restart.
    ///
    /// Type: duration · Default: `"10m"`
    zone_outage_duration: Option<Duration<1>>,
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
        let mut cluster = ClusterSpec {
            clients: self.clients.map_or(0, Int::small),
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
            revocation_pause_ms: self.revocation_pause.map_or(0, Duration::ms),
            static_membership: self.static_membership.unwrap_or(false),
            second_round: self.second_round.unwrap_or(false),
            scale_down_timeout_ms: self.scale_down_timeout.map(Duration::ms),
            restore_bandwidth: self.restore_bandwidth.map(|b| b.0),
            process_rate: self.process_rate.map(|r| r.0),
            tags: self.tags.unwrap_or_default(),
            replication_factor: self.replication_factor.map_or(1, Int::small),
            cpu: self.cpu.map(|n| positive("cluster.cpu", &n)).transpose()?,
            ram_mb: self.ram_mb.map(|n| n.0),
            disk_mb: self.disk_mb.map(|n| n.0),
            groups: Vec::new(),
        };
        match (self.clients, self.groups) {
            (Some(_), None) => {}
            (None, None) => return fail("cluster.clients", "is missing".to_string()),
            (Some(n), Some(_)) => {
                return fail(
                    "cluster.clients",
                    format!(
                    "must be left out with cluster.groups (each group gives its clients), got {}",
                    n.0
                ),
                )
            }
            (None, Some(docs)) => {
                if docs.is_empty() {
                    return fail(
                        "cluster.groups",
                        "must list at least one group (leave it out for one), got []".to_string(),
                    );
                }
                let groups = docs
                    .into_iter()
                    .enumerate()
                    .map(|(i, g)| g.into_group(&format!("cluster.groups[{i}]"), &cluster))
                    .collect::<Read<Vec<GroupSpec>>>()?;
                for (i, g) in groups.iter().enumerate() {
                    if groups[..i].iter().any(|h| h.name == g.name) {
                        return fail(
                            format!("cluster.groups[{i}].name"),
                            format!("names a group twice, got {}", quote(&g.name)),
                        );
                    }
                }
                let total: u64 = groups.iter().map(|g| u64::from(g.clients)).sum();
                cluster.clients = u32::try_from(total).map_err(|_| {
                    InputError::new(
                        "cluster.groups",
                        format!(
                            "must have at most {} clients at time 0, got {total}",
                            u32::MAX
                        ),
                    )
                })?;
                cluster.groups = groups;
            }
        }
        Ok(cluster)
    }
}

impl GroupDoc {
    /// The group, each key not given taken from `cluster`.
    fn into_group(self, here: &str, cluster: &ClusterSpec) -> Read<GroupSpec> {
        let name = scenario_name(self.name).map_err(|e| {
            InputError::new(key_path(here, "name"), e.message.replacen("name ", "", 1))
        })?;
        let rack = match self.rack {
            Some(r) if r.is_empty() => {
                return fail(
                    key_path(here, "rack"),
                    "must not be empty, got \"\"".to_string(),
                )
            }
            r => r,
        };
        Ok(GroupSpec {
            name,
            clients: self.clients.map_or(0, Int::small),
            threads: self.threads.map_or(cluster.threads, Int::small),
            restore_rate: self.restore_rate.map_or(cluster.restore_rate, |r| r.0),
            process_rate: self.process_rate.map(|r| r.0).or(cluster.process_rate),
            rack,
            tags: self.tags.unwrap_or_default(),
            cpu: match self.cpu {
                Some(n) => Some(positive(&key_path(here, "cpu"), &n)?),
                None => cluster.cpu,
            },
            ram_mb: self.ram_mb.map(|n| n.0).or(cluster.ram_mb),
            disk_mb: self.disk_mb.map(|n| n.0).or(cluster.disk_mb),
        })
    }
}

/// The kinds of `input_skew`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum SkewKind {
    Uniform,
    Zipf,
    Hot,
}

impl Named for SkewKind {
    const CHOICES: &'static [(&'static str, Self)] = &[
        ("uniform", SkewKind::Uniform),
        ("zipf", SkewKind::Zipf),
        ("hot", SkewKind::Hot),
    ];
}

impl SubtopologyDoc {
    /// Its `input_skew` with the keys of that kind; a key of another kind
    /// is an error.
    fn skew(&self, here: &str) -> Read<InputSkew> {
        let kind = self.input_skew.map_or(SkewKind::Uniform, |c| c.0);
        let stray = [
            (
                "zipf_exponent",
                self.zipf_exponent.is_some(),
                SkewKind::Zipf,
            ),
            (
                "hot_partitions",
                self.hot_partitions.is_some(),
                SkewKind::Hot,
            ),
            ("hot_factor", self.hot_factor.is_some(), SkewKind::Hot),
        ];
        let name = |k: SkewKind| {
            SkewKind::CHOICES
                .iter()
                .find(|(_, c)| *c == k)
                .map_or("", |(n, _)| *n)
        };
        if let Some((key, _, needs)) = stray
            .iter()
            .find(|(_, given, needs)| *given && *needs != kind)
        {
            return fail(
                key_path(here, key),
                format!(
                    "applies with input_skew = {} only, got it with input_skew = {}",
                    quote(name(*needs)),
                    quote(name(kind))
                ),
            );
        }
        let ranged = |key: &str, n: &Number, low: f64, low_open: bool, high: f64| -> Read<f64> {
            let below = if low_open {
                n.value <= low
            } else {
                n.value < low
            };
            if below || n.value > high {
                let bound = if low_open { "greater than" } else { "at least" };
                return fail(
                    key_path(here, key),
                    format!("must be {bound} {low} and at most {high}, got {}", n.shown),
                );
            }
            Ok(n.value)
        };
        Ok(match kind {
            SkewKind::Uniform => InputSkew::Uniform,
            SkewKind::Zipf => InputSkew::Zipf {
                exponent: match &self.zipf_exponent {
                    Some(n) => ranged("zipf_exponent", n, 0.0, true, 10.0)?,
                    None => 1.0,
                },
            },
            SkewKind::Hot => InputSkew::Hot {
                partitions: self.hot_partitions.map_or(1, Int::small),
                factor: match &self.hot_factor {
                    Some(n) => ranged("hot_factor", n, 1.0, false, 1000.0)?,
                    None => 10.0,
                },
            },
        })
    }

    /// Its `process_cost` in thousandths.
    fn process_cost_milli(&self, here: &str) -> Read<u32> {
        let Some(n) = &self.process_cost else {
            return Ok(DEFAULT_PROCESS_COST_MILLI);
        };
        let milli = (n.value * 1000.0).round();
        if !(1.0..=1_000_000.0).contains(&milli) {
            return fail(
                key_path(here, "process_cost"),
                format!("must be at least 0.001 and at most 1000, got {}", n.shown),
            );
        }
        // 1 to 10⁶, checked above.
        #[allow(clippy::cast_possible_truncation)]
        Ok(milli as u32)
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
            let here = format!("subtopologies[{i}]");
            Ok(SubtopologySpec {
                input_skew: s.skew(&here)?,
                process_cost_milli: s.process_cost_milli(&here)?,
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
    fn given(&self) -> [(&'static str, bool); 12] {
        [
            ("count", self.count.is_some()),
            ("client", self.client.is_some()),
            ("group", self.group.is_some()),
            ("lose_state", self.lose_state.is_some()),
            ("interval", self.interval.is_some()),
            ("downtime", self.downtime.is_some()),
            ("leave_group", self.leave_group.is_some()),
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
                group: self.group,
            },
            Kind::ScaleIn => EventKind::ScaleIn {
                count: self.count.map_or(1, Int::small),
                group: self.group,
            },
            Kind::Crash => EventKind::Crash {
                client: match (self.client, self.group) {
                    (Some(client), None) => Target::Client(client),
                    (None, Some(group)) => Target::Group(group),
                    (None, None) => return Err(missing("client")),
                    (Some(_), Some(group)) => {
                        return fail(
                            key_path(here, "group"),
                            format!(
                                "names a group beside a client (give one of the two), got {}",
                                quote(&group)
                            ),
                        )
                    }
                },
                lose_state,
            },
            Kind::Restart => EventKind::Restart {
                client: self.client.ok_or_else(|| missing("client"))?,
            },
            Kind::RollingBounce => EventKind::RollingBounce {
                interval_ms: self.interval.ok_or_else(|| missing("interval"))?.ms(),
                downtime_ms: self.downtime.ok_or_else(|| missing("downtime"))?.ms(),
                leave_group: self.leave_group,
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
            None => DEFAULT_CHURN_KINDS.to_vec(),
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
            burst_size: self.burst_size.map_or(DEFAULT_BURST_SIZE, Int::small),
            burst_window_ms: self
                .burst_window
                .map_or(DEFAULT_BURST_WINDOW_MS, Duration::ms),
            zone_outage_ms: self
                .zone_outage_duration
                .map_or(DEFAULT_ZONE_OUTAGE_MS, Duration::ms),
        })
    }
}
