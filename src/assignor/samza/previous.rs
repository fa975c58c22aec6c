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

use crate::model::{ClientIx, ClusterState, IxVec, TaskId, TaskIx};

use super::grouping::Groups;
use super::positions::{Rank, SlotIx};

/// The previous grouping, in derived slot order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Previous {
    /// Task ranks of each previous slot, ascending; never empty.
    pub groups: Groups,
    /// The live client that ran each slot; `None` for a departed container.
    pub client: IxVec<SlotIx, Option<ClientIx>>,
    /// Per slot, the previous standby containers mirroring it, by client id.
    pub standbys: IxVec<SlotIx, Vec<ClientIx>>,
}

/// The ranks of some tasks, per client.
type PerClient = IxVec<ClientIx, Vec<Rank>>;

impl Previous {
    /// Derives the layout from the clients' previous assignment; `rank` maps
    /// a task position to its rank in Samza's name order. O(T log T + P log T)
    /// with P the entries of all previous sets.
    pub(super) fn derive(state: &ClusterState, rank: &IxVec<TaskIx, Rank>) -> Previous {
        let owner = owners(state);
        let mut live: PerClient = IxVec::from_elem(Vec::new(), state.clients().len());
        for (t, o) in owner.iter_enumerated() {
            if let Some(c) = *o {
                live[c].push(rank[t]);
            }
        }
        let standby_containers: Vec<ClientIx> = state
            .client_ixs()
            .filter(|&c| {
                live[c].is_empty() && !state.clients()[c.index()].previous_standby.is_empty()
            })
            .collect();
        let (mirrored, rest) = departed(state, rank, &owner, &standby_containers);

        let mut previous = Previous {
            groups: IxVec::new(),
            client: IxVec::new(),
            standbys: IxVec::new(),
        };
        previous.push_by_size(live, true);
        previous.push_by_size(mirrored, false);
        if !rest.is_empty() {
            previous.push(rest, None);
        }
        previous.standbys = previous.mirrors(state, rank, &standby_containers);
        previous
    }

    /// Appends the non-empty groups of `sets`, largest first, ties by client
    /// id; each ran on its client if `live`.
    fn push_by_size(&mut self, sets: PerClient, live: bool) {
        let clients = sets.indices();
        let mut keyed: Vec<(Reverse<usize>, ClientIx, Vec<Rank>)> = clients
            .zip(sets)
            .filter(|(_, g)| !g.is_empty())
            .map(|(c, g)| (Reverse(g.len()), c, g))
            .collect();
        keyed.sort_unstable_by_key(|&(size, c, _)| (size, c));
        for (_, c, g) in keyed {
            self.push(g, live.then_some(c));
        }
    }

    /// Appends slot `group` (sorted here), run by `client`.
    fn push(&mut self, mut group: Vec<Rank>, client: Option<ClientIx>) {
        group.sort_unstable();
        self.groups.push(group);
        self.client.push(client);
    }

    /// The standby containers mirroring each slot: each mirrors the slot
    /// holding most of its standby tasks (ties: the lowest slot).
    fn mirrors(
        &self,
        state: &ClusterState,
        rank: &IxVec<TaskIx, Rank>,
        standby_containers: &[ClientIx],
    ) -> IxVec<SlotIx, Vec<ClientIx>> {
        let mut slot_of_rank: IxVec<Rank, Option<SlotIx>> = IxVec::from_elem(None, rank.len());
        for (slot, group) in self.groups.iter_enumerated() {
            for &r in group {
                slot_of_rank[r] = Some(slot);
            }
        }
        let mut standbys = IxVec::from_elem(Vec::new(), self.groups.len());
        for &c in standby_containers {
            let mut count: BTreeMap<SlotIx, usize> = BTreeMap::new();
            let held = positions(state, &state.clients()[c.index()].previous_standby);
            // The groups hold every rank: each has a slot.
            for slot in held.into_iter().filter_map(|t| slot_of_rank[rank[t]]) {
                *count.entry(slot).or_default() += 1;
            }
            let best = count
                .into_iter()
                .max_by_key(|&(slot, n)| (n, Reverse(slot)))
                .map(|(slot, _)| slot);
            if let Some(slot) = best {
                standbys[slot].push(c);
            }
        }
        standbys
    }
}

/// The positions of the tasks of `ids` that are in `state`.
fn positions(state: &ClusterState, ids: &BTreeSet<TaskId>) -> Vec<TaskIx> {
    ids.iter().filter_map(|&id| state.task_ix(id)).collect()
}

/// Each task's previous owner: the first client by id listing it in
/// `previous_active`.
fn owners(state: &ClusterState) -> IxVec<TaskIx, Option<ClientIx>> {
    let mut owner = IxVec::from_elem(None, state.tasks().len());
    for (c, client) in state.client_ixs().zip(state.clients()) {
        for t in positions(state, &client.previous_active) {
            owner[t].get_or_insert(c);
        }
    }
    owner
}

/// The ownerless tasks: those kept as standbys by a standby container, per
/// the first such container by id, and the rest.
fn departed(
    state: &ClusterState,
    rank: &IxVec<TaskIx, Rank>,
    owner: &IxVec<TaskIx, Option<ClientIx>>,
    standby_containers: &[ClientIx],
) -> (PerClient, Vec<Rank>) {
    let mut key: IxVec<TaskIx, Option<ClientIx>> = IxVec::from_elem(None, owner.len());
    for &c in standby_containers {
        for t in positions(state, &state.clients()[c.index()].previous_standby) {
            if owner[t].is_none() {
                key[t].get_or_insert(c);
            }
        }
    }
    let mut mirrored: PerClient = IxVec::from_elem(Vec::new(), state.clients().len());
    let mut rest = Vec::new();
    for t in owner.indices().filter(|&t| owner[t].is_none()) {
        match key[t] {
            Some(c) => mirrored[c].push(rank[t]),
            None => rest.push(rank[t]),
        }
    }
    (mirrored, rest)
}
