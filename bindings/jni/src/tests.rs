//! The codec against the core: round trips, every error path names its
//! field, the plan comes back in the sender's indices, and every failure is
//! bad input or a bug with the command line's message.

use smoothscale::generate::{self, History, Spec};
use smoothscale::input_rate;
use smoothscale::model::{AssignmentConfig, Client, ClusterState, Lag, Plan, Task, TaskId};
use smoothscale::{AssignError, Assignor, Claims, LeaveBehaviour, StrategyInfo};

use crate::bytes::{Reader, Writer};
use crate::exports::{exception_class, INPUT_EXCEPTION, INVARIANT_EXCEPTION};
use crate::{assign, assign_with, generate_preset, handout, plan, state, Failure};

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
    let loaded = with_input_rates(&small_state(), [Some(0), None, Some(u64::MAX)]);
    let decoded = state::decode(&state::encode(&loaded)).unwrap();
    // A rate of more than i64::MAX records per window crosses as that many,
    // as every count does: a tenth of it per second.
    let rates: Vec<_> = decoded.state.tasks().iter().map(|t| t.input_rate).collect();
    let most = (i64::MAX as u64).div_ceil(10);
    assert_eq!(rates, [Some(0), None, Some(most)]);
    assert_eq!(
        input_rate::observe(0, i64::MAX as u64, input_rate::MIN_WINDOW_MS),
        Some(most)
    );
}

/// `state` with the input rates `rates`, in its task order.
fn with_input_rates(state: &ClusterState, rates: [Option<u64>; 3]) -> ClusterState {
    let mut tasks = state.tasks().to_vec();
    for (t, rate) in tasks.iter_mut().zip(rates) {
        t.input_rate = rate;
    }
    ClusterState::new(state.config().clone(), tasks, state.clients().to_vec()).unwrap()
}

/// The message's last `8 × (tasks + 1)` bytes: the leader's input elapsed
/// time, then each task's input offsets then.
fn set_input_memory(bytes: &mut [u8], elapsed_ms: i64, then: &[i64]) {
    let mut at = bytes.len() - 8 * (then.len() + 1);
    for v in std::iter::once(elapsed_ms).chain(then.iter().copied()) {
        bytes[at..at + 8].copy_from_slice(&v.to_le_bytes());
        at += 8;
    }
}

/// Where the 8 bytes of `v` stand in `bytes` (once).
fn position_of(bytes: &[u8], v: i64) -> usize {
    let needle = v.to_le_bytes();
    let at: Vec<usize> = (0..bytes.len() - 7)
        .filter(|&i| bytes[i..i + 8] == needle)
        .collect();
    assert_eq!(at.len(), 1, "{v} stands at {at:?}");
    at[0]
}

#[test]
fn input_rates_are_the_cores_rule_on_the_leaders_offsets() {
    // Task order of `small_state`: 0_0, 0_1, 0_2; the encoder writes a rate
    // as offsets 0 then the records of 10 s (the shortest window the rule
    // reads) over 10 s: here 3,000, 7, unknown.
    let loaded = with_input_rates(&small_state(), [Some(3_000), Some(7), None]);
    let mut bytes = state::encode(&loaded);
    assert_eq!(
        crate::input_rates(&bytes),
        Ok(vec![Some(3_000), Some(7), None])
    );
    // Offsets now: 30,000 and 70. 20,000 records in 10 s: 2,000/s; an
    // offset sum that went back: none; an offset known only then: none.
    set_input_memory(&mut bytes, 10_000, &[10_000, 71, 5]);
    assert_eq!(
        crate::input_rates(&bytes),
        Ok(vec![Some(2_000), None, None])
    );
    // No previous observation, or one less than the window ago: no rate.
    for elapsed in [-1, 0, 9_999] {
        set_input_memory(&mut bytes, elapsed, &[1_000, 0, -1]);
        assert_eq!(crate::input_rates(&bytes), Ok(vec![None; 3]), "{elapsed}");
    }
    // A task new since the sample (nothing then) has no rate yet.
    set_input_memory(&mut bytes, 20_000, &[-1, 10, -1]);
    assert_eq!(crate::input_rates(&bytes), Ok(vec![None, Some(3), None]));
    // Kafka's assignor sees the rates: the plan is the same either way for
    // strategies that do not read them.
    assert_eq!(
        assign("kip441", &bytes),
        assign("kip441", &state::encode(&small_state()))
    );
}

#[test]
fn input_offsets_below_minus_one_name_the_field() {
    let loaded = with_input_rates(&small_state(), [Some(987_654_321), None, None]);
    let good = state::encode(&loaded);
    let mut bad = good.clone();
    let at = position_of(&bad, state::encoded_offsets(987_654_321));
    bad[at..at + 8].copy_from_slice(&(-4i64).to_le_bytes());
    assert_eq!(
        err(&bad),
        format!(
            "tasks[0].input_offsets_now (byte {at}) must be -1 (unknown) or at least 0, got -4"
        )
    );
    let mut bad = good.clone();
    set_input_memory(&mut bad, -2, &[0, -1, -1]);
    assert_eq!(
        err(&bad),
        format!(
            "input_elapsed_ms (byte {}) must be -1 (unknown) or at least 0, got -2",
            good.len() - 32
        )
    );
    let mut bad = good.clone();
    set_input_memory(&mut bad, 1_000, &[0, i64::MIN, -1]);
    assert_eq!(
        err(&bad),
        format!(
            "tasks[1].input_offsets_then (byte {}) must be -1 (unknown) or at least 0, got {}",
            good.len() - 16,
            i64::MIN
        )
    );
    assert!(crate::input_rates(&bad).unwrap_err().is_bad_input());
    assert!(crate::input_rates(&good[..good.len() - 3])
        .unwrap_err()
        .message()
        .starts_with("tasks[2].input_offsets_then"));
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
    // Hand-made message: tasks 0_1 (index 0) then 0_0 (index 1), one client;
    // 0_1 read 4,000 records a second over the last 10 s, 0_0 is new.
    let mut w = Writer::default();
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
    for (p, offsets_now) in [(1, 41_000), (0, 300)] {
        w.u32(0);
        w.u32(p);
        w.u8(0);
        w.i64(0);
        w.i64(offsets_now);
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
    w.i64(10_000); // input elapsed
    w.i64(1_000); // 0_1's input offsets then
    w.i64(-1); // 0_0's
    let bytes = w.into_bytes();
    assert_eq!(crate::input_rates(&bytes), Ok(vec![Some(4_000), None]));
    let (followup, clients) = read_plan(&assign("kip441", &bytes).unwrap());
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
    let failure = assign("kip441", bytes).unwrap_err();
    assert!(failure.is_bad_input(), "{failure:?}");
    failure.to_string()
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
    assert_eq!(err(&bad), "version (byte 4) must be 3, got 9");
    // The message closes with the leader's memory: the observed restore rate
    // (8 bytes), the input elapsed time (8), each task's input offsets then
    // (3 × 8).
    let memory = good.len() - 40;
    let cut = err(&good[..good.len() - 1]);
    assert_eq!(
        cut,
        format!(
            "tasks[2].input_offsets_then (byte {0}) must have 8 bytes, got 7 (the message ends at byte {1})",
            good.len() - 8,
            good.len() - 1
        )
    );
    let cut = err(&good[..memory + 7]);
    assert_eq!(
        cut,
        format!(
            "observed_restore_rate (byte {memory}) must have 8 bytes, got 7 (the message ends at byte {})",
            memory + 7
        )
    );
    let cut = err(&good[..memory - 1]);
    assert_eq!(
        cut,
        format!(
            "clients[1].lags (byte {}) count must fit in the 11 bytes left, got 1",
            memory - 16
        )
    );
    // The observed rate: -1 none, else at least 1.
    let mut bad = good.clone();
    let at = memory;
    bad[at..at + 8].copy_from_slice(&0i64.to_le_bytes());
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
    // leader's memory (40).
    let mut bytes = state::encode(&small_state());
    let start = bytes.len() - 92;
    assert_eq!(bytes[start..start + 4], 1u32.to_le_bytes());
    bytes[start..start + 4].copy_from_slice(&0u32.to_le_bytes());
    assert_eq!(err(&bytes), "clients[1].capacity must be at least 1, got 0");
}

#[test]
fn unknown_strategies_and_presets_are_bad_input_listing_the_known_ones() {
    let names = smoothscale::assignor::names();
    assert_eq!(
        assign("kip999", &[]),
        Err(Failure::Input(format!(
            "strategy must be one of {}, got \"kip999\"",
            names.join(", ")
        )))
    );
    assert!(names.starts_with(&["kip441"]));
    let presets: Vec<&str> = generate::presets().iter().map(|p| p.name).collect();
    assert_eq!(
        generate_preset("nope\n", 1),
        Err(Failure::Input(format!(
            "preset must be one of {}, got \"nope\\n\"",
            presets.join(", ")
        )))
    );
    assert!(presets.starts_with(&["6000t_2c"]));
}

#[test]
fn a_panic_is_a_bug_on_one_line() {
    let failure = crate::contain::<()>(|| panic!("boom\nsecond line")).unwrap_err();
    assert_eq!(
        failure,
        Failure::Bug("smoothscale panicked: boom\\nsecond line".into())
    );
    assert_eq!(exception_class(&failure), INVARIANT_EXCEPTION);
}

/// A strategy that is not registered, for the failures no registered one
/// has: its plan leaves every task unassigned, or it fails inside, or it
/// panics.
struct Faulty(&'static StrategyInfo, Fault);

#[derive(Clone, Copy)]
enum Fault {
    EmptyPlan,
    Internal,
    Panic,
}

static FAULTY: StrategyInfo = StrategyInfo {
    name: "faulty",
    description: "a test strategy that breaks the rules",
    claims: Claims::NONE,
    leave: LeaveBehaviour::Immediate,
};

impl Assignor for Faulty {
    fn info(&self) -> &'static StrategyInfo {
        self.0
    }

    fn assign(&self, state: &ClusterState) -> Result<Plan, AssignError> {
        match self.1 {
            Fault::EmptyPlan => Ok(Plan {
                strategy: "faulty".into(),
                clients: state
                    .clients()
                    .iter()
                    .map(|c| (c.id.clone(), Default::default()))
                    .collect(),
                ..Plan::default()
            }),
            Fault::Internal => Err(AssignError::Internal {
                strategy: "faulty",
                message: "a heap went\nwrong".into(),
            }),
            Fault::Panic => panic!("index out of bounds"),
        }
    }
}

#[test]
fn a_broken_invariant_and_an_internal_error_are_bugs_with_the_cores_message() {
    let bytes = state::encode(&small_state());
    let decoded = state::decode(&bytes).unwrap().state;
    for fault in [Fault::EmptyPlan, Fault::Internal] {
        let strategy = Faulty(&FAULTY, fault);
        let failure = assign_with(&strategy, &bytes).unwrap_err();
        // The command line prints `error: ` and the core's failure, on one line.
        let core = smoothscale::assign(&strategy, &decoded).unwrap_err();
        assert!(!core.is_bad_input());
        assert_eq!(
            failure,
            Failure::Bug(smoothscale::model::one_line(&core.to_string()))
        );
        assert_eq!(exception_class(&failure), INVARIANT_EXCEPTION);
    }
    let text = assign_with(&Faulty(&FAULTY, Fault::EmptyPlan), &bytes)
        .unwrap_err()
        .to_string();
    assert!(
        text.starts_with("strategy faulty broke an invariant: task 0_0 has no active"),
        "{text}"
    );
    assert_eq!(
        assign_with(&Faulty(&FAULTY, Fault::Internal), &bytes),
        Err(Failure::Bug(
            "internal error in strategy faulty: a heap went\\nwrong".into()
        ))
    );
}

#[test]
fn a_panicking_strategy_is_a_bug() {
    let bytes = state::encode(&small_state());
    let failure =
        crate::contain(|| assign_with(&Faulty(&FAULTY, Fault::Panic), &bytes)).unwrap_err();
    assert_eq!(
        failure,
        Failure::Bug("smoothscale panicked: index out of bounds".into())
    );
}

/// Eleven stateless tasks on one client: more than heron-ffd fits on one
/// client of its default size, a state the strategy cannot serve.
fn eleven_tasks_one_client() -> ClusterState {
    let tasks = (0..11)
        .map(|p| Task::stateless(TaskId::new(0, p)))
        .collect();
    let clients = vec![Client::new(state::client_id(0, 1), 1)];
    ClusterState::new(AssignmentConfig::default(), tasks, clients).unwrap()
}

#[test]
fn an_input_a_strategy_cannot_serve_is_bad_input_with_the_cores_message() {
    let state = eleven_tasks_one_client();
    let heron = crate::find("heron-ffd").unwrap();
    let core = smoothscale::assign(heron, &state).unwrap_err();
    assert!(core.is_bad_input(), "{core:?}");
    let failure = assign("heron-ffd", &state::encode(&state)).unwrap_err();
    assert_eq!(failure, Failure::Input(core.to_string()));
    assert_eq!(exception_class(&failure), INPUT_EXCEPTION);
    // No prefix of our own: the core's line, as `smoothscale assign` prints it.
    assert_eq!(
        failure.message(),
        "task 0_9 needs 1 cpu (default), 1024 ram_mb (default) and 1024 disk_mb (default) \
         but no client has room for its cpu, ram_mb and disk_mb: the most left after padding \
         is 0 cpu on c0, 0 ram_mb on c0 and 0 disk_mb on c0 (heron-ffd cannot add a client \
         where Heron would add a container)"
    );
}

#[test]
fn malformed_and_invalid_messages_are_bad_input_on_every_export() {
    for failure in [
        assign("kip441", b"SMS1").unwrap_err(),
        crate::check_handout(b"SMSH").unwrap_err(),
        crate::observe_restore_rate(b"SMSO").unwrap_err(),
        crate::input_rates(b"SMS1").unwrap_err(),
        crate::time_assign("kip441", &[], 1).unwrap_err(),
        crate::time_assign("kip999", &[], 1).unwrap_err(),
    ] {
        assert!(failure.is_bad_input(), "{failure:?}");
        assert_eq!(exception_class(&failure), INPUT_EXCEPTION);
    }
    // A handout that is not a valid state: task 0_0 listed twice.
    let handout = encode_handout(0, 2, &[(TaskId::new(0, 0), true); 2], &[]);
    assert_eq!(
        crate::check_handout(&handout),
        Err(Failure::Input(
            "tasks[1].id duplicates tasks[0].id, got 0_0".into()
        ))
    );
}

#[test]
fn time_assign_fails_as_assign_before_timing() {
    let bytes = state::encode(&eleven_tasks_one_client());
    assert_eq!(
        crate::time_assign("heron-ffd", &bytes, 3),
        Err(assign("heron-ffd", &bytes).unwrap_err())
    );
    assert!(crate::time_assign("kip441", &bytes, 2).is_ok());
}

/// The exceptions the exports throw are the Java classes of that name: each
/// a `SmoothscaleException` with the (String) constructor JNI's `ThrowNew`
/// calls.
#[test]
fn the_exception_classes_exist_on_the_java_side() {
    for class in [INPUT_EXCEPTION, INVARIANT_EXCEPTION] {
        let path = format!(
            "{}/../java/src/main/java/{class}.java",
            env!("CARGO_MANIFEST_DIR")
        );
        let source = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let name = class.rsplit('/').next().unwrap();
        assert!(
            source.contains(&format!("public class {name} extends SmoothscaleException")),
            "{path}"
        );
        assert!(
            source.contains(&format!("public {name}(final String message)")),
            "{path}"
        );
    }
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
    let bytes = encode_handout(1, 2, &handout_tasks(), &handout_clients());
    assert_eq!(handout::check(&bytes), Ok(None));
}

#[test]
fn extra_standbys_are_warmups_within_the_budget() {
    let mut clients = handout_clients();
    // Two warm-ups (a task's second standby) are within max_warmup_replicas = 2 ...
    clients[2].1.push(0);
    clients[0].1.push(1);
    let bytes = encode_handout(1, 2, &handout_tasks(), &clients);
    assert_eq!(handout::check(&bytes), Ok(None));
    // ... a third is not.
    clients[1].1.push(2);
    let bytes = encode_handout(1, 2, &handout_tasks(), &clients);
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
    let bytes = encode_handout(1, 2, &handout_tasks(), &clients);
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
    let bytes = encode_handout(1, 2, &tasks, &handout_clients());
    let violations = handout::check(&bytes).unwrap().unwrap();
    assert!(
        violations.contains("stateless") && violations.contains("0_4"),
        "{violations}"
    );
    let mut clients = handout_clients();
    clients[0].1.push(0); // c0 runs 0_0 and holds a standby of it
    let bytes = encode_handout(1, 2, &handout_tasks(), &clients);
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
    let bytes = encode_handout(1, 2, &handout_tasks(), &clients);
    let err = handout::check(&bytes).unwrap_err().to_string();
    assert!(
        err.contains("clients[1].standby[") && err.contains("must index the 12 tasks, got 12"),
        "{err}"
    );
    let err = handout::check(b"SMS1").unwrap_err().to_string();
    assert!(err.starts_with("magic"), "{err}");
    let mut bytes = encode_handout(1, 2, &handout_tasks(), &handout_clients());
    bytes.push(0);
    let err = crate::check_handout(&bytes).unwrap_err();
    assert!(
        err.is_bad_input() && err.message().contains("end of message"),
        "{err}"
    );
}

/// Writes a handout message as Java's `HandoutCheck` does (held to the same
/// bytes by the fixture `handout.bin`): `tasks` as `(id, stateful)`, and per
/// client the indices into `tasks` it holds as active and as standby.
pub(crate) fn encode_handout(
    num_standby_replicas: u32,
    max_warmup_replicas: u32,
    tasks: &[(TaskId, bool)],
    clients: &[(Vec<u32>, Vec<u32>)],
) -> Vec<u8> {
    let mut w = Writer::default();
    w.u32(handout::HANDOUT_MAGIC);
    w.u32(handout::HANDOUT_VERSION);
    w.u32(num_standby_replicas);
    w.u32(max_warmup_replicas);
    w.count(tasks.len());
    for (id, stateful) in tasks {
        w.u32(id.subtopology);
        w.u32(id.partition);
        w.u8(u8::from(*stateful));
    }
    w.count(clients.len());
    for (active, standby) in clients {
        for list in [active, standby] {
            w.count(list.len());
            list.iter().for_each(|&t| w.u32(t));
        }
    }
    w.into_bytes()
}

/// An observation message: `before` and `now` as (member, subtopology,
/// partition, lag) entries.
fn observation_message(
    elapsed_ms: i64,
    acceptable_recovery_lag: i64,
    lists: [&[(u32, u32, u32, i64)]; 2],
) -> Vec<u8> {
    let mut w = Writer::default();
    w.u32(crate::observation::OBSERVATION_MAGIC);
    w.u32(crate::observation::OBSERVATION_VERSION);
    w.i64(elapsed_ms);
    w.i64(acceptable_recovery_lag);
    for list in lists {
        w.count(list.len());
        for &(member, subtopology, partition, lag) in list {
            w.u32(member);
            w.u32(subtopology);
            w.u32(partition);
            w.i64(lag);
        }
    }
    w.into_bytes()
}

#[test]
fn the_observed_rate_is_the_cores_rule() {
    // Member 0: 6,000 records in 2 s, a replica still behind: 3,000/s.
    // Member 1: caught up, a lower bound only.
    let before = [(0, 0, 0, 5_000), (0, 0, 1, 4_000), (1, 0, 0, 10_000)];
    let now = [(0, 0, 0, 2_000), (0, 0, 1, 1_000), (1, 0, 0, 50)];
    let observe = |elapsed, acceptable| {
        crate::observe_restore_rate(&observation_message(elapsed, acceptable, [&before, &now]))
    };
    assert_eq!(observe(2_000, 100), Ok(Some(3_000)));
    assert_eq!(observe(7_000, 100), Ok(Some(857)));
    // No time passed, or the leader's clock went back: nothing observed.
    assert_eq!(observe(0, 100), Ok(None));
    assert_eq!(observe(-5, 100), Ok(None));
    // Everyone caught up.
    assert_eq!(observe(2_000, 5_000), Ok(None));
    // A negative lag (Kafka's -2 running, -3 unknown) is no record count.
    let unknown = [(0, 0, 0, -3), (0, 0, 1, 1_000)];
    let bytes = observation_message(2_000, 100, [&before, &unknown]);
    assert_eq!(crate::observe_restore_rate(&bytes), Ok(Some(1_500)));
}

#[test]
fn a_malformed_observation_names_the_field() {
    let twice = [(0, 0, 1, 5), (0, 0, 1, -2)];
    let bytes = observation_message(1_000, 100, [&twice, &[]]);
    assert_eq!(
        crate::observe_restore_rate(&bytes),
        Err(Failure::Input(
            "before[1] (byte 48) must not list a replica twice, got member 0 task 0_1 again".into()
        ))
    );
    let bytes = observation_message(1_000, -1, [&[], &[]]);
    assert_eq!(
        crate::observe_restore_rate(&bytes),
        Err(Failure::Input(
            "acceptable_recovery_lag (byte 16) must be at least 0, got -1".into()
        ))
    );
    let mut bytes = observation_message(1_000, 0, [&[], &[]]);
    bytes.push(0);
    assert!(crate::observe_restore_rate(&bytes)
        .unwrap_err()
        .message()
        .starts_with("end of message (byte 32)"));
}
