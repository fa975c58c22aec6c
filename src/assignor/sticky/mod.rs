//! `sticky` and `fallback-prior`: Kafka Streams' `LegacyStickyTaskAssignor`
//! (the default before KIP-441, called `StickyTaskAssignor` until Kafka 3.8)
//! and the `FallbackPriorTaskAssignor` built on it.
//!
//! # What Kafka does
//! State-unaware placement that keeps tasks where they were and otherwise
//! balances by capacity (`docs/algorithms.md`, *sticky*). With `tasks_per_thread = |tasks| /
//! Σ capacity` (integer division) a client *has quota* while its actives are
//! fewer than `capacity × tasks_per_thread`.
//!
//! 1. Every task goes back to its previous active owner if that owner has quota.
//! 2. Every task still unplaced goes to the first of its previous standby
//!    owners that has quota.
//! 3. The rest, ascending, are *allocated*: to the previous active owner,
//!    else the least-loaded previous standby owner; but if that client has
//!    reached its capacity (as many replicas as threads) while another client
//!    has more available capacity, to the least-loaded previous standby owner
//!    unless it is in the same state, else to the least-loaded client.
//! 4. Standbys: every stateful task, `num_standby_replicas` times, is
//!    allocated the same way among the clients not holding it (so a previous
//!    active owner that lost the active is the first choice for its standby);
//!    when no such client is left, the task gets fewer standbys.
//!
//! "Least loaded" is the client with the fewest replicas per thread (then the
//! larger capacity), except that a client with nothing wins at once, and that
//! a first pass only considers clients where the task would form a *new task
//! pair* (see `pairs.rs`); Kafka records pairs on every assignment, actives
//! and standbys alike.
//! Fallback-prior sets `mustPreserveActiveTaskAssignment`: step 1 ignores the
//! quota, so every previous active stays where it was, however unbalanced;
//! and it always asks for a probing rebalance (`docs/algorithms.md`,
//! *fallback-prior*).
//!
//! # What this port keeps
//! Every rule above, with Kafka's `f64` loads and its tie rules; client ids
//! replace process UUIDs. Where Kafka iterates a `HashMap` or `HashSet` —
//! step 1 over previous actives, step 2 over unplaced tasks and over each
//! task's previous standby owners, `least_loaded` over candidate clients, the
//! standby loop over stateful tasks — this port iterates in ascending order:
//! tasks by id, clients by id. So step 1 keeps an over-quota owner's
//! *lowest-id* tasks, step 2 prefers the lowest-id standby owner with quota,
//! and equally loaded clients of equal capacity are taken lowest id first.
//! A task listed as previously active by several clients (Kafka's map keeps
//! one of them, whichever it visits last) has one previous owner here: the
//! lowest-id client listing it; the others count as neither its previous
//! active nor its previous standby owners, as in Kafka.
//! Task pairs are not stored: since nothing is ever unassigned, the pairs
//! Kafka has recorded are exactly the pairs of tasks sharing a client now,
//! which the placement answers (same decisions; see `pairs.rs`).
//!
//! # What it ignores
//! Lags (the legacy assignor never reads them), warm-ups (none are placed),
//! resources and hosts. `fallback-prior` never optimises for racks, in Kafka
//! either.
//!
//! # Rack awareness (KIP-925)
//! `sticky` runs the min-cost flow of the `rack` module where Kafka does:
//! after step 3 on the actives (stateful with traffic 1 / non-overlap 10
//! unless configured, then stateless with 1 / 0) and after step 4 on the
//! standbys (pairwise, every move allowed), when `rack_aware_strategy` is not
//! `none` and Kafka's enabling conditions hold; otherwise the plan's
//! diagnostics give the reason. Counts per client are kept. The optimiser
//! records no task pairs, as in Kafka: the standby step's pair rule then sees
//! the pairs of the actives' former placement (see `pairs.rs`). Where several
//! placements have the optimal cost, Java's choice is not reproduced.
//!
//! # Complexity
//! With T tasks, C clients, P previous entries, R standbys and N replicas
//! placed (T actives plus at most `min(R, C − 1)` standbys per stateful
//! task): O(P log T) to read the history; O(log C) per placement to keep
//! the load index, which answers "least loaded" and "should balance" — Kafka
//! scans all C clients for each. The task-pair rule is answered without
//! Kafka's pair set: a task not yet placed, or whose clients hold fewer
//! tasks than the candidate, surely forms a new pair (O(1 + R)); else a
//! probe of the candidate's first few tasks usually finds one; else
//! `pairs::PairCounts` counts, once per task being placed and then
//! incrementally, how many tasks of every client share a client with it
//! (O(Σ tasks on its holders × their holders) per task, then O(1) per
//! candidate) — where Kafka's scans cost up to O(C · n_c · R²) per
//! placement (1,000 tasks on 100 clients with 50 standbys: 6.1 s before
//! the counts, 69 ms after; `benches/strategies.rs`). After the rack
//! optimiser has moved actives, the scan of `pairs::has_new_pair` is used
//! as is. Kafka also spends O(Σ_c n_c²) time and memory recording pairs
//! (n_c replicas on client c); this port spends
//! none: memory is O(T + C + N).
//!
//! # Claims
//! Every task has one active; every stateful task has
//! `min(num_standby_replicas, C − 1)` standbys, never on the client running
//! it; no warm-ups; the same input gives the same plan. `sticky`: each
//! previous owner keeps its lowest-id previous actives up to its quota
//! (`capacity × tasks_per_thread`) unless the rack optimiser moves them;
//! no follow-up is asked. `fallback-prior`:
//! every previous active stays on its (lowest-id) previous owner; a follow-up
//! after `probing_rebalance_interval_ms` is always asked. Balance is not
//! claimed for either.

#![warn(clippy::cast_possible_truncation)]

mod pairs;
mod work;

#[cfg(test)]
mod tests;

use crate::assignor::common::rack_awareness_diagnostic;
use crate::assignor::rack;
use crate::assignor::strategy::{AssignError, Assignor, Claims, LeaveBehaviour, StrategyInfo};
use crate::model::{ClientIx, ClusterState, IxVec, Plan, TaskIx};

use work::{Role, Work};

/// Kafka's legacy sticky task assignor (pre-KIP-441 default).
///
/// # Examples
/// A balanced previous assignment is kept as it is.
/// ```
/// use smoothscale::assignor::sticky::LegacySticky;
/// use smoothscale::{Assignor, AssignmentConfig, Client, ClusterState, Task, TaskId};
///
/// let ids: Vec<TaskId> = (0..4).map(|p| TaskId::new(0, p)).collect();
/// let tasks = ids.iter().map(|&id| Task::stateful(id, 1_000)).collect();
/// let clients = vec![
///     Client::new("a", 1).with_previous_active([ids[0], ids[3]]),
///     Client::new("b", 1).with_previous_active([ids[1], ids[2]]),
/// ];
/// let state = ClusterState::new(AssignmentConfig::default(), tasks, clients).unwrap();
/// let plan = LegacySticky.assign(&state).unwrap();
/// for client in state.clients() {
///     assert_eq!(plan.clients[&client.id].active, client.previous_active);
/// }
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct LegacySticky;

static STICKY: StrategyInfo = StrategyInfo {
    name: "sticky",
    description: "Kafka's legacy sticky assignor (pre-KIP-441): previous owners first within a per-thread quota, then least loaded by capacity; state-unaware",
    claims: CLAIMS,
    leave: LeaveBehaviour::Immediate,
};

impl Assignor for LegacySticky {
    fn info(&self) -> &'static StrategyInfo {
        &STICKY
    }

    fn assign(&self, state: &ClusterState) -> Result<Plan, AssignError> {
        let mut plan = run(state, self.info().name, false);
        plan.diagnostics.extend(rack_awareness_diagnostic(state));
        Ok(plan)
    }
}

/// Kafka's fallback-prior assignor: legacy sticky that keeps every previous active.
///
/// # Examples
/// `a` ran every task and `b` is new: `a` keeps them all, however
/// unbalanced, and the plan asks for a probing rebalance.
/// ```
/// use smoothscale::assignor::sticky::FallbackPrior;
/// use smoothscale::{Assignor, AssignmentConfig, Client, ClientId, ClusterState, Task, TaskId};
///
/// let ids: Vec<TaskId> = (0..4).map(|p| TaskId::new(0, p)).collect();
/// let tasks = ids.iter().map(|&id| Task::stateful(id, 1_000)).collect();
/// let clients = vec![Client::new("a", 1).with_previous_active(ids.clone()), Client::new("b", 1)];
/// let state = ClusterState::new(AssignmentConfig::default(), tasks, clients).unwrap();
/// let plan = FallbackPrior.assign(&state).unwrap();
/// assert_eq!(plan.clients[&ClientId::new("a")].active.len(), 4);
/// assert!(plan.clients[&ClientId::new("b")].active.is_empty());
/// assert_eq!(plan.followup_rebalance_ms, Some(state.config().probing_rebalance_interval_ms));
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct FallbackPrior;

static FALLBACK_PRIOR: StrategyInfo = StrategyInfo {
    name: "fallback-prior",
    description: "Kafka's FallbackPriorTaskAssignor: legacy sticky keeping every previous active regardless of balance, always asking for a probing rebalance",
    claims: CLAIMS,
    leave: LeaveBehaviour::Immediate,
};

impl Assignor for FallbackPrior {
    fn info(&self) -> &'static StrategyInfo {
        &FALLBACK_PRIOR
    }

    fn assign(&self, state: &ClusterState) -> Result<Plan, AssignError> {
        let mut plan = run(state, self.info().name, true);
        plan.followup_rebalance_ms = Some(state.config().probing_rebalance_interval_ms);
        Ok(plan)
    }
}

const CLAIMS: Claims = Claims {
    standby_count: true,
    warmup_budget: true,
    resource_capacity: false,
    warmups_stand_in: false,
};

/// The whole legacy sticky assignment; `must_preserve` is Kafka's
/// `mustPreserveActiveTaskAssignment`.
fn run(state: &ClusterState, name: &str, must_preserve: bool) -> Plan {
    let mut sticky = Sticky::new(state);
    // Kafka gives the fallback assignor no rack helper.
    let rack_aware = !must_preserve && rack::enablement(state).is_enabled();
    if sticky.work.client_count() > 0 {
        sticky.assign_active(must_preserve);
        if rack_aware {
            sticky.optimize_active();
        }
        let replicas = state.config().num_standby_replicas;
        sticky.assign_standby(replicas);
        if rack_aware && replicas > 0 {
            let costs = rack::Costs::configured(state.config(), rack::Costs::STICKY);
            rack::optimize_standby(state, &mut sticky.work, costs, |_, _, _, _| true);
        }
    }
    sticky.work.into_plan(state, name)
}

/// The clients an allocation may choose from.
#[derive(Debug, Clone, Copy)]
enum Within {
    /// Every client (actives).
    All,
    /// The clients not holding the task (standbys).
    NotHolding,
}

/// Kafka's `LegacyStickyTaskAssignor` state for one assignment.
struct Sticky<'s> {
    state: &'s ClusterState,
    work: Work,
    /// Kafka's `previousActiveTaskAssignment`: one previous owner per task,
    /// the lowest-id client listing it as previous active.
    prev_owner: IxVec<TaskIx, Option<ClientIx>>,
    /// Kafka's `previousStandbyTaskAssignment`: the previous standby owners
    /// of each task, ascending (Kafka: a `HashSet`).
    prev_standby: IxVec<TaskIx, Vec<ClientIx>>,
    /// The task-pair rule's counts for the task being placed.
    pairs: std::cell::RefCell<pairs::PairCounts>,
}

impl<'s> Sticky<'s> {
    fn new(state: &'s ClusterState) -> Sticky<'s> {
        let tasks = state.tasks().len();
        let mut prev_owner = IxVec::from_elem(None, tasks);
        let mut prev_standby = IxVec::from_elem(Vec::new(), tasks);
        let position = |id| state.task_ix(id).expect("the state checks task ids");
        for (c, client) in state.client_ixs().zip(state.clients()) {
            for &id in &client.previous_active {
                // Clients are visited in id order: the first listing wins.
                prev_owner[position(id)].get_or_insert(c);
            }
            for &id in &client.previous_standby {
                prev_standby[position(id)].push(c);
            }
        }
        Sticky {
            state,
            pairs: std::cell::RefCell::new(pairs::PairCounts::new(tasks, state.clients().len())),
            work: Work::new(state),
            prev_owner,
            prev_standby,
        }
    }

    /// Kafka's `assignActive`: steps 1–3 of the module doc.
    fn assign_active(&mut self, must_preserve: bool) {
        let tasks = self.state.tasks().len();
        let total_capacity: u64 = self.work.capacity.iter().map(|&c| u64::from(c)).sum();
        let tasks_per_thread = tasks as u64 / total_capacity;
        let has_quota = |work: &Work, c: ClientIx| {
            (work.active[c].len() as u64) < u64::from(work.capacity[c]) * tasks_per_thread
        };
        // During this phase a task is placed exactly when it has a holder.
        let unplaced = |work: &Work, t: TaskIx| work.holders[t].is_empty();

        // 1. Previous active owners within quota (Kafka: HashMap order; here
        //    tasks ascending, so an over-quota owner keeps its lowest ids).
        for t in self.state.task_ixs() {
            if let Some(owner) = self.prev_owner[t] {
                if must_preserve || has_quota(&self.work, owner) {
                    self.place(owner, t, Role::Active);
                }
            }
        }

        // 2. Previous standby owners with quota (Kafka: HashSet orders of the
        //    unplaced tasks and of each task's owners; here both ascending).
        for t in self.state.task_ixs() {
            if !unplaced(&self.work, t) {
                continue;
            }
            let owner = self.prev_standby[t]
                .iter()
                .copied()
                .find(|&c| has_quota(&self.work, c));
            if let Some(c) = owner {
                self.place(c, t, Role::Active);
            }
        }

        // 3. The rest, ascending (as in Kafka), allocated among all clients.
        for t in self.state.task_ixs() {
            if unplaced(&self.work, t) {
                let c = self.find_client(t, Within::All);
                self.place(c, t, Role::Active);
            }
        }
    }

    /// Kafka's `optimizeActive` (step 4 of the module doc): stateful actives with the
    /// configured costs (default traffic 1 / non-overlap 10), then stateless
    /// ones with traffic 1 / non-overlap 0. Remembers the former placement
    /// when anything moved, for the task-pair rule.
    fn optimize_active(&mut self) {
        let before: IxVec<TaskIx, ClientIx> = self
            .state
            .task_ixs()
            .map(|t| rack::RackWork::active_owner(&self.work, t).expect("every task is active"))
            .collect();
        let (stateful, stateless): (Vec<TaskIx>, Vec<TaskIx>) = self
            .state
            .task_ixs()
            .partition(|&t| self.state.tasks()[t.index()].stateful);
        let costs = rack::Costs::configured(self.state.config(), rack::Costs::STICKY);
        let moved = rack::optimize_active(self.state, &mut self.work, &stateful, costs)
            + rack::optimize_active(
                self.state,
                &mut self.work,
                &stateless,
                rack::Costs::STATELESS,
            );
        if moved > 0 {
            let mut group = IxVec::from_elem(0, self.work.client_count());
            for &c in &before {
                group[c] += 1;
            }
            self.work.former = Some((before, group));
        }
    }

    /// Kafka's `assignStandby`: stateful tasks ascending (Kafka: set order),
    /// each up to `replicas` times among the clients not holding it.
    fn assign_standby(&mut self, replicas: u32) {
        let clients = self.work.client_count();
        for t in self.state.task_ixs() {
            if !self.state.tasks()[t.index()].stateful {
                continue;
            }
            for _ in 0..replicas {
                if self.work.holders[t].len() >= clients {
                    break; // Kafka warns: not enough clients for every standby.
                }
                let c = self.find_client(t, Within::NotHolding);
                self.place(c, t, Role::Standby);
            }
        }
    }

    /// Kafka's `assignTaskToClient` / `allocateTaskWithClientCandidates`.
    /// Kafka also records the task pairs formed here; this port reads them
    /// off the placement instead (see `pairs.rs`).
    fn place(&mut self, c: ClientIx, t: TaskIx, role: Role) {
        self.work.assign(c, t, role);
    }

    fn within(&self, t: TaskIx, within: Within, c: ClientIx) -> bool {
        match within {
            Within::All => true,
            Within::NotHolding => !self.work.holds(c, t),
        }
    }

    /// Kafka's `findClient`; `within` holds at least one client.
    fn find_client(&self, t: TaskIx, within: Within) -> ClientIx {
        let size = match within {
            Within::All => self.work.client_count(),
            Within::NotHolding => self.work.client_count() - self.work.holders[t].len(),
        };
        if size == 1 {
            let only = self.state.client_ixs().find(|&c| self.within(t, within, c));
            return only.expect("one candidate");
        }
        let previous = self.prev_owner[t]
            .filter(|&c| self.within(t, within, c))
            .or_else(|| self.least_loaded_standby_owner(t, within));
        let Some(previous) = previous else {
            return self.least_loaded(t, within);
        };
        if !self.work.should_balance(previous) {
            return previous;
        }
        match self.least_loaded_standby_owner(t, within) {
            Some(standby) if !self.work.should_balance(standby) => standby,
            _ => self.least_loaded(t, within),
        }
    }

    /// Kafka's `findLeastLoadedClientWithPreviousStandByTask`: Kafka's
    /// two-pass scan, literally, over the task's previous standby owners in
    /// `within` (ascending; Kafka: `HashSet` order).
    fn least_loaded_standby_owner(&self, t: TaskIx, within: Within) -> Option<ClientIx> {
        let owners = self.prev_standby[t]
            .iter()
            .copied()
            .filter(|&c| self.within(t, within, c));
        self.scan_least_loaded(t, owners)
    }

    /// Kafka's `findLeastLoaded` run with, then without, the task-pair rule
    /// over `candidates` in the order given: a client with no replica wins at
    /// once; otherwise the candidate is replaced only by one with strictly
    /// more available capacity (that also forms a new pair, in the first pass).
    fn scan_least_loaded(
        &self,
        t: TaskIx,
        candidates: impl Iterator<Item = ClientIx> + Clone,
    ) -> Option<ClientIx> {
        for check_pairs in [true, false] {
            let mut best: Option<ClientIx> = None;
            for c in candidates.clone() {
                if self.work.assigned_count(c) == 0 {
                    return Some(c);
                }
                let better = match best {
                    None => true,
                    Some(b) => self.work.more_available(c, b),
                };
                if better && (!check_pairs || self.new_pair(t, c)) {
                    best = Some(c);
                }
            }
            if best.is_some() {
                return best;
            }
        }
        None
    }

    /// Kafka's `leastLoaded` over `within` in client-id order, answered from
    /// the indexes (same answer as [`Sticky::scan_least_loaded`] over
    /// every client of `within` ascending): the lowest-id client with no
    /// replica; else the first client in availability order that forms a new
    /// pair; else the first in availability order.
    fn least_loaded(&self, t: TaskIx, within: Within) -> ClientIx {
        if let Some(&c) = self.work.empty.iter().find(|&&c| self.within(t, within, c)) {
            return c;
        }
        let mut candidates = self
            .work
            .by_load
            .iter()
            .map(|&(_, c)| c)
            .filter(|&c| self.within(t, within, c));
        let first = candidates.clone().next().expect("a candidate");
        candidates.find(|&c| self.new_pair(t, c)).unwrap_or(first)
    }

    fn new_pair(&self, t: TaskIx, c: ClientIx) -> bool {
        if self.work.former.is_some() {
            pairs::has_new_pair(&self.work, t, c)
        } else {
            pairs::surely_new_pair(&self.work, t, c)
                || self.pairs.borrow_mut().has_new_pair(&self.work, t, c)
        }
    }
}
