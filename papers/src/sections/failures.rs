//! Section 7: failures. From the headline runs, crash-disk-loss and
//! rack-outage per strategy (tasks that lost every copy of their state,
//! records restored by actives, that is tasks serving without a caught-up
//! copy; time to redundancy; most replicas on a
//! client); the rack outage again with the rack's disks lost; and Kafka's
//! standby pile-up input (1,000 stateful tasks × 1,000 clients, each running
//! one, no caught-up standby) assigned by every strategy, beside what Kafka's
//! own assignor did on it (`data/pileup-kafka.md`, by `papers/measure-pileup`).

use std::path::Path;

use smoothscale::assignor;
use smoothscale::sim::EventKind;
use smoothscale::{generate, validate};

use super::headline::{self, Headline};
use super::{claim, read_data, swept, Paper};
use crate::fmt;
use crate::runs::{self, RunTable};

const SCENARIOS: [&str; 2] = ["crash-disk-loss", "rack-outage"];
/// The figures kept per run of the rack outage with its disks lost
/// (`data/rack-disks-lost.csv`).
const RACK_KEYS: [&str; 4] = [
    "unavailable_task_s.total",
    "tasks_lost_every_copy",
    "restored_records.total",
    "time_to_full_redundancy_s",
];

/// A figure summed over the completed runs (counts of events).
fn total(t: &RunTable, scenario: &str, strategy: &str, key: &str) -> String {
    let sum: u128 = t
        .values(scenario, strategy, key)
        .iter()
        .map(|v| v.scaled)
        .sum();
    fmt::int(u64::try_from(sum).unwrap_or(u64::MAX))
}

/// The mean over the runs where it happened, and how many never.
fn mean_never(t: &RunTable, scenario: &str, strategy: &str, key: &str) -> String {
    let s = t.stats(scenario, strategy, key);
    match (s.n, t.nulls(scenario, strategy, key)) {
        (0, _) => "never".to_string(),
        (_, 0) => fmt::mean(&s, 1),
        (_, never) => format!("{} ({never} never)", fmt::mean(&s, 1)),
    }
}

/// Fills the section's tables.
///
/// # Errors
///
/// A run or an assignment that fails, or unreadable data.
pub fn section(
    root: &Path,
    fast: bool,
    headline: &Headline,
    paper: &mut Paper,
) -> Result<(), String> {
    let t = &headline.table;
    let mut rows = Vec::new();
    for scenario in SCENARIOS {
        for s in assignor::all() {
            let name = s.info().name;
            let completed = t.runs(scenario, name).filter(|r| r.completed()).count();
            if completed == 0 {
                rows.push(vec![
                    scenario.to_string(),
                    name.to_string(),
                    "0".to_string(),
                    "infeasible at every seed".to_string(),
                    String::new(),
                    String::new(),
                    String::new(),
                    String::new(),
                ]);
                continue;
            }
            let most = t
                .values(scenario, name, "max_replicas_per_client")
                .into_iter()
                .max()
                .map_or_else(|| "–".to_string(), fmt::fixed);
            let longest = t
                .values(scenario, name, "max_outage_s")
                .into_iter()
                .max()
                .map_or_else(|| "–".to_string(), |v| fmt::fixed_to(v, 1));
            rows.push(vec![
                scenario.to_string(),
                name.to_string(),
                completed.to_string(),
                total(t, scenario, name, "tasks_lost_every_copy"),
                fmt::mean(&t.stats(scenario, name, "restored_records.active"), 0),
                format!(
                    "{} / {longest}",
                    fmt::mean(&t.stats(scenario, name, "max_outage_s"), 1)
                ),
                mean_never(t, scenario, name, "time_to_full_redundancy_s"),
                most,
            ]);
        }
    }
    paper.set(
        "failures.table",
        fmt::table(
            &[
                "scenario",
                "strategy",
                "runs completed",
                "tasks that lost every copy (all runs)",
                "records restored by actives (mean)",
                "max outage (s): mean / longest",
                "full redundancy (s, mean)",
                "most replicas on one client (any run)",
            ],
            2,
            &rows,
        ),
    );
    rack_without_disks(root, fast, headline, paper)?;
    pile_up(root, paper)
}

/// The rack outage with and without the rack's disks, at the headline's
/// seeds and perturbation.
fn rack_without_disks(
    root: &Path,
    fast: bool,
    headline: &Headline,
    paper: &mut Paper,
) -> Result<(), String> {
    let kept = headline
        .scenarios
        .iter()
        .find(|s| s.name == "rack-outage")
        .ok_or("the headline has no rack-outage")?;
    let mut lost = kept.clone();
    for e in &mut lost.events {
        if let EventKind::RackOutage { lose_state, .. } = &mut e.kind {
            *lose_state = true;
        }
    }
    let csv = swept(root, fast, "rack-disks-lost", paper, |_| {
        let jobs = runs::jobs([&lost], assignor::all(), headline::SEEDS);
        let done = runs::run_all(&jobs)?;
        Ok(RunTable::of(&RACK_KEYS, &jobs, &done, |j| j.scenario.name.clone()).csv())
    })?;
    let l = RunTable::parse("rack-disks-lost", &csv, &RACK_KEYS)?;
    let k = &headline.table;
    claim(
        "the rack outage with its disks lost ran at the headline's seeds",
        l.rows.len() as u64 == assignor::all().len() as u64 * headline::SEEDS,
    )?;
    let rack = "rack-outage";
    let mut rows = Vec::new();
    for s in assignor::all() {
        let name = s.info().name;
        let mean = |t: &RunTable, key| fmt::mean(&t.stats(rack, name, key), 1);
        let records = |t: &RunTable| fmt::mean(&t.stats(rack, name, "restored_records.total"), 0);
        rows.push(vec![
            name.to_string(),
            mean(k, "unavailable_task_s.total"),
            mean(&l, "unavailable_task_s.total"),
            total(k, rack, name, "tasks_lost_every_copy"),
            total(&l, rack, name, "tasks_lost_every_copy"),
            records(k),
            records(&l),
            mean_never(k, rack, name, "time_to_full_redundancy_s"),
            mean_never(&l, rack, name, "time_to_full_redundancy_s"),
        ]);
    }
    paper.set(
        "failures.rack",
        fmt::table(
            &[
                "strategy",
                "unavailable, disks kept (task-s, mean)",
                "unavailable, disks lost (task-s, mean)",
                "tasks that lost every copy, kept (all runs)",
                "tasks that lost every copy, lost (all runs)",
                "restored, kept (records, mean)",
                "restored, lost (records, mean)",
                "full redundancy, kept (s, mean)",
                "full redundancy, lost (s, mean)",
            ],
            1,
            &rows,
        ),
    );
    Ok(())
}

/// Kafka's pile-up input assigned by every strategy: each client reports
/// only its own previous active, or also the same lag (half the changelog)
/// for every other task.
fn pile_up(root: &Path, paper: &mut Paper) -> Result<(), String> {
    let n = 1000u32;
    let states =
        [None, Some(500_000)].map(|lag| generate::pile_up(n, lag).map_err(|e| e.to_string()));
    let states = states.into_iter().collect::<Result<Vec<_>, _>>()?;
    let mut rows = Vec::new();
    let mut kip441_most = 0;
    let mut kip441_client = String::new();
    for s in assignor::all() {
        let info = s.info();
        let mut row = vec![format!("`{}`", info.name)];
        for state in &states {
            let plan = s.assign(state).map_err(|e| format!("{}: {e}", info.name))?;
            validate(state, &plan, info.claims).map_err(|e| format!("{}: {e:?}", info.name))?;
            let (client, most) = plan
                .most_replicas()
                .map_or((String::new(), 0), |(c, m)| (c.to_string(), m));
            if info.name == "kip441" && most > kip441_most {
                kip441_most = most;
                kip441_client = client;
            }
            row.push(fmt::int(most as u64));
        }
        rows.push(row);
    }
    let kafka = read_data(root, "pileup-kafka.md", "`papers/measure-pileup`")?;
    // The Kafka column of every row of the recorded table.
    let kafka_most: Vec<&str> = kafka
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| input"))
        .filter_map(|l| l.split('|').nth(3).map(str::trim))
        .collect();
    claim(
        "our kip441 puts as many standbys on one client as Kafka's own assignor did",
        !kafka_most.is_empty() && kafka_most.iter().all(|m| *m == kip441_most.to_string()),
    )?;
    paper.set("failures.pileup_kafka", kafka.trim_end());
    claim(
        "kip441 piles the standbys on the lowest client id",
        kip441_client == "c0000",
    )?;
    paper.set(
        "failures.pileup_kip441_client",
        format!("`{kip441_client}`"),
    );
    paper.set("failures.pileup_clients", fmt::int(u64::from(n)));
    paper.set("failures.pileup_kip441", fmt::int(kip441_most as u64));
    paper.set(
        "failures.pileup",
        fmt::table(
            &[
                "strategy",
                "most standbys and warm-ups on one client: own previous active only",
                "the same, every other client 500,000 records behind on every task",
            ],
            1,
            &rows,
        ),
    );
    Ok(())
}
