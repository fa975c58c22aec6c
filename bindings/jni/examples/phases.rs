//! Where the native side of one Kafka Streams rebalance spends its time:
//! decoding the state message (and `ClusterState::new`), the strategy,
//! `validate`, and encoding the plan.
//!
//! `cargo run --release -p smoothscale-jni --example phases [PRESET] [STRATEGY]`
//! (defaults `10000t_1000c`, `kip441`): five runs after one warm-up.

#![allow(clippy::disallowed_methods, reason = "a timing tool reads the clock")]

use std::time::{Duration, Instant};

fn main() -> Result<(), smoothscale_jni::Failure> {
    let mut args = std::env::args().skip(1);
    let preset = args.next().unwrap_or_else(|| "10000t_1000c".into());
    let strategy = args.next().unwrap_or_else(|| "kip441".into());
    let message = smoothscale_jni::generate_preset(&preset, 1)?;
    let assignor = smoothscale_jni::find(&strategy)?;
    println!("{preset}, {strategy}: {} bytes in", message.len());
    for run in 0..6 {
        let mut lap = Instant::now();
        let mut split = || {
            let now = Instant::now();
            let d: Duration = now - lap;
            lap = now;
            d
        };
        let decoded = smoothscale_jni::state::decode(&message)?;
        let decode = split();
        let plan = assignor
            .assign(&decoded.state)
            .map_err(smoothscale_jni::Failure::input)?;
        let assign = split();
        smoothscale::validate(&decoded.state, &plan, assignor.info().claims)
            .map_err(|v| smoothscale_jni::Failure::bug(format!("{} violations", v.len())))?;
        let validate = split();
        let out =
            smoothscale_jni::plan::encode(&decoded.state, &plan, &decoded.message_index_of_task);
        let encode = split();
        if run > 0 {
            println!(
                "decode {decode:.2?}  assign {assign:.2?}  validate {validate:.2?}  encode {encode:.2?}  ({} bytes out)",
                out.len()
            );
        }
    }
    Ok(())
}
