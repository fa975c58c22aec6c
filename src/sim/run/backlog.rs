//! The processing model: each task's input arrives at its `input_rate`
//! whether or not its active runs, and a client's threads process what its
//! running actives receive at `process_rate` records/s each. A task that is
//! down, paused or restoring falls behind by its input rate; a running one
//! catches up with what its client's threads have beyond the other actives'
//! input. The backlog (records behind the input's end) is what a consumer's
//! lag shows: it makes an outage, and an overloaded client that nobody
//! relieves, cost records behind and time to drain.
//!
//! The client's processing capacity (`process_rate` × threads records/s of
//! cost 1) is shared in thread time like restore bandwidth
//! (`physics::water_fill`): an active with no backlog asks for its input
//! rate × its records' cost, the others split the rest equally. Without a
//! `process_rate` a client processes without limit: a running active's
//! backlog is gone the instant it runs.

use super::delay::Segment;
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

/// What the processing model does in a stretch: the running actives of
/// clients with a processing rate, with their rates, and the backlogs of
/// running actives on clients without one, processed at once as the
/// stretch starts.
#[derive(Debug, Clone, Default)]
pub(crate) struct Processing {
    /// Running actives of clients with a `process_rate`.
    pub processors: Vec<Processor>,
    /// The backlogs cleared at once (clients without a `process_rate`), as
    /// the records they held: ages from 0 to backlog ÷ input rate.
    pub flushed: Vec<Segment>,
}

/// The running actives of `world`'s members with their processing rates;
/// nothing when no task has input (`inputs`). A client processes its
/// `process_rate` × threads records/s of cost 1 (a task's records cost
/// `process_cost_milli` / 1000 each), shared max-min fairly in thread time;
/// a client without one processes without limit: its running actives'
/// backlogs are cleared here.
pub(crate) fn processors(world: &mut World, inputs: bool) -> Processing {
    let mut out = Processing::default();
    if !inputs {
        return out;
    }
    // Clients read, tasks written: borrowed apart, so the step allocates
    // nothing to walk a client's actives.
    let (clients, tasks) = (&world.clients, &mut world.tasks);
    for client in clients.iter() {
        if client.status != Status::Member {
            continue;
        }
        let Some(rate) = client.process_rate else {
            for &t in &client.actives {
                let task = &mut tasks[t];
                if task.state == ActiveState::Running && task.backlog.get() > 0 {
                    out.flushed
                        .push(Segment::aged(task.input_rate.get(), task.backlog.get()));
                    task.backlog = MilliRecords::ZERO;
                }
            }
            continue;
        };
        let start = out.processors.len();
        for &t in &client.actives {
            let task = &tasks[t];
            if task.state == ActiveState::Running {
                out.processors.push(Processor {
                    task: t,
                    backlog: task.backlog.get(),
                    input: task.input_rate.get(),
                    rate: Ratio::ZERO,
                });
            }
        }
        let mine = &mut out.processors[start..];
        let cost = |p: &Processor| u64::from(tasks[p.task].process_cost_milli);
        // Demands and capacity in thread time: milli-records of cost 1 per
        // ms, × 1000.
        let demands: Vec<Option<u64>> = mine
            .iter()
            .map(|p| (p.backlog == 0).then(|| p.input.saturating_mul(cost(p))))
            .collect();
        let capacity = Ratio::int(
            rate.get()
                .saturating_mul(u64::from(client.threads))
                .saturating_mul(1000),
        );
        for (p, share) in mine.iter_mut().zip(water_fill(capacity, &demands)) {
            p.rate = share.per(cost(p));
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
