//! Lags, caught-up sets and the most-caught-up client of every stateful task,
//! computed from sparse lag reports.
//!
//! A client with no report for a task has lag = the task's end offset, so all
//! such clients form one class. Each caught-up set is stored as its shorter
//! description: the clients that are caught up, or (when the no-report class is
//! caught up) the clients that are not. Cost: O(tasks + lag entries + clients).

use crate::model::{ClusterState, Lag, Task as TaskSpec, TaskId};

use super::work::{Client, Task};

/// Who is caught up on one task.
enum CaughtUp {
    /// Exactly these clients (sorted).
    Only(Vec<Client>),
    /// Every client but these (sorted).
    AllBut(Vec<Client>),
}

/// Lag facts for every task (stateless tasks have empty entries).
pub(super) struct LagIndex {
    clients: usize,
    /// Reported lags per task, sorted by client.
    entries: Vec<Vec<(Client, Lag)>>,
    /// The lag of a client without a report: the end offset.
    default: Vec<Lag>,
    caught_up: Vec<CaughtUp>,
    /// The first client in Kafka's `(lag, process id)` order.
    most_caught_up: Vec<Option<(Lag, Client)>>,
}

impl LagIndex {
    pub(super) fn new(state: &ClusterState) -> LagIndex {
        let tasks = state.tasks();
        let clients = state.clients().len();
        let acceptable = state.config().acceptable_recovery_lag;
        let mut entries = vec![Vec::new(); tasks.len()];
        let locate = Locator::new(tasks);
        for (c, client) in state.clients().iter().enumerate() {
            for (id, &lag) in &client.lags {
                let t = locate
                    .position(*id)
                    .expect("validated: lag of a known task");
                entries[t].push((c, lag));
            }
        }
        let default: Vec<Lag> = tasks.iter().map(|t| Lag::Records(t.end_offset)).collect();
        let caught_up = (0..tasks.len())
            .map(|t| {
                let everyone = default[t].is_caught_up(acceptable);
                let listed = entries[t]
                    .iter()
                    .filter(|(_, lag)| lag.is_caught_up(acceptable) != everyone)
                    .map(|&(c, _)| c)
                    .collect();
                if everyone {
                    CaughtUp::AllBut(listed)
                } else {
                    CaughtUp::Only(listed)
                }
            })
            .collect();
        let most_caught_up = (0..tasks.len())
            .map(|t| most_caught_up(&entries[t], default[t], clients))
            .collect();
        LagIndex {
            clients,
            entries,
            default,
            caught_up,
            most_caught_up,
        }
    }

    /// The lag of client `c` on task `t`.
    pub(super) fn lag(&self, c: Client, t: Task) -> Lag {
        let row = &self.entries[t];
        match row.binary_search_by_key(&c, |&(k, _)| k) {
            Ok(i) => row[i].1,
            Err(_) => self.default[t],
        }
    }

    /// Whether `c` is caught up on `t`.
    pub(super) fn is_caught_up(&self, c: Client, t: Task) -> bool {
        match &self.caught_up[t] {
            CaughtUp::Only(list) => list.binary_search(&c).is_ok(),
            CaughtUp::AllBut(list) => list.binary_search(&c).is_err(),
        }
    }

    /// How many clients are caught up on `t`.
    pub(super) fn caught_up_count(&self, t: Task) -> usize {
        match &self.caught_up[t] {
            CaughtUp::Only(list) => list.len(),
            CaughtUp::AllBut(list) => self.clients - list.len(),
        }
    }

    /// The caught-up clients of `t` when they are few enough to list, or `None`
    /// when they are "everyone but a few" (walk the least-loaded order instead).
    pub(super) fn listed_caught_up(&self, t: Task) -> Option<&[Client]> {
        match &self.caught_up[t] {
            CaughtUp::Only(list) => Some(list),
            CaughtUp::AllBut(_) => None,
        }
    }

    /// Kafka's `needs_move`: `c` is not caught up on `t` and the most caught-up
    /// client is strictly less lagged.
    pub(super) fn needs_move(&self, c: Client, t: Task) -> bool {
        if self.is_caught_up(c, t) {
            return false;
        }
        match self.most_caught_up[t] {
            Some((best, _)) => best < self.lag(c, t),
            None => false,
        }
    }

    /// The first client of Kafka's `(lag, id)` order.
    pub(super) fn most_caught_up(&self, t: Task) -> Option<Client> {
        self.most_caught_up[t].map(|(_, c)| c)
    }

    /// The first client in `(lag, id)` order that precedes `dest` and holds
    /// no replica of `t`: neither `owner` nor one of `replicas` (sorted).
    /// Among the clients without a report (all with the same lag) the first
    /// is the lowest id outside the reports and the holders, found by walking
    /// those sorted lists together: O(reports + holders), whatever the
    /// number of clients.
    pub(super) fn first_before(
        &self,
        t: Task,
        dest: Client,
        replicas: &[Client],
        owner: Option<Client>,
    ) -> Option<Client> {
        let holds = |c: Client| owner == Some(c) || replicas.binary_search(&c).is_ok();
        let limit = (self.lag(dest, t), dest);
        let row = &self.entries[t];
        let reported = row
            .iter()
            .map(|&(c, lag)| (lag, c))
            .filter(|&key| key < limit && !holds(key.1))
            .min();
        let (mut r, mut h) = (0, 0);
        let mut c = 0;
        let unreported = loop {
            if c >= self.clients {
                break None;
            }
            while r < row.len() && row[r].0 < c {
                r += 1;
            }
            while h < replicas.len() && replicas[h] < c {
                h += 1;
            }
            let taken = (r < row.len() && row[r].0 == c)
                || (h < replicas.len() && replicas[h] == c)
                || owner == Some(c);
            if !taken {
                break Some((self.default[t], c));
            }
            c += 1;
        };
        let unreported = unreported.filter(|&key| key < limit);
        reported.into_iter().chain(unreported).min().map(|(_, c)| c)
    }
}

/// Task positions by id without a search per lookup in the common case:
/// tasks are sorted by (subtopology, partition), so each subtopology is a
/// run of positions, and when its partitions are `first..first + count`
/// (every partition numbered, as Kafka numbers them) a position is plain
/// arithmetic; otherwise a binary search within the run.
struct Locator {
    /// Per subtopology, ascending: (subtopology, first position, first
    /// partition, count, whether the partitions are consecutive).
    runs: Vec<(u32, usize, u32, usize, bool)>,
    ids: Vec<TaskId>,
}

impl Locator {
    fn new(tasks: &[TaskSpec]) -> Locator {
        let ids: Vec<TaskId> = tasks.iter().map(|t| t.id).collect();
        let mut runs: Vec<(u32, usize, u32, usize, bool)> = Vec::new();
        for (i, id) in ids.iter().enumerate() {
            match runs.last_mut() {
                Some(run) if run.0 == id.subtopology => {
                    run.4 &= u64::from(id.partition) == u64::from(run.2) + run.3 as u64;
                    run.3 += 1;
                }
                _ => runs.push((id.subtopology, i, id.partition, 1, true)),
            }
        }
        Locator { runs, ids }
    }

    /// The position of `id`, if a task has it.
    fn position(&self, id: TaskId) -> Option<usize> {
        let r = self
            .runs
            .binary_search_by_key(&id.subtopology, |run| run.0)
            .ok()?;
        let (_, start, first, count, consecutive) = self.runs[r];
        if consecutive {
            let offset = id.partition.checked_sub(first)? as usize;
            (offset < count).then_some(start + offset)
        } else {
            self.ids[start..start + count]
                .binary_search(&id)
                .ok()
                .map(|i| start + i)
        }
    }
}

fn most_caught_up(row: &[(Client, Lag)], default: Lag, clients: usize) -> Option<(Lag, Client)> {
    let reported = row.iter().map(|&(c, lag)| (lag, c)).min();
    let first_gap = row
        .iter()
        .enumerate()
        .find(|&(i, &(c, _))| c != i)
        .map_or(row.len(), |(i, _)| i);
    let unreported = (first_gap < clients).then_some((default, first_gap));
    reported.into_iter().chain(unreported).min()
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::Locator;
    use crate::model::{Task, TaskId};

    #[test]
    fn locator_agrees_with_a_search() {
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
            let tasks: Vec<Task> = ids.iter().map(|&id| Task::stateless(id)).collect();
            let locate = Locator::new(&tasks);
            for s in 0..10 {
                for p in 0..20 {
                    let id = TaskId::new(s, p);
                    assert_eq!(locate.position(id), ids.binary_search(&id).ok(), "{id}");
                }
            }
        }
    }
}
