//! Helpers shared by the integration tests: building states and running a
//! strategy with `validate` on every plan.

#![allow(dead_code)]

use smoothscale::{
    assignor, validate, AssignmentConfig, Client, ClusterState, Lag, Plan, Task, TaskId,
};

/// Task `S_P`.
pub fn t(subtopology: u32, partition: u32) -> TaskId {
    TaskId::new(subtopology, partition)
}

/// Parses `"0_1"`.
pub fn tid(s: &str) -> TaskId {
    s.parse().expect("test task id")
}

/// A checked state; panics with the input error if the test built a bad one.
pub fn state(config: AssignmentConfig, tasks: Vec<Task>, clients: Vec<Client>) -> ClusterState {
    ClusterState::new(config, tasks, clients).unwrap_or_else(|e| panic!("bad test state: {e}"))
}

/// Stateful tasks `S_P` for every subtopology below `subtopologies` and
/// partition below `partitions`, each with `end_offset` records.
pub fn stateful_grid(subtopologies: u32, partitions: u32, end_offset: u64) -> Vec<Task> {
    (0..subtopologies)
        .flat_map(|s| (0..partitions).map(move |p| Task::stateful(TaskId::new(s, p), end_offset)))
        .collect()
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
    let assignor = assignor::by_name(strategy).expect("registered strategy");
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

// ---------------------------------------------------------------------------
// Kafka's assertion helpers (`AssignmentTestUtils`,
// docs/algorithms.md#kafkas-assertion-helpers).

/// Kafka's `assertValidAssignment(num_standby, max_warmups, …)`: every task is
/// known; no stateless task has a standby or warm-up; no client holds a task in
/// two roles; every task has `min(clients, 1 + standbys)` copies (stateless:
/// `min(clients, 1)`), except that up to `max_warmups` tasks (visited in
/// ascending order) may have exactly one copy more — a warm-up. Copies count
/// actives, standbys and warm-ups alike, as Kafka's `ClientState` does.
pub fn assert_valid_assignment(state: &ClusterState, plan: &Plan, max_warmups: usize) {
    use std::collections::{BTreeMap, BTreeSet};
    let mut holders: BTreeMap<TaskId, BTreeSet<&str>> = BTreeMap::new();
    for (id, cp) in &plan.clients {
        let roles = [&cp.active, &cp.standby, &cp.warmup];
        for (r, set) in roles.iter().enumerate() {
            for &t in *set {
                let task = state
                    .task(t)
                    .unwrap_or_else(|| panic!("{id} holds unknown task {t}\nplan: {plan:?}"));
                assert!(
                    r == 0 || task.stateful,
                    "{id} holds a standby or warm-up of stateless task {t}\nplan: {plan:?}"
                );
                assert!(
                    holders.entry(t).or_default().insert(id.as_str()),
                    "{id} holds task {t} in two roles\nplan: {plan:?}"
                );
            }
        }
    }
    let clients = state.clients().len();
    let standbys = state.config().num_standby_replicas as usize;
    let mut warmups_left = max_warmups;
    for task in state.tasks() {
        let copies = holders.get(&task.id).map_or(0, BTreeSet::len);
        let expected = clients.min(1 + if task.stateful { standbys } else { 0 });
        if copies == expected {
            continue;
        }
        if copies == expected + 1 && warmups_left > 0 {
            warmups_left -= 1;
            continue;
        }
        panic!(
            "task {} has {copies} copies, expected {expected} (warm-ups left {warmups_left})\nplan: {plan:?}",
            task.id
        );
    }
}

/// Per-thread load `count / capacity` of every client, by `count(plan)`.
fn per_thread(
    state: &ClusterState,
    plan: &Plan,
    count: impl Fn(&smoothscale::ClientPlan) -> usize,
) -> Vec<f64> {
    state
        .clients()
        .iter()
        .map(|c| count(&plan.clients[&c.id]) as f64 / f64::from(c.capacity))
        .collect()
}

fn assert_spread_at_most_one(what: &str, loads: &[f64], plan: &Plan) {
    let max = loads.iter().copied().fold(f64::MIN, f64::max);
    let min = loads.iter().copied().fold(f64::MAX, f64::min);
    assert!(
        max - min <= 1.0,
        "{what} not balanced: per-thread loads {loads:?}\nplan: {plan:?}"
    );
}

/// Kafka's `assertBalancedActiveAssignment`: max − min of actives per thread ≤ 1.
pub fn assert_balanced_active(state: &ClusterState, plan: &Plan) {
    let loads = per_thread(state, plan, |cp| cp.active.len());
    assert_spread_at_most_one("actives", &loads, plan);
}

/// Kafka's `assertBalancedStatefulAssignment`: max − min of stateful replicas
/// (actives, standbys and warm-ups) per thread ≤ 1.
pub fn assert_balanced_stateful(state: &ClusterState, plan: &Plan) {
    let stateful = |t: &TaskId| state.task(*t).is_some_and(|task| task.stateful);
    let loads = per_thread(state, plan, |cp| {
        cp.active
            .iter()
            .chain(&cp.standby)
            .chain(&cp.warmup)
            .filter(|t| stateful(t))
            .count()
    });
    assert_spread_at_most_one("stateful replicas", &loads, plan);
}

/// Kafka's `analyzeTaskAssignmentBalance`: the subtopologies (with at least one
/// active) whose per-*client* active count spread (max − min, clients without
/// one counting 0) exceeds `threshold`.
pub fn skewed_subtopologies(plan: &Plan, threshold: usize) -> std::collections::BTreeSet<u32> {
    use std::collections::{BTreeMap, BTreeSet};
    let mut counts: BTreeMap<u32, Vec<usize>> = BTreeMap::new();
    let n = plan.clients.len();
    for (i, cp) in plan.clients.values().enumerate() {
        for t in &cp.active {
            counts.entry(t.subtopology).or_insert_with(|| vec![0; n])[i] += 1;
        }
    }
    counts
        .into_iter()
        .filter(|(_, per_client)| {
            let max = per_client.iter().max().copied().unwrap_or(0);
            let min = per_client.iter().min().copied().unwrap_or(0);
            max - min > threshold
        })
        .map(|(s, _)| s)
        .collect::<BTreeSet<u32>>()
}

/// Kafka's `assertBalancedTasks(clients, threshold)`: no skewed subtopology.
pub fn assert_balanced_tasks(plan: &Plan, threshold: usize) {
    let skewed = skewed_subtopologies(plan, threshold);
    assert!(
        skewed.is_empty(),
        "subtopologies {skewed:?} skewed beyond {threshold}\nplan: {plan:?}"
    );
}

/// Runs `strategy` on `state`: a plan that passed `validate`, or the message
/// of an `AssignError::Infeasible` (an input the strategy cannot serve, such
/// as demands that fit on no client). Panics on an internal error or a
/// broken invariant.
pub fn outcome(strategy: &str, state: &ClusterState) -> Result<Plan, String> {
    let assignor = assignor::by_name(strategy).expect("registered strategy");
    match assignor.assign(state) {
        Ok(plan) => {
            if let Err(v) = validate(state, &plan, assignor.info().claims) {
                panic!("{strategy} broke invariants: {v:?}\nplan: {plan:?}");
            }
            Ok(plan)
        }
        Err(smoothscale::AssignError::Infeasible(msg)) => Err(msg),
        Err(e) => panic!("{strategy} failed: {e}"),
    }
}

/// Proptest settings shared by every property module: the number of cases
/// comes from `SMOOTHSCALE_PROPTEST_CASES` (default 256); failures are not
/// persisted to files (the failing input is printed instead).
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

/// The longest any test lets one `smoothscale` process run before killing
/// it: far above what any test's command needs (a few seconds), so it only
/// ends a hang.
pub const PROCESS_LIMIT: std::time::Duration = std::time::Duration::from_secs(120);

/// Runs `command` to completion with `stdin` fed to it (closed when `None`)
/// and its output captured, as [`std::process::Command::output`] does, but
/// bounded by [`PROCESS_LIMIT`]: a process still running then is killed and
/// the test fails saying so.
pub fn bounded_output(
    command: &mut std::process::Command,
    stdin: Option<Vec<u8>>,
) -> std::process::Output {
    use std::io::{Read, Write};
    use std::process::Stdio;

    command
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = command.spawn().expect("the process starts");
    if let (Some(bytes), Some(mut pipe)) = (stdin, child.stdin.take()) {
        // The process may exit before reading everything: ignore EPIPE.
        std::thread::spawn(move || {
            let _ = pipe.write_all(&bytes);
        });
    }
    let drain = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = pipe.read_to_end(&mut bytes);
            bytes
        })
    };
    let stdout = drain(Box::new(child.stdout.take().expect("piped stdout")));
    let stderr = drain(Box::new(child.stderr.take().expect("piped stderr")));
    let poll = std::time::Duration::from_millis(10);
    let mut waited = std::time::Duration::ZERO;
    let status = loop {
        if let Some(status) = child.try_wait().expect("the process can be waited for") {
            break status;
        }
        if waited >= PROCESS_LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{command:?} still ran after {PROCESS_LIMIT:?}: killed");
        }
        std::thread::sleep(poll);
        waited += poll;
    };
    std::process::Output {
        status,
        stdout: stdout.join().expect("stdout reader"),
        stderr: stderr.join().expect("stderr reader"),
    }
}

/// What one run of the `smoothscale` binary did.
#[derive(Debug)]
pub struct BinRun {
    /// The exit code (`None`: killed by a signal).
    pub code: Option<i32>,
    /// Its standard output.
    pub stdout: String,
    /// Its standard error.
    pub stderr: String,
}

/// Runs `smoothscale ARGS` with `RAYON_NUM_THREADS=threads`, bounded in time.
pub fn smoothscale(args: &[&str], threads: usize) -> BinRun {
    let out = bounded_output(
        std::process::Command::new(env!("CARGO_BIN_EXE_smoothscale"))
            .args(args)
            .env("RAYON_NUM_THREADS", threads.to_string()),
        None,
    );
    BinRun {
        code: out.status.code(),
        stdout: String::from_utf8(out.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(out.stderr).expect("stderr is UTF-8"),
    }
}

/// A run that failed on bad input: exit 2, nothing on stdout, one stderr line
/// containing every `needle`, and no output directory `out`.
pub fn assert_bad_input(run: &BinRun, needles: &[&str], out: &std::path::Path) {
    assert_eq!(run.code, Some(2), "{run:?}");
    assert_eq!(run.stdout, "", "{run:?}");
    assert_eq!(run.stderr.lines().count(), 1, "{run:?}");
    for needle in needles {
        assert!(run.stderr.contains(needle), "{needle} not in {run:?}");
    }
    assert!(!out.exists(), "{} was created", out.display());
}

/// The bundled scenarios (`simulations/*.toml`), by file name without `.toml`.
pub const BUNDLED: [&str; 12] = [
    "crash-disk-loss",
    "learner-scale-in",
    "live-churn",
    "live-scale-out",
    "mixed-scale-out",
    "overload-scale-out",
    "rack-outage",
    "random-churn",
    "rolling-bounce",
    "scale-in",
    "scale-out",
    "write-spike",
];
