//! Section 1: the strategies (from the registry) and how faithful the
//! Kafka ones are: the differential against Kafka's own assignors, as the
//! Java build last wrote it (`data/differential.md`, which CI compares with
//! the one `mvn verify` writes).

use std::path::Path;

use smoothscale::assignor;

use super::{claim, read_data, Paper};
use crate::fmt;

/// Fills the strategy table and the differential.
///
/// # Errors
///
/// When `data/differential.md` cannot be read.
pub fn section(root: &Path, paper: &mut Paper) -> Result<(), String> {
    // The paper describes `optimal` by what it optimises (the text below
    // the table) and calls nothing a bound on a run.
    let rows: Vec<Vec<String>> = assignor::all()
        .iter()
        .map(|s| {
            let info = s.info();
            vec![format!("`{}`", info.name), info.description.to_string()]
        })
        .collect();
    claim(
        "the strategy table calls no strategy a bound",
        rows.iter().all(|r| !r[1].contains("bound")),
    )?;
    paper.set(
        "systems.table",
        fmt::table(&["strategy", "what it is"], 2, &rows),
    );
    let differential = read_data(
        root,
        "differential.md",
        "`mvn -f bindings/java/pom.xml verify` (bindings/java/target/differential.md)",
    )?;
    paper.set("systems.differential", differential.trim_end().to_string());
    Ok(())
}
