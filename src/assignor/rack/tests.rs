//! KIP-925 rack-aware optimisation in `kip441` and `sticky` (Kafka's
//! `RackAwareTaskAssignor`): enabling conditions, cross-rack traffic, counts,
//! zero traffic cost, subtopology caps, standby tag diversity. Unit tests:
//! the rack machinery is crate-private.
//!
//! The traffic property is stated where it holds. The optimisers never
//! raise the cross-rack traffic of the placement they are given; in
//! `kip441` the movements back to caught-up clients run afterwards and can
//! undo some of it, so the end-to-end comparison uses inputs where every
//! client is caught up on every task (no movement happens), and the
//! optimisers are also checked directly on arbitrary plans.

use std::collections::{BTreeMap, BTreeSet};

use proptest::prelude::*;
use proptest::sample::subsequence;

use crate::assignor::rack::{self, Costs, RackWork, Sets};
use crate::model::{
    AssignmentConfig, Client, ClusterState, Lag, Plan, RackAwareStrategy, Task, TaskId,
};
use crate::model::{ClientIx, TaskIx};

/// The few integration-test helpers these tests use, inside the crate.
mod support {
    use crate::assignor::registry;
    use crate::model::{AssignmentConfig, Client, ClusterState, Lag, Plan, Task};
    use crate::validate::validate;

    /// A checked state; panics with the input error if the test built a bad one.
    pub fn state(config: AssignmentConfig, tasks: Vec<Task>, clients: Vec<Client>) -> ClusterState {
        ClusterState::new(config, tasks, clients).unwrap_or_else(|e| panic!("bad test state: {e}"))
    }

    /// A client reporting `lag` for every task in `tasks`.
    pub fn with_lags(mut client: Client, tasks: &[Task], lag: Lag) -> Client {
        for task in tasks {
            client.lags.insert(task.id, lag);
        }
        client
    }

    /// Runs `strategy` on `state`, asserts `validate` holds, returns the plan.
    pub fn run(strategy: &str, state: &ClusterState) -> Plan {
        let assignor = registry::by_name(strategy).expect("registered strategy");
        let plan = assignor.assign(state).expect("assign succeeds");
        if let Err(v) = validate(state, &plan, assignor.info().claims) {
            panic!("{strategy} broke invariants: {v:?}\nplan: {plan:?}");
        }
        plan
    }

    /// Runs kip441 with `validate`.
    pub fn kip441(state: &ClusterState) -> Plan {
        run("kip441", state)
    }

    /// As the integration tests' settings: `SMOOTHSCALE_PROPTEST_CASES`
    /// cases (default 256), failures printed, not persisted.
    pub fn proptest_config() -> proptest::prelude::ProptestConfig {
        let cases = std::env::var("SMOOTHSCALE_PROPTEST_CASES")
            .ok()
            .map(|v| {
                v.trim().parse().unwrap_or_else(|_| {
                    panic!("SMOOTHSCALE_PROPTEST_CASES must be a number, got {v:?}")
                })
            })
            .unwrap_or(256);
        proptest::prelude::ProptestConfig {
            cases,
            failure_persistence: None,
            ..proptest::prelude::ProptestConfig::default()
        }
    }
}

const RACKS: &[&str] = &["r0", "r1", "r2"];

fn racks(names: &[&str]) -> BTreeSet<String> {
    names.iter().map(|s| s.to_string()).collect()
}

/// Two clients in different racks, two stateful tasks with racks, one standby.
fn racked(strategy: RackAwareStrategy) -> (AssignmentConfig, Vec<Task>, Vec<Client>) {
    let config = AssignmentConfig {
        rack_aware_strategy: strategy,
        num_standby_replicas: 1,
        ..AssignmentConfig::default()
    };
    let tasks = (0..2)
        .map(|p| Task {
            racks: racks(&["r1"]),
            changelog_racks: racks(&["r0"]),
            ..Task::stateful(TaskId::new(0, p), 100)
        })
        .collect();
    let clients = vec![
        Client::new("c1", 1).with_rack("r0"),
        Client::new("c2", 1).with_rack("r1"),
    ];
    (config, tasks, clients)
}

fn without_rack(state: &ClusterState) -> ClusterState {
    let config = AssignmentConfig {
        rack_aware_strategy: RackAwareStrategy::None,
        ..state.config().clone()
    };
    state.with_config(config).expect("valid config")
}

#[test]
fn enabling_conditions_name_the_missing_piece() {
    type Edit = fn(&mut AssignmentConfig, &mut Vec<Task>, &mut Vec<Client>);
    let cases: Vec<(&str, Edit, Option<&str>)> = vec![
        ("all present", |_, _, _| {}, None),
        (
            "client without rack",
            |_, _, c| c[1].rack = None,
            Some("client c2 has no rack"),
        ),
        (
            "task without racks",
            |_, t, _| t[1].racks.clear(),
            Some("task 0_1 has no input-partition racks"),
        ),
        (
            "changelog racks missing with standbys",
            |_, t, _| t[0].changelog_racks.clear(),
            Some("stateful task 0_0 has no changelog racks"),
        ),
        (
            "changelog racks missing without standbys",
            |cfg, t, _| {
                cfg.num_standby_replicas = 0;
                t[0].changelog_racks.clear();
            },
            None,
        ),
    ];
    for strategy in [
        RackAwareStrategy::MinTraffic,
        RackAwareStrategy::BalanceSubtopology,
    ] {
        for (name, edit, reason) in &cases {
            let (mut config, mut tasks, mut clients) = racked(strategy);
            edit(&mut config, &mut tasks, &mut clients);
            let state = support::state(config, tasks, clients);
            assert_eq!(
                rack::enablement(&state).is_enabled(),
                reason.is_none(),
                "{name}"
            );
            for strategy_name in ["kip441", "sticky"] {
                let plan = support::run(strategy_name, &state);
                match reason {
                    None => assert!(
                        plan.diagnostics.is_empty(),
                        "{name}: {:?}",
                        plan.diagnostics
                    ),
                    Some(reason) => {
                        assert_eq!(plan.diagnostics.len(), 1, "{name}: {:?}", plan.diagnostics);
                        assert!(
                            plan.diagnostics[0].contains(reason),
                            "{name}: {:?}",
                            plan.diagnostics
                        );
                        assert!(plan.diagnostics[0].contains("was not applied"), "{name}");
                        // A no-op: the plan is the one without rack awareness.
                        let off = support::run(strategy_name, &without_rack(&state));
                        assert_eq!(
                            plan.clients, off.clients,
                            "{name}: {strategy_name} not a no-op"
                        );
                    }
                }
            }
        }
    }
    // Strategy none: off, and nothing to say.
    let (config, tasks, mut clients) = racked(RackAwareStrategy::None);
    clients[0].rack = None;
    let state = support::state(config, tasks, clients);
    assert_eq!(rack::enablement(&state), rack::Enablement::Off);
    for name in ["kip441", "sticky"] {
        assert!(support::run(name, &state).diagnostics.is_empty());
    }
}

#[test]
fn min_traffic_moves_actives_into_their_racks() {
    // c1 in r0, c2 in r1; task 0_0's partitions live in r1, 0_1's in r0.
    // Round robin puts 0_0 on c1 and 0_1 on c2: both cross-rack; the
    // optimiser swaps them.
    let config = AssignmentConfig {
        rack_aware_strategy: RackAwareStrategy::MinTraffic,
        ..AssignmentConfig::default()
    };
    let tasks = vec![
        Task {
            racks: racks(&["r1"]),
            ..Task::stateful(TaskId::new(0, 0), 0)
        },
        Task {
            racks: racks(&["r0"]),
            ..Task::stateful(TaskId::new(0, 1), 0)
        },
    ];
    let clients = vec![
        Client::new("c1", 1).with_rack("r0"),
        Client::new("c2", 1).with_rack("r1"),
    ];
    let clients = clients
        .into_iter()
        .map(|c| support::with_lags(c, &tasks, Lag::Records(0)))
        .collect();
    let state = support::state(config, tasks, clients);
    let plan = support::kip441(&state);
    let owners = plan.active_owners();
    assert_eq!(owners[&TaskId::new(0, 0)].as_str(), "c2");
    assert_eq!(owners[&TaskId::new(0, 1)].as_str(), "c1");
    assert_eq!(cross_rack(&state, &plan), 0);
}

/// Weighted cross-rack traffic of the actives: tasks whose client's rack is
/// not among the task's racks.
fn cross_rack(state: &ClusterState, plan: &Plan) -> usize {
    rack::cross_rack_actives(state, &Sets::from_plan(state, plan))
}

fn active_counts(plan: &Plan) -> BTreeMap<String, usize> {
    plan.clients
        .iter()
        .map(|(id, cp)| (id.as_str().to_string(), cp.active.len()))
        .collect()
}

/// Per subtopology, max − min actives of it over the clients.
fn max_subtopology_skew(plan: &Plan) -> usize {
    let subs: BTreeSet<u32> = plan
        .clients
        .values()
        .flat_map(|cp| cp.active.iter().map(|t| t.subtopology))
        .collect();
    subs.iter()
        .map(|&g| {
            let counts: Vec<usize> = plan
                .clients
                .values()
                .map(|cp| cp.active.iter().filter(|t| t.subtopology == g).count())
                .collect();
            counts.iter().max().unwrap() - counts.iter().min().unwrap()
        })
        .max()
        .unwrap_or(0)
}

/// Per task, distinct (key, value) tags over its holders.
fn tag_diversity(state: &ClusterState, sets: &Sets) -> Vec<usize> {
    state
        .task_ixs()
        .map(|t| {
            let mut tags = BTreeSet::new();
            for c in sets.holders(t) {
                tags.extend(state.clients()[c.index()].tags.iter());
            }
            tags.len()
        })
        .collect()
}

#[derive(Debug, Clone)]
struct Shape {
    subs: Vec<(bool, u32)>,
    clients: Vec<(u32, usize, usize)>,
    task_racks: Vec<(Vec<bool>, Vec<bool>)>,
    standbys: u32,
    caught_up: bool,
    lags: Vec<u64>,
}

/// Random racked clusters: 1–4 subtopologies of 1–6 partitions (stateful or
/// not), 1–6 clients with capacity 1–3, a rack and a `zone` tag each, tasks
/// with non-empty input and changelog rack sets, 0–2 standbys, and either
/// every client caught up on every task or random lags.
fn shape(
    max_clients: usize,
    stateful_only: bool,
    unit_capacity: bool,
) -> impl Strategy<Value = Shape> {
    (
        proptest::collection::vec((any::<bool>(), 1..=6u32), 1..=4),
        proptest::collection::vec((1..=3u32, 0..RACKS.len(), 0..3usize), 1..=max_clients),
        0..=2u32,
        any::<bool>(),
    )
        .prop_flat_map(move |(subs, clients, standbys, caught_up)| {
            let n: usize = subs.iter().map(|&(_, p)| p as usize).sum();
            let cells = n * clients.len();
            (
                Just((subs, clients, standbys, caught_up)),
                proptest::collection::vec(
                    (
                        subsequence(vec![true, false, false], 3),
                        subsequence(vec![true, false, false], 3),
                    ),
                    n,
                ),
                proptest::collection::vec(0..300u64, cells),
            )
        })
        .prop_map(
            move |((subs, clients, standbys, caught_up), task_racks, lags)| Shape {
                subs: subs
                    .into_iter()
                    .map(|(s, p)| (s || stateful_only, p))
                    .collect(),
                clients: clients
                    .into_iter()
                    .map(|(cap, r, z)| (if unit_capacity { 1 } else { cap }, r, z))
                    .collect(),
                task_racks,
                standbys,
                caught_up,
                lags,
            },
        )
}

/// Rack sets from a shuffled-ish mask: at least one rack.
fn rack_set(mask: &[bool], salt: usize) -> BTreeSet<String> {
    let mut set: BTreeSet<String> = mask
        .iter()
        .enumerate()
        .filter(|&(_, &b)| b)
        .map(|(i, _)| RACKS[(i + salt) % RACKS.len()].to_string())
        .collect();
    if set.is_empty() {
        set.insert(RACKS[salt % RACKS.len()].to_string());
    }
    set
}

fn build(shape: &Shape, config: AssignmentConfig) -> ClusterState {
    let mut tasks = Vec::new();
    for (s, &(stateful, partitions)) in shape.subs.iter().enumerate() {
        for p in 0..partitions {
            let id = TaskId::new(u32::try_from(s).expect("few subtopologies"), p);
            let (input, changelog) = &shape.task_racks[tasks.len()];
            let salt = tasks.len() * 7 + 3;
            let base = if stateful {
                Task::stateful(id, 1_000)
            } else {
                Task::stateless(id)
            };
            tasks.push(Task {
                racks: rack_set(input, salt),
                changelog_racks: if stateful {
                    rack_set(changelog, salt + 1)
                } else {
                    BTreeSet::new()
                },
                ..base
            });
        }
    }
    let clients = shape
        .clients
        .iter()
        .enumerate()
        .map(|(c, &(cap, r, z))| {
            let mut client = Client::new(format!("c{c:02}"), cap)
                .with_rack(RACKS[r])
                .with_tag("zone", format!("z{z}"));
            for (k, task) in tasks.iter().enumerate().filter(|(_, t)| t.stateful) {
                let lag = if shape.caught_up {
                    0
                } else {
                    shape.lags[c * tasks.len() + k]
                };
                client.lags.insert(task.id, Lag::Records(lag));
            }
            client
        })
        .collect();
    let config = AssignmentConfig {
        num_standby_replicas: shape.standbys,
        acceptable_recovery_lag: 100,
        ..config
    };
    support::state(config, tasks, clients)
}

/// Whether every client holds at most `⌈orig(k) · n_g / n⌉` actives of each
/// subtopology `g` among `tasks` (`orig(k)` its count of them): the caps of
/// `balance_subtopology`.
fn meets_subtopology_caps(state: &ClusterState, sets: &Sets, tasks: &[TaskIx]) -> bool {
    let counts = rack::active_counts(sets, tasks);
    let mut per_group: BTreeMap<u32, usize> = BTreeMap::new();
    let mut on_client: BTreeMap<(u32, ClientIx), usize> = BTreeMap::new();
    for &t in tasks {
        let g = state.tasks()[t.index()].id.subtopology;
        *per_group.entry(g).or_default() += 1;
        if let Some(c) = sets.active_owner(t) {
            *on_client.entry((g, c)).or_default() += 1;
        }
    }
    on_client.iter().all(|(&(g, c), &n)| {
        let cap = (counts[&c] * per_group[&g]).div_ceil(tasks.len());
        n <= cap
    })
}

fn with_strategy(strategy: RackAwareStrategy) -> AssignmentConfig {
    AssignmentConfig {
        rack_aware_strategy: strategy,
        ..AssignmentConfig::default()
    }
}

proptest! {
    #![proptest_config(support::proptest_config())]

    /// min_traffic, every client caught up (no movement undoes the
    /// optimisation): the actives' cross-rack traffic is never above the plan
    /// without rack awareness, every client keeps its active count, and the
    /// optimiser is applied (no diagnostic). Same for sticky.
    #[test]
    fn min_traffic_never_adds_traffic_and_keeps_counts(shape in shape(6, false, false)) {
        let mut shape = shape;
        shape.caught_up = true;
        let on = build(&shape, with_strategy(RackAwareStrategy::MinTraffic));
        let off = without_rack(&on);
        for name in ["kip441", "sticky"] {
            let (p_on, p_off) = (support::run(name, &on), support::run(name, &off));
            prop_assert!(p_on.diagnostics.is_empty(), "{:?}", p_on.diagnostics);
            prop_assert!(cross_rack(&on, &p_on) <= cross_rack(&on, &p_off), "{}", name);
            prop_assert_eq!(active_counts(&p_on), active_counts(&p_off), "{}", name);
            prop_assert_eq!(p_on.followup_rebalance_ms, p_off.followup_rebalance_ms);
        }
    }

    /// The active optimiser on any plan (random lags, so after kip441's
    /// movements): counts kept, and never more cross-rack actives — for
    /// `balance_subtopology` only when the plan already met its subtopology
    /// caps (staying put is then one of its placements; when it is not, the
    /// caps force moves that may cross racks: found at about 1 in 40,000
    /// random cases, with the dense network of issue 5 as with the sparse one).
    #[test]
    fn active_optimiser_never_adds_traffic(shape in shape(6, false, false), balance in any::<bool>()) {
        let strategy = if balance { RackAwareStrategy::BalanceSubtopology } else { RackAwareStrategy::MinTraffic };
        let on = build(&shape, with_strategy(strategy));
        let plan = support::kip441(&without_rack(&on));
        let mut sets = Sets::from_plan(&on, &plan);
        let all: Vec<TaskIx> = on.task_ixs().collect();
        let before = (rack::cross_rack_actives(&on, &sets), rack::active_counts(&sets, &all));
        let within_caps = !balance || meets_subtopology_caps(&on, &sets, &all);
        rack::optimize_active(&on, &mut sets, &all, Costs::KIP441);
        if within_caps {
            prop_assert!(rack::cross_rack_actives(&on, &sets) <= before.0);
        }
        prop_assert_eq!(rack::active_counts(&sets, &all), before.1);
        if balance {
            prop_assert!(meets_subtopology_caps(&on, &sets, &all));
        }
    }

    /// Row 24: traffic cost 0 (non-overlap 10) with min_traffic leaves the
    /// stateful actives and the standbys exactly as without rack awareness,
    /// whatever the lags; kip441 and sticky (sticky's standbys: see below).
    #[test]
    fn zero_traffic_cost_leaves_the_plan_unchanged(shape in shape(6, false, false)) {
        let config = AssignmentConfig {
            rack_aware_traffic_cost: Some(0),
            rack_aware_non_overlap_cost: Some(10),
            ..with_strategy(RackAwareStrategy::MinTraffic)
        };
        let on = build(&shape, config);
        prop_assert!(rack::enablement(&on).is_enabled());
        let off = without_rack(&on);
        for name in ["kip441", "sticky"] {
            let (p_on, p_off) = (support::run(name, &on), support::run(name, &off));
            let stateless_off: BTreeSet<TaskId> = on.tasks().iter().filter(|t| !t.stateful).map(|t| t.id).collect();
            // The stateless pass always uses traffic 1 / non-overlap 0, so
            // only stateful actives and standbys are compared (as Kafka's test does).
            for (id, cp) in &p_on.clients {
                let other = &p_off.clients[id];
                let stateful = |s: &BTreeSet<TaskId>| -> BTreeSet<TaskId> { s.difference(&stateless_off).copied().collect() };
                prop_assert_eq!(stateful(&cp.active), stateful(&other.active), "{} {}", name, id.as_str());
                // Sticky: moved stateless actives change which task pairs
                // the standby step sees on a client (Kafka too), so its
                // standbys are compared only without stateless tasks.
                if name == "kip441" || stateless_off.is_empty() {
                    prop_assert_eq!(&cp.standby, &other.standby, "{} {}", name, id.as_str());
                }
                prop_assert_eq!(&cp.warmup, &other.warmup, "{} {}", name, id.as_str());
            }
        }
    }

    /// balance_subtopology, stateful tasks only, 2–4 single-thread clients,
    /// all caught up: every client keeps its count, its share of a
    /// subtopology stays within ⌈orig · n_g / n⌉, and the subtopology skew
    /// is at most 4 (with these caps skew ≤ C, so the bound is guaranteed
    /// for C ≤ 4; Kafka's tests accept 4).
    #[test]
    fn balance_subtopology_keeps_skew_within_four(shape in shape(4, true, true)) {
        let mut shape = shape;
        shape.caught_up = true;
        let on = build(&shape, with_strategy(RackAwareStrategy::BalanceSubtopology));
        let off = without_rack(&on);
        for name in ["kip441", "sticky"] {
            let (p_on, p_off) = (support::run(name, &on), support::run(name, &off));
            prop_assert_eq!(active_counts(&p_on), active_counts(&p_off), "{}", name);
            // The optimiser's plan is the cheapest one within the caps, so it
            // never adds traffic to a plan that already meets them; a plan
            // beyond the caps may carry less traffic than any plan within
            // them (a CI property run found one), so there is no bound then.
            let all: Vec<TaskIx> = on.task_ixs().collect();
            let within_caps = meets_subtopology_caps(&on, &Sets::from_plan(&on, &p_off), &all);
            prop_assert!(
                cross_rack(&on, &p_on) <= cross_rack(&on, &p_off) || name == "sticky" || !within_caps
            );
            prop_assert!(
                meets_subtopology_caps(&on, &Sets::from_plan(&on, &p_on), &all),
                "{}: a client's share of a subtopology beyond its cap: {:?}", name, p_on
            );
            if shape.clients.len() <= 4 {
                prop_assert!(max_subtopology_skew(&p_on) <= 4, "{}: {:?}", name, p_on);
            }
        }
    }

    /// Tag-aware standbys (`zone`): the standby optimiser with the tag rule
    /// never lowers any task's tag diversity, keeps standby counts per
    /// client and per task; and kip441 end to end stays valid.
    #[test]
    fn standby_tag_diversity_never_drops(shape in shape(6, false, false)) {
        let mut shape = shape;
        shape.standbys = shape.standbys.max(1);
        let config = AssignmentConfig {
            rack_aware_assignment_tags: vec!["zone".to_string()],
            ..with_strategy(RackAwareStrategy::MinTraffic)
        };
        let on = build(&shape, config);
        support::kip441(&on);
        let plan = support::kip441(&without_rack(&on));
        let mut sets = Sets::from_plan(&on, &plan);
        let diversity = tag_diversity(&on, &sets);
        let counts: Vec<usize> = sets.standby.iter().map(BTreeSet::len).collect();
        rack::optimize_standby(&on, &mut sets, Costs::KIP441, |w, s, d, t| {
            rack::tag_diversity_allows(&on, w, s, d, t)
        });
        let after = tag_diversity(&on, &sets);
        for t in 0..on.tasks().len() {
            prop_assert!(after[t] >= diversity[t], "task {}: {} -> {}", t, diversity[t], after[t]);
        }
        prop_assert_eq!(sets.standby.iter().map(BTreeSet::len).collect::<Vec<_>>(), counts);
    }
}
