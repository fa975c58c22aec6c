//! Lags, caught-up sets and the most-caught-up client of every stateful task,
//! computed from sparse lag reports.
//!
//! A client with no report for a task has lag = the task's end offset, so all
//! such clients form one class. Each report carries whether it is caught up,
//! so a task's caught-up set is its flagged reports or, when the no-report
//! class is caught up, every client but its unflagged reports. Cost:
//! O(tasks + lag entries + clients) time; 16 bytes per lag entry and 16 per
//! task kept, and 20 bytes per lag entry of scratch while building.

use crate::model::{ClientIx, ClusterState, IxVec, Lag, TaskIx};

use super::rows::Rows;

/// One lag report, 16 bytes: the client, its [`Lag`] unpacked, and whether
/// it is caught up.
#[derive(Debug, Clone, Copy)]
struct Report {
    client: u32,
    /// 0: unknown, 1: running, 2: `records`.
    kind: u8,
    caught_up: bool,
    records: u64,
}

impl Report {
    fn new(client: ClientIx, lag: Lag, acceptable: u64) -> Report {
        let (kind, records) = match lag {
            Lag::Unknown => (0, 0),
            Lag::Running => (1, 0),
            Lag::Records(n) => (2, n),
        };
        Report {
            client: client.raw(),
            kind,
            caught_up: lag.is_caught_up(acceptable),
            records,
        }
    }

    fn client(self) -> ClientIx {
        ClientIx::from_raw(self.client)
    }

    fn lag(self) -> Lag {
        match self.kind {
            0 => Lag::Unknown,
            1 => Lag::Running,
            _ => Lag::Records(self.records),
        }
    }
}

/// No most caught-up client (a task without clients).
const NONE: u32 = u32::MAX;

/// Lag facts for every task (stateless tasks have empty entries), all in flat
/// per-task arrays: the reports, sorted by client, carry their caught-up
/// flag, so a caught-up set is "the flagged reports" or, when the no-report
/// class is caught up, "everyone but the unflagged reports".
pub(super) struct LagIndex<'a> {
    /// The number of clients (at most [`crate::model::MAX_CLIENTS`]).
    clients: u32,
    /// Reported lags per task, sorted by client.
    entries: Rows<Report>,
    /// The lag of a client without a report: `Records(end offset)`.
    end_offset: &'a [u64],
    acceptable_recovery_lag: u64,
    /// How many clients are caught up on the task (at most
    /// [`crate::model::MAX_CLIENTS`], checked by the state).
    caught_up: IxVec<TaskIx, u32>,
    /// The first client in Kafka's `(lag, process id)` order
    /// ([`ClientIx::raw`]), or `NONE`.
    most_caught_up: IxVec<TaskIx, u32>,
}

impl<'a> LagIndex<'a> {
    pub(super) fn new(state: &'a ClusterState) -> LagIndex<'a> {
        let tasks = state.tasks();
        let n = tasks.len();
        let clients = state.clients().len();
        let acceptable = state.config().acceptable_recovery_lag;
        // Reports read in one pass, client after client (the B-trees are
        // walked once), then bucketed by task one cache-sized block of tasks
        // at a time: each task's reports stay in client order.
        let total: usize = state.clients().iter().map(|c| c.lags.len()).sum();
        let mut keys: Vec<u32> = Vec::with_capacity(total);
        let mut reports: Vec<Report> = Vec::with_capacity(total);
        for (c, client) in state.client_ixs().zip(state.clients()) {
            for (id, &lag) in &client.lags {
                let t = state.task_ix(*id).expect("validated: lag of a known task");
                keys.push(t.raw());
                reports.push(Report::new(c, lag, acceptable));
            }
        }
        // Each client's reports are in task order: a run of ascending keys.
        let runs: Vec<usize> = state
            .clients()
            .iter()
            .map(|c| c.lags.len())
            .filter(|&len| len > 0)
            .collect();
        let entries = Rows::from_runs(n, &keys, &reports, &runs);
        drop((keys, reports));
        let end_offset = state.end_offsets();
        let mut caught_up = IxVec::from_raw(Vec::with_capacity(n));
        let mut most = IxVec::from_raw(Vec::with_capacity(n));
        for &end in end_offset {
            let row = entries.row(caught_up.len());
            let all = Lag::Records(end).is_caught_up(acceptable);
            let flagged = row.iter().filter(|r| r.caught_up).count();
            let count = if all {
                clients - (row.len() - flagged)
            } else {
                flagged
            };
            caught_up.push(u32::try_from(count).expect("at most MAX_CLIENTS clients"));
            most.push(most_caught_up(row, Lag::Records(end), clients));
        }
        LagIndex {
            clients: u32::try_from(clients).expect("at most MAX_CLIENTS clients"),
            entries,
            end_offset,
            acceptable_recovery_lag: acceptable,
            caught_up,
            most_caught_up: most,
        }
    }

    /// The report of client `c` on task `t`, if it sent one.
    fn report(&self, c: ClientIx, t: TaskIx) -> Option<Report> {
        let row = self.entries.row(t.index());
        row.binary_search_by_key(&c, |r| r.client())
            .ok()
            .map(|i| row[i])
    }

    /// Whether a client without a report is caught up on `t`.
    fn everyone(&self, t: TaskIx) -> bool {
        self.default(t).is_caught_up(self.acceptable_recovery_lag)
    }

    /// The lag of a client without a report on `t`.
    fn default(&self, t: TaskIx) -> Lag {
        Lag::Records(self.end_offset[t.index()])
    }

    /// The lag of client `c` on task `t`.
    pub(super) fn lag(&self, c: ClientIx, t: TaskIx) -> Lag {
        self.report(c, t).map_or(self.default(t), Report::lag)
    }

    /// Whether `c` is caught up on `t`.
    pub(super) fn is_caught_up(&self, c: ClientIx, t: TaskIx) -> bool {
        self.report(c, t).map_or(self.everyone(t), |r| r.caught_up)
    }

    /// How many clients are caught up on `t`.
    pub(super) fn caught_up_count(&self, t: TaskIx) -> u32 {
        self.caught_up[t]
    }

    /// The caught-up clients of `t` (ascending) when they are all among the
    /// reports, or `None` when they are "everyone but a few" (walk the
    /// least-loaded order instead).
    pub(super) fn listed_caught_up(
        &self,
        t: TaskIx,
    ) -> Option<impl Iterator<Item = ClientIx> + '_> {
        (!self.everyone(t)).then(|| {
            self.entries
                .row(t.index())
                .iter()
                .filter(|r| r.caught_up)
                .map(|r| r.client())
        })
    }

    /// Kafka's `needs_move`: `c` is not caught up on `t` and the most caught-up
    /// client is strictly less lagged.
    pub(super) fn needs_move(&self, c: ClientIx, t: TaskIx) -> bool {
        if self.is_caught_up(c, t) {
            return false;
        }
        match self.most_caught_up(t) {
            Some(best) => self.lag(best, t) < self.lag(c, t),
            None => false,
        }
    }

    /// The first client of Kafka's `(lag, id)` order.
    pub(super) fn most_caught_up(&self, t: TaskIx) -> Option<ClientIx> {
        let best = self.most_caught_up[t];
        (best != NONE).then(|| ClientIx::from_raw(best))
    }

    /// The first client in `(lag, id)` order that precedes `dest` and holds
    /// no replica of `t`: neither `owner` nor one of `replicas` (sorted).
    /// Among the clients without a report (all with the same lag) the first
    /// is the lowest id outside the reports and the holders, found by walking
    /// those sorted lists together: O(reports + holders), whatever the
    /// number of clients.
    pub(super) fn first_before(
        &self,
        t: TaskIx,
        dest: ClientIx,
        replicas: &[ClientIx],
        owner: Option<ClientIx>,
    ) -> Option<ClientIx> {
        let holds = |c: ClientIx| owner == Some(c) || replicas.binary_search(&c).is_ok();
        let limit = (self.lag(dest, t), dest);
        let row = self.entries.row(t.index());
        let reported = row
            .iter()
            .map(|r| (r.lag(), r.client()))
            .filter(|&key| key < limit && !holds(key.1))
            .min();
        let (mut r, mut h) = (0, 0);
        let mut raw = 0;
        let unreported = loop {
            if raw >= self.clients {
                break None;
            }
            // Below the number of clients: a position of the state.
            let c = ClientIx::from_raw(raw);
            while r < row.len() && row[r].client() < c {
                r += 1;
            }
            while h < replicas.len() && replicas[h] < c {
                h += 1;
            }
            let taken = (r < row.len() && row[r].client() == c)
                || (h < replicas.len() && replicas[h] == c)
                || owner == Some(c);
            if !taken {
                break Some((self.default(t), c));
            }
            raw += 1;
        };
        let unreported = unreported.filter(|&key| key < limit);
        reported.into_iter().chain(unreported).min().map(|(_, c)| c)
    }
}

/// The first client in `(lag, id)` order: the least reported key, or the
/// lowest client without a report, whichever is first; `NONE` without clients.
fn most_caught_up(row: &[Report], default: Lag, clients: usize) -> u32 {
    let reported = row.iter().map(|r| (r.lag(), r.client())).min();
    let first_gap = row
        .iter()
        .enumerate()
        .find(|&(i, r)| r.client().index() != i)
        .map_or(row.len(), |(i, _)| i);
    // Below the number of clients: a position of the state.
    let unreported = (first_gap < clients).then(|| (default, ClientIx::from_position(first_gap)));
    reported
        .into_iter()
        .chain(unreported)
        .min()
        .map_or(NONE, |(_, c)| c.raw())
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::LagIndex;
    use crate::generate::{generate, History, Spec};
    use crate::model::{ClientIx, ClusterState, Lag, TaskIx};

    /// The lag of `c` on task `t`, read from the state directly.
    fn lag_of(state: &ClusterState, c: ClientIx, t: TaskIx) -> Lag {
        let task = &state.tasks()[t.index()];
        state.clients()[c.index()]
            .lags
            .get(&task.id)
            .copied()
            .unwrap_or(Lag::Records(task.end_offset))
    }

    /// Every query of the index agrees with a scan of all clients, on drawn
    /// states with lags of every kind and drawn acceptable lags.
    #[test]
    fn every_query_agrees_with_a_scan_of_all_clients() {
        let mut rng = ChaCha8Rng::seed_from_u64(441);
        for seed in 0..150 {
            let spec = Spec {
                stateful: rng.random_range(1..30),
                stateless: rng.random_range(0..3),
                subtopologies: rng.random_range(1..4),
                clients: rng.random_range(1..9),
                threads: 2,
                standbys: 1,
                history: History::Random,
            };
            let state = generate(&spec, seed).expect("valid");
            let index = LagIndex::new(&state);
            let acceptable = state.config().acceptable_recovery_lag;
            let clients = || state.client_ixs();
            let all: Vec<ClientIx> = clients().collect();
            for t in state.task_ixs() {
                let caught: Vec<ClientIx> = clients()
                    .filter(|&c| lag_of(&state, c, t).is_caught_up(acceptable))
                    .collect();
                for c in clients() {
                    assert_eq!(index.lag(c, t), lag_of(&state, c, t));
                    assert_eq!(index.is_caught_up(c, t), caught.contains(&c));
                }
                assert_eq!(index.caught_up_count(t) as usize, caught.len());
                if let Some(listed) = index.listed_caught_up(t) {
                    assert_eq!(listed.collect::<Vec<_>>(), caught);
                }
                let best = clients().min_by_key(|&c| (lag_of(&state, c, t), c));
                assert_eq!(index.most_caught_up(t), best);
                // first_before against a scan, for a drawn holder set.
                let dest = all[rng.random_range(0..all.len())];
                let owner = rng
                    .random_bool(0.5)
                    .then(|| all[rng.random_range(0..all.len())]);
                let mut replicas: Vec<ClientIx> =
                    clients().filter(|_| rng.random_bool(0.3)).collect();
                replicas.retain(|&c| Some(c) != owner);
                let limit = (lag_of(&state, dest, t), dest);
                let scan = clients()
                    .filter(|&c| Some(c) != owner && !replicas.contains(&c))
                    .map(|c| (lag_of(&state, c, t), c))
                    .filter(|&key| key < limit)
                    .min()
                    .map(|(_, c)| c);
                assert_eq!(index.first_before(t, dest, &replicas, owner), scan);
            }
        }
    }
}
