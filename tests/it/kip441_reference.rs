//! A literal, slow reference implementation of `kip441` (Kafka Streams'
//! `HighAvailabilityTaskAssignor`, KIP-441), and tests that the optimised
//! strategy gives exactly the reference's plan.
//!
//! The optimised `kip441` (packed indices, lazily re-keyed load orders,
//! counting sorts, a segment tree in the balance passes) is otherwise guarded
//! by the golden plan hashes (`golden.rs`); those say *that* a plan changed,
//! not what the right plan is. The reference ([`hata`]) is written straight
//! from Kafka's algorithm as the `kip441` module docs describe it, step by
//! step with Kafka's class and method names, with no performance work: plain
//! `BTreeMap`s keyed by client id and task id, a priority set that sorts its
//! clients on every poll, balance passes over every ordered pair. It uses only
//! the crate's public model (`ClusterState`, `Client`, `Task`, `Lag`, `Plan`).
//!
//! What it covers: everything `kip441` does except KIP-925's rack-aware
//! min-cost flow. The reference applies to a state when that optimisation
//! cannot change the placement — `rack_aware_strategy = none`, an enabling
//! condition fails, or `min_traffic` with every task on every client's rack
//! (zero traffic cost everywhere, so the current placement is already
//! optimal and is kept). The port documents that its choice among optimal
//! flows may differ from Java's, so a literal reference of Kafka's cycle
//! cancelling could not be compared placement for placement anyway; states
//! where the flow could move tasks (`balance_subtopology` with racks, or
//! `min_traffic` with some cross-rack cost) are skipped, and counted.
//!
//! The comparison is of the placement (every client's actives, standbys and
//! warm-ups), the follow-up delay and the strategy name; the diagnostics
//! (which only explain a disabled rack optimisation) are not compared.
//!
//! Tests:
//! - a property test over random states of every shape class — cold start,
//!   sparse lags with sentinels, steady state (the plan fed back, up to three
//!   rounds, each round compared), clients joining and leaving, lags changed
//!   after feeding back (caught-up and lagging standbys, churn), stateless
//!   tasks, standbys 0..=2, client tags with `rack_aware_assignment_tags`,
//!   unequal capacities, `acceptable_recovery_lag` at its extremes,
//!   `max_warmup_replicas` 1..=3, rack strategies that leave the placement
//!   alone;
//! - the same comparison on the random clusters of `properties.rs` and on
//!   states drawn by the crate's generator (`smoothscale::generate`);
//! - a deterministic run over the golden-plan input classes, cold and fed
//!   back (scaled down by default; the golden inputs themselves, 100 seeds
//!   per class plus the presets of at most 1,000 tasks, in a long run),
//!   which also checks that the set reaches probing, warm-ups, standbys and
//!   stateless tasks;
//! - the reference on its own against scenarios of Kafka's
//!   `HighAvailabilityTaskAssignorTest` (sticky warm-ups, KAFKA-13600, the
//!   warm-up budget's priority, free swaps, no movement when caught up).
//!
//! Cases: `SMOOTHSCALE_PROPTEST_CASES` (default 256; above 256 also selects
//! the long deterministic run, about half a minute). A failure prints both
//! plans, the clients where they differ, and the state as JSON (replay with
//! `smoothscale assign`).

mod hata;

use std::collections::BTreeSet;
use std::fmt::Write as _;

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::subsequence;

use smoothscale::generate::{self, History, Spec};
use smoothscale::model::ACCEPT_ANY_LAG;
use smoothscale::wire::state_to_json;
use smoothscale::{
    assignor, AssignmentConfig, Client, ClusterState, Lag, Plan, RackAwareStrategy, Task, TaskId,
};

use crate::properties::{self, Kind, LagPick, SubtopologySpec};
use crate::{golden, support};

// ---------------------------------------------------------------------------
// Comparison
// ---------------------------------------------------------------------------

/// The fast `kip441` plan of `state`.
fn fast(state: &ClusterState) -> Plan {
    assignor::by_name("kip441")
        .expect("kip441 is registered")
        .assign(state)
        .unwrap_or_else(|e| panic!("kip441 failed: {e}\n{}", state_to_json(state)))
}

/// A plan as text: one line per client, then the follow-up.
fn show(plan: &Plan) -> String {
    let mut text = String::new();
    let list = |set: &BTreeSet<TaskId>| {
        set.iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(",")
    };
    for (id, cp) in &plan.clients {
        let _ = writeln!(
            text,
            "  {id:?}: active=[{}] standby=[{}] warmup=[{}]",
            list(&cp.active),
            list(&cp.standby),
            list(&cp.warmup)
        );
    }
    let _ = writeln!(
        text,
        "  followup_rebalance_ms={:?}",
        plan.followup_rebalance_ms
    );
    text
}

/// Compares the fast plan with the reference on `state`. `Ok(None)` when the
/// reference does not cover the state (a rack optimisation that could move
/// tasks); `Ok(Some(plan))` when they agree; `Err` describing both plans and
/// the state when they differ.
fn compare(state: &ClusterState, what: &str) -> Result<Option<Plan>, String> {
    let Some(want) = hata::assign(state) else {
        return Ok(None);
    };
    let got = fast(state);
    let same = got.clients == want.clients
        && got.followup_rebalance_ms == want.followup_rebalance_ms
        && got.followup_when_caught_up == want.followup_when_caught_up
        && got.strategy == want.strategy;
    if same {
        return Ok(Some(got));
    }
    let differing: Vec<String> = want
        .clients
        .iter()
        .filter(|(id, cp)| got.clients.get(*id) != Some(*cp))
        .map(|(id, _)| format!("{id:?}"))
        .collect();
    Err(format!(
        "{what}: kip441 differs from the reference (clients {})\n\
         kip441:\n{}reference:\n{}state (replay with `smoothscale assign`):\n{}",
        differing.join(", "),
        show(&got),
        show(&want),
        state_to_json(state)
    ))
}

// ---------------------------------------------------------------------------
// Random states of every shape class
// ---------------------------------------------------------------------------

/// Client ids whose string order differs from their "numeric" order, so ties
/// broken by id are exercised.
const ID_POOL: &[&str] = &[
    "0", "1", "B", "a", "c1", "c10", "c2", "c9", "client-2", "x y", "zeta", "~",
];

/// Ids of joining clients: some sort before, some between, some after the others.
const JOIN_POOL: &[&str] = &["!new", "c15", "d-new"];

#[derive(Debug, Clone)]
struct ClientSpec {
    capacity: u32,
    zone: Option<u8>,
    rack_tag: Option<u8>,
}

/// How racks and the KIP-925 strategy are set.
#[derive(Debug, Clone, Copy)]
enum RackMode {
    /// `rack_aware_strategy = none`, no racks.
    Off,
    /// `min_traffic`, every client on rack r0 or r1 and every task on both:
    /// zero traffic cost everywhere.
    MinTrafficEverywhere,
    /// `min_traffic`, but one client has no rack: disabled.
    MinTrafficClientWithoutRack,
    /// `balance_subtopology`, racks on clients, none on tasks: disabled.
    BalanceSubtopologyTasksWithoutRacks,
}

/// Everything a random state is built from; shrinks field by field.
#[derive(Debug, Clone)]
struct Recipe {
    subtopologies: Vec<SubtopologySpec>,
    clients: Vec<ClientSpec>,
    ids: Vec<&'static str>,
    standbys: u32,
    acceptable_recovery_lag: u64,
    max_warmup_replicas: u32,
    tags: Vec<&'static str>,
    racks: RackMode,
    /// Lags reported before the first assignment; empty: a cold start.
    lags: Vec<LagPick>,
    /// Times the plan is fed back as the previous assignment (steady state).
    rounds: usize,
    /// Capacities of clients joining after the last round.
    joins: Vec<u32>,
    /// Clients leaving after the last round (positions, modulo the count).
    leaves: Vec<usize>,
    /// Lags changed after the last round: (client, task, new report).
    churn: Vec<(usize, usize, LagPick)>,
}

fn subtopology_spec() -> impl Strategy<Value = SubtopologySpec> {
    let kind = prop_oneof![
        3 => Just(Kind::Stateful),
        1 => Just(Kind::Stateless),
        1 => Just(Kind::Mixed),
    ];
    let end_offset = prop_oneof![
        1 => Just(0u64),
        2 => 1..=500u64,
        3 => 1_000..=2_000_000u64,
    ];
    (kind, 1..=6u32, end_offset).prop_map(|(kind, partitions, end_offset)| SubtopologySpec {
        kind,
        partitions,
        end_offset,
    })
}

fn client_spec() -> impl Strategy<Value = ClientSpec> {
    let capacity = prop_oneof![3 => Just(1u32), 2 => 1..=4u32];
    (
        capacity,
        proptest::option::of(0..3u8),
        proptest::option::of(0..2u8),
    )
        .prop_map(|(capacity, zone, rack_tag)| ClientSpec {
            capacity,
            zone,
            rack_tag,
        })
}

fn lag_pick() -> impl Strategy<Value = LagPick> {
    prop_oneof![
        5 => Just(LagPick::Missing),
        2 => Just(LagPick::Running),
        1 => Just(LagPick::Unknown),
        2 => Just(LagPick::Zero),
        3 => (0..=100u8).prop_map(LagPick::Percent),
        1 => (1..=1_000u16).prop_map(LagPick::Beyond),
    ]
}

fn recipe() -> impl Strategy<Value = Recipe> {
    let acceptable = prop_oneof![
        2 => Just(0u64),
        1 => Just(100u64),
        2 => 0..=2_000u64,
        1 => Just(10_000u64),
        1 => Just(ACCEPT_ANY_LAG - 1),
        1 => Just(ACCEPT_ANY_LAG),
        1 => Just(u64::MAX),
    ];
    let tags = prop_oneof![
        4 => Just(Vec::<&'static str>::new()),
        2 => Just(vec!["zone"]),
        1 => Just(vec!["zone", "rack"]),
        1 => Just(vec!["rack"]),
        1 => Just(vec!["cluster"]),
    ];
    let racks = prop_oneof![
        6 => Just(RackMode::Off),
        2 => Just(RackMode::MinTrafficEverywhere),
        1 => Just(RackMode::MinTrafficClientWithoutRack),
        1 => Just(RackMode::BalanceSubtopologyTasksWithoutRacks),
    ];
    let rounds = prop_oneof![2 => Just(0usize), 3 => 1..=3usize];
    let settings = (0..=2u32, acceptable, 1..=3u32, tags, racks, rounds);
    let shape = (
        vec(subtopology_spec(), 1..=4),
        vec(client_spec(), 1..=7),
        proptest::bool::weighted(0.25),
    );
    (shape, settings)
        .prop_flat_map(|((subtopologies, clients, cold), settings)| {
            let tasks: usize = subtopologies.iter().map(|s| s.partitions as usize).sum();
            let n = clients.len();
            let lags = if cold {
                vec(lag_pick(), 0..=0).boxed()
            } else {
                vec(lag_pick(), tasks * n).boxed()
            };
            (
                Just(subtopologies),
                Just(clients),
                subsequence(ID_POOL, n),
                Just(settings),
                lags,
                vec(1..=3u32, 0..=2),
                vec(0..n, 0..=2),
                vec((0..n, 0..tasks, lag_pick()), 0..=6),
            )
        })
        .prop_map(
            |(subtopologies, clients, ids, settings, lags, joins, leaves, churn)| {
                let (standbys, acceptable, warmups, tags, racks, rounds) = settings;
                Recipe {
                    subtopologies,
                    clients,
                    ids,
                    standbys,
                    acceptable_recovery_lag: acceptable,
                    max_warmup_replicas: warmups,
                    tags,
                    racks,
                    lags,
                    rounds,
                    joins,
                    leaves,
                    churn,
                }
            },
        )
}

/// The lag a pick gives on `task`; `None` for no report.
/// A client built from its spec, with tags and (per the rack mode) a rack.
fn new_client(id: &str, spec: &ClientSpec, position: usize, racks: RackMode) -> Client {
    let mut client = Client::new(id, spec.capacity);
    if let Some(z) = spec.zone {
        client = client.with_tag("zone", format!("z{z}"));
    }
    if let Some(r) = spec.rack_tag {
        client = client.with_tag("rack", format!("r{r}"));
    }
    let racked = match racks {
        RackMode::Off => false,
        RackMode::MinTrafficClientWithoutRack => position != 0,
        RackMode::MinTrafficEverywhere | RackMode::BalanceSubtopologyTasksWithoutRacks => true,
    };
    if racked {
        client = client.with_rack(format!("r{}", position % 2));
    }
    client
}

/// The initial state of a recipe: tasks, clients, config and first lags.
fn initial_state(recipe: &Recipe) -> ClusterState {
    let mut tasks = properties::tasks_of(&recipe.subtopologies);
    if let RackMode::MinTrafficEverywhere | RackMode::MinTrafficClientWithoutRack = recipe.racks {
        for task in &mut tasks {
            task.racks = ["r0", "r1"].iter().map(|r| r.to_string()).collect();
            if task.stateful {
                task.changelog_racks = task.racks.clone();
            }
        }
    }
    let mut clients = Vec::new();
    for (c, spec) in recipe.clients.iter().enumerate() {
        let mut client = new_client(recipe.ids[c], spec, c, recipe.racks);
        if !recipe.lags.is_empty() {
            for (k, task) in tasks.iter().enumerate() {
                if !task.stateful {
                    continue;
                }
                if let Some(lag) = recipe.lags[c * tasks.len() + k].lag(task) {
                    client.lags.insert(task.id, lag);
                    // The history a client with such a report would have.
                    if lag == Lag::Running {
                        client.previous_active.insert(task.id);
                    } else {
                        client.previous_standby.insert(task.id);
                    }
                }
            }
        }
        clients.push(client);
    }
    let config = AssignmentConfig {
        num_standby_replicas: recipe.standbys,
        acceptable_recovery_lag: recipe.acceptable_recovery_lag,
        max_warmup_replicas: recipe.max_warmup_replicas,
        rack_aware_assignment_tags: recipe.tags.iter().map(|t| t.to_string()).collect(),
        rack_aware_strategy: match recipe.racks {
            RackMode::Off => RackAwareStrategy::None,
            RackMode::MinTrafficEverywhere | RackMode::MinTrafficClientWithoutRack => {
                RackAwareStrategy::MinTraffic
            }
            RackMode::BalanceSubtopologyTasksWithoutRacks => RackAwareStrategy::BalanceSubtopology,
        },
        ..AssignmentConfig::default()
    };
    support::state(config, tasks, clients)
}

/// The state after membership changes and lag churn, applied to `state`.
fn changed_state(recipe: &Recipe, state: &ClusterState) -> ClusterState {
    let mut clients: Vec<Client> = state.clients().to_vec();
    let mut leaving: Vec<usize> = recipe.leaves.iter().map(|&i| i % clients.len()).collect();
    leaving.sort_unstable();
    leaving.dedup();
    if leaving.len() < clients.len() {
        for &i in leaving.iter().rev() {
            clients.remove(i);
        }
    }
    for (k, &capacity) in recipe.joins.iter().enumerate() {
        let spec = ClientSpec {
            capacity,
            zone: Some((k % 3) as u8),
            rack_tag: None,
        };
        clients.push(new_client(JOIN_POOL[k], &spec, k + 1, recipe.racks));
    }
    let stateful: Vec<&Task> = state.tasks().iter().filter(|t| t.stateful).collect();
    if !stateful.is_empty() {
        for &(c, t, pick) in &recipe.churn {
            let client = c % clients.len();
            let task = stateful[t % stateful.len()];
            match pick.lag(task) {
                Some(lag) => clients[client].lags.insert(task.id, lag),
                None => clients[client].lags.remove(&task.id),
            };
        }
    }
    support::state(state.config().clone(), state.tasks().to_vec(), clients)
}

/// Builds the recipe's states in turn, comparing the fast plan with the
/// reference on each: the initial state, every fed-back round, then the
/// state after joins, leaves and lag churn. Returns how many states the
/// reference covered.
fn check_recipe(recipe: &Recipe) -> Result<usize, String> {
    let mut covered = 0;
    let mut state = initial_state(recipe);
    for round in 0..=recipe.rounds {
        let what = format!("round {round}");
        let plan = match compare(&state, &what)? {
            Some(plan) => {
                covered += 1;
                plan
            }
            None => fast(&state),
        };
        if round < recipe.rounds {
            state = generate::fed_back(&state, &plan).expect("fed back state is valid");
        }
    }
    if !(recipe.joins.is_empty() && recipe.leaves.is_empty() && recipe.churn.is_empty()) {
        let plan = fast(&state);
        let fed = generate::fed_back(&state, &plan).expect("fed back state is valid");
        let changed = changed_state(recipe, &fed);
        if compare(&changed, "after joins, leaves and lag churn")?.is_some() {
            covered += 1;
        }
    }
    Ok(covered)
}

/// The generator's own small specs: a drawn size and history.
fn generated_state() -> impl Strategy<Value = ClusterState> {
    let history = prop_oneof![
        1 => Just(History::Cold),
        1 => (1..=4u32).prop_map(|reports| History::Sparse { reports }),
        3 => Just(History::Random),
    ];
    (
        1..=40u32,
        0..=6u32,
        1..=4u32,
        1..=9u32,
        1..=4u32,
        0..=3u32,
        history,
        any::<u64>(),
    )
        .prop_map(
            |(stateful, stateless, subtopologies, clients, threads, standbys, history, seed)| {
                let spec = Spec {
                    stateful,
                    stateless,
                    subtopologies,
                    clients,
                    threads,
                    standbys,
                    history,
                };
                generate::generate(&spec, seed).expect("valid spec")
            },
        )
}

proptest! {
    #![proptest_config(support::proptest_config())]

    /// On random states of every shape class, and on each fed-back round,
    /// the fast kip441 plan equals the reference plan.
    #[test]
    fn kip441_equals_the_reference(recipe in recipe()) {
        match check_recipe(&recipe) {
            Ok(covered) => prop_assert!(covered > 0, "the reference covered none of {recipe:?}"),
            Err(message) => prop_assert!(false, "{}", message),
        }
    }

    /// The same on the random clusters of the property tests (sparse lags
    /// with sentinels, stale second owners, tags, racks) and on states drawn
    /// by the crate's generator, fed back once.
    #[test]
    fn kip441_equals_the_reference_on_other_generators(
        state in crate::properties::cluster(),
        generated in generated_state(),
    ) {
        for (what, state) in [("properties::cluster", state), ("generate", generated)] {
            if let Some(plan) = compare(&state, what).map_err(TestCaseError::fail)? {
                let again = generate::fed_back(&state, &plan).expect("valid");
                compare(&again, &format!("{what}, fed back")).map_err(TestCaseError::fail)?;
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Deterministic: the golden-plan input classes
// ---------------------------------------------------------------------------

/// Whether the long runs were asked for: `SMOOTHSCALE_PROPTEST_CASES` above
/// the default 256.
fn long_run() -> bool {
    support::proptest_config().cases > 256
}

/// States shaped like the golden-plan inputs (`golden.rs`: few clients, many
/// threads, many standbys, many clients, sparse lags; histories cycling
/// through cold, sparse and random). By default 12 scaled-down seeds per
/// class; in a long run the golden inputs themselves (100 seeds per class)
/// and the presets of at most 1,000 tasks.
fn golden_like_states() -> Vec<(String, ClusterState)> {
    let full = long_run();
    let seeds = if full { 100 } else { 12 };
    let mut all = Vec::new();
    for class in golden::CLASSES {
        for seed in 0..seeds {
            let state =
                generate::generate(&golden::class_spec(class, seed, full), seed).expect("valid");
            all.push((format!("{class}/{seed}"), state));
        }
    }
    if full {
        for preset in generate::presets() {
            if preset.spec.stateful <= 1_000 {
                let state = generate::generate(&preset.spec, 0).expect("valid");
                all.push((format!("preset/{}", preset.name), state));
            }
        }
    }
    all
}

#[test]
fn kip441_equals_the_reference_on_golden_like_states() {
    let mut covered = 0;
    let mut skipped = 0;
    let (mut probing, mut warmups, mut standbys, mut stateless) = (0, 0, 0, 0);
    for (name, state) in golden_like_states() {
        let plan = match compare(&state, &name) {
            Ok(Some(plan)) => plan,
            Ok(None) => {
                skipped += 1;
                continue;
            }
            Err(message) => panic!("{message}"),
        };
        let again = generate::fed_back(&state, &plan).expect("valid");
        let steady = compare(&again, &format!("{name}, fed back"))
            .unwrap_or_else(|message| panic!("{message}"))
            .expect("covered like the state it came from");
        covered += 2;
        for p in [&plan, &steady] {
            probing += usize::from(p.followup_rebalance_ms.is_some());
            warmups += usize::from(p.warmup_count() > 0);
            standbys += usize::from(p.clients.values().any(|c| !c.standby.is_empty()));
        }
        stateless += usize::from(state.tasks().iter().any(|t| !t.stateful));
    }
    eprintln!("golden-like states: {covered} plans compared, {skipped} states skipped (rack flow)");
    // The set reaches every branch worth comparing.
    assert!(covered >= 100, "covered {covered}, skipped {skipped}");
    assert!(probing > 0 && warmups > 0 && standbys > 0 && stateless > 0);
}

/// Small fixed cases of Kafka's own tests (rows of `HighAvailabilityTaskAssignorTest`, docs/algorithms.md#kafkas-ha-assignor-test), compared too,
/// plus a state without clients.
#[test]
fn kip441_equals_the_reference_on_small_fixed_states() {
    let config = AssignmentConfig {
        acceptable_recovery_lag: 100,
        num_standby_replicas: 1,
        ..AssignmentConfig::default()
    };
    let tasks = support::stateful_grid(3, 3, 1_000);
    let c1 = support::with_lags(Client::new("c1", 1), &tasks, Lag::Records(0));
    let c2 = support::with_lags(Client::new("c2", 1), &tasks, Lag::Records(10));
    let c3 = support::with_lags(Client::new("c3", 1), &tasks, Lag::Records(u64::MAX));
    let states = [
        // Sticky while warming up: one caught-up client.
        support::state(config.clone(), tasks.clone(), vec![c1, c2.clone(), c3]),
        // Unequal capacities, nobody caught up.
        support::state(
            AssignmentConfig {
                acceptable_recovery_lag: 0,
                ..AssignmentConfig::default()
            },
            support::stateful_grid(2, 3, 10),
            vec![
                Client::new("a", 1),
                Client::new("b", 2),
                Client::new("c", 3),
            ],
        ),
        // No clients at all.
        support::state(config.clone(), tasks.clone(), Vec::new()),
        // One client, standbys wanted.
        support::state(config, tasks, vec![c2]),
    ];
    for (i, state) in states.iter().enumerate() {
        compare(state, &format!("fixed state {i}"))
            .unwrap_or_else(|message| panic!("{message}"))
            .expect("covered");
    }
}

// ---------------------------------------------------------------------------
// The reference against Kafka's own test scenarios
// ---------------------------------------------------------------------------

/// Total replicas (active, standby, warm-up) of client `id` in `plan`.
fn held(plan: &Plan, id: &str) -> usize {
    let cp = cp_of(plan, id);
    cp.active.len() + cp.standby.len() + cp.warmup.len()
}

/// The reference reproduces scenarios of Kafka's
/// `HighAvailabilityTaskAssignorTest` (Kafka's test config: acceptable lag
/// 100, two warm-ups, capacity 1), independently of the port; each state is
/// compared with kip441 too.
#[test]
fn the_reference_reproduces_kafkas_scenarios() {
    let kafka = |standbys: u32, warmups: u32, acceptable: u64| AssignmentConfig {
        num_standby_replicas: standbys,
        max_warmup_replicas: warmups,
        acceptable_recovery_lag: acceptable,
        ..AssignmentConfig::default()
    };
    let far = Lag::Records(i64::MAX as u64);
    let check = |state: &ClusterState| -> Plan {
        compare(state, "Kafka scenario")
            .unwrap_or_else(|message| panic!("{message}"))
            .expect("covered");
        hata::assign(state).expect("covered")
    };

    // Sticky while warming up: c1 caught up on all nine tasks, c2 within the
    // acceptable lag, c3 far behind: c1 and c2 keep everything, c3 gets the
    // two warm-ups, and a probing rebalance follows.
    let tasks = support::stateful_grid(3, 3, 1_000);
    let state = support::state(
        kafka(1, 2, 11),
        tasks.clone(),
        vec![
            support::with_lags(Client::new("c1", 1), &tasks, Lag::Records(0)),
            support::with_lags(Client::new("c2", 1), &tasks, Lag::Records(10)),
            support::with_lags(Client::new("c3", 1), &tasks, far),
        ],
    );
    let plan = check(&state);
    assert_eq!(
        (held(&plan, "c1"), held(&plan, "c2"), held(&plan, "c3")),
        (9, 9, 2)
    );
    assert_eq!(plan.warmup_count(), 2);
    assert!(plan.followup_rebalance_ms.is_some());

    // Nobody caught up (KAFKA-13600): the most caught-up client gets the
    // active, the next the standby, the round-robin choice a warm-up.
    let task = support::t(0, 0);
    let tasks = vec![Task::stateful(task, 1_000_000)];
    let state = support::state(
        kafka(1, 2, 100),
        tasks,
        vec![
            Client::new("c1", 1).with_lag(task, far),
            Client::new("c2", 1).with_lag(task, Lag::Records(1_000)),
            Client::new("c3", 1).with_lag(task, Lag::Records(500)),
        ],
    );
    let plan = check(&state);
    assert!(cp_of(&plan, "c3").active.contains(&task));
    assert!(cp_of(&plan, "c2").standby.contains(&task));
    assert!(cp_of(&plan, "c1").warmup.contains(&task));
    assert!(plan.followup_rebalance_ms.is_some());

    // One warm-up, no standbys: c1 keeps its four actives, c2 gets exactly
    // one warm-up (the highest-priority movement).
    let tasks = support::stateful_grid(1, 4, 1_000);
    let c1 = support::with_lags(Client::new("c1", 1), &tasks, Lag::Running);
    let state = support::state(
        kafka(0, 1, 100),
        tasks.clone(),
        vec![c1.clone(), Client::new("c2", 1)],
    );
    let plan = check(&state);
    assert_eq!(cp_of(&plan, "c1").active.len(), 4);
    assert_eq!((held(&plan, "c2"), plan.warmup_count()), (1, 1));

    // One warm-up, one standby: both movements resolve by swapping with a
    // standby (no budget spent), so c2 ends up holding all four tasks as
    // standbys or warm-ups, never an active.
    let state = support::state(kafka(1, 1, 100), tasks, vec![c1, Client::new("c2", 1)]);
    let plan = check(&state);
    assert_eq!(cp_of(&plan, "c1").active.len(), 4);
    assert_eq!(held(&plan, "c2"), 4);
    assert!(cp_of(&plan, "c2").active.is_empty());
    assert!(plan.followup_rebalance_ms.is_some());

    // Each client caught up on the task round robin gives it: nothing
    // moves, each holds the other's standby, no probing.
    let (a, b) = (support::t(0, 0), support::t(0, 1));
    let state = support::state(
        kafka(1, 2, 100),
        vec![Task::stateful(a, 1_000), Task::stateful(b, 1_000)],
        vec![
            Client::new("c1", 1).with_lag(a, Lag::Running),
            Client::new("c2", 1).with_lag(b, Lag::Running),
        ],
    );
    let plan = check(&state);
    let (p1, p2) = (cp_of(&plan, "c1"), cp_of(&plan, "c2"));
    assert_eq!((p1.active, p1.standby), ([a].into(), [b].into()));
    assert_eq!((p2.active, p2.standby), ([b].into(), [a].into()));
    assert_eq!(plan.followup_rebalance_ms, None);
}

/// Client `id`'s part of `plan`.
fn cp_of(plan: &Plan, id: &str) -> smoothscale::ClientPlan {
    plan.clients[&smoothscale::ClientId::new(id)].clone()
}
