//! The codec against the core: round trips, every error path names its
//! field, and the plan comes back in the sender's indices.

use smoothscale::generate::{self, History, Spec};
use smoothscale::model::{AssignmentConfig, Client, ClusterState, Lag, Task, TaskId};

use crate::bytes::Reader;
use crate::{assign, generate_preset, handout, plan, state};

fn small_state() -> ClusterState {
    let t = |p| TaskId::new(0, p);
    let mut tasks = vec![
        Task::stateful(t(2), 100),
        Task::stateless(t(0)),
        Task::stateful(t(1), 50),
    ];
    tasks[0].racks.insert("r1".into());
    let config = AssignmentConfig {
        num_standby_replicas: 1,
        rack_aware_assignment_tags: vec!["zone".into()],
        ..AssignmentConfig::default()
    };
    let clients = vec![
        Client::new(state::client_id(0, 2), 2)
            .with_rack("r1")
            .with_tag("zone", "a")
            .with_previous_active([t(2)])
            .with_lag(t(2), Lag::Running)
            .with_lag(t(1), Lag::Unknown),
        Client::new(state::client_id(1, 2), 1)
            .with_tag("zone", "b")
            .with_previous_standby([t(2)])
            .with_lag(t(2), Lag::Records(7)),
    ];
    ClusterState::new(config, tasks, clients).unwrap()
}

#[test]
fn a_state_survives_the_round_trip() {
    let state = small_state();
    let decoded = state::decode(&state::encode(&state)).unwrap();
    assert_eq!(decoded.state.tasks(), state.tasks());
    assert_eq!(decoded.state.clients(), state.clients());
    assert_eq!(decoded.state.config(), state.config());
    assert_eq!(decoded.state.observed_restore_rate(), None);
    let observed = state.with_observed_restore_rate(Some(12_345)).unwrap();
    let decoded = state::decode(&state::encode(&observed)).unwrap();
    assert_eq!(decoded.state.observed_restore_rate(), Some(12_345));
}

#[test]
fn every_preset_survives_the_round_trip() {
    for preset in generate::presets()
        .iter()
        .filter(|p| p.name != "100000t_1000c")
    {
        let bytes = generate_preset(preset.name, 7).unwrap();
        let decoded = state::decode(&bytes).unwrap().state;
        let original = generate::generate(&preset.spec, 7).unwrap();
        assert_eq!(decoded.tasks(), original.tasks(), "{}", preset.name);
        assert_eq!(
            decoded.clients().len(),
            original.clients().len(),
            "{}",
            preset.name
        );
        for (d, o) in decoded.clients().iter().zip(original.clients()) {
            assert_eq!(
                (&d.previous_active, &d.previous_standby, &d.lags),
                (&o.previous_active, &o.previous_standby, &o.lags)
            );
        }
    }
}

#[test]
fn client_ids_sort_in_the_order_sent() {
    let ids: Vec<_> = (0..1001).map(|i| state::client_id(i, 1001)).collect();
    assert!(ids.windows(2).all(|w| w[0] < w[1]));
    assert_eq!(ids[7].as_str(), "c0007");
    assert_eq!(state::client_id(0, 1).as_str(), "c0");
}

/// Reads a plan message back: per client (active, standby, warm-up) message
/// indices, and the follow-up.
fn read_plan(bytes: &[u8]) -> (Option<i64>, Vec<[Vec<u32>; 3]>) {
    let f = || String::new();
    let mut r = Reader::new(bytes);
    assert_eq!(r.u32(&f).unwrap(), plan::PLAN_MAGIC);
    assert_eq!(r.u32(&f).unwrap(), plan::PLAN_VERSION);
    let wants = r.u8(&f).unwrap() == 1;
    let ms = r.i64(&f).unwrap();
    let list = |r: &mut Reader<'_>| {
        (0..r.u32(&f).unwrap())
            .map(|_| r.u32(&f).unwrap())
            .collect::<Vec<_>>()
    };
    let clients = (0..r.u32(&f).unwrap())
        .map(|_| [list(&mut r), list(&mut r), list(&mut r)])
        .collect();
    list(&mut r);
    for _ in 0..r.u32(&f).unwrap() {
        r.str(&f).unwrap();
    }
    r.finish().unwrap();
    (wants.then_some(ms), clients)
}

#[test]
fn the_plan_comes_back_in_the_senders_task_indices() {
    let state = small_state();
    let bytes = state::encode(&state);
    // The encoder writes tasks in id order: 0_0 is index 0, 0_1 is 1, 0_2 is 2.
    let (_, clients) = read_plan(&assign("kip441", &bytes).unwrap());
    let direct = smoothscale::assignor::by_name("kip441")
        .unwrap()
        .assign(&state)
        .unwrap();
    for (c, got) in state.clients().iter().zip(&clients) {
        let want = &direct.clients[&c.id];
        let ids = |v: &Vec<u32>| {
            v.iter()
                .map(|&i| state.task_ids()[i as usize])
                .collect::<Vec<_>>()
        };
        assert_eq!(
            ids(&got[0]),
            want.active.iter().copied().collect::<Vec<_>>()
        );
        assert_eq!(
            ids(&got[1]),
            want.standby.iter().copied().collect::<Vec<_>>()
        );
        assert_eq!(
            ids(&got[2]),
            want.warmup.iter().copied().collect::<Vec<_>>()
        );
    }
}

#[test]
fn tasks_sent_out_of_order_are_answered_in_message_indices() {
    // Hand-made message: tasks 0_1 (index 0) then 0_0 (index 1), one client.
    let mut w = crate::bytes::Writer::default();
    w.u32(state::STATE_MAGIC);
    w.u32(state::VERSION);
    w.u32(0);
    w.i64(10_000);
    w.u32(2);
    w.i64(600_000);
    w.u8(0);
    w.i32(-1);
    w.i32(-1);
    w.u32(0); // tags
    w.u32(0); // strings
    w.u32(2);
    for p in [1, 0] {
        w.u32(0);
        w.u32(p);
        w.u8(0);
        w.i64(0);
        w.u32(0);
        w.u32(0);
    }
    w.u32(1);
    w.u32(1);
    w.i32(-1);
    w.i32(-1);
    for _ in 0..4 {
        w.u32(0);
    }
    w.i64(-1); // no observed restore rate
    let (followup, clients) = read_plan(&assign("kip441", &w.into_bytes()).unwrap());
    assert_eq!(followup, None);
    let mut active = clients[0][0].clone();
    active.sort_unstable();
    assert_eq!(active, vec![0, 1]);
}

#[test]
fn a_learner_plan_waiting_for_catch_up_asks_for_a_probe() {
    // Three warm clients, a fourth empty one: kip441-learner moves with learners.
    let spec = Spec::stateful(12, 4, 1, 0, History::Sparse { reports: 2 });
    let mut asked = 0;
    for seed in 0..20 {
        let state = generate::generate(&spec, seed).unwrap();
        let plan = smoothscale::assignor::by_name("kip441-learner")
            .unwrap()
            .assign(&state)
            .unwrap();
        let (followup, _) = read_plan(&assign("kip441-learner", &state::encode(&state)).unwrap());
        let expected = plan::followup_ms(&state, &plan).map(|ms| i64::try_from(ms).unwrap());
        assert_eq!(followup, expected);
        if !plan.followup_when_caught_up.is_empty() && plan.followup_rebalance_ms.is_none() {
            assert_eq!(followup, Some(600_000));
            asked += 1;
        }
    }
    assert!(asked > 0, "no seed exercised the caught-up follow-up");
}

fn err(bytes: &[u8]) -> String {
    assign("kip441", bytes).unwrap_err()
}

#[test]
fn malformed_messages_name_the_field_and_offset() {
    let good = state::encode(&small_state());
    assert_eq!(
        err(&[]),
        "magic (byte 0) must have 4 bytes, got 0 (the message ends at byte 0)"
    );
    let mut bad = good.clone();
    bad[0] = b'X';
    assert!(
        err(&bad).starts_with("magic (byte 0) must be 0x31534d53"),
        "{}",
        err(&bad)
    );
    let mut bad = good.clone();
    bad[4] = 9;
    assert_eq!(err(&bad), "version (byte 4) must be 2, got 9");
    let cut = err(&good[..good.len() - 1]);
    assert_eq!(
        cut,
        format!(
            "observed_restore_rate (byte {0}) must have 8 bytes, got 7 (the message ends at byte {1})",
            good.len() - 8,
            good.len() - 1
        )
    );
    let cut = err(&good[..good.len() - 9]);
    assert_eq!(
        cut,
        format!(
            "clients[1].lags (byte {}) count must fit in the 11 bytes left, got 1",
            good.len() - 24
        )
    );
    // The observed rate closes the message: -1 none, else at least 1.
    let mut bad = good.clone();
    let at = bad.len() - 8;
    bad[at..].copy_from_slice(&0i64.to_le_bytes());
    assert_eq!(
        err(&bad),
        format!("observed_restore_rate (byte {at}) must be -1 (none) or at least 1, got 0")
    );
    let mut long = good.clone();
    long.push(0);
    assert!(err(&long).ends_with("must follow the last field, got 1 more bytes"));
    // acceptable_recovery_lag is at bytes 12..20.
    let mut bad = good.clone();
    bad[12..20].copy_from_slice(&(-5i64).to_le_bytes());
    assert_eq!(
        err(&bad),
        "config.acceptable_recovery_lag (byte 12) must be at least 0, got -5"
    );
    // A huge count fails before allocating.
    let mut bad = good.clone();
    bad[41..45].copy_from_slice(&u32::MAX.to_le_bytes());
    assert!(err(&bad).contains("count must fit in the"), "{}", err(&bad));
}

#[test]
fn a_well_formed_but_invalid_state_gets_the_models_message() {
    // clients[1] of `small_state` is the message's tail: capacity, rack, host
    // (4 bytes each), one tag (4 + 8), no previous active (4), one previous
    // standby (4 + 4), one lag (4 + 12): 52 bytes, capacity first; then the
    // observed restore rate (8).
    let mut bytes = state::encode(&small_state());
    let start = bytes.len() - 60;
    assert_eq!(bytes[start..start + 4], 1u32.to_le_bytes());
    bytes[start..start + 4].copy_from_slice(&0u32.to_le_bytes());
    assert_eq!(err(&bytes), "clients[1].capacity must be at least 1, got 0");
}

#[test]
fn unknown_strategies_and_presets_list_the_known_ones() {
    let text = assign("kip999", &[]).unwrap_err();
    assert!(
        text.starts_with("strategy must be one of kip441, "),
        "{text}"
    );
    assert!(text.ends_with("got \"kip999\""), "{text}");
    assert!(generate_preset("nope", 1)
        .unwrap_err()
        .starts_with("preset must be one of 6000t_2c"));
}

#[test]
fn a_panic_is_an_error_line() {
    let text = crate::contain::<()>(|| panic!("boom\nsecond line")).unwrap_err();
    assert_eq!(text, "smoothscale panicked: boom\\nsecond line");
}

/// Twelve stateful tasks of one subtopology, as the handout lists them.
fn handout_tasks() -> Vec<(TaskId, bool)> {
    (0..12).map(|p| (TaskId::new(0, p), true)).collect()
}

/// Three clients, each task active on `p % 3` and a standby on `(p + 1) % 3`.
fn handout_clients() -> Vec<(Vec<u32>, Vec<u32>)> {
    let mut clients = vec![(Vec::new(), Vec::new()); 3];
    for p in 0..12u32 {
        clients[(p % 3) as usize].0.push(p);
        clients[((p + 1) % 3) as usize].1.push(p);
    }
    clients
}

#[test]
fn a_kafka_handout_with_one_active_and_one_standby_per_task_is_valid() {
    let bytes = handout::encode(1, 2, &handout_tasks(), &handout_clients());
    assert_eq!(handout::check(&bytes), Ok(None));
}

#[test]
fn extra_standbys_are_warmups_within_the_budget() {
    let mut clients = handout_clients();
    // Two warm-ups (a task's second standby) are within max_warmup_replicas = 2 ...
    clients[2].1.push(0);
    clients[0].1.push(1);
    let bytes = handout::encode(1, 2, &handout_tasks(), &clients);
    assert_eq!(handout::check(&bytes), Ok(None));
    // ... a third is not.
    clients[1].1.push(2);
    let bytes = handout::encode(1, 2, &handout_tasks(), &clients);
    assert_eq!(
        handout::check(&bytes),
        Ok(Some("plan has 3 warm-ups, limit 2".into()))
    );
}

#[test]
fn a_handout_breaking_kafkas_rules_names_each_violation() {
    let mut clients = handout_clients();
    clients[2].0.push(0); // task 0_0 active on c0 and c2
    clients[2].1.retain(|&t| t != 1); // task 0_1 loses its standby
    clients[0].0.push(3); // c0 holds 0_3 twice as active
    let bytes = handout::encode(1, 2, &handout_tasks(), &clients);
    let violations = handout::check(&bytes).unwrap().unwrap();
    assert_eq!(
        violations,
        "client c0 is given task 0_3 twice as active; task 0_0 is active on c0, c2; \
         task 0_1 has 0 standbys and 0 warm-ups, expected at most 1 standbys and at least 1 counting warm-ups"
    );
}

#[test]
fn a_standby_of_a_stateless_task_or_on_its_active_is_a_violation() {
    let mut tasks = handout_tasks();
    tasks[4].1 = false;
    let bytes = handout::encode(1, 2, &tasks, &handout_clients());
    let violations = handout::check(&bytes).unwrap().unwrap();
    assert!(
        violations.contains("stateless") && violations.contains("0_4"),
        "{violations}"
    );
    let mut clients = handout_clients();
    clients[0].1.push(0); // c0 runs 0_0 and holds a standby of it
    let bytes = handout::encode(1, 2, &handout_tasks(), &clients);
    let violations = handout::check(&bytes).unwrap().unwrap();
    assert!(
        violations.starts_with("client c0 holds task 0_0"),
        "{violations}"
    );
}

#[test]
fn a_malformed_handout_names_the_field_and_byte() {
    let mut clients = handout_clients();
    clients[1].1.push(12);
    let bytes = handout::encode(1, 2, &handout_tasks(), &clients);
    let err = handout::check(&bytes).unwrap_err();
    assert!(
        err.contains("clients[1].standby[") && err.contains("must index the 12 tasks, got 12"),
        "{err}"
    );
    let err = handout::check(b"SMS1").unwrap_err();
    assert!(err.starts_with("magic"), "{err}");
    let mut bytes = handout::encode(1, 2, &handout_tasks(), &handout_clients());
    bytes.push(0);
    let err = crate::check_handout(&bytes).unwrap_err();
    assert!(err.contains("end of message"), "{err}");
}
