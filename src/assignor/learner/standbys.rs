//! Standbys, placed last (KIP-441's first design): `min(num_standby_replicas, clients − 1)` per
//! stateful task on clients that hold no other replica of it.
//!
//! A learner converted from a standby stands in for it while it learns: a
//! task with a learner keeps as many standbys as it had (previous standbys
//! still among the candidates), between one fewer than wanted and the number
//! wanted, so a plan made again on the same report is the same plan.
//! Candidates in order: previous standby holders, caught-up clients, staying
//! clients, the fewest replicas per thread, id. A leaving client's copies so
//! serve as standbys until it leaves, and the clients that stay spend their
//! restore bandwidth on the learners that let it leave.

use std::collections::BTreeSet;

use crate::assignor::load::Load;
use crate::model::{ClusterState, Lag};

use super::work::Work;
use crate::model::{ClientIx, IxVec, TaskIx};

/// Places the standbys of every task of `stateful`.
///
/// Only a few clients differ from the rest on a task: those that held it as
/// a standby or reported a lag for it (`special`). Every other client has
/// the same "had a standby" (no) and "caught up" (as with no local state)
/// answers, so among them the order is (leaving, load, id), which an
/// ordered set keeps across tasks. A task's standbys are then the first
/// `wanted` keys among its special clients and the first `wanted` others
/// from the set: O((wanted + special) log C) per task, not a sort of all
/// clients.
pub(super) fn place(work: &mut Work, stateful: &[TaskIx]) {
    let replicas = work.state.config().num_standby_replicas as usize;
    let expected = replicas.min(work.client_count().saturating_sub(1));
    if expected == 0 {
        return;
    }
    let special = special_clients(work.state);
    let acceptable = work.state.config().acceptable_recovery_lag;
    let load = |w: &Work, c: ClientIx| Load::of(w.assigned_count(c), w.capacity(c));
    let mut order: BTreeSet<(bool, Load, ClientIx)> = work
        .clients()
        .map(|c| (work.leaving[c], load(work, c), c))
        .collect();
    for &t in stateful {
        let (owner, learner) = (work.owner[t], work.learner_of[t]);
        let holds = |c: ClientIx| owner == Some(c) || learner == Some(c);
        let listed = &special[t];
        let wanted = if learner.is_some() {
            let kept = listed
                .iter()
                .filter(|&&c| !holds(c) && work.had_standby(c, t))
                .count();
            kept.clamp(expected - 1, expected)
        } else {
            expected
        };
        let end = work.task(t).end_offset;
        let nobody_caught_up = !Lag::Records(end).is_caught_up(acceptable);
        let mut keys: Vec<(bool, bool, bool, Load, ClientIx)> = listed
            .iter()
            .filter(|&&c| !holds(c))
            .map(|&c| {
                let (no_standby, not_caught_up) = (!work.had_standby(c, t), !work.caught_up(c, t));
                (no_standby, not_caught_up, work.leaving[c], load(work, c), c)
            })
            .collect();
        keys.extend(
            order
                .iter()
                .filter(|&&(_, _, c)| !holds(c) && listed.binary_search(&c).is_err())
                .take(wanted)
                .map(|&(leaving, l, c)| (true, nobody_caught_up, leaving, l, c)),
        );
        if wanted < keys.len() {
            keys.select_nth_unstable(wanted);
            keys.truncate(wanted);
        }
        keys.sort_unstable();
        for (.., c) in keys {
            order.remove(&(work.leaving[c], load(work, c), c));
            work.add_standby(c, t);
            order.insert((work.leaving[c], load(work, c), c));
        }
    }
}

/// For every task, the clients (ascending, once each) that held it as a
/// standby or reported a lag for it.
fn special_clients(state: &ClusterState) -> IxVec<TaskIx, Vec<ClientIx>> {
    let mut special = IxVec::from_elem(Vec::new(), state.tasks().len());
    for (c, client) in state.client_ixs().zip(state.clients()) {
        for id in client.previous_standby.iter().chain(client.lags.keys()) {
            if let Some(t) = state.task_ix(*id) {
                let list: &mut Vec<ClientIx> = &mut special[t];
                if list.last() != Some(&c) {
                    list.push(c);
                }
            }
        }
    }
    special
}
