//! Generated blocks of the docs (tests only): a reference kept in one
//! source (the scenario documents' field docs, the metric record) is shown
//! in a doc between two markers,
//!
//! ```text
//! <!-- BEGIN GENERATED NAME from SOURCE: SMOOTHSCALE_BLESS=1 cargo test --lib rewrites it -->
//! …
//! <!-- END GENERATED NAME -->
//! ```
//!
//! and [`check`] fails when the block differs from what the source says
//! now; with `SMOOTHSCALE_BLESS=1` it rewrites the block instead.

use std::sync::Mutex;

/// Serialises the rewrites: two blocks may live in one file.
static FILES: Mutex<()> = Mutex::new(());

/// Checks that the block `name` of `doc` (a path from the crate's root)
/// is `text`, generated from `source`; rewrites it under
/// `SMOOTHSCALE_BLESS=1`.
///
/// # Panics
///
/// When the block differs (and no rewrite was asked for), or `doc` has no
/// such block.
pub(crate) fn check(doc: &str, name: &str, text: &str, source: &str) {
    let _one_at_a_time = FILES.lock().unwrap_or_else(|e| e.into_inner());
    let path = format!("{}/{doc}", env!("CARGO_MANIFEST_DIR"));
    let current = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let begin = format!("<!-- BEGIN GENERATED {name} ");
    let end = format!("<!-- END GENERATED {name} -->");
    let marker = format!(
        "<!-- BEGIN GENERATED {name} from {source}: SMOOTHSCALE_BLESS=1 cargo test --lib rewrites it -->"
    );
    let (Some(start), Some(stop)) = (current.find(&begin), current.find(&end)) else {
        panic!("{doc} has no block {name}: add the lines\n{marker}\n{end}\nwhere it belongs");
    };
    let inside_from = current[start..]
        .find('\n')
        .map_or(current.len(), |n| start + n + 1);
    let wanted = format!("{marker}\n{text}");
    if current[start..stop] == wanted {
        return;
    }
    if std::env::var_os("SMOOTHSCALE_BLESS").is_some() {
        let rewritten = format!("{}{wanted}{}", &current[..start], &current[stop..]);
        std::fs::write(&path, rewritten).unwrap_or_else(|e| panic!("{path}: {e}"));
        return;
    }
    let shown = &current[inside_from.min(stop)..stop];
    let first = shown
        .lines()
        .zip(text.lines())
        .find(|(a, b)| a != b)
        .map_or_else(
            || "the blocks differ in length".to_string(),
            |(a, b)| format!("first difference:\n  doc:    {a}\n  source: {b}"),
        );
    panic!(
        "{doc}'s block {name} differs from {source}; {first}\nrun `SMOOTHSCALE_BLESS=1 cargo test --lib` to rewrite it"
    );
}
