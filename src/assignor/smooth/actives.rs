//! Actives first: every task stays with its previous owner while that client
//! is a member and no other client is better placed to run it at once; a
//! task without one goes where it is back up soonest.

use crate::model::{ClientIx, IxVec, TaskIx};

use super::work::Work;

/// Which clients reported a lag for each task, or held it as a replica: the
/// clients that may have some of its state. Positions in id order.
pub(super) fn holders(work: &Work<'_>) -> IxVec<TaskIx, Vec<ClientIx>> {
    let state = work.state;
    let mut holders = IxVec::from_elem(Vec::new(), state.tasks().len());
    for (c, client) in state.client_ixs().zip(state.clients()) {
        let reported = client.lags.keys().chain(&client.previous_standby);
        for id in reported {
            if let Some(t) = state.task_ix(*id) {
                if holders[t].last() != Some(&c) {
                    holders[t].push(c);
                }
            }
        }
    }
    holders
}

/// Keeps every previous active on its owner unless the task is stateful,
/// its owner is not caught up on it and another client is (the owner lost
/// its store or has not restored it yet, a standby has it: KIP-441's rule),
/// then places the others: stateful ones where they are running again
/// soonest, fewest records first (loads: stateful actives per thread),
/// stateless ones on the client with the fewest actives per thread.
pub(super) fn place(work: &mut Work<'_>, holders: &IxVec<TaskIx, Vec<ClientIx>>) {
    let state = work.state;
    for (c, client) in state.client_ixs().zip(state.clients()) {
        for id in &client.previous_active {
            if let Some(t) = state.task_ix(*id) {
                if work.owner[t].is_none() && !fails_over(work, t, c, &holders[t]) {
                    work.place(t, c);
                }
            }
        }
    }
    let orphans: Vec<TaskIx> = work.tasks().filter(|&t| work.owner[t].is_none()).collect();
    let (mut stateful, stateless): (Vec<TaskIx>, Vec<TaskIx>) =
        orphans.into_iter().partition(|&t| work.stateful(t));
    if !stateful.is_empty() {
        // Only with stateful orphans: a steady group reads no restore queue.
        let mut queues = Queues::of(work);
        stateful.sort_by_cached_key(|&t| (least_restore(work, t, &holders[t]), t));
        for t in stateful {
            let c = soonest(work, &queues, t, &holders[t]);
            queues.add(work, c, t);
            work.place(t, c);
        }
    }
    work.total.index();
    for t in stateless {
        let c = work.total.least_loaded(|_| false).expect("a client");
        work.place(t, c);
    }
}

/// Whether stateful task `t` should leave its previous owner `owner`: the
/// owner is not caught up on it and another client is.
fn fails_over(work: &Work<'_>, t: TaskIx, owner: ClientIx, holders: &[ClientIx]) -> bool {
    work.stateful(t)
        && !work.caught_up(owner, t)
        && holders.iter().any(|&c| c != owner && work.caught_up(c, t))
}

/// The fewest records task `t` would restore anywhere: 0 where a client is
/// caught up on it, its whole changelog where nobody holds any of it.
fn least_restore(work: &Work<'_>, t: TaskIx, holders: &[ClientIx]) -> u64 {
    holders
        .iter()
        .map(|&c| restore_on(work, c, t))
        .fold(work.end_offset(t), u64::min)
}

/// The records each client's restoring actives have left, ascending, with
/// their running sums: a client restores its actives together, sharing its
/// restore rate equally among them.
struct Queues(IxVec<ClientIx, Queue>);

/// One client's restores: amounts ascending, `sums[i]` the total of the
/// first `i` (so `sums` is one longer).
#[derive(Clone)]
struct Queue {
    amounts: Vec<u64>,
    sums: Vec<u128>,
}

impl Queues {
    fn of(work: &Work<'_>) -> Queues {
        let empty = Queue {
            amounts: Vec::new(),
            sums: vec![0],
        };
        let mut queues = Queues(IxVec::from_elem(empty, work.clients().count()));
        for c in work.clients() {
            for &t in &work.stateful_on[c] {
                queues.add(work, c, t);
            }
        }
        queues
    }

    /// Counts task `t`'s restore on `c`, if it has one: O(queue) to keep
    /// the order and the sums.
    fn add(&mut self, work: &Work<'_>, c: ClientIx, t: TaskIx) {
        let restore = restore_on(work, c, t);
        if restore == 0 {
            return;
        }
        let queue = &mut self.0[c];
        let at = queue.amounts.partition_point(|&x| x <= restore);
        queue.amounts.insert(at, restore);
        queue.sums.truncate(at + 1);
        let mut sum = queue.sums[at];
        for &x in &queue.amounts[at..] {
            sum += u128::from(x);
            queue.sums.push(sum);
        }
    }

    /// Task-seconds (in records at the client's rate) that restoring
    /// `restore` more records on `c` adds, under equal sharing: its own
    /// time to run, `restore` plus `min(x, restore)` for each task ahead with
    /// `x` left, and the same `min(x, restore)` of delay to each of those.
    /// O(log queue).
    fn cost(&self, c: ClientIx, restore: u64) -> u128 {
        let queue = &self.0[c];
        let below = queue.amounts.partition_point(|&x| x <= restore);
        let above = (queue.amounts.len() - below) as u128;
        let shared = queue.sums[below] + above * u128::from(restore);
        u128::from(restore) + 2 * shared
    }
}

/// Records client `c` restores before running task `t`: none when caught up.
fn restore_on(work: &Work<'_>, c: ClientIx, t: TaskIx) -> u64 {
    let lag = work.lag(c, t);
    if lag.is_caught_up(work.state.config().acceptable_recovery_lag) {
        0
    } else {
        lag.restore_records(work.end_offset(t))
    }
}

/// Where a stateful task without an owner is running again soonest: a
/// caught-up client (a standby fails over; with room first, then the least
/// loaded by stateful actives per thread), else, among the clients holding
/// some of its state and the least loaded client with room, the one where
/// restoring it costs the least task-time, counting the delay it adds to
/// the restores already queued there ([`Queues::cost`]; with room first,
/// then the least loaded). Balance comes after, by cheaper moves: an active
/// that restores is a task that is down.
fn soonest(work: &Work<'_>, queues: &Queues, t: TaskIx, holders: &[ClientIx]) -> ClientIx {
    let full = |c: ClientIx| !work.stateful.fits(c);
    let caught_up = holders
        .iter()
        .copied()
        .filter(|&c| work.caught_up(c, t))
        .min_by_key(|&c| (full(c), work.stateful.per_thread(c), c));
    if let Some(c) = caught_up {
        return c;
    }
    let spare = work
        .stateful
        .least_loaded(full)
        .or_else(|| work.stateful.least_loaded(|_| false));
    holders
        .iter()
        .copied()
        .chain(spare)
        .map(|c| {
            let cost = queues.cost(c, restore_on(work, c, t));
            (cost, full(c), work.stateful.per_thread(c), c)
        })
        .min()
        .map(|(_, _, _, c)| c)
        .expect("a client")
}
