//! The membership replay of [`Scenario::check`]: the scripted events in
//! time order against the clients, so that an event naming a client that is
//! not there is an error at that event.

use std::collections::BTreeMap;

use super::client_no::ClientNo;
use super::duration::format_duration;
use super::limits::MAX_CLIENTS;
use super::spec::{EventKind, GroupNo, Scenario, Target};
use crate::model::{InputError, IxVec};

impl Scenario {
    /// Replays the scripted events' membership in time order; returns how
    /// many clients the script creates in all.
    ///
    /// Clients `c0 … c{clients−1}` are live at time 0; `scale_out` creates the
    /// next numbers (numbers are never reused); `scale_in` makes the
    /// highest-numbered live clients leave (crashed clients stay crashed) and
    /// must leave one live client; `crash` needs a live client, `restart` a
    /// crashed one (a client that left is gone for good); `rack_outage` needs
    /// a client of its rack to exist by then, crashes the live ones and, with
    /// `duration`, restarts those still crashed that much later. At equal
    /// times the outage restarts come first (earliest scheduled first), then
    /// the events in list order. `rolling_bounce` changes no membership: its
    /// clients leave and come back with their state. Random churn is drawn
    /// while simulating and is not replayed here.
    pub(super) fn check_membership(&self) -> Result<u64, InputError> {
        let cluster = &self.cluster;
        let groups = cluster.groups();
        let mut group_of: Vec<GroupNo> = cluster.initial_groups();
        let mut members: IxVec<ClientNo, Member> = IxVec::from_elem(Member::Live, group_of.len());
        // Outage restarts not yet applied, by (time, order of scheduling).
        let mut restarts: BTreeMap<(u64, usize), Vec<ClientNo>> = BTreeMap::new();
        let group_named = |name: &str, path: String, when: &str| -> Result<GroupNo, InputError> {
            groups
                .iter()
                .position(|g| g.name == name)
                .map(GroupNo::from_position)
                .ok_or_else(|| {
                    InputError::new(
                        path,
                        format!(
                            "must name a group of cluster.groups ({}), got {name:?} at {when}",
                            groups
                                .iter()
                                .map(|g| format!("{:?}", g.name))
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                    )
                })
        };
        let mut order: Vec<usize> = (0..self.events.len()).collect();
        order.sort_by_key(|&i| self.events[i].at_ms);
        for (n, &i) in order.iter().enumerate() {
            let event = &self.events[i];
            let at = |key: &str| format!("events[{i}].{key}");
            let when = format_duration(event.at_ms);
            while let Some(entry) = restarts.first_entry() {
                if entry.key().0 > event.at_ms {
                    break;
                }
                for k in entry.remove() {
                    if members[k] == Member::Crashed {
                        members[k] = Member::Live;
                    }
                }
            }
            let live = members.iter().filter(|m| **m == Member::Live).count();
            let rack_of =
                |k: ClientNo| cluster.client_rack(&groups[group_of[k.index()].index()], k.index());
            match &event.kind {
                EventKind::ScaleOut { count, group } => {
                    let g = match group {
                        Some(name) => group_named(name, at("group"), &when)?,
                        None => GroupNo::from_position(0),
                    };
                    let total = (members.len() as u64).saturating_add(u64::from(*count));
                    if total > MAX_CLIENTS {
                        return Err(InputError::new(
                            at("count"),
                            format!(
                                "must keep the clients at most {MAX_CLIENTS} (the limit on clients), got {count}: {total} clients by {when}"
                            ),
                        ));
                    }
                    for _ in members.len() as u64..total {
                        members.push(Member::Live);
                        group_of.push(g);
                    }
                }
                EventKind::ScaleIn { count, group } => {
                    if *count as usize >= live {
                        return Err(InputError::new(
                            at("count"),
                            format!(
                                "must leave at least one live client, got {count} with {live} live at {when}"
                            ),
                        ));
                    }
                    let only = match group {
                        Some(name) => Some(group_named(name, at("group"), &when)?),
                        None => None,
                    };
                    let in_group: Vec<ClientNo> = members
                        .indices()
                        .filter(|&k| members[k] == Member::Live)
                        .filter(|&k| only.is_none_or(|g| group_of[k.index()] == g))
                        .collect();
                    if in_group.len() < *count as usize {
                        return Err(InputError::new(
                            at("count"),
                            format!(
                                "must be at most the live clients of group {:?} ({}) at {when}, got {count}",
                                group.as_deref().unwrap_or_default(),
                                in_group.len()
                            ),
                        ));
                    }
                    for &k in in_group.iter().rev().take(*count as usize) {
                        members[k] = Member::Left;
                    }
                }
                EventKind::Crash { client, .. } => {
                    let k = match client {
                        Target::Client(name) => {
                            expect(&members, name, Member::Live, &at("client"), &when)?
                        }
                        Target::Group(name) => {
                            let g = group_named(name, at("group"), &when)?;
                            members
                                .indices()
                                .find(|&k| members[k] == Member::Live && group_of[k.index()] == g)
                                .ok_or_else(|| {
                                    InputError::new(
                                        at("group"),
                                        format!("must name a group with a live client, got {name:?} (none is live at {when})"),
                                    )
                                })?
                        }
                    };
                    members[k] = Member::Crashed;
                }
                EventKind::Restart { client } => {
                    let k = expect(&members, client, Member::Crashed, &at("client"), &when)?;
                    members[k] = Member::Live;
                }
                EventKind::RollingBounce { .. } | EventKind::WriteSpike { .. } => {}
                EventKind::RackOutage {
                    rack, duration_ms, ..
                } => {
                    let in_rack: Vec<ClientNo> = members
                        .indices()
                        .filter(|&k| rack_of(k) == Some(rack.as_str()))
                        .collect();
                    if in_rack.is_empty() {
                        return Err(InputError::new(
                            at("rack"),
                            format!(
                                "must name a rack some client has, got {rack:?} (only c0..c{} exist at {when})",
                                members.len().saturating_sub(1)
                            ),
                        ));
                    }
                    let crashed: Vec<ClientNo> = in_rack
                        .into_iter()
                        .filter(|&k| members[k] == Member::Live)
                        .collect();
                    for &k in &crashed {
                        members[k] = Member::Crashed;
                    }
                    if let Some(d) = duration_ms {
                        // Both are at most MAX_DURATION_MS (checked first); a
                        // restart past u64 would never happen.
                        if let Some(back) = event.at_ms.checked_add(*d) {
                            restarts.insert((back, n), crashed);
                        }
                    }
                }
            }
        }
        Ok(members.len() as u64)
    }
}

/// Where a client is in the membership replay.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Member {
    Live,
    Crashed,
    Left,
}

/// `"c12"` → 12; `None` for anything that is not a client name (`"c012"`, `"x"`).
fn client_number(name: &str) -> Option<usize> {
    let digits = name.strip_prefix('c')?;
    let plain = !digits.is_empty()
        && digits.bytes().all(|b| b.is_ascii_digit())
        && (digits == "0" || !digits.starts_with('0'));
    plain.then(|| digits.parse().ok()).flatten()
}

/// The client `name`, which must be in state `want`.
fn expect(
    members: &IxVec<ClientNo, Member>,
    name: &str,
    want: Member,
    path: &str,
    when: &str,
) -> Result<ClientNo, InputError> {
    let wanted = match want {
        Member::Live => "a live client",
        Member::Crashed => "a crashed client",
        Member::Left => "a client that left",
    };
    let Some(k) = client_number(name) else {
        return Err(InputError::new(
            path,
            format!("must name {wanted} (c0, c1, …), got {name:?}"),
        ));
    };
    // A number past the clients is no client (and may not fit a position).
    let k = (k < members.len()).then(|| ClientNo::from_position(k));
    let why = match k.map(|k| (k, members[k])) {
        None => format!(
            "no such client at {when}: c0..c{} exist",
            members.len().saturating_sub(1)
        ),
        Some((k, m)) if m == want => return Ok(k),
        Some((_, Member::Live)) => format!("it is live at {when}"),
        Some((_, Member::Crashed)) => format!("it has crashed by {when}"),
        Some((_, Member::Left)) => format!("it has left by {when}"),
    };
    Err(InputError::new(
        path,
        format!("must name {wanted}, got {name:?} ({why})"),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn client_names() {
        assert_eq!(client_number("c0"), Some(0));
        assert_eq!(client_number("c12"), Some(12));
        for bad in [
            "",
            "c",
            "c01",
            "C1",
            "c-1",
            "c1x",
            "x1",
            "c99999999999999999999999",
        ] {
            assert_eq!(client_number(bad), None, "{bad:?}");
        }
    }
}
