//! The limits on what a scenario may ask for, checked by
//! [`Scenario::check`](super::Scenario::check) when it is read.
//!
//! A scenario is a small file that can ask for unbounded memory or time, so
//! the sizes and the simulated work it asks for are bounded before anything
//! is allocated or simulated; past a limit the scenario is refused with the
//! key, its value and the limit (exit 2 on the command line). The limits are
//! far above every bundled scenario (at most 8 h: 28,800 steps and 481
//! samples; 48 tasks; 6 clients, 34 counting every join random churn may
//! draw; 29 churn events) and above realistic research use
//! (a Kafka Streams group of thousands of instances, tens of thousands of
//! tasks, months of simulated time at a 1 s step):
//!
//! | what | limit | why |
//! |---|---|---|
//! | any duration (`duration`, timeouts, `at`, `interval`, …) | [`MAX_DURATION_MS`] = 3650 days | sums of a few times stay far inside `u64` milliseconds (a rolling bounce over every client: 10,000 × 3650 days ≈ 3.2·10¹⁵ ms) |
//! | physics steps, `duration / step` | [`MAX_STEPS`] = 10,000,000 | 115 days at the default 1 s step; each step visits every task and client |
//! | samples, `duration / sample_every + 1` | [`MAX_SAMPLES`] = 100,000 | per strategy, in memory, in `timeseries.csv` and in every plot (69 days at the default 1 min) |
//! | clients that can ever exist: `cluster.clients`, plus every `scale_out`, plus the churn draws when `scale_out` is a churn kind | [`MAX_CLIENTS`] = 10,000 | clients are never reused |
//! | tasks, the sum of `partitions` | [`MAX_TASKS`] = 100,000 | |
//! | tasks × clients that can ever exist | [`MAX_TASK_CLIENTS`] = 100,000,000 | a rebalance reads every client's view of every task |
//! | simulated work, steps × (tasks + clients that can ever exist) | [`MAX_WORK`] = 10¹⁰ | every step visits every task and client: about 30 ns each in a release build on a 2-core machine, so about 5 minutes per strategy at the limit (10,000 tasks for 10 days at a 1 s step fit) |
//! | scripted events, `[[events]]` | [`MAX_EVENTS`] = 10,000 | each is replayed against the clients here and in the run |
//! | churn draws, `events_per_hour × (until − from)` | [`MAX_CHURN_EVENTS`] = 100,000 | drawn, stored and replayed before anything else; 11 years at 1 per hour |
//! | clients one churn `burst` crashes, `churn.burst_size` (and draws × `burst_size` at most [`MAX_CHURN_EVENTS`]) | [`MAX_BURST_SIZE`] = 1,000 | each crash of a burst is its own happening |
//! | `state_records` per task | [`MAX_STATE_RECORDS`] = 10¹² | changelogs are counted in milli-records in `u64`: 10¹² records plus 10 years of writes at the highest rate stay below 2⁶⁴ milli-records |
//! | `write_rate` per task (subtopologies and `write_spike`), `input_rate` per task | [`MAX_WRITE_RATE`] = 10⁶ records/s | above one Kafka partition's write throughput |
//! | `cluster.restore_rate` per client, `cluster.restore_bandwidth`, `cluster.process_rate` per thread | [`MAX_RESTORE_RATE`] = 10⁹ records/s | |
//! | `cpu` of a task or a client | [`MAX_CPU`] = 10⁶ cores | far above any machine; sums over 100,000 tasks stay exact to a millionth of a core in `f64` |
//! | `ram_mb` or `disk_mb` of a task or a client | [`MAX_RAM_MB`] = 2³⁰ MiB (1 PiB) | far above any machine |
//! | `state_records` and write rates after `[perturb]` | the limits above, at the top of the drawn range (`× (1 + fraction)`) | a drawn value never passes a limit the scenario would be refused for |

/// The longest duration any key of a scenario may give: 3650 days.
pub const MAX_DURATION_MS: u64 = 3_650 * 86_400_000;
/// The most physics steps a run may take (`duration / step`, rounded up).
pub const MAX_STEPS: u64 = 10_000_000;
/// The most samples of the time series a run may take.
pub const MAX_SAMPLES: u64 = 100_000;
/// The most clients that can ever exist in a run.
pub const MAX_CLIENTS: u64 = 10_000;
/// The most tasks (the sum of the subtopologies' partitions).
pub const MAX_TASKS: u64 = 100_000;
/// The most tasks × clients that can ever exist.
pub const MAX_TASK_CLIENTS: u64 = 100_000_000;
/// The most simulated work: physics steps × (tasks + clients that can ever exist).
pub const MAX_WORK: u64 = 10_000_000_000;
/// The most scripted events.
pub const MAX_EVENTS: usize = 10_000;
/// The most clients one churn `burst` crashes.
pub const MAX_BURST_SIZE: u32 = 1_000;
/// The most random churn events a run may draw.
pub const MAX_CHURN_EVENTS: u64 = 100_000;
/// The most changelog records a task may start with.
pub const MAX_STATE_RECORDS: u64 = 1_000_000_000_000;
/// The highest write rate of a task, records per second.
pub const MAX_WRITE_RATE: u64 = 1_000_000;
/// The highest restore rate of a client, records per second.
pub const MAX_RESTORE_RATE: u64 = 1_000_000_000;
/// The most CPU cores a task needs or a client offers.
pub const MAX_CPU: f64 = 1_000_000.0;
/// The most MiB of RAM a task needs or a client offers (1 PiB).
pub const MAX_RAM_MB: u64 = 1 << 30;
