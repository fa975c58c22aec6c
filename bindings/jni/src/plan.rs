//! The plan message (Rust → Java, `docs/crossing-format.md`).

use std::collections::BTreeSet;

use smoothscale::model::{ClusterState, Plan, TaskId};

use crate::bytes::Writer;

/// "SMSP" as a little-endian `u32`: the first four bytes of a plan message.
pub const PLAN_MAGIC: u32 = u32::from_le_bytes(*b"SMSP");

/// The plan format version (the state format moved to 2 alone).
pub const PLAN_VERSION: u32 = 1;

/// The follow-up a plan asks Kafka for, in milliseconds from now: its
/// `followup_rebalance_ms`; or, for a plan that only waits for warm-ups to
/// catch up (`followup_when_caught_up`, the learner's design), the probing
/// interval, since Kafka Streams can only rebalance again at a time, not on
/// an event. `None` when the plan needs no follow-up.
pub fn followup_ms(state: &ClusterState, plan: &Plan) -> Option<u64> {
    plan.followup_rebalance_ms.or_else(|| {
        (!plan.followup_when_caught_up.is_empty())
            .then_some(state.config().probing_rebalance_interval_ms)
    })
}

/// Encodes `plan` for the clients of `state` in their order; a task is
/// written as its index in the state message (`message_index_of_task`, by
/// task position in `state`).
pub fn encode(state: &ClusterState, plan: &Plan, message_index_of_task: &[u32]) -> Vec<u8> {
    let index = |t: &TaskId| {
        state
            .task_position(*t)
            .map_or(u32::MAX, |p| message_index_of_task[p])
    };
    let tasks = |w: &mut Writer, set: &BTreeSet<TaskId>| {
        w.count(set.len());
        set.iter().for_each(|t| w.u32(index(t)));
    };
    let mut w =
        Writer::with_capacity(32 + 12 * state.clients().len() + 8 * state.tasks().len() * 2);
    w.u32(PLAN_MAGIC);
    w.u32(PLAN_VERSION);
    let followup = followup_ms(state, plan);
    w.u8(u8::from(followup.is_some()));
    w.i64(followup.map_or(-1, |ms| i64::try_from(ms).unwrap_or(i64::MAX)));
    w.count(state.clients().len());
    let empty = Default::default();
    for c in state.clients() {
        let cp = plan.clients.get(&c.id).unwrap_or(&empty);
        tasks(&mut w, &cp.active);
        tasks(&mut w, &cp.standby);
        tasks(&mut w, &cp.warmup);
    }
    tasks(&mut w, &plan.followup_when_caught_up);
    w.count(plan.diagnostics.len());
    for d in &plan.diagnostics {
        w.str(d);
    }
    w.into_bytes()
}
