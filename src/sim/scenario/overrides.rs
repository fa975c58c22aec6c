//! Parameter sweeps: the scenario keys a sweep varies and the scenarios they
//! make. A key takes a list of values, given on the command line
//! (`sweep --set config.max_warmup_replicas=1,2,4`) or in the scenario's
//! `[sweep]` table; a sweep runs every combination (the cross product) of
//! the lists.
//!
//! The values are set in the scenario's TOML document before it is read, so
//! each combination is read and checked exactly as a file with those values
//! would be: a key that is not part of the scenario format, or a value out of
//! range, is an error naming the key and where it was set
//! (`--set cluster.foo=3: cluster.foo is not a known key …`).
//!
//! # Keys
//!
//! A key is the path of a scenario key, tables joined with `.` and array
//! entries by index (from 0): `cluster.restore_rate`,
//! `config.max_warmup_replicas`, `subtopologies[0].write_rate`,
//! `events[1].at`. A key missing from the file is added (tables as needed);
//! an array entry must exist. `name`, `seed`, `strategies` and `sweep`
//! cannot vary (seeds are `--seeds`, strategies `--strategy`).
//!
//! # Values
//!
//! `--set KEY=V1,V2,…` takes a comma-separated list of TOML values (`1`,
//! `2.5`, `true`, `"1h30m"`, `["r1", "r2"]`; commas inside quotes or
//! brackets do not separate); a word that is not a TOML value is a string,
//! so `--set cluster.session_timeout=30s,45s` needs no quotes. A list
//! names each value once.
//!
//! # The `[sweep]` table
//!
//! ```toml
//! [sweep]
//! config.max_warmup_replicas = [1, 2, 4]
//! "subtopologies[0].write_rate" = [1000, 5000]
//! ```
//!
//! Each entry is a key (dotted, or quoted when it has an index) and the
//! array of its values. `simulate` ignores the table (it runs the file's
//! own values) but checks its shape; the file must be a valid scenario
//! without it. A `--set` of a key the table lists replaces the table's
//! values.
//!
//! # Order
//!
//! Keys in the table's order (sorted, as TOML tables are read), then the
//! `--set` keys the table does not list, in command-line order. Points
//! enumerate the cross product with the last key varying fastest, values in
//! their list's order.

use std::fmt;

use super::spec::Scenario;
use crate::model::{one_line, InputError};

/// The most combinations one sweep runs (each is a scenario read and kept
/// in memory); `sweep` also bounds combinations × seeds
/// (`sweep::MAX_SEEDS` runs per strategy).
pub const MAX_POINTS: usize = 100_000;

/// Keys a sweep cannot vary.
const FIXED_KEYS: [(&str, &str); 4] = [
    ("name", "names the outputs"),
    ("seed", "is given by --seeds"),
    ("strategies", "is given by --strategy"),
    ("sweep", "is the sweep itself"),
];

/// One step of a [`KeyPath`]: a table key or an array index.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Step {
    Key(String),
    Index(usize),
}

/// The path of a scenario key: `cluster.restore_rate`,
/// `subtopologies[0].write_rate`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyPath(Vec<Step>);

impl KeyPath {
    /// Reads `a.b[2].c`: keys of letters, digits, `_` and `-`, indices of
    /// digits.
    ///
    /// # Errors
    ///
    /// A message (without the key) when `text` is not such a path.
    pub fn parse(text: &str) -> Result<KeyPath, String> {
        let bad = || {
            format!(
                "{:?} is not a key path (table keys joined with `.`, array entries as `[i]`, \
                 such as config.max_warmup_replicas or subtopologies[0].write_rate)",
                one_line(text)
            )
        };
        let mut steps = Vec::new();
        for part in text.split('.') {
            let (key, mut rest) = part.split_at(part.find('[').unwrap_or(part.len()));
            let plain = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
            if key.is_empty() || !key.chars().all(plain) {
                return Err(bad());
            }
            steps.push(Step::Key(key.to_string()));
            while !rest.is_empty() {
                let inner = rest.strip_prefix('[').ok_or_else(bad)?;
                let (digits, after) = inner.split_once(']').ok_or_else(bad)?;
                if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) {
                    return Err(bad());
                }
                steps.push(Step::Index(digits.parse().map_err(|_| bad())?));
                rest = after;
            }
        }
        Ok(KeyPath(steps))
    }

    /// Why this key cannot vary, if it cannot.
    fn fixed(&self) -> Option<&'static str> {
        let Some(Step::Key(first)) = self.0.first() else {
            return None;
        };
        FIXED_KEYS
            .iter()
            .find(|(key, _)| key == first)
            .map(|&(_, why)| why)
    }
}

impl fmt::Display for KeyPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, step) in self.0.iter().enumerate() {
            match step {
                Step::Key(key) if i == 0 => f.write_str(key)?,
                Step::Key(key) => write!(f, ".{key}")?,
                Step::Index(index) => write!(f, "[{index}]")?,
            }
        }
        Ok(())
    }
}

/// Where an [`Axis`] was given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// `--set KEY=…` on the command line.
    Flag,
    /// An entry of the scenario's `[sweep]` table.
    Table,
}

/// One key a sweep varies and the values it takes.
#[derive(Debug, Clone, PartialEq)]
pub struct Axis {
    /// The key.
    pub key: KeyPath,
    /// Its values, in order, each once.
    pub values: Vec<toml::Value>,
    /// Where it was given.
    pub origin: Origin,
}

impl Axis {
    /// Reads one `--set KEY=V1,V2,…` (module doc).
    ///
    /// # Errors
    ///
    /// An [`InputError`] at `--set` when there is no `=`, the key is not a
    /// key path or cannot vary, the list is empty, a value is empty or not
    /// a value, or a value is listed twice.
    pub fn parse_flag(arg: &str) -> Result<Axis, InputError> {
        let bad = |message: String| InputError::new("--set", message);
        let (key, list) = arg.split_once('=').ok_or_else(|| {
            bad(format!(
                "must be KEY=VALUE[,VALUE...] (such as config.max_warmup_replicas=1,2,4), got {:?}",
                one_line(arg)
            ))
        })?;
        let key = KeyPath::parse(key.trim()).map_err(|e| bad(format!("key {e}")))?;
        if list.trim().is_empty() {
            return Err(bad(format!(
                "{key} needs at least one value after `=` (a comma-separated list)"
            )));
        }
        let values = split_list(list)
            .into_iter()
            .enumerate()
            .map(|(i, item)| {
                parse_value(item).ok_or_else(|| {
                    let what = if item.trim().is_empty() {
                        "is empty".to_string()
                    } else {
                        format!(
                            "is not a value (quote a string with spaces: \"a b\"), got {:?}",
                            one_line(item.trim())
                        )
                    };
                    bad(format!("{key}: value {} {what}", i + 1))
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Axis::new(key, values, Origin::Flag)
    }

    /// An axis after the checks every origin shares: the key may vary, the
    /// list is not empty and names each value once.
    fn new(key: KeyPath, values: Vec<toml::Value>, origin: Origin) -> Result<Axis, InputError> {
        let place = match origin {
            Origin::Flag => "--set".to_string(),
            Origin::Table => format!("[sweep] {key}"),
        };
        if let Some(why) = key.fixed() {
            return Err(InputError::new(
                place,
                format!("cannot vary {key} in a sweep: it {why}"),
            ));
        }
        if values.is_empty() {
            return Err(InputError::new(
                place,
                format!("{key} needs at least one value"),
            ));
        }
        for (i, value) in values.iter().enumerate() {
            if values[..i].contains(value) {
                return Err(InputError::new(place, format!("{key} lists {value} twice")));
            }
        }
        Ok(Axis {
            key,
            values,
            origin,
        })
    }

    /// How this axis set `value`: `--set KEY=VALUE` or `[sweep] KEY = VALUE`.
    fn origin_of(&self, value: &toml::Value) -> String {
        match self.origin {
            Origin::Flag => format!("--set {}={}", self.key, label(value)),
            Origin::Table => format!("[sweep] {} = {value}", self.key),
        }
    }
}

/// A value as a label in a table or CSV file: a string as it is (`1h30m`),
/// anything else as TOML writes it (`2`, `2.5`, `true`, `["a", "b"]`).
pub fn label(value: &toml::Value) -> String {
    match value {
        toml::Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}

/// One value a key has at a point of a sweep.
#[derive(Debug, Clone, PartialEq)]
pub struct Setting {
    /// The key, as written in the outputs (`config.max_warmup_replicas`).
    pub key: String,
    /// Its value.
    pub value: toml::Value,
}

/// One combination of a sweep: the values set and the scenario they make.
#[derive(Debug, Clone)]
pub struct SweepPoint {
    /// The values set, one per key, in key order (module doc).
    pub settings: Vec<Setting>,
    /// The scenario with those values.
    pub scenario: Scenario,
}

impl SweepPoint {
    /// Its values as `key = value, …`, for messages; `None` when no value
    /// varies.
    pub fn values_text(&self) -> Option<String> {
        if self.settings.is_empty() {
            return None;
        }
        let values: Vec<String> = self
            .settings
            .iter()
            .map(|s| format!("{} = {}", s.key, s.value))
            .collect();
        Some(values.join(", "))
    }
}

/// Removes the `[sweep]` table from a scenario document and returns its
/// entries as axes (module doc).
///
/// # Errors
///
/// An [`InputError`] naming the entry when `sweep` is not a table, an entry
/// is not a non-empty array of distinct values, its key is not a key path or
/// cannot vary, or a key is listed twice.
pub fn take_sweep_table(document: &mut toml::Table) -> Result<Vec<Axis>, InputError> {
    let Some(sweep) = document.remove("sweep") else {
        return Ok(Vec::new());
    };
    let toml::Value::Table(sweep) = sweep else {
        return Err(InputError::new(
            "sweep",
            format!("must be a table of keys and their values, got {sweep}"),
        ));
    };
    let mut axes: Vec<Axis> = Vec::new();
    flatten(&sweep, "", &mut axes)?;
    Ok(axes)
}

/// The entries of `table` (a part of `[sweep]` under `prefix`) as axes.
fn flatten(table: &toml::Table, prefix: &str, axes: &mut Vec<Axis>) -> Result<(), InputError> {
    for (name, value) in table {
        let text = if prefix.is_empty() {
            name.clone()
        } else {
            format!("{prefix}.{name}")
        };
        match value {
            toml::Value::Table(inner) => flatten(inner, &text, axes)?,
            toml::Value::Array(values) => {
                let key = KeyPath::parse(&text)
                    .map_err(|e| InputError::new("[sweep]", format!("key {e}")))?;
                if axes.iter().any(|a| a.key == key) {
                    return Err(InputError::new("[sweep]", format!("lists {key} twice")));
                }
                axes.push(Axis::new(key, values.clone(), Origin::Table)?);
            }
            other => {
                return Err(InputError::new(
                    format!("[sweep] {text}"),
                    format!("must be an array of the values to sweep, got {other}"),
                ))
            }
        }
    }
    Ok(())
}

/// Every combination of the `[sweep]` table of `text` and of `flags` (the
/// `--set` axes, which replace the table's entry of the same key), read as
/// scenarios, in order (module doc). Without either, the one point of the
/// file as it is.
///
/// # Errors
///
/// The file's own error (it must be a valid scenario as it is); a key given
/// twice with `--set`; more than [`MAX_POINTS`] combinations; else the first
/// combination that is not a valid scenario, naming where its values were
/// set (`--set cluster.foo=3: cluster.foo is not a known key …`).
pub fn sweep_points(text: &str, flags: &[Axis]) -> Result<Vec<SweepPoint>, InputError> {
    let base = Scenario::from_toml(text)?;
    let mut document: toml::Table =
        toml::from_str(text).map_err(|e| InputError::new("scenario", one_line(e.message())))?;
    let mut axes = take_sweep_table(&mut document)?;
    for (i, flag) in flags.iter().enumerate() {
        if flags[..i].iter().any(|f| f.key == flag.key) {
            return Err(InputError::new(
                "--set",
                format!("gives {} twice (list its values in one --set)", flag.key),
            ));
        }
        match axes.iter_mut().find(|a| a.key == flag.key) {
            Some(entry) => *entry = flag.clone(),
            None => axes.push(flag.clone()),
        }
    }
    if axes.is_empty() {
        return Ok(vec![SweepPoint {
            settings: Vec::new(),
            scenario: base,
        }]);
    }
    let count = axes
        .iter()
        .try_fold(1usize, |acc, a| acc.checked_mul(a.values.len()))
        .filter(|&c| c <= MAX_POINTS)
        .ok_or_else(|| {
            let sizes: Vec<String> = axes.iter().map(|a| a.values.len().to_string()).collect();
            InputError::new(
                "--set",
                format!(
                    "and [sweep] make {} combinations, more than the limit of {MAX_POINTS}",
                    sizes.join(" × ")
                ),
            )
        })?;
    (0..count)
        .map(|index| point(&document, &axes, index))
        .collect()
}

/// The `index`-th combination (the last axis varying fastest).
fn point(document: &toml::Table, axes: &[Axis], index: usize) -> Result<SweepPoint, InputError> {
    let mut picks = vec![0; axes.len()];
    let mut rest = index;
    for (pick, axis) in picks.iter_mut().zip(axes).rev() {
        *pick = rest % axis.values.len();
        rest /= axis.values.len();
    }
    let chosen: Vec<(&Axis, &toml::Value)> = axes
        .iter()
        .zip(&picks)
        .map(|(axis, &pick)| (axis, &axis.values[pick]))
        .collect();
    let mut root = toml::Value::Table(document.clone());
    for &(axis, value) in &chosen {
        set(&mut root, &axis.key.0, value.clone())
            .map_err(|why| InputError::new("", format!("{}: {why}", axis.origin_of(value))))?;
    }
    let toml::Value::Table(table) = root else {
        unreachable!("the root stays a table")
    };
    let scenario = Scenario::from_table(table).map_err(|e| {
        // The setting whose key the error is at, else every setting.
        let blamed = chosen
            .iter()
            .find(|(axis, _)| names_the_same(&e.path, &axis.key.to_string()));
        match blamed {
            Some((axis, value)) => {
                let hint = elsewhere(document, &axis.key, value, &e)
                    .map(|key| format!("; did you mean {key}?"))
                    .unwrap_or_default();
                InputError::new("", format!("{}: {e}{hint}", axis.origin_of(value)))
            }
            None => {
                let all: Vec<String> = chosen
                    .iter()
                    .map(|(axis, value)| axis.origin_of(value))
                    .collect();
                InputError::new("", format!("{}: {e}", all.join(", ")))
            }
        }
    })?;
    Ok(SweepPoint {
        settings: chosen
            .iter()
            .map(|(axis, value)| Setting {
                key: axis.key.to_string(),
                value: (*value).clone(),
            })
            .collect(),
        scenario,
    })
}

/// For a key that is not part of the format (`cluster.max_warmup_replicas`),
/// the same key in another top-level table that is (`config.…`), if any.
fn elsewhere(
    document: &toml::Table,
    key: &KeyPath,
    value: &toml::Value,
    error: &InputError,
) -> Option<KeyPath> {
    let unknown = |e: &InputError, key: &KeyPath| {
        e.path == key.to_string() && e.message.contains("unknown key")
    };
    if !unknown(error, key) {
        return None;
    }
    let [Step::Key(table), Step::Key(leaf)] = key.0.as_slice() else {
        return None;
    };
    ["cluster", "config", "churn"]
        .into_iter()
        .filter(|other| other != table)
        .map(|other| KeyPath(vec![Step::Key(other.to_string()), Step::Key(leaf.clone())]))
        .find(|candidate| {
            let mut root = toml::Value::Table(document.clone());
            if set(&mut root, &candidate.0, value.clone()).is_err() {
                return false;
            }
            let toml::Value::Table(table) = root else {
                return false;
            };
            match Scenario::from_table(table) {
                Ok(_) => true,
                Err(e) => !unknown(&e, candidate),
            }
        })
}

/// Whether an error at `path` is about `key`: the same key, or a key or
/// entry inside it.
fn names_the_same(path: &str, key: &str) -> bool {
    path.strip_prefix(key)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with(['.', '[']))
}

/// Sets `steps` below `node` to `value`, adding missing tables; the reason
/// when a step meets a value of another kind or an array entry that does not
/// exist.
fn set(node: &mut toml::Value, steps: &[Step], value: toml::Value) -> Result<(), String> {
    let mut node = node;
    let mut walked = String::new();
    for (i, step) in steps.iter().enumerate() {
        let last = i + 1 == steps.len();
        match step {
            Step::Key(key) => {
                let toml::Value::Table(table) = node else {
                    return Err(format!("{walked} is not a table, so it has no key {key}"));
                };
                walked = if walked.is_empty() {
                    key.clone()
                } else {
                    format!("{walked}.{key}")
                };
                if last {
                    table.insert(key.clone(), value);
                    return Ok(());
                }
                if !table.contains_key(key) {
                    if let Some(Step::Index(index)) = steps.get(i + 1) {
                        return Err(format!(
                            "the scenario has no {walked}, so no {walked}[{index}]"
                        ));
                    }
                    table.insert(key.clone(), toml::Value::Table(toml::Table::new()));
                }
                node = table.get_mut(key).expect("just checked or inserted");
            }
            Step::Index(index) => {
                let toml::Value::Array(entries) = node else {
                    return Err(format!("{walked} is not an array, so it has no [{index}]"));
                };
                let len = entries.len();
                let Some(entry) = entries.get_mut(*index) else {
                    return Err(format!(
                        "the scenario has {len} {walked} (from [0]), no {walked}[{index}]"
                    ));
                };
                walked = format!("{walked}[{index}]");
                if last {
                    *entry = value;
                    return Ok(());
                }
                node = entry;
            }
        }
    }
    Ok(())
}

/// Splits a `--set` list at the commas outside quotes and brackets.
fn split_list(list: &str) -> Vec<&str> {
    let mut items = Vec::new();
    let mut depth = 0usize;
    let mut quote: Option<char> = None;
    let mut escaped = false;
    let mut start = 0;
    for (i, c) in list.char_indices() {
        match quote {
            Some(q) => {
                if escaped {
                    escaped = false;
                } else if c == '\\' && q == '"' {
                    escaped = true;
                } else if c == q {
                    quote = None;
                }
            }
            None => match c {
                '"' | '\'' => quote = Some(c),
                '[' | '{' => depth += 1,
                ']' | '}' => depth = depth.saturating_sub(1),
                ',' if depth == 0 => {
                    items.push(&list[start..i]);
                    start = i + 1;
                }
                _ => {}
            },
        }
    }
    items.push(&list[start..]);
    items
}

/// One `--set` value: a TOML value, or a plain word (letters, digits and
/// `-_.:+/`) as a string; `None` when it is neither.
fn parse_value(item: &str) -> Option<toml::Value> {
    let item = item.trim();
    if item.is_empty() {
        return None;
    }
    if let Ok(mut doc) = toml::from_str::<toml::Table>(&format!("v = {item}")) {
        if doc.len() == 1 {
            return doc.remove("v");
        }
    }
    let word = |c: char| c.is_ascii_alphanumeric() || "-_.:+/".contains(c);
    item.chars()
        .all(word)
        .then(|| toml::Value::String(item.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCENARIO: &str = r#"
name = "tiny"
seed = 1
duration = "10m"
strategies = ["kip441"]

[cluster]
clients = 2
restore_rate = 1000

[[subtopologies]]
partitions = 4
stateful = true
state_records = 100

[sweep]
config.max_warmup_replicas = [1, 2]
"#;

    fn flag(arg: &str) -> Axis {
        Axis::parse_flag(arg).unwrap()
    }

    fn flag_error(arg: &str) -> String {
        Axis::parse_flag(arg).unwrap_err().to_string()
    }

    #[test]
    fn key_paths() {
        for text in [
            "cluster.restore_rate",
            "subtopologies[0].write_rate",
            "a[1][2].b",
            "x",
        ] {
            assert_eq!(KeyPath::parse(text).unwrap().to_string(), text);
        }
        for bad in ["", "a..b", ".a", "a.", "a[x]", "a[]", "[0]", "a b", "a[1"] {
            assert!(KeyPath::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn flag_values() {
        let axis = flag("config.max_warmup_replicas=1,2,4");
        assert_eq!(axis.key.to_string(), "config.max_warmup_replicas");
        assert_eq!(
            axis.values,
            [1, 2, 4].map(toml::Value::Integer).to_vec(),
            "{axis:?}"
        );
        let axis = flag(r#"x=2.5, true,"1h30m",30s,["a,b", "c"]"#);
        let labels: Vec<String> = axis.values.iter().map(label).collect();
        assert_eq!(labels, ["2.5", "true", "1h30m", "30s", r#"["a,b", "c"]"#]);
        assert_eq!(axis.values[3], toml::Value::String("30s".into()));
    }

    #[test]
    fn bad_flags_name_set() {
        for (arg, needle) in [
            ("x", "must be KEY=VALUE"),
            ("=1", "is not a key path"),
            ("cluster.clients=", "needs at least one value"),
            ("cluster.clients=1,,2", "value 2 is empty"),
            ("cluster.clients=a b", "value 1 is not a value"),
            ("cluster.clients=1,2,1", "lists 1 twice"),
            ("seed=1,2", "cannot vary seed"),
            ("strategies=[\"a\"]", "--strategy"),
        ] {
            let e = flag_error(arg);
            assert!(e.starts_with("--set "), "{e}");
            assert!(e.contains(needle), "{arg}: {e}");
        }
    }

    #[test]
    fn table_and_flags_make_the_cross_product() {
        let points = sweep_points(SCENARIO, &[flag("cluster.clients=2,3,4")]).unwrap();
        let shown: Vec<String> = points
            .iter()
            .map(|p| {
                p.settings
                    .iter()
                    .map(|s| format!("{}={}", s.key, label(&s.value)))
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        assert_eq!(shown.len(), 6);
        assert_eq!(
            shown[0], "config.max_warmup_replicas=1 cluster.clients=2",
            "{shown:?}"
        );
        assert_eq!(shown[1], "config.max_warmup_replicas=1 cluster.clients=3");
        assert_eq!(shown[5], "config.max_warmup_replicas=2 cluster.clients=4");
        assert_eq!(points[5].scenario.config.max_warmup_replicas, 2);
        assert_eq!(points[5].scenario.cluster.clients, 4);

        // --set replaces the table's entry of the same key.
        let points = sweep_points(SCENARIO, &[flag("config.max_warmup_replicas=3")]).unwrap();
        assert_eq!(points.len(), 1);
        assert_eq!(points[0].scenario.config.max_warmup_replicas, 3);

        // Without [sweep] and --set: the file as it is.
        let plain = SCENARIO.split("[sweep]").next().unwrap();
        let points = sweep_points(plain, &[]).unwrap();
        assert_eq!(points.len(), 1);
        assert!(points[0].settings.is_empty());
    }

    #[test]
    fn unknown_keys_and_bad_values_name_where_they_were_set() {
        let e = sweep_points(SCENARIO, &[flag("cluster.foo=3")])
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("--set cluster.foo=3: cluster.foo"), "{e}");
        assert!(!e.contains("did you mean"), "{e}");
        let e = sweep_points(SCENARIO, &[flag("cluster.max_warmup_replicas=3")])
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("--set cluster.max_warmup_replicas=3: cluster.max_warmup_replicas")
                && e.ends_with("; did you mean config.max_warmup_replicas?"),
            "{e}"
        );
        let e = sweep_points(SCENARIO, &[flag("config.max_warmup_replicas=0")])
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("--set config.max_warmup_replicas=0: config.max_warmup_replicas"),
            "{e}"
        );
        let e = sweep_points(SCENARIO, &[flag("subtopologies[1].partitions=3")])
            .unwrap_err()
            .to_string();
        assert!(e.contains("no subtopologies[1]"), "{e}");
        let e = flag_error("name.x=3");
        assert!(e.contains("cannot vary name.x"), "{e}");
        let twice = [flag("cluster.clients=2"), flag("cluster.clients=3")];
        let e = sweep_points(SCENARIO, &twice).unwrap_err().to_string();
        assert!(e.contains("cluster.clients twice"), "{e}");
        let bad_table = SCENARIO.replace("[1, 2]", "[]");
        let e = sweep_points(&bad_table, &[]).unwrap_err().to_string();
        assert!(e.contains("[sweep] config.max_warmup_replicas"), "{e}");
        let e = sweep_points(&SCENARIO.replace("[1, 2]", "1"), &[])
            .unwrap_err()
            .to_string();
        assert!(e.contains("must be an array"), "{e}");
        let e = sweep_points(&SCENARIO.replace("[1, 2]", "[1, 0]"), &[])
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("[sweep] config.max_warmup_replicas = 0: "),
            "{e}"
        );
    }

    #[test]
    fn too_many_points() {
        let values: Vec<String> = (1..=400).map(|v| v.to_string()).collect();
        let list = values.join(",");
        let flags = [
            flag(&format!("cluster.clients={list}")),
            flag(&format!("cluster.threads={list}")),
        ];
        let e = sweep_points(SCENARIO, &flags).unwrap_err().to_string();
        assert!(e.contains("more than the limit"), "{e}");
    }
}
