//! The seeds a sweep runs ([`SeedRange`], `--seeds A..B`), bounded.

use crate::model::InputError;

/// Seeds `start..end`: from `start` included to `end` excluded, as Rust
/// ranges are, written `A..B` on the command line (`1..11` is ten seeds).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SeedRange {
    /// The first seed.
    pub start: u64,
    /// One past the last seed.
    pub end: u64,
}

/// The most seeds one sweep runs: each seed's figures are kept until the
/// aggregate is computed, and each run is itself bounded by the scenario's
/// limits (`Scenario::check`), so this bounds a sweep's time and memory.
pub const MAX_SEEDS: u64 = 100_000;

impl SeedRange {
    /// Reads `A..B` with `A < B`.
    ///
    /// # Errors
    ///
    /// An [`InputError`] naming `--seeds` when the text is not `A..B` with
    /// `A < B`, or holds more than [`MAX_SEEDS`] seeds.
    pub fn parse(text: &str) -> Result<SeedRange, InputError> {
        let bad = || {
            InputError::new(
                "--seeds",
                format!("must be A..B with integers A < B (B excluded), got {text:?}"),
            )
        };
        let (a, b) = text.split_once("..").ok_or_else(bad)?;
        let start: u64 = a.trim().parse().map_err(|_| bad())?;
        let end: u64 = b.trim().parse().map_err(|_| bad())?;
        if start >= end {
            return Err(bad());
        }
        if end - start > MAX_SEEDS {
            return Err(InputError::new(
                "--seeds",
                format!(
                    "must hold at most {MAX_SEEDS} seeds (the limit on one sweep), got {}",
                    end - start
                ),
            ));
        }
        Ok(SeedRange { start, end })
    }

    /// The number of seeds.
    pub fn len(&self) -> u64 {
        self.end - self.start
    }

    /// Whether the range holds no seed (never true for a parsed range).
    pub fn is_empty(&self) -> bool {
        self.start >= self.end
    }
}

impl std::fmt::Display for SeedRange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}..{}", self.start, self.end)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_ranges() {
        assert_eq!(
            SeedRange::parse("1..11").unwrap(),
            SeedRange { start: 1, end: 11 }
        );
        assert_eq!(SeedRange::parse("0..1").unwrap().len(), 1);
        assert_eq!(SeedRange::parse("3..11").unwrap().to_string(), "3..11");
        for bad in [
            "5..5", "6..5", "1-3", "a..3", "1..", "..3", "-1..3", "1..=3",
        ] {
            let e = SeedRange::parse(bad).unwrap_err();
            assert_eq!(e.path, "--seeds", "{bad}");
        }
    }
}
