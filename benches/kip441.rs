//! Criterion benchmarks of `kip441` on the shapes of Kafka's scale test
//! (docs/algorithms.md#kafkas-scale-test) and the 10,000 × 1,000 shape of issue 6.
//!
//! Each shape is timed twice: `cold` (no previous assignment, no lags) and
//! `steady` (the cold plan fed back as the previous assignment, as Kafka's
//! scale test does in its second rebalance), plus `churn` for the sparse-lag
//! shapes (three lag reports per task, one of them a running owner). The
//! states come from `smoothscale::generate` (its presets, `History::Cold`,
//! `fed_back`, `History::Sparse` with seed 7). Plans are validated once,
//! outside the timed loop.

#![allow(missing_docs)] // criterion_group! generates undocumented items

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use smoothscale::generate::{fed_back, generate, preset, History, Spec};
use smoothscale::{assignor, validate};

/// Kafka's scale-test shapes: `smoothscale::generate` presets.
const SHAPES: &[&str] = &[
    "6000t_2c",
    "1000t_10c_1000thr",
    "1000t_100c_50sb",
    "1000t_1000c",
    "10000t_1000c",
];

fn bench(c: &mut Criterion) {
    let kip441 = assignor::by_name("kip441").expect("registered");
    let mut group = c.benchmark_group("kip441");
    group.sample_size(20);
    for &name in SHAPES {
        let mut spec = preset(name).expect("a preset");
        spec.history = History::Cold;
        let cold_state = generate(&spec, 0).expect("valid");
        let plan = kip441.assign(&cold_state).expect("plan");
        validate(&cold_state, &plan, kip441.info().claims).expect("valid cold plan");
        let steady = fed_back(&cold_state, &plan).expect("valid");
        let mut states = vec![("cold", cold_state), ("steady", steady)];
        if spec.threads == 1 && spec.clients >= 3 {
            spec.history = History::Sparse { reports: 3 };
            states.push(("churn", generate(&spec, 7).expect("valid")));
        }
        for (kind, state) in &states {
            validate(
                state,
                &kip441.assign(state).expect("plan"),
                kip441.info().claims,
            )
            .expect("valid plan");
            group.bench_with_input(BenchmarkId::new(*kind, name), state, |b, s| {
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
    let kip441 = assignor::by_name("kip441").expect("registered");
    let mut group = c.benchmark_group("kip441_growth");
    // Ratios of medians are noisier than the medians: more samples.
    group.sample_size(30);
    for tasks in [12_500, 25_000, 50_000, 100_000] {
        let spec = Spec::stateful(tasks, 1_000, 1, 1, History::Sparse { reports: 3 });
        let state = generate(&spec, 0).expect("valid");
        validate(
            &state,
            &kip441.assign(&state).expect("plan"),
            kip441.info().claims,
        )
        .expect("valid plan");
        group.bench_with_input(BenchmarkId::new("sparse_1000c", tasks), &state, |b, s| {
            b.iter(|| kip441.assign(s).expect("plan"))
        });
    }
    group.finish();
}

criterion_group!(benches, bench, growth);
criterion_main!(benches);
