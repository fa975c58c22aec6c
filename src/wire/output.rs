//! The plan document printed by `smoothscale assign` (DESIGN §3).

use serde::{Deserialize, Serialize};

use crate::metrics::PlanMetrics;
use crate::model::{ClientId, ClientPlan, InputError, Plan, TaskId};

/// A plan as written: clients sorted by id, task lists sorted.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields, expecting = "a JSON object")]
pub(crate) struct RawPlan {
    pub strategy: String,
    pub clients: Vec<RawClientPlan>,
    pub followup_rebalance_ms: Option<u64>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub followup_when_caught_up: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub diagnostics: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none", skip_deserializing)]
    pub metrics: Option<PlanMetrics>,
    /// `metrics` when reading: derived figures, accepted and ignored.
    #[allow(dead_code)]
    #[serde(default, rename = "metrics", skip_serializing)]
    pub metrics_read: Option<serde::de::IgnoredAny>,
}

/// One client's share of a plan.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields, expecting = "a JSON object")]
pub(crate) struct RawClientPlan {
    pub id: String,
    pub active: Vec<String>,
    #[serde(default)]
    pub standby: Vec<String>,
    #[serde(default)]
    pub warmup: Vec<String>,
}

/// Rejects arrays where the document has objects.
pub(crate) fn shape(doc: &serde_json::Value) -> Result<(), InputError> {
    super::expect_object("input", Some(doc))?;
    super::expect_objects("clients", doc.get("clients"))
}

impl RawPlan {
    pub(crate) fn from_plan(plan: &Plan, metrics: Option<PlanMetrics>) -> RawPlan {
        let ids =
            |s: &std::collections::BTreeSet<TaskId>| s.iter().map(TaskId::to_string).collect();
        RawPlan {
            strategy: plan.strategy.clone(),
            clients: plan
                .clients
                .iter()
                .map(|(id, cp)| RawClientPlan {
                    id: id.to_string(),
                    active: ids(&cp.active),
                    standby: ids(&cp.standby),
                    warmup: ids(&cp.warmup),
                })
                .collect(),
            followup_rebalance_ms: plan.followup_rebalance_ms,
            followup_when_caught_up: ids(&plan.followup_when_caught_up),
            diagnostics: plan.diagnostics.clone(),
            metrics,
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
            let t: TaskId = s
                .parse()
                .map_err(|_| InputError::new(&path, format!("must be a task id, got {s:?}")))?;
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
                            format!("must be a task id, got {s:?}"),
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
                    format!("duplicates another client, got {:?}", c.id),
                ));
            }
        }
        Ok(plan)
    }
}
