//! Statistics over runs: what a sweep keeps of each run ([`RunFigures`]) and
//! their aggregate per point and strategy ([`aggregate`]): count, mean,
//! standard deviation, 95% confidence half-width ([`super::dispersion`]),
//! nearest-rank p50 and p95, and max, all exact; and per point every
//! strategy compared with a baseline seed by seed ([`super::paired`]).

use super::dispersion::{self, nearest_rank};
use super::fixed::Fixed;
use super::metrics::flat_metrics;
use super::paired::{self, PointPaired};
use crate::sim::run::{Outcome, RunResult};
use crate::sim::scenario::overrides::{Setting, SweepPoint};

/// What a sweep keeps of one run: its flat metrics, not its time series.
#[derive(Debug, Clone, PartialEq)]
pub struct RunFigures {
    /// The index of its point in the sweep's points.
    pub point: usize,
    /// The parameter values of its point (none when no parameter varies).
    pub settings: Vec<Setting>,
    /// The seed.
    pub seed: u64,
    /// The strategy.
    pub strategy: String,
    /// Whether the run completed (else it stopped as infeasible).
    pub completed: bool,
    /// [`flat_metrics`] of the run.
    pub metrics: Vec<(String, Option<Fixed>)>,
}

impl RunFigures {
    pub(crate) fn of(point: usize, at: &SweepPoint, seed: u64, result: &RunResult) -> RunFigures {
        RunFigures {
            point,
            settings: at.settings.clone(),
            seed,
            strategy: result.strategy.clone(),
            completed: result.outcome == Outcome::Completed,
            metrics: flat_metrics(result, at.scenario.standbys_asked()),
        }
    }
}

/// Count, mean, spread, p50, p95 and max of one metric's values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stats {
    /// Values aggregated (nulls left out).
    pub n: usize,
    /// The mean, rounded half up, with the values' decimals but at least 3.
    pub mean: Option<Fixed>,
    /// The sample standard deviation (divisor `n − 1`), the mean's
    /// decimals; none for `n < 2`.
    pub std: Option<Fixed>,
    /// Half the width of the 95% confidence interval of the mean (Student's
    /// t with `n − 1` degrees of freedom): the interval is `mean ± this`.
    /// The mean's decimals; none for `n < 2`.
    pub ci95_half_width: Option<Fixed>,
    /// Nearest-rank median.
    pub p50: Option<Fixed>,
    /// Nearest-rank 95th percentile.
    pub p95: Option<Fixed>,
    /// The largest value.
    pub max: Option<Fixed>,
}

impl Stats {
    /// The statistics of `values`, which all have the same decimals.
    pub fn of(values: &[Fixed]) -> Stats {
        let mut sorted = values.to_vec();
        sorted.sort();
        let n = sorted.len();
        let decimals = sorted.first().map_or(0, |v| v.decimals);
        debug_assert!(sorted.iter().all(|v| v.decimals == decimals));
        let extra = 3u32.saturating_sub(decimals);
        let sum: u128 = sorted.iter().map(|v| v.scaled).sum();
        let mean = Fixed::ratio(sum, n as u128, extra).map(|m| Fixed {
            scaled: m.scaled,
            decimals: decimals + extra,
        });
        let spread = dispersion::spread(&sorted, decimals + extra);
        Stats {
            n,
            mean,
            std: spread.map(|(std, _)| std),
            ci95_half_width: spread.map(|(_, half)| half),
            p50: nearest_rank(&sorted, 50),
            p95: nearest_rank(&sorted, 95),
            max: sorted.last().copied(),
        }
    }
}

/// One strategy's part of a sweep at one point.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StrategySweep {
    /// The strategy.
    pub strategy: String,
    /// Runs made (one per seed).
    pub runs: usize,
    /// Seeds whose run stopped as infeasible, ascending.
    pub infeasible_seeds: Vec<u64>,
    /// Statistics per flat metric, in [`flat_metrics`] order, over
    /// the completed runs.
    pub metrics: Vec<(String, Stats)>,
}

/// One point of a sweep: its parameter values, each strategy's part, and
/// the strategies compared with the baseline.
#[derive(Debug, Clone, PartialEq)]
pub struct PointSweep {
    /// The parameter values (none when no parameter varies).
    pub settings: Vec<Setting>,
    /// Per strategy, in the order strategies first appear.
    pub strategies: Vec<StrategySweep>,
    /// Every other strategy against the baseline, seed by seed, in the
    /// same order.
    pub paired: PointPaired,
}

/// Aggregates figures per point (in point order) and strategy (in the order
/// strategies first appear), and compares every strategy with `baseline`
/// on the same seeds ([`PointPaired`]; a baseline that did not run leaves
/// nothing to compare: `n` is 0).
pub fn aggregate(figures: &[RunFigures], baseline: &str) -> Vec<PointSweep> {
    let mut points: Vec<usize> = figures.iter().map(|f| f.point).collect();
    points.sort_unstable();
    points.dedup();
    points
        .into_iter()
        .map(|point| {
            let runs: Vec<&RunFigures> = figures.iter().filter(|f| f.point == point).collect();
            let order = strategy_order(&runs);
            PointSweep {
                settings: runs[0].settings.clone(),
                strategies: by_strategy(&runs, &order),
                paired: paired::pair(&runs, &order, baseline),
            }
        })
        .collect()
}

/// The strategies of `figures`, in the order they first appear.
fn strategy_order<'a>(figures: &[&'a RunFigures]) -> Vec<&'a str> {
    let mut order: Vec<&str> = Vec::new();
    for f in figures {
        if !order.contains(&f.strategy.as_str()) {
            order.push(&f.strategy);
        }
    }
    order
}

/// The statistics of one point's runs, per strategy of `order`.
fn by_strategy(figures: &[&RunFigures], order: &[&str]) -> Vec<StrategySweep> {
    order
        .iter()
        .copied()
        .map(|strategy| {
            let runs: Vec<&RunFigures> = figures
                .iter()
                .copied()
                .filter(|f| f.strategy == strategy)
                .collect();
            let completed: Vec<&RunFigures> =
                runs.iter().copied().filter(|f| f.completed).collect();
            let keys: Vec<&String> = runs
                .first()
                .map(|f| f.metrics.iter().map(|(k, _)| k).collect())
                .unwrap_or_default();
            let metrics = keys
                .into_iter()
                .map(|key| {
                    let values: Vec<Fixed> = completed
                        .iter()
                        .filter_map(|f| f.metrics.iter().find(|(k, _)| k == key))
                        .filter_map(|(_, v)| *v)
                        .collect();
                    (key.clone(), Stats::of(&values))
                })
                .collect();
            StrategySweep {
                strategy: strategy.to_string(),
                runs: runs.len(),
                infeasible_seeds: runs
                    .iter()
                    .filter(|f| !f.completed)
                    .map(|f| f.seed)
                    .collect(),
                metrics,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::run::units::{Millis, SimTime};
    use crate::sim::run::{RunMetrics, Sample};

    fn secs(ms: u64) -> Fixed {
        Fixed::seconds(Millis::new(ms))
    }

    #[test]
    fn stats_by_hand() {
        // Unsorted on purpose: 3.000, 1.000, 2.500, 10.000 seconds.
        let values = [secs(3_000), secs(1_000), secs(2_500), secs(10_000)];
        let st = Stats::of(&values);
        assert_eq!(st.n, 4);
        // (3 + 1 + 2.5 + 10) / 4 = 4.125.
        assert_eq!(st.mean.unwrap().to_string(), "4.125");
        assert_eq!(st.p50.unwrap().to_string(), "2.500"); // sorted [1, 2.5, 3, 10], rank 2
        assert_eq!(st.p95.unwrap().to_string(), "10.000"); // rank ⌈3.8⌉ = 4
        assert_eq!(st.max.unwrap().to_string(), "10.000");

        // Integers: 1, 2, 2 → mean 5/3 = 1.667 (half up), p50 rank 2 = 2.
        let ints = [Fixed::int(2), Fixed::int(1), Fixed::int(2)];
        let st = Stats::of(&ints);
        assert_eq!(st.mean.unwrap().to_string(), "1.667");
        assert_eq!(st.p50.unwrap().to_string(), "2");

        // 1.000 and 1.001 s: mean 1.0005, rounded half up to 1.001.
        let st = Stats::of(&[secs(1_000), secs(1_001)]);
        assert_eq!(st.mean.unwrap().to_string(), "1.001");
        assert_eq!(st.p50.unwrap().to_string(), "1.000"); // rank ⌈1⌉ = 1

        // Spread of 3, 1, 2.5, 10 s: mean 4.125; squared deviations
        // 1.265625 + 9.765625 + 2.640625 + 34.515625 = 48.1875;
        // std = √(48.1875 / 3) = √16.0625 = 4.00780… → 4.008;
        // t(0.975, 3) = 3.182: 3.182 × 4.00780 / 2 = 6.37641… → 6.376.
        let st = Stats::of(&values);
        assert_eq!(st.std.unwrap().to_string(), "4.008");
        assert_eq!(st.ci95_half_width.unwrap().to_string(), "6.376");
        // One value: no spread.
        let one = Stats::of(&[secs(1_000)]);
        assert_eq!((one.std, one.ci95_half_width), (None, None));

        let none = Stats::of(&[]);
        assert_eq!(
            (none.n, none.mean, none.p50, none.max),
            (0, None, None, None)
        );
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
            metrics: flat_metrics(&result, false),
        }
    }

    fn sample_figures() -> Vec<RunFigures> {
        vec![
            figures(1, "kip441", 1_000, true),
            figures(1, "heron-rr", 9_000, false),
            figures(2, "kip441", 3_000, true),
            figures(2, "heron-rr", 4_000, true),
            figures(3, "kip441", 2_000, true),
            figures(3, "heron-rr", 5_000, true),
        ]
    }

    #[test]
    fn aggregate_by_strategy_over_completed_runs() {
        let points = aggregate(&sample_figures(), "kip441");
        assert_eq!(points.len(), 1);
        assert!(points[0].settings.is_empty());
        let sweep = &points[0].strategies;
        assert_eq!(sweep.len(), 2);
        assert_eq!(sweep[0].strategy, "kip441");
        assert_eq!(sweep[1].strategy, "heron-rr");
        assert_eq!(sweep[1].infeasible_seeds, vec![1]);
        assert_eq!(sweep[1].runs, 3);
        let get = |s: &StrategySweep, key: &str| {
            s.metrics.iter().find(|(k, _)| k == key).unwrap().1.clone()
        };
        let unavailable = get(&sweep[0], "unavailable_task_s.stateful");
        assert_eq!(unavailable.n, 3);
        assert_eq!(unavailable.mean.unwrap().to_string(), "2.000");
        assert_eq!(unavailable.p50.unwrap().to_string(), "2.000");
        assert_eq!(unavailable.max.unwrap().to_string(), "3.000");
        // 1, 3, 2 s: std 1, half-width 4.303 / √3 = 2.484.
        assert_eq!(unavailable.std.unwrap().to_string(), "1.000");
        assert_eq!(unavailable.ci95_half_width.unwrap().to_string(), "2.484");
        // heron-rr's infeasible seed 1 (9 s) is left out.
        assert_eq!(
            get(&sweep[1], "unavailable_task_s.stateful").max,
            Some(secs(5_000))
        );
        // Converged only on seed 2: one value.
        let converge = get(&sweep[0], "time_to_converge_s");
        assert_eq!((converge.n, converge.max), (1, Some(secs(2_000))));
        // No standbys asked: coverage has no value at all.
        assert_eq!(get(&sweep[0], "standby_coverage").n, 0);

        // heron-rr against kip441 on seeds 2 and 3 (its seed 1 stopped):
        // 4 − 3 and 5 − 2 s.
        let paired = &points[0].paired;
        assert_eq!(paired.baseline, "kip441");
        assert_eq!(paired.strategies.len(), 1);
        assert_eq!(paired.strategies[0].strategy, "heron-rr");
        let (key, down) = &paired.strategies[0].metrics[0];
        assert_eq!(key, "unavailable_task_s.stateful");
        assert_eq!((down.n, down.higher), (2, 2));
        assert_eq!(down.mean_difference.unwrap().to_string(), "2.000");
    }

    #[test]
    fn aggregate_groups_by_point_then_strategy() {
        let setting = |v: i64| {
            vec![Setting {
                key: "config.max_warmup_replicas".to_string(),
                value: toml::Value::Integer(v),
            }]
        };
        let mut all = Vec::new();
        for (point, warmups) in [(0, 1), (1, 4)] {
            for f in sample_figures() {
                all.push(RunFigures {
                    point,
                    settings: setting(warmups),
                    // The second point's runs are down twice as long.
                    metrics: f
                        .metrics
                        .iter()
                        .map(|(k, v)| {
                            let v = v.map(|x| Fixed {
                                scaled: x.scaled * (point as u128 + 1),
                                ..x
                            });
                            (k.clone(), v)
                        })
                        .collect(),
                    ..f
                });
            }
        }
        let points = aggregate(&all, "kip441");
        assert_eq!(points.len(), 2);
        assert_eq!(points[1].settings, setting(4));
        let mean = |p: &PointSweep| {
            let kip = &p.strategies[0];
            assert_eq!(kip.strategy, "kip441");
            let st = &kip
                .metrics
                .iter()
                .find(|(k, _)| k == "unavailable_task_s.stateful");
            st.unwrap().1.mean.unwrap().to_string()
        };
        assert_eq!(mean(&points[0]), "2.000");
        assert_eq!(mean(&points[1]), "4.000");
    }
}
