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
    /// Milli-records of input not processed yet, over all tasks.
    pub backlog_milli: u128,
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
        let mut census = Census {
            restored: readers.iter().all(Reader::following),
            drained: true,
            covered: covered(world, acceptable_milli, wanted_standbys),
            max_replicas: max_replicas(world),
            ..Census::default()
        };
        for task in world.tasks.iter() {
            census.stateful += u64::from(task.stateful);
            census.drained &= task.backlog.get() == 0;
            census.backlog_milli += u128::from(task.backlog.get());
            match (task.state, task.stateful) {
                (ActiveState::Running, _) => census.running += 1,
                (state, true) => {
                    census.down_stateful += 1;
                    census.restoring += u64::from(state == ActiveState::Restoring);
                }
                (_, false) => census.down_stateless += 1,
            }
        }
        census
    }
}

/// The stateful tasks whose caught-up standbys on members number at least
/// `min(wanted, members − 1)`.
fn covered(world: &World, acceptable_milli: u64, wanted: u32) -> u64 {
    let members = world.members().len();
    let needed = (wanted as usize).min(members.saturating_sub(1));
    let covered = world.tasks.iter_enumerated().filter(|(t, task)| {
        task.stateful && {
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
        }
    });
    covered.count() as u64
}

/// The most standbys and warm-ups one member holds.
fn max_replicas(world: &World) -> u64 {
    world
        .members()
        .into_iter()
        .map(|c| world.clients[c].replicas.len() as u64)
        .max()
        .unwrap_or(0)
}
