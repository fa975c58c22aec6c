//! [`validate()`]: the one checker of assignment invariants, used by every
//! test, the property tests and the simulator after every rebalance.

use std::collections::BTreeMap;
use std::fmt;

use crate::assignor::Claims;
use crate::model::{ClientId, ClusterState, Plan, TaskId};

/// One broken invariant.
#[derive(Debug, Clone, PartialEq)]
pub enum Violation {
    /// The plan names a client the state does not have.
    UnknownClient(ClientId),
    /// A client of the state is missing from the plan.
    MissingClient(ClientId),
    /// The plan names a task the state does not have.
    UnknownTask(ClientId, TaskId),
    /// A task has no active although clients exist.
    NoActive(TaskId),
    /// A task is active on more than one client.
    ManyActives(TaskId, Vec<ClientId>),
    /// One client holds a task in more than one role.
    TwoRoles(ClientId, TaskId),
    /// A stateless task has a standby or warm-up.
    StatelessReplica(ClientId, TaskId),
    /// A stateful task has the wrong number of standbys.
    StandbyCount {
        /// The task.
        task: TaskId,
        /// Standbys wanted: `min(num_standby_replicas, clients − 1)`.
        expected: usize,
        /// Standbys in the plan.
        actual: usize,
    },
    /// The actives' stated demands exceed what a client states it offers.
    OverCapacity {
        /// The client.
        client: ClientId,
        /// `cpu` or `ram_mb`.
        resource: &'static str,
        /// Σ of the actives' stated demands.
        demand: f64,
        /// What the client offers.
        capacity: f64,
    },
    /// A stateful task's standbys and warm-ups do not meet
    /// `min(num_standby_replicas, clients − 1)` when warm-ups stand in for
    /// standbys ([`Claims::warmups_stand_in`]).
    StandInCount {
        /// The task.
        task: TaskId,
        /// Standbys wanted: `min(num_standby_replicas, clients − 1)`.
        expected: usize,
        /// Standbys in the plan (at most `expected`).
        standbys: usize,
        /// Warm-ups in the plan (standbys + warm-ups at least `expected`).
        warmups: usize,
    },
    /// `followup_when_caught_up` lists a task with no warm-up in the plan.
    FollowupWithoutWarmup(TaskId),
    /// More warm-ups than `max_warmup_replicas`.
    TooManyWarmups {
        /// The limit.
        limit: usize,
        /// Warm-ups in the plan.
        actual: usize,
    },
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Violation::UnknownClient(c) => write!(f, "plan names unknown client {c}"),
            Violation::MissingClient(c) => write!(f, "client {c} is missing from the plan"),
            Violation::UnknownTask(c, t) => write!(f, "client {c} holds unknown task {t}"),
            Violation::NoActive(t) => write!(f, "task {t} has no active"),
            Violation::ManyActives(t, cs) => {
                let names: Vec<&str> = cs.iter().map(ClientId::as_str).collect();
                write!(f, "task {t} is active on {}", names.join(", "))
            }
            Violation::TwoRoles(c, t) => write!(f, "client {c} holds task {t} in two roles"),
            Violation::StatelessReplica(c, t) => {
                write!(
                    f,
                    "client {c} holds a standby or warm-up of stateless task {t}"
                )
            }
            Violation::StandbyCount {
                task,
                expected,
                actual,
            } => write!(f, "task {task} has {actual} standbys, expected {expected}"),
            Violation::StandInCount {
                task,
                expected,
                standbys,
                warmups,
            } => write!(
                f,
                "task {task} has {standbys} standbys and {warmups} warm-ups, expected at most {expected} standbys and at least {expected} counting warm-ups"
            ),
            Violation::FollowupWithoutWarmup(t) => write!(
                f,
                "followup_when_caught_up lists task {t}, which has no warm-up in the plan"
            ),
            Violation::OverCapacity {
                client,
                resource,
                demand,
                capacity,
            } => write!(
                f,
                "client {client} is given {demand} {resource} of actives but offers {capacity}"
            ),
            Violation::TooManyWarmups { limit, actual } => {
                write!(f, "plan has {actual} warm-ups, limit {limit}")
            }
        }
    }
}

/// Checks `plan` against `state` with the claims of the strategy the plan
/// names (see [`validate_claims`]); a plan from an unregistered strategy is
/// held to the rules every plan keeps.
pub fn validate(state: &ClusterState, plan: &Plan) -> Result<(), Vec<Violation>> {
    let claims = crate::assignor::by_name(&plan.strategy)
        .map(|a| a.claims())
        .unwrap_or_default();
    validate_claims(state, plan, claims)
}

/// Checks `plan` against `state`: every client of the state appears and no
/// other; every task exactly one active while any client exists; no client
/// holds two replicas of one task; standbys and warm-ups only of stateful
/// tasks; every task of `followup_when_caught_up` has a warm-up; and, where
/// the strategy `claims` them, `min(num_standby_replicas, clients − 1)`
/// standbys per stateful task (warm-ups standing in for standbys with
/// `warmups_stand_in`), at most `max_warmup_replicas` warm-ups, and actives
/// within the resources clients state. Returns every violation found.
pub fn validate_claims(
    state: &ClusterState,
    plan: &Plan,
    claims: Claims,
) -> Result<(), Vec<Violation>> {
    let mut found = Vec::new();
    check_clients(state, plan, &mut found);
    let mut actives: BTreeMap<TaskId, Vec<ClientId>> = BTreeMap::new();
    let mut standbys: BTreeMap<TaskId, usize> = BTreeMap::new();
    let mut warmups: BTreeMap<TaskId, usize> = BTreeMap::new();
    for (id, cp) in &plan.clients {
        let roles = [&cp.active, &cp.standby, &cp.warmup];
        for (r, set) in roles.iter().enumerate() {
            for &t in *set {
                if roles[r + 1..].iter().any(|other| other.contains(&t)) {
                    found.push(Violation::TwoRoles(id.clone(), t));
                }
                match state.task(t) {
                    None => found.push(Violation::UnknownTask(id.clone(), t)),
                    Some(task) if r > 0 && !task.stateful => {
                        found.push(Violation::StatelessReplica(id.clone(), t))
                    }
                    Some(_) => {}
                }
            }
        }
        for &t in &cp.active {
            actives.entry(t).or_default().push(id.clone());
        }
        for &t in &cp.standby {
            *standbys.entry(t).or_default() += 1;
        }
        for &t in &cp.warmup {
            *warmups.entry(t).or_default() += 1;
        }
    }
    check_actives(state, &actives, &mut found);
    if claims.standby_count {
        let stand_ins = if claims.warmups_stand_in {
            Some(&warmups)
        } else {
            None
        };
        check_standby_count(state, &standbys, stand_ins, &mut found);
    }
    for &t in &plan.followup_when_caught_up {
        if !warmups.contains_key(&t) {
            found.push(Violation::FollowupWithoutWarmup(t));
        }
    }
    if claims.resource_capacity {
        check_resources(state, plan, &mut found);
    }
    let limit = state.config().max_warmup_replicas as usize;
    if claims.warmup_budget && plan.warmup_count() > limit {
        found.push(Violation::TooManyWarmups {
            limit,
            actual: plan.warmup_count(),
        });
    }
    if found.is_empty() {
        Ok(())
    } else {
        Err(found)
    }
}

fn check_clients(state: &ClusterState, plan: &Plan, found: &mut Vec<Violation>) {
    for id in plan.clients.keys() {
        if state.client(id).is_none() {
            found.push(Violation::UnknownClient(id.clone()));
        }
    }
    for client in state.clients() {
        if !plan.clients.contains_key(&client.id) {
            found.push(Violation::MissingClient(client.id.clone()));
        }
    }
}

fn check_resources(state: &ClusterState, plan: &Plan, found: &mut Vec<Violation>) {
    for client in state.clients() {
        let Some(cp) = plan.clients.get(&client.id) else {
            continue;
        };
        let tasks: Vec<_> = cp.active.iter().filter_map(|&t| state.task(t)).collect();
        let cpu: f64 = tasks.iter().filter_map(|t| t.cpu).sum();
        let ram: u64 = tasks.iter().filter_map(|t| t.ram_mb).sum();
        let mut over = |resource, demand: f64, capacity: f64| {
            if demand > capacity {
                found.push(Violation::OverCapacity {
                    client: client.id.clone(),
                    resource,
                    demand,
                    capacity,
                });
            }
        };
        if let Some(capacity) = client.cpu {
            over("cpu", cpu, capacity);
        }
        if let Some(capacity) = client.ram_mb {
            over("ram_mb", ram as f64, capacity as f64);
        }
    }
}

fn check_actives(
    state: &ClusterState,
    actives: &BTreeMap<TaskId, Vec<ClientId>>,
    found: &mut Vec<Violation>,
) {
    for task in state.tasks() {
        match actives.get(&task.id) {
            None if !state.clients().is_empty() => found.push(Violation::NoActive(task.id)),
            Some(owners) if owners.len() > 1 => {
                found.push(Violation::ManyActives(task.id, owners.clone()))
            }
            _ => {}
        }
    }
}

/// Exactly `expected` standbys per stateful task or, when warm-ups stand
/// in, at most `expected` standbys and at least `expected` with warm-ups.
fn check_standby_count(
    state: &ClusterState,
    standbys: &BTreeMap<TaskId, usize>,
    stand_ins: Option<&BTreeMap<TaskId, usize>>,
    found: &mut Vec<Violation>,
) {
    let replicas = state.config().num_standby_replicas as usize;
    let expected = replicas.min(state.clients().len().saturating_sub(1));
    for task in state.tasks().iter().filter(|t| t.stateful) {
        let actual = standbys.get(&task.id).copied().unwrap_or(0);
        if let Some(warmups) = stand_ins {
            let warmups = warmups.get(&task.id).copied().unwrap_or(0);
            if actual > expected || actual + warmups < expected {
                found.push(Violation::StandInCount {
                    task: task.id,
                    expected,
                    standbys: actual,
                    warmups,
                });
            }
        } else if actual != expected {
            found.push(Violation::StandbyCount {
                task: task.id,
                expected,
                actual,
            });
        }
    }
}
