//! Helpers shared by the integration tests: building states and running a
//! strategy with `validate` on every plan.

#![allow(dead_code)]

use smoothscale::{
    assignor, validate, AssignmentConfig, Client, ClusterState, Lag, Plan, Task, TaskId,
};

/// Task `S_P`.
pub fn t(subtopology: u32, partition: u32) -> TaskId {
    TaskId::new(subtopology, partition)
}

/// Parses `"0_1"`.
pub fn tid(s: &str) -> TaskId {
    s.parse().expect("test task id")
}

/// A checked state; panics with the input error if the test built a bad one.
pub fn state(config: AssignmentConfig, tasks: Vec<Task>, clients: Vec<Client>) -> ClusterState {
    ClusterState::new(config, tasks, clients).unwrap_or_else(|e| panic!("bad test state: {e}"))
}

/// Stateful tasks `S_P` for every subtopology below `subtopologies` and
/// partition below `partitions`, each with `end_offset` records.
pub fn stateful_grid(subtopologies: u32, partitions: u32, end_offset: u64) -> Vec<Task> {
    (0..subtopologies)
        .flat_map(|s| (0..partitions).map(move |p| Task::stateful(TaskId::new(s, p), end_offset)))
        .collect()
}

/// A client reporting `lag` for every task in `tasks`.
pub fn with_lags(mut client: Client, tasks: &[Task], lag: Lag) -> Client {
    for task in tasks {
        client.lags.insert(task.id, lag);
    }
    client
}

/// Runs `strategy` on `state`, asserts `validate` holds, returns the plan.
pub fn run(strategy: &str, state: &ClusterState) -> Plan {
    let assignor = assignor::by_name(strategy).expect("registered strategy");
    let plan = assignor.assign(state).expect("assign succeeds");
    if let Err(v) = validate(state, &plan) {
        panic!("{strategy} broke invariants: {v:?}\nplan: {plan:?}");
    }
    plan
}

/// Runs kip441 with `validate`.
pub fn kip441(state: &ClusterState) -> Plan {
    run("kip441", state)
}
