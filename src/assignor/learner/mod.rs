//! `kip441-learner`: the first design of KIP-441 (2019), with *learner* tasks
//! instead of warm-ups and probing rebalances (the "Old version of KIP-441"
//! page of the KIP on the Kafka wiki; `docs/algorithms.md`, *kip441-learner*). It was
//! replaced before release; this strategy lets the simulator ask whether the
//! redesign was worth it.
//!
//! # What the design says
//! A learner restores like a standby; when it has caught up, its instance
//! rejoins at once and the rebalance that follows hands it the active. Actives
//! first, then learners, then standbys:
//!
//! 1. a stateful active goes to (1) a learner that reports ready, (2) the
//!    previous owner, (3) the client of an unready learner, (4) any client
//!    with capacity; a stateless one to its previous owner, else by capacity;
//! 2. learners are kept; when clients are unbalanced, heavy clients' tasks are
//!    learned on light ones, preferring clients that hold a standby (the
//!    standby turns into the learner);
//! 3. standbys last;
//! 4. the assignment is stable: nothing changes while membership does not;
//! 5. each instance ends within 0.5×–2× of its fair share (v4's balancing
//!    factor);
//! 6. scale-down: a leaving member waits for its tasks to be learned
//!    elsewhere, bounded by `scale.down.timeout.ms` (default infinity).
//!
//! # Where this port chooses (the first design leaves these open)
//! - *Ready* is kip441's caught-up rule: lag within `acceptable_recovery_lag`
//!   (or running), through [`Lag::is_caught_up`](crate::model::Lag::is_caught_up).
//!   A *learner* is a warm-up in the plan; a client's previous learners are
//!   its `previous_warmup`.
//! - *Fair share* is by capacity over the staying (not `leaving`) clients:
//!   `f = T·k_c/K` of the `T` stateful tasks. Every client is brought within
//!   `⌊f⌋ ..= ⌈f⌉` stateful actives (counting learners at their
//!   destination); then stateless tasks are dealt one at a time to the
//!   client with the fewest actives per thread, which sets each client's
//!   stateless quota (kip441 deals them by active load too). That is tighter
//!   than 0.5×–2× of the share of all actives, so that the simulator's
//!   convergence rule (active spread per thread ≤ 1) judges it as it judges
//!   kip441.
//! - *Capacity* in rules (1), (3) and (4) means below `⌈f⌉`. Rule (2) keeps
//!   the previous owner whatever its load: moving an active to a client that
//!   must restore it is what learners avoid. Rule (4) prefers staying
//!   clients, then caught-up ones (a standby fails over), then room, then
//!   the fewest actives per thread, then the least lag, then id.
//! - *Heavy* and *light*: the phases of the `balance` module (above `⌈f⌉`
//!   or leaving gives to below `⌊f⌋`, then below `⌈f⌉`; then above `⌊f⌋` gives
//!   to below `⌊f⌋`). A receiver already caught up on the chosen task takes
//!   the active at once (a learner that is ready when placed); otherwise it
//!   gets a learner. Tasks of leaving owners are learned first, then the
//!   receiver's least lag (a standby or an old copy), then the most loaded
//!   owner, then task id. At most one learner per task. When no donor has a
//!   task without a learner, a donor's learner moves to the receiver instead
//!   (leaving donors first, then the most loaded, then task id): the design's
//!   "move learners from heavy to light hosts".
//! - *Kept* learners: previous learners not yet ready, on a staying client,
//!   one per task: all of them when together they leave every client within
//!   `⌊f⌋ ..= ⌈f⌉` (the stability rule: made again on its own outcome, a plan
//!   is the same plan), otherwise each while its client is below `⌈f⌉` and
//!   the task's owner is leaving or above `⌊f⌋`.
//! - *Standbys*: `min(num_standby_replicas, clients − 1)`: previous holders
//!   first, then caught-up clients, then staying ones (a leaving client's
//!   copies serve until it leaves, so the others restore learners first). A
//!   learner stands in for the standby it was converted from, so a task
//!   being learned may have one standby fewer (`Claims::warmups_stand_in`,
//!   checked by `validate`). Standbys are not rebalanced onto newcomers.
//! - *Budget*: none. All learners a membership change calls for are placed at
//!   once (`Claims::warmup_budget` is false): the old design had no
//!   `max_warmup_replicas`.
//! - *Follow-up*: the plan lists every task with a learner in
//!   `followup_when_caught_up` and never asks for a probing rebalance. No
//!   listed learner is ready when the plan is made (a ready one would have
//!   taken its active), so the rebalance it triggers hands an active over
//!   unless membership has changed meanwhile.
//! - *Scale-down*: a `leaving` client has no fair share: it keeps its stateful
//!   actives until learners elsewhere are ready (their rejoins hand each over),
//!   loses its stateless ones at once, and keeps its standbys (new ones go to
//!   it only when it is caught up, or no staying client can hold them). The
//!   simulator removes it when each of its actives has a ready learner
//!   elsewhere, or after `scale_down_timeout`; then rule (3) promotes the
//!   learners. When every client is leaving, none is.
//!
//! # What it ignores
//! Racks, client tags, resources and hosts.
//!
//! # Complexity
//! With T tasks, C clients and M transfers (learners or moves):
//! O(T·C·log) for the rules and standbys (O(C log C) per task), O(M·T) for
//! the transfers (each scans the tasks). Nothing is indexed by T × C.
//!
//! # Claims
//! Every task has one active; every stateful task has
//! `min(num_standby_replicas, C − 1)` standbys, one of which its learner may
//! stand in for; no client holds two replicas of a task; no warm-up budget;
//! the same input gives the same plan, and a plan made again on its own
//! outcome with the same lags is the same plan.

#![warn(clippy::cast_possible_truncation)]

mod actives;
mod balance;
mod learners;
mod standbys;
mod work;

#[cfg(test)]
mod tests;

use std::collections::BTreeSet;

use crate::assignor::common::rack_awareness_not_applied;
use crate::assignor::load::Load;
use crate::assignor::share::weighted_share_bounds;
use crate::assignor::strategy::{AssignError, Assignor, Claims, LeaveBehaviour, StrategyInfo};
use crate::model::{ClientIx, ClusterState, IxVec, Plan, TaskIx};

use work::{Bounds, Kind, Work};

/// KIP-441's first design: learner tasks, rejoin when caught up.
///
/// # Examples
/// A scale-out: `a` runs all four tasks, `b` is new. `a` keeps every active
/// for now; `b` gets learners of its share, and the plan asks for a
/// rebalance as soon as one of them has caught up.
/// ```
/// use smoothscale::assignor::learner::Kip441Learner;
/// use smoothscale::{Assignor, AssignmentConfig, Client, ClientId, ClusterState, Lag, Task, TaskId};
///
/// let ids: Vec<TaskId> = (0..4).map(|p| TaskId::new(0, p)).collect();
/// let tasks = ids.iter().map(|&id| Task::stateful(id, 1_000_000)).collect();
/// let mut a = Client::new("a", 1).with_previous_active(ids.clone());
/// for &id in &ids {
///     a = a.with_lag(id, Lag::Running);
/// }
/// let state = ClusterState::new(AssignmentConfig::default(), tasks, vec![a, Client::new("b", 1)]).unwrap();
/// let plan = Kip441Learner.assign(&state).unwrap();
/// let b = &plan.clients[&ClientId::new("b")];
/// assert_eq!(plan.clients[&ClientId::new("a")].active.len(), 4);
/// assert_eq!(b.warmup.len(), 2);
/// assert_eq!(plan.followup_when_caught_up, b.warmup);
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct Kip441Learner;

/// The registered name.
const NAME: &str = "kip441-learner";

static INFO: StrategyInfo = StrategyInfo {
    name: NAME,
    description: "KIP-441's first design: learner tasks take actives over as soon as they have caught up (no probing), scale-in waits for learners",
    claims: Claims {
        standby_count: true,
        warmup_budget: false,
        resource_capacity: false,
        warmups_stand_in: true,
    },
    leave: LeaveBehaviour::HandsOver,
};

impl Assignor for Kip441Learner {
    fn info(&self) -> &'static StrategyInfo {
        &INFO
    }

    fn assign(&self, state: &ClusterState) -> Result<Plan, AssignError> {
        let mut work = Work::new(state);
        if work.client_count() > 0 {
            assign_tasks(&mut work);
        }
        let mut plan = work.into_plan(NAME);
        plan.diagnostics.extend(rack_awareness_not_applied(
            state,
            "kip441-learner ignores racks",
        ));
        Ok(plan)
    }
}

/// Actives, learners, then standbys, on a state with at least one client.
fn assign_tasks(work: &mut Work) {
    let (stateful, stateless): (Vec<TaskIx>, Vec<TaskIx>) =
        work.tasks().partition(|&t| work.kind(t) == Kind::Stateful);
    let weights = work.weights();
    let stateful_bounds = Bounds::from_raw(weighted_share_bounds(weights.as_raw(), stateful.len()));

    actives::place_stateful(work, &stateful, &stateful_bounds);
    learners::keep(work, &stateful_bounds);
    learners::place(work, &stateful_bounds);
    let stateless_quotas = stateless_quotas(work, stateless.len());
    actives::place_stateless(work, &stateless, &stateless_quotas);
    standbys::place(work, &stateful);
}

/// Each client's quota of stateless actives (as `(lo, hi)` bounds, equal):
/// stateless tasks dealt one at a time to the staying client with the fewest
/// actives per thread, counting its intended stateful ones, ties by id, so
/// that stateful and stateless rounding do not add up (kip441 places its
/// stateless tasks by active load the same way).
fn stateless_quotas(work: &Work, stateless: usize) -> Bounds {
    let stateful = &work.load[Kind::Stateful as usize];
    let mut quota: IxVec<ClientIx, usize> = IxVec::from_elem(0, work.client_count());
    let load = |c: ClientIx, q: usize| Load::of(stateful[c] + q, work.capacity(c));
    let mut by_load: BTreeSet<(Load, ClientIx)> = work
        .clients()
        .filter(|&c| !work.leaving[c])
        .map(|c| (load(c, 0), c))
        .collect();
    for _ in 0..stateless {
        let Some((_, c)) = by_load.pop_first() else {
            break;
        };
        quota[c] += 1;
        by_load.insert((load(c, quota[c]), c));
    }
    quota.into_iter().map(|q| (q, q)).collect()
}
