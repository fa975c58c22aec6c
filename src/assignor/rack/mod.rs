//! KIP-925 rack-aware task assignment (Kafka 3.6's `RackAwareTaskAssignor`,
//! kip441-spec §2.10), shared by `kip441` and `sticky`.
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
//!   not reproduced byte for byte (spec §2.10 note). To keep the port close
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

mod balance_subtopology;
mod min_traffic;
mod routes;
#[cfg(test)]
mod tests;

use std::collections::{BTreeMap, BTreeSet};

use crate::model::{AssignmentConfig, ClusterState, RackAwareStrategy};

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

/// What the optimisers need from an assignor's working placement, by task
/// and client positions in the [`ClusterState`]'s sorted lists.
pub trait RackWork {
    /// Number of clients.
    fn client_count(&self) -> usize;
    /// The client running `t` as active.
    fn active_owner(&self, t: usize) -> Option<usize>;
    /// Moves the active of `t` from `from` to `to` (which holds no copy of it).
    fn move_active(&mut self, t: usize, from: usize, to: usize);
    /// The standbys on `c`, ascending.
    fn standbys(&self, c: usize) -> Vec<usize>;
    /// The clients holding `t` in any role, ascending.
    fn holders(&self, t: usize) -> Vec<usize>;
    /// Whether `c` holds `t` in any role.
    fn holds(&self, c: usize, t: usize) -> bool;
    /// Moves the standby of `t` from `from` to `to` (which holds no copy of it).
    fn move_standby(&mut self, t: usize, from: usize, to: usize);
}

/// Plain per-client sets: the simplest [`RackWork`] (tests, callers holding a
/// plan).
#[cfg(test)]
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Sets {
    /// Actives per client position.
    pub active: Vec<BTreeSet<usize>>,
    /// Standbys per client position.
    pub standby: Vec<BTreeSet<usize>>,
}

#[cfg(test)]
impl Sets {
    /// The plan's actives and standbys (warm-ups count as standbys) by positions in `state`.
    pub fn from_plan(state: &ClusterState, plan: &crate::model::Plan) -> Sets {
        let pos = |id| state.task_position(id).expect("plan task in state");
        let mut sets = Sets {
            active: vec![BTreeSet::new(); state.clients().len()],
            standby: vec![BTreeSet::new(); state.clients().len()],
        };
        for (c, client) in state.clients().iter().enumerate() {
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
    fn active_owner(&self, t: usize) -> Option<usize> {
        self.active.iter().position(|s| s.contains(&t))
    }
    fn move_active(&mut self, t: usize, from: usize, to: usize) {
        self.active[from].remove(&t);
        self.active[to].insert(t);
    }
    fn standbys(&self, c: usize) -> Vec<usize> {
        self.standby[c].iter().copied().collect()
    }
    fn holders(&self, t: usize) -> Vec<usize> {
        (0..self.active.len())
            .filter(|&c| self.holds(c, t))
            .collect()
    }
    fn holds(&self, c: usize, t: usize) -> bool {
        self.active[c].contains(&t) || self.standby[c].contains(&t)
    }
    fn move_standby(&mut self, t: usize, from: usize, to: usize) {
        self.standby[from].remove(&t);
        self.standby[to].insert(t);
    }
}

/// The rack of client `k` (empty when unknown: then every task is cross-rack).
fn rack(state: &ClusterState, k: usize) -> &str {
    state.clients()[k].rack.as_deref().unwrap_or("")
}

/// Every client's rack as a class number (clients with the same rack share
/// one), for the sparse networks.
fn rack_classes(state: &ClusterState, m: usize) -> Vec<usize> {
    let mut number: BTreeMap<&str, usize> = BTreeMap::new();
    (0..m)
        .map(|k| {
            let next = number.len();
            *number.entry(rack(state, k)).or_insert(next)
        })
        .collect()
}

/// Scaled costs: `base · (n + 1) + [leaves its client]`, or just `base` when
/// that could overflow (see the module doc).
fn cost_fn<'a>(
    n: usize,
    costs: Costs,
    current: &'a [usize],
    cross: impl Fn(usize, usize) -> bool + 'a,
) -> impl Fn(usize, usize) -> i64 + 'a {
    let scale = n as i64 + 1;
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
/// (ascending positions, each with an active) over all clients with the
/// network of the configured strategy; a no-op with strategy `none`.
/// Callers check [`enablement`] first. Returns how many actives moved.
pub fn optimize_active<W: RackWork>(
    state: &ClusterState,
    work: &mut W,
    tasks: &[usize],
    costs: Costs,
) -> usize {
    let strategy = state.config().rack_aware_strategy;
    let m = work.client_count();
    if strategy == RackAwareStrategy::None || tasks.is_empty() || m == 0 {
        return 0;
    }
    let current: Vec<usize> = tasks
        .iter()
        .map(|&t| {
            work.active_owner(t)
                .expect("every optimised task has an active")
        })
        .collect();
    let cross = |i: usize, k: usize| !state.tasks()[tasks[i]].racks.contains(rack(state, k));
    let cost = cost_fn(tasks.len(), costs, &current, cross);
    let class = rack_classes(state, m);
    let placed = match strategy {
        RackAwareStrategy::BalanceSubtopology => {
            let group: Vec<u32> = tasks
                .iter()
                .map(|&t| state.tasks()[t].id.subtopology)
                .collect();
            balance_subtopology::place(tasks.len(), m, &group, &current, &class, cost)
        }
        _ => min_traffic::place(tasks.len(), m, &current, &class, cost),
    };
    let mut moved = 0;
    for (i, &t) in tasks.iter().enumerate() {
        if placed[i] != current[i] {
            work.move_active(t, current[i], placed[i]);
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
    may_move_task: impl Fn(&W, usize, usize, usize) -> bool,
) -> usize {
    let n = work.client_count();
    let mut total = 0;
    for _ in 0..STANDBY_OPTIMIZER_MAX_ROUNDS {
        let mut moved = 0;
        for i in 0..n {
            for j in i + 1..n {
                let (ri, rj) = (&state.clients()[i].rack, &state.clients()[j].rack);
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
    i: usize,
    j: usize,
    may_move_task: &impl Fn(&W, usize, usize, usize) -> bool,
) -> usize {
    let movable = |from: usize, to: usize| -> Vec<usize> {
        work.standbys(from)
            .into_iter()
            .filter(|&t| !work.holds(to, t) && may_move_task(work, from, to, t))
            .collect()
    };
    let (from_i, from_j) = (movable(i, j), movable(j, i));
    if from_i.is_empty() || from_j.is_empty() {
        return 0;
    }
    let mut tasks: Vec<(usize, usize)> = from_i
        .into_iter()
        .map(|t| (t, 0))
        .chain(from_j.into_iter().map(|t| (t, 1)))
        .collect();
    tasks.sort_unstable();
    let current: Vec<usize> = tasks.iter().map(|&(_, side)| side).collect();
    let pair = [i, j];
    let cross = |x: usize, k: usize| {
        !state.tasks()[tasks[x].0]
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
    src: usize,
    dst: usize,
    t: usize,
) -> bool {
    let others: Vec<usize> = work
        .holders(t)
        .into_iter()
        .filter(|&c| c != src && c != dst)
        .collect();
    let distinct = |extra: usize| {
        let mut tags: BTreeSet<(&str, &str)> = BTreeSet::new();
        for &c in others.iter().chain([&extra]) {
            tags.extend(
                state.clients()[c]
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
    (0..state.tasks().len())
        .filter(|&t| {
            work.active_owner(t)
                .is_some_and(|c| !state.tasks()[t].racks.contains(rack(state, c)))
        })
        .count()
}

/// Per-client counts of `tasks` active on each client (for checks).
#[cfg(test)]
pub fn active_counts<W: RackWork>(work: &W, tasks: &[usize]) -> BTreeMap<usize, usize> {
    let mut counts = BTreeMap::new();
    for &t in tasks {
        if let Some(c) = work.active_owner(t) {
            *counts.entry(c).or_default() += 1;
        }
    }
    counts
}
