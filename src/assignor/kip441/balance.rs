//! Round-robin placement and Kafka's pairwise skew-reducing balance
//! (kip441-spec §2.2.1 and §2.3).

use std::ops::Bound;

use super::work::{Client, Load, Role, Work};

/// Deals the stateful tasks (ascending) to the clients (ascending) in turn,
/// ignoring capacity: task `i` goes to client `i mod C`.
pub(super) fn round_robin(work: &mut Work, stateful: &[usize]) {
    let n = work.client_count();
    for (i, &t) in stateful.iter().enumerate() {
        work.assign(i % n, t, Role::Active);
    }
}

/// Repeats passes over every ordered pair (source, destination) of clients,
/// moving `role` tasks (lowest id first) from source to destination while a
/// move strictly reduces the pair's per-thread load gap, until a pass moves
/// nothing. The load is all replicas per thread, even when balancing standbys.
///
/// Complexity: O(passes × C²) pair checks, plus O(log) per moved task; a pair
/// that cannot move costs O(1).
pub(super) fn balance(work: &mut Work, role: Role, may_move: impl Fn(Client, Client) -> bool) {
    let n = work.client_count();
    loop {
        let mut moved_any = false;
        for src in 0..n {
            for dst in 0..n {
                if src != dst {
                    moved_any |= balance_pair(work, role, src, dst, &may_move);
                }
            }
        }
        if !moved_any {
            return;
        }
    }
}

fn balance_pair(
    work: &mut Work,
    role: Role,
    src: Client,
    dst: Client,
    may_move: &impl Fn(Client, Client) -> bool,
) -> bool {
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
fn should_move(work: &Work, src: Client, dst: Client) -> bool {
    let skew = work.assigned_load(src).0 - work.assigned_load(dst).0;
    if skew <= 0.0 {
        return false;
    }
    let src_after = Load::of(work.assigned_count(src) - 1, work.capacity[src]).0;
    let dst_after = Load::of(work.assigned_count(dst) + 1, work.capacity[dst]).0;
    let proposed = src_after - dst_after;
    proposed >= 0.0 && proposed < skew
}
