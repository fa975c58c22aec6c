//! [`Load`]: replicas per thread, the quantity Kafka's assignors balance.

use std::cmp::Ordering;

/// A load `count / capacity`, computed in `f64` as Kafka computes it (IEEE
/// division is correctly rounded, so equal rationals give equal doubles and
/// ties fall as in Java), totally ordered.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Load(pub(crate) f64);

impl Load {
    /// `count / capacity`; `capacity` is at least 1 in a valid state.
    pub(crate) fn of(count: usize, capacity: u32) -> Load {
        Load(count as f64 / f64::from(capacity))
    }
}

impl Eq for Load {}

impl PartialOrd for Load {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Load {
    fn cmp(&self, other: &Self) -> Ordering {
        self.0.total_cmp(&other.0)
    }
}
