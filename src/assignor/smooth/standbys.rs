//! Standbys: `min(num_standby_replicas, clients − 1)` per stateful task, where
//! the state already is (caught-up copies first, then the least left to
//! restore), else on the client with the fewest replicas. A caught-up copy
//! stays (moving it buys nothing and costs a whole restore elsewhere, which
//! would slow the warm-ups restoring there); a client takes a copy it must
//! restore only while it has fewer than ⌈replicas / clients⌉ + 1 replicas,
//! and new ones go to the clients with the fewest, so standbys placed afresh
//! never pile up on one client.
//!
//! With `rack_aware_assignment_tags` configured, each standby goes first to a
//! client whose values of those tags no other copy of the task (its active,
//! warm-up and standbys chosen so far) carries, as Kafka's tag-aware standby
//! assignor (KIP-708) does: a key stops counting once the task's copies use as
//! many clients as the key has values. Only when no such client is left does a
//! standby share a tag value, by the rules above.

use std::collections::{BTreeMap, BTreeSet};

use crate::model::{ClientIx, ClusterState, IxVec, TaskIx};

use super::work::Work;

/// Replicas (standbys and warm-ups) per client, with an index by count.
struct Replicas {
    count: IxVec<ClientIx, usize>,
    by_count: BTreeSet<(usize, ClientIx)>,
}

impl Replicas {
    fn add(&mut self, c: ClientIx) {
        self.by_count.remove(&(self.count[c], c));
        self.count[c] += 1;
        self.by_count.insert((self.count[c], c));
    }
}

/// The configured tag keys and how many values each takes over the clients.
struct Zones<'a> {
    state: &'a ClusterState,
    values: BTreeMap<&'a str, usize>,
}

impl<'a> Zones<'a> {
    fn new(state: &'a ClusterState) -> Zones<'a> {
        let values = state
            .config()
            .rack_aware_assignment_tags
            .iter()
            .map(|key| (key.as_str(), state.tag_values(key).len()))
            .collect();
        Zones { state, values }
    }

    /// The tag values `used` occupy, of the keys they do not yet exhaust.
    fn taken(&self, used: &[ClientIx]) -> BTreeSet<(&'a str, &'a str)> {
        let mut taken = BTreeSet::new();
        for (&key, &values) in &self.values {
            if used.len() >= values {
                continue;
            }
            for &c in used {
                if let Some(value) = self.state.clients()[c.index()].tags.get(key) {
                    taken.insert((key, value.as_str()));
                }
            }
        }
        taken
    }

    /// Whether `c` carries none of the `taken` tag values.
    fn apart(&self, c: ClientIx, taken: &BTreeSet<(&str, &str)>) -> bool {
        taken.is_empty()
            || !self.values.keys().any(|&key| {
                self.state.clients()[c.index()]
                    .tags
                    .get(key)
                    .is_some_and(|value| taken.contains(&(key, value.as_str())))
            })
    }
}

/// Each client's standbys, in task order.
pub(super) fn place(
    work: &Work<'_>,
    holders: &IxVec<TaskIx, Vec<ClientIx>>,
) -> IxVec<ClientIx, BTreeSet<TaskIx>> {
    let state = work.state;
    let clients = state.clients().len();
    let mut standby = IxVec::from_elem(BTreeSet::new(), clients);
    let k = (state.config().num_standby_replicas as usize).min(clients.saturating_sub(1));
    if k == 0 {
        return standby;
    }
    let mut replicas = Replicas {
        count: IxVec::from_elem(0, clients),
        by_count: BTreeSet::new(),
    };
    for &c in work.warmup.iter().flatten() {
        replicas.count[c] += 1;
    }
    replicas.by_count = work.clients().map(|c| (replicas.count[c], c)).collect();
    let zones = Zones::new(state);
    let stateful: Vec<TaskIx> = work.tasks().filter(|&t| work.stateful(t)).collect();
    let cap = (stateful.len() * k + work.warmups).div_ceil(clients) + 1;
    let acceptable = state.config().acceptable_recovery_lag;
    for t in stateful {
        let mut used: Vec<ClientIx> = work.owner[t].into_iter().chain(work.warmup[t]).collect();
        let wanted = k.min(clients - used.len().max(1));
        // Where some of the state is: caught up first, then least to restore.
        let end_offset = work.end_offset(t);
        let mut copies: Vec<(bool, u64, usize, ClientIx)> = holders[t]
            .iter()
            .copied()
            .filter(|c| !used.contains(c))
            .map(|c| {
                let lag = work.lag(c, t);
                let restore = lag.restore_records(end_offset);
                (!lag.is_caught_up(acceptable), restore, replicas.count[c], c)
            })
            .filter(|&(stale, restore, _, _)| !stale || restore < end_offset)
            .collect();
        copies.sort_unstable();
        let standbys_before = used.len();
        while used.len() - standbys_before < wanted {
            let taken = zones.taken(&used);
            let copy = |apart: bool| {
                copies.iter().find(|&&(stale, _, _, c)| {
                    !used.contains(&c)
                        && (!stale || replicas.count[c] < cap)
                        && (!apart || zones.apart(c, &taken))
                })
            };
            let fewest = |apart: bool| {
                replicas
                    .by_count
                    .iter()
                    .find(|&&(_, c)| !used.contains(&c) && (!apart || zones.apart(c, &taken)))
            };
            let Some(c) = copy(true)
                .map(|&(_, _, _, c)| c)
                .or_else(|| fewest(true).map(|&(_, c)| c))
                .or_else(|| copy(false).map(|&(_, _, _, c)| c))
                .or_else(|| fewest(false).map(|&(_, c)| c))
            else {
                break;
            };
            used.push(c);
            replicas.add(c);
            standby[c].insert(t);
        }
    }
    standby
}
