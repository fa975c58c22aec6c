//! Standbys: `min(num_standby_replicas, clients − 1)` per stateful task, where
//! the state already is (caught-up copies first, then the least left to
//! restore), else on the client with the fewest replicas. A caught-up copy
//! always stays (moving it buys nothing and costs a whole restore elsewhere,
//! which would slow the warm-ups restoring there); a client takes a copy it
//! must restore only while it has fewer than ⌈replicas / clients⌉ + 1
//! replicas, and new ones go to the clients with the fewest, so standbys
//! placed afresh never pile up on one client.

use std::collections::BTreeSet;

use super::work::{Cx, Tx, Work};

/// Replicas (standbys and warm-ups) per client, with an index by count.
struct Replicas {
    count: Vec<usize>,
    by_count: BTreeSet<(usize, Cx)>,
}

impl Replicas {
    fn add(&mut self, c: Cx) {
        self.by_count.remove(&(self.count[c], c));
        self.count[c] += 1;
        self.by_count.insert((self.count[c], c));
    }
}

/// Each client's standbys, in task order.
pub(super) fn place(work: &Work<'_>, holders: &[Vec<Cx>]) -> Vec<BTreeSet<Tx>> {
    let state = work.state;
    let clients = state.clients().len();
    let mut standby = vec![BTreeSet::new(); clients];
    let k = (state.config().num_standby_replicas as usize).min(clients.saturating_sub(1));
    if k == 0 {
        return standby;
    }
    let mut replicas = Replicas {
        count: vec![0; clients],
        by_count: BTreeSet::new(),
    };
    for &c in work.warmup.iter().flatten() {
        replicas.count[c] += 1;
    }
    replicas.by_count = (0..clients).map(|c| (replicas.count[c], c)).collect();
    let stateful: Vec<Tx> = (0..state.tasks().len())
        .filter(|&t| state.stateful_flags()[t])
        .collect();
    let cap = (stateful.len() * k + work.warmups).div_ceil(clients) + 1;
    let end_offsets = state.end_offsets();
    for t in stateful {
        let (owner, warm) = (work.owner[t], work.warmup[t]);
        let free =
            |c: Cx, chosen: &[Cx]| Some(c) != owner && Some(c) != warm && !chosen.contains(&c);
        let wanted = k.min(clients - 1 - usize::from(warm.is_some()));
        let mut chosen: Vec<Cx> = Vec::with_capacity(wanted);
        // Where some of the state is: caught up first, then least to restore.
        let mut copies: Vec<(bool, u64, usize, Cx)> = holders[t]
            .iter()
            .copied()
            .filter(|&c| free(c, &chosen))
            .map(|c| {
                let restore = work.lag(c, t).restore_records(end_offsets[t]);
                (!work.caught_up(c, t), restore, replicas.count[c], c)
            })
            .filter(|&(stale, restore, _, _)| !stale || restore < end_offsets[t])
            .collect();
        copies.sort_unstable();
        for (stale, _, _, c) in copies {
            if chosen.len() == wanted {
                break;
            }
            if !stale || replicas.count[c] < cap {
                chosen.push(c);
                replicas.add(c);
            }
        }
        // The rest on the clients with the fewest replicas.
        while chosen.len() < wanted {
            let Some(&(_, c)) = replicas.by_count.iter().find(|&&(_, c)| free(c, &chosen)) else {
                break;
            };
            chosen.push(c);
            replicas.add(c);
        }
        for c in chosen {
            standby[c].insert(t);
        }
    }
    standby
}
