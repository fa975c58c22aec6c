//! `smoothscale sweep` with parameters, end to end: `--set` and the
//! `[sweep]` table make the same runs, one row per point, seed and strategy
//! in `runs.csv` and `runs.json`; the aggregate's standard deviation and 95%
//! confidence interval agree with a hand computation; the files are the same
//! bytes on one thread or two; bad `--set` input exits 2 with one line and
//! writes nothing.

use std::path::{Path, PathBuf};

use serde_json::Value;
use smoothscale::sim::report::Fixed;
use smoothscale::sim::report::Stats;

use crate::support;

/// Three clients of 12 stateful tasks of 2,000,000 records become six after
/// 1 minute: each newcomer needs 2 actives, restored at 20,000 rec/s by
/// warm-ups, so how many warm-ups kip441 may place at once
/// (`max_warmup_replicas`) decides how many probing rounds it takes.
const SCENARIO: &str = r#"
name = "sweep-params"
seed = 1
duration = "3h"
sample_every = "10m"
strategies = ["kip441", "sticky"]

[cluster]
clients = 3
restore_rate = 20000

[[subtopologies]]
partitions = 12
stateful = true
state_records = 2000000
write_rate = 10

[config]
num_standby_replicas = 1
probing_rebalance_interval = "5m"

[[events]]
at = "1m"
kind = "scale_out"
count = 3
"#;

use support::smoothscale;

/// Writes `text` as `scenario.toml` in a fresh directory; returns its path.
fn scenario_file(name: &str, text: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("sweep")
        .join(format!("{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("scenario.toml");
    std::fs::write(&path, text).expect("scenario file");
    path
}

fn s(path: &Path) -> &str {
    path.to_str().expect("UTF-8 temp path")
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// The three files and the table of a sweep of `text` with `extra` arguments.
#[derive(Debug, PartialEq)]
struct Outputs {
    table: String,
    sweep: String,
    runs_csv: String,
    runs_json: String,
}

fn sweep(name: &str, text: &str, extra: &[&str], threads: usize) -> Outputs {
    let file = scenario_file(name, text);
    let out = file.with_file_name("out");
    let mut args = vec!["sweep", s(&file), "--seeds", "1..3", "--out", s(&out)];
    args.extend_from_slice(extra);
    let run = smoothscale(&args, threads);
    assert_eq!(run.code, Some(0), "{run:?}");
    assert_eq!(run.stderr.lines().count(), 1, "{run:?}");
    Outputs {
        table: run.stdout,
        sweep: read(&out.join("sweep.json")),
        runs_csv: read(&out.join("runs.csv")),
        runs_json: read(&out.join("runs.json")),
    }
}

/// `sweep.json` without its `scenario_hash` line (the hash of the file's text).
fn without_hash(json: &str) -> String {
    json.lines()
        .filter(|l| !l.contains("\"scenario_hash\""))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn std_and_confidence_interval_by_hand() {
    // 1, 2, 3: mean 2; Σ(x − 2)² = 2; std = √(2 / 2) = 1;
    // half-width = t(0.975, 2) × std / √3 = 4.303 / 1.7320508 = 2.4843… → 2.484.
    let st = Stats::of(&[Fixed::int(3), Fixed::int(1), Fixed::int(2)]);
    assert_eq!(st.mean.unwrap().to_string(), "2.000");
    assert_eq!(st.std.unwrap().to_string(), "1.000");
    assert_eq!(st.ci95_half_width.unwrap().to_string(), "2.484");
    // 10, 20, 30, 40 s (3 decimals): mean 25; Σ(x − 25)² = 500;
    // std = √(500 / 3) = 12.90994… → 12.910;
    // half-width = t(0.975, 3) × std / √4 = 3.182 × 12.90994 / 2 = 20.53972… → 20.540.
    let secs: Vec<Fixed> = [10_000, 20_000, 30_000, 40_000]
        .map(|ms| Fixed {
            scaled: ms,
            decimals: 3,
        })
        .to_vec();
    let st = Stats::of(&secs);
    assert_eq!(st.std.unwrap().to_string(), "12.910");
    assert_eq!(st.ci95_half_width.unwrap().to_string(), "20.540");
    // One value: no spread; equal values: none.
    assert_eq!(Stats::of(&[Fixed::int(7)]).std, None);
    let same = Stats::of(&[Fixed::int(7), Fixed::int(7)]);
    assert_eq!(same.std.unwrap().to_string(), "0.000");
    assert_eq!(same.ci95_half_width.unwrap().to_string(), "0.000");
}

/// The value of column `name` in each row of `csv`.
fn column<'a>(csv: &'a str, name: &str) -> Vec<&'a str> {
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let at = header
        .iter()
        .position(|h| *h == name)
        .unwrap_or_else(|| panic!("no column {name} in {header:?}"));
    lines.map(|l| l.split(',').nth(at).unwrap()).collect()
}

#[test]
fn set_runs_every_value_and_the_parameter_shows_in_every_file() {
    let out = sweep(
        "set",
        SCENARIO,
        &[
            "--set",
            "config.max_warmup_replicas=1,4",
            "--strategy",
            "kip441",
        ],
        2,
    );
    // A row per point × seed × strategy: 2 × 2 × 1, points first.
    let header = out.runs_csv.lines().next().unwrap();
    assert!(
        header.starts_with("config.max_warmup_replicas,seed,strategy,outcome,"),
        "{header}"
    );
    assert_eq!(
        column(&out.runs_csv, "config.max_warmup_replicas"),
        ["1", "1", "4", "4"]
    );
    assert_eq!(column(&out.runs_csv, "seed"), ["1", "2", "1", "2"]);
    // The parameter matters: one warm-up at a time needs more probing
    // rounds than four (6 actives to move, 2 per newcomer).
    let probing = column(&out.runs_csv, "rebalances.probing");
    let probing: Vec<u64> = probing.iter().map(|v| v.parse().unwrap()).collect();
    assert!(probing[0] > probing[2], "{probing:?}\n{}", out.runs_csv);

    // runs.json: the same runs and figures.
    let runs: Value = serde_json::from_str(&out.runs_json).unwrap();
    assert_eq!(runs["parameters"][0], "config.max_warmup_replicas");
    let rows = runs["runs"].as_array().unwrap();
    assert_eq!(rows.len(), 4);
    for (row, probes) in rows.iter().zip(&probing) {
        assert_eq!(row["metrics"]["rebalances.probing"], *probes);
        assert_eq!(row["strategy"], "kip441");
    }
    assert_eq!(rows[2]["parameters"]["config.max_warmup_replicas"], 4);

    // sweep.json: one point per value, each with kip441's statistics over
    // its two seeds, agreeing with the rows.
    let sweep: Value = serde_json::from_str(&out.sweep).unwrap();
    let points = sweep["points"].as_array().unwrap();
    assert_eq!(points.len(), 2);
    for (i, point) in points.iter().enumerate() {
        let warmups = [1, 4][i];
        assert_eq!(point["parameters"]["config.max_warmup_replicas"], warmups);
        let stats = &point["strategies"]["kip441"]["metrics"]["rebalances.probing"];
        assert_eq!(stats["n"], 2);
        let values = [probing[2 * i] as f64, probing[2 * i + 1] as f64];
        let mean = (values[0] + values[1]) / 2.0;
        let std = ((values[0] - mean).powi(2) + (values[1] - mean).powi(2)).sqrt();
        let close = |key: &str, want: f64| {
            let got = stats[key].as_f64().unwrap();
            assert!((got - want).abs() <= 0.0005, "{key}: {got} against {want}");
        };
        close("mean", mean);
        close("std", std);
        // t(0.975, 1) = 12.706.
        close("ci95_half_width", 12.706 * std / 2f64.sqrt());
    }
    // The table: the parameter's column, a row per point, strategy and metric.
    let lines: Vec<&str> = out.table.lines().collect();
    assert!(
        lines[1].starts_with("config.max_warmup_replicas  strategy"),
        "{}",
        out.table
    );
    let first: Vec<&str> = lines[2].split_whitespace().take(3).collect();
    assert_eq!(first, ["1", "kip441", "unavailable"], "{}", out.table);
    assert!(out.table.contains("±ci95"), "{}", out.table);
}

#[test]
fn a_sweep_table_is_the_same_as_set_and_set_replaces_its_entry() {
    let with_table = format!("{SCENARIO}\n[sweep]\nconfig.max_warmup_replicas = [1, 4]\n");
    let quoted = format!("{SCENARIO}\n[sweep]\n\"config.max_warmup_replicas\" = [1, 4]\n");
    let replaced = format!("{SCENARIO}\n[sweep]\nconfig.max_warmup_replicas = [2, 3]\n");
    let by_set = sweep(
        "by-set",
        SCENARIO,
        &["--set", "config.max_warmup_replicas=1,4"],
        1,
    );
    let by_table = sweep("by-table", &with_table, &[], 1);
    let by_quoted = sweep("by-quoted", &quoted, &[], 1);
    let overridden = sweep(
        "overridden",
        &replaced,
        &["--set", "config.max_warmup_replicas=1,4"],
        1,
    );
    for other in [&by_table, &by_quoted, &overridden] {
        assert_eq!(other.runs_csv, by_set.runs_csv);
        assert_eq!(other.table, by_set.table);
        assert_eq!(without_hash(&other.sweep), without_hash(&by_set.sweep));
        assert_eq!(
            without_hash(&other.runs_json),
            without_hash(&by_set.runs_json)
        );
    }
    // `simulate` runs the file's own values and accepts the table.
    let file = scenario_file("simulate-table", &with_table);
    let out = file.with_file_name("out");
    let args = [
        "simulate",
        s(&file),
        "--strategy",
        "kip441",
        "--out",
        s(&out),
    ];
    let run = smoothscale(&args, 1);
    assert_eq!(run.code, Some(0), "{run:?}");
}

#[test]
fn two_keys_make_the_cross_product() {
    let out = sweep(
        "cross",
        SCENARIO,
        &[
            "--set",
            "config.max_warmup_replicas=1,4",
            "--set",
            "cluster.restore_rate=20000,40000,80000",
            "--strategy",
            "sticky",
        ],
        2,
    );
    // 2 × 3 points × 2 seeds, the last key fastest.
    assert_eq!(
        column(&out.runs_csv, "config.max_warmup_replicas"),
        ["1", "1", "1", "1", "1", "1", "4", "4", "4", "4", "4", "4"]
    );
    assert_eq!(
        column(&out.runs_csv, "cluster.restore_rate")[..6],
        ["20000", "20000", "40000", "40000", "80000", "80000"]
    );
    // Faster restores, less downtime for sticky's moved actives.
    let down = column(&out.runs_csv, "unavailable_task_s.stateful");
    let down: Vec<f64> = down.iter().map(|v| v.parse().unwrap()).collect();
    assert!(down[0] > down[2] && down[2] > down[4], "{down:?}");
    let sweep: Value = serde_json::from_str(&out.sweep).unwrap();
    assert_eq!(sweep["points"].as_array().unwrap().len(), 6);
    assert_eq!(
        sweep["parameters"],
        serde_json::json!(["config.max_warmup_replicas", "cluster.restore_rate"])
    );
}

#[test]
fn parameter_sweeps_are_identical_on_one_and_two_threads() {
    let args = [
        "--set",
        "config.max_warmup_replicas=1,2,4",
        "--set",
        "cluster.session_timeout=30s,\"1m\"",
    ];
    let one = sweep("threads-1", SCENARIO, &args, 1);
    let two = sweep("threads-2", SCENARIO, &args, 2);
    assert_eq!(one, two);
    // 3 × 2 points × 2 seeds × 2 strategies.
    assert_eq!(one.runs_csv.lines().count(), 1 + 24);
    assert!(
        one.runs_csv.contains("\n4,1m,2,sticky,"),
        "{}",
        one.runs_csv
    );
}

/// Exit 2, nothing on stdout, one stderr line containing every `needle`,
/// and no output directory.
fn assert_bad_input(args: &[&str], text: &str, needles: &[&str]) {
    let file = scenario_file("bad", text);
    let out = file.with_file_name("out");
    let mut all = vec!["sweep", s(&file), "--seeds", "1..3", "--out", s(&out)];
    all.extend_from_slice(args);
    support::assert_bad_input(&smoothscale(&all, 1), needles, &out);
}

#[test]
fn bad_parameters_exit_2_with_one_line_and_write_nothing() {
    for (args, needles) in [
        (&["--set", "x"][..], &["--set", "KEY=VALUE", "\"x\""][..]),
        (
            &["--set", "config.max_warmup_replicas="],
            &["--set", "at least one value"],
        ),
        (&["--set", "a..b=1"], &["--set", "not a key path"]),
        (
            &["--set", "config.max_warmup_replicas=1,,2"],
            &["value 2 is empty"],
        ),
        (
            &["--set", "config.max_warmup_replicas=1,1"],
            &["lists 1 twice"],
        ),
        (
            &["--set", "cluster.foo=1,2"],
            &["--set cluster.foo=1", "cluster.foo"],
        ),
        (
            &["--set", "cluster.max_warmup_replicas=1,2"],
            &[
                "--set cluster.max_warmup_replicas=1",
                "did you mean config.max_warmup_replicas?",
            ],
        ),
        (
            &["--set", "config.max_warmup_replicas=1,0"],
            &["--set config.max_warmup_replicas=0", "at least 1"],
        ),
        (
            &["--set", "subtopologies[2].partitions=3"],
            &["no subtopologies[2]"],
        ),
        (&["--set", "seed=1,2"], &["cannot vary seed", "--seeds"]),
        (
            &["--set", "cluster.clients=2", "--set", "cluster.clients=3"],
            &["cluster.clients twice"],
        ),
    ] {
        assert_bad_input(args, SCENARIO, needles);
    }
    let empty = format!("{SCENARIO}\n[sweep]\nconfig.max_warmup_replicas = []\n");
    assert_bad_input(
        &[],
        &empty,
        &["[sweep] config.max_warmup_replicas", "at least one value"],
    );
    let scalar = format!("{SCENARIO}\n[sweep]\nconfig.max_warmup_replicas = 2\n");
    assert_bad_input(&[], &scalar, &["must be an array"]);
    let unknown = format!("{SCENARIO}\n[sweep]\ncluster.colour = [1, 2]\n");
    assert_bad_input(
        &[],
        &unknown,
        &["[sweep] cluster.colour = 1", "cluster.colour"],
    );
}
