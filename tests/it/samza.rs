//! The `samza` strategy: the worked vectors of Samza's
//! `TestGroupByContainerCount` (docs/algorithms.md#samza-balance, through
//! clients) and the worked examples of docs/algorithms.md#samza-worked-examples
//! (scale-out, and node loss with a standby), standby placement rules, diagnostics, and
//! property tests: `validate`, determinism, lag-unawareness, the fewest moves
//! when only the container count changes, host affinity, and standbys never
//! sharing a host (or a stated rack) with their active.
//!
//! Samza's `Partition p` names become tasks `0_p`: both sort as strings the
//! same way (`0_10` before `0_2`). Each client runs one active container
//! (and standby containers of others); a client "before" lists the tasks its
//! active container ran (its `previous_active`).
//!
//! Cases: `SMOOTHSCALE_PROPTEST_CASES` (default 256), failures not persisted.

use std::collections::{BTreeMap, BTreeSet};

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::subsequence;

use smoothscale::{
    assignor, AssignError, AssignmentConfig, Client, ClientId, ClientPlan, ClusterState, Container,
    ContainerId, Lag, Plan, Task, TaskId,
};

use crate::support::{self, state, tid};

fn samza(state: &ClusterState) -> Plan {
    support::run("samza", state)
}

fn names(list: &[&str]) -> BTreeSet<TaskId> {
    list.iter().map(|s| tid(s)).collect()
}

/// Tasks `0_0 .. 0_{n-1}`, stateful.
fn partitions(n: u32) -> Vec<Task> {
    (0..n)
        .map(|p| Task::stateful(TaskId::new(0, p), 1_000))
        .collect()
}

/// `0_p` for every `p` listed.
fn parts(list: &[u32]) -> BTreeSet<TaskId> {
    list.iter().map(|&p| TaskId::new(0, p)).collect()
}

fn standbys(n: u32) -> AssignmentConfig {
    AssignmentConfig {
        num_standby_replicas: n,
        ..AssignmentConfig::default()
    }
}

fn on_host(id: &str, host: &str) -> Client {
    let mut c = Client::new(id, 1);
    c.host = Some(host.to_string());
    c
}

/// Asserts every client's actives (clients not listed: none).
fn assert_actives(plan: &Plan, expected: &[(&str, BTreeSet<TaskId>)], case: &str) {
    let expected: BTreeMap<&str, &BTreeSet<TaskId>> =
        expected.iter().map(|(c, s)| (*c, s)).collect();
    for (id, cp) in &plan.clients {
        let want = expected
            .get(id.as_str())
            .copied()
            .cloned()
            .unwrap_or_default();
        assert_eq!(cp.active, want, "{case}: actives of {id}\nplan: {plan:?}");
    }
}

/// Asserts every client's standbys (clients not listed: none).
fn assert_standbys(plan: &Plan, expected: &[(&str, BTreeSet<TaskId>)], case: &str) {
    let expected: BTreeMap<&str, &BTreeSet<TaskId>> =
        expected.iter().map(|(c, s)| (*c, s)).collect();
    for (id, cp) in &plan.clients {
        let want = expected
            .get(id.as_str())
            .copied()
            .cloned()
            .unwrap_or_default();
        assert_eq!(cp.standby, want, "{case}: standbys of {id}\nplan: {plan:?}");
    }
}

// ---------------------------------------------------------------------------
// Worked vectors: the balance step (docs/algorithms.md#samza-balance) through clients
// ---------------------------------------------------------------------------

/// One vector: `tasks` partitions of subtopology 0, the containers before
/// (client, partitions), the clients now, the expected actives.
struct Vector {
    name: &'static str,
    tasks: u32,
    before: &'static [(&'static str, &'static [u32])],
    now: &'static [&'static str],
    after: &'static [(&'static str, &'static [u32])],
}

const VECTORS: &[Vector] = &[
    Vector {
        name: "balance, grow 3 → 4: quotas [3,3,2,2], 0_9 and 0_8 spill to the new container",
        tasks: 10,
        before: &[("a", &[0, 3, 6, 9]), ("b", &[1, 4, 7]), ("c", &[2, 5, 8])],
        now: &["a", "b", "c", "d"],
        after: &[
            ("a", &[0, 3, 6]),
            ("b", &[1, 4, 7]),
            ("c", &[2, 5]),
            ("d", &[8, 9]),
        ],
    },
    Vector {
        name: "balance, shrink back 4 → 3: the original layout returns",
        tasks: 10,
        before: &[
            ("a", &[0, 3, 6]),
            ("b", &[1, 4, 7]),
            ("c", &[2, 5]),
            ("d", &[8, 9]),
        ],
        now: &["a", "b", "c"],
        after: &[("a", &[0, 3, 6, 9]), ("b", &[1, 4, 7]), ("c", &[2, 5, 8])],
    },
    Vector {
        name: "testBalancerAfterContainerIncrease (2 → 4)",
        tasks: 9,
        before: &[("a", &[0, 2, 4, 6, 8]), ("b", &[1, 3, 5, 7])],
        now: &["a", "b", "c", "d"],
        after: &[
            ("a", &[0, 2, 4]),
            ("b", &[1, 3]),
            ("c", &[6, 8]),
            ("d", &[5, 7]),
        ],
    },
    // testBalancerAfterContainerDecrease (4 → 2). Samza spills container 2,
    // then 3 (0_6, 0_2, 0_7, 0_3) and ends with a {0,2,4,6,8}, b {1,3,5,7}.
    // Here c and d are gone from the state, and nothing says which of them
    // ran which task: their tasks form one departed group and spill largest
    // name first (0_7, 0_6, 0_3, 0_2). The same tasks stay and as many move;
    // the unit test `balancer_after_container_decrease_and_again` checks
    // Samza's exact result on known containers.
    Vector {
        name: "testBalancerAfterContainerDecrease (4 → 2), departed containers merged",
        tasks: 9,
        before: &[
            ("a", &[0, 4, 8]),
            ("b", &[1, 5]),
            ("c", &[2, 6]),
            ("d", &[3, 7]),
        ],
        now: &["a", "b"],
        after: &[("a", &[0, 4, 6, 7, 8]), ("b", &[1, 2, 3, 5])],
    },
    Vector {
        name: "testBalancerMultipleReblances, second step (4 → 3)",
        tasks: 9,
        before: &[
            ("a", &[0, 4, 8]),
            ("b", &[1, 5]),
            ("c", &[2, 6]),
            ("d", &[3, 7]),
        ],
        now: &["a", "b", "c"],
        after: &[("a", &[0, 4, 8]), ("b", &[1, 5, 7]), ("c", &[2, 3, 6])],
    },
    Vector {
        name: "testBalancerAfterContainerSame",
        tasks: 9,
        before: &[("a", &[0, 2, 4, 6, 8]), ("b", &[1, 3, 5, 7])],
        now: &["a", "b"],
        after: &[("a", &[0, 2, 4, 6, 8]), ("b", &[1, 3, 5, 7])],
    },
    Vector {
        name: "testBalancerAfterContainerSameCustomAssignment: kept although unbalanced",
        tasks: 9,
        before: &[("a", &[0, 1, 2, 3, 4, 5]), ("b", &[6, 7, 8])],
        now: &["a", "b"],
        after: &[("a", &[0, 1, 2, 3, 4, 5]), ("b", &[6, 7, 8])],
    },
    Vector {
        name: "testBalancerAfterContainerSameCustomAssignmentAndContainerIncrease",
        tasks: 6,
        before: &[("a", &[0]), ("b", &[1, 2, 3, 4, 5])],
        now: &["a", "b", "c"],
        after: &[("a", &[0, 5]), ("b", &[1, 2]), ("c", &[3, 4])],
    },
    Vector {
        name: "testBalancerOldContainerCountOne: round-robin",
        tasks: 3,
        before: &[("a", &[0, 1, 2])],
        now: &["a", "b", "c"],
        after: &[("a", &[0]), ("b", &[1]), ("c", &[2])],
    },
    Vector {
        name: "testBalancerNewContainerCountOne: round-robin",
        tasks: 3,
        before: &[("a", &[0]), ("b", &[1]), ("c", &[2])],
        now: &["a"],
        after: &[("a", &[0, 1, 2])],
    },
    Vector {
        name: "testBalancerEmptyTaskMapping: round-robin",
        tasks: 3,
        before: &[],
        now: &["a", "b", "c"],
        after: &[("a", &[0]), ("b", &[1]), ("c", &[2])],
    },
    Vector {
        name: "round robin, names sort as strings: 12 tasks over 3",
        tasks: 12,
        before: &[],
        now: &["a", "b", "c"],
        after: &[
            ("a", &[0, 11, 4, 7]),
            ("b", &[1, 2, 5, 8]),
            ("c", &[10, 3, 6, 9]),
        ],
    },
    Vector {
        name: "testGroupManyTasks: 21 tasks over 2",
        tasks: 21,
        before: &[],
        now: &["a", "b"],
        after: &[
            ("a", &[0, 10, 12, 14, 16, 18, 2, 3, 5, 7, 9]),
            ("b", &[1, 11, 13, 15, 17, 19, 20, 4, 6, 8]),
        ],
    },
    Vector {
        name: "a new client sorting between old ones takes the new container",
        tasks: 10,
        before: &[("a", &[0, 3, 6, 9]), ("c", &[1, 4, 7]), ("d", &[2, 5, 8])],
        now: &["a", "b", "c", "d"],
        after: &[
            ("a", &[0, 3, 6]),
            ("b", &[8, 9]),
            ("c", &[1, 4, 7]),
            ("d", &[2, 5]),
        ],
    },
    Vector {
        name: "a departed middle container spills, the others keep their tasks",
        tasks: 10,
        before: &[
            ("a", &[0, 3, 6]),
            ("b", &[1, 4, 7]),
            ("c", &[2, 5]),
            ("d", &[8, 9]),
        ],
        now: &["a", "c", "d"],
        // Live containers a (3), c (2), d (2) keep slots 0..2 with quotas
        // [4, 3, 3]; b's tasks spill, largest name first: 0_7, 0_4, 0_1.
        after: &[("a", &[0, 3, 6, 7]), ("c", &[2, 4, 5]), ("d", &[1, 8, 9])],
    },
];

#[test]
fn balance_vectors_of_samza_tests() {
    for v in VECTORS {
        let clients = v
            .now
            .iter()
            .map(|&id| {
                let before = v.before.iter().find(|(c, _)| *c == id);
                Client::new(id, 1)
                    .with_previous_active(before.map_or_else(BTreeSet::new, |b| parts(b.1)))
            })
            .collect();
        let s = state(AssignmentConfig::default(), partitions(v.tasks), clients);
        let plan = samza(&s);
        let after: Vec<(&str, BTreeSet<TaskId>)> =
            v.after.iter().map(|(c, p)| (*c, parts(p))).collect();
        assert_actives(&plan, &after, v.name);
        assert!(
            plan.diagnostics.is_empty(),
            "{}: {:?}",
            v.name,
            plan.diagnostics
        );
        assert_eq!(plan.followup_rebalance_ms, None);
    }
}

#[test]
fn task_names_across_subtopologies_sort_as_strings() {
    // "0_1" < "0_10" < "10_0" < "1_0" < "2_0"; round-robin over two.
    let tasks = ["0_1", "0_10", "1_0", "10_0", "2_0"]
        .iter()
        .map(|s| Task::stateless(tid(s)))
        .collect();
    let s = state(
        AssignmentConfig::default(),
        tasks,
        vec![Client::new("a", 1), Client::new("b", 1)],
    );
    let plan = samza(&s);
    assert_actives(
        &plan,
        &[
            ("a", names(&["0_1", "10_0", "2_0"])),
            ("b", names(&["0_10", "1_0"])),
        ],
        "mixed subtopologies",
    );
}

// ---------------------------------------------------------------------------
// Worked examples (docs/algorithms.md#samza-worked-examples)
// ---------------------------------------------------------------------------

#[test]
fn s1_scale_out_three_to_four_moves_two_tasks_to_the_new_client() {
    let before = [
        ("a", parts(&[0, 3, 6, 9])),
        ("b", parts(&[1, 4, 7])),
        ("c", parts(&[2, 5, 8])),
    ];
    let mut clients: Vec<Client> = before
        .iter()
        .map(|(id, ts)| on_host(id, &format!("h-{id}")).with_previous_active(ts.iter().copied()))
        .collect();
    clients.push(on_host("d", "h-d"));
    let s = state(AssignmentConfig::default(), partitions(10), clients);
    let plan = samza(&s);
    assert_actives(
        &plan,
        &[
            ("a", parts(&[0, 3, 6])),
            ("b", parts(&[1, 4, 7])),
            ("c", parts(&[2, 5])),
            ("d", parts(&[8, 9])),
        ],
        "worked example: scale-out",
    );
    let moved = before
        .iter()
        .map(|(id, ts)| {
            ts.difference(&plan.clients[&ClientId::from(*id)].active)
                .count()
        })
        .sum::<usize>();
    assert_eq!(moved, 2);
}

/// The worked layout of docs/algorithms.md#samza-worked-examples: four
/// clients on hosts of their own, tasks `0_0..0_7`, one standby. Round robin
/// gives containers 0 {0, 4}, 1 {1, 5}, 2 {2, 6}, 3 {3, 7}, one per client;
/// each standby container `i-0` goes to the least-loaded client apart from
/// `i`'s, ties by the next client in id order: a → b → c → d → a.
fn four_clients_eight_tasks() -> (ClusterState, Plan) {
    let clients = ["a", "b", "c", "d"].map(|id| Client::new(id, 1)).to_vec();
    let s = state(standbys(1), partitions(8), clients);
    let plan = samza(&s);
    (s, plan)
}

#[test]
fn every_client_runs_an_active_container_and_a_standby_container() {
    let (_, plan) = four_clients_eight_tasks();
    let case = "4 clients, 8 tasks, 1 standby";
    assert_actives(
        &plan,
        &[
            ("a", parts(&[0, 4])),
            ("b", parts(&[1, 5])),
            ("c", parts(&[2, 6])),
            ("d", parts(&[3, 7])),
        ],
        case,
    );
    assert_standbys(
        &plan,
        &[
            ("b", parts(&[0, 4])),
            ("c", parts(&[1, 5])),
            ("d", parts(&[2, 6])),
            ("a", parts(&[3, 7])),
        ],
        case,
    );
    assert!(plan.diagnostics.is_empty(), "{:?}", plan.diagnostics);
}

#[test]
fn scale_out_moves_the_fewest_tasks_and_keeps_the_standby_containers() {
    // e and f join: N = 6, quotas [2, 2, 1, 1, 1, 1]; containers 2 and 3
    // spill 0_6 and 0_7 into the new containers 4 (e) and 5 (f): 2 moves.
    // Standby containers 0-0..3-0 stay on b, c, d, a; 4-0 and 5-0 go to the
    // least-loaded clients apart from their actives: f and e.
    let (first, before) = four_clients_eight_tasks();
    let mut clients = after(&first, &before);
    clients.extend([Client::new("e", 1), Client::new("f", 1)]);
    // The same with the record of the containers (`previous_containers`) as
    // without it (the layout derived from the previous assignment).
    let derived = state(standbys(1), partitions(8), clients);
    for s in [with_records(derived.clone(), &before), derived] {
        let plan = samza(&s);
        let case = "scale-out 4 → 6";
        assert_actives(
            &plan,
            &[
                ("a", parts(&[0, 4])),
                ("b", parts(&[1, 5])),
                ("c", parts(&[2])),
                ("d", parts(&[3])),
                ("e", parts(&[6])),
                ("f", parts(&[7])),
            ],
            case,
        );
        assert_standbys(
            &plan,
            &[
                ("b", parts(&[0, 4])),
                ("c", parts(&[1, 5])),
                ("d", parts(&[2])),
                ("a", parts(&[3])),
                ("f", parts(&[6])),
                ("e", parts(&[7])),
            ],
            case,
        );
    }
}

#[test]
fn scale_in_moves_only_the_departed_tasks() {
    // d leaves: N = 3, quotas [3, 3, 2]. d's container {3, 7} is known by
    // its standby container on a and becomes container 3 (quota 0); it
    // spills 0_7, then 0_3, into containers 0 (a) and 1 (b): 2 moves, and
    // 0_7 lands where its standby was. 0-0 and 1-0 stay on b and c; 2-0 lost
    // its client (d) and goes to a, the least-loaded client apart from c.
    let (first, before) = four_clients_eight_tasks();
    let clients = after(&first, &before)
        .into_iter()
        .filter(|c| c.id.as_str() != "d")
        .collect();
    // The same with the record of the containers (`previous_containers`) as
    // without it (the layout derived from the previous assignment).
    let derived = state(standbys(1), partitions(8), clients);
    for s in [with_records(derived.clone(), &before), derived] {
        let plan = samza(&s);
        let case = "scale-in 4 → 3";
        assert_actives(
            &plan,
            &[
                ("a", parts(&[0, 4, 7])),
                ("b", parts(&[1, 3, 5])),
                ("c", parts(&[2, 6])),
            ],
            case,
        );
        assert_standbys(
            &plan,
            &[
                ("b", parts(&[0, 4, 7])),
                ("c", parts(&[1, 3, 5])),
                ("a", parts(&[2, 6])),
            ],
            case,
        );
    }
}

#[test]
fn node_loss_fails_over_to_the_standby_container() {
    // a dies and e joins: the count stays 4. a's container {0, 4} (0 in the
    // record; derived without it: live containers b, c, d are 0, 1, 2, and
    // a's, known by its standby container on b, is 3) fails over to b,
    // which then runs two active containers, as Samza's failover does. The
    // standby containers on c and d stay; the one whose client was a and
    // the displaced one go to e, the least-loaded client.
    let (first, before) = four_clients_eight_tasks();
    let mut clients: Vec<Client> = after(&first, &before)
        .into_iter()
        .filter(|c| c.id.as_str() != "a")
        .collect();
    clients.push(Client::new("e", 1));
    // The same with the record of the containers (`previous_containers`) as
    // without it (the layout derived from the previous assignment).
    let derived = state(standbys(1), partitions(8), clients);
    for s in [with_records(derived.clone(), &before), derived] {
        let plan = samza(&s);
        let case = "node loss";
        assert_actives(
            &plan,
            &[
                ("b", parts(&[0, 1, 4, 5])),
                ("c", parts(&[2, 6])),
                ("d", parts(&[3, 7])),
            ],
            case,
        );
        assert_standbys(
            &plan,
            &[
                ("c", parts(&[1, 5])),
                ("d", parts(&[2, 6])),
                ("e", parts(&[0, 3, 4, 7])),
            ],
            case,
        );
        assert!(plan.diagnostics.is_empty(), "{:?}", plan.diagnostics);
    }
}

#[test]
fn a_standby_container_skips_a_client_on_its_active_host() {
    // c shares a's host h1: 0-0 skips it for b; the rest follow the cycle.
    let clients = vec![
        on_host("a", "h1"),
        on_host("b", "h2"),
        on_host("c", "h1"),
        on_host("d", "h3"),
    ];
    let s = state(standbys(1), partitions(4), clients);
    let plan = samza(&s);
    let case = "shared host";
    assert_actives(
        &plan,
        &[
            ("a", parts(&[0])),
            ("b", parts(&[1])),
            ("c", parts(&[2])),
            ("d", parts(&[3])),
        ],
        case,
    );
    assert_standbys(
        &plan,
        &[
            ("b", parts(&[0])),
            ("c", parts(&[1])),
            ("d", parts(&[2])),
            ("a", parts(&[3])),
        ],
        case,
    );
}

#[test]
fn standby_containers_avoid_the_active_rack_only_with_fault_domains_on() {
    let clients = vec![
        on_host("a", "h1").with_rack("r1"),
        on_host("b", "h2").with_rack("r1"),
        on_host("c", "h3").with_rack("r2"),
        on_host("d", "h4").with_rack("r2"),
    ];
    // Samza's default: fault-domain-aware standbys off, hosts only.
    let s = state(standbys(1), partitions(4), clients.clone());
    assert_standbys(
        &samza(&s),
        &[
            ("b", parts(&[0])),
            ("c", parts(&[1])),
            ("d", parts(&[2])),
            ("a", parts(&[3])),
        ],
        "racks, fault domains off",
    );
    // Kafka's rack_aware_assignment_tags is not Samza's switch: still off.
    let tags = AssignmentConfig {
        rack_aware_assignment_tags: vec!["zone".to_string()],
        ..standbys(1)
    };
    let s = state(tags, partitions(4), clients.clone());
    assert_standbys(
        &samza(&s),
        &[
            ("b", parts(&[0])),
            ("c", parts(&[1])),
            ("d", parts(&[2])),
            ("a", parts(&[3])),
        ],
        "racks, tags set, fault domains off",
    );
    // With samza_fault_domain_aware_standby, no standby on its active's rack:
    // 0-0 (a, r1) to c, 1-0 (b, r1) to d, 2-0 (c, r2) to a, 3-0 (d, r2) to b.
    let config = AssignmentConfig {
        samza_fault_domain_aware_standby: true,
        ..standbys(1)
    };
    let s = state(config, partitions(4), clients);
    let plan = samza(&s);
    assert_actives(
        &plan,
        &[
            ("a", parts(&[0])),
            ("b", parts(&[1])),
            ("c", parts(&[2])),
            ("d", parts(&[3])),
        ],
        "racks, fault domains on",
    );
    assert_standbys(
        &plan,
        &[
            ("c", parts(&[0])),
            ("d", parts(&[1])),
            ("a", parts(&[2])),
            ("b", parts(&[3])),
        ],
        "racks, fault domains on",
    );
}

#[test]
fn a_standby_container_with_no_other_host_is_left_out_and_said() {
    let clients = vec![
        on_host("a", "h"),
        on_host("b", "h"),
        on_host("c", "h"),
        on_host("d", "h"),
    ];
    let s = state(standbys(1), partitions(4), clients);
    let plan = samza(&s);
    assert!(
        plan.clients.values().all(|cp| cp.standby.is_empty()),
        "{plan:?}"
    );
    assert!(plan.clients.values().all(|cp| cp.active.len() == 1));
    assert_eq!(plan.diagnostics.len(), 1, "{:?}", plan.diagnostics);
    assert!(
        plan.diagnostics[0].contains("0-0, 1-0, 2-0, 3-0"),
        "{:?}",
        plan.diagnostics
    );
}

#[test]
fn more_replicas_than_clients_are_said() {
    let s = state(
        standbys(3),
        partitions(2),
        vec![Client::new("a", 1), Client::new("b", 1)],
    );
    let plan = samza(&s);
    assert_actives(&plan, &[("a", parts(&[0])), ("b", parts(&[1]))], "replicas");
    assert_standbys(&plan, &[("b", parts(&[0])), ("a", parts(&[1]))], "replicas");
    assert_eq!(plan.diagnostics.len(), 1, "{:?}", plan.diagnostics);
    assert!(plan.diagnostics[0].contains("replication factor 4"));
}

#[test]
fn no_clients_or_no_tasks_give_an_empty_plan() {
    let s = state(standbys(1), partitions(3), Vec::new());
    assert!(samza(&s).clients.is_empty());
    let s = state(standbys(1), Vec::new(), vec![Client::new("a", 1)]);
    let plan = samza(&s);
    assert_eq!(plan.clients.len(), 1);
    assert!(plan
        .clients
        .values()
        .all(|cp| cp.active.is_empty() && cp.standby.is_empty()));
}

// ---------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------

/// Client ids whose string order is not their "numeric" order.
const ID_POOL: &[&str] = &[
    "0",
    "00",
    "1",
    "B",
    "a",
    "b",
    "c1",
    "c10",
    "c2",
    "c9",
    "client-10",
    "client-2",
    "x y",
    "zeta",
    "~",
    "\u{3a9}",
];

/// Tasks of `subtopologies` (partition counts); odd partitions of odd
/// subtopologies are stateless.
fn tasks_of(subtopologies: &[u32]) -> Vec<Task> {
    let mut tasks = Vec::new();
    for (s, &n) in subtopologies.iter().enumerate() {
        for p in 0..n {
            let id = TaskId::new(s as u32, p);
            tasks.push(if s % 2 == 1 && p % 2 == 1 {
                Task::stateless(id)
            } else {
                Task::stateful(id, 500)
            });
        }
    }
    tasks
}

/// A client's host and rack, drawn from small pools so that they are often shared.
#[derive(Debug, Clone)]
struct Spec {
    host: Option<u8>,
    rack: Option<u8>,
}

fn spec() -> impl Strategy<Value = Spec> {
    (proptest::option::of(0..4u8), proptest::option::of(0..3u8))
        .prop_map(|(host, rack)| Spec { host, rack })
}

fn client_of(id: &str, spec: &Spec) -> Client {
    let mut c = Client::new(id, 1);
    c.host = spec.host.map(|h| format!("host-{h}"));
    c.rack = spec.rack.map(|r| format!("rack-{r}"));
    c
}

/// `replicas` standbys; Samza's fault-domain-aware standbys on when
/// `domains`.
fn config(replicas: u32, domains: bool) -> AssignmentConfig {
    AssignmentConfig {
        samza_fault_domain_aware_standby: domains,
        ..standbys(replicas)
    }
}

/// Names of previous containers: Samza's ids (a few standby ones) and one
/// that is not.
const RECORD_NAMES: &[&str] = &["0", "1", "2", "3", "0-0", "1-0", "2-1", "x"];

/// A random cluster with a random (not necessarily Samza-made) previous
/// assignment: owners (sometimes none, now and then a stale second one),
/// standbys of stateful tasks, lags; half of them with random records of
/// previous containers (on live clients or on one that has left).
fn any_cluster() -> impl Strategy<Value = ClusterState> {
    (
        vec(1..=10u32, 1..=3),
        vec(spec(), 1..=10),
        0..=3u32,
        proptest::bool::ANY,
    )
        .prop_flat_map(|(subs, specs, replicas, domains)| {
            let t: u32 = subs.iter().sum();
            let n = specs.len();
            let m = RECORD_NAMES.len();
            (
                (
                    Just(subs),
                    Just(specs),
                    Just(config(replicas, domains)),
                    subsequence(ID_POOL, n),
                    vec(proptest::option::of(0..n), t as usize),
                    vec(
                        (
                            proptest::bool::weighted(0.2),
                            proptest::bool::weighted(0.03),
                        ),
                        t as usize * n,
                    ),
                    vec(0..1_000u64, t as usize * n),
                ),
                proptest::option::of((
                    subsequence((0..m).collect::<Vec<_>>(), 0..=m),
                    vec(0..=n, m),
                    vec(proptest::option::of(0..m), t as usize),
                    vec(proptest::bool::weighted(0.3), t as usize * m),
                )),
            )
        })
        .prop_map(
            |((subs, specs, config, ids, owners, cells, lags), records)| {
                let tasks = tasks_of(&subs);
                let mut clients: Vec<Client> = ids
                    .iter()
                    .zip(&specs)
                    .map(|(id, s)| client_of(id, s))
                    .collect();
                for (c, client) in clients.iter_mut().enumerate() {
                    for (k, task) in tasks.iter().enumerate() {
                        let (standby, stale) = cells[c * tasks.len() + k];
                        if owners[k] == Some(c) || stale {
                            client.previous_active.insert(task.id);
                        } else if standby && task.stateful {
                            client.previous_standby.insert(task.id);
                        }
                        if task.stateful && lags[c * tasks.len() + k] % 3 == 0 {
                            client
                                .lags
                                .insert(task.id, Lag::Records(lags[c * tasks.len() + k]));
                        }
                    }
                }
                let s = state(config, tasks, clients);
                let Some((named, hosts, active_in, standby_cells)) = records else {
                    return s;
                };
                let m = RECORD_NAMES.len();
                let records = named
                    .into_iter()
                    .map(|r| {
                        // Host `n` is a client that has left.
                        let client = ids.get(hosts[r]).copied().unwrap_or("gone");
                        let mut container = Container::on(client);
                        for (k, task) in s.tasks().iter().enumerate() {
                            if active_in[k] == Some(r) {
                                container.active.insert(task.id);
                            } else if standby_cells[k * m + r] {
                                container.standby.insert(task.id);
                            }
                        }
                        (ContainerId::from(RECORD_NAMES[r]), container)
                    })
                    .collect();
                s.with_previous_containers(records).expect("valid records")
            },
        )
}

/// `s` with the containers of `plan` as its previous ones.
fn with_records(s: ClusterState, plan: &Plan) -> ClusterState {
    let records = plan
        .containers
        .iter()
        .map(|(id, c)| (id.clone(), c.clone()))
        .collect();
    s.with_previous_containers(records)
        .expect("a plan's containers are valid records")
}

/// `s` with other clients, its records kept.
fn with_clients(s: &ClusterState, clients: Vec<Client>) -> ClusterState {
    let records = s
        .previous_containers()
        .iter()
        .map(|(id, c)| (id.clone(), c.clone()))
        .collect();
    state(s.config().clone(), s.tasks().to_vec(), clients)
        .with_previous_containers(records)
        .expect("records of a valid state")
}

/// The host of a client as the strategy sees it (`None`: its own).
fn host_of(state: &ClusterState, id: &ClientId) -> (Option<String>, Option<String>) {
    let c = state.client(id).expect("plan names known clients");
    (c.host.clone(), c.rack.clone())
}

/// Every task's replicas (active and standbys) sit on pairwise different
/// clients and hosts (a client without a host is its own), and, with fault domains on,
/// on different racks where both clients state one.
fn assert_families_apart(state: &ClusterState, plan: &Plan) -> Result<(), TestCaseError> {
    let domains = state.config().samza_fault_domain_aware_standby;
    let mut holders: BTreeMap<TaskId, Vec<&ClientId>> = BTreeMap::new();
    for (id, cp) in &plan.clients {
        for &t in cp.active.iter().chain(&cp.standby) {
            holders.entry(t).or_default().push(id);
        }
    }
    for (t, hs) in holders {
        for (i, a) in hs.iter().enumerate() {
            for b in &hs[i + 1..] {
                prop_assert!(a != b, "task {} twice on {}", t, a);
                let ((ha, ra), (hb, rb)) = (host_of(state, a), host_of(state, b));
                prop_assert!(
                    ha.is_none() || ha != hb,
                    "task {} on {} and {} of host {:?}",
                    t,
                    a,
                    b,
                    ha
                );
                prop_assert!(
                    !domains || ra.is_none() || ra != rb,
                    "task {} on {} and {} of rack {:?}",
                    t,
                    a,
                    b,
                    ra
                );
            }
        }
    }
    Ok(())
}

/// The previous assignment a plan leaves: each client's actives and
/// standbys become its `previous_active` and `previous_standby`.
fn after(state: &ClusterState, plan: &Plan) -> Vec<Client> {
    state
        .clients()
        .iter()
        .map(|c| {
            let cp = &plan.clients[&c.id];
            Client {
                previous_active: cp.active.clone(),
                previous_standby: cp.standby.clone(),
                lags: BTreeMap::new(),
                ..c.clone()
            }
        })
        .collect()
}

fn owners(plan: &Plan) -> BTreeMap<TaskId, ClientId> {
    plan.active_owners()
        .into_iter()
        .map(|(t, c)| (t, c.clone()))
        .collect()
}

/// Samza's quota of slot `i` for `t` tasks over `n` slots.
fn quota(i: usize, t: usize, n: usize) -> usize {
    if i < n {
        t / n + usize::from(i < t % n)
    } else {
        0
    }
}

/// A container-count change: tasks, the first-run plan over `old` clients,
/// then `new` clients (old ones removed, or fresh ones added).
#[derive(Debug, Clone)]
struct CountChange {
    subtopologies: Vec<u32>,
    ids: Vec<&'static str>,
    old: usize,
    new: usize,
    /// Which old clients stay when shrinking (a subsequence of `0..old`).
    kept: Vec<usize>,
}

fn count_change() -> impl Strategy<Value = CountChange> {
    (1..=8usize, 1..=8usize)
        .prop_flat_map(|(old, new)| {
            let least = old.max(new) as u32;
            (
                vec(1..=14u32, 1..=3)
                    .prop_filter("enough tasks", move |s| s.iter().sum::<u32>() >= least),
                subsequence(ID_POOL, old.max(new)).prop_shuffle(),
                Just(old),
                Just(new),
                subsequence((0..old).collect::<Vec<_>>(), new.min(old)),
            )
        })
        .prop_map(|(subtopologies, ids, old, new, kept)| CountChange {
            subtopologies,
            ids,
            old,
            new,
            kept,
        })
}

/// The first run of `case` over its old clients, and the state after the
/// count changed (the plan fed back as the previous assignment, no record).
fn count_changed(case: &CountChange) -> (Plan, ClusterState) {
    let tasks = tasks_of(&case.subtopologies);
    let old: Vec<Client> = case.ids[..case.old]
        .iter()
        .map(|id| Client::new(*id, 1))
        .collect();
    let first = state(AssignmentConfig::default(), tasks.clone(), old);
    let before = samza(&first);
    let mut clients = after(&first, &before);
    if case.new > case.old {
        clients.extend(
            case.ids[case.old..case.new]
                .iter()
                .map(|id| Client::new(*id, 1)),
        );
    } else {
        clients = case.kept.iter().map(|&k| clients[k].clone()).collect();
    }
    (before, state(AssignmentConfig::default(), tasks, clients))
}

/// Clients and a state with a previous assignment, for the host-affinity law:
/// the first run, then nothing or one client replaced by a fresh one.
fn affinity_case(
) -> impl Strategy<Value = (Vec<u32>, Vec<Spec>, u32, Vec<&'static str>, Option<usize>)> {
    (vec(1..=10u32, 1..=3), vec(spec(), 1..=9), 0..=2u32).prop_flat_map(
        |(subs, specs, replicas)| {
            let n = specs.len();
            (
                Just(subs),
                Just(specs),
                Just(replicas),
                subsequence(ID_POOL, n + 1).prop_shuffle(),
                proptest::option::of(0..n),
            )
        },
    )
}

proptest! {
    #![proptest_config(support::proptest_config())]

    /// `validate` holds, two runs agree, lags change nothing, renaming clients
    /// in order renames the plan, the plan fed back is kept, and standbys
    /// keep off their family's hosts and stated racks.
    #[test]
    fn samza_keeps_the_invariants_on_any_cluster(s in any_cluster()) {
        if s.clients().len() > s.tasks().len() {
            // Samza refuses more containers than tasks.
            let refused = assignor::by_name("samza").expect("registered").assign(&s);
            prop_assert!(
                matches!(&refused, Err(AssignError::Infeasible(m)) if m.contains("refuses more containers than tasks")),
                "{:?}", refused
            );
            return Ok(());
        }
        let plan = samza(&s);
        prop_assert_eq!(&plan, &samza(&s));
        let lagless: Vec<Client> = s
            .clients()
            .iter()
            .map(|c| Client { lags: BTreeMap::new(), ..c.clone() })
            .collect();
        prop_assert_eq!(&samza(&with_clients(&s, lagless)), &plan, "lags changed the plan");
        // Renaming clients without changing their order (records too)
        // renames the plan.
        let rename = |id: &ClientId| ClientId::new(format!("x-{id}"));
        let renamed: Vec<Client> = s
            .clients()
            .iter()
            .map(|c| Client { id: rename(&c.id), ..c.clone() })
            .collect();
        let records = s
            .previous_containers()
            .iter()
            .map(|(id, c)| (id.clone(), Container { client: rename(&c.client), ..c.clone() }))
            .collect();
        let renamed = state(s.config().clone(), s.tasks().to_vec(), renamed)
            .with_previous_containers(records)
            .expect("renamed records");
        let expected: BTreeMap<ClientId, ClientPlan> = plan
            .clients
            .iter()
            .map(|(id, cp)| (rename(id), cp.clone()))
            .collect();
        prop_assert_eq!(&samza(&renamed).clients, &expected, "renaming changed the plan");
        // Every client runs an active container (N = C of them) unless a
        // container whose client is gone failed over onto a client running
        // one (one derived from a task without a live previous owner, or a
        // record on a client that has left), or the records put two active
        // containers on one client.
        let running = plan.clients.values().filter(|cp| !cp.active.is_empty()).count();
        let containers = s.clients().len();
        let lost = if s.previous_containers().is_empty() {
            s.tasks()
                .iter()
                .any(|t| s.clients().iter().all(|c| !c.previous_active.contains(&t.id)))
        } else {
            let hosts: Vec<&ClientId> = s
                .previous_containers()
                .iter()
                .filter(|(id, _)| !id.as_str().contains('-'))
                .map(|(_, c)| &c.client)
                .collect();
            let gone = hosts.iter().any(|c| s.client(c).is_none());
            let shared = hosts.iter().collect::<BTreeSet<_>>().len() < hosts.len();
            gone || shared
        };
        prop_assert!(
            running == containers || lost,
            "{} clients run actives, {} containers\n{}\n{:?}", running, containers, smoothscale::wire::state_to_json(&s), plan
        );
        // The plan fed back with its containers is kept, containers and all.
        let again = with_records(state(s.config().clone(), s.tasks().to_vec(), after(&s, &plan)), &plan);
        let next = samza(&again);
        prop_assert_eq!(&next.clients, &plan.clients, "the next run changed the plan");
        prop_assert_eq!(&next.containers, &plan.containers, "the next run changed the containers");
        // Fed back without them, it is kept when no client runs two active
        // containers (two read back as one: nothing names the containers).
        if running == containers {
            let again = state(s.config().clone(), s.tasks().to_vec(), after(&s, &plan));
            prop_assert_eq!(&samza(&again).clients, &plan.clients, "the next run changed the plan");
        }
        prop_assert!(plan.clients.values().all(|cp| cp.warmup.is_empty()));
        prop_assert_eq!(plan.followup_rebalance_ms, None);
        assert_families_apart(&s, &plan)?;
        let wanted = s.config().num_standby_replicas as usize;
        for cp in plan.clients.values() {
            for t in &cp.standby {
                let n = plan.clients.values().filter(|c| c.standby.contains(t)).count();
                prop_assert!(n <= wanted, "task {} has {} standbys, wanted {}", t, n, wanted);
            }
        }
        // On hosts of their own and without shared fault domains, every
        // stateful task has min(num_standby_replicas, C − 1) standbys.
        let hosts: BTreeSet<&String> = s.clients().iter().filter_map(|c| c.host.as_ref()).collect();
        let racks: BTreeSet<&String> = s.clients().iter().filter_map(|c| c.rack.as_ref()).collect();
        let stated_racks = s.clients().iter().filter(|c| c.rack.is_some()).count();
        let apart = hosts.len() == s.clients().iter().filter(|c| c.host.is_some()).count()
            && (!s.config().samza_fault_domain_aware_standby || racks.len() == stated_racks);
        if apart {
            let expected = wanted.min(s.clients().len().saturating_sub(1));
            for t in s.tasks().iter().filter(|t| t.stateful) {
                let n = plan.clients.values().filter(|c| c.standby.contains(&t.id)).count();
                prop_assert_eq!(n, expected, "standbys of {}", t.id);
            }
        }
    }

    /// A fresh start with at least as many tasks as clients: every client
    /// runs an active container of ⌊T/C⌋ or ⌈T/C⌉ tasks, and no standby
    /// shares a host (or, with fault domains on, a stated rack) with a copy
    /// of its task.
    #[test]
    fn samza_runs_actives_on_every_client(
        (subs, specs, replicas, domains, ids) in (vec(1..=10u32, 1..=3), vec(spec(), 1..=10), 0..=3u32, proptest::bool::ANY)
            .prop_flat_map(|(subs, specs, replicas, domains)| {
                let n = specs.len();
                (Just(subs), Just(specs), Just(replicas), Just(domains), subsequence(ID_POOL, n))
            })
    ) {
        let tasks = tasks_of(&subs);
        // At most as many clients as tasks.
        let clients: Vec<Client> = specs
            .iter()
            .zip(&ids)
            .take(tasks.len())
            .map(|(sp, id)| client_of(id, sp))
            .collect();
        let s = state(config(replicas, domains), tasks, clients);
        let plan = samza(&s);
        let (t, c) = (s.tasks().len(), s.clients().len());
        for (id, cp) in &plan.clients {
            let n = cp.active.len();
            prop_assert!(n == t / c || n == t.div_ceil(c), "{} runs {} actives of {} over {}", id, n, t, c);
        }
        assert_families_apart(&s, &plan)?;
    }

    /// When only the container count changes, the moved tasks are exactly
    /// Σ max(0, previous − new quota) over the previous containers (numbered
    /// largest first, ties by client id; removed clients' tasks all move),
    /// and the result is balanced and kept by the next run.
    #[test]
    fn samza_moves_the_fewest_tasks_when_the_count_changes(case in count_change()) {
        let (before, second) = count_changed(&case);
        let total = second.tasks().len();
        let plan = samza(&second);

        let mut live: Vec<(usize, &ClientId)> = second
            .clients()
            .iter()
            .map(|c| (c.previous_active.len(), &c.id))
            .filter(|&(n, _)| n > 0)
            .collect();
        live.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(b.1)));
        let departed = total - live.iter().map(|l| l.0).sum::<usize>();
        let expected = departed
            + live
                .iter()
                .enumerate()
                .map(|(j, &(n, _))| n.saturating_sub(quota(j, total, case.new)))
                .sum::<usize>();
        let (was, now) = (owners(&before), owners(&plan));
        let moved = was.iter().filter(|(t, c)| now.get(*t) != Some(*c)).count();
        prop_assert_eq!(moved, expected, "before {:?}\nafter {:?}", before, plan);

        let sizes: Vec<usize> = plan.clients.values().map(|cp| cp.active.len()).collect();
        let (max, min) = (sizes.iter().max().copied(), sizes.iter().min().copied());
        prop_assert!(max.zip(min).is_some_and(|(a, b)| a - b <= 1), "sizes {:?}", sizes);

        let third = state(AssignmentConfig::default(), second.tasks().to_vec(), after(&second, &plan));
        prop_assert_eq!(&samza(&third).clients, &plan.clients, "the next run moved tasks");
    }

    /// Fed back with its containers, a plan meets a count change as Samza
    /// does: round robin from one container or to one; otherwise container
    /// `i < N` keeps its `quota(i)` smallest task names, the
    /// rest (and every task of a container `≥ N`) moves container, exactly
    /// Σ max(0, previous − new quota) tasks; every kept container whose
    /// client is still there stays on it; the next run keeps the plan.
    #[test]
    fn samza_balances_its_own_containers_when_the_count_changes(case in count_change()) {
        let (before, second) = count_changed(&case);
        let second = with_records(second, &before);
        let total = second.tasks().len();
        let plan = samza(&second);

        let by_name = |set: &BTreeSet<TaskId>| {
            let mut names: Vec<String> = set.iter().map(ToString::to_string).collect();
            names.sort();
            names
        };
        let container = |p: &Plan, i: usize| p.containers.get(&ContainerId::new(i.to_string())).cloned();
        if case.old < 2 || case.new < 2 {
            // Samza's round robin: the name of rank r goes to container r mod N.
            let all = by_name(&second.tasks().iter().map(|t| t.id).collect());
            for i in 0..case.new {
                let want: Vec<String> = all.iter().skip(i).step_by(case.new).cloned().collect();
                let got = container(&plan, i).map(|c| by_name(&c.active));
                prop_assert_eq!(got, Some(want), "round robin, container {}", i);
            }
            return Ok(());
        }
        let mut spilled = 0;
        for i in 0..case.old.max(case.new) {
            let q = quota(i, total, case.new);
            let old = container(&before, i);
            let new = container(&plan, i);
            prop_assert_eq!(new.as_ref().map_or(0, |c| c.active.len()), q, "size of container {}", i);
            let Some(old) = old else { continue };
            let names = by_name(&old.active);
            spilled += names.len().saturating_sub(q);
            if let Some(new) = new {
                let new_names = by_name(&new.active);
                for name in names.iter().take(q) {
                    prop_assert!(new_names.contains(name), "container {} lost {}", i, name);
                }
                if second.client(&old.client).is_some() {
                    prop_assert_eq!(&new.client, &old.client, "container {} left its client", i);
                }
            }
        }
        let container_of = |p: &Plan| -> BTreeMap<TaskId, ContainerId> {
            p.containers
                .iter()
                .flat_map(|(id, c)| c.active.iter().map(move |&t| (t, id.clone())))
                .collect()
        };
        let (was, now) = (container_of(&before), container_of(&plan));
        let moved = was.iter().filter(|(t, c)| now.get(*t) != Some(*c)).count();
        prop_assert_eq!(moved, spilled, "before {:?}\nafter {:?}", before, plan);

        let third = with_records(
            state(AssignmentConfig::default(), second.tasks().to_vec(), after(&second, &plan)),
            &plan,
        );
        prop_assert_eq!(&samza(&third).clients, &plan.clients, "the next run moved tasks");
    }

    /// With the count unchanged (nothing happened, or one client was replaced
    /// by a fresh one), every task whose previous client still exists returns
    /// to it; standbys stay off their family's hosts and racks.
    #[test]
    fn samza_returns_tasks_to_their_previous_host(
        (subs, specs, replicas, ids, replaced) in affinity_case()
    ) {
        let tasks = tasks_of(&subs);
        let specs = &specs[..specs.len().min(tasks.len())];
        let clients: Vec<Client> =
            specs.iter().zip(&ids).map(|(s, id)| client_of(id, s)).collect();
        let first = state(standbys(replicas), tasks.clone(), clients);
        let before = samza(&first);
        let mut clients = after(&first, &before);
        if let Some(k) = replaced.filter(|&k| k < specs.len()) {
            let fresh = client_of(ids[specs.len()], &specs[k]);
            clients[k] = fresh;
        }
        // Fed back without its containers (derived) and with them (read).
        let derived = state(standbys(replicas), tasks, clients);
        let read = with_records(derived.clone(), &before);
        for second in [derived, read] {
            let plan = samza(&second);
            let now = owners(&plan);
            for (t, c) in owners(&before) {
                if second.client(&c).is_some() {
                    prop_assert_eq!(now.get(&t), Some(&c), "task {} left its host\nbefore {:?}\nafter {:?}", t, before, plan);
                }
            }
            assert_families_apart(&second, &plan)?;
        }
    }
}
