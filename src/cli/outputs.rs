//! How `simulate` and `sweep` write their files: the documents themselves
//! (`summary.json`, `timeseries.csv`, `sweep.json`, `runs.csv`,
//! `runs.json`) are the library's `smoothscale::sim::documents`.
//!
//! # All or nothing
//!
//! [`write_outputs`] stages every file as a hidden temporary file in DIR
//! (`.NAME.PID.tmp`), then moves each old file aside (`.NAME.PID.old`) and
//! renames the new one in; if any step fails, the renames already done are
//! undone and the staged files removed, so a failed write leaves DIR as it
//! was (as far as the file system allows: a crash between two renames can
//! leave a mix). Hidden files of earlier runs that were killed are cleaned
//! up first (an old file moved aside is put back when its place is empty).

use std::path::{Path, PathBuf};

use super::plot::PLOT_FILES;
use super::Failure;

/// Every file name `simulate` and `sweep` write: the hidden files of a
/// killed run are recognised by them.
fn output_names() -> impl Iterator<Item = &'static str> {
    [
        "summary.json",
        "timeseries.csv",
        "sweep.json",
        "runs.csv",
        "runs.json",
    ]
    .into_iter()
    .chain(PLOT_FILES)
}

/// `.NAME.PID.SUFFIX`, the hidden name of a staged (`tmp`) or set-aside
/// (`old`) file.
fn hidden(dir: &Path, name: &str, pid: u32, suffix: &str) -> PathBuf {
    dir.join(format!(".{name}.{pid}.{suffix}"))
}

/// Whether process `pid` may still be running: on systems without `/proc`
/// every process may be.
fn may_be_running(pid: u32) -> bool {
    !Path::new("/proc/self").exists() || Path::new(&format!("/proc/{pid}")).exists()
}

/// Removes the hidden files that runs killed while writing into `dir` left
/// behind (not those of a process still running); an old file set aside is
/// put back when its place is empty. Best effort: what cannot be removed stays.
fn clean_up_after_killed_runs(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let Some(text) = file_name.to_str() else {
            continue;
        };
        for name in output_names() {
            let Some(rest) = text
                .strip_prefix('.')
                .and_then(|t| t.strip_prefix(name))
                .and_then(|t| t.strip_prefix('.'))
            else {
                continue;
            };
            let Some((pid, suffix)) = rest.split_once('.') else {
                continue;
            };
            let Ok(pid) = pid.parse::<u32>() else {
                continue;
            };
            if pid == std::process::id() || may_be_running(pid) {
                continue;
            }
            let path = entry.path();
            let target = dir.join(name);
            match suffix {
                "tmp" => {
                    let _ = std::fs::remove_file(&path);
                }
                "old" if std::fs::symlink_metadata(&target).is_err() => {
                    let _ = std::fs::rename(&path, &target);
                }
                "old" => {
                    let _ = std::fs::remove_file(&path);
                }
                _ => {}
            }
        }
    }
}

/// One file on its way into place.
struct Staged {
    temp: PathBuf,
    target: PathBuf,
    /// Where the file it replaces was set aside, once it was.
    old: Option<PathBuf>,
}

/// Writes `files` into `dir` (created if needed), all or nothing (module
/// doc). An existing directory where a file goes fails before anything is
/// touched.
pub(crate) fn write_outputs(dir: &Path, files: &[(&str, String)]) -> Result<(), Failure> {
    let fail = |what: &Path, e: &dyn std::fmt::Display| {
        Failure::Output(format!(
            "cannot write {}: {e}; nothing was written",
            what.display()
        ))
    };
    let existed = dir.exists();
    std::fs::create_dir_all(dir).map_err(|e| fail(dir, &e))?;
    let written = write_into(dir, files, fail);
    if written.is_err() && !existed {
        // DIR was not there: it goes again (when empty, as it should be).
        let _ = std::fs::remove_dir(dir);
    }
    written
}

/// [`write_outputs`] into the existing `dir`.
fn write_into(
    dir: &Path,
    files: &[(&str, String)],
    fail: impl Fn(&Path, &dyn std::fmt::Display) -> Failure,
) -> Result<(), Failure> {
    clean_up_after_killed_runs(dir);
    for (name, _) in files {
        let target = dir.join(name);
        if std::fs::metadata(&target).is_ok_and(|m| m.is_dir()) {
            return Err(fail(&target, &"it is a directory"));
        }
    }
    let pid = std::process::id();
    let mut staged: Vec<Staged> = Vec::with_capacity(files.len());
    for (name, contents) in files {
        let temp = hidden(dir, name, pid, "tmp");
        staged.push(Staged {
            temp: temp.clone(),
            target: dir.join(name),
            old: None,
        });
        if let Err(e) = std::fs::write(&temp, contents) {
            undo(&staged, 0);
            return Err(fail(&dir.join(name), &e));
        }
    }
    for i in 0..staged.len() {
        let (name, _) = files[i];
        let step = &mut staged[i];
        if std::fs::symlink_metadata(&step.target).is_ok() {
            let old = hidden(dir, name, pid, "old");
            if let Err(e) = std::fs::rename(&step.target, &old) {
                undo(&staged, i);
                return Err(fail(&staged[i].target, &e));
            }
            step.old = Some(old);
        }
        if let Err(e) = std::fs::rename(&step.temp, &step.target) {
            undo(&staged, i + 1);
            return Err(fail(&staged[i].target, &e));
        }
    }
    for step in &staged {
        if let Some(old) = &step.old {
            let _ = std::fs::remove_file(old);
        }
    }
    Ok(())
}

/// Undoes a failed write: the first `moved` files (whose old file may have
/// been set aside and whose new one may be in place) get their old state
/// back; every staged file is removed.
fn undo(staged: &[Staged], moved: usize) {
    for step in staged[..moved].iter().rev() {
        let new_in_place = !step.temp.exists();
        match &step.old {
            Some(old) => {
                let _ = std::fs::rename(old, &step.target);
            }
            None if new_in_place => {
                let _ = std::fs::remove_file(&step.target);
            }
            None => {}
        }
    }
    for step in staged {
        let _ = std::fs::remove_file(&step.temp);
    }
}

/// Runs and sweeps with hand-computed figures, for the tests of the
/// outputs and tables.
#[cfg(test)]
pub(crate) mod fixtures {
    use smoothscale::sim::report::{aggregate, PointSweep, RunFigures};
    use smoothscale::sim::scenario::SeedRange;
    use smoothscale::sim::{
        report, Millis, Outcome, Records, RunMetrics, RunResult, Sample, SimTime,
    };

    use smoothscale::sim::documents::{RunInfo, SweepInfo};

    pub(crate) fn info() -> RunInfo {
        RunInfo {
            scenario: "tiny".to_string(),
            scenario_hash: "abc123".to_string(),
            seed: 7,
            standbys_asked: true,
        }
    }

    pub(crate) fn completed() -> RunResult {
        // The rest by default, so that a metric added to the ledger needs
        // no change here.
        let metrics = RunMetrics {
            unavailable_stateful_task_ms: Millis::new(12_345),
            unavailable_stateless_task_ms: Millis::new(5),
            max_outage_ms: Millis::new(6_000),
            // 12,345 + 5 task-ms over six tasks; one was down twice.
            task_down_ms: [6_000, 6_345, 0, 0, 0, 5].map(Millis::new).to_vec(),
            restored_active_records: Records::new(1_000),
            restored_replica_records: Records::new(234),
            // 200 of the 234 read by caught-up standbys following.
            steady_replica_records: Records::new(200),
            active_moves: 3,
            stateful_active_moves: 2,
            standby_moves: 4,
            membership_rebalances: 2,
            probing_rebalances: 1,
            caught_up_rebalances: 4,
            converge_ms: Some(Millis::new(60_000)),
            full_availability_ms: Some(Millis::new(30_000)),
            // full_redundancy_ms: never (None, the default).
            restores_done_ms: Some(Millis::new(90_000)),
            drained_ms: Some(Millis::new(45_000)),
            // 30 records behind for 60 of the 120 s: 15 on average.
            backlog_twice_milli_ms: 2 * 30_000 * 60_000,
            max_backlog_milli: 30_000,
            max_replicas_per_client: 2,
            tasks_lost_every_copy: 1,
            final_members: 3,
            // 1 task/thread for a quarter of 120 s, else 0: 0.25.
            imbalance_milli_ms: 1000 * 30_000,
            final_imbalance_milli: 500,
            // 4 stateful tasks × 120 s, covered 2/3 of it: 0.6667 (rounded up).
            covered_task_ms: 320_000,
            cross_rack_records: Records::new(99),
            // 3 cross-rack actives for 30 s of 120 s: 0.750.
            cross_rack_active_task_ms: 3 * 30_000,
            restore_over_optimal_records: Records::new(500),
            rebalances_within_optimal_shares: 2,
            ..RunMetrics::default()
        };
        RunResult {
            strategy: "kip441".to_string(),
            metrics,
            samples: vec![
                Sample {
                    t_ms: SimTime::ZERO,
                    available_tasks_milli: 6_000,
                    restoring_tasks_milli: 0,
                    imbalance_milli: 0,
                    max_replicas_per_client: 1,
                    backlog_records: 0,
                    restored_records: Records::ZERO,
                },
                Sample {
                    t_ms: SimTime::new(60_000),
                    available_tasks_milli: 5_250,
                    restoring_tasks_milli: 750,
                    imbalance_milli: 1500,
                    max_replicas_per_client: 2,
                    backlog_records: 15,
                    restored_records: Records::new(1_234),
                },
            ],
            outcome: Outcome::Completed,
            stateful_tasks: 4,
            covered_ms: Millis::new(120_000),
        }
    }

    pub(crate) fn infeasible() -> RunResult {
        RunResult {
            strategy: "heron-rr".to_string(),
            metrics: RunMetrics::default(),
            samples: vec![Sample {
                t_ms: SimTime::ZERO,
                available_tasks_milli: 6_000,
                ..Sample::default()
            }],
            outcome: Outcome::Infeasible {
                at_ms: SimTime::new(1_500),
                message: "task 0_1 \"fits\" nowhere".to_string(),
            },
            stateful_tasks: 4,
            covered_ms: Millis::new(1_500),
        }
    }

    fn figures(seed: u64, strategy: &str, unavailable_ms: u64, completed: bool) -> RunFigures {
        let result = RunResult {
            strategy: strategy.to_string(),
            metrics: RunMetrics {
                unavailable_stateful_task_ms: Millis::new(unavailable_ms),
                active_moves: seed,
                converge_ms: (seed % 2 == 0).then_some(Millis::new(seed * 1000)),
                ..RunMetrics::default()
            },
            samples: vec![Sample::default()],
            outcome: if completed {
                Outcome::Completed
            } else {
                Outcome::Infeasible {
                    at_ms: SimTime::new(5),
                    message: "no room".to_string(),
                }
            },
            stateful_tasks: 2,
            covered_ms: Millis::new(1000),
        };
        RunFigures {
            point: 0,
            settings: Vec::new(),
            seed,
            strategy: strategy.to_string(),
            completed,
            metrics: report::flat_metrics(&result, false),
        }
    }

    pub(crate) fn sweep_info() -> SweepInfo {
        SweepInfo {
            scenario: "tiny".to_string(),
            scenario_hash: "h".to_string(),
            seeds: SeedRange { start: 1, end: 4 },
            parameters: Vec::new(),
        }
    }

    pub(crate) fn sample_runs() -> Vec<RunFigures> {
        vec![
            figures(1, "kip441", 1_000, true),
            figures(1, "heron-rr", 9_000, false),
            figures(2, "kip441", 3_000, true),
            figures(2, "heron-rr", 4_000, true),
            figures(3, "kip441", 2_000, true),
            figures(3, "heron-rr", 5_000, true),
        ]
    }

    pub(crate) fn sample_sweep() -> Vec<PointSweep> {
        aggregate(&sample_runs(), "kip441")
    }
}

#[cfg(test)]
mod tests {
    use super::fixtures::{completed, infeasible, info, sample_runs, sample_sweep, sweep_info};
    use super::*;
    use serde_json::value::RawValue;
    use smoothscale::sim::documents::{
        runs_csv, runs_json, summary_json, sweep_json, timeseries_csv, VERSION,
    };
    use smoothscale::sim::overrides::Setting;
    use smoothscale::sim::report::RunFigures;
    use smoothscale::sim::report::{flat_metrics, Fixed};

    /// The head of the document and an infeasible run's outcome as
    /// docs/simulator.md shows them; every hand-computed figure where its
    /// key puts it (the order of every key is the next test's).
    #[test]
    fn summary_json_has_the_documented_shape() {
        let text = summary_json(&info(), &[completed(), infeasible()]);
        let head = format!(
            r#"{{
  "scenario": "tiny",
  "scenario_hash": "abc123",
  "seed": 7,
  "version": "{VERSION}",
  "strategies": {{
    "kip441": {{
      "outcome": "completed",
      "unavailable_task_s": {{
        "stateful": 12.345,
        "stateless": 0.005,
        "total": 12.350
      }},
      "max_outage_s": 6.000,
      "task_downtime_s": {{
        "p50": 0.000,
        "p99": 6.345,
        "max": 6.345
      }},
"#
        );
        assert!(text.starts_with(&head), "{text}");
        let infeasible = r#"
    "heron-rr": {
      "outcome": {
        "infeasible_at_s": 1.500,
        "message": "task 0_1 \"fits\" nowhere"
      },
      "unavailable_task_s": {
"#;
        assert!(text.contains(infeasible), "{text}");
        assert!(text.ends_with("    }\n  }\n}\n"), "{text}");
        let kip441 = &text[..text.find("\"heron-rr\"").unwrap()];
        for line in [
            "\"tasks_affected\": 3,",
            "\"recovery\": 1034,",
            "\"steady_replication\": 200",
            "\"stateless_active_moves\": 1,",
            "\"total\": 7",
            "\"time_to_full_redundancy_s\": null,",
            "\"time_to_drain_s\": 45.000,",
            "\"mean_records\": 15,",
            "\"max_records\": 30",
            "\"final\": 0.500",
            "\"standby_coverage\": 0.6667,",
            "\"cross_rack_actives\": 0.750,",
            "\"records\": 500,",
        ] {
            assert!(kip441.contains(line), "{line} in {kip441}");
        }
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(value["strategies"]["kip441"]["imbalance"]["final"], 0.5);
    }

    /// The summary nests exactly the library's flat metrics, in their order
    /// (`sweep.json` uses the flat names), then the drain after each event
    /// (an empty list for the fixture's run, which records none).
    #[test]
    fn summary_keys_are_the_flat_metrics() {
        let text = summary_json(&info(), &[completed()]);
        let mut keys = Vec::new();
        let mut depth_keys: Vec<String> = Vec::new();
        for line in text.lines() {
            let trimmed = line.trim_start();
            let depth = (line.len() - trimmed.len()) / 2;
            let Some(rest) = trimmed.strip_prefix('"') else {
                continue;
            };
            let key = rest.split('"').next().unwrap().to_string();
            depth_keys.truncate(depth.saturating_sub(3));
            if depth >= 3 && key != "outcome" {
                let full = depth_keys
                    .iter()
                    .chain(std::iter::once(&key))
                    .cloned()
                    .collect::<Vec<_>>()
                    .join(".");
                if !trimmed.ends_with('{') {
                    keys.push(full);
                }
            }
            if trimmed.ends_with('{') && depth >= 3 {
                depth_keys.push(key);
            }
        }
        let mut flat: Vec<String> = flat_metrics(&completed(), true)
            .into_iter()
            .map(|(k, _)| k)
            .collect();
        flat.push("drain_after_events".to_string());
        assert_eq!(keys, flat);
    }

    #[test]
    fn coverage_is_null_without_standbys() {
        let mut no_standbys = info();
        no_standbys.standbys_asked = false;
        let text = summary_json(&no_standbys, &[completed()]);
        assert!(text.contains("\"standby_coverage\": null"), "{text}");
    }

    #[test]
    fn runs_csv_has_a_row_per_run_and_a_column_per_metric() {
        let figures = [
            RunFigures {
                point: 0,
                settings: Vec::new(),
                seed: 3,
                strategy: "kip441".into(),
                completed: true,
                metrics: vec![
                    ("max_outage_s".into(), Some(Fixed::int(5))),
                    ("time_to_converge_s".into(), None),
                ],
            },
            RunFigures {
                point: 0,
                settings: Vec::new(),
                seed: 3,
                strategy: "a,b".into(),
                completed: false,
                metrics: vec![
                    ("max_outage_s".into(), Some(Fixed::int(0))),
                    ("time_to_converge_s".into(), Some(Fixed::int(7))),
                ],
            },
        ];
        assert_eq!(
            runs_csv(&[], &figures),
            "seed,strategy,outcome,max_outage_s,time_to_converge_s\n\
             3,kip441,completed,5,\n\
             3,\"a,b\",infeasible,0,7\n"
        );
        assert_eq!(runs_csv(&[], &[]), "seed,strategy,outcome\n");

        // Parameter columns first, values as labels.
        let with = |key: &str, value: toml::Value, f: &RunFigures| RunFigures {
            settings: vec![
                Setting {
                    key: key.to_string(),
                    value,
                },
                Setting {
                    key: "cluster.racks".to_string(),
                    value: toml::Value::Array(vec!["a".into(), "b".into()]),
                },
            ],
            ..f.clone()
        };
        let rows = [
            with("cluster.session_timeout", "30s".into(), &figures[0]),
            with("cluster.session_timeout", 45_000.into(), &figures[1]),
        ];
        let keys = [
            "cluster.session_timeout".to_string(),
            "cluster.racks".into(),
        ];
        assert_eq!(
            runs_csv(&keys, &rows),
            "cluster.session_timeout,cluster.racks,seed,strategy,outcome,max_outage_s,time_to_converge_s\n\
             30s,\"[\"\"a\"\", \"\"b\"\"]\",3,kip441,completed,5,\n\
             45000,\"[\"\"a\"\", \"\"b\"\"]\",3,\"a,b\",infeasible,0,7\n"
        );
    }

    #[test]
    fn runs_json_has_the_runs_csv_figures() {
        let mut info = sweep_info();
        info.parameters = vec!["config.max_warmup_replicas".to_string()];
        let runs: Vec<RunFigures> = sample_runs()
            .into_iter()
            .map(|f| RunFigures {
                settings: vec![Setting {
                    key: "config.max_warmup_replicas".to_string(),
                    value: toml::Value::Integer(2),
                }],
                ..f
            })
            .collect();
        let json = runs_json(&info, &runs);
        let value: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(value["parameters"][0], "config.max_warmup_replicas");
        let rows = value["runs"].as_array().unwrap();
        assert_eq!(rows.len(), runs.len());
        assert_eq!(rows[1]["strategy"], "heron-rr");
        assert_eq!(rows[1]["outcome"], "infeasible");
        assert_eq!(rows[1]["parameters"]["config.max_warmup_replicas"], 2);
        // Every figure of runs.csv, as written there (raw JSON numbers).
        #[derive(serde::Deserialize)]
        struct Raw {
            runs: Vec<RawRun>,
        }
        #[derive(serde::Deserialize)]
        struct RawRun {
            metrics: std::collections::BTreeMap<String, Box<RawValue>>,
        }
        let raw: Raw = serde_json::from_str(&json).unwrap();
        let csv = runs_csv(&info.parameters, &runs);
        let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
        assert_eq!(raw.runs.len(), csv.lines().count() - 1);
        for (run, line) in raw.runs.iter().zip(csv.lines().skip(1)) {
            let fields: Vec<&str> = line.split(',').collect();
            assert_eq!(fields.len(), header.len());
            for (name, field) in header.iter().zip(&fields).skip(4) {
                let value = run.metrics[*name].get();
                let value = if value == "null" { "" } else { value };
                assert_eq!(value, *field, "{name}");
            }
        }
        for (row, line) in rows.iter().zip(csv.lines().skip(1)) {
            assert_eq!(row["seed"].to_string(), line.split(',').nth(1).unwrap());
        }
        // Fixed decimals, keys in order.
        assert!(
            json.contains("\"unavailable_task_s.stateful\": 1.000,"),
            "{json}"
        );
        let at = |k: &str| json.find(k).unwrap();
        assert!(at("\"scenario\"") < at("\"parameters\"") && at("\"parameters\"") < at("\"runs\""));
    }

    #[test]
    fn timeseries_csv_rows_by_strategy_then_time() {
        let text = timeseries_csv(&[completed(), infeasible()]);
        assert_eq!(
            text,
            "strategy,t_s,available_tasks,restoring_tasks,imbalance,max_replicas_per_client,backlog_records,restored_records\n\
             kip441,0.000,6.000,0.000,0.000,1,0,0\n\
             kip441,60.000,5.250,0.750,1.500,2,15,1234\n\
             heron-rr,0.000,6.000,0.000,0.000,0,0,0\n"
        );
    }

    #[test]
    fn sweep_json_shape() {
        let json = sweep_json(&sweep_info(), &sample_sweep());
        let value: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(value["seeds"], "1..4");
        assert_eq!(value["version"], VERSION);
        assert_eq!(value["parameters"].as_array().unwrap().len(), 0);
        let point = &value["points"][0];
        assert_eq!(point["parameters"].as_object().unwrap().len(), 0);
        assert_eq!(point["strategies"]["heron-rr"]["infeasible_seeds"][0], 1);
        assert_eq!(point["strategies"]["heron-rr"]["completed"], 2);
        let active = &point["strategies"]["kip441"]["metrics"]["active_moves"];
        assert_eq!(active["n"], 3);
        assert_eq!(active["p95"], 3);
        // Active moves 1, 2, 3: mean 2, std 1, half-width 4.303 / √3.
        assert!(
            json.contains("\"mean\": 2.000,\n              \"std\": 1.000,\n              \"ci95_half_width\": 2.484,"),
            "{json}"
        );
        assert!(json.contains(
            "\"standby_coverage\": {\n              \"n\": 0,\n              \"mean\": null,\n              \"std\": null,"
        ));
        assert!(json.contains("\"infeasible_seeds\": [],"), "{json}");
        assert!(json.ends_with("}\n"));
        // heron-rr against kip441 on seeds 2 and 3: unavailable 1 and 3 s
        // more; std √2, half-width 12.706 × √2 / √2.
        let paired = &point["paired"];
        assert_eq!(paired["baseline"], "kip441");
        assert_eq!(paired["strategies"].as_object().unwrap().len(), 1);
        let down = &paired["strategies"]["heron-rr"]["unavailable_task_s.stateful"];
        let fields = [
            "\"n\": 2,",
            "\"mean_difference\": 2.000,",
            "\"ci95_half_width\": 12.706,",
            "\"ci95\": [\n                -10.706,\n                14.706\n              ],",
            "\"lower\": 0,",
            "\"higher\": 2,",
            "\"equal\": 0,",
            "\"verdict\": \"no significant difference\"",
        ];
        let written = format!(
            "\"unavailable_task_s.stateful\": {{\n              {}\n            }}",
            fields.join("\n              ")
        );
        assert!(json.contains(&written), "{written}\n{json}");
        assert_eq!(down["n"], 2);
        // Metrics in METRICS order, keyed as in `metrics`.
        let keys: Vec<&String> = paired["strategies"]["heron-rr"]
            .as_object()
            .unwrap()
            .keys()
            .collect();
        let stats: Vec<&String> = point["strategies"]["kip441"]["metrics"]
            .as_object()
            .unwrap()
            .keys()
            .collect();
        assert_eq!(keys, stats);
        let order = [
            "\"scenario\"",
            "\"scenario_hash\"",
            "\"seeds\"",
            "\"version\"",
            "\"parameters\"",
            "\"points\"",
            "\"strategies\"",
            "\"paired\"",
        ];
        let at: Vec<usize> = order.iter().map(|k| json.find(k).unwrap()).collect();
        assert!(at.windows(2).all(|w| w[0] < w[1]));
    }

    fn temp_dir(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("smoothscale-write-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn outputs_are_written_whole_and_leave_no_hidden_files() {
        let dir = temp_dir("whole");
        std::fs::write(dir.join("summary.json"), "old").unwrap();
        let files = [
            ("summary.json", "one".to_string()),
            ("sweep.json", "two".to_string()),
        ];
        assert!(write_outputs(&dir, &files).is_ok());
        assert_eq!(names(&dir), ["summary.json", "sweep.json"]);
        assert_eq!(
            std::fs::read_to_string(dir.join("summary.json")).unwrap(),
            "one"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_failed_rename_puts_every_old_file_back() {
        let dir = temp_dir("undo");
        std::fs::write(dir.join("summary.json"), "old summary").unwrap();
        std::fs::write(dir.join("sweep.json"), "old sweep").unwrap();
        // The second file cannot be set aside: its hidden name is taken by a
        // directory that is not empty.
        let blocker = hidden(&dir, "sweep.json", std::process::id(), "old");
        std::fs::create_dir_all(blocker.join("x")).unwrap();
        let files = [
            ("summary.json", "new summary".to_string()),
            ("sweep.json", "new sweep".to_string()),
            ("timeseries.csv", "new series".to_string()),
        ];
        assert!(matches!(
            write_outputs(&dir, &files),
            Err(Failure::Output(_))
        ));
        let read = |n: &str| std::fs::read_to_string(dir.join(n)).unwrap();
        assert_eq!(read("summary.json"), "old summary");
        assert_eq!(read("sweep.json"), "old sweep");
        std::fs::remove_dir_all(&blocker).unwrap();
        assert_eq!(names(&dir), ["summary.json", "sweep.json"]);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_failed_write_into_a_new_directory_removes_it() {
        let parent = temp_dir("new");
        let dir = parent.join("out");
        // A name in a directory that does not exist cannot be staged.
        let files = [
            ("summary.json", "one".to_string()),
            ("missing/x.txt", "two".to_string()),
        ];
        assert!(write_outputs(&dir, &files).is_err());
        assert!(!dir.exists());
        let _ = std::fs::remove_dir_all(&parent);
    }

    #[test]
    fn hidden_files_of_killed_runs_are_cleaned_up() {
        let dir = temp_dir("killed");
        // No process has this id (Linux's largest is 2^22).
        let dead = 999_999_999;
        std::fs::write(hidden(&dir, "summary.json", dead, "tmp"), "half").unwrap();
        std::fs::write(hidden(&dir, "timeseries.csv", dead, "old"), "series").unwrap();
        std::fs::write(dir.join(".unrelated.1.tmp"), "keep").unwrap();
        assert!(write_outputs(&dir, &[("summary.json", "new".to_string())]).is_ok());
        if Path::new("/proc/self").exists() {
            assert_eq!(
                names(&dir),
                [".unrelated.1.tmp", "summary.json", "timeseries.csv"]
            );
            // The old file set aside went back to its empty place.
            let series = std::fs::read_to_string(dir.join("timeseries.csv")).unwrap();
            assert_eq!(series, "series");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
