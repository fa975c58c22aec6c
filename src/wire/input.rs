//! The input document of `smoothscale assign` (see docs/wire-format.md), as
//! read from JSON, and its checked conversion into a [`ClusterState`].
//!
//! `null` is absent for every optional field (the field's default); required
//! fields (`id`) and values inside maps (tag values, lags) reject it.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};
use serde_json::Number;

use super::de::{nullable, nullable_object, nullable_objects};
use super::entries::Entries;
use crate::model::{
    key_path, one_line, quote, AssignmentConfig, Client, ClientId, ClusterState, Container,
    ContainerId, InputError, Lag, RackAwareStrategy, Task, TaskId, ECHO_MAX_CHARS,
};

/// The whole input: settings, tasks and clients.
#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields, expecting = "a JSON object")]
pub(crate) struct StateDoc {
    #[serde(default, deserialize_with = "nullable_object")]
    pub config: ConfigDoc,
    #[serde(default, deserialize_with = "nullable_objects")]
    pub tasks: Vec<TaskDoc>,
    #[serde(default, deserialize_with = "nullable_objects")]
    pub clients: Vec<ClientDoc>,
    #[serde(
        default,
        deserialize_with = "nullable_objects",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub previous_containers: Vec<ContainerDoc>,
    /// Records per second one client restored into its replicas (standbys
    /// and warm-ups together), as the group leader observed it: an integer
    /// `1 ..= 2^64 − 1`; absent or `null` when none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub observed_restore_rate: Option<Number>,
}

/// KIP-925's mode as written: `none`, `min_traffic`, `balance_subtopology`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RackAwareStrategyDoc {
    /// [`RackAwareStrategy::None`].
    None,
    /// [`RackAwareStrategy::MinTraffic`].
    MinTraffic,
    /// [`RackAwareStrategy::BalanceSubtopology`].
    BalanceSubtopology,
}

impl From<RackAwareStrategyDoc> for RackAwareStrategy {
    fn from(doc: RackAwareStrategyDoc) -> Self {
        match doc {
            RackAwareStrategyDoc::None => RackAwareStrategy::None,
            RackAwareStrategyDoc::MinTraffic => RackAwareStrategy::MinTraffic,
            RackAwareStrategyDoc::BalanceSubtopology => RackAwareStrategy::BalanceSubtopology,
        }
    }
}

impl From<RackAwareStrategy> for RackAwareStrategyDoc {
    fn from(mode: RackAwareStrategy) -> Self {
        match mode {
            RackAwareStrategy::None => RackAwareStrategyDoc::None,
            RackAwareStrategy::MinTraffic => RackAwareStrategyDoc::MinTraffic,
            RackAwareStrategy::BalanceSubtopology => RackAwareStrategyDoc::BalanceSubtopology,
        }
    }
}

/// The `config` object of a state: every field optional (absent or `null`
/// takes Kafka's default), unknown fields rejected. Numbers are kept as
/// written until [`ConfigDoc::into_config`] checks them, so that an error
/// can name the value given.
#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, expecting = "a JSON object")]
pub struct ConfigDoc {
    /// `num.standby.replicas`: an integer `0 ..= 2^32 − 1`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub num_standby_replicas: Option<Number>,
    /// `acceptable.recovery.lag`: an integer `0 ..= 2^64 − 1`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub acceptable_recovery_lag: Option<Number>,
    /// `max.warmup.replicas`: an integer `1 ..= 2^32 − 1`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_warmup_replicas: Option<Number>,
    /// `probing.rebalance.interval.ms`: an integer, at least 60 000.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub probing_rebalance_interval_ms: Option<Number>,
    /// `rack.aware.assignment.tags`: at most 5 tag keys.
    #[serde(
        default,
        deserialize_with = "nullable",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub rack_aware_assignment_tags: Vec<String>,
    /// `rack.aware.assignment.strategy`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rack_aware_strategy: Option<RackAwareStrategyDoc>,
    /// `rack.aware.assignment.traffic_cost`: an integer `0 ..= 2^32 − 1`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rack_aware_traffic_cost: Option<Number>,
    /// `rack.aware.assignment.non_overlap_cost`: an integer `0 ..= 2^32 − 1`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rack_aware_non_overlap_cost: Option<Number>,
    /// Samza's `cluster-manager.fault-domain-aware.standby.enabled`.
    #[serde(
        default,
        deserialize_with = "nullable",
        skip_serializing_if = "std::ops::Not::not"
    )]
    pub samza_fault_domain_aware_standby: bool,
}

/// One task.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields, expecting = "a JSON object")]
pub(crate) struct TaskDoc {
    pub id: String,
    #[serde(default, deserialize_with = "nullable")]
    pub stateful: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_offset: Option<Number>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu: Option<Number>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ram_mb: Option<Number>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub disk_mb: Option<Number>,
    #[serde(
        default,
        deserialize_with = "nullable",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub racks: Vec<String>,
    #[serde(
        default,
        deserialize_with = "nullable",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub changelog_racks: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_rate: Option<Number>,
}

/// One client.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields, expecting = "a JSON object")]
pub(crate) struct ClientDoc {
    pub id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub capacity: Option<Number>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rack: Option<String>,
    #[serde(
        default,
        deserialize_with = "nullable",
        skip_serializing_if = "is_empty"
    )]
    pub tags: Entries<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu: Option<Number>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ram_mb: Option<Number>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub disk_mb: Option<Number>,
    #[serde(default, deserialize_with = "nullable")]
    pub previous_active: Vec<String>,
    #[serde(default, deserialize_with = "nullable")]
    pub previous_standby: Vec<String>,
    #[serde(
        default,
        deserialize_with = "nullable",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub previous_warmup: Vec<String>,
    #[serde(
        default,
        deserialize_with = "nullable",
        skip_serializing_if = "std::ops::Not::not"
    )]
    pub leaving: bool,
    #[serde(default, deserialize_with = "nullable")]
    pub lags: Entries<serde_json::Value>,
}

/// One container: of the previous plan in a state (`previous_containers`),
/// of the plan in a plan document (`containers`).
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields, expecting = "a JSON object")]
pub(crate) struct ContainerDoc {
    pub id: String,
    pub client: String,
    #[serde(default, deserialize_with = "nullable")]
    pub active: Vec<String>,
    #[serde(default, deserialize_with = "nullable")]
    pub standby: Vec<String>,
}

impl ContainerDoc {
    /// Reads the container at `path` (`previous_containers[2]`).
    pub(crate) fn into_container(self, path: &str) -> Result<(ContainerId, Container), InputError> {
        let at = |f: &str| format!("{path}.{f}");
        let container = Container {
            client: ClientId::new(self.client),
            active: task_set(&at("active"), &self.active)?,
            standby: task_set(&at("standby"), &self.standby)?,
        };
        Ok((ContainerId::new(self.id), container))
    }

    /// The document of container `id`.
    pub(crate) fn of(id: &ContainerId, container: &Container) -> ContainerDoc {
        let ids = |s: &BTreeSet<TaskId>| s.iter().map(TaskId::to_string).collect();
        ContainerDoc {
            id: id.to_string(),
            client: container.client.to_string(),
            active: ids(&container.active),
            standby: ids(&container.standby),
        }
    }
}

fn is_empty<V>(e: &Entries<V>) -> bool {
    e.0.is_empty()
}

/// Reads a non-negative integer field no larger than `max`.
fn integer(path: &str, n: &Number, min: u64, max: u64) -> Result<u64, InputError> {
    match n.as_u64() {
        Some(v) if v >= min && v <= max => Ok(v),
        Some(v) if v < min => Err(InputError::new(
            path,
            format!("must be at least {min}, got {v}"),
        )),
        Some(v) => Err(InputError::new(
            path,
            format!("must be at most {max}, got {v}"),
        )),
        None if n.is_i64() => Err(InputError::new(
            path,
            format!("must be at least {min}, got {n}"),
        )),
        // A whole number past `u64` (or below `i64`) reads as a float:
        // 2^64 as 1.8446744073709552e+19.
        None if n.as_f64().is_some_and(|f| f >= TWO_POW_64) => Err(InputError::new(
            path,
            format!("must be at most {max}, got {n}"),
        )),
        None if n.as_f64().is_some_and(|f| f <= -TWO_POW_63) => Err(InputError::new(
            path,
            format!("must be at least {min}, got {n}"),
        )),
        None => Err(InputError::new(
            path,
            format!("must be an integer, got {n}"),
        )),
    }
}

fn number(path: &str, n: &Number) -> Result<f64, InputError> {
    match n.as_f64() {
        Some(v) if v.is_finite() && v >= 0.0 => Ok(v),
        _ => Err(InputError::new(
            path,
            format!("must be a number at least 0, got {n}"),
        )),
    }
}

fn task_id(path: &str, s: &str) -> Result<TaskId, InputError> {
    s.parse().map_err(|_| {
        InputError::new(
            path,
            format!(
                "must be a task id SUBTOPOLOGY_PARTITION like \"0_3\", got {}",
                quote(s)
            ),
        )
    })
}

const U32_MAX: u64 = u32::MAX as u64;
/// 2^64 and 2^63, exactly, as floats: past them a JSON integer reads as a float.
const TWO_POW_64: f64 = 18_446_744_073_709_551_616.0;
const TWO_POW_63: f64 = 9_223_372_036_854_775_808.0;

impl ConfigDoc {
    /// Checks every field (ranges here, the rules of
    /// [`AssignmentConfig::check`] after) and builds the settings; absent
    /// fields take Kafka's defaults. Errors name the field under
    /// `path_prefix` (`config` in a state: `config.max_warmup_replicas must
    /// be at least 1, got 0`).
    ///
    /// # Errors
    ///
    /// The first field out of range or breaking a rule, with its value.
    pub fn into_config(self, path_prefix: &str) -> Result<AssignmentConfig, InputError> {
        let d = AssignmentConfig::default();
        let at = |name: &str| key_path(path_prefix, name);
        let opt = |name: &str, v: &Option<Number>, min: u64, max: u64, default: u64| match v {
            Some(n) => integer(&at(name), n, min, max),
            None => Ok(default),
        };
        let small = |name: &str, v: &Option<Number>, min: u64, default: u32| {
            opt(name, v, min, U32_MAX, default.into())
                .map(|x| u32::try_from(x).expect("at most 2^32 - 1"))
        };
        let cost = |name: &str, v: &Option<Number>| -> Result<Option<u32>, InputError> {
            v.as_ref()
                .map(|n| {
                    integer(&at(name), n, 0, U32_MAX)
                        .map(|x| u32::try_from(x).expect("at most 2^32 - 1"))
                })
                .transpose()
        };
        let config = AssignmentConfig {
            num_standby_replicas: small(
                "num_standby_replicas",
                &self.num_standby_replicas,
                0,
                d.num_standby_replicas,
            )?,
            acceptable_recovery_lag: opt(
                "acceptable_recovery_lag",
                &self.acceptable_recovery_lag,
                0,
                u64::MAX,
                d.acceptable_recovery_lag,
            )?,
            max_warmup_replicas: small(
                "max_warmup_replicas",
                &self.max_warmup_replicas,
                1,
                d.max_warmup_replicas,
            )?,
            probing_rebalance_interval_ms: opt(
                "probing_rebalance_interval_ms",
                &self.probing_rebalance_interval_ms,
                0,
                u64::MAX,
                d.probing_rebalance_interval_ms,
            )?,
            rack_aware_assignment_tags: self.rack_aware_assignment_tags,
            rack_aware_strategy: self
                .rack_aware_strategy
                .map_or(d.rack_aware_strategy, Into::into),
            rack_aware_traffic_cost: cost(
                "rack_aware_traffic_cost",
                &self.rack_aware_traffic_cost,
            )?,
            rack_aware_non_overlap_cost: cost(
                "rack_aware_non_overlap_cost",
                &self.rack_aware_non_overlap_cost,
            )?,
            samza_fault_domain_aware_standby: self.samza_fault_domain_aware_standby,
        };
        config.check().map_err(|e| {
            let path = match e.path.strip_prefix("config") {
                Some(rest) if !path_prefix.is_empty() => format!("{path_prefix}{rest}"),
                Some(rest) => rest.trim_start_matches('.').to_string(),
                None => e.path,
            };
            InputError::new(path, e.message)
        })?;
        Ok(config)
    }
}

impl TaskDoc {
    fn into_task(self, i: usize) -> Result<Task, InputError> {
        let at = |f: &str| format!("tasks[{i}].{f}");
        let id = task_id(&at("id"), &self.id)?;
        let end_offset = match &self.end_offset {
            Some(n) => integer(&at("end_offset"), n, 0, u64::MAX)?,
            None => 0,
        };
        Ok(Task {
            id,
            stateful: self.stateful,
            end_offset,
            cpu: self
                .cpu
                .as_ref()
                .map(|n| number(&at("cpu"), n))
                .transpose()?,
            ram_mb: self
                .ram_mb
                .as_ref()
                .map(|n| integer(&at("ram_mb"), n, 0, u64::MAX))
                .transpose()?,
            disk_mb: self
                .disk_mb
                .as_ref()
                .map(|n| integer(&at("disk_mb"), n, 0, u64::MAX))
                .transpose()?,
            racks: self.racks.into_iter().collect(),
            changelog_racks: self.changelog_racks.into_iter().collect(),
            input_rate: self
                .input_rate
                .as_ref()
                .map(|n| integer(&at("input_rate"), n, 0, u64::MAX))
                .transpose()?,
        })
    }
}

impl ClientDoc {
    fn into_client(self, i: usize) -> Result<Client, InputError> {
        let at = |f: &str| format!("clients[{i}].{f}");
        let capacity = match &self.capacity {
            Some(n) => {
                u32::try_from(integer(&at("capacity"), n, 1, U32_MAX)?).expect("bounded by U32_MAX")
            }
            None => 1,
        };
        let mut tags = BTreeMap::new();
        for (k, v) in self.tags.0 {
            if tags.contains_key(&k) {
                return Err(InputError::new(key_path(&at("tags"), &k), "is given twice"));
            }
            tags.insert(k, v);
        }
        let mut lags = BTreeMap::new();
        for (k, v) in &self.lags.0 {
            let path = key_path(&at("lags"), k);
            let id: TaskId = k.parse().map_err(|_| {
                InputError::new(
                    at("lags"),
                    format!(
                        "keys must be task ids SUBTOPOLOGY_PARTITION like \"0_3\", got {}",
                        quote(k)
                    ),
                )
            })?;
            if lags.insert(id, lag(&path, v)?).is_some() {
                return Err(InputError::new(path, "is given twice"));
            }
        }
        Ok(Client {
            id: ClientId::new(self.id),
            capacity,
            rack: self.rack,
            tags,
            host: self.host,
            cpu: self
                .cpu
                .as_ref()
                .map(|n| number(&at("cpu"), n))
                .transpose()?,
            ram_mb: self
                .ram_mb
                .as_ref()
                .map(|n| integer(&at("ram_mb"), n, 0, u64::MAX))
                .transpose()?,
            disk_mb: self
                .disk_mb
                .as_ref()
                .map(|n| integer(&at("disk_mb"), n, 0, u64::MAX))
                .transpose()?,
            previous_active: task_set(&at("previous_active"), &self.previous_active)?,
            previous_standby: task_set(&at("previous_standby"), &self.previous_standby)?,
            previous_warmup: task_set(&at("previous_warmup"), &self.previous_warmup)?,
            leaving: self.leaving,
            lags,
        })
    }
}

fn task_set(path: &str, ids: &[String]) -> Result<BTreeSet<TaskId>, InputError> {
    let mut set = BTreeSet::new();
    for (k, s) in ids.iter().enumerate() {
        let here = format!("{path}[{k}]");
        if !set.insert(task_id(&here, s)?) {
            return Err(InputError::new(here, format!("lists {s} twice")));
        }
    }
    Ok(set)
}

fn lag(path: &str, v: &serde_json::Value) -> Result<Lag, InputError> {
    match v {
        serde_json::Value::String(s) if s == "running" => Ok(Lag::Running),
        serde_json::Value::String(s) if s == "unknown" => Ok(Lag::Unknown),
        serde_json::Value::Number(n) => match n.as_u64() {
            Some(x) => Ok(Lag::Records(x)),
            None if n.is_i64() => Err(InputError::new(
                path,
                format!("must not be negative, got {n}"),
            )),
            None => Err(InputError::new(
                path,
                format!("must be an integer, got {n}"),
            )),
        },
        other => Err(InputError::new(
            path,
            format!(
                "must be a number of records, \"running\" or \"unknown\", got {}",
                json_value(other)
            ),
        )),
    }
}

impl StateDoc {
    /// Checks every field and builds the state.
    pub(crate) fn into_state(self) -> Result<ClusterState, InputError> {
        let config = self.config.into_config("config")?;
        // Documents are consumed as they are converted: their strings are
        // freed while the model's values are built.
        let tasks = self
            .tasks
            .into_iter()
            .enumerate()
            .map(|(i, t)| t.into_task(i))
            .collect::<Result<_, _>>()?;
        let clients = self
            .clients
            .into_iter()
            .enumerate()
            .map(|(i, c)| c.into_client(i))
            .collect::<Result<_, _>>()?;
        let containers = self
            .previous_containers
            .into_iter()
            .enumerate()
            .map(|(i, c)| c.into_container(&format!("previous_containers[{i}]")))
            .collect::<Result<_, _>>()?;
        let rate = self
            .observed_restore_rate
            .as_ref()
            .map(|n| integer("observed_restore_rate", n, 1, u64::MAX))
            .transpose()?;
        ClusterState::new(config, tasks, clients)?
            .with_previous_containers(containers)?
            .with_observed_restore_rate(rate)
    }

    /// The document describing `state`.
    pub(crate) fn from_state(state: &ClusterState) -> StateDoc {
        let c = state.config();
        let num = |x: u64| Some(Number::from(x));
        let config = ConfigDoc {
            num_standby_replicas: num(c.num_standby_replicas.into()),
            acceptable_recovery_lag: num(c.acceptable_recovery_lag),
            max_warmup_replicas: num(c.max_warmup_replicas.into()),
            probing_rebalance_interval_ms: num(c.probing_rebalance_interval_ms),
            rack_aware_assignment_tags: c.rack_aware_assignment_tags.clone(),
            rack_aware_strategy: Some(c.rack_aware_strategy.into()),
            rack_aware_traffic_cost: c.rack_aware_traffic_cost.and_then(|x| num(x.into())),
            rack_aware_non_overlap_cost: c.rack_aware_non_overlap_cost.and_then(|x| num(x.into())),
            samza_fault_domain_aware_standby: c.samza_fault_domain_aware_standby,
        };
        let float = |x: Option<f64>| x.and_then(Number::from_f64);
        let ids = |s: &BTreeSet<TaskId>| s.iter().map(TaskId::to_string).collect();
        let tasks = state
            .tasks()
            .iter()
            .map(|t| TaskDoc {
                id: t.id.to_string(),
                stateful: t.stateful,
                end_offset: (t.stateful || t.end_offset != 0).then(|| Number::from(t.end_offset)),
                cpu: float(t.cpu),
                ram_mb: t.ram_mb.and_then(num),
                disk_mb: t.disk_mb.and_then(num),
                racks: t.racks.iter().cloned().collect(),
                changelog_racks: t.changelog_racks.iter().cloned().collect(),
                input_rate: t.input_rate.and_then(num),
            })
            .collect();
        let clients = state
            .clients()
            .iter()
            .map(|cl| ClientDoc {
                id: cl.id.to_string(),
                capacity: num(cl.capacity.into()),
                rack: cl.rack.clone(),
                tags: Entries(
                    cl.tags
                        .iter()
                        .map(|(k, v)| (k.clone(), v.clone()))
                        .collect(),
                ),
                host: cl.host.clone(),
                cpu: float(cl.cpu),
                ram_mb: cl.ram_mb.and_then(num),
                disk_mb: cl.disk_mb.and_then(num),
                previous_active: ids(&cl.previous_active),
                previous_standby: ids(&cl.previous_standby),
                previous_warmup: ids(&cl.previous_warmup),
                leaving: cl.leaving,
                lags: Entries(
                    cl.lags
                        .iter()
                        .map(|(t, l)| (t.to_string(), lag_value(*l)))
                        .collect(),
                ),
            })
            .collect();
        StateDoc {
            config,
            tasks,
            clients,
            previous_containers: state
                .previous_containers()
                .iter()
                .map(|(id, c)| ContainerDoc::of(id, c))
                .collect(),
            observed_restore_rate: state.observed_restore_rate().map(Number::from),
        }
    }
}

/// A JSON value as a message echoes it: strings quoted and cut as
/// [`quote`] does, arrays and objects cut after [`ECHO_MAX_CHARS`] characters.
fn json_value(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => quote(s),
        other => {
            let text = other.to_string();
            if text.chars().count() > ECHO_MAX_CHARS {
                let cut: String = text.chars().take(ECHO_MAX_CHARS).collect();
                format!("{}…", one_line(&cut))
            } else {
                one_line(&text)
            }
        }
    }
}

fn lag_value(lag: Lag) -> serde_json::Value {
    match lag {
        Lag::Running => "running".into(),
        Lag::Unknown => "unknown".into(),
        Lag::Records(n) => n.into(),
    }
}
