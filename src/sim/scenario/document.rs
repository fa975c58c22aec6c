//! The documents a scenario file is read into: its shape, key for key.
//!
//! The doc comment of every field below is that key's reference: what it
//! means, then a line `Type: … · Default: …`. docs/simulator.md shows them
//! as tables, generated from this file by the test `scenario::keys` (which
//! fails when the two differ; `SMOOTHSCALE_BLESS=1 cargo test --lib
//! scenario_keys` rewrites the tables).

use std::collections::BTreeMap;

use serde::Deserialize;

use super::duration::Duration;
use super::values::*;
use super::{
    ChurnKind, ChurnSpec, ClusterSpec, Event, EventKind, PerturbSpec, Protocol, Scenario,
    SubtopologySpec,
};
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

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ScenarioDoc {
    name: String,
    description: Option<String>,
    seed: U64,
    duration: Duration<1>,
    step: Option<Duration<1>>,
    sample_every: Option<Duration<1>>,
    strategies: Option<Vec<String>>,
    cluster: ClusterDoc,
    subtopologies: Vec<SubtopologyDoc>,
    config: Option<ConfigDoc>,
    events: Option<Vec<EventDoc>>,
    churn: Option<ChurnDoc>,
    perturb: Option<PerturbDoc>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ClusterDoc {
    clients: Count,
    threads: Option<Count>,
    racks: Option<Vec<String>>,
    restore_rate: Int<1, { u64::MAX }>,
    session_timeout: Option<Duration>,
    rebalance_pause: Option<Duration>,
    state_cleanup_delay: Option<Duration>,
    protocol: Option<Choice<Protocol>>,
    scale_down_timeout: Option<Duration>,
    restore_bandwidth: Option<Int<1, { u64::MAX }>>,
    process_rate: Option<Int<1, { u64::MAX }>>,
    tags: Option<BTreeMap<String, Vec<String>>>,
    replication_factor: Option<Count>,
    cpu: Option<Number>,
    ram_mb: Option<RamMb>,
    disk_mb: Option<RamMb>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SubtopologyDoc {
    partitions: Count,
    stateful: Option<bool>,
    state_records: Option<U64>,
    write_rate: Option<U64>,
    input_rate: Option<U64>,
    cpu: Option<Number>,
    ram_mb: Option<RamMb>,
    disk_mb: Option<RamMb>,
}

/// `[perturb]`: fractions and a duration.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PerturbDoc {
    state_records: Option<Number>,
    write_rate: Option<Number>,
    event_time: Option<Duration>,
}

/// `[config]`, Kafka's names, durations in the scenario's form.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ConfigDoc {
    num_standby_replicas: Option<U32>,
    acceptable_recovery_lag: Option<U64>,
    max_warmup_replicas: Option<Count>,
    probing_rebalance_interval: Option<Duration<{ MIN_PROBING_REBALANCE_INTERVAL_MS }>>,
    rack_aware_assignment_tags: Option<Vec<String>>,
    rack_aware_strategy: Option<Choice<RackAwareStrategy>>,
    rack_aware_traffic_cost: Option<U32>,
    rack_aware_non_overlap_cost: Option<U32>,
    samza_fault_domain_aware_standby: Option<bool>,
}

/// The kinds of scripted events.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    ScaleOut,
    ScaleIn,
    Crash,
    Restart,
    RollingBounce,
    RackOutage,
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
    fn keys(self) -> &'static [&'static str] {
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

/// One `[[events]]` table: the keys of every kind; those of another kind
/// than `kind` are refused when it becomes an [`Event`].
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

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ChurnDoc {
    events_per_hour: Number,
    kinds: Option<Vec<Choice<ChurnKind>>>,
    from: Option<Duration>,
    until: Option<Duration>,
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
        if assignor::by_name(name).is_none() {
            return Err(InputError::one_of(here, &assignor::names(), name));
        }
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
