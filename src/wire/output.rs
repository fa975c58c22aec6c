//! The plan document printed by `smoothscale assign` (see
//! docs/wire-format.md), with its metrics, and its reading back.

use serde::{Deserialize, Serialize};

use super::de::{nullable, objects};
use super::input::ContainerDoc;
use crate::metrics::PlanMetrics;
use crate::model::{quote, ClientId, ClientPlan, InputError, Plan, TaskId};

/// A plan as written: clients sorted by id, task lists sorted.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields, expecting = "a JSON object")]
pub(crate) struct PlanDoc {
    pub strategy: String,
    #[serde(deserialize_with = "objects")]
    pub clients: Vec<ClientPlanDoc>,
    pub followup_rebalance_ms: Option<u64>,
    #[serde(
        default,
        deserialize_with = "nullable",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub followup_when_caught_up: Vec<String>,
    #[serde(
        default,
        deserialize_with = "nullable",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub diagnostics: Vec<String>,
    #[serde(
        default,
        deserialize_with = "nullable",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub containers: Vec<ContainerDoc>,
    #[serde(default, skip_serializing_if = "Option::is_none", skip_deserializing)]
    pub metrics: Option<MetricsDoc>,
    /// `metrics` when reading: derived figures, accepted and ignored.
    #[allow(dead_code)]
    #[serde(default, rename = "metrics", skip_serializing)]
    pub metrics_read: Option<serde::de::IgnoredAny>,
}

/// One client's share of a plan.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields, expecting = "a JSON object")]
pub(crate) struct ClientPlanDoc {
    pub id: String,
    pub active: Vec<String>,
    #[serde(default, deserialize_with = "nullable")]
    pub standby: Vec<String>,
    #[serde(default, deserialize_with = "nullable")]
    pub warmup: Vec<String>,
}

/// [`PlanMetrics`] as written, in its field order.
#[derive(Debug, Serialize)]
pub(crate) struct MetricsDoc {
    active_spread_per_thread: f64,
    stateful_spread_per_thread: f64,
    subtopology_spread: u64,
    active_moves: u64,
    new_actives: u64,
    standby_moves: u64,
    warmups: u64,
    active_restore_records: u64,
    replica_restore_records: u64,
    cross_rack_actives: u64,
    distance_to_optimal: Option<u64>,
}

impl From<PlanMetrics> for MetricsDoc {
    fn from(m: PlanMetrics) -> Self {
        MetricsDoc {
            active_spread_per_thread: m.active_spread_per_thread,
            stateful_spread_per_thread: m.stateful_spread_per_thread,
            subtopology_spread: m.subtopology_spread,
            active_moves: m.active_moves,
            new_actives: m.new_actives,
            standby_moves: m.standby_moves,
            warmups: m.warmups,
            active_restore_records: m.active_restore_records,
            replica_restore_records: m.replica_restore_records,
            cross_rack_actives: m.cross_rack_actives,
            distance_to_optimal: m.distance_to_optimal,
        }
    }
}

impl PlanDoc {
    pub(crate) fn from_plan(plan: &Plan, metrics: Option<PlanMetrics>) -> PlanDoc {
        let ids =
            |s: &std::collections::BTreeSet<TaskId>| s.iter().map(TaskId::to_string).collect();
        PlanDoc {
            strategy: plan.strategy.clone(),
            clients: plan
                .clients
                .iter()
                .map(|(id, cp)| ClientPlanDoc {
                    id: id.to_string(),
                    active: ids(&cp.active),
                    standby: ids(&cp.standby),
                    warmup: ids(&cp.warmup),
                })
                .collect(),
            followup_rebalance_ms: plan.followup_rebalance_ms,
            followup_when_caught_up: ids(&plan.followup_when_caught_up),
            diagnostics: plan.diagnostics.clone(),
            containers: plan
                .containers
                .iter()
                .map(|(id, c)| ContainerDoc::of(id, c))
                .collect(),
            metrics: metrics.map(MetricsDoc::from),
            metrics_read: None,
        }
    }

    pub(crate) fn into_plan(self) -> Result<Plan, InputError> {
        let mut plan = Plan {
            strategy: self.strategy,
            followup_rebalance_ms: self.followup_rebalance_ms,
            diagnostics: self.diagnostics,
            ..Plan::default()
        };
        for (k, s) in self.followup_when_caught_up.iter().enumerate() {
            let path = format!("followup_when_caught_up[{k}]");
            let t: TaskId = s.parse().map_err(|_| {
                InputError::new(&path, format!("must be a task id, got {}", quote(s)))
            })?;
            if !plan.followup_when_caught_up.insert(t) {
                return Err(InputError::new(path, format!("lists {s} twice")));
            }
        }
        for (i, c) in self.clients.into_iter().enumerate() {
            let at = |f: &str| format!("clients[{i}].{f}");
            let mut cp = ClientPlan::default();
            for (field, list, set) in [
                ("active", &c.active, &mut cp.active),
                ("standby", &c.standby, &mut cp.standby),
                ("warmup", &c.warmup, &mut cp.warmup),
            ] {
                for (k, s) in list.iter().enumerate() {
                    let t: TaskId = s.parse().map_err(|_| {
                        InputError::new(
                            at(&format!("{field}[{k}]")),
                            format!("must be a task id, got {}", quote(s)),
                        )
                    })?;
                    if !set.insert(t) {
                        return Err(InputError::new(
                            at(&format!("{field}[{k}]")),
                            format!("lists {s} twice"),
                        ));
                    }
                }
            }
            if plan
                .clients
                .insert(ClientId::new(c.id.clone()), cp)
                .is_some()
            {
                return Err(InputError::new(
                    at("id"),
                    format!("duplicates another client, got {}", quote(&c.id)),
                ));
            }
        }
        for (i, c) in self.containers.into_iter().enumerate() {
            let path = format!("containers[{i}]");
            let (id, container) = c.into_container(&path)?;
            if plan.containers.contains_key(&id) {
                return Err(InputError::new(
                    format!("{path}.id"),
                    format!("duplicates another container, got {}", quote(id.as_str())),
                ));
            }
            plan.containers.insert(id, container);
        }
        Ok(plan)
    }
}
