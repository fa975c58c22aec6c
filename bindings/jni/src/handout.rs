//! The handout message (Java → Rust, `docs/crossing-format.md`): an
//! assignment as Kafka Streams hands it to its members, whoever computed it
//! (our adapter or Kafka's own assignor), checked with
//! `smoothscale::validate`.
//!
//! Kafka has two replica kinds where the core has three: a warm-up travels
//! as a standby. So each task's standbys are read in client order, the first
//! `min(num_standby_replicas, clients − 1)` as standbys and any further ones
//! as warm-ups, and the plan is held to what Kafka promises of any assignor
//! it runs: one active per task, no client holding a task twice, replicas
//! only of stateful tasks, at least the configured standbys per stateful task
//! (warm-ups standing in) and at most `max_warmup_replicas` warm-ups.

use smoothscale::model::{AssignmentConfig, Client, ClusterState, Plan, Task, TaskId};
use smoothscale::{validate, Claims};

use crate::bytes::{FormatError, Reader};
use crate::state::client_id;
use crate::Failure;

/// "SMSH" as a little-endian `u32`: the first four bytes of a handout message.
pub const HANDOUT_MAGIC: u32 = u32::from_le_bytes(*b"SMSH");

/// The handout format version (the state format moved to 2 alone).
pub const HANDOUT_VERSION: u32 = 1;

/// What Kafka Streams promises of an assignment, whichever assignor made it.
pub const KAFKA_CLAIMS: Claims = Claims {
    standby_count: true,
    warmup_budget: true,
    resource_capacity: false,
    warmups_stand_in: true,
};

/// A decoded handout: the state it is checked against and the plan, with
/// replicas named twice on one client (which a plan's sets cannot hold)
/// reported apart.
pub(crate) struct Handout {
    /// The tasks and settings, on one client per process (`c0`, `c1`, …).
    pub(crate) state: ClusterState,
    /// Who holds what, a task's standbys past the configured number as warm-ups.
    pub(crate) plan: Plan,
    /// A task listed twice for one client, as a violation.
    pub(crate) repeated: Vec<String>,
}

/// Checks the handout message `bytes`: `Ok(None)` when the assignment keeps
/// every rule, `Ok(Some(violations))` (one line, `; `-separated) when not.
///
/// # Errors
/// [`Failure::Input`]: a malformed message (naming the field and byte
/// offset) or one that is not a valid state.
pub fn check(bytes: &[u8]) -> Result<Option<String>, Failure> {
    let handout = decode(bytes)?;
    let mut found = handout.repeated;
    if let Err(violations) = validate(&handout.state, &handout.plan, KAFKA_CLAIMS) {
        found.extend(violations.iter().map(ToString::to_string));
    }
    Ok((!found.is_empty()).then(|| found.join("; ")))
}

/// Decodes a handout message.
pub(crate) fn decode(bytes: &[u8]) -> Result<Handout, Failure> {
    let mut r = Reader::new(bytes);
    let (config, tasks, held) = read(&mut r)?;
    let n = held.len();
    let clients = (0..n).map(|i| Client::new(client_id(i, n), 1)).collect();
    let ids: Vec<TaskId> = tasks.iter().map(|t| t.id).collect();
    let expected = (config.num_standby_replicas as usize).min(n.saturating_sub(1));
    let state = ClusterState::new(config, tasks, clients)?;
    let mut plan = Plan::default();
    let mut standbys_seen = vec![0usize; ids.len()];
    let mut repeated = Vec::new();
    for (i, (active, standby)) in held.into_iter().enumerate() {
        let id = client_id(i, n);
        let cp = plan.clients.entry(id.clone()).or_default();
        for t in active {
            if !cp.active.insert(ids[t]) {
                repeated.push(format!(
                    "client {id} is given task {} twice as active",
                    ids[t]
                ));
            }
        }
        for t in standby {
            let task = ids[t];
            if cp.standby.contains(&task) || cp.warmup.contains(&task) {
                repeated.push(format!("client {id} is given task {task} twice as standby"));
            } else if standbys_seen[t] < expected {
                cp.standby.insert(task);
                standbys_seen[t] += 1;
            } else {
                cp.warmup.insert(task);
            }
        }
    }
    Ok(Handout {
        state,
        plan,
        repeated,
    })
}

/// Per client, the task indices it is given as active and as standby.
type Held = Vec<(Vec<usize>, Vec<usize>)>;

fn read(r: &mut Reader<'_>) -> Result<(AssignmentConfig, Vec<Task>, Held), FormatError> {
    r.header(HANDOUT_MAGIC, HANDOUT_VERSION)?;
    let config = AssignmentConfig {
        num_standby_replicas: r.u32(&|| "num_standby_replicas".into())?,
        max_warmup_replicas: r.u32(&|| "max_warmup_replicas".into())?,
        ..AssignmentConfig::default()
    };
    let task_count = r.count(&|| "tasks".into(), 9)?;
    let mut tasks = Vec::with_capacity(task_count);
    for i in 0..task_count {
        let field = |name: &str| format!("tasks[{i}].{name}");
        let id = TaskId::new(
            r.u32(&|| field("subtopology"))?,
            r.u32(&|| field("partition"))?,
        );
        let at = r.offset();
        tasks.push(match r.u8(&|| field("stateful"))? {
            0 => Task::stateless(id),
            1 => Task::stateful(id, 0),
            other => {
                return Err(r.error(
                    field("stateful"),
                    at,
                    format!("must be 0 or 1, got {other}"),
                ))
            }
        });
    }
    let client_count = r.count(&|| "clients".into(), 8)?;
    let mut held = Vec::with_capacity(client_count);
    for i in 0..client_count {
        let mut lists = [Vec::new(), Vec::new()];
        for (name, list) in ["active", "standby"].into_iter().zip(&mut lists) {
            let field = || format!("clients[{i}].{name}");
            let n = r.count(&field, 4)?;
            for k in 0..n {
                let at = r.offset();
                let f = || format!("clients[{i}].{name}[{k}]");
                let t = r.u32(&f)?;
                match usize::try_from(t).ok().filter(|&t| t < task_count) {
                    Some(t) => list.push(t),
                    None => {
                        return Err(r.error(
                            f(),
                            at,
                            format!("must index the {task_count} tasks, got {t}"),
                        ))
                    }
                }
            }
        }
        let [active, standby] = lists;
        held.push((active, standby));
    }
    r.finish()?;
    Ok((config, tasks, held))
}
