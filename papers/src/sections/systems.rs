//! Section 1: the strategies (from the registry) and how faithful the
//! Kafka ones are: the differential against Kafka's own assignors, as the
//! Java build last wrote it (`data/differential.md`, which CI compares with
//! the one `mvn verify` writes).

use std::path::Path;

use smoothscale::assignor;

use super::{read_data, Paper};
use crate::fmt;

/// Fills the strategy table and the differential.
///
/// # Errors
///
/// When `data/differential.md` cannot be read.
pub fn section(root: &Path, paper: &mut Paper) -> Result<(), String> {
    let rows: Vec<Vec<String>> = assignor::all()
        .iter()
        .map(|s| {
            let info = s.info();
            vec![format!("`{}`", info.name), info.description.to_string()]
        })
        .collect();
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
