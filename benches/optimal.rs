//! `optimal`, the exact one-rebalance yardstick, at scale (issue 15): the
//! `smoothscale generate` presets `10000t_1000c` and `100000t_1000c` (one
//! thread per client, one standby, three lag reports per task on seeded
//! clients — a running previous owner, a caught-up previous standby, one far
//! behind — so the previous assignment is present but unbalanced).
//!
//! - `assign/<preset>`: the whole plan, actives then standbys (two
//!   transportation problems);
//! - `distance/<preset>`: `metrics::distance_to_optimal` of that plan, what
//!   the simulator computes at every counted rebalance whose plan meets the
//!   share bounds (the active problem only; a plan outside the bounds has no
//!   distance and costs nothing to measure).
//!
//! Checked once, outside the timed loop: the plan is valid and its distance
//! to optimal is 0.

#![allow(missing_docs)] // criterion_group! generates undocumented items

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use smoothscale::assignor::optimal::Optimal;
use smoothscale::generate::{generate, preset};
use smoothscale::{metrics, validate, Assignor};

const PRESETS: [&str; 2] = ["10000t_1000c", "100000t_1000c"];

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("optimal");
    group.sample_size(10);
    for name in PRESETS {
        let spec = preset(name).expect("a preset");
        let state = generate(&spec, 0).expect("valid preset");
        let plan = Optimal.assign(&state).expect("plan");
        validate(&state, &plan, Optimal.info().claims).expect("valid plan");
        assert_eq!(metrics::distance_to_optimal(&state, &plan), Ok(Some(0)));
        group.bench_function(BenchmarkId::new("assign", name), |b| {
            b.iter(|| Optimal.assign(&state).expect("plan"))
        });
        group.bench_function(BenchmarkId::new("distance", name), |b| {
            b.iter(|| metrics::distance_to_optimal(&state, &plan))
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
