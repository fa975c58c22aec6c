//! Task movements (Kafka's `TaskMovement`; `docs/algorithms.md`, *kip441:
//! task movement*): give actives and standbys back to
//! caught-up clients and park warm-ups on the intended destinations.
//!
//! Movements are served from a queue ordered by (number of caught-up clients,
//! task id): tasks with the fewest caught-up clients first, so scarce
//! warm-ups go to the most at-risk tasks. Two standby movements of one task
//! compare equal; Kafka's `PriorityQueue` then serves them in heap-position
//! order, and so does this port ([`super::java_queue`]), offering the
//! movements in Kafka's order: clients ascending, each client's tasks
//! ascending.

use smallvec::SmallVec;

use super::java_queue;
use super::lags::LagIndex;
use super::rows::Rows;
use super::work::{Role, Work};
use crate::model::{ClientIx, TaskIx};

/// The warm-up budget shared by the active and standby phases. Like Kafka's
/// counter it keeps decreasing below zero; only "positive before" matters.
pub(super) struct Budget(i64);

impl Budget {
    pub(super) fn new(max_warmup_replicas: u32) -> Budget {
        Budget(i64::from(max_warmup_replicas))
    }

    /// Spends one unit; whether there was one to spend.
    fn take(&mut self) -> bool {
        let had = self.0 > 0;
        self.0 -= 1;
        had
    }
}

/// The least-loaded caught-up client of `t` that passes `extra`: Kafka's
/// `ConstrainedPrioritySet::poll` with the caught-up constraint. Lists the
/// caught-up clients when they are few, else walks the least-loaded order.
fn least_loaded_caught_up(
    work: &Work,
    lags: &LagIndex,
    t: TaskIx,
    extra: impl Fn(ClientIx) -> bool,
) -> Option<ClientIx> {
    match lags.listed_caught_up(t) {
        Some(list) => list
            .filter(|&c| extra(c))
            .min_by_key(|&c| (work.assigned_load(c), c)),
        None => work.least_loaded(|c| lags.is_caught_up(c, t) && extra(c)),
    }
}

/// Moves `t`'s active from `dest` to `src`, leaving a warm-up on `dest` while
/// the budget lasts.
fn move_active_with_warmup(
    work: &mut Work,
    t: TaskIx,
    src: ClientIx,
    dest: ClientIx,
    budget: &mut Budget,
) {
    work.unassign(dest, t, Role::Active);
    work.assign(src, t, Role::Active);
    if budget.take() {
        work.add_warmup(dest, t);
    }
}

/// Swaps roles: `src`'s standby of `t` becomes the active, `dest`'s active a
/// standby. Free: no warm-up budget is spent.
fn swap(work: &mut Work, t: TaskIx, src: ClientIx, dest: ClientIx) {
    work.switch_role(dest, t, Role::Active);
    work.switch_role(src, t, Role::Standby);
}

/// The movements of `role` replicas as (task, destination), in Kafka's
/// service order, for every replica on a client that needs to give it up.
/// Warm-ups are not in the standby sets, so they stay put.
fn movements(work: &Work, lags: &LagIndex, role: Role) -> Vec<(TaskIx, ClientIx)> {
    let mut found: Vec<(u32, TaskIx, ClientIx)> = Vec::new();
    for t in work.all_tasks() {
        let count = lags.caught_up_count(t);
        match role {
            Role::Active => {
                if let Some(c) = work.owner(t).filter(|&c| lags.needs_move(c, t)) {
                    found.push((count, t, c));
                }
            }
            Role::Standby => {
                for c in work.standby_holders(t).filter(|&c| lags.needs_move(c, t)) {
                    found.push((count, t, c));
                }
            }
        }
    }
    let ties = found.windows(2).any(|w| w[0].1 == w[1].1);
    let queue = if ties {
        // Two movements of one task compare equal: replay Java's heap on
        // Kafka's offers, client by client, each client's tasks ascending (a
        // stable bucketing by client of this (task, client)-ordered list).
        let clients: Vec<u32> = found.iter().map(|&(_, _, c)| c.raw()).collect();
        let offered = Rows::keyed(work.client_count(), &clients, &found).into_items();
        java_queue::poll_order(&offered, |a, b| (a.0, a.1).cmp(&(b.0, b.1)))
    } else {
        // Distinct keys: any priority queue polls them sorted, and a stable
        // bucketing by count of this task-ordered list sorts them in O(M + T).
        let counts: Vec<u32> = found.iter().map(|&(count, _, _)| count).collect();
        let buckets = counts.iter().max().map_or(0, |&m| m as usize + 1);
        Rows::keyed(buckets, &counts, &found).into_items()
    };
    queue.into_iter().map(|(_, t, c)| (t, c)).collect()
}

/// Moves every active that sits on a client that is not caught up while a
/// more caught-up client exists. Returns the number of movements scheduled
/// (swaps included), which decides the probing rebalance.
pub(super) fn move_actives(work: &mut Work, lags: &LagIndex, budget: &mut Budget) -> usize {
    let queue = movements(work, lags, Role::Active);
    let scheduled = queue.len();
    for (t, dest) in queue {
        let standby_holder = work
            .standby_holders(t)
            .filter(|&c| lags.is_caught_up(c, t))
            .min_by_key(|&c| (work.assigned_load(c), c));
        if let Some(src) = standby_holder {
            swap(work, t, src, dest);
        } else if let Some(src) = least_loaded_caught_up(work, lags, t, |_| true) {
            move_active_with_warmup(work, t, src, dest, budget);
        } else {
            // No caught-up client at all: the most caught-up one (KAFKA-13600),
            // strictly less lagged than dest because the movement exists.
            let src = lags
                .most_caught_up(t)
                .expect("a movement implies a less lagged client");
            if work.has_standby(src, t) {
                swap(work, t, src, dest);
            } else {
                move_active_with_warmup(work, t, src, dest, budget);
            }
        }
    }
    scheduled
}

/// Moves every standby that sits on a client that is not caught up while a
/// more caught-up client exists: the caught-up (or else more caught-up) client
/// gets the standby; the old holder keeps it as a warm-up while the budget
/// lasts. Returns the number of movements performed.
pub(super) fn move_standbys(work: &mut Work, lags: &LagIndex, budget: &mut Budget) -> usize {
    let queue = movements(work, lags, Role::Standby);
    let mut moved = 0;
    for (t, dest) in queue {
        let eligible = |c: ClientIx| !work.holds(c, t);
        let src = least_loaded_caught_up(work, lags, t, eligible).or_else(|| {
            let replicas: SmallVec<[ClientIx; 8]> = work.replicas(t).map(|(c, _)| c).collect();
            lags.first_before(t, dest, &replicas, work.owner(t))
        });
        let Some(src) = src else { continue };
        work.assign(src, t, Role::Standby);
        if budget.take() {
            work.standby_to_warmup(dest, t);
        } else {
            work.unassign(dest, t, Role::Standby);
        }
        moved += 1;
    }
    moved
}
