//! Rendering runs for people and programs: the comparison table, `summary.json`
//! and `timeseries.csv` (DESIGN §5, "Outputs").
//!
//! Every figure is computed from the run's integers with integer arithmetic and
//! printed with a fixed number of decimals ([`Fixed`]), and every list comes out
//! in a fixed order (strategies in run order, metrics in the order below), so
//! the same runs give the same bytes on every machine and thread count.
//!
//! # `summary.json`
//!
//! Pretty-printed (two-space indent), keys in this order, a trailing newline:
//!
//! ```text
//! {
//!   "scenario": "scale-out",
//!   "scenario_hash": "…",
//!   "seed": 7,
//!   "version": "0.1.0",
//!   "strategies": {
//!     "kip441": {                       // one entry per strategy, in run order
//!       "outcome": "completed",         // or {"infeasible_at_s": 12.500, "message": "…"}
//!       "unavailable_task_s": {"stateful": 1.000, "stateless": 0.000, "total": 1.000},
//!       "max_outage_s": 1.000,
//!       "restored_records": {"active": 0, "replica": 0, "total": 0},
//!       "active_moves": 0,
//!       "standby_moves": 0,
//!       "rebalances": {"membership": 0, "probing": 0, "caught_up": 0, "total": 0},
//!       "time_to_converge_s": 60.000,   // or null: never converged
//!       "imbalance": {"time_weighted": 0.125, "final": 0.000},
//!       "standby_coverage": 0.9950,     // or null: no stateful task or no standbys asked
//!       "cross_rack_records": 0,
//!       "cross_rack_actives": 0.000,    // time-weighted; null when no time was covered
//!       "restore_over_optimal": {"records": 0, "rebalances": 0}
//!     }
//!   }
//! }
//! ```
//!
//! Seconds have 3 decimals (exact: the simulator counts milliseconds);
//! `imbalance` is in active tasks per thread, 3 decimals, its time-weighted
//! value rounded half up; `standby_coverage` is a share of 0..1, 4 decimals,
//! rounded half up. Time-weighted figures divide by the time the run covered
//! (`RunResult::covered_ms`), which is shorter than the scenario for a run that
//! stopped as infeasible; they are null when that time is 0.
//!
//! `cross_rack_actives` is the time-weighted count of actives (of the plan in
//! force) on a client outside their task's rack, 3 decimals.
//! `restore_over_optimal` sums, over the counted rebalances whose plan gives
//! every member between ⌊T·k/K⌋ and ⌈T·k/K⌉ actives, the records its actives
//! restore beyond the `optimal` strategy's minimum for the same input
//! (`metrics::distance_to_optimal`); `rebalances` says how many were
//! measured (plans outside those bounds are not comparable and skipped).
//!
//! # `timeseries.csv`
//!
//! Header `strategy,t_s,available_tasks,restoring_tasks,imbalance,restored_records`,
//! then one row per sample: strategies in run order, samples in time order.
//! `t_s` has 3 decimals, `imbalance` (tasks per thread) 3 decimals, the other
//! columns are integers. Lines end in `\n`.

use std::fmt;
use std::fmt::Write as _;

use super::{Outcome, RunResult, Sample};

/// The crate version written into every output.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// A non-negative decimal number stored as an integer and a count of decimals:
/// `Fixed { scaled: 12345, decimals: 3 }` is `12.345`. Printing it never goes
/// through floating point, so it is byte-stable.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Fixed {
    /// The value × 10^decimals.
    pub scaled: u128,
    /// Digits after the decimal point.
    pub decimals: u32,
}

impl Fixed {
    /// An integer.
    pub fn int(value: u64) -> Fixed {
        Fixed {
            scaled: u128::from(value),
            decimals: 0,
        }
    }

    /// Milliseconds as seconds with 3 decimals (exact).
    pub fn seconds(ms: u64) -> Fixed {
        Fixed {
            scaled: u128::from(ms),
            decimals: 3,
        }
    }

    /// `num / den` with `decimals` decimals, rounded half up; `None` when `den` is 0.
    pub fn ratio(num: u128, den: u128, decimals: u32) -> Option<Fixed> {
        if den == 0 {
            return None;
        }
        let scaled = num
            .saturating_mul(10u128.pow(decimals))
            .saturating_add(den / 2)
            / den;
        Some(Fixed { scaled, decimals })
    }

    /// The value as a float, for plots only (never for outputs compared byte for byte).
    pub fn to_f64(self) -> f64 {
        self.scaled as f64 / 10f64.powi(self.decimals as i32)
    }
}

impl fmt::Display for Fixed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.decimals == 0 {
            return write!(f, "{}", self.scaled);
        }
        let unit = 10u128.pow(self.decimals);
        let width = self.decimals as usize;
        write!(
            f,
            "{}.{:0width$}",
            self.scaled / unit,
            self.scaled % unit,
            width = width
        )
    }
}

/// One metric of a run: a single value, or named parts (DESIGN §5 names).
/// `None` renders as JSON `null` ("does not apply" or "never happened").
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Metric {
    /// One value.
    Value(Option<Fixed>),
    /// Named parts, in output order.
    Parts(Vec<(&'static str, Option<Fixed>)>),
}

/// What the outputs say about the run besides the runs themselves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunInfo {
    /// The scenario's name.
    pub scenario: String,
    /// [`super::scenario_hash`] of the scenario file's text.
    pub scenario_hash: String,
    /// The seed every strategy ran with.
    pub seed: u64,
    /// Whether the scenario asks for standbys (`num_standby_replicas > 0`);
    /// when not, standby coverage is null.
    pub standbys_asked: bool,
}

/// The metrics of one run, in output order, with DESIGN §5's names.
pub fn metrics(result: &RunResult, standbys_asked: bool) -> Vec<(&'static str, Metric)> {
    let m = &result.metrics;
    let covered = u128::from(result.covered_ms);
    let coverage = if standbys_asked && result.stateful_tasks > 0 {
        Fixed::ratio(
            m.covered_task_ms,
            u128::from(result.stateful_tasks) * covered,
            4,
        )
    } else {
        None
    };
    vec![
        (
            "unavailable_task_s",
            Metric::Parts(vec![
                (
                    "stateful",
                    Some(Fixed::seconds(m.unavailable_stateful_task_ms)),
                ),
                (
                    "stateless",
                    Some(Fixed::seconds(m.unavailable_stateless_task_ms)),
                ),
                (
                    "total",
                    Some(Fixed::seconds(
                        m.unavailable_stateful_task_ms + m.unavailable_stateless_task_ms,
                    )),
                ),
            ]),
        ),
        (
            "max_outage_s",
            Metric::Value(Some(Fixed::seconds(m.max_outage_ms))),
        ),
        (
            "restored_records",
            Metric::Parts(vec![
                ("active", Some(Fixed::int(m.restored_active_records))),
                ("replica", Some(Fixed::int(m.restored_replica_records))),
                (
                    "total",
                    Some(Fixed::int(
                        m.restored_active_records + m.restored_replica_records,
                    )),
                ),
            ]),
        ),
        (
            "active_moves",
            Metric::Value(Some(Fixed::int(m.active_moves))),
        ),
        (
            "standby_moves",
            Metric::Value(Some(Fixed::int(m.standby_moves))),
        ),
        (
            "rebalances",
            Metric::Parts(vec![
                ("membership", Some(Fixed::int(m.membership_rebalances))),
                ("probing", Some(Fixed::int(m.probing_rebalances))),
                ("caught_up", Some(Fixed::int(m.caught_up_rebalances))),
                (
                    "total",
                    Some(Fixed::int(
                        m.membership_rebalances + m.probing_rebalances + m.caught_up_rebalances,
                    )),
                ),
            ]),
        ),
        (
            "time_to_converge_s",
            Metric::Value(m.converge_ms.map(Fixed::seconds)),
        ),
        (
            "imbalance",
            Metric::Parts(vec![
                (
                    "time_weighted",
                    Fixed::ratio(m.imbalance_milli_ms, 1000 * covered, 3),
                ),
                (
                    "final",
                    Some(Fixed {
                        scaled: u128::from(m.final_imbalance_milli),
                        decimals: 3,
                    }),
                ),
            ]),
        ),
        ("standby_coverage", Metric::Value(coverage)),
        (
            "cross_rack_records",
            Metric::Value(Some(Fixed::int(m.cross_rack_records))),
        ),
        (
            "cross_rack_actives",
            Metric::Value(Fixed::ratio(m.cross_rack_active_task_ms, covered, 3)),
        ),
        (
            "restore_over_optimal",
            Metric::Parts(vec![
                ("records", Some(Fixed::int(m.restore_over_optimal_records))),
                (
                    "rebalances",
                    Some(Fixed::int(m.rebalances_within_optimal_shares)),
                ),
            ]),
        ),
    ]
}

/// [`metrics`] flattened: a metric with parts becomes `name.part` entries.
pub fn flat_metrics(result: &RunResult, standbys_asked: bool) -> Vec<(String, Option<Fixed>)> {
    let mut flat = Vec::new();
    for (name, metric) in metrics(result, standbys_asked) {
        match metric {
            Metric::Value(v) => flat.push((name.to_string(), v)),
            Metric::Parts(parts) => {
                for (part, v) in parts {
                    flat.push((format!("{name}.{part}"), v));
                }
            }
        }
    }
    flat
}

/// A headline column of the tables: the flat metric it shows, its name and its unit.
pub(crate) struct Headline {
    /// Key in [`flat_metrics`].
    pub key: &'static str,
    /// Column title.
    pub title: &'static str,
    /// Unit, shown in parentheses under the title.
    pub unit: &'static str,
}

/// The metrics the tables show, in column order.
pub(crate) const HEADLINES: &[Headline] = &[
    Headline {
        key: "unavailable_task_s.total",
        title: "unavailable",
        unit: "task-s",
    },
    Headline {
        key: "max_outage_s",
        title: "max outage",
        unit: "s",
    },
    Headline {
        key: "restored_records.total",
        title: "restored",
        unit: "records",
    },
    Headline {
        key: "active_moves",
        title: "active moves",
        unit: "tasks",
    },
    Headline {
        key: "standby_moves",
        title: "standby moves",
        unit: "replicas",
    },
    Headline {
        key: "rebalances.total",
        title: "rebalances",
        unit: "count",
    },
    Headline {
        key: "time_to_converge_s",
        title: "converge",
        unit: "s",
    },
    Headline {
        key: "imbalance.time_weighted",
        title: "imbalance",
        unit: "tasks/thread",
    },
    Headline {
        key: "standby_coverage",
        title: "standby cover",
        unit: "share",
    },
    Headline {
        key: "cross_rack_records",
        title: "cross-rack",
        unit: "records",
    },
];

/// A table cell for an optional value: `-` for null.
pub(crate) fn cell(value: Option<Fixed>) -> String {
    value.map_or_else(|| "-".to_string(), |v| v.to_string())
}

/// Lays out rows of cells in columns: the first `left` columns left-aligned,
/// the others right-aligned, two spaces apart, no trailing spaces.
pub(crate) fn layout(rows: &[Vec<String>], left: usize) -> String {
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
pub fn comparison_table(info: &RunInfo, results: &[RunResult]) -> String {
    let mut rows = vec![
        std::iter::once("strategy".to_string())
            .chain(HEADLINES.iter().map(|h| h.title.to_string()))
            .chain(std::iter::once("outcome".to_string()))
            .collect::<Vec<_>>(),
        std::iter::once(String::new())
            .chain(HEADLINES.iter().map(|h| format!("({})", h.unit)))
            .chain(std::iter::once(String::new()))
            .collect(),
    ];
    for result in results {
        let flat = flat_metrics(result, info.standbys_asked);
        let mut row = vec![result.strategy.clone()];
        for h in HEADLINES {
            let value = flat.iter().find(|(k, _)| k == h.key).and_then(|(_, v)| *v);
            row.push(cell(value));
        }
        row.push(match &result.outcome {
            Outcome::Completed => "completed".to_string(),
            Outcome::Infeasible { at_ms, .. } => {
                format!("infeasible at {} s", Fixed::seconds(*at_ms))
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
                "{} stopped at {} s: {}",
                result.strategy,
                Fixed::seconds(*at_ms),
                crate::model::one_line(message)
            );
        }
    }
    out
}

/// A JSON document built in output order and printed by hand, so numbers keep
/// their fixed decimals and keys their order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Json {
    /// `null`.
    Null,
    /// A number, already rendered.
    Number(String),
    /// A string (escaped when printed).
    Str(String),
    /// An array.
    Array(Vec<Json>),
    /// An object, keys in the order given.
    Object(Vec<(String, Json)>),
}

impl Json {
    /// A number from an optional [`Fixed`]: `null` when absent.
    pub(crate) fn fixed(value: Option<Fixed>) -> Json {
        value.map_or(Json::Null, |v| Json::Number(v.to_string()))
    }

    /// An integer.
    pub(crate) fn int(value: u64) -> Json {
        Json::Number(value.to_string())
    }

    /// Pretty-printed with a two-space indent and a trailing newline.
    pub(crate) fn to_pretty(&self) -> String {
        let mut out = String::new();
        self.write(&mut out, 0);
        out.push('\n');
        out
    }

    fn write(&self, out: &mut String, depth: usize) {
        match self {
            Json::Null => out.push_str("null"),
            Json::Number(n) => out.push_str(n),
            Json::Str(s) => write_str(out, s),
            Json::Array(items) if items.is_empty() => out.push_str("[]"),
            Json::Object(fields) if fields.is_empty() => out.push_str("{}"),
            Json::Array(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    out.push_str(if i == 0 { "\n" } else { ",\n" });
                    indent(out, depth + 1);
                    item.write(out, depth + 1);
                }
                out.push('\n');
                indent(out, depth);
                out.push(']');
            }
            Json::Object(fields) => {
                out.push('{');
                for (i, (key, value)) in fields.iter().enumerate() {
                    out.push_str(if i == 0 { "\n" } else { ",\n" });
                    indent(out, depth + 1);
                    write_str(out, key);
                    out.push_str(": ");
                    value.write(out, depth + 1);
                }
                out.push('\n');
                indent(out, depth);
                out.push('}');
            }
        }
    }
}

fn indent(out: &mut String, depth: usize) {
    out.push_str(&"  ".repeat(depth));
}

fn write_str(out: &mut String, s: &str) {
    out.push_str(&serde_json::Value::String(s.to_string()).to_string());
}

/// A run's outcome as JSON: `"completed"` or `{"infeasible_at_s", "message"}`.
pub(crate) fn outcome_json(outcome: &Outcome) -> Json {
    match outcome {
        Outcome::Completed => Json::Str("completed".to_string()),
        Outcome::Infeasible { at_ms, message } => Json::Object(vec![
            (
                "infeasible_at_s".to_string(),
                Json::fixed(Some(Fixed::seconds(*at_ms))),
            ),
            ("message".to_string(), Json::Str(message.clone())),
        ]),
    }
}

/// `summary.json` (see the module doc for its shape).
pub fn summary_json(info: &RunInfo, results: &[RunResult]) -> String {
    let strategies = results
        .iter()
        .map(|result| {
            let mut fields = vec![("outcome".to_string(), outcome_json(&result.outcome))];
            for (name, metric) in metrics(result, info.standbys_asked) {
                let value = match metric {
                    Metric::Value(v) => Json::fixed(v),
                    Metric::Parts(parts) => Json::Object(
                        parts
                            .into_iter()
                            .map(|(part, v)| (part.to_string(), Json::fixed(v)))
                            .collect(),
                    ),
                };
                fields.push((name.to_string(), value));
            }
            (result.strategy.clone(), Json::Object(fields))
        })
        .collect();
    Json::Object(vec![
        ("scenario".to_string(), Json::Str(info.scenario.clone())),
        (
            "scenario_hash".to_string(),
            Json::Str(info.scenario_hash.clone()),
        ),
        ("seed".to_string(), Json::int(info.seed)),
        ("version".to_string(), Json::Str(VERSION.to_string())),
        ("strategies".to_string(), Json::Object(strategies)),
    ])
    .to_pretty()
}

/// The CSV header of `timeseries.csv`.
pub const TIMESERIES_HEADER: &str =
    "strategy,t_s,available_tasks,restoring_tasks,imbalance,restored_records";

/// `timeseries.csv` (see the module doc for its shape).
pub fn timeseries_csv(results: &[RunResult]) -> String {
    let mut out = String::from(TIMESERIES_HEADER);
    out.push('\n');
    for result in results {
        let name = csv_field(&result.strategy);
        for s in &result.samples {
            let Sample {
                t_ms,
                available_tasks,
                restoring_tasks,
                imbalance_milli,
                restored_records,
            } = *s;
            let imbalance = Fixed {
                scaled: u128::from(imbalance_milli),
                decimals: 3,
            };
            let _ = writeln!(
                out,
                "{name},{},{available_tasks},{restoring_tasks},{imbalance},{restored_records}",
                Fixed::seconds(t_ms)
            );
        }
    }
    out
}

/// A CSV field, quoted only when it has to be.
fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::RunMetrics;

    fn info() -> RunInfo {
        RunInfo {
            scenario: "tiny".to_string(),
            scenario_hash: "abc123".to_string(),
            seed: 7,
            standbys_asked: true,
        }
    }

    fn completed() -> RunResult {
        RunResult {
            strategy: "kip441".to_string(),
            metrics: RunMetrics {
                unavailable_stateful_task_ms: 12_345,
                unavailable_stateless_task_ms: 5,
                max_outage_ms: 6_000,
                restored_active_records: 1_000,
                restored_replica_records: 234,
                active_moves: 3,
                standby_moves: 4,
                membership_rebalances: 2,
                probing_rebalances: 1,
                caught_up_rebalances: 4,
                converge_ms: Some(60_000),
                // 1 task/thread for a quarter of 120 s, else 0: 0.25.
                imbalance_milli_ms: 1000 * 30_000,
                final_imbalance_milli: 500,
                // 4 stateful tasks × 120 s, covered 2/3 of it: 0.6667 (rounded up).
                covered_task_ms: 320_000,
                cross_rack_records: 99,
                // 3 cross-rack actives for 30 s of 120 s: 0.750.
                cross_rack_active_task_ms: 3 * 30_000,
                restore_over_optimal_records: 500,
                rebalances_within_optimal_shares: 2,
            },
            samples: vec![
                Sample {
                    t_ms: 0,
                    available_tasks: 6,
                    restoring_tasks: 0,
                    imbalance_milli: 0,
                    restored_records: 0,
                },
                Sample {
                    t_ms: 60_000,
                    available_tasks: 5,
                    restoring_tasks: 1,
                    imbalance_milli: 1500,
                    restored_records: 1_234,
                },
            ],
            outcome: Outcome::Completed,
            stateful_tasks: 4,
            covered_ms: 120_000,
        }
    }

    fn infeasible() -> RunResult {
        RunResult {
            strategy: "heron-rr".to_string(),
            metrics: RunMetrics::default(),
            samples: vec![Sample {
                t_ms: 0,
                available_tasks: 6,
                ..Sample::default()
            }],
            outcome: Outcome::Infeasible {
                at_ms: 1_500,
                message: "task 0_1 \"fits\" nowhere".to_string(),
            },
            stateful_tasks: 4,
            covered_ms: 1_500,
        }
    }

    #[test]
    fn fixed_prints_exact_decimals() {
        assert_eq!(Fixed::seconds(0).to_string(), "0.000");
        assert_eq!(Fixed::seconds(12_345).to_string(), "12.345");
        assert_eq!(Fixed::seconds(7).to_string(), "0.007");
        assert_eq!(Fixed::int(42).to_string(), "42");
        assert_eq!(Fixed::ratio(2, 3, 4).unwrap().to_string(), "0.6667");
        assert_eq!(Fixed::ratio(1, 8, 2).unwrap().to_string(), "0.13");
        assert_eq!(Fixed::ratio(5, 1, 3).unwrap().to_string(), "5.000");
        assert_eq!(Fixed::ratio(1, 0, 3), None);
    }

    #[test]
    fn summary_json_has_the_documented_shape() {
        let text = summary_json(&info(), &[completed(), infeasible()]);
        let expected = format!(
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
      "restored_records": {{
        "active": 1000,
        "replica": 234,
        "total": 1234
      }},
      "active_moves": 3,
      "standby_moves": 4,
      "rebalances": {{
        "membership": 2,
        "probing": 1,
        "caught_up": 4,
        "total": 7
      }},
      "time_to_converge_s": 60.000,
      "imbalance": {{
        "time_weighted": 0.250,
        "final": 0.500
      }},
      "standby_coverage": 0.6667,
      "cross_rack_records": 99,
      "cross_rack_actives": 0.750,
      "restore_over_optimal": {{
        "records": 500,
        "rebalances": 2
      }}
    }},
    "heron-rr": {{
      "outcome": {{
        "infeasible_at_s": 1.500,
        "message": "task 0_1 \"fits\" nowhere"
      }},
      "unavailable_task_s": {{
        "stateful": 0.000,
        "stateless": 0.000,
        "total": 0.000
      }},
      "max_outage_s": 0.000,
      "restored_records": {{
        "active": 0,
        "replica": 0,
        "total": 0
      }},
      "active_moves": 0,
      "standby_moves": 0,
      "rebalances": {{
        "membership": 0,
        "probing": 0,
        "caught_up": 0,
        "total": 0
      }},
      "time_to_converge_s": null,
      "imbalance": {{
        "time_weighted": 0.000,
        "final": 0.000
      }},
      "standby_coverage": 0.0000,
      "cross_rack_records": 0,
      "cross_rack_actives": 0.000,
      "restore_over_optimal": {{
        "records": 0,
        "rebalances": 0
      }}
    }}
  }}
}}
"#
        );
        assert_eq!(text, expected);
        // It is JSON, and the numbers are what they say.
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(value["strategies"]["kip441"]["imbalance"]["final"], 0.5);
    }

    #[test]
    fn coverage_is_null_without_standbys_or_stateful_tasks() {
        let mut no_standbys = info();
        no_standbys.standbys_asked = false;
        let text = summary_json(&no_standbys, &[completed()]);
        assert!(text.contains("\"standby_coverage\": null"), "{text}");

        let mut stateless = completed();
        stateless.stateful_tasks = 0;
        let text = summary_json(&info(), &[stateless]);
        assert!(text.contains("\"standby_coverage\": null"), "{text}");
    }

    #[test]
    fn time_weighted_figures_are_null_when_no_time_was_covered() {
        let mut empty = completed();
        empty.covered_ms = 0;
        let flat = flat_metrics(&empty, true);
        let get = |k: &str| flat.iter().find(|(n, _)| n == k).unwrap().1;
        assert_eq!(get("imbalance.time_weighted"), None);
        assert_eq!(get("standby_coverage"), None);
        assert_eq!(get("max_outage_s"), Some(Fixed::seconds(6_000)));
    }

    #[test]
    fn timeseries_csv_rows_by_strategy_then_time() {
        let text = timeseries_csv(&[completed(), infeasible()]);
        assert_eq!(
            text,
            "strategy,t_s,available_tasks,restoring_tasks,imbalance,restored_records\n\
             kip441,0.000,6,0,0.000,0\n\
             kip441,60.000,5,1,1.500,1234\n\
             heron-rr,0.000,6,0,0.000,0\n"
        );
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("say \"x\""), "\"say \"\"x\"\"\"");
    }

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
        assert_eq!(
            lines[5],
            "heron-rr stopped at 1.500 s: task 0_1 \"fits\" nowhere"
        );
        // Every table line has the same column starts: the header's titles
        // end where the values end (right-aligned numbers).
        let end = |line: &str, needle: &str| line.find(needle).unwrap() + needle.len();
        assert_eq!(end(lines[1], "unavailable"), end(lines[3], "12.350"));
        assert_eq!(end(lines[2], "(task-s)"), end(lines[4], "0.000"));
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
    fn json_escapes_and_nests() {
        let doc = Json::Object(vec![
            (
                "a\"b".to_string(),
                Json::Array(vec![Json::int(1), Json::Null]),
            ),
            ("e".to_string(), Json::Object(vec![])),
            ("f".to_string(), Json::Array(vec![])),
        ]);
        assert_eq!(
            doc.to_pretty(),
            "{\n  \"a\\\"b\": [\n    1,\n    null\n  ],\n  \"e\": {},\n  \"f\": []\n}\n"
        );
    }
}
