//! `samza`: Apache Samza's stateful configuration with host affinity on —
//! `GroupByContainerCount` with its balance step, preferred-host placement
//! and hot-standby containers (SEP-19). The algorithm and this port's
//! mapping are in `docs/algorithms.md`, *samza*.
//!
//! # What Samza does
//! Two levels (`docs/algorithms.md`, *Samza: two levels*). Level 1 groups
//! tasks into logical containers `0..N−1`: with host affinity on,
//! `GroupByContainerCount` keeps the previous task → container mapping and,
//! when `N` changes, moves only the tasks of containers above their new
//! quota (an even share, the remainder one each to the lowest ids), largest
//! task names first, into the containers below quota, lowest ids first
//! (*Samza: balance*). Task names sort as strings. With a replication factor
//! `R > 1`, every active container `i` gets `R − 1` standby containers
//! `i-0 … i-(R−2)` holding standbys of all its tasks (`StandbyTaskUtil`), so
//! the job runs `N · R` containers. Level 2 asks the cluster manager for each
//! container on the host it last ran on and takes any host when that request
//! expires (*Samza: host affinity*); a host runs as many containers as its
//! resources allow. No two containers of one family (an active container and
//! its standby containers) run on one host, nor, with the opt-in
//! `cluster-manager.fault-domain-aware.standby.enabled`, in one fault domain
//! (rack); a container whose host is lost fails over to the host of one of
//! its standby containers (*Samza: standby containers*). Nothing reads lag: a
//! moved task restores its store in full (*Samza: state and restore*).
//!
//! # What this port keeps
//! A client is a host resource that runs containers; a plan is derived from
//! the containers: each client's actives are the tasks of the active
//! containers it runs, its standbys the stateful tasks of the standby
//! containers it runs.
//! 1. **Task order**: each `TaskId` is rendered as its name `S_P` and the
//!    names are sorted as strings, so `0_10` comes before `0_2` and `10_0`
//!    before `1_0`, as Samza's `Partition 10` comes before `Partition 2`.
//! 2. **Container count**: one active container per client,
//!    `N = min(C, T)` (the job sized to its hosts), and with
//!    `R = num_standby_replicas + 1`, `min(R − 1, C − 1)` standby containers
//!    per active container: `N · R` containers in all, so a fresh layout runs
//!    one active container and `R − 1` standby containers on every client.
//!    Samza rejects `T < N`; here `N` is capped at `T` and a diagnostic says
//!    so. A job without a stateful task takes `R = 1`.
//! 3. **Previous mapping**: the model keeps no container ids, so the previous
//!    layout is derived from the clients' previous assignment each run (the
//!    exact rules are in `previous.rs`): every live client that ran actives
//!    is a previous active container; tasks whose client is gone form
//!    departed containers (told apart through the clients that mirrored
//!    them, else one group); ids go to the live containers largest first,
//!    ties by client id, then to the departed ones; the clients holding a
//!    container's tasks as standbys are its previous standby containers,
//!    fullest first. For any grouping Samza produced this reproduces the
//!    quota profile of its persisted ids, hence its move count. The model
//!    cannot tell a crash from a graceful leave: a client that is gone lowers
//!    the count (Samza on YARN would keep `N` and restart the container
//!    elsewhere); when a client replaces it (count unchanged) the departed
//!    container stays whole and fails over.
//! 4. **Balance** (`GroupByContainerCount`'s `balance`) exactly, including
//!    its fallbacks to round-robin (fewer than two previous containers, or
//!    `N = 1`) and keeping a previous grouping of the same count unchanged
//!    even when it is unbalanced. Samza also falls back when the task set
//!    changed; the model cannot tell a new task from one of a departed
//!    client, so new tasks join the last departed group and are spilled from
//!    there.
//! 5. **Placement** (host affinity, failover and standby containers;
//!    `placement.rs`): an active container goes back to the client that ran
//!    it; a departed one fails over to the client of its first standby
//!    container (which then runs two active containers, as in Samza); a new
//!    one goes to the client running the fewest active containers. Standby
//!    containers go back to the clients that held them when no member of
//!    their family is on that host; the rest go to the client running the
//!    fewest containers apart from the family, ties by the client following
//!    the active's soonest in id order. The host of a client is its `host`,
//!    or the client itself when it has none. The fault-domain (rack) rule is
//!    Samza's opt-in: on when `rack_aware_assignment_tags` is set (the
//!    configuration's one switch for spreading standbys over failure
//!    domains), between two clients that both state a rack.
//!
//! Deviation: the model allows standbys of stateful tasks only, so a standby
//! container mirrors only the stateful tasks of its active container (Samza
//! replicates every task), and a container without a stateful task gets no
//! standby container.
//!
//! # What it ignores
//! Lag (no caught-up check anywhere, as in Samza), warm-ups and probing
//! rebalances (never planned), client capacity (threads), cpu and memory,
//! client tags (but for the opt-in above) and the KIP-925 settings.
//!
//! # Complexity
//! With T tasks, C clients, P entries in all previous sets, S = N·R
//! containers: O(T log T) string comparisons for the task order,
//! O(T log T + P log P) to derive the previous layout, O(T) for the balance,
//! O(S · C · R) for the placement (a scan of the clients per container, each
//! fit checking one family).
//!
//! # Claims
//! - Every task has exactly one active while a client exists; no client
//!   holds a task twice (members of one family never share a client).
//! - With at least as many tasks as clients and no departed container kept
//!   (a fresh start, or every previous container's client still there, or a
//!   count that drops every departed container), every client runs an
//!   active container.
//! - Standbys only of stateful tasks, never on the host of their active or of
//!   another standby of the same task, nor, with fault domains on, on its
//!   rack when both clients state one.
//! - When every client has a host of its own and fault domains are off (or
//!   no two clients share a rack), every stateful task has
//!   `min(num_standby_replicas, C − 1)` standbys.
//! - No warm-ups, no follow-up rebalance; lags change nothing.
//! - When only the container count changes after a plan of this strategy,
//!   the moved tasks are exactly Σ max(0, previous − new quota) over the
//!   previous containers (a departed client's tasks all move), and the
//!   result is balanced. With the count unchanged, a task whose previous
//!   client still exists stays on it, and a plan fed back is kept.
//! - The same input gives the same plan.
//!
//! Not claimed in general: `min(num_standby_replicas, C − 1)` standbys per
//! task. A standby container with no client on another host (or rack) stays
//! unplaced, as Samza's request would keep waiting; a diagnostic names it.

#![warn(clippy::cast_possible_truncation)]

mod container;
mod grouping;
mod placement;
mod positions;
mod previous;

#[cfg(test)]
mod tests;

use crate::model::ix::positions;
use crate::model::{ClientIx, ClientPlan, ClusterState, IxVec, Plan};

use super::{AssignError, Assignor, Claims, LeaveBehaviour, StrategyInfo};
use placement::{Hosts, Request};
use positions::SlotIx;
use previous::Previous;

/// Samza's `GroupByContainerCount` with host affinity and hot standbys.
///
/// # Examples
/// Six tasks on three fresh clients with one standby: every client runs an
/// active container of two tasks and the standby container of the client
/// before it.
/// ```
/// use smoothscale::assignor::samza::Samza;
/// use smoothscale::{Assignor, AssignmentConfig, Client, ClientId, ClusterState, Task, TaskId};
///
/// let tasks = (0..6).map(|p| Task::stateful(TaskId::new(0, p), 1_000)).collect();
/// let clients = ["a", "b", "c"].map(|id| Client::new(id, 1)).to_vec();
/// let config = AssignmentConfig { num_standby_replicas: 1, ..AssignmentConfig::default() };
/// let state = ClusterState::new(config, tasks, clients).unwrap();
/// let plan = Samza.assign(&state).unwrap();
/// assert!(plan.clients.values().all(|c| c.active.len() == 2 && c.standby.len() == 2));
/// let (a, b) = (ClientId::from("a"), ClientId::from("b"));
/// assert_eq!(plan.clients[&b].standby, plan.clients[&a].active);
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct Samza;

static INFO: StrategyInfo = StrategyInfo {
    name: "samza",
    description: "Samza-style: one active container per client, container-count grouping that keeps the previous mapping and moves the fewest tasks, host affinity, standby containers on other hosts; lag-unaware",
    claims: Claims {
        standby_count: false,
        warmup_budget: true,
        resource_capacity: false,
        warmups_stand_in: false,
    },
    leave: LeaveBehaviour::Immediate,
};

impl Assignor for Samza {
    fn info(&self) -> &'static StrategyInfo {
        &INFO
    }

    fn assign(&self, state: &ClusterState) -> Result<Plan, AssignError> {
        let clients = state.clients().len();
        let tasks = state.tasks().len();
        let mut per_client = IxVec::from_elem(ClientPlan::default(), clients);
        let mut diagnostics = Vec::new();
        if clients > 0 && tasks > 0 {
            place(state, &mut per_client, &mut diagnostics);
        }
        Ok(Plan {
            diagnostics,
            ..super::plan_of(state, self.info().name, per_client)
        })
    }
}

/// The container counts of a state with at least one client and one task.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Counts {
    /// Active containers `N`.
    slots: usize,
    /// Standby containers per active container.
    replicas: usize,
}

impl Counts {
    fn of(state: &ClusterState, diagnostics: &mut Vec<String>) -> Counts {
        let clients = state.clients().len();
        let tasks = state.tasks().len();
        let wanted = if state.tasks().iter().any(|t| t.stateful) {
            state.config().num_standby_replicas as usize
        } else {
            0
        };
        if clients > tasks {
            diagnostics.push(format!(
                "{clients} clients but only {tasks} tasks: {tasks} active containers, {} clients run none",
                clients - tasks
            ));
        }
        let replicas = wanted.min(clients - 1);
        if replicas < wanted {
            let factor = wanted.saturating_add(1);
            diagnostics.push(format!(
                "replication factor {factor} needs {factor} clients per container, only {clients}: {replicas} standby containers per active container"
            ));
        }
        Counts {
            slots: clients.min(tasks),
            replicas,
        }
    }
}

/// Levels 1 and 2 for a state with at least one client and one task.
fn place(
    state: &ClusterState,
    per_client: &mut IxVec<ClientIx, ClientPlan>,
    diagnostics: &mut Vec<String>,
) {
    let tasks = state.tasks();
    let order = grouping::name_order(state);
    let rank = grouping::ranks(&order);
    let counts = Counts::of(state, diagnostics);
    let previous = Previous::derive(state, &rank);
    let groups = grouping::balance(&previous.groups, tasks.len(), counts.slots);
    let task_of = |r: &positions::Rank| &tasks[order[*r].index()];

    let slots = || positions::<SlotIx>(counts.slots);
    let request = Request {
        slots: counts.slots,
        replicas: groups
            .iter()
            .map(|g| {
                let stateful = g.iter().any(|r| task_of(r).stateful);
                if stateful {
                    counts.replicas
                } else {
                    0
                }
            })
            .collect(),
        active: slots()
            .map(|i| previous.client.get(i).copied().flatten())
            .collect(),
        standby: slots()
            .map(|i| previous.standbys.get(i).cloned().unwrap_or_default())
            .collect(),
    };
    let layout = placement::bind(&Hosts::of(state), &request);
    diagnostics.extend(layout.notes.iter().cloned());

    for (container, c) in layout.containers() {
        let group = groups[container.slot].iter().map(task_of);
        match container.standby {
            None => per_client[c].active.extend(group.map(|t| t.id)),
            Some(_) => per_client[c]
                .standby
                .extend(group.filter(|t| t.stateful).map(|t| t.id)),
        }
    }
}
