//! Balance by the cheapest moves: stateless actives move at once (they pause
//! for a rebalance, nothing more); a stateful active moves at once only to a
//! client already caught up on it; otherwise the client it should go to gets
//! a warm-up, within `max_warmup_replicas`, chosen where the least is left to
//! restore, and the active moves when that warm-up has caught up.

use crate::model::{ClientIx, IxVec, TaskIx};

use super::work::Work;

/// Brings every client within its share bounds as far as immediate moves and
/// the warm-up budget allow. Warm-ups still restoring (`previous_warmup`
/// not yet caught up) are placed first: their restore continues.
pub(super) fn balance(work: &mut Work<'_>, holders: &IxVec<TaskIx, Vec<ClientIx>>) {
    let budget = work.state.config().max_warmup_replicas as usize;
    keep_restoring_warmups(work, budget);
    // Donors that can give nothing more now (no stateless active, nothing a
    // receiver is caught up on, the budget spent).
    let mut stuck = IxVec::from_elem(false, work.count.len());
    while let Some((donor, receiver)) = pair(work, &stuck) {
        let moved = transfer(work, donor, receiver, budget) || to_caught_up(work, donor, holders);
        if !moved {
            stuck[donor] = true;
        }
    }
}

/// A receiver and its donor. The receiver: the least loaded client below
/// its upper bound while some client is above its own, else the least
/// loaded below its lower bound. The donor: of the clients that may give
/// (above their upper bound, or above their lower bound when none is; not
/// stuck), the one whose task the receiver has the least to restore
/// ([`holding_donor`]: a client back from an outage takes back what it
/// holds), else the most loaded.
fn pair(work: &Work<'_>, stuck: &IxVec<ClientIx, bool>) -> Option<(ClientIx, ClientIx)> {
    let over = |c: ClientIx| work.count[c] > work.bounds[c].1;
    let above_upper = work.most_loaded(|c| stuck[c] || !over(c)).is_some();
    let receiver = if above_upper {
        work.least_loaded(|c| work.count[c] >= work.bounds[c].1)?
    } else {
        work.least_loaded(|c| work.count[c] >= work.bounds[c].0)?
    };
    let may_give = |c: ClientIx| {
        c != receiver
            && !stuck[c]
            && if above_upper {
                over(c)
            } else {
                work.count[c] > work.bounds[c].0
            }
    };
    let donor =
        holding_donor(work, receiver, &may_give).or_else(|| work.most_loaded(|c| !may_give(c)))?;
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

/// Moves one of `donor`'s stateful actives to any client that is caught up
/// on it and may receive (below its upper bound when the donor is above
/// its own, else below its lower bound): the least loaded such client, for
/// the donor's first task in id order that has one. Reads each task's
/// holders, so all donors together cost O(lag reports).
fn to_caught_up(
    work: &mut Work<'_>,
    donor: ClientIx,
    holders: &IxVec<TaskIx, Vec<ClientIx>>,
) -> bool {
    let over = work.count[donor] > work.bounds[donor].1;
    let may_receive = |work: &Work<'_>, c: ClientIx| {
        c != donor
            && if over {
                work.count[c] < work.bounds[c].1
            } else {
                work.count[c] < work.bounds[c].0
            }
    };
    let found = work.stateful_on[donor]
        .iter()
        .copied()
        .filter(|&t| work.warmup[t].is_none())
        .find_map(|t| {
            holders[t]
                .iter()
                .copied()
                .filter(|&c| may_receive(work, c) && work.caught_up(c, t))
                .min_by_key(|&c| (work.load(c), c))
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

/// Moves one active's worth from `donor` to `receiver`, cheapest first: a
/// stateful active `receiver` is caught up on (it comes home: it pauses as
/// a stateless one would, and its standby copies fit again); a warm-up of a
/// stateful task `receiver` has little left to restore ([`is_cheap`]); a
/// stateless active; else a warm-up of the donor's task `receiver` restores
/// the least of. False when none can (the budget spent).
fn transfer(work: &mut Work<'_>, donor: ClientIx, receiver: ClientIx, budget: usize) -> bool {
    let state = work.state;
    let client = work.client(receiver);
    let acceptable = state.config().acceptable_recovery_lag;
    let mut best: Option<(u64, TaskIx)> = None;
    for (id, lag) in &client.lags {
        let Some(t) = state.task_ix(*id) else {
            continue;
        };
        if work.owner[t] != Some(donor) || work.warmup[t].is_some() {
            continue;
        }
        if !work.stateful_on[donor].contains(&t) {
            continue;
        }
        if lag.is_caught_up(acceptable) {
            work.move_active(t, receiver);
            return true;
        }
        let restore = lag.restore_records(work.end_offset(t));
        if best.is_none_or(|(r, b)| (restore, t) < (r, b)) {
            best = Some((restore, t));
        }
    }
    let room = work.warmups < budget;
    if let Some((restore, t)) = best {
        if room && is_cheap(work, restore) {
            work.warm_up(t, receiver);
            return true;
        }
    }
    if let Some(&t) = work.stateless_on[donor].iter().next() {
        work.move_active(t, receiver);
        return true;
    }
    if !room {
        return false;
    }
    // A task with no state on the receiver restores its whole changelog:
    // the smallest one, unless a partial copy is cheaper.
    let fresh = work.stateful_on[donor]
        .iter()
        .copied()
        .filter(|&t| work.warmup[t].is_none())
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

/// Whether a copy `restore` records behind is worth a warm-up before a
/// stateless move: it catches up within [`super::followup::MEASURE_MS`] at
/// the observed restore rate, or (no rate observed) is within ten times
/// `acceptable_recovery_lag` (a client back from a bounce).
fn is_cheap(work: &Work<'_>, restore: u64) -> bool {
    let acceptable = work.state.config().acceptable_recovery_lag;
    let by_rate = work.state.observed_restore_rate().map_or(0, |rate| {
        rate.saturating_mul(super::followup::MEASURE_MS / 1000)
    });
    restore <= acceptable.saturating_mul(10).max(by_rate)
}

/// Warm-ups of the previous plan that are still restoring, kept where their
/// client is headed below its upper bound and the task's owner above its
/// lower bound (the move they were placed for is still wanted), within the
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
            if work.count[c] < work.bounds[c].1 && work.count[owner] > work.bounds[owner].0 {
                work.warm_up(t, c);
            }
        }
    }
}
