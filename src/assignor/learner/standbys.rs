//! Standbys, placed last (§1.8): `min(num_standby_replicas, clients − 1)` per
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

use crate::assignor::load::Load;

use super::work::{Task, Work};

/// Places the standbys of every task of `stateful`.
pub(super) fn place(work: &mut Work, stateful: &[Task]) {
    let replicas = work.state.config().num_standby_replicas as usize;
    let expected = replicas.min(work.client_count().saturating_sub(1));
    if expected == 0 {
        return;
    }
    for &t in stateful {
        let mut candidates: Vec<usize> = (0..work.client_count())
            .filter(|&c| !work.holds(c, t))
            .collect();
        let wanted = if work.learner_of[t].is_some() {
            let kept = candidates
                .iter()
                .filter(|&&c| work.had_standby(c, t))
                .count();
            kept.clamp(expected - 1, expected)
        } else {
            expected
        };
        candidates.sort_by_cached_key(|&c| {
            (
                !work.had_standby(c, t),
                !work.caught_up(c, t),
                work.leaving[c],
                Load::of(work.assigned_count(c), work.capacity(c)),
                c,
            )
        });
        for c in candidates.into_iter().take(wanted) {
            work.add_standby(c, t);
        }
    }
}
