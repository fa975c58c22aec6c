//! The simulator's units: virtual time ([`SimTime`], an instant, and
//! [`Millis`], a span), record counts ([`Records`], [`MilliRecords`]) and
//! restore or write bandwidth ([`Rate`]).
//!
//! Each is a `u64` with checked arithmetic only: a sum or product that does
//! not fit is an [`Overflow`] naming the quantity (the run stops with a
//! [`super::SimError`], and the command line exits 2), never a wrapped
//! figure in a release build or a panic in a debug one. There is no `+`:
//! every operation says what happens past `u64::MAX`.
//!
//! One instant is special: [`SimTime::checked_after`] returns `None` for an
//! instant past the end of the clock (`u64::MAX` ms). A run never lasts
//! longer than that, so such an instant comes after the end of every run:
//! the engine does not schedule it (a restart, a rejoin or a notice that
//! would come then never comes), which is what the scenario means.
//!
//! Records are counted in thousandths inside the engine so that a rate in
//! records per second times a span in milliseconds is exact:
//! records/s × ms = milli-records.

use std::fmt;

/// A quantity that does not fit in its unit's 64 bits.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{what} does not fit in 64 bits")]
pub struct Overflow {
    /// What overflowed, in the scenario's terms (`subtopologies[0].state_records`).
    pub what: String,
}

impl Overflow {
    /// An overflow of `what`.
    pub fn of(what: impl Into<String>) -> Overflow {
        Overflow { what: what.into() }
    }
}

macro_rules! unit {
    ($(#[$doc:meta])* $name:ident, $suffix:literal) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $name(u64);

        impl $name {
            /// Zero.
            pub const ZERO: $name = $name(0);
            /// The largest value.
            pub const MAX: $name = $name(u64::MAX);

            /// The value from its plain count.
            pub const fn new(count: u64) -> $name {
                $name(count)
            }

            /// The plain count.
            pub const fn get(self) -> u64 {
                self.0
            }

            /// `self + rhs`.
            ///
            /// # Errors
            ///
            /// An [`Overflow`] of `what` when the sum does not fit.
            pub fn plus(self, rhs: $name, what: &str) -> Result<$name, Overflow> {
                self.0
                    .checked_add(rhs.0)
                    .map($name)
                    .ok_or_else(|| Overflow::of(what))
            }

            /// `self + rhs`, or `None` when it does not fit.
            pub fn checked_plus(self, rhs: $name) -> Option<$name> {
                self.0.checked_add(rhs.0).map($name)
            }

            /// `self − rhs`, or zero when `rhs` is larger.
            pub fn saturating_minus(self, rhs: $name) -> $name {
                $name(self.0.saturating_sub(rhs.0))
            }

            /// `self × n`, or `None` when it does not fit.
            pub fn checked_times(self, n: u64) -> Option<$name> {
                self.0.checked_mul(n).map($name)
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}{}", self.0, $suffix)
            }
        }
    };
}

unit!(
    /// An instant of virtual time: milliseconds since the run started.
    SimTime,
    " ms"
);
unit!(
    /// A span of virtual time in milliseconds (also a sum of spans, such as
    /// task-milliseconds of unavailability).
    Millis,
    " ms"
);
unit!(
    /// A count of changelog records.
    Records,
    " records"
);
unit!(
    /// Thousandths of records: what a [`Rate`] delivers in a [`Millis`].
    MilliRecords,
    " milli-records"
);
unit!(
    /// Records per second, which is milli-records per millisecond: a
    /// client's restore bandwidth or a task's write rate.
    Rate,
    " records/s"
);

impl SimTime {
    /// `self + span`, or `None` past the end of the clock (module doc: such
    /// an instant comes after the end of every run).
    pub fn checked_after(self, span: Millis) -> Option<SimTime> {
        self.0.checked_add(span.0).map(SimTime)
    }

    /// The span from `earlier` to `self`; zero when `earlier` is later.
    pub fn since(self, earlier: SimTime) -> Millis {
        Millis(self.0.saturating_sub(earlier.0))
    }

    /// The instant one millisecond later, or `self` at the end of the clock.
    pub fn next(self) -> SimTime {
        SimTime(self.0.saturating_add(1))
    }
}

impl Records {
    /// The same amount in milli-records, or `None` when it does not fit.
    pub fn to_milli(self) -> Option<MilliRecords> {
        self.0.checked_mul(1000).map(MilliRecords)
    }
}

impl MilliRecords {
    /// Whole records, rounded down.
    pub fn floor_records(self) -> Records {
        Records(self.0 / 1000)
    }

    /// Whole records, rounded up.
    pub fn ceil_records(self) -> Records {
        Records(self.0.div_ceil(1000))
    }
}

impl Rate {
    /// What the rate delivers in `span`, or `None` when it does not fit.
    pub fn checked_over(self, span: Millis) -> Option<MilliRecords> {
        self.0.checked_mul(span.0).map(MilliRecords)
    }

    /// What the rate delivers in `span`.
    ///
    /// # Errors
    ///
    /// An [`Overflow`] of `what` when it does not fit.
    pub fn over(self, span: Millis, what: &str) -> Result<MilliRecords, Overflow> {
        self.0
            .checked_mul(span.0)
            .map(MilliRecords)
            .ok_or_else(|| Overflow::of(what))
    }
}

/// `total + a × b` over `u128` (time-weighted integrals such as
/// task-milliseconds).
///
/// # Errors
///
/// An [`Overflow`] of `what` when the sum does not fit.
pub fn accumulate(total: u128, a: u64, b: Millis, what: &str) -> Result<u128, Overflow> {
    total
        .checked_add(u128::from(a) * u128::from(b.get()))
        .ok_or_else(|| Overflow::of(what))
}

/// Whole records of `milli` milli-records (rounded down), or an [`Overflow`]
/// of `what` past `u64::MAX` records.
///
/// # Errors
///
/// An [`Overflow`] of `what` past `u64::MAX` records.
pub fn records_of(milli: u128, what: &str) -> Result<Records, Overflow> {
    u64::try_from(milli / 1000)
        .map(Records)
        .map_err(|_| Overflow::of(what))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arithmetic_is_checked() {
        let max = Millis::MAX;
        assert_eq!(
            max.plus(Millis::new(1), "x"),
            Err(Overflow::of("x".to_string()))
        );
        assert_eq!(Millis::new(2).plus(Millis::new(3), "x"), Ok(Millis::new(5)));
        assert_eq!(SimTime::MAX.checked_after(Millis::new(1)), None);
        assert_eq!(
            SimTime::new(5).checked_after(Millis::new(1)),
            Some(SimTime::new(6))
        );
        assert_eq!(SimTime::new(9).since(SimTime::new(4)), Millis::new(5));
        assert_eq!(Records::new(u64::MAX / 1000 + 1).to_milli(), None);
        assert_eq!(Records::new(7).to_milli(), Some(MilliRecords::new(7_000)));
        assert_eq!(MilliRecords::new(1_001).ceil_records(), Records::new(2));
        assert_eq!(MilliRecords::new(1_999).floor_records(), Records::new(1));
        assert_eq!(
            Rate::new(10).over(Millis::new(5), "r"),
            Ok(MilliRecords::new(50))
        );
        assert!(Rate::MAX.over(Millis::new(2), "r").is_err());
        assert!(accumulate(u128::MAX, 1, Millis::new(1), "a").is_err());
        assert_eq!(records_of(12_345, "r"), Ok(Records::new(12)));
        assert!(records_of(u128::from(u64::MAX) * 1000 + 1000, "r").is_err());
        assert_eq!(Millis::new(3).to_string(), "3 ms");
    }
}
