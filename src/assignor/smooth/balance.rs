//! Balance by the cheapest moves, in two passes.
//!
//! First the stateful load, as Kafka balances stateful actives per thread
//! before the others: a stateful active moves at once only to a client
//! caught up on it (it holds a copy within `acceptable_recovery_lag`, or the
//! whole changelog is within it); otherwise the client it should go to gets
//! a warm-up, within `max_warmup_replicas`, of the task it has the least to
//! restore, and the active follows once that warm-up has caught up.
//!
//! Then the load of all actives, by stateless moves only (a stateless task
//! pauses for the rebalance, nothing more), counting a warm-up's task where
//! it runs until it moves: stateless tasks relieve at once the clients that
//! still run the stateful work they are to give.
//!
//! Loads here are counts of actives per thread, as Kafka balances them;
//! input rates only choose which stateless active goes (the heaviest) and,
//! after both passes, even the input load within these counts
//! (`super::spread`). Every move keeps the receiver within its upper bound
//! and the donor within its lower one, so each pass ends: the excess above
//! the upper bounds, then the shortfall below the lower ones, only shrinks.

use std::cmp::Reverse;

use crate::model::{ClientIx, IxVec, TaskIx};

use super::work::{Measure, Work};

/// Which load a pass evens out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pass {
    /// The stateful load each client is headed for, by moves to caught-up
    /// clients and warm-ups.
    Stateful,
    /// The load of every active each client runs, by stateless moves.
    Stateless,
}

impl Pass {
    fn measure<'w>(self, work: &'w Work<'_>) -> &'w Measure {
        match self {
            Pass::Stateful => &work.stateful,
            Pass::Stateless => &work.total,
        }
    }
}

/// Brings every client within its bounds as far as immediate moves and the
/// warm-up budget allow. Warm-ups still restoring (`previous_warmup` not yet
/// caught up) are placed first: their restore continues.
pub(super) fn balance(work: &mut Work<'_>, holders: &IxVec<TaskIx, Vec<ClientIx>>) {
    let budget = work.state.config().max_warmup_replicas as usize;
    keep_restoring_warmups(work, budget);
    even(work, Pass::Stateful, holders, budget);
    work.settle_stateful();
    even(work, Pass::Stateless, holders, budget);
}

/// One pass: pairs a donor with a receiver and moves one active's worth
/// until no pair is left (a donor that can give nothing more is set aside).
fn even(work: &mut Work<'_>, pass: Pass, holders: &IxVec<TaskIx, Vec<ClientIx>>, budget: usize) {
    let mut stuck = IxVec::from_elem(false, work.clients().count());
    while let Some((donor, receiver)) = pair(work, pass, &stuck) {
        let moved = match pass {
            Pass::Stateful => {
                transfer(work, donor, receiver, budget) || to_caught_up(work, donor, holders)
            }
            Pass::Stateless => shed_stateless(work, donor, receiver),
        };
        if !moved {
            stuck[donor] = true;
        }
    }
}

/// A receiver and its donor for `pass`. The receiver: the least loaded
/// client below its upper bound while some client is above its own, else
/// the least loaded below its lower bound. The donor: of the clients that
/// may give (above their upper bound, or above their lower bound when none
/// is; not stuck), in the stateful pass the one whose task the receiver has
/// the least to restore ([`holding_donor`]: a client back from an outage
/// takes back what it holds), else the most loaded.
fn pair(
    work: &Work<'_>,
    pass: Pass,
    stuck: &IxVec<ClientIx, bool>,
) -> Option<(ClientIx, ClientIx)> {
    let m = pass.measure(work);
    let above_upper = m.most_loaded(|c| stuck[c] || !m.over(c)).is_some();
    let receiver = if above_upper {
        m.least_loaded(|c| m.load[c] >= m.bounds[c].1)?
    } else {
        m.least_loaded(|c| !m.under(c))?
    };
    let may_give = |c: ClientIx| {
        c != receiver
            && !stuck[c]
            && if above_upper {
                m.over(c)
            } else {
                m.load[c] > m.bounds[c].0
            }
    };
    let holding = match pass {
        Pass::Stateful => holding_donor(work, receiver, &may_give),
        Pass::Stateless => None,
    };
    let donor = holding.or_else(|| m.most_loaded(|c| !may_give(c)))?;
    Some((donor, receiver))
}

/// The client `may_give` accepts that runs the stateful task `receiver`
/// has the least to restore of (by its lag reports; no warm-up yet): the
/// cheapest move. O(the receiver's lag reports).
fn holding_donor(
    work: &Work<'_>,
    receiver: ClientIx,
    may_give: &dyn Fn(ClientIx) -> bool,
) -> Option<ClientIx> {
    let state = work.state;
    work.client(receiver)
        .lags
        .iter()
        .filter_map(|(id, lag)| {
            let t = state.task_ix(*id)?;
            let owner = work.owner[t]?;
            let wanted = work.stateful(t) && work.warmup[t].is_none() && may_give(owner);
            wanted.then(|| (lag.restore_records(work.end_offset(t)), t, owner))
        })
        .min()
        .map(|(_, _, owner)| owner)
}

/// Whether stateful task `t`, run by `donor` with no warm-up elsewhere, may
/// go to `receiver` in the stateful pass: the receiver stays within its
/// upper bound and the donor within its lower one.
fn movable(work: &Work<'_>, t: TaskIx, donor: ClientIx, receiver: ClientIx) -> bool {
    work.owner[t] == Some(donor)
        && work.warmup[t].is_none()
        && work.stateful_on[donor].contains(&t)
        && work.stateful.fits(receiver)
        && work.stateful.gives(donor)
}

/// Moves one of `donor`'s stateful actives to any client that is caught up
/// on it and may receive (with room when the donor is above its upper
/// bound, else below its lower bound): the least loaded such client, for the donor's
/// first task in id order that has one. Reads each task's holders, so all
/// donors together cost O(lag reports).
fn to_caught_up(
    work: &mut Work<'_>,
    donor: ClientIx,
    holders: &IxVec<TaskIx, Vec<ClientIx>>,
) -> bool {
    // Above its upper bound the donor gives to any client with room; else
    // only to one below its lower bound (the shortfall must shrink).
    let over = work.stateful.over(donor);
    let found = work.stateful_on[donor].iter().copied().find_map(|t| {
        holders[t]
            .iter()
            .copied()
            .filter(|&c| {
                c != donor
                    && (over || work.stateful.under(c))
                    && movable(work, t, donor, c)
                    && work.caught_up(c, t)
            })
            .min_by_key(|&c| (work.stateful.per_thread(c), c))
            .map(|c| (t, c))
    });
    match found {
        Some((t, c)) => {
            work.move_active(t, c);
            true
        }
        None => false,
    }
}

/// Moves one of `donor`'s stateful actives towards `receiver`, cheapest
/// first: one `receiver` is caught up on (its copy is within
/// `acceptable_recovery_lag`, or it holds none and the whole changelog is:
/// it moves at once and pauses as a stateless one would); else, within the
/// warm-up budget, a warm-up of the task `receiver` restores the least of
/// (a partial copy, or the smallest changelog). False when none can.
fn transfer(work: &mut Work<'_>, donor: ClientIx, receiver: ClientIx, budget: usize) -> bool {
    let state = work.state;
    let acceptable = state.config().acceptable_recovery_lag;
    let mut best: Option<(u64, TaskIx)> = None;
    for (id, lag) in &work.client(receiver).lags {
        let Some(t) = state.task_ix(*id) else {
            continue;
        };
        if !movable(work, t, donor, receiver) {
            continue;
        }
        let restore = lag.restore_records(work.end_offset(t));
        if lag.is_caught_up(acceptable) || restores_in_a_pause(work, restore) {
            work.move_active(t, receiver);
            return true;
        }
        if best.is_none_or(|(r, b)| (restore, t) < (r, b)) {
            best = Some((restore, t));
        }
    }
    // A changelog within the acceptable lag: caught up without a copy.
    let small = work.stateful_on[donor].iter().copied().find(|&t| {
        work.end_offset(t) <= acceptable
            && movable(work, t, donor, receiver)
            && work.caught_up(receiver, t)
    });
    if let Some(t) = small {
        work.move_active(t, receiver);
        return true;
    }
    if work.warmups >= budget {
        return false;
    }
    // A task with no state on the receiver restores its whole changelog:
    // the smallest one, unless a partial copy is cheaper.
    let fresh = work.stateful_on[donor]
        .iter()
        .copied()
        .filter(|&t| movable(work, t, donor, receiver))
        .min_by_key(|&t| (work.end_offset(t), t));
    let choice = match (best, fresh) {
        (Some((restore, t)), Some(f)) => {
            if restore <= work.end_offset(f) {
                t
            } else {
                f
            }
        }
        (Some((_, t)), None) => t,
        (None, Some(f)) => f,
        (None, None) => return false,
    };
    work.warm_up(choice, receiver);
    true
}

/// Moves one of `donor`'s stateless actives to `receiver`, when the
/// receiver stays within its upper bound and the donor within its lower
/// one: the heaviest (by input rate; of equal ones, the first in id order).
/// False when none can.
fn shed_stateless(work: &mut Work<'_>, donor: ClientIx, receiver: ClientIx) -> bool {
    if !(work.total.fits(receiver) && work.total.gives(donor)) {
        return false;
    }
    let chosen = work.stateless_on[donor]
        .iter()
        .copied()
        .max_by_key(|&t| (work.weight_of(t), Reverse(t)));
    match chosen {
        Some(t) => {
            work.move_active(t, receiver);
            true
        }
        None => false,
    }
}

/// How long a copy may take to restore, at the observed restore rate, and
/// still move at once: about what a rebalance pauses a moved task (Kafka
/// Streams' defaults give a few seconds), so restoring it costs no more than
/// the follow-up rebalance a warm-up would need.
const SHORT_RESTORE_MS: u64 = 2_000;

/// Whether `restore` records take at most [`SHORT_RESTORE_MS`] at the
/// observed restore rate (never without an observation).
fn restores_in_a_pause(work: &Work<'_>, restore: u64) -> bool {
    work.state.observed_restore_rate().is_some_and(|rate| {
        u128::from(restore) * 1000 <= u128::from(rate) * u128::from(SHORT_RESTORE_MS)
    })
}

/// Warm-ups of the previous plan that are still restoring, kept where their
/// client stays within its upper bound and the task's owner within its
/// lower one (the move they were placed for is still wanted), within the
/// budget, in task order.
fn keep_restoring_warmups(work: &mut Work<'_>, budget: usize) {
    let state = work.state;
    for (c, client) in state.client_ixs().zip(state.clients()) {
        for id in &client.previous_warmup {
            if work.warmups >= budget {
                return;
            }
            let Some(t) = state.task_ix(*id) else {
                continue;
            };
            let Some(owner) = work.owner[t] else {
                continue;
            };
            if owner == c || work.warmup[t].is_some() || !work.stateful(t) {
                continue;
            }
            if work.caught_up(c, t) {
                // Caught up: the balance pass moves the active now if the
                // move is still wanted.
                continue;
            }
            if movable(work, t, owner, c) {
                work.warm_up(t, c);
            }
        }
    }
}
