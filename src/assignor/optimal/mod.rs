//! `optimal`: the minimum-restore-cost balanced assignment, computed exactly
//! by min-cost flow.
//!
//! This is a **yardstick for one rebalance**, not a real system: it reads
//! every lag, moves anything anywhere in one step and ignores what moving
//! costs beyond the records replayed. Heuristics (`kip441`, `sticky`, …) are
//! measured against it at each rebalance: no plan that meets the same share
//! bounds restores fewer records at that rebalance (see
//! [`crate::metrics::distance_to_optimal`]). Over a run it bounds nothing:
//! it has no warm-ups and no regard to later rebalances, so a strategy can
//! restore fewer records, or be less unavailable, over a whole run.
//!
//! # What it computes
//! - **Actives.** With `T` tasks and clients of capacities `k_c` (threads,
//!   `K = Σ k_c`), every client gets between `⌊T·k_c/K⌋` and `⌈T·k_c/K⌉`
//!   actives ([`share_bounds`]); among those assignments, one minimising the
//!   restore cost `Σ` over stateful actives of the lag on the chosen client
//!   (`running` → 0, no entry or `unknown` → the end offset; stateless tasks
//!   cost 0). `Σ⌊·⌋ ≤ T ≤ Σ⌈·⌉`, so such an assignment always exists.
//! - **Standbys.** `R = min(num_standby_replicas, clients − 1)` per stateful
//!   task, on `R` distinct clients other than the active's, with the same
//!   share rule over the standby total `S = R · stateful tasks`
//!   (`⌊S·k_c/K⌋ ..= ⌈S·k_c/K⌉`), minimising the standbys' restore records.
//!   Keeping standbys off their active's client can make the lower bounds
//!   unreachable (a client holding many actives may be unable to take its
//!   share of standbys); then the lower bounds are dropped, and if the upper
//!   bounds still cannot be met they are dropped too — never the standby
//!   count. A diagnostic says which relaxation was used. Standbys are placed
//!   after the actives, so the pair is optimal for actives first, standbys
//!   second, not jointly.
//! - No warm-ups and no follow-up rebalance: the plan is the target itself.
//!   KIP-925 rack optimisation is not applied (a diagnostic says so when asked).
//!
//! Both steps are bounded transportation problems solved by
//! [`crate::flow::FlowNetwork`] (network and overflow guard in `transport`):
//! exact integer costs; a state whose lags are too large for exact `i64`
//! arithmetic is refused with [`AssignError::Infeasible`] rather than
//! approximated. Deterministic: tasks and clients enter the network in their
//! sorted order and both solvers break ties by node and arc order.
//!
//! # Complexity
//! A task costs its end offset on every client without local state, so the
//! networks are sparse (`transport`): a task has an arc per client that
//! reported a lag, and one arc into a shared hub that reaches every client —
//! `O(T + C + L)` arcs for `L` lag entries, not `T · C`. A problem of up to
//! 2,000 units (actives, or standbys) is solved by successive shortest paths:
//! one round per distinct path cost, each O((T + L) log(T + C)) plus a
//! blocking flow. A larger one by cost scaling ([`crate::flow`]): at most
//! `⌈log₁₆((n + 1)·W)⌉` refines for `n = T + C + 4` nodes and `W` the largest
//! cost once each row's floor is subtracted, each O(n²·m) in the worst case
//! for `m = O(T + C + L)` arcs, and in practice a few pushes and relabels per
//! arc — independent of how many distinct costs there are, which is what
//! made successive shortest paths slow at scale (the whole plan for 10,000
//! tasks × 1,000 clients with three lag reports per task: 4.5 to 10 s
//! before, 0.07 to 0.19 s now; 100,000 × 1,000: over 300 s before, 1.7 to
//! 2.6 s now; `benches/README.md`). The hub's units are then split among
//! clients greedily in O((T·R + L) log C). Should the split get stuck (only
//! possible when banned or listed cells are in the way), the problem is
//! solved again on the dense `T · C` network, equally exact but slower.

#![warn(clippy::cast_possible_truncation)]

//! # Claims
//! `standby_count` (always `R` standbys per stateful task) and
//! `warmup_budget` (no warm-ups). Not `resource_capacity`: resource demands
//! are not read.

mod transport;

use crate::assignor::common;
use crate::assignor::share::share_bounds;
use crate::assignor::strategy::{AssignError, Assignor, Claims, LeaveBehaviour, StrategyInfo};
use crate::model::{
    Client, ClientIx, ClientPlan, ClusterState, Ix, IxVec, Lag, Plan, Task, TaskIx,
};

use transport::{Bounds, Row, TransportError};

/// The strategy's name.
const NAME: &str = "optimal";

/// The minimum-restore-cost balanced assignment (a yardstick for one
/// rebalance).
///
/// # Examples
/// Each client is caught up on one task, the wrong one for a naive round
/// robin: the plan gives each task to the client that restores nothing.
/// ```
/// use smoothscale::assignor::optimal::Optimal;
/// use smoothscale::{Assignor, AssignmentConfig, Client, ClientId, ClusterState, Lag, Task, TaskId};
///
/// let (t0, t1) = (TaskId::new(0, 0), TaskId::new(0, 1));
/// let tasks = vec![Task::stateful(t0, 1_000), Task::stateful(t1, 1_000)];
/// let clients = vec![
///     Client::new("a", 1).with_lag(t1, Lag::Running),
///     Client::new("b", 1).with_lag(t0, Lag::Records(10)),
/// ];
/// let state = ClusterState::new(AssignmentConfig::default(), tasks, clients).unwrap();
/// let plan = Optimal.assign(&state).unwrap();
/// assert!(plan.clients[&ClientId::new("a")].active.contains(&t1));
/// assert!(plan.clients[&ClientId::new("b")].active.contains(&t0));
/// assert_eq!(smoothscale::metrics::distance_to_optimal(&state, &plan), Ok(Some(0)));
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct Optimal;

static INFO: StrategyInfo = StrategyInfo {
    name: NAME,
    description: "yardstick: capacity-proportional actives and standbys placed by min-cost flow to restore the fewest records at each rebalance (exact; no warm-ups, blind to later rebalances)",
    claims: Claims {
        standby_count: true,
        warmup_budget: true,
        resource_capacity: false,
        warmups_stand_in: false,
    },
    leave: LeaveBehaviour::Immediate,
};

impl Assignor for Optimal {
    fn info(&self) -> &'static StrategyInfo {
        &INFO
    }

    fn assign(&self, state: &ClusterState) -> Result<Plan, AssignError> {
        let clients = state.clients();
        let mut plan = common::plan_of(state, NAME, std::iter::repeat(ClientPlan::default()));
        plan.diagnostics.extend(common::rack_awareness_not_applied(
            state,
            "optimal minimises restore cost only and ignores racks",
        ));
        if clients.is_empty() {
            return Ok(plan);
        }
        let listed = listed_costs(state);
        let owners = place_actives(state, &listed)?;
        for (task, &c) in state.tasks().iter().zip(&owners) {
            client_plan(&mut plan, &clients[c.index()])
                .active
                .insert(task.id);
        }
        let (standbys, note) = place_standbys(state, &owners, listed)?;
        plan.diagnostics.extend(note);
        for (task, holders) in standbys {
            for c in holders {
                client_plan(&mut plan, &clients[c.index()])
                    .standby
                    .insert(task.id);
            }
        }
        Ok(plan)
    }
}

/// The minimum active restore cost over assignments meeting the share
/// bounds (what [`Optimal`]'s plan restores), or `None` when there are no
/// clients or the lags are too large for the exact solver.
pub(crate) fn min_active_restore_cost(state: &ClusterState) -> Option<u64> {
    if state.clients().is_empty() {
        return None;
    }
    let owners = place_actives(state, &listed_costs(state)).ok()?;
    Some(
        state
            .tasks()
            .iter()
            .zip(owners)
            .map(|(task, c)| restore(state, &state.clients()[c.index()], task))
            .fold(0u64, u64::saturating_add),
    )
}

fn client_plan<'p>(plan: &'p mut Plan, client: &Client) -> &'p mut ClientPlan {
    plan.clients
        .get_mut(&client.id)
        .expect("the plan lists every client of the state")
}

/// Records `client` replays to run (or mirror) `task`: the lag for a stateful
/// task (`running` → 0, unknown or missing → the end offset), 0 for a
/// stateless one.
fn restore(state: &ClusterState, client: &Client, task: &Task) -> u64 {
    restore_at(task, state.lag(client, task))
}

/// Records replayed for `task` at `lag`: 0 for a stateless task.
fn restore_at(task: &Task, lag: Lag) -> u64 {
    if task.stateful {
        lag.restore_records(task.end_offset)
    } else {
        0
    }
}

/// What a task costs on a client without local state: its end offset if
/// stateful, else 0.
fn default_cost(task: &Task) -> u64 {
    restore_at(task, Lag::Unknown)
}

/// For every task, the clients (ascending) where
/// its restore cost differs from [`default_cost`], with that cost: the
/// clients that reported a lag below (or above) the end offset. O(lag
/// entries).
fn listed_costs(state: &ClusterState) -> Listed {
    let tasks = state.tasks();
    let mut cells = IxVec::from_elem(Vec::new(), tasks.len());
    for (c, client) in state.client_ixs().zip(state.clients()) {
        for (&id, &lag) in &client.lags {
            let Some(r) = state.task_ix(id) else {
                continue;
            };
            let task = &tasks[r.index()];
            let cost = restore_at(task, lag);
            if cost != default_cost(task) {
                cells[r].push((c, Some(cost)));
            }
        }
    }
    cells
}

fn too_costly(what: &str, spread: u64) -> AssignError {
    AssignError::Infeasible(format!(
        "optimal: {what} restore costs too large for exact min-cost flow in i64 (per-task lag spreads sum to {spread} records)"
    ))
}

/// The client of every task's active, given the [`listed_costs`].
fn place_actives(
    state: &ClusterState,
    listed: &Listed,
) -> Result<IxVec<TaskIx, ClientIx>, AssignError> {
    let tasks = state.tasks();
    let bounds: Bounds<ClientIx> = IxVec::from_raw(share_bounds(state, tasks.len()));
    let rows: IxVec<TaskIx, Row<ClientIx>> = tasks
        .iter()
        .zip(listed)
        .map(|(task, cells)| Row {
            supply: 1,
            default: default_cost(task),
            cells: cells.clone(),
        })
        .collect();
    let placed = transport::solve(&rows, &bounds).map_err(|e| match e {
        TransportError::TooCostly { spread } => too_costly("active", spread),
        TransportError::Infeasible => AssignError::Internal {
            strategy: NAME,
            message: "the active share bounds admit no assignment".into(),
        },
    })?;
    placed
        .into_iter()
        .map(|cols| match cols.as_slice() {
            [c] => Ok(*c),
            _ => Err(AssignError::Internal {
                strategy: NAME,
                message: format!("a task got {} actives from the flow", cols.len()),
            }),
        })
        .collect()
}

/// The clients where a task's restore cost differs from its default, with
/// that cost (`None`: banned), per task.
type Listed = IxVec<TaskIx, Vec<(ClientIx, Option<u64>)>>;

/// Standby holders of stateful tasks.
type Standbys<'s> = Vec<(&'s Task, Vec<ClientIx>)>;

/// The position of a task among the stateful ones (a standby row).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct StatefulIx(u32);

impl Ix for StatefulIx {
    fn index(self) -> usize {
        self.0 as usize
    }
    fn from_raw(raw: u32) -> Self {
        StatefulIx(raw)
    }
}

const LOWER_RELAXED: &str = "optimal: standby share lower bounds relaxed (not every client can take its share of standbys while standbys stay off their active's client)";
const BOUNDS_DROPPED: &str = "optimal: standby share bounds dropped (no placement keeps standbys off their active's client within the shares)";

/// The standby holders (client positions) of every stateful task, given the
/// actives' clients `owners` (in task order) and the [`listed_costs`], and a
/// note when the share bounds had to be relaxed.
fn place_standbys<'s>(
    state: &'s ClusterState,
    owners: &IxVec<TaskIx, ClientIx>,
    listed: Listed,
) -> Result<(Standbys<'s>, Option<String>), AssignError> {
    let clients = state.clients();
    let replicas = (state.config().num_standby_replicas as usize).min(clients.len() - 1);
    // Stateful tasks, and a row for each: the listed costs, the active's
    // client banned.
    let mut stateful = Vec::new();
    let mut rows = IxVec::<StatefulIx, Row<ClientIx>>::new();
    for ((task, &owner), mut cells) in state.tasks().iter().zip(owners).zip(listed) {
        if !task.stateful {
            continue;
        }
        match cells.binary_search_by_key(&owner, |&(c, _)| c) {
            Ok(i) => cells[i].1 = None,
            Err(i) => cells.insert(i, (owner, None)),
        }
        stateful.push(task);
        rows.push(Row {
            supply: replicas,
            default: default_cost(task),
            cells,
        });
    }
    if replicas == 0 || stateful.is_empty() {
        return Ok((Vec::new(), None));
    }
    let total = replicas * stateful.len();
    let shares: Bounds<ClientIx> = IxVec::from_raw(share_bounds(state, total));
    let attempts: [(Bounds<ClientIx>, Option<&str>); 3] = [
        (shares.clone(), None),
        (
            shares.iter().map(|&(_, hi)| (0, hi)).collect(),
            Some(LOWER_RELAXED),
        ),
        (
            IxVec::from_elem((0, total), clients.len()),
            Some(BOUNDS_DROPPED),
        ),
    ];
    for (bounds, note) in attempts {
        match transport::solve(&rows, &bounds) {
            Ok(placed) => {
                let standbys = stateful.into_iter().zip(placed).collect();
                return Ok((standbys, note.map(String::from)));
            }
            Err(TransportError::TooCostly { spread }) => return Err(too_costly("standby", spread)),
            Err(TransportError::Infeasible) => continue,
        }
    }
    // Every task has clients − 1 ≥ R allowed clients, one standby each: the
    // unbounded problem is always feasible.
    Err(AssignError::Internal {
        strategy: NAME,
        message: "no standby placement found without share bounds".into(),
    })
}
