//! Learners (KIP-441's first design): existing ones are kept while they still bring their
//! client toward its share; then heavy clients' tasks are learned on light
//! clients, preferring a client that holds a standby (the standby turns into
//! the learner). A task has at most one learner, paired with its one active.

use std::cmp::Reverse;
use std::collections::BTreeSet;

use crate::assignor::load::Load;
use crate::model::Lag;

use super::balance::balance;
use super::work::{Bounds, Kind, Work};
use crate::model::{ClientIx, IxVec, TaskIx};

const STATEFUL: usize = Kind::Stateful as usize;

/// Keeps the previous learners that are still wanted. A previous learner
/// can be kept when it is not ready (a ready one took its active in
/// `actives`), its client stays and does not run the task, and no earlier
/// client (id order) keeps one of the task. When keeping all of those leaves
/// every client within `lo ..= hi`, all are kept, so a plan made again on its
/// own outcome is the same plan. Otherwise each is kept, clients and tasks in
/// id order, while its client is below `hi` and the task's owner is leaving
/// or above `lo`.
pub(super) fn keep(work: &mut Work, bounds: &Bounds) {
    let state = work.state;
    let mut candidates = Vec::new();
    let mut taken: IxVec<TaskIx, bool> = IxVec::from_elem(false, work.owner.len());
    for (c, client) in state.client_ixs().zip(state.clients()) {
        for &id in &client.previous_warmup {
            let t = state.task_ix(id).expect("validated: a known task");
            let Some(h) = work.owner[t] else { continue };
            if h != c && !taken[t] && !work.leaving[c] && !work.caught_up(c, t) {
                taken[t] = true;
                candidates.push((c, t, h));
            }
        }
    }
    let mut load = work.load[STATEFUL].clone();
    for &(c, _, h) in &candidates {
        load[c] += 1;
        load[h] -= 1;
    }
    let all_fit = load
        .iter()
        .zip(bounds.iter())
        .all(|(&n, &(lo, hi))| (lo..=hi).contains(&n));
    for (c, t, h) in candidates {
        let helps = work.load[STATEFUL][c] < bounds[c].1
            && (work.leaving[h] || work.load[STATEFUL][h] > bounds[h].0);
        if all_fit || helps {
            work.add_learner(c, t);
        }
    }
}

/// Brings every client within its share of stateful actives: each task
/// taken from a donor goes to the receiver at once when the receiver is
/// already caught up on it, and to a new learner there otherwise. When no
/// donor has a task without a learner, a donor's learner moves to the
/// receiver instead (the design's "move learners from heavy to light
/// hosts"): a kept learner must not leave another client below its share.
pub(super) fn place(work: &mut Work, bounds: &Bounds) {
    let mut index = Learnable::new(work);
    balance(work, Kind::Stateful, bounds, |w, r, is_donor| {
        let t = match index.pick(w, r, is_donor) {
            Some(t) => {
                index.take(w, t);
                t
            }
            None => {
                let Some(t) = learner_to_move(w, r, is_donor) else {
                    return false;
                };
                w.remove_learner(t);
                // The receiver owns `t`, or holds a standby of it that cannot
                // also learn it: the owner keeps the task.
                if w.owner[t] == Some(r) || (!w.caught_up(r, t) && w.holds(r, t)) {
                    index.give(w, t);
                    return true;
                }
                t
            }
        };
        if w.caught_up(r, t) {
            w.move_active(t, r);
            index.give(w, t);
        } else {
            w.add_learner(r, t);
        }
        true
    });
}

/// A learner a donor holds that receiver `r` may take over: the donor's
/// learners, leaving donors first, then the most loaded donor, then task id.
/// Reads each donor's own learner set (its first is its least id), so a call
/// costs O(C), not a pass over every task.
fn learner_to_move(
    work: &Work,
    r: ClientIx,
    is_donor: &dyn Fn(&Work, ClientIx) -> bool,
) -> Option<TaskIx> {
    work.clients()
        .filter(|&d| d != r && is_donor(work, d))
        .filter_map(|d| work.learner[d].first().map(|&t| (t, d)))
        .min_by_key(|&(t, d)| {
            let load = Load::of(work.load[STATEFUL][d], work.capacity(d));
            (!work.leaving[d], Reverse(load), t)
        })
        .map(|(t, _)| t)
}

/// The tasks a receiver may learn — stateful, with an owner and no learner —
/// per owner, ordered by (end offset, id): the order `pick` wants among the
/// tasks the receiver reported no lag for (their lag is the end offset).
struct Learnable {
    by_owner: IxVec<ClientIx, BTreeSet<(u64, TaskIx)>>,
}

impl Learnable {
    /// `t`'s key in its owner's set.
    fn key(work: &Work, t: TaskIx) -> (u64, TaskIx) {
        (work.task(t).end_offset, t)
    }

    /// Removes `t` from its owner's set (it is being learned or moved).
    fn take(&mut self, work: &Work, t: TaskIx) {
        let owner = work.owner[t].expect("a learnable task has an owner");
        self.by_owner[owner].remove(&Self::key(work, t));
    }

    /// Files `t` under its (new) owner: it is learnable again there.
    fn give(&mut self, work: &Work, t: TaskIx) {
        let owner = work.owner[t].expect("a moved task has an owner");
        self.by_owner[owner].insert(Self::key(work, t));
    }

    fn new(work: &Work) -> Learnable {
        let mut by_owner = IxVec::from_elem(BTreeSet::new(), work.client_count());
        for t in work.tasks() {
            if let Some(h) = work.owner[t] {
                if work.kind(t) == Kind::Stateful && work.learner_of[t].is_none() {
                    by_owner[h].insert(Self::key(work, t));
                }
            }
        }
        Learnable { by_owner }
    }

    /// The task receiver `r` should learn: among stateful tasks of donors
    /// with no learner yet, those of leaving owners first, then the least
    /// lag on `r` (a standby or an old copy first), then the most loaded
    /// owner, then id.
    ///
    /// Every task of one owner shares the owner's part of the key, so the
    /// best task is the best of each donor's best: among the tasks `r`
    /// reported a lag for, by that lag, and among the others by end offset —
    /// the first of the donor's ordered set that `r` did not report. O(C +
    /// reports of `r`) per pick instead of a pass over every task.
    fn pick(
        &self,
        work: &Work,
        r: ClientIx,
        is_donor: &dyn Fn(&Work, ClientIx) -> bool,
    ) -> Option<TaskIx> {
        let state = work.state;
        let reports = &work.client(r).lags;
        let key = |t: TaskIx, h: ClientIx, lag: Lag| {
            let load = Load::of(work.load[STATEFUL][h], work.capacity(h));
            (!work.leaving[h], lag, Reverse(load), t)
        };
        let reported = reports.iter().filter_map(|(&id, &lag)| {
            let t = state.task_ix(id)?;
            let h = work.owner[t]?;
            let learnable = work.kind(t) == Kind::Stateful && work.learner_of[t].is_none();
            (learnable && is_donor(work, h)).then(|| key(t, h, lag))
        });
        let unreported = work
            .clients()
            .filter(|&h| is_donor(work, h))
            .filter_map(|h| {
                self.by_owner[h]
                    .iter()
                    .find(|&&(_, t)| !reports.contains_key(&work.task(t).id))
                    .map(|&(end, t)| key(t, h, Lag::Records(end)))
            });
        reported.chain(unreported).min().map(|(.., t)| t)
    }
}
