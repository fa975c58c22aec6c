//! The second block of `sweep`'s table: every strategy but the baseline
//! paired with it seed by seed (`smoothscale::sim::report::Paired`), a row
//! per point, strategy and headline metric: the count of seeds compared,
//! the mean difference, its 95% confidence interval, how many seeds came
//! out lower, higher and equal, and the verdict. The units are the
//! metrics' (the block above shows them), so the block fits 120 columns
//! beside the first.

use smoothscale::sim::overrides::label;
use smoothscale::sim::report::{Paired, PointSweep};

use super::{layout_aligned, Headline};

/// The block's column titles after the parameters.
const TITLES: [&str; 7] = [
    "strategy",
    "metric",
    "n",
    "mean diff",
    "95% CI",
    "lo/hi/eq",
    "verdict",
];

/// The key's entries for the block's columns (`n` is the first block's,
/// with [`N`]'s gloss).
pub(super) const KEY: [(&str, &str); 4] = [
    (
        "mean diff",
        "the strategy's figure minus the baseline's on the same seed (in the metric's unit), averaged \
         over the seeds where both completed with a value",
    ),
    (
        "95% CI",
        "95% confidence interval of the mean difference (Student's t); - for n < 2",
    ),
    (
        "lo/hi/eq",
        "seeds where the strategy's figure is below, above or equal to the baseline's",
    ),
    (
        "verdict",
        "lower or higher when the whole interval is below or above 0, else no significant difference",
    ),
];

/// The key's entry for `n` when the paired block is shown.
pub(super) const N: (&str, &str) = (
    "n",
    "completed runs with a value (a time that never came has none); in the paired block, \
     seeds where both runs completed with a value",
);

/// The block for `points` with `parameters` columns first, a row per point,
/// strategy other than the baseline and metric of `headlines`, under a line
/// naming the baseline; `None` when no point has another strategy.
pub(super) fn block(
    parameters: &[String],
    points: &[PointSweep],
    headlines: &[Headline],
) -> Option<String> {
    let baseline = &points.first()?.paired.baseline;
    let mut rows = vec![parameters
        .iter()
        .map(String::as_str)
        .chain(TITLES)
        .map(String::from)
        .collect::<Vec<_>>()];
    for point in points {
        let values: Vec<String> = point.settings.iter().map(|s| label(&s.value)).collect();
        for s in &point.paired.strategies {
            for h in headlines {
                let Some((_, p)) = s.metrics.iter().find(|(k, _)| k == h.key) else {
                    continue;
                };
                let mut row = values.clone();
                row.push(s.strategy.clone());
                row.push(h.column.title.to_string());
                row.extend(cells(p));
                rows.push(row);
            }
        }
    }
    if rows.len() == 1 {
        return None;
    }
    let mut out = format!(
        "paired with {baseline}: each strategy's figure minus {baseline}'s, seed by seed\n"
    );
    // Parameters, strategy and metric to the left, the figures to the
    // right, the verdict (words) to the left.
    let (names, verdict) = (parameters.len() + 2, parameters.len() + TITLES.len() - 1);
    out.push_str(&layout_aligned(&rows, &|c| c < names || c == verdict));
    Some(out)
}

/// The cells of one comparison after the strategy and metric.
fn cells(p: &Paired) -> [String; 5] {
    let interval = p
        .ci95
        .map_or_else(|| "-".to_string(), |(low, high)| format!("[{low}, {high}]"));
    [
        p.n.to_string(),
        p.mean_difference
            .map_or_else(|| "-".to_string(), |m| m.to_string()),
        interval,
        format!("{}/{}/{}", p.lower, p.higher, p.equal),
        p.verdict.as_str().to_string(),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::outputs::fixtures::sample_sweep;
    use crate::cli::table::headlines;

    #[test]
    fn a_row_per_other_strategy_and_headline_under_the_baseline() {
        let text = block(&[], &sample_sweep(), &headlines(false)).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[0],
            "paired with kip441: each strategy's figure minus kip441's, seed by seed"
        );
        assert!(
            lines[1].starts_with("strategy  metric") && lines[1].ends_with("lo/hi/eq  verdict"),
            "{text}"
        );
        assert_eq!(lines.len(), 2 + headlines(false).len(), "{text}");
        // heron-rr against kip441 on seeds 2 and 3 (its seed 1 stopped):
        // unavailable 4 − 3 = 1 and 5 − 2 = 3 s; restored records equal.
        fn cells(line: &str) -> Vec<&str> {
            line.split("  ")
                .filter(|c| !c.is_empty())
                .map(str::trim)
                .collect()
        }
        assert_eq!(
            cells(lines[2]),
            [
                "heron-rr",
                "unavailable",
                "2",
                "2.000",
                "[-10.706, 14.706]",
                "0/2/0",
                "no significant difference"
            ],
            "{text}"
        );
        assert_eq!(
            cells(lines[5])[..4],
            ["heron-rr", "restored", "2", "0.000"],
            "{text}"
        );
        // One strategy: nothing to pair.
        let mut alone = sample_sweep();
        alone[0].paired.strategies.clear();
        assert_eq!(block(&[], &alone, &headlines(false)), None);
    }
}
