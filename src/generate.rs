//! Synthetic cluster states: the inputs of the benchmarks, of the golden-plan
//! tests and of `smoothscale generate` (which writes them as JSON for the
//! other commands).
//!
//! A [`Spec`] says how big the cluster is and what history it has; the seed
//! draws everything random from one ChaCha8 generator, so a spec and a seed
//! always give the same state. The [`presets`] are the shapes of Kafka's
//! assignor scale test (docs/algorithms.md#kafkas-scale-test) that issue 6 times, and a larger
//! one.

use rand::seq::index::sample;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::model::{
    AssignmentConfig, Client, ClusterState, InputError, Lag, Plan, RackAwareStrategy, Task, TaskId,
};

/// The end offset of every task of the non-random histories.
pub const END_OFFSET: u64 = 100_000;

/// The racks of [`History::Random`] clients and tasks.
const RACKS: [&str; 2] = ["r1", "r2"];

/// What the clients remember and report.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum History {
    /// No previous assignment and no lags: a cluster starting up.
    Cold,
    /// `reports` (at most the client count) distinct seeded clients per
    /// stateful task report a lag: the first runs it (`running`, previous
    /// active), the second is caught up (lag below 10,000, previous standby),
    /// the rest are far behind (10,001 to 99,999, previous standby). Every
    /// other client has no entry: Kafka's sparse lags at scale.
    Sparse {
        /// Lag reports per stateful task.
        reports: u32,
    },
    /// Everything drawn: capacities `1..=threads`, end offsets, a previous
    /// owner for most tasks (some on clients that are gone), standbys, lags
    /// of every kind (`running`, records, `unknown`), some clients new; and
    /// the settings: acceptable recovery lag, warm-up budget, and sometimes
    /// tag-aware standbys or rack-aware optimisation. For tests that must
    /// reach every branch.
    Random,
}

/// The size and history of a generated cluster.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spec {
    /// Stateful tasks.
    pub stateful: u32,
    /// Stateless tasks.
    pub stateless: u32,
    /// Subtopologies the tasks are dealt over round-robin (at least 1).
    pub subtopologies: u32,
    /// Clients.
    pub clients: u32,
    /// Threads (capacity) per client; with [`History::Random`], the most.
    pub threads: u32,
    /// `num_standby_replicas`.
    pub standbys: u32,
    /// What the clients remember.
    pub history: History,
}

/// A named [`Spec`].
#[derive(Debug, Clone)]
pub struct Preset {
    /// The name (`smoothscale generate --preset NAME`).
    pub name: &'static str,
    /// What it is.
    pub about: &'static str,
    /// The spec.
    pub spec: Spec,
}

impl Spec {
    /// `tasks` stateful tasks in one subtopology on `clients` clients of
    /// `threads` threads each, with `standbys` standbys and `history`.
    pub fn stateful(
        tasks: u32,
        clients: u32,
        threads: u32,
        standbys: u32,
        history: History,
    ) -> Spec {
        Spec {
            stateful: tasks,
            stateless: 0,
            subtopologies: 1,
            clients,
            threads,
            standbys,
            history,
        }
    }
}

/// Kafka's scale-test shapes (issue 6's table) and 100,000 × 1,000.
pub fn presets() -> Vec<Preset> {
    let sparse = History::Sparse { reports: 3 };
    vec![
        Preset {
            name: "6000t_2c",
            about: "6,000 stateful tasks, 2 clients, 1 standby, cold",
            spec: Spec::stateful(6_000, 2, 1, 1, History::Cold),
        },
        Preset {
            name: "1000t_10c_1000thr",
            about: "1,000 stateful tasks, 10 clients of 1,000 threads, 1 standby, cold",
            spec: Spec::stateful(1_000, 10, 1_000, 1, History::Cold),
        },
        Preset {
            name: "1000t_100c_50sb",
            about: "1,000 stateful tasks, 100 clients, 50 standbys, cold",
            spec: Spec::stateful(1_000, 100, 1, 50, History::Cold),
        },
        Preset {
            name: "1000t_1000c",
            about: "1,000 stateful tasks, 1,000 clients, 1 standby, cold",
            spec: Spec::stateful(1_000, 1_000, 1, 1, History::Cold),
        },
        Preset {
            name: "10000t_1000c",
            about: "10,000 stateful tasks, 1,000 clients, 1 standby, lags on 3 clients per task",
            spec: Spec::stateful(10_000, 1_000, 1, 1, sparse),
        },
        Preset {
            name: "100000t_1000c",
            about: "100,000 stateful tasks, 1,000 clients, 1 standby, lags on 3 clients per task",
            spec: Spec::stateful(100_000, 1_000, 1, 1, sparse),
        },
    ]
}

/// The preset called `name`.
pub fn preset(name: &str) -> Option<Spec> {
    presets()
        .into_iter()
        .find(|p| p.name == name)
        .map(|p| p.spec)
}

/// The task ids of a spec: stateful first, then stateless, partitions
/// numbered per subtopology.
fn task_ids(spec: &Spec) -> Vec<TaskId> {
    let groups = spec.subtopologies.max(1);
    (0..spec.stateful + spec.stateless)
        .map(|i| TaskId::new(i % groups, i / groups))
        .collect()
}

/// The client ids: `c00000`, `c00001`, … (sorted as numbered).
fn client_id(c: u32) -> String {
    format!("c{c:05}")
}

/// The state of `spec` drawn with `seed`.
///
/// # Errors
/// Only if the spec makes an invalid state (a [`History::Random`] draw never
/// does; a zero-thread spec does).
pub fn generate(spec: &Spec, seed: u64) -> Result<ClusterState, InputError> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let ids = task_ids(spec);
    let random = spec.history == History::Random;
    let mut tasks: Vec<Task> = ids
        .iter()
        .enumerate()
        .map(|(i, &id)| {
            if u32::try_from(i).map_or(true, |i| i >= spec.stateful) {
                Task::stateless(id)
            } else if random {
                Task::stateful(id, rng.random_range(0..1_000_000))
            } else {
                Task::stateful(id, END_OFFSET)
            }
        })
        .collect();
    let mut clients: Vec<Client> = (0..spec.clients)
        .map(|c| {
            let capacity = if random {
                rng.random_range(1..=spec.threads.max(1))
            } else {
                spec.threads
            };
            Client::new(client_id(c), capacity)
        })
        .collect();
    let mut config = AssignmentConfig {
        num_standby_replicas: spec.standbys,
        ..AssignmentConfig::default()
    };
    match spec.history {
        History::Cold => {}
        History::Sparse { reports } => sparse_history(&mut rng, &tasks, &mut clients, reports),
        History::Random => {
            random_history(&mut rng, &tasks, &mut clients, &mut config);
            random_task_racks(&mut rng, &mut tasks, &config);
        }
    }
    let clients = clients.iter().map(rebuilt).collect();
    ClusterState::new(config, tasks, clients)
}

/// A copy of `client` whose task sets and lags are built in one go each,
/// client after client, as a parser builds them. The draws insert task by
/// task into random clients, which leaves each client's B-tree nodes
/// half-full and scattered over the heap; a state read from a file has
/// them together. Equal to `client`.
fn rebuilt(client: &Client) -> Client {
    Client {
        id: client.id.clone(),
        capacity: client.capacity,
        rack: client.rack.clone(),
        tags: client.tags.clone(),
        host: client.host.clone(),
        cpu: client.cpu,
        ram_mb: client.ram_mb,
        disk_mb: client.disk_mb,
        previous_active: client.previous_active.iter().copied().collect(),
        previous_standby: client.previous_standby.iter().copied().collect(),
        previous_warmup: client.previous_warmup.iter().copied().collect(),
        leaving: client.leaving,
        lags: client.lags.iter().map(|(&t, &lag)| (t, lag)).collect(),
    }
}

fn sparse_history(rng: &mut ChaCha8Rng, tasks: &[Task], clients: &mut [Client], reports: u32) {
    let n = clients.len();
    for task in tasks.iter().filter(|t| t.stateful) {
        for (k, c) in sample(rng, n, (reports as usize).min(n)).iter().enumerate() {
            let lag = match k {
                0 => Lag::Running,
                1 => Lag::Records(rng.random_range(0..10_000)),
                _ => Lag::Records(rng.random_range(10_001..END_OFFSET)),
            };
            clients[c].lags.insert(task.id, lag);
            if k == 0 {
                clients[c].previous_active.insert(task.id);
            } else {
                clients[c].previous_standby.insert(task.id);
            }
        }
    }
}

fn random_history(
    rng: &mut ChaCha8Rng,
    tasks: &[Task],
    clients: &mut [Client],
    config: &mut AssignmentConfig,
) {
    let n = clients.len();
    config.acceptable_recovery_lag = [0, 100, 10_000, 1_000_000][rng.random_range(0..4)];
    config.max_warmup_replicas = rng.random_range(1..=4);
    // Some clients are new: no history at all.
    let veteran: Vec<bool> = (0..n).map(|_| rng.random_bool(0.8)).collect();
    let zones = ["z1", "z2", "z3"];
    let tagged = rng.random_bool(0.25);
    let racked = !tagged && rng.random_bool(0.25);
    if tagged {
        config.rack_aware_assignment_tags = vec!["zone".to_string()];
    }
    if racked {
        config.rack_aware_strategy = if rng.random_bool(0.5) {
            RackAwareStrategy::MinTraffic
        } else {
            RackAwareStrategy::BalanceSubtopology
        };
    }
    for (c, client) in clients.iter_mut().enumerate() {
        if tagged {
            client
                .tags
                .insert("zone".into(), zones[c % zones.len()].into());
        }
        if racked {
            client.rack = Some(RACKS[c % RACKS.len()].into());
        }
    }
    for task in tasks {
        if n == 0 {
            break;
        }
        // A previous owner (sometimes none: its client left), then standbys.
        let count = rng.random_range(0..=3.min(n));
        let holders = sample(rng, n, count);
        for (k, c) in holders.iter().enumerate() {
            if !veteran[c] {
                continue;
            }
            let client = &mut clients[c];
            if k == 0 && rng.random_bool(0.9) {
                client.previous_active.insert(task.id);
            } else if task.stateful {
                client.previous_standby.insert(task.id);
            }
            if task.stateful {
                let lag = match rng.random_range(0..4) {
                    0 => Lag::Running,
                    1 => Lag::Unknown,
                    _ => Lag::Records(rng.random_range(0..=task.end_offset)),
                };
                client.lags.insert(task.id, lag);
            }
        }
    }
}

/// Input and changelog racks for every task, drawn, when rack-aware
/// optimisation was drawn.
fn random_task_racks(rng: &mut ChaCha8Rng, tasks: &mut [Task], config: &AssignmentConfig) {
    if config.rack_aware_strategy == RackAwareStrategy::None {
        return;
    }
    for task in tasks {
        task.racks
            .insert(RACKS[rng.random_range(0..RACKS.len())].into());
        if task.stateful {
            task.changelog_racks
                .insert(RACKS[rng.random_range(0..RACKS.len())].into());
        }
    }
}

/// The clients of `state` with `plan` as their previous assignment: actives
/// running, standbys caught up (lag 0), warm-ups as standbys with lag 0 —
/// the second rebalance of Kafka's scale test.
///
/// # Errors
/// None for a plan of `state`; an error names a task the state lacks.
pub fn fed_back(state: &ClusterState, plan: &Plan) -> Result<ClusterState, InputError> {
    let clients = state
        .clients()
        .iter()
        .map(|c| {
            let mut client = Client::new(c.id.clone(), c.capacity);
            client.rack.clone_from(&c.rack);
            client.tags.clone_from(&c.tags);
            client.host.clone_from(&c.host);
            if let Some(cp) = plan.clients.get(&c.id) {
                client.previous_active = cp.active.clone();
                client.previous_standby = cp.standby.union(&cp.warmup).copied().collect();
                for &t in &cp.active {
                    if state.task(t).is_some_and(|t| t.stateful) {
                        client.lags.insert(t, Lag::Running);
                    }
                }
                for &t in &client.previous_standby {
                    if state.task(t).is_some_and(|t| t.stateful) {
                        client.lags.insert(t, Lag::Records(0));
                    }
                }
            }
            client
        })
        .collect();
    ClusterState::new(state.config().clone(), state.tasks().to_vec(), clients)
}

/// Kafka's standby pile-up input: `n` stateful tasks of 1,000,000 records on
/// `n` single-thread clients (`c0000`, …), client i running task `0_i`
/// (previous active, reported running), one standby each, no copy caught up
/// anywhere else. With `equal_lag`, every client also reports that lag for
/// every other task; without, it reports nothing else.
///
/// # Errors
/// None for `n` up to 10,000 (client ids have four digits).
pub fn pile_up(n: u32, equal_lag: Option<u64>) -> Result<ClusterState, InputError> {
    let ids: Vec<TaskId> = (0..n).map(|p| TaskId::new(0, p)).collect();
    let tasks = ids.iter().map(|&t| Task::stateful(t, 1_000_000)).collect();
    let clients = ids
        .iter()
        .enumerate()
        .map(|(i, &own)| {
            let mut client = Client::new(format!("c{i:04}"), 1)
                .with_previous_active([own])
                .with_lag(own, Lag::Running);
            if let Some(lag) = equal_lag {
                for &t in ids.iter().filter(|&&t| t != own) {
                    client = client.with_lag(t, Lag::Records(lag));
                }
            }
            client
        })
        .collect();
    let config = AssignmentConfig {
        num_standby_replicas: 1,
        ..AssignmentConfig::default()
    };
    ClusterState::new(config, tasks, clients)
}
