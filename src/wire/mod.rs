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
use crate::model::{key_path, one_line, ClusterState, InputError, Plan};
use input::RawState;
use output::RawPlan;

/// Reads a cluster state from JSON.
pub fn state_from_json(text: &str) -> Result<ClusterState, InputError> {
    read::<RawState>(text, input::shape)?.into_state()
}

/// Writes a cluster state as JSON; [`state_from_json`] reads it back equal.
pub fn state_to_json(state: &ClusterState) -> String {
    write(&RawState::from_state(state))
}

/// Reads a plan from JSON.
pub fn plan_from_json(text: &str) -> Result<Plan, InputError> {
    read::<RawPlan>(text, output::shape)?.into_plan()
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

fn read<T: DeserializeOwned>(
    text: &str,
    shape: fn(&serde_json::Value) -> Result<(), InputError>,
) -> Result<T, InputError> {
    if text.trim().is_empty() {
        return Err(InputError::new(
            "input",
            "must be a JSON object, got empty input",
        ));
    }
    let mut de = serde_json::Deserializer::from_str(text);
    let value = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let path = render_path(e.path());
        decode_error(&path, e.into_inner())
    })?;
    de.end().map_err(|e| decode_error("", e))?;
    // serde's derived structs also accept an array of their fields in order;
    // the wire format has objects only.
    let tree: serde_json::Value = serde_json::from_str(text).map_err(|e| decode_error("", e))?;
    shape(&tree)?;
    Ok(value)
}

/// An error unless `value` is a JSON object (or absent: `None`).
pub(crate) fn expect_object(
    path: &str,
    value: Option<&serde_json::Value>,
) -> Result<(), InputError> {
    match value {
        Some(v) if !v.is_object() => Err(InputError::new(
            path,
            format!("must be a JSON object, got {}", json_kind(v)),
        )),
        _ => Ok(()),
    }
}

/// An error unless every element of the array `list` (when present) is an object.
pub(crate) fn expect_objects(
    path: &str,
    list: Option<&serde_json::Value>,
) -> Result<(), InputError> {
    if let Some(serde_json::Value::Array(items)) = list {
        for (i, item) in items.iter().enumerate() {
            expect_object(&format!("{path}[{i}]"), Some(item))?;
        }
    }
    Ok(())
}

fn json_kind(v: &serde_json::Value) -> String {
    use serde_json::Value;
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => format!("boolean `{b}`"),
        Value::Number(n) => format!("number `{n}`"),
        Value::String(s) => format!("string {s:?}"),
        Value::Array(_) => "an array".into(),
        Value::Object(_) => "an object".into(),
    }
}

/// A serde path as `clients[0].tags.zone`; empty for the whole input. Keys
/// that are not plain words are written `["..."]`, so a path is one line.
fn render_path(path: &serde_path_to_error::Path) -> String {
    use serde_path_to_error::Segment;
    let mut out = String::new();
    for segment in path {
        match segment {
            Segment::Seq { index } => out.push_str(&format!("[{index}]")),
            Segment::Map { key } | Segment::Enum { variant: key } => out = key_path(&out, key),
            Segment::Unknown => out = key_path(&out, "?"),
        }
    }
    out
}

/// Rewrites a serde error as `PATH must ..., got VALUE at line L column C`.
fn decode_error(path: &str, e: serde_json::Error) -> InputError {
    use serde_json::error::Category;
    let full = one_line(&e.to_string());
    let at = format!(" at line {} column {}", e.line(), e.column());
    let msg = full.strip_suffix(&at).unwrap_or(&full);
    let whole = if path.is_empty() { "input" } else { path };
    if !matches!(e.classify(), Category::Data) {
        return InputError::new("input", format!("is not valid JSON: {full}"));
    }
    let between = |s: &str, open: &str, close: &str| -> Option<(String, String)> {
        let rest = s.strip_prefix(open)?;
        let (a, b) = rest.split_once(close)?;
        Some((a.to_string(), b.to_string()))
    };
    // "..., expected WHAT": split at the last one, the value may contain it.
    let expected = |s: &str, open: &str| -> Option<(String, String)> {
        let rest = s.strip_prefix(open)?;
        let (a, b) = rest.rsplit_once(", expected ")?;
        Some((a.to_string(), b.to_string()))
    };
    if let Some((unexpected, expected)) =
        expected(msg, "invalid type: ").or_else(|| expected(msg, "invalid value: "))
    {
        // serde's words for JSON's arrays and objects.
        let json = |what: &str| match what {
            "a sequence" => "an array".to_string(),
            "sequence" => "an array".to_string(),
            "map" => "an object".to_string(),
            other => other.to_string(),
        };
        return InputError::new(
            whole,
            format!("must be {}, got {}{at}", json(&expected), json(&unexpected)),
        );
    }
    if let Some((variant, expected)) = expected(msg, "unknown variant ") {
        return InputError::new(whole, format!("must be {expected}, got {variant}{at}"));
    }
    if let Some((field, rest)) = between(msg, "unknown field `", "`") {
        let expected = rest.trim_start_matches(", ");
        // serde_path_to_error's path already ends with the unknown field.
        let here = if path.is_empty() {
            key_path("", &field)
        } else {
            path.to_string()
        };
        return InputError::new(here, format!("is an unknown field ({expected}){at}"));
    }
    if let Some((field, _)) = between(msg, "missing field `", "`") {
        return InputError::new(key_path(path, &field), format!("is missing{at}"));
    }
    if let Some((field, _)) = between(msg, "duplicate field `", "`") {
        return InputError::new(key_path(path, &field), format!("is given twice{at}"));
    }
    InputError::new(whole, format!("is invalid: {msg}{at}"))
}
