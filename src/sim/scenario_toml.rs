//! Reading scenarios from TOML (DESIGN §5), strictly: every key is known, every
//! value has its type and range, and the first problem found is reported as
//! one line naming the key, `events[2].client must name a live client, got "c9" …`.
//!
//! Paths are written as in the JSON reader: `cluster.restore_rate`,
//! `subtopologies[1].partitions`, `events[0].at`, `churn.kinds[2]` (indices
//! count from 0 in file order). A file that is not TOML at all is reported at
//! the path `scenario`, with the parser's line and column.
//!
//! # Durations
//!
//! An integer of milliseconds (`45000`) or a string of digits and one unit
//! `ms`, `s`, `m`, `h` or `d` (`"45s"`, `"10m"`, `"8h"`); see
//! [`parse_duration`](super::parse_duration). Negative numbers, floats,
//! `""`, `"10"`, `"10x"`, `"1h30m"` and values past `u64::MAX` ms are errors.
//!
//! # Keys
//!
//! Top level:
//!
//! | key | type | default | checks |
//! |---|---|---|---|
//! | `name` | string | required | non-empty; letters, digits, `-`, `_`, `.` only (it may name files) |
//! | `description` | string | `""` | one line (no control characters) |
//! | `seed` | integer | required | `0 ..= 2^63 − 1` (TOML integers are signed 64-bit) |
//! | `duration` | duration | required | at least 1 ms |
//! | `step` | duration | `"1s"` | at least 1 ms: the physics step |
//! | `sample_every` | duration | `"1m"` | at least 1 ms and a multiple of `step` |
//! | `strategies` | array of strings | every registered strategy | non-empty, registered names, no repeats |
//! | `[cluster]` | table | required | below |
//! | `[[subtopologies]]` | array of tables | required | at least one; below |
//! | `[config]` | table | Kafka's defaults | below |
//! | `[[events]]` | array of tables | none | below; sorted by `at` when read, equal times keep file order |
//! | `[churn]` | table | no churn | below |
//!
//! `[cluster]`:
//!
//! | key | type | default | checks |
//! |---|---|---|---|
//! | `clients` | integer | required | at least 1: clients `c0 … c{n−1}` at time 0 |
//! | `threads` | integer | `1` | at least 1, per client |
//! | `racks` | array of strings | `[]` | non-empty names, no repeats; dealt round-robin to clients in order of creation (client `cK` gets `racks[K % len]`) |
//! | `restore_rate` | integer | required | at least 1 record/s per client |
//! | `session_timeout` | duration | `"45s"` (Kafka's `session.timeout.ms`) | |
//! | `rebalance_pause` | duration | `"5s"` | |
//! | `state_cleanup_delay` | duration | `"10m"` (Kafka's `state.cleanup.delay.ms`) | |
//! | `protocol` | string | `"cooperative"` | `"cooperative"` or `"eager"` |
//! | `scale_down_timeout` | duration | none: wait as long as it takes | how long a leaving client waits for learners to take its tasks over (`kip441-learner` only; other strategies leave at once) |
//!
//! `[[subtopologies]]` (subtopology `i` is the `i`-th entry):
//!
//! | key | type | default | checks |
//! |---|---|---|---|
//! | `partitions` | integer | required | at least 1 |
//! | `stateful` | boolean | `false` | |
//! | `state_records` | integer | `0` | at least 0; stateful subtopologies only |
//! | `write_rate` | integer | `0` | at least 0 records/s per task; stateful subtopologies only |
//!
//! `[config]` ([`AssignmentConfig`], Kafka's names and defaults):
//!
//! | key | type | default | checks |
//! |---|---|---|---|
//! | `num_standby_replicas` | integer | `0` | at least 0 |
//! | `acceptable_recovery_lag` | integer | `10000` | at least 0 |
//! | `max_warmup_replicas` | integer | `2` | at least 1 |
//! | `probing_rebalance_interval` | duration | `"10m"` | at least `"1m"` (Kafka's minimum) |
//! | `rack_aware_assignment_tags` | array of strings | `[]` | at most 5 keys of 1 to 20 characters, no repeats |
//! | `rack_aware_strategy` | string | `"none"` | `"none"`, `"min_traffic"` or `"balance_subtopology"` |
//! | `rack_aware_traffic_cost` | integer | the strategy's | `0 ..= 2^32 − 1` |
//! | `rack_aware_non_overlap_cost` | integer | the strategy's | `0 ..= 2^32 − 1` |
//!
//! `[[events]]`: every event has `at` (duration, required, at most `duration`)
//! and `kind` (required); the other keys depend on the kind, and a key of
//! another kind is an unknown key:
//!
//! | kind | keys (default) | checks |
//! |---|---|---|
//! | `scale_out` | `count` (`1`) | at least 1 |
//! | `scale_in` | `count` (`1`) | at least 1, and fewer than the live clients at that time: the last live client never leaves |
//! | `crash` | `client` (required), `lose_state` (`false`) | a live client at that time |
//! | `restart` | `client` (required) | a crashed client at that time |
//! | `rolling_bounce` | `interval` (required), `downtime` (required) | `interval` at least 1 ms |
//! | `rack_outage` | `rack` (required), `lose_state` (`false`), `duration` (none: no restart) | `rack` listed in `cluster.racks` and held by a client created by then; `duration` at least 1 ms |
//! | `write_spike` | `subtopology` (required), `partition` (all), `write_rate` (required) | an existing stateful subtopology and partition; `write_rate` at least 0 |
//!
//! `[churn]` ([`ChurnSpec`]):
//!
//! | key | type | default | checks |
//! |---|---|---|---|
//! | `events_per_hour` | number | required | finite, greater than 0 |
//! | `kinds` | array of strings | all four | non-empty; `"crash"`, `"restart"`, `"scale_out"`, `"scale_in"`; no repeats |
//! | `from` | duration | `0` | before `until` |
//! | `until` | duration | `duration` | at most `duration` |
//! | `lose_state_probability` | number | `0.5` | between 0 and 1 |
//!
//! # Membership check
//!
//! The scripted events are replayed in time order against the clients'
//! membership, so that an event naming a client that is not there is an error
//! at that event. Clients `c0 … c{clients−1}` are live at time 0; `scale_out`
//! creates the next numbers (numbers are never reused); `scale_in` makes the
//! highest-numbered live clients leave (crashed clients stay crashed); `crash`
//! needs a live client, `restart` a crashed one (a client that left is gone
//! for good); `rack_outage` crashes the live clients of the rack and, with
//! `duration`, restarts those still crashed `duration` later. At equal times the
//! outage restarts (scheduled earlier) come first, then the scripted events in
//! file order. `rolling_bounce` changes no membership for this check: its
//! clients leave and come back with their state. Random churn is drawn while
//! simulating and is not checked here.

use toml::{Table, Value};

use super::duration::{format_duration, parse_duration, DurationError};
use super::{
    ChurnKind, ChurnSpec, ClusterSpec, Event, EventKind, Protocol, Scenario, SubtopologySpec,
};
use crate::assignor;
use crate::model::{
    key_path, one_line, AssignmentConfig, ClusterState, InputError, RackAwareStrategy,
    MAX_TAG_KEYS, MAX_TAG_KEY_LEN, MIN_PROBING_REBALANCE_INTERVAL_MS,
};

/// Default physics step (`step`).
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

type Read<T> = Result<T, InputError>;

const U32_MAX: u64 = u32::MAX as u64;

impl Scenario {
    /// Reads and checks a scenario; errors name the key (`events[2].client`).
    /// The keys, defaults and checks are listed in this module's documentation.
    pub fn from_toml(text: &str) -> Result<Scenario, InputError> {
        let doc: Table = toml::from_str(text).map_err(|e| syntax_error(text, &e))?;
        read_scenario(&doc)
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

fn syntax_error(text: &str, e: &toml::de::Error) -> InputError {
    let at = e
        .span()
        .map(|span| {
            let before = &text[..span.start.min(text.len())];
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
    let message = message.join(": ");
    InputError::new(
        "scenario",
        format!("is not valid TOML: {}{at}", one_line(&message)),
    )
}

// ---------------------------------------------------------------------------
// Values

/// A value as a message shows it: scalars as written (strings quoted and
/// escaped, so always one line), arrays and tables by kind.
fn shown(v: &Value) -> String {
    match v {
        Value::String(s) => format!("{s:?}"),
        Value::Integer(i) => i.to_string(),
        Value::Float(f) => format!("{f:?}"),
        Value::Boolean(b) => b.to_string(),
        Value::Datetime(d) => d.to_string(),
        Value::Array(_) => "an array".to_string(),
        Value::Table(_) => "a table".to_string(),
    }
}

fn fail<T>(path: &str, message: String) -> Read<T> {
    Err(InputError::new(path, message))
}

/// An integer in `min ..= max`.
fn integer(path: &str, v: &Value, min: u64, max: u64) -> Read<u64> {
    let Value::Integer(i) = v else {
        return fail(path, format!("must be an integer, got {}", shown(v)));
    };
    match u64::try_from(*i) {
        Err(_) if min == 0 => fail(path, format!("must not be negative, got {i}")),
        Ok(n) if n >= min && n <= max => Ok(n),
        Ok(n) if n > max => fail(path, format!("must be at most {max}, got {i}")),
        _ => fail(path, format!("must be at least {min}, got {i}")),
    }
}

fn count(path: &str, v: &Value) -> Read<u32> {
    integer(path, v, 1, U32_MAX).map(|n| n as u32)
}

/// A duration (module doc) of at least `min_ms`.
fn duration(path: &str, v: &Value, min_ms: u64) -> Read<u64> {
    let ms = match v {
        Value::Integer(i) => {
            u64::try_from(*i).or_else(|_| fail(path, format!("must not be negative, got {i}")))?
        }
        Value::String(s) => parse_duration(s).or_else(|e| fail(path, format!("{e}, got {s:?}")))?,
        other => {
            return fail(
                path,
                format!("{}, got {}", DurationError::Malformed, shown(other)),
            )
        }
    };
    if ms < min_ms {
        return fail(
            path,
            format!(
                "must be at least {:?}, got {}",
                format_duration(min_ms),
                shown(v)
            ),
        );
    }
    Ok(ms)
}

fn any_duration(path: &str, v: &Value) -> Read<u64> {
    duration(path, v, 0)
}

fn positive_duration(path: &str, v: &Value) -> Read<u64> {
    duration(path, v, 1)
}

fn string<'a>(path: &str, v: &'a Value) -> Read<&'a str> {
    match v {
        Value::String(s) => Ok(s),
        other => fail(path, format!("must be a string, got {}", shown(other))),
    }
}

fn boolean(path: &str, v: &Value) -> Read<bool> {
    match v {
        Value::Boolean(b) => Ok(*b),
        other => fail(path, format!("must be true or false, got {}", shown(other))),
    }
}

/// A finite number, integer or float.
fn number(path: &str, v: &Value) -> Read<f64> {
    match v {
        Value::Integer(i) => Ok(*i as f64),
        Value::Float(f) if f.is_finite() => Ok(*f),
        other => fail(
            path,
            format!("must be a finite number, got {}", shown(other)),
        ),
    }
}

fn table<'a>(path: &str, v: &'a Value) -> Read<&'a Table> {
    match v {
        Value::Table(t) => Ok(t),
        other => fail(path, format!("must be a table, got {}", shown(other))),
    }
}

fn array<'a>(path: &str, v: &'a Value) -> Read<&'a [Value]> {
    match v {
        Value::Array(items) => Ok(items),
        other => fail(path, format!("must be an array, got {}", shown(other))),
    }
}

/// An array of distinct non-empty strings.
fn names(path: &str, v: &Value) -> Read<Vec<String>> {
    let mut out: Vec<String> = Vec::new();
    for (i, item) in array(path, v)?.iter().enumerate() {
        let here = format!("{path}[{i}]");
        let s = string(&here, item)?;
        if s.is_empty() {
            return fail(&here, "must not be empty, got \"\"".to_string());
        }
        if out.iter().any(|o| o == s) {
            return fail(&here, format!("lists {s:?} twice"));
        }
        out.push(s.to_string());
    }
    Ok(out)
}

/// One of `choices`, by name.
fn choice<T: Copy>(path: &str, v: &Value, choices: &[(&str, T)]) -> Read<T> {
    let s = string(path, v)?;
    choices
        .iter()
        .find(|(name, _)| *name == s)
        .map(|&(_, value)| value)
        .ok_or_else(|| {
            let all: Vec<&str> = choices.iter().map(|(name, _)| *name).collect();
            InputError::new(
                path,
                format!("must be one of {}, got {s:?}", all.join(", ")),
            )
        })
}

// ---------------------------------------------------------------------------
// Tables

/// A table whose keys have been checked against the known ones.
struct Section<'a> {
    path: String,
    table: &'a Table,
}

impl<'a> Section<'a> {
    /// Opens `table` at `path`; a key outside `known` is an error at its path.
    fn open(path: String, table: &'a Table, known: &[&str], of_what: &str) -> Read<Self> {
        if let Some(key) = table.keys().find(|k| !known.contains(&k.as_str())) {
            return fail(
                &key_path(&path, key),
                format!(
                    "is an unknown key{of_what} (expected one of {})",
                    known.join(", ")
                ),
            );
        }
        Ok(Section { path, table })
    }

    fn at(&self, key: &str) -> String {
        key_path(&self.path, key)
    }

    fn opt<T>(&self, key: &str, read: impl FnOnce(&str, &'a Value) -> Read<T>) -> Read<Option<T>> {
        self.table
            .get(key)
            .map(|v| read(&self.at(key), v))
            .transpose()
    }

    fn req<T>(&self, key: &str, read: impl FnOnce(&str, &'a Value) -> Read<T>) -> Read<T> {
        match self.table.get(key) {
            Some(v) => read(&self.at(key), v),
            None => fail(&self.at(key), "is missing".to_string()),
        }
    }

    /// The raw value of `key`, for messages.
    fn raw(&self, key: &str) -> Option<&'a Value> {
        self.table.get(key)
    }
}

/// The elements of an array of tables at `path`.
fn tables<'a>(path: &str, v: &'a Value) -> Read<Vec<(String, &'a Table)>> {
    let Value::Array(items) = v else {
        return fail(
            path,
            format!("must be an array of tables ([[{path}]]), got {}", shown(v)),
        );
    };
    items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            let here = format!("{path}[{i}]");
            table(&here, item).map(|t| (here, t))
        })
        .collect()
}

// ---------------------------------------------------------------------------
// The scenario

const TOP_KEYS: &[&str] = &[
    "name",
    "description",
    "seed",
    "duration",
    "step",
    "sample_every",
    "strategies",
    "cluster",
    "subtopologies",
    "config",
    "events",
    "churn",
];

fn read_scenario(doc: &Table) -> Read<Scenario> {
    let top = Section::open(String::new(), doc, TOP_KEYS, "")?;
    let name = top.req("name", scenario_name)?;
    let description = top.opt("description", one_line_text)?.unwrap_or_default();
    let seed = top.req("seed", |p, v| integer(p, v, 0, u64::MAX))?;
    let duration_ms = top.req("duration", positive_duration)?;
    let step_ms = top
        .opt("step", positive_duration)?
        .unwrap_or(DEFAULT_STEP_MS);
    let sample_every_ms = top
        .opt("sample_every", positive_duration)?
        .unwrap_or(DEFAULT_SAMPLE_EVERY_MS);
    if sample_every_ms % step_ms != 0 {
        let got = top
            .raw("sample_every")
            .map(shown)
            .unwrap_or_else(|| format!("{:?} (the default)", format_duration(sample_every_ms)));
        return fail(
            "sample_every",
            format!(
                "must be a multiple of step {:?}, got {got}",
                format_duration(step_ms)
            ),
        );
    }
    let strategies = top.opt("strategies", strategy_names)?;
    let cluster = top.req("cluster", |p, v| read_cluster(p, table(p, v)?))?;
    let subtopologies = top.req("subtopologies", read_subtopologies)?;
    let config = match top.raw("config") {
        Some(v) => read_config(&top.at("config"), table(&top.at("config"), v)?)?,
        None => AssignmentConfig::default(),
    };
    let bounds = Bounds {
        duration_ms,
        cluster: &cluster,
        subtopologies: &subtopologies,
    };
    let events = match top.raw("events") {
        Some(v) => read_events(&bounds, tables("events", v)?)?,
        None => Vec::new(),
    };
    let churn = top.opt("churn", |p, v| read_churn(p, table(p, v)?, duration_ms))?;
    Ok(Scenario {
        name,
        description,
        seed,
        duration_ms,
        sample_every_ms,
        step_ms,
        strategies,
        cluster,
        subtopologies,
        config,
        events,
        churn,
    })
}

fn scenario_name(path: &str, v: &Value) -> Read<String> {
    let s = string(path, v)?;
    if s.is_empty() {
        return fail(path, "must not be empty, got \"\"".to_string());
    }
    if !s
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
    {
        return fail(
            path,
            format!("must have only letters, digits, '-', '_' and '.', got {s:?}"),
        );
    }
    Ok(s.to_string())
}

fn one_line_text(path: &str, v: &Value) -> Read<String> {
    let s = string(path, v)?;
    if s.chars().any(char::is_control) {
        return fail(path, format!("must be one line, got {s:?}"));
    }
    Ok(s.to_string())
}

fn strategy_names(path: &str, v: &Value) -> Read<Vec<String>> {
    let items = array(path, v)?;
    if items.is_empty() {
        return fail(
            path,
            "must name at least one strategy (leave it out to run all), got []".to_string(),
        );
    }
    let mut out: Vec<String> = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let here = format!("{path}[{i}]");
        let name = string(&here, item)?;
        if assignor::by_name(name).is_none() {
            return fail(
                &here,
                format!(
                    "must be one of {}, got {name:?}",
                    assignor::names().join(", ")
                ),
            );
        }
        if out.iter().any(|o| o == name) {
            return fail(&here, format!("lists {name:?} twice"));
        }
        out.push(name.to_string());
    }
    Ok(out)
}

const CLUSTER_KEYS: &[&str] = &[
    "clients",
    "threads",
    "racks",
    "restore_rate",
    "session_timeout",
    "rebalance_pause",
    "state_cleanup_delay",
    "protocol",
    "scale_down_timeout",
];

fn read_cluster(path: &str, t: &Table) -> Read<ClusterSpec> {
    let s = Section::open(path.to_string(), t, CLUSTER_KEYS, "")?;
    Ok(ClusterSpec {
        clients: s.req("clients", count)?,
        threads: s.opt("threads", count)?.unwrap_or(1),
        racks: s.opt("racks", names)?.unwrap_or_default(),
        restore_rate: s.req("restore_rate", |p, v| integer(p, v, 1, u64::MAX))?,
        session_timeout_ms: s
            .opt("session_timeout", any_duration)?
            .unwrap_or(DEFAULT_SESSION_TIMEOUT_MS),
        rebalance_pause_ms: s
            .opt("rebalance_pause", any_duration)?
            .unwrap_or(DEFAULT_REBALANCE_PAUSE_MS),
        state_cleanup_delay_ms: s
            .opt("state_cleanup_delay", any_duration)?
            .unwrap_or(DEFAULT_STATE_CLEANUP_DELAY_MS),
        protocol: s
            .opt("protocol", |p, v| {
                choice(
                    p,
                    v,
                    &[
                        ("cooperative", Protocol::Cooperative),
                        ("eager", Protocol::Eager),
                    ],
                )
            })?
            .unwrap_or(Protocol::Cooperative),
        scale_down_timeout_ms: s.opt("scale_down_timeout", any_duration)?,
    })
}

const SUBTOPOLOGY_KEYS: &[&str] = &["partitions", "stateful", "state_records", "write_rate"];

fn read_subtopologies(path: &str, v: &Value) -> Read<Vec<SubtopologySpec>> {
    let list = tables(path, v)?;
    if list.is_empty() {
        return fail(
            path,
            "must list at least one subtopology, got []".to_string(),
        );
    }
    list.into_iter()
        .map(|(here, t)| {
            let s = Section::open(here, t, SUBTOPOLOGY_KEYS, "")?;
            let partitions = s.req("partitions", count)?;
            let stateful = s.opt("stateful", boolean)?.unwrap_or(false);
            if !stateful {
                for key in ["state_records", "write_rate"] {
                    if let Some(v) = s.raw(key) {
                        return fail(
                            &s.at(key),
                            format!(
                                "applies to stateful subtopologies only (set stateful = true), got {}",
                                shown(v)
                            ),
                        );
                    }
                }
            }
            Ok(SubtopologySpec {
                partitions,
                stateful,
                state_records: s
                    .opt("state_records", |p, v| integer(p, v, 0, u64::MAX))?
                    .unwrap_or(0),
                write_rate: s
                    .opt("write_rate", |p, v| integer(p, v, 0, u64::MAX))?
                    .unwrap_or(0),
            })
        })
        .collect()
}

const CONFIG_KEYS: &[&str] = &[
    "num_standby_replicas",
    "acceptable_recovery_lag",
    "max_warmup_replicas",
    "probing_rebalance_interval",
    "rack_aware_assignment_tags",
    "rack_aware_strategy",
    "rack_aware_traffic_cost",
    "rack_aware_non_overlap_cost",
];

fn read_config(path: &str, t: &Table) -> Read<AssignmentConfig> {
    let s = Section::open(path.to_string(), t, CONFIG_KEYS, "")?;
    let d = AssignmentConfig::default();
    let cost = |p: &str, v: &Value| integer(p, v, 0, U32_MAX).map(|n| n as u32);
    let tags = s
        .opt("rack_aware_assignment_tags", names)?
        .unwrap_or_default();
    if tags.len() > MAX_TAG_KEYS {
        return fail(
            &s.at("rack_aware_assignment_tags"),
            format!(
                "must list at most {MAX_TAG_KEYS} tag keys, got {}",
                tags.len()
            ),
        );
    }
    if let Some((i, key)) = tags
        .iter()
        .enumerate()
        .find(|(_, k)| k.chars().count() > MAX_TAG_KEY_LEN)
    {
        return fail(
            &format!("{}[{i}]", s.at("rack_aware_assignment_tags")),
            format!("must have at most {MAX_TAG_KEY_LEN} characters, got {key:?}"),
        );
    }
    let config = AssignmentConfig {
        num_standby_replicas: s
            .opt("num_standby_replicas", |p, v| integer(p, v, 0, U32_MAX))?
            .map_or(d.num_standby_replicas, |n| n as u32),
        acceptable_recovery_lag: s
            .opt("acceptable_recovery_lag", |p, v| integer(p, v, 0, u64::MAX))?
            .unwrap_or(d.acceptable_recovery_lag),
        max_warmup_replicas: s
            .opt("max_warmup_replicas", count)?
            .unwrap_or(d.max_warmup_replicas),
        probing_rebalance_interval_ms: s
            .opt("probing_rebalance_interval", |p, v| {
                duration(p, v, MIN_PROBING_REBALANCE_INTERVAL_MS)
            })?
            .unwrap_or(d.probing_rebalance_interval_ms),
        rack_aware_assignment_tags: tags,
        rack_aware_strategy: s
            .opt("rack_aware_strategy", |p, v| {
                choice(
                    p,
                    v,
                    &[
                        ("none", RackAwareStrategy::None),
                        ("min_traffic", RackAwareStrategy::MinTraffic),
                        ("balance_subtopology", RackAwareStrategy::BalanceSubtopology),
                    ],
                )
            })?
            .unwrap_or(d.rack_aware_strategy),
        rack_aware_traffic_cost: s.opt("rack_aware_traffic_cost", cost)?,
        rack_aware_non_overlap_cost: s.opt("rack_aware_non_overlap_cost", cost)?,
    };
    // The model's own rules, so that every state the simulator builds from
    // this config is accepted (the checks above give the better messages).
    ClusterState::new(config.clone(), Vec::new(), Vec::new()).map_err(|e| {
        let path = if e.path == "config.probing_rebalance_interval_ms" {
            s.at("probing_rebalance_interval")
        } else {
            e.path
        };
        InputError::new(path, e.message)
    })?;
    Ok(config)
}

// ---------------------------------------------------------------------------
// Events

/// What events are checked against.
struct Bounds<'a> {
    duration_ms: u64,
    cluster: &'a ClusterSpec,
    subtopologies: &'a [SubtopologySpec],
}

const EVENT_KINDS: &[&str] = &[
    "scale_out",
    "scale_in",
    "crash",
    "restart",
    "rolling_bounce",
    "rack_outage",
    "write_spike",
];

/// The keys an event of `kind` may have besides `at` and `kind`.
fn event_keys(kind: &str) -> &'static [&'static str] {
    match kind {
        "scale_out" | "scale_in" => &["at", "kind", "count"],
        "crash" => &["at", "kind", "client", "lose_state"],
        "restart" => &["at", "kind", "client"],
        "rolling_bounce" => &["at", "kind", "interval", "downtime"],
        "rack_outage" => &["at", "kind", "rack", "lose_state", "duration"],
        "write_spike" => &["at", "kind", "subtopology", "partition", "write_rate"],
        _ => &["at", "kind"],
    }
}

fn read_events(bounds: &Bounds<'_>, list: Vec<(String, &Table)>) -> Read<Vec<Event>> {
    let mut events = Vec::with_capacity(list.len());
    for (here, t) in list {
        events.push(read_event(bounds, here, t)?);
    }
    // Stable: equal times keep file order.
    let mut order: Vec<usize> = (0..events.len()).collect();
    order.sort_by_key(|&i| events[i].at_ms);
    check_membership(bounds.cluster, &events, &order)?;
    Ok(order.into_iter().map(|i| events[i].clone()).collect())
}

fn read_event(bounds: &Bounds<'_>, here: String, t: &Table) -> Read<Event> {
    let kind_path = key_path(&here, "kind");
    let kind = match t.get("kind") {
        Some(v) => {
            let k = string(&kind_path, v)?;
            if !EVENT_KINDS.contains(&k) {
                return fail(
                    &kind_path,
                    format!("must be one of {}, got {k:?}", EVENT_KINDS.join(", ")),
                );
            }
            k
        }
        None => return fail(&kind_path, "is missing".to_string()),
    };
    let s = Section::open(here, t, event_keys(kind), &format!(" for kind {kind:?}"))?;
    let at_ms = s.req("at", any_duration)?;
    if at_ms > bounds.duration_ms {
        return fail(
            &s.at("at"),
            format!(
                "must be at most the scenario's duration {:?}, got {}",
                format_duration(bounds.duration_ms),
                shown(&t["at"])
            ),
        );
    }
    let client = |s: &Section<'_>| s.req("client", |p, v| string(p, v).map(str::to_string));
    let lose_state = |s: &Section<'_>| s.opt("lose_state", boolean).map(|b| b.unwrap_or(false));
    let kind = match kind {
        "scale_out" => EventKind::ScaleOut {
            count: s.opt("count", count)?.unwrap_or(1),
        },
        "scale_in" => EventKind::ScaleIn {
            count: s.opt("count", count)?.unwrap_or(1),
        },
        "crash" => EventKind::Crash {
            client: client(&s)?,
            lose_state: lose_state(&s)?,
        },
        "restart" => EventKind::Restart {
            client: client(&s)?,
        },
        "rolling_bounce" => EventKind::RollingBounce {
            interval_ms: s.req("interval", positive_duration)?,
            downtime_ms: s.req("downtime", any_duration)?,
        },
        "rack_outage" => {
            let rack = s.req("rack", string)?;
            if !bounds.cluster.racks.iter().any(|r| r == rack) {
                let known = if bounds.cluster.racks.is_empty() {
                    "cluster.racks is empty".to_string()
                } else {
                    format!("cluster.racks: {}", bounds.cluster.racks.join(", "))
                };
                return fail(
                    &s.at("rack"),
                    format!("must name a rack of cluster.racks, got {rack:?} ({known})"),
                );
            }
            EventKind::RackOutage {
                rack: rack.to_string(),
                lose_state: lose_state(&s)?,
                duration_ms: s.opt("duration", positive_duration)?,
            }
        }
        "write_spike" => {
            let subtopology = s.req("subtopology", |p, v| integer(p, v, 0, U32_MAX))?;
            let n = bounds.subtopologies.len();
            let Some(spec) = bounds.subtopologies.get(subtopology as usize) else {
                return fail(
                    &s.at("subtopology"),
                    format!(
                        "must name a subtopology 0..={}, got {subtopology}",
                        n.saturating_sub(1)
                    ),
                );
            };
            if !spec.stateful {
                return fail(
                    &s.at("subtopology"),
                    format!("must name a stateful subtopology, got {subtopology} (stateless)"),
                );
            }
            let partition = s.opt("partition", |p, v| integer(p, v, 0, U32_MAX))?;
            if let Some(p) = partition.filter(|&p| p >= u64::from(spec.partitions)) {
                return fail(
                    &s.at("partition"),
                    format!(
                        "must be below subtopologies[{subtopology}].partitions = {}, got {p}",
                        spec.partitions
                    ),
                );
            }
            EventKind::WriteSpike {
                subtopology: subtopology as u32,
                partition: partition.map(|p| p as u32),
                write_rate: s.req("write_rate", |p, v| integer(p, v, 0, u64::MAX))?,
            }
        }
        _ => unreachable!("kinds are checked above"),
    };
    Ok(Event { at_ms, kind })
}

/// Where a client is in the membership replay.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Member {
    Live,
    Crashed,
    Left,
}

/// `"c12"` → 12; `None` for anything that is not a client name (`"c012"`, `"x"`).
fn client_number(name: &str) -> Option<usize> {
    let digits = name.strip_prefix('c')?;
    let plain = !digits.is_empty()
        && digits.bytes().all(|b| b.is_ascii_digit())
        && (digits == "0" || !digits.starts_with('0'));
    plain.then(|| digits.parse().ok()).flatten()
}

/// Replays the scripted events' membership in time order (module doc).
/// `order` lists the events' indices (file order) sorted by time.
fn check_membership(cluster: &ClusterSpec, events: &[Event], order: &[usize]) -> Read<()> {
    let mut members = vec![Member::Live; cluster.clients as usize];
    // Outage restarts not yet applied: (time, clients), in order of scheduling.
    let mut restarts: Vec<(u64, Vec<usize>)> = Vec::new();
    let rack_of = |k: usize| -> Option<&str> {
        (!cluster.racks.is_empty()).then(|| cluster.racks[k % cluster.racks.len()].as_str())
    };
    for &i in order {
        let event = &events[i];
        let at = |key: &str| format!("events[{i}].{key}");
        let when = format_duration(event.at_ms);
        // Outage restarts due by now, earliest first (ties: scheduling order).
        restarts.sort_by_key(|(t, _)| *t);
        let due = restarts.partition_point(|(t, _)| *t <= event.at_ms);
        for (_, clients) in restarts.drain(..due) {
            for k in clients {
                if members[k] == Member::Crashed {
                    members[k] = Member::Live;
                }
            }
        }
        let live = members.iter().filter(|m| **m == Member::Live).count();
        match &event.kind {
            EventKind::ScaleOut { count } => {
                members.resize(members.len() + *count as usize, Member::Live);
            }
            EventKind::ScaleIn { count } => {
                if *count as usize >= live {
                    return fail(
                        &at("count"),
                        format!(
                            "must leave at least one live client, got {count} with {live} live at {when}"
                        ),
                    );
                }
                let mut left = 0;
                for m in members.iter_mut().rev() {
                    if left == *count {
                        break;
                    }
                    if *m == Member::Live {
                        *m = Member::Left;
                        left += 1;
                    }
                }
            }
            EventKind::Crash { client, .. } => {
                let k = expect(&members, client, Member::Live, &at("client"), &when)?;
                members[k] = Member::Crashed;
            }
            EventKind::Restart { client } => {
                let k = expect(&members, client, Member::Crashed, &at("client"), &when)?;
                members[k] = Member::Live;
            }
            EventKind::RollingBounce { .. } | EventKind::WriteSpike { .. } => {}
            EventKind::RackOutage {
                rack, duration_ms, ..
            } => {
                let in_rack: Vec<usize> = (0..members.len())
                    .filter(|&k| rack_of(k) == Some(rack.as_str()))
                    .collect();
                if in_rack.is_empty() {
                    return fail(
                        &at("rack"),
                        format!(
                            "must name a rack some client has, got {rack:?} (only c0..c{} exist at {when})",
                            members.len() - 1
                        ),
                    );
                }
                let crashed: Vec<usize> = in_rack
                    .into_iter()
                    .filter(|&k| members[k] == Member::Live)
                    .collect();
                for &k in &crashed {
                    members[k] = Member::Crashed;
                }
                if let Some(d) = duration_ms {
                    restarts.push((event.at_ms.saturating_add(*d), crashed));
                }
            }
        }
    }
    Ok(())
}

/// The number of the client `name`, which must be in state `want`.
fn expect(members: &[Member], name: &str, want: Member, path: &str, when: &str) -> Read<usize> {
    let wanted = match want {
        Member::Live => "a live client",
        Member::Crashed => "a crashed client",
        Member::Left => "a client that left",
    };
    let Some(k) = client_number(name) else {
        return fail(
            path,
            format!("must name {wanted} (c0, c1, …), got {name:?}"),
        );
    };
    let why = match members.get(k) {
        None => format!("no such client at {when}: c0..c{} exist", members.len() - 1),
        Some(m) if *m == want => return Ok(k),
        Some(Member::Live) => format!("it is live at {when}"),
        Some(Member::Crashed) => format!("it has crashed by {when}"),
        Some(Member::Left) => format!("it has left by {when}"),
    };
    fail(path, format!("must name {wanted}, got {name:?} ({why})"))
}

// ---------------------------------------------------------------------------
// Churn

const CHURN_KEYS: &[&str] = &[
    "events_per_hour",
    "kinds",
    "from",
    "until",
    "lose_state_probability",
];

const CHURN_KINDS: &[(&str, ChurnKind)] = &[
    ("crash", ChurnKind::Crash),
    ("restart", ChurnKind::Restart),
    ("scale_out", ChurnKind::ScaleOut),
    ("scale_in", ChurnKind::ScaleIn),
];

fn read_churn(path: &str, t: &Table, duration_ms: u64) -> Read<ChurnSpec> {
    let s = Section::open(path.to_string(), t, CHURN_KEYS, "")?;
    let events_per_hour = s.req("events_per_hour", |p, v| {
        let x = number(p, v)?;
        if x > 0.0 {
            Ok(x)
        } else {
            fail(p, format!("must be greater than 0, got {}", shown(v)))
        }
    })?;
    let kinds = match s.raw("kinds") {
        None => CHURN_KINDS.iter().map(|&(_, k)| k).collect(),
        Some(v) => {
            let p = s.at("kinds");
            let items = array(&p, v)?;
            if items.is_empty() {
                return fail(&p, "must list at least one kind, got []".to_string());
            }
            let mut kinds = Vec::new();
            for (i, item) in items.iter().enumerate() {
                let here = format!("{p}[{i}]");
                let kind = choice(&here, item, CHURN_KINDS)?;
                if kinds.contains(&kind) {
                    return fail(&here, format!("lists {} twice", shown(item)));
                }
                kinds.push(kind);
            }
            kinds
        }
    };
    let until_ms = s.opt("until", any_duration)?.unwrap_or(duration_ms);
    if until_ms > duration_ms {
        return fail(
            &s.at("until"),
            format!(
                "must be at most the scenario's duration {:?}, got {}",
                format_duration(duration_ms),
                shown(&t["until"])
            ),
        );
    }
    let from_ms = s.opt("from", any_duration)?.unwrap_or(0);
    if from_ms >= until_ms {
        let (key, message) = match s.raw("from") {
            Some(v) => (
                "from",
                format!(
                    "must be before churn.until {:?}, got {}",
                    format_duration(until_ms),
                    shown(v)
                ),
            ),
            None => (
                "until",
                format!(
                    "must be after churn.from \"0ms\", got {}",
                    s.raw("until").map_or_else(|| "0".to_string(), shown)
                ),
            ),
        };
        return fail(&s.at(key), message);
    }
    let lose_state_probability = s
        .opt("lose_state_probability", |p, v| {
            let x = number(p, v)?;
            if (0.0..=1.0).contains(&x) {
                Ok(x)
            } else {
                fail(p, format!("must be between 0 and 1, got {}", shown(v)))
            }
        })?
        .unwrap_or(DEFAULT_LOSE_STATE_PROBABILITY);
    Ok(ChurnSpec {
        events_per_hour,
        kinds,
        from_ms,
        until_ms,
        lose_state_probability,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn client_names() {
        assert_eq!(client_number("c0"), Some(0));
        assert_eq!(client_number("c12"), Some(12));
        for bad in [
            "",
            "c",
            "c01",
            "C1",
            "c-1",
            "c1x",
            "x1",
            "c99999999999999999999999",
        ] {
            assert_eq!(client_number(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn syntax_errors_are_one_line_with_a_position() {
        let e = Scenario::from_toml("name = \"x\"\nseed = \n").unwrap_err();
        assert_eq!(e.path, "scenario");
        assert!(e.message.contains("line 2 column 8"), "{e}");
        assert!(!e.to_string().contains('\n'), "{e}");
    }

    #[test]
    fn hash_ignores_only_crlf() {
        assert_eq!(scenario_hash("a\r\nb"), scenario_hash("a\nb"));
        assert_ne!(scenario_hash("a\rb"), scenario_hash("ab"));
        assert_ne!(scenario_hash("a\rb"), scenario_hash("a\nb"));
    }
}
