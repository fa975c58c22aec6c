//! [`Client`]: one instance of the application, its resources and its history.

use std::collections::{BTreeMap, BTreeSet};

use super::{ClientId, Lag, TaskId};

/// One client: an instance of the stream application with `capacity` threads.
///
/// `previous_active` and `previous_standby` are what the client held before this
/// rebalance; `lags` are the lags it reported, sparse: a stateful task missing
/// from `lags` has no local state on this client (its lag is the task's end
/// offset).
#[derive(Debug, Clone, PartialEq)]
pub struct Client {
    /// The client's id.
    pub id: ClientId,
    /// Processing threads (Kafka: consumers of this process); at least 1.
    pub capacity: u32,
    /// The rack the client runs in.
    pub rack: Option<String>,
    /// Client tags (KIP-708), such as `zone = "a"`; at most 5 keys.
    pub tags: BTreeMap<String, String>,
    /// The host the client runs on.
    pub host: Option<String>,
    /// CPU cores the client offers (packing strategies).
    pub cpu: Option<f64>,
    /// Memory the client offers, in MiB (packing strategies).
    pub ram_mb: Option<u64>,
    /// Disk the client offers, in MiB (packing strategies).
    pub disk_mb: Option<u64>,
    /// Tasks the client ran as active before this rebalance.
    pub previous_active: BTreeSet<TaskId>,
    /// Tasks the client kept as standby (or warm-up) before this rebalance.
    pub previous_standby: BTreeSet<TaskId>,
    /// Of `previous_standby`, the tasks the client held as warm-up replicas
    /// (learners, for `kip441-learner`); a subset of `previous_standby`, so
    /// strategies that cannot tell the two apart read only that.
    pub previous_warmup: BTreeSet<TaskId>,
    /// The client asked to leave the group gracefully and stays until its
    /// tasks have been handed over (`kip441-learner`'s scale-down). Strategies
    /// that do not hand over treat it as any other client.
    pub leaving: bool,
    /// Reported lags of stateful tasks.
    pub lags: BTreeMap<TaskId, Lag>,
}

impl Client {
    /// A client with `capacity` threads and nothing else known.
    pub fn new(id: impl Into<ClientId>, capacity: u32) -> Self {
        Client {
            id: id.into(),
            capacity,
            rack: None,
            tags: BTreeMap::new(),
            host: None,
            cpu: None,
            ram_mb: None,
            disk_mb: None,
            previous_active: BTreeSet::new(),
            previous_standby: BTreeSet::new(),
            previous_warmup: BTreeSet::new(),
            leaving: false,
            lags: BTreeMap::new(),
        }
    }

    /// Sets the rack.
    pub fn with_rack(mut self, rack: impl Into<String>) -> Self {
        self.rack = Some(rack.into());
        self
    }

    /// Adds a client tag.
    pub fn with_tag(mut self, key: impl Into<String>, value: impl Into<String>) -> Self {
        self.tags.insert(key.into(), value.into());
        self
    }

    /// Marks tasks as previously active here.
    pub fn with_previous_active(mut self, tasks: impl IntoIterator<Item = TaskId>) -> Self {
        self.previous_active.extend(tasks);
        self
    }

    /// Marks tasks as previously standby here.
    pub fn with_previous_standby(mut self, tasks: impl IntoIterator<Item = TaskId>) -> Self {
        self.previous_standby.extend(tasks);
        self
    }

    /// Marks tasks as previously held as warm-ups here (they are added to
    /// `previous_standby` too).
    pub fn with_previous_warmup(mut self, tasks: impl IntoIterator<Item = TaskId>) -> Self {
        for t in tasks {
            self.previous_standby.insert(t);
            self.previous_warmup.insert(t);
        }
        self
    }

    /// Marks the client as leaving the group gracefully.
    pub fn leaving(mut self) -> Self {
        self.leaving = true;
        self
    }

    /// Records a reported lag.
    pub fn with_lag(mut self, task: TaskId, lag: Lag) -> Self {
        self.lags.insert(task, lag);
        self
    }
}

impl From<String> for ClientId {
    fn from(s: String) -> Self {
        ClientId::new(s)
    }
}
