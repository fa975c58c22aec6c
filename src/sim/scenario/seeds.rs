//! The seeds a sweep runs ([`SeedRange`], `--seeds A..B`), bounded, and
//! where the held-out seeds begin ([`HELD_OUT_SEEDS_FROM`]).

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

/// The first held-out seed. Seeds below it are for development and tuning
/// (trying a strategy, choosing its parameters, looking for a bad case);
/// every published figure (the README, docs/, the paper) comes from seeds
/// at or above it, which no tuning has looked at, so that a figure measures
/// a strategy rather than how well it was fitted to its test seeds. A
/// sweep whose range straddles it says so on standard error
/// ([`SeedRange::mixes_held_out`]). Public as [`SeedRange::HELD_OUT_FROM`].
pub const HELD_OUT_SEEDS_FROM: u64 = 1_000_000;

impl SeedRange {
    /// The first held-out seed (`HELD_OUT_SEEDS_FROM` of `seeds.rs`): seeds
    /// below it are for development and tuning, every published figure
    /// comes from seeds at or above it.
    pub const HELD_OUT_FROM: u64 = HELD_OUT_SEEDS_FROM;

    /// Whether the range holds both development seeds (below
    /// [`Self::HELD_OUT_FROM`]) and held-out ones.
    pub fn mixes_held_out(&self) -> bool {
        self.start < HELD_OUT_SEEDS_FROM && self.end > HELD_OUT_SEEDS_FROM
    }

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

    #[test]
    fn a_range_mixes_held_out_seeds_only_across_the_boundary() {
        let range = |start, end| SeedRange { start, end };
        assert!(range(999_990, 1_000_010).mixes_held_out());
        assert!(range(999_999, 1_000_001).mixes_held_out());
        assert!(!range(0, 100).mixes_held_out());
        assert!(!range(999_990, 1_000_000).mixes_held_out()); // B excluded
        assert!(!range(1_000_000, 1_000_010).mixes_held_out());
        assert_eq!(SeedRange::HELD_OUT_FROM, 1_000_000);
    }
}
