//! Criterion benchmarks of the min-cost flow solver on KIP-925's
//! `min_traffic` shape: source → task (capacity 1) → every client
//! (capacity 1, cost 10 × [rack mismatch] + 1 × [not the current owner]) →
//! sink (capacity = the client's current task count), demand = tasks.
//!
//! Racks (3), task racks and current owners are seeded. `solve` times the
//! solver on a prebuilt network; `build_and_solve` includes building the
//! petgraph network (one arc per task × client).

#![allow(missing_docs)] // criterion_group! generates undocumented items

use criterion::{criterion_group, criterion_main, BatchSize, BenchmarkId, Criterion};
use petgraph::graph::NodeIndex;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use smoothscale::flow::FlowNetwork;

struct Shape {
    tasks: usize,
    clients: usize,
}

/// The network, its source and sink, and the cost of leaving every task put.
fn min_traffic(shape: &Shape, seed: u64) -> (FlowNetwork, NodeIndex, NodeIndex, i64) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let racks: Vec<u8> = (0..shape.clients).map(|_| rng.random_range(0..3)).collect();
    let task_rack: Vec<u8> = (0..shape.tasks).map(|_| rng.random_range(0..3)).collect();
    let owner: Vec<usize> = (0..shape.tasks)
        .map(|_| rng.random_range(0..shape.clients))
        .collect();
    let cost =
        |t: usize, k: usize| 10 * i64::from(racks[k] != task_rack[t]) + i64::from(owner[t] != k);
    let mut net = FlowNetwork::new();
    let source = net.add_node();
    let tasks: Vec<_> = (0..shape.tasks).map(|_| net.add_node()).collect();
    let clients: Vec<_> = (0..shape.clients).map(|_| net.add_node()).collect();
    let sink = net.add_node();
    for &t in &tasks {
        net.add_arc(source, t, 1, 0);
    }
    for (i, &t) in tasks.iter().enumerate() {
        for (k, &c) in clients.iter().enumerate() {
            net.add_arc(t, c, 1, cost(i, k));
        }
    }
    let mut count = vec![0i64; shape.clients];
    for &o in &owner {
        count[o] += 1;
    }
    for (k, &c) in clients.iter().enumerate() {
        net.add_arc(c, sink, count[k], 0);
    }
    let stay = (0..shape.tasks).map(|t| cost(t, owner[t])).sum();
    (net, source, sink, stay)
}

const SHAPES: &[Shape] = &[
    Shape {
        tasks: 1_000,
        clients: 100,
    },
    Shape {
        tasks: 2_000,
        clients: 100,
    },
    Shape {
        tasks: 5_000,
        clients: 100,
    },
    Shape {
        tasks: 10_000,
        clients: 100,
    },
    Shape {
        tasks: 10_000,
        clients: 50,
    },
    Shape {
        tasks: 10_000,
        clients: 200,
    },
];

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("flow_min_traffic");
    group.sample_size(10);
    for shape in SHAPES {
        let id = format!("{}t_{}c", shape.tasks, shape.clients);
        let (net, s, t, stay) = min_traffic(shape, 925);
        // Checked once, outside the timed loop.
        let mut check = net.clone();
        let cost = check
            .min_cost_flow(s, t, shape.tasks as i64)
            .expect("the current assignment is feasible");
        assert!(cost <= stay);
        assert!(!check.residual_has_negative_cycle());
        eprintln!("{id}: optimal cost {cost}, staying put {stay}");
        group.bench_function(BenchmarkId::new("solve", &id), |b| {
            b.iter_batched(
                || net.clone(),
                |mut n| n.min_cost_flow(s, t, shape.tasks as i64),
                BatchSize::LargeInput,
            )
        });
        group.bench_function(BenchmarkId::new("build_and_solve", &id), |b| {
            b.iter(|| {
                let (mut n, s, t, _) = min_traffic(shape, 925);
                n.min_cost_flow(s, t, shape.tasks as i64)
            })
        });
    }
    group.finish();
}

/// A racked state: `n` stateful tasks (one random rack of three each, input
/// and changelog) on `m` clients (racks round-robin), one standby; every task
/// reports a running owner and one replica behind by up to 20,000 records, on
/// seeded random clients; end offset 100,000.
fn racked_state(n: u32, m: usize) -> smoothscale::ClusterState {
    use smoothscale::{
        AssignmentConfig, Client, ClusterState, Lag, RackAwareStrategy, Task, TaskId,
    };
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let racks = ["r0", "r1", "r2"];
    let tasks: Vec<Task> = (0..n)
        .map(|p| {
            let mut t = Task::stateful(TaskId::new(0, p), 100_000);
            let r = racks[rng.random_range(0..3)].to_string();
            t.racks.insert(r.clone());
            t.changelog_racks.insert(r);
            t
        })
        .collect();
    let mut clients: Vec<Client> = (0..m)
        .map(|c| Client::new(format!("c{c:04}"), 1).with_rack(racks[c % 3]))
        .collect();
    for t in &tasks {
        let a = rng.random_range(0..m);
        let b = (a + 1 + rng.random_range(0..m - 1)) % m;
        clients[a].previous_active.insert(t.id);
        clients[a].lags.insert(t.id, Lag::Running);
        clients[b].previous_standby.insert(t.id);
        clients[b]
            .lags
            .insert(t.id, Lag::Records(rng.random_range(0..20_000)));
    }
    let config = AssignmentConfig {
        num_standby_replicas: 1,
        rack_aware_strategy: RackAwareStrategy::MinTraffic,
        ..AssignmentConfig::default()
    };
    ClusterState::new(config, tasks, clients).expect("valid")
}

/// The two assignors that solve flows, end to end on [`racked_state`]s:
/// `kip441` with `min_traffic` (active network, stateless pass, pairwise
/// standby rounds) and `optimal` (active and standby transport networks).
fn bench_assignors(c: &mut Criterion) {
    use smoothscale::{assignor, validate};
    let mut group = c.benchmark_group("flow_assignors");
    group.sample_size(10);
    for (n, m) in [(2_500, 100), (5_000, 100), (10_000, 100), (10_000, 200)] {
        let state = racked_state(n, m);
        for name in ["kip441", "optimal"] {
            let a = assignor::by_name(name).expect("registered");
            let plan = a.assign(&state).expect("plan");
            validate(&state, &plan, a.info().claims).expect("valid plan");
            // kip441 must really apply rack awareness; optimal ignores racks.
            assert!(
                name != "kip441" || plan.diagnostics.is_empty(),
                "{:?}",
                plan.diagnostics
            );
            let id = format!("{n}t_{m}c_racked");
            group.bench_function(BenchmarkId::new(name, id), |b| {
                b.iter(|| a.assign(&state).expect("plan"))
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench, bench_assignors);
criterion_main!(benches);
