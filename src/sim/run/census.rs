//! What the world looks like at an instant, counted once for the ledger:
//! the tasks by what their active does, and the cluster-wide conditions the
//! metrics follow (every task running, every stateful task covered by its
//! caught-up standbys, every restore done, no backlog, the replica pile-up).

use super::stretch::Reader;
use super::world::{ActiveState, Status, World};

/// The world at an instant, counted.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Census {
    /// Stateful tasks without a running active.
    pub down_stateful: u64,
    /// Stateless tasks without a running active.
    pub down_stateless: u64,
    /// Tasks with a running active.
    pub running: u64,
    /// Stateful actives restoring.
    pub restoring: u64,
    /// Stateful tasks.
    pub stateful: u64,
    /// Stateful tasks covered by their caught-up standbys.
    pub covered: u64,
    /// Whether every restore is done: no active restoring, every standby
    /// and warm-up at its changelog's end.
    pub restored: bool,
    /// Whether no task has an input backlog.
    pub drained: bool,
    /// The most standbys and warm-ups on one member.
    pub max_replicas: u64,
}

impl Census {
    /// The census of `world` now, whose readers are `readers`: a copy
    /// counts as caught up within `acceptable_milli` milli-records, and a
    /// stateful task is covered by `min(wanted_standbys, members − 1)`
    /// caught-up standbys on members.
    pub(crate) fn of(
        world: &World,
        readers: &[Reader],
        acceptable_milli: u64,
        wanted_standbys: u32,
    ) -> Census {
        let (members, max_replicas) = members(world);
        let mut census = Census {
            restored: readers.iter().all(Reader::following),
            drained: true,
            covered: covered(world, acceptable_milli, wanted_standbys, members),
            max_replicas,
            ..Census::default()
        };
        for task in world.tasks.iter() {
            census.stateful += u64::from(task.stateful);
            census.drained &= task.backlog.get() == 0;
            match (task.state, task.stateful) {
                (ActiveState::Running, _) => {}
                (state, true) => {
                    census.down_stateful += 1;
                    census.restoring += u64::from(state == ActiveState::Restoring);
                }
                (_, false) => census.down_stateless += 1,
            }
        }
        census.running = world.tasks.len() as u64 - census.down_stateful - census.down_stateless;
        census
    }
}

/// How many members there are, and the most standbys and warm-ups one of
/// them holds.
fn members(world: &World) -> (usize, u64) {
    let members = world.clients.iter().filter(|c| c.status == Status::Member);
    members.fold((0, 0), |(n, most), c| {
        (n + 1, most.max(c.replicas.len() as u64))
    })
}

/// The stateful tasks whose caught-up standbys on members number at least
/// `min(wanted, members − 1)`.
fn covered(world: &World, acceptable_milli: u64, wanted: u32, members: usize) -> u64 {
    let needed = (wanted as usize).min(members.saturating_sub(1));
    let stateful = world
        .tasks
        .iter_enumerated()
        .filter(|(_, task)| task.stateful);
    if needed == 0 {
        // Every stateful task has the none it needs.
        return stateful.count() as u64;
    }
    let covered = stateful.filter(|(t, task)| {
        let caught_up = task
            .standbys
            .iter()
            .filter(|&&c| world.clients[c].status == Status::Member)
            .filter(|&&c| {
                world.clients[c].stores.get(t).is_some_and(|s| {
                    task.end.get().saturating_sub(s.offset.get()) <= acceptable_milli
                })
            })
            .count();
        caught_up >= needed
    });
    covered.count() as u64
}
