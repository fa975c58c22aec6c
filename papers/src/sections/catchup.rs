//! Section 5: when warm-ups never catch up. The bundled scale-out with every
//! stateful task writing faster and faster: time until assignment and data
//! converged (the later of a settled plan and every restore done), against the write / restore ratio of a
//! client in the balanced end state (its share of stateful replicas × a
//! task's write rate, over a client's restore rate).

use std::path::Path;

use smoothscale::sim::EventKind;

use super::{claim, Paper};
use crate::fmt::{self, opt};
use crate::plot::{self, Chart, Corner, Kind};
use crate::runs;

/// A balanced client's writes to follow, as thousandths of its restore rate.
const RATIOS_MILLI: [u64; 10] = [0, 200, 400, 500, 600, 700, 800, 900, 1000, 1100];
const STRATEGIES: [&str; 3] = ["kip441", "kip441-learner", "smooth"];

/// Runs the grid, draws the chart.
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
    let scale_out_ms = base
        .events
        .iter()
        .find(|e| matches!(e.kind, EventKind::ScaleOut { .. }))
        .map(|e| e.at_ms)
        .ok_or("scale-out has no scale-out event")?;
    // What the run leaves after the scale-out: the horizon of "converged".
    let horizon_s = (base.duration_ms - scale_out_ms) as f64 / 1000.0;
    let interval_s = (base.config.probing_rebalance_interval_ms / 1000) as f64;
    let rate = base.cluster.restore_rate;
    let replicas = runs::stateful_replicas(&base);
    let clients_after = u64::from(base.cluster.clients) + runs::newcomers(&base);
    let per_client = replicas.div_ceil(clients_after);
    let variants: Vec<_> = RATIOS_MILLI
        .iter()
        .map(|&r| {
            let mut s = base.clone();
            for t in s.subtopologies.iter_mut().filter(|t| t.stateful) {
                t.write_rate = rate * r / 1000 / per_client;
            }
            s
        })
        .collect();
    let jobs = runs::jobs(&variants, &runs::strategies(&STRATEGIES)?, 1);
    let done = runs::run_all(&jobs)?;
    let mut chart = Chart::new(
        "Scale-out 3 → 6 clients: convergence against write / restore rate",
        "writes a balanced client follows / its restore rate",
        "assignment and data converged after the scale-out (h)",
    );
    chart.legend = Corner::UpperLeft;
    let mut rows = Vec::new();
    let mut csv = String::from("write_over_restore,strategy,converged_s,converge_s,restores_done_s,probing_rebalances,unavailable_task_s\n");
    let mut first_never: Vec<String> = Vec::new();
    // Per strategy: where it converged, (ratio, seconds).
    let mut converged_at: Vec<Vec<(f64, f64)>> = Vec::new();
    // kip441's probing rebalances where it did not converge.
    let mut kip441_probes_never: Vec<f64> = Vec::new();
    for (k, name) in STRATEGIES.iter().enumerate() {
        let mut points = Vec::new();
        for (i, r) in RATIOS_MILLI.iter().enumerate() {
            let d = &done[i * STRATEGIES.len() + k];
            let f = d;
            let ratio = *r as f64 / 1000.0;
            let converged = d.converged();
            if let Some(c) = converged {
                points.push((ratio, c.to_f64() / 3600.0));
                if first_never.len() == k {
                    converged_at.resize(k + 1, Vec::new());
                    converged_at[k].push((ratio, c.to_f64()));
                }
            } else {
                if first_never.len() == k {
                    first_never.push(format!("{name} from {ratio:.2}"));
                }
                if *name == "kip441" {
                    kip441_probes_never.push(f.figure("rebalances.probing").to_f64());
                }
            }
            csv.push_str(&format!(
                "{ratio:.3},{name},{},{},{},{},{}\n",
                fmt::cell(converged),
                fmt::cell(f.maybe("time_to_converge_s")),
                fmt::cell(f.maybe("time_to_restores_done_s")),
                f.figure("rebalances.probing"),
                f.figure("unavailable_task_s.total")
            ));
            let within = |v| opt(v).replace("never", "not within the run");
            rows.push(vec![
                format!("{ratio:.2}"),
                (*name).to_string(),
                within(converged),
                within(f.maybe("time_to_converge_s")),
                within(f.maybe("time_to_restores_done_s")),
                fmt::fixed(f.figure("rebalances.probing")),
                fmt::fixed(f.figure("unavailable_task_s.total")),
            ]);
        }
        if first_never.len() == k {
            first_never.push(format!("{name} converged at every ratio"));
        }
        converged_at.resize(k + 1, Vec::new());
        chart.add(name, plot::color(name, k), Kind::LinePoints, points);
    }
    // Where kip441 did not converge, its probing rebalances filled the run
    // after the scale-out: the horizon, not a proof that it never would.
    claim(
        "where kip441 does not converge, its probing rebalances fill the run",
        !kip441_probes_never.is_empty()
            && kip441_probes_never
                .iter()
                .all(|p| (p + 1.0) * interval_s >= horizon_s),
    )?;
    let kip = STRATEGIES
        .iter()
        .position(|s| *s == "kip441")
        .ok_or("kip441 is not run")?;
    let times: Vec<String> = converged_at[kip]
        .iter()
        .map(|(r, c)| format!("{} s at {r:.2}", fmt::num(*c, 0)))
        .collect();
    paper.set("catchup.kip441_times", crate::plot::and_list(&times));
    let last = converged_at[kip].last().ok_or("kip441 never converged")?;
    paper.set(
        "catchup.kip441_last_share",
        fmt::num(100.0 * last.1 / horizon_s, 0),
    );
    paper.set(
        "catchup.kip441_probes",
        fmt::num(kip441_probes_never.iter().copied().fold(0.0, f64::max), 0),
    );
    paper.set("catchup.interval_min", fmt::num(interval_s / 60.0, 0));
    paper.set("catchup.horizon_h", fmt::num(horizon_s / 3600.0, 1));
    paper.set(
        "catchup.run_h",
        fmt::num(base.duration_ms as f64 / 3_600_000.0, 0),
    );
    paper.set("catchup.seed", runs::seeds_text(1));
    paper.set("catchup.rate", fmt::int(rate));
    paper.set("catchup.first_never", first_never.join(", "));
    paper.set("catchup.per_client", per_client.to_string());
    paper.set(
        "catchup.before",
        (replicas / u64::from(base.cluster.clients)).to_string(),
    );
    paper.set(
        "catchup.table",
        fmt::table(
            &[
                "write / restore",
                "strategy",
                "assignment and data converged (s)",
                "plan settled (s)",
                "restores done (s)",
                "probing rebalances",
                "unavailable (task-s)",
            ],
            2,
            &rows,
        ),
    );
    paper.figure("catchup", &chart, &|at| {
        let ratios: Vec<String> = at.iter().map(|p| format!("{:.2}", p.0)).collect();
        format!("write / restore {}", plot::and_list(&ratios))
    })?;
    paper.data("catchup", csv);
    Ok(())
}
