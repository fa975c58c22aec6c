//! Section 8: speed, from measured inputs no deterministic command repeats:
//! `data/speed-strategies.csv` (criterion medians of every strategy on the
//! `smoothscale generate` presets) and `data/speed-kafka.md` (the Java
//! side-by-side benchmark against Kafka's own assignor), both written by
//! `papers/measure-speed`.

use std::collections::BTreeMap;
use std::path::Path;

use smoothscale::assignor;
use smoothscale::generate;

use super::{claim, read_data, Paper};
use crate::fmt;
use crate::plot::{self, Chart, Corner, Kind, Scale};

const WRITTEN_BY: &str = "papers/measure-speed";
/// The presets of growth with size: 1,000 clients, 1,000 to 100,000 tasks.
const GROWTH: [&str; 3] = ["1000t_1000c", "10000t_1000c", "100000t_1000c"];

/// Fills the speed table and draws growth with size.
///
/// # Errors
///
/// Unreadable or malformed data, or a chart that cannot be drawn.
pub fn section(root: &Path, paper: &mut Paper) -> Result<(), String> {
    let csv = read_data(root, "speed-strategies.csv", WRITTEN_BY)?;
    // (strategy, preset) -> median ms; the date of the measurement.
    let mut medians: BTreeMap<(String, String), f64> = BTreeMap::new();
    let mut measured = String::new();
    for (n, line) in csv.lines().enumerate().skip(1) {
        let bad = || format!("data/speed-strategies.csv line {}: {line:?}", n + 1);
        let f: Vec<&str> = line.split(',').collect();
        if f.len() != 4 {
            return Err(bad());
        }
        medians.insert(
            (f[0].to_string(), f[1].to_string()),
            f[2].parse().map_err(|_| bad())?,
        );
        measured = f[3].to_string();
    }
    let presets = generate::presets();
    let mut header = vec!["strategy".to_string()];
    header.extend(presets.iter().map(|p| format!("`{}` (ms)", p.name)));
    let mut names: Vec<&str> = vec!["floor"];
    names.extend(assignor::all().iter().map(|s| s.info().name));
    let mut rows = Vec::new();
    let mut chart = Chart::new(
        "Growth with size: 1,000 clients, sparse lags",
        "stateful tasks",
        "median time to assign (ms)",
    );
    chart.x_scale = Scale::Log;
    chart.y_scale = Scale::Log;
    chart.legend = Corner::LowerRight;
    let mut undrawn = Vec::new();
    for (i, name) in names.iter().enumerate() {
        let mut row = vec![format!("`{name}`")];
        for p in &presets {
            row.push(
                medians
                    .get(&(name.to_string(), p.name.to_string()))
                    .map_or_else(|| "–".to_string(), |ms| fmt::num(*ms, 3)),
            );
        }
        rows.push(row);
        let growth: Vec<(f64, f64)> = GROWTH
            .iter()
            .filter_map(|p| {
                let spec = generate::preset(p)?;
                let ms = medians.get(&(name.to_string(), p.to_string()))?;
                // A median that rounds to 0 has no place on a log axis.
                (*ms > 0.0).then(|| (f64::from(spec.stateful), *ms))
            })
            .collect();
        if growth.len() < GROWTH.len() {
            undrawn.push(format!("`{name}`"));
            continue;
        }
        // `floor` is no strategy: the grey of bounds, not a strategy's colour.
        let color = if *name == "floor" {
            plot::GREY
        } else {
            plot::color(name, i)
        };
        chart.add(name, color, Kind::LinePoints, growth);
    }
    let header: Vec<&str> = header.iter().map(String::as_str).collect();
    paper.set("speed.table", fmt::table(&header, 1, &rows));
    paper.set("speed.measured", measured);
    let presets_text: Vec<String> = presets
        .iter()
        .map(|p| format!("`{}` ({})", p.name, p.about))
        .collect();
    paper.set("speed.presets", presets_text.join("; "));
    paper.set(
        "speed.undrawn",
        if undrawn.is_empty() {
            "every strategy is drawn".to_string()
        } else {
            format!(
                "{} not drawn: not measured at every size (the table)",
                plot::and_list(&undrawn)
            )
        },
    );
    paper.figure("speed-growth", &chart, &|at| {
        let sizes: Vec<String> = at.iter().map(|p| fmt::num(p.0, 0)).collect();
        format!("{} tasks", plot::and_list(&sizes))
    })?;
    let kafka = read_data(root, "speed-kafka.md", WRITTEN_BY)?;
    paper.set("speed.kafka", kafka.trim_end().to_string());
    kafka_figures(root, &kafka, paper)
}

/// Where `AssignBench` says how often it runs Kafka's assignor.
const BENCH: &str = "../bindings/java/src/test/java/io/smoothscale/kafka/bench/AssignBench.java";

/// Kafka's time per preset in words, one figure per measurement, from the
/// recorded table: `AssignBench` runs Kafka's assignor again only while its
/// runs so far total under `KAFKA_REPEAT_BELOW_S`, up to three runs, and
/// records the median (the upper one of two). A median at or above that
/// threshold is therefore one run's time (with three runs the first two
/// totalled under it, so the median is under it too): there is no spread
/// to give. Below half of it there were three runs (one or two would have
/// stopped only at a median above that); the record keeps their median
/// alone.
fn kafka_figures(root: &Path, kafka: &str, paper: &mut Paper) -> Result<(), String> {
    let bench = std::fs::read_to_string(root.join(BENCH)).map_err(|e| format!("{BENCH}: {e}"))?;
    let threshold: f64 = bench
        .lines()
        .find_map(|l| {
            l.trim()
                .strip_prefix("private static final double KAFKA_REPEAT_BELOW_S = ")
        })
        .and_then(|v| v.trim_end_matches(';').parse().ok())
        .ok_or_else(|| format!("{BENCH}: KAFKA_REPEAT_BELOW_S not found"))?;
    claim(
        "the recorded Kafka figure is the median of up to three runs",
        kafka.contains("Kafka: median of up to 3 runs"),
    )?;
    let mut figures = Vec::new();
    for line in kafka
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| preset"))
    {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let (Some(preset), Some(cell)) = (cells.get(1), cells.get(2)) else {
            return Err(format!(
                "data/speed-kafka.md: a row without a Kafka cell: {line:?}"
            ));
        };
        let shape = preset
            .split_once(" (")
            .and_then(|(_, s)| s.strip_suffix(')'))
            .ok_or_else(|| format!("data/speed-kafka.md: preset {preset:?}"))?;
        let shape = shape.replace("10000", "10,000").replace("1000", "1,000");
        let seconds: f64 = cell
            .strip_suffix(" s")
            .and_then(|v| v.parse().ok())
            .ok_or_else(|| format!("data/speed-kafka.md: Kafka cell {cell:?}"))?;
        // One run stops the loop only at or above the threshold, two only
        // with the larger (their median) at or above half of it.
        let how = if seconds >= threshold {
            format!(
                "one run: the benchmark runs Kafka again only while its runs total under {} s, so there is no spread to give",
                fmt::num(threshold, 0)
            )
        } else if seconds < threshold / 2.0 {
            "the median of three runs; the record keeps no spread".to_string()
        } else {
            "the median of two or three runs; the record keeps no spread".to_string()
        };
        figures.push(format!("{} s on {shape} ({how})", fmt::num(seconds, 1)));
    }
    claim("Kafka's assignor was measured", !figures.is_empty())?;
    paper.set("speed.kafka_figures", figures.join("; "));
    Ok(())
}
