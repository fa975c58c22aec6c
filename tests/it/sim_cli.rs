//! `smoothscale simulate` and `smoothscale sweep` end to end (docs/simulator.md):
//! byte-identical outputs for the same scenario and seed, on one thread or
//! two; outputs that carry version, scenario hash and seed; well-formed SVG
//! plots; bad input exits 2 with one line and writes nothing.

use std::path::{Path, PathBuf};

use serde_json::Value;
use smoothscale::sim::report::nearest_rank;

use crate::support;

/// A small scenario in the format of docs/simulator.md: a join and a crash with disk loss
/// in half an hour, three strategies.
const SCENARIO: &str = r#"
name = "sim-cli-small"
description = "three clients, one joins, one crashes and loses its disk"
seed = 5
duration = "30m"
sample_every = "1m"
strategies = ["kip441", "sticky", "samza"]

[cluster]
clients = 3
threads = 2
racks = ["r1", "r2"]
restore_rate = 50000
session_timeout = "45s"
rebalance_pause = "5s"
state_cleanup_delay = "10m"
protocol = "cooperative"

[[subtopologies]]
partitions = 6
stateful = true
state_records = 200000
write_rate = 100

[[subtopologies]]
partitions = 6
stateful = false

[config]
num_standby_replicas = 1
max_warmup_replicas = 2
probing_rebalance_interval = "5m"

[[events]]
at = "5m"
kind = "scale_out"
count = 1

[[events]]
at = "15m"
kind = "crash"
client = "c1"
lose_state = true
"#;

const STRATEGIES: [&str; 3] = ["kip441", "sticky", "samza"];
const PLOTS: [&str; 4] = [
    "availability.svg",
    "restoring_tasks.svg",
    "imbalance.svg",
    "restored_records.svg",
];

use support::{assert_bad_input, smoothscale, BinRun as Run};

/// A fresh, empty directory under Cargo's per-test temp dir.
fn fresh_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("sim_cli")
        .join(format!("{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// Writes `text` as `scenario.toml` in a fresh directory; returns its path.
fn scenario_file(name: &str, text: &str) -> PathBuf {
    let path = fresh_dir(name).join("scenario.toml");
    std::fs::write(&path, text).expect("scenario file");
    path
}

fn s(path: &Path) -> &str {
    path.to_str().expect("UTF-8 temp path")
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// Runs `simulate` into a fresh `out` directory and checks it succeeded.
fn simulate(name: &str, extra: &[&str], threads: usize) -> (Run, PathBuf) {
    let file = scenario_file(name, SCENARIO);
    let out = file.with_file_name("out");
    let mut args = vec!["simulate", s(&file), "--out", s(&out)];
    args.extend_from_slice(extra);
    let run = smoothscale(&args, threads);
    assert_eq!(run.code, Some(0), "{run:?}");
    (run, out)
}

#[test]
fn simulate_is_byte_identical_across_runs_and_thread_counts() {
    let (first, a) = simulate("identical-a", &[], 1);
    let (second, b) = simulate("identical-b", &[], 1);
    let (third, c) = simulate("identical-c", &[], 2);
    for file in ["summary.json", "timeseries.csv"] {
        let bytes = read(&a.join(file));
        assert!(!bytes.is_empty(), "{file} is empty");
        assert_eq!(
            bytes,
            read(&b.join(file)),
            "{file} differs between two runs"
        );
        assert_eq!(
            bytes,
            read(&c.join(file)),
            "{file} differs on 1 and 2 threads"
        );
    }
    assert_eq!(first.stdout, second.stdout);
    assert_eq!(first.stdout, third.stdout);
}

#[test]
fn summary_carries_version_hash_seed_and_every_metric() {
    let (run, out) = simulate("summary", &[], 2);
    let summary: Value = serde_json::from_slice(&read(&out.join("summary.json"))).unwrap();
    assert_eq!(summary["scenario"], "sim-cli-small");
    assert_eq!(summary["seed"], 5);
    assert_eq!(summary["version"], env!("CARGO_PKG_VERSION"));
    let hash = summary["scenario_hash"].as_str().expect("a hash string");
    assert!(!hash.is_empty());
    let strategies = summary["strategies"].as_object().unwrap();
    let names: Vec<&str> = strategies.keys().map(String::as_str).collect();
    let mut expected = STRATEGIES.to_vec();
    expected.sort_unstable();
    assert_eq!(
        names, expected,
        "serde_json sorts keys; every strategy is there"
    );
    for (name, metrics) in strategies {
        for key in [
            "outcome",
            "unavailable_task_s",
            "max_outage_s",
            "restored_records",
            "active_moves",
            "stateful_active_moves",
            "stateless_active_moves",
            "standby_moves",
            "rebalances",
            "time_to_converge_s",
            "time_to_full_availability_s",
            "time_to_full_redundancy_s",
            "time_to_restores_done_s",
            "max_replicas_per_client",
            "tasks_lost_every_copy",
            "time_to_drain_s",
            "backlog",
            "imbalance",
            "standby_coverage",
            "cross_rack_records",
            "delay_s",
            "worst_drain_s",
            "throughput_deficit",
            "load_imbalance",
        ] {
            assert!(metrics.get(key).is_some(), "{name} lacks {key}");
        }
        // The drain after the start and each event, in time order.
        let drains = metrics["drain_after_events"].as_array().unwrap();
        assert_eq!(drains[0]["at_s"], 0.0, "{name}");
        let times: Vec<f64> = drains.iter().map(|d| d["at_s"].as_f64().unwrap()).collect();
        assert!(times.windows(2).all(|w| w[0] <= w[1]), "{name}: {times:?}");
        for d in drains {
            assert!(
                d["drain_s"].is_null() || d["drain_s"].as_f64().is_some(),
                "{d}"
            );
        }
        for (key, parts) in [
            (
                "unavailable_task_s",
                &["stateful", "stateless", "total"][..],
            ),
            (
                "restored_records",
                &[
                    "active",
                    "replica",
                    "total",
                    "recovery",
                    "steady_replication",
                ][..],
            ),
            (
                "rebalances",
                &[
                    "membership",
                    "probing",
                    "caught_up",
                    "second_round",
                    "total",
                ][..],
            ),
            ("imbalance", &["time_weighted", "final"][..]),
        ] {
            for part in parts {
                assert!(
                    metrics[key].get(*part).is_some(),
                    "{name} lacks {key}.{part}"
                );
            }
        }
        let rebalances = &metrics["rebalances"];
        assert_eq!(
            rebalances["total"].as_u64(),
            Some(
                rebalances["membership"].as_u64().unwrap()
                    + rebalances["probing"].as_u64().unwrap()
                    + rebalances["caught_up"].as_u64().unwrap()
            ),
            "{name}"
        );
    }
    // The table: a title line naming the seed, two header lines, a row per strategy.
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert!(lines[0].contains("seed 5"), "{}", run.stdout);
    assert!(lines[2].contains("(task-s)"), "{}", run.stdout);
    for (i, name) in STRATEGIES.iter().enumerate() {
        assert!(lines[3 + i].starts_with(name), "{}", run.stdout);
    }

    let csv = String::from_utf8(read(&out.join("timeseries.csv"))).unwrap();
    let mut rows = csv.lines();
    assert_eq!(
        rows.next(),
        Some("strategy,t_s,available_tasks,restoring_tasks,imbalance,max_replicas_per_client,backlog_records,restored_records")
    );
    // Samples every minute from 0 to 30 minutes, strategies in run order.
    let first_column: Vec<&str> = rows.map(|r| r.split(',').next().unwrap()).collect();
    assert_eq!(first_column.len(), 3 * 31, "{csv}");
    assert!(first_column[..31].iter().all(|n| *n == "kip441"));
    assert!(first_column[62..].iter().all(|n| *n == "samza"));
}

#[test]
fn seed_and_strategy_flags_override_the_scenario() {
    let (_, out) = simulate(
        "flags",
        &[
            "--seed",
            "11",
            "--strategy",
            "sticky",
            "--strategy",
            "kip441",
        ],
        2,
    );
    let summary: Value = serde_json::from_slice(&read(&out.join("summary.json"))).unwrap();
    assert_eq!(summary["seed"], 11);
    let names: Vec<&String> = summary["strategies"].as_object().unwrap().keys().collect();
    assert_eq!(names, ["kip441", "sticky"]);
    // Run order (the flags' order) is kept in the CSV.
    let csv = String::from_utf8(read(&out.join("timeseries.csv"))).unwrap();
    assert!(
        csv.lines().nth(1).unwrap().starts_with("sticky,0.000,"),
        "{csv}"
    );
}

#[test]
fn plots_are_well_formed_svg() {
    let (_, out) = simulate("plots", &[], 2);
    for plot in PLOTS {
        let svg = String::from_utf8(read(&out.join(plot))).unwrap();
        assert!(svg.starts_with("<svg"), "{plot}");
        assert!(svg.trim_end().ends_with("</svg>"), "{plot}");
        assert!(
            svg.contains("xmlns=\"http://www.w3.org/2000/svg\""),
            "{plot}"
        );
        assert!(svg.contains("<polyline") || svg.contains("<path"), "{plot}");
        assert!(svg.contains("simulated time (min)"), "{plot}");
        for name in STRATEGIES {
            assert!(svg.contains(name), "{plot} has no legend entry for {name}");
        }
        // Tags balance: every opened <text> is closed.
        assert_eq!(svg.matches("<text").count(), svg.matches("</text>").count());
    }
    for (plot, unit) in [
        ("availability.svg", "(tasks)"),
        ("restoring_tasks.svg", "(tasks)"),
        ("imbalance.svg", "(tasks/thread)"),
        ("restored_records.svg", "records restored so far ("),
    ] {
        let svg = String::from_utf8(read(&out.join(plot))).unwrap();
        assert!(svg.contains(unit), "{plot} has no y axis label with {unit}");
    }
}

#[test]
fn bad_scenario_exits_2_with_one_line_naming_the_key() {
    let text = SCENARIO.replace("restore_rate = 50000", "restore_rate = 50000\ncolour = 3");
    let file = scenario_file("bad-key", &text);
    let out = file.with_file_name("out");
    let run = smoothscale(&["simulate", s(&file), "--out", s(&out)], 2);
    assert_bad_input(&run, &["cluster.colour"], &out);

    let run = smoothscale(&["sweep", s(&file), "--seeds", "1..3", "--out", s(&out)], 2);
    assert_bad_input(&run, &["cluster.colour"], &out);

    let missing = file.with_file_name("missing.toml");
    let run = smoothscale(&["simulate", s(&missing), "--out", s(&out)], 2);
    assert_bad_input(&run, &["missing.toml"], &out);

    let file = scenario_file("not-toml", "name = \n[[[");
    let run = smoothscale(&["simulate", s(&file), "--out", s(&out)], 2);
    assert_bad_input(&run, &[], &out);
}

#[test]
fn unknown_strategy_exits_2() {
    let file = scenario_file("unknown-strategy", SCENARIO);
    let out = file.with_file_name("out");
    let args = ["simulate", s(&file), "--strategy", "nope", "--out", s(&out)];
    assert_bad_input(&smoothscale(&args, 2), &["--strategy", "\"nope\""], &out);
    let args = [
        "simulate",
        s(&file),
        "--strategy",
        "kip441",
        "--strategy",
        "kip441",
        "--out",
        s(&out),
    ];
    assert_bad_input(&smoothscale(&args, 2), &["--strategy", "twice"], &out);
    let args = [
        "sweep",
        s(&file),
        "--seeds",
        "1..3",
        "--strategy",
        "nope",
        "--out",
        s(&out),
    ];
    assert_bad_input(&smoothscale(&args, 2), &["--strategy", "\"nope\""], &out);
}

#[test]
fn bad_seed_range_exits_2() {
    let file = scenario_file("bad-seeds", SCENARIO);
    let out = file.with_file_name("out");
    for seeds in ["3..3", "4..2", "1-5", "x..4"] {
        let args = ["sweep", s(&file), "--seeds", seeds, "--out", s(&out)];
        assert_bad_input(&smoothscale(&args, 2), &["--seeds"], &out);
    }
    // One past the limit on a sweep's seeds: refused before any run.
    let args = ["sweep", s(&file), "--seeds", "0..100001", "--out", s(&out)];
    let needles = ["--seeds", "at most 100000 seeds", "got 100001"];
    assert_bad_input(&smoothscale(&args, 2), &needles, &out);
}

#[test]
fn a_scenario_file_past_the_size_limit_exits_2_without_reading_on() {
    // Valid TOML (a comment) just over 1 MiB: refused for its size alone.
    let text = format!("{SCENARIO}#{}\n", "x".repeat(1 << 20));
    let file = scenario_file("huge", &text);
    let out = file.with_file_name("out");
    let run = smoothscale(&["simulate", s(&file), "--out", s(&out)], 2);
    assert_bad_input(&run, &["scenario.toml", "limit of 1048576 bytes"], &out);
    let args = ["simulate", "/dev/zero", "--out", s(&out)];
    assert_bad_input(&smoothscale(&args, 2), &["/dev/zero", "limit"], &out);
}

#[test]
fn sweep_is_identical_on_one_and_two_threads() {
    let mut outputs = Vec::new();
    for (name, threads) in [("sweep-1", 1), ("sweep-2", 2)] {
        let file = scenario_file(name, SCENARIO);
        let out = file.with_file_name("out");
        let args = ["sweep", s(&file), "--seeds", "1..4", "--out", s(&out)];
        let run = smoothscale(&args, threads);
        assert_eq!(run.code, Some(0), "{run:?}");
        // stderr is not a terminal here: no progress bar, only the "wrote" line.
        assert_eq!(run.stderr.lines().count(), 1, "{run:?}");
        outputs.push((
            run.stdout,
            read(&out.join("sweep.json")),
            read(&out.join("runs.csv")),
        ));
    }
    assert_eq!(outputs[0], outputs[1]);
    let (table, json, runs) = &outputs[0];
    // One row per seed and strategy, after the header, seeds in order.
    let runs = String::from_utf8(runs.clone()).unwrap();
    let rows: Vec<&str> = runs.lines().collect();
    assert!(rows[0].starts_with("seed,strategy,outcome,unavailable_task_s.stateful,"));
    assert_eq!(rows.len(), 1 + 3 * STRATEGIES.len(), "{runs}");
    assert!(
        rows[1].starts_with("1,") && rows[rows.len() - 1].starts_with("3,"),
        "{runs}"
    );
    assert!(table.contains("seeds 1..4"), "{table}");
    let sweep: Value = serde_json::from_slice(json).unwrap();
    assert_eq!(sweep["seeds"], "1..4");
    assert_eq!(sweep["version"], env!("CARGO_PKG_VERSION"));
    assert!(!sweep["scenario_hash"].as_str().unwrap().is_empty());
    for name in STRATEGIES {
        let strategy = &sweep["points"][0]["strategies"][name];
        assert_eq!(strategy["runs"], 3, "{name}");
        let stats = &strategy["metrics"]["unavailable_task_s.total"];
        for key in ["n", "mean", "p50", "p95", "max"] {
            assert!(stats.get(key).is_some(), "{name} lacks {key}");
        }
    }
}

#[test]
fn nearest_rank_percentiles_by_hand() {
    // Rank ⌈p/100 × n⌉ of the sorted values, 1-based.
    let five = [10, 20, 30, 40, 50];
    assert_eq!(nearest_rank(&five, 50), Some(30)); // ⌈2.5⌉ = 3
    assert_eq!(nearest_rank(&five, 95), Some(50)); // ⌈4.75⌉ = 5
    assert_eq!(nearest_rank(&five, 40), Some(20)); // ⌈2⌉ = 2
    let hundred: Vec<u32> = (1..=100).collect();
    assert_eq!(nearest_rank(&hundred, 95), Some(95));
    assert_eq!(nearest_rank(&hundred, 50), Some(50));
    assert_eq!(nearest_rank(&[] as &[u32], 95), None);
}

/// A small scenario of `hours` with `event` (a TOML `[[events]]` table).
fn with_event(hours: u32, event: &str) -> String {
    format!(
        r#"
name = "clock-end"
seed = 1
duration = "{hours}h"
sample_every = "30m"
strategies = ["kip441", "sticky"]

[cluster]
clients = 4
threads = 1
racks = ["r1", "r2"]
restore_rate = 10000

[[subtopologies]]
partitions = 8
stateful = true
state_records = 1000000
write_rate = 100

[config]
num_standby_replicas = 1

{event}
"#
    )
}

/// Runs `simulate` on `text`; its exit code, stderr, and (on success) the
/// summary's strategies and the time series.
fn simulate_text(name: &str, text: &str) -> (Run, Option<(Value, Vec<u8>)>) {
    let file = scenario_file(name, text);
    let out = file.with_file_name("out");
    let run = smoothscale(&["simulate", s(&file), "--out", s(&out)], 2);
    let outputs = (run.code == Some(0)).then(|| {
        let summary: Value = serde_json::from_slice(&read(&out.join("summary.json"))).unwrap();
        (
            summary["strategies"].clone(),
            read(&out.join("timeseries.csv")),
        )
    });
    (run, outputs)
}

/// The issue's two scenarios whose times overflow `u64` milliseconds: a
/// 20 h run with a rack outage at 15h lasting 213,503,982,334 days, and a
/// rolling bounce every 106,751,991,167 days. Either they are refused (exit
/// 2, one line naming the key) or they simulate correctly: the restart and
/// the later bounces come after the end of the run, so the figures are
/// those of an outage without restart and of a bounce every 1,000 days.
#[test]
fn times_past_the_end_of_the_clock_exit_2_or_simulate_correctly() {
    let cases = [
        (
            "outage",
            with_event(
                20,
                "[[events]]\nat = \"15h\"\nkind = \"rack_outage\"\nrack = \"r1\"\nduration = \"213503982334d\"",
            ),
            with_event(20, "[[events]]\nat = \"15h\"\nkind = \"rack_outage\"\nrack = \"r1\""),
            "duration",
        ),
        (
            "bounce",
            with_event(
                2,
                "[[events]]\nat = \"10m\"\nkind = \"rolling_bounce\"\ninterval = \"106751991167d\"\ndowntime = \"1m\"",
            ),
            with_event(
                2,
                "[[events]]\nat = \"10m\"\nkind = \"rolling_bounce\"\ninterval = \"1000d\"\ndowntime = \"1m\"",
            ),
            "interval",
        ),
    ];
    for (name, huge, equivalent, key) in cases {
        let (run, outputs) = simulate_text(&format!("{name}-huge"), &huge);
        match run.code {
            Some(0) => {
                let (expected_run, expected) =
                    simulate_text(&format!("{name}-equivalent"), &equivalent);
                assert_eq!(expected_run.code, Some(0), "{expected_run:?}");
                assert_eq!(outputs, expected, "{name}");
            }
            Some(2) => {
                assert_eq!(run.stderr.lines().count(), 1, "{run:?}");
                assert!(run.stderr.contains(key), "{key} not in {run:?}");
            }
            _ => panic!("{name}: neither simulated nor refused: {run:?}"),
        }
    }
}

/// Names of the entries of `dir`, sorted.
fn entries(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// A write that fails (`timeseries.csv` is a directory) leaves DIR as it
/// was: the old summary and plots, the directory, no hidden files.
#[test]
fn a_failed_write_leaves_the_output_directory_as_it_was() {
    let (_, out) = simulate("failed-write", &[], 2);
    std::fs::remove_file(out.join("timeseries.csv")).unwrap();
    std::fs::create_dir_all(out.join("timeseries.csv").join("inside")).unwrap();
    let before: Vec<(String, Option<Vec<u8>>)> = entries(&out)
        .into_iter()
        .map(|n| {
            let bytes = std::fs::read(out.join(&n)).ok();
            (n, bytes)
        })
        .collect();
    let file = out.with_file_name("scenario.toml");
    // Another seed: every file would change.
    let args = ["simulate", s(&file), "--seed", "6", "--out", s(&out)];
    let run = smoothscale(&args, 2);
    assert_eq!(run.code, Some(1), "{run:?}");
    // Besides a progress line per strategy, one error line.
    let errors: Vec<&str> = run.stderr.lines().filter(|l| !is_progress(l)).collect();
    assert_eq!(errors.len(), 1, "{run:?}");
    assert!(errors[0].contains("timeseries.csv"), "{run:?}");
    let after: Vec<(String, Option<Vec<u8>>)> = entries(&out)
        .into_iter()
        .map(|n| {
            let bytes = std::fs::read(out.join(&n)).ok();
            (n, bytes)
        })
        .collect();
    assert_eq!(before, after);
    assert!(out.join("timeseries.csv").join("inside").is_dir());
}

/// Hidden files a killed run left behind are removed by the next write.
#[test]
fn hidden_files_of_a_killed_run_are_cleaned_up() {
    if !Path::new("/proc/self").exists() {
        return; // Whether a process still runs is only known from /proc.
    }
    let file = scenario_file("killed", SCENARIO);
    let out = file.with_file_name("out");
    std::fs::create_dir_all(&out).unwrap();
    // No process has this id (Linux's largest is 2^22).
    std::fs::write(out.join(".summary.json.999999999.tmp"), "half").unwrap();
    std::fs::write(out.join(".imbalance.svg.999999999.tmp"), "half").unwrap();
    let run = smoothscale(&["simulate", s(&file), "--out", s(&out)], 2);
    assert_eq!(run.code, Some(0), "{run:?}");
    assert!(
        entries(&out).iter().all(|n| !n.starts_with('.')),
        "{:?}",
        entries(&out)
    );
}

/// Whether `line` is one of `simulate`'s progress lines
/// (`[2/3] sticky: done in simulated 30m, 2 rebalances (0.1 s elapsed)`).
fn is_progress(line: &str) -> bool {
    line.starts_with('[') && line.ends_with(" s elapsed)")
}

/// The text of every `<text>` element of `svg`, in document order.
fn svg_texts(svg: &str) -> Vec<&str> {
    svg.split("<text")
        .skip(1)
        .filter_map(|t| {
            let body = &t[t.find('>')? + 1..];
            Some(body[..body.find("</text>")?].trim())
        })
        .collect()
}

/// The legend's lines under `strategy`'s name in `svg` (up to the next of
/// `names` or the events' heading).
fn legend_notes<'a>(svg: &'a str, strategy: &str, names: &[&str]) -> Vec<&'a str> {
    let texts = svg_texts(svg);
    let Some(at) = texts.iter().position(|t| *t == strategy) else {
        return Vec::new();
    };
    texts[at + 1..]
        .iter()
        .take_while(|t| !names.contains(t) && **t != "events")
        .copied()
        .collect()
}

/// The value at `path` (`["unavailable_task_s", "total"]`) under
/// `strategy` in the text of a `summary.json`, as written.
fn summary_written<'a>(summary: &'a str, strategy: &str, path: &[&str]) -> &'a str {
    let mut rest = &summary[summary.find(&format!("\"{strategy}\": {{")).unwrap()..];
    for key in path {
        let key = format!("\"{key}\": ");
        rest = &rest[rest.find(&key).unwrap() + key.len()..];
    }
    rest[..rest.find(['\n', ',']).unwrap()].trim()
}

/// The cumulative unavailability chart: its legend gives every strategy's
/// `unavailable_task_s.total` as `summary.json` writes it, and its line
/// (Σ (tasks − available) × interval over the samples of `timeseries.csv`)
/// ends there within sampling error. Samples every second: each outage
/// (of one task, opened by an event or a rebalance) is off by less than
/// one sample interval, so the error is below tasks × 1 s × (events +
/// rebalances + 1); samples that hold interval means make it exact.
#[test]
fn the_unavailability_chart_ends_at_the_runs_unavailable_task_seconds() {
    let text = SCENARIO.replace("sample_every = \"1m\"", "sample_every = \"1s\"");
    assert_ne!(text, SCENARIO);
    let file = scenario_file("unavailability", &text);
    let out = file.with_file_name("out");
    let run = smoothscale(&["simulate", s(&file), "--out", s(&out)], 2);
    assert_eq!(run.code, Some(0), "{run:?}");
    let svg = String::from_utf8(read(&out.join("unavailability.svg"))).unwrap();
    let summary_text = String::from_utf8(read(&out.join("summary.json"))).unwrap();
    let summary: Value = serde_json::from_str(&summary_text).unwrap();
    let csv = String::from_utf8(read(&out.join("timeseries.csv"))).unwrap();
    let (tasks, events) = (12.0, 2.0);
    let mut some_down = false;
    for name in STRATEGIES {
        let metrics = &summary["strategies"][name];
        let total = metrics["unavailable_task_s"]["total"].as_f64().unwrap();
        let rebalances = metrics["rebalances"]["total"].as_f64().unwrap();
        let notes = legend_notes(&svg, name, &STRATEGIES);
        assert_eq!(
            notes[0],
            format!(
                "{} task-s",
                summary_written(&summary_text, name, &["unavailable_task_s", "total"])
            ),
            "{name}"
        );
        // (t_s, available_tasks) of the strategy's samples.
        let samples: Vec<(f64, f64)> = csv
            .lines()
            .filter(|l| l.starts_with(&format!("{name},")))
            .map(|l| {
                let cells: Vec<f64> = l.split(',').skip(1).map(|c| c.parse().unwrap()).collect();
                (cells[0], cells[1])
            })
            .collect();
        let drawn: f64 = samples
            .windows(2)
            .map(|w| (tasks - w[1].1) * (w[1].0 - w[0].0))
            .sum();
        let bound = tasks * 1.0 * (events + rebalances + 1.0) + 0.05;
        assert!(
            (drawn - total).abs() <= bound,
            "{name}: the chart ends at {drawn} task-s, the run had {total} (bound {bound})"
        );
        some_down |= total > bound;
    }
    // The bound is below what the runs lose: it tells a wrong sum.
    assert!(some_down, "{summary_text}");
    assert!(svg.contains("cumulative unavailability"));
    assert!(svg.contains("task-seconds without a running active so far ("));
}

/// Every chart marks the scripted events with their labels, names the
/// scenario, the seed and the version, and writes no `opacity` (which
/// ImageMagick would draw as filled black polygons on `fill="none"` lines).
#[test]
fn every_chart_marks_the_events_and_names_scenario_seed_and_version() {
    let (_, out) = simulate("markers", &["--seed", "9"], 2);
    let footer = format!(
        "scenario sim-cli-small, seed 9, smoothscale {}",
        env!("CARGO_PKG_VERSION")
    );
    for plot in PLOTS.iter().chain(&["unavailability.svg"]) {
        let svg = String::from_utf8(read(&out.join(plot))).unwrap();
        let texts = svg_texts(&svg);
        for needle in ["scale-out +1", "crash c1, disk lost", footer.as_str()] {
            assert!(
                texts.contains(&needle),
                "{plot} lacks {needle:?}: {texts:?}"
            );
        }
        assert!(!svg.contains("opacity"), "{plot}");
        for line in svg.split("<polyline").skip(1) {
            let tag = &line[..line.find("/>").unwrap()];
            assert!(tag.contains("fill=\"none\""), "{plot}: {tag}");
        }
        // Two dashed event lines, and the legend's sample of one.
        assert_eq!(svg.matches("stroke-dasharray=\"4 3\"").count(), 3, "{plot}");
        // No churn in this scenario.
        assert!(!texts.iter().any(|t| t.starts_with("churn")), "{plot}");
    }
}

/// A scenario with churn: the charts tick the events the seed draws.
#[test]
fn churn_drawn_from_the_seed_is_ticked() {
    let text = SCENARIO.replace(
        "[[events]]\nat = \"5m\"",
        "[churn]\nevents_per_hour = 12\nkinds = [\"crash\", \"restart\"]\nfrom = \"1m\"\nuntil = \"21m\"\n\n[[events]]\nat = \"5m\"",
    );
    assert_ne!(text, SCENARIO);
    let file = scenario_file("churn-ticks", &text);
    let out = file.with_file_name("out");
    let run = smoothscale(&["simulate", s(&file), "--out", s(&out)], 2);
    assert_eq!(run.code, Some(0), "{run:?}");
    let svg = String::from_utf8(read(&out.join("availability.svg"))).unwrap();
    let texts = svg_texts(&svg);
    // 12 an hour over 20 minutes.
    assert!(texts.contains(&"churn (4 drawn)"), "{texts:?}");
    let letters = texts.iter().filter(|t| **t == "C" || **t == "R").count();
    assert!((1..=4).contains(&letters), "{texts:?}");
}

/// Four clients become two at 12m: heron-ffd's nine tasks per client no
/// longer fit, so its run stops there; its lines end at the last sample
/// before, with a mark and the legend saying when.
const INFEASIBLE: &str = r#"
name = "sim-cli-infeasible"
description = "four clients become two"
seed = 3
duration = "30m"
sample_every = "1m"
strategies = ["kip441", "heron-ffd"]

[cluster]
clients = 4
threads = 2
racks = ["r1", "r2"]
restore_rate = 50000
session_timeout = "45s"
rebalance_pause = "5s"
state_cleanup_delay = "10m"
protocol = "cooperative"

[[subtopologies]]
partitions = 9
stateful = true
state_records = 100000
write_rate = 100

[[subtopologies]]
partitions = 18
stateful = false

[config]
num_standby_replicas = 1

[[events]]
at = "12m"
kind = "scale_in"
count = 2
"#;

#[test]
fn an_infeasible_run_is_marked_where_it_stopped() {
    let file = scenario_file("infeasible", INFEASIBLE);
    let out = file.with_file_name("out");
    let run = smoothscale(&["simulate", s(&file), "--out", s(&out)], 2);
    assert_eq!(run.code, Some(0), "{run:?}");
    let summary: Value = serde_json::from_slice(&read(&out.join("summary.json"))).unwrap();
    let outcome = &summary["strategies"]["heron-ffd"]["outcome"];
    assert_eq!(
        outcome["infeasible_at_s"].as_f64(),
        Some(720.0),
        "{outcome}"
    );
    assert_eq!(summary["strategies"]["kip441"]["outcome"], "completed");
    let csv = String::from_utf8(read(&out.join("timeseries.csv"))).unwrap();
    let last_ffd = csv.lines().rfind(|l| l.starts_with("heron-ffd,")).unwrap();
    let t_s = |row: &str| -> f64 { row.split(',').nth(1).unwrap().parse().unwrap() };
    assert!((600.0..=720.0).contains(&t_s(last_ffd)), "{csv}");
    let last_kip441 = csv.lines().rfind(|l| l.starts_with("kip441,")).unwrap();
    assert_eq!(t_s(last_kip441), 1800.0, "{csv}");
    for plot in PLOTS.iter().chain(&["unavailability.svg"]) {
        let svg = String::from_utf8(read(&out.join(plot))).unwrap();
        let names = ["kip441", "heron-ffd"];
        let ffd = legend_notes(&svg, "heron-ffd", &names);
        assert_eq!(ffd.last(), Some(&"(infeasible at 12m)"), "{plot}");
        let kip441 = legend_notes(&svg, "kip441", &names);
        assert!(!kip441.iter().any(|n| n.contains("infeasible")), "{plot}");
        // One mark, labelled, on the chart.
        let texts = svg_texts(&svg);
        assert_eq!(
            texts.iter().filter(|t| **t == "infeasible").count(),
            1,
            "{plot}"
        );
        assert!(texts.contains(&"scale-in -2"), "{plot}");
    }
    // The progress line says so too.
    assert!(
        run.stderr
            .lines()
            .any(|l| is_progress(l)
                && l.contains("] heron-ffd: infeasible at simulated 12m, after ")),
        "{run:?}"
    );
}

/// With stderr piped, `simulate` writes a line per strategy as its run
/// ends, numbered, with what it did in simulated time; stdout is the table alone.
#[test]
fn simulate_reports_each_strategy_as_it_ends() {
    let (run, out) = simulate("progress", &[], 2);
    let summary: Value = serde_json::from_slice(&read(&out.join("summary.json"))).unwrap();
    let lines: Vec<&str> = run.stderr.lines().filter(|l| is_progress(l)).collect();
    assert_eq!(lines.len(), STRATEGIES.len(), "{run:?}");
    for (i, line) in lines.iter().enumerate() {
        assert!(line.starts_with(&format!("[{}/3] ", i + 1)), "{line}");
    }
    for name in STRATEGIES {
        let rebalances = summary["strategies"][name]["rebalances"]["total"]
            .as_u64()
            .unwrap();
        let plural = if rebalances == 1 { "" } else { "s" };
        let said = format!("] {name}: done in simulated 30m, {rebalances} rebalance{plural} (");
        assert_eq!(
            lines.iter().filter(|l| l.contains(&said)).count(),
            1,
            "{said} in {run:?}"
        );
    }
    assert!(!run.stdout.contains("elapsed"), "{}", run.stdout);
    assert!(
        run.stderr.lines().last().unwrap().starts_with("wrote "),
        "{run:?}"
    );
}

/// The charts are byte-identical on one thread and two (the runs end in
/// another order; the charts follow the strategies' order).
#[test]
fn plots_are_byte_identical_on_one_and_two_threads() {
    let (_, one) = simulate("plots-one-thread", &[], 1);
    let (_, two) = simulate("plots-two-threads", &[], 2);
    for plot in PLOTS.iter().chain(&["unavailability.svg"]) {
        assert_eq!(read(&one.join(plot)), read(&two.join(plot)), "{plot}");
    }
}

/// The terminal width the default tables fit.
const TABLE_WIDTH: usize = 120;

/// The cell of `row` in the right-aligned column whose title `header`
/// holds (the token that ends where the title ends); empty when blank.
fn cell<'a>(header: &str, row: &'a str, title: &str) -> &'a str {
    let end = header.find(title).expect("the column") + title.len();
    match row.get(..end) {
        Some(part) if !part.ends_with(' ') => part.split_whitespace().last().unwrap_or(""),
        _ => "",
    }
}

/// Every bundled scenario's default `simulate` output (table, stop lines
/// and key) fits 120 columns, and `--wide` adds the other headline columns.
/// The drain column says `never` for a run whose `summary.json` has no
/// `worst_drain_s`, and otherwise the figure `summary.json` has: a strategy
/// whose backlog never drained prints no 0.
#[test]
#[ignore = "long: ./run-tests --long and CI run it"]
fn bundled_tables_fit_120_columns_and_never_drained_runs_say_never() {
    let mut nevers = 0;
    for name in support::BUNDLED {
        let file = format!("{}/simulations/{name}.toml", env!("CARGO_MANIFEST_DIR"));
        let out = fresh_dir(&format!("bundled-{name}")).join("out");
        let run = smoothscale(&["simulate", &file, "--out", s(&out)], 2);
        assert_eq!(run.code, Some(0), "{name}: {run:?}");
        for line in run.stdout.lines() {
            assert!(
                line.chars().count() <= TABLE_WIDTH,
                "{name}: {} characters: {line}",
                line.chars().count()
            );
        }
        let summary_text = String::from_utf8(read(&out.join("summary.json"))).unwrap();
        let summary: Value = serde_json::from_str(&summary_text).unwrap();
        let strategies = summary["strategies"].as_object().unwrap();
        let lines: Vec<&str> = run.stdout.lines().collect();
        let header = lines[1];
        assert!(header.contains("drain"), "{}", run.stdout);
        for (strategy, metrics) in strategies {
            let row = lines[3..]
                .iter()
                .find(|l| l.split_whitespace().next() == Some(strategy.as_str()))
                .unwrap_or_else(|| panic!("{name}: no row for {strategy}"));
            if metrics["outcome"] != "completed" {
                assert_eq!(cell(header, row, "drain"), "", "{name}: {row}");
                continue;
            }
            let shown = cell(header, row, "drain");
            match &metrics["worst_drain_s"] {
                Value::Null => {
                    assert_eq!(shown, "never", "{name}: {row}");
                    nevers += 1;
                }
                value => {
                    let text = summary_written(&summary_text, strategy, &["worst_drain_s"]);
                    assert_eq!(shown, text, "{name}: {row} ({value})");
                }
            }
        }
        if name == "scale-out" {
            let wide = smoothscale(&["simulate", &file, "--out", s(&out), "--wide"], 2);
            assert_eq!(wide.code, Some(0), "{wide:?}");
            let wide_header = wide.stdout.lines().nth(1).unwrap();
            for title in [
                "p99 delay",
                "converge",
                "standby moves",
                "standby cover",
                "cross-rack",
            ] {
                assert!(!header.contains(title), "{}", run.stdout);
                assert!(wide_header.contains(title), "{}", wide.stdout);
            }
        }
    }
    // The check above met runs whose backlog never drained.
    assert!(nevers > 0);
}

/// `sweep`'s default table fits 120 columns on a bundled scenario with
/// churn, every strategy and an infeasible one; `--wide` adds the other
/// headline metrics' rows.
#[test]
#[ignore = "long: ./run-tests --long and CI run it"]
fn a_bundled_sweep_table_fits_120_columns() {
    let file = format!(
        "{}/simulations/random-churn.toml",
        env!("CARGO_MANIFEST_DIR")
    );
    let out = fresh_dir("bundled-sweep").join("out");
    let args = ["sweep", &file, "--seeds", "0..3", "--out", s(&out)];
    let run = smoothscale(&args, 2);
    assert_eq!(run.code, Some(0), "{run:?}");
    for line in run.stdout.lines() {
        assert!(line.chars().count() <= TABLE_WIDTH, "{line}");
    }
    assert!(!run.stdout.contains(" converge "), "{}", run.stdout);
    let mut wide_args = args.to_vec();
    wide_args.push("--wide");
    let wide = smoothscale(&wide_args, 2);
    assert_eq!(wide.code, Some(0), "{wide:?}");
    assert!(wide.stdout.contains(" converge "), "{}", wide.stdout);
}
