//! Reading scenarios from TOML (the format is described in
//! `docs/simulator.md`), strictly: every key is known, every value has its
//! type and range, and the first problem found is reported as one line naming
//! the key, `events[2].client must name a live client, got "c9" …`.
//!
//! The reader is declarative: the file is deserialised (serde, unknown keys
//! denied) into documents that mirror it, whose leaf types check their own
//! values ([`Duration`], `Int`, `Choice`, …) and whose paths come from
//! `serde_path_to_error`; the few rules about one table that serde cannot say
//! (keys of another event kind, repeated names) are checked while the
//! documents become a [`Scenario`]; every rule between values, the membership
//! the events imply and the limits on sizes and work are checked once, by
//! [`Scenario::check`].
//!
//! Paths are written as in the JSON reader: `cluster.restore_rate`,
//! `subtopologies[1].partitions`, `events[0].at`, `churn.kinds[2]` (indices
//! count from 0 in file order). A file that is not TOML at all is reported at
//! the path `scenario`, with the parser's reason, line and column.
//!
//! # Durations
//!
//! An integer of milliseconds (`45000`) or a string of digits and a unit
//! `ms`, `s`, `m`, `h` or `d` (`"45s"`, `"10m"`, `"8h"`), or several such
//! parts from the largest unit to the smallest (`"1h30m"`); see
//! [`parse_duration`](super::parse_duration). Negative numbers, floats,
//! `""`, `"10"`, `"10x"`, `"30m1h"` and values past `u64::MAX` ms are errors,
//! and no duration may exceed 3650 days (the limits below).
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
//! | `step` | duration | `"1s"` | at least 1 ms: the longest stretch the simulator advances at once (the physics is exact whatever it is) |
//! | `sample_every` | duration | `"1m"` | at least 1 ms and a multiple of `step` |
//! | `strategies` | array of strings | every registered strategy | non-empty, registered names, no repeats |
//! | `[cluster]` | table | required | below |
//! | `[[subtopologies]]` | array of tables | required | at least one; below |
//! | `[config]` | table | Kafka's defaults | below |
//! | `[[events]]` | array of tables | none | below; sorted by `at` when read, equal times keep file order |
//! | `[churn]` | table | no churn | below |
//! | `[perturb]` | table | no perturbation | below |
//!
//! `[cluster]`:
//!
//! | key | type | default | checks |
//! |---|---|---|---|
//! | `clients` | integer | required | at least 1: clients `c0 … c{n−1}` at time 0 |
//! | `threads` | integer | `1` | at least 1, per client |
//! | `racks` | array of strings | `[]` | non-empty names, no repeats; dealt round-robin to clients in order of creation (client `cK` gets `racks[K % len]`) |
//! | `restore_rate` | integer | required | at least 1 record/s per client |
//! | `restore_bandwidth` | integer | none: no cluster-wide limit | at least 1 record/s: what the whole cluster can restore at once (the brokers' limit), shared max-min fairly among restoring clients |
//! | `process_rate` | integer | none: no limit | at least 1 record/s: what one thread processes of its running actives' input (the processing model) |
//! | `session_timeout` | duration | `"45s"` (Kafka's `session.timeout.ms`) | |
//! | `rebalance_pause` | duration | `"5s"` | |
//! | `state_cleanup_delay` | duration | `"10m"` (Kafka's `state.cleanup.delay.ms`) | |
//! | `protocol` | string | `"cooperative"` | `"cooperative"` or `"eager"` |
//! | `scale_down_timeout` | duration | none: wait as long as it takes | how long a leaving client waits for learners to take its tasks over (`kip441-learner` only; other strategies leave at once) |
//! | `tags` | table of arrays of strings | `{}` | at most 5 keys of 1 to 20 characters, each a non-empty array of values of 1 to 30 characters (repeats allowed), dealt round-robin like `racks` |
//! | `replication_factor` | integer | `1` | at least 1, at most the number of `racks` when above 1: replicas of each task's partitions on consecutive racks |
//! | `cpu` | number | not stated | greater than 0, at most 10⁶: cores per client (heron strategies) |
//! | `ram_mb` | integer | not stated | 1 to 2³⁰: MiB per client (heron strategies) |
//! | `disk_mb` | integer | not stated | 1 to 2³⁰: MiB of disk per client (heron strategies) |
//!
//! `[[subtopologies]]` (subtopology `i` is the `i`-th entry):
//!
//! | key | type | default | checks |
//! |---|---|---|---|
//! | `partitions` | integer | required | at least 1 |
//! | `stateful` | boolean | `false` | |
//! | `state_records` | integer | `0` | at least 0; stateful subtopologies only |
//! | `write_rate` | integer | `0` | at least 0 records/s per task; stateful subtopologies only |
//! | `input_rate` | integer | `0` | records/s arriving at each task's input, running or not (the processing model) |
//! | `cpu` | number | not stated | greater than 0, at most 10⁶: cores per task (heron strategies) |
//! | `ram_mb` | integer | not stated | 1 to 2³⁰: MiB per task (heron strategies) |
//! | `disk_mb` | integer | not stated | 1 to 2³⁰: MiB of disk per task (heron strategies) |
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
//! | `samza_fault_domain_aware_standby` | boolean | `false` | |
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
//! `[perturb]` ([`PerturbSpec`], drawn by [`Scenario::perturbed`]):
//!
//! | key | type | default | checks |
//! |---|---|---|---|
//! | `state_records` | number | `0` | between 0 and 1: each task's initial changelog within ± this fraction |
//! | `write_rate` | number | `0` | between 0 and 1: each task's write rates within ± this fraction |
//! | `event_time` | duration | `0` | each scripted event within ± this, inside the run, in scripted order |
//!
//! # Membership check
//!
//! The scripted events are replayed in time order against the clients'
//! membership by [`Scenario::check`], so that an event naming a client that
//! is not there is an error at that event. Clients `c0 … c{clients−1}` are
//! live at time 0; `scale_out` creates the next numbers (numbers are never
//! reused); `scale_in` makes the highest-numbered live clients leave (crashed
//! clients stay crashed); `crash` needs a live client, `restart` a crashed one
//! (a client that left is gone for good); `rack_outage` crashes the live
//! clients of the rack and, with `duration`, restarts those still crashed
//! `duration` later. At equal times the outage restarts (scheduled earlier)
//! come first, then the scripted events in file order. `rolling_bounce`
//! changes no membership for this check: its clients leave and come back with
//! their state. Random churn is drawn while simulating and is not checked
//! here.
//!
//! # Limits
//!
//! Sizes and simulated work are bounded before anything is allocated (exit 2
//! past a limit, naming the key, its value and the limit); the reasons are in
//! the documentation of [`Scenario`]'s module and in `docs/limits.md`:
//!
//! | what | limit |
//! |---|---|
//! | any duration | 3650 days |
//! | physics steps, `duration / step` | 10,000,000 |
//! | samples, `duration / sample_every + 1` | 100,000 |
//! | clients that can ever exist (`cluster.clients`, every `scale_out`, churn draws when `scale_out` is a churn kind) | 10,000 |
//! | tasks (the sum of `partitions`) | 100,000 |
//! | tasks × clients that can ever exist | 100,000,000 |
//! | simulated work, steps × (tasks + clients that can ever exist) | 10¹⁰ |
//! | scripted events | 10,000 |
//! | churn draws, `events_per_hour × (until − from)` | 100,000 |
//! | `state_records` per task | 10¹² |
//! | `write_rate`, `input_rate` per task | 10⁶ records/s |
//! | `cluster.restore_rate`, `cluster.restore_bandwidth`, `cluster.process_rate` | 10⁹ records/s |
//! | `cpu` of a task or a client | 10⁶ cores |
//! | `ram_mb` or `disk_mb` of a task or a client | 2³⁰ MiB |
//! | `state_records` and write rates × (1 + the `[perturb]` fraction) | the limits above |

use std::collections::BTreeMap;
use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, Deserializer, Visitor};
use serde::Deserialize;
use serde_path_to_error::Segment;

use super::duration::Duration;
use super::{MAX_CPU, MAX_RAM_MB};
use super::{
    ChurnKind, ChurnSpec, ClusterSpec, Event, EventKind, PerturbSpec, Protocol, Scenario,
    SubtopologySpec,
};
use crate::assignor;
use crate::model::{
    key_path, one_line, one_of, quote, AssignmentConfig, InputError, RackAwareStrategy,
    MIN_PROBING_REBALANCE_INTERVAL_MS,
};

/// Default longest stretch (`step`).
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

impl Scenario {
    /// Reads and checks a scenario; errors name the key (`events[2].client`).
    /// The keys, defaults and checks are listed in this module's documentation.
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

// ---------------------------------------------------------------------------
// Errors

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

fn fail<T>(path: impl Into<String>, message: String) -> Read<T> {
    Err(InputError::new(path, message))
}

// ---------------------------------------------------------------------------
// Leaf types: each checks its value and says what is wrong with it.

/// An integer in `MIN ..= MAX` (TOML integers are signed 64-bit).
#[derive(Debug, Clone, Copy)]
struct Int<const MIN: u64, const MAX: u64>(u64);

/// At least 1 and at most `u32::MAX`: a count of clients, threads, partitions.
type Count = Int<1, { u32::MAX as u64 }>;
/// Any `u32`.
type U32 = Int<0, { u32::MAX as u64 }>;
/// Any non-negative integer.
type U64 = Int<0, { u64::MAX }>;
/// MiB of RAM: at least 1, at most [`MAX_RAM_MB`].
type RamMb = Int<1, MAX_RAM_MB>;

impl<const MIN: u64, const MAX: u64> Int<MIN, MAX> {
    /// The value as `u32`; only for types whose `MAX` fits (`Count`, `U32`).
    fn small(self) -> u32 {
        u32::try_from(self.0).expect("MAX fits in u32")
    }
}

struct IntVisitor<const MIN: u64, const MAX: u64>;

impl<const MIN: u64, const MAX: u64> Visitor<'_> for IntVisitor<MIN, MAX> {
    type Value = Int<MIN, MAX>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an integer")
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
        match u64::try_from(v) {
            Ok(n) => self.visit_u64(n),
            Err(_) if MIN == 0 => Err(E::custom(format_args!("must not be negative, got {v}"))),
            Err(_) => Err(E::custom(format_args!("must be at least {MIN}, got {v}"))),
        }
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
        if v < MIN {
            Err(E::custom(format_args!("must be at least {MIN}, got {v}")))
        } else if v > MAX {
            Err(E::custom(format_args!("must be at most {MAX}, got {v}")))
        } else {
            Ok(Int(v))
        }
    }
}

impl<'de, const MIN: u64, const MAX: u64> Deserialize<'de> for Int<MIN, MAX> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(IntVisitor)
    }
}

/// A finite number, integer or float, with the value as written for messages.
#[derive(Debug, Clone)]
struct Number {
    value: f64,
    shown: String,
}

struct NumberVisitor;

impl Visitor<'_> for NumberVisitor {
    type Value = Number;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a finite number")
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Number, E> {
        Ok(Number {
            value: v as f64,
            shown: v.to_string(),
        })
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Number, E> {
        Ok(Number {
            value: v as f64,
            shown: v.to_string(),
        })
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Number, E> {
        if !v.is_finite() {
            return Err(E::custom(format_args!(
                "must be a finite number, got {v:?}"
            )));
        }
        Ok(Number {
            value: v,
            shown: format!("{v:?}"),
        })
    }
}

impl<'de> Deserialize<'de> for Number {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(NumberVisitor)
    }
}

/// A value chosen by name from a fixed list.
trait Named: Copy + 'static {
    /// The names and their values, in the order messages list them.
    const CHOICES: &'static [(&'static str, Self)];
}

/// One of `T::CHOICES`, by name.
#[derive(Debug, Clone, Copy)]
struct Choice<T>(T);

struct ChoiceVisitor<T>(PhantomData<T>);

impl<T: Named> ChoiceVisitor<T> {
    fn names() -> Vec<&'static str> {
        T::CHOICES.iter().map(|(name, _)| *name).collect()
    }
}

impl<T: Named> Visitor<'_> for ChoiceVisitor<T> {
    type Value = Choice<T>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "one of {}", Self::names().join(", "))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Choice<T>, E> {
        T::CHOICES
            .iter()
            .find(|(name, _)| *name == v)
            .map(|&(_, value)| Choice(value))
            .ok_or_else(|| E::custom(one_of(&Self::names(), v)))
    }
}

impl<'de, T: Named> Deserialize<'de> for Choice<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(ChoiceVisitor(PhantomData))
    }
}

impl Named for Protocol {
    const CHOICES: &'static [(&'static str, Self)] = &[
        ("cooperative", Protocol::Cooperative),
        ("eager", Protocol::Eager),
    ];
}

impl Named for RackAwareStrategy {
    const CHOICES: &'static [(&'static str, Self)] = &[
        ("none", RackAwareStrategy::None),
        ("min_traffic", RackAwareStrategy::MinTraffic),
        ("balance_subtopology", RackAwareStrategy::BalanceSubtopology),
    ];
}

impl Named for ChurnKind {
    const CHOICES: &'static [(&'static str, Self)] = &[
        ("crash", ChurnKind::Crash),
        ("restart", ChurnKind::Restart),
        ("scale_out", ChurnKind::ScaleOut),
        ("scale_in", ChurnKind::ScaleIn),
    ];
}

/// An array of distinct non-empty strings (`cluster.racks`, tag keys).
fn names(path: &str, items: Vec<String>) -> Read<Vec<String>> {
    for (i, s) in items.iter().enumerate() {
        if s.is_empty() {
            return fail(
                format!("{path}[{i}]"),
                "must not be empty, got \"\"".to_string(),
            );
        }
        if items[..i].contains(s) {
            return fail(format!("{path}[{i}]"), format!("lists {} twice", quote(s)));
        }
    }
    Ok(items)
}

// ---------------------------------------------------------------------------
// The documents: the file's shape, key for key.

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ScenarioDoc {
    name: String,
    description: Option<String>,
    seed: U64,
    duration: Duration<1>,
    step: Option<Duration<1>>,
    sample_every: Option<Duration<1>>,
    strategies: Option<Vec<String>>,
    cluster: ClusterDoc,
    subtopologies: Vec<SubtopologyDoc>,
    config: Option<ConfigDoc>,
    events: Option<Vec<EventDoc>>,
    churn: Option<ChurnDoc>,
    perturb: Option<PerturbDoc>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ClusterDoc {
    clients: Count,
    threads: Option<Count>,
    racks: Option<Vec<String>>,
    restore_rate: Int<1, { u64::MAX }>,
    session_timeout: Option<Duration>,
    rebalance_pause: Option<Duration>,
    state_cleanup_delay: Option<Duration>,
    protocol: Option<Choice<Protocol>>,
    scale_down_timeout: Option<Duration>,
    restore_bandwidth: Option<Int<1, { u64::MAX }>>,
    process_rate: Option<Int<1, { u64::MAX }>>,
    tags: Option<BTreeMap<String, Vec<String>>>,
    replication_factor: Option<Count>,
    cpu: Option<Number>,
    ram_mb: Option<RamMb>,
    disk_mb: Option<RamMb>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SubtopologyDoc {
    partitions: Count,
    stateful: Option<bool>,
    state_records: Option<U64>,
    write_rate: Option<U64>,
    input_rate: Option<U64>,
    cpu: Option<Number>,
    ram_mb: Option<RamMb>,
    disk_mb: Option<RamMb>,
}

/// `[perturb]`: fractions and a duration.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PerturbDoc {
    state_records: Option<Number>,
    write_rate: Option<Number>,
    event_time: Option<Duration>,
}

/// `[config]`, Kafka's names, durations in the scenario's form.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ConfigDoc {
    num_standby_replicas: Option<U32>,
    acceptable_recovery_lag: Option<U64>,
    max_warmup_replicas: Option<Count>,
    probing_rebalance_interval: Option<Duration<{ MIN_PROBING_REBALANCE_INTERVAL_MS }>>,
    rack_aware_assignment_tags: Option<Vec<String>>,
    rack_aware_strategy: Option<Choice<RackAwareStrategy>>,
    rack_aware_traffic_cost: Option<U32>,
    rack_aware_non_overlap_cost: Option<U32>,
    samza_fault_domain_aware_standby: Option<bool>,
}

/// The kinds of scripted events.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    ScaleOut,
    ScaleIn,
    Crash,
    Restart,
    RollingBounce,
    RackOutage,
    WriteSpike,
}

impl Named for Kind {
    const CHOICES: &'static [(&'static str, Self)] = &[
        ("scale_out", Kind::ScaleOut),
        ("scale_in", Kind::ScaleIn),
        ("crash", Kind::Crash),
        ("restart", Kind::Restart),
        ("rolling_bounce", Kind::RollingBounce),
        ("rack_outage", Kind::RackOutage),
        ("write_spike", Kind::WriteSpike),
    ];
}

impl Kind {
    fn name(self) -> &'static str {
        Kind::CHOICES
            .iter()
            .find(|(_, k)| *k == self)
            .map_or("", |(name, _)| name)
    }

    /// The keys an event of this kind may have.
    fn keys(self) -> &'static [&'static str] {
        match self {
            Kind::ScaleOut | Kind::ScaleIn => &["at", "kind", "count"],
            Kind::Crash => &["at", "kind", "client", "lose_state"],
            Kind::Restart => &["at", "kind", "client"],
            Kind::RollingBounce => &["at", "kind", "interval", "downtime"],
            Kind::RackOutage => &["at", "kind", "rack", "lose_state", "duration"],
            Kind::WriteSpike => &["at", "kind", "subtopology", "partition", "write_rate"],
        }
    }
}

/// One `[[events]]` table: the keys of every kind; those of another kind
/// than `kind` are refused when it becomes an [`Event`].
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EventDoc {
    at: Duration,
    kind: Choice<Kind>,
    count: Option<Count>,
    client: Option<String>,
    lose_state: Option<bool>,
    interval: Option<Duration<1>>,
    downtime: Option<Duration>,
    rack: Option<String>,
    duration: Option<Duration<1>>,
    subtopology: Option<U32>,
    partition: Option<U32>,
    write_rate: Option<U64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ChurnDoc {
    events_per_hour: Number,
    kinds: Option<Vec<Choice<ChurnKind>>>,
    from: Option<Duration>,
    until: Option<Duration>,
    lose_state_probability: Option<Number>,
}

// ---------------------------------------------------------------------------
// Documents into a scenario (events in file order; `check` does the rest).

impl ScenarioDoc {
    fn into_scenario(self) -> Read<Scenario> {
        let events = match self.events {
            Some(list) => list
                .into_iter()
                .enumerate()
                .map(|(i, e)| e.into_event(&format!("events[{i}]")))
                .collect::<Read<Vec<Event>>>()?,
            None => Vec::new(),
        };
        Ok(Scenario {
            name: scenario_name(self.name)?,
            description: one_line_text("description", self.description.unwrap_or_default())?,
            seed: self.seed.0,
            duration_ms: self.duration.ms(),
            sample_every_ms: self
                .sample_every
                .map_or(DEFAULT_SAMPLE_EVERY_MS, Duration::ms),
            step_ms: self.step.map_or(DEFAULT_STEP_MS, Duration::ms),
            strategies: self.strategies.map(strategy_names).transpose()?,
            cluster: self.cluster.into_cluster()?,
            subtopologies: subtopologies(self.subtopologies)?,
            config: read_config(self.config)?,
            events,
            churn: self
                .churn
                .map(|c| c.into_churn(self.duration.ms()))
                .transpose()?,
            perturb: self.perturb.map(PerturbDoc::into_perturb).transpose()?,
        })
    }
}

fn scenario_name(s: String) -> Read<String> {
    if s.is_empty() {
        return fail("name", "must not be empty, got \"\"".to_string());
    }
    if !s
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
    {
        return fail(
            "name",
            format!(
                "must have only letters, digits, '-', '_' and '.', got {}",
                quote(&s)
            ),
        );
    }
    Ok(s)
}

fn one_line_text(path: &str, s: String) -> Read<String> {
    if s.chars().any(char::is_control) {
        return fail(path, format!("must be one line, got {}", quote(&s)));
    }
    Ok(s)
}

fn strategy_names(names: Vec<String>) -> Read<Vec<String>> {
    if names.is_empty() {
        return fail(
            "strategies",
            "must name at least one strategy (leave it out to run all), got []".to_string(),
        );
    }
    for (i, name) in names.iter().enumerate() {
        let here = format!("strategies[{i}]");
        if assignor::by_name(name).is_none() {
            return Err(InputError::one_of(here, &assignor::names(), name));
        }
        if names[..i].contains(name) {
            return fail(here, format!("lists {} twice", quote(name)));
        }
    }
    Ok(names)
}

impl ClusterDoc {
    fn into_cluster(self) -> Read<ClusterSpec> {
        Ok(ClusterSpec {
            clients: self.clients.small(),
            threads: self.threads.map_or(1, Int::small),
            racks: names("cluster.racks", self.racks.unwrap_or_default())?,
            restore_rate: self.restore_rate.0,
            session_timeout_ms: self
                .session_timeout
                .map_or(DEFAULT_SESSION_TIMEOUT_MS, Duration::ms),
            rebalance_pause_ms: self
                .rebalance_pause
                .map_or(DEFAULT_REBALANCE_PAUSE_MS, Duration::ms),
            state_cleanup_delay_ms: self
                .state_cleanup_delay
                .map_or(DEFAULT_STATE_CLEANUP_DELAY_MS, Duration::ms),
            protocol: self.protocol.map_or(Protocol::Cooperative, |c| c.0),
            scale_down_timeout_ms: self.scale_down_timeout.map(Duration::ms),
            restore_bandwidth: self.restore_bandwidth.map(|b| b.0),
            process_rate: self.process_rate.map(|r| r.0),
            tags: self.tags.unwrap_or_default(),
            replication_factor: self.replication_factor.map_or(1, Int::small),
            cpu: self.cpu.map(|n| positive("cluster.cpu", &n)).transpose()?,
            ram_mb: self.ram_mb.map(|n| n.0),
            disk_mb: self.disk_mb.map(|n| n.0),
        })
    }
}

fn subtopologies(docs: Vec<SubtopologyDoc>) -> Read<Vec<SubtopologySpec>> {
    if docs.is_empty() {
        return fail(
            "subtopologies",
            "must list at least one subtopology, got []".to_string(),
        );
    }
    docs.into_iter()
        .enumerate()
        .map(|(i, s)| {
            let stateful = s.stateful.unwrap_or(false);
            if !stateful {
                for (key, value) in [("state_records", s.state_records), ("write_rate", s.write_rate)] {
                    if let Some(v) = value {
                        return fail(
                            format!("subtopologies[{i}].{key}"),
                            format!(
                                "applies to stateful subtopologies only (set stateful = true), got {}",
                                v.0
                            ),
                        );
                    }
                }
            }
            Ok(SubtopologySpec {
                partitions: s.partitions.small(),
                stateful,
                state_records: s.state_records.map_or(0, |n| n.0),
                write_rate: s.write_rate.map_or(0, |n| n.0),
                input_rate: s.input_rate.map_or(0, |n| n.0),
                cpu: s
                    .cpu
                    .map(|n| positive(&format!("subtopologies[{i}].cpu"), &n))
                    .transpose()?,
                ram_mb: s.ram_mb.map(|n| n.0),
                disk_mb: s.disk_mb.map(|n| n.0),
            })
        })
        .collect()
}

/// `[config]` into the model's settings, checked by the model's one
/// validator ([`AssignmentConfig::check`]). Kept apart so that it can read
/// the shared wire document instead.
fn read_config(doc: Option<ConfigDoc>) -> Read<AssignmentConfig> {
    let Some(doc) = doc else {
        return Ok(AssignmentConfig::default());
    };
    let d = AssignmentConfig::default();
    let config = AssignmentConfig {
        num_standby_replicas: doc
            .num_standby_replicas
            .map_or(d.num_standby_replicas, Int::small),
        acceptable_recovery_lag: doc
            .acceptable_recovery_lag
            .map_or(d.acceptable_recovery_lag, |n| n.0),
        max_warmup_replicas: doc
            .max_warmup_replicas
            .map_or(d.max_warmup_replicas, Int::small),
        probing_rebalance_interval_ms: doc
            .probing_rebalance_interval
            .map_or(d.probing_rebalance_interval_ms, Duration::ms),
        rack_aware_assignment_tags: doc.rack_aware_assignment_tags.unwrap_or_default(),
        rack_aware_strategy: doc
            .rack_aware_strategy
            .map_or(d.rack_aware_strategy, |c| c.0),
        rack_aware_traffic_cost: doc.rack_aware_traffic_cost.map(Int::small),
        rack_aware_non_overlap_cost: doc.rack_aware_non_overlap_cost.map(Int::small),
        samza_fault_domain_aware_standby: doc.samza_fault_domain_aware_standby.unwrap_or(false),
    };
    // The interval's lower bound is already its type's
    // (`Duration<MIN_PROBING_REBALANCE_INTERVAL_MS>`, a message with the
    // duration as written), so the rules left to the model's check name keys
    // this file shares with the JSON format.
    config.check()?;
    Ok(config)
}

impl EventDoc {
    /// The keys given, in the order of the struct.
    fn given(&self) -> [(&'static str, bool); 10] {
        [
            ("count", self.count.is_some()),
            ("client", self.client.is_some()),
            ("lose_state", self.lose_state.is_some()),
            ("interval", self.interval.is_some()),
            ("downtime", self.downtime.is_some()),
            ("rack", self.rack.is_some()),
            ("duration", self.duration.is_some()),
            ("subtopology", self.subtopology.is_some()),
            ("partition", self.partition.is_some()),
            ("write_rate", self.write_rate.is_some()),
        ]
    }

    fn into_event(self, here: &str) -> Read<Event> {
        let kind = self.kind.0;
        let keys = kind.keys();
        if let Some((key, _)) = self
            .given()
            .into_iter()
            .find(|&(key, given)| given && !keys.contains(&key))
        {
            return fail(
                key_path(here, key),
                format!(
                    "is an unknown key for kind {:?} (expected one of {})",
                    kind.name(),
                    keys.join(", ")
                ),
            );
        }
        let missing = |key: &str| InputError::new(key_path(here, key), "is missing");
        let lose_state = self.lose_state.unwrap_or(false);
        let kind = match kind {
            Kind::ScaleOut => EventKind::ScaleOut {
                count: self.count.map_or(1, Int::small),
            },
            Kind::ScaleIn => EventKind::ScaleIn {
                count: self.count.map_or(1, Int::small),
            },
            Kind::Crash => EventKind::Crash {
                client: self.client.ok_or_else(|| missing("client"))?,
                lose_state,
            },
            Kind::Restart => EventKind::Restart {
                client: self.client.ok_or_else(|| missing("client"))?,
            },
            Kind::RollingBounce => EventKind::RollingBounce {
                interval_ms: self.interval.ok_or_else(|| missing("interval"))?.ms(),
                downtime_ms: self.downtime.ok_or_else(|| missing("downtime"))?.ms(),
            },
            Kind::RackOutage => EventKind::RackOutage {
                rack: self.rack.ok_or_else(|| missing("rack"))?,
                lose_state,
                duration_ms: self.duration.map(Duration::ms),
            },
            Kind::WriteSpike => EventKind::WriteSpike {
                subtopology: self
                    .subtopology
                    .ok_or_else(|| missing("subtopology"))?
                    .small(),
                partition: self.partition.map(Int::small),
                write_rate: self.write_rate.ok_or_else(|| missing("write_rate"))?.0,
            },
        };
        Ok(Event {
            at_ms: self.at.ms(),
            kind,
        })
    }
}

/// A number that must be greater than 0, with the value as written.
fn positive(path: &str, n: &Number) -> Read<f64> {
    if n.value <= 0.0 {
        return fail(path, format!("must be positive, got {}", n.shown));
    }
    if n.value > MAX_CPU {
        return fail(
            path,
            format!(
                "must be at most {MAX_CPU:?} (the limit on cpu), got {}",
                n.shown
            ),
        );
    }
    Ok(n.value)
}

impl PerturbDoc {
    fn into_perturb(self) -> Read<PerturbSpec> {
        let fraction = |key: &str, n: Option<Number>| -> Read<f64> {
            match n {
                None => Ok(0.0),
                Some(n) if (0.0..=1.0).contains(&n.value) => Ok(n.value),
                Some(n) => fail(
                    format!("perturb.{key}"),
                    format!("must be a fraction between 0 and 1, got {}", n.shown),
                ),
            }
        };
        Ok(PerturbSpec {
            state_records: fraction("state_records", self.state_records)?,
            write_rate: fraction("write_rate", self.write_rate)?,
            event_time_ms: self.event_time.map_or(0, Duration::ms),
        })
    }
}

impl ChurnDoc {
    /// The churn; `until` defaults to the scenario's `duration_ms`.
    fn into_churn(self, duration_ms: u64) -> Read<ChurnSpec> {
        let rate = &self.events_per_hour;
        if rate.value <= 0.0 {
            return fail(
                "churn.events_per_hour",
                format!("must be greater than 0, got {}", rate.shown),
            );
        }
        let lose_state_probability = match self.lose_state_probability {
            None => DEFAULT_LOSE_STATE_PROBABILITY,
            Some(p) if (0.0..=1.0).contains(&p.value) => p.value,
            Some(p) => {
                return fail(
                    "churn.lose_state_probability",
                    format!("must be between 0 and 1, got {}", p.shown),
                )
            }
        };
        let kinds = match self.kinds {
            None => ChurnKind::CHOICES.iter().map(|&(_, k)| k).collect(),
            Some(list) => {
                if list.is_empty() {
                    return fail(
                        "churn.kinds",
                        "must list at least one kind, got []".to_string(),
                    );
                }
                let mut kinds: Vec<ChurnKind> = Vec::with_capacity(list.len());
                for (i, Choice(kind)) in list.into_iter().enumerate() {
                    if kinds.contains(&kind) {
                        let name = ChurnKind::CHOICES
                            .iter()
                            .find(|(_, k)| *k == kind)
                            .map_or("", |(name, _)| name);
                        return fail(
                            format!("churn.kinds[{i}]"),
                            format!("lists {} twice", quote(name)),
                        );
                    }
                    kinds.push(kind);
                }
                kinds
            }
        };
        Ok(ChurnSpec {
            events_per_hour: rate.value,
            kinds,
            from_ms: self.from.map_or(0, Duration::ms),
            until_ms: self.until.map_or(duration_ms, Duration::ms),
            lose_state_probability,
        })
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
