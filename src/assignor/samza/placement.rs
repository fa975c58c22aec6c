//! Level 2: containers → clients, Samza's allocator with host affinity and
//! the standby constraint (`ContainerProcessManager`'s preferred-host
//! requests and SEP-19's `StandbyContainerManager`; `docs/algorithms.md`,
//! *Samza: host affinity* and *Samza: standby containers*).
//!
//! A client is a host resource that can run several containers. Active
//! container `i` and its standby containers `i-0`, `i-1`, … (none when `i`
//! holds no stateful task: there is nothing to mirror) form a *family*
//! ([`Member`]): no two of them may run on one host, nor, when fault
//! domains are on ([`Hosts::fault_domains`]), on one rack where both clients
//! state a rack. Containers of different families hold different tasks and
//! may share a client.
//!
//! 1. **Preferred hosts, actives** by id: container `i` goes back to the
//!    client that ran it. A container whose client is gone (not one that
//!    never ran) fails over to the client of its first previous standby
//!    container (`i-0` if known),
//!    whatever else that client runs, and that standby container is
//!    *displaced*.
//! 2. **Preferred hosts, standbys** by `(i, r)`, for the families whose
//!    active container is bound: every standby container not displaced goes
//!    back to its previous client if no member of its family already bound
//!    clashes with it.
//! 3. **Any host, actives** by id: the client running the fewest active
//!    containers, then the fewest containers, then the lowest id. No
//!    standby container of the family is bound yet, so none clashes. Then
//!    step 2 for these families.
//! 4. **Any host, standbys**, every `i-0` by `i`, then every `i-1`, and so
//!    on: of the clients no bound member of the family clashes with, the one
//!    running the fewest containers, ties by the client that follows the
//!    active's client soonest in id order (cyclically), so a fresh layout on
//!    separate hosts puts `i-0` on the next client after `i`'s, `i-1` on the
//!    one after, and so on. With no such client the
//!    standby container stays unplaced and a note names it (Samza's request
//!    would keep waiting).
//!
//! Actives are served before standbys, as Samza's allocator orders active
//! requests first. Steps 3 and 4 stand in for the resources the cluster
//! manager hands out: Samza takes whatever host comes; the least-loaded
//! client is the deterministic choice of a manager that spreads containers.

use std::collections::{BTreeMap, BTreeSet};

use crate::model::ix::positions;
use crate::model::{ClientIx, ClusterState, IxVec};

use super::container::Member;
use super::positions::SlotIx;

/// The host a client runs on: its stated host, or, without one, a host of its
/// own (client ids and host names are different namespaces, so a client
/// without a host never shares one).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
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

/// Where every client runs, and whether racks separate families.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Hosts<'a> {
    /// The site of every client.
    pub sites: IxVec<ClientIx, Site<'a>>,
    /// Samza's opt-in `cluster-manager.fault-domain-aware.standby.enabled`:
    /// no two members of a family on one rack either.
    pub fault_domains: bool,
}

impl<'a> Hosts<'a> {
    /// The sites of the clients of `state`; fault domains are on when the
    /// configuration turns Samza's rule on
    /// (`samza_fault_domain_aware_standby`).
    pub(super) fn of(state: &'a ClusterState) -> Hosts<'a> {
        let sites = state
            .client_ixs()
            .zip(state.clients())
            .map(|(c, client)| Site {
                host: client.host.as_deref().map_or(Host::Own(c), Host::Named),
                rack: client.rack.as_deref(),
            })
            .collect();
        Hosts {
            sites,
            fault_domains: state.config().samza_fault_domain_aware_standby,
        }
    }

    /// Whether two members of one family may not run on clients `a` and `b`.
    pub(super) fn clash(&self, a: ClientIx, b: ClientIx) -> bool {
        let (a, b) = (&self.sites[a], &self.sites[b]);
        a.host == b.host || (self.fault_domains && a.rack.is_some() && a.rack == b.rack)
    }
}

/// What to bind: the container counts and every container's previous client.
#[derive(Debug, Clone, Default)]
pub(super) struct Request {
    /// Active containers `0..slots`.
    pub slots: usize,
    /// Standby containers of each active container (`slots` entries).
    pub replicas: IxVec<SlotIx, usize>,
    /// Previous client of each active container (`slots` entries); `None`
    /// for a new container or one whose client is gone.
    pub active: IxVec<SlotIx, Option<ClientIx>>,
    /// Whether each active container's last client is gone, so that it
    /// fails over to a standby container's client (`slots` entries; a
    /// container with no last client takes any host).
    pub lost: IxVec<SlotIx, bool>,
    /// Previous clients of the standby containers of each active container:
    /// entry `r` of `standby[i]` is that of `i-r` (`None`: unknown or gone);
    /// entries from `replicas[i]` on are ignored.
    pub standby: IxVec<SlotIx, Vec<Option<ClientIx>>>,
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
            self.standby
                .get(i)
                .and_then(|s| s.get(r))
                .copied()
                .flatten()
        } else {
            None
        }
    }
}

/// The clients the containers were bound to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Layout {
    /// Client of each active container.
    pub active: IxVec<SlotIx, ClientIx>,
    /// Client of each standby container `i-r`; `None` when none fits.
    pub standby: IxVec<SlotIx, Vec<Option<ClientIx>>>,
    /// What could not be done, for the plan's diagnostics.
    pub notes: Vec<String>,
}

impl Layout {
    /// Every placed container and its client: active containers by id, then
    /// standby containers by `(i, r)`.
    pub(super) fn containers(&self) -> impl Iterator<Item = (Member, ClientIx)> + '_ {
        let actives = self
            .active
            .iter_enumerated()
            .map(|(i, &c)| (Member::active(i), c));
        let standbys = self.standby.iter_enumerated().flat_map(|(i, s)| {
            s.iter()
                .enumerate()
                .filter_map(move |(r, c)| c.map(|c| (Member::standby(i, r), c)))
        });
        actives.chain(standbys)
    }
}

/// The binding under way.
struct Binder<'s> {
    hosts: &'s Hosts<'s>,
    /// Active containers per client.
    actives: IxVec<ClientIx, usize>,
    /// Containers (active and standby) per client.
    containers: IxVec<ClientIx, usize>,
    active: IxVec<SlotIx, Option<ClientIx>>,
    standby: IxVec<SlotIx, Vec<Option<ClientIx>>>,
    /// Every client keyed by step 3's order: (actives, containers, id).
    by_load: BTreeSet<(usize, usize, ClientIx)>,
    /// The clients by their number of containers (step 4's first key).
    by_containers: BTreeMap<usize, BTreeSet<ClientIx>>,
}

impl Binder<'_> {
    /// A binder with nothing bound yet.
    fn new<'s>(hosts: &'s Hosts<'s>, request: &Request) -> Binder<'s> {
        let clients = hosts.sites.len();
        let all: BTreeSet<ClientIx> = hosts.sites.indices().collect();
        Binder {
            hosts,
            actives: IxVec::from_elem(0, clients),
            containers: IxVec::from_elem(0, clients),
            active: IxVec::from_elem(None, request.slots),
            standby: positions::<SlotIx>(request.slots)
                .map(|i| vec![None; request.replicas(i)])
                .collect(),
            by_load: all.iter().map(|&c| (0, 0, c)).collect(),
            by_containers: if all.is_empty() {
                BTreeMap::new()
            } else {
                BTreeMap::from([(0, all)])
            },
        }
    }

    /// Whether no bound member of family `i` clashes with client `c`.
    fn fits(&self, i: SlotIx, c: ClientIx) -> bool {
        let mut family = self.active[i]
            .into_iter()
            .chain(self.standby[i].iter().flatten().copied());
        family.all(|b| !self.hosts.clash(b, c))
    }

    fn bind(&mut self, id: Member, c: ClientIx) {
        let (actives, containers) = (self.actives[c], self.containers[c]);
        self.by_load.remove(&(actives, containers, c));
        if let Some(level) = self.by_containers.get_mut(&containers) {
            level.remove(&c);
            if level.is_empty() {
                self.by_containers.remove(&containers);
            }
        }
        match id.standby {
            None => {
                self.active[id.slot] = Some(c);
                self.actives[c] += 1;
            }
            Some(r) => self.standby[id.slot][r] = Some(c),
        }
        self.containers[c] += 1;
        self.by_load
            .insert((self.actives[c], self.containers[c], c));
        self.by_containers
            .entry(self.containers[c])
            .or_default()
            .insert(c);
    }

    /// Step 3's client: the fewest actives, the fewest containers, the
    /// lowest id. O(1).
    fn least_loaded(&self) -> Option<ClientIx> {
        self.by_load.first().map(|&(_, _, c)| c)
    }

    /// Step 4's client for a standby container of family `i`: of the
    /// clients [`Binder::fits`] accepts (told by the hosts and racks the
    /// family's bound members occupy), the one with the fewest containers,
    /// ties by the client following the active's soonest in id order. The
    /// clients are visited by that order and the first apart wins, so only
    /// clients on the family's hosts or racks are skipped:
    /// O(R log R + skipped · log C), not a scan of every client.
    fn least_loaded_apart(&self, i: SlotIx) -> Option<ClientIx> {
        let sites = &self.hosts.sites;
        let members = self.active[i]
            .into_iter()
            .chain(self.standby[i].iter().flatten().copied());
        let mut hosts = BTreeSet::new();
        let mut racks = BTreeSet::new();
        for b in members {
            hosts.insert(sites[b].host);
            if self.hosts.fault_domains {
                racks.extend(sites[b].rack);
            }
        }
        let apart = |c: ClientIx| {
            let site = &sites[c];
            !hosts.contains(&site.host) && site.rack.is_none_or(|r| !racks.contains(r))
        };
        let from = self.active[i].unwrap_or(ClientIx::from_position(0));
        self.by_containers.values().find_map(|level| {
            level
                .range(from..)
                .chain(level.range(..from))
                .copied()
                .find(|&c| apart(c))
        })
    }
}

/// Binds every container of `request` to a client of `hosts` (see the module
/// doc). Every active container gets a client when there is one.
pub(super) fn bind(hosts: &Hosts<'_>, request: &Request) -> Layout {
    let n = request.slots;
    let mut b = Binder::new(hosts, request);
    let displaced = bind_preferred_actives(&mut b, request);
    bind_preferred_standbys(&mut b, request, &displaced);
    for i in positions::<SlotIx>(n) {
        if b.active[i].is_none() {
            if let Some(c) = b.least_loaded() {
                b.bind(Member::active(i), c);
            }
        }
    }
    bind_preferred_standbys(&mut b, request, &displaced);
    let mut unbound = Vec::new();
    let most = request.replicas.iter().copied().max().unwrap_or(0);
    for r in 0..most {
        for i in positions::<SlotIx>(n).filter(|&i| r < request.replicas(i)) {
            if b.standby[i][r].is_some() {
                continue;
            }
            match b.least_loaded_apart(i) {
                Some(c) => b.bind(Member::standby(i, r), c),
                None => unbound.push(Member::standby(i, r).to_string()),
            }
        }
    }
    Layout {
        // Step 3 binds every active container when there is a client.
        active: b
            .active
            .iter()
            .map(|c| c.unwrap_or(ClientIx::from_position(0)))
            .collect(),
        standby: b.standby,
        notes: unbound_note(&unbound).into_iter().collect(),
    }
}

/// Step 1, preferred hosts, actives; failover to the client of the first
/// previous standby container, which is then displaced. Returns the
/// displaced standby container of each active container.
fn bind_preferred_actives(b: &mut Binder<'_>, request: &Request) -> IxVec<SlotIx, Option<usize>> {
    let mut displaced = IxVec::from_elem(None, request.slots);
    for i in positions::<SlotIx>(request.slots) {
        if let Some(p) = request.preferred_active(i) {
            b.bind(Member::active(i), p);
            continue;
        }
        if !request.lost.get(i).copied().unwrap_or(false) {
            continue;
        }
        let failover =
            (0..request.replicas(i)).find_map(|r| request.preferred_standby(i, r).map(|c| (r, c)));
        if let Some((r, c)) = failover {
            b.bind(Member::active(i), c);
            displaced[i] = Some(r);
        }
    }
    displaced
}

/// Step 2, preferred hosts, standbys, but for the `displaced` ones: those
/// of the families whose active container is bound, and still unbound.
fn bind_preferred_standbys(
    b: &mut Binder<'_>,
    request: &Request,
    displaced: &IxVec<SlotIx, Option<usize>>,
) {
    for (i, moved) in displaced.iter_enumerated() {
        if b.active[i].is_none() {
            continue;
        }
        for r in (0..request.replicas(i)).filter(|&r| *moved != Some(r)) {
            if b.standby[i][r].is_some() {
                continue;
            }
            if let Some(c) = request.preferred_standby(i, r) {
                if b.fits(i, c) {
                    b.bind(Member::standby(i, r), c);
                }
            }
        }
    }
}

/// The diagnostic naming the `unbound` standby containers, if any.
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
        "{} standby container(s) left without a client ({list}): no client on a host (and rack) apart from the rest of their family; their stateful tasks have fewer standbys",
        unbound.len()
    ))
}
