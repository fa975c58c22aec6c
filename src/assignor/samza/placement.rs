//! Level 2: slots → clients, Samza's allocator with host affinity and the
//! standby constraint (`ContainerProcessManager`'s preferred-host requests
//! and SEP-19's `StandbyContainerManager`; `docs/algorithms.md`, *Samza: host
//! affinity* and *Samza: standby containers*).
//!
//! One slot per client. Active slot `i` and its standby slots `(i, 0)`,
//! `(i, 1)`, … (none when `i` holds no stateful task: there is nothing to
//! mirror) form a *family*: no two of them may sit on one host, nor on one
//! rack when both clients state a rack (Samza's fault-domain-aware standby).
//!
//! 1. Preferred hosts, actives by slot: slot `i` goes back to its previous
//!    client if it is free and fits; else (the container was lost) it fails
//!    over to the previous client of its first standby slot that is free and
//!    fits, and that standby slot is *displaced*.
//! 2. Preferred hosts, standbys by `(i, r)`: every slot not displaced goes
//!    back to its previous client if it is free and fits.
//! 3. Any host, actives by slot, then standbys by `(i, r)`: the first free
//!    client by id that fits (Samza takes whatever resource the cluster
//!    manager hands out; client id order stands in for it).
//!
//! Actives are served before standbys in every pass, as Samza's allocator
//! orders active requests first, so no standby can take the client an active
//! needs. With at most one family's worth of clients per active slot
//! (`slots × (R + 1) ≤ clients`, R the most standby slots of a family, or a
//! single active slot), step 1 or 3 always binds every active slot: a slot
//! left for step 3 has no family member bound yet (had one a previous
//! client, step 1 would have failed over to it), and the other families hold
//! at most `(slots − 1) × (R + 1)` clients. A defensive fallback still covers
//! any other input (see [`bind`]).

use crate::model::ClusterState;

/// The host a client runs on: its stated host, or, without one, a host of its
/// own (client ids and host names are different namespaces, so a client
/// without a host never shares one).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Host<'a> {
    /// The client's `host`.
    Named(&'a str),
    /// The client (by position) is its own host.
    Own(usize),
}

/// Where a client runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Site<'a> {
    pub host: Host<'a>,
    pub rack: Option<&'a str>,
}

impl<'a> Site<'a> {
    /// The site of every client, by position.
    pub(super) fn of(state: &'a ClusterState) -> Vec<Site<'a>> {
        state
            .clients()
            .iter()
            .enumerate()
            .map(|(c, client)| Site {
                host: client.host.as_deref().map_or(Host::Own(c), Host::Named),
                rack: client.rack.as_deref(),
            })
            .collect()
    }

    /// Whether two members of one family may not sit on these two sites.
    pub(super) fn clashes(&self, other: &Site<'_>) -> bool {
        self.host == other.host || (self.rack.is_some() && self.rack == other.rack)
    }
}

/// What to bind: the slot counts and every slot's previous client.
#[derive(Debug, Clone, Default)]
pub(super) struct Request {
    /// Active slots.
    pub slots: usize,
    /// Standby slots of each active slot (`slots` entries).
    pub replicas: Vec<usize>,
    /// Previous client of each active slot (`slots` entries).
    pub active: Vec<Option<usize>>,
    /// Previous clients of the standby slots of each active slot: entry `r`
    /// of `standby[i]` is that of `(i, r)`; entries from `replicas[i]` on
    /// are ignored.
    pub standby: Vec<Vec<usize>>,
}

impl Request {
    fn replicas(&self, i: usize) -> usize {
        self.replicas.get(i).copied().unwrap_or(0)
    }

    fn preferred_standby(&self, i: usize, r: usize) -> Option<usize> {
        if r < self.replicas(i) {
            self.standby.get(i).and_then(|s| s.get(r)).copied()
        } else {
            None
        }
    }
}

/// The clients the slots were bound to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Layout {
    /// Client of each active slot.
    pub active: Vec<usize>,
    /// Client of each standby slot `(i, r)`; `None` when no client fits.
    pub standby: Vec<Vec<Option<usize>>>,
    /// What could not be done, for the plan's diagnostics.
    pub notes: Vec<String>,
}

/// The binding under way.
struct Binder<'s> {
    sites: &'s [Site<'s>],
    taken: Vec<bool>,
    active: Vec<Option<usize>>,
    standby: Vec<Vec<Option<usize>>>,
}

impl Binder<'_> {
    /// Whether client `c` is free and clashes with no bound member of family `i`.
    fn fits(&self, i: usize, c: usize) -> bool {
        let mut family = self.active[i]
            .into_iter()
            .chain(self.standby[i].iter().flatten().copied());
        !self.taken[c] && family.all(|b| !self.sites[b].clashes(&self.sites[c]))
    }

    fn first_fit(&self, i: usize) -> Option<usize> {
        (0..self.sites.len()).find(|&c| self.fits(i, c))
    }

    fn bind_active(&mut self, i: usize, c: usize) {
        self.active[i] = Some(c);
        self.taken[c] = true;
    }

    fn bind_standby(&mut self, i: usize, r: usize, c: usize) {
        self.standby[i][r] = Some(c);
        self.taken[c] = true;
    }
}

/// Binds every slot of `request` to a client of `sites` (see the module doc).
///
/// Fallback, for an active slot no free client fits (unreachable when
/// `slots × (R + 1) ≤ clients` or `slots == 1`, see the module doc): the
/// first free client by id, ignoring hosts and racks; if none is free, the
/// first client by id holding no standby slot of its family, which then runs
/// two containers; if every client holds one, the first client by id, whose
/// standby slot is released. Each use is noted. Needs at least one client
/// when `slots > 0`.
pub(super) fn bind(sites: &[Site<'_>], request: &Request) -> Layout {
    let n = request.slots;
    let mut b = Binder {
        sites,
        taken: vec![false; sites.len()],
        active: vec![None; n],
        standby: (0..n).map(|i| vec![None; request.replicas(i)]).collect(),
    };
    let mut notes = Vec::new();

    // 1. Preferred hosts, actives; failover to a standby's client, whose
    // standby slot is then displaced.
    let mut displaced: Vec<Option<usize>> = vec![None; n];
    for (i, moved) in displaced.iter_mut().enumerate() {
        if let Some(p) = request.active.get(i).copied().flatten() {
            if b.fits(i, p) {
                b.bind_active(i, p);
                continue;
            }
        }
        let failover = (0..request.replicas(i)).find_map(|r| {
            let c = request.preferred_standby(i, r)?;
            b.fits(i, c).then_some((r, c))
        });
        if let Some((r, c)) = failover {
            b.bind_active(i, c);
            *moved = Some(r);
        }
    }
    // 2. Preferred hosts, standbys.
    for (i, moved) in displaced.iter().enumerate() {
        for r in (0..request.replicas(i)).filter(|&r| *moved != Some(r)) {
            if let Some(c) = request.preferred_standby(i, r) {
                if b.fits(i, c) {
                    b.bind_standby(i, r, c);
                }
            }
        }
    }
    // 3. Any host, actives (with the fallback), then standbys.
    for i in 0..n {
        if b.active[i].is_some() {
            continue;
        }
        if let Some(c) = b.first_fit(i) {
            b.bind_active(i, c);
            continue;
        }
        fallback(&mut b, i, &mut notes);
    }
    let mut unbound = Vec::new();
    for i in 0..n {
        for r in 0..request.replicas(i) {
            if b.standby[i][r].is_some() {
                continue;
            }
            match b.first_fit(i) {
                Some(c) => b.bind_standby(i, r, c),
                None => unbound.push(format!("{i}-{r}")),
            }
        }
    }
    if !unbound.is_empty() {
        const SHOWN: usize = 8;
        let more = unbound.len().saturating_sub(SHOWN);
        let mut list = unbound[..unbound.len().min(SHOWN)].join(", ");
        if more > 0 {
            list.push_str(&format!(" and {more} more"));
        }
        notes.push(format!(
            "{} standby container(s) left without a client ({list}): no free client on a host (and rack) apart from the rest of their family; their stateful tasks have fewer standbys",
            unbound.len()
        ));
    }

    Layout {
        active: b.active.iter().map(|c| c.unwrap_or(0)).collect(),
        standby: b.standby,
        notes,
    }
}

/// Binds active slot `i`, which no free client fits (see [`bind`]).
fn fallback(b: &mut Binder<'_>, i: usize, notes: &mut Vec<String>) {
    let clients = b.sites.len();
    if let Some(c) = (0..clients).find(|&c| !b.taken[c]) {
        b.bind_active(i, c);
        notes.push(format!(
            "active container {i} shares a host or rack with its standby container(s): no free client apart from them"
        ));
        return;
    }
    let holds_family_standby = |b: &Binder<'_>, c: usize| b.standby[i].contains(&Some(c));
    if let Some(c) = (0..clients).find(|&c| !holds_family_standby(b, c)) {
        b.active[i] = Some(c);
        notes.push(format!(
            "active container {i} shares a client with another container: every client is taken"
        ));
        return;
    }
    if clients > 0 {
        for slot in b.standby[i].iter_mut() {
            if *slot == Some(0) {
                *slot = None;
            }
        }
        b.active[i] = Some(0);
        notes.push(format!(
            "active container {i} took the client of one of its standby containers: every client holds one"
        ));
    }
}
