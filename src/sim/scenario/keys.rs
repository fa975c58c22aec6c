//! The scenario key reference, generated (tests only): every key of a
//! scenario file is documented once, on its field of the reader's documents
//! (`document.rs`: what it means, then `Type: … · Default: …`; for the event
//! kinds, a line `Keys: …`), and docs/simulator.md shows them as tables
//! generated from that file. The test fails when the two differ, when a key
//! has no documentation in that shape, or when an event kind's documented
//! keys are not those the reader accepts.

use syn::{Attribute, Expr, Fields, Item, Lit, Meta};

use super::document::Kind;
use super::values::Named;

/// The tables, in the order the doc shows them.
const TABLES: [&str; 8] = [
    "ScenarioDoc",
    "ClusterDoc",
    "GroupDoc",
    "SubtopologyDoc",
    "ConfigDoc",
    "EventDoc",
    "ChurnDoc",
    "PerturbDoc",
];

/// The documentation of an item: its `///` lines, trimmed.
fn doc_lines(attrs: &[Attribute]) -> Vec<String> {
    attrs
        .iter()
        .filter(|a| a.path().is_ident("doc"))
        .filter_map(|a| match &a.meta {
            Meta::NameValue(nv) => match &nv.value {
                Expr::Lit(lit) => match &lit.lit {
                    Lit::Str(s) => Some(s.value().trim().to_string()),
                    _ => None,
                },
                _ => None,
            },
            _ => None,
        })
        .collect()
}

/// The paragraphs of a documentation, each on one line.
fn paragraphs(lines: &[String]) -> Vec<String> {
    lines
        .split(String::is_empty)
        .filter(|p| !p.is_empty())
        .map(|p| p.join(" "))
        .collect()
}

/// A definition as a table cell: without its final full stop.
fn cell(text: &str) -> String {
    text.strip_suffix('.').unwrap_or(text).to_string()
}

/// `RollingBounce` as TOML names it: `rolling_bounce`.
fn snake(ident: &str) -> String {
    let mut out = String::new();
    for (i, c) in ident.chars().enumerate() {
        if c.is_uppercase() && i > 0 {
            out.push('_');
        }
        out.extend(c.to_lowercase());
    }
    out
}

/// The key reference, generated from the source of `document.rs`.
pub(super) fn reference(source: &str) -> String {
    let file = syn::parse_file(source).expect("document.rs parses");
    let find = |name: &str| {
        file.items.iter().find_map(|item| match item {
            Item::Struct(s) if s.ident == name => Some((doc_lines(&s.attrs), Some(&s.fields))),
            Item::Enum(e) if e.ident == name => Some((doc_lines(&e.attrs), None)),
            _ => None,
        })
    };
    let mut out = String::new();
    for table in TABLES {
        let (docs, fields) = find(table).unwrap_or_else(|| panic!("document.rs has no {table}"));
        let intro = paragraphs(&docs).into_iter().next().unwrap_or_default();
        out.push_str(&format!("{intro}\n\n"));
        if table == "EventDoc" {
            out.push_str(&kinds(&file));
        } else {
            let Some(Fields::Named(fields)) = fields else {
                panic!("{table} must be a struct with named fields");
            };
            out.push_str("| key | type | default | meaning |\n|---|---|---|---|\n");
            for field in &fields.named {
                let name = field.ident.as_ref().expect("a named field").to_string();
                out.push_str(&key_row(table, &name, &doc_lines(&field.attrs)));
            }
        }
        out.push('\n');
    }
    out.trim_end().to_string() + "\n"
}

/// The row of key `name` of `table`, from its documentation.
fn key_row(table: &str, name: &str, docs: &[String]) -> String {
    let mut paragraphs = paragraphs(docs);
    let last = paragraphs.pop().unwrap_or_default();
    let shape = || {
        panic!(
            "{table}.{name} must be documented as its meaning, then a line \
             `Type: … · Default: …`; got {docs:?}"
        )
    };
    let (kind, default) = last
        .strip_prefix("Type: ")
        .and_then(|rest| rest.split_once(" · Default: "))
        .unwrap_or_else(shape);
    if paragraphs.is_empty() {
        shape();
    }
    let key = match kind {
        "table" if table == "ScenarioDoc" => format!("`[{name}]`"),
        "array of tables" if table == "ClusterDoc" => format!("`[[cluster.{name}]]`"),
        "array of tables" => format!("`[[{name}]]`"),
        _ => format!("`{name}`"),
    };
    format!(
        "| {key} | {kind} | {default} | {} |\n",
        cell(&paragraphs.join(" "))
    )
}

/// The keys a `Keys: …` line names: its backticked words outside
/// parentheses (inside them are the defaults).
fn top_level_keys(line: &str) -> Vec<&str> {
    let mut keys = Vec::new();
    let mut depth = 0;
    let mut start = None;
    for (i, c) in line.char_indices() {
        match c {
            '(' if start.is_none() => depth += 1,
            ')' if start.is_none() => depth -= 1,
            '`' if depth == 0 => match start.take() {
                None => start = Some(i + 1),
                Some(from) => keys.push(&line[from..i]),
            },
            _ => {}
        }
    }
    keys
}

/// The table of event kinds, from the documentation of [`Kind`]'s variants,
/// checked against the names and keys the reader accepts.
fn kinds(file: &syn::File) -> String {
    let variants = file
        .items
        .iter()
        .find_map(|item| match item {
            Item::Enum(e) if e.ident == "Kind" => Some(&e.variants),
            _ => None,
        })
        .expect("document.rs has the enum Kind");
    let mut out = String::from("| `kind` | keys (default) | what happens |\n|---|---|---|\n");
    let mut names = Vec::new();
    for v in variants {
        let name = snake(&v.ident.to_string());
        let mut paragraphs = paragraphs(&doc_lines(&v.attrs));
        let keys = paragraphs
            .pop()
            .and_then(|p| p.strip_prefix("Keys: ").map(str::to_string))
            .unwrap_or_else(|| panic!("Kind::{} must end its docs with `Keys: …`", v.ident));
        let documented = top_level_keys(&keys);
        let kind = Kind::CHOICES
            .iter()
            .find(|(n, _)| *n == name)
            .map(|&(_, k)| k)
            .unwrap_or_else(|| panic!("Kind::{} is not read as {name:?}", v.ident));
        let accepted: Vec<&str> = kind
            .keys()
            .iter()
            .copied()
            .filter(|k| !["at", "kind"].contains(k))
            .collect();
        assert_eq!(documented, accepted, "the keys documented for {name}");
        out.push_str(&format!(
            "| `{name}` | {keys} | {} |\n",
            cell(&paragraphs.join(" "))
        ));
        names.push(name);
    }
    let read: Vec<&str> = Kind::CHOICES.iter().map(|(n, _)| *n).collect();
    assert_eq!(
        names, read,
        "the event kinds documented are those read, in order"
    );
    out
}

/// The table of limits of `limits.rs`'s module doc, as docs/limits.md
/// shows it: the constants named (`MAX_STEPS`), not linked.
pub(super) fn limits(source: &str) -> String {
    let file = syn::parse_file(source).expect("limits.rs parses");
    let lines = doc_lines(&file.attrs);
    let table: Vec<String> = lines
        .iter()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .map(|l| l.replace("[`", "`").replace("`]", "`"))
        .collect();
    assert!(
        table.len() > 2,
        "limits.rs's module doc has its table of limits"
    );
    table.join("\n") + "\n"
}

#[cfg(test)]
mod tests {
    /// docs/limits.md lists every limit on a scenario as `limits.rs`
    /// documents it beside the constants.
    #[test]
    fn scenario_limits_are_documented_beside_their_constants() {
        crate::sim::generated::check(
            "docs/limits.md",
            "scenario-limits",
            &super::limits(include_str!("limits.rs")),
            "src/sim/scenario/limits.rs",
        );
    }

    /// docs/simulator.md lists every key of a scenario file as the reader's
    /// documents document it.
    #[test]
    fn scenario_keys_are_documented_where_they_are_read() {
        let source = include_str!("document.rs");
        crate::sim::generated::check(
            "docs/simulator.md",
            "scenario-keys",
            &super::reference(source),
            "src/sim/scenario/document.rs",
        );
    }
}
