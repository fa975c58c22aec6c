//! Hand-worked cases of `smooth`.

use super::*;
use crate::model::{AssignmentConfig, Client, ClientId, Lag, Task, TaskId};
use crate::validate;

fn id(s: u32, p: u32) -> TaskId {
    TaskId::new(s, p)
}

/// The actives `plan` gives client `name`.
fn actives(plan: &Plan, name: &str) -> BTreeSet<TaskId> {
    plan.clients[&ClientId::new(name)].active.clone()
}

fn check(state: &ClusterState) -> Plan {
    let plan = Smooth.assign(state).unwrap();
    validate(state, &plan, Smooth.info().claims).unwrap();
    plan
}

#[test]
fn a_newcomer_gets_its_stateless_share_at_once_and_warm_ups_for_the_rest() {
    // a runs 4 stateful and 2 stateless tasks, b joins: b's share is 3, 2
    // stateful and 1 stateless.
    let stateful: Vec<TaskId> = (0..4).map(|p| id(0, p)).collect();
    let stateless: Vec<TaskId> = (0..2).map(|p| id(1, p)).collect();
    let mut tasks: Vec<Task> = stateful
        .iter()
        .map(|&t| Task::stateful(t, 1_000_000))
        .collect();
    tasks.extend(stateless.iter().map(|&t| Task::stateless(t)));
    let mut a =
        Client::new("a", 1).with_previous_active(stateful.iter().chain(&stateless).copied());
    for &t in &stateful {
        a = a.with_lag(t, Lag::Running);
    }
    // b holds part of 0_3 (a standby copy 300,000 behind). One standby each.
    let b = Client::new("b", 1).with_lag(id(0, 3), Lag::Records(300_000));
    let config = AssignmentConfig {
        max_warmup_replicas: 1,
        num_standby_replicas: 1,
        ..AssignmentConfig::default()
    };
    let state = ClusterState::new(config, tasks, vec![a, b])
        .unwrap()
        .with_observed_restore_rate(Some(10_000))
        .unwrap();
    let plan = check(&state);
    let b = &plan.clients[&ClientId::new("b")];
    // One stateless task: the other would come back to a once b runs its
    // two stateful ones.
    assert_eq!(b.active, [stateless[0]].into_iter().collect());
    // One warm-up (the budget), of the task b has least to restore.
    assert_eq!(b.warmup, [id(0, 3)].into_iter().collect());
    // b restores its warm-up beside the standbys of 0_0, 0_1 and 0_2 (a
    // is the only other client), at 10,000 records/s shared among the four:
    // the warm-up reads 300,000 − 10,000 (acceptable) = 290,000 records to
    // catch up, and meanwhile each standby reads as many. 1,160,000 records:
    // 116 s, plus 11.6 s and 1 s.
    assert_eq!(
        plan.clients[&ClientId::new("b")].standby,
        [id(0, 0), id(0, 1), id(0, 2)].into_iter().collect()
    );
    assert_eq!(plan.followup_rebalance_ms, Some(128_600));
}

/// Tasks 0_0 and 0_1 (1,000,000 records each), and client `a` running both.
fn two_stateful_on_a() -> (Vec<Task>, Client) {
    let tasks = vec![
        Task::stateful(id(0, 0), 1_000_000),
        Task::stateful(id(0, 1), 1_000_000),
    ];
    let a = Client::new("a", 1)
        .with_previous_active([id(0, 0), id(0, 1)])
        .with_lag(id(0, 0), Lag::Running)
        .with_lag(id(0, 1), Lag::Running);
    (tasks, a)
}

#[test]
fn without_an_observed_rate_the_follow_up_measures_after_a_minute() {
    let (tasks, a) = two_stateful_on_a();
    let state = ClusterState::new(
        AssignmentConfig::default(),
        tasks,
        vec![a, Client::new("b", 1)],
    )
    .unwrap();
    let plan = check(&state);
    assert_eq!(plan.clients[&ClientId::new("b")].warmup.len(), 1);
    assert_eq!(plan.followup_rebalance_ms, Some(60_000));
}

#[test]
fn a_caught_up_warm_up_takes_its_active_and_the_old_owner_keeps_a_standby() {
    let (tasks, a) = two_stateful_on_a();
    let b = Client::new("b", 1)
        .with_previous_standby([id(0, 0)])
        .with_previous_warmup([id(0, 0)])
        .with_lag(id(0, 0), Lag::Records(5));
    let config = AssignmentConfig {
        num_standby_replicas: 1,
        ..AssignmentConfig::default()
    };
    let state = ClusterState::new(config, tasks, vec![a, b]).unwrap();
    let plan = check(&state);
    let (a, b) = (
        &plan.clients[&ClientId::new("a")],
        &plan.clients[&ClientId::new("b")],
    );
    assert_eq!(b.active, [id(0, 0)].into_iter().collect());
    assert!(a.standby.contains(&id(0, 0)));
    assert!(b.warmup.is_empty() && plan.followup_rebalance_ms.is_none());
}

#[test]
fn a_crashed_clients_tasks_fail_over_to_caught_up_standbys() {
    // a has gone; b and c hold caught-up standbys of its two tasks.
    let tasks = vec![
        Task::stateful(id(0, 0), 1_000_000),
        Task::stateful(id(0, 1), 1_000_000),
    ];
    let b = Client::new("b", 1)
        .with_previous_standby([id(0, 0)])
        .with_lag(id(0, 0), Lag::Records(0));
    let c = Client::new("c", 1)
        .with_previous_standby([id(0, 1)])
        .with_lag(id(0, 1), Lag::Records(0));
    let state = ClusterState::new(AssignmentConfig::default(), tasks, vec![b, c]).unwrap();
    let plan = check(&state);
    assert_eq!(actives(&plan, "b"), [id(0, 0)].into_iter().collect());
    assert_eq!(actives(&plan, "c"), [id(0, 1)].into_iter().collect());
}

#[test]
fn an_owner_back_without_its_store_gives_its_task_to_a_caught_up_standby() {
    // a restarted with an empty disk (it reports no lag for 0_0, its
    // previous active); b's standby of 0_0 is caught up.
    let tasks = vec![Task::stateful(id(0, 0), 1_000_000)];
    let a = Client::new("a", 1).with_previous_active([id(0, 0)]);
    let b = Client::new("b", 1)
        .with_previous_standby([id(0, 0)])
        .with_lag(id(0, 0), Lag::Records(0));
    let state = ClusterState::new(AssignmentConfig::default(), tasks, vec![a, b]).unwrap();
    let plan = check(&state);
    assert_eq!(actives(&plan, "b"), [id(0, 0)].into_iter().collect());
}

#[test]
fn an_orphan_restores_where_it_waits_least_not_only_where_its_copy_is() {
    // a keeps 0_0 and 0_1, restoring 1,000,000 records each (nobody is
    // caught up on them); 0_2 lost its owner and a holds a copy 900,000
    // behind. Restoring it on a shares a's rate with two restores:
    // 900,000 + 2 × (900,000 + 900,000) record-times against 1,000,000
    // alone on the idle b.
    let ids = [id(0, 0), id(0, 1), id(0, 2)];
    let tasks = ids.iter().map(|&t| Task::stateful(t, 1_000_000)).collect();
    let a = Client::new("a", 2)
        .with_previous_active([ids[0], ids[1]])
        .with_lag(ids[0], Lag::Records(1_000_000))
        .with_lag(ids[1], Lag::Records(1_000_000))
        .with_lag(ids[2], Lag::Records(900_000));
    let b = Client::new("b", 2);
    let state = ClusterState::new(AssignmentConfig::default(), tasks, vec![a, b]).unwrap();
    let plan = check(&state);
    assert_eq!(actives(&plan, "b"), [ids[2]].into_iter().collect());
}

#[test]
fn a_client_back_from_an_outage_warms_up_what_it_holds() {
    // a runs 0_0..0_2, c runs 0_3..0_5, both above their share of 2; b is
    // back with its copy of a's 0_0 500,000 records behind and nothing of
    // c's. One warm-up: b takes back 0_0 from a, not a whole restore of one
    // of c's tasks (c, with the higher id, would give first by load alone).
    let ids: Vec<TaskId> = (0..6).map(|p| id(0, p)).collect();
    let tasks = ids.iter().map(|&t| Task::stateful(t, 1_000_000)).collect();
    let running = |name: &str, mine: &[TaskId]| {
        mine.iter().fold(
            Client::new(name, 1).with_previous_active(mine.iter().copied()),
            |c, &t| c.with_lag(t, Lag::Running),
        )
    };
    let a = running("a", &ids[..3]);
    let b = Client::new("b", 1).with_lag(ids[0], Lag::Records(500_000));
    let c = running("c", &ids[3..]);
    let config = AssignmentConfig {
        max_warmup_replicas: 1,
        ..AssignmentConfig::default()
    };
    let state = ClusterState::new(config, tasks, vec![a, b, c]).unwrap();
    let plan = check(&state);
    assert_eq!(
        plan.clients[&ClientId::new("b")].warmup,
        [ids[0]].into_iter().collect()
    );
}

#[test]
fn standbys_with_equal_lags_do_not_pile_up() {
    // 200 tasks × 200 clients, each running one, every client reporting the
    // same lag for every other task (no caught-up standby): Kafka's HATA puts
    // nearly all standbys on the lowest id.
    let state = crate::generate::pile_up(200, Some(500_000)).unwrap();
    let (_, most) = check(&state).most_replicas().unwrap();
    assert!(most <= 2, "{most} replicas on one client");
}

/// Where the standbys of 0_0 (active on a0, a caught-up copy on a1) go
/// with `standbys` replicas and the zone tag configured or not: a0 and a1
/// are in zone z1, b0 and b1 in z2.
fn standby_holders(standbys: u32, tags: &[&str]) -> BTreeSet<String> {
    let t = id(0, 0);
    let client = |name: &str, zone: &str| Client::new(name, 1).with_tag("zone", zone);
    let clients = vec![
        client("a0", "z1")
            .with_previous_active([t])
            .with_lag(t, Lag::Running),
        client("a1", "z1").with_lag(t, Lag::Records(0)),
        client("b0", "z2"),
        client("b1", "z2"),
    ];
    let config = AssignmentConfig {
        num_standby_replicas: standbys,
        rack_aware_assignment_tags: tags.iter().map(|s| s.to_string()).collect(),
        ..AssignmentConfig::default()
    };
    let state = ClusterState::new(config, vec![Task::stateful(t, 1_000_000)], clients).unwrap();
    let plan = check(&state);
    assert_eq!(actives(&plan, "a0"), [t].into_iter().collect());
    plan.clients
        .iter()
        .filter(|(_, p)| p.standby.contains(&t))
        .map(|(c, _)| c.to_string())
        .collect()
}

#[test]
fn a_standby_keeps_its_copy_unless_a_zone_tag_asks_for_another_zone() {
    let names = |names: &[&str]| names.iter().map(|s| s.to_string()).collect();
    // Untagged, the caught-up copy in the active's zone stays.
    assert_eq!(standby_holders(1, &[]), names(&["a1"]));
    // With the zone tag (KIP-708), the standby goes to the other zone.
    assert_eq!(standby_holders(1, &["zone"]), names(&["b0"]));
    // Two standbys use both zones up; the second keeps the caught-up copy.
    assert_eq!(standby_holders(2, &["zone"]), names(&["a1", "b0"]));
}

#[test]
fn no_clients_no_plan() {
    let state = ClusterState::new(
        AssignmentConfig::default(),
        vec![Task::stateless(id(0, 0))],
        vec![],
    )
    .unwrap();
    assert!(Smooth.assign(&state).unwrap().clients.is_empty());
}
