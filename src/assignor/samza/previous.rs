//! The previous slot layout, derived from the previous assignment.
//!
//! Samza persists its task → container mapping and each container's host;
//! the model carries neither, only what every live client ran before. This
//! module rebuilds, each run, the grouping Samza would read back and the
//! previous client of every active and standby slot:
//!
//! 1. **Owner.** A task's previous owner is the first client by id listing it
//!    in `previous_active` (a stale second owner is ignored).
//! 2. **Live groups.** Every client owning at least one task is a previous
//!    *active container*; its tasks are one group.
//! 3. **Departed containers.** A task without a live owner ran on a client
//!    that is gone (or is new: the model cannot tell the two apart). A client
//!    owning nothing but listing `previous_standby` tasks is a previous
//!    *standby container*; the ownerless tasks it kept standbys of are the
//!    stateful part of the departed container it mirrored, so they form one
//!    group, keyed by the first such standby container by id that holds them.
//!    The remaining ownerless tasks (stateless ones, those without any
//!    standby, new ones) form one last group.
//! 4. **Slot ids.** Live groups come first, largest first, ties by client id;
//!    then the departed groups keyed by a standby container, largest first,
//!    ties by that client's id; then the last group. Samza's own groupings
//!    always have sizes non-increasing in the container id (the extra tasks
//!    sit on the lowest ids), so this recovers the size profile of Samza's
//!    persisted numbering and with it Samza's move count; it also puts the
//!    departed groups, which have no client to keep them, where a shrinking
//!    count empties slots first.
//! 5. **Standby slots.** Each previous standby container mirrors the derived
//!    slot that holds most of its standby tasks (ties: the lowest slot); the
//!    containers mirroring one slot are its standby slots `0, 1, …` by client id.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet};

use crate::model::{ClusterState, TaskId};

/// The previous grouping, in derived slot order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Previous {
    /// Task ranks of each previous slot, ascending; never empty.
    pub groups: Vec<Vec<usize>>,
    /// The live client that ran each slot; `None` for a departed container.
    pub client: Vec<Option<usize>>,
    /// Per slot, the previous standby containers mirroring it, by client id.
    pub standbys: Vec<Vec<usize>>,
}

impl Previous {
    /// Derives the layout from the clients' previous assignment; `rank` maps
    /// a task position to its rank in Samza's name order. O(T log T + P log T)
    /// with P the entries of all previous sets.
    pub(super) fn derive(state: &ClusterState, rank: &[usize]) -> Previous {
        let clients = state.clients();
        let task_count = state.tasks().len();
        let positions = |ids: &BTreeSet<TaskId>| {
            ids.iter()
                .filter_map(|&id| state.task_position(id))
                .collect::<Vec<usize>>()
        };

        let mut owner: Vec<Option<usize>> = vec![None; task_count];
        for (c, client) in clients.iter().enumerate() {
            for t in positions(&client.previous_active) {
                owner[t].get_or_insert(c);
            }
        }
        let mut live: Vec<Vec<usize>> = vec![Vec::new(); clients.len()];
        for (t, o) in owner.iter().enumerate() {
            if let Some(c) = *o {
                live[c].push(rank[t]);
            }
        }

        let standby_containers: Vec<usize> = (0..clients.len())
            .filter(|&c| live[c].is_empty() && !clients[c].previous_standby.is_empty())
            .collect();
        let mut key: Vec<Option<usize>> = vec![None; task_count];
        for &c in &standby_containers {
            for t in positions(&clients[c].previous_standby) {
                if owner[t].is_none() {
                    key[t].get_or_insert(c);
                }
            }
        }
        let mut mirrored: Vec<Vec<usize>> = vec![Vec::new(); clients.len()];
        let mut rest = Vec::new();
        for t in 0..task_count {
            if owner[t].is_some() {
                continue;
            }
            match key[t] {
                Some(c) => mirrored[c].push(rank[t]),
                None => rest.push(rank[t]),
            }
        }

        let mut groups = Vec::new();
        let mut client = Vec::new();
        let mut by_size = |sets: Vec<Vec<usize>>, live: bool| {
            let mut keyed: Vec<(Reverse<usize>, usize, Vec<usize>)> = sets
                .into_iter()
                .enumerate()
                .filter(|(_, g)| !g.is_empty())
                .map(|(c, g)| (Reverse(g.len()), c, g))
                .collect();
            keyed.sort_unstable_by_key(|&(size, c, _)| (size, c));
            for (_, c, mut g) in keyed {
                g.sort_unstable();
                groups.push(g);
                client.push(live.then_some(c));
            }
        };
        by_size(live, true);
        by_size(mirrored, false);
        if !rest.is_empty() {
            rest.sort_unstable();
            groups.push(rest);
            client.push(None);
        }

        let mut slot_of_rank = vec![0; task_count];
        for (slot, group) in groups.iter().enumerate() {
            for &r in group {
                slot_of_rank[r] = slot;
            }
        }
        let mut standbys = vec![Vec::new(); groups.len()];
        for &c in &standby_containers {
            let mut count: BTreeMap<usize, usize> = BTreeMap::new();
            for t in positions(&clients[c].previous_standby) {
                *count.entry(slot_of_rank[rank[t]]).or_default() += 1;
            }
            let best = count
                .into_iter()
                .max_by_key(|&(slot, n)| (n, Reverse(slot)))
                .map(|(slot, _)| slot);
            if let Some(slot) = best {
                standbys[slot].push(c);
            }
        }

        Previous {
            groups,
            client,
            standbys,
        }
    }
}
