//! One stretch of time with constant rates: who reads which changelog how
//! fast ([`readers`]), how long until that changes ([`length`]), and the
//! world advanced over it ([`advance`]: stores read, changelogs written,
//! input processed), with what flowed for the ledger to count ([`Flow`]).
//!
//! The readers are the restoring actives and the standbys and warm-ups of
//! every member. Their rates come from `physics` (the cluster's restore
//! bandwidth, if any, then each client's); they hold until a reader
//! finishes, reaches its changelog's end or crosses the acceptable recovery
//! lag, so the engine advances to the first of those instants and asks again.

use super::backlog::{Processing, Processor};
use super::delay::Segment;
use super::physics::{water_fill, Ratio};
use super::units::{MilliRecords, Millis, Overflow};
use super::world::{ActiveState, ClientNo, Status, World};
use crate::model::{IxVec, TaskIx};

/// One copy of a task's store catching up with, or following, its changelog.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Reader {
    /// The member reading.
    pub client: ClientNo,
    /// The task.
    pub task: TaskIx,
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
/// each member restores at its `restore_rate` (milli-records per ms) at
/// most, and all of them together at `bandwidth` at most when it is set.
pub(crate) fn readers(world: &World, bandwidth: Option<u64>) -> Vec<Reader> {
    let mut readers = Vec::new();
    // Per member reading anything: where its readers start, how many of
    // them are actives, and what it asks of the cluster.
    let mut clients: Vec<(usize, usize, u64)> = Vec::new();
    for (c, client) in world.clients.iter_enumerated() {
        if client.status != Status::Member {
            continue;
        }
        let start = readers.len();
        let lag = |t: TaskIx| {
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
        let restore_rate = client.restore_rate.get();
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

/// How long the stretch from now lasts: `limit` ms (to the next event,
/// sample, pause end or step boundary), or less, until the first instant a
/// reader or a processor changes state; at least 1 ms.
pub(crate) fn length(
    readers: &[Reader],
    processors: &[Processor],
    acceptable: u64,
    limit: Millis,
) -> Millis {
    let ms = readers
        .iter()
        .filter_map(|r| r.next_change(acceptable))
        .chain(processors.iter().filter_map(Processor::ms_to_drain))
        .fold(limit.get(), u64::min)
        .max(1);
    Millis::new(ms)
}

/// What flowed over a stretch, in milli-records, for the ledger: what the
/// readers restored (all, by actives, by replicas following their running
/// active, across racks), the input backlog over it, and the actives that
/// finished restoring.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Flow {
    /// Read by every reader.
    pub restored: u128,
    /// Read by restoring actives.
    pub restored_active: u128,
    /// Read by replicas at their changelog's end, following their active.
    pub steady: u128,
    /// Read from a changelog whose leader is in another rack.
    pub cross_rack: u128,
    /// Σ over tasks of (backlog at the start + at the end) × ms, and the
    /// backlog over all tasks at the end; `None` when no task has input.
    pub backlog: Option<(u128, u128)>,
    /// The input records processed after a wait, by how long they waited.
    pub delays: Vec<Segment>,
    /// Milli-records processed as they arrived (no wait).
    pub on_time: u128,
    /// The actives that finished restoring: they run from the stretch's end.
    pub finished: Vec<TaskIx>,
}

/// Advances `world` over a stretch of `dt`: each reader reads, the
/// changelogs of running actives grow (their owners' stores follow), and,
/// when tasks have input (`inputs`), input arrives and running actives
/// process theirs.
///
/// # Errors
///
/// An [`Overflow`] naming a store's offset, a changelog or a backlog that
/// no longer fits in milli-records.
pub(crate) fn advance(
    world: &mut World,
    readers: &[Reader],
    processing: &Processing,
    dt: Millis,
    inputs: bool,
) -> Result<Flow, Overflow> {
    let mut flow = Flow::default();
    for r in readers {
        let read = r.read_over(dt.get());
        let read = MilliRecords::new(u64::try_from(read).map_err(|_| {
            Overflow::of(format!(
                "a store's offset of task {}",
                world.tasks[r.task].id
            ))
        })?);
        receive(world, r, read, &mut flow)?;
        if r.active && read.get() == r.lag {
            flow.finished.push(r.task);
        }
    }
    write(world, dt)?;
    if inputs {
        flow.delays.clone_from(&processing.flushed);
        flow.backlog = Some(process(world, &processing.processors, dt, &mut flow)?);
    }
    Ok(flow)
}

/// A reader's work over a stretch: its store's offset, what flowed.
fn receive(
    world: &mut World,
    r: &Reader,
    read: MilliRecords,
    flow: &mut Flow,
) -> Result<(), Overflow> {
    if read == MilliRecords::ZERO {
        return Ok(());
    }
    let (c, t) = (r.client, r.task);
    if let Some(store) = world.clients[c].stores.get_mut(&t) {
        store.offset = store.offset.plus(read, "a store's offset")?;
    }
    let milli = u128::from(read.get());
    flow.restored += milli;
    if r.active {
        flow.restored_active += milli;
    } else if r.following() {
        flow.steady += milli;
    }
    let task_rack = world.tasks[t].changelog_rack.as_deref();
    if task_rack.is_some() && world.clients[c].rack.as_deref() != task_rack {
        flow.cross_rack += milli;
    }
    Ok(())
}

/// The changelogs of running actives grow over `dt`; their owners' stores
/// follow.
fn write(world: &mut World, dt: Millis) -> Result<(), Overflow> {
    for t in world.tasks.indices() {
        let task = &mut world.tasks[t];
        if task.state != ActiveState::Running {
            continue;
        }
        let changelog = |id: crate::model::TaskId| {
            Overflow::of(format!(
                "the changelog of task {id} (subtopologies[{}].write_rate over time, in milli-records)",
                id.subtopology
            ))
        };
        let written = task
            .write_rate
            .checked_over(dt)
            .ok_or_else(|| changelog(task.id))?;
        task.end = task
            .end
            .checked_plus(written)
            .ok_or_else(|| changelog(task.id))?;
        let end_offset = task.end;
        let owner = task.owner.expect("a running task has an owner");
        if let Some(store) = world.clients[owner].stores.get_mut(&t) {
            store.offset = end_offset;
        }
    }
    Ok(())
}

/// Input arrives at every task over `dt`; running actives process theirs
/// (what they processed, by wait, into `flow`). Σ (backlog before + after)
/// × ms and the total backlog after.
fn process(
    world: &mut World,
    processors: &[Processor],
    dt: Millis,
    flow: &mut Flow,
) -> Result<(u128, u128), Overflow> {
    let ms = dt.get();
    let mut after: IxVec<TaskIx, Option<u128>> = IxVec::from_elem(None, world.tasks.len());
    for p in processors {
        after[p.task] = Some(p.backlog_after(ms));
    }
    let mut twice: u128 = 0;
    let mut total: u128 = 0;
    for (task, after) in world.tasks.iter_mut().zip(after) {
        let before = u128::from(task.backlog.get());
        let now = after.unwrap_or_else(|| {
            if task.state == ActiveState::Running {
                before
            } else {
                before + u128::from(task.input_rate.get()) * u128::from(ms)
            }
        });
        let backlog = u64::try_from(now).map_err(|_| {
            Overflow::of(format!(
                "the input backlog of task {} (subtopologies[{}].input_rate over time, in milli-records)",
                task.id, task.id.subtopology
            ))
        })?;
        task.backlog = MilliRecords::new(backlog);
        if task.state == ActiveState::Running {
            let arrived = u128::from(task.input_rate.get()) * u128::from(ms);
            if before == 0 && now == 0 {
                flow.on_time += arrived;
            } else {
                flow.delays.push(Segment {
                    input: task.input_rate.get(),
                    from: before,
                    to: now,
                    mass: (before + arrived).saturating_sub(now),
                });
            }
        }
        twice += (before + now) * u128::from(ms);
        total += now;
    }
    Ok((twice, total))
}
