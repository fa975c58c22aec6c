//! Share bounds: the capacity-proportional range of replicas each client may
//! hold. With `T` replicas to place and clients of capacities `k_c` (threads,
//! `K = Σ k_c`), client `c`'s share is between `⌊T·k_c/K⌋` and `⌈T·k_c/K⌉`.
//! `Σ⌊·⌋ ≤ T ≤ Σ⌈·⌉`, so an assignment within the bounds always exists.
//!
//! `optimal` places its actives and standbys within these bounds,
//! `kip441-learner` steers toward them, and
//! [`distance_to_optimal`](crate::metrics::distance_to_optimal) compares
//! only plans that meet them.
//!
//! # Examples
//! ```
//! use smoothscale::assignor::share::share_bounds;
//! use smoothscale::{AssignmentConfig, Client, ClusterState};
//!
//! let clients = vec![Client::new("a", 2), Client::new("b", 1)];
//! let state = ClusterState::new(AssignmentConfig::default(), vec![], clients).unwrap();
//! // 7 replicas over capacities 2 and 1: 14/3 and 7/3.
//! assert_eq!(share_bounds(&state, 7), vec![(4, 5), (2, 3)]);
//! ```

use crate::model::{ClusterState, Plan};

/// The share rule: for `total` replicas, client `c` (in
/// [`ClusterState::clients`] order) gets between `⌊total·k_c/K⌋` and
/// `⌈total·k_c/K⌉`, `k_c` its capacity and `K` the clients' total capacity.
/// Empty when there are no clients.
pub fn share_bounds(state: &ClusterState, total: usize) -> Vec<(usize, usize)> {
    let weights: Vec<u32> = state.clients().iter().map(|c| c.capacity).collect();
    weighted_share_bounds(&weights, total)
}

/// [`share_bounds`] for clients of the given weights (capacities; a weight
/// of 0 gets `(0, 0)`); empty when `weights` is.
pub(crate) fn weighted_share_bounds(weights: &[u32], total: usize) -> Vec<(usize, usize)> {
    let capacity: u128 = weights.iter().map(|&w| u128::from(w)).sum();
    weights
        .iter()
        .map(|&w| {
            let share = total as u128 * u128::from(w);
            // share / capacity ≤ total; a zero total capacity gives (0, 0).
            let lo = share / capacity.max(1);
            let hi = share.div_ceil(capacity.max(1));
            (lo as usize, hi as usize)
        })
        .collect()
}

/// Whether every client of `state` has between `⌊T·k_c/K⌋` and `⌈T·k_c/K⌉`
/// actives in `plan` (`T` the state's tasks), the bounds `optimal` keeps.
/// A client missing from the plan counts as having none.
pub fn meets_active_shares(state: &ClusterState, plan: &Plan) -> bool {
    let bounds = share_bounds(state, state.tasks().len());
    state
        .clients()
        .iter()
        .zip(bounds)
        .all(|(client, (lo, hi))| {
            let n = plan.clients.get(&client.id).map_or(0, |cp| cp.active.len());
            (lo..=hi).contains(&n)
        })
}

#[cfg(test)]
mod tests {
    use super::weighted_share_bounds;

    #[test]
    fn bounds_bracket_the_proportional_share() {
        assert_eq!(weighted_share_bounds(&[1, 1, 1], 7), vec![(2, 3); 3]);
        assert_eq!(weighted_share_bounds(&[1, 1], 4), vec![(2, 2); 2]);
        assert_eq!(weighted_share_bounds(&[], 4), vec![]);
        assert_eq!(weighted_share_bounds(&[0, 0], 3), vec![(0, 0); 2]);
    }
}
