//! Growth of `kip441` with the task count, sizes interleaved.
//!
//! `kip441_growth` in `kip441.rs` times each size in its own criterion
//! window, a minute apart from the next; on a shared machine, whose speed
//! drifts by tens of percent over minutes, the ratio of two such medians
//! carries that drift. This bench measures the same four states (sparse lags,
//! three reports per task, 1,000 clients, one standby, seed 0) round after
//! round, each round timing every size once — a batch of 100,000 / tasks
//! assignments, so every batch is about the same work — and prints each
//! size's median over the rounds and its ratio to the size before. Drift
//! then moves all sizes alike. Plans are validated once, before timing.
//!
//! `cargo bench -p smoothscale-bench --bench growth` (`SMOOTHSCALE_GROWTH_ROUNDS`, default 41).

use std::hint::black_box;
use std::time::Instant;

use smoothscale::generate::{generate, History, Spec};
use smoothscale::{assignor, validate};

const SIZES: [u32; 4] = [12_500, 25_000, 50_000, 100_000];

fn main() {
    // `cargo bench -p smoothscale-bench -- FILTER` passes its filter to every bench: run only
    // when no filter is given or one matches, as criterion does.
    let filters: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    if !filters.is_empty() && !filters.iter().any(|f| "growth".contains(f.as_str())) {
        return;
    }
    let rounds: usize = std::env::var("SMOOTHSCALE_GROWTH_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(41);
    let kip441 = assignor::by_name("kip441").expect("registered");
    let states: Vec<_> = SIZES
        .iter()
        .map(|&tasks| {
            let spec = Spec::stateful(tasks, 1_000, 1, 1, History::Sparse { reports: 3 });
            let state = generate(&spec, 0).expect("valid");
            validate(
                &state,
                &kip441.assign(&state).expect("plan"),
                kip441.info().claims,
            )
            .expect("valid plan");
            state
        })
        .collect();
    let mut times: Vec<Vec<f64>> = vec![Vec::with_capacity(rounds); SIZES.len()];
    for _ in 0..rounds {
        for (i, state) in states.iter().enumerate() {
            let batch = (100_000 / SIZES[i]) as usize;
            #[allow(clippy::disallowed_methods, reason = "a benchmark times itself")]
            let start = Instant::now();
            for _ in 0..batch {
                black_box(kip441.assign(black_box(state)).expect("plan"));
            }
            times[i].push(start.elapsed().as_secs_f64() * 1e3 / batch as f64);
        }
    }
    println!("kip441, sparse lags, 1,000 clients: median of {rounds} interleaved rounds");
    println!("| tasks | median | × previous |");
    println!("|---|---|---|");
    let mut previous: Option<f64> = None;
    for (i, t) in times.iter_mut().enumerate() {
        t.sort_by(f64::total_cmp);
        let median = t[t.len() / 2];
        let ratio = previous.map_or("–".to_string(), |p| format!("{:.2}", median / p));
        println!("| {} | {median:.2} ms | {ratio} |", SIZES[i]);
        previous = Some(median);
    }
}
