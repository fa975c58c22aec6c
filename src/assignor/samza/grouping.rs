//! Level 1: tasks → logical containers ("slots"), Samza's
//! `GroupByContainerCount` (`org.apache.samza.container.grouper.task`;
//! `docs/algorithms.md`, *Samza: round robin* and *Samza: balance*).
//!
//! Tasks are handled by their *rank*: their position in Samza's name order,
//! so sorting ranks sorts task names and "the lexicographically largest name
//! of a group" is the largest rank.

use std::collections::VecDeque;

use crate::model::ClusterState;

/// Samza's task order: every task rendered as its name `S_P` and the names
/// sorted as strings (`"0_10" < "0_2"`, `"10_0" < "1_0"`). Returns the task
/// positions (in [`ClusterState::tasks`]) by rank.
pub(super) fn name_order(state: &ClusterState) -> Vec<usize> {
    let mut named: Vec<(String, usize)> = state
        .tasks()
        .iter()
        .enumerate()
        .map(|(i, task)| (task.id.to_string(), i))
        .collect();
    // Task ids are unique, so their names are, and the sort is total.
    named.sort_unstable();
    named.into_iter().map(|(_, i)| i).collect()
}

/// Samza's quota of slot `i` when `tasks` tasks go into `n` slots: an even
/// share, the remainder one each to the lowest slot ids; 0 beyond `n`.
pub(super) fn quota(i: usize, tasks: usize, n: usize) -> usize {
    if i < n {
        tasks / n + usize::from(i < tasks % n)
    } else {
        0
    }
}

/// `GroupByContainerCount.group(tasks)`: the task of rank `i` goes to slot
/// `i mod n`.
/// Every returned group is sorted by rank.
pub(super) fn round_robin(tasks: usize, n: usize) -> Vec<Vec<usize>> {
    let mut groups = vec![Vec::new(); n];
    for rank in 0..tasks {
        groups[rank % n].push(rank);
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
pub(super) fn balance(previous: &[Vec<usize>], tasks: usize, n: usize) -> Vec<Vec<usize>> {
    let k = previous.len();
    if k <= 1 || n == 1 {
        return round_robin(tasks, n);
    }
    let mut groups = previous.to_vec();
    if k == n {
        return groups;
    }
    let mut spill = VecDeque::new();
    for (i, group) in groups.iter_mut().enumerate() {
        let keep = quota(i, tasks, n);
        while group.len() > keep {
            // Groups are sorted: the last one is the largest remaining name.
            spill.extend(group.pop());
        }
    }
    groups.resize(n, Vec::new());
    for (i, group) in groups.iter_mut().enumerate() {
        let want = quota(i, tasks, n);
        while group.len() < want {
            match spill.pop_front() {
                Some(rank) => group.push(rank),
                // Quotas add up to `tasks`, which the groups hold: the list
                // cannot run dry before every slot is at its quota.
                None => break,
            }
        }
        group.sort_unstable();
    }
    groups
}
