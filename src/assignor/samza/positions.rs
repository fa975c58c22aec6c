//! The positions private to `samza`: a logical container ("slot") and a
//! task's rank in Samza's name order. Both index an [`crate::model::IxVec`] like the
//! model's [`crate::model::TaskIx`] and [`crate::model::ClientIx`], so a slot, a rank, a task and a
//! client position cannot be swapped.
//!
//! There are at most as many slots as tasks, and one rank per task, so both
//! fit a `u32` as a task position does.

use std::fmt;

use crate::model::ix::position;
use crate::model::Ix;

position!(
    /// A logical container: active slot `i` of a grouping.
    pub(super) SlotIx,
    "slot"
);
position!(
    /// A task's rank: its position in Samza's name order.
    pub(super) Rank,
    "rank"
);
