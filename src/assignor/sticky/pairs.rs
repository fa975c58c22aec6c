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

use super::work::Work;
use crate::model::{ClientIx, IxVec, TaskIx};

/// Kafka's `taskPairs.hasNewPair(t, c.assignedTasks())`, for a client `c`
/// that does not hold `t`: some task on `c` shares no client with `t`.
///
/// O(1) when `t`'s clients hold fewer other tasks than `c` holds (then some
/// task on `c` cannot be among them) — always so for a task not yet placed,
/// so for every active; otherwise a scan of `c`'s tasks, stopping at the
/// first new pair, each step comparing two lists of at most `1 + standbys`
/// holders.
pub(super) fn has_new_pair(work: &Work, t: TaskIx, c: ClientIx) -> bool {
    debug_assert!(!work.holds(c, t), "client {c} already holds task {t}");
    if surely_new_pair(work, t, c) {
        return true;
    }
    let Some((owner, _)) = &work.former else {
        return work.assigned(c).any(|x| shares_no_client(work, t, x));
    };
    let holders = &work.holders[t];
    let both_active =
        |h: ClientIx, x: TaskIx| work.active[h].contains(&t) && work.active[h].contains(&x);
    work.assigned(c).any(|x| {
        owner[x] != owner[t]
            && !work.holders[x]
                .iter()
                .any(|&h| holders.contains(&h) && !both_active(h, x))
    })
}

/// Whether tasks `t` and `x` are on no common client (their holder lists
/// are at most `1 + standbys` long).
fn shares_no_client(work: &Work, t: TaskIx, x: TaskIx) -> bool {
    let holders = &work.holders[t];
    !work.holders[x].iter().any(|h| holders.contains(h))
}

/// The O(|holders|) test [`has_new_pair`] starts with: `t`'s clients hold
/// fewer other tasks than `c` holds, so some task on `c` shares no client
/// with `t`. True for every task not yet placed.
pub(super) fn surely_new_pair(work: &Work, t: TaskIx, c: ClientIx) -> bool {
    let mut partners_at_most: usize = work.holders[t]
        .iter()
        .map(|&h| work.assigned_count(h) - 1)
        .sum();
    if let Some((owner, group)) = &work.former {
        partners_at_most += group[owner[t]] - 1;
    }
    partners_at_most < work.assigned_count(c)
}

/// [`has_new_pair`] for many clients and one task at a time, without
/// rescanning: for the task `t` being placed it keeps, per client `c`, how
/// many of `c`'s tasks share a client with `t` (`shared[c]`); `t` forms a new
/// pair on `c` exactly when that is fewer than all of `c`'s tasks.
///
/// The counts are built from `t`'s holders: every task on a holder shares a
/// client with `t`, and each such task (counted once) adds one to each of its
/// own holders. A holder `t` gains later (its next standby) adds the tasks it
/// brings. Building costs O(Σ over `t`'s holders of their tasks + Σ over the
/// tasks met of their holders) once per task, instead of a scan of a
/// candidate's tasks against `t`'s holders for every candidate — Kafka's
/// rule costs up to O(C · n_c · R²) per placement, which made 1,000 tasks on
/// 100 clients with 50 standbys take seconds. Only for the placement without
/// a former (pre-optimiser) placement; with one, [`has_new_pair`] answers.
pub(super) struct PairCounts {
    /// The task the counts are for.
    task: Option<TaskIx>,
    /// How many of `task`'s holders (a list that only grows while `task`
    /// is being placed) have their tasks counted.
    counted: usize,
    /// Per task: whether it was met (shares a client with `task`).
    met: IxVec<TaskIx, bool>,
    met_list: Vec<TaskIx>,
    /// Per client: how many of its tasks were met.
    shared: IxVec<ClientIx, usize>,
    /// Whether the counts are kept for `task` (else only probes were made).
    built: bool,
}

/// Tasks of a candidate tried directly before the counts are built.
const PROBE: usize = 8;

impl PairCounts {
    pub(super) fn new(tasks: usize, clients: usize) -> PairCounts {
        PairCounts {
            task: None,
            counted: 0,
            met: IxVec::from_elem(false, tasks),
            met_list: Vec::new(),
            shared: IxVec::from_elem(0, clients),
            built: false,
        }
    }

    /// Whether `t` forms a new pair on `c` (a client not holding `t`):
    /// exact on its own; the assignor asks the cheaper [`surely_new_pair`]
    /// first.
    ///
    /// Until the counts for `t` are built, the first few tasks of `c` are
    /// tried directly: where tasks rarely share clients (few standbys) one
    /// of them answers at once and the counts are never needed.
    pub(super) fn has_new_pair(&mut self, work: &Work, t: TaskIx, c: ClientIx) -> bool {
        debug_assert!(work.former.is_none());
        if self.task != Some(t) {
            self.reset(work, t);
        }
        if !self.built {
            if work
                .assigned(c)
                .take(PROBE)
                .any(|x| shares_no_client(work, t, x))
            {
                return true;
            }
            self.built = true;
        }
        self.bring_up_to_date(work, t);
        self.shared[c] < work.assigned_count(c)
    }

    /// Forgets the counts of the previous task.
    fn reset(&mut self, work: &Work, t: TaskIx) {
        for x in self.met_list.drain(..) {
            self.met[x] = false;
            for &h in &work.holders[x] {
                self.shared[h] = 0;
            }
        }
        self.counted = 0;
        self.built = false;
        self.task = Some(t);
    }

    fn bring_up_to_date(&mut self, work: &Work, t: TaskIx) {
        while let Some(&h) = work.holders[t].get(self.counted) {
            self.counted += 1;
            for x in work.assigned(h) {
                if x == t || self.met[x] {
                    continue;
                }
                self.met[x] = true;
                self.met_list.push(x);
                for &k in &work.holders[x] {
                    self.shared[k] += 1;
                }
            }
        }
    }
}
