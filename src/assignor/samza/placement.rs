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

use crate::model::ix::positions;
use crate::model::{ClientIx, ClusterState, IxVec};

use super::positions::SlotIx;

/// The host a client runs on: its stated host, or, without one, a host of its
/// own (client ids and host names are different namespaces, so a client
/// without a host never shares one).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Host<'a> {
    /// The client's `host`.
    Named(&'a str),
    /// The client is its own host.
    Own(ClientIx),
}

/// Where a client runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Site<'a> {
    pub host: Host<'a>,
    pub rack: Option<&'a str>,
}

/// The site of every client.
pub(super) type Sites<'a> = IxVec<ClientIx, Site<'a>>;

impl<'a> Site<'a> {
    /// The site of every client.
    pub(super) fn of(state: &'a ClusterState) -> Sites<'a> {
        state
            .client_ixs()
            .zip(state.clients())
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
    pub replicas: IxVec<SlotIx, usize>,
    /// Previous client of each active slot (`slots` entries).
    pub active: IxVec<SlotIx, Option<ClientIx>>,
    /// Previous clients of the standby slots of each active slot: entry `r`
    /// of `standby[i]` is that of `(i, r)`; entries from `replicas[i]` on
    /// are ignored.
    pub standby: IxVec<SlotIx, Vec<ClientIx>>,
}

impl Request {
    fn replicas(&self, i: SlotIx) -> usize {
        self.replicas.get(i).copied().unwrap_or(0)
    }

    fn preferred_active(&self, i: SlotIx) -> Option<ClientIx> {
        self.active.get(i).copied().flatten()
    }

    fn preferred_standby(&self, i: SlotIx, r: usize) -> Option<ClientIx> {
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
    pub active: IxVec<SlotIx, ClientIx>,
    /// Client of each standby slot `(i, r)`; `None` when no client fits.
    pub standby: IxVec<SlotIx, Vec<Option<ClientIx>>>,
    /// What could not be done, for the plan's diagnostics.
    pub notes: Vec<String>,
}

/// The binding under way.
struct Binder<'s> {
    sites: &'s Sites<'s>,
    taken: IxVec<ClientIx, bool>,
    active: IxVec<SlotIx, Option<ClientIx>>,
    standby: IxVec<SlotIx, Vec<Option<ClientIx>>>,
}

impl Binder<'_> {
    /// Whether client `c` is free and clashes with no bound member of family `i`.
    fn fits(&self, i: SlotIx, c: ClientIx) -> bool {
        let mut family = self.active[i]
            .into_iter()
            .chain(self.standby[i].iter().flatten().copied());
        !self.taken[c] && family.all(|b| !self.sites[b].clashes(&self.sites[c]))
    }

    fn first_fit(&self, i: SlotIx) -> Option<ClientIx> {
        self.sites.indices().find(|&c| self.fits(i, c))
    }

    fn bind_active(&mut self, i: SlotIx, c: ClientIx) {
        self.active[i] = Some(c);
        self.taken[c] = true;
    }

    fn bind_standby(&mut self, i: SlotIx, r: usize, c: ClientIx) {
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
pub(super) fn bind(sites: &Sites<'_>, request: &Request) -> Layout {
    let n = request.slots;
    let mut b = Binder {
        sites,
        taken: IxVec::from_elem(false, sites.len()),
        active: IxVec::from_elem(None, n),
        standby: positions::<SlotIx>(n)
            .map(|i| vec![None; request.replicas(i)])
            .collect(),
    };
    let mut notes = Vec::new();
    let displaced = bind_preferred_actives(&mut b, request);
    bind_preferred_standbys(&mut b, request, &displaced);
    // 3. Any host, actives (with the fallback), then standbys.
    for i in positions::<SlotIx>(n) {
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
    for i in positions::<SlotIx>(n) {
        for r in 0..request.replicas(i) {
            if b.standby[i][r].is_some() {
                continue;
            }
            match b.first_fit(i) {
                Some(c) => b.bind_standby(i, r, c),
                None => unbound.push(format!("{}-{r}", i.index())),
            }
        }
    }
    notes.extend(unbound_note(&unbound));
    Layout {
        // Every active slot is bound when there is a client (see `fallback`).
        active: b
            .active
            .iter()
            .map(|c| c.unwrap_or(ClientIx::from_position(0)))
            .collect(),
        standby: b.standby,
        notes,
    }
}

/// Step 1, preferred hosts, actives; failover to a standby's client, whose
/// standby slot is then displaced. Returns the displaced standby slot of
/// each active slot.
fn bind_preferred_actives(b: &mut Binder<'_>, request: &Request) -> IxVec<SlotIx, Option<usize>> {
    let mut displaced = IxVec::from_elem(None, request.slots);
    for i in positions::<SlotIx>(request.slots) {
        if let Some(p) = request.preferred_active(i) {
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
            displaced[i] = Some(r);
        }
    }
    displaced
}

/// Step 2, preferred hosts, standbys, but for the `displaced` ones.
fn bind_preferred_standbys(
    b: &mut Binder<'_>,
    request: &Request,
    displaced: &IxVec<SlotIx, Option<usize>>,
) {
    for (i, moved) in displaced.iter_enumerated() {
        for r in (0..request.replicas(i)).filter(|&r| *moved != Some(r)) {
            if let Some(c) = request.preferred_standby(i, r) {
                if b.fits(i, c) {
                    b.bind_standby(i, r, c);
                }
            }
        }
    }
}

/// The diagnostic naming the `unbound` standby slots, if any.
fn unbound_note(unbound: &[String]) -> Option<String> {
    if unbound.is_empty() {
        return None;
    }
    const SHOWN: usize = 8;
    let more = unbound.len().saturating_sub(SHOWN);
    let mut list = unbound[..unbound.len().min(SHOWN)].join(", ");
    if more > 0 {
        list.push_str(&format!(" and {more} more"));
    }
    Some(format!(
        "{} standby container(s) left without a client ({list}): no free client on a host (and rack) apart from the rest of their family; their stateful tasks have fewer standbys",
        unbound.len()
    ))
}

/// Binds active slot `i`, which no free client fits (see [`bind`]).
fn fallback(b: &mut Binder<'_>, i: SlotIx, notes: &mut Vec<String>) {
    let n = i.index();
    if let Some(c) = b.sites.indices().find(|&c| !b.taken[c]) {
        b.bind_active(i, c);
        notes.push(format!(
            "active container {n} shares a host or rack with its standby container(s): no free client apart from them"
        ));
        return;
    }
    let holds_family_standby = |b: &Binder<'_>, c: ClientIx| b.standby[i].contains(&Some(c));
    if let Some(c) = b.sites.indices().find(|&c| !holds_family_standby(b, c)) {
        b.active[i] = Some(c);
        notes.push(format!(
            "active container {n} shares a client with another container: every client is taken"
        ));
        return;
    }
    if let Some(first) = b.sites.indices().next() {
        for slot in b.standby[i].iter_mut() {
            if *slot == Some(first) {
                *slot = None;
            }
        }
        b.active[i] = Some(first);
        notes.push(format!(
            "active container {n} took the client of one of its standby containers: every client holds one"
        ));
    }
}
