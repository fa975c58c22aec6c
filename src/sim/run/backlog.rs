//! The processing model: each task's input arrives at its `input_rate`
//! whether or not its active runs, and a client's threads process what its
//! running actives receive at `process_rate` records/s each. A task that is
//! down, paused or restoring falls behind by its input rate; a running one
//! catches up with what its client's threads have beyond the other actives'
//! input. The backlog (records behind the input's end) is what a consumer's
//! lag shows: it makes an outage, and an overloaded client that nobody
//! relieves, cost records behind and time to drain.
//!
//! The client's processing capacity is shared like restore bandwidth
//! (`physics::water_fill`): an active with no backlog asks for its input
//! rate, the others split the rest equally. Without a `process_rate` a
//! client processes without limit: a running active's backlog is gone the
//! instant it runs.

use super::physics::{water_fill, Ratio};
use super::units::MilliRecords;
use super::world::{ActiveState, Status, World};
use crate::model::TaskIx;

/// One running active working through its input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Processor {
    /// The task.
    pub task: TaskIx,
    /// Milli-records behind its input's end.
    pub backlog: u64,
    /// Milli-records per ms of input arriving.
    pub input: u64,
    /// Milli-records per ms it processes while rates hold.
    pub rate: Ratio,
}

impl Processor {
    /// The first whole ms by which its backlog is gone; `None` if it does
    /// not shrink (or there is none).
    pub(crate) fn ms_to_drain(&self) -> Option<u64> {
        self.rate.ms_to_cover(self.input, u128::from(self.backlog))
    }

    /// Its backlog after `ms` (never below 0).
    pub(crate) fn backlog_after(&self, ms: u64) -> u128 {
        let arrived = u128::from(self.backlog) + u128::from(self.input) * u128::from(ms);
        arrived - self.rate.over(ms).min(arrived)
    }
}

/// The running actives of `world`'s members with their processing rates,
/// when clients process `process_rate` milli-records per ms per thread;
/// none when no task has input (`inputs`). Without a `process_rate` a
/// running active has no backlog: it is cleared here.
pub(crate) fn processors(
    world: &mut World,
    inputs: bool,
    process_rate: Option<u64>,
) -> Vec<Processor> {
    if !inputs {
        return Vec::new();
    }
    match process_rate {
        Some(rate) => limited(world, rate),
        None => {
            for task in world.tasks.iter_mut() {
                if task.state == ActiveState::Running {
                    task.backlog = MilliRecords::ZERO;
                }
            }
            Vec::new()
        }
    }
}

/// [`processors`] with a `process_rate`.
fn limited(world: &World, process_rate: u64) -> Vec<Processor> {
    let mut out = Vec::new();
    for client in world.clients.iter() {
        if client.status != Status::Member {
            continue;
        }
        let start = out.len();
        for &t in &client.actives {
            let task = &world.tasks[t];
            if task.state == ActiveState::Running {
                out.push(Processor {
                    task: t,
                    backlog: task.backlog.get(),
                    input: task.input_rate.get(),
                    rate: Ratio::ZERO,
                });
            }
        }
        let mine = &mut out[start..];
        let demands: Vec<Option<u64>> = mine
            .iter()
            .map(|p| (p.backlog == 0).then_some(p.input))
            .collect();
        let capacity = Ratio::int(process_rate.saturating_mul(u64::from(client.threads)));
        for (p, rate) in mine.iter_mut().zip(water_fill(capacity, &demands)) {
            p.rate = rate;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_backlog_drains_at_what_the_input_leaves() {
        // 100 behind, input 2 per ms, processing 7 per ms: 5 per ms net,
        // gone after 20 ms; after 10 ms, 100 + 20 − 70 = 50 left.
        let p = Processor {
            task: TaskIx::from_position(0),
            backlog: 100,
            input: 2,
            rate: Ratio::int(7),
        };
        assert_eq!(p.ms_to_drain(), Some(20));
        assert_eq!(p.backlog_after(10), 50);
        assert_eq!(p.backlog_after(30), 0);
        // Overloaded: processing 1 per ms against 2 arriving grows it.
        let slow = Processor {
            rate: Ratio::int(1),
            ..p
        };
        assert_eq!(slow.ms_to_drain(), None);
        assert_eq!(slow.backlog_after(10), 110);
    }
}
