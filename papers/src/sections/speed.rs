//! Section 8: speed, from measured inputs no deterministic command repeats:
//! `data/speed-strategies.csv` (criterion medians of every strategy on the
//! `smoothscale generate` presets) and `data/speed-kafka.md` (the Java
//! side-by-side benchmark against Kafka's own assignor), both written by
//! `papers/measure-speed`.

use std::collections::BTreeMap;
use std::path::Path;

use smoothscale::assignor;
use smoothscale::generate;

use super::{read_data, Paper};
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
    Ok(())
}
