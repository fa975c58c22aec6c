//! Level 1: tasks → logical containers ("slots"), Samza's
//! `GroupByContainerCount` (`org.apache.samza.container.grouper.task`;
//! `docs/algorithms.md`, *Samza: round robin* and *Samza: balance*).
//!
//! Tasks are handled by their [`Rank`]: their position in Samza's name order,
//! so sorting ranks sorts task names and "the lexicographically largest name
//! of a group" is the largest rank.

use std::collections::VecDeque;

use crate::model::ix::positions;
use crate::model::{ClusterState, IxVec, TaskIx};

use super::positions::{Rank, SlotIx};

/// A grouping: the ranks of each slot.
pub(super) type Groups = IxVec<SlotIx, Vec<Rank>>;

/// Samza's task order: every task rendered as its name `S_P` and the names
/// sorted as strings (`"0_10" < "0_2"`, `"10_0" < "1_0"`). Returns the task
/// positions by rank.
pub(super) fn name_order(state: &ClusterState) -> IxVec<Rank, TaskIx> {
    let mut named: Vec<(String, TaskIx)> = state
        .task_ixs()
        .map(|t| (state.tasks()[t.index()].id.to_string(), t))
        .collect();
    // Task ids are unique, so their names are, and the sort is total.
    named.sort_unstable();
    named.into_iter().map(|(_, t)| t).collect()
}

/// The rank of every task position: the inverse of `order` ([`name_order`]).
pub(super) fn ranks(order: &IxVec<Rank, TaskIx>) -> IxVec<TaskIx, Rank> {
    let mut rank: IxVec<TaskIx, Option<Rank>> = IxVec::from_elem(None, order.len());
    for (r, &t) in order.iter_enumerated() {
        rank[t] = Some(r);
    }
    // `order` is a permutation of the task positions: every one has a rank.
    rank.into_iter().flatten().collect()
}

/// Samza's quota of slot `i` when `tasks` tasks go into `n` slots: an even
/// share, the remainder one each to the lowest slot ids; 0 beyond `n`.
pub(super) fn quota(i: SlotIx, tasks: usize, n: usize) -> usize {
    let i = i.index();
    if i < n {
        tasks / n + usize::from(i < tasks % n)
    } else {
        0
    }
}

/// `GroupByContainerCount.group(tasks)`: the task of rank `i` goes to slot
/// `i mod n`.
/// Every returned group is sorted by rank.
pub(super) fn round_robin(tasks: usize, n: usize) -> Groups {
    let mut groups = IxVec::from_elem(Vec::new(), n);
    for rank in positions::<Rank>(tasks) {
        groups[SlotIx::from_position(rank.index() % n)].push(rank);
    }
    groups
}

/// `GroupByContainerCount.group(tasks, metadata)`, the "balance" Samza runs with host
/// affinity on: `previous` is the previous grouping (slot `i` = its `i`-th
/// group; every group non-empty and sorted by rank; together they hold each
/// of the ranks `0..tasks` once), `n` the new slot count (`1 ≤ n ≤ tasks`).
///
/// Falls back to [`round_robin`] when there are fewer than two previous
/// groups or `n == 1`; returns `previous` unchanged when its count is `n`
/// (even if unbalanced, as Samza does). Otherwise every slot keeps its tasks
/// up to its [`quota`], the largest names above it spill into a FIFO list
/// (slots in ascending order), and the slots below quota take from the head
/// of that list in ascending order. Only spilled tasks move:
/// Σᵢ max(0, |Gᵢ| − quotaᵢ) of them. O(T).
pub(super) fn balance(previous: &Groups, tasks: usize, n: usize) -> Groups {
    let k = previous.len();
    if k <= 1 || n == 1 {
        return round_robin(tasks, n);
    }
    if k == n {
        return previous.clone();
    }
    let spill = spill(previous, tasks, n);
    fill(previous, spill, tasks, n)
}

/// The ranks above the quotas of the `previous` slots, slots in ascending
/// order, each slot's largest names last-in first: Samza's spill list.
fn spill(previous: &Groups, tasks: usize, n: usize) -> VecDeque<Rank> {
    let mut spill = VecDeque::new();
    for (i, group) in previous.iter_enumerated() {
        let keep = quota(i, tasks, n).min(group.len());
        // Groups are sorted: the largest remaining name is popped first.
        spill.extend(group[keep..].iter().rev());
    }
    spill
}

/// The `n` slots: each previous slot up to its quota, then topped up to its
/// quota from the head of `spill`, slots in ascending order.
fn fill(previous: &Groups, mut spill: VecDeque<Rank>, tasks: usize, n: usize) -> Groups {
    let mut groups = Groups::new();
    for i in positions::<SlotIx>(n) {
        let want = quota(i, tasks, n);
        let kept = previous.get(i).map_or(&[][..], |g| &g[..want.min(g.len())]);
        let mut group = kept.to_vec();
        while group.len() < want {
            match spill.pop_front() {
                Some(rank) => group.push(rank),
                // Quotas add up to `tasks`, which the groups hold: the list
                // cannot run dry before every slot is at its quota.
                None => break,
            }
        }
        group.sort_unstable();
        groups.push(group);
    }
    groups
}
