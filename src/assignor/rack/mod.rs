//! KIP-925 rack-aware task assignment (Kafka 3.6's `RackAwareTaskAssignor`;
//! `docs/algorithms.md`, *KIP-925 rack awareness*), shared by `kip441` and
//! `sticky`.
//!
//! # What Kafka does
//! With `rack_aware_strategy` `min_traffic` or `balance_subtopology`, and
//! when every client and every task partition has a rack, the assignors
//! re-place tasks by a minimum-cost flow after their own balancing:
//!
//! `cost(t, k) = traffic_cost × [rack(k) ∉ racks(t)] + non_overlap_cost × [t not on k now]`
//!
//! - actives ([`optimize_active`]): one network over the given tasks and
//!   all clients; `min_traffic` keeps every client's count of those tasks,
//!   `balance_subtopology` keeps it too and caps each client's share of one
//!   subtopology at `⌈orig(k) · n_g / n⌉`;
//! - standbys ([`optimize_standby`]): at most 4 rounds over the client pairs
//!   `(i < j)` in different racks; for each, the standbys one holds and the
//!   other may take (it does not hold the task, and the standby assignor's
//!   `may_move_task` agrees — for tag-aware standbys, the task's tag diversity
//!   must not drop, [`tag_diversity_allows`]); when both directions have
//!   some, a two-client `min_traffic` network over them, costed on the
//!   changelog racks. Rounds stop early when one moves nothing.
//!
//! Defaults: `kip441` traffic 10 / non-overlap 1, `sticky` 1 / 10, and the
//! stateless pass 1 / 0 always ([`Costs`]).
//!
//! # What this port changes, and why
//! - **One rack set per task.** Kafka counts the task's partitions whose
//!   replicas miss the client's rack, `|{p ∈ P(t) : rack(k) ∉ racks(p)}|`.
//!   The model keeps one rack set per task (`racks` for the input
//!   partitions, `changelog_racks` for the changelogs), so the traffic term
//!   is `[rack(k) ∉ t.racks]` (or `changelog_racks` for standbys): 0 or 1.
//! - **Enabling conditions** ([`enablement`]): the strategy is not `none`,
//!   every client has a rack, every task has input racks and — when
//!   `num_standby_replicas > 0` — every stateful task has changelog racks.
//!   Kafka checks the same on consumers and partition metadata. Otherwise the
//!   optimisation is skipped and the plan's diagnostics give the reason.
//! - **Solver.** Kafka cancels negative cycles from the current placement
//!   (`balance_subtopology`: from an Edmonds–Karp max flow); this port runs
//!   successive shortest paths from zero flow (`crate::flow`). The optimum
//!   cost is the same; where several placements reach it, Java's choice is
//!   not reproduced byte for byte. To keep the port close
//!   to Kafka where it matters, every cost is scaled by `n + 1` and one unit
//!   is added for a task leaving its client: among the optimal placements the
//!   one moving the fewest tasks wins, so an input that is already optimal is
//!   kept unchanged, as cycle cancelling keeps it (this tie-break is dropped
//!   when the scaled costs could overflow, beyond about 16 000 tasks).
//!   `balance_subtopology` placements can differ from Kafka's even then
//!   (Kafka restarts from its max flow, not from the input).
//!
//! # Complexity
//! A cost depends only on the client's rack and on whether it is the task's
//! current client, so the active network is sparse (`routes`): each task has
//! an arc to its current client and one per rack into a shared hub:
//! `n · (R + 1) + C` arcs for `R` racks instead of Kafka's `n · C`. Successive
//! shortest paths then take one round per distinct path cost — a handful,
//! the costs being small — each O(E log V) plus a blocking flow (Kafka's
//! cycle cancelling is O(E² M U) with E = n · C). Standbys: at most
//! `4 · C² / 2` two-client problems, each solved without a network by
//! pairing the sorted gains of both sides (`min_traffic::place_pair`,
//! O(s log s) for the pair's `s` movable standbys; the same optimum as the
//! two-client network). Memory O(n · R + C).

#![warn(clippy::cast_possible_truncation)]

mod balance_subtopology;
mod min_traffic;
mod routes;
#[cfg(test)]
mod tests;

use std::collections::{BTreeMap, BTreeSet};

use crate::model::{AssignmentConfig, ClientIx, ClusterState, IxVec, RackAwareStrategy, TaskIx};

/// Kafka's `STANDBY_OPTIMIZER_MAX_ITERATION`.
pub const STANDBY_OPTIMIZER_MAX_ROUNDS: usize = 4;

/// The two KIP-925 cost weights.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Costs {
    /// Cost of a task on a client outside its racks.
    pub traffic: i64,
    /// Cost of a task not kept on its current client.
    pub non_overlap: i64,
}

impl Costs {
    /// `kip441`'s defaults (Kafka's HA assignor): traffic 10, non-overlap 1.
    pub const KIP441: Costs = Costs {
        traffic: 10,
        non_overlap: 1,
    };
    /// The legacy sticky assignor's defaults: traffic 1, non-overlap 10.
    pub const STICKY: Costs = Costs {
        traffic: 1,
        non_overlap: 10,
    };
    /// The stateless pass, whatever is configured: traffic 1, non-overlap 0.
    pub const STATELESS: Costs = Costs {
        traffic: 1,
        non_overlap: 0,
    };

    /// The configured costs, each falling back to `default`'s.
    pub fn configured(config: &AssignmentConfig, default: Costs) -> Costs {
        Costs {
            traffic: config
                .rack_aware_traffic_cost
                .map_or(default.traffic, i64::from),
            non_overlap: config
                .rack_aware_non_overlap_cost
                .map_or(default.non_overlap, i64::from),
        }
    }
}

/// Whether KIP-925 optimisation runs for a state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Enablement {
    /// `rack_aware_strategy` is `none`: nothing to do, nothing to say.
    Off,
    /// Asked for, but an enabling condition fails; the reason.
    Disabled(String),
    /// Asked for and possible.
    Enabled,
}

impl Enablement {
    /// Whether the optimisation runs.
    pub fn is_enabled(&self) -> bool {
        *self == Enablement::Enabled
    }

    /// The diagnostic a plan carries: the reason when disabled, else none.
    pub fn diagnostic(&self, state: &ClusterState) -> Option<String> {
        match self {
            Enablement::Disabled(reason) => Some(format!(
                "rack_aware_strategy {:?} was not applied: {reason}",
                state.config().rack_aware_strategy
            )),
            _ => None,
        }
    }
}

/// Kafka's `canEnableRackAwareAssignor`, on this model: the strategy is not
/// `none`, every client has a rack, every task has input racks, and with
/// standbys every stateful task has changelog racks. The first failing
/// condition (clients by id, then tasks by id) is the reason.
pub fn enablement(state: &ClusterState) -> Enablement {
    let config = state.config();
    if config.rack_aware_strategy == RackAwareStrategy::None {
        return Enablement::Off;
    }
    if let Some(c) = state.clients().iter().find(|c| c.rack.is_none()) {
        return Enablement::Disabled(format!("client {} has no rack", c.id.as_str()));
    }
    if let Some(t) = state.tasks().iter().find(|t| t.racks.is_empty()) {
        return Enablement::Disabled(format!("task {} has no input-partition racks", t.id));
    }
    if config.num_standby_replicas > 0 {
        let missing = state
            .tasks()
            .iter()
            .find(|t| t.stateful && t.changelog_racks.is_empty());
        if let Some(t) = missing {
            return Enablement::Disabled(format!(
                "stateful task {} has no changelog racks (needed with num_standby_replicas {})",
                t.id, config.num_standby_replicas
            ));
        }
    }
    Enablement::Enabled
}

/// What the optimisers need from an assignor's working placement, by typed
/// task and client positions in the [`ClusterState`]'s sorted lists: a task
/// passed where a client is expected does not compile.
pub trait RackWork {
    /// Number of clients.
    fn client_count(&self) -> usize;
    /// The client running `t` as active.
    fn active_owner(&self, t: TaskIx) -> Option<ClientIx>;
    /// Moves the active of `t` from `from` to `to` (which holds no copy of it).
    fn move_active(&mut self, t: TaskIx, from: ClientIx, to: ClientIx);
    /// The standbys on `c`, ascending.
    fn standbys(&self, c: ClientIx) -> Vec<TaskIx>;
    /// The clients holding `t` in any role, ascending.
    fn holders(&self, t: TaskIx) -> Vec<ClientIx>;
    /// Whether `c` holds `t` in any role.
    fn holds(&self, c: ClientIx, t: TaskIx) -> bool;
    /// Moves the standby of `t` from `from` to `to` (which holds no copy of it).
    fn move_standby(&mut self, t: TaskIx, from: ClientIx, to: ClientIx);
}

/// Plain per-client sets: the simplest [`RackWork`] (tests, callers holding a
/// plan).
#[cfg(test)]
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Sets {
    /// Actives per client.
    pub active: IxVec<ClientIx, BTreeSet<TaskIx>>,
    /// Standbys per client.
    pub standby: IxVec<ClientIx, BTreeSet<TaskIx>>,
}

#[cfg(test)]
impl Sets {
    /// The plan's actives and standbys (warm-ups count as standbys) by positions in `state`.
    pub fn from_plan(state: &ClusterState, plan: &crate::model::Plan) -> Sets {
        let pos = |id| state.task_ix(id).expect("plan task in state");
        let mut sets = Sets {
            active: IxVec::from_elem(BTreeSet::new(), state.clients().len()),
            standby: IxVec::from_elem(BTreeSet::new(), state.clients().len()),
        };
        for (c, client) in state.client_ixs().zip(state.clients()) {
            if let Some(cp) = plan.clients.get(&client.id) {
                sets.active[c] = cp.active.iter().map(|&t| pos(t)).collect();
                sets.standby[c] = cp
                    .standby
                    .iter()
                    .chain(&cp.warmup)
                    .map(|&t| pos(t))
                    .collect();
            }
        }
        sets
    }
}

#[cfg(test)]
impl RackWork for Sets {
    fn client_count(&self) -> usize {
        self.active.len()
    }
    fn active_owner(&self, t: TaskIx) -> Option<ClientIx> {
        self.active
            .iter_enumerated()
            .find(|(_, s)| s.contains(&t))
            .map(|(c, _)| c)
    }
    fn move_active(&mut self, t: TaskIx, from: ClientIx, to: ClientIx) {
        self.active[from].remove(&t);
        self.active[to].insert(t);
    }
    fn standbys(&self, c: ClientIx) -> Vec<TaskIx> {
        self.standby[c].iter().copied().collect()
    }
    fn holders(&self, t: TaskIx) -> Vec<ClientIx> {
        self.active
            .indices()
            .filter(|&c| self.holds(c, t))
            .collect()
    }
    fn holds(&self, c: ClientIx, t: TaskIx) -> bool {
        self.active[c].contains(&t) || self.standby[c].contains(&t)
    }
    fn move_standby(&mut self, t: TaskIx, from: ClientIx, to: ClientIx) {
        self.standby[from].remove(&t);
        self.standby[to].insert(t);
    }
}

/// The rack of client `c` (empty when unknown: then every task is cross-rack).
fn rack(state: &ClusterState, c: ClientIx) -> &str {
    state.clients()[c.index()].rack.as_deref().unwrap_or("")
}

/// Every client's rack as a class number (clients with the same rack share
/// one), for the sparse networks.
fn rack_classes(state: &ClusterState) -> IxVec<ClientIx, usize> {
    let mut number: BTreeMap<&str, usize> = BTreeMap::new();
    state
        .client_ixs()
        .map(|c| {
            let next = number.len();
            *number.entry(rack(state, c)).or_insert(next)
        })
        .collect()
}

/// Scaled costs: `base · (n + 1) + [leaves its client]`, or just `base` when
/// that could overflow (see the module doc). Task `i` is the `i`-th of the
/// network's `n` tasks, now on `current[i]`; `K` is how the network names a
/// client: a [`ClientIx`] in the active network over all clients, a side
/// (0 or 1) in a two-client standby network.
fn cost_fn<'a, K: Copy + PartialEq + 'a>(
    n: usize,
    costs: Costs,
    current: &'a [K],
    cross: impl Fn(usize, K) -> bool + 'a,
) -> impl Fn(usize, K) -> i64 + 'a {
    // At most MAX_TASKS tasks: far below i64::MAX.
    let scale = i64::try_from(n).map_or(i64::MAX, |n| n.saturating_add(1));
    let worst = (costs.traffic + costs.non_overlap).max(1);
    let tie_break = worst
        .checked_mul(scale)
        .and_then(|x| x.checked_mul(scale))
        .is_some_and(|x| x < i64::MAX / 4);
    move |i, k| {
        let stays = current[i] == k;
        let base = costs.traffic * i64::from(cross(i, k)) + costs.non_overlap * i64::from(!stays);
        if tie_break {
            base * scale + i64::from(!stays)
        } else {
            base
        }
    }
}

/// Kafka's `optimizeActiveTasks`: re-places the actives of `tasks`
/// (ascending, each with an active) over all clients with the network of
/// the configured strategy; a no-op with strategy `none`. Callers check
/// [`enablement`] first. Returns how many actives moved.
///
/// In the networks, task `i` is `tasks[i]` (a number of the network, not a
/// [`TaskIx`]) and the clients are the [`ClientIx`]s of the state.
pub fn optimize_active<W: RackWork>(
    state: &ClusterState,
    work: &mut W,
    tasks: &[TaskIx],
    costs: Costs,
) -> usize {
    let strategy = state.config().rack_aware_strategy;
    let m = work.client_count();
    if strategy == RackAwareStrategy::None || tasks.is_empty() || m == 0 {
        return 0;
    }
    let owners: Vec<ClientIx> = tasks
        .iter()
        .map(|&t| {
            work.active_owner(t)
                .expect("every optimised task has an active")
        })
        .collect();
    let cross = |i: usize, c: ClientIx| {
        !state.tasks()[tasks[i].index()]
            .racks
            .contains(rack(state, c))
    };
    let cost = cost_fn(tasks.len(), costs, &owners, cross);
    let class = rack_classes(state);
    let placed = match strategy {
        RackAwareStrategy::BalanceSubtopology => {
            let group: Vec<u32> = tasks
                .iter()
                .map(|&t| state.tasks()[t.index()].id.subtopology)
                .collect();
            balance_subtopology::place(tasks.len(), m, &group, &owners, &class, cost)
        }
        _ => min_traffic::place(tasks.len(), m, &owners, &class, cost),
    };
    let mut moved = 0;
    for (i, &t) in tasks.iter().enumerate() {
        if placed[i] != owners[i] {
            work.move_active(t, owners[i], placed[i]);
            moved += 1;
        }
    }
    moved
}

/// Kafka's `optimizeStandbyTasks`: up to [`STANDBY_OPTIMIZER_MAX_ROUNDS`]
/// rounds of pairwise two-client min-traffic networks on the changelog racks
/// (see the module doc). `may_move_task(work, src, dst, t)` is the standby
/// assignor's rule. Callers check [`enablement`] first. Returns how many
/// standbys moved.
pub fn optimize_standby<W: RackWork>(
    state: &ClusterState,
    work: &mut W,
    costs: Costs,
    may_move_task: impl Fn(&W, ClientIx, ClientIx, TaskIx) -> bool,
) -> usize {
    debug_assert_eq!(work.client_count(), state.clients().len());
    let clients: Vec<ClientIx> = state.client_ixs().collect();
    let mut total = 0;
    for _ in 0..STANDBY_OPTIMIZER_MAX_ROUNDS {
        let mut moved = 0;
        for (x, &i) in clients.iter().enumerate() {
            for &j in &clients[x + 1..] {
                let rack_of = |c: ClientIx| &state.clients()[c.index()].rack;
                let (ri, rj) = (rack_of(i), rack_of(j));
                if ri.is_none() || rj.is_none() || ri == rj {
                    continue;
                }
                moved += optimize_pair(state, work, costs, i, j, &may_move_task);
            }
        }
        total += moved;
        if moved == 0 {
            break;
        }
    }
    total
}

fn optimize_pair<W: RackWork>(
    state: &ClusterState,
    work: &mut W,
    costs: Costs,
    i: ClientIx,
    j: ClientIx,
    may_move_task: &impl Fn(&W, ClientIx, ClientIx, TaskIx) -> bool,
) -> usize {
    let movable = |from: ClientIx, to: ClientIx| -> Vec<TaskIx> {
        work.standbys(from)
            .into_iter()
            .filter(|&t| !work.holds(to, t) && may_move_task(work, from, to, t))
            .collect()
    };
    let (from_i, from_j) = (movable(i, j), movable(j, i));
    if from_i.is_empty() || from_j.is_empty() {
        return 0;
    }
    // (task, side): side 0 is `i`, 1 is `j`.
    let mut tasks: Vec<(TaskIx, usize)> = from_i
        .into_iter()
        .map(|t| (t, 0))
        .chain(from_j.into_iter().map(|t| (t, 1)))
        .collect();
    tasks.sort_unstable();
    let current: Vec<usize> = tasks.iter().map(|&(_, side)| side).collect();
    let pair = [i, j];
    let cross = |x: usize, k: usize| {
        !state.tasks()[tasks[x].0.index()]
            .changelog_racks
            .contains(rack(state, pair[k]))
    };
    let cost = cost_fn(tasks.len(), costs, &current, cross);
    let placed = min_traffic::place_pair(&current, cost);
    let mut moved = 0;
    for (x, &(t, side)) in tasks.iter().enumerate() {
        if placed[x] != side {
            work.move_standby(t, pair[side], pair[placed[x]]);
            moved += 1;
        }
    }
    moved
}

/// `ClientTagAwareStandbyTaskAssignor.isAllowedTaskMovement`: moving `t`'s
/// copy from `src` to `dst` must not reduce the number of distinct client
/// tags (key, value) over the task's holders (the others plus the moved copy).
pub fn tag_diversity_allows<W: RackWork>(
    state: &ClusterState,
    work: &W,
    src: ClientIx,
    dst: ClientIx,
    t: TaskIx,
) -> bool {
    let others: Vec<ClientIx> = work
        .holders(t)
        .into_iter()
        .filter(|&c| c != src && c != dst)
        .collect();
    let distinct = |extra: ClientIx| {
        let mut tags: BTreeSet<(&str, &str)> = BTreeSet::new();
        for &c in others.iter().chain([&extra]) {
            tags.extend(
                state.clients()[c.index()]
                    .tags
                    .iter()
                    .map(|(k, v)| (k.as_str(), v.as_str())),
            );
        }
        tags.len()
    };
    distinct(dst) >= distinct(src)
}

/// Cross-rack actives: for every task, `[rack(owner) ∉ racks]`, summed
/// (what the active optimiser minimises, before weighting).
#[cfg(test)]
pub fn cross_rack_actives<W: RackWork>(state: &ClusterState, work: &W) -> usize {
    state
        .task_ixs()
        .filter(|&t| {
            work.active_owner(t)
                .is_some_and(|c| !state.tasks()[t.index()].racks.contains(rack(state, c)))
        })
        .count()
}

/// Per-client counts of `tasks` active on each client (for checks).
#[cfg(test)]
pub fn active_counts<W: RackWork>(work: &W, tasks: &[TaskIx]) -> BTreeMap<ClientIx, usize> {
    let mut counts = BTreeMap::new();
    for &t in tasks {
        if let Some(c) = work.active_owner(t) {
            *counts.entry(c).or_default() += 1;
        }
    }
    counts
}
