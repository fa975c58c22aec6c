//! [`InputError`]: why an input is not a valid cluster state.

use std::fmt;

/// A bad input: the path of the offending field and what is wrong with it.
///
/// Displays as one line, `clients[3].capacity must be at least 1, got 0`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputError {
    /// Where the problem is, as a JSON-style path (`clients[3].capacity`).
    pub path: String,
    /// What is wrong, starting with a verb (`must be at least 1, got 0`).
    pub message: String,
}

impl InputError {
    /// An error at `path`.
    pub fn new(path: impl Into<String>, message: impl Into<String>) -> Self {
        InputError {
            path: path.into(),
            message: message.into(),
        }
    }

    /// A value at `path` outside a fixed list of names: `path must be one
    /// of a, b, got "x"` ([`one_of`]).
    pub fn one_of(path: impl Into<String>, known: &[&str], got: &str) -> Self {
        InputError::new(path, one_of(known, got))
    }
}

/// What every front says of a name outside a fixed list (a strategy, a
/// preset, a protocol): `must be one of a, b, got "x"`, the names in the
/// order given and the value as [`quote`] echoes it.
pub fn one_of(known: &[&str], got: &str) -> String {
    format!("must be one of {}, got {}", known.join(", "), quote(got))
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{} {}", self.path, self.message)
        }
    }
}

impl std::error::Error for InputError {}

/// The most characters of an input string a message echoes: a longer id,
/// key or value is cut there, so a 1 MB tag does not make a 1 MB line.
pub const ECHO_MAX_CHARS: usize = 64;

/// Whether `c` would break a message line: a control character (C0, DEL,
/// C1) or a Unicode line or paragraph separator (U+2028, U+2029).
fn breaks_line(c: char) -> bool {
    c.is_control() || c == '\u{2028}' || c == '\u{2029}'
}

/// `text` with line breaks, other control characters and U+2028/U+2029
/// escaped (`\n`, `\u{2028}`), so that a message built from input (a key, a
/// file name) is always one line.
pub fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| {
            if breaks_line(c) {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// An input string as a message echoes it: in double quotes, with `"`, `\\`,
/// control characters and U+2028/U+2029 escaped, and cut after
/// [`ECHO_MAX_CHARS`] characters (`"abc…" (1048576 characters)`).
pub fn quote(text: &str) -> String {
    let mut out = String::from("\"");
    let mut count = 0;
    for c in text.chars() {
        count += 1;
        if count > ECHO_MAX_CHARS {
            continue;
        }
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if breaks_line(c) => out.push_str(&c.escape_default().to_string()),
            c => out.push(c),
        }
    }
    if count > ECHO_MAX_CHARS {
        out.push_str(&format!("…\" ({count} characters)"));
    } else {
        out.push('"');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quote_escapes_and_cuts() {
        assert_eq!(quote("a\"b\\c"), r#""a\"b\\c""#);
        assert_eq!(
            quote("x\ny\u{2028}z\u{2029}\u{85}"),
            r#""x\ny\u{2028}z\u{2029}\u{85}""#
        );
        let long = "é".repeat(ECHO_MAX_CHARS + 1);
        let q = quote(&long);
        assert_eq!(
            q,
            format!(
                "\"{}…\" ({} characters)",
                "é".repeat(ECHO_MAX_CHARS),
                ECHO_MAX_CHARS + 1
            )
        );
        assert_eq!(quote(&"v".repeat(ECHO_MAX_CHARS)).len(), ECHO_MAX_CHARS + 2);
    }

    #[test]
    fn one_of_lists_the_names_and_quotes_the_value() {
        assert_eq!(
            one_of(&["a", "b"], "x\ny"),
            r#"must be one of a, b, got "x\ny""#
        );
        let e = InputError::one_of("--preset", &["small"], "huge");
        assert_eq!(
            e.to_string(),
            r#"--preset must be one of small, got "huge""#
        );
    }

    #[test]
    fn one_line_escapes_line_separators() {
        assert_eq!(
            one_line("a\nb\u{2028}c\u{2029}d"),
            r"a\nb\u{2028}c\u{2029}d"
        );
    }
}
