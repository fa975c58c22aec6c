//! Numbers as the paper prints them: thousands separated by commas, a fixed
//! number of decimals, and Markdown tables.

use smoothscale::sim::report::{Fixed, Paired, SignedFixed, Stats};

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

/// `value` rounded half up to `decimals` decimals (at most its own).
pub fn round(value: Fixed, decimals: u32) -> Fixed {
    let Some(drop) = value.decimals.checked_sub(decimals) else {
        return value;
    };
    let unit = 10u128.pow(drop);
    Fixed {
        scaled: value.scaled / unit
            + u128::from(value.scaled % unit >= unit.div_ceil(2) && drop > 0),
        decimals,
    }
}

/// An exact figure rounded half up to `decimals` decimals, with thousands
/// separators.
pub fn fixed_to(value: Fixed, decimals: u32) -> String {
    fixed(round(value, decimals))
}

/// A signed figure, its magnitude rounded half up to `decimals` decimals
/// (a magnitude that rounds to 0 prints without a sign).
pub fn signed_to(value: SignedFixed, decimals: u32) -> String {
    let magnitude = round(value.magnitude(), decimals);
    let sign = if value.is_negative() && magnitude.scaled > 0 {
        "-"
    } else {
        ""
    };
    format!("{sign}{}", fixed(magnitude))
}

/// A mean and the half-width of its 95 % confidence interval, `m ± h`, or
/// the mean alone for one value, `–` for none.
pub fn mean_ci(stats: &Stats, decimals: u32) -> String {
    match (stats.mean, stats.ci95_half_width) {
        (Some(m), Some(h)) => format!("{} ± {}", fixed_to(m, decimals), fixed_to(h, decimals)),
        (Some(m), None) => fixed_to(m, decimals),
        _ => "–".to_string(),
    }
}

/// The mean of `stats` rounded to `decimals`, `–` for none.
pub fn mean(stats: &Stats, decimals: u32) -> String {
    stats
        .mean
        .map_or_else(|| "–".to_string(), |m| fixed_to(m, decimals))
}

/// A paired comparison in words: the mean difference, its 95 % interval,
/// and on how many seeds the first strategy's figure was lower, higher and
/// equal; the verdict apart.
pub struct PairedText {
    /// The mean difference (`–` without pairs).
    pub mean: String,
    /// `[low, high]` (`–` for fewer than two pairs).
    pub ci: String,
    /// `lower / higher / equal` seed counts.
    pub wins: String,
    /// `lower`, `higher` or `no significant difference`.
    pub verdict: &'static str,
}

/// [`PairedText`] of `p` with `decimals` decimals.
pub fn paired(p: &Paired, decimals: u32) -> PairedText {
    PairedText {
        mean: p
            .mean_difference
            .map_or_else(|| "–".to_string(), |m| signed_to(m, decimals)),
        ci: p.ci95.map_or_else(
            || "–".to_string(),
            |(low, high)| {
                format!(
                    "[{}, {}]",
                    signed_to(low, decimals),
                    signed_to(high, decimals)
                )
            },
        ),
        wins: format!("{} / {} / {}", p.lower, p.higher, p.equal),
        verdict: p.verdict.as_str(),
    }
}

/// Parses a figure as [`Fixed`] prints it (`12.345`, `42`).
pub fn parse_fixed(text: &str) -> Option<Fixed> {
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    if whole.is_empty()
        || !whole
            .bytes()
            .chain(fraction.bytes())
            .all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let decimals = u32::try_from(fraction.len()).ok()?;
    let scaled = format!("{whole}{fraction}").parse().ok()?;
    Some(Fixed { scaled, decimals })
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

    #[test]
    fn figures_round_half_up_and_parse_back() {
        let f = |scaled, decimals| Fixed { scaled, decimals };
        assert_eq!(round(f(12_345, 3), 1), f(123, 1));
        assert_eq!(round(f(12_350, 3), 1), f(124, 1));
        assert_eq!(round(f(12_349, 3), 0), f(12, 0));
        assert_eq!(round(f(7, 0), 2), f(7, 0));
        assert_eq!(fixed_to(f(1_234_567_891, 3), 1), "1,234,567.9");
        for text in ["0", "12", "12.345", "0.000", "1234567.8901"] {
            assert_eq!(
                parse_fixed(text).map(|v| v.to_string()).as_deref(),
                Some(text)
            );
        }
        for bad in ["", "-1", "1.2.3", ".5", "x"] {
            assert_eq!(parse_fixed(bad), None, "{bad}");
        }
        let minus = SignedFixed::new(true, f(40, 3));
        assert_eq!(signed_to(minus, 1), "0.0");
        assert_eq!(signed_to(SignedFixed::new(true, f(1_250, 3)), 1), "-1.3");
    }
}
