//! What is due when: the scripted events, the churn drawn from the seed and
//! the happenings they schedule (a crash noticed, a bounced client back, a
//! restart after a rack outage, a leave timeout), in time order.

use std::collections::BTreeMap;

use super::churn::ChurnEvent;
use super::units::SimTime;
use super::world::ClientNo;

/// Something that happens at a time.
#[derive(Debug, Clone)]
pub(crate) enum Happening {
    /// The scenario's event of this index.
    Scripted(usize),
    /// A churn event.
    Churn(ChurnEvent),
    /// The group notices that this client crashed.
    Notice(ClientNo),
    /// A bounced client leaves (sends LeaveGroup).
    Leave(ClientNo),
    /// A bounced client stops without leaving (no LeaveGroup): the group
    /// notices after the session timeout unless it is back first.
    Stop(ClientNo),
    /// A bounced client comes back.
    Rejoin(ClientNo),
    /// A crashed client restarts (after a rack outage).
    Restart(ClientNo),
    /// A leaving client's `scale_down_timeout` is over; the time it asked
    /// to leave tells a stale timeout from the current one.
    LeaveTimeout(ClientNo, SimTime),
}

/// Due happenings by (time, rank, insertion order): restarts after a rack
/// outage rank before everything else due at the same time, as the
/// scenario reader's membership check assumes.
#[derive(Debug, Clone, Default)]
pub(crate) struct Agenda {
    queue: BTreeMap<(SimTime, u8, u64), Happening>,
    seq: u64,
}

impl Agenda {
    /// Schedules `what` at `at`.
    pub(crate) fn push(&mut self, at: SimTime, what: Happening) {
        let rank = u8::from(!matches!(what, Happening::Restart(_)));
        self.queue.insert((at, rank, self.seq), what);
        self.seq += 1;
    }

    /// When the next happening is due, if any.
    pub(crate) fn next_at(&self) -> Option<SimTime> {
        self.queue.first_key_value().map(|(&(at, _, _), _)| at)
    }

    /// The next happening due by `now`, taken off the agenda.
    pub(crate) fn pop_due(&mut self, now: SimTime) -> Option<Happening> {
        let entry = self.queue.first_entry()?;
        (entry.key().0 <= now).then(|| entry.remove())
    }
}
