//! The data model: ids, tasks, clients, lags, settings, the cluster state and
//! the plan. Depends on nothing else in the crate.

mod client;
mod config;
mod container;
mod error;
mod ids;
pub(crate) mod ix;
mod lag;
mod plan;
mod state;
mod task;
mod task_index;

pub use client::Client;
pub use config::{
    AssignmentConfig, RackAwareStrategy, MAX_TAG_KEYS, MAX_TAG_KEY_LEN, MAX_TAG_VALUE_LEN,
    MIN_PROBING_REBALANCE_INTERVAL_MS,
};
pub use container::{Container, ContainerId};
pub use error::{one_line, one_of, quote, InputError, ECHO_MAX_CHARS};
pub use ids::{ClientId, ParseTaskIdError, TaskId};
pub use ix::{ClientIx, Ix, IxVec, TaskIx, MAX_CLIENTS, MAX_TASKS};
pub use lag::{Lag, ACCEPT_ANY_LAG};
pub use plan::{ClientPlan, Plan};
#[cfg(feature = "serde")]
pub(crate) use state::key_path;
pub use state::ClusterState;
pub use task::Task;
