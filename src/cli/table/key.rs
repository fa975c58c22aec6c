//! The key printed under the tables: what each column shown means (its
//! [`Column::gloss`]), wrapped to the width the default tables fit, and
//! the word-wrapping the tables' long lines share.

use smoothscale::sim::report::Column;

/// The terminal width, in characters, that the default tables (without
/// `--wide`) and every line printed with them fit on the bundled scenarios.
pub(crate) const WIDTH: usize = 120;

/// `text` wrapped at spaces to lines of at most `width` characters, the
/// first starting with `first`, the others with `rest` (prefixes as
/// given; a word longer than a line stays whole); each line ends with a
/// newline.
pub(crate) fn wrap(text: &str, width: usize, first: &str, rest: &str) -> String {
    let mut out = String::new();
    let mut line = first.to_string();
    let mut words = 0;
    for word in text.split_whitespace() {
        let space = usize::from(words > 0);
        if words > 0 && line.chars().count() + space + word.chars().count() > width {
            out.push_str(&line);
            out.push('\n');
            line = rest.to_string();
            words = 0;
        }
        if words > 0 {
            line.push(' ');
        }
        line.push_str(word);
        words += 1;
    }
    out.push_str(line.trim_end());
    out.push('\n');
    out
}

/// The key of `columns`: one entry per column, its title then its gloss,
/// the glosses aligned and wrapped to [`WIDTH`].
pub(crate) fn key(columns: &[Column]) -> String {
    let indent = columns
        .iter()
        .map(|c| c.title.chars().count())
        .max()
        .unwrap_or(0)
        + 2;
    let rest = " ".repeat(indent);
    columns
        .iter()
        .map(|c| wrap(c.gloss, WIDTH, &format!("{:indent$}", c.title), &rest))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap_breaks_at_spaces_within_the_width() {
        assert_eq!(wrap("aa bb cc", 5, "", "  "), "aa bb\n  cc\n");
        assert_eq!(wrap("aa bb cc", 80, "x: ", ""), "x: aa bb cc\n");
        assert_eq!(wrap("toolongword b", 4, "", ""), "toolongword\nb\n");
    }

    #[test]
    fn the_key_aligns_glosses_under_each_other() {
        let column = |title, gloss| Column {
            title,
            unit: "s",
            gloss,
            null: "-",
            wide_only: false,
        };
        let long = concat!(
            "word word word word word word word word word word word word word word word word ",
            "word word word word word word word word word word word word word word word word"
        );
        let text = key(&[column("ab", "first"), column("abcd", long)]);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "ab    first");
        assert!(lines[1].starts_with("abcd  word word"), "{text}");
        assert!(lines[2].starts_with("      word"), "{text}");
        assert!(lines.iter().all(|l| l.chars().count() <= WIDTH), "{text}");
    }
}
