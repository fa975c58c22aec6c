//! Section 3: the migration law. On the bundled scale-out (3 clients become
//! 6), the probing rebalances and the time to converge against
//! `max_warmup_replicas` × `probing_rebalance_interval`, at the scenario's
//! restore rate and at half of it, beside the law
//! ⌈moves / warm-ups⌉ × ⌈catch-up / interval⌉ × interval and the bandwidth
//! bound moves × records / (newcomers × restore rate).

use std::collections::BTreeMap;
use std::path::Path;

use smoothscale::sim::Scenario;

use super::{claim, Paper};
use crate::fmt::{self, fixed, opt};
use crate::plot::{self, Chart, Corner, Dash, Kind};
use crate::runs;

const WARMUPS: [u32; 4] = [1, 2, 4, 8];
const INTERVALS_MIN: [u64; 3] = [1, 5, 10];
const STRATEGIES: [&str; 2] = ["kip441", "smooth"];

/// What the law needs of the scale-out.
struct Shape {
    moves: u64,
    newcomers: u64,
    records: u64,
    write_rate: u64,
}

/// Each run's convergence (s), with the law and bound it is drawn against.
#[derive(Default)]
struct Seen {
    /// By (rate label, strategy, interval in minutes, warm-ups).
    converged: BTreeMap<(&'static str, &'static str, u64, u32), Option<f64>>,
    /// The law by (rate label, interval, warm-ups).
    law: BTreeMap<(&'static str, u64, u32), f64>,
    /// The bandwidth bound by rate label.
    bound: BTreeMap<&'static str, f64>,
}

impl Seen {
    fn at(&self, label: &'static str, name: &'static str, interval: u64, w: u32) -> f64 {
        self.converged
            .get(&(label, name, interval, w))
            .copied()
            .flatten()
            .unwrap_or(f64::INFINITY)
    }

    /// Checks what the captions of figures 1 and 2 say, and fills the slow
    /// figure's ratios to the fast one.
    fn check_and_set(&self, paper: &mut Paper) -> Result<(), String> {
        let settings: Vec<(&'static str, u64, u32)> = ["fast", "slow"]
            .into_iter()
            .flat_map(|l| {
                INTERVALS_MIN
                    .into_iter()
                    .flat_map(move |i| WARMUPS.map(|w| (l, i, w)))
            })
            .collect();
        let kip = |l, i, w| self.at(l, "kip441", i, w);
        let smooth = |l, i, w| self.at(l, "smooth", i, w);
        claim(
            "kip441 converges at every setting, above the law",
            settings
                .iter()
                .all(|&(l, i, w)| kip(l, i, w).is_finite() && kip(l, i, w) > self.law[&(l, i, w)]),
        )?;
        // How far above: measured / law per setting (the table's column).
        let over: Vec<f64> = settings
            .iter()
            .map(|&(l, i, w)| kip(l, i, w) / self.law[&(l, i, w)])
            .collect();
        let (over_low, over_high) = range(&over);
        // A law that fitted would leave a constant ratio, give or take a
        // probing interval.
        claim(
            "the law does not fit kip441: its measured / law ratio more than doubles across the settings",
            over_high >= 2.0 * over_low,
        )?;
        paper.set("migration.over_low", fmt::num(over_low, 2));
        paper.set("migration.over_high", fmt::num(over_high, 2));
        claim(
            "kip441's convergence falls from 1 to 2 to 4 warm-ups",
            settings
                .iter()
                .filter(|&&(_, _, w)| w < 4)
                .all(|&(l, i, w)| kip(l, i, 2 * w) < kip(l, i, w)),
        )?;
        // From 4 to 8 warm-ups: kip441's convergence and the law's, 8 over 4.
        let fours: Vec<(&'static str, u64)> = settings
            .iter()
            .filter(|&&(_, _, w)| w == 4)
            .map(|&(l, i, _)| (l, i))
            .collect();
        let kip_8_4: Vec<f64> = fours
            .iter()
            .map(|&(l, i)| kip(l, i, 8) / kip(l, i, 4))
            .collect();
        let law_8_4: Vec<f64> = fours
            .iter()
            .map(|&(l, i)| self.law[&(l, i, 8)] / self.law[&(l, i, 4)])
            .collect();
        let (kip_low, kip_high) = range(&kip_8_4);
        let (law_low, law_high) = range(&law_8_4);
        claim(
            "from 4 to 8 warm-ups kip441 no longer improves",
            kip_low >= 1.0,
        )?;
        claim(
            "from 4 to 8 warm-ups the law halves",
            (law_low - 0.5).abs() < 1e-9 && (law_high - 0.5).abs() < 1e-9,
        )?;
        paper.set("migration.flat_low", fmt::num(kip_low, 2));
        paper.set("migration.flat_high", fmt::num(kip_high, 2));
        paper.set("migration.law_8_4", fmt::num(law_low, 2));
        claim(
            "kip441 stays above the bandwidth bound",
            settings
                .iter()
                .all(|&(l, i, w)| kip(l, i, w) > self.bound[l]),
        )?;
        claim(
            "smooth converges earlier than kip441 at every setting",
            settings
                .iter()
                .all(|&(l, i, w)| smooth(l, i, w) < kip(l, i, w)),
        )?;
        for name in STRATEGIES {
            let ratios: Vec<f64> = settings
                .iter()
                .filter(|&&(l, _, _)| l == "fast")
                .map(|&(_, i, w)| self.at("slow", name, i, w) / self.at("fast", name, i, w))
                .collect();
            let low = ratios.iter().copied().fold(f64::INFINITY, f64::min);
            let high = ratios.iter().copied().fold(0.0, f64::max);
            paper.set(&format!("migration.{name}.slow_low"), fmt::num(low, 1));
            paper.set(&format!("migration.{name}.slow_high"), fmt::num(high, 1));
        }
        Ok(())
    }
}

/// The least and the greatest of `values`.
fn range(values: &[f64]) -> (f64, f64) {
    values
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &v| {
            (lo.min(v), hi.max(v))
        })
}

/// Places on the migration figures, in words: their warm-up counts.
fn warm_ups(at: &[(f64, f64)]) -> String {
    let counts: Vec<String> = at.iter().map(|p| fmt::num(p.0, 0)).collect();
    let unit = if counts == ["1"] {
        "warm-up"
    } else {
        "warm-ups"
    };
    format!("{} {unit}", plot::and_list(&counts))
}

fn shape(s: &Scenario) -> Result<Shape, String> {
    let newcomers = runs::newcomers(s);
    let first = s
        .subtopologies
        .iter()
        .find(|t| t.stateful)
        .ok_or("scale-out has no stateful subtopology")?;
    let after = u64::from(s.cluster.clients) + newcomers;
    Ok(Shape {
        moves: (runs::stateful_replicas(s) * newcomers).div_ceil(after),
        newcomers,
        records: first.state_records,
        write_rate: first.write_rate,
    })
}

/// Runs the grid, draws one chart per restore rate.
///
/// # Errors
///
/// A run that fails or a chart that cannot be drawn.
pub fn section(root: &Path, paper: &mut Paper) -> Result<(), String> {
    let base = runs::scenario(root, "scale-out")?;
    claim(
        "the scale-out is the same run at every seed",
        runs::seed_free(&base),
    )?;
    paper.set("migration.seed", runs::seeds_text(1));
    let law = shape(&base)?;
    let fast_rate = base.cluster.restore_rate;
    let rates = [("fast", fast_rate), ("slow", fast_rate / 2)];
    let mut variants = Vec::new();
    for (_, rate) in rates {
        for interval in INTERVALS_MIN {
            for w in WARMUPS {
                let mut s = base.clone();
                s.duration_ms = 24 * 3_600_000;
                s.cluster.restore_rate = rate;
                s.config.max_warmup_replicas = w;
                s.config.probing_rebalance_interval_ms = interval * 60_000;
                variants.push(s);
            }
        }
    }
    let jobs = runs::jobs(&variants, &runs::strategies(&STRATEGIES)?, 1);
    let done = runs::run_all(&jobs)?;
    let mut csv = String::from(
        "restore_rate,interval_min,max_warmup_replicas,strategy,probing_rebalances,converged_s,law_s,bandwidth_bound_s\n",
    );
    let mut rows = Vec::new();
    let mut charts = Vec::new();
    let mut seen = Seen::default();
    // The runs of each variant, in the order the variants were made.
    let mut variant_runs = done.chunks(STRATEGIES.len());
    for (label, rate) in rates {
        let catch_up = law.records as f64 / (rate - law.write_rate) as f64;
        let bound = (law.moves * law.records) as f64 / (law.newcomers * rate) as f64;
        let mut chart = Chart::new(
            &format!(
                "Scale-out 3 → 6 clients, restore {} records/s: convergence",
                fmt::int(rate)
            ),
            "max_warmup_replicas (warm-ups at once)",
            "assignment and data converged after the scale-out (h)",
        );
        chart.legend = Corner::UpperRight;
        for (i, interval) in INTERVALS_MIN.iter().enumerate() {
            let mut measured = Vec::new();
            let mut predicted = Vec::new();
            let mut smooth = Vec::new();
            for w in WARMUPS {
                let runs_here = variant_runs.next().ok_or("a variant without runs")?;
                let interval_s = (interval * 60) as f64;
                let rounds = law.moves.div_ceil(u64::from(w)) as f64;
                let law_s = rounds * (catch_up / interval_s).ceil() * interval_s;
                predicted.push((f64::from(w), law_s / 3600.0));
                seen.law.insert((label, *interval, w), law_s);
                for (name, d) in STRATEGIES.iter().zip(runs_here) {
                    let f = d;
                    let converge = d.converged();
                    seen.converged
                        .insert((label, *name, *interval, w), converge.map(|c| c.to_f64()));
                    if let Some(c) = converge {
                        let point = (f64::from(w), c.to_f64() / 3600.0);
                        if *name == "kip441" {
                            measured.push(point);
                        } else {
                            smooth.push(point);
                        }
                    }
                    csv.push_str(&format!(
                        "{rate},{interval},{w},{name},{},{},{law_s:.0},{bound:.0}\n",
                        f.figure("rebalances.probing"),
                        fmt::cell(converge)
                    ));
                    let over = match converge {
                        Some(c) if *name == "kip441" => fmt::num(c.to_f64() / law_s, 2),
                        _ => "–".to_string(),
                    };
                    rows.push(vec![
                        fmt::int(rate),
                        format!("{interval} min"),
                        w.to_string(),
                        (*name).to_string(),
                        fixed(f.figure("rebalances.probing")),
                        opt(converge),
                        fmt::num(law_s, 0),
                        over,
                    ]);
                }
            }
            let color = plot::color("", [2, 5, 6][i]);
            chart
                .add(
                    &format!("kip441, probing every {interval} min"),
                    color,
                    Kind::LinePoints,
                    measured,
                )
                .name = format!("kip441 probing every {interval} min");
            chart
                .add(
                    &format!("law, {interval} min"),
                    color,
                    Kind::Line(Dash::Dashed),
                    predicted,
                )
                .name = format!("the law for {interval} min");
            chart
                .add(
                    if i == 0 { "smooth (all intervals)" } else { "" },
                    plot::color("smooth", 0),
                    Kind::Points,
                    smooth,
                )
                .name = format!("smooth probing every {interval} min");
        }
        chart
            .add(
                "bandwidth bound",
                plot::GREY,
                Kind::Line(Dash::Dashed),
                vec![(1.0, bound / 3600.0), (8.0, bound / 3600.0)],
            )
            .name = "the bandwidth bound".into();
        seen.bound.insert(label, bound);
        paper.set(&format!("migration.{label}.rate"), fmt::int(rate));
        paper.set(
            &format!("migration.{label}.catch_up"),
            fmt::num(catch_up, 0),
        );
        paper.set(&format!("migration.{label}.bound"), fmt::num(bound, 0));
        charts.push((label, chart));
    }
    paper.set("migration.moves", law.moves.to_string());
    paper.set("migration.newcomers", law.newcomers.to_string());
    paper.set("migration.records", fmt::int(law.records));
    paper.set("migration.write_rate", fmt::int(law.write_rate));
    paper.set(
        "migration.table",
        fmt::table(
            &[
                "restore rate (records/s)",
                "probing interval",
                "max_warmup_replicas",
                "strategy",
                "probing rebalances",
                "assignment and data converged (s)",
                "law (s)",
                "kip441 measured / law",
            ],
            4,
            &rows,
        ),
    );
    seen.check_and_set(paper)?;
    for (label, chart) in charts {
        paper.figure(&format!("migration-{label}"), &chart, &warm_ups)?;
    }
    paper.data("migration", csv);
    Ok(())
}
