//! `smooth`: smoothscale's own strategy. It moves as little as it can, as
//! cheaply as it can, and asks for the next rebalance when the moves it
//! started are predicted to be done, using only what a KIP-924
//! `TaskAssignor` can do (actives, standbys, warm-ups as standbys, and a
//! follow-up rebalance deadline), so it also runs inside Kafka Streams.
//!
//! # What it does
//! 1. **Actives stay put.** Every task, stateful or stateless, keeps its
//!    previous owner while that client is a member, unless a stateful
//!    one's owner is not caught up on it and another client is (KIP-441's
//!    rule: an owner back without its store gives way to a caught-up
//!    standby). A task without an owner goes to a caught-up client with
//!    room (a standby fails over: the least loaded of them), else where it
//!    runs again soonest: of the clients holding some of its state and the
//!    least loaded client with room, the one where its restore adds the
//!    least task-time to the restores already queued there (a client shares
//!    its restore rate among its restoring actives), fewest records first;
//!    stateless ones to the least loaded client (`actives`).
//! 2. **Balance by the cheapest moves** (`balance`), stateful actives
//!    first, as Kafka does: towards every client holding ⌊S·k/K⌋ to
//!    ⌈S·k/K⌉ of the S stateful actives (k its threads, K all threads), the
//!    least loaded client receiving from the client running the stateful
//!    task it holds the cheapest copy of, else from the most loaded. A
//!    stateful active moves at once only to a client caught up on it (a
//!    copy within `acceptable_recovery_lag`, or no copy and a changelog
//!    within it, as KIP-441 counts it); otherwise the receiver gets a
//!    warm-up (at most `max_warmup_replicas` in all) of the donor's task it
//!    has the least to restore, and the active follows once that warm-up
//!    has caught up. Warm-ups still restoring are kept while the move they
//!    were placed for is still wanted. Then stateless actives, which move at
//!    once (they only pause for the rebalance), towards every client holding
//!    ⌊T·k/K⌋ to ⌈T·k/K⌉ of all T actives, counting each client's stateful
//!    actives as the stateful balance will leave them (within their bounds):
//!    a client still receiving stateful work over the next rounds is not
//!    filled with stateless tasks it would shed again.
//! 3. **Even the input load** (`spread`), when every task has an observed
//!    input rate ([`Task::input_rate`](crate::Task::input_rate), from its
//!    source partitions' end offsets): within those counts, the client with
//!    the most input per thread gives a stateless active, or a stateful one
//!    the receiver is caught up on, or swaps two such, while that lowers the
//!    higher of the two loads. Hot partitions do not pile up on one client,
//!    and nothing restores for it.
//! 4. **Standbys where the state is** (`standbys`):
//!    `min(num_standby_replicas, clients − 1)` per stateful task on clients
//!    holding a copy (caught up first, then the least to restore), the rest
//!    on the clients with the fewest replicas, none beyond ⌈replicas /
//!    clients⌉ + 1 on one client: no pile-up on the lowest id. With
//!    `rack_aware_assignment_tags`, first among clients whose tag values no
//!    other copy of the task carries (KIP-708).
//! 5. **The follow-up when the warm-ups are due** (`followup`): with
//!    warm-ups, the plan asks for a rebalance when the slowest is predicted
//!    to have caught up at the client restore rate the group leader
//!    observed between the last two rebalances
//!    ([`ClusterState::observed_restore_rate`]), its client restoring its
//!    actives first and sharing the rate among its replicas, plus a tenth
//!    and a second, at most four probing intervals. Without an observation it asks
//!    for a short measuring rebalance (a minute, or the probing interval if
//!    shorter), at which the warm-ups are part-way and the leader observes
//!    their rate. Without warm-ups it asks for nothing.
//!
//! # What it gives up
//! The input load is evened only by moves that restore nothing: warm-ups are
//! spent on the counts, so hot stateful partitions that share a client stay
//! together until a stateless active or a caught-up copy can relieve it.
//! A task's load is its input rate, not what its records cost to process.
//! Racks and resources are not read; client tags only for standbys.
//!
//! # Complexity
//! With T tasks, C clients, L lag reports and M moves: O((T + L) log T) to
//! index; to place, O((T + L) log T) to weigh each orphan at its holders
//! (a client's restore queue is kept sorted with running sums: a weighing
//! is O(log T)) plus O(queue) to queue each restoring orphan (an insertion
//! into a sorted vector: O(T²) moved words at worst, when one client
//! restores nearly every task); O(M · (C + (L + A) log T)) to balance
//! (each move picks a pair from the index by load and scans the receiver's
//! lag reports and the donor's A actives); with input rates, at most T
//! steps of O(A log A) to even the input (each tries the four least loaded
//! receivers); O(T · (k + copies) log C) for standbys (with tag keys configured,
//! a standby may scan every client for one in another zone: O(T · k · C) at
//! worst). Nothing is sized T × C.
//!
//! # Claims
//! Every task has one active; every stateful task has
//! `min(num_standby_replicas, C − 1)` standbys, counting its warm-up; at
//! most `max_warmup_replicas` warm-ups; no client holds two replicas of a
//! task; the same input gives the same plan.

mod actives;
mod balance;
mod followup;
mod spread;
mod standbys;
mod work;

#[cfg(test)]
mod tests;

use std::collections::BTreeSet;

use crate::assignor::common::plan_of;
use crate::assignor::strategy::{AssignError, Assignor, Claims, LeaveBehaviour, StrategyInfo};
use crate::model::{ClientIx, ClientPlan, ClusterState, IxVec, Plan};

use work::Work;

/// smoothscale's own strategy (module doc).
///
/// # Examples
/// A scale-out: `a` runs two stateful and two stateless tasks, `b` joins.
/// `b` takes a stateless one at once and a warm-up of a stateful one, whose
/// active follows when the warm-up has caught up; the plan asks for a
/// rebalance then (a minute, to measure the restore rate first).
/// ```
/// use smoothscale::assignor::smooth::Smooth;
/// use smoothscale::{Assignor, AssignmentConfig, Client, ClientId, ClusterState, Lag, Task, TaskId};
///
/// let stateful: Vec<TaskId> = (0..2).map(|p| TaskId::new(0, p)).collect();
/// let stateless: Vec<TaskId> = (0..2).map(|p| TaskId::new(1, p)).collect();
/// let mut tasks: Vec<Task> = stateful.iter().map(|&id| Task::stateful(id, 1_000_000)).collect();
/// tasks.extend(stateless.iter().map(|&id| Task::stateless(id)));
/// let mut a = Client::new("a", 1).with_previous_active(stateful.iter().chain(&stateless).copied());
/// for &id in &stateful {
///     a = a.with_lag(id, Lag::Running);
/// }
/// let state = ClusterState::new(AssignmentConfig::default(), tasks, vec![a, Client::new("b", 1)]).unwrap();
/// let plan = Smooth.assign(&state).unwrap();
/// let b = &plan.clients[&ClientId::new("b")];
/// assert_eq!(b.active, [stateless[0]].into_iter().collect());
/// assert_eq!(b.warmup, [stateful[0]].into_iter().collect());
/// assert_eq!(plan.followup_rebalance_ms, Some(60_000));
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct Smooth;

/// The registered name.
const NAME: &str = "smooth";

static INFO: StrategyInfo = StrategyInfo {
    name: NAME,
    description: "smoothscale's own: actives stay put, stateful actives balanced by warm-ups chosen by restore cost, then stateless ones, the input load evened by moves that restore nothing, standbys spread by load, the follow-up when warm-ups are predicted caught up",
    claims: Claims {
        standby_count: true,
        warmup_budget: true,
        resource_capacity: false,
        warmups_stand_in: true,
    },
    leave: LeaveBehaviour::Immediate,
};

impl Assignor for Smooth {
    fn info(&self) -> &'static StrategyInfo {
        &INFO
    }

    fn assign(&self, state: &ClusterState) -> Result<Plan, AssignError> {
        if state.clients().is_empty() {
            return Ok(plan_of(state, NAME, std::iter::empty()));
        }
        let mut work = Work::new(state);
        let holders = actives::holders(&work);
        actives::place(&mut work, &holders);
        balance::balance(&mut work, &holders);
        spread::even_input(&mut work);
        let standby = standbys::place(&work, &holders);
        let mut plans: IxVec<ClientIx, ClientPlan> =
            work.clients().map(|_| ClientPlan::default()).collect();
        let ids = state.task_ids();
        for (t, owner) in work.owner.iter_enumerated() {
            let id = ids[t.index()];
            let c = owner.ok_or_else(|| AssignError::Internal {
                strategy: NAME,
                message: format!("task {id} was not placed"),
            })?;
            plans[c].active.insert(id);
            if let Some(w) = work.warmup[t] {
                plans[w].warmup.insert(id);
            }
        }
        for (c, tasks) in standby.iter_enumerated() {
            plans[c].standby = tasks
                .iter()
                .map(|&t| ids[t.index()])
                .collect::<BTreeSet<_>>();
        }
        let mut plan = plan_of(state, NAME, plans);
        plan.followup_rebalance_ms = followup::deadline(&work, &standby);
        Ok(plan)
    }
}
