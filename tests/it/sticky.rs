//! `sticky` (Kafka's `LegacyStickyTaskAssignor`, docs/algorithms.md#sticky) and
//! `fallback-prior` (`FallbackPriorTaskAssignor`, docs/algorithms.md#fallback-prior).
//!
//! Worked vectors: the behaviours of Kafka's `LegacyStickyTaskAssignorTest`
//! and `FallbackPriorTaskAssignorTest`, each with the exact placement the
//! rules give (Kafka's tests often accept several; this port's ascending
//! iteration picks one), derived by hand in a comment. Conventions as in
//! Kafka's tests: capacity 1 and every task stateful unless a vector says
//! otherwise; clients `c1`, `c2`, … sort like Kafka's `PID_1`, `PID_2`, ….
//! In the derivations `tpt` is `tasks_per_thread = |tasks| / Σ capacity`, a
//! client *has quota* while its actives < capacity × tpt, "load" is assigned
//! replicas per thread, and "balance" is Kafka's `shouldBalanceLoad` (the
//! client has as many replicas as threads and another has more room).
//! Only the `none` rack strategy of Kafka's parameterised tests is ported:
//! KIP-925 is not implemented (a `sticky` plan says so in its diagnostics).
//!
//! Properties (cases from `SMOOTHSCALE_PROPTEST_CASES`, default 256), each a
//! consequence of the rules: `validate` holds; the same input gives the same
//! plan; no warm-ups; `sticky` never asks for a follow-up and
//! `fallback-prior` always does; `fallback-prior` keeps every previous active
//! on its previous owner (the lowest-id one when several clients list it);
//! `sticky` keeps, for every previous owner, its lowest-id previous actives
//! up to its quota; actives do not depend on `num_standby_replicas` (they are
//! placed first); with no previous actives the two strategies agree, and
//! whenever every owner is within its quota they agree too (the only
//! difference is step 1's quota); with no history at all, actives are
//! balanced per thread (step 3 is greedy least-loaded).

use std::collections::{BTreeMap, BTreeSet};

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::subsequence;

use smoothscale::{
    AssignmentConfig, Client, ClientId, ClusterState, Plan, RackAwareStrategy, Task, TaskId,
};

use crate::support::{self, assert_balanced_active, assert_valid_assignment, tid};

/// Kafka's test probing interval (60 s).
const PROBING_MS: u64 = 60_000;

// ---------------------------------------------------------------------------
// Worked vectors
// ---------------------------------------------------------------------------

/// One client of a vector: id, capacity, previous actives, previous standbys.
type ClientSpec = (
    &'static str,
    u32,
    &'static [&'static str],
    &'static [&'static str],
);
/// The expected plan of one client: id, actives, standbys.
type Expected = (
    &'static str,
    &'static [&'static str],
    &'static [&'static str],
);

struct Vector {
    name: &'static str,
    strategy: &'static str,
    standbys: u32,
    tasks: &'static [&'static str],
    /// Tasks of `tasks` that are stateless (all others are stateful).
    stateless: &'static [&'static str],
    clients: &'static [ClientSpec],
    expected: &'static [Expected],
}

const NONE: &[&str] = &[];

fn vector_state(v: &Vector) -> ClusterState {
    let tasks = v
        .tasks
        .iter()
        .map(|s| {
            if v.stateless.contains(s) {
                Task::stateless(tid(s))
            } else {
                Task::stateful(tid(s), 1_000)
            }
        })
        .collect();
    let clients = v
        .clients
        .iter()
        .map(|&(id, cap, active, standby)| {
            Client::new(id, cap)
                .with_previous_active(active.iter().map(|s| tid(s)))
                .with_previous_standby(standby.iter().map(|s| tid(s)))
        })
        .collect();
    let config = AssignmentConfig {
        num_standby_replicas: v.standbys,
        probing_rebalance_interval_ms: PROBING_MS,
        ..AssignmentConfig::default()
    };
    support::state(config, tasks, clients)
}

fn ids(list: &[&str]) -> BTreeSet<TaskId> {
    list.iter().map(|s| tid(s)).collect()
}

fn check(v: &Vector) {
    let state = vector_state(v);
    let plan = support::run(v.strategy, &state);
    assert_valid_assignment(&state, &plan, 0);
    for &(client, active, standby) in v.expected {
        let got = &plan.clients[&ClientId::from(client)];
        assert_eq!(got.active, ids(active), "{}: actives of {client}", v.name);
        assert_eq!(
            got.standby,
            ids(standby),
            "{}: standbys of {client}",
            v.name
        );
        assert!(got.warmup.is_empty(), "{}: warm-ups on {client}", v.name);
    }
    let listed: BTreeSet<&str> = v.expected.iter().map(|e| e.0).collect();
    for (id, cp) in &plan.clients {
        if !listed.contains(id.as_str()) {
            assert!(
                cp.active.is_empty() && cp.standby.is_empty(),
                "{}: {id} should hold nothing, got {cp:?}",
                v.name
            );
        }
    }
    let followup = (v.strategy == "fallback-prior").then_some(PROBING_MS);
    assert_eq!(
        plan.followup_rebalance_ms, followup,
        "{}: follow-up",
        v.name
    );
    assert!(
        plan.diagnostics.is_empty(),
        "{}: {:?}",
        v.name,
        plan.diagnostics
    );
}

/// Kafka's `LegacyStickyTaskAssignorTest`, rack strategy `none`.
const LEGACY_STICKY: &[Vector] = &[
    // shouldAssignOneActiveTaskToEachProcessWhenTaskCountSameAsProcessCount.
    // tpt 3/3 = 1, no history: step 3 gives each task to the lowest-id
    // client with nothing yet: 0_0→c1, 0_1→c2, 0_2→c3.
    Vector {
        name: "one task per client",
        strategy: "sticky",
        standbys: 0,
        tasks: &["0_0", "0_1", "0_2"],
        stateless: NONE,
        clients: &[
            ("c1", 1, NONE, NONE),
            ("c2", 1, NONE, NONE),
            ("c3", 1, NONE, NONE),
        ],
        expected: &[
            ("c1", &["0_0"], NONE),
            ("c2", &["0_1"], NONE),
            ("c3", &["0_2"], NONE),
        ],
    },
    // shouldNotMigrateActiveTaskToOtherProcess, first half. tpt 3/2 = 1.
    // Step 1: 0_0→c1, 0_1→c2 (both within quota). Step 3: 0_2 has no
    // previous owner; loads c1 1, c2 1, equal capacity → lowest id c1.
    Vector {
        name: "previous owners keep their tasks",
        strategy: "sticky",
        standbys: 0,
        tasks: &["0_0", "0_1", "0_2"],
        stateless: NONE,
        clients: &[("c1", 1, &["0_0"], NONE), ("c2", 1, &["0_1"], NONE)],
        expected: &[("c1", &["0_0", "0_2"], NONE), ("c2", &["0_1"], NONE)],
    },
    // The same, flipped: step 1 0_1→c1, 0_2→c2; step 3 0_0 → tie → c1.
    Vector {
        name: "previous owners keep their tasks, flipped",
        strategy: "sticky",
        standbys: 0,
        tasks: &["0_0", "0_1", "0_2"],
        stateless: NONE,
        clients: &[("c1", 1, &["0_1"], NONE), ("c2", 1, &["0_2"], NONE)],
        expected: &[("c1", &["0_0", "0_1"], NONE), ("c2", &["0_2"], NONE)],
    },
    // shouldMigrateActiveTasksToNewProcessWithoutChangingAllAssignments.
    // tpt 3/3 = 1. Step 1: 0_0→c1, 0_1→c2, 0_2: c1 has 1 active, no quota.
    // Step 3: 0_2's owner c1 has reached capacity and c3 has room → balance;
    // no standby owner → least loaded: c3 (empty).
    Vector {
        name: "a new client takes what is over quota",
        strategy: "sticky",
        standbys: 0,
        tasks: &["0_0", "0_1", "0_2"],
        stateless: NONE,
        clients: &[
            ("c1", 1, &["0_0", "0_2"], NONE),
            ("c2", 1, &["0_1"], NONE),
            ("c3", 1, NONE, NONE),
        ],
        expected: &[
            ("c1", &["0_0"], NONE),
            ("c2", &["0_1"], NONE),
            ("c3", &["0_2"], NONE),
        ],
    },
    // shouldAssignBasedOnCapacity: c1 capacity 1, c2 capacity 2. Step 3:
    // 0_0→c1 (empty, lowest id), 0_1→c2 (empty), 0_2: loads c1 1/1, c2 1/2 → c2.
    Vector {
        name: "balanced by capacity",
        strategy: "sticky",
        standbys: 0,
        tasks: &["0_0", "0_1", "0_2"],
        stateless: NONE,
        clients: &[("c1", 1, NONE, NONE), ("c2", 2, NONE, NONE)],
        expected: &[("c1", &["0_0"], NONE), ("c2", &["0_1", "0_2"], NONE)],
    },
    // shouldAssignTasksEvenlyWithUnequalTopicGroupSizes (Kafka accepts 3/4 or
    // 4/3). tpt 7/2 = 3. Step 1 (ascending): c1 keeps 0_0, 0_1, 0_2; quota
    // reached. Step 3: 0_3, 0_4, 0_5: owner c1 (load 3) balances toward c2
    // (load 0, 1, 2) → c2. 1_0: c1 3, c2 3, same capacity → no client has
    // more room → stays on its owner c1.
    Vector {
        name: "unequal topic group sizes",
        strategy: "sticky",
        standbys: 0,
        tasks: &["0_0", "0_1", "0_2", "0_3", "0_4", "0_5", "1_0"],
        stateless: NONE,
        clients: &[
            (
                "c1",
                1,
                &["0_0", "0_1", "0_2", "0_3", "0_4", "0_5", "1_0"],
                NONE,
            ),
            ("c2", 1, NONE, NONE),
        ],
        expected: &[
            ("c1", &["0_0", "0_1", "0_2", "1_0"], NONE),
            ("c2", &["0_3", "0_4", "0_5"], NONE),
        ],
    },
    // shouldKeepActiveTaskStickinessWhenMoreClientThanActiveTasks. Fewer
    // tasks than threads: tpt 3/5 = 0, nobody has quota, steps 1–2 place
    // nothing and every task is allocated: each owner has 0 replicas < its
    // capacity, so none balances and each task goes to its owner.
    Vector {
        name: "fewer tasks than threads: every task via allocate",
        strategy: "sticky",
        standbys: 0,
        tasks: &["0_0", "0_1", "0_2"],
        stateless: NONE,
        clients: &[
            ("c1", 1, &["0_0"], NONE),
            ("c2", 1, &["0_2"], NONE),
            ("c3", 1, &["0_1"], NONE),
            ("c4", 1, NONE, NONE),
            ("c5", 1, NONE, NONE),
        ],
        expected: &[
            ("c1", &["0_0"], NONE),
            ("c2", &["0_2"], NONE),
            ("c3", &["0_1"], NONE),
        ],
    },
    // The same test's second half: owners c2, c4, c5 keep their tasks.
    Vector {
        name: "fewer tasks than threads, other owners",
        strategy: "sticky",
        standbys: 0,
        tasks: &["0_0", "0_1", "0_2"],
        stateless: NONE,
        clients: &[
            ("c1", 1, NONE, NONE),
            ("c2", 1, &["0_0"], NONE),
            ("c3", 1, NONE, NONE),
            ("c4", 1, &["0_2"], NONE),
            ("c5", 1, &["0_1"], NONE),
        ],
        expected: &[
            ("c2", &["0_0"], NONE),
            ("c4", &["0_2"], NONE),
            ("c5", &["0_1"], NONE),
        ],
    },
    // shouldAssignTasksToClientWithPreviousStandbyTasks. tpt 1. Step 2: each
    // task goes to its only previous standby owner, which has quota.
    Vector {
        name: "previous standby owners take tasks without an owner",
        strategy: "sticky",
        standbys: 0,
        tasks: &["0_0", "0_1", "0_2"],
        stateless: NONE,
        clients: &[
            ("c1", 1, NONE, &["0_2"]),
            ("c2", 1, NONE, &["0_1"]),
            ("c3", 1, NONE, &["0_0"]),
        ],
        expected: &[
            ("c1", &["0_2"], NONE),
            ("c2", &["0_1"], NONE),
            ("c3", &["0_0"], NONE),
        ],
    },
    // shouldAssignBasedOnCapacityWhenMultipleClientHaveStandbyTasks. tpt 1.
    // Step 1: 0_0→c1, 0_2→c2. Step 2: 0_1's standby owners ascending: c1
    // (1 active, quota 1: none left), c2 (1 active, quota 2) → c2.
    Vector {
        name: "the standby owner with quota left",
        strategy: "sticky",
        standbys: 0,
        tasks: &["0_0", "0_1", "0_2"],
        stateless: NONE,
        clients: &[("c1", 1, &["0_0"], &["0_1"]), ("c2", 2, &["0_2"], &["0_1"])],
        expected: &[("c1", &["0_0"], NONE), ("c2", &["0_1", "0_2"], NONE)],
    },
    // Two standby owners with quota: step 2 takes the lowest id (Kafka:
    // HashSet order). tpt 1: 0_0→c1; 0_1 no history → c2 (empty).
    Vector {
        name: "standby owners are tried in id order",
        strategy: "sticky",
        standbys: 0,
        tasks: &["0_0", "0_1"],
        stateless: NONE,
        clients: &[("c1", 1, NONE, &["0_0"]), ("c2", 1, NONE, &["0_0"])],
        expected: &[("c1", &["0_0"], NONE), ("c2", &["0_1"], NONE)],
    },
    // The least-loaded previous standby owner when the owner must balance.
    // tpt 2/5 = 0, so step 2 cannot use c3's standby. Step 3: 0_0→c1 (owner,
    // 0 replicas). 0_1: owner c1 has reached capacity 1 while c2 and c3 have
    // room → balance; its standby owner c3 (0 of 2) need not balance → c3,
    // although least loaded alone would pick c2 (empty, lower id).
    Vector {
        name: "balancing prefers the previous standby owner",
        strategy: "sticky",
        standbys: 0,
        tasks: &["0_0", "0_1"],
        stateless: NONE,
        clients: &[
            ("c1", 1, &["0_0", "0_1"], NONE),
            ("c2", 2, NONE, NONE),
            ("c3", 2, NONE, &["0_1"]),
        ],
        expected: &[("c1", &["0_0"], NONE), ("c3", &["0_1"], NONE)],
    },
    // shouldAssignMultipleReplicasOfStandbyTask (Kafka asserts exactly this).
    // Actives stay (tpt 1). Standbys, candidates = clients not holding the
    // task: 0_0 among c2, c3 (load 1 each; 0_0 has no pairs yet) → c2, then
    // c3 (only candidate). 0_1 among c1 (load 1), c3 (load 2): c1 holds only
    // 0_0 and {0_0, 0_1} is already a pair → the pair rule skips c1 → c3;
    // then c1. 0_2 among c1, c2: every pair is used → least loaded, c1; then c2.
    Vector {
        name: "task pairs spread standby replicas",
        strategy: "sticky",
        standbys: 2,
        tasks: &["0_0", "0_1", "0_2"],
        stateless: NONE,
        clients: &[
            ("c1", 1, &["0_0"], NONE),
            ("c2", 1, &["0_1"], NONE),
            ("c3", 1, &["0_2"], NONE),
        ],
        expected: &[
            ("c1", &["0_0"], &["0_1", "0_2"]),
            ("c2", &["0_1"], &["0_0", "0_2"]),
            ("c3", &["0_2"], &["0_0", "0_1"]),
        ],
    },
    // shouldNotAssignStandbyTaskReplicasWhenNoClientAvailableWithoutHavingTheTaskAssigned.
    Vector {
        name: "no standby without a second client",
        strategy: "sticky",
        standbys: 1,
        tasks: &["0_0"],
        stateless: NONE,
        clients: &[("c1", 1, NONE, NONE)],
        expected: &[("c1", &["0_0"], NONE)],
    },
    // shouldAssignAtLeastOneTaskToEachClientIfPossible. tpt 3/5 = 0. Step 3:
    // a client with nothing wins at once, lowest id first: c1, c2, c3 —
    // although c1's 3 threads would have the most room.
    Vector {
        name: "every client gets a task when possible",
        strategy: "sticky",
        standbys: 0,
        tasks: &["0_0", "0_1", "0_2"],
        stateless: NONE,
        clients: &[
            ("c1", 3, NONE, NONE),
            ("c2", 1, NONE, NONE),
            ("c3", 1, NONE, NONE),
        ],
        expected: &[
            ("c1", &["0_0"], NONE),
            ("c2", &["0_1"], NONE),
            ("c3", &["0_2"], NONE),
        ],
    },
    // shouldAssignMoreTasksToClientWithMoreCapacity (Kafka: 4 and 8). Step 3,
    // ascending, loads c1 (1 thread) / c2 (2 threads), ties to the larger
    // capacity: 0_0→c1 (empty), 0_1→c2 (empty), 0_2 1/0.5→c2, 1_0 1/1→c2,
    // 1_1 1/1.5→c1, 1_2 2/1.5→c2, 2_0 2/2→c2, 2_1 2/2.5→c1, 2_2 3/2.5→c2,
    // 3_0 3/3→c2, 3_1 3/3.5→c1, 3_2 4/3.5→c2.
    Vector {
        name: "more capacity, more tasks",
        strategy: "sticky",
        standbys: 0,
        tasks: &[
            "0_0", "0_1", "0_2", "1_0", "1_1", "1_2", "2_0", "2_1", "2_2", "3_0", "3_1", "3_2",
        ],
        stateless: NONE,
        clients: &[("c1", 1, NONE, NONE), ("c2", 2, NONE, NONE)],
        expected: &[
            ("c1", &["0_0", "1_1", "2_1", "3_1"], NONE),
            (
                "c2",
                &["0_1", "0_2", "1_0", "1_2", "2_0", "2_2", "3_0", "3_2"],
                NONE,
            ),
        ],
    },
    // shouldEvenlyDistributeByTaskIdAndPartition (Kafka asserts exactly this):
    // equal loads and capacities tie to the lowest id, so sorted tasks go
    // round robin: client k gets sorted positions k, k+4, k+8, k+12.
    Vector {
        name: "round robin by task id",
        strategy: "sticky",
        standbys: 0,
        tasks: &[
            "0_0", "0_1", "0_2", "0_3", "0_4", "0_5", "0_6", "0_7", "1_0", "1_1", "1_2", "1_3",
            "1_4", "1_5", "1_6", "1_7",
        ],
        stateless: NONE,
        clients: &[
            ("c1", 4, NONE, NONE),
            ("c2", 4, NONE, NONE),
            ("c3", 4, NONE, NONE),
            ("c4", 4, NONE, NONE),
        ],
        expected: &[
            ("c1", &["0_0", "0_4", "1_0", "1_4"], NONE),
            ("c2", &["0_1", "0_5", "1_1", "1_5"], NONE),
            ("c3", &["0_2", "0_6", "1_2", "1_6"], NONE),
            ("c4", &["0_3", "0_7", "1_3", "1_7"], NONE),
        ],
    },
    // shouldNotHaveSameAssignmentOnAnyTwoHosts. Actives round robin. Standbys:
    // 0_0 among c2, c3, c4 (load 1; no pairs) → c2. 0_1 among c1, c3, c4: c1
    // holds 0_0, an old pair → c3. 0_2 among c1 (1), c4 (1), c2 (2): c1 forms
    // {0_0, 0_2} → c1. 0_3 among c1, c2, c3 (load 2 each) → c1. Legacy
    // sticky does not balance standbys well: c1 holds 3, c4 holds 1.
    Vector {
        name: "no two clients hold the same tasks",
        strategy: "sticky",
        standbys: 1,
        tasks: &["0_0", "0_1", "0_2", "0_3"],
        stateless: NONE,
        clients: &[
            ("c1", 1, NONE, NONE),
            ("c2", 1, NONE, NONE),
            ("c3", 1, NONE, NONE),
            ("c4", 1, NONE, NONE),
        ],
        expected: &[
            ("c1", &["0_0"], &["0_2", "0_3"]),
            ("c2", &["0_1"], &["0_0"]),
            ("c3", &["0_2"], &["0_1"]),
            ("c4", &["0_3"], NONE),
        ],
    },
    // shouldReBalanceTasksAcrossAllClientsWhenCapacityAndTaskCountTheSame.
    // tpt 1: c3 keeps 0_0; 0_1, 0_2, 0_3 balance away to the empty c1, c2, c4.
    Vector {
        name: "rebalance over all clients",
        strategy: "sticky",
        standbys: 0,
        tasks: &["0_0", "0_1", "0_2", "0_3"],
        stateless: NONE,
        clients: &[
            ("c1", 1, NONE, NONE),
            ("c2", 1, NONE, NONE),
            ("c3", 1, &["0_0", "0_1", "0_2", "0_3"], NONE),
            ("c4", 1, NONE, NONE),
        ],
        expected: &[
            ("c1", &["0_1"], NONE),
            ("c2", &["0_2"], NONE),
            ("c3", &["0_0"], NONE),
            ("c4", &["0_3"], NONE),
        ],
    },
    // shouldReBalanceTasksAcrossClientsWhenCapacityLessThanTaskCount. tpt
    // 4/3 = 1: c3 keeps 0_0; 0_1→c1, 0_2→c2 (empty); 0_3: all loads 1, same
    // capacity → nobody has more room → its owner c3.
    Vector {
        name: "rebalance with fewer threads than tasks",
        strategy: "sticky",
        standbys: 0,
        tasks: &["0_0", "0_1", "0_2", "0_3"],
        stateless: NONE,
        clients: &[
            ("c1", 1, NONE, NONE),
            ("c2", 1, NONE, NONE),
            ("c3", 1, &["0_0", "0_1", "0_2", "0_3"], NONE),
        ],
        expected: &[
            ("c1", &["0_1"], NONE),
            ("c2", &["0_2"], NONE),
            ("c3", &["0_0", "0_3"], NONE),
        ],
    },
    // shouldRebalanceTasksToClientsBasedOnCapacity. tpt 3/3 = 1: c2 keeps
    // 0_0; 0_2 balances to c3 (empty); 0_3: c2 load 1 > c3 1/2 → c3.
    Vector {
        name: "rebalance by capacity",
        strategy: "sticky",
        standbys: 0,
        tasks: &["0_0", "0_2", "0_3"],
        stateless: NONE,
        clients: &[
            ("c2", 1, &["0_0", "0_2", "0_3"], NONE),
            ("c3", 2, NONE, NONE),
        ],
        expected: &[("c2", &["0_0"], NONE), ("c3", &["0_2", "0_3"], NONE)],
    },
    // shouldNotMoveAnyTasksWhenNewTasksAdded. tpt 6/2 = 3: step 1 keeps all
    // four; 0_4: loads 2/2 → c1; 0_5: 3/2 → c2.
    Vector {
        name: "new tasks do not move old ones",
        strategy: "sticky",
        standbys: 0,
        tasks: &["0_0", "0_1", "0_2", "0_3", "0_4", "0_5"],
        stateless: NONE,
        clients: &[
            ("c1", 1, &["0_0", "0_1"], NONE),
            ("c2", 1, &["0_2", "0_3"], NONE),
        ],
        expected: &[
            ("c1", &["0_0", "0_1", "0_4"], NONE),
            ("c2", &["0_2", "0_3", "0_5"], NONE),
        ],
    },
    // shouldAssignNewTasksToNewClientWhenPreviousTasksAssignedToOldClients.
    // tpt 2: step 1 keeps all four; 0_4 → c3 (empty); 0_5 → c3 (load 1 < 2).
    Vector {
        name: "new tasks go to the new client",
        strategy: "sticky",
        standbys: 0,
        tasks: &["0_0", "0_1", "0_2", "0_3", "0_4", "0_5"],
        stateless: NONE,
        clients: &[
            ("c1", 1, &["0_1", "0_2"], NONE),
            ("c2", 1, &["0_0", "0_3"], NONE),
            ("c3", 1, NONE, NONE),
        ],
        expected: &[
            ("c1", &["0_1", "0_2"], NONE),
            ("c2", &["0_0", "0_3"], NONE),
            ("c3", &["0_4", "0_5"], NONE),
        ],
    },
    // shouldAssignTasksNotPreviouslyActiveToNewClient (Kafka asserts exactly
    // this). tpt 12/4 = 3: step 1 keeps the nine previous actives (3 per
    // owner = quota). Step 2, ascending: 0_2's standby owners c2, c3 have no
    // quota, c4 has → c4; likewise 0_3 and 1_0 → c4.
    Vector {
        name: "tasks not previously active go to the new client",
        strategy: "sticky",
        standbys: 0,
        tasks: &[
            "0_0", "0_1", "0_2", "0_3", "1_0", "1_1", "1_2", "1_3", "2_0", "2_1", "2_2", "2_3",
        ],
        stateless: NONE,
        clients: &[
            (
                "c1",
                1,
                &["0_1", "1_2", "1_3"],
                &["0_0", "1_1", "2_0", "2_1", "2_3"],
            ),
            (
                "c2",
                1,
                &["0_0", "1_1", "2_2"],
                &[
                    "0_1", "0_2", "0_3", "1_0", "1_2", "1_3", "2_0", "2_1", "2_3",
                ],
            ),
            ("c3", 1, &["2_0", "2_1", "2_3"], &["0_2", "1_2"]),
            (
                "c4",
                1,
                NONE,
                &[
                    "0_0", "0_1", "0_2", "0_3", "1_0", "1_1", "1_2", "1_3", "2_0", "2_1", "2_2",
                    "2_3",
                ],
            ),
        ],
        expected: &[
            ("c1", &["0_1", "1_2", "1_3"], NONE),
            ("c2", &["0_0", "1_1", "2_2"], NONE),
            ("c3", &["2_0", "2_1", "2_3"], NONE),
            ("c4", &["0_2", "0_3", "1_0"], NONE),
        ],
    },
    // shouldAssignTasksNotPreviouslyActiveToMultipleNewClients (Kafka asserts
    // exactly this). tpt 3: c1, c2 keep theirs. Step 2: 0_2, 0_3, 1_0 → c4
    // (c2 is full); 2_0, 2_1, 2_3 → c3 (c1 and c2 are full).
    Vector {
        name: "tasks not previously active go to bounced clients",
        strategy: "sticky",
        standbys: 0,
        tasks: &[
            "0_0", "0_1", "0_2", "0_3", "1_0", "1_1", "1_2", "1_3", "2_0", "2_1", "2_2", "2_3",
        ],
        stateless: NONE,
        clients: &[
            (
                "c1",
                1,
                &["0_1", "1_2", "1_3"],
                &["0_0", "1_1", "2_0", "2_1", "2_3"],
            ),
            (
                "c2",
                1,
                &["0_0", "1_1", "2_2"],
                &[
                    "0_1", "0_2", "0_3", "1_0", "1_2", "1_3", "2_0", "2_1", "2_3",
                ],
            ),
            ("c3", 1, NONE, &["2_0", "2_1", "2_3"]),
            ("c4", 1, NONE, &["0_2", "0_3", "1_0"]),
        ],
        expected: &[
            ("c1", &["0_1", "1_2", "1_3"], NONE),
            ("c2", &["0_0", "1_1", "2_2"], NONE),
            ("c3", &["2_0", "2_1", "2_3"], NONE),
            ("c4", &["0_2", "0_3", "1_0"], NONE),
        ],
    },
    // shouldAssignTasksToNewClient. tpt 1: c1 keeps 0_1; 0_2 balances to c2.
    Vector {
        name: "a new client takes one task",
        strategy: "sticky",
        standbys: 0,
        tasks: &["0_1", "0_2"],
        stateless: NONE,
        clients: &[("c1", 1, &["0_1", "0_2"], NONE), ("c2", 1, NONE, NONE)],
        expected: &[("c1", &["0_1"], NONE), ("c2", &["0_2"], NONE)],
    },
    // shouldAssignTasksToNewClientWithoutFlippingAssignmentBetweenExistingClients.
    // tpt 2: c1 keeps 0_0, 0_1; c2 keeps 0_3, 0_4. 0_2: c1 balances → c3
    // (empty); 0_5: c2 (load 2) balances → c3 (load 1).
    Vector {
        name: "no flipping between existing clients",
        strategy: "sticky",
        standbys: 0,
        tasks: &["0_0", "0_1", "0_2", "0_3", "0_4", "0_5"],
        stateless: NONE,
        clients: &[
            ("c1", 1, &["0_0", "0_1", "0_2"], NONE),
            ("c2", 1, &["0_3", "0_4", "0_5"], NONE),
            ("c3", 1, NONE, NONE),
        ],
        expected: &[
            ("c1", &["0_0", "0_1"], NONE),
            ("c2", &["0_3", "0_4"], NONE),
            ("c3", &["0_2", "0_5"], NONE),
        ],
    },
    // ...WithoutFlippingAssignmentBetweenExistingAndBouncedClients. tpt 7/3 =
    // 2. Step 1: c1 keeps 0_0, 0_1. Step 2: 0_3, 0_4 → c2 (its standbys;
    // 0_5 finds c2 at quota). Step 3: 0_2: c1 balances → c3 (empty). 0_5: no
    // owner; standby owner c2 (load 2) balances, so does the standby
    // fallback (c2 again) → least loaded c3 (load 1). 0_6: owner c1 (load 2)
    // has reached capacity but every client has load 2 → stays on c1.
    Vector {
        name: "no flipping between existing and bounced clients",
        strategy: "sticky",
        standbys: 0,
        tasks: &["0_0", "0_1", "0_2", "0_3", "0_4", "0_5", "0_6"],
        stateless: NONE,
        clients: &[
            ("c1", 1, &["0_0", "0_1", "0_2", "0_6"], NONE),
            ("c2", 1, NONE, &["0_3", "0_4", "0_5"]),
            ("c3", 1, NONE, NONE),
        ],
        expected: &[
            ("c1", &["0_0", "0_1", "0_6"], NONE),
            ("c2", &["0_3", "0_4"], NONE),
            ("c3", &["0_2", "0_5"], NONE),
        ],
    },
    // The contrast to shouldViolateBalanceToPreserveActiveTaskStickiness:
    // without must-preserve, tpt 3/2 = 1: c1 keeps 0_0; 0_1 balances to c2
    // (empty); 0_2: loads 1 and 1 → no client has more room → c1.
    Vector {
        name: "sticky balances what fallback-prior keeps",
        strategy: "sticky",
        standbys: 0,
        tasks: &["0_0", "0_1", "0_2"],
        stateless: NONE,
        clients: &[
            ("c1", 1, &["0_0", "0_1", "0_2"], NONE),
            ("c2", 1, NONE, NONE),
        ],
        expected: &[("c1", &["0_0", "0_2"], NONE), ("c2", &["0_1"], NONE)],
    },
    // shouldAssignTopicGroupIdEvenlyAcrossClientsWithStandByTasks. tpt 6/6 =
    // 1; actives round robin: c1 {1_0, 2_0}, c2 {1_1, 2_1}, c3 {1_2, 2_2}
    // (Kafka's check: one of each group per client). Standbys, by load, then
    // the pair rule: 1_0 → c2 (c2, c3 tie at 1/2); 1_1 → c1 (c1, c3 tie);
    // 1_2 → c1 (c1, c2 tie at 3/2); 2_0 → c3 (1/2 < c2's 3/2, and {2_0, 2_2}
    // is new); 2_1 → c3 (3/2 < c1's 2); 2_2 → c2 (3/2 < c1's 2).
    Vector {
        name: "topic groups spread with standbys",
        strategy: "sticky",
        standbys: 1,
        tasks: &["1_0", "1_1", "1_2", "2_0", "2_1", "2_2"],
        stateless: NONE,
        clients: &[
            ("c1", 2, NONE, NONE),
            ("c2", 2, NONE, NONE),
            ("c3", 2, NONE, NONE),
        ],
        expected: &[
            ("c1", &["1_0", "2_0"], &["1_1", "1_2"]),
            ("c2", &["1_1", "2_1"], &["1_0", "2_2"]),
            ("c3", &["1_2", "2_2"], &["2_0", "2_1"]),
        ],
    },
    // A previous owner that lost the active is the first choice for its
    // standby. tpt 1. Actives: c1 keeps 0_0; 0_1 balances to c2, 0_2 → c3.
    // Standbys: 0_0 among c2, c3 (tie) → c2. 0_1 among c1, c3: its previous
    // owner c1 (load 1) need not balance (nobody has less) → c1. 0_2 among
    // c1, c2 (load 2 each; 0_2 has no pairs) → c1.
    Vector {
        name: "the previous owner gets the standby",
        strategy: "sticky",
        standbys: 1,
        tasks: &["0_0", "0_1", "0_2"],
        stateless: NONE,
        clients: &[
            ("c1", 1, &["0_0", "0_1"], NONE),
            ("c2", 1, NONE, NONE),
            ("c3", 1, NONE, NONE),
        ],
        expected: &[
            ("c1", &["0_0"], &["0_1", "0_2"]),
            ("c2", &["0_1"], &["0_0"]),
            ("c3", &["0_2"], NONE),
        ],
    },
    // Standbys only for stateful tasks: 0_0 → c1, 1_0 (stateless) → c2;
    // 0_0's standby → c2, the only other client; 1_0 gets none.
    Vector {
        name: "no standbys of stateless tasks",
        strategy: "sticky",
        standbys: 1,
        tasks: &["0_0", "1_0"],
        stateless: &["1_0"],
        clients: &[("c1", 1, NONE, NONE), ("c2", 1, NONE, NONE)],
        expected: &[("c1", &["0_0"], NONE), ("c2", &["1_0"], &["0_0"])],
    },
    // A task listed as previous active by two clients has one previous
    // owner: the lowest id, c1 (Kafka: whichever its map kept). tpt 1: c1
    // keeps 0_0; 0_1 (owner c1, no quota) balances → c2, which gets it as
    // the least loaded, not as an owner.
    Vector {
        name: "two previous owners: the lowest id is the owner",
        strategy: "sticky",
        standbys: 0,
        tasks: &["0_0", "0_1"],
        stateless: NONE,
        clients: &[("c1", 1, &["0_0", "0_1"], NONE), ("c2", 1, &["0_1"], NONE)],
        expected: &[("c1", &["0_0"], NONE), ("c2", &["0_1"], NONE)],
    },
];

/// Kafka's `FallbackPriorTaskAssignorTest` and the must-preserve test of
/// `LegacyStickyTaskAssignorTest`.
const FALLBACK_PRIOR: &[Vector] = &[
    // shouldViolateBalanceToPreserveActiveTaskStickiness and
    // FallbackPriorTaskAssignorTest: step 1 ignores the quota, so all three
    // previous actives stay on c1 though c2 is empty; a follow-up is asked.
    Vector {
        name: "fallback-prior keeps every previous active",
        strategy: "fallback-prior",
        standbys: 0,
        tasks: &["0_0", "0_1", "0_2"],
        stateless: NONE,
        clients: &[
            ("c1", 1, &["0_0", "0_1", "0_2"], NONE),
            ("c2", 1, NONE, NONE),
        ],
        expected: &[("c1", &["0_0", "0_1", "0_2"], NONE)],
    },
    // The same with a standby: actives as above; each standby has one
    // candidate, c2.
    Vector {
        name: "fallback-prior still places standbys",
        strategy: "fallback-prior",
        standbys: 1,
        tasks: &["0_0", "0_1", "0_2"],
        stateless: NONE,
        clients: &[
            ("c1", 1, &["0_0", "0_1", "0_2"], NONE),
            ("c2", 1, NONE, NONE),
        ],
        expected: &[
            ("c1", &["0_0", "0_1", "0_2"], NONE),
            ("c2", NONE, &["0_0", "0_1", "0_2"]),
        ],
    },
    // Two previous owners: the task stays on the lowest id, c1.
    Vector {
        name: "fallback-prior with two previous owners",
        strategy: "fallback-prior",
        standbys: 0,
        tasks: &["0_0", "0_1"],
        stateless: NONE,
        clients: &[("c1", 1, &["0_0", "0_1"], NONE), ("c2", 1, &["0_1"], NONE)],
        expected: &[("c1", &["0_0", "0_1"], NONE)],
    },
    // Tasks without a previous owner are allocated as in sticky: tpt 4/2 =
    // 2; c1 keeps 0_0, 0_1, 0_2 regardless; 0_3: c1 (load 3) balances → c2.
    Vector {
        name: "fallback-prior allocates the rest",
        strategy: "fallback-prior",
        standbys: 0,
        tasks: &["0_0", "0_1", "0_2", "0_3"],
        stateless: NONE,
        clients: &[
            ("c1", 1, &["0_0", "0_1", "0_2"], NONE),
            ("c2", 1, NONE, NONE),
        ],
        expected: &[("c1", &["0_0", "0_1", "0_2"], NONE), ("c2", &["0_3"], NONE)],
    },
];

#[test]
fn legacy_sticky_vectors() {
    for v in LEGACY_STICKY {
        check(v);
    }
}

#[test]
fn fallback_prior_vectors() {
    for v in FALLBACK_PRIOR {
        check(v);
    }
}

#[test]
fn rack_awareness_is_reported_not_applied() {
    let v = &LEGACY_STICKY[1];
    let base = vector_state(v);
    for strategy in [
        RackAwareStrategy::MinTraffic,
        RackAwareStrategy::BalanceSubtopology,
    ] {
        let config = AssignmentConfig {
            rack_aware_strategy: strategy,
            ..base.config().clone()
        };
        let state = base.with_config(config).expect("valid config");
        let sticky = support::run("sticky", &state);
        assert_eq!(sticky.diagnostics.len(), 1, "{:?}", sticky.diagnostics);
        assert!(sticky.diagnostics[0].contains("rack_aware_strategy"));
        assert_eq!(sticky.clients, support::run("sticky", &base).clients);
        // Kafka's fallback-prior never optimises for racks: nothing to report.
        let fallback = support::run("fallback-prior", &state);
        assert!(
            fallback.diagnostics.is_empty(),
            "{:?}",
            fallback.diagnostics
        );
    }
}

#[test]
fn no_clients_gives_an_empty_plan() {
    let state = support::state(
        AssignmentConfig::default(),
        vec![Task::stateful(tid("0_0"), 10)],
        Vec::new(),
    );
    for name in ["sticky", "fallback-prior"] {
        let plan = support::run(name, &state);
        assert!(plan.clients.is_empty());
    }
}

/// A cluster of Kafka's scale-test size gets a valid plan: 2 000 tasks, 40
/// clients, 2 standbys, half the history missing. (Speed is measured in
/// benches/, not asserted here.)
#[test]
fn a_large_cluster_gets_a_valid_plan() {
    let tasks: Vec<Task> = (0..20)
        .flat_map(|s| (0..100).map(move |p| Task::stateful(TaskId::new(s, p), 1_000)))
        .collect();
    let clients: Vec<Client> = (0..40)
        .map(|c| {
            let prev = tasks
                .iter()
                .enumerate()
                .filter(|(i, _)| i % 40 == c && i % 80 < 40)
                .map(|(_, t)| t.id);
            Client::new(format!("c{c:02}"), 1 + (c as u32 % 3)).with_previous_active(prev)
        })
        .collect();
    let config = AssignmentConfig {
        num_standby_replicas: 2,
        ..AssignmentConfig::default()
    };
    let state = support::state(config, tasks, clients);
    for name in ["sticky", "fallback-prior"] {
        let plan = support::run(name, &state);
        assert_valid_assignment(&state, &plan, 0);
    }
}

// ---------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------

/// Client ids whose string order is not their "numeric" order.
const ID_POOL: &[&str] = &["0", "1", "B", "a", "c1", "c10", "c2", "c9", "x y", "~"];

/// What a client knew of one task before the rebalance.
#[derive(Debug, Clone, Copy)]
enum History {
    Nothing,
    Active,
    Standby,
}

fn history() -> impl Strategy<Value = History> {
    prop_oneof![
        6 => Just(History::Nothing),
        2 => Just(History::Active),
        2 => Just(History::Standby),
    ]
}

/// A random cluster: up to 4 subtopologies of up to 8 partitions (stateful,
/// stateless or mixed), 1 to 8 clients of 1 to 4 threads, a random history
/// (a task may be previously active on several clients, or on none), 0 to 3
/// standbys and now and then a rack strategy.
fn cluster() -> impl Strategy<Value = ClusterState> {
    (
        vec((0..3u8, 1..=8u32), 1..=4),
        vec(1..=4u32, 1..=8),
        0..=3u32,
        prop_oneof![
            4 => Just(RackAwareStrategy::None),
            1 => Just(RackAwareStrategy::MinTraffic),
        ],
        60_000..=600_000u64,
    )
        .prop_flat_map(|(subs, caps, standbys, rack, probing)| {
            let tasks: usize = subs.iter().map(|&(_, p)| p as usize).sum();
            let n = caps.len();
            (
                Just((subs, caps, standbys, rack, probing)),
                subsequence(ID_POOL, n),
                vec(history(), tasks * n),
            )
        })
        .prop_map(|((subs, caps, standbys, rack, probing), ids, cells)| {
            let mut tasks = Vec::new();
            for (s, &(kind, partitions)) in subs.iter().enumerate() {
                for p in 0..partitions {
                    let id = TaskId::new(s as u32, p);
                    let stateful = kind == 0 || (kind == 2 && p % 2 == 0);
                    tasks.push(if stateful {
                        Task::stateful(id, 1_000)
                    } else {
                        Task::stateless(id)
                    });
                }
            }
            let clients = caps
                .iter()
                .enumerate()
                .map(|(c, &cap)| {
                    let mut client = Client::new(ids[c], cap);
                    for (k, task) in tasks.iter().enumerate() {
                        match cells[c * tasks.len() + k] {
                            History::Nothing => {}
                            History::Active => {
                                client.previous_active.insert(task.id);
                            }
                            History::Standby if task.stateful => {
                                client.previous_standby.insert(task.id);
                            }
                            History::Standby => {}
                        }
                    }
                    client
                })
                .collect();
            let config = AssignmentConfig {
                num_standby_replicas: standbys,
                probing_rebalance_interval_ms: probing,
                rack_aware_strategy: rack,
                ..AssignmentConfig::default()
            };
            support::state(config, tasks, clients)
        })
}

/// The previous owner of each task as this port records it: the lowest-id
/// client listing it as previously active.
fn previous_owners(state: &ClusterState) -> BTreeMap<TaskId, &str> {
    let mut owners = BTreeMap::new();
    for client in state.clients() {
        for &t in &client.previous_active {
            owners.entry(t).or_insert(client.id.as_str());
        }
    }
    owners
}

fn owner_of(plan: &Plan, task: TaskId) -> Option<&str> {
    plan.clients
        .iter()
        .find(|(_, cp)| cp.active.contains(&task))
        .map(|(id, _)| id.as_str())
}

fn with_standbys(state: &ClusterState, standbys: u32) -> ClusterState {
    let config = AssignmentConfig {
        num_standby_replicas: standbys,
        ..state.config().clone()
    };
    state.with_config(config).expect("valid config")
}

fn without_previous_actives(state: &ClusterState) -> ClusterState {
    let clients = state
        .clients()
        .iter()
        .map(|c| Client {
            previous_active: BTreeSet::new(),
            ..c.clone()
        })
        .collect();
    support::state(state.config().clone(), state.tasks().to_vec(), clients)
}

proptest! {
    #![proptest_config(support::proptest_config())]

    /// `validate` holds (inside `support::run`), Kafka's own validity check
    /// too, with no warm-ups; two runs agree; `sticky` asks for no follow-up
    /// and reports an unapplied rack strategy, `fallback-prior` always asks
    /// for one after the probing interval and reports nothing.
    #[test]
    fn plans_are_valid_deterministic_and_followups_fixed(state in cluster()) {
        for name in ["sticky", "fallback-prior"] {
            let plan = support::run(name, &state);
            assert_valid_assignment(&state, &plan, 0);
            prop_assert_eq!(plan.warmup_count(), 0);
            prop_assert_eq!(&plan, &support::run(name, &state), "{}: two runs differ", name);
            if name == "sticky" {
                prop_assert_eq!(plan.followup_rebalance_ms, None);
                let rack = state.config().rack_aware_strategy != RackAwareStrategy::None;
                prop_assert_eq!(plan.diagnostics.len(), usize::from(rack));
            } else {
                let probing = state.config().probing_rebalance_interval_ms;
                prop_assert_eq!(plan.followup_rebalance_ms, Some(probing));
                prop_assert!(plan.diagnostics.is_empty());
            }
        }
    }

    /// fallback-prior: every task with a previous active stays on its
    /// previous owner (the lowest-id client listing it, when several do) —
    /// step 1 ignores the quota and nothing later moves an active.
    #[test]
    fn fallback_prior_keeps_every_previous_active(state in cluster()) {
        let plan = support::run("fallback-prior", &state);
        for (task, owner) in previous_owners(&state) {
            prop_assert_eq!(owner_of(&plan, task), Some(owner), "task {}", task);
        }
    }

    /// sticky: with `tpt = |tasks| / Σ capacity`, every previous owner keeps
    /// its `capacity × tpt` lowest-id previous actives (all of them if it had
    /// fewer). Step 1 visits tasks ascending and only ever gives an owner its
    /// own previous actives, so when it reaches a task the owner holds
    /// exactly its lower-id previous actives; nothing later moves an active.
    #[test]
    fn sticky_keeps_previous_actives_within_quota(state in cluster()) {
        let plan = support::run("sticky", &state);
        let total: u64 = state.clients().iter().map(|c| u64::from(c.capacity)).sum();
        let tpt = state.tasks().len() as u64 / total;
        let mut kept: BTreeMap<&str, u64> = BTreeMap::new();
        for (task, owner) in previous_owners(&state) {
            let capacity = state.client(&owner.into()).expect("owner exists").capacity;
            let rank = kept.entry(owner).or_default();
            if *rank < u64::from(capacity) * tpt {
                prop_assert_eq!(owner_of(&plan, task), Some(owner), "task {} within quota", task);
            }
            *rank += 1;
        }
    }

    /// Actives are placed before standbys, so they do not depend on
    /// `num_standby_replicas`.
    #[test]
    fn actives_do_not_depend_on_standbys(state in cluster(), other in 0..=3u32) {
        let changed = with_standbys(&state, other);
        for name in ["sticky", "fallback-prior"] {
            let a = support::run(name, &state);
            let b = support::run(name, &changed);
            for (id, cp) in &a.clients {
                prop_assert_eq!(&cp.active, &b.clients[id].active, "{}: actives of {}", name, id);
            }
        }
    }

    /// The strategies differ only in step 1's quota: without previous
    /// actives, or when every owner's previous actives fit its quota, they
    /// place everything alike. Without any history, step 3 is greedy
    /// least-loaded per thread, so actives are balanced (max − min ≤ 1).
    #[test]
    fn strategies_agree_where_the_quota_does_not_bind(state in cluster()) {
        let total: u64 = state.clients().iter().map(|c| u64::from(c.capacity)).sum();
        let tpt = state.tasks().len() as u64 / total;
        let mut owned: BTreeMap<&str, u64> = BTreeMap::new();
        for owner in previous_owners(&state).into_values() {
            *owned.entry(owner).or_default() += 1;
        }
        let within_quota = owned.iter().all(|(&owner, &n)| {
            let capacity = state.client(&owner.into()).expect("owner exists").capacity;
            n <= u64::from(capacity) * tpt
        });
        let fresh = without_previous_actives(&state);
        let mut cases = vec![&fresh];
        if within_quota {
            cases.push(&state);
        }
        for s in cases {
            let sticky = support::run("sticky", s);
            let fallback = support::run("fallback-prior", s);
            prop_assert_eq!(&sticky.clients, &fallback.clients);
        }
        let blank = support::state(
            state.config().clone(),
            state.tasks().to_vec(),
            state.clients().iter().map(|c| Client::new(c.id.clone(), c.capacity)).collect(),
        );
        assert_balanced_active(&blank, &support::run("sticky", &blank));
    }
}
