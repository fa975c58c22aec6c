//! `heron-rr`, `heron-ffd`, `heron-rcrr`: Apache Heron's packing algorithms
//! (`RoundRobinPacking`, `ResourceCompliantRRPacking`,
//! `FirstFitDecreasingPacking`), with clients as Heron's containers; see
//! `docs/algorithms.md`, *heron*.
//!
//! # What Heron does
//! A Heron topology is a set of *components* whose *instances* are packed
//! into *containers*. Every instance needs CPU, RAM and disk (stated per
//! component, else the instance defaults: 1 CPU, 1 GiB, 1 GiB); every
//! container has a capacity (stated, else instance default ×
//! `topology.container.max.instances` = 10) and a *padding* for its stream
//! and metrics managers. Three packers:
//!
//! - `RoundRobinPacking` (`round_robin.rs`) deals instances round-robin over a
//!   fixed number of containers and then *sizes* the instances to fit; it
//!   refuses only a container it cannot size; a change re-packs from scratch.
//! - `ResourceCompliantRRPacking` (`rcrr.rs`) deals strictly round-robin while
//!   `(Σ demands + padding) + demand ≤ capacity` holds, and opens one more
//!   container when it does not; a change keeps every instance where it is,
//!   opens the containers the added demand needs (`opening.rs`) and deals
//!   the new instances by a *flexible* round robin that skips full ones.
//! - `FirstFitDecreasingPacking` (`ffd.rs`) sorts instances by RAM then CPU,
//!   decreasing, and puts each in the first container (by id) with room,
//!   with at most 10 instances per container; a change keeps every instance
//!   and first-fits the new ones, filling holes in old containers first.
//!
//! FFD and RCRR check CPU, RAM and disk; the Σ is over the container's
//! `HashSet` of instances in its iteration order, which decides the last bit
//! of a CPU sum (`java_set.rs` replays it).
//!
//! # The mapping (`docs/algorithms.md`, *Heron: port notes*)
//! Clients are containers, ranked by id (container 1 = the lowest id);
//! a subtopology is a component and a task its instance (component index =
//! partition; component name = the subtopology number, for Java's hash). A
//! task's demand is its stated `cpu` / `ram_mb` / `disk_mb`, else Heron's
//! instance default; a client's capacity is its stated `cpu` / `ram_mb` /
//! `disk_mb`, else Heron's container default (10 CPU, 10 240 MiB, 10 240 MiB).
//! Padding (FFD, RCRR) is `max(absolute, 10 % × capacity)` per resource: 1
//! CPU, 1 024 MiB and 1 024 MiB with the defaults, so a default client holds 9
//! default tasks, and a client stating only CPU and RAM at most 9 by disk.
//! All of this is in [`HeronConfig`], whose [`Default`] the registered
//! strategies use.
//!
//! A client's `capacity` (threads) is not read: Heron has no thread count,
//! every instance is its own process, and a container's size is its CPU, RAM
//! and disk. The "previous plan" of a repack is the clients'
//! `previous_active` sets, and a task listed by several clients is kept by
//! the first (lowest id) where it fits.
//!
//! # What the port keeps, and where it must differ
//! Heron's orders, its padding and capacity rule (computed in Heron's order
//! of summing), FFD's sort and its limit of tasks per client, RR's component
//! order (stated RAM, descending; CPU never breaks a tie), RR's container
//! sizing and the packings it refuses, RCRR's strict first packing, its
//! opening of containers before a repack and its flexible repacking, and the
//! rule that a repack never moves an instance. Where Java iterates a
//! `HashMap` of components, the port takes subtopology order, a
//! deterministic stand-in for that order.
//!
//! A cluster's clients are given, so where Heron opens container N+1 (RCRR's
//! first packing restarts with one more container; FFD's repack adds one)
//! the port returns [`AssignError::Infeasible`] naming the task, its demand
//! and the room left; RCRR's repack takes clients without tasks as its new
//! containers, lowest ids first, and is infeasible when none is left. Other
//! differences, all forced by the model:
//! - the model has no component names or Heron task ids: Java's hash of an
//!   instance takes the subtopology number as the component's name and task
//!   ids in placement order (kept tasks first), so with other names Heron's
//!   order of summing, and a fit decided by the last bit, can differ;
//! - a lost client's tasks go through the algorithm's add path (real Heron
//!   restarts the whole container, same instances, elsewhere); for RCRR they
//!   count as added demand, as the model cannot tell them from new tasks;
//! - RCRR's opening counts no removed demand: a previous assignment names
//!   only tasks that still exist;
//! - a surviving task whose client no longer has room for it (demands or
//!   capacities changed) is placed again by the add path, with a diagnostic;
//!   survivors of one client are kept in task-id order while they fit;
//! - RR packs over all current clients (`N = #clients`) on every change;
//!   Heron's own RR repack would pick `N' = ⌈T / (T₀ / N₀)⌉` containers from
//!   the topology's first size, which the model does not record, so that
//!   option (a fixed container count kept across repacks) is not offered;
//! - with more clients than tasks, RR and RCRR leave the extra clients empty
//!   (Heron's RR refuses more containers than instances, RCRR lowers the
//!   count): the model's clients are given, and an idle client is allowed;
//! - per-task demands generalise Heron's per-component ones: FFD sorts tasks
//!   (not components) by their own demand, which is Heron's order whenever a
//!   subtopology's tasks all state the same; RR ranks a subtopology by the
//!   largest RAM any of its tasks states.
//!
//! # What it ignores
//! Lags, the stateful flag (except RR's checkpoint-manager padding), hosts,
//! racks and tags, thread counts, and `previous_standby`: Heron places by
//! resources alone; RR reads no disk (Heron's RR gives every instance the
//! default). Heron has no standbys: `num_standby_replicas` is left
//! unassigned, with a diagnostic when stateful tasks exist; no warm-ups, no
//! follow-up rebalance. The rounding of container CPU in the built plan is
//! not modelled (the plan has no container sizes). Heron's minimum instance
//! sizes are: FFD and RCRR refuse a task they place with less than 192 MiB of
//! RAM (`MinRamConstraint`), FFD one with less than 0.1 CPU
//! (`MinCpuConstraint`), RR any task under 16 MiB, as
//! [`AssignError::Infeasible`]. A task kept where it ran in a repack is not
//! checked again.
//!
//! # Complexity
//! With T tasks, C clients, K subtopologies, P previous placements and at
//! most k tasks on a client: a placement is O(1) amortised (its client's
//! set of instances grows as Java's does) and a fit O(1), but for a CPU sum
//! within rounding of the capacity, which Heron's order decides: that fit
//! re-sums the client in O(k log k). RR O(T + K log K + C); RCRR O(T) for
//! the strict first packing and O(R·(P + T·C)) for a repack with R ≤ C + 1
//! attempts; FFD O(P + T log T + T·C); plus the rare re-sums.
//!
//! # Claims
//! Every task has one active while any client exists; nothing else is
//! assigned. `heron-ffd` and `heron-rcrr` claim `resource_capacity` and keep
//! a stronger rule of their own: on every client, the demands of its tasks
//! (stated or default) plus its padding fit in its capacity (stated or
//! default) in CPU, RAM and disk, and for FFD at most 10 tasks; when that
//! cannot be done they return `Infeasible`, never a plan over capacity.
//! `heron-rr` claims nothing beyond the common rules: it resizes instances
//! instead of rejecting them, and is `Infeasible` only where Heron's round
//! robin cannot size a container. The same input gives the same plan.

#![warn(clippy::cast_possible_truncation)]

mod ffd;
mod java_set;
mod opening;
mod rcrr;
mod round_robin;

use std::fmt::Write as _;

use crate::assignor::common::{plan_of, task_ids};
use crate::assignor::strategy::{AssignError, Assignor, Claims, LeaveBehaviour, StrategyInfo};
use crate::model::{ClientIx, ClientPlan, ClusterState, IxVec, Plan, RackAwareStrategy, TaskIx};

use java_set::{decimal_hash, Instance, InstanceSet};

// ---------------------------------------------------------------------------
// Settings
// ---------------------------------------------------------------------------

/// FFD's sort order (`topology.packing.ffd.sorting.strategy`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FfdSort {
    /// RAM descending, then CPU descending (Heron's default).
    #[default]
    RamFirst,
    /// CPU descending, then RAM descending.
    CpuFirst,
}

/// Heron's packing settings (`topology.container.*` and the instance
/// defaults; `docs/algorithms.md`, *Heron: resources*), with Heron's defaults.
///
/// The registered strategies use [`HeronConfig::default`]; `assign_with`
/// takes others. Validated with the strategy's claims, a plan packed with no
/// CPU padding at all may be judged differently where a stated total is
/// within a rounding error of a stated capacity (`validate` sums in task
/// order; the packer in the order of Heron's `HashSet`).
#[derive(Debug, Clone, PartialEq)]
pub struct HeronConfig {
    /// `heron.resources.instance.cpu`: the CPU of a task that states none.
    pub instance_cpu: f64,
    /// `heron.resources.instance.ram`, MiB: the RAM of a task that states none.
    pub instance_ram_mb: u64,
    /// `heron.resources.instance.disk`, MiB: the disk of a task that states
    /// none (FFD, RCRR; Heron's RR gives every instance this default).
    pub instance_disk_mb: u64,
    /// `topology.container.max.instances`: sizes the default container
    /// (instance default × this) for FFD and RCRR, and caps FFD's tasks per client.
    pub max_instances: usize,
    /// `topology.container.padding.percentage` (FFD, RCRR).
    pub padding_percent: u32,
    /// `topology.container.cpu.padding` (FFD, RCRR).
    pub padding_cpu: f64,
    /// `topology.container.ram.padding`, MiB (FFD, RCRR).
    pub padding_ram_mb: u64,
    /// The absolute disk padding, MiB (FFD, RCRR; a constant in Heron:
    /// `PackingUtils.DEFAULT_CONTAINER_DISK_PADDING`, 1 GiB).
    pub padding_disk_mb: u64,
    /// RR's fixed CPU padding.
    pub rr_padding_cpu: f64,
    /// RR's RAM padding: stream manager and metrics manager.
    pub rr_padding_ram_mb: u64,
    /// RR's extra RAM padding for the checkpoint manager, added when any task
    /// is stateful (Heron runs stateful topologies effectively-once).
    pub rr_checkpoint_ram_mb: u64,
    /// FFD's sort order.
    pub ffd_sort: FfdSort,
    /// The least RAM, MiB, FFD and RCRR accept for an instance (Heron's
    /// `MinRamConstraint`: 192 MB).
    pub min_instance_ram_mb: u64,
    /// The least CPU FFD accepts for an instance (Heron's `MinCpuConstraint`:
    /// 0.1); RCRR has no such check.
    pub min_instance_cpu: f64,
}

impl Default for HeronConfig {
    /// Heron's defaults: instances of 1 CPU, 1 GiB RAM and 1 GiB disk, 10 per
    /// container, padding `max(1 CPU / 1 GiB / 1 GiB, 10 %)`; RR padding 1 CPU and 2 GiB (+1 GiB
    /// with a checkpoint manager); FFD sorted RAM first.
    fn default() -> Self {
        HeronConfig {
            instance_cpu: 1.0,
            instance_ram_mb: 1024,
            instance_disk_mb: 1024,
            max_instances: 10,
            padding_percent: 10,
            padding_cpu: 1.0,
            padding_ram_mb: 1024,
            padding_disk_mb: 1024,
            rr_padding_cpu: 1.0,
            rr_padding_ram_mb: 2048,
            rr_checkpoint_ram_mb: 1024,
            ffd_sort: FfdSort::RamFirst,
            min_instance_ram_mb: 192,
            min_instance_cpu: 0.1,
        }
    }
}

// ---------------------------------------------------------------------------
// The three strategies
// ---------------------------------------------------------------------------

/// `heron-rr`: Heron's `RoundRobinPacking` over all clients.
///
/// # Examples
/// Tasks dealt round robin over every client, and no standbys even when the
/// configuration asks for them.
/// ```
/// use smoothscale::assignor::heron::HeronRoundRobin;
/// use smoothscale::{Assignor, AssignmentConfig, Client, ClusterState, Task, TaskId};
///
/// let tasks = (0..6).map(|p| Task::stateful(TaskId::new(0, p), 1_000)).collect();
/// let clients = ["a", "b", "c"].map(|id| Client::new(id, 1)).to_vec();
/// let config = AssignmentConfig { num_standby_replicas: 1, ..AssignmentConfig::default() };
/// let state = ClusterState::new(config, tasks, clients).unwrap();
/// let plan = HeronRoundRobin.assign(&state).unwrap();
/// assert!(plan.clients.values().all(|c| c.active.len() == 2 && c.standby.is_empty()));
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct HeronRoundRobin;

impl HeronRoundRobin {
    /// Assigns with other settings than Heron's defaults.
    ///
    /// # Errors
    ///
    /// [`AssignError::Infeasible`] naming the first client whose container
    /// Heron's round robin refuses to size: its tasks state more than it
    /// offers, its other tasks would get nothing, or a task gets under 16 MiB
    /// of RAM.
    pub fn assign_with(
        &self,
        state: &ClusterState,
        config: &HeronConfig,
    ) -> Result<Plan, AssignError> {
        round_robin::assign(state, config, self.info().name)
    }
}

static RR: StrategyInfo = StrategyInfo {
    name: "heron-rr",
    description: "Heron's RoundRobinPacking: tasks dealt round-robin over all clients (subtopologies by stated RAM), re-packed from scratch on every change; tasks sized to fit, refused only where Heron cannot size them; no standbys",
    claims: Claims::NONE,
    leave: LeaveBehaviour::Immediate,
};

impl Assignor for HeronRoundRobin {
    fn info(&self) -> &'static StrategyInfo {
        &RR
    }

    fn assign(&self, state: &ClusterState) -> Result<Plan, AssignError> {
        self.assign_with(state, &HeronConfig::default())
    }
}

/// `heron-ffd`: Heron's `FirstFitDecreasingPacking`.
///
/// # Examples
/// Clients of 4 CPUs and tasks of 1.5 CPU each: each client takes as many
/// as fit (padding counted) before the next one is used, so no client is
/// over its stated CPU.
/// ```
/// use smoothscale::assignor::heron::HeronFirstFitDecreasing;
/// use smoothscale::{Assignor, AssignmentConfig, Client, ClusterState, Task, TaskId};
///
/// let tasks = (0..4)
///     .map(|p| Task { cpu: Some(1.5), ..Task::stateless(TaskId::new(0, p)) })
///     .collect();
/// let clients = ["a", "b", "c"].map(|id| Client { cpu: Some(4.0), ..Client::new(id, 1) }).to_vec();
/// let state = ClusterState::new(AssignmentConfig::default(), tasks, clients).unwrap();
/// let plan = HeronFirstFitDecreasing.assign(&state).unwrap();
/// for client in state.clients() {
///     let cpu: f64 = plan.clients[&client.id].active.iter().map(|&t| state.task(t).unwrap().cpu.unwrap()).sum();
///     assert!(cpu <= 4.0);
/// }
/// assert_eq!(plan.clients.values().map(|c| c.active.len()).sum::<usize>(), 4);
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct HeronFirstFitDecreasing;

impl HeronFirstFitDecreasing {
    /// Assigns with other settings than Heron's defaults.
    ///
    /// # Errors
    ///
    /// [`AssignError::Infeasible`] naming the first task whose demand fits on
    /// no client, with the room left.
    pub fn assign_with(
        &self,
        state: &ClusterState,
        config: &HeronConfig,
    ) -> Result<Plan, AssignError> {
        ffd::assign(state, config, self.info().name)
    }
}

static FFD: StrategyInfo = StrategyInfo {
    name: "heron-ffd",
    description: "Heron's FirstFitDecreasingPacking: tasks by RAM then CPU, each on the lowest-id client with room (capacity, padding, 10 tasks); tasks stay put on change; no standbys",
    claims: Claims {
        resource_capacity: true,
        ..Claims::NONE
    },
    leave: LeaveBehaviour::Immediate,
};

impl Assignor for HeronFirstFitDecreasing {
    fn info(&self) -> &'static StrategyInfo {
        &FFD
    }

    fn assign(&self, state: &ClusterState) -> Result<Plan, AssignError> {
        self.assign_with(state, &HeronConfig::default())
    }
}

/// `heron-rcrr`: Heron's `ResourceCompliantRRPacking`.
///
/// # Examples
/// Without stated resources, strict round robin: two tasks per client.
/// When demands fit on no client, the answer is an error naming what does
/// not fit, never a plan that breaks the capacities.
/// ```
/// use smoothscale::assignor::heron::HeronResourceCompliantRoundRobin;
/// use smoothscale::{AssignError, Assignor, AssignmentConfig, Client, ClusterState, Task, TaskId};
///
/// let tasks: Vec<Task> = (0..4).map(|p| Task::stateless(TaskId::new(0, p))).collect();
/// let clients = vec![Client::new("a", 1), Client::new("b", 1)];
/// let state = ClusterState::new(AssignmentConfig::default(), tasks.clone(), clients).unwrap();
/// let plan = HeronResourceCompliantRoundRobin.assign(&state).unwrap();
/// assert!(plan.clients.values().all(|c| c.active.len() == 2));
///
/// let small = vec![Client { cpu: Some(0.5), ..Client::new("a", 1) }];
/// let state = ClusterState::new(AssignmentConfig::default(), tasks, small).unwrap();
/// assert!(matches!(HeronResourceCompliantRoundRobin.assign(&state), Err(AssignError::Infeasible(_))));
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct HeronResourceCompliantRoundRobin;

impl HeronResourceCompliantRoundRobin {
    /// Assigns with other settings than Heron's defaults.
    ///
    /// # Errors
    ///
    /// [`AssignError::Infeasible`] naming the first task whose demand fits on
    /// no client, with the room left.
    pub fn assign_with(
        &self,
        state: &ClusterState,
        config: &HeronConfig,
    ) -> Result<Plan, AssignError> {
        rcrr::assign(state, config, self.info().name)
    }
}

static RCRR: StrategyInfo = StrategyInfo {
    name: "heron-rcrr",
    description: "Heron's ResourceCompliantRRPacking: strict round robin within capacity and padding, then new or orphaned tasks by flexible round robin; tasks stay put on change; no standbys",
    claims: Claims {
        resource_capacity: true,
        ..Claims::NONE
    },
    leave: LeaveBehaviour::Immediate,
};

impl Assignor for HeronResourceCompliantRoundRobin {
    fn info(&self) -> &'static StrategyInfo {
        &RCRR
    }

    fn assign(&self, state: &ClusterState) -> Result<Plan, AssignError> {
        self.assign_with(state, &HeronConfig::default())
    }
}

// ---------------------------------------------------------------------------
// Resource vectors
// ---------------------------------------------------------------------------

/// CPU cores, MiB of RAM and MiB of disk. RAM and disk are summed in
/// `u128`, so no input overflows.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
struct Res {
    cpu: f64,
    ram: u128,
    disk: u128,
}

impl Res {
    fn plus(self, other: Res) -> Res {
        Res {
            cpu: self.cpu + other.cpu,
            ram: self.ram + other.ram,
            disk: self.disk + other.disk,
        }
    }

    /// Whether `self` fits in `capacity` in every dimension.
    #[cfg(test)]
    fn within(self, capacity: Res) -> bool {
        self.cpu <= capacity.cpu && self.ram <= capacity.ram && self.disk <= capacity.disk
    }
}

/// A task's demand: what it states, else Heron's instance default.
fn demand(task: &crate::model::Task, config: &HeronConfig) -> Res {
    Res {
        cpu: task.cpu.unwrap_or(config.instance_cpu),
        ram: u128::from(task.ram_mb.unwrap_or(config.instance_ram_mb)),
        disk: u128::from(task.disk_mb.unwrap_or(config.instance_disk_mb)),
    }
}

/// A client's capacity for FFD and RCRR: what it states, else Heron's
/// container default (instance default × `max_instances`).
fn capacity(client: &crate::model::Client, config: &HeronConfig) -> Res {
    let n = config.max_instances as u128;
    Res {
        cpu: client
            .cpu
            .unwrap_or(config.instance_cpu * config.max_instances as f64),
        ram: client
            .ram_mb
            .map_or(u128::from(config.instance_ram_mb) * n, u128::from),
        disk: client
            .disk_mb
            .map_or(u128::from(config.instance_disk_mb) * n, u128::from),
    }
}

/// FFD and RCRR padding: `max(absolute, percent × capacity)` per resource,
/// RAM and disk rounded up to whole MiB.
fn padding(capacity: Res, config: &HeronConfig) -> Res {
    let pct = config.padding_percent;
    let mb = |absolute: u64, capacity: u128| {
        u128::from(absolute).max((capacity * u128::from(pct)).div_ceil(100))
    };
    Res {
        cpu: config
            .padding_cpu
            .max(capacity.cpu * f64::from(pct) / 100.0),
        ram: mb(config.padding_ram_mb, capacity.ram),
        disk: mb(config.padding_disk_mb, capacity.disk),
    }
}

/// `a`, `a and b`, `a, b and c`.
fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// A CPU amount for a message: at most six decimals, no trailing zeros.
fn cpu_text(cpu: f64) -> String {
    if cpu.abs() < 1e9 {
        format!("{}", (cpu * 1e6).round() / 1e6)
    } else {
        format!("{cpu:e}")
    }
}

// ---------------------------------------------------------------------------
// Clients as containers
// ---------------------------------------------------------------------------

/// The clients as Heron containers (FFD, RCRR): capacity, padding and what
/// each holds, indexed by [`ClientIx`] (so index order is id order); tasks
/// by [`TaskIx`].
struct Containers<'a> {
    state: &'a ClusterState,
    strategy: &'static str,
    /// Tasks a client may hold (FFD's `max_instances`; unlimited for RCRR).
    limit: usize,
    demand: IxVec<TaskIx, Res>,
    capacity: IxVec<ClientIx, Res>,
    padding: IxVec<ClientIx, Res>,
    /// Σ demands of the tasks each client holds (padding not included), CPU
    /// as a running sum in placement order ([`Containers::cpu_fits`] turns to
    /// Heron's order where that could decide).
    used: IxVec<ClientIx, Res>,
    /// Each client's tasks as Heron's `HashSet` of instances (kept only for
    /// packers that check fits: not RR).
    sets: IxVec<ClientIx, InstanceSet>,
    keep_sets: bool,
    /// Σ |CPU| of each client's tasks: the scale of any rounding in its sums.
    cpu_scale: IxVec<ClientIx, f64>,
    /// Heron's task id for the next placement (its builder's `max + 1`).
    next_task_id: i32,
    /// The tasks each client holds, in placement order.
    held: IxVec<ClientIx, Vec<TaskIx>>,
    /// The client each task is placed on, if any yet.
    owner: IxVec<TaskIx, Option<ClientIx>>,
    diagnostics: Vec<String>,
}

impl<'a> Containers<'a> {
    fn new(
        state: &'a ClusterState,
        config: &HeronConfig,
        strategy: &'static str,
        limit: usize,
    ) -> Self {
        let capacity: IxVec<ClientIx, Res> = state
            .clients()
            .iter()
            .map(|c| capacity(c, config))
            .collect();
        let padding = capacity.iter().map(|&c| padding(c, config)).collect();
        let n = capacity.len();
        Containers {
            state,
            strategy,
            limit,
            demand: state.tasks().iter().map(|t| demand(t, config)).collect(),
            capacity,
            padding,
            used: IxVec::from_elem(Res::default(), n),
            sets: IxVec::from_elem(InstanceSet::default(), n),
            keep_sets: true,
            cpu_scale: IxVec::from_elem(0.0, n),
            next_task_id: 1,
            held: IxVec::from_elem(Vec::new(), n),
            owner: IxVec::from_elem(None, state.tasks().len()),
            diagnostics: common_diagnostics(state, strategy),
        }
    }

    /// For RR, which checks no fit: no sets of instances are kept.
    fn without_fits(mut self) -> Self {
        self.keep_sets = false;
        self
    }

    fn client_count(&self) -> usize {
        self.held.len()
    }

    /// Heron's constraint: `c` holds fewer than `limit` tasks and
    /// `(Σ demands + padding) + demand of t ≤ capacity` in CPU, RAM and
    /// disk, computed in Heron's order.
    fn fits(&self, c: ClientIx, t: TaskIx) -> bool {
        let need = self.demand[t];
        let total = self.used[c].plus(self.padding[c]).plus(need);
        let cap = self.capacity[c];
        self.held[c].len() < self.limit
            && total.ram <= cap.ram
            && total.disk <= cap.disk
            && self.cpu_fits(c, need.cpu)
    }

    /// The CPU part of [`Containers::fits`] as Heron computes it: `(Σ in the
    /// order of Heron's set + padding) + cpu ≤ capacity`. Any order of
    /// summing k values is within `(k + 1) · 2⁻⁵³ · Σ |value|` of the exact
    /// result, so when the running sum is farther than twice that from the
    /// capacity, Heron's order decides the same way and the set is not
    /// re-summed; only near the boundary is it.
    #[allow(clippy::cast_precision_loss)] // k far below 2⁵³
    fn cpu_fits(&self, c: ClientIx, cpu: f64) -> bool {
        let (pad, cap) = (self.padding[c].cpu, self.capacity[c].cpu);
        let running = (self.used[c].cpu + pad) + cpu;
        let k = self.held[c].len() as f64;
        let margin = (k + 3.0) * f64::EPSILON * (self.cpu_scale[c] + pad.abs() + cpu.abs());
        if running + margin < cap {
            true
        } else if running - margin > cap {
            false
        } else {
            (self.sets[c].cpu_sum() + pad) + cpu <= cap
        }
    }

    /// Σ CPU of `c`'s tasks in the order of Heron's set.
    fn heron_cpu(&self, c: ClientIx) -> f64 {
        self.sets[c].cpu_sum()
    }

    /// Places `t` on `c` as Heron's builder adds an instance (the next task
    /// id, the partition as component index, the subtopology number as
    /// component name) into `c`'s set; `used` keeps a running sum.
    #[allow(clippy::cast_possible_wrap)] // Java ints; ids past 2³¹ cannot be Heron's
    fn place(&mut self, c: ClientIx, t: TaskIx) {
        debug_assert!(self.owner[t].is_none(), "{t} placed twice");
        let id = self.state.tasks()[t.index()].id;
        let d = self.demand[t];
        if self.keep_sets {
            let mb = |x: u128| u64::try_from(x).unwrap_or(u64::MAX);
            let instance = Instance {
                component_hash: decimal_hash(id.subtopology),
                task_id: self.next_task_id,
                component_index: id.partition as i32,
                cpu: d.cpu,
                ram_mb: mb(d.ram),
                disk_mb: mb(d.disk),
            };
            self.sets[c].insert(instance.hash_code(), d.cpu);
        }
        self.next_task_id = self.next_task_id.wrapping_add(1);
        self.held[c].push(t);
        self.used[c] = self.used[c].plus(d);
        self.cpu_scale[c] += d.cpu.abs();
        self.owner[t] = Some(c);
    }

    /// Keeps every task of the previous plan on its client while it fits
    /// there (clients by id, each one's tasks by id; a task listed by two
    /// clients stays on the first with room). Survivors that no longer fit
    /// are left for the add path and named in a diagnostic.
    fn keep_survivors(&mut self) {
        let state = self.state;
        let mut evicted: Vec<(TaskIx, ClientIx)> = Vec::new();
        for (c, client) in state.client_ixs().zip(state.clients()) {
            for id in &client.previous_active {
                let Some(t) = state.task_ix(*id) else {
                    continue;
                };
                if self.owner[t].is_some() {
                    continue;
                }
                if self.fits(c, t) {
                    self.place(c, t);
                } else {
                    evicted.push((t, c));
                }
            }
        }
        evicted.retain(|&(t, _)| self.owner[t].is_none());
        evicted.sort_unstable();
        evicted.dedup_by_key(|&mut (t, _)| t);
        if evicted.is_empty() {
            return;
        }
        let mut note = format!(
            "{} placed {} previous task(s) again because their client has no room for them now:",
            self.strategy,
            evicted.len()
        );
        for (i, &(t, c)) in evicted.iter().enumerate() {
            if i == 5 {
                let _ = write!(note, " and {} more", evicted.len() - 5);
                break;
            }
            let sep = if i == 0 { " " } else { ", " };
            let _ = write!(
                note,
                "{sep}{} (was on {})",
                state.tasks()[t.index()].id,
                state.clients()[c.index()].id
            );
        }
        self.diagnostics.push(note);
    }

    /// Tasks not placed yet, ascending.
    fn unplaced(&self) -> Vec<TaskIx> {
        self.owner
            .indices()
            .filter(|&t| self.owner[t].is_none())
            .collect()
    }

    /// What `c` has left for tasks after padding: CPU (clamped at 0), RAM
    /// and disk.
    fn room(&self, c: ClientIx) -> Res {
        let used = Res {
            cpu: self.heron_cpu(c),
            ..self.used[c]
        };
        let reserved = used.plus(self.padding[c]);
        Res {
            cpu: (self.capacity[c].cpu - reserved.cpu).max(0.0),
            ram: self.capacity[c].ram.saturating_sub(reserved.ram),
            disk: self.capacity[c].disk.saturating_sub(reserved.disk),
        }
    }

    /// Heron's minimum instance sizes, checked as it places an instance: the
    /// first of `tasks` whose demand is under `min_ram` MiB or, when given,
    /// `min_cpu` is [`AssignError::Infeasible`] (Heron refuses the packing).
    fn check_minimums(
        &self,
        tasks: &[TaskIx],
        min_ram: u64,
        min_cpu: Option<f64>,
    ) -> Result<(), AssignError> {
        for &t in tasks {
            let d = self.demand[t];
            let short = if d.ram < u128::from(min_ram) {
                format!("{min_ram} ram_mb")
            } else if min_cpu.is_some_and(|min| d.cpu < min) {
                format!("{} cpu", cpu_text(min_cpu.unwrap_or(0.0)))
            } else {
                continue;
            };
            return Err(AssignError::Infeasible(format!(
                "{}, under the {short} Heron's {} accepts for an instance",
                self.needs(t, false),
                self.strategy
            )));
        }
        Ok(())
    }

    /// `task S_P needs X cpu and Y ram_mb` (`, Y ram_mb and Z disk_mb` when
    /// `disk` or the task states its disk), marking defaults.
    fn needs(&self, t: TaskIx, disk: bool) -> String {
        let task = &self.state.tasks()[t.index()];
        let d = self.demand[t];
        let mark = |stated: bool| if stated { "" } else { " (default)" };
        let cpu = format!("{} cpu{}", cpu_text(d.cpu), mark(task.cpu.is_some()));
        let ram = format!("{} ram_mb{}", d.ram, mark(task.ram_mb.is_some()));
        let mut amounts = vec![cpu, ram];
        if disk || task.disk_mb.is_some() {
            amounts.push(format!(
                "{} disk_mb{}",
                d.disk,
                mark(task.disk_mb.is_some())
            ));
        }
        format!("task {} needs {}", task.id, and_list(&amounts))
    }

    /// The error for task `t` when no client has room for it.
    fn no_room(&self, t: TaskIx) -> AssignError {
        let open: Vec<ClientIx> = self
            .held
            .indices()
            .filter(|&c| self.held[c].len() < self.limit)
            .collect();
        let mut disk = false;
        let detail = if open.is_empty() {
            format!(
                "every client already holds {} tasks, the most {} puts on one client",
                self.limit, self.strategy
            )
        } else {
            // The most room in each resource; ties go to the lowest id.
            let best = |more: &dyn Fn(Res, Res) -> bool| {
                open.iter()
                    .copied()
                    .reduce(|a, b| {
                        if more(self.room(b), self.room(a)) {
                            b
                        } else {
                            a
                        }
                    })
                    .unwrap_or(open[0])
            };
            let cpu = best(&|b, a| b.cpu > a.cpu);
            let ram = best(&|b, a| b.ram > a.ram);
            let disk_at = best(&|b, a| b.disk > a.disk);
            let need = self.demand[t];
            let short_of = [
                ("cpu", self.room(cpu).cpu < need.cpu),
                ("ram_mb", self.room(ram).ram < need.ram),
                ("disk_mb", self.room(disk_at).disk < need.disk),
            ];
            disk = short_of[2].1 || self.state.tasks()[t.index()].disk_mb.is_some();
            let shown = if disk { 3 } else { 2 };
            let mut short: Vec<String> = short_of
                .iter()
                .filter(|s| s.1)
                .map(|s| s.0.to_string())
                .collect();
            if short.is_empty() {
                short = short_of[..shown].iter().map(|s| s.0.to_string()).collect();
                let last = short.len() - 1;
                short[last].push_str(" together");
            }
            let name = |c: ClientIx| &self.state.clients()[c.index()].id;
            let mut most = vec![
                format!("{} cpu on {}", cpu_text(self.room(cpu).cpu), name(cpu)),
                format!("{} ram_mb on {}", self.room(ram).ram, name(ram)),
            ];
            if disk {
                most.push(format!(
                    "{} disk_mb on {}",
                    self.room(disk_at).disk,
                    name(disk_at)
                ));
            }
            format!(
                "no client has room for its {}: the most left after padding is {}",
                and_list(&short),
                and_list(&most)
            )
        };
        AssignError::Infeasible(format!(
            "{} but {detail} ({} cannot add a client where Heron would add a container)",
            self.needs(t, disk),
            self.strategy
        ))
    }

    /// The plan: every client with the tasks it holds.
    fn into_plan(self) -> Plan {
        let plans = self.held.iter().map(|held| ClientPlan {
            active: task_ids(self.state, held),
            ..ClientPlan::default()
        });
        Plan {
            diagnostics: self.diagnostics,
            ..plan_of(self.state, self.strategy, plans)
        }
    }
}

/// Whether any client has a previous assignment (a repack, not a first packing).
fn has_previous(state: &ClusterState) -> bool {
    state
        .clients()
        .iter()
        .any(|c| !c.previous_active.is_empty())
}

/// Notes every Heron strategy makes: standbys left unassigned, rack-aware
/// settings not applied.
fn common_diagnostics(state: &ClusterState, strategy: &str) -> Vec<String> {
    let mut notes = Vec::new();
    let config = state.config();
    if config.num_standby_replicas > 0 && state.tasks().iter().any(|t| t.stateful) {
        notes.push(format!(
            "{strategy} has no standbys: num_standby_replicas = {} is left unassigned (Heron keeps no replicas and restores state from checkpoints)",
            config.num_standby_replicas
        ));
    }
    if config.rack_aware_strategy != RackAwareStrategy::None {
        notes.push(format!(
            "rack_aware_strategy {:?} was not applied: Heron's packing ignores racks",
            config.rack_aware_strategy
        ));
    }
    notes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{AssignmentConfig, Client, Task, TaskId};

    #[test]
    fn defaults_hold_nine_default_tasks() {
        let config = HeronConfig::default();
        let cap = capacity(&Client::new("a", 1), &config);
        assert_eq!(
            cap,
            Res {
                cpu: 10.0,
                ram: 10240,
                disk: 10240
            }
        );
        let pad = padding(cap, &config);
        assert_eq!(
            pad,
            Res {
                cpu: 1.0,
                ram: 1024,
                disk: 1024
            }
        );
        let task = demand(&Task::stateless(TaskId::new(0, 0)), &config);
        let nine = (0..9).fold(pad, |acc, _| acc.plus(task));
        assert!(nine.within(cap));
        assert!(!nine.plus(task).within(cap));
    }

    /// Disk alone limits a container: with CPU and RAM to spare, the
    /// default 10 GiB of disk (1 GiB padding) holds nine default instances.
    #[test]
    fn disk_alone_holds_nine_default_tasks() {
        let config = HeronConfig::default();
        let mut big = Client::new("a", 1);
        big.cpu = Some(100.0);
        big.ram_mb = Some(100 * 1024);
        let cap = capacity(&big, &config);
        let pad = padding(cap, &config);
        assert_eq!((cap.disk, pad.disk), (10240, 1024));
        let task = demand(&Task::stateless(TaskId::new(0, 0)), &config);
        let nine = (0..9).fold(pad, |acc, _| acc.plus(task));
        assert!(nine.within(cap));
        let ten = nine.plus(task);
        assert!(ten.cpu <= cap.cpu && ten.ram <= cap.ram && ten.disk > cap.disk);
        assert!(!ten.within(cap));
    }

    #[test]
    fn padding_is_the_larger_of_absolute_and_percent() {
        let config = HeronConfig::default();
        let big = Res {
            cpu: 32.0,
            ram: 65_536,
            disk: 100_000,
        };
        assert_eq!(
            padding(big, &config),
            Res {
                cpu: 3.2,
                ram: 6554,
                disk: 10_000
            }
        );
        let small = Res {
            cpu: 2.0,
            ram: 100,
            disk: 100,
        };
        assert_eq!(
            padding(small, &config),
            Res {
                cpu: 1.0,
                ram: 1024,
                disk: 1024
            }
        );
    }

    #[test]
    fn huge_demands_neither_overflow_nor_fit() {
        let mut task = Task::stateless(TaskId::new(0, 0));
        task.ram_mb = Some(u64::MAX);
        task.cpu = Some(f64::MAX);
        let mut client = Client::new("a", 1);
        client.ram_mb = Some(u64::MAX);
        client.cpu = Some(f64::MAX);
        let state = ClusterState::new(
            AssignmentConfig::default(),
            vec![
                task.clone(),
                Task {
                    id: TaskId::new(0, 1),
                    ..task
                },
            ],
            vec![client],
        )
        .unwrap();
        let bins = Containers::new(&state, &HeronConfig::default(), "heron-ffd", 10);
        assert!(!bins.fits(ClientIx::from_position(0), TaskIx::from_position(0)));
        assert!(matches!(
            bins.no_room(TaskIx::from_position(0)),
            AssignError::Infeasible(_)
        ));
    }

    /// The shortcut of `cpu_fits` (a running sum far from the capacity)
    /// decides as Heron's order does: 3,000 seeded random containers of 1 to
    /// 40 tasks whose CPUs do not add exactly (0.1, 0.2, 0.3, 0.7, 1.1), the
    /// capacity at Heron's own total, one ulp either side, and a little and a
    /// lot either side.
    #[test]
    fn the_running_sum_shortcut_decides_as_herons_order() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(16);
        let config = HeronConfig {
            padding_percent: 0,
            ..HeronConfig::default()
        };
        let cpus = [0.1, 0.2, 0.3, 0.7, 1.1];
        let (mut shortcut, mut resummed) = (0, 0);
        for _ in 0..3000 {
            let n = rng.random_range(1..=40u32);
            let tasks: Vec<Task> = (0..n)
                .map(|p| Task {
                    cpu: Some(cpus[rng.random_range(0..cpus.len())]),
                    ..Task::stateless(TaskId::new(rng.random_range(0..3), p))
                })
                .collect();
            let packed = |cap: f64| {
                let mut client = Client::new("a", 1);
                client.cpu = Some(cap);
                client.ram_mb = Some(u64::MAX);
                client.disk_mb = Some(u64::MAX);
                let state =
                    ClusterState::new(AssignmentConfig::default(), tasks.clone(), vec![client])
                        .unwrap();
                let mut bins = Containers::new(&state, &config, "heron-rcrr", usize::MAX);
                for t in 0..n as usize - 1 {
                    bins.place(ClientIx::from_position(0), TaskIx::from_position(t));
                }
                let c = ClientIx::from_position(0);
                let d = bins.demand[TaskIx::from_position(n as usize - 1)].cpu;
                let heron = (bins.heron_cpu(c) + bins.padding[c].cpu) + d;
                let running = (bins.used[c].cpu + bins.padding[c].cpu) + d;
                (bins.cpu_fits(c, d), heron, running)
            };
            let (_, target, _) = packed(1e9);
            let ulp = |x: f64, up: bool| {
                f64::from_bits(if up { x.to_bits() + 1 } else { x.to_bits() - 1 })
            };
            for cap in [
                target,
                ulp(target, true),
                ulp(target, false),
                target + 1e-9,
                target - 1e-9,
                target * 2.0,
                target / 2.0,
            ] {
                let (fits, heron, running) = packed(cap);
                assert_eq!(
                    fits,
                    heron <= cap,
                    "cap {cap}, heron {heron}, running {running}"
                );
                if running == heron {
                    shortcut += 1;
                } else {
                    resummed += 1;
                }
            }
        }
        // Both kinds of container occur: the test can tell the orders apart.
        assert!(shortcut > 0 && resummed > 0, "{shortcut} {resummed}");
    }

    #[test]
    fn cpu_text_is_short() {
        assert_eq!(cpu_text(1.0), "1");
        assert_eq!(cpu_text(0.1 + 0.2), "0.3");
        assert_eq!(cpu_text(1e300), "1e300");
    }
}
