//! The tables `simulate` and `sweep` print: the headline metrics, one column
//! each with its unit, laid out for a terminal.

use std::fmt::Write as _;

use smoothscale::model::one_line;
use smoothscale::sim::overrides::label;
use smoothscale::sim::report::PointSweep;
use smoothscale::sim::report::{Column, Figures, Fixed, METRICS};
use smoothscale::sim::{Outcome, RunResult};

use smoothscale::sim::documents::{RunInfo, SweepInfo, VERSION};

/// A headline column of the tables: a metric of the record that has one.
pub(crate) struct Headline {
    /// Its key in [`METRICS`].
    pub key: &'static str,
    /// Its title and unit.
    pub column: Column,
}

/// The metrics the tables show, in column order: those of the metric record
/// with a column.
pub(crate) fn headlines() -> Vec<Headline> {
    METRICS
        .iter()
        .filter_map(|m| m.column.map(|column| Headline { key: m.key, column }))
        .collect()
}

/// A table cell for an optional value: `-` for null.
fn cell(value: Option<Fixed>) -> String {
    value.map_or_else(|| "-".to_string(), |v| v.to_string())
}

/// Lays out rows of cells in columns: the first `left` columns left-aligned,
/// the others right-aligned, two spaces apart, no trailing spaces.
fn layout(rows: &[Vec<String>], left: usize) -> String {
    let columns = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..columns)
        .map(|c| {
            rows.iter()
                .filter_map(|r| r.get(c))
                .map(|s| s.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for row in rows {
        let mut line = String::new();
        for (c, text) in row.iter().enumerate() {
            if c > 0 {
                line.push_str("  ");
            }
            let pad = widths[c] - text.chars().count();
            if c < left {
                line.push_str(text);
                line.push_str(&" ".repeat(pad));
            } else {
                line.push_str(&" ".repeat(pad));
                line.push_str(text);
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// The comparison table printed by `simulate`: one row per strategy (run
/// order), the headline metrics with their units under the titles, the
/// outcome last; a line per infeasible run with the strategy's message.
pub(crate) fn comparison_table(info: &RunInfo, results: &[RunResult]) -> String {
    let headlines = headlines();
    let mut rows = vec![
        std::iter::once("strategy".to_string())
            .chain(headlines.iter().map(|h| h.column.title.to_string()))
            .chain(std::iter::once("outcome".to_string()))
            .collect::<Vec<_>>(),
        std::iter::once(String::new())
            .chain(headlines.iter().map(|h| format!("({})", h.column.unit)))
            .chain(std::iter::once(String::new()))
            .collect(),
    ];
    for result in results {
        let figures = Figures::of(result, info.standbys_asked);
        let mut row = vec![result.strategy.clone()];
        let stopped = matches!(result.outcome, Outcome::Infeasible { .. });
        for h in &headlines {
            let value = figures[h.key];
            // A stopped run's figures cover only the time before it stopped:
            // they are in summary.json, not beside completed runs' figures.
            row.push(if stopped { String::new() } else { cell(value) });
        }
        row.push(match &result.outcome {
            Outcome::Completed => "completed".to_string(),
            Outcome::Infeasible { at_ms, .. } => {
                format!("infeasible at {} s", Fixed::at(*at_ms))
            }
        });
        rows.push(row);
    }
    let mut out = format!(
        "scenario {} (seed {}, smoothscale {})\n",
        info.scenario, info.seed, VERSION
    );
    out.push_str(&layout(&rows, 1));
    for result in results {
        if let Outcome::Infeasible { at_ms, message } = &result.outcome {
            let _ = writeln!(
                out,
                "{} stopped at {} s: {} (its figures up to then are in summary.json)",
                result.strategy,
                Fixed::at(*at_ms),
                one_line(message)
            );
        }
    }
    out
}

/// The table `sweep` prints: per point (its parameter values first) and
/// strategy, one row per headline metric with its unit, then n, mean, std,
/// the 95% confidence half-width, p50, p95 and max over the completed runs.
pub(crate) fn sweep_table(info: &SweepInfo, points: &[PointSweep]) -> String {
    let titles = [
        "strategy", "metric", "unit", "n", "mean", "std", "±ci95", "p50", "p95", "max",
    ];
    let mut rows = vec![info
        .parameters
        .iter()
        .map(String::as_str)
        .chain(titles)
        .map(String::from)
        .collect::<Vec<_>>()];
    let headlines = headlines();
    for point in points {
        let values: Vec<String> = point.settings.iter().map(|s| label(&s.value)).collect();
        for s in &point.strategies {
            for h in &headlines {
                let Some((_, st)) = s.metrics.iter().find(|(k, _)| k == h.key) else {
                    continue;
                };
                let mut row = values.clone();
                row.extend([
                    s.strategy.clone(),
                    h.column.title.to_string(),
                    h.column.unit.to_string(),
                    st.n.to_string(),
                    cell(st.mean),
                    cell(st.std),
                    cell(st.ci95_half_width),
                    cell(st.p50),
                    cell(st.p95),
                    cell(st.max),
                ]);
                rows.push(row);
            }
        }
    }
    let mut out = format!(
        "scenario {} (seeds {}, smoothscale {})\n",
        info.scenario, info.seeds, VERSION
    );
    out.push_str(&layout(&rows, info.parameters.len() + 3));
    for point in points {
        let at: Vec<String> = point
            .settings
            .iter()
            .map(|s| format!("{}={}", s.key, label(&s.value)))
            .collect();
        let at = if at.is_empty() {
            String::new()
        } else {
            format!(" at {}", at.join(", "))
        };
        for s in point
            .strategies
            .iter()
            .filter(|s| !s.infeasible_seeds.is_empty())
        {
            let seeds: Vec<String> = s.infeasible_seeds.iter().map(u64::to_string).collect();
            let _ = writeln!(
                out,
                "{}{at}: {} of {} runs stopped as infeasible (seeds {}); statistics cover the others",
                s.strategy,
                s.infeasible_seeds.len(),
                s.runs,
                seeds.join(", ")
            );
        }
    }
    out.push_str(
        "n: completed runs with a value; std: sample standard deviation; \
         ±ci95: half-width of the 95% confidence interval of the mean (Student's t)\n",
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::outputs::fixtures::{completed, infeasible, info, sample_sweep, sweep_info};

    #[test]
    fn comparison_table_aligns_columns_with_units() {
        let text = comparison_table(&info(), &[completed(), infeasible()]);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[0],
            format!("scenario tiny (seed 7, smoothscale {VERSION})")
        );
        assert!(lines[1].starts_with("strategy  unavailable"), "{text}");
        assert!(lines[2].contains("(task-s)") && lines[2].contains("(tasks/thread)"));
        assert!(lines[3].starts_with("kip441  "), "{text}");
        assert!(lines[3].contains("12.350") && lines[3].ends_with("completed"));
        assert!(lines[4].starts_with("heron-rr"), "{text}");
        assert!(lines[4].ends_with("infeasible at 1.500 s"), "{text}");
        // No partial figures beside completed runs' figures.
        assert_eq!(
            lines[4].split_whitespace().collect::<Vec<_>>(),
            ["heron-rr", "infeasible", "at", "1.500", "s"],
            "{text}"
        );
        assert_eq!(
            lines[5],
            "heron-rr stopped at 1.500 s: task 0_1 \"fits\" nowhere (its figures up to then are in summary.json)"
        );
        // Every table line has the same column starts: the header's titles
        // end where the values end (right-aligned numbers).
        let end = |line: &str, needle: &str| line.find(needle).unwrap() + needle.len();
        assert_eq!(end(lines[1], "unavailable"), end(lines[3], "12.350"));
        assert_eq!(end(lines[2], "(task-s)"), end(lines[3], "12.350"));
        assert_eq!(
            end(lines[1], "outcome"),
            end(lines[4], "infeasible at 1.500 s")
        );
    }

    #[test]
    fn layout_pads_and_trims() {
        let rows = vec![
            vec!["a".to_string(), "1".to_string(), String::new()],
            vec!["bbb".to_string(), "22".to_string(), String::new()],
        ];
        assert_eq!(layout(&rows, 1), "a     1\nbbb  22\n");
    }

    #[test]
    fn sweep_table_rows_per_strategy_and_headline() {
        let table = sweep_table(&sweep_info(), &sample_sweep());
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(
            lines[0],
            format!("scenario tiny (seeds 1..4, smoothscale {VERSION})")
        );
        assert!(lines[1].starts_with("strategy  metric"), "{table}");
        assert!(lines[2].starts_with("kip441    unavailable"), "{table}");
        assert!(lines[1].contains("mean    std  ±ci95"), "{table}");
        assert_eq!(lines.len(), 2 + 2 * headlines().len() + 2, "{table}");
        assert_eq!(
            lines[lines.len() - 2],
            "heron-rr: 1 of 3 runs stopped as infeasible (seeds 1); statistics cover the others"
        );
        assert!(
            lines[lines.len() - 1].starts_with("n: completed runs"),
            "{table}"
        );
    }

    #[test]
    fn the_tables_show_the_ten_headline_metrics() {
        let keys: Vec<&str> = headlines().iter().map(|h| h.key).collect();
        assert_eq!(
            keys,
            [
                "unavailable_task_s.total",
                "max_outage_s",
                "restored_records.total",
                "active_moves",
                "standby_moves",
                "rebalances.total",
                "time_to_converge_s",
                "imbalance.time_weighted",
                "standby_coverage",
                "cross_rack_records"
            ]
        );
    }
}
