//! Durations as scenario files write them: an integer of milliseconds, or a
//! string of digits and a unit, `"250ms"`, `"45s"`, `"10m"`, `"8h"`, `"2d"`,
//! or several such parts with units from the largest to the smallest, each
//! at most once: `"1h30m"`, `"2d12h"`, `"1m30s500ms"`.
//!
//! Nothing else: no sign, no fraction, no spaces, no unit twice or out of
//! order (`"30m1h"`). A value that does not fit in `u64` milliseconds is an
//! error, never a wrapped or saturated number.
//!
//! `Duration` is the type scenario keys are read into: its deserialiser
//! takes either form and reports a bad value with the value itself. How long
//! a duration may be at most is a limit of the scenario, checked by
//! [`Scenario::check`](super::Scenario::check).

use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, Deserialize, Deserializer, Visitor};

/// The units a duration string may end in, with their length in milliseconds.
/// `ms` comes before `m` and `s`, so that the longest suffix wins.
const UNITS: [(&str, u64); 5] = [
    ("ms", 1),
    ("s", 1_000),
    ("m", 60_000),
    ("h", 3_600_000),
    ("d", 86_400_000),
];

/// Why a duration string was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DurationError {
    /// Not parts of digits followed by one of the units `d`, `h`, `m`, `s`,
    /// `ms`, each unit at most once, largest first.
    Malformed,
    /// More milliseconds than `u64` holds.
    TooLong,
}

impl fmt::Display for DurationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DurationError::Malformed => f.write_str(
                "must be a duration: milliseconds, or a string like \"500ms\", \"45s\", \"10m\", \"8h\", \"2d\" or \"1h30m\"",
            ),
            DurationError::TooLong => write!(f, "must be at most {} ms", u64::MAX),
        }
    }
}

impl std::error::Error for DurationError {}

/// Reads a duration string (`"45s"`) as milliseconds.
///
/// ```
/// use smoothscale::sim::{parse_duration, DurationError};
/// assert_eq!(parse_duration("10m"), Ok(600_000));
/// assert_eq!(parse_duration("250ms"), Ok(250));
/// assert_eq!(parse_duration("1h30m"), Ok(5_400_000));
/// assert_eq!(parse_duration("10x"), Err(DurationError::Malformed));
/// ```
///
/// # Errors
///
/// A [`DurationError`] when the text is not a duration or does not fit.
pub fn parse_duration(text: &str) -> Result<u64, DurationError> {
    if text.is_empty() {
        return Err(DurationError::Malformed);
    }
    let mut rest = text;
    let mut total: u64 = 0;
    // Each part's unit must be smaller than the one before.
    let mut previous = u64::MAX;
    while !rest.is_empty() {
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        let (number, tail) = rest.split_at(digits);
        if number.is_empty() {
            return Err(DurationError::Malformed);
        }
        let (name, scale) = UNITS
            .iter()
            .copied()
            .find(|(name, _)| tail.starts_with(name))
            .ok_or(DurationError::Malformed)?;
        if scale >= previous {
            return Err(DurationError::Malformed);
        }
        previous = scale;
        let n: u64 = number.parse().map_err(|_| DurationError::TooLong)?;
        total = n
            .checked_mul(scale)
            .and_then(|ms| total.checked_add(ms))
            .ok_or(DurationError::TooLong)?;
        rest = &tail[name.len()..];
    }
    Ok(total)
}

/// Writes milliseconds in the largest unit that divides them exactly
/// (`600000` → `"10m"`, `1500` → `"1500ms"`, `0` → `"0ms"`);
/// [`parse_duration`] reads the result back to the same number.
pub fn format_duration(ms: u64) -> String {
    if ms == 0 {
        return "0ms".to_string();
    }
    let (unit, scale) = UNITS
        .iter()
        .rev()
        .find(|(_, scale)| ms % scale == 0)
        .copied()
        .unwrap_or(UNITS[0]);
    format!("{}{unit}", ms / scale)
}

/// A duration read from a scenario file, in milliseconds, at least `MIN_MS`
/// (so `Duration<1>` is a positive duration).
///
/// It deserialises from an integer of milliseconds or a duration string
/// ([`parse_duration`]); a refused value is reported with the value as
/// written: `must not be negative, got -5`, `must be at least "1ms", got "0s"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Duration<const MIN_MS: u64 = 0>(pub u64);

impl<const MIN_MS: u64> Duration<MIN_MS> {
    /// The milliseconds.
    pub(crate) fn ms(self) -> u64 {
        self.0
    }

    fn at_least<E: de::Error>(ms: u64, shown: impl fmt::Display) -> Result<Self, E> {
        if ms < MIN_MS {
            return Err(E::custom(format_args!(
                "must be at least {:?}, got {shown}",
                format_duration(MIN_MS)
            )));
        }
        Ok(Duration(ms))
    }
}

struct DurationVisitor<const MIN_MS: u64>(PhantomData<Duration<MIN_MS>>);

impl<const MIN_MS: u64> Visitor<'_> for DurationVisitor<MIN_MS> {
    type Value = Duration<MIN_MS>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Read after "must be": the same words as `DurationError::Malformed`.
        f.write_str(
            "a duration: milliseconds, or a string like \"500ms\", \"45s\", \"10m\", \"8h\", \"2d\"",
        )
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
        match u64::try_from(v) {
            Ok(ms) => Duration::at_least(ms, v),
            Err(_) => Err(E::custom(format_args!("must not be negative, got {v}"))),
        }
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
        Duration::at_least(v, v)
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        match parse_duration(v) {
            Ok(ms) => Duration::at_least(ms, format_args!("{v:?}")),
            Err(e) => Err(E::custom(format_args!("{e}, got {v:?}"))),
        }
    }
}

impl<'de, const MIN_MS: u64> Deserialize<'de> for Duration<MIN_MS> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(DurationVisitor(PhantomData))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units() {
        for (text, ms) in [
            ("0ms", 0),
            ("1ms", 1),
            ("45s", 45_000),
            ("10m", 600_000),
            ("8h", 28_800_000),
            ("2d", 172_800_000),
            ("007s", 7_000),
            ("18446744073709551615ms", u64::MAX),
            ("1h30m", 5_400_000),
            ("2d12h", 216_000_000),
            ("1m30s500ms", 90_500),
            ("1h0m", 3_600_000),
        ] {
            assert_eq!(parse_duration(text), Ok(ms), "{text}");
        }
    }

    #[test]
    fn refusals() {
        for text in [
            "", "10", "s", "10x", "-5s", "+5s", "1.5h", " 5s", "5s ", "5 s", "5S", "5mss", "30m1h",
            "1h1h", "1h 30m", "1h30", "1h-30m", "1hm",
        ] {
            assert_eq!(
                parse_duration(text),
                Err(DurationError::Malformed),
                "{text:?}"
            );
        }
        for text in [
            "18446744073709551616ms",
            "5124095576030432h",
            "99999999999999999999999d",
            // 213,503,982,334 days fit; 15 hours more do not.
            "213503982334d15h",
        ] {
            assert_eq!(
                parse_duration(text),
                Err(DurationError::TooLong),
                "{text:?}"
            );
        }
    }

    #[test]
    fn format_round_trips() {
        for ms in [
            0,
            1,
            999,
            1_000,
            1_500,
            60_000,
            90_000,
            3_600_000,
            86_400_000,
            u64::MAX,
        ] {
            assert_eq!(parse_duration(&format_duration(ms)), Ok(ms), "{ms}");
        }
        assert_eq!(format_duration(28_800_000), "8h");
        assert_eq!(format_duration(90_000), "90s");
        assert_eq!(format_duration(1_500), "1500ms");
    }
}
