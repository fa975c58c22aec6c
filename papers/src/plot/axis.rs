//! An axis: a linear or logarithmic scale over a range fitted to the data,
//! where its ticks go and how they are labelled.
//!
//! Charts are drawn in axis space, where a logarithmic axis holds the
//! decimal logarithm of a value: plotters then only ever sees linear
//! ranges, and the ticks are chosen here (decades on logarithmic axes).

/// How values are laid out along an axis.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Scale {
    /// Equal steps for equal differences.
    #[default]
    Linear,
    /// Equal steps for equal ratios; only positive values can be drawn.
    Log,
}

/// Share of the data's span left free at each end of a fitted axis.
const PAD: f64 = 0.04;

/// A logarithmic axis spanning fewer decades than this is also labelled at
/// 2 and 5 times each decade, so that it has enough labels to read.
pub const FEW_DECADES: f64 = 2.0;

/// An axis as drawn: its scale and the range it shows, in axis space.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Axis {
    /// The scale.
    pub scale: Scale,
    /// The first value shown, in axis space.
    pub lo: f64,
    /// The last value shown, in axis space.
    pub hi: f64,
}

impl Axis {
    /// The axis showing `values` (those a logarithmic axis can draw): from
    /// their smallest to their largest (on a linear axis with zero when
    /// `with_zero`), padded a little so that no point sits on the frame.
    pub fn fit(scale: Scale, values: impl Iterator<Item = f64>, with_zero: bool) -> Axis {
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        for v in values.filter(|v| v.is_finite() && (scale == Scale::Linear || *v > 0.0)) {
            lo = lo.min(v);
            hi = hi.max(v);
        }
        let (lo, hi) = match scale {
            Scale::Linear if lo.is_finite() && with_zero => (lo.min(0.0), hi.max(0.0)),
            Scale::Linear if lo.is_finite() => (lo, hi),
            Scale::Linear => (0.0, 1.0),
            Scale::Log if lo.is_finite() => (lo.log10(), hi.log10()),
            Scale::Log => (0.0, 1.0),
        };
        Axis::padded(scale, lo, hi)
    }

    /// The axis from `lo` to `hi` (values, not axis space), unpadded.
    pub fn between(scale: Scale, lo: f64, hi: f64) -> Axis {
        let axis = Axis {
            scale,
            lo: 0.0,
            hi: 0.0,
        };
        Axis {
            scale,
            lo: axis.space_of(lo),
            hi: axis.space_of(hi),
        }
    }

    /// `lo` to `hi` in axis space, widened by [`PAD`] of the span (by one
    /// unit each way when the span is empty).
    fn padded(scale: Scale, lo: f64, hi: f64) -> Axis {
        let d = if hi > lo { (hi - lo) * PAD } else { 1.0 };
        Axis {
            scale,
            lo: lo - d,
            hi: hi + d,
        }
    }

    /// Where `value` lies in axis space; `None` when a logarithmic axis
    /// cannot show it (zero or negative).
    pub fn place(&self, value: f64) -> Option<f64> {
        match self.scale {
            Scale::Linear => Some(value),
            Scale::Log if value > 0.0 => Some(value.log10()),
            Scale::Log => None,
        }
    }

    /// [`Axis::place`] for values known to be drawable (clamped to the
    /// axis's low end otherwise).
    fn space_of(&self, value: f64) -> f64 {
        self.place(value).unwrap_or(self.lo)
    }

    /// The value at `space` in axis space.
    pub fn value(&self, space: f64) -> f64 {
        match self.scale {
            Scale::Linear => space,
            Scale::Log => 10f64.powf(space),
        }
    }

    /// How far along the axis `space` lies: 0 at its start, 1 at its end.
    pub fn fraction(&self, space: f64) -> f64 {
        (space - self.lo) / (self.hi - self.lo)
    }

    /// The labelled ticks (bold grid lines) and the light grid lines, in
    /// axis space. A logarithmic axis is labelled at every decade (and at 2
    /// and 5 times each when it spans fewer than [`FEW_DECADES`]), with
    /// light lines at 2 to 9 times each decade; a linear one every 1, 2 or
    /// 5 × 10ⁿ, at most a dozen ticks, with light lines at fifths (quarters of a
    /// step of 2).
    pub fn ticks(&self) -> (Vec<f64>, Vec<f64>) {
        match self.scale {
            Scale::Linear => {
                let step = nice_step((self.hi - self.lo) / 12.0);
                let mantissa = step / 10f64.powf(step.log10().floor());
                let light = step
                    / if (mantissa - 2.0).abs() < 1e-9 {
                        4.0
                    } else {
                        5.0
                    };
                (self.multiples(step), self.multiples(light))
            }
            Scale::Log => {
                let decades = steps(self.lo.ceil(), self.hi.floor());
                let within = |s: &f64| *s >= self.lo - 1e-9 && *s <= self.hi + 1e-9;
                let times = |factors: &[f64]| -> Vec<f64> {
                    steps(self.lo.floor(), self.hi.ceil())
                        .into_iter()
                        .flat_map(|d| factors.iter().map(move |f| d + f.log10()))
                        .filter(within)
                        .collect()
                };
                let bold = if self.hi - self.lo >= FEW_DECADES {
                    decades
                } else {
                    times(&[1.0, 2.0, 5.0])
                };
                let light = times(&[2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0])
                    .into_iter()
                    .filter(|s| !bold.iter().any(|b| (b - s).abs() < 1e-9))
                    .collect();
                (bold, light)
            }
        }
    }

    /// Multiples of `step` within the axis.
    fn multiples(&self, step: f64) -> Vec<f64> {
        let first = (self.lo / step - 1e-9).ceil();
        let last = (self.hi / step + 1e-9).floor();
        // `+ 0.0` turns a negative zero into zero (labelled "0", not "-0").
        steps(first, last)
            .into_iter()
            .map(|k| k * step + 0.0)
            .collect()
    }

    /// The label of the tick at `space`: the value with thousands grouped
    /// and as many decimals as it needs (none when whole, at most the
    /// decade's on a logarithmic axis, two on a linear one).
    pub fn label(&self, space: f64) -> String {
        let v = self.value(space);
        let decimals = match self.scale {
            Scale::Log => decimals_of(v),
            Scale::Linear => 2,
        };
        if (v - v.round()).abs() < 1e-9 * v.abs().max(1.0) {
            crate::fmt::num(v.round(), 0)
        } else {
            let text = crate::fmt::num(v, decimals);
            text.trim_end_matches('0').trim_end_matches('.').to_string()
        }
    }
}

/// The whole numbers from `first` to `last` (both whole), as floats.
fn steps(first: f64, last: f64) -> Vec<f64> {
    let mut out = Vec::new();
    let mut k = first;
    while k <= last + 1e-9 {
        out.push(k);
        k += 1.0;
    }
    out
}

/// The decimals `v` (positive) needs to show its first digit: 0 from 1 up,
/// 1 for tenths, 2 for hundredths and so on (at most 12).
fn decimals_of(v: f64) -> usize {
    let mut decimals = 0;
    let mut shifted = v;
    while shifted < 1.0 - 1e-9 && decimals < 12 {
        shifted *= 10.0;
        decimals += 1;
    }
    decimals
}

/// The smallest 1, 2 or 5 × 10ⁿ at least `raw`.
fn nice_step(raw: f64) -> f64 {
    if raw.is_nan() || raw <= 0.0 || raw.is_infinite() {
        return 1.0;
    }
    let decade = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * decade)
        .find(|s| *s >= raw * (1.0 - 1e-9))
        .unwrap_or(10.0 * decade)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn a_log_axis_is_labelled_at_its_decades() {
        let axis = Axis::fit(Scale::Log, [0.001, 0.5, 1_044.0].into_iter(), true);
        let (bold, light) = axis.ticks();
        let labels: Vec<String> = bold.iter().map(|s| axis.label(*s)).collect();
        assert_eq!(labels, ["0.001", "0.01", "0.1", "1", "10", "100", "1,000"]);
        for s in &bold {
            assert!(close(*s, s.round()), "{s} is not a decade");
        }
        // Light lines at 2..9 × each decade shown, never on a decade.
        assert!(light.len() >= 8 * 6, "{light:?}");
        assert!(light.iter().all(|s| !close(*s, s.round())));
        assert!(light.iter().all(|s| *s >= axis.lo && *s <= axis.hi));
    }

    #[test]
    fn a_log_axis_ignores_what_it_cannot_draw() {
        let axis = Axis::fit(Scale::Log, [0.0, -3.0, 5.0, 8_580.0].into_iter(), true);
        // From 5 to 8,580 (padded), the zero and the negative left out.
        assert!(axis.lo > 0.5 && axis.lo < 5f64.log10(), "{axis:?}");
        assert!(axis.hi > 8_580f64.log10() && axis.hi < 4.1, "{axis:?}");
        assert_eq!(axis.place(0.0), None);
        assert!(close(axis.place(100.0).unwrap_or(0.0), 2.0));
        assert!(close(axis.value(3.0), 1000.0));
    }

    #[test]
    fn a_short_log_axis_also_labels_twos_and_fives() {
        let axis = Axis::fit(Scale::Log, [2_136.7, 92_012.6].into_iter(), false);
        let (bold, _) = axis.ticks();
        let labels: Vec<String> = bold.iter().map(|s| axis.label(*s)).collect();
        assert_eq!(
            labels,
            ["2,000", "5,000", "10,000", "20,000", "50,000", "100,000"]
        );
        let axis = Axis::between(Scale::Log, 3.0, 40.0);
        let labels: Vec<String> = axis.ticks().0.iter().map(|s| axis.label(*s)).collect();
        assert_eq!(labels, ["5", "10", "20"]);
    }

    #[test]
    fn zero_is_labelled_without_a_sign() {
        let axis = Axis::fit(Scale::Linear, [0.3, 8.2].into_iter(), true);
        assert_eq!(axis.label(axis.ticks().0[0]), "0");
    }

    #[test]
    fn linear_ticks_are_round_steps() {
        let axis = Axis::fit(Scale::Linear, [3.0, 92_012.6].into_iter(), true);
        let (bold, light) = axis.ticks();
        let labels: Vec<String> = bold.iter().map(|s| axis.label(*s)).collect();
        assert_eq!(labels[..3], ["0", "10,000", "20,000"]);
        assert_eq!(labels.last().map(String::as_str), Some("90,000"));
        assert!(close(light[1] - light[0], 2_000.0));
        let small = Axis::between(Scale::Linear, 0.0, 1.1);
        let labels: Vec<String> = small.ticks().0.iter().map(|s| small.label(*s)).collect();
        assert_eq!(
            labels,
            ["0", "0.1", "0.2", "0.3", "0.4", "0.5", "0.6", "0.7", "0.8", "0.9", "1", "1.1"]
        );
    }
}
