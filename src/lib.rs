//! smoothscale: assign stream-processing tasks to instances, the way Kafka
//! Streams (KIP-441) and its baselines do, and measure how strategies behave.
//!
//! The core is pure: a [`ClusterState`] (tasks, clients, lags, the previous
//! assignment, the [`AssignmentConfig`]) goes into an [`Assignor`], a [`Plan`]
//! comes out, and [`validate()`] checks it against the claims the strategy
//! states in its [`StrategyInfo`].
//!
//! # Examples
//! ```
//! use smoothscale::{assignor, validate, AssignmentConfig, Client, ClusterState, Task, TaskId};
//!
//! let tasks = (0..4).map(|p| Task::stateful(TaskId::new(0, p), 1_000_000)).collect();
//! let clients = vec![Client::new("a", 1), Client::new("b", 1)];
//! let state = ClusterState::new(AssignmentConfig::default(), tasks, clients).unwrap();
//! let kip441 = assignor::by_name("kip441").unwrap();
//! let plan = kip441.assign(&state).unwrap();
//! assert!(validate(&state, &plan, kip441.info().claims).is_ok());
//! assert_eq!(plan.clients.values().map(|c| c.active.len()).collect::<Vec<_>>(), vec![2, 2]);
//! ```
//!
//! # Features
//! The core (`model`, every strategy in [`assignor`], [`assign()`] (assign
//! and validate, as every front does), [`flow`], [`validate()`], [`metrics`],
//! [`generate`], [`restore_rate`], [`input_rate`]) depends on petgraph, rand, rand_chacha,
//! smallvec and thiserror only. The edges are features, all on by default:
//! - `serde`: the JSON wire format, `wire` (serde, serde_json).
//! - `sim`: the churn simulator, `sim` (implies `serde`; toml, rayon).
//! - `cli`: the `smoothscale` command line (implies `sim`; clap).
//!
//! A user who needs assignment alone depends on the crate with
//! `default-features = false`.

#![forbid(unsafe_code)]

mod assign;
pub mod assignor;
pub mod flow;
pub mod generate;
pub mod input_rate;
pub mod metrics;
pub mod model;
pub mod restore_rate;
#[cfg(feature = "sim")]
pub mod sim;
pub mod validate;
#[cfg(feature = "serde")]
pub mod wire;

pub use assign::{assign, AssignFailure};
pub use assignor::{AssignError, Assignor, Claims, LeaveBehaviour, StrategyInfo};
pub use model::{
    AssignmentConfig, Client, ClientId, ClientPlan, ClusterState, Container, ContainerId,
    InputError, Lag, Plan, RackAwareStrategy, Task, TaskId,
};
pub use validate::{validate, Violation};
