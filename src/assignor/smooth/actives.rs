//! Actives first: every task stays with its previous owner while that client
//! is a member; a task without one goes where it is cheapest to run.

use super::work::{Cx, Tx, Work};

/// Which clients reported a lag for each task, or held it as a replica: the
/// clients that may have some of its state. Positions in id order.
pub(super) fn holders(work: &Work<'_>) -> Vec<Vec<Cx>> {
    let state = work.state;
    let mut holders = vec![Vec::new(); state.tasks().len()];
    for (c, client) in state.clients().iter().enumerate() {
        let reported = client.lags.keys().chain(&client.previous_standby);
        for id in reported {
            if let Some(t) = state.task_position(*id) {
                if holders[t].last() != Some(&c) {
                    holders[t].push(c);
                }
            }
        }
    }
    holders
}

/// Keeps every previous active on its owner, then places the others:
/// stateful ones by restore cost, stateless ones on the least loaded client.
pub(super) fn place(work: &mut Work<'_>, holders: &[Vec<Cx>]) {
    let state = work.state;
    for (c, client) in state.clients().iter().enumerate() {
        for id in &client.previous_active {
            if let Some(t) = state.task_position(*id) {
                if work.owner[t].is_none() {
                    work.place(t, c);
                }
            }
        }
    }
    let orphans: Vec<Tx> = (0..state.tasks().len())
        .filter(|&t| work.owner[t].is_none())
        .collect();
    let (stateful, stateless): (Vec<Tx>, Vec<Tx>) = orphans
        .into_iter()
        .partition(|&t| state.stateful_flags()[t]);
    for t in stateful {
        let c = cheapest(work, t, &holders[t]);
        work.place(t, c);
    }
    for t in stateless {
        let c = work.least_loaded(|_| false).expect("a client");
        work.place(t, c);
    }
}

/// Where a stateful task without an owner restores least: a caught-up
/// client (a standby fails over; with room first, then the least loaded),
/// else the client with the least to restore (with room first), else the
/// least loaded client with room. Balance comes after, by cheaper moves:
/// an active that restores is a task that is down.
fn cheapest(work: &Work<'_>, t: Tx, holders: &[Cx]) -> Cx {
    let full = |c: Cx| work.count[c] >= work.bounds[c].1;
    let end = work.state.end_offsets()[t];
    let caught_up = holders
        .iter()
        .copied()
        .filter(|&c| work.caught_up(c, t))
        .min_by_key(|&c| (full(c), work.load(c), c));
    if let Some(c) = caught_up {
        return c;
    }
    let least_lag = holders
        .iter()
        .copied()
        .map(|c| {
            (
                work.lag(c, t).restore_records(end),
                full(c),
                work.load(c),
                c,
            )
        })
        .min();
    match least_lag {
        Some((restore, _, _, c)) if restore < end => c,
        _ => work
            .least_loaded(full)
            .or_else(|| work.least_loaded(|_| false))
            .expect("a client"),
    }
}
