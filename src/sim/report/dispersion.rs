//! How far a sweep's figures spread, computed exactly: nearest-rank
//! percentiles ([`nearest_rank`]), the sample standard deviation and the
//! half-width of the 95% confidence interval of the mean (Student's t), from the exact decimals of [`Fixed`] with integer
//! arithmetic only, each rounded once, half up. No floating point, so the
//! figures are the same bytes on every machine and thread count.
//!
//! With `n` values `xᵢ` of mean `m = Σxᵢ / n`:
//!
//! - `std = √( Σ(xᵢ − m)² / (n − 1) )`, the sample standard deviation
//!   (Bessel's `n − 1`); none for fewer than 2 values.
//! - `ci95_half_width = t × std / √n`, where `t` is the 97.5% quantile of
//!   Student's t with `n − 1` degrees of freedom ([`t_975_milli`]): the 95%
//!   confidence interval of the mean is `mean ± ci95_half_width`, under the
//!   usual assumption that the runs are independent draws of a roughly normal
//!   figure. None for fewer than 2 values.
//!
//! Both are computed as one square root of an exact fraction,
//! `Σ(n·xᵢ − Σx)² / (n²(n − 1))` (times `t² / n` for the interval), so the
//! only roundings are the table's `t` (3 decimals) and the final one.

use std::cmp::Ordering;

use super::fixed::Fixed;
use super::signed::SignedFixed;

/// The nearest-rank `percent`-th percentile of ascending `sorted` values: the
/// value of 1-based rank `⌈percent/100 × n⌉` (at least 1); `None` when empty.
pub fn nearest_rank<T: Copy>(sorted: &[T], percent: u32) -> Option<T> {
    if sorted.is_empty() {
        return None;
    }
    let n = sorted.len() as u64;
    let rank = (u64::from(percent) * n).div_ceil(100).clamp(1, n);
    Some(sorted[usize::try_from(rank - 1).expect("a rank within the list")])
}

/// Student's t, 97.5% quantile (two-sided 95%), in thousandths, for the
/// degrees of freedom listed; between two rows the smaller row's value is
/// used (a slightly wider, conservative interval).
const T_975: [(u64, u32); 39] = [
    (1, 12_706),
    (2, 4_303),
    (3, 3_182),
    (4, 2_776),
    (5, 2_571),
    (6, 2_447),
    (7, 2_365),
    (8, 2_306),
    (9, 2_262),
    (10, 2_228),
    (11, 2_201),
    (12, 2_179),
    (13, 2_160),
    (14, 2_145),
    (15, 2_131),
    (16, 2_120),
    (17, 2_110),
    (18, 2_101),
    (19, 2_093),
    (20, 2_086),
    (21, 2_080),
    (22, 2_074),
    (23, 2_069),
    (24, 2_064),
    (25, 2_060),
    (26, 2_056),
    (27, 2_052),
    (28, 2_048),
    (29, 2_045),
    (30, 2_042),
    (40, 2_021),
    (50, 2_009),
    (60, 2_000),
    (80, 1_990),
    (100, 1_984),
    (120, 1_980),
    (200, 1_972),
    (500, 1_965),
    (1_000, 1_962),
];

/// The 97.5% quantile of Student's t with `df` degrees of freedom, in
/// thousandths, as printed in statistical tables (rounded to 3 decimals):
/// exact rows for `df` 1 to 30, then rows 40, 50, 60, 80, 100, 120, 200, 500
/// and 1000; between rows the row below (the larger t), and past 1000 the
/// row of 1000 (1.962; the limit is 1.960). `None` for `df` 0.
pub fn t_975_milli(df: u64) -> Option<u32> {
    T_975
        .iter()
        .rev()
        .find(|(row, _)| *row <= df)
        .map(|&(_, t)| t)
}

/// The sample standard deviation and the 95% confidence half-width of
/// `values` (all with the same decimals), with `decimals` decimals (at least
/// the values'); `None` for fewer than 2 values.
pub fn spread(values: &[Fixed], decimals: u32) -> Option<(Fixed, Fixed)> {
    let from = values.first()?.decimals;
    let scaled: Vec<Wide> = values.iter().map(|v| Wide::from(v.scaled)).collect();
    spread_of(&scaled, from, decimals)
}

/// [`spread`] of values that may be negative (all with the same decimals):
/// the sample standard deviation and the 95% confidence half-width, both
/// non-negative, computed exactly in the same way. Each value is shifted up
/// by the largest negative magnitude first, which changes no deviation
/// from the mean (`n·(xᵢ + c) − Σ(x + c) = n·xᵢ − Σx`).
pub fn spread_signed(values: &[SignedFixed], decimals: u32) -> Option<(Fixed, Fixed)> {
    let from = values.first()?.magnitude().decimals;
    let shift = values
        .iter()
        .filter(|v| v.is_negative())
        .map(|v| v.magnitude().scaled)
        .max()
        .unwrap_or(0);
    let shift = Wide::from(shift);
    let shifted: Vec<Wide> = values
        .iter()
        .map(|v| {
            let magnitude = Wide::from(v.magnitude().scaled);
            if v.is_negative() {
                shift.sub(&magnitude)
            } else {
                shift.add(&magnitude)
            }
        })
        .collect();
    spread_of(&shifted, from, decimals)
}

/// [`spread`] of non-negative values given as their scaled integers, with
/// `from` decimals, rounded to `decimals`.
fn spread_of(values: &[Wide], from: u32, decimals: u32) -> Option<(Fixed, Fixed)> {
    let n = values.len() as u128;
    let df = u64::try_from(n.checked_sub(1)?).ok()?;
    let t = t_975_milli(df)?;
    let extra = decimals.checked_sub(from)?;
    let sum = values.iter().fold(Wide::from(0), |acc, v| acc.add(v));
    // Σ(n·xᵢ − Σx)², exact.
    let mut squares = Wide::from(0);
    for v in values {
        let deviation = v.mul(&Wide::from(n)).abs_diff(&sum);
        squares = squares.add(&deviation.mul(&deviation));
    }
    let scale = Wide::from(10u128.pow(extra));
    let numerator = squares.mul(&scale).mul(&scale);
    // std² = Σ(n·xᵢ − Σx)² / (n²(n − 1)).
    let n_wide = Wide::from(n);
    let variance_den = n_wide.mul(&n_wide).mul(&Wide::from(n - 1));
    let std = rounded_sqrt(&numerator, &variance_den)?;
    // half-width² = t² × std² / n, t in thousandths.
    let t = Wide::from(u128::from(t));
    let half_num = numerator.mul(&t).mul(&t);
    let half_den = variance_den.mul(&n_wide).mul(&Wide::from(1_000_000));
    let half = rounded_sqrt(&half_num, &half_den)?;
    Some((
        Fixed {
            scaled: std,
            decimals,
        },
        Fixed {
            scaled: half,
            decimals,
        },
    ))
}

/// `√(num / den)` rounded half up: the largest `r` with `r − ½ ≤ √(num/den)`,
/// that is `(2r − 1)² · den ≤ 4 · num` (or 0). `None` when `den` is 0 or the
/// root does not fit a `u128`.
fn rounded_sqrt(num: &Wide, den: &Wide) -> Option<u128> {
    if den.is_zero() {
        return None;
    }
    let four_num = num.mul(&Wide::from(4));
    let fits = |r: u128| -> bool {
        if r == 0 {
            return true;
        }
        let odd = Wide::from(r).mul(&Wide::from(2)).sub(&Wide::from(1));
        odd.mul(&odd).mul(den).cmp(&four_num) != Ordering::Greater
    };
    // √(num/den) ≤ √num < 2^(bits/2 + 1).
    let bits = num.bits();
    let mut high: u128 = if bits / 2 + 1 >= 128 {
        u128::MAX
    } else {
        1u128 << (bits / 2 + 1)
    };
    if high == u128::MAX && fits(high) {
        return None;
    }
    let mut low: u128 = 0; // fits(low), !fits(high)
    while high - low > 1 {
        let mid = low + (high - low) / 2;
        if fits(mid) {
            low = mid;
        } else {
            high = mid;
        }
    }
    Some(low)
}

/// The lowest 32 bits of `value`.
fn low_limb(value: u128) -> u32 {
    u32::try_from(value & 0xffff_ffff).expect("32 bits")
}

/// A non-negative integer of any size (32-bit limbs, least significant
/// first, no leading zero limbs): enough arithmetic for exact sums of squares.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Wide(Vec<u32>);

impl Wide {
    fn from(mut value: u128) -> Wide {
        let mut limbs = Vec::new();
        while value > 0 {
            limbs.push(low_limb(value));
            value >>= 32;
        }
        Wide(limbs)
    }

    fn is_zero(&self) -> bool {
        self.0.is_empty()
    }

    fn bits(&self) -> u64 {
        self.0.last().map_or(0, |top| {
            32 * (self.0.len() as u64 - 1) + u64::from(32 - top.leading_zeros())
        })
    }

    fn trim(mut limbs: Vec<u32>) -> Wide {
        while limbs.last() == Some(&0) {
            limbs.pop();
        }
        Wide(limbs)
    }

    fn add(&self, other: &Wide) -> Wide {
        let len = self.0.len().max(other.0.len());
        let mut limbs = Vec::with_capacity(len + 1);
        let mut carry = 0u64;
        for i in 0..len {
            let sum = u64::from(*self.0.get(i).unwrap_or(&0))
                + u64::from(*other.0.get(i).unwrap_or(&0))
                + carry;
            limbs.push(low_limb(u128::from(sum)));
            carry = sum >> 32;
        }
        limbs.push(low_limb(u128::from(carry)));
        Wide::trim(limbs)
    }

    /// `self − other`; `other` must not be larger.
    fn sub(&self, other: &Wide) -> Wide {
        debug_assert!(self.cmp(other) != Ordering::Less);
        let mut limbs = Vec::with_capacity(self.0.len());
        let mut borrow = false;
        for (i, &limb) in self.0.iter().enumerate() {
            let (diff, below) = limb.overflowing_sub(*other.0.get(i).unwrap_or(&0));
            let (diff, below_again) = diff.overflowing_sub(u32::from(borrow));
            borrow = below || below_again;
            limbs.push(diff);
        }
        Wide::trim(limbs)
    }

    fn abs_diff(&self, other: &Wide) -> Wide {
        match self.cmp(other) {
            Ordering::Less => other.sub(self),
            _ => self.sub(other),
        }
    }

    fn mul(&self, other: &Wide) -> Wide {
        if self.is_zero() || other.is_zero() {
            return Wide(Vec::new());
        }
        let mut limbs = vec![0u32; self.0.len() + other.0.len()];
        for (i, &a) in self.0.iter().enumerate() {
            let mut carry = 0u64;
            for (j, &b) in other.0.iter().enumerate() {
                let cell = u64::from(limbs[i + j]) + u64::from(a) * u64::from(b) + carry;
                limbs[i + j] = low_limb(u128::from(cell));
                carry = cell >> 32;
            }
            limbs[i + other.0.len()] = low_limb(u128::from(carry));
        }
        Wide::trim(limbs)
    }

    fn cmp(&self, other: &Wide) -> Ordering {
        self.0
            .len()
            .cmp(&other.0.len())
            .then_with(|| self.0.iter().rev().cmp(other.0.iter().rev()))
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn nearest_rank_by_hand() {
        let four = [1, 2, 3, 4];
        assert_eq!(nearest_rank(&four, 50), Some(2)); // ⌈2⌉ = 2
        assert_eq!(nearest_rank(&four, 95), Some(4)); // ⌈3.8⌉ = 4
        assert_eq!(nearest_rank(&four, 25), Some(1)); // ⌈1⌉ = 1
        assert_eq!(nearest_rank(&four, 26), Some(2)); // ⌈1.04⌉ = 2
        assert_eq!(nearest_rank(&four, 0), Some(1)); // rank at least 1
        assert_eq!(nearest_rank(&four, 100), Some(4));
        let twenty: Vec<u32> = (1..=20).collect();
        assert_eq!(nearest_rank(&twenty, 95), Some(19)); // ⌈19⌉ = 19
        assert_eq!(nearest_rank(&twenty, 50), Some(10)); // ⌈10⌉ = 10
        let ten: Vec<u32> = (1..=10).map(|x| x * 10).collect();
        assert_eq!(nearest_rank(&ten, 95), Some(100)); // ⌈9.5⌉ = 10
        assert_eq!(nearest_rank(&ten, 50), Some(50)); // ⌈5⌉ = 5
        assert_eq!(nearest_rank(&[7], 50), Some(7));
        assert_eq!(nearest_rank::<u32>(&[], 50), None);
    }

    use super::*;

    fn ints(values: &[u64]) -> Vec<Fixed> {
        values.iter().map(|&v| Fixed::int(v)).collect()
    }

    fn shown(values: &[Fixed], decimals: u32) -> Option<(String, String)> {
        spread(values, decimals).map(|(s, h)| (s.to_string(), h.to_string()))
    }

    #[test]
    fn one_two_three_by_hand() {
        // Mean 2; Σ(x − m)² = 1 + 0 + 1 = 2; std = √(2 / 2) = 1.
        // Half-width: t(0.975, 2) = 4.303; 4.303 × 1 / √3 = 2.4843… → 2.484.
        assert_eq!(
            shown(&ints(&[1, 2, 3]), 3),
            Some(("1.000".into(), "2.484".into()))
        );
    }

    #[test]
    fn seconds_by_hand() {
        // 1.000, 2.000, 4.000 s: mean 7/3; Σ(x − m)² = 16/9 + 1/9 + 25/9 = 42/9;
        // std² = 42/18 = 2.3333…, std = 1.52752… → 1.528.
        // t(0.975, 2) = 4.303: 4.303 × 1.52752 / √3 = 3.79487… → 3.795.
        let secs: Vec<Fixed> = [1_000, 2_000, 4_000]
            .map(|ms| Fixed {
                scaled: ms,
                decimals: 3,
            })
            .to_vec();
        assert_eq!(shown(&secs, 3), Some(("1.528".into(), "3.795".into())));
        // Two values 0 and 10: std = √50 = 7.07107 → 7.071; t(1) = 12.706:
        // 12.706 × 7.07107 / √2 = 63.530 exactly (12.706 × 5).
        assert_eq!(
            shown(&ints(&[0, 10]), 3),
            Some(("7.071".into(), "63.530".into()))
        );
    }

    #[test]
    fn equal_values_and_too_few() {
        assert_eq!(
            shown(&ints(&[5, 5, 5, 5]), 3),
            Some(("0.000".into(), "0.000".into()))
        );
        assert_eq!(shown(&ints(&[5]), 3), None);
        assert_eq!(shown(&[], 3), None);
    }

    #[test]
    fn huge_values_stay_exact() {
        // u64::MAX and 0: the mean is u64::MAX / 2, std = u64::MAX / √2.
        let max = u128::from(u64::MAX);
        let (std, half) = spread(&[Fixed::int(u64::MAX), Fixed::int(0)], 0).unwrap();
        // √(max² / 2) rounded: check r − ½ ≤ max/√2 < r + ½ with integers.
        let r = std.scaled;
        let (lo, hi) = (2 * r - 1, 2 * r + 1);
        let four_sq = Wide::from(max).mul(&Wide::from(max)).mul(&Wide::from(2));
        assert!(Wide::from(lo).mul(&Wide::from(lo)).cmp(&four_sq) != Ordering::Greater);
        assert!(Wide::from(hi).mul(&Wide::from(hi)).cmp(&four_sq) == Ordering::Greater);
        // The half-width is t(1) × std / √2 = 12.706 × max / 2 = 6.353 × max.
        assert_eq!(half.scaled, (max * 6_353 + 500) / 1_000);
    }

    #[test]
    fn signed_values_spread_as_their_shifted_values() {
        let signed = |negative: bool, ms: u128| {
            SignedFixed::new(
                negative,
                Fixed {
                    scaled: ms,
                    decimals: 3,
                },
            )
        };
        // −1, 0, 1 s: the spread of 1, 2, 3 (std 1, half-width 2.484).
        let around_zero = [signed(true, 1_000), signed(false, 0), signed(false, 1_000)];
        let got = spread_signed(&around_zero, 3).map(|(s, h)| (s.to_string(), h.to_string()));
        assert_eq!(got, Some(("1.000".into(), "2.484".into())));
        // All negative: −4, −2, −1 s, the spread of 1, 2, 4 s (seconds_by_hand).
        let below = [
            signed(true, 4_000),
            signed(true, 2_000),
            signed(true, 1_000),
        ];
        let got = spread_signed(&below, 3).map(|(s, h)| (s.to_string(), h.to_string()));
        assert_eq!(got, Some(("1.528".into(), "3.795".into())));
        // ±u64::MAX: std = max · √2, half-width t(1) × std / √2 = 12.706 × max.
        let max = u128::from(u64::MAX);
        let int = |negative: bool| SignedFixed::new(negative, Fixed::int(u64::MAX));
        let (_, half) = spread_signed(&[int(true), int(false)], 0).unwrap();
        assert_eq!(half.scaled, (max * 12_706 + 500) / 1_000);
        // ±u128::MAX: the shifted values pass 128 bits and stay exact, but
        // the deviation (√2 × u128::MAX) does not fit a Fixed.
        let extremes = [signed(true, u128::MAX), signed(false, u128::MAX)];
        assert_eq!(spread_signed(&extremes, 3), None);
        let one = [signed(true, 5)];
        assert_eq!(spread_signed(&one, 3), None);
    }

    #[test]
    fn t_table_rows() {
        assert_eq!(t_975_milli(0), None);
        assert_eq!(t_975_milli(1), Some(12_706));
        assert_eq!(t_975_milli(2), Some(4_303));
        assert_eq!(t_975_milli(30), Some(2_042));
        assert_eq!(t_975_milli(39), Some(2_042)); // the row below: 30
        assert_eq!(t_975_milli(40), Some(2_021));
        assert_eq!(t_975_milli(119), Some(1_984));
        assert_eq!(t_975_milli(5_000), Some(1_962));
        // Decreasing with df.
        assert!(T_975.windows(2).all(|w| w[0].0 < w[1].0 && w[0].1 > w[1].1));
    }

    #[test]
    fn wide_arithmetic() {
        let a = Wide::from(u128::MAX);
        let b = Wide::from(3);
        assert_eq!(a.add(&b).sub(&b), a);
        assert_eq!(b.abs_diff(&a), a.sub(&b));
        assert_eq!(a.mul(&Wide::from(0)), Wide::from(0));
        assert_eq!(Wide::from(1 << 40).mul(&Wide::from(1 << 40)).bits(), 81);
        assert_eq!(rounded_sqrt(&Wide::from(16), &Wide::from(1)), Some(4));
        // √6.25 = 2.5 rounds half up to 3; √6.24 to 2.
        assert_eq!(rounded_sqrt(&Wide::from(625), &Wide::from(100)), Some(3));
        assert_eq!(rounded_sqrt(&Wide::from(624), &Wide::from(100)), Some(2));
        assert_eq!(rounded_sqrt(&Wide::from(0), &Wide::from(7)), Some(0));
        assert_eq!(rounded_sqrt(&Wide::from(1), &Wide::from(0)), None);
    }
}
