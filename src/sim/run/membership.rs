//! Membership: what a happening does to the group. Scripted events and churn
//! make clients join, leave, crash and restart; a crash is noticed after the
//! session timeout; a leaving client under a strategy that hands over on
//! leave waits for its tasks to be taken over (module doc of `run`).

use super::agenda::Happening;
use super::churn::{self, ChurnEvent};
use super::engine::Run;
use super::units::{Millis, SimTime};
use super::world::{ActiveState, ClientNo, Status};
use crate::assignor::LeaveBehaviour;
use crate::sim::scenario::{ChurnKind, EventKind, GroupNo, Target};

impl Run<'_> {
    /// Applies one happening; whether membership changed.
    pub(super) fn happen(&mut self, what: Happening) -> bool {
        let now = self.now;
        let changed = match what {
            Happening::Scripted(i) => {
                self.ledger.event(now);
                self.scripted(i)
            }
            Happening::Churn(e) => {
                self.ledger.event(now);
                self.churn(e)
            }
            Happening::Notice(c) => {
                let noticed = self.world.clients[c].status == Status::CrashedMember;
                if noticed {
                    self.world.clients[c].status = Status::Crashed;
                }
                noticed
            }
            Happening::Leave(c) => {
                self.ledger.event(now);
                self.leave(c, Status::Away)
            }
            Happening::Stop(c) => {
                self.ledger.event(now);
                self.crash(c, false)
            }
            Happening::Rejoin(c) | Happening::Restart(c) => {
                self.ledger.event(now);
                self.rejoin(c)
            }
            Happening::LeaveTimeout(c, asked) => {
                self.world.clients[c].leaving_since == Some(asked) && self.leave(c, Status::Gone)
            }
        };
        if changed {
            self.ledger.unsettle();
        }
        changed
    }

    /// The scenario's event `i`; whether membership changed.
    fn scripted(&mut self, i: usize) -> bool {
        let now = self.now;
        match &self.scenario.events[i].kind {
            EventKind::ScaleOut { count, group } => {
                // The reader checked the group's name.
                let g = group
                    .as_deref()
                    .and_then(|name| self.world.group_named(name))
                    .unwrap_or(GroupNo::from_position(0));
                for _ in 0..*count {
                    self.world.add_client(now, g);
                }
                *count > 0
            }
            EventKind::ScaleIn { count, group } => {
                let members = self.staying_members();
                let only = group
                    .as_deref()
                    .and_then(|name| self.world.group_named(name));
                let mut candidates: Vec<ClientNo> = members
                    .iter()
                    .copied()
                    .filter(|&c| only.is_none_or(|g| self.world.clients[c].group == g))
                    .collect();
                let mut staying = members.len();
                let mut changed = false;
                for _ in 0..*count {
                    if staying <= 1 {
                        break;
                    }
                    let Some(c) = candidates.pop() else { break };
                    staying -= 1;
                    changed |= self.scale_in(c);
                }
                changed
            }
            EventKind::Crash { client, lose_state } => {
                let c = match client {
                    Target::Client(name) => self.world.client_named(name),
                    Target::Group(name) => self.world.group_named(name).and_then(|g| {
                        self.world
                            .members()
                            .into_iter()
                            .find(|&c| self.world.clients[c].group == g)
                    }),
                };
                c.is_some_and(|c| self.crash(c, *lose_state))
            }
            EventKind::Restart { client } => {
                let c = self.world.client_named(client);
                c.is_some_and(|c| self.rejoin(c))
            }
            EventKind::RollingBounce {
                interval_ms,
                downtime_ms,
                leave_group,
            } => {
                // Static members send no LeaveGroup (the reader refuses
                // `leave_group = true` with them).
                let leaves = leave_group.unwrap_or(!self.settings.static_membership);
                let (interval, downtime) = (Millis::new(*interval_ms), Millis::new(*downtime_ms));
                for (k, c) in self.world.members().into_iter().enumerate() {
                    // Past the end of the clock: this bounce and the later
                    // ones never come (module doc of `run`).
                    let Some(at) = interval
                        .checked_times(k as u64)
                        .and_then(|wait| now.checked_after(wait))
                    else {
                        break;
                    };
                    let stop = if leaves {
                        Happening::Leave(c)
                    } else {
                        Happening::Stop(c)
                    };
                    self.agenda.push(at, stop);
                    if let Some(back) = at.checked_after(downtime) {
                        self.agenda.push(back, Happening::Rejoin(c));
                    }
                }
                false
            }
            EventKind::RackOutage {
                rack,
                lose_state,
                duration_ms,
            } => {
                let mut changed = false;
                for c in self.world.members() {
                    if self.world.clients[c].rack.as_deref() == Some(rack.as_str()) {
                        changed |= self.crash(c, *lose_state);
                        let back = duration_ms.and_then(|d| now.checked_after(Millis::new(d)));
                        if let Some(back) = back {
                            self.agenda.push(back, Happening::Restart(c));
                        }
                    }
                }
                changed
            }
            EventKind::WriteSpike {
                subtopology,
                partition,
                write_rate,
            } => {
                for task in self.world.tasks.iter_mut() {
                    if task.stateful
                        && task.id.subtopology == *subtopology
                        && partition.is_none_or(|p| p == task.id.partition)
                    {
                        task.set_write_rate(*write_rate);
                    }
                }
                false
            }
        }
    }

    /// A churn event; whether membership changed.
    fn churn(&mut self, e: ChurnEvent) -> bool {
        let members = self.staying_members();
        match e.kind {
            // Churn never leaves fewer than two members: a group of one is
            // balanced by definition and would count as converged at once.
            ChurnKind::Crash if members.len() > 2 => {
                let c = members[churn::pick(e.pick, members.len())];
                self.crash(c, e.lose_state)
            }
            ChurnKind::Restart => {
                let crashed: Vec<ClientNo> = self
                    .world
                    .clients
                    .iter_enumerated()
                    .filter(|(_, client)| {
                        matches!(client.status, Status::Crashed | Status::CrashedMember)
                    })
                    .map(|(c, _)| c)
                    .collect();
                if crashed.is_empty() {
                    return false;
                }
                let c = crashed[churn::pick(e.pick, crashed.len())];
                self.rejoin(c)
            }
            ChurnKind::ScaleOut => {
                self.world.add_client(self.now, GroupNo::from_position(0));
                true
            }
            ChurnKind::ScaleIn if members.len() > 2 => {
                let c = *members.last().expect("members");
                self.scale_in(c)
            }
            ChurnKind::Burst => self.burst(e, &members),
            ChurnKind::ZoneOutage => self.zone_outage(e, &members),
            ChurnKind::Crash | ChurnKind::ScaleIn => false,
        }
    }

    /// A burst: its first crash now (by the crash rule), the others of
    /// `burst_size` spread evenly over `burst_window`, each a churn crash
    /// with its own target drawn from the burst's and the same disk fate.
    fn burst(&mut self, e: ChurnEvent, members: &[ClientNo]) -> bool {
        let Some(spec) = &self.scenario.churn else {
            return false;
        };
        let (size, window) = (u64::from(spec.burst_size), spec.burst_window_ms);
        for k in 1..size {
            let offset = window.saturating_mul(k) / (size - 1);
            if let Some(at) = self.now.checked_after(Millis::new(offset)) {
                let crash = ChurnEvent {
                    at_ms: at,
                    kind: ChurnKind::Crash,
                    pick: churn::derived(e.pick, k),
                    lose_state: e.lose_state,
                };
                self.agenda.push(at, Happening::Churn(crash));
            }
        }
        if members.len() <= 2 {
            return false;
        }
        let c = members[churn::pick(e.pick, members.len())];
        self.crash(c, e.lose_state)
    }

    /// A zone outage: every staying member of a rack drawn among theirs
    /// crashes and restarts `zone_outage_duration` later, unless fewer than
    /// two members would stay.
    fn zone_outage(&mut self, e: ChurnEvent, members: &[ClientNo]) -> bool {
        let Some(spec) = &self.scenario.churn else {
            return false;
        };
        let back = self.now.checked_after(Millis::new(spec.zone_outage_ms));
        let mut racks: Vec<&str> = members
            .iter()
            .filter_map(|&c| self.world.clients[c].rack.as_deref())
            .collect();
        racks.sort_unstable();
        racks.dedup();
        if racks.is_empty() {
            return false;
        }
        let rack = racks[churn::pick(e.pick, racks.len())].to_string();
        let down: Vec<ClientNo> = members
            .iter()
            .copied()
            .filter(|&c| self.world.clients[c].rack.as_deref() == Some(rack.as_str()))
            .collect();
        if members.len() - down.len() < 2 {
            return false;
        }
        let mut changed = false;
        for c in down {
            changed |= self.crash(c, e.lose_state);
            if let Some(back) = back {
                self.agenda.push(back, Happening::Restart(c));
            }
        }
        changed
    }

    /// Members not leaving, in creation order.
    fn staying_members(&self) -> Vec<ClientNo> {
        let mut members = self.world.members();
        members.retain(|&c| self.world.clients[c].leaving_since.is_none());
        members
    }

    /// Member `c` is scaled in: it leaves at once, or, under a strategy that
    /// hands over on leave, it asks to leave and waits.
    fn scale_in(&mut self, c: ClientNo) -> bool {
        if self.assignor.info().leave == LeaveBehaviour::Immediate {
            return self.leave(c, Status::Gone);
        }
        self.world.clients[c].leaving_since = Some(self.now);
        let timeout = self.settings.scale_down_timeout;
        if let Some(at) = timeout.and_then(|t| self.now.checked_after(t)) {
            self.agenda.push(at, Happening::LeaveTimeout(c, self.now));
        }
        true
    }

    /// Whether every active of leaving client `c` has a caught-up warm-up on
    /// another member (stateless ones need none).
    pub(super) fn handed_over(&self, c: ClientNo) -> bool {
        let acceptable = self.settings.acceptable_lag;
        self.world.clients[c].actives.iter().all(|&t| {
            !self.world.tasks[t].stateful
                || self
                    .world
                    .caught_up_warmups(t, acceptable)
                    .iter()
                    .any(|&w| w != c)
        })
    }

    /// A member crashes: its actives stop now; the group notices later.
    /// Crashes change membership only when noticed, so this returns false.
    fn crash(&mut self, c: ClientNo, lose_state: bool) -> bool {
        if self.world.clients[c].status != Status::Member {
            return false;
        }
        self.world.clients[c].status = Status::CrashedMember;
        self.world.clients[c].leaving_since = None;
        if lose_state {
            let lost = std::mem::take(&mut self.world.clients[c].stores);
            let n = self.world.last_copies(lost.into_keys());
            self.ledger.lost_every_copy(n);
        }
        for t in self.world.clients[c].actives.clone() {
            self.set_state(t, ActiveState::Down, self.now);
        }
        self.ledger.unsettle();
        let notice: Option<SimTime> = self.now.checked_after(self.settings.session_timeout);
        if let Some(at) = notice {
            self.agenda.push(at, Happening::Notice(c));
        }
        false
    }

    /// A member leaves gracefully (its tasks stop now; state survives).
    pub(super) fn leave(&mut self, c: ClientNo, status: Status) -> bool {
        if self.world.clients[c].status != Status::Member {
            return false;
        }
        self.world.clients[c].status = status;
        self.world.clients[c].leaving_since = None;
        for t in self.world.clients[c].actives.clone() {
            self.set_state(t, ActiveState::Down, self.now);
        }
        if status == Status::Gone {
            let left: Vec<_> = self.world.clients[c].stores.keys().copied().collect();
            let n = self.world.last_copies(left);
            self.ledger.lost_every_copy(n);
        }
        true
    }

    /// A crashed or bounced client comes back into the group; whether
    /// membership changed. A static member back before the group noticed
    /// it was gone resumes its tasks with no rebalance (each pauses as a
    /// task with no running owner does, then restores or runs).
    fn rejoin(&mut self, c: ClientNo) -> bool {
        let status = self.world.clients[c].status;
        if !matches!(
            status,
            Status::Crashed | Status::CrashedMember | Status::Away
        ) {
            return false;
        }
        self.world.clients[c].status = Status::Member;
        self.world.clients[c].up_since = self.now;
        if status == Status::CrashedMember && self.settings.static_membership {
            let now = self.now;
            let until = now.checked_after(self.settings.pauses().resumed);
            for t in self.world.clients[c].actives.clone() {
                self.set_state(t, ActiveState::Paused(until), now);
                if let Some(outage) = self.world.resolve_pause(t, now) {
                    self.ledger.outage(t, outage);
                }
            }
            return false;
        }
        true
    }
}
