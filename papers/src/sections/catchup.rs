//! Section 5: when warm-ups never catch up. The bundled scale-out with every
//! stateful task writing faster and faster: time until assignment and data
//! converged (the later of a settled plan and every restore done), against the write / restore ratio of a
//! client in the balanced end state (its share of stateful replicas × a
//! task's write rate, over a client's restore rate).

use std::path::Path;

use super::Paper;
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
    let jobs = runs::jobs(&variants, &runs::strategies(&STRATEGIES)?, None);
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
    for (k, name) in STRATEGIES.iter().enumerate() {
        let mut points = Vec::new();
        for (i, r) in RATIOS_MILLI.iter().enumerate() {
            let d = &done[i * STRATEGIES.len() + k];
            let f = d;
            let ratio = *r as f64 / 1000.0;
            let converged = d.converged();
            if let Some(c) = converged {
                points.push((ratio, c.to_f64() / 3600.0));
            } else if first_never.len() == k {
                first_never.push(format!("{name} at {ratio:.2}"));
            }
            csv.push_str(&format!(
                "{ratio:.3},{name},{},{},{},{},{}\n",
                fmt::cell(converged),
                fmt::cell(f.maybe("time_to_converge_s")),
                fmt::cell(f.maybe("time_to_restores_done_s")),
                f.figure("rebalances.probing"),
                f.figure("unavailable_task_s.total")
            ));
            rows.push(vec![
                format!("{ratio:.2}"),
                (*name).to_string(),
                opt(converged),
                opt(f.maybe("time_to_converge_s")),
                opt(f.maybe("time_to_restores_done_s")),
                fmt::fixed(f.figure("rebalances.probing")),
                fmt::fixed(f.figure("unavailable_task_s.total")),
            ]);
        }
        if first_never.len() == k {
            first_never.push(format!("{name} converged at every ratio"));
        }
        chart.add(name, plot::color(name, k), Kind::LinePoints, points);
    }
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
