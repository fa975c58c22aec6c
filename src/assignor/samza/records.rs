//! The previous layout read from the job's record of its containers
//! ([`ClusterState::previous_containers`]), as Samza reads its coordinator
//! stream: the task → container mapping of the active containers, and the
//! client (host) each container, active or standby, last ran on.
//!
//! The mapping is Samza's `balance` input only when it is whole, as in
//! `GroupByContainerCount`: it must name exactly the tasks of the state (a
//! task added or removed since, and Samza groups round robin) and its active
//! containers must be exactly `0 … k−1` (any other set of ids, and Samza
//! groups round robin). Either way the containers keep their hosts: where a
//! container runs is host affinity's business, by container id, whatever
//! its tasks.
//!
//! A record whose name is no Samza container id (`I` or `I-R`, decimal)
//! keeps no host; if it ran tasks as active, the mapping cannot be read and
//! Samza's round robin groups the tasks. Each of these cases leaves a note.

use std::collections::{BTreeMap, BTreeSet};

use crate::model::ix::positions;
use crate::model::{ClientIx, ClusterState, IxVec, TaskId, TaskIx};

use super::container::Member;
use super::grouping::Groups;
use super::positions::{Rank, SlotIx};
use super::previous::Previous;
use super::Counts;

/// Reads the records of `state`: `None` when it has none (the derived
/// layout stands in, `previous.rs`). `rank` maps a task position to its rank
/// in Samza's name order; `counts` the new container counts: hosts are read
/// for containers `0 … N−1` and their standby containers. Notes on
/// records that could not be used go to `notes`.
pub(super) fn read(
    state: &ClusterState,
    rank: &IxVec<TaskIx, Rank>,
    counts: Counts,
    notes: &mut Vec<String>,
) -> Option<Previous> {
    let records = state.previous_containers();
    if records.is_empty() {
        return None;
    }
    let mut actives: BTreeMap<SlotIx, Vec<TaskIx>> = BTreeMap::new();
    let mut hosts: BTreeMap<Member, ClientIx> = BTreeMap::new();
    let mut gone: BTreeSet<SlotIx> = BTreeSet::new();
    let mut foreign = Vec::new();
    let mut unreadable = false;
    let mut removed = BTreeSet::new();
    for (name, record) in records {
        let Some(member) = Member::parse(name.as_str()) else {
            foreign.push(name.as_str());
            unreadable |= !record.active.is_empty();
            continue;
        };
        match state.client_ix(&record.client) {
            Some(c) => {
                hosts.insert(member, c);
            }
            None if member.standby.is_none() => {
                gone.insert(member.slot);
            }
            None => {}
        }
        if member.standby.is_none() && !record.active.is_empty() {
            let tasks = actives.entry(member.slot).or_default();
            for &id in &record.active {
                match state.task_ix(id) {
                    Some(t) => tasks.push(t),
                    None => {
                        removed.insert(id);
                    }
                }
            }
        }
    }
    if !foreign.is_empty() {
        notes.push(format!(
            "previous container(s) {} are not Samza container ids (I or I-R): their hosts are not kept",
            list(foreign.iter().map(|n| format!("\"{n}\"")))
        ));
    }
    let groups = if unreadable {
        notes.push(
            "a previous container that is not a Samza container id ran tasks: the mapping cannot be read, tasks grouped round robin"
                .into(),
        );
        None
    } else {
        mapping(state, rank, &actives, &removed, notes)
    };
    Some(Previous {
        groups: groups.unwrap_or_default(),
        client: positions::<SlotIx>(counts.slots)
            .map(|i| hosts.get(&Member::active(i)).copied())
            .collect(),
        lost: positions::<SlotIx>(counts.slots)
            .map(|i| gone.contains(&i))
            .collect(),
        standbys: positions::<SlotIx>(counts.slots)
            .map(|i| {
                (0..counts.replicas)
                    .map(|r| hosts.get(&Member::standby(i, r)).copied())
                    .collect()
            })
            .collect(),
    })
}

/// The previous grouping when the mapping is whole (see the module doc);
/// `None`, with a note, when Samza would group round robin.
fn mapping(
    state: &ClusterState,
    rank: &IxVec<TaskIx, Rank>,
    actives: &BTreeMap<SlotIx, Vec<TaskIx>>,
    removed: &BTreeSet<TaskId>,
    notes: &mut Vec<String>,
) -> Option<Groups> {
    let mut mapped: IxVec<TaskIx, bool> = IxVec::from_elem(false, state.tasks().len());
    for &t in actives.values().flatten() {
        mapped[t] = true;
    }
    let added: Vec<String> = state
        .task_ixs()
        .filter(|&t| !mapped[t])
        .map(|t| state.tasks()[t.index()].id.to_string())
        .collect();
    if !added.is_empty() || !removed.is_empty() {
        if !actives.is_empty() {
            notes.push(format!(
                "the task set changed since the previous grouping ({} new: {}; {} gone: {}): Samza groups round robin",
                added.len(),
                list(added.iter().cloned()),
                removed.len(),
                list(removed.iter().map(ToString::to_string)),
            ));
        }
        return None;
    }
    let contiguous = actives
        .keys()
        .enumerate()
        .all(|(k, slot)| slot.index() == k);
    if !contiguous {
        notes.push(format!(
            "the previous active containers are {}, not 0 … {}: Samza groups round robin",
            list(actives.keys().map(|s| s.index().to_string())),
            actives.len() - 1
        ));
        return None;
    }
    Some(
        actives
            .values()
            .map(|tasks| {
                let mut group: Vec<Rank> = tasks.iter().map(|&t| rank[t]).collect();
                group.sort_unstable();
                group
            })
            .collect(),
    )
}

/// The first few items of a list, joined, with the count of the rest.
fn list(items: impl Iterator<Item = String>) -> String {
    const SHOWN: usize = 8;
    let items: Vec<String> = items.collect();
    let mut text = items[..items.len().min(SHOWN)].join(", ");
    if items.len() > SHOWN {
        text.push_str(&format!(" and {} more", items.len() - SHOWN));
    }
    text
}
