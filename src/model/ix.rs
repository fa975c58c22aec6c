//! Typed positions of tasks and clients in a [`ClusterState`], and
//! [`IxVec`], a vector indexed only by one of them.
//!
//! The strategies refer to a task or a client by its position in the state's
//! sorted lists ([`ClusterState::tasks`], [`ClusterState::clients`]), so
//! position order is id order and every tie broken by id is broken by the
//! position. A position is a [`TaskIx`] or a [`ClientIx`], never a bare
//! `usize`: a function taking a task and a client cannot be called with the
//! two swapped, and a per-task vector cannot be read with a client.
//!
//! Both are `u32` (the strategies pack them into compact per-task arrays).
//! [`ClusterState::new`] rejects a state with more than [`MAX_TASKS`] tasks
//! or [`MAX_CLIENTS`] clients, so every position of a valid state fits; the
//! positions are made by iterating over a state ([`ClusterState::task_ixs`],
//! [`ClusterState::client_ixs`], [`IxVec::indices`]) or by looking an id up
//! ([`ClusterState::task_ix`]), never from an arbitrary number.
//!
//! ```
//! use smoothscale::model::{ClientIx, IxVec, TaskIx};
//!
//! fn runs_on(owner: &IxVec<TaskIx, ClientIx>, t: TaskIx, c: ClientIx) -> bool {
//!     owner[t] == c
//! }
//! ```
//!
//! A task position where a client position is expected does not compile:
//!
//! ```compile_fail
//! use smoothscale::model::{ClientIx, IxVec, TaskIx};
//!
//! fn runs_on(owner: &IxVec<TaskIx, ClientIx>, t: TaskIx, c: ClientIx) -> bool {
//!     owner[c] == t
//! }
//! ```

use std::fmt;
use std::marker::PhantomData;
use std::ops::{Index, IndexMut};

use super::{ClientId, ClusterState, TaskId};

/// The most tasks a [`ClusterState`] may have: every position is a `u32`
/// below `u32::MAX`, which the strategies keep free to mean "none".
pub const MAX_TASKS: usize = u32::MAX as usize;

/// The most clients a [`ClusterState`] may have, 2^30: `kip441` packs a
/// client position with two bits of role into one `u32`.
pub const MAX_CLIENTS: usize = 1 << 30;

/// A position type: a `u32` newtype that indexes an [`IxVec`].
pub trait Ix: Copy + Ord + fmt::Debug {
    /// The position as an index into a slice.
    fn index(self) -> usize;
    /// The position `raw`. Only for positions within a valid state: the
    /// callers hold a `u32` read from an array of positions or bounded by
    /// the length of one.
    #[doc(hidden)]
    fn from_raw(raw: u32) -> Self;
}

/// Defines a position type: a `u32` newtype with [`Ix`], `Debug` and
/// `Display` (`task3`). Also used for the positions private to a strategy
/// (samza's slots and ranks), with their own visibility.
macro_rules! position {
    ($(#[$doc:meta])* $vis:vis $name:ident, $what:literal) => {
        $(#[$doc])*
        #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        $vis struct $name(u32);

        impl $name {
            /// The position as an index into a slice.
            #[inline]
            pub fn index(self) -> usize {
                self.0 as usize
            }

            /// The position as the `u32` it is stored as.
            #[inline]
            #[allow(dead_code)] // Not every position type's users need it.
            pub fn raw(self) -> u32 {
                self.0
            }

            /// The position of a value read back from a packed `u32` array
            /// of positions of the same state (where [`Self::raw`] put it).
            #[inline]
            #[allow(dead_code)] // Not every position type's users need it.
            pub(crate) fn from_raw(raw: u32) -> Self {
                $name(raw)
            }

            /// The position `i` of a list of the state. `i` must be below the
            /// length of that list, which [`ClusterState::new`] bounds by the
            /// limits of this module: the conversion cannot fail then.
            #[inline]
            #[allow(dead_code)] // Not every position type's users need it.
            pub(crate) fn from_position(i: usize) -> Self {
                $name(u32::try_from(i).expect(concat!("a ", $what, " position of a checked state fits in u32")))
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

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}{}", $what, self.0)
            }
        }
    };
}

pub(crate) use position;

position!(
    /// The position of a task in [`ClusterState::tasks`].
    pub TaskIx,
    "task"
);
position!(
    /// The position of a client in [`ClusterState::clients`].
    pub ClientIx,
    "client"
);

/// The positions `0..len` of a list of at most `u32::MAX` items.
pub(crate) fn positions<I: Ix>(
    len: usize,
) -> impl DoubleEndedIterator<Item = I> + ExactSizeIterator + Clone {
    let len = u32::try_from(len).expect("a list of positions of a checked state");
    (0..len).map(I::from_raw)
}

impl ClusterState {
    /// Every task position, ascending (the order of [`ClusterState::tasks`]).
    pub fn task_ixs(&self) -> impl DoubleEndedIterator<Item = TaskIx> + ExactSizeIterator + Clone {
        positions(self.tasks().len())
    }

    /// Every client position, ascending (the order of [`ClusterState::clients`]).
    pub fn client_ixs(
        &self,
    ) -> impl DoubleEndedIterator<Item = ClientIx> + ExactSizeIterator + Clone {
        positions(self.clients().len())
    }

    /// The position of the task with this id.
    pub fn task_ix(&self, id: TaskId) -> Option<TaskIx> {
        self.task_position(id).map(TaskIx::from_position)
    }

    /// The position of the client with this id. O(log C).
    pub fn client_ix(&self, id: &ClientId) -> Option<ClientIx> {
        self.clients()
            .binary_search_by(|c| c.id.cmp(id))
            .ok()
            .map(ClientIx::from_position)
    }

    /// The ids of the tasks at `positions`.
    pub(crate) fn ids_at<'a>(
        &self,
        positions: impl IntoIterator<Item = &'a TaskIx>,
    ) -> std::collections::BTreeSet<TaskId> {
        let ids = self.task_ids();
        positions.into_iter().map(|t| ids[t.index()]).collect()
    }
}

/// A vector indexed by one position type `I` only ([`TaskIx`] or
/// [`ClientIx`]): one value per task, or per client, of a state.
#[derive(Clone, PartialEq, Eq)]
pub struct IxVec<I, T> {
    raw: Vec<T>,
    marker: PhantomData<fn(I) -> I>,
}

impl<I: Ix, T> IxVec<I, T> {
    /// An empty vector.
    pub fn new() -> Self {
        IxVec::from_raw(Vec::new())
    }

    /// The vector whose value at position `i` is `raw[i]`. `raw` must have
    /// one value per task (or client) of a checked state.
    pub fn from_raw(raw: Vec<T>) -> Self {
        IxVec {
            raw,
            marker: PhantomData,
        }
    }

    /// `len` copies of `value`, one per position below `len`.
    pub fn from_elem(value: T, len: usize) -> Self
    where
        T: Clone,
    {
        IxVec::from_raw(vec![value; len])
    }

    /// The number of positions.
    pub fn len(&self) -> usize {
        self.raw.len()
    }

    /// Whether there are no positions.
    pub fn is_empty(&self) -> bool {
        self.raw.is_empty()
    }

    /// Every position, ascending.
    pub fn indices(&self) -> impl DoubleEndedIterator<Item = I> + ExactSizeIterator + Clone {
        positions(self.raw.len())
    }

    /// Every value, in position order.
    pub fn iter(&self) -> std::slice::Iter<'_, T> {
        self.raw.iter()
    }

    /// Every value, mutably, in position order.
    pub fn iter_mut(&mut self) -> std::slice::IterMut<'_, T> {
        self.raw.iter_mut()
    }

    /// Every (position, value), in position order.
    pub fn iter_enumerated(&self) -> impl DoubleEndedIterator<Item = (I, &T)> + ExactSizeIterator {
        self.indices().zip(&self.raw)
    }

    /// The value at `i`, or `None` beyond the end.
    pub fn get(&self, i: I) -> Option<&T> {
        self.raw.get(i.index())
    }

    /// The values as a plain slice, in position order.
    pub fn as_raw(&self) -> &[T] {
        &self.raw
    }

    /// The values as a plain vector, in position order.
    pub fn into_raw(self) -> Vec<T> {
        self.raw
    }

    /// Appends the value of the next position.
    pub fn push(&mut self, value: T) {
        self.raw.push(value);
    }
}

impl<I: Ix, T> Default for IxVec<I, T> {
    fn default() -> Self {
        IxVec::new()
    }
}

impl<I: Ix, T: fmt::Debug> fmt::Debug for IxVec<I, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(&self.raw).finish()
    }
}

impl<I: Ix, T> FromIterator<T> for IxVec<I, T> {
    fn from_iter<It: IntoIterator<Item = T>>(iter: It) -> Self {
        IxVec::from_raw(iter.into_iter().collect())
    }
}

impl<I: Ix, T> Index<I> for IxVec<I, T> {
    type Output = T;
    #[inline]
    fn index(&self, i: I) -> &T {
        &self.raw[i.index()]
    }
}

impl<I: Ix, T> IndexMut<I> for IxVec<I, T> {
    #[inline]
    fn index_mut(&mut self, i: I) -> &mut T {
        &mut self.raw[i.index()]
    }
}

impl<'a, I: Ix, T> IntoIterator for &'a IxVec<I, T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.raw.iter()
    }
}

impl<I: Ix, T> IntoIterator for IxVec<I, T> {
    type Item = T;
    type IntoIter = std::vec::IntoIter<T>;
    fn into_iter(self) -> Self::IntoIter {
        self.raw.into_iter()
    }
}

#[cfg(test)]
mod tests {
    use super::{ClientIx, IxVec, TaskIx};

    #[test]
    fn a_vector_reads_by_its_position_type() {
        let owner: IxVec<TaskIx, ClientIx> =
            [2, 0, 1].into_iter().map(ClientIx::from_position).collect();
        let tasks: Vec<TaskIx> = owner.indices().collect();
        assert_eq!(tasks, [0, 1, 2].map(TaskIx::from_position));
        assert_eq!(owner[TaskIx::from_position(2)], ClientIx::from_position(1));
        assert_eq!(format!("{:?}", owner), "[client2, client0, client1]");
    }
}
