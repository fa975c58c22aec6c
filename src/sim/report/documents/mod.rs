//! The documents `simulate` and `sweep` produce, as text: `summary.json`,
//! `timeseries.csv`, `sweep.json`, `runs.csv` and `runs.json` (the command
//! line writes them into its output directory; the Python package returns
//! them), the plots' data (`series.json`, what the command line's charts
//! draw), and the exchange format of a sweep split over machines
//! ([`chunk`]).
//!
//! `summary.json`, `sweep.json` and `timeseries.csv` are written from typed
//! documents (the structs of the submodules, serialised with serde), filled from the
//! library's data ([`Figures`](super::Figures), [`StrategySweep`](super::StrategySweep), the runs' samples): the
//! library's types carry no serialisation. docs/simulator.md describes the
//! files; every number is printed with a fixed count of decimals
//! ([`Fixed`](super::Fixed)), every list in a fixed order, so the same runs give the same
//! bytes on every machine and thread count. JSON is pretty-printed with a
//! two-space indent and ends in a newline.
//!
//! # `summary.json`
//!
//! ```text
//! {
//!   "scenario": "scale-out",
//!   "scenario_hash": "…",
//!   "seed": 7,
//!   "version": "0.1.0",
//!   "strategies": {
//!     "kip441": {                       // one entry per strategy, in run order
//!       "outcome": "completed",         // or {"infeasible_at_s": 12.500, "message": "…"}
//!       "unavailable_task_s": {"stateful": 1.000, "stateless": 0.000, "total": 1.000},
//!       "max_outage_s": 1.000,
//!       …                               // every metric of the record, in its order
//!     }
//!   }
//! }
//! ```
//!
//! After `outcome`, every metric of the metric record
//! ([`METRICS`](super::METRICS)) in its order, under its flat name, the
//! parts of a metric (`unavailable_task_s.stateful`, …) nested in an object
//! named before the `.`; null where the figure is null. docs/simulator.md's
//! metrics table is generated from the same record.
//!
//! # `timeseries.csv`
//!
//! Header `strategy,t_s,available_tasks,restoring_tasks,imbalance,max_replicas_per_client,backlog_records,restored_records`,
//! then one row per sample: strategies in run order, samples in time order.
//! The first sample of a strategy holds the values at 0 s; each later one the
//! means over the interval since the one before (`available_tasks`,
//! `restoring_tasks`, `imbalance`, 3 decimals; `backlog_records`, the input
//! not processed yet, an integer), the most replicas on one member during
//! it, and the records restored so far. `t_s` has 3 decimals.
//! Lines end in `\n`.
//!
//! # `sweep.json`
//!
//! ```text
//! {
//!   "scenario": "scale-out",
//!   "scenario_hash": "…",
//!   "seeds": "1..11",
//!   "version": "0.1.0",
//!   "parameters": ["config.max_warmup_replicas"],   // the keys varied; [] when none
//!   "points": [                                      // one per combination; one when none
//!     {
//!       "parameters": {"config.max_warmup_replicas": 1},
//!       "strategies": {
//!         "kip441": {                                // run order
//!           "runs": 10,
//!           "completed": 10,
//!           "infeasible_seeds": [],
//!           "metrics": {                             // `report::METRICS` order
//!             "unavailable_task_s.stateful": {"n": 10, "mean": 1.235, "std": 0.412,
//!               "ci95_half_width": 0.295, "p50": 1.200, "p95": 2.000, "max": 2.000},
//!             …
//!           }
//!         },
//!         "sticky": { … }
//!       },
//!       "paired": {
//!         "baseline": "kip441",                      // --baseline; the first strategy by default
//!         "strategies": {
//!           "sticky": {                              // every other strategy, run order
//!             "unavailable_task_s.stateful": {"n": 10, "mean_difference": -1.500,
//!               "ci95_half_width": 0.900, "ci95": [-2.400, -0.600],
//!               "lower": 8, "higher": 1, "equal": 1, "verdict": "lower"},
//!             …                                      // every metric, `report::METRICS` order
//!           }
//!         }
//!       }
//!     }
//!   ]
//! }
//! ```
//!
//! `n` counts the completed runs with a value (nulls left out); `std` is the
//! sample standard deviation (divisor `n − 1`) and `ci95_half_width` half the
//! 95% confidence interval of the mean (Student's t, `n − 1` degrees of
//! freedom): the interval is `mean ± ci95_half_width`; both null for `n < 2`.
//! The statistics (exact arithmetic, the t table, nearest-rank percentiles,
//! the roundings) are `smoothscale::sim::sweep`'s and `sim::dispersion`'s.
//! `paired` compares each strategy with the baseline on the seeds where both
//! completed with a value: the differences strategy − baseline, their `n`,
//! mean, the 95% confidence interval of the mean (`ci95_half_width` and
//! `ci95` null for `n < 2`), how many are below, above and at 0, and the
//! verdict (`lower` or `higher` when `ci95` lies wholly below or above 0,
//! else `no significant difference`); `sim::report::Paired` defines them.
//! Parameter values are JSON numbers, strings, booleans or arrays as TOML
//! gave them.
//!
//! # `runs.csv` and `runs.json`
//!
//! One row per run, by point, then seed, then strategy: the parameter
//! values, `seed`, `strategy`, `outcome` (`completed` or `infeasible`) and
//! every metric of `summary.json` under its flat name, the same figures in
//! both files. `runs.json`:
//!
//! ```text
//! {
//!   "scenario": "scale-out", "scenario_hash": "…", "seeds": "1..11", "version": "0.1.0",
//!   "parameters": ["config.max_warmup_replicas"],
//!   "runs": [
//!     {"parameters": {"config.max_warmup_replicas": 1}, "seed": 1, "strategy": "kip441",
//!      "outcome": "completed", "metrics": {"unavailable_task_s.stateful": 1.200, …}},
//!     …
//!   ]
//! }
//! ```

pub mod chunk;
mod format;
mod info;
mod series;
mod summary;
mod sweep;
mod timeseries;

pub use info::{RunInfo, SweepInfo, VERSION};
pub use series::series_json;
pub use summary::summary_json;
pub use sweep::{runs_csv, runs_json, sweep_json};
pub use timeseries::{timeseries_csv, TIMESERIES_HEADER};
