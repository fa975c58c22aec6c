//! Unit tests of what the full assignor cannot show alone: the task-pair rule
//! read off the placement against a literal port of Kafka's `TaskPairs`, and
//! the indexed `least_loaded` and `should_balance` against Kafka's literal
//! scans, on random intermediate placements built the way the assignor
//! builds them (a task is only ever placed on a client not holding it).

use std::collections::BTreeSet;

use proptest::collection::vec;
use proptest::prelude::*;

use crate::model::{AssignmentConfig, Client, ClientIx, ClusterState, Task, TaskId, TaskIx};

use super::pairs::{has_new_pair, PairCounts};
use super::work::Role;
use super::{Sticky, Within};

/// Kafka's `TaskPairs`, literally: a set of unordered pairs, a maximum of
/// `n (n − 1) / 2`, `addPairs` on every assignment.
struct TaskPairs {
    pairs: BTreeSet<(TaskIx, TaskIx)>,
    max: usize,
}

impl TaskPairs {
    fn new(tasks: usize) -> TaskPairs {
        TaskPairs {
            pairs: BTreeSet::new(),
            max: tasks * tasks.saturating_sub(1) / 2,
        }
    }

    fn pair(a: TaskIx, b: TaskIx) -> (TaskIx, TaskIx) {
        (a.min(b), a.max(b))
    }

    fn has_new_pair(&self, task: TaskIx, assigned: impl IntoIterator<Item = TaskIx>) -> bool {
        if self.pairs.len() == self.max {
            return false;
        }
        assigned
            .into_iter()
            .any(|other| !self.pairs.contains(&Self::pair(task, other)))
    }

    fn add_pairs(&mut self, task: TaskIx, assigned: impl IntoIterator<Item = TaskIx>) {
        for other in assigned {
            self.pairs.insert(Self::pair(task, other));
        }
    }
}

/// Client `i` of a test state.
fn c(i: usize) -> ClientIx {
    ClientIx::from_position(i)
}

/// Task `i` of a test state.
fn t(i: usize) -> TaskIx {
    TaskIx::from_position(i)
}

fn state(capacities: &[u32], tasks: usize) -> ClusterState {
    let tasks = (0..tasks)
        .map(|p| {
            Task::stateful(
                TaskId::new(0, u32::try_from(p).expect("few test tasks")),
                100,
            )
        })
        .collect();
    let clients = capacities
        .iter()
        .enumerate()
        .map(|(i, &cap)| Client::new(format!("c{i:02}"), cap))
        .collect();
    ClusterState::new(AssignmentConfig::default(), tasks, clients).expect("valid test state")
}

#[test]
fn a_single_candidate_is_taken_without_looking_further() {
    // c01 is the only client not holding 0_0: it gets the standby even though
    // it is the most loaded client (Kafka's `clientsWithin.size() == 1`).
    let state = state(&[1, 1], 2);
    let mut sticky = Sticky::new(&state);
    sticky.place(c(0), t(0), Role::Active);
    sticky.place(c(1), t(1), Role::Active);
    sticky.place(c(1), t(0), Role::Standby);
    assert_eq!(sticky.find_client(t(1), Within::NotHolding), c(0));
}

#[test]
fn pairs_are_the_tasks_sharing_a_client() {
    // c0 {0, 1}, c1 {2}, c2 {0, 2}: pairs {0,1} and {0,2} exist, {1,2} not.
    let state = state(&[2, 2, 2, 2], 3);
    let mut sticky = Sticky::new(&state);
    sticky.place(c(0), t(0), Role::Active);
    sticky.place(c(0), t(1), Role::Active);
    sticky.place(c(1), t(2), Role::Active);
    sticky.place(c(2), t(0), Role::Standby);
    sticky.place(c(2), t(2), Role::Standby);
    // 1 on c1 would pair with 2: new. 1 on c2 would pair with 0 (old) and 2 (new).
    assert!(has_new_pair(&sticky.work, t(1), c(1)));
    assert!(has_new_pair(&sticky.work, t(1), c(2)));
    // 2 on c0 would pair with 0 (old) and 1 (new).
    assert!(has_new_pair(&sticky.work, t(2), c(0)));
    sticky.place(c(3), t(1), Role::Standby);
    sticky.place(c(3), t(2), Role::Standby);
    // Every pair is used now: nothing is new anywhere.
    assert!(!has_new_pair(&sticky.work, t(0), c(1)));
    assert!(!has_new_pair(&sticky.work, t(0), c(3)));
    // An empty client forms no pair (Kafka's scan finds nothing).
    let empty = Sticky::new(&state);
    assert!(!has_new_pair(&empty.work, t(0), c(0)));
}

/// Random placements of replicas on clients, applied in order (a placement
/// on a client already holding the task is skipped).
fn scenario() -> impl Strategy<Value = (Vec<u32>, usize, Vec<(usize, usize, bool)>)> {
    (vec(1..=3u32, 1..=6), 1..=10usize).prop_flat_map(|(caps, tasks)| {
        let n = caps.len();
        (
            Just(caps),
            Just(tasks),
            vec((0..tasks, 0..n, any::<bool>()), 0..=30),
        )
    })
}

/// Places task `t` on client `c` (as active or standby) in both the port and
/// Kafka's literal pair set; false (and nothing done) when `c` holds `t`.
fn place_both(
    sticky: &mut Sticky,
    literal: &mut TaskPairs,
    (t, c, active): (TaskIx, ClientIx, bool),
) -> bool {
    if sticky.work.holds(c, t) {
        return false;
    }
    literal.add_pairs(t, sticky.work.assigned(c));
    let role = if active { Role::Active } else { Role::Standby };
    sticky.place(c, t, role);
    true
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    /// After every placement, the pair rule read off the placement answers
    /// as Kafka's recorded pairs do; the indexed `least_loaded` gives Kafka's
    /// literal two-pass scan over the candidates in id order; and
    /// `should_balance` its literal definition.
    #[test]
    fn indexes_agree_with_kafkas_scans((caps, tasks, moves) in scenario()) {
        let state = state(&caps, tasks);
        let n = caps.len();
        let mut sticky = Sticky::new(&state);
        let mut literal = TaskPairs::new(tasks);
        for (t, c, active) in moves {
            if !place_both(&mut sticky, &mut literal, (self::t(t), self::c(c), active)) {
                continue;
            }
            for t in state.task_ixs() {
                let mut counts = PairCounts::new(tasks, n);
                for c in state.client_ixs().filter(|&c| !sticky.work.holds(c, t)) {
                    let kafka = literal.has_new_pair(t, sticky.work.assigned(c));
                    prop_assert_eq!(has_new_pair(&sticky.work, t, c), kafka, "task {} client {}", t, c);
                    prop_assert_eq!(counts.has_new_pair(&sticky.work, t, c), kafka, "counts: task {} client {}", t, c);
                }
            }
        }
        for t in state.task_ixs() {
            let free: Vec<ClientIx> = state.client_ixs().filter(|&c| !sticky.work.holds(c, t)).collect();
            if free.is_empty() {
                continue;
            }
            let scan = sticky.scan_least_loaded(t, free.iter().copied());
            prop_assert_eq!(Some(sticky.least_loaded(t, Within::NotHolding)), scan);
            if free.len() == n {
                prop_assert_eq!(Some(sticky.least_loaded(t, Within::All)), scan);
            }
        }
        for (c, &cap) in state.client_ixs().zip(&caps) {
            let w = &sticky.work;
            let literal = w.assigned_count(c) >= cap as usize
                && state.client_ixs().any(|o| w.more_available(o, c));
            prop_assert_eq!(w.should_balance(c), literal);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    /// Placed task by task, as the standby step places them, one
    /// `PairCounts` kept across placements answers as Kafka's recorded pairs.
    #[test]
    fn pair_counts_follow_task_by_task_placement((caps, tasks, mut moves) in scenario()) {
        moves.sort_by_key(|&(t, _, _)| t);
        let state = state(&caps, tasks);
        let n = caps.len();
        let mut sticky = Sticky::new(&state);
        let mut literal = TaskPairs::new(tasks);
        let mut counts = PairCounts::new(tasks, n);
        for (t, c, active) in moves {
            let t = self::t(t);
            if !place_both(&mut sticky, &mut literal, (t, self::c(c), active)) {
                continue;
            }
            for c in state.client_ixs().filter(|&c| !sticky.work.holds(c, t)) {
                let kafka = literal.has_new_pair(t, sticky.work.assigned(c));
                prop_assert_eq!(counts.has_new_pair(&sticky.work, t, c), kafka, "task {} client {}", t, c);
            }
        }
    }
}

#[test]
fn more_available_is_kafkas_order() {
    // c0: 1 of 1 thread, c1: 2 of 2, c2: 1 of 2.
    let state = state(&[1, 2, 2], 5);
    let mut sticky = Sticky::new(&state);
    sticky.place(c(0), t(0), Role::Active);
    sticky.place(c(1), t(1), Role::Active);
    sticky.place(c(1), t(2), Role::Standby);
    sticky.place(c(2), t(3), Role::Active);
    let w = &sticky.work;
    // Equal loads (1.0): the larger capacity has more room.
    assert!(w.more_available(c(1), c(0)));
    assert!(!w.more_available(c(0), c(1)));
    // Lower load wins whatever the capacity; nobody beats itself.
    assert!(w.more_available(c(2), c(0)) && w.more_available(c(2), c(1)));
    assert!(!w.more_available(c(2), c(2)));
    // c0 reached capacity and c2 has more room; c2 has not reached it.
    assert!(w.should_balance(c(0)) && w.should_balance(c(1)) && !w.should_balance(c(2)));
}
