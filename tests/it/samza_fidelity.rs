//! The `samza` strategy where it once drifted from Samza (the cases checked
//! against Samza's own `GroupByContainerCount`, `TaskNameGrouperProxy` and
//! `StandbyTaskUtil`): one table test per case, each placement worked out by
//! hand from Samza's documented rules (docs/algorithms.md, *samza*).
//!
//! Each state carries the previous plan's containers
//! (`previous_containers`), the record Samza keeps in its coordinator
//! stream: container id → tasks and last host. Where a case shows what the
//! port did before, the same state without that record is the comparison:
//! the port then derives the layout from the clients' previous assignment.

use std::collections::BTreeSet;

use smoothscale::wire::state_to_json;
use smoothscale::{
    assignor, AssignError, AssignmentConfig, Client, ClusterState, Container, ContainerId, Plan,
    Task, TaskId,
};

use crate::support::{self, state, t};

fn samza(state: &ClusterState) -> Plan {
    support::run("samza", state)
}

/// Tasks `0_0 .. 0_{n-1}`, stateful.
fn partitions(n: u32) -> Vec<Task> {
    (0..n).map(|p| Task::stateful(t(0, p), 1_000)).collect()
}

/// `0_p` for every `p` listed.
fn parts(list: &[u32]) -> BTreeSet<TaskId> {
    list.iter().map(|&p| t(0, p)).collect()
}

fn standbys(n: u32) -> AssignmentConfig {
    AssignmentConfig {
        num_standby_replicas: n,
        ..AssignmentConfig::default()
    }
}

/// A record: container `id` on `client`, running `active` (partitions of
/// subtopology 0), keeping standbys of `standby`.
fn record(id: &str, client: &str, active: &[u32], standby: &[u32]) -> (ContainerId, Container) {
    (
        ContainerId::from(id),
        Container::on(client)
            .with_active(parts(active))
            .with_standby(parts(standby)),
    )
}

/// Client `id` that ran `active` before.
fn ran(id: &str, active: &[u32]) -> Client {
    Client::new(id, 1).with_previous_active(parts(active))
}

fn with_records(s: ClusterState, records: Vec<(ContainerId, Container)>) -> ClusterState {
    s.with_previous_containers(records).expect("valid records")
}

/// Each client's actives, as `(client, partitions)`, clients with none left out.
fn actives(plan: &Plan) -> Vec<(String, BTreeSet<TaskId>)> {
    plan.clients
        .iter()
        .filter(|(_, cp)| !cp.active.is_empty())
        .map(|(id, cp)| (id.to_string(), cp.active.clone()))
        .collect()
}

fn expect(list: &[(&str, &[u32])]) -> Vec<(String, BTreeSet<TaskId>)> {
    list.iter()
        .map(|(c, p)| (c.to_string(), parts(p)))
        .collect()
}

/// The client and active tasks of container `id`.
fn container(plan: &Plan, id: &str) -> (String, BTreeSet<TaskId>) {
    let c = &plan.containers[&ContainerId::from(id)];
    (c.client.to_string(), c.active.clone())
}

#[test]
fn scale_in_by_two_spills_container_by_container_in_descending_names() {
    // Eight tasks dealt round robin over containers 0..3 on a..d; c and d
    // leave: N = 2, quotas [4, 4, 0, 0]. Samza spills container 2 (0_6,
    // then 0_2: largest name first), then container 3 (0_7, then 0_3), into
    // one list [0_6, 0_2, 0_7, 0_3]; container 0 takes the first two,
    // container 1 the last two.
    let records = vec![
        record("0", "a", &[0, 4], &[]),
        record("1", "b", &[1, 5], &[]),
        record("2", "c", &[2, 6], &[]),
        record("3", "d", &[3, 7], &[]),
    ];
    let clients = vec![ran("a", &[0, 4]), ran("b", &[1, 5])];
    let derived = state(AssignmentConfig::default(), partitions(8), clients);
    let plan = samza(&with_records(derived.clone(), records));
    assert_eq!(
        actives(&plan),
        expect(&[("a", &[0, 2, 4, 6]), ("b", &[1, 3, 5, 7])])
    );
    assert!(plan.diagnostics.is_empty(), "{:?}", plan.diagnostics);
    // Without the record the departed tasks pool into one container, which
    // spills [0_7, 0_6, 0_3, 0_2]: as many moves, other destinations.
    assert_eq!(
        actives(&samza(&derived)),
        expect(&[("a", &[0, 4, 6, 7]), ("b", &[1, 2, 3, 5])])
    );
}

#[test]
fn the_issue_example_of_a_scale_in_by_two() {
    // Tasks 0_0..0_3 on a, b, c, d; c and d leave: Samza gives {0_0, 0_2}
    // and {0_1, 0_3} (container 2 spills 0_2 to container 0, container 3
    // spills 0_3 to container 1).
    let records = vec![
        record("0", "a", &[0], &[]),
        record("1", "b", &[1], &[]),
        record("2", "c", &[2], &[]),
        record("3", "d", &[3], &[]),
    ];
    let clients = vec![ran("a", &[0]), ran("b", &[1])];
    let s = state(AssignmentConfig::default(), partitions(4), clients);
    let plan = samza(&with_records(s.clone(), records));
    assert_eq!(actives(&plan), expect(&[("a", &[0, 2]), ("b", &[1, 3])]));
    assert_eq!(
        actives(&samza(&s)),
        expect(&[("a", &[0, 3]), ("b", &[1, 2])])
    );
}

#[test]
fn ties_go_by_container_id_not_client_id() {
    // Containers 0..3 run on d, c, b, a (ids in the opposite order of the
    // clients). a leaves: N = 3, quotas [2, 1, 1, 0]; container 3 spills
    // 0_3 into container 0, which runs on d.
    let records = vec![
        record("0", "d", &[0], &[]),
        record("1", "c", &[1], &[]),
        record("2", "b", &[2], &[]),
        record("3", "a", &[3], &[]),
    ];
    let clients = vec![ran("b", &[2]), ran("c", &[1]), ran("d", &[0])];
    let s = state(AssignmentConfig::default(), partitions(4), clients);
    let plan = samza(&with_records(s.clone(), records));
    assert_eq!(
        actives(&plan),
        expect(&[("b", &[2]), ("c", &[1]), ("d", &[0, 3])])
    );
    assert_eq!(container(&plan, "0"), ("d".to_string(), parts(&[0, 3])));
    // Without the record, equal containers are numbered by client id: b's
    // becomes container 0 and takes 0_3.
    assert_eq!(
        actives(&samza(&s)),
        expect(&[("b", &[2, 3]), ("c", &[1]), ("d", &[0])])
    );
}

/// Six tasks dealt round robin over containers 0..3 on a..d.
fn six_over_four() -> Vec<(ContainerId, Container)> {
    vec![
        record("0", "a", &[0, 4], &[]),
        record("1", "b", &[1, 5], &[]),
        record("2", "c", &[2], &[]),
        record("3", "d", &[3], &[]),
    ]
}

#[test]
fn a_scale_in_drops_the_highest_ids_and_restarts_a_lost_low_id_elsewhere() {
    // Six tasks round robin over containers 0..3 on a..d: {0_0, 0_4},
    // {0_1, 0_5}, {0_2}, {0_3}. b leaves: N = 3, quotas [2, 2, 2]. Samza
    // drops container 3 (not b's container 1): 0_3 spills into container 2
    // (c). Container 1 keeps its tasks but its host is gone: it restarts on
    // the client running no active container, d. Three tasks move (0_1 and
    // 0_5 to d, 0_3 to c) where keeping every live client's container
    // would move two.
    let records = six_over_four();
    let clients = vec![ran("a", &[0, 4]), ran("c", &[2]), ran("d", &[3])];
    let s = state(AssignmentConfig::default(), partitions(6), clients);
    let plan = samza(&with_records(s.clone(), records));
    assert_eq!(
        actives(&plan),
        expect(&[("a", &[0, 4]), ("c", &[2, 3]), ("d", &[1, 5])])
    );
    assert_eq!(container(&plan, "1"), ("d".to_string(), parts(&[1, 5])));
    assert!(!plan.containers.contains_key(&ContainerId::from("3")));
    assert_eq!(
        actives(&samza(&s)),
        expect(&[("a", &[0, 4]), ("c", &[2, 5]), ("d", &[1, 3])])
    );
}

#[test]
fn a_lost_low_id_with_a_standby_fails_over_to_its_standby_host() {
    // As above with one standby container each (0-0 on b, 1-0 on c, 2-0 on
    // d, 3-0 on a). b leaves: container 3 and 3-0 go; 0_3 spills into
    // container 2 (c). Container 1 fails over to the host of 1-0, c, which
    // then runs two active containers; d runs none. Standbys: 2-0 stays on
    // d; 0-0 (its host b is gone) goes to the client running the fewest
    // containers apart from a: d (1) before c (2); the displaced 1-0 then
    // goes to a (1 container) before d (2).
    let mut records = six_over_four();
    records.extend([
        record("0-0", "b", &[], &[0, 4]),
        record("1-0", "c", &[], &[1, 5]),
        record("2-0", "d", &[], &[2]),
        record("3-0", "a", &[], &[3]),
    ]);
    let clients = vec![
        ran("a", &[0, 4]).with_previous_standby(parts(&[3])),
        ran("c", &[2]).with_previous_standby(parts(&[1, 5])),
        ran("d", &[3]).with_previous_standby(parts(&[2])),
    ];
    let s = state(standbys(1), partitions(6), clients);
    let plan = samza(&with_records(s, records));
    assert_eq!(
        actives(&plan),
        expect(&[("a", &[0, 4]), ("c", &[1, 2, 3, 5])])
    );
    let standby = |c: &str| {
        plan.clients[&smoothscale::ClientId::from(c)]
            .standby
            .clone()
    };
    assert_eq!(standby("a"), parts(&[1, 5]));
    assert_eq!(standby("c"), parts(&[]));
    assert_eq!(standby("d"), parts(&[0, 2, 3, 4]));
}

#[test]
fn a_changed_task_set_is_grouped_round_robin() {
    // The grouping Samza left after growing from 3 to 4 containers (the
    // balance vector of GroupByContainerCount's tests), on a..d.
    let records = || {
        vec![
            record("0", "a", &[0, 3, 6], &[]),
            record("1", "b", &[1, 4, 7], &[]),
            record("2", "c", &[2, 5], &[]),
            record("3", "d", &[8, 9], &[]),
        ]
    };
    let clients = || {
        vec![
            ran("a", &[0, 3, 6]),
            ran("b", &[1, 4, 7]),
            ran("c", &[2, 5]),
            ran("d", &[8, 9]),
        ]
    };
    // 0_10 is added: names sort 0_0, 0_1, 0_10, 0_2, …, 0_9; round robin
    // over 4 gives ranks {0,4,8}, {1,5,9}, {2,6,10}, {3,7}.
    let s = with_records(
        state(AssignmentConfig::default(), partitions(11), clients()),
        records(),
    );
    let plan = samza(&s);
    assert_eq!(
        actives(&plan),
        expect(&[
            ("a", &[0, 3, 7]),
            ("b", &[1, 4, 8]),
            ("c", &[10, 5, 9]),
            ("d", &[2, 6]),
        ])
    );
    assert!(
        plan.diagnostics[0].contains("1 new: 0_10; 0 gone"),
        "{:?}",
        plan.diagnostics
    );
    // 0_9 is gone and 0_10 added (the count is unchanged): names 0_0, 0_1,
    // 0_10, 0_2, …, 0_8; round robin gives {0_0, 0_3, 0_7}, {0_1, 0_4, 0_8},
    // {0_10, 0_5}, {0_2, 0_6}.
    let mut tasks = partitions(9);
    tasks.push(Task::stateful(t(0, 10), 1_000));
    let mut now = clients();
    now[3] = ran("d", &[8]);
    let s = with_records(state(AssignmentConfig::default(), tasks, now), records());
    let plan = samza(&s);
    assert_eq!(
        actives(&plan),
        expect(&[
            ("a", &[0, 3, 7]),
            ("b", &[1, 4, 8]),
            ("c", &[10, 5]),
            ("d", &[2, 6]),
        ])
    );
    assert!(
        plan.diagnostics[0].contains("1 new: 0_10; 1 gone: 0_9"),
        "{:?}",
        plan.diagnostics
    );
}

#[test]
fn more_containers_than_tasks_is_refused() {
    let clients = ["a", "b", "c"].map(|id| Client::new(id, 1)).to_vec();
    let s = state(AssignmentConfig::default(), partitions(2), clients);
    let samza = assignor::by_name("samza").expect("registered");
    match samza.assign(&s) {
        Err(AssignError::Infeasible(message)) => assert_eq!(
            message,
            "samza runs one active container per client: 3 containers for 2 tasks, and Samza's GroupByContainerCount refuses more containers than tasks"
        ),
        other => panic!("expected a refusal, got {other:?}"),
    }
    // The command line exits 2 with that line and prints nothing.
    let path = std::env::temp_dir().join(format!("smoothscale-samza-{}.json", std::process::id()));
    std::fs::write(&path, state_to_json(&s)).expect("temp file");
    let run = support::smoothscale(
        &[
            "assign",
            "--strategy",
            "samza",
            path.to_str().expect("utf-8"),
        ],
        1,
    );
    std::fs::remove_file(&path).ok();
    support::assert_bad_input(
        &run,
        &["refuses more containers than tasks"],
        &std::env::temp_dir().join("smoothscale-samza-no-output"),
    );
}

#[test]
fn standby_containers_copy_stateless_tasks_and_carry_their_failover() {
    // 0_0 and 0_1 are stateful, 1_0 and 1_1 stateless; one standby: every
    // container gets a standby container, stateless or not (0-0 on b, 1-0
    // on c, 2-0 on d, 3-0 on a); the plan's standbys are the stateful tasks.
    let mut tasks = partitions(2);
    tasks.extend([Task::stateless(t(1, 0)), Task::stateless(t(1, 1))]);
    let clients = ["a", "b", "c", "d"].map(|id| Client::new(id, 1)).to_vec();
    let first = state(standbys(1), tasks.clone(), clients);
    let before = samza(&first);
    let standby_of = |plan: &Plan, id: &str| {
        let c = &plan.containers[&ContainerId::from(id)];
        (c.client.to_string(), c.standby.clone())
    };
    assert_eq!(
        standby_of(&before, "2-0"),
        ("d".to_string(), [t(1, 0)].into())
    );
    assert_eq!(
        standby_of(&before, "3-0"),
        ("a".to_string(), [t(1, 1)].into())
    );
    assert!(before.clients[&smoothscale::ClientId::from("d")]
        .standby
        .is_empty());
    // c (container 2, stateless 1_0) is replaced by e: the count stays 4.
    // Container 2 fails over to the host of 2-0, d, like any other
    // container; 1-0 (its host c is gone) and the displaced 2-0 go to e,
    // the client running the fewest containers.
    let clients = before
        .clients
        .iter()
        .filter(|(id, _)| id.as_str() != "c")
        .map(|(id, cp)| {
            Client::new(id.as_str(), 1)
                .with_previous_active(cp.active.iter().copied())
                .with_previous_standby(cp.standby.iter().copied())
        })
        .chain([Client::new("e", 1)])
        .collect();
    let records = before
        .containers
        .iter()
        .map(|(id, c)| (id.clone(), c.clone()))
        .collect();
    let plan = samza(&with_records(state(standbys(1), tasks, clients), records));
    let mut want = expect(&[("a", &[0]), ("b", &[1])]);
    want.push(("d".to_string(), [t(1, 0), t(1, 1)].into()));
    assert_eq!(actives(&plan), want);
    assert_eq!(standby_of(&plan, "1-0"), ("e".to_string(), parts(&[1])));
    assert_eq!(
        standby_of(&plan, "2-0"),
        ("e".to_string(), [t(1, 0)].into())
    );
}
