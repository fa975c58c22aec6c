//! Plan metrics: balance, moves against the previous assignment, the restore
//! volume a plan implies, cross-rack placement, and the distance of the
//! plan's restore volume to `optimal`'s least within the same share bounds.
//! Plain figures: the JSON form of [`PlanMetrics`] is written by `wire`, not
//! here.

use std::collections::BTreeMap;

use crate::assignor::optimal;
use crate::assignor::share::meets_active_shares;
use crate::model::{ClusterState, Plan, TaskId};

/// Figures describing one plan against its state.
#[derive(Debug, Clone, PartialEq)]
pub struct PlanMetrics {
    /// max − min over clients of actives per thread (Kafka's active balance).
    pub active_spread_per_thread: f64,
    /// max − min over clients of stateful replicas (actives, standbys and
    /// warm-ups) per thread (Kafka's stateful balance).
    pub stateful_spread_per_thread: f64,
    /// The largest, over subtopologies, of max − min actives of that
    /// subtopology per client (Kafka's subtopology skew; per client, not per thread).
    pub subtopology_spread: u64,
    /// Tasks whose active left a client that ran it before.
    pub active_moves: u64,
    /// Tasks given an active with no previous active owner among the clients.
    pub new_actives: u64,
    /// Standbys placed on a client that did not hold the task as standby before.
    pub standby_moves: u64,
    /// Warm-up replicas in the plan.
    pub warmups: u64,
    /// Records the actives must replay before processing: Σ over stateful
    /// actives of the lag on their client (`running` → 0, `unknown` → the end
    /// offset); saturates at `u64::MAX`.
    pub active_restore_records: u64,
    /// Records standbys and warm-ups must replay to catch up, counted (and
    /// saturating) the same way.
    pub replica_restore_records: u64,
    /// Actives on a client whose rack is known and is not among the task's
    /// `racks` (the racks of its input partitions), when those are known:
    /// each one reads its input across racks.
    pub cross_rack_actives: u64,
    /// `active_restore_records` minus the least a plan meeting the same
    /// capacity-proportional share bounds can restore (`optimal`'s); `None`
    /// when the plan breaks those bounds, there are no clients, or the lags
    /// are too large for the exact solver. See [`distance_to_optimal`].
    pub distance_to_optimal: Option<u64>,
}

/// A plan that meets `optimal`'s share bounds and restores fewer records
/// than `optimal`'s least: `optimal` is wrong, a bug in smoothscale (the
/// simulator stops the run as on a broken invariant; the fronts report a bug).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error(
    "the plan restores {restore} records with every client within optimal's share bounds, \
     fewer than optimal's least ({least}): optimal is not optimal (a bug in smoothscale)"
)]
pub struct OptimalBeaten {
    /// Records the plan's actives restore.
    pub restore: u64,
    /// The least `optimal` found.
    pub least: u64,
}

/// Computes the metrics of `plan` for `state`.
///
/// # Errors
///
/// [`OptimalBeaten`] when the plan restores fewer records than `optimal`
/// within the same share bounds (see [`distance_to_optimal`]).
pub fn plan_metrics(state: &ClusterState, plan: &Plan) -> Result<PlanMetrics, OptimalBeaten> {
    let mut m = PlanMetrics {
        active_spread_per_thread: 0.0,
        stateful_spread_per_thread: 0.0,
        subtopology_spread: 0,
        active_moves: 0,
        new_actives: 0,
        standby_moves: 0,
        warmups: plan.warmup_count() as u64,
        active_restore_records: 0,
        replica_restore_records: 0,
        cross_rack_actives: cross_rack_actives(state, plan),
        distance_to_optimal: None,
    };
    let mut active_loads = Vec::new();
    let mut stateful_loads = Vec::new();
    let mut per_subtopology: BTreeMap<u32, BTreeMap<usize, u64>> = BTreeMap::new();
    let previous = previous_owners(state);
    for (c, client) in state.clients().iter().enumerate() {
        let Some(cp) = plan.clients.get(&client.id) else {
            continue;
        };
        let threads = f64::from(client.capacity);
        active_loads.push(cp.active.len() as f64 / threads);
        let replicas = cp.active.iter().chain(&cp.standby).chain(&cp.warmup);
        let stateful = replicas.filter(|t| state.task(**t).is_some_and(|t| t.stateful));
        stateful_loads.push(stateful.count() as f64 / threads);
        for &t in &cp.active {
            *per_subtopology
                .entry(t.subtopology)
                .or_default()
                .entry(c)
                .or_default() += 1;
            match previous.get(&t) {
                None => m.new_actives += 1,
                Some(owners) if !owners.contains(&c) => m.active_moves += 1,
                Some(_) => {}
            }
        }
        m.standby_moves += cp
            .standby
            .iter()
            .filter(|t| !client.previous_standby.contains(t))
            .count() as u64;
        for task in cp
            .active
            .iter()
            .filter_map(|&t| state.task(t))
            .filter(|t| t.stateful)
        {
            let records = state.lag(client, task).restore_records(task.end_offset);
            m.active_restore_records = m.active_restore_records.saturating_add(records);
        }
        for task in cp
            .standby
            .iter()
            .chain(&cp.warmup)
            .filter_map(|&t| state.task(t))
        {
            let records = state.lag(client, task).restore_records(task.end_offset);
            m.replica_restore_records = m.replica_restore_records.saturating_add(records);
        }
    }
    m.distance_to_optimal = distance_given(state, plan, m.active_restore_records)?;
    m.active_spread_per_thread = spread(&active_loads);
    m.stateful_spread_per_thread = spread(&stateful_loads);
    let clients = state.clients().len();
    m.subtopology_spread = per_subtopology
        .values()
        .map(|counts| {
            let max = counts.values().copied().max().unwrap_or(0);
            let min = if counts.len() < clients {
                0
            } else {
                counts.values().copied().min().unwrap_or(0)
            };
            max - min
        })
        .max()
        .unwrap_or(0);
    Ok(m)
}

/// Actives of `plan` on a client whose rack is known and is not among the
/// task's `racks`; tasks with no known racks and clients with no rack are not
/// counted.
pub fn cross_rack_actives(state: &ClusterState, plan: &Plan) -> u64 {
    let mut count = 0;
    for client in state.clients() {
        let (Some(rack), Some(cp)) = (&client.rack, plan.clients.get(&client.id)) else {
            continue;
        };
        count += cp
            .active
            .iter()
            .filter_map(|&t| state.task(t))
            .filter(|t| !t.racks.is_empty() && !t.racks.contains(rack))
            .count() as u64;
    }
    count
}

/// How many more records `plan`'s actives restore than the least any
/// assignment meeting the share bounds of `optimal` restores (every client
/// `c` between `⌊T·k_c/K⌋` and `⌈T·k_c/K⌉` actives, see
/// [`crate::assignor::share::share_bounds`]): `Some(0)` for an optimal
/// plan; `None` when `plan` breaks those bounds (the comparison would not be
/// like for like), there are no clients, or the lags are too large for the
/// exact solver.
///
/// Costs one min-cost flow over the sparse active network, with an arc per
/// task, client and lag entry (see `optimal`'s complexity), and nothing
/// when the plan breaks the bounds.
///
/// # Errors
///
/// [`OptimalBeaten`] when `plan` meets the bounds and restores fewer
/// records than `optimal`'s least: `optimal` is then wrong, and no figure
/// would be honest.
pub fn distance_to_optimal(
    state: &ClusterState,
    plan: &Plan,
) -> Result<Option<u64>, OptimalBeaten> {
    distance_given(state, plan, active_restore_records(state, plan))
}

fn distance_given(
    state: &ClusterState,
    plan: &Plan,
    restore: u64,
) -> Result<Option<u64>, OptimalBeaten> {
    if !meets_active_shares(state, plan) {
        return Ok(None);
    }
    let Some(least) = optimal::min_active_restore_cost(state) else {
        return Ok(None);
    };
    match restore.checked_sub(least) {
        Some(excess) => Ok(Some(excess)),
        None => Err(OptimalBeaten { restore, least }),
    }
}

/// Σ over stateful actives of the lag on their client (`running` → 0,
/// `unknown` → the end offset), saturating.
fn active_restore_records(state: &ClusterState, plan: &Plan) -> u64 {
    let mut total = 0u64;
    for client in state.clients() {
        let Some(cp) = plan.clients.get(&client.id) else {
            continue;
        };
        for task in cp
            .active
            .iter()
            .filter_map(|&t| state.task(t))
            .filter(|t| t.stateful)
        {
            let records = state.lag(client, task).restore_records(task.end_offset);
            total = total.saturating_add(records);
        }
    }
    total
}

fn spread(values: &[f64]) -> f64 {
    let max = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let min = values.iter().copied().fold(f64::INFINITY, f64::min);
    if values.is_empty() {
        0.0
    } else {
        max - min
    }
}

/// The clients (by position) that ran each task as active before.
fn previous_owners(state: &ClusterState) -> BTreeMap<TaskId, Vec<usize>> {
    let mut owners: BTreeMap<TaskId, Vec<usize>> = BTreeMap::new();
    for (c, client) in state.clients().iter().enumerate() {
        for &t in &client.previous_active {
            owners.entry(t).or_default().push(c);
        }
    }
    owners
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assignor::optimal::Optimal;
    use crate::model::{AssignmentConfig, Client, Lag, Task};
    use crate::Assignor;

    /// Two stateful tasks, each 10 records behind on both clients:
    /// `optimal` restores 20 at least.
    fn state() -> ClusterState {
        let (t0, t1) = (TaskId::new(0, 0), TaskId::new(0, 1));
        let tasks = vec![Task::stateful(t0, 1_000), Task::stateful(t1, 1_000)];
        let behind = |c: Client| {
            c.with_lag(t0, Lag::Records(10))
                .with_lag(t1, Lag::Records(10))
        };
        let clients = vec![behind(Client::new("a", 1)), behind(Client::new("b", 1))];
        ClusterState::new(AssignmentConfig::default(), tasks, clients).unwrap()
    }

    #[test]
    fn a_plan_at_optimals_least_is_at_distance_zero() {
        let state = state();
        let plan = Optimal.assign(&state).unwrap();
        assert_eq!(distance_to_optimal(&state, &plan), Ok(Some(0)));
        assert_eq!(distance_given(&state, &plan, 25), Ok(Some(5)));
    }

    /// What a plan restoring fewer records than `optimal` within its bounds
    /// meets (no real plan can while `optimal` is right: the restore is
    /// understated here to drive that path).
    #[test]
    fn a_plan_beating_optimal_is_an_error_naming_both_figures() {
        let state = state();
        let plan = Optimal.assign(&state).unwrap();
        let beaten = distance_given(&state, &plan, 15).unwrap_err();
        assert_eq!(
            beaten,
            OptimalBeaten {
                restore: 15,
                least: 20
            }
        );
        let message = beaten.to_string();
        assert!(
            message.contains("restores 15 records") && message.contains("least (20)"),
            "{message}"
        );
    }
}
