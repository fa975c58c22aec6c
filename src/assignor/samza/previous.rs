//! The previous container layout, derived from the previous assignment, for
//! a state that carries no record of containers (`records.rs` reads one that
//! does).
//!
//! Samza persists its task → container mapping and each container's host;
//! a state from elsewhere (another strategy's plan, a hand-written file)
//! carries neither, only what every live client ran before. This module
//! rebuilds from that the grouping Samza would read back and the previous
//! client of every active and standby container:
//!
//! 1. **Owner.** A task's previous owner is the first client by id listing it
//!    in `previous_active` (a stale second owner is ignored).
//! 2. **Live groups.** The tasks a live client owns are one previous active
//!    container (a client that ran two containers, after a failover, reads
//!    back as one: the model keeps no container ids).
//! 3. **Departed containers.** A task without a live owner ran on a client
//!    that is gone (or is new: the model cannot tell the two apart). Its
//!    *holders* are the clients listing it in `previous_standby` (standby
//!    containers, and stores left on disk). Each such task joins the group of
//!    its holder that holds the most ownerless tasks (ties: the lowest id):
//!    the standby container of a departed container holds all its stateful
//!    tasks, so it outweighs a store left behind. The remaining ownerless
//!    tasks (stateless ones, those without any holder, new ones) form one
//!    last group.
//! 4. **Container ids.** Live groups come first, largest first, ties by client
//!    id; then the departed groups keyed by a holder, largest first, ties by
//!    that client's id; then the last group. Samza's own groupings always
//!    have sizes non-increasing in the container id (the extra tasks sit on
//!    the lowest ids), so this recovers the size profile of Samza's persisted
//!    numbering and with it Samza's move count; it also puts the departed
//!    groups, which have no client to keep them, where a shrinking count
//!    empties containers first.
//! 5. **Standby containers.** The previous standby containers of container
//!    `i` are the clients, other than `i`'s own, listing more than half of
//!    `i`'s stateful tasks in `previous_standby`, most of them first, ties by
//!    client id: `i-0` is the client that mirrored `i` most fully. A standby
//!    container Samza ran holds them all; a client holding a few stores left
//!    behind by moved tasks, or the standbys of another strategy's history,
//!    is no standby container.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet};

use crate::model::{ClientIx, ClusterState, IxVec, TaskId, TaskIx};

use super::grouping::Groups;
use super::positions::{Rank, SlotIx};

/// The previous grouping, in derived container id order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Previous {
    /// Task ranks of each previous container, ascending; never empty.
    pub groups: Groups,
    /// The live client that ran each container; `None` for a departed one.
    pub client: IxVec<SlotIx, Option<ClientIx>>,
    /// Whether each container's last client is gone (it fails over to one
    /// of its standby containers); derived here: every departed container.
    pub lost: IxVec<SlotIx, bool>,
    /// Per container, the live client of each previous standby container
    /// `i-r` by `r` (`None`: unknown, or gone). Derived here: the clients
    /// mirroring it, most fully first (ties by client id).
    pub standbys: IxVec<SlotIx, Vec<Option<ClientIx>>>,
}

/// The ranks of some tasks, per client.
type PerClient = IxVec<ClientIx, Vec<Rank>>;

impl Previous {
    /// Derives the layout from the clients' previous assignment; `rank` maps
    /// a task position to its rank in Samza's name order. O(T log T + P log P)
    /// with P the entries of all previous sets.
    pub(super) fn derive(state: &ClusterState, rank: &IxVec<TaskIx, Rank>) -> Previous {
        let owner = owners(state);
        let mut live: PerClient = IxVec::from_elem(Vec::new(), state.clients().len());
        for (t, o) in owner.iter_enumerated() {
            if let Some(c) = *o {
                live[c].push(rank[t]);
            }
        }
        let (mirrored, rest) = departed(state, rank, &owner);

        let mut previous = Previous {
            groups: IxVec::new(),
            client: IxVec::new(),
            lost: IxVec::new(),
            standbys: IxVec::new(),
        };
        previous.push_by_size(live, true);
        previous.push_by_size(mirrored, false);
        if !rest.is_empty() {
            previous.push(rest, None);
        }
        previous.standbys = previous.mirrors(state, rank);
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

    /// Appends container `group` (sorted here), run by `client`.
    fn push(&mut self, mut group: Vec<Rank>, client: Option<ClientIx>) {
        group.sort_unstable();
        self.groups.push(group);
        self.client.push(client);
        self.lost.push(client.is_none());
    }

    /// The previous standby containers of each container: the clients other
    /// than its own listing more than half of its stateful tasks in
    /// `previous_standby`, most first, ties by client id.
    fn mirrors(
        &self,
        state: &ClusterState,
        rank: &IxVec<TaskIx, Rank>,
    ) -> IxVec<SlotIx, Vec<Option<ClientIx>>> {
        let mut slot_of_rank: IxVec<Rank, Option<SlotIx>> = IxVec::from_elem(None, rank.len());
        for (slot, group) in self.groups.iter_enumerated() {
            for &r in group {
                slot_of_rank[r] = Some(slot);
            }
        }
        let mut stateful: IxVec<SlotIx, usize> = IxVec::from_elem(0, self.groups.len());
        for (t, task) in state.task_ixs().zip(state.tasks()) {
            if let (true, Some(slot)) = (task.stateful, slot_of_rank[rank[t]]) {
                stateful[slot] += 1;
            }
        }
        let mut count: BTreeMap<(SlotIx, ClientIx), usize> = BTreeMap::new();
        for (c, client) in state.client_ixs().zip(state.clients()) {
            let held = positions(state, &client.previous_standby);
            // The groups hold every rank: each has a container.
            for slot in held.into_iter().filter_map(|t| slot_of_rank[rank[t]]) {
                if self.client[slot] != Some(c) {
                    *count.entry((slot, c)).or_default() += 1;
                }
            }
        }
        let mut ranked: IxVec<SlotIx, Vec<(Reverse<usize>, ClientIx)>> =
            IxVec::from_elem(Vec::new(), self.groups.len());
        for ((slot, c), n) in count {
            if 2 * n > stateful[slot] {
                ranked[slot].push((Reverse(n), c));
            }
        }
        ranked
            .into_iter()
            .map(|mut r| {
                r.sort_unstable();
                r.into_iter().map(|(_, c)| Some(c)).collect()
            })
            .collect()
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

/// The ownerless tasks: those some client holds in `previous_standby`, per
/// the holder holding the most ownerless tasks (ties: the lowest id), and
/// the rest.
fn departed(
    state: &ClusterState,
    rank: &IxVec<TaskIx, Rank>,
    owner: &IxVec<TaskIx, Option<ClientIx>>,
) -> (PerClient, Vec<Rank>) {
    let held: IxVec<ClientIx, Vec<TaskIx>> = state
        .clients()
        .iter()
        .map(|client| {
            let mut ts = positions(state, &client.previous_standby);
            ts.retain(|&t| owner[t].is_none());
            ts
        })
        .collect();
    let mut key: IxVec<TaskIx, Option<(Reverse<usize>, ClientIx)>> =
        IxVec::from_elem(None, owner.len());
    for (c, ts) in held.iter_enumerated() {
        let weight = (Reverse(ts.len()), c);
        for &t in ts {
            if key[t].is_none_or(|k| weight < k) {
                key[t] = Some(weight);
            }
        }
    }
    let mut mirrored: PerClient = IxVec::from_elem(Vec::new(), state.clients().len());
    let mut rest = Vec::new();
    for t in owner.indices().filter(|&t| owner[t].is_none()) {
        match key[t] {
            Some((_, c)) => mirrored[c].push(rank[t]),
            None => rest.push(rank[t]),
        }
    }
    (mirrored, rest)
}
