//! `kip441-learner` (docs/algorithms.md#kip441-learner): the walkthrough of a 3-instance
//! cluster scaling to 5, one test per assignment rule, `validate`'s learner
//! rules, and properties on random clusters (with random learners and leaving
//! clients): `validate` holds, a plan made again on its own outcome is the
//! same plan while learners are not ready, and with every copy caught up at
//! once the plans converge within the fair shares in two rebalances.

use std::collections::{BTreeMap, BTreeSet};

use proptest::collection::vec;
use proptest::prelude::*;

use smoothscale::{
    validate, AssignmentConfig, Client, ClientId, ClientPlan, ClusterState, Lag, Plan, Task,
    TaskId, Violation,
};

use crate::support::{self, tid};

const NAME: &str = "kip441-learner";
/// Records per stateful task; a learner that is not ready lags half of it.
const END: u64 = 1_000_000;

fn learner(state: &ClusterState) -> Plan {
    support::run(NAME, state)
}

fn ids(list: &str) -> BTreeSet<TaskId> {
    list.split_whitespace().map(tid).collect()
}

/// A client of capacity 1 running `active`, with caught-up `standby` and
/// previous learners `learning`: caught up when `ready`, else half the
/// changelog behind. Subtopology 0 is stateful in these tests, 1 stateless.
fn client(id: &str, active: &str, standby: &str, learning: &str, ready: bool) -> Client {
    let mut c = Client::new(id, 1)
        .with_previous_active(ids(active))
        .with_previous_standby(ids(standby))
        .with_previous_warmup(ids(learning));
    for t in ids(active).into_iter().filter(|t| t.subtopology == 0) {
        c.lags.insert(t, Lag::Running);
    }
    for t in ids(standby) {
        c.lags.insert(t, Lag::Records(0));
    }
    for t in ids(learning) {
        c.lags
            .insert(t, Lag::Records(if ready { 0 } else { END / 2 }));
    }
    c
}

fn stateful(n: u32) -> Vec<Task> {
    support::stateful_grid(1, n, END)
}

fn config(standbys: u32) -> AssignmentConfig {
    AssignmentConfig {
        num_standby_replicas: standbys,
        ..AssignmentConfig::default()
    }
}

/// `field` of every client of `plan`, as "client: tasks" lines.
fn roles(plan: &Plan, field: fn(&ClientPlan) -> &BTreeSet<TaskId>) -> Vec<String> {
    plan.clients
        .iter()
        .map(|(id, cp)| {
            let tasks: Vec<String> = field(cp).iter().map(ToString::to_string).collect();
            format!("{id}: {}", tasks.join(" "))
        })
        .collect()
}

/// The state after `plan`, as the simulator would report it: actives
/// running, standbys caught up, learners caught up when their client is in
/// `ready` (else as far behind as before); `joining` clients join empty.
fn after(state: &ClusterState, plan: &Plan, ready: &[&str], joining: &[&str]) -> ClusterState {
    let mut clients: Vec<Client> = state
        .clients()
        .iter()
        .map(|c| {
            let cp = &plan.clients[&c.id];
            let warm = ready.contains(&c.id.as_str());
            let mut next = Client::new(c.id.clone(), c.capacity);
            next.leaving = c.leaving;
            next.previous_active = cp.active.clone();
            next = next
                .with_previous_standby(cp.standby.iter().copied())
                .with_previous_warmup(cp.warmup.iter().copied());
            let stateful = |t: &TaskId| state.task(*t).is_some_and(|t| t.stateful);
            for &t in cp.active.iter().filter(|t| stateful(t)) {
                next.lags.insert(t, Lag::Running);
            }
            for &t in &cp.standby {
                next.lags.insert(t, Lag::Records(0));
            }
            for &t in &cp.warmup {
                let lag = match state.task(t) {
                    Some(_) if warm => Lag::Records(0),
                    Some(task) => state.lag(c, task),
                    None => continue,
                };
                next.lags.insert(t, lag);
            }
            next
        })
        .collect();
    clients.extend(joining.iter().map(|&id| Client::new(id, 1)));
    support::state(state.config().clone(), state.tasks().to_vec(), clients)
}

// ---------------------------------------------------------------------------
// The walkthrough of KIP-441's first design (docs/algorithms.md#kip441-learner):
// three instances with four tasks each scale to five.
// ---------------------------------------------------------------------------

/// One rebalance of the walkthrough: who joins, whose learners are ready,
/// and the plan expected (actives, learners, follow-up).
struct Step {
    what: &'static str,
    joining: &'static [&'static str],
    ready: &'static [&'static str],
    active: [&'static str; 5],
    learners: [&'static str; 5],
    followup: &'static str,
}

/// The fair share of 12 tasks over 5 clients is 2.4: every client ends with
/// 2 or 3. Rebalance 1 only places learners (the newcomers' share, taken
/// from the clients above 3 first, then above 2); each later rebalance is
/// triggered by learners that have caught up and hands them their actives;
/// nothing changes while no learner is ready.
#[test]
fn scale_out_from_three_to_five_instances() {
    let steps = [
        Step {
            what: "c3 and c4 join: learners only, no active moves",
            joining: &["c3", "c4"],
            ready: &[],
            active: [
                "0_0 0_1 0_2 0_3",
                "0_4 0_5 0_6 0_7",
                "0_8 0_9 0_10 0_11",
                "",
                "",
            ],
            learners: ["", "", "", "0_0 0_4", "0_1 0_8"],
            followup: "0_0 0_1 0_4 0_8",
        },
        Step {
            what: "c3's learners are ready: c3 takes 0_0 and 0_4, c4 keeps learning",
            joining: &[],
            ready: &["c3"],
            active: [
                "0_1 0_2 0_3",
                "0_5 0_6 0_7",
                "0_8 0_9 0_10 0_11",
                "0_0 0_4",
                "",
            ],
            learners: ["", "", "", "", "0_1 0_8"],
            followup: "0_1 0_8",
        },
        Step {
            what: "a rebalance with no learner ready changes nothing",
            joining: &[],
            ready: &[],
            active: [
                "0_1 0_2 0_3",
                "0_5 0_6 0_7",
                "0_8 0_9 0_10 0_11",
                "0_0 0_4",
                "",
            ],
            learners: ["", "", "", "", "0_1 0_8"],
            followup: "0_1 0_8",
        },
        Step {
            what: "c4's learners are ready: balanced, no learner, no follow-up",
            joining: &[],
            ready: &["c4"],
            active: [
                "0_2 0_3",
                "0_5 0_6 0_7",
                "0_9 0_10 0_11",
                "0_0 0_4",
                "0_1 0_8",
            ],
            learners: ["", "", "", "", ""],
            followup: "",
        },
        Step {
            what: "stable: the converged plan is kept",
            joining: &[],
            ready: &[],
            active: [
                "0_2 0_3",
                "0_5 0_6 0_7",
                "0_9 0_10 0_11",
                "0_0 0_4",
                "0_1 0_8",
            ],
            learners: ["", "", "", "", ""],
            followup: "",
        },
    ];
    let mut state = support::state(
        config(0),
        stateful(12),
        vec![
            client("c0", "0_0 0_1 0_2 0_3", "", "", false),
            client("c1", "0_4 0_5 0_6 0_7", "", "", false),
            client("c2", "0_8 0_9 0_10 0_11", "", "", false),
        ],
    );
    let mut plan = learner(&state);
    assert!(plan.followup_when_caught_up.is_empty());
    for step in steps {
        state = after(&state, &plan, step.ready, step.joining);
        plan = learner(&state);
        let expect = |lists: [&str; 5]| -> Vec<String> {
            lists
                .iter()
                .enumerate()
                .map(|(c, l)| format!("c{c}: {l}"))
                .collect()
        };
        assert_eq!(
            roles(&plan, |cp| &cp.active),
            expect(step.active),
            "{}",
            step.what
        );
        assert_eq!(
            roles(&plan, |cp| &cp.warmup),
            expect(step.learners),
            "{}",
            step.what
        );
        assert_eq!(
            plan.followup_when_caught_up,
            ids(step.followup),
            "{}",
            step.what
        );
        assert_eq!(
            plan.followup_rebalance_ms, None,
            "{}: never probes",
            step.what
        );
    }
}

// ---------------------------------------------------------------------------
// The rules, one at a time.
// ---------------------------------------------------------------------------

/// Actives: (1) a ready learner beats (2) the previous owner, which beats
/// (3) an unready learner; (3) applies when the previous owner is gone;
/// (4) otherwise a caught-up standby fails over before a fresh client.
#[test]
fn actives_follow_the_order_of_the_design() {
    type Row = (&'static str, &'static str, &'static str, &'static str, bool);
    let cases: [(&str, [Row; 2], &str); 4] = [
        (
            "(1) a ready learner takes the active from its previous owner",
            [("a", "0_0 0_1", "", "", false), ("b", "", "", "0_0", true)],
            "a: 0_1|b: 0_0",
        ),
        (
            "(2) the previous owner keeps it while the learner is not ready",
            [("a", "0_0 0_1", "", "", false), ("b", "", "", "0_0", false)],
            "a: 0_0 0_1|b: ",
        ),
        (
            "(3) the previous owner is gone: the unready learner takes it",
            [("b", "", "", "0_0", false), ("c", "0_1", "0_0", "", false)],
            "b: 0_0|c: 0_1",
        ),
        (
            "(4) no owner, no learner: the caught-up standby, not the emptier client",
            [("b", "0_1", "0_0", "", false), ("c", "", "", "", false)],
            "b: 0_0 0_1|c: ",
        ),
    ];
    for (what, rows, expected) in cases {
        let clients = rows.map(|(id, a, s, l, ready)| client(id, a, s, l, ready));
        let state = support::state(config(0), stateful(2), clients.to_vec());
        let plan = learner(&state);
        assert_eq!(roles(&plan, |cp| &cp.active).join("|"), expected, "{what}");
    }
}

/// Balance: an overloaded owner's task is learned on the light client that holds
/// its standby (the standby turns into the learner), a caught-up standby on a
/// light client takes its active at once, and stateless tasks move at once.
#[test]
fn learners_prefer_standby_holders_and_caught_up_receivers_take_over_at_once() {
    // a runs all four; b holds a restoring standby of 0_3 (lag END/2).
    let mut b = Client::new("b", 1).with_previous_standby(ids("0_3"));
    b.lags.insert(tid("0_3"), Lag::Records(END / 2));
    let state = support::state(
        config(1),
        stateful(4),
        vec![client("a", "0_0 0_1 0_2 0_3", "", "", false), b],
    );
    let plan = learner(&state);
    let b = &plan.clients[&ClientId::new("b")];
    assert_eq!(
        b.warmup,
        ids("0_0 0_3"),
        "0_3 (b's standby) first, then by id"
    );
    assert!(b.active.is_empty());
    assert_eq!(plan.followup_when_caught_up, ids("0_0 0_3"));
    // With two clients and one standby, a learner stands in for the standby.
    assert_eq!(b.standby, ids("0_1 0_2"));
    assert!(plan.clients[&ClientId::new("a")].standby.is_empty());

    // The same, b's standby caught up: b takes 0_3 at once and a keeps its copy.
    let state = support::state(
        config(1),
        stateful(4),
        vec![
            client("a", "0_0 0_1 0_2 0_3", "", "", false),
            client("b", "", "0_3", "", false),
        ],
    );
    let plan = learner(&state);
    let (a, b) = (
        &plan.clients[&ClientId::new("a")],
        &plan.clients[&ClientId::new("b")],
    );
    assert_eq!(b.active, ids("0_3"));
    assert_eq!(b.warmup, ids("0_0"));
    assert!(a.standby.contains(&tid("0_3")), "{plan:?}");

    // Stateless tasks have nothing to learn: they are balanced at once.
    let tasks = (0..4).map(|p| Task::stateless(TaskId::new(1, p))).collect();
    let state = support::state(
        config(0),
        tasks,
        vec![
            Client::new("a", 1).with_previous_active(ids("1_0 1_1 1_2 1_3")),
            Client::new("b", 1),
        ],
    );
    let plan = learner(&state);
    assert_eq!(roles(&plan, |cp| &cp.active), ["a: 1_0 1_1", "b: 1_2 1_3"]);
    assert!(plan.followup_when_caught_up.is_empty());
}

/// Scale-in: a leaving client keeps its stateful actives until learners
/// elsewhere are ready and gives its stateless tasks away at once; a
/// caught-up standby elsewhere takes its active at once, and the leaver's
/// copy becomes the standby; when every client leaves, none does.
#[test]
fn a_leaving_client_hands_over_through_learners() {
    let mut tasks = stateful(4);
    tasks.push(Task::stateless(tid("1_0")));
    let clients = |standbys: [&'static str; 2]| {
        vec![
            client("a", "0_0", standbys[0], "", false),
            client("b", "0_1", standbys[1], "", false),
            client("c", "0_2 0_3 1_0", "", "", false).leaving(),
        ]
    };
    let plan = learner(&support::state(config(0), tasks.clone(), clients(["", ""])));
    let expected = ["a: 0_0 1_0", "b: 0_1", "c: 0_2 0_3"];
    assert_eq!(roles(&plan, |cp| &cp.active), expected);
    assert_eq!(roles(&plan, |cp| &cp.warmup), ["a: 0_2", "b: 0_3", "c: "]);
    assert_eq!(plan.followup_when_caught_up, ids("0_2 0_3"));

    // Caught-up standbys of c's tasks on a and b: they take over at once.
    let state = support::state(config(1), tasks, clients(["0_2", "0_3"]));
    let plan = learner(&state);
    let expected = ["a: 0_0 0_2 1_0", "b: 0_1 0_3", "c: "];
    assert_eq!(roles(&plan, |cp| &cp.active), expected);
    assert_eq!(plan.warmup_count(), 0);
    // c's copies serve as the standbys of what it handed over until it goes.
    assert_eq!(plan.clients[&ClientId::new("c")].standby, ids("0_2 0_3"));

    // Every client leaving: treated as staying.
    let clients = vec![
        client("a", "0_0 0_1 0_2 0_3", "", "", false).leaving(),
        Client::new("b", 1).leaving(),
    ];
    let plan = learner(&support::state(config(0), stateful(4), clients));
    assert_eq!(plan.clients[&ClientId::new("b")].warmup.len(), 2);
}

/// `validate` with the learner strategy's claims: a warm-up may stand in for
/// one standby but not two, and every follow-up task needs a warm-up.
#[test]
fn validate_checks_stand_ins_and_follow_ups() {
    let state = support::state(
        config(2),
        stateful(1),
        vec![
            Client::new("a", 1),
            Client::new("b", 1),
            Client::new("c", 1),
        ],
    );
    let plan_with = |standby: &str, warmup: &str, followup: &str| {
        let mut plan = Plan {
            strategy: NAME.into(),
            followup_when_caught_up: ids(followup),
            ..Plan::default()
        };
        for (id, cp) in [
            (
                "a",
                ClientPlan {
                    active: ids("0_0"),
                    ..ClientPlan::default()
                },
            ),
            (
                "b",
                ClientPlan {
                    standby: ids(standby),
                    ..ClientPlan::default()
                },
            ),
            (
                "c",
                ClientPlan {
                    warmup: ids(warmup),
                    ..ClientPlan::default()
                },
            ),
        ] {
            plan.clients.insert(ClientId::new(id), cp);
        }
        plan
    };
    let claims = smoothscale::assignor::by_name(NAME).unwrap().info().claims;
    assert_eq!(
        validate(&state, &plan_with("0_0", "0_0", "0_0"), claims),
        Ok(())
    );
    let short = validate(&state, &plan_with("", "0_0", "0_0"), claims).unwrap_err();
    assert!(
        matches!(short[..], [Violation::StandInCount { .. }]),
        "{short:?}"
    );
    let orphan = validate(&state, &plan_with("0_0", "", "0_0"), claims).unwrap_err();
    assert!(
        orphan.contains(&Violation::FollowupWithoutWarmup(tid("0_0"))),
        "{orphan:?}"
    );
}

// ---------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------

/// A random cluster of `properties` with some previous standbys turned into
/// previous learners and some clients leaving.
fn learner_cluster() -> impl Strategy<Value = ClusterState> {
    crate::properties::cluster()
        .prop_flat_map(|state| {
            let n = state.clients().len();
            (Just(state), vec(any::<u8>(), n))
        })
        .prop_map(|(state, bits)| {
            let clients = state
                .clients()
                .iter()
                .zip(bits)
                .map(|(c, b)| {
                    let mut c = c.clone();
                    c.leaving = b % 5 == 0;
                    c.previous_warmup = c
                        .previous_standby
                        .iter()
                        .copied()
                        .filter(|t| (t.partition + u32::from(b)) % 3 == 0)
                        .collect();
                    c
                })
                .collect();
            support::state(state.config().clone(), state.tasks().to_vec(), clients)
        })
}

/// Per client: the actives of the kinds `count` accepts (by statefulness)
/// it runs, minus those a learner elsewhere is taking from it, plus its own
/// learners.
fn intended(
    state: &ClusterState,
    plan: &Plan,
    count: fn(bool) -> bool,
) -> BTreeMap<ClientId, usize> {
    let kind = |t: &TaskId| count(state.task(*t).is_some_and(|t| t.stateful));
    let learned: BTreeSet<TaskId> = plan
        .clients
        .values()
        .flat_map(|cp| cp.warmup.clone())
        .collect();
    plan.clients
        .iter()
        .map(|(id, cp)| {
            let kept = cp
                .active
                .iter()
                .filter(|t| kind(t) && !learned.contains(t))
                .count();
            let learning = cp.warmup.iter().filter(|t| kind(t)).count();
            (id.clone(), kept + learning)
        })
        .collect()
}

/// Whether every client's intended count of the actives `count` accepts is
/// within `lo(f) ..= hi(f)` (rounded down and up) of its fair share
/// `f = T·k/K` of them over the staying clients.
fn within_share(
    state: &ClusterState,
    plan: &Plan,
    count: fn(bool) -> bool,
    lo: fn(f64) -> f64,
    hi: fn(f64) -> f64,
) -> bool {
    let all_leaving = state.clients().iter().all(|c| c.leaving);
    let staying = |c: &Client| all_leaving || !c.leaving;
    let weight: u32 = state
        .clients()
        .iter()
        .filter(|c| staying(c))
        .map(|c| c.capacity)
        .sum();
    let counts = intended(state, plan, count);
    let total: usize = counts.values().sum();
    state.clients().iter().all(|c| {
        let f = if staying(c) {
            total as f64 * f64::from(c.capacity) / f64::from(weight)
        } else {
            0.0
        };
        let n = counts[&c.id] as f64;
        n >= lo(f).floor() - 1e-9 && n <= hi(f).ceil() + 1e-9
    })
}

/// The stateless dealing's invariant (kip441's rule, which the learner
/// keeps): each stateless task goes to a staying client with the fewest
/// actives per thread at the time, so no client holding a stateless active
/// had, before its last one, more actives per thread than any staying client
/// ends with. The draft's "within 0.5×–2× of the fair share of all actives"
/// is not a property of that rule (five one-thread clients and a four-thread
/// one sharing five stateless tasks leave the four-thread one none; a CI run
/// found that input), so it is not asserted.
fn stateless_dealt_by_load(state: &ClusterState, plan: &Plan) -> bool {
    let all = intended(state, plan, ALL);
    let stateless = intended(state, plan, |stateful| !stateful);
    // Every client leaving: treated as staying, as in `within_share`.
    let all_leaving = state.clients().iter().all(|c| c.leaving);
    let stay: Vec<&Client> = state
        .clients()
        .iter()
        .filter(|c| all_leaving || !c.leaving)
        .collect();
    stay.iter().filter(|j| stateless[&j.id] > 0).all(|j| {
        stay.iter().all(|i| {
            (all[&j.id] as u64 - 1) * u64::from(i.capacity)
                <= all[&i.id] as u64 * u64::from(j.capacity)
        })
    })
}

/// Stateful actives only, or all actives.
const STATEFUL: fn(bool) -> bool = |stateful| stateful;
const ALL: fn(bool) -> bool = |_| true;

proptest! {
    #![proptest_config(support::proptest_config())]

    /// Every plan passes `validate` with the strategy's claims (warm-ups
    /// standing in for standbys, no warm-up budget), with random learners
    /// and leaving clients in the input, and never asks to probe.
    #[test]
    fn validate_holds_with_learners_and_leaving_clients(state in learner_cluster()) {
        let plan = learner(&state);
        prop_assert_eq!(plan.followup_rebalance_ms, None);
        prop_assert_eq!(
            plan.followup_when_caught_up.len(),
            plan.warmup_count(),
            "one learner per listed task"
        );
    }

    /// Made again on its own outcome with membership and lags unchanged
    /// (learners still behind), the plan is the same plan.
    #[test]
    fn a_plan_is_stable_while_membership_is_unchanged(state in learner_cluster()) {
        let p1 = learner(&state);
        let next = after(&state, &p1, &[], &[]);
        let p2 = learner(&next);
        prop_assert_eq!(&p2.clients, &p1.clients, "\n{}", smoothscale::wire::state_to_json(&state));
        prop_assert_eq!(&p2.followup_when_caught_up, &p1.followup_when_caught_up);
        prop_assert_eq!(p1.followup_rebalance_ms, None);
    }

    /// With every copy caught up at once, the second plan has no learner and
    /// no follow-up, leaving clients run nothing, and it is kept. Every plan
    /// on the way, counting learners at their destination, has every client
    /// within `⌊f⌋ ..= ⌈f⌉` of its share of stateful actives and its stateless
    /// actives dealt by load ([`stateless_dealt_by_load`]); with clients of one
    /// thread, within `⌊F⌋ ..= ⌈F⌉` of its share of all actives at the end.
    #[test]
    fn instant_catch_up_converges_within_the_fair_share(state in learner_cluster()) {
        let mut state = state;
        let mut plan = learner(&state);
        let replay = smoothscale::wire::state_to_json(&state);
        for round in 0..2 {
            prop_assert!(within_share(&state, &plan, STATEFUL, |f| f, |f| f), "round {round}\n{replay}");
            prop_assert!(stateless_dealt_by_load(&state, &plan), "round {round}\n{replay}");
            if plan.followup_when_caught_up.is_empty() {
                break;
            }
            let ready: Vec<String> = state.clients().iter().map(|c| c.id.to_string()).collect();
            let ready: Vec<&str> = ready.iter().map(String::as_str).collect();
            state = after(&state, &plan, &ready, &[]);
            plan = learner(&state);
        }
        prop_assert!(plan.followup_when_caught_up.is_empty(), "not converged in two rebalances\n{}", replay);
        prop_assert_eq!(plan.warmup_count(), 0);
        prop_assert!(stateless_dealt_by_load(&state, &plan), "{}", replay);
        if state.clients().iter().all(|c| c.capacity == 1) {
            prop_assert!(within_share(&state, &plan, ALL, |f| f, |f| f), "{}", replay);
        }
        if state.clients().iter().any(|c| !c.leaving) {
            for c in state.clients().iter().filter(|c| c.leaving) {
                prop_assert!(plan.clients[&c.id].active.is_empty(), "{} still runs tasks", c.id);
            }
        }
        let again = learner(&after(&state, &plan, &[], &[]));
        prop_assert_eq!(&again.clients, &plan.clients);
    }
}
