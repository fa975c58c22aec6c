//! Numbers as the paper prints them: thousands separated by commas, a fixed
//! number of decimals, and Markdown tables.

use smoothscale::sim::report::Fixed;

/// `value` with `decimals` decimals and thousands separators (`12,345.6`).
pub fn num(value: f64, decimals: usize) -> String {
    group(&format!("{value:.decimals$}"))
}

/// An exact simulator figure with thousands separators.
pub fn fixed(value: Fixed) -> String {
    group(&value.to_string())
}

/// An optional figure; `never` when absent.
pub fn opt(value: Option<Fixed>) -> String {
    value.map_or_else(|| "never".to_string(), fixed)
}

/// An optional figure as a CSV cell: empty when absent.
pub fn cell(value: Option<Fixed>) -> String {
    value.map_or_else(String::new, |v| v.to_string())
}

/// An integer with thousands separators.
pub fn int(value: u64) -> String {
    group(&value.to_string())
}

/// Inserts commas between thousands in the integer part of a decimal text.
fn group(text: &str) -> String {
    let (sign, unsigned) = match text.strip_prefix('-') {
        Some(u) => ("-", u),
        None => ("", text),
    };
    let (whole, fraction) = match unsigned.find('.') {
        Some(i) => unsigned.split_at(i),
        None => (unsigned, ""),
    };
    let mut grouped = String::new();
    for (i, digit) in whole.chars().enumerate() {
        if i > 0 && (whole.len() - i) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(digit);
    }
    format!("{sign}{grouped}{fraction}")
}

/// A Markdown table: a header row, then `rows`; columns after the first
/// `left` are right-aligned (numbers).
pub fn table(header: &[&str], left: usize, rows: &[Vec<String>]) -> String {
    let mut out = format!("| {} |\n|", header.join(" | "));
    for i in 0..header.len() {
        out.push_str(if i < left { "---|" } else { "---:|" });
    }
    out.push('\n');
    for row in rows {
        out.push_str(&format!("| {} |\n", row.join(" | ")));
    }
    out.pop();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_are_grouped() {
        assert_eq!(num(1234567.891, 2), "1,234,567.89");
        assert_eq!(num(-1000.0, 0), "-1,000");
        assert_eq!(int(999), "999");
        assert_eq!(int(1000), "1,000");
    }
}
