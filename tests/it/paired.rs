//! `smoothscale sweep`'s paired comparisons end to end: `sweep.json`'s
//! `paired` block and the table's second block agree with the differences
//! recomputed from `runs.json`; `--baseline` picks the baseline (the sign
//! flips), an unknown one exits 2 naming it; a seed range across
//! `HELD_OUT_SEEDS_FROM` gets a note on standard error.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::support::{self, smoothscale};

/// The bundled random churn: every seed draws other churn, so the
/// differences vary from seed to seed.
fn scenario() -> String {
    format!(
        "{}/simulations/random-churn.toml",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// A fresh output directory (not created).
fn out_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("paired")
        .join(format!("{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join("out")
}

fn s(path: &Path) -> &str {
    path.to_str().expect("UTF-8 temp path")
}

fn json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).expect("JSON")
}

/// A figure with 3 decimals as thousandths (exact for the figures here:
/// far below 2^53 / 1000).
fn milli(value: &Value) -> i64 {
    let x = value
        .as_f64()
        .unwrap_or_else(|| panic!("{value} is not a number"));
    (x * 1000.0).round() as i64
}

/// Thousandths as a decimal with 3 decimals, as the table prints it.
fn shown(milli: i64) -> String {
    let sign = if milli < 0 { "-" } else { "" };
    let abs = milli.unsigned_abs();
    format!("{sign}{}.{:03}", abs / 1000, abs % 1000)
}

/// Runs a sweep of two strategies over four held-out seeds; returns the
/// table, `sweep.json` and `runs.json`.
fn sweep(name: &str, extra: &[&str]) -> (String, Value, Value) {
    let file = scenario();
    let out = out_dir(name);
    let mut args = vec![
        "sweep",
        &file,
        "--seeds",
        "1000000..1000004",
        "--strategy",
        "kip441",
        "--strategy",
        "sticky",
        "--out",
        s(&out),
    ];
    args.extend_from_slice(extra);
    let run = smoothscale(&args, 2);
    assert_eq!(run.code, Some(0), "{run:?}");
    assert_eq!(run.stderr.lines().count(), 1, "{run:?}");
    (
        run.stdout,
        json(&out.join("sweep.json")),
        json(&out.join("runs.json")),
    )
}

const METRIC: &str = "unavailable_task_s.total";

#[test]
fn the_paired_block_is_the_differences_of_the_runs() {
    let (table, sweep, runs) = sweep("default", &[]);
    // Per seed, sticky − kip441 from runs.json, where both completed.
    let mut by_seed: std::collections::BTreeMap<u64, [Option<i64>; 2]> = Default::default();
    for run in runs["runs"].as_array().unwrap() {
        if run["outcome"] != "completed" || run["metrics"][METRIC].is_null() {
            continue;
        }
        let slot = usize::from(run["strategy"] == "sticky");
        by_seed.entry(run["seed"].as_u64().unwrap()).or_default()[slot] =
            Some(milli(&run["metrics"][METRIC]));
    }
    let differences: Vec<i64> = by_seed
        .values()
        .filter_map(|[kip, sticky]| Some((*sticky)? - (*kip)?))
        .collect();
    assert!(differences.len() >= 2, "{differences:?}");
    let n = differences.len() as i64;
    let sum: i64 = differences.iter().sum();
    // The mean in thousandths, its magnitude rounded half up.
    let mean = sum.signum() * ((2 * sum.abs() + n) / (2 * n));
    let counts = [
        differences.iter().filter(|d| **d < 0).count(),
        differences.iter().filter(|d| **d > 0).count(),
        differences.iter().filter(|d| **d == 0).count(),
    ];

    let point = &sweep["points"][0];
    assert_eq!(point["paired"]["baseline"], "kip441");
    let paired = &point["paired"]["strategies"]["sticky"][METRIC];
    assert_eq!(paired["n"], n, "{paired}");
    assert_eq!(milli(&paired["mean_difference"]), mean, "{paired}");
    assert_eq!(
        [&paired["lower"], &paired["higher"], &paired["equal"]].map(Value::as_u64),
        counts.map(|c| Some(c as u64)),
        "{paired}"
    );
    // The interval is mean ± half-width; the half-width is Student's t
    // (n − 1 degrees of freedom) × the differences' std / √n.
    let half = milli(&paired["ci95_half_width"]);
    assert_eq!(milli(&paired["ci95"][0]), mean - half, "{paired}");
    assert_eq!(milli(&paired["ci95"][1]), mean + half, "{paired}");
    let m = sum as f64 / n as f64;
    let var = differences
        .iter()
        .map(|d| (*d as f64 - m).powi(2))
        .sum::<f64>()
        / (n - 1) as f64;
    let t = [12.706, 4.303, 3.182][usize::try_from(n - 2).unwrap()];
    let want = t * var.sqrt() / (n as f64).sqrt();
    assert!((half as f64 - want).abs() <= 1.0, "{half} against {want}");
    let verdict = if mean + half < 0 {
        "lower"
    } else if mean - half > 0 {
        "higher"
    } else {
        "no significant difference"
    };
    assert_eq!(paired["verdict"], verdict, "{paired}");
    // The baseline is not compared with itself; every metric is there.
    let strategies = point["paired"]["strategies"].as_object().unwrap();
    assert_eq!(strategies.keys().collect::<Vec<_>>(), ["sticky"]);
    assert_eq!(
        strategies["sticky"].as_object().unwrap().len(),
        point["strategies"]["kip441"]["metrics"]
            .as_object()
            .unwrap()
            .len()
    );

    // The table's block says the same.
    let block: Vec<&str> = table
        .lines()
        .skip_while(|l| !l.starts_with("paired with kip441"))
        .take_while(|l| !l.is_empty())
        .collect();
    let row = block
        .iter()
        .find(|l| l.starts_with("sticky  ") && l.contains(" unavailable "))
        .unwrap_or_else(|| panic!("no sticky unavailable row in\n{table}"));
    let [lower, higher, equal] = counts;
    for cell in [
        shown(mean),
        format!("{lower}/{higher}/{equal}"),
        verdict.to_string(),
    ] {
        assert!(row.contains(&cell), "{cell} not in {row}");
    }
    assert!(table.lines().all(|l| l.chars().count() <= 120), "{table}");
}

#[test]
fn baseline_picks_the_baseline_and_an_unknown_one_exits_2() {
    let (_, by_default, _) = sweep("kip441", &[]);
    let (table, swapped, _) = sweep("sticky", &["--baseline", "sticky"]);
    assert!(table.contains("\npaired with sticky: "), "{table}");
    let point = &swapped["points"][0]["paired"];
    assert_eq!(point["baseline"], "sticky");
    let flipped = &point["strategies"]["kip441"][METRIC];
    let original = &by_default["points"][0]["paired"]["strategies"]["sticky"][METRIC];
    assert_eq!(
        milli(&flipped["mean_difference"]),
        -milli(&original["mean_difference"])
    );
    assert_eq!(flipped["lower"], original["higher"]);
    assert_eq!(flipped["ci95_half_width"], original["ci95_half_width"]);

    for bad in ["nope", "smooth"] {
        let file = scenario();
        let out = out_dir(&format!("bad-{bad}"));
        let args = [
            "sweep",
            &file,
            "--seeds",
            "1..3",
            "--strategy",
            "kip441",
            "--strategy",
            "sticky",
            "--baseline",
            bad,
            "--out",
            s(&out),
        ];
        let quoted = format!("\"{bad}\"");
        support::assert_bad_input(
            &smoothscale(&args, 1),
            &["--baseline", &quoted, "kip441, sticky"],
            &out,
        );
    }
}

#[test]
fn a_range_across_the_held_out_seeds_says_so() {
    let file = scenario();
    let out = out_dir("straddle");
    let args = [
        "sweep",
        &file,
        "--seeds",
        "999999..1000001",
        "--strategy",
        "kip441",
        "--out",
        s(&out),
    ];
    let run = smoothscale(&args, 2);
    assert_eq!(run.code, Some(0), "{run:?}");
    let lines: Vec<&str> = run.stderr.lines().collect();
    assert_eq!(
        lines[0],
        "note: seeds 999999..1000001 mix development seeds (below 1000000) and held-out ones"
    );
    assert_eq!(lines.len(), 2, "{run:?}");
    // One strategy: nothing to pair, no block.
    assert!(!run.stdout.contains("paired with"), "{}", run.stdout);
}
