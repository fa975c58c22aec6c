//! Lags, caught-up sets and the most-caught-up client of every stateful task,
//! computed from sparse lag reports.
//!
//! A client with no report for a task has lag = the task's end offset, so all
//! such clients form one class. Each caught-up set is stored as its shorter
//! description: the clients that are caught up, or (when the no-report class is
//! caught up) the clients that are not. Cost: O(tasks + lag entries + clients).

use crate::model::{ClusterState, Lag, Task as TaskSpec, TaskId};

use super::work::{Client, Task};

/// One list per task in two flat vectors (no allocation per task): row `t`
/// is `items[start[t]..start[t + 1]]`.
struct Rows<T> {
    start: Vec<usize>,
    items: Vec<T>,
}

impl<T> Rows<T> {
    fn row(&self, t: Task) -> &[T] {
        &self.items[self.start[t]..self.start[t + 1]]
    }
}

/// Lag facts for every task (stateless tasks have empty entries).
pub(super) struct LagIndex {
    clients: usize,
    /// Reported lags per task, sorted by client.
    entries: Rows<(Client, Lag)>,
    /// The lag of a client without a report: the end offset.
    default: Vec<Lag>,
    /// Whether a client without a report is caught up on the task; then
    /// `listed` names the clients that are not, else those that are (each
    /// set stored as its shorter description; sorted).
    everyone: Vec<bool>,
    listed: Rows<Client>,
    /// The first client in Kafka's `(lag, process id)` order.
    most_caught_up: Vec<Option<(Lag, Client)>>,
}

impl LagIndex {
    pub(super) fn new(state: &ClusterState) -> LagIndex {
        let tasks = state.tasks();
        let n = tasks.len();
        let clients = state.clients().len();
        let acceptable = state.config().acceptable_recovery_lag;
        let locate = Locator::new(tasks);
        // Reports in client order, bucketed by task (a counting sort keeps
        // each task's reports in client order).
        let mut reports: Vec<(usize, Client, Lag)> = Vec::new();
        let mut start = vec![0usize; n + 1];
        for (c, client) in state.clients().iter().enumerate() {
            for (id, &lag) in &client.lags {
                let t = locate
                    .position(*id)
                    .expect("validated: lag of a known task");
                reports.push((t, c, lag));
                start[t + 1] += 1;
            }
        }
        for t in 0..n {
            start[t + 1] += start[t];
        }
        let mut fill = start.clone();
        let mut items = vec![(0, Lag::Running); reports.len()];
        for (t, c, lag) in reports {
            items[fill[t]] = (c, lag);
            fill[t] += 1;
        }
        let entries = Rows { start, items };
        let default: Vec<Lag> = tasks.iter().map(|t| Lag::Records(t.end_offset)).collect();
        let everyone: Vec<bool> = default.iter().map(|d| d.is_caught_up(acceptable)).collect();
        let mut listed = Rows {
            start: Vec::with_capacity(n + 1),
            items: Vec::new(),
        };
        listed.start.push(0);
        for (t, &all) in everyone.iter().enumerate() {
            listed.items.extend(
                entries
                    .row(t)
                    .iter()
                    .filter(|(_, lag)| lag.is_caught_up(acceptable) != all)
                    .map(|&(c, _)| c),
            );
            listed.start.push(listed.items.len());
        }
        let most_caught_up = (0..n)
            .map(|t| most_caught_up(entries.row(t), default[t], clients))
            .collect();
        LagIndex {
            clients,
            entries,
            default,
            everyone,
            listed,
            most_caught_up,
        }
    }

    /// The lag of client `c` on task `t`.
    pub(super) fn lag(&self, c: Client, t: Task) -> Lag {
        let row = self.entries.row(t);
        match row.binary_search_by_key(&c, |&(k, _)| k) {
            Ok(i) => row[i].1,
            Err(_) => self.default[t],
        }
    }

    /// Whether `c` is caught up on `t`.
    pub(super) fn is_caught_up(&self, c: Client, t: Task) -> bool {
        self.listed.row(t).binary_search(&c).is_ok() != self.everyone[t]
    }

    /// How many clients are caught up on `t`.
    pub(super) fn caught_up_count(&self, t: Task) -> usize {
        let listed = self.listed.row(t).len();
        if self.everyone[t] {
            self.clients - listed
        } else {
            listed
        }
    }

    /// The caught-up clients of `t` when they are few enough to list, or `None`
    /// when they are "everyone but a few" (walk the least-loaded order instead).
    pub(super) fn listed_caught_up(&self, t: Task) -> Option<&[Client]> {
        (!self.everyone[t]).then(|| self.listed.row(t))
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
        let row = self.entries.row(t);
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
