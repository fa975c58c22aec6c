//! The crossing format held to golden bytes (`bindings/crossing/`, its
//! README): each fixture decodes to the value built here, and what Rust
//! writes (the state for presets, the plan) is those bytes exactly. The Java
//! tests (`CrossingFixturesTest`) hold Java's encoders and decoders to the
//! same files, so a change to the format on one side fails the other's
//! tests.
//!
//! `SMOOTHSCALE_BLESS=1 cargo test -p smoothscale-jni golden` first
//! rewrites the fixture Rust owns (`plan.bin`); Java writes the others.

use std::collections::{BTreeMap, BTreeSet};

use smoothscale::model::{
    AssignmentConfig, Client, ClientPlan, ClusterState, Lag, Plan, RackAwareStrategy, Task, TaskId,
};

use crate::observation::{self, Observation};
use crate::tests::encode_handout;
use crate::{handout, plan, state};

/// The bytes of fixture `name`, after writing `written` there first when
/// asked to (`SMOOTHSCALE_BLESS`, for the fixtures Rust writes).
fn fixture(name: &str, written: Option<&[u8]>) -> Vec<u8> {
    let path = format!("{}/../crossing/{name}", env!("CARGO_MANIFEST_DIR"));
    if let Some(bytes) = written {
        if std::env::var_os("SMOOTHSCALE_BLESS").is_some() {
            std::fs::write(&path, bytes).unwrap_or_else(|e| panic!("{path}: {e}"));
        }
    }
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn t(subtopology: u32, partition: u32) -> TaskId {
    TaskId::new(subtopology, partition)
}

/// What `state.bin` holds (Java's `CrossingFixturesTest.state()` builds the
/// same as a Kafka `ApplicationState`): every field of the state message.
/// Input rates: 250 and 40 records/s, as the encoder writes them (offsets 0
/// then the records of 10 s, over 10 s), and one task's unknown.
fn fixture_state() -> ClusterState {
    let set = |names: &[&str]| names.iter().map(|s| s.to_string()).collect::<BTreeSet<_>>();
    let mut t00 = Task::stateful(t(0, 0), 1_000);
    t00.racks = set(&["r1", "r2"]);
    t00.changelog_racks = set(&["r2"]);
    t00.input_rate = Some(250);
    let mut t01 = Task::stateful(t(0, 1), 500);
    t01.racks = set(&["r1"]);
    t01.changelog_racks = set(&["r1", "r2"]);
    let mut t10 = Task::stateless(t(1, 0));
    t10.racks = set(&["r2"]);
    t10.input_rate = Some(40);
    let config = AssignmentConfig {
        num_standby_replicas: 1,
        acceptable_recovery_lag: 100,
        max_warmup_replicas: 3,
        probing_rebalance_interval_ms: 120_000,
        rack_aware_assignment_tags: vec!["zone".into()],
        rack_aware_strategy: RackAwareStrategy::MinTraffic,
        rack_aware_traffic_cost: Some(5),
        rack_aware_non_overlap_cost: None,
        samza_fault_domain_aware_standby: false,
    };
    let mut c0 = Client::new(state::client_id(0, 3), 2)
        .with_rack("r1")
        .with_tag("zone", "a")
        .with_previous_active([t(0, 0), t(1, 0)])
        .with_lag(t(0, 0), Lag::Running)
        .with_lag(t(0, 1), Lag::Records(40));
    c0.host = Some("a:9092".into());
    let c1 = Client::new(state::client_id(1, 3), 1)
        .with_rack("r2")
        .with_tag("zone", "b")
        .with_tag("disk", "ssd")
        .with_previous_standby([t(0, 0)])
        .with_lag(t(0, 0), Lag::Records(7))
        .with_lag(t(0, 1), Lag::Unknown);
    let c2 = Client::new(state::client_id(2, 3), 1).with_tag("zone", "a");
    ClusterState::new(config, vec![t00, t01, t10], vec![c0, c1, c2])
        .and_then(|s| s.with_observed_restore_rate(Some(12_345)))
        .unwrap()
}

#[test]
fn state_bin_decodes_to_the_fixture_state_and_rust_writes_its_bytes() {
    let bytes = fixture("state.bin", None);
    let decoded = state::decode(&bytes).unwrap();
    let want = fixture_state();
    assert_eq!(decoded.state.config(), want.config());
    assert_eq!(decoded.state.tasks(), want.tasks());
    assert_eq!(decoded.state.clients(), want.clients());
    assert_eq!(decoded.state.observed_restore_rate(), Some(12_345));
    let rates: Vec<_> = decoded.state.tasks().iter().map(|t| t.input_rate).collect();
    assert_eq!(rates, [Some(250), None, Some(40)]);
    assert_eq!(crate::input_rates(&bytes), Ok(rates));
    assert_eq!(decoded.message_index_of_task, [0, 1, 2]);
    assert_eq!(state::encode(&want), bytes);
}

/// What `plan.bin` holds: an answer to `state.bin` using every field of the
/// plan message (Java's `CrossingFixturesTest.plan()` reads it back).
fn fixture_plan(state: &ClusterState) -> Plan {
    let set = |ids: &[TaskId]| ids.iter().copied().collect::<BTreeSet<_>>();
    let plans = [
        (set(&[t(0, 0), t(1, 0)]), set(&[]), set(&[])),
        (set(&[t(0, 1)]), set(&[t(0, 0)]), set(&[])),
        (set(&[]), set(&[t(0, 1)]), set(&[t(0, 0)])),
    ];
    Plan {
        strategy: "fixture".into(),
        clients: state
            .clients()
            .iter()
            .zip(plans)
            .map(|(c, (active, standby, warmup))| {
                let plan = ClientPlan {
                    active,
                    standby,
                    warmup,
                };
                (c.id.clone(), plan)
            })
            .collect(),
        followup_rebalance_ms: Some(43_900),
        followup_when_caught_up: set(&[t(0, 0)]),
        diagnostics: vec!["a note".into(), "ünïcode ✓".into()],
        containers: BTreeMap::new(),
    }
}

#[test]
fn rust_writes_plan_bin_for_the_fixture_state() {
    let decoded = state::decode(&fixture("state.bin", None)).unwrap();
    let written = plan::encode(
        &decoded.state,
        &fixture_plan(&decoded.state),
        &decoded.message_index_of_task,
    );
    assert_eq!(written, fixture("plan.bin", Some(&written)));
}

/// A client's task indices, as active and as standby.
type Held = (Vec<u32>, Vec<u32>);

/// What `handout.bin` holds (Java's `CrossingFixturesTest.handout()`): three
/// tasks, one stateless; a task's second standby (a warm-up); a task listed
/// twice on one client.
fn fixture_handout() -> (Vec<(TaskId, bool)>, Vec<Held>) {
    let tasks = vec![(t(0, 0), true), (t(0, 1), true), (t(1, 0), false)];
    let clients = vec![
        (vec![0, 2], vec![1]),
        (vec![1], vec![0, 0]),
        (vec![], vec![0, 1]),
    ];
    (tasks, clients)
}

#[test]
fn handout_bin_decodes_to_the_fixture_handout() {
    let bytes = fixture("handout.bin", None);
    let (tasks, clients) = fixture_handout();
    assert_eq!(encode_handout(1, 2, &tasks, &clients), bytes);
    let decoded = handout::decode(&bytes).unwrap();
    let config = decoded.state.config();
    assert_eq!(
        (config.num_standby_replicas, config.max_warmup_replicas),
        (1, 2)
    );
    let got: Vec<(TaskId, bool)> = decoded
        .state
        .tasks()
        .iter()
        .map(|t| (t.id, t.stateful))
        .collect();
    assert_eq!(got, tasks);
    let roles = |c: &ClientPlan| {
        [&c.active, &c.standby, &c.warmup].map(|s| s.iter().copied().collect::<Vec<_>>())
    };
    let got: Vec<_> = decoded.plan.clients.values().map(roles).collect();
    assert_eq!(
        got,
        [
            [vec![t(0, 0), t(1, 0)], vec![t(0, 1)], vec![]],
            [vec![t(0, 1)], vec![t(0, 0)], vec![]],
            [vec![], vec![], vec![t(0, 0), t(0, 1)]],
        ]
    );
    assert_eq!(
        decoded.repeated,
        ["client c1 is given task 0_0 twice as standby"]
    );
    assert_eq!(
        handout::check(&bytes),
        Ok(Some("client c1 is given task 0_0 twice as standby".into()))
    );
}

#[test]
fn observation_bin_decodes_to_the_fixture_observation() {
    let bytes = fixture("observation.bin", None);
    let decoded = observation::decode(&bytes).unwrap();
    // Member 0 restored 6,000 + 18,000 records in 60 s with a replica still
    // behind: 400/s. Member 1's lag grew on 0_2 and it reports -3 (unknown)
    // on 0_1, left out. Member 2 is gone: no lag now.
    let want = Observation {
        elapsed_ms: 60_000,
        acceptable_recovery_lag: 100,
        before: BTreeMap::from([
            ((0, t(0, 0)), 9_000),
            ((0, t(0, 1)), 20_000),
            ((1, t(0, 1)), 5_000),
            ((1, t(0, 2)), 800),
            ((2, t(0, 0)), 50_000),
        ]),
        now: BTreeMap::from([
            ((0, t(0, 0)), 3_000),
            ((0, t(0, 1)), 2_000),
            ((1, t(0, 2)), 900),
        ]),
    };
    assert_eq!(decoded, want);
    assert_eq!(decoded.observe(), Some(400));
    assert_eq!(crate::observe_restore_rate(&bytes), Ok(Some(400)));
}
