//! Kafka's task-pair rule, answered from the placement itself.
//!
//! Kafka's `TaskPairs` records, on every assignment of a task to a client, an
//! unordered pair of it with each task the client already holds (actives and
//! standbys alike); `least_loaded` first looks for a client where the task
//! would form at least one *new* pair, which keeps the same two tasks from
//! sharing every client they land on (the standbys of tasks that share a
//! client's actives are spread out). `hasNewPair` also answers no once all
//! `n (n − 1) / 2` pairs are used.
//!
//! The legacy assignor never removes a replica, so a pair is recorded exactly
//! when its two tasks are on one client now. This port therefore keeps no
//! pair set (Kafka's grows with `Σ_c n_c²` for `n_c` replicas per client) and
//! asks the holders instead: the task forms a new pair on `c` when some task
//! on `c` shares no client with it. Kafka's "all pairs used" test needs no
//! counter either: when every pair is used, no task on `c` can give a new one.
//! The unit tests check this against a literal port of `TaskPairs`.
//!
//! KIP-925: the rack optimiser moves actives without recording pairs (it
//! calls `ClientState` directly). After it has moved some, the recorded pairs
//! are those of the actives' *former* placement (`Work::former`) plus those
//! formed by later standbys: two tasks form a recorded pair when they had the
//! same former owner, or share a client now where not both are actives.

use super::work::{Client, Task, Work};

/// Kafka's `taskPairs.hasNewPair(t, c.assignedTasks())`, for a client `c`
/// that does not hold `t`: some task on `c` shares no client with `t`.
///
/// O(1) when `t`'s clients hold fewer other tasks than `c` holds (then some
/// task on `c` cannot be among them) — always so for a task not yet placed,
/// so for every active; otherwise a scan of `c`'s tasks, stopping at the
/// first new pair, each step comparing two lists of at most `1 + standbys`
/// holders.
pub(super) fn has_new_pair(work: &Work, t: Task, c: Client) -> bool {
    debug_assert!(!work.holds(c, t), "client {c} already holds task {t}");
    let on_c = work.assigned_count(c);
    let mut partners_at_most: usize = work.holders[t]
        .iter()
        .map(|&h| work.assigned_count(h) - 1)
        .sum();
    if let Some((owner, group)) = &work.former {
        partners_at_most += group[owner[t]] - 1;
    }
    if partners_at_most < on_c {
        return true;
    }
    let holders = &work.holders[t];
    let Some((owner, _)) = &work.former else {
        return work
            .assigned(c)
            .any(|x| !work.holders[x].iter().any(|h| holders.contains(h)));
    };
    let both_active =
        |h: Client, x: Task| work.active[h].contains(&t) && work.active[h].contains(&x);
    work.assigned(c).any(|x| {
        owner[x] != owner[t]
            && !work.holders[x]
                .iter()
                .any(|&h| holders.contains(&h) && !both_active(h, x))
    })
}
