//! The state message (Java → Rust, `docs/crossing-format.md`): decoding into
//! a [`ClusterState`], and encoding one (`generate_preset` sends the
//! `smoothscale generate` presets to Java's benchmarks this way). The encoder
//! writes the bytes Java's `StateEncoder` writes for the same state: both are
//! held to the fixture `bindings/crossing/state.bin`.
//!
//! A task's input rate crosses as what the group leader read: the end offset
//! sum of its source partitions now and at its previous rebalance, and the
//! time between; the decoder applies the core's rule
//! ([`smoothscale::input_rate::observe`]), so the rule is not in Java.

use std::collections::{BTreeMap, BTreeSet};

use smoothscale::input_rate;
use smoothscale::model::{
    AssignmentConfig, Client, ClientId, ClusterState, Lag, RackAwareStrategy, Task, TaskId,
};

use crate::bytes::{FormatError, Reader, Writer};
use crate::Failure;

/// "SMS1" as a little-endian `u32`: the first four bytes of a state message.
pub const STATE_MAGIC: u32 = u32::from_le_bytes(*b"SMS1");
/// The state format version this library reads and writes (3: the leader's
/// input offsets, now per task and then in its memory, after the observed
/// restore rate of version 2).
pub const VERSION: u32 = 3;
/// Kafka's `Task.LATEST_OFFSET`: the client runs the task as a caught-up active.
pub const LAG_RUNNING: i64 = -2;
/// Kafka's `UNKNOWN_OFFSET_SUM`: the client's position is unknown.
pub const LAG_UNKNOWN: i64 = -3;
/// No string (a client without a rack or host), no cost set.
pub const ABSENT: i32 = -1;
/// No count: an input offset sum or an elapsed time the leader does not know.
pub const UNKNOWN: i64 = -1;
/// The time [`encode`] writes between the two input offset sums of a state
/// with input rates, the shortest the rule reads
/// ([`input_rate::MIN_WINDOW_MS`]): a rate `r` goes as sums `0` then the
/// records of that window ([`encoded_offsets`]), which the rule reads back as
/// `r` records per second.
pub const ENCODED_ELAPSED_MS: i64 = input_rate::MIN_WINDOW_MS as i64;

/// The input offset sum [`encode`] writes for a rate of `rate` records per
/// second after a sum of `0` [`ENCODED_ELAPSED_MS`] earlier: the records of
/// that window, at most `i64::MAX`, as every count (a rate of more than
/// `i64::MAX` records per window crosses as that many).
pub fn encoded_offsets(rate: u64) -> i64 {
    let records = u128::from(rate) * u128::from(input_rate::MIN_WINDOW_MS) / 1000;
    i64::try_from(records).unwrap_or(i64::MAX)
}

/// A decoded state, with what is needed to answer in the sender's indices.
pub struct Decoded {
    /// The state, built (and so checked) by `ClusterState::new`.
    pub state: ClusterState,
    /// For each task position in `state`, its index in the message.
    pub message_index_of_task: Vec<u32>,
}

/// The id of the client at `index` of `count`: `c` then the index,
/// zero-padded to one width, so ids sort in the order they were sent.
pub fn client_id(index: usize, count: usize) -> ClientId {
    let width = count.saturating_sub(1).to_string().len();
    ClientId::new(format!("c{index:0width$}"))
}

/// Decodes a state message.
///
/// # Errors
/// [`Failure::Input`]: a malformed message (the [`FormatError`], naming the
/// field and byte offset), or a well-formed message that is not a valid
/// state (the model's `InputError`).
pub fn decode(bytes: &[u8]) -> Result<Decoded, Failure> {
    let mut r = Reader::new(bytes);
    let (config, tasks, clients, rate) = read(&mut r)?;
    let mut order: Vec<(TaskId, u32)> = tasks.iter().zip(0u32..).map(|(t, i)| (t.id, i)).collect();
    order.sort_unstable();
    let state = ClusterState::new(config, tasks, clients)
        .and_then(|state| state.with_observed_restore_rate(rate))?;
    Ok(Decoded {
        state,
        message_index_of_task: order.into_iter().map(|(_, i)| i).collect(),
    })
}

type Parts = (AssignmentConfig, Vec<Task>, Vec<Client>, Option<u64>);

fn read(r: &mut Reader<'_>) -> Result<Parts, FormatError> {
    r.header(STATE_MAGIC, VERSION)?;
    let mut config = read_config(r)?;
    let tag_count = r.count(&|| "config.rack_aware_assignment_tags".into(), 4)?;
    let mut tag_refs = Vec::with_capacity(tag_count);
    for _ in 0..tag_count {
        let at = r.offset();
        tag_refs.push((at, r.u32(&|| "config.rack_aware_assignment_tags[]".into())?));
    }
    let string_count = r.count(&|| "strings".into(), 4)?;
    let mut strings = Vec::with_capacity(string_count);
    for i in 0..string_count {
        strings.push(r.str(&|| format!("strings[{i}]"))?);
    }
    let lookup = |r: &Reader<'_>, field: &dyn Fn() -> String, at: usize, s: u32| {
        usize::try_from(s)
            .ok()
            .and_then(|s| strings.get(s))
            .cloned()
            .ok_or_else(|| {
                r.error(
                    field(),
                    at,
                    format!("must index the {} strings, got {s}", strings.len()),
                )
            })
    };
    for (i, (at, s)) in tag_refs.into_iter().enumerate() {
        let key = lookup(
            r,
            &|| format!("config.rack_aware_assignment_tags[{i}]"),
            at,
            s,
        )?;
        config.rack_aware_assignment_tags.push(key);
    }
    let task_count = r.count(&|| "tasks".into(), 33)?;
    let mut tasks = Vec::with_capacity(task_count);
    let mut offsets_now = Vec::with_capacity(task_count);
    for i in 0..task_count {
        let field = |name: &str| format!("tasks[{i}].{name}");
        let subtopology = r.u32(&|| field("subtopology"))?;
        let partition = r.u32(&|| field("partition"))?;
        let at = r.offset();
        let stateful = match r.u8(&|| field("stateful"))? {
            0 => false,
            1 => true,
            other => {
                return Err(r.error(
                    field("stateful"),
                    at,
                    format!("must be 0 or 1, got {other}"),
                ))
            }
        };
        let end_offset = r.non_negative(&|| field("end_offset"))?;
        offsets_now.push(known(r, &|| field("input_offsets_now"))?);
        let mut task = Task::stateful(TaskId::new(subtopology, partition), end_offset);
        task.stateful = stateful;
        for (name, set) in [
            ("racks", &mut task.racks),
            ("changelog_racks", &mut task.changelog_racks),
        ] {
            let n = r.count(&|| field(name), 4)?;
            for k in 0..n {
                let at = r.offset();
                let f = || format!("tasks[{i}].{name}[{k}]");
                let s = r.u32(&f)?;
                set.insert(lookup(r, &f, at, s)?);
            }
        }
        tasks.push(task);
    }
    let client_count = r.count(&|| "clients".into(), 28)?;
    let mut clients = Vec::with_capacity(client_count);
    for i in 0..client_count {
        let field = |name: &str| format!("clients[{i}].{name}");
        let mut client = Client::new(client_id(i, client_count), r.u32(&|| field("capacity"))?);
        for (name, slot) in [("rack", &mut client.rack), ("host", &mut client.host)] {
            let at = r.offset();
            let s = r.i32(&|| field(name))?;
            if s != ABSENT {
                let s = u32::try_from(s).map_err(|_| {
                    r.error(
                        field(name),
                        at,
                        format!("must be -1 or a string index, got {s}"),
                    )
                })?;
                *slot = Some(lookup(r, &|| field(name), at, s)?);
            }
        }
        let n = r.count(&|| field("tags"), 8)?;
        for k in 0..n {
            let f = || format!("clients[{i}].tags[{k}]");
            let at = r.offset();
            let key = r.u32(&f)?;
            let key = lookup(r, &f, at, key)?;
            let at = r.offset();
            let value = r.u32(&f)?;
            let value = lookup(r, &f, at, value)?;
            client.tags.insert(key, value);
        }
        client.previous_active = read_task_refs(r, &tasks, &field("previous_active"))?;
        client.previous_standby = read_task_refs(r, &tasks, &field("previous_standby"))?;
        client.lags = read_lags(r, &tasks, &field("lags"))?;
        clients.push(client);
    }
    let at = r.offset();
    let rate = match r.i64(&|| "observed_restore_rate".into())? {
        ABSENT_RATE => None,
        v if v >= 1 => u64::try_from(v).ok(),
        v => {
            return Err(r.error(
                "observed_restore_rate",
                at,
                format!("must be -1 (none) or at least 1, got {v}"),
            ))
        }
    };
    let elapsed_ms = known(r, &|| "input_elapsed_ms".into())?;
    for (i, (task, now)) in tasks.iter_mut().zip(offsets_now).enumerate() {
        let then = known(r, &|| format!("tasks[{i}].input_offsets_then"))?;
        if let (Some(then), Some(now), Some(elapsed_ms)) = (then, now, elapsed_ms) {
            task.input_rate = input_rate::observe(then, now, elapsed_ms);
        }
    }
    r.finish()?;
    Ok((config, tasks, clients, rate))
}

/// A count the sender may not know: at least 0, or [`UNKNOWN`] (`None`).
fn known(r: &mut Reader<'_>, field: &dyn Fn() -> String) -> Result<Option<u64>, FormatError> {
    let at = r.offset();
    match r.i64(field)? {
        UNKNOWN => Ok(None),
        v => u64::try_from(v).map(Some).map_err(|_| {
            r.error(
                field(),
                at,
                format!("must be -1 (unknown) or at least 0, got {v}"),
            )
        }),
    }
}

fn read_config(r: &mut Reader<'_>) -> Result<AssignmentConfig, FormatError> {
    let field = |name: &str| format!("config.{name}");
    let num_standby_replicas = r.u32(&|| field("num_standby_replicas"))?;
    let acceptable_recovery_lag = r.non_negative(&|| field("acceptable_recovery_lag"))?;
    let max_warmup_replicas = r.u32(&|| field("max_warmup_replicas"))?;
    let probing_rebalance_interval_ms =
        r.non_negative(&|| field("probing_rebalance_interval_ms"))?;
    let at = r.offset();
    let rack_aware_strategy = match r.u8(&|| field("rack_aware_strategy"))? {
        0 => RackAwareStrategy::None,
        1 => RackAwareStrategy::MinTraffic,
        2 => RackAwareStrategy::BalanceSubtopology,
        other => {
            return Err(r.error(
                field("rack_aware_strategy"),
                at,
                format!("must be 0, 1 or 2, got {other}"),
            ));
        }
    };
    let mut costs = [None, None];
    for (name, slot) in ["rack_aware_traffic_cost", "rack_aware_non_overlap_cost"]
        .into_iter()
        .zip(&mut costs)
    {
        let at = r.offset();
        let v = r.i32(&|| field(name))?;
        if v != ABSENT {
            *slot = Some(u32::try_from(v).map_err(|_| {
                r.error(
                    field(name),
                    at,
                    format!("must be -1 (not set) or at least 0, got {v}"),
                )
            })?);
        }
    }
    Ok(AssignmentConfig {
        num_standby_replicas,
        acceptable_recovery_lag,
        max_warmup_replicas,
        probing_rebalance_interval_ms,
        rack_aware_assignment_tags: Vec::new(),
        rack_aware_strategy,
        rack_aware_traffic_cost: costs[0],
        rack_aware_non_overlap_cost: costs[1],
        // A Samza setting: Kafka Streams has none to pass.
        samza_fault_domain_aware_standby: false,
    })
}

fn task_ref(
    r: &mut Reader<'_>,
    tasks: &[Task],
    field: &dyn Fn() -> String,
) -> Result<TaskId, FormatError> {
    let at = r.offset();
    let t = r.u32(field)?;
    usize::try_from(t)
        .ok()
        .and_then(|t| tasks.get(t))
        .map(|t| t.id)
        .ok_or_else(|| {
            r.error(
                field(),
                at,
                format!("must index the {} tasks, got {t}", tasks.len()),
            )
        })
}

fn read_task_refs(
    r: &mut Reader<'_>,
    tasks: &[Task],
    field: &str,
) -> Result<BTreeSet<TaskId>, FormatError> {
    let n = r.count(&|| field.into(), 4)?;
    let mut set = BTreeSet::new();
    for k in 0..n {
        let f = || format!("{field}[{k}]");
        let at = r.offset();
        let id = task_ref(r, tasks, &f)?;
        if !set.insert(id) {
            return Err(r.error(
                f(),
                at,
                format!("must not list a task twice, got {id} again"),
            ));
        }
    }
    Ok(set)
}

fn read_lags(
    r: &mut Reader<'_>,
    tasks: &[Task],
    field: &str,
) -> Result<BTreeMap<TaskId, Lag>, FormatError> {
    let n = r.count(&|| field.into(), 12)?;
    let mut lags = BTreeMap::new();
    for k in 0..n {
        let f = || format!("{field}[{k}]");
        let at = r.offset();
        let id = task_ref(r, tasks, &f)?;
        let lag_at = r.offset();
        let lag = match r.i64(&f)? {
            LAG_RUNNING => Lag::Running,
            LAG_UNKNOWN => Lag::Unknown,
            v => Lag::Records(u64::try_from(v).map_err(|_| {
                r.error(
                    format!("{field}[{k}].lag"),
                    lag_at,
                    format!("must be at least 0, -2 (running) or -3 (unknown), got {v}"),
                )
            })?),
        };
        if lags.insert(id, lag).is_some() {
            return Err(r.error(
                f(),
                at,
                format!("must not list a task twice, got {id} again"),
            ));
        }
    }
    Ok(lags)
}

/// Encodes `state` as a state message; clients in the state's order, tasks in
/// the state's order (so message indices are positions in `state`). Hosts,
/// racks, tags: all strings go through one table, in the order Java's
/// `StateEncoder` first uses them (each task's input then changelog racks;
/// each client's rack, host, then tags by key; then the configuration's tag
/// keys), so that both sides write the same bytes for the same state. A
/// task's input rate `r` goes as input offsets `0` then [`encoded_offsets`]
/// over [`ENCODED_ELAPSED_MS`] (the rule reads back `r`), an unknown one as
/// unknown offsets; with no input rate at all, the elapsed time is unknown
/// too.
pub fn encode(state: &ClusterState) -> Vec<u8> {
    let config = state.config();
    let mut strings = Strings::default();
    for t in state.tasks() {
        t.racks
            .iter()
            .chain(&t.changelog_racks)
            .for_each(|s| strings.add(s));
    }
    for c in state.clients() {
        c.rack.iter().chain(&c.host).for_each(|s| strings.add(s));
        for (k, v) in &c.tags {
            strings.add(k);
            strings.add(v);
        }
    }
    config
        .rack_aware_assignment_tags
        .iter()
        .for_each(|s| strings.add(s));
    let sidx = |s: &str| strings.index_of(s);
    let tidx =
        |id: &TaskId| u32::try_from(state.task_position(*id).unwrap_or(0)).unwrap_or(u32::MAX);
    let mut w = Writer::with_capacity(64 + 32 * state.tasks().len() + 64 * state.clients().len());
    w.u32(STATE_MAGIC);
    w.u32(VERSION);
    w.u32(config.num_standby_replicas);
    w.i64(clamp_i64(config.acceptable_recovery_lag));
    w.u32(config.max_warmup_replicas);
    w.i64(clamp_i64(config.probing_rebalance_interval_ms));
    w.u8(match config.rack_aware_strategy {
        RackAwareStrategy::None => 0,
        RackAwareStrategy::MinTraffic => 1,
        RackAwareStrategy::BalanceSubtopology => 2,
    });
    for cost in [
        config.rack_aware_traffic_cost,
        config.rack_aware_non_overlap_cost,
    ] {
        w.i32(cost.map_or(ABSENT, |c| i32::try_from(c).unwrap_or(i32::MAX)));
    }
    w.count(config.rack_aware_assignment_tags.len());
    for key in &config.rack_aware_assignment_tags {
        w.u32(sidx(key));
    }
    w.count(strings.table.len());
    for s in &strings.table {
        w.str(s);
    }
    w.count(state.tasks().len());
    for t in state.tasks() {
        w.u32(t.id.subtopology);
        w.u32(t.id.partition);
        w.u8(u8::from(t.stateful));
        w.i64(clamp_i64(t.end_offset));
        w.i64(t.input_rate.map_or(UNKNOWN, encoded_offsets));
        for set in [&t.racks, &t.changelog_racks] {
            w.count(set.len());
            set.iter().for_each(|s| w.u32(sidx(s)));
        }
    }
    w.count(state.clients().len());
    for c in state.clients() {
        w.u32(c.capacity);
        for s in [&c.rack, &c.host] {
            w.i32(
                s.as_deref()
                    .map_or(ABSENT, |s| i32::try_from(sidx(s)).unwrap_or(i32::MAX)),
            );
        }
        w.count(c.tags.len());
        for (k, v) in &c.tags {
            w.u32(sidx(k));
            w.u32(sidx(v));
        }
        for set in [&c.previous_active, &c.previous_standby] {
            w.count(set.len());
            set.iter().for_each(|t| w.u32(tidx(t)));
        }
        w.count(c.lags.len());
        for (t, lag) in &c.lags {
            w.u32(tidx(t));
            w.i64(match lag {
                Lag::Running => LAG_RUNNING,
                Lag::Unknown => LAG_UNKNOWN,
                Lag::Records(n) => clamp_i64(*n),
            });
        }
    }
    w.i64(state.observed_restore_rate().map_or(ABSENT_RATE, clamp_i64));
    let any_rate = state.tasks().iter().any(|t| t.input_rate.is_some());
    w.i64(if any_rate {
        ENCODED_ELAPSED_MS
    } else {
        UNKNOWN
    });
    for t in state.tasks() {
        w.i64(t.input_rate.map_or(UNKNOWN, |_| 0));
    }
    w.into_bytes()
}

/// A message's strings, in the order of their first use.
#[derive(Default)]
struct Strings<'s> {
    table: Vec<&'s str>,
    index: BTreeMap<&'s str, u32>,
}

impl<'s> Strings<'s> {
    /// Adds `s` unless it is there already.
    fn add(&mut self, s: &'s str) {
        let next = u32::try_from(self.table.len()).unwrap_or(u32::MAX);
        if let std::collections::btree_map::Entry::Vacant(e) = self.index.entry(s) {
            e.insert(next);
            self.table.push(s);
        }
    }

    /// The index of `s`, which was added.
    fn index_of(&self, s: &str) -> u32 {
        self.index.get(s).copied().unwrap_or(u32::MAX)
    }
}

/// No observed restore rate.
const ABSENT_RATE: i64 = -1;

/// Kafka's longs are signed: a count past `i64::MAX` (only
/// `acceptable_recovery_lag`'s "accept any" value can be) is sent as `i64::MAX`.
fn clamp_i64(v: u64) -> i64 {
    i64::try_from(v).unwrap_or(i64::MAX)
}
