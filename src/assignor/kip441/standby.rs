//! Standby placement (`docs/algorithms.md`, *kip441: standbys*): Kafka's
//! default least-loaded standby
//! assignor and the client-tag-aware one of KIP-708.

use std::collections::{BTreeMap, BTreeSet};

use crate::model::ClusterState;

use super::work::{Role, Work};
use crate::model::{ClientIx, TaskIx};

/// How standbys are placed: chosen as Kafka's `StandbyTaskAssignorFactory`
/// does inside the HA assignor (tags configured → tag-aware, else default).
pub(super) enum StandbyPlacer<'a> {
    /// Least assigned load first, never on a client holding the task.
    Default,
    /// Spread over the values of the configured client tag keys.
    TagAware(TagStats<'a>),
}

impl<'a> StandbyPlacer<'a> {
    pub(super) fn for_state(state: &'a ClusterState) -> StandbyPlacer<'a> {
        if state.config().rack_aware_assignment_tags.is_empty() {
            StandbyPlacer::Default
        } else {
            StandbyPlacer::TagAware(TagStats::new(state))
        }
    }

    /// Places `replicas` standbys of every stateful task (ascending).
    pub(super) fn assign(&self, work: &mut Work, stateful: &[TaskIx], replicas: usize) {
        match self {
            StandbyPlacer::Default => {
                for &t in stateful {
                    least_loaded_standbys(work, t, replicas);
                }
            }
            StandbyPlacer::TagAware(stats) => stats.assign(work, stateful, replicas),
        }
    }

    /// Whether balancing may move a standby from `src` to `dst`: always for the
    /// default placer; for the tag-aware one only when every tag of `src` has
    /// the same value on `dst`.
    pub(super) fn may_move(&self, src: ClientIx, dst: ClientIx) -> bool {
        match self {
            StandbyPlacer::Default => true,
            StandbyPlacer::TagAware(stats) => {
                let (s, d) = (stats.tags(src), stats.tags(dst));
                s.iter().all(|(k, v)| d.get(k) == Some(v))
            }
        }
    }
}

impl StandbyPlacer<'_> {
    /// The standby assignor's `may_move_task`, used by the rack standby
    /// optimiser: always for the default placer; for the tag-aware one only
    /// when the task's tag diversity does not drop.
    pub(super) fn may_move_task(
        &self,
        state: &ClusterState,
        work: &Work,
        src: ClientIx,
        dst: ClientIx,
        t: TaskIx,
    ) -> bool {
        match self {
            StandbyPlacer::Default => true,
            StandbyPlacer::TagAware(_) => {
                crate::assignor::rack::tag_diversity_allows(state, work, src, dst, t)
            }
        }
    }
}

/// Gives `t` up to `count` more standbys on the least loaded clients that do
/// not hold it. Returns how many could not be placed.
fn least_loaded_standbys(work: &mut Work, t: TaskIx, count: usize) -> usize {
    for placed in 0..count {
        let Some(c) = work.least_loaded(|c| !work.holds(c, t)) else {
            return count - placed;
        };
        work.assign(c, t, Role::Standby);
    }
    0
}

/// Client tag statistics for KIP-708 placement.
pub(super) struct TagStats<'a> {
    state: &'a ClusterState,
    /// The configured tag keys.
    keys: BTreeSet<&'a str>,
    /// For each configured tag key, the distinct values clients carry.
    values: BTreeMap<&'a str, BTreeSet<&'a str>>,
}

impl<'a> TagStats<'a> {
    fn new(state: &'a ClusterState) -> TagStats<'a> {
        let keys: BTreeSet<&str> = state
            .config()
            .rack_aware_assignment_tags
            .iter()
            .map(String::as_str)
            .collect();
        let values = keys.iter().map(|&k| (k, state.tag_values(k))).collect();
        TagStats {
            state,
            keys,
            values,
        }
    }

    fn tags(&self, c: ClientIx) -> &'a BTreeMap<String, String> {
        &self.state.clients()[c.index()].tags
    }

    /// Kafka's `ClientTagAwareStandbyTaskAssignor`: for each stateful task, pick
    /// least-loaded clients whose configured tag values differ from those
    /// already used, dropping a tag key once all its values are used; tasks left
    /// short are then filled least-loaded, in ascending task order (Kafka
    /// iterates a hash map there; this port sorts).
    fn assign(&self, work: &mut Work, stateful: &[TaskIx], replicas: usize) {
        let mut pending = Vec::new();
        for &t in stateful {
            let Some(owner) = work.owner(t) else { continue };
            let remaining = self.spread(work, t, owner, replicas);
            if remaining > 0 {
                pending.push((t, remaining));
            }
        }
        for (t, remaining) in pending {
            least_loaded_standbys(work, t, remaining);
        }
    }

    /// Places standbys of `t` on distinct tag values; returns how many are left.
    fn spread(&self, work: &mut Work, t: TaskIx, owner: ClientIx, replicas: usize) -> usize {
        let mut blocked: BTreeSet<(&str, &str)> = BTreeSet::new();
        let mut used = 1;
        let mut remaining = replicas;
        let mut last = owner;
        while remaining > 0 {
            self.block_tags_of(last, used, &mut blocked);
            let free = |c: ClientIx| {
                !work.holds(c, t)
                    && !self
                        .tags(c)
                        .iter()
                        .any(|(k, v)| blocked.contains(&(k.as_str(), v.as_str())))
            };
            let Some(c) = work.least_loaded(free) else {
                break;
            };
            work.assign(c, t, Role::Standby);
            used += 1;
            remaining -= 1;
            last = c;
        }
        remaining
    }

    /// Blocks the tag values of `client`, or frees a whole key once at least
    /// as many clients are used as the key has values ("partial rack awareness").
    fn block_tags_of(
        &self,
        client: ClientIx,
        used: usize,
        blocked: &mut BTreeSet<(&'a str, &'a str)>,
    ) {
        for (k, v) in self.tags(client) {
            if !self.keys.contains(k.as_str()) {
                continue;
            }
            let all = &self.values[k.as_str()];
            if all.len() <= used {
                for value in all {
                    blocked.remove(&(k.as_str(), *value));
                }
            } else {
                blocked.insert((k.as_str(), v.as_str()));
            }
        }
    }
}
