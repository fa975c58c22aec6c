//! Section 9: the simulator against a real Kafka cluster: the table
//! `e2e/real-vs-sim.py` printed after the live runs on a real broker,
//! recorded in `data/real-vs-sim.md` by `papers/measure-live`.

use std::path::Path;

use super::{claim, read_data, Paper};

/// Fills the comparison and checks what the text says of it.
///
/// # Errors
///
/// When the recorded table cannot be read, or no longer shows what the text
/// says.
pub fn section(root: &Path, paper: &mut Paper) -> Result<(), String> {
    let table = read_data(root, "real-vs-sim.md", "papers/measure-live")?;
    let runs: Vec<&str> = table.split("\n**").skip(1).collect();
    // A measure's "simulated / real" column in every run.
    let ratios = |measure: &str| -> Vec<&str> {
        runs.iter()
            .filter_map(|run| {
                run.lines()
                    .find(|l| l.starts_with(&format!("| {measure} |")))
                    .and_then(|l| l.split('|').nth(4))
                    .map(str::trim)
            })
            .collect()
    };
    let all = |measure: &str, holds: &dyn Fn(&str) -> bool| {
        let found = ratios(measure);
        found.len() == runs.len() && !runs.is_empty() && found.iter().all(|r| holds(r))
    };
    let above_one = |r: &str| r.parse::<f64>().is_ok_and(|v| v > 1.0);
    let close = |r: &str| r.parse::<f64>().is_ok_and(|v| (0.8..=1.25).contains(&v));
    claim(
        "the rebalances by trigger agree in every run",
        ["rebalances (total)", "  membership", "  probing"]
            .iter()
            .all(|m| all(m, &|r| r == "1.00" || r == "=")),
    )?;
    claim(
        "the records the replicas loaded are close",
        all("records loaded by standbys and warm-ups", &close),
    )?;
    claim(
        "the simulator overstates unavailability and the longest outage",
        all("unavailable (task-s)", &above_one)
            && all("longest outage of one task (s)", &above_one),
    )?;
    claim(
        "on the short churn runs the simulated plan had not settled",
        runs.iter()
            .filter(|run| run.starts_with("churn"))
            .all(|run| {
                run.contains("converged (sim) after the last event (s) | ")
                    && run.contains("| never |")
            }),
    )?;
    paper.set("live.table", table.trim_end().to_string());
    Ok(())
}
