//! [`TaskIndex`]: the position of a task id among a state's sorted tasks.

use super::TaskId;

/// Task positions by id without a search per lookup in the common case:
/// tasks are sorted by (subtopology, partition), so each subtopology is a
/// run of positions, and when its partitions are `first..first + count`
/// (every partition numbered, as Kafka numbers them) a position is plain
/// arithmetic; otherwise a binary search within the run. Lookups are on the
/// assignors' hot paths (one per lag report), where a map of every id was
/// the slowest step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TaskIndex {
    /// Per subtopology, ascending.
    runs: Vec<Run>,
    /// Every id, in position order.
    ids: Vec<TaskId>,
}

/// The positions of one subtopology's tasks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Run {
    subtopology: u32,
    /// Position of its first task.
    start: usize,
    /// Partition of its first task.
    first: u32,
    /// Number of tasks.
    count: usize,
    /// Whether the partitions are `first..first + count`.
    consecutive: bool,
}

impl TaskIndex {
    /// The index of ids sorted ascending (a state's task order).
    pub(crate) fn new(ids: Vec<TaskId>) -> TaskIndex {
        debug_assert!(ids.windows(2).all(|w| w[0] < w[1]), "sorted, distinct ids");
        let mut runs: Vec<Run> = Vec::new();
        for (i, id) in ids.iter().enumerate() {
            match runs.last_mut() {
                Some(run) if run.subtopology == id.subtopology => {
                    run.consecutive &=
                        u64::from(id.partition) == u64::from(run.first) + run.count as u64;
                    run.count += 1;
                }
                _ => runs.push(Run {
                    subtopology: id.subtopology,
                    start: i,
                    first: id.partition,
                    count: 1,
                    consecutive: true,
                }),
            }
        }
        TaskIndex { runs, ids }
    }

    /// The position of `id`, if a task has it.
    /// Every id, in order.
    pub(crate) fn ids(&self) -> &[TaskId] {
        &self.ids
    }

    pub(crate) fn position(&self, id: TaskId) -> Option<usize> {
        let r = self
            .runs
            .binary_search_by_key(&id.subtopology, |run| run.subtopology)
            .ok()?;
        let run = self.runs[r];
        if run.consecutive {
            let offset = id.partition.checked_sub(run.first)? as usize;
            (offset < run.count).then_some(run.start + offset)
        } else {
            self.ids[run.start..run.start + run.count]
                .binary_search(&id)
                .ok()
                .map(|i| run.start + i)
        }
    }
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::TaskIndex;
    use crate::model::TaskId;

    #[test]
    fn positions_agree_with_a_search() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for _ in 0..200 {
            // Some subtopologies numbered densely, some with gaps.
            let mut ids = Vec::new();
            for s in 0..rng.random_range(1..5) {
                let first = rng.random_range(0..3);
                let gaps = rng.random_bool(0.5);
                let mut p = first;
                for _ in 0..rng.random_range(0..8) {
                    ids.push(TaskId::new(s * 2, p));
                    p += if gaps { rng.random_range(1..3) } else { 1 };
                }
            }
            let index = TaskIndex::new(ids.clone());
            for s in 0..10 {
                for p in 0..20 {
                    let id = TaskId::new(s, p);
                    assert_eq!(index.position(id), ids.binary_search(&id).ok(), "{id}");
                }
            }
        }
    }
}
