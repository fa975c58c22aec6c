//! The positions private to `samza`: a logical container ("slot") and a
//! task's rank in Samza's name order. Both index an [`IxVec`] like the
//! model's [`crate::model::TaskIx`] and [`crate::model::ClientIx`], so a slot, a rank, a task and a
//! client position cannot be swapped.
//!
//! There are at most as many slots as tasks, and one rank per task, so both
//! fit a `u32` as a task position does.

use std::fmt;

use crate::model::{Ix, IxVec};

macro_rules! position {
    ($(#[$doc:meta])* $name:ident, $what:literal) => {
        $(#[$doc])*
        #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub(super) struct $name(u32);

        impl $name {
            /// The position as an index into a slice.
            pub(super) fn index(self) -> usize {
                self.0 as usize
            }

            /// The position `i` (below the task count of a checked state).
            #[cfg_attr(not(test), allow(dead_code))] // Ranks are made so only in tests.
            pub(super) fn from_position(i: usize) -> Self {
                $name(u32::try_from(i).expect(concat!("a ", $what, " below the task count fits in u32")))
            }

            /// The positions `0..len` (`len` at most the task count).
            pub(super) fn upto(len: usize) -> impl DoubleEndedIterator<Item = Self> + ExactSizeIterator + Clone {
                let len = u32::try_from(len).expect(concat!($what, "s of a checked state fit in u32"));
                (0..len).map($name)
            }
        }

        impl Ix for $name {
            #[inline]
            fn index(self) -> usize {
                self.0 as usize
            }
            #[inline]
            fn from_raw(raw: u32) -> Self {
                $name(raw)
            }
        }

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}{}", $what, self.0)
            }
        }
    };
}

position!(
    /// A logical container: active slot `i` of a grouping.
    SlotIx,
    "slot"
);
position!(
    /// A task's rank: its position in Samza's name order.
    Rank,
    "rank"
);

/// The value at `i`, or `None` beyond the end of `v`.
pub(super) fn get<I: Ix, T>(v: &IxVec<I, T>, i: I) -> Option<&T> {
    v.as_raw().get(i.index())
}
