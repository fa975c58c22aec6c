//! [`SignedFixed`]: an exact decimal with a sign, for the figures that can
//! be negative (a strategy's figure minus the baseline's, `paired.rs`),
//! printed without floating point as [`Fixed`] is.

use std::fmt;

use super::fixed::Fixed;

/// A decimal number with a sign: a [`Fixed`] magnitude and whether it is
/// below zero. Zero is never negative, so it prints `0.000`, never
/// `-0.000`; a negative value prints as its magnitude after a `-`
/// (`-1.500`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SignedFixed {
    /// Below zero (never for zero).
    negative: bool,
    /// The absolute value.
    magnitude: Fixed,
}

impl SignedFixed {
    /// `magnitude`, below zero when `negative` and the magnitude is not 0.
    pub fn new(negative: bool, magnitude: Fixed) -> SignedFixed {
        SignedFixed {
            negative: negative && magnitude.scaled != 0,
            magnitude,
        }
    }

    /// `a − b`, exact, with the decimals of whichever has more (both have
    /// the same for the figures of one metric).
    pub fn difference(a: Fixed, b: Fixed) -> SignedFixed {
        let decimals = a.decimals.max(b.decimals);
        let (a, b) = (a.rescaled(decimals), b.rescaled(decimals));
        let magnitude = |scaled| Fixed { scaled, decimals };
        if a.scaled < b.scaled {
            SignedFixed::new(true, magnitude(b.scaled - a.scaled))
        } else {
            SignedFixed::new(false, magnitude(a.scaled - b.scaled))
        }
    }

    /// Whether it is below zero.
    pub fn is_negative(self) -> bool {
        self.negative
    }

    /// Whether it is above zero.
    pub fn is_positive(self) -> bool {
        !self.negative && self.magnitude.scaled != 0
    }

    /// Whether it is zero.
    pub fn is_zero(self) -> bool {
        self.magnitude.scaled == 0
    }

    /// The absolute value.
    pub fn magnitude(self) -> Fixed {
        self.magnitude
    }

    /// `self + other`, exact, with the decimals of whichever has more.
    pub fn plus(self, other: Fixed) -> SignedFixed {
        if self.negative {
            // −m + o = o − m.
            SignedFixed::difference(other, self.magnitude)
        } else {
            let decimals = self.magnitude.decimals.max(other.decimals);
            let scaled = self
                .magnitude
                .rescaled(decimals)
                .scaled
                .saturating_add(other.rescaled(decimals).scaled);
            SignedFixed::new(false, Fixed { scaled, decimals })
        }
    }

    /// `self − other`, exact, with the decimals of whichever has more.
    pub fn minus(self, other: Fixed) -> SignedFixed {
        // s − o = −(−s + o).
        let flipped = SignedFixed::new(!self.negative, self.magnitude).plus(other);
        SignedFixed::new(!flipped.negative, flipped.magnitude)
    }
}

impl From<Fixed> for SignedFixed {
    fn from(value: Fixed) -> SignedFixed {
        SignedFixed::new(false, value)
    }
}

impl fmt::Display for SignedFixed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.negative {
            f.write_str("-")?;
        }
        write!(f, "{}", self.magnitude)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn milli(value: u64) -> Fixed {
        Fixed::milli(value)
    }

    fn shown(value: SignedFixed) -> String {
        value.to_string()
    }

    #[test]
    fn signs_print_and_zero_is_never_negative() {
        assert_eq!(shown(SignedFixed::new(true, milli(1_500))), "-1.500");
        assert_eq!(shown(SignedFixed::new(false, milli(1_500))), "1.500");
        let zero = SignedFixed::new(true, milli(0));
        assert_eq!(shown(zero), "0.000");
        assert!(zero.is_zero() && !zero.is_negative() && !zero.is_positive());
        assert_eq!(zero, SignedFixed::from(milli(0)));
    }

    #[test]
    fn differences_by_hand() {
        assert_eq!(
            shown(SignedFixed::difference(milli(1_000), milli(2_500))),
            "-1.500"
        );
        assert_eq!(
            shown(SignedFixed::difference(milli(2_500), milli(1_000))),
            "1.500"
        );
        assert_eq!(shown(SignedFixed::difference(milli(7), milli(7))), "0.000");
        // Mixed decimals: 1.5 − 0.25 (2 decimals) = 1.25, with 2.
        let tenths = Fixed {
            scaled: 15,
            decimals: 1,
        };
        let hundredths = Fixed {
            scaled: 25,
            decimals: 2,
        };
        assert_eq!(shown(SignedFixed::difference(tenths, hundredths)), "1.25");
        assert_eq!(shown(SignedFixed::difference(hundredths, tenths)), "-1.25");
        // The extremes of u128 stay exact.
        let max = Fixed {
            scaled: u128::MAX,
            decimals: 0,
        };
        let d = SignedFixed::difference(Fixed::int(0), max);
        assert!(d.is_negative());
        assert_eq!(d.magnitude().scaled, u128::MAX);
    }

    #[test]
    fn sums_cross_zero_exactly() {
        let minus_one = SignedFixed::new(true, milli(1_000));
        assert_eq!(shown(minus_one.plus(milli(2_500))), "1.500");
        assert_eq!(shown(minus_one.plus(milli(1_000))), "0.000");
        assert_eq!(shown(minus_one.minus(milli(2_500))), "-3.500");
        let one = SignedFixed::from(milli(1_000));
        assert_eq!(shown(one.minus(milli(2_500))), "-1.500");
        assert_eq!(shown(one.plus(milli(2_500))), "3.500");
        assert_eq!(shown(one.minus(milli(1_000))), "0.000");
        assert!(one.minus(milli(999)).is_positive());
    }
}
