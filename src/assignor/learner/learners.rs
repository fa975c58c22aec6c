//! Learners (§1.8): existing ones are kept while they still bring their
//! client toward its share; then heavy clients' tasks are learned on light
//! clients, preferring a client that holds a standby (the standby turns into
//! the learner). A task has at most one learner, paired with its one active.

use std::cmp::Reverse;

use crate::assignor::load::Load;

use super::balance::balance;
use super::work::{Client, Kind, Task, Work};

const STATEFUL: usize = Kind::Stateful as usize;

/// Keeps the previous learners that are still wanted. A previous learner
/// can be kept when it is not ready (a ready one took its active in
/// `actives`), its client stays and does not run the task, and no earlier
/// client (id order) keeps one of the task. When keeping all of those leaves
/// every client within `lo ..= hi`, all are kept, so a plan made again on its
/// own outcome is the same plan. Otherwise each is kept, clients and tasks in
/// id order, while its client is below `hi` and the task's owner is leaving
/// or above `lo`.
pub(super) fn keep(work: &mut Work, bounds: &[(usize, usize)]) {
    let state = work.state;
    let mut candidates = Vec::new();
    let mut taken = vec![false; work.owner.len()];
    for (c, client) in state.clients().iter().enumerate() {
        for &id in &client.previous_warmup {
            let t = state.task_position(id).expect("validated: a known task");
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
        .zip(bounds)
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
/// already caught up on it, and to a new learner there otherwise.
pub(super) fn place(work: &mut Work, bounds: &[(usize, usize)]) {
    balance(work, Kind::Stateful, bounds, |w, r, is_donor| {
        match pick(w, r, is_donor) {
            None => false,
            Some(t) => {
                if w.caught_up(r, t) {
                    w.move_active(t, r);
                } else {
                    w.add_learner(r, t);
                }
                true
            }
        }
    });
}

/// The task receiver `r` should learn: among stateful tasks of donors with
/// no learner yet, those of leaving owners first, then the least lag on `r`
/// (a standby or an old copy first), then the most loaded owner, then id.
fn pick(work: &Work, r: Client, is_donor: &dyn Fn(&Work, Client) -> bool) -> Option<Task> {
    (0..work.owner.len())
        .filter(|&t| work.kind(t) == Kind::Stateful && work.learner_of[t].is_none())
        .filter_map(|t| work.owner[t].filter(|&h| is_donor(work, h)).map(|h| (t, h)))
        .min_by_key(|&(t, h)| {
            let load = Load::of(work.load[STATEFUL][h], work.capacity(h));
            (!work.leaving[h], work.lag(r, t), Reverse(load), t)
        })
        .map(|(t, _)| t)
}
