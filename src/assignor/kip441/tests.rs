//! Unit tests of the KIP-441 steps that the full assignor cannot reach alone:
//! Kafka's `TaskMovementTest`, `ConstrainedPrioritySetTest`,
//! `ClientTagAwareStandbyTaskAssignorTest` and `StandbyTaskAssignorFactoryTest`
//! (Kafka Streams' unit tests of those names; `docs/algorithms.md`, *Kafka's
//! unit tests*), run on hand-made intermediate placements.
//!
//! Kafka's test clients `UUID_n` / `PID_n` are `cn` here (ids sort the same
//! way up to 9). Kafka's `TaskMovementTest` passes caught-up sets and lag
//! orders explicitly; here they follow from lags: 0 for "caught up", 10 000
//! for "not", with an acceptable recovery lag of 100.
//!
//! Not here: `isAllowedTaskMovement(src, dst, task, clients)` (the
//! single-task tag-diversity check of KIP-925's standby optimiser, tested with
//! it in `src/assignor/rack/` and `tests/it/rack.rs`) and the factory's "valid
//! client racks → tag-aware on `rack`" branch (inside the HA assignor the
//! factory never gets a rack helper; `docs/algorithms.md`, *kip441: standbys*). `FallbackPriorTaskAssignor` is
//! tested in `tests/it/sticky.rs`.

use std::collections::BTreeSet;

use crate::model::{AssignmentConfig, Client, ClientIx, ClusterState, Lag, Task, TaskId, TaskIx};

use super::balance;
use super::lags::LagIndex;
use super::movement::{self, Budget};
use super::standby::StandbyPlacer;
use super::work::{Replica, Role, Work};

const END: u64 = 1_000_000;
/// Kafka's `Integer.MAX_VALUE` warm-ups: "unlimited".
const UNLIMITED: u32 = u32::MAX;

fn tid(s: &str) -> TaskId {
    s.parse().expect("test task id")
}

fn config(acceptable: u64, standbys: u32, tags: &[&str]) -> AssignmentConfig {
    AssignmentConfig {
        acceptable_recovery_lag: acceptable,
        num_standby_replicas: standbys,
        rack_aware_assignment_tags: tags.iter().map(|s| s.to_string()).collect(),
        ..AssignmentConfig::default()
    }
}

/// A client with the given capacity and lags.
fn client(id: &str, capacity: u32, lags: &[(&str, u64)]) -> Client {
    lags.iter().fold(Client::new(id, capacity), |c, &(t, lag)| {
        c.with_lag(tid(t), Lag::Records(lag))
    })
}

/// A client with the given capacity and `key=value` tags.
fn tagged(id: &str, capacity: u32, tags: &[(&str, &str)]) -> Client {
    tags.iter()
        .fold(Client::new(id, capacity), |c, &(k, v)| c.with_tag(k, v))
}

/// A state and the `Work` being built on it, addressed by ids.
struct Fixture {
    state: ClusterState,
    work: Work,
}

impl Fixture {
    fn new(config: AssignmentConfig, tasks: &[&str], clients: Vec<Client>) -> Fixture {
        let tasks = tasks.iter().map(|s| Task::stateful(tid(s), END)).collect();
        let state = ClusterState::new(config, tasks, clients).expect("valid test state");
        let work = Work::new(&state);
        Fixture { state, work }
    }

    fn c(&self, id: &str) -> ClientIx {
        self.state
            .client_ixs()
            .find(|&c| self.state.clients()[c.index()].id.as_str() == id)
            .expect("test client")
    }

    fn t(&self, id: &str) -> TaskIx {
        self.state.task_ix(tid(id)).expect("test task")
    }

    /// Hand-places `tasks` on `client` in `role`.
    fn put(&mut self, client: &str, role: Role, tasks: &[&str]) {
        let c = self.c(client);
        for task in tasks {
            let t = self.t(task);
            self.work.assign(c, t, role);
        }
    }

    /// Stateful task positions in the given order.
    fn order(&self, tasks: &[&str]) -> Vec<TaskIx> {
        tasks.iter().map(|t| self.t(t)).collect()
    }

    /// Every task position, ascending (all fixture tasks are stateful).
    fn all(&self) -> Vec<TaskIx> {
        self.state.task_ixs().collect()
    }

    fn names(&self, set: &BTreeSet<TaskIx>) -> Vec<String> {
        set.iter()
            .map(|&t| self.state.tasks()[t.index()].id.to_string())
            .collect()
    }

    fn active(&self, client: &str) -> Vec<String> {
        self.names(&self.work.held(self.c(client), None))
    }

    fn standby(&self, client: &str) -> Vec<String> {
        self.names(&self.work.held(self.c(client), Some(Replica::Standby)))
    }

    fn warmup(&self, client: &str) -> Vec<String> {
        self.names(&self.work.held(self.c(client), Some(Replica::Warmup)))
    }

    /// The clients holding a standby of `task`.
    fn standby_holders(&self, task: &str) -> BTreeSet<String> {
        let t = self.t(task);
        self.state
            .client_ixs()
            .zip(self.state.clients())
            .filter(|&(c, _)| self.work.has_standby(c, t))
            .map(|(_, client)| client.id.as_str().to_string())
            .collect()
    }

    fn standby_count(&self, client: &str) -> usize {
        self.work.held(self.c(client), Some(Replica::Standby)).len()
    }

    fn total_standbys(&self) -> usize {
        self.work
            .clients()
            .map(|c| self.work.held(c, Some(Replica::Standby)).len())
            .sum()
    }
}

fn strings(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

fn set(list: &[&str]) -> BTreeSet<String> {
    list.iter().map(|s| s.to_string()).collect()
}

// ---------------------------------------------------------------------------
// TaskMovementTest (active movements).

/// Three clients with two actives each (`0_0,1_0` / `0_1,1_1` / `0_2,1_2`).
fn six_tasks_on_three_clients(lag: u64) -> Fixture {
    let tasks = ["0_0", "0_1", "0_2", "1_0", "1_1", "1_2"];
    let lags: Vec<(&str, u64)> = tasks.iter().map(|&t| (t, lag)).collect();
    let mut fx = Fixture::new(
        config(100, 0, &[]),
        &tasks,
        vec![
            client("c1", 1, &lags),
            client("c2", 1, &lags),
            client("c3", 1, &lags),
        ],
    );
    fx.put("c1", Role::Active, &["0_0", "1_0"]);
    fx.put("c2", Role::Active, &["0_1", "1_1"]);
    fx.put("c3", Role::Active, &["0_2", "1_2"]);
    fx
}

/// `shouldAssignTasksToClientsAndReturnFalseWhenAllClientsCaughtUp` and
/// `shouldAssignAllTasksToClientsAndReturnFalseIfNoClientsAreCaughtUp`: with
/// every client caught up, or none caught up and all equally lagged, there are
/// 0 movements and the assignment is unchanged.
#[test]
fn movement_nothing_moves_when_all_or_none_are_caught_up() {
    for (name, lag) in [("all caught up", 0), ("none caught up, equal lags", 10_000)] {
        let mut fx = six_tasks_on_three_clients(lag);
        let lags = LagIndex::new(&fx.state);
        let moved = movement::move_actives(&mut fx.work, &lags, &mut Budget::new(UNLIMITED));
        assert_eq!(moved, 0, "{name}");
        assert_eq!(fx.active("c1"), strings(&["0_0", "1_0"]), "{name}");
        assert_eq!(fx.active("c2"), strings(&["0_1", "1_1"]), "{name}");
        assert_eq!(fx.active("c3"), strings(&["0_2", "1_2"]), "{name}");
        for c in ["c1", "c2", "c3"] {
            assert!(
                fx.standby(c).is_empty() && fx.warmup(c).is_empty(),
                "{name}"
            );
        }
    }
}

/// c1 active on 0_0 and caught up on it; c2 active on 0_1 but caught up on
/// 0_2; c3 active on 0_2 but caught up on 0_1.
fn three_clients_on_the_wrong_task() -> Fixture {
    let far = 10_000;
    let mut fx = Fixture::new(
        config(100, 0, &[]),
        &["0_0", "0_1", "0_2"],
        vec![
            client("c1", 1, &[("0_0", 0), ("0_1", far), ("0_2", far)]),
            client("c2", 1, &[("0_0", far), ("0_1", far), ("0_2", 0)]),
            client("c3", 1, &[("0_0", far), ("0_1", 0), ("0_2", far)]),
        ],
    );
    fx.put("c1", Role::Active, &["0_0"]);
    fx.put("c2", Role::Active, &["0_1"]);
    fx.put("c3", Role::Active, &["0_2"]);
    fx
}

/// `shouldMoveTasksToCaughtUpClientsAndAssignWarmupReplicasInTheirPlace` and
/// `shouldOnlyGetUpToMaxWarmupReplicasAndReturnTrue`: 2 movements; every
/// client ends active on the task it is caught up on; the old owners keep
/// warm-ups while the budget lasts. With one warm-up only the highest-priority
/// movement (fewest caught-up clients, then task id: 0_1) gets it — Kafka's
/// test accepts either, this port's order is fixed.
#[test]
fn movement_to_caught_up_clients_leaves_warmups_within_budget() {
    let cases: [(u32, [&[&str]; 3]); 2] = [
        (UNLIMITED, [&[], &["0_1"], &["0_2"]]),
        (1, [&[], &["0_1"], &[]]),
    ];
    for (budget, warmups) in cases {
        let mut fx = three_clients_on_the_wrong_task();
        let lags = LagIndex::new(&fx.state);
        let moved = movement::move_actives(&mut fx.work, &lags, &mut Budget::new(budget));
        assert_eq!(moved, 2, "budget {budget}");
        assert_eq!(fx.active("c1"), strings(&["0_0"]));
        assert_eq!(fx.active("c2"), strings(&["0_2"]));
        assert_eq!(fx.active("c3"), strings(&["0_1"]));
        for (c, expected) in ["c1", "c2", "c3"].into_iter().zip(warmups) {
            assert_eq!(fx.warmup(c), strings(expected), "budget {budget}: {c}");
            assert!(fx.standby(c).is_empty(), "budget {budget}: {c}");
        }
    }
}

/// The movement queue orders by number of caught-up clients before task id
/// (Kafka's `TaskMovement` queue): 0_2 (one caught-up client) is served before 0_1 (two), so it gets
/// the single warm-up.
#[test]
fn movement_fewest_caught_up_clients_first() {
    let far = 10_000;
    let mut fx = Fixture::new(
        config(100, 0, &[]),
        &["0_1", "0_2"],
        vec![
            client("c1", 1, &[("0_1", far), ("0_2", far)]),
            client("c2", 1, &[("0_1", far), ("0_2", far)]),
            client("c3", 1, &[("0_1", 0), ("0_2", 0)]),
            client("c4", 1, &[("0_1", 0), ("0_2", far)]),
        ],
    );
    fx.put("c1", Role::Active, &["0_1"]);
    fx.put("c2", Role::Active, &["0_2"]);
    let lags = LagIndex::new(&fx.state);
    let moved = movement::move_actives(&mut fx.work, &lags, &mut Budget::new(1));
    assert_eq!(moved, 2);
    assert_eq!(fx.active("c3"), strings(&["0_2"]));
    assert_eq!(fx.warmup("c2"), strings(&["0_2"]), "0_2 is served first");
    // 0_1 then goes to its least loaded caught-up client, c4, without warm-up.
    assert_eq!(fx.active("c4"), strings(&["0_1"]));
    assert!(fx.warmup("c1").is_empty());
}

/// `shouldMoveTasksToMostCaughtUpClientsAndAssignWarmupReplicasInTheirPlace`
/// (KAFKA-13600): nobody caught up, lags 10k/20k/30k; c3 already holds a
/// standby of 0_1, on which it is the most caught up. 2 movements: 0_1 swaps
/// with c3's standby (no warm-up: c2 keeps a plain standby), 0_2 moves to c2
/// with a warm-up left on c3.
#[test]
fn movement_to_most_caught_up_swaps_with_standby() {
    let mut fx = Fixture::new(
        config(100, 0, &[]),
        &["0_0", "0_1", "0_2"],
        vec![
            client(
                "c1",
                1,
                &[("0_0", 10_000), ("0_1", 20_000), ("0_2", 30_000)],
            ),
            client(
                "c2",
                1,
                &[("0_2", 10_000), ("0_0", 20_000), ("0_1", 30_000)],
            ),
            client(
                "c3",
                1,
                &[("0_1", 10_000), ("0_2", 20_000), ("0_0", 30_000)],
            ),
        ],
    );
    fx.put("c1", Role::Active, &["0_0"]);
    fx.put("c2", Role::Active, &["0_1"]);
    fx.put("c3", Role::Active, &["0_2"]);
    fx.put("c3", Role::Standby, &["0_1"]);
    let lags = LagIndex::new(&fx.state);
    let moved = movement::move_actives(&mut fx.work, &lags, &mut Budget::new(UNLIMITED));
    assert_eq!(moved, 2);
    assert_eq!(fx.active("c1"), strings(&["0_0"]));
    assert_eq!(fx.active("c2"), strings(&["0_2"]));
    assert_eq!(fx.active("c3"), strings(&["0_1"]));
    assert!(fx.standby("c1").is_empty() && fx.warmup("c1").is_empty());
    assert_eq!(fx.standby("c2"), strings(&["0_1"]), "swap: a standby");
    assert!(fx.warmup("c2").is_empty(), "a swap is not a warm-up");
    assert_eq!(
        fx.warmup("c3"),
        strings(&["0_2"]),
        "a move leaves a warm-up"
    );
    assert!(fx.standby("c3").is_empty());
}

/// `shouldNotCountPreviousStandbyTasksTowardsMaxWarmupReplicas`: no warm-ups
/// allowed; c1 a caught-up standby, c2 a not-caught-up active. They swap roles
/// (1 movement): a swap is not a warm-up and needs no budget.
#[test]
fn movement_swap_needs_no_warmup_budget() {
    let mut fx = Fixture::new(
        config(100, 0, &[]),
        &["0_0"],
        vec![
            client("c1", 1, &[("0_0", 0)]),
            client("c2", 1, &[("0_0", 10_000)]),
        ],
    );
    fx.put("c1", Role::Standby, &["0_0"]);
    fx.put("c2", Role::Active, &["0_0"]);
    let lags = LagIndex::new(&fx.state);
    let moved = movement::move_actives(&mut fx.work, &lags, &mut Budget::new(0));
    assert_eq!(moved, 1);
    assert_eq!(fx.active("c1"), strings(&["0_0"]));
    assert!(fx.standby("c1").is_empty());
    assert!(fx.active("c2").is_empty());
    assert_eq!(fx.standby("c2"), strings(&["0_0"]));
    assert!(fx.warmup("c1").is_empty() && fx.warmup("c2").is_empty());
}

// ---------------------------------------------------------------------------
// Standby movements.

/// c1 runs 0_0 (caught up), c2 has a not-caught-up standby, c3 is caught up
/// and free. The standby moves to c3; c2 keeps its copy as a warm-up while
/// the budget lasts, and loses it once the budget is spent.
#[test]
fn standby_movement_keeps_a_warmup_while_the_budget_lasts() {
    for (budget, c2_warmup) in [(1, vec!["0_0"]), (0, vec![])] {
        let mut fx = Fixture::new(
            config(100, 1, &[]),
            &["0_0"],
            vec![
                client("c1", 1, &[("0_0", 0)]),
                client("c2", 1, &[("0_0", 10_000)]),
                client("c3", 1, &[("0_0", 0)]),
            ],
        );
        fx.put("c1", Role::Active, &["0_0"]);
        fx.put("c2", Role::Standby, &["0_0"]);
        let lags = LagIndex::new(&fx.state);
        let moved = movement::move_standbys(&mut fx.work, &lags, &mut Budget::new(budget));
        assert_eq!(moved, 1, "budget {budget}");
        assert_eq!(fx.standby("c3"), strings(&["0_0"]), "budget {budget}");
        assert!(fx.standby("c2").is_empty(), "budget {budget}");
        assert_eq!(fx.warmup("c2"), strings(&c2_warmup), "budget {budget}");
    }
}

/// A standby with nowhere better to go (every caught-up client already holds
/// the task) stays and is not counted as a movement.
#[test]
fn standby_movement_without_eligible_client_is_not_counted() {
    let mut fx = Fixture::new(
        config(100, 1, &[]),
        &["0_0"],
        vec![
            client("c1", 1, &[("0_0", 0)]),
            client("c2", 1, &[("0_0", 10_000)]),
        ],
    );
    fx.put("c1", Role::Active, &["0_0"]);
    fx.put("c2", Role::Standby, &["0_0"]);
    let lags = LagIndex::new(&fx.state);
    let moved = movement::move_standbys(&mut fx.work, &lags, &mut Budget::new(2));
    assert_eq!(moved, 0);
    assert_eq!(fx.standby("c2"), strings(&["0_0"]));
    assert!(fx.warmup("c2").is_empty());
}

/// No caught-up client: the standby goes to the first eligible client that
/// precedes its holder in (lag, id) order — c3 (lag 1000), since c1 (500)
/// holds the active — and the holder keeps a warm-up.
#[test]
fn standby_movement_falls_back_to_a_more_caught_up_client() {
    let mut fx = Fixture::new(
        config(100, 1, &[]),
        &["0_0"],
        vec![
            client("c1", 1, &[("0_0", 500)]),
            client("c2", 1, &[("0_0", 3_000)]),
            client("c3", 1, &[("0_0", 1_000)]),
        ],
    );
    fx.put("c1", Role::Active, &["0_0"]);
    fx.put("c2", Role::Standby, &["0_0"]);
    let lags = LagIndex::new(&fx.state);
    let moved = movement::move_standbys(&mut fx.work, &lags, &mut Budget::new(1));
    assert_eq!(moved, 1);
    assert_eq!(fx.standby("c3"), strings(&["0_0"]));
    assert_eq!(fx.warmup("c2"), strings(&["0_0"]));
}

/// Warm-ups planted by the active phase stay put in the standby phase
/// (Kafka's standby movements skip them) and share its budget: after 0_0 moves to c1 with a
/// warm-up on c2, the standby phase neither moves that warm-up to the free
/// caught-up c3 nor counts it.
#[test]
fn warmups_from_the_active_phase_stay_put() {
    let mut fx = Fixture::new(
        config(100, 0, &[]),
        &["0_0"],
        vec![
            client("c1", 1, &[("0_0", 0)]),
            client("c2", 1, &[("0_0", 10_000)]),
            client("c3", 1, &[("0_0", 0)]),
        ],
    );
    fx.put("c2", Role::Active, &["0_0"]);
    let lags = LagIndex::new(&fx.state);
    let mut budget = Budget::new(2);
    assert_eq!(movement::move_actives(&mut fx.work, &lags, &mut budget), 1);
    assert_eq!(
        fx.active("c1"),
        strings(&["0_0"]),
        "least loaded caught-up, then id"
    );
    assert_eq!(fx.warmup("c2"), strings(&["0_0"]));
    assert_eq!(movement::move_standbys(&mut fx.work, &lags, &mut budget), 0);
    assert_eq!(fx.warmup("c2"), strings(&["0_0"]));
    assert!(fx.standby("c3").is_empty() && fx.warmup("c3").is_empty());
}

// ---------------------------------------------------------------------------
// ConstrainedPrioritySetTest: `Work::least_loaded` over `by_load`.

/// Clients c1 (capacity 1), c2 (3), c3 (3).
fn three_capacities() -> Fixture {
    Fixture::new(
        config(100, 0, &[]),
        &["0_0", "0_1", "0_2", "0_3", "0_4"],
        vec![
            client("c1", 1, &[]),
            client("c2", 3, &[]),
            client("c3", 3, &[]),
        ],
    )
}

#[test]
fn priority_set_returns_a_single_client() {
    let fx = Fixture::new(config(100, 0, &[]), &["0_0"], vec![client("c1", 1, &[])]);
    assert_eq!(fx.work.least_loaded(|_| true), Some(fx.c("c1")));
}

#[test]
fn priority_set_returns_none_when_the_constraint_rejects_everyone() {
    let fx = three_capacities();
    assert_eq!(fx.work.least_loaded(|_| false), None);
    let t = fx.t("0_0");
    let mut fx = fx;
    fx.put("c1", Role::Active, &["0_0"]);
    fx.put("c2", Role::Standby, &["0_0"]);
    fx.put("c3", Role::Standby, &["0_0"]);
    assert_eq!(fx.work.least_loaded(|c| !fx.work.holds(c, t)), None);
}

/// Least assigned load per thread first, then the lower id; loads follow
/// every change (Kafka re-offers a client after each change).
#[test]
fn priority_set_serves_least_loaded_then_lowest_id() {
    let mut fx = three_capacities();
    assert_eq!(
        fx.work.least_loaded(|_| true),
        Some(fx.c("c1")),
        "all 0: lowest id"
    );
    fx.put("c1", Role::Active, &["0_0"]); // c1 1/1
    assert_eq!(fx.work.least_loaded(|_| true), Some(fx.c("c2")));
    fx.put("c2", Role::Active, &["0_1", "0_2"]); // c2 2/3
    assert_eq!(fx.work.least_loaded(|_| true), Some(fx.c("c3")));
    fx.put("c3", Role::Standby, &["0_3", "0_4"]); // c3 2/3: ties c2
    assert_eq!(
        fx.work.least_loaded(|_| true),
        Some(fx.c("c2")),
        "tie: lowest id"
    );
    let c2 = fx.c("c2");
    let t = fx.t("0_1");
    fx.work.unassign(c2, t, Role::Active); // c2 1/3
    assert_eq!(fx.work.least_loaded(|_| true), Some(c2));
}

/// Offering a client again re-keys it rather than duplicating it: however its
/// sets change, `by_load` holds each client exactly once, under its current load.
#[test]
fn priority_set_holds_each_client_once() {
    let mut fx = three_capacities();
    fx.put("c1", Role::Active, &["0_0"]);
    fx.put("c2", Role::Standby, &["0_0", "0_1"]);
    let (c2, t0) = (fx.c("c2"), fx.t("0_0"));
    fx.work.unassign(fx.c("c1"), t0, Role::Active);
    fx.work.switch_role(c2, t0, Role::Standby);
    fx.work.standby_to_warmup(c2, fx.t("0_1"));
    fx.work.add_warmup(fx.c("c3"), fx.t("0_2"));
    let n = fx.work.client_count();
    let keys = fx.work.load_order();
    assert_eq!(keys.len(), n);
    let clients: BTreeSet<ClientIx> = keys.iter().map(|&(_, c)| c).collect();
    assert_eq!(clients.len(), n);
    for (load, c) in keys {
        assert_eq!(
            load,
            fx.work.assigned_load(c),
            "client {c} keyed by its current load"
        );
    }
}

/// Only clients passing the constraint and the per-poll extra filter are
/// returned, in least-loaded order.
#[test]
fn priority_set_honours_constraint_and_extra_filter() {
    let mut fx = three_capacities();
    fx.put("c1", Role::Active, &["0_0"]);
    let t = fx.t("0_0");
    let constraint = |c: ClientIx| !fx.work.holds(c, t);
    let (c1, c2, c3) = (fx.c("c1"), fx.c("c2"), fx.c("c3"));
    assert_eq!(fx.work.least_loaded(constraint), Some(c2));
    assert_eq!(fx.work.least_loaded(|c| constraint(c) && c != c2), Some(c3));
    assert_eq!(fx.work.least_loaded(|c| constraint(c) && c == c1), None);
}

// ---------------------------------------------------------------------------
// ClientTagAwareStandbyTaskAssignorTest and the default standby assignor.

/// Kafka's tests collect the actives into a `HashSet` and the tag-aware
/// assignor walks that set: for these six task ids that order is 1_0, 0_2,
/// 0_1, 1_2, 0_0, 1_1. Inside the HA assignor tasks are ascending; the port
/// takes whatever order it is given, so the Kafka tests feed Kafka's order.
const KAFKA_HASH_ORDER: [&str; 6] = ["1_0", "0_2", "0_1", "1_2", "0_0", "1_1"];
const SIX: [&str; 6] = ["0_0", "0_1", "0_2", "1_0", "1_1", "1_2"];

/// Nine clients of capacity 2: c1..c9 = PID_1..PID_9 with the zone/cluster
/// of `tags(i)`, tag keys [zone, cluster].
fn nine_clients(tags: impl Fn(usize) -> (usize, usize), tasks: &[&str]) -> Fixture {
    let clients = (1..=9)
        .map(|i| {
            let (zone, cluster) = tags(i);
            tagged(
                &format!("c{i}"),
                2,
                &[
                    ("zone", &format!("zone{zone}")),
                    ("cluster", &format!("cluster{cluster}")),
                ],
            )
        })
        .collect();
    Fixture::new(config(0, 2, &["zone", "cluster"]), tasks, clients)
}

/// Whether the standbys of `task` are exactly one of `allowed`.
fn honours(fx: &Fixture, task: &str, allowed: &[&[&str]]) -> bool {
    let holders = fx.standby_holders(task);
    allowed.iter().filter(|a| set(a) == holders).count() == 1
}

/// Asserts [`honours`] for every task of each group, with the group's rules.
fn assert_honours(fx: &Fixture, groups: &[(&[&str], &[&[&str]])]) {
    for (tasks, allowed) in groups {
        for task in *tasks {
            assert!(honours(fx, task, allowed), "{task}");
        }
    }
}

/// `shouldNotAssignStatelessTasksToAnyClients`: standbys only for the stateful
/// tasks the assignor is given (1_x), never for the stateless 0_x.
#[test]
fn tag_aware_no_standbys_for_stateless_tasks() {
    // c1..c9: zone = (i-1) % 3 + 1, cluster = (i-1) / 3 + 1.
    let mut fx = nine_clients(|i| ((i - 1) % 3 + 1, (i - 1) / 3 + 1), &SIX);
    fx.put("c1", Role::Active, &["0_0", "1_0"]);
    fx.put("c4", Role::Active, &["0_1", "1_1"]);
    fx.put("c7", Role::Active, &["0_2", "1_2"]);
    let stateful = fx.order(&["1_0", "1_1", "1_2"]);
    StandbyPlacer::for_state(&fx.state).assign(&mut fx.work, &stateful, 2);
    for task in ["0_0", "0_1", "0_2"] {
        assert!(fx.standby_holders(task).is_empty(), "{task}");
    }
    for task in ["1_0", "1_1", "1_2"] {
        assert_eq!(fx.standby_holders(task).len(), 2, "{task}");
    }
}

/// `shouldRemoveClientToRemainingStandbys…WhenAllStandbyTasksWereAssigned` and
/// `shouldUpdateClientToRemainingStandbysAndPendingStandbyTasks…`: three
/// clients in zone1 on clusters 1..3, each active on one task. Two standbys
/// fit on the other clusters; of three, one per task stays pending and cannot
/// be placed by the fallback either (every client holds the task).
#[test]
fn tag_aware_pending_standbys_when_not_all_fit() {
    for (replicas, placed) in [(2, 2), (3, 2)] {
        let clients = (1..=3)
            .map(|i| {
                tagged(
                    &format!("c{i}"),
                    2,
                    &[("zone", "zone1"), ("cluster", &format!("cluster{i}"))],
                )
            })
            .collect();
        let mut fx = Fixture::new(
            config(0, replicas, &["zone", "cluster"]),
            &["0_0", "0_1", "0_2"],
            clients,
        );
        fx.put("c1", Role::Active, &["0_0"]);
        fx.put("c2", Role::Active, &["0_1"]);
        fx.put("c3", Role::Active, &["0_2"]);
        let all = fx.all();
        StandbyPlacer::for_state(&fx.state).assign(&mut fx.work, &all, replicas as usize);
        for (task, owner) in [("0_0", "c1"), ("0_1", "c2"), ("0_2", "c3")] {
            let holders = fx.standby_holders(task);
            assert_eq!(holders.len(), placed, "{replicas} replicas: {task}");
            assert!(!holders.contains(owner), "{task}");
        }
    }
}

/// `shouldPermitTaskMovementWhenClientTagsMatch` /
/// `shouldDeclineTaskMovementWhenClientTagsDoNotMatch`: balancing may move a
/// standby only to a client carrying every tag of the source with the same
/// value. The default placer allows every move.
#[test]
fn tag_aware_may_move_only_between_matching_tags() {
    type Tags = &'static [(&'static str, &'static str)];
    let cases: [(Tags, Tags, bool); 4] = [
        (
            &[("zone", "zone1"), ("cluster", "cluster1")],
            &[("zone", "zone1"), ("cluster", "cluster1")],
            true,
        ),
        (
            &[("zone", "zone1"), ("cluster", "cluster1")],
            &[("zone", "zone2"), ("cluster", "cluster1")],
            false,
        ),
        (
            &[("zone", "zone1")],
            &[("zone", "zone1"), ("cluster", "cluster1")],
            true,
        ),
        (
            &[("zone", "zone1"), ("cluster", "cluster1")],
            &[("zone", "zone1")],
            false,
        ),
    ];
    for (src, dst, allowed) in cases {
        let clients = vec![tagged("c1", 1, src), tagged("c2", 2, dst)];
        let fx = Fixture::new(
            config(0, 1, &["zone", "cluster"]),
            &["0_0"],
            clients.clone(),
        );
        let placer = StandbyPlacer::for_state(&fx.state);
        let (c1, c2) = (fx.c("c1"), fx.c("c2"));
        assert_eq!(placer.may_move(c1, c2), allowed, "{src:?} -> {dst:?}");
        let plain = Fixture::new(config(0, 1, &[]), &["0_0"], clients);
        assert!(StandbyPlacer::for_state(&plain.state).may_move(c1, c2));
    }
}

/// `shouldDistributeStandbyTasksWhenActiveTasksAreLocatedOnSameZone`: actives
/// on c1, c4, c7 (all zone1, clusters 1..3), 2 standbys each. Every client
/// reaches capacity, the actives' clients get no standbys, the others 2 each,
/// 12 in all, and each task's standbys are on the other zones and clusters.
#[test]
fn tag_aware_actives_on_the_same_zone() {
    // c1..c9: zone = (i-1) % 3 + 1, cluster = (i-1) / 3 + 1.
    let mut fx = nine_clients(|i| ((i - 1) % 3 + 1, (i - 1) / 3 + 1), &SIX);
    fx.put("c1", Role::Active, &["0_0", "1_0"]);
    fx.put("c4", Role::Active, &["0_1", "1_1"]);
    fx.put("c7", Role::Active, &["0_2", "1_2"]);
    let order = fx.order(&KAFKA_HASH_ORDER);
    StandbyPlacer::for_state(&fx.state).assign(&mut fx.work, &order, 2);

    for c in fx.work.clients() {
        assert!(
            fx.work.assigned_count(c) >= fx.work.capacity[c] as usize,
            "client {c} at capacity"
        );
    }
    for c in ["c1", "c4", "c7"] {
        assert_eq!(fx.standby_count(c), 0, "{c}");
    }
    for c in ["c2", "c3", "c5", "c6", "c8", "c9"] {
        assert_eq!(fx.standby_count(c), 2, "{c}");
    }
    assert_eq!(fx.total_standbys(), 12);
    assert_honours(
        &fx,
        &[
            (&["0_0", "1_0"], &[&["c9", "c5"], &["c6", "c8"]]),
            (&["0_1", "1_1"], &[&["c2", "c9"], &["c3", "c8"]]),
            (&["0_2", "1_2"], &[&["c5", "c3"], &["c2", "c6"]]),
        ],
    );
}

/// The same input in ascending task order, as the HA assignor walks it
/// (`HighAvailabilityTaskAssignor` and its standby assignors): the tag rules still hold for every task, but the per-client
/// counts are no longer even — Kafka's "2 each" comes from its test's
/// hash-set order, not from the algorithm (trace: c5 and c9 get 3, c6 and c8
/// get 1). Standby balancing cannot repair this: every client's tags differ.
#[test]
fn tag_aware_actives_on_the_same_zone_in_ascending_order() {
    let mut fx = nine_clients(|i| ((i - 1) % 3 + 1, (i - 1) / 3 + 1), &SIX);
    fx.put("c1", Role::Active, &["0_0", "1_0"]);
    fx.put("c4", Role::Active, &["0_1", "1_1"]);
    fx.put("c7", Role::Active, &["0_2", "1_2"]);
    let all = fx.all();
    StandbyPlacer::for_state(&fx.state).assign(&mut fx.work, &all, 2);

    assert_eq!(fx.total_standbys(), 12);
    assert_honours(
        &fx,
        &[
            (&["0_0", "1_0"], &[&["c9", "c5"], &["c6", "c8"]]),
            (&["0_1", "1_1"], &[&["c2", "c9"], &["c3", "c8"]]),
            (&["0_2", "1_2"], &[&["c5", "c3"], &["c2", "c6"]]),
        ],
    );
    let counts: Vec<usize> = ["c2", "c3", "c5", "c6", "c8", "c9"]
        .iter()
        .map(|c| fx.standby_count(c))
        .collect();
    assert_eq!(counts, vec![2, 2, 3, 1, 1, 3]);
}

/// `shouldDistributeStandbyTasksWhenActiveTasksAreLocatedOnSameCluster`:
/// actives on c1, c2, c3 (cluster1, zones 1..3).
#[test]
fn tag_aware_actives_on_the_same_cluster() {
    let mut fx = nine_clients(|i| ((i - 1) % 3 + 1, (i - 1) / 3 + 1), &SIX);
    fx.put("c1", Role::Active, &["0_0", "1_0"]);
    fx.put("c2", Role::Active, &["0_1", "1_1"]);
    fx.put("c3", Role::Active, &["0_2", "1_2"]);
    let order = fx.order(&KAFKA_HASH_ORDER);
    StandbyPlacer::for_state(&fx.state).assign(&mut fx.work, &order, 2);

    for c in fx.work.clients() {
        assert!(
            fx.work.assigned_count(c) >= fx.work.capacity[c] as usize,
            "client {c} at capacity"
        );
    }
    for c in ["c1", "c2", "c3"] {
        assert_eq!(fx.standby_count(c), 0, "{c}");
    }
    for c in ["c4", "c5", "c6", "c7", "c8", "c9"] {
        assert_eq!(fx.standby_count(c), 2, "{c}");
    }
    assert_eq!(fx.total_standbys(), 12);
    assert_honours(
        &fx,
        &[
            (&["0_0", "1_0"], &[&["c9", "c5"], &["c6", "c8"]]),
            (&["0_1", "1_1"], &[&["c4", "c9"], &["c6", "c7"]]),
            (&["0_2", "1_2"], &[&["c5", "c7"], &["c4", "c8"]]),
        ],
    );
}

/// `shouldDoThePartialRackAwareness` (Kafka's test of that name): six clients
/// {cluster1, cluster2} × {zone1..3} of capacity 1, actives 0_0 on c1
/// (cluster1, zone1) and 1_0 on c6 (cluster2, zone3), 2 standbys. The first
/// standby differs in both tags (c5 / c2); the second ignores the exhausted
/// `cluster` key and only needs a third zone, on either cluster.
#[test]
fn tag_aware_partial_rack_awareness() {
    for (name, order) in [
        ("Kafka's order", ["1_0", "0_0"]),
        ("ascending", ["0_0", "1_0"]),
    ] {
        let clients = (1..=6)
            .map(|i| {
                tagged(
                    &format!("c{i}"),
                    1,
                    &[
                        ("cluster", &format!("cluster{}", (i - 1) / 3 + 1)),
                        ("zone", &format!("zone{}", (i - 1) % 3 + 1)),
                    ],
                )
            })
            .collect();
        let mut fx = Fixture::new(config(0, 2, &["cluster", "zone"]), &["0_0", "1_0"], clients);
        fx.put("c1", Role::Active, &["0_0"]);
        fx.put("c6", Role::Active, &["1_0"]);
        let order = fx.order(&order);
        StandbyPlacer::for_state(&fx.state).assign(&mut fx.work, &order, 2);

        for c in ["c2", "c5"] {
            assert_eq!(fx.standby_count(c), 1, "{name}: {c}");
        }
        for c in ["c1", "c3", "c4", "c6"] {
            assert!(fx.standby_count(c) <= 1, "{name}: {c}");
        }
        assert_eq!(fx.total_standbys(), 4, "{name}");
        assert!(
            honours(&fx, "0_0", &[&["c5", "c3"], &["c5", "c6"]]),
            "{name}"
        );
        assert!(
            honours(&fx, "1_0", &[&["c2", "c4"], &["c2", "c1"]]),
            "{name}"
        );
    }
}

/// `shouldDistributeClientsOnDifferentZoneTagsEvenWhenClientsReachedCapacity`:
/// six clients of capacity 1, each already full with one active, zones 1..3
/// twice, one cluster; 1 standby: each client gets exactly one, never in the
/// active's zone.
#[test]
fn tag_aware_spreads_over_zones_even_at_capacity() {
    for (name, order) in [("Kafka's order", KAFKA_HASH_ORDER), ("ascending", SIX)] {
        let clients = (1..=6)
            .map(|i| {
                tagged(
                    &format!("c{i}"),
                    1,
                    &[
                        ("zone", &format!("zone{}", (i - 1) % 3 + 1)),
                        ("cluster", "cluster1"),
                    ],
                )
            })
            .collect();
        let mut fx = Fixture::new(config(0, 1, &["zone", "cluster"]), &SIX, clients);
        for (c, task) in ["c1", "c2", "c3", "c4", "c5", "c6"].into_iter().zip(SIX) {
            fx.put(c, Role::Active, &[task]);
        }
        let order = fx.order(&order);
        StandbyPlacer::for_state(&fx.state).assign(&mut fx.work, &order, 1);

        for c in ["c1", "c2", "c3", "c4", "c5", "c6"] {
            assert_eq!(fx.standby_count(c), 1, "{name}: {c}");
        }
        assert_eq!(fx.total_standbys(), 6, "{name}");
        let other_zones: [(&str, &[&[&str]]); 3] = [
            ("zone1", &[&["c2"], &["c5"], &["c3"], &["c6"]]),
            ("zone2", &[&["c1"], &["c4"], &["c3"], &["c6"]]),
            ("zone3", &[&["c1"], &["c4"], &["c2"], &["c5"]]),
        ];
        for (tasks, (_, allowed)) in [["0_0", "1_0"], ["0_1", "1_1"], ["0_2", "1_2"]]
            .into_iter()
            .zip(other_zones)
        {
            for task in tasks {
                assert!(honours(&fx, task, allowed), "{name}: {task}");
            }
        }
    }
}

/// `shouldIgnoreTagsThatAreNotPresentInRackAwareness`: only `cluster` is
/// configured. c2 (cluster1, zone2) is least loaded but shares the active's
/// cluster; c3 (cluster2, zone1) gets the standby although it shares the zone.
#[test]
fn tag_aware_ignores_tags_that_are_not_configured() {
    let clients = vec![
        tagged("c1", 1, &[("cluster", "cluster1"), ("zone", "zone1")]),
        tagged("c2", 2, &[("cluster", "cluster1"), ("zone", "zone2")]),
        tagged("c3", 1, &[("cluster", "cluster2"), ("zone", "zone1")]),
    ];
    let mut fx = Fixture::new(config(0, 1, &["cluster"]), &["0_0"], clients);
    fx.put("c1", Role::Active, &["0_0"]);
    let all = fx.all();
    StandbyPlacer::for_state(&fx.state).assign(&mut fx.work, &all, 1);
    assert_eq!(fx.total_standbys(), 1);
    assert_eq!(fx.standby_count("c3"), 1);
}

/// `shouldHandleOverlappingTagValuesBetweenDifferentTagKeys`: a value used
/// under one key does not block the same value under another key. Kafka's
/// case (c1 zone=zone1/cluster=cluster1, the other zone=cluster1/
/// cluster=cluster3) plus a variant where a lower-id client really shares the
/// active's cluster and must be passed over.
#[test]
fn tag_aware_overlapping_values_between_keys() {
    let cases: [(&str, Vec<Client>, &str); 2] = [
        (
            "Kafka's case",
            vec![
                tagged("c1", 2, &[("zone", "zone1"), ("cluster", "cluster1")]),
                tagged("c2", 2, &[("zone", "cluster1"), ("cluster", "cluster3")]),
            ],
            "c2",
        ),
        (
            "a lower id in the active's cluster",
            vec![
                tagged("c1", 2, &[("zone", "zone1"), ("cluster", "cluster1")]),
                tagged("c2", 2, &[("zone", "zone2"), ("cluster", "cluster1")]),
                tagged("c3", 2, &[("zone", "cluster1"), ("cluster", "cluster3")]),
            ],
            "c3",
        ),
    ];
    for (name, clients, expected) in cases {
        let mut fx = Fixture::new(config(0, 1, &["zone", "cluster"]), &["0_0"], clients);
        fx.put("c1", Role::Active, &["0_0"]);
        let all = fx.all();
        StandbyPlacer::for_state(&fx.state).assign(&mut fx.work, &all, 1);
        assert_eq!(fx.total_standbys(), 1, "{name}");
        assert_eq!(fx.standby_holders("0_0"), set(&[expected]), "{name}");
    }
}

/// `shouldDistributeStandbyTasksOnLeastLoadedClientsWhenClientsAreNotOnDifferentTagDimensions`:
/// four clients with identical tags (capacity 3), one active each; 1 standby:
/// the tag keys are exhausted at once, so placement is least-loaded: one
/// standby per client.
#[test]
fn tag_aware_least_loaded_without_tag_diversity() {
    let tasks = ["0_0", "0_1", "0_2", "1_0"];
    for (name, order) in [
        ("Kafka's order", ["1_0", "0_2", "0_1", "0_0"]),
        ("ascending", tasks),
    ] {
        let clients = (1..=4)
            .map(|i| {
                tagged(
                    &format!("c{i}"),
                    3,
                    &[("cluster", "cluster1"), ("zone", "zone1")],
                )
            })
            .collect();
        let mut fx = Fixture::new(config(0, 1, &["cluster", "zone"]), &tasks, clients);
        for (c, task) in ["c1", "c2", "c3", "c4"].into_iter().zip(tasks) {
            fx.put(c, Role::Active, &[task]);
        }
        let order = fx.order(&order);
        StandbyPlacer::for_state(&fx.state).assign(&mut fx.work, &order, 1);
        assert_eq!(fx.total_standbys(), 4, "{name}");
        for c in ["c1", "c2", "c3", "c4"] {
            assert_eq!(fx.standby_count(c), 1, "{name}: {c}");
        }
    }
}

/// A task left pending by the tag pass is filled least-loaded (the tag-aware
/// assignor's fallback): no client differs from c1 in both zone and cluster, so the tag
/// pass places nothing and the fallback picks the least loaded, lowest id: c2.
#[test]
fn tag_aware_fallback_fills_pending_standbys_least_loaded() {
    let clients = vec![
        tagged("c1", 1, &[("zone", "zone1"), ("cluster", "cluster1")]),
        tagged("c2", 1, &[("zone", "zone1"), ("cluster", "cluster2")]),
        tagged("c3", 1, &[("zone", "zone2"), ("cluster", "cluster1")]),
    ];
    let mut fx = Fixture::new(config(0, 1, &["zone", "cluster"]), &["0_0"], clients);
    fx.put("c1", Role::Active, &["0_0"]);
    let all = fx.all();
    StandbyPlacer::for_state(&fx.state).assign(&mut fx.work, &all, 1);
    assert_eq!(fx.standby_holders("0_0"), set(&["c2"]));
}

/// `shouldNotAssignStandbyTasksIfThereAreNoEnoughClients`: one client, no standbys.
#[test]
fn tag_aware_no_standbys_without_enough_clients() {
    let clients = vec![tagged(
        "c1",
        3,
        &[("cluster", "cluster1"), ("zone", "zone1")],
    )];
    let mut fx = Fixture::new(config(0, 1, &["cluster", "zone"]), &["0_0"], clients);
    fx.put("c1", Role::Active, &["0_0"]);
    let all = fx.all();
    StandbyPlacer::for_state(&fx.state).assign(&mut fx.work, &all, 1);
    assert_eq!(fx.total_standbys(), 0);
}

/// `DefaultStandbyTaskAssignor`: each replica to the least loaded client (per
/// thread, then id) that does not hold the task; with more replicas than other
/// clients the rest is dropped.
#[test]
fn default_standbys_least_loaded_never_on_a_holder() {
    for (replicas, placed) in [(2, 2), (3, 2)] {
        let mut fx = Fixture::new(
            config(0, replicas, &[]),
            &["0_0", "0_1"],
            vec![
                client("c1", 1, &[]),
                client("c2", 2, &[]),
                client("c3", 1, &[]),
            ],
        );
        fx.put("c1", Role::Active, &["0_0"]);
        fx.put("c2", Role::Active, &["0_1"]);
        let all = fx.all();
        StandbyPlacer::for_state(&fx.state).assign(&mut fx.work, &all, replicas as usize);
        // 0_0: c3 (0) then c2 (1/2); 0_1: c1 and c3 tie at 1 → c1, then c3.
        assert_eq!(fx.standby("c1"), strings(&["0_1"]), "{replicas}");
        assert_eq!(fx.standby("c2"), strings(&["0_0"]), "{replicas}");
        assert_eq!(fx.standby("c3"), strings(&["0_0", "0_1"]), "{replicas}");
        assert_eq!(fx.total_standbys(), 2 * placed, "{replicas}");
    }
}

/// `StandbyTaskAssignorFactoryTest`, as far as the HA assignor uses it:
/// configured tags → tag-aware; no tags → default, even when every client
/// has a rack (the HA assignor passes no rack helper).
#[test]
fn standby_factory_tags_select_the_tag_aware_assignor() {
    let cases: [(&[&str], bool, bool); 3] = [
        (&["zone"], false, true),
        (&[], false, false),
        (&[], true, false),
    ];
    for (tags, racks, tag_aware) in cases {
        let clients = ["c1", "c2"]
            .into_iter()
            .map(|id| {
                let c = tagged(id, 1, &[("zone", id)]);
                if racks {
                    c.with_rack(format!("rack-{id}"))
                } else {
                    c
                }
            })
            .collect();
        let fx = Fixture::new(config(0, 1, tags), &["0_0"], clients);
        let placer = StandbyPlacer::for_state(&fx.state);
        assert_eq!(
            matches!(placer, StandbyPlacer::TagAware(_)),
            tag_aware,
            "tags {tags:?}, racks {racks}"
        );
    }
}

// ---------------------------------------------------------------------------
// balance_over_threads (Kafka's `shouldMove` rule) on hand-made placements.

/// Capacities 1, 2, 3 with six actives all on c1: pairwise moves that
/// strictly shrink the per-thread gap end at 1, 2, 3 (`shouldMove`). Trace: c1 gives
/// 0_0..1_0 to c2 and 1_1 to c3; c2 then gives 0_0 and 0_1 to c3.
#[test]
fn balance_reaches_per_thread_balance() {
    let tasks = ["0_0", "0_1", "0_2", "1_0", "1_1", "1_2"];
    let mut fx = Fixture::new(
        config(0, 0, &[]),
        &tasks,
        vec![
            client("c1", 1, &[]),
            client("c2", 2, &[]),
            client("c3", 3, &[]),
        ],
    );
    fx.put("c1", Role::Active, &tasks);
    balance::balance(&mut fx.work, Role::Active, |_, _| true);
    assert_eq!(fx.active("c1"), strings(&["1_2"]));
    assert_eq!(fx.active("c2"), strings(&["0_2", "1_0"]));
    assert_eq!(fx.active("c3"), strings(&["0_0", "0_1", "1_1"]));
}

/// Balancing skips tasks the destination already holds (taking the next one)
/// and moves nothing when `may_move` forbids the pair.
#[test]
fn balance_skips_held_tasks_and_honours_may_move() {
    for (allowed, c1_standby, c2_standby) in [
        (true, vec!["0_0", "0_2"], vec!["0_1"]),
        (false, vec!["0_0", "0_1", "0_2"], vec![]),
    ] {
        let mut fx = Fixture::new(
            config(0, 1, &[]),
            &["0_0", "0_1", "0_2"],
            vec![client("c1", 1, &[]), client("c2", 1, &[])],
        );
        fx.put("c1", Role::Standby, &["0_0", "0_1", "0_2"]);
        fx.put("c2", Role::Active, &["0_0"]);
        balance::balance(&mut fx.work, Role::Standby, |_, _| allowed);
        assert_eq!(fx.standby("c1"), strings(&c1_standby), "may_move {allowed}");
        assert_eq!(fx.standby("c2"), strings(&c2_standby), "may_move {allowed}");
    }
}
