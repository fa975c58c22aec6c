//! Paired comparisons with a baseline strategy, seed by seed: every
//! strategy met the same churn and perturbation on a seed (the draws come
//! before any strategy runs), so the difference of its figure and the
//! baseline's on that seed measures the strategy alone. Over the seeds
//! where both runs completed and both have a value, the differences
//! `d = strategy − baseline` give ([`Paired`]):
//!
//! - `n`, the count of differences; `lower`, `higher` and `equal`, how
//!   many are below, above and at 0 (the strategy's figure below, above or
//!   equal to the baseline's);
//! - `mean_difference`, `Σd / n`, exact, its magnitude rounded half up
//!   (away from zero, so swapping the two strategies flips the sign
//!   only), with the figures' decimals but at least 3, as a mean of
//!   [`Stats`](super::Stats);
//! - `ci95_half_width`, the half-width of the 95% confidence interval of
//!   the mean difference (Student's t with `n − 1` degrees of freedom, the
//!   table and the exact integer arithmetic of
//!   [`dispersion`](super::dispersion)), and `ci95`, the interval
//!   `[mean − half-width, mean + half-width]`; none for `n < 2`;
//! - the [`Verdict`] read from the interval as written: `lower` when it
//!   lies wholly below 0, `higher` when wholly above, else no significant
//!   difference (so too for `n < 2`, and when every difference is 0).
//!
//! No floating point: the same runs give the same bytes everywhere.

use std::collections::BTreeMap;

use super::dispersion;
use super::fixed::Fixed;
use super::signed::SignedFixed;
use super::stats::RunFigures;

/// What the 95% confidence interval of the mean difference says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// The whole interval is below 0: the strategy's figure is lower.
    Lower,
    /// The whole interval is above 0: the strategy's figure is higher.
    Higher,
    /// The interval holds 0, or there is none (`n < 2`).
    NoSignificantDifference,
}

impl Verdict {
    /// The verdict as `sweep.json` and the table write it: `lower`,
    /// `higher` or `no significant difference`.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Lower => "lower",
            Verdict::Higher => "higher",
            Verdict::NoSignificantDifference => "no significant difference",
        }
    }
}

/// One metric of one strategy against the baseline, over the seeds where
/// both completed with a value (module doc).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Paired {
    /// Differences (seeds where both runs completed and have a value).
    pub n: usize,
    /// The mean difference, strategy − baseline; none for `n = 0`.
    pub mean_difference: Option<SignedFixed>,
    /// Half the width of the 95% confidence interval of the mean
    /// difference, its decimals; none for `n < 2`.
    pub ci95_half_width: Option<Fixed>,
    /// The interval `(mean − half-width, mean + half-width)`; none for
    /// `n < 2`.
    pub ci95: Option<(SignedFixed, SignedFixed)>,
    /// Seeds where the strategy's figure is below the baseline's.
    pub lower: usize,
    /// Seeds where it is above.
    pub higher: usize,
    /// Seeds where they are equal.
    pub equal: usize,
    /// What the interval says.
    pub verdict: Verdict,
}

impl Paired {
    /// The comparison of `pairs`, each `(strategy's figure, baseline's
    /// figure)` on one seed. Figures with other decimals than the others
    /// (never those of one metric) are compared at the most decimals.
    pub fn of(pairs: &[(Fixed, Fixed)]) -> Paired {
        let decimals = pairs
            .iter()
            .map(|(a, b)| a.decimals.max(b.decimals))
            .max()
            .unwrap_or(0);
        let differences: Vec<SignedFixed> = pairs
            .iter()
            .map(|&(a, b)| SignedFixed::difference(a.rescaled(decimals), b.rescaled(decimals)))
            .collect();
        let count = |keep: fn(&SignedFixed) -> bool| differences.iter().filter(|d| keep(d)).count();
        let mean_decimals = decimals.max(3);
        let mean_difference = mean(&differences, mean_decimals);
        let ci95_half_width =
            dispersion::spread_signed(&differences, mean_decimals).map(|(_, half)| half);
        let ci95 = mean_difference
            .zip(ci95_half_width)
            .map(|(m, half)| (m.minus(half), m.plus(half)));
        let verdict = match ci95 {
            Some((_, high)) if high.is_negative() => Verdict::Lower,
            Some((low, _)) if low.is_positive() => Verdict::Higher,
            _ => Verdict::NoSignificantDifference,
        };
        Paired {
            n: differences.len(),
            mean_difference,
            ci95_half_width,
            ci95,
            lower: count(|d| d.is_negative()),
            higher: count(|d| d.is_positive()),
            equal: count(|d| d.is_zero()),
            verdict,
        }
    }
}

/// The mean of `differences` (all with the same decimals) with `decimals`
/// decimals (at least theirs), its magnitude rounded half up; none when
/// there are none. Exact while the sums fit 128 bits (a run's figures are
/// u64 counts, so any sweep's do).
fn mean(differences: &[SignedFixed], decimals: u32) -> Option<SignedFixed> {
    let from = differences.first()?.magnitude().decimals;
    let sum_of = |negative: bool| {
        differences
            .iter()
            .filter(|d| d.is_negative() == negative)
            .fold(0u128, |acc, d| acc.saturating_add(d.magnitude().scaled))
    };
    let (above, below) = (sum_of(false), sum_of(true));
    let (negative, net) = if below > above {
        (true, below - above)
    } else {
        (false, above - below)
    };
    let magnitude = Fixed::ratio(net, differences.len() as u128, decimals - from)?;
    Some(SignedFixed::new(
        negative,
        Fixed {
            scaled: magnitude.scaled,
            decimals,
        },
    ))
}

/// One strategy against the baseline at one point: a [`Paired`] per flat
/// metric, in [`flat_metrics`](super::flat_metrics) order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StrategyPaired {
    /// The strategy.
    pub strategy: String,
    /// The comparison per flat metric.
    pub metrics: Vec<(String, Paired)>,
}

/// Every strategy of one point against its baseline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PointPaired {
    /// The strategy the others are compared with.
    pub baseline: String,
    /// Every other strategy, in the order given.
    pub strategies: Vec<StrategyPaired>,
}

/// The runs of one point compared with `baseline`'s: each strategy of
/// `order` but the baseline, seed by seed. A strategy whose runs are not
/// there, or a baseline that did not run, gives `n = 0` everywhere.
pub(crate) fn pair(runs: &[&RunFigures], order: &[&str], baseline: &str) -> PointPaired {
    let by_seed: BTreeMap<u64, &RunFigures> = runs
        .iter()
        .filter(|f| f.strategy == baseline && f.completed)
        .map(|f| (f.seed, *f))
        .collect();
    let keys: Vec<&str> = runs
        .first()
        .map(|f| f.metrics.iter().map(|(k, _)| k.as_str()).collect())
        .unwrap_or_default();
    let strategies = order
        .iter()
        .filter(|s| **s != baseline)
        .map(|&strategy| {
            let matched: Vec<(&RunFigures, &RunFigures)> = runs
                .iter()
                .filter(|f| f.strategy == strategy && f.completed)
                .filter_map(|f| by_seed.get(&f.seed).map(|b| (*f, *b)))
                .collect();
            let metrics = keys
                .iter()
                .enumerate()
                .map(|(i, key)| {
                    let pairs: Vec<(Fixed, Fixed)> = matched
                        .iter()
                        .filter_map(|(f, b)| value(f, i, key).zip(value(b, i, key)))
                        .collect();
                    (key.to_string(), Paired::of(&pairs))
                })
                .collect();
            StrategyPaired {
                strategy: strategy.to_string(),
                metrics,
            }
        })
        .collect();
    PointPaired {
        baseline: baseline.to_string(),
        strategies,
    }
}

/// The value of metric `key` of `run`, found at `at` (where every run of a
/// sweep has it) or else by name; none when null or absent.
fn value(run: &RunFigures, at: usize, key: &str) -> Option<Fixed> {
    match run.metrics.get(at) {
        Some((k, v)) if k == key => *v,
        _ => run
            .metrics
            .iter()
            .find(|(k, _)| k == key)
            .and_then(|(_, v)| *v),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(ms: u128) -> Fixed {
        Fixed {
            scaled: ms,
            decimals: 3,
        }
    }

    /// Each field as the documents write it.
    fn shown(p: &Paired) -> (usize, String, String, String, [usize; 3], &'static str) {
        let text = |v: Option<String>| v.unwrap_or_else(|| "null".to_string());
        (
            p.n,
            text(p.mean_difference.map(|m| m.to_string())),
            text(p.ci95_half_width.map(|h| h.to_string())),
            text(p.ci95.map(|(l, h)| format!("[{l}, {h}]"))),
            [p.lower, p.higher, p.equal],
            p.verdict.as_str(),
        )
    }

    #[test]
    fn a_clearly_lower_strategy() {
        // Differences −3, −1, −2 s: mean −2; deviations 1, 1, 0: std 1;
        // half-width t(2) × 1 / √3 = 4.303 / 1.7320508 = 2.4843… → 2.484;
        // CI [−4.484, 0.484]: crosses 0. With −13, −11, −12 it does not:
        // [−14.484, −9.516].
        let crossing = [
            (secs(1_000), secs(4_000)),
            (secs(5_000), secs(6_000)),
            (secs(2_000), secs(4_000)),
        ];
        assert_eq!(
            shown(&Paired::of(&crossing)),
            (
                3,
                "-2.000".into(),
                "2.484".into(),
                "[-4.484, 0.484]".into(),
                [3, 0, 0],
                "no significant difference"
            )
        );
        let clear = [
            (secs(1_000), secs(14_000)),
            (secs(5_000), secs(16_000)),
            (secs(2_000), secs(14_000)),
        ];
        assert_eq!(
            shown(&Paired::of(&clear)),
            (
                3,
                "-12.000".into(),
                "2.484".into(),
                "[-14.484, -9.516]".into(),
                [3, 0, 0],
                "lower"
            )
        );
        // Swapped: the signs flip, the verdict too.
        let swapped: Vec<(Fixed, Fixed)> = clear.iter().map(|&(a, b)| (b, a)).collect();
        let p = Paired::of(&swapped);
        assert_eq!(shown(&p).3, "[9.516, 14.484]");
        assert_eq!((p.higher, p.verdict), (3, Verdict::Higher));
    }

    #[test]
    fn mixed_signs_and_integer_figures() {
        // Moves (integers) 5 − 3, 2 − 4, 6 − 3, 4 − 4: differences 2, −2,
        // 3, 0; mean 3/4 = 0.750 (3 decimals for integers); Σd = 3,
        // deviations n·dᵢ − Σd = 5, −11, 9, −3: Σ² = 25 + 121 + 81 + 9 = 236;
        // std² = 236 / (16 × 3) = 4.91667, std = 2.21736;
        // half-width t(3) × std / √4 = 3.182 × 2.21736 / 2 = 3.52782… → 3.528;
        // CI [0.750 − 3.528, 0.750 + 3.528] = [−2.778, 4.278].
        let int = Fixed::int;
        let pairs = [
            (int(5), int(3)),
            (int(2), int(4)),
            (int(6), int(3)),
            (int(4), int(4)),
        ];
        assert_eq!(
            shown(&Paired::of(&pairs)),
            (
                4,
                "0.750".into(),
                "3.528".into(),
                "[-2.778, 4.278]".into(),
                [1, 2, 1],
                "no significant difference"
            )
        );
        // A negative mean that rounds to zero prints 0.000: −1 + 0 + 0 over
        // 3000 seeds would be −0.000333…; with three integers −1, 1, −1
        // and 0 × 2997 it is −1/3000.
        let mut tiny = vec![(int(0), int(1)), (int(1), int(0)), (int(0), int(1))];
        tiny.extend(std::iter::repeat_n((int(2), int(2)), 2_997));
        let p = Paired::of(&tiny);
        assert_eq!(p.mean_difference.unwrap().to_string(), "0.000");
        assert_eq!([p.lower, p.higher, p.equal], [2, 1, 2_997]);
    }

    #[test]
    fn all_equal_one_pair_and_none() {
        let same = [(secs(1_500), secs(1_500)), (secs(0), secs(0))];
        assert_eq!(
            shown(&Paired::of(&same)),
            (
                2,
                "0.000".into(),
                "0.000".into(),
                "[0.000, 0.000]".into(),
                [0, 0, 2],
                "no significant difference"
            )
        );
        // One pair: a mean, no interval, no verdict.
        assert_eq!(
            shown(&Paired::of(&[(secs(1_000), secs(2_500))])),
            (
                1,
                "-1.500".into(),
                "null".into(),
                "null".into(),
                [1, 0, 0],
                "no significant difference"
            )
        );
        assert_eq!(
            shown(&Paired::of(&[])),
            (
                0,
                "null".into(),
                "null".into(),
                "null".into(),
                [0, 0, 0],
                "no significant difference"
            )
        );
        // A constant non-zero difference has a zero-width interval off 0.
        let shifted = [(secs(2_000), secs(1_000)), (secs(3_000), secs(2_000))];
        assert_eq!(Paired::of(&shifted).verdict, Verdict::Higher);
    }

    #[test]
    fn huge_values_stay_exact() {
        // u64::MAX against 0 and 0 against u64::MAX: differences ±max, mean
        // 0; std = max·√2; half-width t(1) × std / √2 = 12.706 × max.
        let max = Fixed::int(u64::MAX);
        let zero = Fixed::int(0);
        let p = Paired::of(&[(max, zero), (zero, max)]);
        let m = u128::from(u64::MAX);
        let half = Fixed {
            scaled: m * 12_706,
            decimals: 3,
        };
        assert_eq!(p.mean_difference.unwrap().to_string(), "0.000");
        assert_eq!(p.ci95_half_width, Some(half));
        let (low, high) = p.ci95.unwrap();
        assert_eq!(low.to_string(), format!("-{half}"));
        assert_eq!(high.to_string(), half.to_string());
        assert_eq!([p.lower, p.higher, p.equal], [1, 1, 0]);
    }

    #[test]
    fn mixed_decimals_compare_at_the_most() {
        // 1.5 (1 decimal) − 1.25 (2) = 0.25, and 2 − 2.5 = −0.5 (integers
        // and tenths): differences 0.25 and −0.5 at 2 decimals, mean
        // −0.125 at 3.
        let d = |scaled, decimals| Fixed { scaled, decimals };
        let p = Paired::of(&[(d(15, 1), d(125, 2)), (d(2, 0), d(25, 1))]);
        assert_eq!(p.mean_difference.unwrap().to_string(), "-0.125");
        assert_eq!([p.lower, p.higher, p.equal], [1, 1, 0]);
        // std of 0.25, −0.5: √(0.28125) = 0.53033; half-width
        // 12.706 × 0.53033 / √2 = 4.76475 → 4.765.
        assert_eq!(p.ci95_half_width.unwrap().to_string(), "4.765");
    }

    fn run(seed: u64, strategy: &str, completed: bool, down: Option<u128>) -> RunFigures {
        RunFigures {
            point: 0,
            settings: Vec::new(),
            seed,
            strategy: strategy.to_string(),
            completed,
            metrics: vec![
                ("down_s".to_string(), down.map(secs)),
                ("moves".to_string(), Some(Fixed::int(seed))),
            ],
        }
    }

    #[test]
    fn pairs_are_matched_by_seed_over_completed_runs_with_values() {
        let runs = [
            run(1, "kip441", true, Some(4_000)),
            run(1, "sticky", true, Some(1_000)),
            run(1, "smooth", false, Some(0)),
            run(2, "kip441", true, None),
            run(2, "sticky", true, Some(3_000)),
            run(2, "smooth", true, Some(2_000)),
            run(3, "kip441", false, Some(9_000)),
            run(3, "sticky", true, Some(3_000)),
            run(3, "smooth", true, Some(2_000)),
            run(4, "kip441", true, Some(5_000)),
            run(4, "sticky", true, Some(5_000)),
            run(4, "smooth", true, Some(2_000)),
        ];
        let refs: Vec<&RunFigures> = runs.iter().collect();
        let paired = pair(&refs, &["kip441", "sticky", "smooth"], "kip441");
        assert_eq!(paired.baseline, "kip441");
        let names: Vec<&str> = paired
            .strategies
            .iter()
            .map(|s| s.strategy.as_str())
            .collect();
        assert_eq!(names, ["sticky", "smooth"]);
        let get = |s: usize, key: &str| {
            let (_, p) = paired.strategies[s]
                .metrics
                .iter()
                .find(|(k, _)| k == key)
                .unwrap();
            p.clone()
        };
        // sticky: seed 1 (1 − 4 = −3) and 4 (0); seed 2 has no baseline
        // value, seed 3 no completed baseline.
        let sticky = get(0, "down_s");
        assert_eq!(sticky.n, 2);
        assert_eq!(sticky.mean_difference.unwrap().to_string(), "-1.500");
        assert_eq!([sticky.lower, sticky.higher, sticky.equal], [1, 0, 1]);
        // smooth: seed 1 did not complete; seed 4 only (2 − 5 = −3).
        let smooth = get(1, "down_s");
        assert_eq!((smooth.n, smooth.ci95), (1, None));
        assert_eq!(smooth.mean_difference.unwrap().to_string(), "-3.000");
        // Moves are the seed in every run: all equal, on seeds 1, 2, 4.
        assert_eq!([get(0, "moves").n, get(0, "moves").equal], [3, 3]);
        // A baseline that did not run: nothing to compare.
        let none = pair(&refs, &["kip441", "sticky"], "optimal");
        assert!(none
            .strategies
            .iter()
            .all(|s| s.metrics.iter().all(|(_, p)| p.n == 0)));
        assert_eq!(none.strategies.len(), 2);
    }
}
