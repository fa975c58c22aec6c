//! Criterion benchmarks of `kip441` on the shapes of Kafka's scale test
//! (kip441-spec §3.5) and the 10,000 × 1,000 shape of issue 6.
//!
//! Each shape is timed twice: `cold` (no previous assignment, no lags) and
//! `steady` (the cold plan fed back as the previous assignment, as Kafka's
//! scale test does in its second rebalance), plus `churn` for the sparse-lag
//! shape (three lag reports per task, one of them a running owner). Plans are
//! validated once, outside the timed loop.

#![allow(missing_docs)] // criterion_group! generates undocumented items

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use rand::seq::index::sample;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use smoothscale::{
    assignor, validate, AssignmentConfig, Client, ClusterState, Lag, Plan, Task, TaskId,
};

struct Shape {
    name: &'static str,
    tasks: u32,
    clients: usize,
    threads: u32,
    standbys: u32,
}

const SHAPES: &[Shape] = &[
    Shape {
        name: "6000t_2c",
        tasks: 6000,
        clients: 2,
        threads: 1,
        standbys: 1,
    },
    Shape {
        name: "1000t_10c_1000thr",
        tasks: 1000,
        clients: 10,
        threads: 1000,
        standbys: 1,
    },
    Shape {
        name: "1000t_100c_50sb",
        tasks: 1000,
        clients: 100,
        threads: 1,
        standbys: 50,
    },
    Shape {
        name: "1000t_1000c",
        tasks: 1000,
        clients: 1000,
        threads: 1,
        standbys: 1,
    },
    Shape {
        name: "10000t_1000c",
        tasks: 10000,
        clients: 1000,
        threads: 1,
        standbys: 1,
    },
];

fn config(shape: &Shape) -> AssignmentConfig {
    AssignmentConfig {
        num_standby_replicas: shape.standbys,
        ..AssignmentConfig::default()
    }
}

fn tasks(shape: &Shape) -> Vec<Task> {
    (0..shape.tasks)
        .map(|p| Task::stateful(TaskId::new(0, p), 100_000))
        .collect()
}

fn clients(shape: &Shape) -> Vec<Client> {
    (0..shape.clients)
        .map(|c| Client::new(format!("c{c:05}").as_str(), shape.threads))
        .collect()
}

fn cold(shape: &Shape) -> ClusterState {
    ClusterState::new(config(shape), tasks(shape), clients(shape)).expect("valid")
}

/// The cold plan fed back: actives running, standbys caught up.
fn steady(shape: &Shape, plan: &Plan) -> ClusterState {
    let mut cs = clients(shape);
    for client in &mut cs {
        let cp = &plan.clients[&client.id];
        client.previous_active = cp.active.clone();
        client.previous_standby = cp.standby.clone();
        client
            .lags
            .extend(cp.active.iter().map(|&t| (t, Lag::Running)));
        client
            .lags
            .extend(cp.standby.iter().map(|&t| (t, Lag::Records(0))));
    }
    ClusterState::new(config(shape), tasks(shape), cs).expect("valid")
}

/// Three lag reports per task on random clients: a running owner and two
/// replicas, one caught up and one far behind.
fn churn(shape: &Shape, seed: u64) -> ClusterState {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut cs = clients(shape);
    for p in 0..shape.tasks {
        let t = TaskId::new(0, p);
        let owners = sample(&mut rng, shape.clients, 3.min(shape.clients));
        for (k, c) in owners.iter().enumerate() {
            let lag = match k {
                0 => Lag::Running,
                1 => Lag::Records(rng.random_range(0..10_000)),
                _ => Lag::Records(rng.random_range(10_001..100_000)),
            };
            cs[c].lags.insert(t, lag);
            if k == 0 {
                cs[c].previous_active.insert(t);
            } else {
                cs[c].previous_standby.insert(t);
            }
        }
    }
    ClusterState::new(config(shape), tasks(shape), cs).expect("valid")
}

fn bench(c: &mut Criterion) {
    let kip441 = assignor::by_name("kip441").expect("registered");
    let mut group = c.benchmark_group("kip441");
    group.sample_size(20);
    for shape in SHAPES {
        let cold_state = cold(shape);
        let plan = kip441.assign(&cold_state).expect("plan");
        validate(&cold_state, &plan).expect("valid cold plan");
        let mut states = vec![("cold", cold_state), ("steady", steady(shape, &plan))];
        if shape.threads == 1 && shape.clients >= 3 {
            states.push(("churn", churn(shape, 7)));
        }
        for (kind, state) in &states {
            validate(state, &kip441.assign(state).expect("plan")).expect("valid plan");
            group.bench_with_input(BenchmarkId::new(*kind, shape.name), state, |b, s| {
                b.iter(|| kip441.assign(s).expect("plan"))
            });
        }
    }
    group.finish();
}

/// Growth: sparse lags (three reports per task) on 1,000 clients, tasks
/// doubling from 12,500 to 100,000 — issue 6 asks each doubling to cost at
/// most 2.3× the time.
fn growth(c: &mut Criterion) {
    use smoothscale::generate::{generate, History, Spec};
    let kip441 = assignor::by_name("kip441").expect("registered");
    let mut group = c.benchmark_group("kip441_growth");
    group.sample_size(10);
    for tasks in [12_500, 25_000, 50_000, 100_000] {
        let spec = Spec {
            stateful: tasks,
            stateless: 0,
            subtopologies: 1,
            clients: 1_000,
            threads: 1,
            standbys: 1,
            history: History::Sparse { reports: 3 },
        };
        let state = generate(&spec, 0).expect("valid");
        validate(&state, &kip441.assign(&state).expect("plan")).expect("valid plan");
        group.bench_with_input(BenchmarkId::new("sparse_1000c", tasks), &state, |b, s| {
            b.iter(|| kip441.assign(s).expect("plan"))
        });
    }
    group.finish();
}

criterion_group!(benches, bench, growth);
criterion_main!(benches);
