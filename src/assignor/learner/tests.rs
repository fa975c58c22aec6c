//! Unit tests of single steps; the §1.8 walkthrough, the rules and the
//! properties are in `tests/it/learner.rs`.

use crate::assignor::share::weighted_share_bounds;
use crate::model::{AssignmentConfig, Client, ClusterState, Lag, Task, TaskId};

use super::balance::balance;
use super::work::{Kind, Work};

fn t(p: u32) -> TaskId {
    TaskId::new(0, p)
}

/// A leaving client has no share; the others share by capacity.
#[test]
fn leaving_clients_weigh_nothing_in_the_shares() {
    assert_eq!(
        weighted_share_bounds(&[2, 0, 1], 7),
        vec![(4, 5), (0, 0), (2, 3)]
    );
    assert_eq!(weighted_share_bounds(&[0, 0], 3), vec![(0, 0), (0, 0)]);
}

/// The phases serve receivers below `lo` before those below `hi`, take from
/// a leaving donor until it has nothing, and stop when no task can go.
#[test]
fn balance_moves_from_leaving_and_heavy_donors_to_light_receivers() {
    let tasks: Vec<Task> = (0..5).map(|p| Task::stateful(t(p), 100)).collect();
    let mut heavy = Client::new("a", 1).with_previous_active([t(0), t(1), t(2)]);
    let mut leaver = Client::new("b", 1)
        .with_previous_active([t(3), t(4)])
        .leaving();
    for p in 0..3 {
        heavy.lags.insert(t(p), Lag::Running);
    }
    for p in 3..5 {
        leaver.lags.insert(t(p), Lag::Running);
    }
    let state = ClusterState::new(
        AssignmentConfig::default(),
        tasks,
        vec![heavy, leaver, Client::new("c", 1)],
    )
    .expect("valid");
    let mut work = Work::new(&state);
    for p in 0..5 {
        let owner = if p < 3 { 0 } else { 1 };
        work.set_active(owner, p);
    }
    let bounds = weighted_share_bounds(&work.weights(), 5);
    assert_eq!(bounds, vec![(2, 3), (0, 0), (2, 3)]);
    let mut shifts = Vec::new();
    balance(&mut work, Kind::Stateful, &bounds, |w, r, is_donor| {
        let Some(t) = (0..5)
            .find(|&t| w.owner[t].is_some_and(|h| is_donor(w, h)) && w.learner_of[t].is_none())
        else {
            return false;
        };
        shifts.push((w.owner[t].expect("owned"), r, t));
        w.add_learner(r, t);
        true
    });
    // c (below lo = 2) learns b's two tasks first; nothing else moves.
    assert_eq!(shifts, vec![(1, 2, 3), (1, 2, 4)]);
    assert_eq!(work.load[Kind::Stateful as usize], vec![3, 0, 2]);
}

/// Stateless tasks fill the clients with the fewest actives per thread,
/// counting stateful ones: c0 (1 thread, 2 stateful) gets none, c1 (2
/// threads, 1 stateful) all three, ending at 2 per thread each.
#[test]
fn stateless_quotas_level_actives_per_thread() {
    let mut tasks: Vec<Task> = (0..3).map(|p| Task::stateful(t(p), 100)).collect();
    tasks.extend((0..3).map(|p| Task::stateless(TaskId::new(1, p))));
    let clients = vec![Client::new("c0", 1), Client::new("c1", 2)];
    let state = ClusterState::new(AssignmentConfig::default(), tasks, clients).expect("valid");
    let mut work = Work::new(&state);
    work.set_active(0, 0);
    work.set_active(0, 1);
    work.set_active(1, 2);
    assert_eq!(super::stateless_quotas(&work, 3), vec![(0, 0), (3, 3)]);
}
