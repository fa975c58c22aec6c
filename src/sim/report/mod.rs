//! Reporting a run: its figures as exact decimals ([`Fixed`]), all derived
//! from one metric record ([`METRICS`], `metrics.rs`) and one time-series
//! record ([`TIME_SERIES`], `series.rs`); statistics over seeds
//! (`stats.rs`, `dispersion.rs`) and paired comparisons with a baseline
//! strategy seed by seed (`paired.rs`, in signed exact decimals,
//! [`SignedFixed`], `signed.rs`); the cumulative unavailability the plots
//! draw (`cumulative.rs`); each strategy's chart colour (`palette.rs`); and
//! the documents every front writes or returns, as text (`documents/`).
//! Files, tables and plots are the command line's; the documents are
//! described in docs/simulator.md.

pub mod cumulative;
pub mod dispersion;
pub mod documents;
pub(crate) mod fixed;
mod metrics;
mod paired;
pub mod palette;
mod series;
mod signed;
mod stats;

pub use dispersion::nearest_rank;
pub use fixed::Fixed;
pub use metrics::{docs_table, flat_metrics, Column, Figures, Metric, Source, METRICS};
pub use paired::{Paired, PointPaired, StrategyPaired, Verdict};
pub use series::{TimeSeries, TIME_SERIES};
pub use signed::SignedFixed;
pub use stats::{aggregate, PointSweep, RunFigures, Stats, StrategySweep};
