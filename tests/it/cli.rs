//! The `smoothscale` binary end to end (formats in docs/wire-format.md): bad
//! input and bad arguments exit 2 with nothing on stdout and one stderr line
//! naming the field's path (or the flag) and the offending value; good input
//! prints a sorted, deterministic plan.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use serde_json::{json, Value};
use smoothscale::{validate, wire, TaskId};

use crate::support;

/// What one run of the binary did.
#[derive(Debug)]
struct Outcome {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

/// Runs `smoothscale ARGS`, feeding `stdin` (nothing when `None`).
fn smoothscale(args: &[&str], stdin: Option<&[u8]>) -> Outcome {
    let out = support::bounded_output(
        Command::new(env!("CARGO_BIN_EXE_smoothscale")).args(args),
        stdin.map(<[u8]>::to_vec),
    );
    Outcome {
        code: out.status.code(),
        stdout: String::from_utf8(out.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(out.stderr).expect("stderr is UTF-8"),
    }
}

/// Writes `contents` to a fresh file under Cargo's per-test temp dir.
fn temp_file(name: &str, contents: &[u8]) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli");
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(format!("{}-{name}", std::process::id()));
    std::fs::write(&path, contents).expect("temp file");
    path
}

/// The example input of docs/wire-format.md#input without task `0_1`: client
/// `a` still reports a lag for `0_1`, so this input is refused.
const WIRE_EXAMPLE: &str = r#"{
  "config": { "num_standby_replicas": 1, "acceptable_recovery_lag": 10000,
              "max_warmup_replicas": 2, "probing_rebalance_interval_ms": 600000 },
  "tasks": [
    { "id": "0_0", "stateful": true, "end_offset": 500000, "cpu": 0.5, "ram_mb": 512 },
    { "id": "1_0", "stateful": false }
  ],
  "clients": [
    { "id": "a", "capacity": 2, "rack": "r1", "tags": { "zone": "z1" }, "host": "h1",
      "previous_active": ["0_0"], "previous_standby": [],
      "lags": { "0_0": "running", "0_1": 1200 } }
  ]
}"#;

/// `WIRE_EXAMPLE` with task `0_1` declared, as the example of
/// docs/wire-format.md#input declares it (end offset 500 000 here): without it
/// the lag reported for `0_1` names an unknown task, which is an error
/// (docs/wire-format.md#consistency-rules).
fn wire_example() -> String {
    WIRE_EXAMPLE.replace(
        r#"{ "id": "1_0", "stateful": false }"#,
        r#"{ "id": "0_1", "stateful": true, "end_offset": 500000 },
    { "id": "1_0", "stateful": false }"#,
    )
}

/// A valid state the bad-input rows start from: three stateful tasks, one
/// stateless, three clients (listed out of id order), lags of every kind.
fn base() -> Value {
    json!({
        "config": { "num_standby_replicas": 1 },
        "tasks": [
            { "id": "0_0", "stateful": true, "end_offset": 1000 },
            { "id": "0_1", "stateful": true, "end_offset": 1000 },
            { "id": "0_2", "stateful": true, "end_offset": 1000 },
            { "id": "1_0" }
        ],
        "clients": [
            { "id": "b", "capacity": 1, "tags": { "zone": "z1" },
              "previous_active": ["0_0"], "lags": { "0_0": "running", "0_1": 5 } },
            { "id": "a", "capacity": 2, "previous_standby": ["0_0"],
              "lags": { "0_0": 12, "0_2": "unknown" } },
            { "id": "c" }
        ]
    })
}

/// The base state with one change.
fn with(change: impl FnOnce(&mut Value)) -> String {
    let mut doc = base();
    change(&mut doc);
    doc.to_string()
}

/// One bad input: how it is given and what the one stderr line must contain.
struct Bad {
    name: &'static str,
    args: Vec<&'static str>,
    input: Vec<u8>,
    needles: Vec<&'static str>,
}

fn bad(name: &'static str, input: impl Into<Vec<u8>>, needles: &[&'static str]) -> Bad {
    Bad {
        name,
        args: vec!["assign"],
        input: input.into(),
        needles: needles.to_vec(),
    }
}

fn bad_input_rows() -> Vec<Bad> {
    let base = base().to_string();
    vec![
        // Not a JSON object.
        bad("empty input", "", &["input", "empty"]),
        bad("blank input", " \n\t", &["input", "empty"]),
        bad(
            "unclosed object",
            "{",
            &["input", "not valid JSON", "line 1 column 1"],
        ),
        bad(
            "not JSON",
            "clients: []",
            &["input", "not valid JSON", "line 1"],
        ),
        bad(
            "trailing garbage",
            format!("{base} }}"),
            &["input", "trailing characters"],
        ),
        bad(
            "two documents",
            format!("{base}\n{base}"),
            &["input", "trailing characters", "line 2"],
        ),
        bad("top-level array", "[]", &["input", "object", "array"]),
        bad("top-level null", "null", &["input", "object", "null"]),
        bad("top-level number", "7", &["input", "object", "7"]),
        bad(
            "invalid UTF-8",
            b"{\"tasks\": [\xff]}".to_vec(),
            &["standard input", "UTF-8"],
        ),
        // Unknown fields, at every level.
        bad(
            "unknown top-level field",
            with(|d| d["clusters"] = json!([])),
            &["clusters", "unknown field"],
        ),
        bad(
            "unknown config field",
            with(|d| d["config"]["num_standbys"] = json!(1)),
            &["config.num_standbys", "unknown field"],
        ),
        bad(
            "unknown task field",
            with(|d| d["tasks"][2]["colour"] = json!("red")),
            &["tasks[2].colour", "unknown field"],
        ),
        bad(
            "unknown client field",
            with(|d| d["clients"][1]["weight"] = json!(3)),
            &["clients[1].weight", "unknown field"],
        ),
        // Wrong shapes and types.
        bad(
            "string capacity",
            with(|d| d["clients"][1]["capacity"] = json!("2")),
            &["clients[1].capacity", "\"2\""],
        ),
        bad(
            "fractional capacity",
            with(|d| d["clients"][1]["capacity"] = json!(1.5)),
            &["clients[1].capacity", "1.5"],
        ),
        bad(
            "capacity beyond u32",
            with(|d| d["clients"][1]["capacity"] = json!(5_000_000_000u64)),
            &["clients[1].capacity", "5000000000"],
        ),
        bad(
            "string stateful",
            with(|d| d["tasks"][0]["stateful"] = json!("yes")),
            &["tasks[0].stateful", "\"yes\""],
        ),
        bad(
            "numeric client id",
            with(|d| d["clients"][2]["id"] = json!(7)),
            &["clients[2].id", "7"],
        ),
        bad(
            "tasks as an object",
            with(|d| d["tasks"] = json!({})),
            &["tasks", "array", "object"],
        ),
        bad(
            "task as an array",
            with(|d| d["tasks"][1] = json!(["0_1", true])),
            &["tasks[1]", "object", "array"],
        ),
        bad(
            "client as a string",
            with(|d| d["clients"][0] = json!("b")),
            &["clients[0]", "object", "\"b\""],
        ),
        bad(
            "config as an array",
            with(|d| d["config"] = json!([1])),
            &["config", "object", "array"],
        ),
        bad(
            "config a string",
            with(|d| d["config"] = json!("none")),
            &["config", "object", "\"none\""],
        ),
        bad(
            "nested arrays at the top",
            "[[[1]]]",
            &["input must be a JSON object, got an array"],
        ),
        // `null` is absent for optional fields only.
        bad(
            "null client id",
            with(|d| d["clients"][0]["id"] = Value::Null),
            &["clients[0].id", "string", "null"],
        ),
        bad(
            "null task id",
            with(|d| d["tasks"][0]["id"] = Value::Null),
            &["tasks[0].id", "string", "null"],
        ),
        bad(
            "null tag value",
            with(|d| d["clients"][0]["tags"]["zone"] = Value::Null),
            &["clients[0].tags.zone", "null"],
        ),
        bad(
            "null in previous_active",
            with(|d| d["clients"][0]["previous_active"] = json!([null])),
            &["clients[0].previous_active[0]", "null"],
        ),
        bad(
            "lags as an array",
            with(|d| d["clients"][0]["lags"] = json!([])),
            &["clients[0].lags", "object", "array"],
        ),
        bad(
            "previous_active a string",
            with(|d| d["clients"][0]["previous_active"] = json!("0_0")),
            &["clients[0].previous_active", "array", "\"0_0\""],
        ),
        bad(
            "missing task id",
            with(|d| d["tasks"][3] = json!({ "stateful": false })),
            &["tasks[3].id", "missing"],
        ),
        bad(
            "missing client id",
            with(|d| d["clients"][2] = json!({ "capacity": 1 })),
            &["clients[2].id", "missing"],
        ),
        bad(
            "duplicate field in a task",
            r#"{"tasks":[{"id":"0_0","id":"0_1"}]}"#,
            &["tasks[0].id", "twice"],
        ),
        bad(
            "duplicate top-level field",
            r#"{"tasks":[],"tasks":[]}"#,
            &["tasks", "twice"],
        ),
        // Ids.
        bad(
            "duplicate task id",
            with(|d| d["tasks"][3]["id"] = json!("0_1")),
            &["tasks[3].id", "0_1"],
        ),
        bad(
            "duplicate client id",
            with(|d| d["clients"][2]["id"] = json!("b")),
            &["clients[2].id", "\"b\""],
        ),
        bad(
            "empty client id",
            with(|d| d["clients"][2]["id"] = json!("")),
            &["clients[2].id", "\"\""],
        ),
        bad(
            "task id with a dash",
            with(|d| d["tasks"][0]["id"] = json!("0-0")),
            &["tasks[0].id", "\"0-0\""],
        ),
        bad(
            "task id without partition",
            with(|d| d["tasks"][3]["id"] = json!("1")),
            &["tasks[3].id", "\"1\""],
        ),
        bad(
            "negative task id",
            with(|d| d["tasks"][3]["id"] = json!("-1_0")),
            &["tasks[3].id", "\"-1_0\""],
        ),
        bad(
            "bad id in previous_active",
            with(|d| d["clients"][0]["previous_active"] = json!(["0_0", "x_1"])),
            &["clients[0].previous_active[1]", "\"x_1\""],
        ),
        bad(
            "bad id in previous_standby",
            with(|d| d["clients"][1]["previous_standby"] = json!(["0 0"])),
            &["clients[1].previous_standby[0]", "\"0 0\""],
        ),
        bad(
            "bad id as a lag key",
            with(|d| d["clients"][0]["lags"]["0_1_2"] = json!(3)),
            &["clients[0].lags", "\"0_1_2\""],
        ),
        bad(
            "task listed twice in previous_active",
            with(|d| d["clients"][0]["previous_active"] = json!(["0_0", "0_0"])),
            &["clients[0].previous_active[1]", "0_0"],
        ),
        // Lags.
        bad(
            "lag of an unknown task",
            with(|d| d["clients"][1]["lags"]["7_7"] = json!(3)),
            &["clients[1].lags.7_7", "unknown task"],
        ),
        bad(
            "the example without 0_1: lag of undeclared 0_1",
            WIRE_EXAMPLE,
            &["clients[0].lags.0_1", "unknown task 0_1"],
        ),
        bad(
            "lag of a stateless task",
            with(|d| d["clients"][2]["lags"] = json!({ "1_0": 0 })),
            &["clients[2].lags.1_0", "stateless"],
        ),
        bad(
            "negative lag",
            with(|d| d["clients"][0]["lags"]["0_1"] = json!(-5)),
            &["clients[0].lags.0_1", "-5"],
        ),
        bad(
            "fractional lag",
            with(|d| d["clients"][0]["lags"]["0_1"] = json!(2.5)),
            &["clients[0].lags.0_1", "2.5"],
        ),
        bad(
            "lag neither integer nor sentinel",
            with(|d| d["clients"][0]["lags"]["0_1"] = json!("stale")),
            &["clients[0].lags.0_1", "\"stale\""],
        ),
        bad(
            "sentinel in the wrong case",
            with(|d| d["clients"][0]["lags"]["0_1"] = json!("Running")),
            &["clients[0].lags.0_1", "\"Running\""],
        ),
        bad(
            "null lag",
            with(|d| d["clients"][0]["lags"]["0_1"] = Value::Null),
            &["clients[0].lags.0_1", "null"],
        ),
        bad(
            "boolean lag",
            with(|d| d["clients"][0]["lags"]["0_1"] = json!(true)),
            &["clients[0].lags.0_1", "true"],
        ),
        bad(
            "duplicate lag key",
            r#"{"tasks":[{"id":"0_0","stateful":true}],"clients":[{"id":"a","lags":{"0_0":1,"0_0":2}}]}"#,
            &["clients[0].lags.0_0", "twice"],
        ),
        // Capacity.
        bad(
            "capacity 0",
            with(|d| d["clients"][1]["capacity"] = json!(0)),
            &["clients[1].capacity", "got 0"],
        ),
        bad(
            "negative capacity",
            with(|d| d["clients"][1]["capacity"] = json!(-2)),
            &["clients[1].capacity", "-2"],
        ),
        // The observed restore rate.
        bad(
            "observed_restore_rate 0",
            with(|d| d["observed_restore_rate"] = json!(0)),
            &["observed_restore_rate", "at least 1", "got 0"],
        ),
        bad(
            "negative observed_restore_rate",
            with(|d| d["observed_restore_rate"] = json!(-5)),
            &["observed_restore_rate", "-5"],
        ),
        bad(
            "fractional observed_restore_rate",
            with(|d| d["observed_restore_rate"] = json!(0.5)),
            &["observed_restore_rate", "integer", "0.5"],
        ),
        bad(
            "observed_restore_rate beyond u64",
            format!(
                "{}, \"observed_restore_rate\": 18446744073709551616}}",
                base.strip_suffix('}').expect("an object")
            ),
            &[
                "observed_restore_rate",
                "at most 18446744073709551615",
                "e+19",
            ],
        ),
        bad(
            "string observed_restore_rate",
            with(|d| d["observed_restore_rate"] = json!("1000")),
            &["observed_restore_rate", "\"1000\""],
        ),
        // Previous containers.
        bad(
            "container named twice",
            with(|d| {
                d["previous_containers"] = json!([
                    { "id": "0", "client": "a", "active": ["0_0"] },
                    { "id": "0", "client": "b", "active": ["0_1"] }
                ])
            }),
            &[
                "previous_containers[1].id",
                "duplicates previous_containers[0].id",
                "\"0\"",
            ],
        ),
        bad(
            "task active in two containers",
            with(|d| {
                d["previous_containers"] = json!([
                    { "id": "0", "client": "a", "active": ["0_0"] },
                    { "id": "1", "client": "gone", "active": ["0_0"] }
                ])
            }),
            &[
                "previous_containers[1].active",
                "0_0",
                "previous_containers[0]",
            ],
        ),
        bad(
            "task active and standby in one container",
            with(|d| {
                d["previous_containers"] =
                    json!([{ "id": "0", "client": "a", "active": ["0_0"], "standby": ["0_0"] }])
            }),
            &["previous_containers[0].standby", "0_0", "active"],
        ),
        bad(
            "container without a client",
            with(|d| d["previous_containers"] = json!([{ "id": "0", "client": "" }])),
            &["previous_containers[0].client", "must not be empty"],
        ),
        bad(
            "container task id malformed",
            with(|d| {
                d["previous_containers"] = json!([{ "id": "0", "client": "a", "active": ["x"] }])
            }),
            &["previous_containers[0].active[0]", "\"x\""],
        ),
        bad(
            "container with an unknown field",
            with(|d| d["previous_containers"] = json!([{ "id": "0", "client": "a", "host": "h" }])),
            &["previous_containers[0]", "host"],
        ),
        // Previous assignment.
        bad(
            "standby of a stateless task",
            with(|d| d["clients"][2]["previous_standby"] = json!(["1_0"])),
            &["clients[2].previous_standby", "1_0", "stateless"],
        ),
        bad(
            "previous active and standby on one client",
            with(|d| d["clients"][0]["previous_standby"] = json!(["0_0"])),
            &["clients[0].previous_standby", "0_0", "previous_active"],
        ),
        bad(
            "previous_active of an unknown task",
            with(|d| d["clients"][2]["previous_active"] = json!(["9_9"])),
            &["clients[2].previous_active", "9_9"],
        ),
        bad(
            "previous_standby of an unknown task",
            with(|d| d["clients"][2]["previous_standby"] = json!(["0_9"])),
            &["clients[2].previous_standby", "0_9"],
        ),
        // Tags.
        bad(
            "six tag keys",
            with(|d| {
                d["clients"][0]["tags"] =
                    json!({ "a": "1", "b": "1", "c": "1", "d": "1", "e": "1", "f": "1" })
            }),
            &["clients[0].tags", "at most 5", "got 6"],
        ),
        bad(
            "tag key too long",
            with(|d| d["clients"][0]["tags"] = json!({ "k".repeat(21): "v" })),
            &["clients[0].tags", "kkkkkkkkkkkkkkkkkkkkk"],
        ),
        bad(
            "tag value too long",
            with(|d| d["clients"][0]["tags"]["zone"] = json!("v".repeat(31))),
            &["clients[0].tags.zone", "vvvvvvvvvvvvvvvvvvvvvvvvvvvvvvv"],
        ),
        bad(
            "non-string tag value",
            with(|d| d["clients"][0]["tags"]["zone"] = json!(1)),
            &["clients[0].tags.zone", "1"],
        ),
        bad(
            "duplicate tag key",
            r#"{"clients":[{"id":"a","tags":{"zone":"z1","zone":"z2"}}]}"#,
            &["clients[0].tags.zone", "twice"],
        ),
        // Keys that would break the line are escaped in the path.
        bad(
            "unknown field with a newline",
            r#"{"tasks": [], "a\nb": 1}"#,
            &[r#"["a\nb"] is an unknown field"#],
        ),
        bad(
            "duplicate tag key with a newline",
            r#"{"clients":[{"id":"a","tags":{"a\nb":"x","a\nb":"y"}}]}"#,
            &[r#"clients[0].tags["a\nb"]"#, "twice"],
        ),
        bad(
            "too long value of a dotted tag key",
            with(|d| d["clients"][0]["tags"] = json!({ "zone.name": "v".repeat(31) })),
            &[r#"clients[0].tags["zone.name"]"#, "got \"vvvvv"],
        ),
        bad(
            "strategy with a newline",
            with(|d| d["config"]["rack_aware_strategy"] = json!("min\ntraffic")),
            &["config.rack_aware_strategy", "min\\ntraffic"],
        ),
        // Config values out of range.
        bad(
            "acceptable_recovery_lag -1",
            with(|d| d["config"]["acceptable_recovery_lag"] = json!(-1)),
            &["config.acceptable_recovery_lag", "-1"],
        ),
        bad(
            "max_warmup_replicas 0",
            with(|d| d["config"]["max_warmup_replicas"] = json!(0)),
            &["config.max_warmup_replicas", "got 0"],
        ),
        bad(
            "probing_rebalance_interval_ms 59999",
            with(|d| d["config"]["probing_rebalance_interval_ms"] = json!(59_999)),
            &["config.probing_rebalance_interval_ms", "59999"],
        ),
        bad(
            "num_standby_replicas -1",
            with(|d| d["config"]["num_standby_replicas"] = json!(-1)),
            &["config.num_standby_replicas", "-1"],
        ),
        bad(
            "fractional num_standby_replicas",
            with(|d| d["config"]["num_standby_replicas"] = json!(0.5)),
            &["config.num_standby_replicas", "0.5"],
        ),
        bad(
            "unknown rack_aware_strategy",
            with(|d| d["config"]["rack_aware_strategy"] = json!("fastest")),
            &["config.rack_aware_strategy", "fastest"],
        ),
        bad(
            "six rack_aware_assignment_tags",
            with(|d| {
                d["config"]["rack_aware_assignment_tags"] = json!(["a", "b", "c", "d", "e", "f"])
            }),
            &["config.rack_aware_assignment_tags", "got 6"],
        ),
        bad(
            "rack_aware_assignment_tags twice",
            with(|d| d["config"]["rack_aware_assignment_tags"] = json!(["zone", "zone"])),
            &["config.rack_aware_assignment_tags[1]", "zone"],
        ),
        bad(
            "negative rack_aware_traffic_cost",
            with(|d| d["config"]["rack_aware_traffic_cost"] = json!(-3)),
            &["config.rack_aware_traffic_cost", "-3"],
        ),
        // Resources.
        bad(
            "negative end_offset",
            with(|d| d["tasks"][0]["end_offset"] = json!(-1)),
            &["tasks[0].end_offset", "-1"],
        ),
        bad(
            "negative task cpu",
            with(|d| d["tasks"][0]["cpu"] = json!(-0.5)),
            &["tasks[0].cpu", "-0.5"],
        ),
        bad(
            "negative client ram",
            with(|d| d["clients"][0]["ram_mb"] = json!(-1)),
            &["clients[0].ram_mb", "-1"],
        ),
        bad(
            "number out of range",
            r#"{"tasks":[{"id":"0_0","end_offset":1e999}]}"#,
            &["input", "not valid JSON", "out of range"],
        ),
        // The command line itself.
        Bad {
            name: "unknown strategy",
            args: vec!["assign", "--strategy", "no-such-strategy"],
            input: base.clone().into(),
            needles: vec!["--strategy", "\"no-such-strategy\"", "kip441"],
        },
        Bad {
            name: "unknown strategy with -",
            args: vec!["assign", "--strategy", "KIP441", "-"],
            input: base.into(),
            needles: vec!["--strategy", "\"KIP441\""],
        },
    ]
}

/// Checks the bad-input contract on one run; `Err` says what broke.
fn check_bad(outcome: &Outcome, needles: &[&str]) -> Result<(), String> {
    if outcome.code != Some(2) {
        return Err(format!("exit code {:?}, want 2", outcome.code));
    }
    if !outcome.stdout.is_empty() {
        return Err(format!("stdout not empty: {:?}", outcome.stdout));
    }
    let err = &outcome.stderr;
    if !(err.ends_with('\n') && err.matches('\n').count() == 1) {
        return Err(format!("stderr is not exactly one line: {err:?}"));
    }
    if !err.starts_with("error: ") {
        return Err(format!("stderr does not start with `error: `: {err:?}"));
    }
    if err.contains("panicked") {
        return Err(format!("panic: {err:?}"));
    }
    for needle in needles {
        if !err.contains(needle) {
            return Err(format!("stderr lacks {needle:?}: {err:?}"));
        }
    }
    Ok(())
}

#[test]
fn bad_input_exits_2_with_one_line_naming_path_and_value() {
    let mut failures = Vec::new();
    for (i, row) in bad_input_rows().iter().enumerate() {
        // On standard input.
        let piped = smoothscale(&row.args, Some(&row.input));
        if let Err(why) = check_bad(&piped, &row.needles) {
            failures.push(format!("{} (stdin): {why}", row.name));
            continue;
        }
        // The same document from a file gives the same line (the UTF-8 row
        // names the source, which differs).
        if row.args.len() == 1 && row.name != "invalid UTF-8" {
            let path = temp_file(&format!("bad-{i}.json"), &row.input);
            let path = path.to_str().expect("UTF-8 temp path");
            let from_file = smoothscale(&["assign", path], None);
            if let Err(why) = check_bad(&from_file, &row.needles) {
                failures.push(format!("{} (file): {why}", row.name));
            } else if from_file.stderr != piped.stderr {
                failures.push(format!(
                    "{}: file and stdin disagree: {:?} vs {:?}",
                    row.name, from_file.stderr, piped.stderr
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} bad-input rows broke the contract:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn capacity_zero_message_is_exact() {
    let out = smoothscale(
        &["assign", "-"],
        Some(with(|d| d["clients"][1]["capacity"] = json!(0)).as_bytes()),
    );
    assert_eq!(out.code, Some(2));
    assert_eq!(
        out.stderr,
        "error: clients[1].capacity must be at least 1, got 0\n"
    );
}

#[test]
fn missing_or_unreadable_file_exits_2_naming_it() {
    let missing = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("no-such-dir/state.json");
    let missing = missing.to_str().unwrap();
    let directory = env!("CARGO_TARGET_TMPDIR");
    let newline = format!("{directory}/no\nsuch.json");
    for path in [missing, directory] {
        let out = smoothscale(&["assign", path], None);
        if let Err(why) = check_bad(&out, &["cannot read", path]) {
            panic!("{path}: {why}");
        }
    }
    // A file name holding a newline is escaped: still one line.
    let out = smoothscale(&["assign", &newline], None);
    if let Err(why) = check_bad(&out, &["cannot read", "no\\nsuch.json"]) {
        panic!("{why}");
    }
}

#[test]
fn bad_input_in_a_file_with_invalid_utf8_names_the_file() {
    let path = temp_file("latin1.json", b"{\"clients\": [{\"id\": \"caf\xe9\"}]}");
    let path = path.to_str().unwrap();
    let out = smoothscale(&["assign", path], None);
    if let Err(why) = check_bad(&out, &[path, "UTF-8"]) {
        panic!("{why}");
    }
}

/// Runs `assign` on `input` and returns the plan text, asserting success.
fn assign_ok(args: &[&str], input: &str) -> String {
    let out = smoothscale(args, Some(input.as_bytes()));
    assert_eq!(out.code, Some(0), "assign {args:?} failed: {}", out.stderr);
    assert_eq!(out.stderr, "", "assign {args:?} wrote to stderr");
    out.stdout
}

fn task_ids(list: &Value) -> Vec<TaskId> {
    list.as_array()
        .expect("a task list")
        .iter()
        .map(|t| t.as_str().expect("a task id string").parse().expect("S_P"))
        .collect()
}

/// Asserts the wire format's plan shape and returns the parsed plan.
fn assert_plan_shape(text: &str) -> Value {
    assert!(text.ends_with('\n'), "the plan ends with a newline");
    let plan: Value = serde_json::from_str(text).expect("the plan is JSON");
    let top = plan.as_object().expect("the plan is an object");
    for key in top.keys() {
        assert!(
            [
                "strategy",
                "clients",
                "followup_rebalance_ms",
                "diagnostics",
                "metrics"
            ]
            .contains(&key.as_str()),
            "unexpected plan field {key}"
        );
    }
    assert!(plan["strategy"].is_string());
    let followup = &plan["followup_rebalance_ms"];
    assert!(
        followup.is_null() || followup.is_u64(),
        "followup_rebalance_ms is {followup}"
    );
    assert!(top.contains_key("followup_rebalance_ms"), "always present");
    let clients = plan["clients"].as_array().expect("clients is an array");
    let ids: Vec<&str> = clients.iter().map(|c| c["id"].as_str().unwrap()).collect();
    let mut sorted = ids.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(ids, sorted, "clients sorted by id, each once");
    for client in clients {
        let fields: Vec<&String> = client.as_object().unwrap().keys().collect();
        assert_eq!(fields, ["active", "id", "standby", "warmup"]);
        for role in ["active", "standby", "warmup"] {
            let list = task_ids(&client[role]);
            let mut sorted = list.clone();
            sorted.sort_unstable();
            sorted.dedup();
            assert_eq!(list, sorted, "{role} of {} sorted", client["id"]);
        }
    }
    plan
}

#[test]
fn the_example_gives_a_plan_of_the_documented_shape() {
    let input = wire_example();
    let text = assign_ok(&["assign"], &input);
    let plan = assert_plan_shape(&text);
    assert_eq!(plan["strategy"], "kip441");
    assert_eq!(plan["clients"].as_array().unwrap().len(), 1);
    let a = &plan["clients"][0];
    assert_eq!(a["id"], "a");
    let mut active = task_ids(&a["active"]);
    active.sort_unstable();
    assert_eq!(active, task_ids(&json!(["0_0", "0_1", "1_0"])));
    // One client: no standby is possible, no movement is pending.
    assert_eq!(a["standby"], json!([]));
    assert_eq!(a["warmup"], json!([]));

    // The printed plan is a valid plan for the state (library cross-check).
    let state = wire::state_from_json(&input).expect("the state reads");
    let read_back = wire::plan_from_json(&text).expect("the plan reads");
    let claims = smoothscale::assignor::by_name("kip441")
        .unwrap()
        .info()
        .claims;
    assert_eq!(validate(&state, &read_back, claims), Ok(()));
    assert_eq!(wire::plan_to_json(&read_back, None), text);
}

/// A state with ids in neither string nor id order, and pending movements.
fn unsorted_state() -> String {
    let tasks: Vec<Value> = ["1_0", "0_10", "0_2", "0_1", "2_3", "0_0", "1_1", "0_3"]
        .iter()
        .map(|id| {
            if id.starts_with("2_") {
                json!({ "id": id })
            } else {
                json!({ "id": id, "stateful": true, "end_offset": 1_000_000 })
            }
        })
        .collect();
    json!({
        "config": { "num_standby_replicas": 1 },
        "tasks": tasks,
        "clients": [
            { "id": "c2", "capacity": 1 },
            { "id": "c10", "capacity": 2,
              "previous_active": ["0_10", "0_2", "0_1", "1_0", "0_0", "1_1", "0_3", "2_3"],
              "lags": { "0_10": "running", "0_2": "running", "0_1": "running",
                        "1_0": "running", "0_0": "running", "1_1": "running", "0_3": "running" } },
            { "id": "B", "capacity": 1, "lags": { "0_0": 10, "0_3": "unknown" } },
            { "id": "c1", "capacity": 1 }
        ]
    })
    .to_string()
}

#[test]
fn plan_lists_clients_by_id_and_tasks_by_subtopology_then_partition() {
    let text = assign_ok(&["assign"], &unsorted_state());
    let plan = assert_plan_shape(&text);
    let ids: Vec<&str> = plan["clients"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["B", "c1", "c10", "c2"]);
    // Every task active exactly once; 0_2 sorts before 0_10 wherever both appear.
    let mut actives: Vec<TaskId> = plan["clients"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|c| task_ids(&c["active"]))
        .collect();
    actives.sort_unstable();
    assert_eq!(actives.len(), 8);
    actives.dedup();
    assert_eq!(actives.len(), 8);
    // Movements from the overloaded c10 are pending: a probing rebalance.
    assert_eq!(plan["followup_rebalance_ms"], 600_000);
}

#[test]
fn stdin_dash_and_file_give_identical_output() {
    for (name, input) in [("wire", wire_example()), ("unsorted", unsorted_state())] {
        let path = temp_file(&format!("{name}.json"), input.as_bytes());
        let path = path.to_str().unwrap();
        let from_stdin = assign_ok(&["assign"], &input);
        let from_dash = assign_ok(&["assign", "-"], &input);
        let from_file = smoothscale(&["assign", path], None);
        assert_eq!(from_file.code, Some(0), "{}", from_file.stderr);
        assert_eq!(from_stdin, from_dash, "{name}: stdin vs -");
        assert_eq!(from_stdin, from_file.stdout, "{name}: stdin vs file");
        let with_strategy = assign_ok(&["assign", "--strategy", "kip441", "-"], &input);
        assert_eq!(from_stdin, with_strategy, "{name}: kip441 is the default");
    }
}

#[test]
fn running_twice_is_byte_identical() {
    for input in [wire_example(), unsorted_state()] {
        for args in [&["assign"][..], &["assign", "--metrics"][..]] {
            assert_eq!(assign_ok(args, &input), assign_ok(args, &input));
        }
    }
}

#[test]
fn metrics_flag_adds_a_metrics_object_and_changes_nothing_else() {
    let input = unsorted_state();
    let plain_text = assign_ok(&["assign"], &input);
    let plain: Value = serde_json::from_str(&plain_text).unwrap();
    let text = assign_ok(&["assign", "--metrics"], &input);
    let mut with_metrics = assert_plan_shape(&text);
    assert!(
        plain.get("metrics").is_none(),
        "no metrics without --metrics"
    );
    let metrics = with_metrics
        .as_object_mut()
        .unwrap()
        .remove("metrics")
        .expect("--metrics adds metrics");
    let metrics = metrics.as_object().expect("metrics is an object");
    for key in [
        "active_spread_per_thread",
        "active_moves",
        "standby_moves",
        "warmups",
        "active_restore_records",
    ] {
        assert!(metrics[key].is_number(), "metrics.{key} is a number");
    }
    assert_eq!(with_metrics, plain);
    // A plan printed with metrics still reads back as a plan.
    let plan = wire::plan_from_json(&text).expect("plan with metrics reads");
    assert_eq!(wire::plan_to_json(&plan, None), plain_text);
}

#[test]
fn bundled_example_assigns() {
    let example = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/scale-out.json");
    let out = smoothscale(&["assign", "--metrics", example], None);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert_plan_shape(&out.stdout);
}

#[test]
fn strategies_lists_kip441_with_a_description() {
    let out = smoothscale(&["strategies"], None);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert_eq!(out.stderr, "");
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert!(!lines.is_empty());
    for line in &lines {
        let (name, description) = line.split_once("  ").expect("NAME  DESCRIPTION");
        assert!(!name.trim().is_empty() && !name.contains(' '), "{line:?}");
        assert!(!description.trim().is_empty(), "{line:?}");
        // Every listed strategy is selectable.
        let run = smoothscale(
            &["assign", "--strategy", name.trim()],
            Some(wire_example().as_bytes()),
        );
        assert_eq!(run.code, Some(0), "{name}: {}", run.stderr);
    }
    let kip441 = lines
        .iter()
        .find(|l| l.split_whitespace().next() == Some("kip441"))
        .expect("kip441 is listed");
    assert!(kip441.contains("KIP-441"), "{kip441:?}");
}

#[test]
fn a_closed_stdout_is_not_a_panic() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_smoothscale"))
        .args(["assign", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Close the reading end before the binary can write its plan.
    drop(child.stdout.take());
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(unsorted_state().as_bytes()).unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(out.status.code(), Some(0), "{stderr}");
}

#[test]
fn extreme_numbers_are_accepted_without_panic() {
    let input = json!({
        "config": {
            "num_standby_replicas": u32::MAX,
            "acceptable_recovery_lag": u64::MAX,
            "max_warmup_replicas": u32::MAX,
            "probing_rebalance_interval_ms": u64::MAX,
            "rack_aware_traffic_cost": u32::MAX
        },
        "tasks": [
            { "id": "0_0", "stateful": true, "end_offset": u64::MAX },
            { "id": "0_1", "stateful": true, "end_offset": u64::MAX },
            { "id": format!("{}_{}", u32::MAX, u32::MAX), "stateful": true, "end_offset": u64::MAX }
        ],
        "clients": [
            { "id": "a", "capacity": u32::MAX, "lags": { "0_0": u64::MAX, "0_1": "unknown" } },
            { "id": "b", "previous_active": ["0_0", "0_1"] },
            { "id": "c", "capacity": u32::MAX, "lags": { "0_0": "running" } }
        ]
    });
    for lag in [u64::MAX, 0] {
        let mut input = input.clone();
        input["config"]["acceptable_recovery_lag"] = json!(lag);
        let text = assign_ok(&["assign", "--metrics"], &input.to_string());
        let plan = assert_plan_shape(&text);
        // Restore volumes saturate instead of overflowing.
        assert!(plan["metrics"]["replica_restore_records"].is_u64());
    }
}

/// `generate` prints a state `assign` reads back; the same flags and seed
/// give the same bytes; flags override a preset; bad flags exit 2 naming
/// the flag.
#[test]
fn generate_prints_states_assign_reads() {
    let args = [
        "generate",
        "--stateful",
        "30",
        "--stateless",
        "4",
        "--clients",
        "5",
        "--threads",
        "3",
        "--history",
        "random",
        "--seed",
        "9",
    ];
    let first = smoothscale(&args, None);
    assert_eq!(first.code, Some(0), "{}", first.stderr);
    assert_eq!(smoothscale(&args, None).stdout, first.stdout);
    let state = wire::state_from_json(&first.stdout).expect("a valid state");
    assert_eq!((state.tasks().len(), state.clients().len()), (34, 5));
    let plan = smoothscale(&["assign"], Some(first.stdout.as_bytes()));
    assert_eq!(plan.code, Some(0), "{}", plan.stderr);

    let small = smoothscale(
        &["generate", "--preset", "1000t_1000c", "--clients", "7"],
        None,
    );
    let state = wire::state_from_json(&small.stdout).expect("a valid state");
    assert_eq!((state.tasks().len(), state.clients().len()), (1000, 7));

    let bad = smoothscale(&["generate", "--preset", "huge"], None);
    assert_eq!(bad.code, Some(2));
    assert!(bad.stdout.is_empty());
    assert!(bad.stderr.contains("--preset must be one of") && bad.stderr.contains("\"huge\""));
    let bad = smoothscale(&["generate", "--threads", "0"], None);
    assert_eq!(bad.code, Some(2));
    assert!(bad.stderr.contains("--threads"), "{}", bad.stderr);
}

/// `assign --strategy kip441-learner` on the bundled scale-out example: the
/// three empty newcomers get learners (as warm-ups), and the plan asks for a
/// rebalance as soon as they have caught up, never for a probing one.
#[test]
fn learner_plans_ask_for_a_rebalance_when_caught_up() {
    let example = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/scale-out.json");
    let input = std::fs::read_to_string(example).expect("bundled example");
    let out = assign_ok(&["assign", "--strategy", "kip441-learner", "-"], &input);
    let plan: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(plan["followup_rebalance_ms"], serde_json::Value::Null);
    let learners: Vec<&serde_json::Value> = plan["clients"]
        .as_array()
        .expect("clients")
        .iter()
        .flat_map(|c| c["warmup"].as_array().expect("warmup"))
        .collect();
    assert!(!learners.is_empty(), "{out}");
    let followup = plan["followup_when_caught_up"].as_array().expect("listed");
    assert_eq!(followup.len(), learners.len(), "{out}");
}

#[test]
fn null_is_absent_for_every_optional_field() {
    // Every optional field at every level given as `null`: the plan equals
    // the one of the same state with those fields left out.
    let nulls = json!({
        "config": {
            "num_standby_replicas": null, "acceptable_recovery_lag": null,
            "max_warmup_replicas": null, "probing_rebalance_interval_ms": null,
            "rack_aware_assignment_tags": null, "rack_aware_strategy": null,
            "rack_aware_traffic_cost": null, "rack_aware_non_overlap_cost": null
        },
        "tasks": [
            { "id": "0_0", "stateful": null, "end_offset": null, "cpu": null,
              "ram_mb": null, "racks": null, "changelog_racks": null }
        ],
        "clients": [
            { "id": "a", "capacity": null, "rack": null, "tags": null, "host": null,
              "cpu": null, "ram_mb": null, "previous_active": null,
              "previous_standby": null, "previous_warmup": null, "leaving": null,
              "lags": null }
        ]
    });
    let bare = json!({ "tasks": [{ "id": "0_0" }], "clients": [{ "id": "a" }] });
    let expected = assign_ok(&["assign"], &bare.to_string());
    assert_eq!(assign_ok(&["assign"], &nulls.to_string()), expected);
    let top = json!({ "config": null, "tasks": null, "clients": null,
                      "previous_containers": null, "observed_restore_rate": null });
    assert_eq!(
        assign_ok(&["assign"], &top.to_string()),
        assign_ok(&["assign"], "{}")
    );
}

#[test]
fn echoed_ids_and_values_are_cut_and_escaped() {
    let huge = "v".repeat(1 << 20);
    let cases: Vec<(&str, String, Vec<&str>)> = vec![
        (
            "1 MB tag value",
            with(|d| d["clients"][0]["tags"]["zone"] = json!(huge)),
            vec!["clients[0].tags.zone", "…", "(1048576 characters)"],
        ),
        (
            "1 MB tag key",
            with(|d| d["clients"][0]["tags"] = json!({ huge.clone(): "z" })),
            vec!["clients[0].tags", "…", "(1048576 characters)"],
        ),
        (
            "1 MB duplicate client id",
            with(|d| {
                d["clients"][0]["id"] = json!(huge);
                d["clients"][1]["id"] = json!(huge);
            }),
            vec!["clients[1].id", "…", "(1048576 characters)"],
        ),
        (
            "1 MB task id",
            with(|d| d["tasks"][0]["id"] = json!(huge)),
            vec!["tasks[0].id", "…", "(1048576 characters)"],
        ),
        (
            "1 MB lag key",
            with(|d| d["clients"][0]["lags"][&huge] = json!(1)),
            vec!["clients[0].lags", "…"],
        ),
        (
            "1 MB unknown field",
            with(|d| d["clients"][0][&huge] = json!(1)),
            vec!["clients[0]", "unknown field", "…"],
        ),
        (
            "1 MB string as a capacity",
            with(|d| d["clients"][0]["capacity"] = json!(huge)),
            vec!["clients[0].capacity", "…"],
        ),
        (
            "1 MB rack-aware strategy",
            with(|d| d["config"]["rack_aware_strategy"] = json!(huge)),
            vec!["config.rack_aware_strategy", "…"],
        ),
        (
            "U+2028 and U+2029 in a duplicate client id",
            with(|d| {
                d["clients"][0]["id"] = json!("x\u{2028}y\u{2029}z");
                d["clients"][1]["id"] = json!("x\u{2028}y\u{2029}z");
            }),
            vec!["clients[1].id", r#""x\u{2028}y\u{2029}z""#],
        ),
        (
            "U+2028 in a task id",
            with(|d| d["tasks"][0]["id"] = json!("0\u{2028}_0")),
            vec!["tasks[0].id", r#""0\u{2028}_0""#],
        ),
        (
            "U+2028 in an unknown field",
            with(|d| d["tasks"][0]["a\u{2028}b"] = json!(1)),
            vec![r#"tasks[0]["a\u{2028}b"]"#, "unknown field"],
        ),
    ];
    for (name, input, needles) in cases {
        let out = smoothscale(&["assign"], Some(input.as_bytes()));
        if let Err(why) = check_bad(&out, &needles) {
            panic!("{name}: {why}");
        }
        assert!(
            out.stderr.len() < 1000,
            "{name}: {} bytes",
            out.stderr.len()
        );
        for c in ['\u{2028}', '\u{2029}'] {
            assert!(!out.stderr.contains(c), "{name}: raw {c:?}: {}", out.stderr);
        }
    }
    // On the command line too.
    // (One argument may be at most 128 KiB on Linux.)
    let long = "v".repeat(100_000);
    let out = smoothscale(&["assign", "--strategy", &long], Some(b"{}"));
    if let Err(why) = check_bad(&out, &["--strategy", "…"]) {
        panic!("{why}");
    }
    assert!(out.stderr.len() < 1000);
}

#[test]
fn endless_input_stops_at_once() {
    // `/dev/zero` is not JSON: the first byte ends the read (it used to be
    // read whole, 1 GB/s until the OOM killer).
    let out = smoothscale(&["assign", "/dev/zero"], None);
    if let Err(why) = check_bad(&out, &["input", "not valid JSON", "line 1 column 1"]) {
        panic!("{why}");
    }
}

#[test]
fn argument_errors_are_one_line_and_help_is_not_an_error() {
    let cases: &[(&[&str], &[&str])] = &[
        (&[], &["a command is required", "usage: smoothscale"]),
        (&["nosuch"], &["'nosuch'", "usage: smoothscale <COMMAND>"]),
        (
            &["assign", "--foo"],
            &["'--foo'", "usage: smoothscale assign"],
        ),
        (&["assign", "--strat", "x"], &["'--strat'", "--strategy"]),
        (&["assign", "--strategy"], &["--strategy"]),
        (&["assign", "a.json", "b.json"], &["'b.json'"]),
        (&["generate", "--threads", "0"], &["--threads", "'0'"]),
        (
            &["generate", "--history", "bogus"],
            &["'bogus'", "cold, sparse, random"],
        ),
        (&["generate", "--seed", "-1"], &["'-1'"]),
        (
            &["simulate"],
            &["<SCENARIO>", "usage: smoothscale simulate"],
        ),
        (&["sweep"], &["<SCENARIO>"]),
        (&["strategies", "extra"], &["'extra'"]),
    ];
    for (args, needles) in cases {
        let out = smoothscale(args, None);
        if let Err(why) = check_bad(&out, needles) {
            panic!("{args:?}: {why}");
        }
    }
    for args in [
        &["--help"][..],
        &["-h"],
        &["help"],
        &["assign", "--help"],
        &["generate", "-h"],
        &["help", "simulate"],
        &["--version"],
        &["-V"],
    ] {
        let out = smoothscale(args, None);
        assert_eq!(out.code, Some(0), "{args:?}: {}", out.stderr);
        assert_eq!(out.stderr, "", "{args:?}");
        assert!(!out.stdout.is_empty(), "{args:?}");
    }
    let help = smoothscale(&["assign", "--help"], None).stdout;
    assert!(help.lines().count() > 5 && help.contains("Usage: smoothscale assign"));
    let version = smoothscale(&["--version"], None).stdout;
    assert_eq!(
        version,
        format!("smoothscale {}\n", env!("CARGO_PKG_VERSION"))
    );
}
