//! The paper's sections, each an experiment that fills its `{{key}}`s and
//! draws its figures, and the whole put together.

mod catchup;
mod failures;
mod headline;
mod live;
mod migration;
mod outages;
mod pareto;
mod speed;
mod systems;

use std::path::Path;

use crate::output::Outputs;
use crate::plot::{self, Chart};
use crate::template::{self, Values};

/// What the sections make: the template's values and the files.
#[derive(Default)]
pub struct Paper {
    /// The `{{key}}` values.
    pub values: Values,
    /// Figures and data tables, by path under `papers/`.
    pub files: Outputs,
}

impl Paper {
    /// Draws `chart` to `figures/NAME.svg`, sets `{{figure.NAME}}` to its
    /// Markdown image (the caption is the template's) and
    /// `{{figure.NAME.coincide}}` to the sentence naming the marks drawn on
    /// top of one another (empty when none are), the places of each in the
    /// words of `places`: every caption must say what the picture hides.
    ///
    /// # Errors
    ///
    /// When the chart cannot be drawn.
    pub fn figure(
        &mut self,
        name: &str,
        chart: &Chart,
        places: &plot::Places,
    ) -> Result<(), String> {
        let svg = chart.svg()?;
        self.files
            .insert(format!("figures/{name}.svg"), svg.into_bytes());
        self.values.set(
            format!("figure.{name}"),
            format!("![{}](figures/{name}.svg)", chart.title),
        );
        self.values.set(
            format!("figure.{name}.coincide"),
            plot::describe(&chart.coincidences(), places),
        );
        Ok(())
    }

    /// Writes `data/NAME.csv`.
    pub fn data(&mut self, name: &str, csv: String) {
        self.files
            .insert(format!("data/{name}.csv"), csv.into_bytes());
    }

    /// Sets `{{key}}`.
    pub fn set(&mut self, key: &str, value: impl Into<String>) {
        self.values.set(key, value);
    }
}

/// Checks a statement the template's text makes in words about the results.
///
/// # Errors
///
/// When the results no longer bear it out: the text must be rewritten.
pub fn claim(statement: &str, holds: bool) -> Result<(), String> {
    if holds {
        Ok(())
    } else {
        Err(format!(
            "template.md says \"{statement}\", which these results do not show: rewrite the text"
        ))
    }
}

/// Reads `papers/data/NAME` (a measured input or, in fast mode, a sweep's
/// committed per-run data).
///
/// # Errors
///
/// When it cannot be read, saying which command writes it.
pub fn read_data(root: &Path, name: &str, written_by: &str) -> Result<String, String> {
    let path = root.join("data").join(name);
    std::fs::read_to_string(&path)
        .map_err(|e| format!("{}: {e} (written by {written_by})", path.display()))
}

/// A sweep's per-run data: made by `sweep` and written to `data/NAME.csv`,
/// or in fast mode read back from there.
///
/// # Errors
///
/// The sweep's error, or the data that cannot be read.
pub fn swept(
    root: &Path,
    fast: bool,
    name: &str,
    paper: &mut Paper,
    sweep: impl FnOnce(&Path) -> Result<String, String>,
) -> Result<String, String> {
    if fast {
        read_data(
            root,
            &format!("{name}.csv"),
            "`cargo run --release -p smoothscale-paper`",
        )
    } else {
        let csv = sweep(root)?;
        paper.data(name, csv.clone());
        Ok(csv)
    }
}

/// Section 10's figures: where the held-out seeds begin, and the seeds the
/// same sweeps ran at while smooth was designed (the first ones, as the
/// README's sweeps and this paper's earlier versions ran them).
fn threats(paper: &mut Paper) {
    paper.set(
        "threats.held_out_from",
        crate::fmt::int(smoothscale::sim::scenario::HELD_OUT_SEEDS_FROM),
    );
    for (key, n) in [("pareto", pareto::SEEDS), ("outages", outages::SEEDS)] {
        paper.set(
            &format!("threats.development_{key}"),
            format!("0 to {}", n - 1),
        );
    }
}

/// Runs every section and fills the template.
///
/// # Errors
///
/// The first section that fails, or a template key without a value.
pub fn build(root: &Path, fast: bool) -> Result<Outputs, String> {
    let mut paper = Paper::default();
    systems::section(root, &mut paper)?;
    let headline = headline::section(root, fast, &mut paper)?;
    migration::section(root, &mut paper)?;
    pareto::section(root, fast, &mut paper)?;
    catchup::section(root, &mut paper)?;
    outages::section(root, fast, &mut paper)?;
    failures::section(root, fast, &headline, &mut paper)?;
    speed::section(root, &mut paper)?;
    live::section(root, &mut paper)?;
    threats(&mut paper);
    let template_path = root.join("template.md");
    let text = std::fs::read_to_string(&template_path)
        .map_err(|e| format!("{}: {e}", template_path.display()))?;
    let filled = template::fill(&text, &paper.values)?;
    let mut files = paper.files;
    files.insert("paper.md".into(), filled.into_bytes());
    Ok(files)
}
