//! Writing the regenerated files, or comparing them with those on disk.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

/// The files a run regenerates: path relative to `papers/`, contents.
pub type Outputs = BTreeMap<String, Vec<u8>>;

/// Writes every file (each to a temporary name first, then renamed, so no
/// file is ever half-written) and removes figures no section drew any more.
///
/// # Errors
///
/// The first file that cannot be written, with the reason.
pub fn write(root: &Path, outputs: &Outputs) -> Result<String, String> {
    for (path, bytes) in outputs {
        let target = root.join(path);
        if let Some(dir) = target.parent() {
            fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
        let temporary = target.with_extension("partial");
        fs::write(&temporary, bytes).map_err(|e| format!("{}: {e}", temporary.display()))?;
        fs::rename(&temporary, &target).map_err(|e| format!("{}: {e}", target.display()))?;
    }
    for stale in stale_figures(root, outputs)? {
        fs::remove_file(root.join(&stale)).map_err(|e| format!("{stale}: {e}"))?;
    }
    Ok(format!(
        "wrote {} files to {}",
        outputs.len(),
        root.display()
    ))
}

/// Compares every regenerated file with the one on disk.
///
/// # Errors
///
/// The files that differ, are missing, or are figures no section draws.
pub fn check(root: &Path, outputs: &Outputs, fast: bool) -> Result<String, String> {
    let mut problems = Vec::new();
    for (path, bytes) in outputs {
        match fs::read(root.join(path)) {
            Ok(on_disk) if on_disk == *bytes => {}
            Ok(_) => problems.push(format!("{path} differs")),
            Err(e) => problems.push(format!("{path}: {e}")),
        }
    }
    for stale in stale_figures(root, outputs)? {
        problems.push(format!("{stale} is drawn by no section"));
    }
    if problems.is_empty() {
        let mode = if fast {
            " (fast: the seed sweeps of sections 2, 4, 6 and 7 drawn from their committed per-run data)"
        } else {
            ""
        };
        Ok(format!(
            "papers/ matches: {} files regenerated{mode}",
            outputs.len()
        ))
    } else {
        Err(format!(
            "papers/ is not what `cargo run --release -p smoothscale-paper` makes:\n  {}",
            problems.join("\n  ")
        ))
    }
}

/// SVG files in `figures/` that no section regenerated.
fn stale_figures(root: &Path, outputs: &Outputs) -> Result<Vec<String>, String> {
    let dir = root.join("figures");
    let Ok(entries) = fs::read_dir(&dir) else {
        return Ok(Vec::new());
    };
    let mut stale = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| format!("{}: {e}", dir.display()))?;
        let name = format!("figures/{}", entry.file_name().to_string_lossy());
        if name.ends_with(".svg") && !outputs.contains_key(&name) {
            stale.push(name);
        }
    }
    stale.sort();
    Ok(stale)
}
