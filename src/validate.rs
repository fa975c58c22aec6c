//! [`validate()`]: the one checker of assignment invariants, used by every
//! test, the property tests, the command line and the simulator after every
//! rebalance. It checks the claims it is given: it never looks a strategy up.

use std::collections::BTreeSet;
use std::fmt;

use crate::assignor::Claims;
use crate::model::{ClientId, ClusterState, ContainerId, Plan, TaskId};

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
        /// `cpu`, `ram_mb` or `disk_mb`.
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
    /// A container of the plan runs on a client the state does not have.
    ContainerClient(ContainerId, ClientId),
    /// A container lists a task its client does not hold in that role (as
    /// active; as standby, for a stateful task), a task the state does not
    /// have, or an active another container runs too.
    ContainerTask(ContainerId, TaskId),
    /// A plan with containers gives a client an active in none of its
    /// containers.
    Uncontained(ClientId, TaskId),
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
            Violation::ContainerClient(k, c) => {
                write!(f, "container {k} runs on unknown client {c}")
            }
            Violation::ContainerTask(k, t) => write!(
                f,
                "container {k} lists task {t}, which its client does not hold in that role or another container runs"
            ),
            Violation::Uncontained(c, t) => {
                write!(f, "client {c} runs task {t} in none of its containers")
            }
        }
    }
}

/// Checks `plan` against `state`, holding it to the rules every plan keeps
/// and to `claims`: every client of the state appears and no other; every
/// task exactly one active while any client exists; no client holds two
/// replicas of one task; standbys and warm-ups only of stateful tasks; every
/// task of `followup_when_caught_up` has a warm-up; a plan's containers hold
/// what their clients hold and contain every active; and, where `claims` asks
/// for them, `min(num_standby_replicas, clients − 1)` standbys per stateful
/// task (warm-ups standing in for standbys with `warmups_stand_in`), at most
/// `max_warmup_replicas` warm-ups, and actives within the resources clients
/// state.
///
/// The claims are given, never looked up by the strategy name the plan
/// carries: pass the producing strategy's
/// [`info().claims`](crate::Assignor::info), or [`Claims::NONE`] for the
/// rules every plan keeps.
///
/// # Errors
/// Every violation found, in the order of the checks above.
///
/// # Examples
/// ```
/// use smoothscale::{assignor, validate, AssignmentConfig, Claims, Client, ClusterState, Task, TaskId};
///
/// let tasks = vec![Task::stateful(TaskId::new(0, 0), 100)];
/// let clients = vec![Client::new("a", 1), Client::new("b", 1)];
/// let config = AssignmentConfig { num_standby_replicas: 1, ..AssignmentConfig::default() };
/// let state = ClusterState::new(config, tasks, clients).unwrap();
/// let kip441 = assignor::by_name("kip441").unwrap();
/// let mut plan = kip441.assign(&state).unwrap();
/// assert_eq!(validate(&state, &plan, kip441.info().claims), Ok(()));
///
/// // Drop the standby: the baseline rules still hold, kip441's claims do not.
/// plan.clients.values_mut().for_each(|c| c.standby.clear());
/// assert_eq!(validate(&state, &plan, Claims::NONE), Ok(()));
/// assert!(validate(&state, &plan, kip441.info().claims).is_err());
/// ```
pub fn validate(state: &ClusterState, plan: &Plan, claims: Claims) -> Result<(), Vec<Violation>> {
    let mut found = Vec::new();
    check_clients(state, plan, &mut found);
    // Counts by task position: O(1) per placed replica, no per-task map.
    let n = state.tasks().len();
    let mut counts = Counts {
        actives: vec![0; n],
        standbys: vec![0; n],
        warmups: vec![0; n],
    };
    // Which roles a client gives each task (bit r for role r), cleared after
    // each client; only the tasks the client holds are touched.
    let mut roles_of = vec![0u8; n];
    for (id, cp) in &plan.clients {
        let roles = [&cp.active, &cp.standby, &cp.warmup];
        for (r, set) in roles.iter().enumerate() {
            for &t in *set {
                if let Some(p) = state.task_position(t) {
                    roles_of[p] |= 1 << r;
                }
            }
        }
        for (r, set) in roles.iter().enumerate() {
            for &t in *set {
                let later = match state.task_position(t) {
                    Some(p) => roles_of[p] >> (r + 1) != 0,
                    None => roles[r + 1..].iter().any(|other| other.contains(&t)),
                };
                if later {
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
        for (set, count) in [
            (&cp.active, &mut counts.actives),
            (&cp.standby, &mut counts.standbys),
            (&cp.warmup, &mut counts.warmups),
        ] {
            for p in set.iter().filter_map(|&t| state.task_position(t)) {
                roles_of[p] = 0;
                count[p] += 1;
            }
        }
    }
    check_actives(state, plan, &counts.actives, &mut found);
    if claims.standby_count {
        let stand_ins = if claims.warmups_stand_in {
            Some(counts.warmups.as_slice())
        } else {
            None
        };
        check_standby_count(state, &counts.standbys, stand_ins, &mut found);
    }
    for &t in &plan.followup_when_caught_up {
        let warmed = match state.task_position(t) {
            Some(p) => counts.warmups[p] > 0,
            None => plan.clients.values().any(|cp| cp.warmup.contains(&t)),
        };
        if !warmed {
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
    check_containers(state, plan, &mut found);
    if found.is_empty() {
        Ok(())
    } else {
        Err(found)
    }
}

/// Replicas per task position, by role.
struct Counts {
    actives: Vec<usize>,
    standbys: Vec<usize>,
    warmups: Vec<usize>,
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
        // Summed in u128 so that no input overflows.
        let mb = |field: fn(&crate::model::Task) -> Option<u64>| -> u128 {
            tasks.iter().filter_map(|t| field(t)).map(u128::from).sum()
        };
        let ram = mb(|t| t.ram_mb);
        let disk = mb(|t| t.disk_mb);
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
        if let Some(capacity) = client.disk_mb {
            over("disk_mb", disk as f64, capacity as f64);
        }
    }
}

fn check_actives(state: &ClusterState, plan: &Plan, actives: &[usize], found: &mut Vec<Violation>) {
    for (task, &count) in state.tasks().iter().zip(actives) {
        if count == 0 && !state.clients().is_empty() {
            found.push(Violation::NoActive(task.id));
        } else if count > 1 {
            let owners = plan
                .clients
                .iter()
                .filter(|(_, cp)| cp.active.contains(&task.id))
                .map(|(id, _)| id.clone())
                .collect();
            found.push(Violation::ManyActives(task.id, owners));
        }
    }
}

/// Exactly `expected` standbys per stateful task or, when warm-ups stand
/// in, at most `expected` standbys and at least `expected` with warm-ups.
fn check_standby_count(
    state: &ClusterState,
    standbys: &[usize],
    stand_ins: Option<&[usize]>,
    found: &mut Vec<Violation>,
) {
    let replicas = state.config().num_standby_replicas as usize;
    let expected = replicas.min(state.clients().len().saturating_sub(1));
    for (p, task) in state.tasks().iter().enumerate().filter(|(_, t)| t.stateful) {
        let actual = standbys[p];
        if let Some(warmups) = stand_ins {
            let warmups = warmups[p];
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

/// The containers of a plan that has them: each on a client of the state,
/// holding only what its client holds in that role (a standby container may
/// copy stateless tasks, which are no replicas), each active in one
/// container, and every active of a client in one of its containers.
fn check_containers(state: &ClusterState, plan: &Plan, found: &mut Vec<Violation>) {
    if plan.containers.is_empty() {
        return;
    }
    let mut contained: BTreeSet<(&ClientId, TaskId)> = BTreeSet::new();
    for (name, container) in &plan.containers {
        let Some(cp) = plan.clients.get(&container.client) else {
            found.push(Violation::ContainerClient(
                name.clone(),
                container.client.clone(),
            ));
            continue;
        };
        for &t in &container.active {
            let fresh = contained.insert((&container.client, t));
            if !fresh || !cp.active.contains(&t) {
                found.push(Violation::ContainerTask(name.clone(), t));
            }
        }
        for &t in &container.standby {
            let held = match state.task(t) {
                None => false,
                Some(task) => !task.stateful || cp.standby.contains(&t),
            };
            if !held {
                found.push(Violation::ContainerTask(name.clone(), t));
            }
        }
    }
    for (id, cp) in &plan.clients {
        for &t in &cp.active {
            if !contained.contains(&(id, t)) {
                found.push(Violation::Uncontained(id.clone(), t));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assignor::{self, Assignor};
    use crate::model::{AssignmentConfig, Client, Task};

    /// Three stateful tasks on three clients with one standby each.
    fn state() -> ClusterState {
        let tasks = (0..3)
            .map(|p| Task::stateful(TaskId::new(0, p), 100))
            .collect();
        let clients = ["a", "b", "c"].map(|id| Client::new(id, 1)).to_vec();
        let config = AssignmentConfig {
            num_standby_replicas: 1,
            ..AssignmentConfig::default()
        };
        ClusterState::new(config, tasks, clients).expect("valid state")
    }

    /// A plan whose strategy name is misspelt (or unregistered) is held to
    /// the claims it is given, not to none: renaming the plan changes
    /// nothing, so a typo cannot weaken validation.
    #[test]
    fn a_misspelt_strategy_name_does_not_weaken_validation() {
        let state = state();
        let kip441 = &assignor::kip441::Kip441;
        let mut plan = kip441.assign(&state).expect("plan");
        plan.clients.values_mut().for_each(|c| c.standby.clear());
        let claims = kip441.info().claims;
        let expected = validate(&state, &plan, claims).unwrap_err();
        assert!(
            expected
                .iter()
                .all(|v| matches!(v, Violation::StandbyCount { actual: 0, .. })),
            "{expected:?}"
        );
        assert_eq!(expected.len(), 3);
        for name in ["kip44l", "KIP441", "", "no-such-strategy"] {
            plan.strategy = name.to_string();
            assert_eq!(
                validate(&state, &plan, claims),
                Err(expected.clone()),
                "{name}"
            );
        }
        // The baseline rules alone accept it, whatever the name says.
        plan.strategy = "kip441".to_string();
        assert_eq!(validate(&state, &plan, Claims::NONE), Ok(()));
    }

    /// A samza plan's containers hold what their clients hold; each broken
    /// link is named.
    #[test]
    fn containers_must_match_their_clients() {
        use crate::model::{ClientId, Container, ContainerId};
        let state = state();
        let samza = &assignor::samza::Samza;
        let plan = samza.assign(&state).expect("plan");
        assert_eq!(validate(&state, &plan, Claims::NONE), Ok(()));
        let (a, zero) = (ClientId::from("a"), ContainerId::from("0"));
        assert_eq!(plan.containers[&zero].client, a);

        let mut moved = plan.clone();
        moved.containers.get_mut(&zero).expect("container 0").client = ClientId::from("b");
        let found = validate(&state, &moved, Claims::NONE).unwrap_err();
        assert!(found.contains(&Violation::ContainerTask(zero.clone(), TaskId::new(0, 0))));
        assert!(found.contains(&Violation::Uncontained(a.clone(), TaskId::new(0, 0))));

        let mut stray = plan.clone();
        stray
            .containers
            .insert(ContainerId::from("9"), Container::on("nobody"));
        assert_eq!(
            validate(&state, &stray, Claims::NONE),
            Err(vec![Violation::ContainerClient(
                ContainerId::from("9"),
                ClientId::from("nobody")
            )])
        );
    }

    /// Every registered strategy's plan passes with its own claims.
    #[test]
    fn every_strategy_keeps_its_claims() {
        let state = state();
        for a in assignor::all() {
            let plan = a.assign(&state).expect("plan");
            assert_eq!(plan.strategy, a.info().name);
            assert_eq!(
                validate(&state, &plan, a.info().claims),
                Ok(()),
                "{}",
                a.info().name
            );
        }
    }
}
