//! Identifiers: [`ClientId`] and [`TaskId`].

use std::fmt;
use std::str::FromStr;

/// The id of a client (one instance of the stream application).
///
/// Clients are ordered by their id's string order (byte-wise). Kafka orders its
/// `ProcessId` UUIDs; every tie that Kafka breaks by process id, this crate
/// breaks by this order.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ClientId(String);

impl ClientId {
    /// Wraps a client id; any non-empty string is a valid id.
    pub fn new(id: impl Into<String>) -> Self {
        ClientId(id.into())
    }

    /// The id as written.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for ClientId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<&str> for ClientId {
    fn from(s: &str) -> Self {
        ClientId::new(s)
    }
}

/// The id of a task: one partition of one subtopology, written `S_P` (`0_3`).
///
/// Ordered by subtopology, then partition, as Kafka Streams orders `TaskId`s.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TaskId {
    /// The subtopology (Kafka's "topic group") the task belongs to.
    pub subtopology: u32,
    /// The input partition the task processes.
    pub partition: u32,
}

impl TaskId {
    /// The task of `partition` in `subtopology`.
    pub const fn new(subtopology: u32, partition: u32) -> Self {
        TaskId {
            subtopology,
            partition,
        }
    }
}

impl fmt::Display for TaskId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}_{}", self.subtopology, self.partition)
    }
}

/// Why a string is not a task id.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "task id must be SUBTOPOLOGY_PARTITION with two non-negative integers (like 0_3), got {}",
    super::error::quote(.0)
)]
pub struct ParseTaskIdError(pub String);

impl FromStr for TaskId {
    type Err = ParseTaskIdError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || ParseTaskIdError(s.to_string());
        let (sub, part) = s.split_once('_').ok_or_else(bad)?;
        let number = |x: &str| -> Result<u32, ParseTaskIdError> {
            if x.is_empty() || !x.bytes().all(|b| b.is_ascii_digit()) {
                return Err(bad());
            }
            x.parse().map_err(|_| bad())
        };
        Ok(TaskId::new(number(sub)?, number(part)?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn task_ids_parse_and_print() {
        let t: TaskId = "12_7".parse().unwrap();
        assert_eq!(t, TaskId::new(12, 7));
        assert_eq!(t.to_string(), "12_7");
        for bad in [
            "",
            "1",
            "1_",
            "_1",
            "a_1",
            "1_b",
            "-1_2",
            "1_2_3",
            "+1_2",
            "1 _2",
            "99999999999_1",
        ] {
            assert!(bad.parse::<TaskId>().is_err(), "{bad:?} parsed");
        }
    }

    #[test]
    fn task_ids_order_by_subtopology_then_partition() {
        let mut ids = vec![TaskId::new(1, 0), TaskId::new(0, 10), TaskId::new(0, 2)];
        ids.sort();
        assert_eq!(
            ids,
            vec![TaskId::new(0, 2), TaskId::new(0, 10), TaskId::new(1, 0)]
        );
    }
}
