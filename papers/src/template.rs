//! The paper's text: `papers/template.md` with every `{{key}}` replaced by
//! the value a section computed. Nothing else in the text is a number the
//! generator produced.

use std::collections::{BTreeMap, BTreeSet};

/// The values a template is filled with, by key.
#[derive(Default)]
pub struct Values(BTreeMap<String, String>);

impl Values {
    /// Sets `key` (a section's prefix and a name: `headline.table`).
    ///
    /// # Panics
    ///
    /// When `key` was set before: two sections computing one key is a bug.
    pub fn set(&mut self, key: impl Into<String>, value: impl Into<String>) {
        let key = key.into();
        let previous = self.0.insert(key.clone(), value.into());
        assert!(previous.is_none(), "{key} set twice");
    }
}

/// Replaces every `{{key}}` of `template` by its value.
///
/// # Errors
///
/// The keys the template names without a value, and the values the template
/// never uses (a figure computed and not reported is as wrong as one typed).
pub fn fill(template: &str, values: &Values) -> Result<String, String> {
    let mut out = String::with_capacity(template.len() * 2);
    let mut used = BTreeSet::new();
    let mut missing = Vec::new();
    let mut rest = template;
    while let Some(start) = rest.find("{{") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        let Some(end) = after.find("}}") else {
            return Err("papers/template.md: a `{{` is never closed".into());
        };
        let key = after[..end].trim();
        match values.0.get(key) {
            Some(v) => {
                out.push_str(v);
                used.insert(key);
            }
            None => missing.push(key.to_string()),
        }
        rest = &after[end + 2..];
    }
    out.push_str(rest);
    let unused: Vec<&String> = values
        .0
        .keys()
        .filter(|k| !used.contains(k.as_str()))
        .collect();
    if !missing.is_empty() || !unused.is_empty() {
        return Err(format!(
            "papers/template.md: keys without a value: {missing:?}; values the text never uses: {unused:?}"
        ));
    }
    Ok(out)
}
