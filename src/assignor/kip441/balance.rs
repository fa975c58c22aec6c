//! Round-robin placement and Kafka's pairwise skew-reducing balance
//! (`HighAvailabilityTaskAssignor`'s `balanceTasksOverThreads` and
//! `shouldMove`; `docs/algorithms.md`, *kip441: balanced placement*).

use std::ops::Bound;

use super::work::{Load, Role, Work};
use crate::model::{ClientIx, TaskIx};

/// Deals the stateful tasks (ascending) to the clients (ascending) in turn,
/// ignoring capacity: task `i` goes to client `i mod C`.
pub(super) fn round_robin(work: &mut Work, stateful: &[TaskIx]) {
    let clients = work.clients().cycle();
    for (&t, c) in stateful.iter().zip(clients) {
        work.assign(c, t, Role::Active);
    }
}

/// Repeats passes over every ordered pair (source, destination) of clients,
/// moving `role` tasks (lowest id first) from source to destination while a
/// move strictly reduces the pair's per-thread load gap, until a pass moves
/// nothing. The load is all replicas per thread, even when balancing standbys.
///
/// Kafka checks all `C²` pairs in every pass. A pair can move something only
/// if the destination's load after receiving a task is at most the source's
/// after giving one (`should_move`'s "proposed ≥ 0"), so for each source this
/// port asks a min-tree over the clients' "load after receiving" for the next
/// destination, in index order, that passes — exactly the pairs Kafka would
/// act on, in Kafka's order — and skips pairs `may_move` forbids (no task
/// could move there). Complexity: O(passes × C log C + moves × log C), not
/// O(passes × C²).
pub(super) fn balance(work: &mut Work, role: Role, may_move: impl Fn(ClientIx, ClientIx) -> bool) {
    let receiving = |w: &Work, c: ClientIx| Load::of(w.assigned_count(c) + 1, w.capacity[c]).0;
    let mut tree = MinTree::new(work.clients().map(|c| receiving(work, c)).collect());
    loop {
        let mut moved_any = false;
        for src in work.clients() {
            let mut from = ClientIx::from_raw(0);
            loop {
                let count = work.assigned_count(src);
                if count == 0 {
                    break;
                }
                let giving = Load::of(count - 1, work.capacity[src]).0;
                let Some(dst) = tree.first_at_most(from, giving) else {
                    break;
                };
                from = ClientIx::from_raw(dst.raw() + 1);
                if dst == src || !may_move(src, dst) {
                    continue;
                }
                if balance_pair(work, role, src, dst, &may_move) {
                    moved_any = true;
                    tree.set(src, receiving(work, src));
                    tree.set(dst, receiving(work, dst));
                }
            }
        }
        if !moved_any {
            return;
        }
    }
}

/// The minimum of a range of values, one per client, kept in a segment tree:
/// set one value, or find the first client at or after `from` whose value is
/// at most a bound, each in O(log n).
struct MinTree {
    /// Leaves at `size..size + n`; unused leaves hold +∞.
    node: Vec<f64>,
    size: usize,
}

impl MinTree {
    fn new(values: Vec<f64>) -> MinTree {
        let size = values.len().next_power_of_two().max(1);
        let mut node = vec![f64::INFINITY; 2 * size];
        node[size..size + values.len()].copy_from_slice(&values);
        for i in (1..size).rev() {
            node[i] = node[2 * i].min(node[2 * i + 1]);
        }
        MinTree { node, size }
    }

    fn set(&mut self, c: ClientIx, value: f64) {
        let mut i = c.index() + self.size;
        self.node[i] = value;
        while i > 1 {
            i /= 2;
            self.node[i] = self.node[2 * i].min(self.node[2 * i + 1]);
        }
    }

    /// The first position `≥ from` with a value `≤ bound`.
    fn first_at_most(&self, from: ClientIx, bound: f64) -> Option<ClientIx> {
        let from = from.index();
        if from >= self.size {
            return None;
        }
        // Climb from the leaf: find the first subtree to the right of (or
        // containing) `from` whose minimum passes, then descend into it.
        let mut i = from + self.size;
        if self.node[i] <= bound {
            return Some(ClientIx::from_position(from));
        }
        loop {
            // Move to the next subtree on the right at this level.
            while i % 2 == 1 {
                i /= 2;
                if i <= 1 {
                    return None;
                }
            }
            i += 1;
            if self.node[i] <= bound {
                break;
            }
        }
        while i < self.size {
            i = if self.node[2 * i] <= bound {
                2 * i
            } else {
                2 * i + 1
            };
        }
        // A leaf with a finite value: one of the clients.
        Some(ClientIx::from_position(i - self.size))
    }
}

fn balance_pair(
    work: &mut Work,
    role: Role,
    src: ClientIx,
    dst: ClientIx,
    may_move: &impl Fn(ClientIx, ClientIx) -> bool,
) -> bool {
    work.index_clients();
    let mut moved = false;
    let mut cursor = Bound::Unbounded;
    while should_move(work, src, dst) {
        // Walking src's current set past the cursor visits the same tasks, in
        // the same order, as Kafka's snapshot: src only loses visited tasks.
        let next = work
            .tasks(src, role)
            .range((cursor, Bound::Unbounded))
            .next()
            .copied();
        let Some(t) = next else { break };
        cursor = Bound::Excluded(t);
        if !work.holds(dst, t) && may_move(src, dst) {
            work.unassign(src, t, role);
            work.assign(dst, t, role);
            moved = true;
        }
    }
    moved
}

/// Kafka's `shouldMove`: the move must shrink the per-thread load gap between
/// the pair without inverting it.
fn should_move(work: &Work, src: ClientIx, dst: ClientIx) -> bool {
    let skew = work.assigned_load(src).0 - work.assigned_load(dst).0;
    if skew <= 0.0 {
        return false;
    }
    let src_after = Load::of(work.assigned_count(src) - 1, work.capacity[src]).0;
    let dst_after = Load::of(work.assigned_count(dst) + 1, work.capacity[dst]).0;
    let proposed = src_after - dst_after;
    proposed >= 0.0 && proposed < skew
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::MinTree;
    use crate::model::ClientIx;

    #[test]
    fn min_tree_finds_what_a_scan_finds() {
        let mut rng = ChaCha8Rng::seed_from_u64(441);
        for _ in 0..200 {
            let n = rng.random_range(1..40);
            let mut values: Vec<f64> = (0..n).map(|_| f64::from(rng.random_range(0..10))).collect();
            let mut tree = MinTree::new(values.clone());
            for _ in 0..50 {
                let i = rng.random_range(0..n);
                values[i] = f64::from(rng.random_range(0..10));
                tree.set(ClientIx::from_position(i), values[i]);
                let from = rng.random_range(0..n + 2);
                let bound = f64::from(rng.random_range(0..10));
                let scan = (from..n)
                    .find(|&j| values[j] <= bound)
                    .map(ClientIx::from_position);
                let found = tree.first_at_most(ClientIx::from_position(from), bound);
                assert_eq!(found, scan);
            }
        }
    }
}
