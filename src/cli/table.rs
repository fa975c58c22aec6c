//! The tables `simulate` and `sweep` print: the headline metrics, one column
//! (or, in `sweep`, one row) each with its unit, laid out for a terminal,
//! and under them a key saying what each one means (`key.rs`). By default
//! they show what users feel most (unavailability, lag, drain time, restore
//! traffic, rebalances, load imbalance), which fit 120 columns on the
//! bundled scenarios; `--wide` shows every headline metric. The columns,
//! their glosses, what a null prints as and which are wide-only are the
//! metric record's (`METRICS`' [`Column`]); the figures print as
//! `summary.json` writes them ([`Fixed`]). `sweep`'s has a second block, the
//! strategies paired with the baseline (`paired.rs`).

mod key;
mod paired;

use smoothscale::model::one_line;
use smoothscale::sim::overrides::label;
use smoothscale::sim::report::PointSweep;
use smoothscale::sim::report::{Column, Figures, Fixed, METRICS};
use smoothscale::sim::{Outcome, RunResult};

use smoothscale::sim::documents::{RunInfo, SweepInfo, VERSION};

use key::{wrap, WIDTH};

/// A headline column of the tables: a metric of the record that has one.
pub(crate) struct Headline {
    /// Its key in [`METRICS`].
    pub key: &'static str,
    /// Its title and unit.
    pub column: Column,
}

/// The metrics the tables show, in column order: those of the metric record
/// with a column, all of them when `wide`, else those not wide-only.
pub(crate) fn headlines(wide: bool) -> Vec<Headline> {
    METRICS
        .iter()
        .filter_map(|m| m.column.map(|column| Headline { key: m.key, column }))
        .filter(|h| wide || !h.column.wide_only)
        .collect()
}

/// A table cell for an optional value: `null` (the column's) for null.
fn cell(value: Option<Fixed>, null: &str) -> String {
    value.map_or_else(|| null.to_string(), |v| v.to_string())
}

/// The key under a table of `headlines` (and `more`, title and gloss, after
/// them), then what `-` means and where the rest is; `wide` says whether
/// every column is shown already.
fn key_of(headlines: &[Headline], more: &[(&'static str, &'static str)], wide: bool) -> String {
    let columns: Vec<Column> = headlines
        .iter()
        .map(|h| h.column)
        .chain(more.iter().map(|&(title, gloss)| Column {
            title,
            unit: "",
            gloss,
            null: "",
            wide_only: false,
        }))
        .collect();
    let mut out = key::key(&columns);
    let all = if wide {
        ""
    } else {
        "--wide shows every column; "
    };
    out.push_str(&wrap(
        &format!(
            "-: does not apply. {all}summary.json (sweep.json, runs.csv) holds every figure, \
             docs/simulator.md#metrics defines each"
        ),
        WIDTH,
        "",
        "",
    ));
    out
}

/// Lays out rows of cells in columns: the first `left` columns left-aligned,
/// the others right-aligned, two spaces apart, no trailing spaces.
fn layout(rows: &[Vec<String>], left: usize) -> String {
    layout_aligned(rows, &|c| c < left)
}

/// [`layout`] with the columns `c` for which `left(c)` left-aligned.
fn layout_aligned(rows: &[Vec<String>], left: &dyn Fn(usize) -> bool) -> String {
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
            if left(c) {
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
/// order), the headline metrics (every one when `wide`) with their units
/// under the titles, the outcome last; a line per infeasible run with the
/// strategy's message; then the key.
pub(crate) fn comparison_table(info: &RunInfo, results: &[RunResult], wide: bool) -> String {
    let headlines = headlines(wide);
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
            // A stopped run's figures cover only the time before it stopped:
            // they are in summary.json, not beside completed runs' figures.
            row.push(if stopped {
                String::new()
            } else {
                cell(figures[h.key], h.column.null)
            });
        }
        row.push(
            match &result.outcome {
                Outcome::Completed => "completed",
                Outcome::Infeasible { .. } => "infeasible",
            }
            .to_string(),
        );
        rows.push(row);
    }
    let mut out = format!(
        "scenario {} (seed {}, smoothscale {})\n",
        info.scenario, info.seed, VERSION
    );
    out.push_str(&layout(&rows, 1));
    for result in results {
        if let Outcome::Infeasible { at_ms, message } = &result.outcome {
            let line = format!(
                "{} stopped at {} s: {} (its figures up to then are in summary.json)",
                result.strategy,
                Fixed::at(*at_ms),
                one_line(message)
            );
            out.push_str(&wrap(&line, WIDTH, "", "  "));
        }
    }
    out.push('\n');
    out.push_str(&key_of(&headlines, &[OUTCOME], wide));
    out
}

/// The key's entry for the outcome column.
const OUTCOME: (&str, &str) = (
    "outcome",
    "completed, or infeasible: no valid plan (when and why: the line under the table)",
);

/// The table `sweep` prints: per point (its parameter values first) and
/// strategy, one row per headline metric (every one when `wide`) with its
/// unit, then n, mean, std, the 95% confidence half-width, p50, p95 and max
/// over the completed runs; then, when there are strategies besides the
/// baseline, each paired with it (`paired.rs`); then the key.
pub(crate) fn sweep_table(info: &SweepInfo, points: &[PointSweep], wide: bool) -> String {
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
    let headlines = headlines(wide);
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
                    cell(st.mean, "-"),
                    cell(st.std, "-"),
                    cell(st.ci95_half_width, "-"),
                    cell(st.p50, "-"),
                    cell(st.p95, "-"),
                    cell(st.max, "-"),
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
            let line = format!(
                "{}{at}: {} of {} runs stopped as infeasible (seeds {}); statistics cover the others",
                s.strategy,
                s.infeasible_seeds.len(),
                s.runs,
                seeds.join(", ")
            );
            out.push_str(&wrap(&line, WIDTH, "", "  "));
        }
    }
    let mut more = STATISTICS.to_vec();
    if let Some(block) = paired::block(&info.parameters, points, &headlines) {
        out.push('\n');
        out.push_str(&block);
        // `n` also counts the seeds compared.
        for entry in more.iter_mut().filter(|(title, _)| *title == paired::N.0) {
            *entry = paired::N;
        }
        more.extend(paired::KEY);
    }
    out.push('\n');
    out.push_str(&key_of(&headlines, &more, wide));
    out
}

/// The key's entries for the statistics columns of `sweep`'s table.
const STATISTICS: [(&str, &str); 3] = [
    (
        "n",
        "completed runs with a value (a time that never came has none)",
    ),
    ("std", "sample standard deviation; - for n < 2"),
    (
        "±ci95",
        "half-width of the 95% confidence interval of the mean (Student's t); - for n < 2",
    ),
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::outputs::fixtures::{completed, infeasible, info, sample_sweep, sweep_info};

    /// The lines of `text` up to its first empty one (the table above the key).
    fn table_part(text: &str) -> Vec<&str> {
        text.lines().take_while(|l| !l.is_empty()).collect()
    }

    #[test]
    fn comparison_table_aligns_columns_with_units() {
        let text = comparison_table(&info(), &[completed(), infeasible()], false);
        let lines = table_part(&text);
        assert_eq!(
            lines[0],
            format!("scenario tiny (seed 7, smoothscale {VERSION})")
        );
        assert!(lines[1].starts_with("strategy  unavailable"), "{text}");
        assert!(lines[2].contains("(task-s)") && lines[2].contains("(max/mean)"));
        assert!(lines[3].starts_with("kip441  "), "{text}");
        assert!(lines[3].contains("12.350") && lines[3].ends_with("completed"));
        assert!(lines[4].starts_with("heron-rr"), "{text}");
        // No partial figures beside completed runs' figures.
        assert_eq!(
            lines[4].split_whitespace().collect::<Vec<_>>(),
            ["heron-rr", "infeasible"],
            "{text}"
        );
        assert_eq!(
            lines[5],
            "heron-rr stopped at 1.500 s: task 0_1 \"fits\" nowhere (its figures up to then are in summary.json)"
        );
        assert_eq!(lines.len(), 6, "{text}");
        // Every table line has the same column starts: the header's titles
        // end where the values end (right-aligned numbers).
        let end = |line: &str, needle: &str| line.find(needle).unwrap() + needle.len();
        assert_eq!(end(lines[1], "unavailable"), end(lines[3], "12.350"));
        assert_eq!(end(lines[2], "(task-s)"), end(lines[3], "12.350"));
        assert_eq!(end(lines[1], "restored"), end(lines[3], "1234"));
        assert_eq!(end(lines[1], "outcome"), end(lines[4], "infeasible"));
    }

    /// The default table has the most-asked columns, `--wide` every one;
    /// both print the key of the columns they show under the table.
    #[test]
    fn the_default_table_is_narrow_and_the_wide_one_has_every_column() {
        let results = [completed(), infeasible()];
        let narrow = comparison_table(&info(), &results, false);
        let wide = comparison_table(&info(), &results, true);
        for (text, shown) in [(&narrow, headlines(false)), (&wide, headlines(true))] {
            let header = table_part(text)[1];
            let key: Vec<&str> = text.lines().skip_while(|l| !l.is_empty()).collect();
            for h in &shown {
                assert!(header.contains(h.column.title), "{text}");
                assert!(
                    key.iter().any(|l| l.starts_with(h.column.title)
                        && l[h.column.title.len()..].starts_with("  ")),
                    "no key for {}: {text}",
                    h.column.title
                );
            }
            assert!(key.iter().any(|l| l.starts_with("outcome  ")), "{text}");
        }
        for title in [
            "max outage",
            "p99 delay",
            "converge",
            "standby moves",
            "standby cover",
            "cross-rack",
        ] {
            assert!(!narrow.contains(title), "{narrow}");
            assert!(wide.contains(title), "{wide}");
        }
        assert!(narrow.contains("--wide shows every column"), "{narrow}");
        assert!(!wide.contains("--wide"), "{wide}");
        for line in narrow.lines() {
            assert!(line.chars().count() <= WIDTH, "{line:?}");
        }
    }

    /// A run that never converged shows `never`, not 0 or an empty cell;
    /// a figure that does not apply shows `-`.
    #[test]
    fn a_time_that_never_came_says_never() {
        let mut never = completed();
        never.metrics.converge_ms = None;
        never.metrics.worst_event_drain_ms = Some(smoothscale::sim::Millis::new(2_500));
        let mut info = info();
        info.standbys_asked = false;
        let text = comparison_table(&info, &[never], true);
        let lines = table_part(&text);
        let end = |line: &str, needle: &str| line.find(needle).unwrap() + needle.len();
        assert_eq!(end(lines[1], "converge"), end(lines[3], "never"), "{text}");
        let cover = end(lines[1], "standby cover");
        assert!(lines[3][..cover].ends_with(" -"), "{text}");
        assert!(!lines[3].contains("0.000"), "{text}");
    }

    #[test]
    fn a_long_stop_message_is_wrapped() {
        let mut stopped = infeasible();
        if let Outcome::Infeasible { message, .. } = &mut stopped.outcome {
            *message = "every client is full ".repeat(20);
        }
        let text = comparison_table(&info(), &[completed(), stopped], false);
        let lines = table_part(&text);
        assert!(
            lines[5].starts_with("heron-rr stopped at 1.500 s: every"),
            "{text}"
        );
        assert!(lines[6..].iter().all(|l| l.starts_with("  ")), "{text}");
        assert!(lines.iter().all(|l| l.chars().count() <= WIDTH), "{text}");
        assert!(
            lines.last().unwrap().ends_with("in summary.json)"),
            "{text}"
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
        for wide in [false, true] {
            let text = sweep_table(&sweep_info(), &sample_sweep(), wide);
            let lines = table_part(&text);
            assert_eq!(
                lines[0],
                format!("scenario tiny (seeds 1..4, smoothscale {VERSION})")
            );
            assert!(lines[1].starts_with("strategy  metric"), "{text}");
            assert!(lines[2].starts_with("kip441    unavailable"), "{text}");
            assert!(lines[1].contains("mean    std  ±ci95"), "{text}");
            assert_eq!(lines.len(), 2 + 2 * headlines(wide).len() + 1, "{text}");
            assert_eq!(
                lines[lines.len() - 1],
                "heron-rr: 1 of 3 runs stopped as infeasible (seeds 1); statistics cover the others"
            );
            let key: Vec<&str> = text.lines().skip_while(|l| !l.is_empty()).collect();
            for entry in ["unavailable  ", "n  ", "std  ", "±ci95  "] {
                assert!(key.iter().any(|l| l.starts_with(entry)), "{entry}: {text}");
            }
            // The paired block between the table and the key, and its key.
            assert!(text.contains("\n\npaired with kip441: "), "{text}");
            for entry in ["mean diff  ", "95% CI  ", "lo/hi/eq  ", "verdict  "] {
                assert!(key.iter().any(|l| l.starts_with(entry)), "{entry}: {text}");
            }
            assert!(text.lines().all(|l| l.chars().count() <= WIDTH), "{text}");
        }
    }

    #[test]
    fn the_tables_show_the_fifteen_headline_metrics_or_the_six_users_feel_most() {
        let keys = |wide| -> Vec<&str> { headlines(wide).iter().map(|h| h.key).collect() };
        assert_eq!(
            keys(true),
            [
                "unavailable_task_s.total",
                "max_outage_s",
                "backlog.mean_records",
                "delay_s.p99",
                "worst_drain_s",
                "throughput_deficit.records",
                "restored_records.total",
                "active_moves",
                "standby_moves",
                "rebalances.total",
                "time_to_converge_s",
                "load_imbalance.time_weighted",
                "imbalance.time_weighted",
                "standby_coverage",
                "cross_rack_records"
            ]
        );
        // Unavailability, lag, drain time, restore traffic, rebalances and
        // the load imbalance: what a user feels.
        assert_eq!(
            keys(false),
            [
                "unavailable_task_s.total",
                "backlog.mean_records",
                "worst_drain_s",
                "restored_records.total",
                "rebalances.total",
                "load_imbalance.time_weighted",
            ]
        );
    }
}
