//! [`Fixed`]: an exact decimal, the type every figure of a run is written
//! in, so that outputs never go through floating point.

use std::fmt;

use crate::sim::run::units::{Millis, SimTime};

/// A non-negative decimal number stored as an integer and a count of decimals:
/// `Fixed { scaled: 12345, decimals: 3 }` is `12.345`. Printing it never goes
/// through floating point, so it is byte-stable.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Fixed {
    /// The value × 10^decimals.
    pub scaled: u128,
    /// Digits after the decimal point.
    pub decimals: u32,
}

impl Fixed {
    /// An integer.
    pub fn int(value: u64) -> Fixed {
        Fixed {
            scaled: u128::from(value),
            decimals: 0,
        }
    }

    /// Milliseconds as seconds with 3 decimals (exact).
    pub fn seconds(ms: Millis) -> Fixed {
        Fixed {
            scaled: u128::from(ms.get()),
            decimals: 3,
        }
    }

    /// An instant as seconds since the start, 3 decimals (exact).
    pub fn at(t: SimTime) -> Fixed {
        Fixed::seconds(t.since(SimTime::ZERO))
    }

    /// Thousandths with 3 decimals (`1500` is `1.500`).
    pub fn milli(value: u64) -> Fixed {
        Fixed {
            scaled: u128::from(value),
            decimals: 3,
        }
    }

    /// `num / den` with `decimals` decimals, rounded half up; `None` when `den` is 0.
    pub fn ratio(num: u128, den: u128, decimals: u32) -> Option<Fixed> {
        if den == 0 {
            return None;
        }
        let scaled = num
            .saturating_mul(10u128.pow(decimals))
            .saturating_add(den / 2)
            / den;
        Some(Fixed { scaled, decimals })
    }

    /// The same value with `decimals` decimals when that is at least its
    /// own (`1.5` with 3 decimals is `1.500`); with fewer, the value as it
    /// is. Exact while the scaled value fits 128 bits (a run's figures, u64
    /// counts with at most 4 decimals, always do); past that it saturates.
    pub fn rescaled(self, decimals: u32) -> Fixed {
        let Some(extra) = decimals.checked_sub(self.decimals) else {
            return self;
        };
        Fixed {
            scaled: self
                .scaled
                .saturating_mul(10u128.checked_pow(extra).unwrap_or(u128::MAX)),
            decimals,
        }
    }

    /// The value as a float, for plots only (never for outputs compared byte for byte).
    pub fn to_f64(self) -> f64 {
        self.scaled as f64 / 10f64.powi(self.decimals as i32)
    }
}

impl fmt::Display for Fixed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.decimals == 0 {
            return write!(f, "{}", self.scaled);
        }
        let unit = 10u128.pow(self.decimals);
        let width = self.decimals as usize;
        write!(
            f,
            "{}.{:0width$}",
            self.scaled / unit,
            self.scaled % unit,
            width = width
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_prints_exact_decimals() {
        assert_eq!(Fixed::seconds(Millis::ZERO).to_string(), "0.000");
        assert_eq!(Fixed::seconds(Millis::new(12_345)).to_string(), "12.345");
        assert_eq!(Fixed::seconds(Millis::new(7)).to_string(), "0.007");
        assert_eq!(Fixed::int(42).to_string(), "42");
        assert_eq!(Fixed::ratio(2, 3, 4).unwrap().to_string(), "0.6667");
        assert_eq!(Fixed::ratio(1, 8, 2).unwrap().to_string(), "0.13");
        assert_eq!(Fixed::ratio(5, 1, 3).unwrap().to_string(), "5.000");
        assert_eq!(Fixed::ratio(1, 0, 3), None);
        assert_eq!(Fixed::int(3).rescaled(3).to_string(), "3.000");
        assert_eq!(Fixed::milli(1_500).rescaled(4).to_string(), "1.5000");
        assert_eq!(Fixed::milli(1_500).rescaled(0), Fixed::milli(1_500));
    }
}
