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

/// `text` with line breaks and other control characters escaped, so that a
/// message built from input (a key, a file name) is always one line.
pub fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}
