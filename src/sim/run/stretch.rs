//! One stretch of time with constant rates: who reads which changelog how
//! fast, and how long until that changes.
//!
//! The readers are the restoring actives and the standbys and warm-ups of
//! every member. Their rates come from `physics` (the cluster's restore
//! bandwidth, if any, then each client's); they hold until a reader
//! finishes, reaches its changelog's end or crosses the acceptable recovery
//! lag, so the engine advances to the first of those instants and asks again.

use super::physics::{water_fill, Ratio};
use super::world::{ActiveState, Status, World};

/// One copy of a task's store catching up with, or following, its changelog.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Reader {
    /// The member reading.
    pub client: usize,
    /// The task.
    pub task: usize,
    /// An active restoring before it runs; otherwise a standby or warm-up.
    pub active: bool,
    /// Milli-records behind the changelog's end.
    pub lag: u64,
    /// Milli-records per ms the changelog grows while the stretch lasts
    /// (its active runs); 0 for a restoring active's own changelog.
    pub growth: u64,
    /// Milli-records per ms it reads.
    pub rate: Ratio,
}

impl Reader {
    /// Whether the copy is a replica at its changelog's end: what it reads
    /// is steady-state replication of its running active, not recovery.
    pub(crate) fn following(&self) -> bool {
        !self.active && self.lag == 0
    }

    /// The first whole ms after which this reader's state changes: it
    /// finishes restoring, reaches the changelog's end, or its lag crosses
    /// `acceptable` milli-records either way. `None`: not while rates hold.
    pub(crate) fn next_change(&self, acceptable: u64) -> Option<u64> {
        let lag = u128::from(self.lag);
        let acceptable = u128::from(acceptable);
        if self.active {
            return self.rate.ms_to_cover(0, lag);
        }
        let to_end = self.rate.ms_to_cover(self.growth, lag);
        let crossing = if lag > acceptable {
            self.rate.ms_to_cover(self.growth, lag - acceptable)
        } else {
            self.rate.ms_to_fall_behind(self.growth, acceptable - lag)
        };
        match (to_end, crossing) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Milli-records read in `ms`: never past the changelog's end (which
    /// grows by `growth` per ms meanwhile).
    pub(crate) fn read_over(&self, ms: u64) -> u128 {
        let end = u128::from(self.lag) + u128::from(self.growth) * u128::from(ms);
        self.rate.over(ms).min(end)
    }
}

/// The readers of `world` now, in client then task order, with their rates:
/// each member restores at `restore_rate` milli-records per ms at most, and
/// all of them together at `bandwidth` at most when it is set.
pub(crate) fn readers(world: &World, restore_rate: u64, bandwidth: Option<u64>) -> Vec<Reader> {
    let mut readers = Vec::new();
    // Per member reading anything: where its readers start, how many of
    // them are actives, and what it asks of the cluster.
    let mut clients: Vec<(usize, usize, u64)> = Vec::new();
    for (c, client) in world.clients.iter().enumerate() {
        if client.status != Status::Member {
            continue;
        }
        let start = readers.len();
        let lag = |t: usize| {
            let offset = client.stores.get(&t).map_or(0, |s| s.offset.get());
            world.tasks[t].end.get().saturating_sub(offset)
        };
        for &t in &client.actives {
            if world.tasks[t].state == ActiveState::Restoring {
                readers.push(Reader {
                    client: c,
                    task: t,
                    active: true,
                    lag: lag(t),
                    growth: 0,
                    rate: Ratio::ZERO,
                });
            }
        }
        let actives = readers.len() - start;
        for &t in &client.replicas {
            let task = &world.tasks[t];
            let growth = if task.state == ActiveState::Running {
                task.write_rate.get()
            } else {
                0
            };
            readers.push(Reader {
                client: c,
                task: t,
                active: false,
                lag: lag(t),
                growth,
                rate: Ratio::ZERO,
            });
        }
        let mine = &readers[start..];
        if mine.is_empty() {
            continue;
        }
        let behind = actives > 0 || mine.iter().any(|r| r.lag > 0);
        let asks = if behind {
            restore_rate
        } else {
            mine.iter()
                .fold(0u64, |sum, r| sum.saturating_add(r.growth))
                .min(restore_rate)
        };
        clients.push((start, actives, asks));
    }
    let asked: Vec<Option<u64>> = clients.iter().map(|&(_, _, asks)| Some(asks)).collect();
    let given = match bandwidth {
        Some(b) => water_fill(Ratio::int(b), &asked),
        None => asked.iter().map(|a| Ratio::int(a.unwrap_or(0))).collect(),
    };
    for (k, &(start, actives, _)) in clients.iter().enumerate() {
        let end = clients.get(k + 1).map_or(readers.len(), |next| next.0);
        let mine = &mut readers[start..end];
        if actives > 0 {
            // Actives first: they take the client's whole bandwidth.
            for r in &mut mine[..actives] {
                r.rate = given[k].split(actives);
            }
            continue;
        }
        let demands: Vec<Option<u64>> = mine
            .iter()
            .map(|r| (r.lag == 0).then_some(r.growth))
            .collect();
        for (r, rate) in mine.iter_mut().zip(water_fill(given[k], &demands)) {
            r.rate = rate;
        }
    }
    readers
}
