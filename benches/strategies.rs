//! Every registered strategy on the shapes of issue 6 (`smoothscale::generate`
//! presets: Kafka's scale-test shapes and 100,000 tasks × 1,000 clients with
//! sparse lags), and the floor: reading the input once.
//!
//! `floor/<shape>` visits every task, client and lag entry of the state and
//! does nothing else: no assignor can be faster, so each strategy's figure is
//! also reported as a multiple of it (benches/README.md).
//!
//! Plans are validated once, outside the timed loop. A strategy whose one
//! untimed run on a shape takes over 3 s is not timed there (it would take
//! minutes of samples); the bench prints the time that run took instead.

#![allow(missing_docs)] // criterion_group! generates undocumented items

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use smoothscale::generate::{generate, presets};
use smoothscale::{assignor, validate, ClusterState, Lag};

/// The floor: one pass over every task, client and lag entry.
fn read_once(state: &ClusterState) -> u64 {
    let mut sum = 0u64;
    for task in state.tasks() {
        sum = sum.wrapping_add(task.end_offset);
    }
    for client in state.clients() {
        sum = sum.wrapping_add(u64::from(client.capacity));
        for lag in client.lags.values() {
            sum = sum.wrapping_add(match lag {
                Lag::Running => 1,
                Lag::Unknown => 2,
                Lag::Records(n) => *n,
            });
        }
    }
    sum
}

/// Untimed runs longer than this are reported, not benchmarked.
const TOO_SLOW: Duration = Duration::from_secs(3);

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("strategies");
    group.sample_size(10);
    for preset in presets() {
        let state = generate(&preset.spec, 0).expect("valid preset");
        group.bench_with_input(BenchmarkId::new("floor", preset.name), &state, |b, s| {
            b.iter(|| read_once(black_box(s)))
        });
        for name in assignor::names() {
            let a = assignor::by_name(name).expect("registered");
            #[allow(clippy::disallowed_methods, reason = "a benchmark times itself")]
            let start = Instant::now();
            let plan = match a.assign(&state) {
                Ok(plan) => plan,
                Err(e) => {
                    eprintln!("{name}/{}: not timed: {e}", preset.name);
                    continue;
                }
            };
            let took = start.elapsed();
            validate(&state, &plan, a.info().claims).expect("valid plan");
            if took > TOO_SLOW {
                eprintln!(
                    "{name}/{}: not timed: one run took {:.1} s",
                    preset.name,
                    took.as_secs_f64()
                );
                continue;
            }
            group.bench_with_input(BenchmarkId::new(name, preset.name), &state, |b, s| {
                b.iter(|| a.assign(s).expect("plan"))
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
