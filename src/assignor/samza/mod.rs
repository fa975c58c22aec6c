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
//! containers it runs. The plan lists the containers themselves
//! ([`Plan::containers`]: name, client, tasks), and the next state carries
//! them back ([`ClusterState::previous_containers`]) as Samza's coordinator
//! stream carries its task → container mapping and each container's host.
//! 1. **Task order**: each `TaskId` is rendered as its name `S_P` and the
//!    names are sorted as strings, so `0_10` comes before `0_2` and `10_0`
//!    before `1_0`, as Samza's `Partition 10` comes before `Partition 2`.
//! 2. **Container count**: one active container per client, `N = C` (the
//!    job sized to its hosts), and with `R = num_standby_replicas + 1`,
//!    `min(R − 1, C − 1)` standby containers per active container, for
//!    every container whether its tasks are stateful or not (Samza mirrors
//!    them all): `N · R` containers in all, so a fresh layout runs one active
//!    container and `R − 1` standby containers on every client. More clients
//!    than tasks is [`AssignError::Infeasible`]: Samza refuses a container
//!    count larger than the task count.
//! 3. **Previous mapping** (`records.rs`): the task → container mapping of
//!    the previous active containers, by container id, exactly as Samza
//!    reads it back, whatever clients have left since. Samza's balance
//!    takes it only when it names exactly the state's tasks and containers
//!    `0 … k−1`; otherwise (a task added or removed, other ids) the tasks are
//!    grouped round robin, with a diagnostic. Without any record (a state
//!    from another strategy or written by hand) the mapping is derived from
//!    the clients' previous assignment (`previous.rs`), which recovers the
//!    size profile of Samza's numbering but not the ids themselves.
//! 4. **Balance** (`GroupByContainerCount`'s `balance`) exactly: when the
//!    count drops, the highest container ids go, each spilling its tasks in
//!    descending name order, container by container; the containers below
//!    their quota take them in id order. It falls back to round robin with
//!    fewer than two previous containers or `N = 1`, and keeps a previous
//!    grouping of the same count unchanged even when it is unbalanced.
//! 5. **Placement** (host affinity, failover and standby containers;
//!    `placement.rs`): an active container goes back to the client it last
//!    ran on, by container id; one whose client is gone (a lost low id kept
//!    by the new count, while the highest ids were dropped) fails over to
//!    the client of its first standby container (which then runs two active
//!    containers, as in Samza), else goes to the client running the fewest
//!    active containers, like a new one. Standby containers go back to their
//!    clients when no member of their family is on that host; the rest go
//!    to the client running the fewest containers apart from the family,
//!    ties by the client following the active's soonest in id order. The
//!    host of a client is its `host`, or the client itself when it has none.
//!    Samza's fault-domain rule (no two members of a family on one rack,
//!    between clients that both state one) is opt-in, as in Samza:
//!    `samza_fault_domain_aware_standby` in the configuration.
//!
//! Where the port differs, and why:
//! - The model cannot tell a crash from a graceful leave: a client that is
//!   gone lowers the count, so the highest container ids go and a lost low
//!   id restarts elsewhere; Samza on YARN keeps `N` (the job's
//!   `job.container.count`) and restarts the lost container alone.
//! - The model keeps standby replicas of stateful tasks only: a standby
//!   container lists every task of its active container (its record in
//!   [`Plan::containers`]), but only the stateful ones are standbys in its
//!   client's plan; a stateless task has no store to keep warm.
//! - Where Samza takes whatever host the cluster manager hands out, the
//!   port takes the least-loaded client (above), a deterministic choice.

//! # What it ignores
//! Lag (no caught-up check anywhere, as in Samza), warm-ups and probing
//! rebalances (never planned), client capacity (threads), cpu and memory,
//! client tags, `rack_aware_assignment_tags` and the KIP-925 settings.
//!
//! # Complexity
//! With T tasks, C clients, P entries in all previous sets or records,
//! S = N·R containers: O(T log T) string comparisons for the task order,
//! O(T log T + P log P) to read or derive the previous layout, O(T) for the
//! balance, and for the placement O(C log C) to index the clients by load,
//! O(log C) per active container and O(R log R + K log C) per standby
//! container, where K counts the clients skipped for sharing a host (or,
//! with fault domains, a rack) with its family; O(T log T) to write the
//! containers.
//!
//! # Claims
//! - Every task has exactly one active while a client exists; no client
//!   holds a task twice (members of one family never share a client).
//! - With no more clients than tasks, every client runs an active container
//!   unless a departed container failed over to a client that already runs
//!   one; with more, the plan is refused.
//! - Standbys only of stateful tasks, never on the host of their active or of
//!   another standby of the same task, nor, with fault domains on, on its
//!   rack when both clients state one.
//! - When every client has a host of its own and fault domains are off (or
//!   no two clients share a rack), every stateful task has
//!   `min(num_standby_replicas, C − 1)` standbys.
//! - No warm-ups, no follow-up rebalance; lags change nothing.
//! - When only the container count changes after a plan of this strategy
//!   fed back with its containers, the moved tasks are exactly
//!   Σ max(0, previous − new quota) over the previous containers, plus the
//!   tasks of every kept container whose client is gone and that fails over
//!   to no client holding it; the result is balanced. With the count
//!   unchanged, every container whose client is still there stays on it,
//!   and a plan fed back is kept.
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
mod records;

#[cfg(test)]
mod tests;

use std::collections::BTreeMap;

use crate::assignor::common::plan_of;
use crate::assignor::strategy::{AssignError, Assignor, Claims, LeaveBehaviour, StrategyInfo};
use crate::model::ix::positions;
use crate::model::{ClientIx, ClientPlan, ClusterState, Container, ContainerId, IxVec, Plan, Task};

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
        let containers = if clients > 0 && tasks > 0 {
            place(state, &mut per_client, &mut diagnostics)?
        } else {
            BTreeMap::new()
        };
        Ok(Plan {
            diagnostics,
            containers,
            ..plan_of(state, self.info().name, per_client)
        })
    }
}

/// The container counts of a state with at least one client and one task.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Counts {
    /// Active containers `N`: one per client.
    slots: usize,
    /// Standby containers per active container.
    replicas: usize,
}

impl Counts {
    /// `N = C` active containers, each with `min(R − 1, C − 1)` standby
    /// containers. More containers than tasks is refused, as Samza's
    /// `GroupByContainerCount` refuses it.
    fn of(state: &ClusterState, diagnostics: &mut Vec<String>) -> Result<Counts, AssignError> {
        let clients = state.clients().len();
        let tasks = state.tasks().len();
        if clients > tasks {
            return Err(AssignError::Infeasible(format!(
                "samza runs one active container per client: {clients} containers for {tasks} tasks, and Samza's GroupByContainerCount refuses more containers than tasks"
            )));
        }
        let wanted = state.config().num_standby_replicas as usize;
        let replicas = wanted.min(clients - 1);
        if replicas < wanted {
            let factor = wanted.saturating_add(1);
            diagnostics.push(format!(
                "replication factor {factor} needs {factor} clients per container, only {clients}: {replicas} standby containers per active container"
            ));
        }
        Ok(Counts {
            slots: clients,
            replicas,
        })
    }
}

/// Levels 1 and 2 for a state with at least one client and one task: the
/// clients' shares and the containers.
fn place(
    state: &ClusterState,
    per_client: &mut IxVec<ClientIx, ClientPlan>,
    diagnostics: &mut Vec<String>,
) -> Result<BTreeMap<ContainerId, Container>, AssignError> {
    let tasks = state.tasks();
    let order = grouping::name_order(state);
    let rank = grouping::ranks(&order);
    let counts = Counts::of(state, diagnostics)?;
    let previous = records::read(state, &rank, counts, diagnostics)
        .unwrap_or_else(|| Previous::derive(state, &rank));
    let groups = grouping::balance(&previous.groups, tasks.len(), counts.slots);
    let task_of = |r: &positions::Rank| &tasks[order[*r].index()];

    let slots = || positions::<SlotIx>(counts.slots);
    let request = Request {
        slots: counts.slots,
        replicas: slots().map(|_| counts.replicas).collect(),
        active: slots()
            .map(|i| previous.client.get(i).copied().flatten())
            .collect(),
        lost: slots()
            .map(|i| previous.lost.get(i).copied().unwrap_or(false))
            .collect(),
        standby: slots()
            .map(|i| previous.standbys.get(i).cloned().unwrap_or_default())
            .collect(),
    };
    let layout = placement::bind(&Hosts::of(state), &request);
    diagnostics.extend(layout.notes.iter().cloned());

    let mut containers = BTreeMap::new();
    for (member, c) in layout.containers() {
        let group = groups[member.slot].iter().map(task_of);
        let mut container = Container::on(state.clients()[c.index()].id.clone());
        match member.standby {
            None => {
                container.active.extend(group.map(|t| t.id));
                per_client[c]
                    .active
                    .extend(container.active.iter().copied());
            }
            Some(_) => {
                let group: Vec<&Task> = group.collect();
                container.standby.extend(group.iter().map(|t| t.id));
                per_client[c]
                    .standby
                    .extend(group.iter().filter(|t| t.stateful).map(|t| t.id));
            }
        }
        containers.insert(member.id(), container);
    }
    Ok(containers)
}
