//! Lags, caught-up sets and the most-caught-up client of every stateful task,
//! computed from sparse lag reports.
//!
//! A client with no report for a task has lag = the task's end offset, so all
//! such clients form one class. Each caught-up set is stored as its shorter
//! description: the clients that are caught up, or (when the no-report class is
//! caught up) the clients that are not. Cost: O(tasks + lag entries + clients).

use crate::model::{ClusterState, Lag};

use super::work::{Client, Task};

/// One list per bucket (a task, a count) in two flat vectors, no
/// allocation per list: row `b` is `items[start[b]..start[b + 1]]`.
pub(super) struct Rows<T> {
    start: Vec<usize>,
    items: Vec<T>,
}

impl<T: Copy> Rows<T> {
    /// `buckets` lists from (bucket, item) pairs by a stable counting sort:
    /// each list keeps the items' order. O(buckets + items).
    pub(super) fn bucketed(buckets: usize, pairs: Vec<(usize, T)>) -> Rows<T> {
        let mut start = vec![0usize; buckets + 1];
        for &(b, _) in &pairs {
            start[b + 1] += 1;
        }
        for b in 0..buckets {
            start[b + 1] += start[b];
        }
        let mut items = match pairs.first() {
            Some(&(_, any)) => vec![any; pairs.len()],
            None => Vec::new(),
        };
        let mut fill = start.clone();
        for (b, item) in pairs {
            items[fill[b]] = item;
            fill[b] += 1;
        }
        Rows { start, items }
    }

    fn row(&self, b: usize) -> &[T] {
        &self.items[self.start[b]..self.start[b + 1]]
    }

    /// Every item, bucket after bucket.
    pub(super) fn into_items(self) -> Vec<T> {
        self.items
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
        // Reports in client order, bucketed by task: each task's reports
        // stay in client order.
        let mut reports: Vec<(usize, (Client, Lag))> = Vec::new();
        for (c, client) in state.clients().iter().enumerate() {
            for (id, &lag) in &client.lags {
                let t = state
                    .task_position(*id)
                    .expect("validated: lag of a known task");
                reports.push((t, (c, lag)));
            }
        }
        let entries = Rows::bucketed(n, reports);
        let default: Vec<Lag> = tasks.iter().map(|t| Lag::Records(t.end_offset)).collect();
        let everyone: Vec<bool> = default.iter().map(|d| d.is_caught_up(acceptable)).collect();
        let listed = Rows::bucketed(
            n,
            (0..n)
                .flat_map(|t| {
                    let all = everyone[t];
                    entries
                        .row(t)
                        .iter()
                        .filter(move |(_, lag)| lag.is_caught_up(acceptable) != all)
                        .map(move |&(c, _)| (t, c))
                })
                .collect(),
        );
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
