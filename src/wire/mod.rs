//! The JSON wire format (documented in docs/wire-format.md): cluster states
//! in, plans out. Serialisation lives here: the documents are this module's
//! own structs, converted to and from the model's types, which know nothing
//! of serde.
//!
//! Every read is strict and one streaming pass: unknown fields, duplicate
//! keys and ids, arrays where objects belong, and values out of range are
//! errors naming the field's path (`clients[3].capacity must be at least 1,
//! got 0`); `null` is absent for every optional field. Input strings echoed
//! in messages are escaped and cut (see [`crate::model::quote`]). Writes are
//! deterministic: lists sorted, two-space indentation, a final newline.

mod assign;
mod de;
mod entries;
mod input;
mod output;

use std::fmt;
use std::io::{BufReader, Read};

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::error::Category;

use crate::metrics::PlanMetrics;
use crate::model::{key_path, one_line, ClusterState, InputError, Plan, ECHO_MAX_CHARS};
pub use assign::assign_json;
use de::{Guarded, Obj, Stop};
use input::StateDoc;
pub use input::{ConfigDoc, RackAwareStrategyDoc};
use output::PlanDoc;

/// The most bytes [`state_from_reader`] reads: 1 GiB, four times the JSON
/// of a state with 10^6 stateful tasks, 1,000 clients and 3 lag reports per
/// task (231 MB).
pub const MAX_INPUT_BYTES: u64 = 1 << 30;

/// Why a state could not be read from a reader.
#[derive(Debug)]
pub enum ReadError {
    /// The reader failed, or its bytes are not UTF-8.
    Io(std::io::Error),
    /// The document is not a valid state (or larger than [`MAX_INPUT_BYTES`]).
    Input(InputError),
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Io(e) => e.fmt(f),
            ReadError::Input(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for ReadError {}

/// Reads a cluster state from JSON.
///
/// # Errors
///
/// The first field that is missing, unknown, of the wrong type or out of
/// range, or a rule of the model the state breaks, by its path.
pub fn state_from_json(text: &str) -> Result<ClusterState, InputError> {
    read_str::<StateDoc>(text)?.into_state()
}

/// Reads a cluster state from JSON in one streaming pass (the text is never
/// held whole), reading at most [`MAX_INPUT_BYTES`]. Wrap a file or standard
/// input in a [`std::io::BufReader`].
///
/// # Errors
///
/// [`ReadError::Io`] when `reader` fails or its bytes are not UTF-8;
/// [`ReadError::Input`] as [`state_from_json`], or when the input is larger
/// than [`MAX_INPUT_BYTES`].
pub fn state_from_reader<R: Read>(reader: R) -> Result<ClusterState, ReadError> {
    state_from_reader_limited(reader, MAX_INPUT_BYTES)
}

fn state_from_reader_limited<R: Read>(reader: R, limit: u64) -> Result<ClusterState, ReadError> {
    read_doc::<StateDoc, R>(reader, limit)?
        .into_state()
        .map_err(ReadError::Input)
}

/// `1 GiB (1073741824 bytes)` for whole GiB, `N bytes` otherwise.
fn limit_text(limit: u64) -> String {
    const GIB: u64 = 1 << 30;
    if limit >= GIB && limit % GIB == 0 {
        format!("{} GiB ({limit} bytes)", limit / GIB)
    } else {
        format!("{limit} bytes")
    }
}

/// Writes a cluster state as JSON; [`state_from_json`] reads it back equal.
pub fn state_to_json(state: &ClusterState) -> String {
    write(&StateDoc::from_state(state))
}

/// Reads a plan from JSON; its `metrics`, if any, are accepted and ignored.
///
/// # Errors
///
/// The first field that is missing, unknown, of the wrong type, a task id
/// that does not parse, or a task or client listed twice, by its path.
pub fn plan_from_json(text: &str) -> Result<Plan, InputError> {
    read_str::<PlanDoc>(text)?.into_plan()
}

/// Writes a plan as JSON, with its metrics when given.
pub fn plan_to_json(plan: &Plan, metrics: Option<PlanMetrics>) -> String {
    write(&PlanDoc::from_plan(plan, metrics))
}

/// `value` as this crate writes every JSON document: pretty-printed with a
/// two-space indent, fields in declaration order, and a trailing newline.
/// Also the writer of the simulator's `summary.json` and `sweep.json`.
pub fn write<T: Serialize>(value: &T) -> String {
    let mut text = serde_json::to_string_pretty(value).expect("plain data always serialises");
    text.push('\n');
    text
}

/// Reads one document from `read` in a single streaming pass: the top level
/// must be an object, nothing may follow it. A failure comes with the path
/// of the field where it happened (empty for the whole input).
fn read<'de, R: serde_json::de::Read<'de>, T: Deserialize<'de>>(
    read: R,
) -> Result<T, (String, serde_json::Error)> {
    let mut de = serde_json::Deserializer::new(read);
    let value: Obj<T> = serde_path_to_error::deserialize(&mut de)
        .map_err(|e| (render_path(e.path()), e.into_inner()))?;
    de.end().map_err(|e| (String::new(), e))?;
    Ok(value.0)
}

/// Reads one document from `reader` through a [`Guarded`] reader (at most
/// `limit` bytes, UTF-8), buffered above the guard so that it checks whole
/// chunks, not single bytes.
fn read_doc<T: DeserializeOwned, R: Read>(reader: R, limit: u64) -> Result<T, ReadError> {
    let mut buffered = BufReader::with_capacity(1 << 16, Guarded::new(reader, limit));
    let doc = read(serde_json::de::IoRead::new(&mut buffered));
    let guard = buffered.get_ref();
    doc.map_err(|(path, e)| match (guard.stop, e.classify()) {
        (Some(Stop::TooLarge), _) => ReadError::Input(InputError::new(
            "input",
            format!("is larger than the limit of {}", limit_text(limit)),
        )),
        (_, Category::Io) => ReadError::Io(e.into()),
        (_, Category::Eof) if guard.blank => ReadError::Input(empty_input()),
        _ => ReadError::Input(decode_error(&path, e)),
    })
}

/// Reads a document held in memory: the same pass as from a reader, so the
/// same messages (positions included).
fn read_str<T: DeserializeOwned>(text: &str) -> Result<T, InputError> {
    read_doc(text.as_bytes(), u64::MAX).map_err(|e| match e {
        ReadError::Input(e) => e,
        // A `&str` is UTF-8 and reading it cannot fail.
        ReadError::Io(e) => InputError::new("input", format!("cannot be read: {e}")),
    })
}

fn empty_input() -> InputError {
    InputError::new("input", "must be a JSON object, got empty input")
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
            format!(
                "must be {}, got {}{at}",
                json(&expected),
                cut(&json(&unexpected))
            ),
        );
    }
    if let Some((variant, expected)) = expected(msg, "unknown variant ") {
        return InputError::new(
            whole,
            format!("must be {expected}, got {}{at}", cut(&variant)),
        );
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
    InputError::new(whole, format!("is invalid: {}{at}", cut(msg)))
}

/// A fragment of a serde message that may echo an input value (already
/// escaped to one line), cut after [`ECHO_MAX_CHARS`] characters of the
/// value: a 1 MB string does not make a 1 MB line.
fn cut(fragment: &str) -> String {
    // Room for serde's own words around the value (`string "..."`).
    let room = ECHO_MAX_CHARS + 16;
    let count = fragment.chars().count();
    if count <= room {
        return fragment.to_string();
    }
    let kept: String = fragment.chars().take(room).collect();
    format!("{kept}… ({count} characters)")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input_error(r: Result<ClusterState, ReadError>) -> InputError {
        match r {
            Err(ReadError::Input(e)) => e,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn reading_stops_past_the_limit() {
        let doc = br#"{"tasks": [{"id": "0_0"}]}"#;
        let n = doc.len() as u64;
        assert!(state_from_reader_limited(&doc[..], n).is_ok());
        let e = input_error(state_from_reader_limited(&doc[..], n - 1));
        assert_eq!(e.path, "input");
        assert_eq!(
            e.message,
            format!("is larger than the limit of {} bytes", n - 1)
        );
        // Whitespace forever is cut off too.
        let spaces = std::io::repeat(b' ').take(5000);
        let e = input_error(state_from_reader_limited(spaces, 4096));
        assert!(e.message.contains("4096"), "{e}");
        assert_eq!(
            limit_text(MAX_INPUT_BYTES),
            "1 GiB (1073741824 bytes)",
            "the limit as the message states it"
        );
    }
}
