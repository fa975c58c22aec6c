//! Actives in the first design's order. Stateful: (1) a ready learner, (2) the previous
//! owner, (3) the client of an unready learner, (4) any client with room.
//! Stateless: the previous owner, else the least loaded client.

use std::cmp::Reverse;

use crate::assignor::load::Load;

use super::balance::balance;
use super::work::{Bounds, Kind, Work};
use crate::model::{ClientIx, TaskIx};

/// Places every stateful task's active; `bounds[c]` is client `c`'s fair
/// share `(⌊f⌋, ⌈f⌉)` of stateful actives.
pub(super) fn place_stateful(work: &mut Work, stateful: &[TaskIx], bounds: &Bounds) {
    let room =
        |w: &Work, c: ClientIx| !w.leaving[c] && w.load[Kind::Stateful as usize][c] < bounds[c].1;
    // (1) A learner that has caught up takes the active over.
    for &t in stateful {
        let ready = work.prev_learners[t]
            .iter()
            .copied()
            .filter(|&c| room(work, c) && work.caught_up(c, t))
            .min_by_key(|&c| (work.lag(c, t), c));
        if let Some(c) = ready {
            work.set_active(c, t);
        }
    }
    // (2) The previous owner keeps it, whatever its load: balance is restored
    // by learners, never by moving an active to a client that must restore it.
    for &t in stateful {
        if let (None, Some(p)) = (work.owner[t], work.prev_owner[t]) {
            work.set_active(p, t);
        }
    }
    // (3) The previous owner is gone: the client furthest in learning it.
    for &t in stateful {
        if work.owner[t].is_some() {
            continue;
        }
        let learner = work.prev_learners[t]
            .iter()
            .copied()
            .filter(|&c| room(work, c))
            .min_by_key(|&c| (work.lag(c, t), c));
        if let Some(c) = learner {
            work.set_active(c, t);
        }
    }
    // (4) Any client: staying clients first, then caught-up ones (a standby
    // fails over), then those with room, then the least loaded.
    for &t in stateful {
        if work.owner[t].is_none() {
            let c = work
                .clients()
                .min_by_key(|&c| {
                    let load = work.load[Kind::Stateful as usize][c];
                    (
                        work.leaving[c],
                        !work.caught_up(c, t),
                        load >= bounds[c].1,
                        Load::of(load, work.capacity(c)),
                        work.lag(c, t),
                        c,
                    )
                })
                .expect("at least one client");
            work.set_active(c, t);
        }
    }
}

/// Places every stateless task's active: its previous owner while that one
/// stays and has room, else the staying client with room and the fewest
/// stateless actives per thread; then moves them (no state to learn) until every
/// client is within its share: leaving owners first, then the most loaded.
pub(super) fn place_stateless(work: &mut Work, stateless: &[TaskIx], bounds: &Bounds) {
    let k = Kind::Stateless as usize;
    for &t in stateless {
        let keep =
            work.prev_owner[t].filter(|&p| !work.leaving[p] && work.load[k][p] < bounds[p].1);
        let c = keep.unwrap_or_else(|| {
            work.clients()
                .min_by_key(|&c| {
                    let load = work.load[k][c];
                    let full = load >= bounds[c].1;
                    (work.leaving[c], full, Load::of(load, work.capacity(c)), c)
                })
                .expect("at least one client")
        });
        work.set_active(c, t);
    }
    balance(work, Kind::Stateless, bounds, |w, r, is_donor| {
        let task = w
            .tasks()
            .filter(|&t| w.kind(t) == Kind::Stateless)
            .filter_map(|t| w.owner[t].filter(|&h| is_donor(w, h)).map(|h| (t, h)))
            .min_by_key(|&(t, h)| {
                let load = Load::of(w.load[k][h], w.capacity(h));
                (!w.leaving[h], Reverse(load), t)
            });
        match task {
            None => false,
            Some((t, _)) => {
                w.move_active(t, r);
                true
            }
        }
    });
}
