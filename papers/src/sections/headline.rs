//! Section 2: every bundled scenario with every registered strategy, at the
//! scenario's own seed and configuration.

use std::path::Path;

use smoothscale::assignor;
use smoothscale::sim::{Outcome, Scenario};

use super::Paper;
use crate::fmt::{self, fixed, opt};
use crate::runs::{self, Done};

/// The runs of this section, kept for the failures section.
pub struct Headline {
    /// Per bundled scenario (sorted by name): the scenario and one run per
    /// registered strategy, in registry order.
    pub scenarios: Vec<(Scenario, Vec<Done>)>,
}

impl Headline {
    /// The run of `strategy` on the scenario called `name`.
    pub fn run(&self, name: &str, strategy: &str) -> Option<&Done> {
        let (_, done) = self.scenarios.iter().find(|(s, _)| s.name == name)?;
        done.iter().find(|d| d.result.strategy == strategy)
    }
}

/// Runs the grid and writes the table.
///
/// # Errors
///
/// A scenario that cannot be read or a run that fails.
pub fn section(root: &Path, paper: &mut Paper) -> Result<Headline, String> {
    let scenarios: Vec<Scenario> = runs::bundled(root)?
        .iter()
        .map(|name| runs::scenario(root, name))
        .collect::<Result<_, _>>()?;
    let strategies = assignor::all();
    let jobs = runs::jobs(&scenarios, strategies, None);
    let mut done = runs::run_all(&jobs)?.into_iter();
    let mut per_scenario = Vec::new();
    for s in &scenarios {
        let runs: Vec<Done> = done.by_ref().take(strategies.len()).collect();
        per_scenario.push((s.clone(), runs));
    }
    let mut rows = Vec::new();
    let mut csv = String::from(
        "scenario,strategy,outcome,unavailable_stateful_task_s,unavailable_stateless_task_s,max_outage_s,p99_outage_s,recovery_records,replication_records,rebalances_membership,rebalances_probing,rebalances_caught_up,full_availability_s,full_redundancy_s,converge_s,max_replicas_per_client,tasks_lost_every_copy\n",
    );
    let mut best = Vec::new();
    for (s, runs) in &per_scenario {
        for d in runs {
            let f = d;
            let outcome = match &d.result.outcome {
                Outcome::Completed => "completed".to_string(),
                Outcome::Infeasible { at_ms, .. } => {
                    format!("infeasible at {} s", at_ms.get() / 1000)
                }
            };
            if d.result.outcome != Outcome::Completed {
                rows.push(vec![
                    s.name.clone(),
                    d.result.strategy.clone(),
                    outcome.clone(),
                ]);
                csv.push_str(&format!(
                    "{},{},{outcome},,,,,,,,,,,,,,\n",
                    s.name, d.result.strategy
                ));
                continue;
            }
            rows.push(vec![
                s.name.clone(),
                d.result.strategy.clone(),
                fixed(f.figure("unavailable_task_s.stateful")),
                fixed(f.figure("unavailable_task_s.stateless")),
                fixed(f.figure("max_outage_s")),
                opt(f.maybe("task_downtime_s.p99")),
                fixed(f.figure("restored_records.recovery")),
                fixed(f.figure("restored_records.steady_replication")),
                format!(
                    "{} / {} / {}",
                    f.figure("rebalances.membership"),
                    f.figure("rebalances.probing"),
                    f.figure("rebalances.caught_up")
                ),
                opt(f.maybe("time_to_full_availability_s")),
                opt(f.maybe("time_to_full_redundancy_s")),
                opt(f.maybe("time_to_converge_s")),
            ]);
            csv.push_str(&format!(
                "{},{},{outcome},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n",
                s.name,
                d.result.strategy,
                f.figure("unavailable_task_s.stateful"),
                f.figure("unavailable_task_s.stateless"),
                f.figure("max_outage_s"),
                fmt::cell(f.maybe("task_downtime_s.p99")),
                f.figure("restored_records.recovery"),
                f.figure("restored_records.steady_replication"),
                f.figure("rebalances.membership"),
                f.figure("rebalances.probing"),
                f.figure("rebalances.caught_up"),
                fmt::cell(f.maybe("time_to_full_availability_s")),
                fmt::cell(f.maybe("time_to_full_redundancy_s")),
                fmt::cell(f.maybe("time_to_converge_s")),
                f.figure("max_replicas_per_client"),
                f.figure("tasks_lost_every_copy"),
            ));
        }
        let completed: Vec<&Done> = runs
            .iter()
            .filter(|d| d.result.outcome == Outcome::Completed)
            .collect();
        let least = completed
            .iter()
            .map(|d| d.figure("unavailable_task_s.total"))
            .min_by_key(|u| u.scaled);
        let text = match least {
            None => "none completed".to_string(),
            Some(u) => {
                let tied: Vec<&str> = completed
                    .iter()
                    .filter(|d| d.figure("unavailable_task_s.total") == u)
                    .map(|d| d.result.strategy.as_str())
                    .collect();
                format!("{} ({} task-s)", tied.join(", "), fixed(u))
            }
        };
        best.push(format!("`{}`: {text}", s.name));
    }
    // Infeasible rows keep the column count.
    for row in &mut rows {
        row.resize(12, String::new());
    }
    paper.set(
        "headline.table",
        fmt::table(
            &[
                "scenario",
                "strategy",
                "unavailable, stateful (task-s)",
                "unavailable, stateless (task-s)",
                "max outage (s)",
                "p99 task outage (s)",
                "recovery (records)",
                "replication (records)",
                "rebalances (membership / probing / caught-up)",
                "full availability (s)",
                "full redundancy (s)",
                "converge (s)",
            ],
            2,
            &rows,
        ),
    );
    paper.set("headline.least", best.join("; "));
    paper.set("headline.scenarios", per_scenario.len().to_string());
    paper.set("headline.strategies", strategies.len().to_string());
    paper.data("headline", csv);
    Ok(Headline {
        scenarios: per_scenario,
    })
}
