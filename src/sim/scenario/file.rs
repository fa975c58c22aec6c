//! Reading a scenario from TOML, strictly: every key is known, every value
//! has its type and range, and the first problem found is reported as one
//! line naming the key, `events[2].client must name a live client, got "c9"
//! …`.
//!
//! The reader is declarative: the file is deserialised (serde, unknown keys
//! denied) into the documents of `document.rs`, which mirror it key for key
//! and whose field docs are the key reference (docs/simulator.md shows them
//! as tables, generated from that file); their leaf types (`values.rs`,
//! `duration.rs`) check their own values, and `serde_path_to_error` gives
//! the paths. The few rules about one table that serde cannot say (keys of
//! another event kind, repeated names) are checked while the documents
//! become a [`Scenario`]; every rule between values, the membership the
//! events imply and the limits on sizes and work are checked once, by
//! [`Scenario::check`].
//!
//! Paths are written as in the JSON reader: `cluster.restore_rate`,
//! `subtopologies[1].partitions`, `events[0].at`, `churn.kinds[2]` (indices
//! count from 0 in file order). A file that is not TOML at all is reported
//! at the path `scenario`, with the parser's reason, line and column.

use serde_path_to_error::Segment;

use super::document::ScenarioDoc;
use super::spec::Scenario;
use crate::model::{key_path, one_line, InputError};

/// The largest scenario text read (1 MiB): the bundled ones are under 3 KB,
/// and a scenario's sizes are bounded by `Scenario::check` anyway.
pub const MAX_SCENARIO_BYTES: u64 = 1 << 20;

impl Scenario {
    /// Reads and checks a scenario; errors name the key (`events[2].client`).
    /// Every key, its type, default and meaning: docs/simulator.md, "Scenario
    /// files" (generated from the documents of `document.rs`).
    ///
    /// # Errors
    ///
    /// The first problem found: the file is not TOML (path `scenario`), a key
    /// is unknown or missing, a value has the wrong type or range, or a rule
    /// or limit of [`Scenario::check`] is broken.
    pub fn from_toml(text: &str) -> Result<Scenario, InputError> {
        let mut table: toml::Table = toml::from_str(text).map_err(|e| syntax_error(text, &e))?;
        // `[sweep]` is read by `sweep` (module `overrides`); its shape is checked here.
        super::overrides::take_sweep_table(&mut table)?;
        Scenario::from_table(table)
    }

    /// [`Scenario::from_toml`] of a document already parsed, without a
    /// `[sweep]` table (a sweep sets its values in the document first).
    ///
    /// # Errors
    ///
    /// As [`Scenario::from_toml`], but for the syntax.
    pub fn from_table(table: toml::Table) -> Result<Scenario, InputError> {
        let doc: ScenarioDoc =
            serde_path_to_error::deserialize(toml::Value::Table(table)).map_err(data_error)?;
        let mut scenario = doc.into_scenario()?;
        scenario.check()?;
        // Stable: equal times keep file order.
        scenario.events.sort_by_key(|e| e.at_ms);
        Ok(scenario)
    }
}

/// A stable digest of a scenario file's text, written into every output:
/// 64-bit FNV-1a as 16 lowercase hex digits. Line ends are normalised first
/// (`\r\n` counts as `\n`), so a checkout with Windows line ends hashes the same.
pub fn scenario_hash(text: &str) -> String {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    let bytes = text.as_bytes();
    let mut hash = OFFSET;
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'\r' && bytes.get(i + 1) == Some(&b'\n') {
            continue;
        }
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(PRIME);
    }
    format!("{hash:016x}")
}

/// A file that is not TOML: the parser's reason, line and column.
fn syntax_error(text: &str, e: &toml::de::Error) -> InputError {
    let start = e.span().map(|span| span.start.min(text.len()));
    let at = start
        .map(|start| {
            let before = &text[..start];
            let line = before.matches('\n').count() + 1;
            let column = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
            format!(" at line {line} column {column}")
        })
        .unwrap_or_default();
    // The parser's message may span lines ("invalid string\nexpected ...").
    let message: Vec<&str> = e
        .message()
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let mut message = message.join(": ");
    if let Some(start) = start {
        // `key = ` with nothing after it: the parser gives no reason at the
        // end of the input and a misleading one ("invalid string") before a
        // line end or a comment.
        let line_before = text[..start].rsplit('\n').next().unwrap_or("");
        let found = text[start..].lines().next().unwrap_or("").trim();
        let no_value =
            line_before.trim_end().ends_with('=') && (found.is_empty() || found.starts_with('#'));
        if no_value {
            message =
                "a value is missing after `=` (expected a string, number, boolean, array or table)"
                    .to_string();
        } else if message.is_empty() {
            let found: String = found.chars().take(20).collect();
            message = format!("unexpected {found:?}");
        }
    } else if message.is_empty() {
        message = "the parser gives no reason".to_string();
    }
    InputError::new(
        "scenario",
        format!("is not valid TOML: {}{at}", one_line(&message)),
    )
}

/// A value that does not fit its key, at the key's path.
fn data_error(e: serde_path_to_error::Error<toml::de::Error>) -> InputError {
    let mut path = String::new();
    let last = match e.path().iter().next_back() {
        Some(Segment::Map { key }) => Some(key.clone()),
        _ => None,
    };
    for segment in e.path().iter() {
        match segment {
            Segment::Seq { index } => path.push_str(&format!("[{index}]")),
            Segment::Map { key } | Segment::Enum { variant: key } => path = key_path(&path, key),
            Segment::Unknown => path = key_path(&path, "?"),
        }
    }
    let (path, message) = restyle(path, last.as_deref(), e.inner().message());
    InputError::new(path, one_line(&message))
}

/// Serde's own messages in this reader's words: `missing field `x`` becomes
/// `x is missing`, `invalid type: integer `3`, expected struct ClusterDoc`
/// becomes `must be a table, got 3`, and so on. The leaf types' own messages
/// pass unchanged. `last` is the path's last key, if it ends with one.
fn restyle(path: String, last: Option<&str>, message: &str) -> (String, String) {
    let backticked = |rest: &str| -> Option<(String, String)> {
        let rest = rest.strip_prefix('`')?;
        let (key, tail) = rest.split_once('`')?;
        Some((key.to_string(), tail.to_string()))
    };
    if let Some((key, _)) = message.strip_prefix("missing field ").and_then(backticked) {
        return (key_path(&path, &key), "is missing".to_string());
    }
    if let Some((key, tail)) = message.strip_prefix("unknown field ").and_then(backticked) {
        let expected = tail
            .strip_prefix(", expected one of ")
            .or_else(|| tail.strip_prefix(", expected "))
            .map(|list| format!(" (expected one of {})", list.replace('`', "")))
            .unwrap_or_default();
        // The path may already end with the unknown key.
        let path = if last == Some(key.as_str()) {
            path
        } else {
            key_path(&path, &key)
        };
        return (path, format!("is an unknown key{expected}"));
    }
    for prefix in ["invalid type: ", "invalid value: "] {
        if let Some((got, expected)) = message
            .strip_prefix(prefix)
            .and_then(|rest| rest.rsplit_once(", expected "))
        {
            let expected = match (path.as_str(), expected_words(expected)) {
                ("events" | "subtopologies", "an array") => {
                    format!("an array of tables ([[{path}]])")
                }
                (_, words) => words.to_string(),
            };
            return (path, format!("must be {expected}, got {}", got_words(got)));
        }
    }
    (path, message.to_string())
}

/// Serde's "expected" (`struct ClusterDoc`, `a sequence`) as this reader says it.
fn expected_words(expected: &str) -> &str {
    if expected.starts_with("struct ") || expected == "a map" || expected == "map" {
        "a table"
    } else if expected == "a sequence" {
        "an array"
    } else if expected == "a boolean" {
        "true or false"
    } else {
        expected
    }
}

/// Serde's unexpected value (``integer `3` ``, `string "x"`) as TOML writes it.
fn got_words(got: &str) -> String {
    for prefix in ["integer ", "floating point ", "boolean ", "character "] {
        if let Some(v) = got.strip_prefix(prefix) {
            return v.trim_matches('`').to_string();
        }
    }
    if let Some(v) = got.strip_prefix("string ") {
        return v.to_string();
    }
    match got {
        "sequence" => "an array".to_string(),
        "map" => "a table".to_string(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn syntax_errors_are_one_line_with_a_position() {
        let e = Scenario::from_toml("name = \"x\"\nseed = \n").unwrap_err();
        assert_eq!(e.path, "scenario");
        assert!(e.message.contains("line 2 column 8"), "{e}");
        assert!(!e.to_string().contains('\n'), "{e}");
    }

    #[test]
    fn syntax_errors_give_a_reason() {
        for text in [
            "seed = ",
            "seed = \n",
            "seed =",
            "seed = # none\n",
            "name = \"x\"\nseed = \nduration = 1",
            "seed = @",
            "[cluster\n",
            "= 3\n",
            "seed = 1 2\n",
        ] {
            let e = Scenario::from_toml(text).unwrap_err();
            assert_eq!(e.path, "scenario", "{text:?}");
            let reason = e
                .message
                .strip_prefix("is not valid TOML: ")
                .unwrap_or_else(|| panic!("{text:?}: {e}"));
            assert!(
                !reason.starts_with(' ') && !reason.starts_with("at line"),
                "{text:?}: {e}"
            );
            assert!(!e.to_string().contains('\n'), "{e}");
        }
        let e = Scenario::from_toml("seed = ").unwrap_err();
        assert_eq!(
            e.to_string(),
            "scenario is not valid TOML: a value is missing after `=` (expected a string, number, boolean, array or table) at line 1 column 8"
        );
    }

    #[test]
    fn hash_ignores_only_crlf() {
        assert_eq!(scenario_hash("a\r\nb"), scenario_hash("a\nb"));
        assert_ne!(scenario_hash("a\rb"), scenario_hash("ab"));
        assert_ne!(scenario_hash("a\rb"), scenario_hash("a\nb"));
    }
}
