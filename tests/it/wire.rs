//! The JSON wire format at the library level (docs/wire-format.md): round trips,
//! Kafka's defaults, lag sentinels, duplicate keys, sorted output.

use std::collections::BTreeSet;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};
use smoothscale::wire::{plan_from_json, plan_to_json, state_from_json, state_to_json};
use smoothscale::{
    metrics, AssignmentConfig, Client, ClientId, ClientPlan, ClusterState, Container, ContainerId,
    InputError, Lag, Plan, RackAwareStrategy, Task,
};

use crate::support::{kip441, state, t, tid};

/// Reads a state that must be valid.
fn read(text: &str) -> ClusterState {
    state_from_json(text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// Reads a state that must be rejected.
fn reject(text: &str) -> InputError {
    match state_from_json(text) {
        Ok(s) => panic!("accepted {text}\nas {s:?}"),
        Err(e) => e,
    }
}

/// A state using every field of the model, clients and tasks out of order.
fn rich_state() -> ClusterState {
    let config = AssignmentConfig {
        num_standby_replicas: 2,
        acceptable_recovery_lag: u64::MAX,
        max_warmup_replicas: 7,
        probing_rebalance_interval_ms: 60_000,
        rack_aware_assignment_tags: vec!["zone".into(), "cluster".into()],
        rack_aware_strategy: RackAwareStrategy::BalanceSubtopology,
        rack_aware_traffic_cost: Some(3),
        rack_aware_non_overlap_cost: Some(0),
        samza_fault_domain_aware_standby: true,
    };
    let mut big = Task::stateful(t(0, 10), u64::MAX);
    big.cpu = Some(0.1);
    big.ram_mb = Some(512);
    big.disk_mb = Some(2048);
    big.racks = ["r2", "r1"].map(String::from).into();
    big.changelog_racks = ["r3".to_string()].into();
    let mut odd_stateless = Task::stateless(t(3, 0));
    odd_stateless.end_offset = 5;
    let tasks = vec![
        Task::stateless(t(1, 0)),
        big,
        Task::stateful(t(0, 2), 0),
        odd_stateless,
        Task::stateful(t(0, 1), 42),
    ];
    let mut z = Client::new("z", u32::MAX)
        .with_rack("r1")
        .with_tag("zone", "eu-1a")
        .with_tag("cluster", "k")
        .with_previous_active([t(0, 10), t(1, 0)])
        .with_previous_standby([t(0, 2)])
        .with_lag(t(0, 10), Lag::Running)
        .with_lag(t(0, 2), Lag::Records(u64::MAX))
        .with_lag(t(0, 1), Lag::Unknown);
    z.host = Some("host-9".into());
    z.cpu = Some(2.75);
    z.ram_mb = Some(0);
    z.disk_mb = Some(u64::MAX);
    let tasks_for_a = [t(0, 1)];
    let a = Client::new("a", 3)
        .with_previous_warmup(tasks_for_a)
        .leaving()
        .with_lag(t(0, 1), Lag::Records(0));
    let capital = Client::new("Ä", 1).with_lag(t(0, 2), Lag::Records(17));
    // Records of a client that has left ("gone") and of a task the state no
    // longer has (9_9) are facts, not errors.
    let containers = vec![
        (
            ContainerId::from("1"),
            Container::on("gone").with_active([t(0, 1), t(9, 9)]),
        ),
        (
            ContainerId::from("0"),
            Container::on("z").with_active([t(0, 10), t(1, 0)]),
        ),
        (
            ContainerId::from("0-0"),
            Container::on("Ä").with_standby([t(0, 10), t(1, 0)]),
        ),
    ];
    state(config, tasks, vec![z, capital, a])
        .with_previous_containers(containers)
        .expect("valid records")
        .with_observed_restore_rate(Some(u64::MAX))
        .expect("a rate of at least 1")
}

#[test]
fn state_round_trips_through_json() {
    let original = rich_state();
    let text = state_to_json(&original);
    let back = read(&text);
    assert_eq!(back, original);
    // Writing is a fixed point: the text of the re-read state is the same.
    assert_eq!(state_to_json(&back), text);
}

#[test]
fn state_text_round_trips_through_the_model() {
    let text = r#"{
        "config": { "num_standby_replicas": 1, "rack_aware_strategy": "min_traffic" },
        "tasks": [
            { "id": "0_0", "stateful": true, "end_offset": 500000, "cpu": 0.5, "ram_mb": 512,
              "racks": ["r1"], "changelog_racks": ["r2", "r1"] },
            { "id": "1_0", "stateful": false, "end_offset": 9 }
        ],
        "clients": [
            { "id": "a", "capacity": 2, "rack": "r1", "tags": { "zone": "z1" }, "host": "h1",
              "cpu": 4, "ram_mb": 8192, "disk_mb": 20480,
              "previous_active": ["0_0"], "previous_standby": [],
              "lags": { "0_0": "running" } }
        ]
    }"#;
    let first = read(text);
    let second = read(&state_to_json(&first));
    assert_eq!(first, second);
    assert_eq!(second.tasks()[1].end_offset, 9);
    assert_eq!(second.clients()[0].cpu, Some(4.0));
    assert_eq!(second.clients()[0].disk_mb, Some(20480));
    assert_eq!(second.tasks()[0].disk_mb, None);
}

/// A random valid state: ids, lags of every kind, extreme numbers.
fn random_state(seed: u64) -> ClusterState {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut ids = BTreeSet::new();
    for _ in 0..rng.random_range(0..12) {
        ids.insert(t(rng.random_range(0..3), rng.random_range(0..40)));
    }
    let number = |rng: &mut ChaCha8Rng| match rng.random_range(0..4) {
        0 => 0,
        1 => u64::MAX,
        2 => rng.random_range(0..100),
        _ => rng.random(),
    };
    let tasks: Vec<Task> = ids
        .iter()
        .map(|&id| {
            let mut task = if rng.random_bool(0.7) {
                Task::stateful(id, number(&mut rng))
            } else {
                Task::stateless(id)
            };
            if rng.random_bool(0.3) {
                task.cpu = Some(rng.random_range(0.0..64.0));
                task.ram_mb = Some(number(&mut rng));
                task.disk_mb = Some(number(&mut rng));
            }
            if rng.random_bool(0.5) {
                task.input_rate = Some(number(&mut rng));
            }
            task
        })
        .collect();
    let mut clients = Vec::new();
    for c in 0..rng.random_range(0..6) {
        let mut client = Client::new(format!("client-{}", 5 - c), rng.random_range(1..=u32::MAX));
        if rng.random_bool(0.5) {
            client = client.with_rack(format!("r{}", rng.random_range(0..3)));
        }
        for k in 0..rng.random_range(0..=5) {
            client = client.with_tag(format!("k{k}"), format!("v{}", rng.random_range(0..3)));
        }
        for task in &tasks {
            match rng.random_range(0..4) {
                0 => client.previous_active.insert(task.id),
                1 if task.stateful => client.previous_standby.insert(task.id),
                _ => false,
            };
            if task.stateful && rng.random_bool(0.5) {
                let lag = match rng.random_range(0..3) {
                    0 => Lag::Running,
                    1 => Lag::Unknown,
                    _ => Lag::Records(number(&mut rng)),
                };
                client.lags.insert(task.id, lag);
            }
        }
        clients.push(client);
    }
    let config = AssignmentConfig {
        num_standby_replicas: rng.random_range(0..4),
        acceptable_recovery_lag: number(&mut rng),
        max_warmup_replicas: rng.random_range(1..=u32::MAX),
        probing_rebalance_interval_ms: 60_000 + rng.random_range(0..u64::MAX / 2),
        ..AssignmentConfig::default()
    };
    let rate = match rng.random_range(0..3) {
        0 => None,
        _ => Some(number(&mut rng).max(1)),
    };
    state(config, tasks, clients)
        .with_observed_restore_rate(rate)
        .expect("a rate of at least 1")
}

#[test]
fn random_states_round_trip() {
    for seed in 0..200 {
        let original = random_state(seed);
        let text = state_to_json(&original);
        assert_eq!(read(&text), original, "seed {seed}:\n{text}");
    }
}

fn sample_plan() -> Plan {
    let mut plan = Plan {
        strategy: "kip441".into(),
        followup_rebalance_ms: Some(600_000),
        diagnostics: vec!["rack_aware_strategy min_traffic is not applied".into()],
        ..Plan::default()
    };
    plan.clients.insert(
        ClientId::new("b"),
        ClientPlan {
            active: [t(0, 10), t(0, 2), t(1, 0)].into(),
            standby: [t(0, 1)].into(),
            warmup: BTreeSet::new(),
        },
    );
    plan.clients.insert(
        ClientId::new("a"),
        ClientPlan {
            active: [t(0, 1)].into(),
            standby: BTreeSet::new(),
            warmup: [t(0, 10), t(0, 2)].into(),
        },
    );
    plan.clients
        .insert(ClientId::new("idle"), ClientPlan::default());
    plan
}

#[test]
fn plan_round_trips_through_json() {
    let mut plan = sample_plan();
    for followup in [Some(600_000), None, Some(u64::MAX)] {
        plan.followup_rebalance_ms = followup;
        let text = plan_to_json(&plan, None);
        let back = plan_from_json(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(back, plan);
        assert_eq!(plan_to_json(&back, None), text);
    }
    plan.diagnostics.clear();
    let text = plan_to_json(&plan, None);
    assert!(
        !text.contains("diagnostics"),
        "empty diagnostics are left out"
    );
    assert_eq!(plan_from_json(&text).unwrap(), plan);
}

#[test]
fn assigned_plans_round_trip_with_and_without_metrics() {
    for seed in 0..40 {
        let state = random_state(seed);
        let plan = kip441(&state);
        let figures = metrics::plan_metrics(&state, &plan).unwrap();
        let plain = plan_to_json(&plan, None);
        let with_metrics = plan_to_json(&plan, Some(figures));
        assert_eq!(plan_from_json(&plain).unwrap(), plan, "seed {seed}");
        assert_eq!(plan_from_json(&with_metrics).unwrap(), plan, "seed {seed}");
    }
}

#[test]
fn plan_json_has_the_design_shape() {
    let text = plan_to_json(&sample_plan(), None);
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        v,
        json!({
            "strategy": "kip441",
            "clients": [
                { "id": "a", "active": ["0_1"], "standby": [], "warmup": ["0_2", "0_10"] },
                { "id": "b", "active": ["0_2", "0_10", "1_0"], "standby": ["0_1"], "warmup": [] },
                { "id": "idle", "active": [], "standby": [], "warmup": [] }
            ],
            "followup_rebalance_ms": 600000,
            "diagnostics": ["rack_aware_strategy min_traffic is not applied"]
        })
    );
    // Field order as documented (docs/wire-format.md), two-space indentation, a final newline.
    let strategy = text.find("\"strategy\"").unwrap();
    let clients = text.find("\"clients\"").unwrap();
    let followup = text.find("\"followup_rebalance_ms\"").unwrap();
    assert!(strategy < clients && clients < followup);
    assert!(text.starts_with("{\n  \"strategy\""));
    assert!(text.ends_with("}\n") && !text.ends_with("\n\n"));
}

#[test]
fn missing_config_takes_kafka_defaults() {
    for text in [
        r#"{}"#,
        r#"{"config": {}}"#,
        r#"{"config": {}, "tasks": [], "clients": []}"#,
    ] {
        let c = read(text).config().clone();
        assert_eq!(c, AssignmentConfig::default(), "{text}");
        assert_eq!(c.num_standby_replicas, 0);
        assert_eq!(c.acceptable_recovery_lag, 10_000);
        assert_eq!(c.max_warmup_replicas, 2);
        assert_eq!(c.probing_rebalance_interval_ms, 600_000);
        assert!(c.rack_aware_assignment_tags.is_empty());
        assert_eq!(c.rack_aware_strategy, RackAwareStrategy::None);
        assert_eq!(c.rack_aware_traffic_cost, None);
        assert_eq!(c.rack_aware_non_overlap_cost, None);
    }
    // One field given, the others keep their defaults.
    let c = read(r#"{"config": {"max_warmup_replicas": 5}}"#)
        .config()
        .clone();
    assert_eq!(
        c,
        AssignmentConfig {
            max_warmup_replicas: 5,
            ..AssignmentConfig::default()
        }
    );
    // The bounds themselves are accepted.
    let c = read(
        r#"{"config": {"num_standby_replicas": 0, "acceptable_recovery_lag": 0,
            "max_warmup_replicas": 1, "probing_rebalance_interval_ms": 60000}}"#,
    )
    .config()
    .clone();
    assert_eq!(c.acceptable_recovery_lag, 0);
    assert_eq!(c.max_warmup_replicas, 1);
    assert_eq!(c.probing_rebalance_interval_ms, 60_000);
}

#[test]
fn missing_task_and_client_fields_take_defaults() {
    let s = read(r#"{"tasks": [{"id": "0_0"}], "clients": [{"id": "a"}]}"#);
    assert_eq!(s.tasks(), [Task::stateless(t(0, 0))]);
    assert_eq!(s.clients(), [Client::new("a", 1)]);
}

#[test]
fn lag_sentinels_and_counts_parse() {
    let s = read(
        r#"{"tasks": [
              {"id": "0_0", "stateful": true, "end_offset": 100},
              {"id": "0_1", "stateful": true, "end_offset": 100},
              {"id": "0_2", "stateful": true, "end_offset": 100},
              {"id": "0_3", "stateful": true, "end_offset": 100},
              {"id": "0_4", "stateful": true, "end_offset": 100}],
            "clients": [{"id": "a", "lags": {
              "0_0": "running", "0_1": "unknown", "0_2": 0, "0_3": 18446744073709551615}}]}"#,
    );
    let a = &s.clients()[0];
    assert_eq!(a.lags[&tid("0_0")], Lag::Running);
    assert_eq!(a.lags[&tid("0_1")], Lag::Unknown);
    assert_eq!(a.lags[&tid("0_2")], Lag::Records(0));
    assert_eq!(a.lags[&tid("0_3")], Lag::Records(u64::MAX));
    // Sparse: no entry for 0_4, whose lag is then its end offset.
    assert!(!a.lags.contains_key(&tid("0_4")));
    assert_eq!(s.lag(a, &s.tasks()[4]), Lag::Records(100));
    // Written back as the same sentinels.
    let v: Value = serde_json::from_str(&state_to_json(&s)).unwrap();
    assert_eq!(
        v["clients"][0]["lags"],
        json!({"0_0": "running", "0_1": "unknown", "0_2": 0, "0_3": 18446744073709551615u64})
    );
}

#[test]
fn duplicate_keys_in_lags_and_tags_are_rejected_with_the_path() {
    let e = reject(
        r#"{"tasks": [{"id": "0_0", "stateful": true}, {"id": "0_1", "stateful": true}],
            "clients": [{"id": "a"}, {"id": "b", "lags": {"0_0": 5, "0_1": 1, "0_0": "running"}}]}"#,
    );
    assert_eq!(e.path, "clients[1].lags.0_0");
    assert!(e.message.contains("twice"), "{e}");

    let e =
        reject(r#"{"clients": [{"id": "a", "tags": {"zone": "z1", "rack": "r", "zone": "z1"}}]}"#);
    assert_eq!(e.path, "clients[0].tags.zone");
    assert!(e.message.contains("twice"), "{e}");

    // A key that is not a plain word is quoted in the path, escaped to one line.
    let e = reject(r#"{"clients": [{"id": "a", "tags": {"zone.x\ny": "1", "zone.x\ny": "2"}}]}"#);
    assert_eq!(e.path, r#"clients[0].tags["zone.x\ny"]"#);
    assert!(!e.to_string().contains('\n'), "{e}");

    // Two spellings of one task id are one key.
    let e = reject(
        r#"{"tasks": [{"id": "0_1", "stateful": true}],
            "clients": [{"id": "a", "lags": {"0_1": 1, "00_1": 2}}]}"#,
    );
    assert!(e.path.starts_with("clients[0].lags"), "{e}");
    assert!(e.message.contains("twice"), "{e}");
}

/// `disk_mb`, like `ram_mb`: a whole number of MiB, 0 or more.
#[test]
fn disk_mb_is_a_whole_number_of_mib() {
    let e = reject(r#"{"tasks": [{"id": "0_0", "disk_mb": -1}]}"#);
    assert_eq!(e.path, "tasks[0].disk_mb");
    assert!(e.message.contains("-1"), "{e}");
    let e = reject(r#"{"clients": [{"id": "a", "disk_mb": 1.5}]}"#);
    assert_eq!(e.path, "clients[0].disk_mb");
    assert!(e.message.contains("1.5"), "{e}");
    let s = read(
        r#"{"tasks": [{"id": "0_0", "disk_mb": 0}], "clients": [{"id": "a", "disk_mb": 512}]}"#,
    );
    assert_eq!(
        (s.tasks()[0].disk_mb, s.clients()[0].disk_mb),
        (Some(0), Some(512))
    );
}

/// `input_rate`: records per second, a whole number, 0 or more; optional,
/// and written back as read.
#[test]
fn input_rate_is_a_whole_number_of_records_per_second() {
    for bad in ["-1", "1.5", "\"fast\""] {
        let e = reject(&format!(
            r#"{{"tasks": [{{"id": "0_0", "input_rate": {bad}}}]}}"#
        ));
        assert_eq!(e.path, "tasks[0].input_rate", "{e}");
    }
    let e = reject(r#"{"tasks": [{"id": "0_0", "input_rate": 2.5}]}"#);
    assert!(e.message.contains("2.5"), "{e}");
    let s = read(
        r#"{"tasks": [{"id": "0_0", "input_rate": 120}, {"id": "0_1", "input_rate": null}, {"id": "0_2"}]}"#,
    );
    let rates: Vec<Option<u64>> = s.tasks().iter().map(|t| t.input_rate).collect();
    assert_eq!(rates, [Some(120), None, None]);
    let text = smoothscale::wire::state_to_json(&s);
    assert!(
        text.contains(r#""input_rate":120"#) || text.contains(r#""input_rate": 120"#),
        "{text}"
    );
    assert_eq!(text.matches("input_rate").count(), 1, "{text}");
}

#[test]
fn errors_carry_path_and_message_apart() {
    let e = reject(r#"{"clients": [{"id": "a"}, {"id": "b", "capacity": 0}]}"#);
    assert_eq!(e.path, "clients[1].capacity");
    assert_eq!(e.message, "must be at least 1, got 0");
    assert_eq!(
        e.to_string(),
        "clients[1].capacity must be at least 1, got 0"
    );

    let e = reject(r#"{"clients": [{"id": "a", "shoe_size": 44}]}"#);
    assert_eq!(e.path, "clients[0].shoe_size");
    assert!(e.message.contains("unknown field"), "{e}");

    let e = reject(r#"{"config": {"rack_aware_strategy": "nearest"}}"#);
    assert_eq!(e.path, "config.rack_aware_strategy");
    assert!(
        e.message.contains("nearest") && e.message.contains("min_traffic"),
        "{e}"
    );

    let e = reject("[]");
    assert_eq!(e.path, "input");
    assert!(e.message.contains("object"), "{e}");

    // Every message is one line.
    for text in [
        "",
        "{",
        "{}}",
        r#"{"tasks": 1}"#,
        r#"{"tasks": [{"id": "0_0", "id": "0_1"}]}"#,
    ] {
        let e = reject(text);
        assert!(!e.to_string().contains('\n'), "{e:?}");
        assert!(!e.path.is_empty(), "{e:?}");
    }
}

#[test]
fn plan_reading_is_strict() {
    let cases = [
        (
            r#"{"strategy": "x", "clients": [], "followup_rebalance_ms": null, "extra": 1}"#,
            "extra",
        ),
        (
            r#"{"strategy": "x", "clients": [{"id": "a", "active": ["0-1"]}], "followup_rebalance_ms": null}"#,
            "clients[0].active[0]",
        ),
        (
            r#"{"strategy": "x", "clients": [{"id": "a", "active": []}, {"id": "a", "active": []}], "followup_rebalance_ms": null}"#,
            "clients[1].id",
        ),
        (
            r#"{"strategy": "x", "clients": [{"id": "a", "active": ["0_1"], "warmup": ["0_2", "0_2"]}], "followup_rebalance_ms": null}"#,
            "clients[0].warmup[1]",
        ),
        (
            r#"{"strategy": "x", "clients": [["a", []]], "followup_rebalance_ms": null}"#,
            "clients[0]",
        ),
        (
            r#"{"strategy": "x", "clients": [], "followup_rebalance_ms": -1}"#,
            "followup_rebalance_ms",
        ),
        (
            r#"{"strategy": "x", "clients": [], "followup_rebalance_ms": null, "followup_when_caught_up": ["0_1", "0_1"]}"#,
            "followup_when_caught_up[1]",
        ),
        (
            r#"{"strategy": "x", "clients": [], "followup_rebalance_ms": null, "followup_when_caught_up": ["x"]}"#,
            "followup_when_caught_up[0]",
        ),
        (r#"["x", [], null]"#, "input"),
    ];
    for (text, path) in cases {
        match plan_from_json(text) {
            Ok(p) => panic!("accepted {text} as {p:?}"),
            Err(e) => assert_eq!(e.path, path, "{text}: {e}"),
        }
    }
}

#[test]
fn written_lists_are_sorted() {
    let s = read(
        r#"{"tasks": [
              {"id": "1_0"}, {"id": "0_10", "stateful": true}, {"id": "0_2", "stateful": true},
              {"id": "10_0", "stateful": true}, {"id": "2_0", "stateful": true}],
            "clients": [
              {"id": "b", "tags": {"zone": "z", "cluster": "c"},
               "previous_active": ["10_0", "0_10", "0_2"],
               "previous_standby": ["2_0"],
               "lags": {"10_0": 1, "0_10": 2, "2_0": 3, "0_2": 4}},
              {"id": "B"}, {"id": "a"}, {"id": "a0"}]}"#,
    );
    let v: Value = serde_json::from_str(&state_to_json(&s)).unwrap();
    let strings = |v: &Value| -> Vec<String> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_str().unwrap().to_string())
            .collect()
    };
    let ids = |v: &Value| -> Vec<String> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|x| x["id"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(ids(&v["tasks"]), ["0_2", "0_10", "1_0", "2_0", "10_0"]);
    assert_eq!(ids(&v["clients"]), ["B", "a", "a0", "b"]);
    let b = &v["clients"][3];
    assert_eq!(strings(&b["previous_active"]), ["0_2", "0_10", "10_0"]);
    // Object keys in written order (serde_json::Value would sort them itself).
    let text = state_to_json(&s);
    let order = |keys: &[&str]| {
        let at: Vec<usize> = keys
            .iter()
            .map(|k| text.find(&format!("\"{k}\": ")).unwrap())
            .collect();
        assert!(
            at.windows(2).all(|w| w[0] < w[1]),
            "{keys:?} out of order in\n{text}"
        );
    };
    order(&["cluster", "zone"]);
    let lags = &text[text.find("\"lags\"").unwrap()..];
    let lag_keys: Vec<usize> = ["0_2", "0_10", "2_0", "10_0"]
        .iter()
        .map(|k| lags.find(&format!("\"{k}\": ")).unwrap())
        .collect();
    assert!(lag_keys.windows(2).all(|w| w[0] < w[1]), "{lags}");

    // Plans: clients by id, tasks by subtopology then partition.
    let mut plan = Plan::default();
    for id in ["b", "B", "a"] {
        plan.clients.insert(
            ClientId::new(id),
            ClientPlan {
                active: [t(10, 0), t(0, 10), t(0, 2)].into(),
                ..ClientPlan::default()
            },
        );
    }
    let v: Value = serde_json::from_str(&plan_to_json(&plan, None)).unwrap();
    assert_eq!(ids(&v["clients"]), ["B", "a", "b"]);
    assert_eq!(strings(&v["clients"][0]["active"]), ["0_2", "0_10", "10_0"]);
}

/// The learner fields: `previous_warmup` and `leaving` on clients (written
/// only when set), `followup_when_caught_up` on plans (written only when
/// non-empty, sorted).
#[test]
fn learner_fields_round_trip_and_are_left_out_when_unset() {
    let s = read(
        r#"{"tasks": [{"id": "0_1", "stateful": true}, {"id": "0_2", "stateful": true}],
            "clients": [{"id": "a", "previous_standby": ["0_1", "0_2"],
                         "previous_warmup": ["0_2"], "leaving": true},
                        {"id": "b"}]}"#,
    );
    assert_eq!(s.clients()[0].previous_warmup, [t(0, 2)].into());
    assert!(s.clients()[0].leaving);
    assert!(!s.clients()[1].leaving);
    let text = state_to_json(&s);
    assert_eq!(text.matches("previous_warmup").count(), 1, "{text}");
    assert_eq!(text.matches("leaving").count(), 1, "{text}");
    assert_eq!(read(&text), s);

    let mut plan = sample_plan();
    assert!(!plan_to_json(&plan, None).contains("followup_when_caught_up"));
    plan.followup_when_caught_up = [t(0, 10), t(0, 2)].into();
    let text = plan_to_json(&plan, None);
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["followup_when_caught_up"], json!(["0_2", "0_10"]));
    assert_eq!(plan_from_json(&text).unwrap(), plan);
}

#[test]
fn a_previous_warmup_must_be_a_previous_standby() {
    let e = reject(
        r#"{"tasks": [{"id": "0_1", "stateful": true}],
            "clients": [{"id": "a", "previous_warmup": ["0_1"]}]}"#,
    );
    assert_eq!(e.path, "clients[0].previous_warmup");
    assert!(e.message.contains("0_1"), "{e}");
    let e = reject(r#"{"clients": [{"id": "a", "leaving": 1}]}"#);
    assert_eq!(e.path, "clients[0].leaving", "{e}");
}

#[test]
fn a_reader_reads_what_the_text_reads() {
    use smoothscale::wire::{state_from_reader, ReadError};
    let text = state_to_json(&rich_state());
    let from_reader = state_from_reader(text.as_bytes()).expect("valid");
    assert_eq!(from_reader, read(&text));
    // The same messages, bad input or not.
    for bad in [
        "",
        " \n",
        "{",
        "[[[1]]]",
        r#"{"clients": [{"id": "a", "capacity": 0}]}"#,
        r#"{"tasks": [], "x": 1}"#,
        "{} {}",
    ] {
        let e = reject(bad);
        match state_from_reader(bad.as_bytes()) {
            Err(ReadError::Input(r)) => assert_eq!(r, e, "{bad:?}"),
            other => panic!("{bad:?}: {other:?}"),
        }
    }
    // Bytes that are not UTF-8 are a read error, not a JSON one.
    match state_from_reader(&b"{\"clients\": [{\"id\": \"caf\xe9\"}]}"[..]) {
        Err(ReadError::Io(e)) => assert!(e.to_string().contains("UTF-8"), "{e}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn the_top_level_and_nested_objects_reject_arrays() {
    let e = reject("[[[1]]]");
    assert_eq!(e.path, "input");
    assert!(
        e.message.starts_with("must be a JSON object, got an array"),
        "{e}"
    );
    let e = reject(r#"{"tasks": [["0_0", true]]}"#);
    assert_eq!(e.path, "tasks[0]");
    let e = reject(r#"{"config": [1, 2]}"#);
    assert_eq!(e.path, "config");
}

#[test]
fn null_is_absent_for_optional_fields_and_rejected_for_required_ones() {
    let with_nulls = read(
        r#"{"config": {"num_standby_replicas": null, "rack_aware_assignment_tags": null,
                       "rack_aware_strategy": null, "rack_aware_traffic_cost": null},
            "tasks": [{"id": "0_0", "stateful": null, "end_offset": null, "racks": null,
                       "changelog_racks": null, "cpu": null, "ram_mb": null,
                       "disk_mb": null}],
            "clients": [{"id": "a", "capacity": null, "tags": null, "lags": null,
                         "previous_active": null, "previous_standby": null,
                         "previous_warmup": null, "leaving": null, "rack": null,
                         "host": null, "cpu": null, "ram_mb": null, "disk_mb": null}]}"#,
    );
    assert_eq!(
        with_nulls,
        read(r#"{"tasks": [{"id": "0_0"}], "clients": [{"id": "a"}]}"#)
    );
    assert_eq!(
        read(
            r#"{"config": null, "tasks": null, "clients": null, "previous_containers": null,
                "observed_restore_rate": null}"#
        ),
        read("{}")
    );
    // Required fields and values inside maps and lists are not optional.
    for (text, path) in [
        (r#"{"tasks": [{"id": null}]}"#, "tasks[0].id"),
        (r#"{"clients": [{"id": null}]}"#, "clients[0].id"),
        (
            r#"{"clients": [{"id": "a", "tags": {"zone": null}}]}"#,
            "clients[0].tags.zone",
        ),
        (
            r#"{"tasks": [{"id": "0_0"}], "clients": [{"id": "a", "previous_active": [null]}]}"#,
            "clients[0].previous_active[0]",
        ),
        (r#"{"tasks": [null]}"#, "tasks[0]"),
    ] {
        let e = reject(text);
        assert_eq!(e.path, path, "{text}: {e}");
        assert!(e.message.contains("null"), "{text}: {e}");
    }
    // Plans read the same way.
    let plan = plan_from_json(
        r#"{"strategy": "x", "clients": [{"id": "a", "active": [], "standby": null,
            "warmup": null}], "followup_rebalance_ms": null,
            "followup_when_caught_up": null, "diagnostics": null}"#,
    )
    .expect("nulls are absent");
    assert_eq!(plan.clients.len(), 1);
}

#[test]
fn config_doc_checks_with_the_models_rules_under_any_prefix() {
    use smoothscale::wire::ConfigDoc;
    let doc: ConfigDoc =
        serde_json::from_str(r#"{"max_warmup_replicas": 3, "rack_aware_strategy": "min_traffic"}"#)
            .unwrap();
    let config = doc.into_config("config").unwrap();
    assert_eq!(config.max_warmup_replicas, 3);
    assert_eq!(config.rack_aware_strategy, RackAwareStrategy::MinTraffic);
    for (text, path) in [
        (
            r#"{"max_warmup_replicas": 0}"#,
            "scenario.config.max_warmup_replicas",
        ),
        (
            r#"{"probing_rebalance_interval_ms": 1}"#,
            "scenario.config.probing_rebalance_interval_ms",
        ),
        (
            r#"{"rack_aware_assignment_tags": ["a", "a"]}"#,
            "scenario.config.rack_aware_assignment_tags[1]",
        ),
        (
            r#"{"rack_aware_traffic_cost": 4294967296}"#,
            "scenario.config.rack_aware_traffic_cost",
        ),
    ] {
        let doc: ConfigDoc = serde_json::from_str(text).unwrap();
        let e = doc.into_config("scenario.config").unwrap_err();
        assert_eq!(e.path, path, "{text}: {e}");
    }
    assert!(serde_json::from_str::<ConfigDoc>(r#"{"num_standbys": 1}"#).is_err());
    // The model's own check is the same rule set.
    let bad = AssignmentConfig {
        max_warmup_replicas: 0,
        ..AssignmentConfig::default()
    };
    assert_eq!(
        bad.check().unwrap_err().to_string(),
        "config.max_warmup_replicas must be at least 1, got 0"
    );
    assert_eq!(
        ClusterState::new(bad, vec![], vec![]).unwrap_err().path,
        "config.max_warmup_replicas"
    );
}

/// `observed_restore_rate`: optional (absent or `null`: none), an integer
/// `1 ..= 2^64 − 1` written back only when present; anything else is an
/// error naming the field and the value.
#[test]
fn the_observed_restore_rate_is_optional_checked_and_written_back() {
    assert_eq!(read("{}").observed_restore_rate(), None);
    assert!(!state_to_json(&read("{}")).contains("observed_restore_rate"));
    for (text, rate) in [("1", 1), ("2500", 2500), ("18446744073709551615", u64::MAX)] {
        let s = read(&format!(r#"{{"observed_restore_rate": {text}}}"#));
        assert_eq!(s.observed_restore_rate(), Some(rate), "{text}");
        let written = state_to_json(&s);
        let v: Value = serde_json::from_str(&written).unwrap();
        assert_eq!(v["observed_restore_rate"], json!(rate), "{written}");
        assert_eq!(read(&written), s);
    }
    for (value, message) in [
        ("0", "must be at least 1, got 0"),
        ("-3", "must be at least 1, got -3"),
        ("2.5", "must be an integer, got 2.5"),
        ("1.0", "must be an integer, got 1.0"),
        (
            "18446744073709551616",
            "must be at most 18446744073709551615, got 1.8446744073709552e+19",
        ),
        ("-99999999999999999999", "must be at least 1, got -1e+20"),
    ] {
        let e = reject(&format!(r#"{{"observed_restore_rate": {value}}}"#));
        assert_eq!(e.path, "observed_restore_rate", "{value}: {e}");
        assert_eq!(e.message, message, "{value}");
    }
    let e = reject(r#"{"observed_restore_rate": "fast"}"#);
    assert_eq!(e.path, "observed_restore_rate", "{e}");
    assert!(e.message.contains("\"fast\""), "{e}");
}
