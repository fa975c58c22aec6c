//! Property tests over random clusters.
//!
//! For every registered strategy: `validate` holds, the same input gives the
//! same plan (also after a JSON round trip of the state), and renaming the
//! clients without changing their order renames the plan and nothing else.
//!
//! For `kip441` (docs/algorithms.md#kip441-required-properties,
//! docs/algorithms.md#kip441-overview,
//! docs/algorithms.md#kip441-probing-rebalances): actives sit on caught-up or
//! most caught-up clients; a follow-up is asked exactly when the plan departs
//! from the state-unaware balanced placement (which is what a movement is), so
//! in particular whenever it has warm-ups; and a balanced, caught-up plan fed
//! back as the previous assignment is kept with no follow-up.
//!
//! Cases: `SMOOTHSCALE_PROPTEST_CASES` (default 256). Failures are not
//! persisted to files; the failure message carries the state as JSON, ready
//! for `smoothscale assign`.

use std::collections::{BTreeMap, BTreeSet};

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::subsequence;

use smoothscale::model::ACCEPT_ANY_LAG;
use smoothscale::wire::{state_from_json, state_to_json};
use smoothscale::{
    assignor, AssignmentConfig, Client, ClientId, ClientPlan, ClusterState, Lag, Plan,
    RackAwareStrategy, Task, TaskId,
};

use crate::support;

// ---------------------------------------------------------------------------
// Configuration
// ---------------------------------------------------------------------------

// ---------------------------------------------------------------------------
// Random clusters
// ---------------------------------------------------------------------------

/// Client ids to draw from: their string order is not their "numeric" order
/// (`c10` < `c9`, `B` < `a`), so every tie broken by id is exercised.
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
    "\u{3a9}",
    "~",
];

/// Which tasks of a subtopology are stateful.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Kind {
    Stateful,
    Stateless,
    /// Even partitions stateful, odd stateless.
    Mixed,
}

/// One subtopology of a generated state (also the kip441 reference's).
#[derive(Debug, Clone)]
pub(crate) struct SubtopologySpec {
    pub(crate) kind: Kind,
    pub(crate) partitions: u32,
    pub(crate) end_offset: u64,
}

/// The tasks of `subtopologies`, subtopology `s` numbered `s`.
pub(crate) fn tasks_of(subtopologies: &[SubtopologySpec]) -> Vec<Task> {
    let mut tasks = Vec::new();
    for (s, sub) in subtopologies.iter().enumerate() {
        for p in 0..sub.partitions {
            let id = TaskId::new(s as u32, p);
            let stateful = match sub.kind {
                Kind::Stateful => true,
                Kind::Stateless => false,
                Kind::Mixed => p % 2 == 0,
            };
            tasks.push(if stateful {
                Task::stateful(id, sub.end_offset)
            } else {
                Task::stateless(id)
            });
        }
    }
    tasks
}

#[derive(Debug, Clone)]
struct ClientSpec {
    capacity: u32,
    zone: Option<u8>,
    rack_tag: Option<u8>,
    rack: Option<u8>,
}

/// A client's report for one task.
#[derive(Debug, Clone, Copy)]
pub(crate) enum LagPick {
    /// No entry: lag = end offset.
    Missing,
    Running,
    Unknown,
    Zero,
    /// This percentage of the end offset.
    Percent(u8),
    /// More than the end offset (Kafka would clamp it; the model allows it).
    Beyond(u16),
}

impl LagPick {
    /// The lag this report gives `task`; `None` for no entry.
    pub(crate) fn lag(self, task: &Task) -> Option<Lag> {
        match self {
            LagPick::Missing => None,
            LagPick::Running => Some(Lag::Running),
            LagPick::Unknown => Some(Lag::Unknown),
            LagPick::Zero => Some(Lag::Records(0)),
            LagPick::Percent(p) => Some(Lag::Records(task.end_offset / 100 * u64::from(p))),
            LagPick::Beyond(b) => Some(Lag::Records(task.end_offset + u64::from(b))),
        }
    }
}

#[derive(Debug, Clone, Copy)]
struct Cell {
    lag: LagPick,
    standby: bool,
    /// The client also lists the task as previously active (a stale second
    /// owner, as a client coming back with old state does; the model allows it).
    stale_active: bool,
}

fn subtopology_spec() -> impl Strategy<Value = SubtopologySpec> {
    let kind = prop_oneof![
        3 => Just(Kind::Stateful),
        2 => Just(Kind::Stateless),
        1 => Just(Kind::Mixed),
    ];
    let end_offset = prop_oneof![
        1 => Just(0u64),
        2 => 1..=500u64,
        3 => 1_000..=2_000_000u64,
    ];
    (kind, 1..=8u32, end_offset).prop_map(|(kind, partitions, end_offset)| SubtopologySpec {
        kind,
        partitions,
        end_offset,
    })
}

fn client_spec() -> impl Strategy<Value = ClientSpec> {
    (
        1..=4u32,
        proptest::option::of(0..3u8),
        proptest::option::of(0..4u8),
        proptest::option::of(0..3u8),
    )
        .prop_map(|(capacity, zone, rack_tag, rack)| ClientSpec {
            capacity,
            zone,
            rack_tag,
            rack,
        })
}

fn config() -> impl Strategy<Value = AssignmentConfig> {
    let acceptable = prop_oneof![
        Just(0u64),
        Just(100u64),
        0..=2_000u64,
        Just(10_000u64),
        Just(ACCEPT_ANY_LAG),
    ];
    let tags = prop_oneof![
        3 => Just(Vec::<&str>::new()),
        1 => Just(vec!["zone"]),
        1 => Just(vec!["zone", "rack"]),
        1 => Just(vec!["rack"]),
        1 => Just(vec!["cluster"]),
    ];
    let rack_strategy = prop_oneof![
        6 => Just(RackAwareStrategy::None),
        1 => Just(RackAwareStrategy::MinTraffic),
        1 => Just(RackAwareStrategy::BalanceSubtopology),
    ];
    (
        0..=3u32,
        acceptable,
        1..=4u32,
        60_000..=600_000u64,
        tags,
        rack_strategy,
    )
        .prop_map(
            |(standbys, acceptable, warmups, probing, tags, rack_strategy)| AssignmentConfig {
                num_standby_replicas: standbys,
                acceptable_recovery_lag: acceptable,
                max_warmup_replicas: warmups,
                probing_rebalance_interval_ms: probing,
                rack_aware_assignment_tags: tags.into_iter().map(String::from).collect(),
                rack_aware_strategy: rack_strategy,
                ..AssignmentConfig::default()
            },
        )
}

fn cell() -> impl Strategy<Value = Cell> {
    let lag = prop_oneof![
        5 => Just(LagPick::Missing),
        1 => Just(LagPick::Running),
        1 => Just(LagPick::Unknown),
        2 => Just(LagPick::Zero),
        3 => (0..=100u8).prop_map(LagPick::Percent),
        1 => (1..=1_000u16).prop_map(LagPick::Beyond),
    ];
    (
        lag,
        proptest::bool::weighted(0.2),
        proptest::bool::weighted(0.03),
    )
        .prop_map(|(lag, standby, stale_active)| Cell {
            lag,
            standby,
            stale_active,
        })
}

/// A random valid cluster: several subtopologies, 1 to 12 clients, sparse lags
/// with sentinels, a previous assignment (mostly one previous active per task,
/// now and then a stale second one; previous standbys only of stateful tasks,
/// never on a client listing the task as previous active) and a random config
/// (now and then a KIP-925 rack strategy, which kip441 reports it ignores).
pub(crate) fn cluster() -> impl Strategy<Value = ClusterState> {
    (
        vec(subtopology_spec(), 1..=6),
        vec(client_spec(), 1..=12),
        config(),
    )
        .prop_flat_map(|(subtopologies, clients, config)| {
            let tasks: usize = subtopologies.iter().map(|s| s.partitions as usize).sum();
            let n = clients.len();
            (
                Just(subtopologies),
                Just(clients),
                Just(config),
                subsequence(ID_POOL, n),
                // previous active owner of each task, and whether it reports `running`
                vec(
                    proptest::option::of((0..n, proptest::bool::weighted(0.7))),
                    tasks,
                ),
                vec(cell(), tasks * n),
            )
        })
        .prop_map(|(subtopologies, specs, config, ids, owners, cells)| {
            build_cluster(&subtopologies, &specs, config, &ids, &owners, &cells)
        })
}

fn build_cluster(
    subtopologies: &[SubtopologySpec],
    specs: &[ClientSpec],
    config: AssignmentConfig,
    ids: &[&str],
    owners: &[Option<(usize, bool)>],
    cells: &[Cell],
) -> ClusterState {
    let tasks = tasks_of(subtopologies);
    let mut clients = Vec::new();
    for (c, spec) in specs.iter().enumerate() {
        let mut client = Client::new(ids[c], spec.capacity);
        if let Some(z) = spec.zone {
            client = client.with_tag("zone", format!("z{z}"));
        }
        if let Some(r) = spec.rack_tag {
            client = client.with_tag("rack", format!("r{r}"));
        }
        if let Some(r) = spec.rack {
            client = client.with_rack(format!("rack-{r}"));
        }
        for (k, task) in tasks.iter().enumerate() {
            let owner = owners[k].filter(|&(o, _)| o == c);
            let cell = cells[c * tasks.len() + k];
            if owner.is_some() || cell.stale_active {
                client.previous_active.insert(task.id);
            }
            if !task.stateful {
                continue;
            }
            if cell.standby && !client.previous_active.contains(&task.id) {
                client.previous_standby.insert(task.id);
            }
            let lag = match (owner, cell.lag) {
                (Some((_, true)), _) => Some(Lag::Running),
                (_, pick) => pick.lag(task),
            };
            if let Some(lag) = lag {
                client.lags.insert(task.id, lag);
            }
        }
        clients.push(client);
    }
    support::state(config, tasks, clients)
}

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

/// The state as JSON, for failure messages (replay with `smoothscale assign`).
fn replay(state: &ClusterState) -> String {
    format!(
        "state (replay with `smoothscale assign`):\n{}",
        state_to_json(state)
    )
}

/// The same cluster with every client renamed by `rename`.
fn renamed(state: &ClusterState, rename: &BTreeMap<ClientId, ClientId>) -> ClusterState {
    let clients = state
        .clients()
        .iter()
        .map(|c| Client {
            id: rename[&c.id].clone(),
            ..c.clone()
        })
        .collect();
    support::state(state.config().clone(), state.tasks().to_vec(), clients)
}

/// Two order-preserving renamings: a common prefix, and zero-padded ranks.
fn order_preserving_renamings(state: &ClusterState) -> Vec<BTreeMap<ClientId, ClientId>> {
    let ids: Vec<&ClientId> = state.clients().iter().map(|c| &c.id).collect();
    let prefixed = ids
        .iter()
        .map(|&id| (id.clone(), ClientId::new(format!("x-{id}"))))
        .collect();
    let ranked = ids
        .iter()
        .enumerate()
        .map(|(rank, &id)| (id.clone(), ClientId::new(format!("{rank:04}"))))
        .collect();
    for (a, b) in ids.iter().zip(ids.iter().skip(1)) {
        assert!(a < b, "state clients are sorted by id");
    }
    vec![prefixed, ranked]
}

/// The per-client part of a plan.
type Placement = BTreeMap<ClientId, ClientPlan>;

/// The lag of every client on `task` under the model's sparse rule.
fn lags_of<'a>(state: &'a ClusterState, task: &'a Task) -> impl Iterator<Item = Lag> + 'a {
    state.clients().iter().map(move |c| state.lag(c, task))
}

// ---------------------------------------------------------------------------
// Properties of every strategy
// ---------------------------------------------------------------------------

proptest! {
    #![proptest_config(support::proptest_config())]

    /// `validate` holds for every registered strategy on every random cluster.
    #[test]
    fn every_strategy_keeps_the_invariants(state in cluster()) {
        for strategy in assignor::all() {
            // support::outcome asserts validate; an infeasible input is an
            // error value, never a panic.
            if let Ok(plan) = support::outcome(strategy.info().name, &state) {
                prop_assert_eq!(&plan.strategy, strategy.info().name);
            }
        }
    }

    /// Assigning twice, or assigning the state read back from its JSON form,
    /// gives the same plan.
    #[test]
    fn every_strategy_is_deterministic(state in cluster()) {
        let text = state_to_json(&state);
        let reread = state_from_json(&text)
            .unwrap_or_else(|e| panic!("state_to_json output does not read back: {e}\n{text}"));
        prop_assert_eq!(&reread, &state, "JSON round trip changed the state\n{}", replay(&state));
        for strategy in assignor::all() {
            let name = strategy.info().name;
            let first = support::outcome(name, &state);
            let second = support::outcome(name, &state);
            prop_assert_eq!(&first, &second, "{}: two runs differ\n{}", name, replay(&state));
            let third = support::outcome(name, &reread);
            prop_assert_eq!(&first, &third, "{}: JSON round trip changed the plan\n{}", name, replay(&state));
        }
    }

    /// Renaming clients without changing their order renames the plan and
    /// changes nothing else.
    #[test]
    fn renaming_clients_in_order_renames_the_plan(state in cluster()) {
        for rename in order_preserving_renamings(&state) {
            let other = renamed(&state, &rename);
            for strategy in assignor::all() {
                let name = strategy.info().name;
                let (plan, plan_renamed) =
                    match (support::outcome(name, &state), support::outcome(name, &other)) {
                        (Ok(a), Ok(b)) => (a, b),
                        (Err(_), Err(_)) => continue,
                        (a, b) => {
                            prop_assert!(false, "{}: renaming changed feasibility: {:?} vs {:?}\n{}",
                                name, a.err(), b.err(), replay(&state));
                            unreachable!()
                        }
                    };
                let expected: Placement = plan
                    .clients
                    .iter()
                    .map(|(id, cp)| (rename[id].clone(), cp.clone()))
                    .collect();
                prop_assert_eq!(
                    &plan_renamed.clients, &expected,
                    "{}: renaming {:?} changed the placement\n{}", name, rename, replay(&state)
                );
                prop_assert_eq!(plan_renamed.followup_rebalance_ms, plan.followup_rebalance_ms);
                prop_assert_eq!(&plan_renamed.strategy, &plan.strategy);
                // Diagnostics may name clients; compare them only when none does.
                let names_client = plan.diagnostics.iter().any(|d| {
                    state.clients().iter().any(|c| d.contains(c.id.as_str()))
                });
                if names_client {
                    prop_assert_eq!(plan_renamed.diagnostics.len(), plan.diagnostics.len());
                } else {
                    prop_assert_eq!(&plan_renamed.diagnostics, &plan.diagnostics);
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Properties of kip441
// ---------------------------------------------------------------------------

proptest! {
    #![proptest_config(support::proptest_config())]

    /// KIP-441's property (1) as shipped
    /// (docs/algorithms.md#kip441-required-properties,
    /// docs/algorithms.md#kip441-active-movements): every stateful active ends
    /// on a client that is caught up on it, or on a client no other client is
    /// strictly less lagged than (Kafka's `(lag, id)` order, sentinels
    /// included).
    #[test]
    fn kip441_actives_sit_on_caught_up_or_most_caught_up_clients(state in cluster()) {
        let plan = support::kip441(&state);
        let acceptable = state.config().acceptable_recovery_lag;
        for (id, owner) in plan.active_owners() {
            let task = state.task(id).expect("plan names known tasks");
            if !task.stateful {
                continue;
            }
            let client = state.client(owner).expect("plan names known clients");
            let lag = state.lag(client, task);
            let best = lags_of(&state, task).min().expect("at least one client");
            prop_assert!(
                lag.is_caught_up(acceptable) || lag <= best,
                "task {} active on {} with lag {} while acceptable lag is {} and the best lag is {}\nplan: {:?}\n{}",
                id, owner, lag, acceptable, best, plan, replay(&state)
            );
        }
    }

    /// A follow-up is asked exactly when movements were planned
    /// (docs/algorithms.md#kip441-probing-rebalances). Steps 1 and 2
    /// (docs/algorithms.md#kip441-overview) read no lags and no previous
    /// assignment, and with every client caught up nothing moves
    /// (docs/algorithms.md#kip441-task-movement), so the plan of the same state
    /// with acceptable lag `i64::MAX` is the state-unaware placement; every
    /// movement (swap, move with or without warm-up, standby move) changes
    /// the stateful placement, and none leaves it unchanged. Hence: follow-up
    /// ⇔ the plan differs from that placement. Warm-ups ⇒ follow-up, and the
    /// follow-up is the probing interval.
    #[test]
    fn kip441_follows_up_exactly_when_it_moves_tasks(state in cluster()) {
        let plan = support::kip441(&state);
        let unaware_config = AssignmentConfig {
            acceptable_recovery_lag: ACCEPT_ANY_LAG,
            ..state.config().clone()
        };
        let unaware_state = state.with_config(unaware_config).expect("same config but the lag");
        let unaware = support::kip441(&unaware_state);
        prop_assert_eq!(unaware.followup_rebalance_ms, None, "all caught up: no movement\n{}", replay(&unaware_state));
        prop_assert_eq!(unaware.warmup_count(), 0);

        if plan.warmup_count() > 0 {
            prop_assert!(plan.followup_rebalance_ms.is_some(), "warm-ups without follow-up: {:?}\n{}", plan, replay(&state));
        }
        if let Some(ms) = plan.followup_rebalance_ms {
            prop_assert_eq!(ms, state.config().probing_rebalance_interval_ms);
        }
        let moved = plan.clients != unaware.clients;
        prop_assert_eq!(
            plan.followup_rebalance_ms.is_some(), moved,
            "follow-up {:?} but the plan {} the state-unaware placement\nplan: {:?}\nunaware: {:?}\n{}",
            plan.followup_rebalance_ms,
            if moved { "departs from" } else { "equals" },
            plan.clients, unaware.clients, replay(&state)
        );
    }

    /// KIP-441's property (5), convergence
    /// (docs/algorithms.md#kip441-required-properties): a balanced plan
    /// computed with every client caught up, fed back as the previous assignment (actives report `running`,
    /// standbys lag 0, nothing else reported), is kept with no follow-up —
    /// both when everyone stays caught up and under the random acceptable lag
    /// (where clients holding nothing have to restore from scratch).
    #[test]
    fn kip441_keeps_a_caught_up_balanced_plan(state in cluster()) {
        // Every client caught up: acceptable lag covers every lag reported,
        // and reports beyond it (or unknown) are dropped (lag = end offset).
        let max_end = state.tasks().iter().map(|t| t.end_offset).max().unwrap_or(0);
        let caught_up_config = AssignmentConfig {
            acceptable_recovery_lag: max_end,
            ..state.config().clone()
        };
        let clients: Vec<Client> = state
            .clients()
            .iter()
            .map(|c| {
                let mut c = c.clone();
                c.lags.retain(|_, lag| lag.is_caught_up(max_end));
                c
            })
            .collect();
        let start = support::state(caught_up_config.clone(), state.tasks().to_vec(), clients);
        let p1 = support::kip441(&start);
        prop_assert_eq!(p1.followup_rebalance_ms, None, "everyone caught up, yet a follow-up\n{}", replay(&start));
        prop_assert_eq!(p1.warmup_count(), 0);

        for config in [caught_up_config, state.config().clone()] {
            let next = fed_back(&start, &p1, config);
            let p2 = support::kip441(&next);
            prop_assert_eq!(
                &p2.clients, &p1.clients,
                "the plan fed back was not kept\nfirst: {}\nnext: {}", replay(&start), replay(&next)
            );
            prop_assert_eq!(p2.followup_rebalance_ms, None, "follow-up on a converged plan\n{}", replay(&next));
        }
    }
}

/// The state after `plan` ran to completion: previous actives and standbys are
/// the plan's, actives report `running`, standbys and warm-ups lag 0, nothing
/// else is reported.
fn fed_back(state: &ClusterState, plan: &Plan, config: AssignmentConfig) -> ClusterState {
    let clients = state
        .clients()
        .iter()
        .map(|c| {
            let cp = &plan.clients[&c.id];
            let mut client = Client {
                previous_active: cp.active.clone(),
                previous_standby: cp.standby.union(&cp.warmup).copied().collect(),
                lags: BTreeMap::new(),
                ..c.clone()
            };
            let stateful = |t: &TaskId| state.task(*t).is_some_and(|t| t.stateful);
            for &t in cp.active.iter().filter(|t| stateful(t)) {
                client.lags.insert(t, Lag::Running);
            }
            for &t in cp.standby.union(&cp.warmup) {
                client.lags.insert(t, Lag::Records(0));
            }
            client
        })
        .collect();
    support::state(config, state.tasks().to_vec(), clients)
}

/// Sanity check of the generator: it produces the variety the properties rely on.
#[test]
fn the_generator_covers_the_interesting_inputs() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;

    let mut runner = TestRunner::deterministic();
    let strategy = cluster();
    let mut seen: BTreeSet<&str> = BTreeSet::new();
    for _ in 0..200 {
        let state = strategy.new_tree(&mut runner).expect("a tree").current();
        let n = state.clients().len();
        if n == 1 {
            seen.insert("one client");
        }
        if n >= 10 {
            seen.insert("many clients");
        }
        if state.clients().iter().any(|c| c.capacity > 1) {
            seen.insert("capacity > 1");
        }
        if state.tasks().iter().any(|t| t.stateful) && state.tasks().iter().any(|t| !t.stateful) {
            seen.insert("stateful and stateless");
        }
        let lags: Vec<Lag> = state
            .clients()
            .iter()
            .flat_map(|c| c.lags.values().copied())
            .collect();
        if lags.contains(&Lag::Running) {
            seen.insert("running");
        }
        if lags.contains(&Lag::Unknown) {
            seen.insert("unknown");
        }
        if lags.contains(&Lag::Records(0)) {
            seen.insert("zero");
        }
        if state
            .clients()
            .iter()
            .any(|c| !c.previous_standby.is_empty())
        {
            seen.insert("previous standby");
        }
        if !state.config().rack_aware_assignment_tags.is_empty() {
            seen.insert("tags");
        }
        if state.config().num_standby_replicas > 0 {
            seen.insert("standbys");
        }
        let mut owners: BTreeMap<TaskId, usize> = BTreeMap::new();
        for c in state.clients() {
            for &t in &c.previous_active {
                *owners.entry(t).or_default() += 1;
            }
        }
        if owners.values().any(|&n| n > 1) {
            seen.insert("two previous actives");
        }
        if state.config().rack_aware_strategy != RackAwareStrategy::None {
            seen.insert("rack strategy");
        }
        let plan = support::kip441(&state);
        if plan.warmup_count() > 0 {
            seen.insert("warm-ups");
        }
        if plan.followup_rebalance_ms.is_none() {
            seen.insert("no follow-up");
        }
    }
    let wanted = [
        "one client",
        "many clients",
        "capacity > 1",
        "stateful and stateless",
        "running",
        "unknown",
        "zero",
        "previous standby",
        "tags",
        "standbys",
        "two previous actives",
        "rack strategy",
        "warm-ups",
        "no follow-up",
    ];
    let missing: Vec<&str> = wanted
        .iter()
        .copied()
        .filter(|w| !seen.contains(w))
        .collect();
    assert!(
        missing.is_empty(),
        "the generator never produced: {missing:?}"
    );
}
