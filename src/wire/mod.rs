//! The JSON wire format (DESIGN §3): cluster states in, plans out.
//!
//! Every read is strict: unknown fields, duplicate keys and ids, and values out
//! of range are errors naming the field's path (`clients[3].capacity must be
//! at least 1, got 0`). Writes are deterministic: lists sorted, two-space
//! indentation, a final newline.

mod entries;
mod input;
mod output;

use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::metrics::PlanMetrics;
use crate::model::{ClusterState, InputError, Plan};
use input::RawState;
use output::RawPlan;

/// Reads a cluster state from JSON.
pub fn state_from_json(text: &str) -> Result<ClusterState, InputError> {
    read::<RawState>(text)?.into_state()
}

/// Writes a cluster state as JSON; [`state_from_json`] reads it back equal.
pub fn state_to_json(state: &ClusterState) -> String {
    write(&RawState::from_state(state))
}

/// Reads a plan from JSON.
pub fn plan_from_json(text: &str) -> Result<Plan, InputError> {
    read::<RawPlan>(text)?.into_plan()
}

/// Writes a plan as JSON, with its metrics when given.
pub fn plan_to_json(plan: &Plan, metrics: Option<PlanMetrics>) -> String {
    write(&RawPlan::from_plan(plan, metrics))
}

fn write<T: Serialize>(value: &T) -> String {
    let mut text = serde_json::to_string_pretty(value).expect("plain data always serialises");
    text.push('\n');
    text
}

fn read<T: DeserializeOwned>(text: &str) -> Result<T, InputError> {
    let mut de = serde_json::Deserializer::from_str(text);
    let value = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let path = e.path().to_string();
        decode_error(&path, e.into_inner())
    })?;
    de.end().map_err(|e| decode_error(".", e))?;
    Ok(value)
}

fn decode_error(path: &str, e: serde_json::Error) -> InputError {
    use serde_json::error::Category;
    let msg = e.to_string();
    match e.classify() {
        Category::Syntax | Category::Eof | Category::Io => {
            InputError::new("", format!("input is not valid JSON: {msg}"))
        }
        Category::Data if path == "." => InputError::new("input", format!("is invalid: {msg}")),
        Category::Data => match msg.strip_prefix("unknown field ") {
            Some(rest) => InputError::new(
                path,
                format!(
                    "is an unknown field ({})",
                    rest.replacen("`, expected", "`; expected", 1)
                ),
            ),
            None => InputError::new(path, format!("is invalid: {msg}")),
        },
    }
}
