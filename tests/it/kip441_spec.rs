//! Kafka's `HighAvailabilityTaskAssignorTest`
//! (docs/algorithms.md#kafkas-ha-assignor-test, rows 1–24), the lag rules
//! (docs/algorithms.md#lags-and-caught-up), and the standby-assignor behaviour
//! (docs/algorithms.md#kip441-standbys and docs/algorithms.md#kafkas-unit-tests)
//! that can be reached through the public `kip441` assignor. Scenarios that need a
//! hand-made intermediate placement (`TaskMovementTest`, the priority set, the
//! tag-aware assignor on fixed actives) are unit tests in
//! `src/assignor/kip441/tests.rs`.
//!
//! Kafka runs every row under three rack strategies: `none`, `min_traffic` and
//! `balance_subtopology`. This file ports the `none` parameterisation. KIP-925
//! rack-aware optimisation is implemented (`src/assignor/rack/`,
//! docs/algorithms.md#kip-925-rack-awareness), but its machinery is
//! crate-private, so the `min_traffic` and `balance_subtopology` checks (row
//! 24's "same as rack-off" under `min_traffic`, the subtopology skew ≤ 4 under
//! `balance_subtopology`) are unit tests in `src/assignor/rack/tests.rs`, on
//! their own generated inputs.
//!
//! Conventions, as in Kafka's tests unless a row says otherwise: capacity 1,
//! acceptable recovery lag 100, 2 warm-ups, probing interval 60 s; Kafka's
//! `lag MAX` is `Lag::Records(i64::MAX)`; "probe" is a follow-up in the plan.
//! Besides the expected outcome of each row, some tests also pin the exact
//! placement that the step-by-step algorithm (docs/algorithms.md#kip441-overview)
//! produces ("trace").

use std::collections::BTreeSet;

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use smoothscale::{
    AssignmentConfig, Client, ClientPlan, ClusterState, Lag, Plan, RackAwareStrategy, Task, TaskId,
};

use crate::support::{
    assert_balanced_active, assert_balanced_stateful, assert_balanced_tasks,
    assert_valid_assignment, kip441, skewed_subtopologies, state, stateful_grid, t, tid, with_lags,
};

/// Kafka's `Long.MAX_VALUE` lag: a client far behind.
const MAX_LAG: Lag = Lag::Records(i64::MAX as u64);
/// Kafka's `Long.MAX_VALUE` acceptable recovery lag: everyone is caught up.
const ACCEPT_ANY: u64 = i64::MAX as u64;
/// The changelog size of test tasks; every test client reports its lags.
const END: u64 = 1_000_000;
/// Kafka's test probing interval.
const PROBING_MS: u64 = 60_000;

fn config(acceptable: u64, warmups: u32, standbys: u32) -> AssignmentConfig {
    AssignmentConfig {
        acceptable_recovery_lag: acceptable,
        max_warmup_replicas: warmups,
        num_standby_replicas: standbys,
        probing_rebalance_interval_ms: PROBING_MS,
        ..AssignmentConfig::default()
    }
}

/// Kafka's `getConfigWithoutStandbys` / `getConfigWithStandbys`.
fn kafka_config(standbys: u32) -> AssignmentConfig {
    config(100, 2, standbys)
}

fn ids(list: &[&str]) -> BTreeSet<TaskId> {
    list.iter().map(|s| tid(s)).collect()
}

fn stateful(list: &[&str]) -> Vec<Task> {
    list.iter().map(|s| Task::stateful(tid(s), END)).collect()
}

fn stateless(list: &[&str]) -> Vec<Task> {
    list.iter().map(|s| Task::stateless(tid(s))).collect()
}

fn task_ids(tasks: &[Task]) -> BTreeSet<TaskId> {
    tasks.iter().map(|t| t.id).collect()
}

/// A client with `lag` on every stateful task of `tasks`.
fn lagged(id: &str, capacity: u32, tasks: &[Task], lag: Lag) -> Client {
    let stateful: Vec<Task> = tasks.iter().filter(|t| t.stateful).cloned().collect();
    with_lags(Client::new(id, capacity), &stateful, lag)
}

/// Kafka's `getMockClientWithPreviousCaughtUpTasks`: previously active with
/// lag 0 on `caught_up`, lag MAX on every other stateful task; capacity 1.
fn caught_up_on(id: &str, caught_up: &[&str], tasks: &[Task]) -> Client {
    let mut client = lagged(id, 1, tasks, MAX_LAG).with_previous_active(ids(caught_up));
    for task in caught_up {
        client = client.with_lag(tid(task), Lag::Records(0));
    }
    client
}

fn of<'a>(plan: &'a Plan, id: &str) -> &'a ClientPlan {
    &plan.clients[&id.into()]
}

fn assigned(cp: &ClientPlan) -> usize {
    cp.active.len() + cp.standby.len() + cp.warmup.len()
}

/// Whether the plan asks for a probing rebalance (and, if so, after the
/// configured interval).
fn probing(plan: &Plan) -> bool {
    match plan.followup_rebalance_ms {
        Some(ms) => {
            assert_eq!(ms, PROBING_MS, "probing interval");
            true
        }
        None => false,
    }
}

/// The clients holding `task` as standby.
fn standby_holders(plan: &Plan, task: &str) -> BTreeSet<String> {
    plan.clients
        .iter()
        .filter(|(_, cp)| cp.standby.contains(&tid(task)))
        .map(|(id, _)| id.as_str().to_string())
        .collect()
}

fn names(list: &[&str]) -> BTreeSet<String> {
    list.iter().map(|s| s.to_string()).collect()
}

// ---------------------------------------------------------------------------
// HA assignor test rows 1 and 2 (docs/algorithms.md#kafkas-ha-assignor-test):
// warming up versus "everyone is caught up".

/// Row 1 (`shouldBeStickyForActiveAndStandbyTasksWhileWarmingUp`): 9 tasks;
/// c1 previously active on all with lag 0, c2 previous standby of all with lag
/// 10, c3 lag MAX; acceptable 11, 2 warm-ups, 1 standby. Kafka: c1 and c2 hold
/// all 9 tasks each, c3 only 2 (warm-ups), probe = true.
#[test]
fn row01_sticky_for_active_and_standby_while_warming_up() {
    let tasks = stateful_grid(3, 3, END);
    let all = task_ids(&tasks);
    let clients = vec![
        lagged("c1", 1, &tasks, Lag::Records(0)).with_previous_active(all.clone()),
        lagged("c2", 1, &tasks, Lag::Records(10)).with_previous_standby(all.clone()),
        lagged("c3", 1, &tasks, MAX_LAG),
    ];
    let state = state(config(11, 2, 1), tasks, clients);
    let plan = kip441(&state);

    assert_eq!(assigned(of(&plan, "c1")), 9, "{plan:?}");
    assert_eq!(assigned(of(&plan, "c2")), 9, "{plan:?}");
    let c3 = of(&plan, "c3");
    assert_eq!(assigned(c3), 2, "{plan:?}");
    assert!(c3.active.is_empty() && c3.standby.is_empty(), "{plan:?}");
    assert_eq!(c3.warmup.len(), 2, "{plan:?}");
    assert!(probing(&plan));
    assert_valid_assignment(&state, &plan, 2);

    // Trace: round robin gives c3 the actives 0_2, 1_2, 2_2; each is swapped
    // with a caught-up standby (free); then c3's six standbys move to c1/c2 in
    // task order, the first two keeping a warm-up while the budget lasts.
    assert_eq!(c3.warmup, ids(&["0_1", "0_2"]));
    assert_eq!(
        of(&plan, "c1").active,
        ids(&["0_0", "0_2", "1_0", "2_0", "2_2"])
    );
    assert_eq!(of(&plan, "c2").active, ids(&["0_1", "1_1", "1_2", "2_1"]));
}

/// Row 2 (`shouldSkipWarmupsWhenAcceptableLagIsMax`): as row 1 but c2 and c3
/// lag MAX, acceptable = `Long.MAX_VALUE`, 1 warm-up, 1 standby. Everyone is
/// caught up, so nothing moves: 6 tasks each (3 active + 3 standby), no probe.
#[test]
fn row02_skip_warmups_when_acceptable_lag_is_max() {
    let tasks = stateful_grid(3, 3, END);
    let all = task_ids(&tasks);
    let clients = vec![
        lagged("c1", 1, &tasks, Lag::Records(0)).with_previous_active(all),
        lagged("c2", 1, &tasks, MAX_LAG),
        lagged("c3", 1, &tasks, MAX_LAG),
    ];
    let state = state(config(ACCEPT_ANY, 1, 1), tasks, clients);
    let plan = kip441(&state);

    for c in ["c1", "c2", "c3"] {
        let cp = of(&plan, c);
        assert_eq!(
            (cp.active.len(), cp.standby.len(), cp.warmup.len()),
            (3, 3, 0),
            "{c}: {plan:?}"
        );
    }
    assert!(!probing(&plan));
    assert_valid_assignment(&state, &plan, 0);
}

// ---------------------------------------------------------------------------
// Rows 3–5 (docs/algorithms.md#kafkas-ha-assignor-test): state-unaware
// balance (lag 10 everywhere, acceptable 0).

/// Row 3: lag 10 everywhere, acceptable 0, 1 warm-up, no standbys. No client
/// is caught up and all are equally lagged, so nothing moves: probe false,
/// valid, active and stateful balance, subtopology skew ≤ 1. The placement is
/// the round robin of docs/algorithms.md#kip441-balanced-placement
/// (`0_0,0_1,0_2,1_0…` dealt to c1, c2, c3 in turn), which
/// capacity-proportional balance leaves alone in these shapes.
#[test]
fn row03_even_assignment_without_caught_up_clients() {
    struct Case {
        name: &'static str,
        tasks: Vec<Task>,
        capacities: &'static [u32],
        actives: &'static [&'static [&'static str]],
    }
    let cases = vec![
        Case {
            name: "clients an integral divisor of tasks",
            tasks: stateful_grid(3, 3, END),
            capacities: &[1, 1, 1],
            actives: &[
                &["0_0", "1_0", "2_0"],
                &["0_1", "1_1", "2_1"],
                &["0_2", "1_2", "2_2"],
            ],
        },
        Case {
            name: "threads an integral divisor of tasks",
            tasks: stateful_grid(3, 3, END),
            capacities: &[3, 3, 3],
            actives: &[
                &["0_0", "1_0", "2_0"],
                &["0_1", "1_1", "2_1"],
                &["0_2", "1_2", "2_2"],
            ],
        },
        Case {
            name: "clients not an integral divisor of tasks",
            tasks: stateful_grid(3, 3, END),
            capacities: &[1, 1],
            actives: &[
                &["0_0", "0_2", "1_1", "2_0", "2_2"],
                &["0_1", "1_0", "1_2", "2_1"],
            ],
        },
        Case {
            name: "more clients than tasks",
            tasks: stateful(&["0_0", "0_1"]),
            capacities: &[1, 1, 1],
            actives: &[&["0_0"], &["0_1"], &[]],
        },
        Case {
            name: "as many threads per client as tasks",
            tasks: stateful_grid(3, 3, END),
            capacities: &[9, 9, 9],
            actives: &[
                &["0_0", "1_0", "2_0"],
                &["0_1", "1_1", "2_1"],
                &["0_2", "1_2", "2_2"],
            ],
        },
    ];
    for case in cases {
        let clients = case
            .capacities
            .iter()
            .enumerate()
            .map(|(i, &cap)| lagged(&format!("c{}", i + 1), cap, &case.tasks, Lag::Records(10)))
            .collect();
        let state = state(config(0, 1, 0), case.tasks, clients);
        let plan = kip441(&state);
        assert!(!probing(&plan), "{}: {plan:?}", case.name);
        assert_valid_assignment(&state, &plan, 0);
        assert_balanced_active(&state, &plan);
        assert_balanced_stateful(&state, &plan);
        assert_balanced_tasks(&plan, 1);
        for (i, expected) in case.actives.iter().enumerate() {
            let c = format!("c{}", i + 1);
            assert_eq!(of(&plan, &c).active, ids(expected), "{}: {c}", case.name);
        }
    }
}

/// Row 4 (`…OverUnevenlyDistributedStreamThreads`): 6 tasks, capacities
/// 1/2/3, lag 10, acceptable 0. Actives exactly 1/2/3 (balanced per thread,
/// docs/algorithms.md#kip441-balanced-placement), probe false, and the
/// per-client subtopology report *is* skewed.
#[test]
fn row04_uneven_threads_get_actives_in_proportion() {
    let tasks = stateful_grid(2, 3, END);
    let clients = vec![
        lagged("c1", 1, &tasks, Lag::Records(10)),
        lagged("c2", 2, &tasks, Lag::Records(10)),
        lagged("c3", 3, &tasks, Lag::Records(10)),
    ];
    let state = state(config(0, 1, 0), tasks, clients);
    let plan = kip441(&state);

    assert!(!probing(&plan));
    assert_valid_assignment(&state, &plan, 0);
    assert_balanced_active(&state, &plan);
    assert_balanced_stateful(&state, &plan);
    let counts: Vec<usize> = ["c1", "c2", "c3"]
        .iter()
        .map(|c| of(&plan, c).active.len())
        .collect();
    assert_eq!(counts, vec![1, 2, 3], "{plan:?}");
    assert!(
        !skewed_subtopologies(&plan, 1).is_empty(),
        "Kafka expects a skewed per-client report: {plan:?}"
    );
}

/// Row 5 (`…EvenlyOverStreamThreadsButBestEffortOverClients`): 9 tasks,
/// capacities 6 and 3: actives 6 and 3, probe false, valid and balanced.
#[test]
fn row05_actives_follow_capacity_six_and_three() {
    let tasks = stateful_grid(3, 3, END);
    let clients = vec![
        lagged("c1", 6, &tasks, Lag::Records(10)),
        lagged("c2", 3, &tasks, Lag::Records(10)),
    ];
    let state = state(config(0, 1, 0), tasks, clients);
    let plan = kip441(&state);

    assert!(!probing(&plan));
    assert_valid_assignment(&state, &plan, 0);
    assert_balanced_active(&state, &plan);
    assert_balanced_stateful(&state, &plan);
    assert_eq!(of(&plan, "c1").active.len(), 6, "{plan:?}");
    assert_eq!(of(&plan, "c2").active.len(), 3, "{plan:?}");
}

// ---------------------------------------------------------------------------
// Rows 6, 14, 15, 16, 18, 19 (docs/algorithms.md#kafkas-ha-assignor-test): one
// client caught up on every stateful task.

/// Rows 6, 14, 15, 16, 18 and 19 share a shape: c1 was active on, and is
/// caught up on, every stateful task; the other clients are not caught up on
/// any (lag MAX). Kafka: c1 keeps every stateful active, the others get at
/// most warm-ups and standbys, the plan is valid with the warm-up budget, and a
/// probing rebalance is asked for. Each row then states what the others hold.
#[test]
fn rows06_14_15_16_18_19_single_caught_up_client() {
    /// What a not-caught-up client holds: standbys, warm-ups, actives.
    type Holds = (
        &'static str,
        &'static [&'static str],
        &'static [&'static str],
        &'static [&'static str],
    );
    struct Case {
        name: &'static str,
        stateful: &'static [&'static str],
        stateless: &'static [&'static str],
        clients: usize,
        capacity: u32,
        config: AssignmentConfig,
        /// Per other client: (id, standbys, warm-ups, actives).
        others: &'static [Holds],
        extra: fn(&ClusterState, &Plan),
    }
    let four = &["0_0", "0_1", "0_2", "0_3"];
    let cases = vec![
        Case {
            // Row 6 (`shouldAssignWarmUpTasksIfStatefulActiveTasksBalancedOverStreamThreadsButNotOverClients`):
            // capacities 5, acceptable 0, warm-ups 4/3+1 = 2, no standbys.
            // Kafka: c2 and c3 each have ≥ 1 standby (warm-up).
            name: "row 6",
            stateful: &["0_0", "0_1", "1_0", "1_1"],
            stateless: &[],
            clients: 3,
            capacity: 5,
            config: config(0, 2, 0),
            // Trace: round robin gave c2 0_1 and c3 1_0; both move to c1 with a warm-up.
            others: &[("c2", &[], &["0_1"], &[]), ("c3", &[], &["1_0"], &[])],
            extra: |_, plan| {
                assert!(!of(plan, "c2").warmup.is_empty() && !of(plan, "c3").warmup.is_empty());
            },
        },
        Case {
            // Row 14 (`shouldAssignWarmupReplicasEvenIfNoStandbyReplicasConfigured`):
            // 2 tasks, no standbys. Kafka: c2 gets exactly 1 standby (warm-up).
            name: "row 14",
            stateful: &["0_0", "0_1"],
            stateless: &[],
            clients: 2,
            capacity: 1,
            config: kafka_config(0),
            others: &[("c2", &[], &["0_1"], &[])],
            extra: |_, _| {},
        },
        Case {
            // Row 15 (`shouldNotAssignMoreThanMaxWarmupReplicas`): 4 tasks,
            // 1 warm-up, no standbys. Kafka: c2 exactly 1 warm-up. The
            // highest-priority movement (0_1, then 0_3) gets it.
            name: "row 15",
            stateful: four,
            stateless: &[],
            clients: 2,
            capacity: 1,
            config: config(100, 1, 0),
            others: &[("c2", &[], &["0_1"], &[])],
            extra: |_, _| {},
        },
        Case {
            // Row 16 (`shouldNotAssignWarmupAndStandbyToTheSameClient`): 4
            // tasks, 1 warm-up, 1 standby. Kafka: c2 holds all 4 as standbys;
            // its round-robin actives 0_1 and 0_3 swap with c1's standbys (no
            // budget), never active and standby on one client.
            name: "row 16",
            stateful: four,
            stateless: &[],
            clients: 2,
            capacity: 1,
            config: config(100, 1, 1),
            others: &[("c2", &["0_0", "0_1", "0_2", "0_3"], &[], &[])],
            extra: |_, _| {},
        },
        Case {
            // Row 18 (`shouldNotAssignMoreThanMaxWarmupReplicasWithStandbys`):
            // 4 tasks, 3 clients, 1 standby, 2 warm-ups. Kafka: valid with up
            // to 2 warm-ups, probe true.
            name: "row 18",
            stateful: four,
            stateless: &[],
            clients: 3,
            capacity: 1,
            config: kafka_config(1),
            // Trace: 0_1 moves to c1 with a warm-up on c2; 0_2 swaps with c1's
            // standby; c3's standby of 0_2 moves to c2 (first before c3 in
            // (lag, id) order) keeping the second warm-up on c3.
            others: &[
                ("c2", &["0_0", "0_2", "0_3"], &["0_1"], &[]),
                ("c3", &["0_1"], &["0_2"], &[]),
            ],
            extra: |_, plan| assert!(plan.warmup_count() <= 2),
        },
        Case {
            // Row 19 (`shouldDistributeStatelessTasksToBalanceTotalTaskLoad`):
            // 4 stateful + 3 stateless, 1 standby. Kafka: valid (≤ 2 warm-ups),
            // active and stateful balance hold, the subtopology report is
            // skewed because c2 took all stateless tasks
            // (docs/algorithms.md#kip441-stateless-tasks), probe true.
            name: "row 19",
            stateful: four,
            stateless: &["1_0", "1_1", "1_2"],
            clients: 2,
            capacity: 1,
            config: kafka_config(1),
            others: &[(
                "c2",
                &["0_0", "0_1", "0_2", "0_3"],
                &[],
                &["1_0", "1_1", "1_2"],
            )],
            extra: |state, plan| {
                assert_balanced_active(state, plan);
                assert_balanced_stateful(state, plan);
                assert!(
                    !skewed_subtopologies(plan, 1).is_empty(),
                    "Kafka expects a skewed report: {plan:?}"
                );
            },
        },
    ];
    for case in cases {
        let mut tasks = stateful(case.stateful);
        tasks.extend(stateless(case.stateless));
        let mut clients = vec![caught_up_on("c1", case.stateful, &tasks)];
        for i in 2..=case.clients {
            clients.push(caught_up_on(&format!("c{i}"), &[], &tasks));
        }
        for c in &mut clients {
            c.capacity = case.capacity;
        }
        let warmups = case.config.max_warmup_replicas as usize;
        let state = state(case.config, tasks, clients);
        let plan = kip441(&state);
        let name = case.name;

        assert!(probing(&plan), "{name}: {plan:?}");
        assert_valid_assignment(&state, &plan, warmups);
        let c1 = of(&plan, "c1");
        assert_eq!(
            c1.active,
            ids(case.stateful),
            "{name}: c1 keeps every stateful active"
        );
        assert!(
            c1.standby.is_empty() && c1.warmup.is_empty(),
            "{name}: {plan:?}"
        );
        for &(id, standby, warmup, active) in case.others {
            let cp = of(&plan, id);
            assert_eq!(
                cp.standby,
                ids(standby),
                "{name}: standbys of {id}: {plan:?}"
            );
            assert_eq!(cp.warmup, ids(warmup), "{name}: warm-ups of {id}: {plan:?}");
            assert_eq!(cp.active, ids(active), "{name}: actives of {id}: {plan:?}");
        }
        (case.extra)(&state, &plan);
    }
}

// ---------------------------------------------------------------------------
// Rows 7–13, 17, 20, 21 (docs/algorithms.md#kafkas-ha-assignor-test).

/// Row 7 (`shouldEvenlyAssignActiveStatefulTasksIfClientsAreWarmedUpToBalanceTaskOverClients`):
/// 4 tasks; c1 caught up on all; c2 a caught-up previous standby of 0_1, c3 of
/// 1_0 (the round-robin targets; lag MAX elsewhere); capacities 5, acceptable
/// 0, 2 warm-ups. The warm-ups have caught up, so the balanced placement
/// stands: probe false, valid, balanced, subtopology skew ≤ 1.
#[test]
fn row07_warmed_up_clients_take_their_balanced_share() {
    let tasks = stateful(&["0_0", "0_1", "1_0", "1_1"]);
    let all = task_ids(&tasks);
    let clients = vec![
        lagged("c1", 5, &tasks, Lag::Records(0)).with_previous_active(all),
        lagged("c2", 5, &tasks, MAX_LAG)
            .with_previous_standby(ids(&["0_1"]))
            .with_lag(tid("0_1"), Lag::Records(0)),
        lagged("c3", 5, &tasks, MAX_LAG)
            .with_previous_standby(ids(&["1_0"]))
            .with_lag(tid("1_0"), Lag::Records(0)),
    ];
    let state = state(config(0, 2, 0), tasks, clients);
    let plan = kip441(&state);

    assert!(!probing(&plan), "{plan:?}");
    assert_valid_assignment(&state, &plan, 0);
    assert_balanced_active(&state, &plan);
    assert_balanced_stateful(&state, &plan);
    assert_balanced_tasks(&plan, 1);
    assert_eq!(of(&plan, "c1").active, ids(&["0_0", "1_1"]));
    assert_eq!(of(&plan, "c2").active, ids(&["0_1"]));
    assert_eq!(of(&plan, "c3").active, ids(&["1_0"]));
}

/// Row 8 (`shouldComputeNewAssignmentIfThereAreUnassignedActiveTasks`): one
/// client, previously active on stateful 0_0 (lag 0); 0_1 stateless. Both
/// active on c1, no standbys, probe false.
#[test]
fn row08_single_client_takes_stateful_and_stateless() {
    let mut tasks = stateful(&["0_0"]);
    tasks.extend(stateless(&["0_1"]));
    let clients = vec![Client::new("c1", 1)
        .with_previous_active(ids(&["0_0"]))
        .with_lag(tid("0_0"), Lag::Records(0))];
    let state = state(kafka_config(0), tasks, clients);
    let plan = kip441(&state);

    assert_eq!(of(&plan, "c1").active, ids(&["0_0", "0_1"]));
    assert!(of(&plan, "c1").standby.is_empty());
    assert!(!probing(&plan));
    assert_valid_assignment(&state, &plan, 0);
    assert_balanced_tasks(&plan, 1);
}

/// Row 9 (`shouldComputeNewAssignmentIfThereAreUnassignedStandbyTasks`): task
/// 0_0; c1 previously active (lag 0); c2 lag 0; 1 standby. c2 gets the
/// standby; probe false.
#[test]
fn row09_missing_standby_goes_to_the_other_caught_up_client() {
    let tasks = stateful(&["0_0"]);
    let clients = vec![
        Client::new("c1", 1)
            .with_previous_active(ids(&["0_0"]))
            .with_lag(tid("0_0"), Lag::Records(0)),
        Client::new("c2", 1).with_lag(tid("0_0"), Lag::Records(0)),
    ];
    let state = state(kafka_config(1), tasks, clients);
    let plan = kip441(&state);

    assert_eq!(of(&plan, "c1").active, ids(&["0_0"]));
    assert_eq!(of(&plan, "c2").standby, ids(&["0_0"]));
    assert!(!probing(&plan));
    assert_valid_assignment(&state, &plan, 0);
    assert_balanced_active(&state, &plan);
    assert_balanced_stateful(&state, &plan);
}

/// Row 10 (`shouldComputeNewAssignmentIfActiveTasksWasNotOnCaughtUpClient`):
/// c1 previously active on stateful 0_0 with lag 500 (acceptable 100); c2
/// previously active on stateless 0_1 with lag 0 on 0_0. c1 active {0_1}, c2
/// active {0_0}; probe true: a warm-up of 0_0 lands on c1, the round-robin
/// target (Kafka notes this is not an optimal convergence). Valid with 1
/// warm-up.
#[test]
fn row10_active_not_on_caught_up_client_moves_with_warmup() {
    let mut tasks = stateful(&["0_0"]);
    tasks.extend(stateless(&["0_1"]));
    let clients = vec![
        Client::new("c1", 1)
            .with_previous_active(ids(&["0_0"]))
            .with_lag(tid("0_0"), Lag::Records(500)),
        Client::new("c2", 1)
            .with_previous_active(ids(&["0_1"]))
            .with_lag(tid("0_0"), Lag::Records(0)),
    ];
    let state = state(kafka_config(0), tasks, clients);
    let plan = kip441(&state);

    assert_eq!(of(&plan, "c1").active, ids(&["0_1"]));
    assert_eq!(of(&plan, "c2").active, ids(&["0_0"]));
    assert_eq!(of(&plan, "c1").warmup, ids(&["0_0"]));
    assert!(probing(&plan));
    assert_valid_assignment(&state, &plan, 1);
    assert_balanced_active(&state, &plan);
    assert_balanced_stateful(&state, &plan);
    assert_balanced_tasks(&plan, 1);
}

/// Row 11 (`shouldAssignToMostCaughtUpIfActiveTasksWasNotOnCaughtUpClient`,
/// KAFKA-13600): one task, lags c1 = MAX, c2 = 1000, c3 = 500, none caught up;
/// 1 standby, 2 warm-ups. c3 (most caught up) active, c2 standby, c1 warm-up,
/// probe true; valid with 1 warm-up.
#[test]
fn row11_no_caught_up_client_most_caught_up_takes_active() {
    let tasks = stateful(&["0_0"]);
    let clients = vec![
        Client::new("c1", 1).with_lag(tid("0_0"), MAX_LAG),
        Client::new("c2", 1).with_lag(tid("0_0"), Lag::Records(1000)),
        Client::new("c3", 1).with_lag(tid("0_0"), Lag::Records(500)),
    ];
    let state = state(kafka_config(1), tasks, clients);
    let plan = kip441(&state);

    let c1 = of(&plan, "c1");
    assert!(c1.active.is_empty() && c1.standby.is_empty(), "{plan:?}");
    assert_eq!(c1.warmup, ids(&["0_0"]), "c1 keeps a warm-up");
    let c2 = of(&plan, "c2");
    assert!(c2.active.is_empty() && c2.warmup.is_empty(), "{plan:?}");
    assert_eq!(c2.standby, ids(&["0_0"]), "c2 keeps the standby");
    let c3 = of(&plan, "c3");
    assert_eq!(c3.active, ids(&["0_0"]));
    assert!(c3.standby.is_empty() && c3.warmup.is_empty(), "{plan:?}");
    assert!(probing(&plan));
    assert_valid_assignment(&state, &plan, 1);
    assert_balanced_active(&state, &plan);
    assert_balanced_stateful(&state, &plan);
    assert_balanced_tasks(&plan, 1);
}

/// Row 12 (`shouldAssignStandbysForStatefulTasks`): 2 tasks; c1 caught up on
/// 0_0 (its previous active), c2 on 0_1; 1 standby. Actives stay; each holds
/// the other's standby; probe false (a standby with nowhere better to go is
/// not a movement, docs/algorithms.md#kip441-standby-movements).
#[test]
fn row12_standbys_for_stateful_tasks() {
    let tasks = stateful(&["0_0", "0_1"]);
    let clients = vec![
        caught_up_on("c1", &["0_0"], &tasks),
        caught_up_on("c2", &["0_1"], &tasks),
    ];
    let state = state(kafka_config(1), tasks, clients);
    let plan = kip441(&state);

    assert_eq!(of(&plan, "c1").active, ids(&["0_0"]));
    assert_eq!(of(&plan, "c2").active, ids(&["0_1"]));
    assert_eq!(of(&plan, "c1").standby, ids(&["0_1"]));
    assert_eq!(of(&plan, "c2").standby, ids(&["0_0"]));
    assert_eq!(plan.warmup_count(), 0);
    assert!(!probing(&plan));
}

/// Row 13 (`shouldNotAssignStandbysForStatelessTasks`): 2 stateless tasks, 1
/// standby: one active each, no standbys, probe false.
#[test]
fn row13_no_standbys_for_stateless_tasks() {
    let tasks = stateless(&["0_0", "0_1"]);
    let clients = vec![Client::new("c1", 1), Client::new("c2", 1)];
    let state = state(kafka_config(1), tasks, clients);
    let plan = kip441(&state);

    for c in ["c1", "c2"] {
        let cp = of(&plan, c);
        assert_eq!(cp.active.len(), 1, "{plan:?}");
        assert!(cp.standby.is_empty() && cp.warmup.is_empty(), "{plan:?}");
    }
    assert!(!probing(&plan));
}

/// Row 17 (`shouldNotAssignAnyStandbysWithInsufficientCapacity`,
/// `shouldAssignActiveTasksToNotCaughtUpClientIfNoneExist`): a single client
/// and 1 standby: no standbys, probe false; the client gets every active
/// whether or not it is caught up.
#[test]
fn row17_single_client_gets_no_standbys() {
    let tasks = stateful(&["0_0", "0_1"]);
    let cases = [
        ("caught up", caught_up_on("c1", &["0_0", "0_1"], &tasks)),
        ("not caught up", caught_up_on("c1", &[], &tasks)),
    ];
    for (name, client) in cases {
        let state = state(kafka_config(1), tasks.clone(), vec![client]);
        let plan = kip441(&state);
        let c1 = of(&plan, "c1");
        assert_eq!(c1.active, ids(&["0_0", "0_1"]), "{name}");
        assert!(
            c1.standby.is_empty() && c1.warmup.is_empty(),
            "{name}: {plan:?}"
        );
        assert!(!probing(&plan), "{name}");
    }
}

/// Row 20 (`shouldDistributeStatefulActiveTasksToAllClients`): 9 stateful
/// tasks, lag 0 everywhere, capacities 100/50/1: every client gets at least
/// one active; probe false.
#[test]
fn row20_every_client_gets_an_active_despite_capacities() {
    let tasks = stateful(&[
        "0_0", "0_1", "0_2", "0_3", "1_0", "1_1", "1_2", "1_3", "2_0",
    ]);
    let clients = vec![
        lagged("c1", 100, &tasks, Lag::Records(0)),
        lagged("c2", 50, &tasks, Lag::Records(0)),
        lagged("c3", 1, &tasks, Lag::Records(0)),
    ];
    let state = state(kafka_config(0), tasks, clients);
    let plan = kip441(&state);

    for c in ["c1", "c2", "c3"] {
        assert!(!of(&plan, c).active.is_empty(), "{c}: {plan:?}");
    }
    assert!(!probing(&plan));
    assert_valid_assignment(&state, &plan, 0);
}

/// Row 21 (`shouldReturnFalseIfPreviousAssignmentIsReused`): 4 tasks; c1
/// caught up on (and previously active on) 0_0 and 0_2, c2 on 0_1 and 0_3 —
/// the round-robin layout. The assignment equals the previous one; probe
/// false.
#[test]
fn row21_previous_assignment_matching_round_robin_is_kept() {
    let tasks = stateful(&["0_0", "0_1", "0_2", "0_3"]);
    let clients = vec![
        caught_up_on("c1", &["0_0", "0_2"], &tasks),
        caught_up_on("c2", &["0_1", "0_3"], &tasks),
    ];
    let state = state(kafka_config(0), tasks, clients);
    let plan = kip441(&state);

    for client in state.clients() {
        assert_eq!(of(&plan, client.id.as_str()).active, client.previous_active);
    }
    assert_eq!(plan.warmup_count(), 0);
    assert!(!probing(&plan));
}

/// Kafka's `shouldReturnFalseIfNoWarmupTasksAreAssigned` (a variant of row 13):
/// 4 tasks, none stateful, 2 clients: no standbys, probe false.
#[test]
fn row13b_no_warmups_without_stateful_tasks() {
    let tasks = stateless(&["0_0", "0_1", "0_2", "0_3"]);
    let clients = vec![Client::new("c1", 1), Client::new("c2", 1)];
    let state = state(kafka_config(0), tasks, clients);
    let plan = kip441(&state);

    assert!(!probing(&plan));
    for c in ["c1", "c2"] {
        assert_eq!(of(&plan, c).active.len(), 2, "{plan:?}");
        assert!(of(&plan, c).standby.is_empty() && of(&plan, c).warmup.is_empty());
    }
}

// ---------------------------------------------------------------------------
// Row 22 (docs/algorithms.md#kafkas-ha-assignor-test): stateless tasks only.

/// Row 22 (`shouldDistributeStatelessTasksEvenly…NoStatefulTasks`): 7
/// stateless tasks over capacities 7/7/7, 2/2/2, 1/2/3, or all previously on
/// c1 (capacity 3 each); acceptable 0, 1 warm-up. Valid, active balance per
/// thread, probe false. Previous ownership of stateless tasks is ignored
/// (docs/algorithms.md#kip441-stateless-tasks), so the last case spreads
/// 3/2/2 (lowest active load, then id).
#[test]
fn row22_stateless_tasks_spread_over_threads() {
    let names = ["0_0", "0_1", "0_2", "0_3", "1_0", "1_1", "1_2"];
    let cases: [(&str, [u32; 3], bool, [usize; 3]); 4] = [
        ("as many threads as tasks", [7, 7, 7], false, [3, 2, 2]),
        ("fewer threads than tasks", [2, 2, 2], false, [3, 2, 2]),
        ("uneven threads", [1, 2, 3], false, [2, 2, 3]),
        ("all previously on c1", [3, 3, 3], true, [3, 2, 2]),
    ];
    for (name, capacities, previous_on_c1, counts) in cases {
        let tasks = stateless(&names);
        let clients = capacities
            .iter()
            .enumerate()
            .map(|(i, &cap)| {
                let client = Client::new(format!("c{}", i + 1), cap);
                if previous_on_c1 && i == 0 {
                    client.with_previous_active(ids(&names))
                } else {
                    client
                }
            })
            .collect();
        let state = state(config(0, 1, 0), tasks, clients);
        let plan = kip441(&state);
        assert_valid_assignment(&state, &plan, 0);
        assert_balanced_active(&state, &plan);
        assert!(!probing(&plan), "{name}");
        let actual: Vec<usize> = ["c1", "c2", "c3"]
            .iter()
            .map(|c| of(&plan, c).active.len())
            .collect();
        assert_eq!(
            actual,
            counts.to_vec(),
            "{name}: trace of the stateless placement: {plan:?}"
        );
    }
}

// ---------------------------------------------------------------------------
// Rows 23–24 (docs/algorithms.md#kafkas-ha-assignor-test): random input, rack
// strategy `none` only (the rack variants: `src/assignor/rack/tests.rs`).

/// Kafka's random input: `subtopologies` × `partitions` tasks, a random
/// non-empty stateful subset (the rest stateless), `clients` clients with
/// capacity 1..=`max_capacity`, lag 0 on every stateful task, random previous
/// actives and standbys (the HA assignor reads only lags).
fn random_state(
    seed: u64,
    config: AssignmentConfig,
    subtopologies: u32,
    partitions: u32,
    clients: usize,
    max_capacity: u32,
) -> ClusterState {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut all: Vec<TaskId> = (0..subtopologies)
        .flat_map(|s| (0..partitions).map(move |p| t(s, p)))
        .collect();
    all.shuffle(&mut rng);
    let stateful_count = rng.random_range(1..=all.len());
    let stateful_ids: BTreeSet<TaskId> = all[..stateful_count].iter().copied().collect();
    let tasks: Vec<Task> = all
        .iter()
        .map(|&id| {
            if stateful_ids.contains(&id) {
                Task::stateful(id, END)
            } else {
                Task::stateless(id)
            }
        })
        .collect();
    let mut list: Vec<Client> = (1..=clients)
        .map(|i| {
            let cap = rng.random_range(1..=max_capacity);
            Client::new(format!("c{i:02}"), cap).with_rack(format!("rack{}", i % 7))
        })
        .collect();
    for c in &mut list {
        for &id in &stateful_ids {
            c.lags.insert(id, Lag::Records(0));
        }
    }
    for &id in &all {
        let c = rng.random_range(0..clients);
        list[c].previous_active.insert(id);
    }
    for &id in &stateful_ids {
        let c = rng.random_range(0..clients);
        if !list[c].previous_active.contains(&id) {
            list[c].previous_standby.insert(id);
        }
    }
    state(config, tasks, list)
}

/// Row 23 (`shouldAssignRandomInput`, rack strategy `none`): 50 clients
/// (capacity ≤ 3), 60 subtopologies × 3 partitions, random stateful/stateless
/// split, 3 standbys, lag 0 everywhere. Valid (no warm-ups) and active balance.
/// The `balance_subtopology` skew bound is checked, on smaller inputs, by the
/// unit tests of the crate-private rack optimiser (`src/assignor/rack/tests.rs`).
#[test]
fn row23_random_input() {
    for seed in 0..6 {
        let state = random_state(seed, kafka_config(3), 60, 3, 50, 3);
        let plan = kip441(&state);
        assert_valid_assignment(&state, &plan, 0);
        assert_balanced_active(&state, &plan);
        assert!(!probing(&plan), "seed {seed}: everyone is caught up");
    }
}

/// Row 24 (`shouldRemainOriginalAssignmentWithoutTrafficCostForMinCostStrategy`),
/// rack strategy `none` only: traffic cost 0, non-overlap cost 10, acceptable
/// 0, 1 warm-up, 1 standby; Kafka checks validity and returns. The `min_traffic`
/// (same as rack-off) and `balance_subtopology` (skew ≤ 4) variants are unit
/// tests of the crate-private rack optimiser (`src/assignor/rack/tests.rs`).
#[test]
fn row24_zero_traffic_cost_with_rack_strategy_none() {
    for seed in 0..3 {
        let config = AssignmentConfig {
            rack_aware_strategy: RackAwareStrategy::None,
            rack_aware_traffic_cost: Some(0),
            rack_aware_non_overlap_cost: Some(10),
            ..config(0, 1, 1)
        };
        let state = random_state(100 + seed, config, 60, 3, 50, 3);
        let plan = kip441(&state);
        assert_valid_assignment(&state, &plan, 0);
        assert!(plan.diagnostics.is_empty(), "{:?}", plan.diagnostics);
    }
}

// ---------------------------------------------------------------------------
// Lags, caught-up and most caught-up (docs/algorithms.md#lags-and-caught-up),
// seen through where an active ends.

/// One task, round robin puts its active on c1; the case's lags decide whether
/// it stays (c1 caught up, or nobody strictly less lagged) or moves, leaving a
/// warm-up on c1 (docs/algorithms.md#lags-and-caught-up for the predicate and
/// order, docs/algorithms.md#kip441-task-movement for `needs_move`).
#[test]
fn lag_rules_decide_where_one_active_goes() {
    struct Case {
        name: &'static str,
        end_offset: u64,
        acceptable: u64,
        /// Reported lags of c1, c2, c3 on 0_0 (`None`: no report, lag = end offset).
        lags: [Option<Lag>; 3],
        owner: &'static str,
    }
    use Lag::{Records as R, Running, Unknown};
    let cases = [
        Case {
            name: "a lag equal to the acceptable lag is caught up",
            end_offset: END,
            acceptable: 100,
            lags: [Some(R(100)), Some(R(0)), None],
            owner: "c1",
        },
        Case {
            name: "one record more is not caught up",
            end_offset: END,
            acceptable: 100,
            lags: [Some(R(101)), Some(R(0)), None],
            owner: "c2",
        },
        Case {
            name: "no report on a short changelog: full restore within the acceptable lag",
            end_offset: 50,
            acceptable: 100,
            lags: [None, Some(R(0)), None],
            owner: "c1",
        },
        Case {
            name: "no report on a long changelog: full restore",
            end_offset: END,
            acceptable: 100,
            lags: [None, Some(R(0)), None],
            owner: "c2",
        },
        Case {
            name: "running is caught up even with acceptable lag 0",
            end_offset: END,
            acceptable: 0,
            lags: [Some(R(10)), Some(Running), None],
            owner: "c2",
        },
        Case {
            name: "unknown is not caught up but sorts first (Kafka's quirk)",
            end_offset: END,
            acceptable: 100,
            lags: [Some(R(500)), Some(Unknown), Some(R(200))],
            owner: "c2",
        },
        Case {
            name: "nobody caught up: the most caught up takes it (KAFKA-13600)",
            end_offset: END,
            acceptable: 100,
            lags: [Some(R(500)), Some(R(300)), Some(R(200))],
            owner: "c3",
        },
        Case {
            name: "nobody caught up, equal lags: nothing moves",
            end_offset: END,
            acceptable: 100,
            lags: [Some(R(500)), Some(R(500)), Some(R(500))],
            owner: "c1",
        },
        Case {
            name: "acceptable lag MAX: even unknown counts as caught up",
            end_offset: END,
            acceptable: ACCEPT_ANY,
            lags: [Some(Unknown), Some(R(0)), None],
            owner: "c1",
        },
    ];
    for case in cases {
        let tasks = vec![Task::stateful(tid("0_0"), case.end_offset)];
        let clients = case
            .lags
            .iter()
            .enumerate()
            .map(|(i, lag)| {
                let client = Client::new(format!("c{}", i + 1), 1);
                match lag {
                    Some(lag) => client.with_lag(tid("0_0"), *lag),
                    None => client,
                }
            })
            .collect();
        let state = state(config(case.acceptable, 2, 0), tasks, clients);
        let plan = kip441(&state);
        let name = case.name;
        let owner = plan.active_owners()[&tid("0_0")].as_str().to_string();
        assert_eq!(owner, case.owner, "{name}: {plan:?}");
        let moved = case.owner != "c1";
        assert_eq!(probing(&plan), moved, "{name}: probe iff the active moved");
        let expected_warmup = if moved { ids(&["0_0"]) } else { ids(&[]) };
        assert_eq!(of(&plan, "c1").warmup, expected_warmup, "{name}: {plan:?}");
    }
}

/// Standby movements alone ask for a probing rebalance
/// (docs/algorithms.md#kip441-probing-rebalances). One task; c1
/// runs it caught up; the default standby goes to c2 (least loaded, lower id),
/// which is far behind, while c3 is caught up: the standby moves to c3 and c2
/// keeps a warm-up (docs/algorithms.md#kip441-standby-movements), and the plan
/// probes although no active moved.
#[test]
fn standby_movement_alone_asks_for_probing() {
    let tasks = stateful(&["0_0"]);
    let clients = vec![
        lagged("c1", 1, &tasks, Lag::Records(0)).with_previous_active(ids(&["0_0"])),
        lagged("c2", 1, &tasks, MAX_LAG),
        lagged("c3", 1, &tasks, Lag::Records(0)),
    ];
    let state = state(kafka_config(1), tasks, clients);
    let plan = kip441(&state);

    assert_eq!(of(&plan, "c1").active, ids(&["0_0"]));
    assert_eq!(standby_holders(&plan, "0_0"), names(&["c3"]));
    assert_eq!(of(&plan, "c2").warmup, ids(&["0_0"]));
    assert!(probing(&plan));
    assert_valid_assignment(&state, &plan, 1);
}

// ---------------------------------------------------------------------------
// Standby assignors through the public assignor (docs/algorithms.md#kip441-standbys,
// docs/algorithms.md#kafkas-unit-tests).

/// Six clients {cluster1, cluster2} × {zone1, zone2, zone3} (ids c1..c6 in
/// that order), tags [cluster, zone], 2 standbys, the active of 0_0 on c1
/// (cluster1, zone1), everyone caught up. As in
/// docs/algorithms.md#kip441-standbys, the first standby is on
/// cluster2 and another zone, least loaded (c5); the second ignores `cluster`
/// (both values used) and must be on zone3, either cluster (c3 or c6).
#[test]
fn tag_aware_standbys_partial_rack_awareness_example() {
    let tasks = stateful(&["0_0"]);
    let mut clients = Vec::new();
    for (i, (cluster, zone)) in [
        ("cluster1", "zone1"),
        ("cluster1", "zone2"),
        ("cluster1", "zone3"),
        ("cluster2", "zone1"),
        ("cluster2", "zone2"),
        ("cluster2", "zone3"),
    ]
    .into_iter()
    .enumerate()
    {
        let client = lagged(&format!("c{}", i + 1), 1, &tasks, Lag::Records(0))
            .with_tag("cluster", cluster)
            .with_tag("zone", zone);
        clients.push(client);
    }
    let config = AssignmentConfig {
        rack_aware_assignment_tags: vec!["cluster".into(), "zone".into()],
        ..kafka_config(2)
    };
    let state = state(config, tasks, clients);
    let plan = kip441(&state);

    assert_eq!(of(&plan, "c1").active, ids(&["0_0"]));
    let holders = standby_holders(&plan, "0_0");
    assert!(
        holders == names(&["c5", "c3"]) || holders == names(&["c5", "c6"]),
        "standbys of 0_0 on {holders:?}"
    );
    // Trace: c3 and c6 tie on load; the lower id wins.
    assert_eq!(holders, names(&["c3", "c5"]));
    assert!(!probing(&plan));
}

/// `StandbyTaskAssignorFactory` inside the HA assignor
/// (docs/algorithms.md#kip441-standbys): tags configured
/// → tag-aware; otherwise the default least-loaded assignor — also when every
/// client has a rack, because the HA assignor passes no rack helper (rule 2
/// never applies there). Clients c1 (zone a, rack r1), c2 (zone a, rack r1),
/// c3 (zone b, rack r2); one task active on c1; 1 standby. Least loaded picks
/// c2; tag-aware must leave zone a and picks c3.
#[test]
fn standby_assignor_factory_tags_versus_default() {
    let cases: [(&str, Vec<String>, bool, &str); 3] = [
        ("tags configured", vec!["zone".into()], false, "c3"),
        ("no tags", vec![], false, "c2"),
        ("no tags, clients with racks", vec![], true, "c2"),
    ];
    for (name, tags, racks, expected) in cases {
        let tasks = stateful(&["0_0"]);
        let clients = [("c1", "a", "r1"), ("c2", "a", "r1"), ("c3", "b", "r2")]
            .into_iter()
            .map(|(id, zone, rack)| {
                let client = lagged(id, 1, &tasks, Lag::Records(0)).with_tag("zone", zone);
                if racks {
                    client.with_rack(rack)
                } else {
                    client
                }
            })
            .collect();
        let config = AssignmentConfig {
            rack_aware_assignment_tags: tags,
            ..kafka_config(1)
        };
        let state = state(config, tasks, clients);
        let plan = kip441(&state);
        assert_eq!(of(&plan, "c1").active, ids(&["0_0"]), "{name}");
        assert_eq!(
            standby_holders(&plan, "0_0"),
            names(&[expected]),
            "{name}: {plan:?}"
        );
    }
}

/// `ClientTagAwareStandbyTaskAssignorTest.shouldNotAssignStatelessTasksToAnyClients`
/// through the public assignor: 9 clients {zone1..3} × {cluster1..3}, tags
/// [zone, cluster], 2 standbys; stateless tasks 0_x and stateful 1_x. No
/// stateless task gets a standby; every stateful task gets 2, on zones and
/// clusters other than its active's.
#[test]
fn tag_aware_standbys_skip_stateless_tasks_and_spread_over_tags() {
    let mut tasks = stateless(&["0_0", "0_1", "0_2"]);
    tasks.extend(stateful(&["1_0", "1_1", "1_2"]));
    let mut clients = Vec::new();
    for (i, (cluster, zone)) in (1..=3)
        .flat_map(|c| (1..=3).map(move |z| (c, z)))
        .enumerate()
    {
        clients.push(
            lagged(&format!("c{}", i + 1), 2, &tasks, Lag::Records(0))
                .with_tag("zone", format!("zone{zone}"))
                .with_tag("cluster", format!("cluster{cluster}")),
        );
    }
    let config = AssignmentConfig {
        rack_aware_assignment_tags: vec!["zone".into(), "cluster".into()],
        ..kafka_config(2)
    };
    let state = state(config, tasks, clients);
    let plan = kip441(&state);
    assert_valid_assignment(&state, &plan, 0);
    let tag = |id: &str, key: &str| state.client(&id.into()).unwrap().tags[key].clone();
    for task in ["0_0", "0_1", "0_2"] {
        assert!(standby_holders(&plan, task).is_empty(), "{task}: {plan:?}");
    }
    for task in ["1_0", "1_1", "1_2"] {
        let owner = plan.active_owners()[&tid(task)].as_str().to_string();
        let holders = standby_holders(&plan, task);
        assert_eq!(holders.len(), 2, "{task}: {plan:?}");
        let mut zones: BTreeSet<String> = holders.iter().map(|c| tag(c, "zone")).collect();
        let mut clusters: BTreeSet<String> = holders.iter().map(|c| tag(c, "cluster")).collect();
        assert!(
            zones.insert(tag(&owner, "zone")),
            "{task}: zone repeated: {plan:?}"
        );
        assert!(
            clusters.insert(tag(&owner, "cluster")),
            "{task}: cluster repeated: {plan:?}"
        );
        assert_eq!((zones.len(), clusters.len()), (3, 3), "{task}: {plan:?}");
    }
}
