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

use super::headline::Headline;
use super::{claim, read_data, Paper};
use crate::fmt::{self, fixed, opt};
use crate::runs;

const SCENARIOS: [&str; 2] = ["crash-disk-loss", "rack-outage"];

/// Fills the section's tables.
///
/// # Errors
///
/// A run or an assignment that fails.
pub fn section(root: &Path, headline: &Headline, paper: &mut Paper) -> Result<(), String> {
    let mut rows = Vec::new();
    for scenario in SCENARIOS {
        for s in assignor::all() {
            let name = s.info().name;
            let d = headline
                .run(scenario, name)
                .ok_or_else(|| format!("{scenario} with {name} missing"))?;
            let f = d;
            rows.push(vec![
                scenario.to_string(),
                name.to_string(),
                fixed(f.figure("tasks_lost_every_copy")),
                fixed(f.figure("restored_records.active")),
                fixed(f.figure("max_outage_s")),
                opt(f.maybe("time_to_full_redundancy_s")),
                fixed(f.figure("max_replicas_per_client")),
            ]);
        }
    }
    paper.set(
        "failures.table",
        fmt::table(
            &[
                "scenario",
                "strategy",
                "tasks that lost every copy",
                "records restored by actives",
                "max outage (s)",
                "full redundancy (s)",
                "most replicas on one client",
            ],
            2,
            &rows,
        ),
    );
    rack_without_disks(root, headline, paper)?;
    pile_up(root, paper)
}

/// The rack outage with and without the rack's disks.
fn rack_without_disks(root: &Path, headline: &Headline, paper: &mut Paper) -> Result<(), String> {
    let mut lost = runs::scenario(root, "rack-outage")?;
    for e in &mut lost.events {
        if let EventKind::RackOutage { lose_state, .. } = &mut e.kind {
            *lose_state = true;
        }
    }
    let jobs = runs::jobs([&lost], assignor::all(), None);
    let done = runs::run_all(&jobs)?;
    let mut rows = Vec::new();
    for d in &done {
        let name = &d.result.strategy;
        let kept = headline
            .run("rack-outage", name)
            .ok_or_else(|| format!("rack-outage with {name} missing"))?;
        let (k, l) = (kept, d);
        rows.push(vec![
            name.clone(),
            fixed(k.figure("unavailable_task_s.total")),
            fixed(l.figure("unavailable_task_s.total")),
            fixed(k.figure("tasks_lost_every_copy")),
            fixed(l.figure("tasks_lost_every_copy")),
            fixed(k.figure("restored_records.total")),
            fixed(l.figure("restored_records.total")),
            opt(k.maybe("time_to_full_redundancy_s")),
            opt(l.maybe("time_to_full_redundancy_s")),
        ]);
    }
    paper.set(
        "failures.rack",
        fmt::table(
            &[
                "strategy",
                "unavailable, disks kept (task-s)",
                "unavailable, disks lost (task-s)",
                "tasks that lost every copy, kept",
                "tasks that lost every copy, lost",
                "restored, kept (records)",
                "restored, lost (records)",
                "full redundancy, kept (s)",
                "full redundancy, lost (s)",
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
