//! The input document of `smoothscale assign` (DESIGN §3), as read from JSON,
//! and its checked conversion into a [`ClusterState`].

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};
use serde_json::Number;

use super::entries::Entries;
use crate::model::{
    key_path, AssignmentConfig, Client, ClientId, ClusterState, InputError, Lag, RackAwareStrategy,
    Task, TaskId,
};

/// The whole input: settings, tasks and clients.
#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields, expecting = "a JSON object")]
pub(crate) struct RawState {
    #[serde(default)]
    pub config: RawConfig,
    #[serde(default)]
    pub tasks: Vec<RawTask>,
    #[serde(default)]
    pub clients: Vec<RawClient>,
}

/// `config`: every field optional, Kafka's default when absent.
#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields, expecting = "a JSON object")]
pub(crate) struct RawConfig {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub num_standby_replicas: Option<Number>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub acceptable_recovery_lag: Option<Number>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_warmup_replicas: Option<Number>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub probing_rebalance_interval_ms: Option<Number>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rack_aware_assignment_tags: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rack_aware_strategy: Option<RackAwareStrategy>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rack_aware_traffic_cost: Option<Number>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rack_aware_non_overlap_cost: Option<Number>,
}

/// One task.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields, expecting = "a JSON object")]
pub(crate) struct RawTask {
    pub id: String,
    #[serde(default)]
    pub stateful: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_offset: Option<Number>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu: Option<Number>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ram_mb: Option<Number>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub racks: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub changelog_racks: Vec<String>,
}

/// One client.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields, expecting = "a JSON object")]
pub(crate) struct RawClient {
    pub id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub capacity: Option<Number>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rack: Option<String>,
    #[serde(default, skip_serializing_if = "is_empty")]
    pub tags: Entries<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu: Option<Number>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ram_mb: Option<Number>,
    #[serde(default)]
    pub previous_active: Vec<String>,
    #[serde(default)]
    pub previous_standby: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub previous_warmup: Vec<String>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub leaving: bool,
    #[serde(default)]
    pub lags: Entries<serde_json::Value>,
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
            format!("must be a task id SUBTOPOLOGY_PARTITION like \"0_3\", got {s:?}"),
        )
    })
}

const U32_MAX: u64 = u32::MAX as u64;

impl RawConfig {
    fn to_config(&self) -> Result<AssignmentConfig, InputError> {
        let d = AssignmentConfig::default();
        let opt = |name: &str, v: &Option<Number>, min: u64, max: u64, default: u64| match v {
            Some(n) => integer(&format!("config.{name}"), n, min, max),
            None => Ok(default),
        };
        let cost = |name: &str, v: &Option<Number>| -> Result<Option<u32>, InputError> {
            v.as_ref()
                .map(|n| integer(&format!("config.{name}"), n, 0, U32_MAX).map(|x| x as u32))
                .transpose()
        };
        Ok(AssignmentConfig {
            num_standby_replicas: opt(
                "num_standby_replicas",
                &self.num_standby_replicas,
                0,
                U32_MAX,
                0,
            )? as u32,
            acceptable_recovery_lag: opt(
                "acceptable_recovery_lag",
                &self.acceptable_recovery_lag,
                0,
                u64::MAX,
                d.acceptable_recovery_lag,
            )?,
            max_warmup_replicas: opt(
                "max_warmup_replicas",
                &self.max_warmup_replicas,
                1,
                U32_MAX,
                2,
            )? as u32,
            probing_rebalance_interval_ms: opt(
                "probing_rebalance_interval_ms",
                &self.probing_rebalance_interval_ms,
                0,
                u64::MAX,
                d.probing_rebalance_interval_ms,
            )?,
            rack_aware_assignment_tags: self.rack_aware_assignment_tags.clone(),
            rack_aware_strategy: self.rack_aware_strategy.unwrap_or_default(),
            rack_aware_traffic_cost: cost(
                "rack_aware_traffic_cost",
                &self.rack_aware_traffic_cost,
            )?,
            rack_aware_non_overlap_cost: cost(
                "rack_aware_non_overlap_cost",
                &self.rack_aware_non_overlap_cost,
            )?,
        })
    }
}

impl RawTask {
    fn to_task(&self, i: usize) -> Result<Task, InputError> {
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
            racks: self.racks.iter().cloned().collect(),
            changelog_racks: self.changelog_racks.iter().cloned().collect(),
        })
    }
}

impl RawClient {
    fn to_client(&self, i: usize) -> Result<Client, InputError> {
        let at = |f: &str| format!("clients[{i}].{f}");
        let capacity = match &self.capacity {
            Some(n) => integer(&at("capacity"), n, 1, U32_MAX)? as u32,
            None => 1,
        };
        let mut tags = BTreeMap::new();
        for (k, v) in &self.tags.0 {
            if tags.insert(k.clone(), v.clone()).is_some() {
                return Err(InputError::new(key_path(&at("tags"), k), "is given twice"));
            }
        }
        let mut lags = BTreeMap::new();
        for (k, v) in &self.lags.0 {
            let path = key_path(&at("lags"), k);
            let id: TaskId = k.parse().map_err(|_| {
                InputError::new(
                    at("lags"),
                    format!("keys must be task ids SUBTOPOLOGY_PARTITION like \"0_3\", got {k:?}"),
                )
            })?;
            if lags.insert(id, lag(&path, v)?).is_some() {
                return Err(InputError::new(path, "is given twice"));
            }
        }
        Ok(Client {
            id: ClientId::new(self.id.clone()),
            capacity,
            rack: self.rack.clone(),
            tags,
            host: self.host.clone(),
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
            format!("must be a number of records, \"running\" or \"unknown\", got {other}"),
        )),
    }
}

/// Rejects arrays where the document has objects (serde's derived structs
/// would read them as fields in order).
pub(crate) fn shape(doc: &serde_json::Value) -> Result<(), InputError> {
    use super::{expect_object, expect_objects};
    expect_object("input", Some(doc))?;
    expect_object("config", doc.get("config"))?;
    expect_objects("tasks", doc.get("tasks"))?;
    expect_objects("clients", doc.get("clients"))
}

impl RawState {
    /// Checks every field and builds the state.
    pub(crate) fn into_state(self) -> Result<ClusterState, InputError> {
        let config = self.config.to_config()?;
        let tasks = self
            .tasks
            .iter()
            .enumerate()
            .map(|(i, t)| t.to_task(i))
            .collect::<Result<_, _>>()?;
        let clients = self
            .clients
            .iter()
            .enumerate()
            .map(|(i, c)| c.to_client(i))
            .collect::<Result<_, _>>()?;
        ClusterState::new(config, tasks, clients)
    }

    /// The document describing `state`.
    pub(crate) fn from_state(state: &ClusterState) -> RawState {
        let c = state.config();
        let num = |x: u64| Some(Number::from(x));
        let config = RawConfig {
            num_standby_replicas: num(c.num_standby_replicas.into()),
            acceptable_recovery_lag: num(c.acceptable_recovery_lag),
            max_warmup_replicas: num(c.max_warmup_replicas.into()),
            probing_rebalance_interval_ms: num(c.probing_rebalance_interval_ms),
            rack_aware_assignment_tags: c.rack_aware_assignment_tags.clone(),
            rack_aware_strategy: Some(c.rack_aware_strategy),
            rack_aware_traffic_cost: c.rack_aware_traffic_cost.and_then(|x| num(x.into())),
            rack_aware_non_overlap_cost: c.rack_aware_non_overlap_cost.and_then(|x| num(x.into())),
        };
        let float = |x: Option<f64>| x.and_then(Number::from_f64);
        let ids = |s: &BTreeSet<TaskId>| s.iter().map(TaskId::to_string).collect();
        let tasks = state
            .tasks()
            .iter()
            .map(|t| RawTask {
                id: t.id.to_string(),
                stateful: t.stateful,
                end_offset: (t.stateful || t.end_offset != 0).then(|| Number::from(t.end_offset)),
                cpu: float(t.cpu),
                ram_mb: t.ram_mb.and_then(num),
                racks: t.racks.iter().cloned().collect(),
                changelog_racks: t.changelog_racks.iter().cloned().collect(),
            })
            .collect();
        let clients = state
            .clients()
            .iter()
            .map(|cl| RawClient {
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
        RawState {
            config,
            tasks,
            clients,
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
