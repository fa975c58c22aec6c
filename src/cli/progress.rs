//! Progress on standard error, a wall-clock display, so it lives in the
//! command line; the library only runs and returns.
//!
//! - `sweep`: a progress bar over its runs on a terminal, nothing otherwise.
//! - `simulate`: a line per strategy as its run ends, what it did in
//!   simulated time and the wall time since the command started
//!   (`[2/5] kip441: done in simulated 8h, 27 rebalances (4.1 s elapsed)`):
//!   above a bar over the strategies on a terminal, alone otherwise, so a
//!   long run in a log or CI shows how far it got. Wall time appears here
//!   only, never in an output file.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use smoothscale::sim::{Outcome, RunResult, SimError};

use super::plot::short_time;

/// A progress bar over `total` runs on standard error when it is a terminal;
/// a hidden one (drawing nothing) otherwise, so pipes and logs stay clean.
pub(crate) fn progress_bar(total: u64) -> ProgressBar {
    use std::io::IsTerminal;
    if !std::io::stderr().is_terminal() {
        return ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::hidden());
    }
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    if let Ok(style) =
        ProgressStyle::with_template("{bar:40} {pos}/{len} runs  {elapsed_precise} (eta {eta})")
    {
        bar.set_style(style);
    }
    bar
}

/// What `simulate` shows while its strategies run (in parallel): a line as
/// each run ends, and on a terminal a bar below the lines whose clock ticks
/// while runs go on.
pub(crate) struct RunProgress {
    /// The bar, on a terminal.
    bar: Option<ProgressBar>,
    total: usize,
    /// Runs ended so far; held while a line is written, so lines come
    /// out in their numbers' order.
    ended: Mutex<usize>,
    started: Instant,
}

impl RunProgress {
    /// Progress over `total` runs, starting now.
    pub(crate) fn start(total: usize) -> RunProgress {
        use std::io::IsTerminal;
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar =
                ProgressBar::with_draw_target(Some(total as u64), ProgressDrawTarget::stderr());
            if let Ok(style) =
                ProgressStyle::with_template("{bar:40} {pos}/{len} strategies  {elapsed_precise}")
            {
                bar.set_style(style);
            }
            bar.enable_steady_tick(Duration::from_millis(250));
            bar
        });
        #[allow(
            clippy::disallowed_methods,
            reason = "elapsed wall time on stderr only, never in an output"
        )]
        let started = Instant::now();
        RunProgress {
            bar,
            total,
            ended: Mutex::new(0),
            started,
        }
    }

    /// Reports the end of one run (from any thread).
    pub(crate) fn ended(&self, strategy: &str, run: &Result<RunResult, SimError>) {
        // A poisoned count (a thread panicked while writing) still counts.
        let mut ended = self
            .ended
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        *ended += 1;
        let n = *ended;
        let line = format!(
            "[{n}/{}] {} ({:.1} s elapsed)",
            self.total,
            run_line(strategy, run),
            self.started.elapsed().as_secs_f64()
        );
        match &self.bar {
            Some(bar) => {
                bar.println(line);
                bar.inc(1);
            }
            None => eprintln!("{line}"),
        }
    }

    /// Takes the bar away once every run has ended.
    pub(crate) fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// What a run did, in simulated time only: `kip441: done in simulated 8h,
/// 27 rebalances`, `heron-ffd: infeasible at simulated 12m, after 1
/// rebalance`, `sticky: stopped at simulated 15m` (a run that broke an
/// invariant or overflowed: the error follows at the end).
pub(crate) fn run_line(strategy: &str, run: &Result<RunResult, SimError>) -> String {
    let result = match run {
        Ok(result) => result,
        Err(e) => {
            return format!(
                "{strategy}: stopped at simulated {}",
                short_time(e.at_ms.get())
            )
        }
    };
    let m = &result.metrics;
    let rebalances = m.membership_rebalances + m.probing_rebalances + m.caught_up_rebalances;
    let counted = match rebalances {
        1 => "1 rebalance".to_string(),
        n => format!("{n} rebalances"),
    };
    match &result.outcome {
        Outcome::Completed => format!(
            "{strategy}: done in simulated {}, {counted}",
            short_time(result.covered_ms.get())
        ),
        Outcome::Infeasible { at_ms, .. } => format!(
            "{strategy}: infeasible at simulated {}, after {counted}",
            short_time(at_ms.get())
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use smoothscale::sim::{Millis, RunMetrics, SimProblem, SimTime};

    #[test]
    fn hidden_progress_bar_off_a_terminal() {
        // Tests run with stderr captured or piped: the bar must not draw.
        let bar = progress_bar(10);
        bar.inc(3);
        assert_eq!(bar.position(), 3);
    }

    fn result(outcome: Outcome, rebalances: u64) -> RunResult {
        RunResult {
            strategy: "kip441".to_string(),
            metrics: RunMetrics {
                membership_rebalances: 1,
                probing_rebalances: rebalances - 1,
                ..RunMetrics::default()
            },
            samples: Vec::new(),
            outcome,
            stateful_tasks: 0,
            covered_ms: Millis::new(2 * 3_600_000),
        }
    }

    #[test]
    fn a_line_per_run_in_simulated_time() {
        let done = result(Outcome::Completed, 3);
        assert_eq!(
            run_line("kip441", &Ok(done)),
            "kip441: done in simulated 2h, 3 rebalances"
        );
        let infeasible = Outcome::Infeasible {
            at_ms: SimTime::new(12 * 60_000),
            message: "no room".to_string(),
        };
        assert_eq!(
            run_line("heron-ffd", &Ok(result(infeasible, 1))),
            "heron-ffd: infeasible at simulated 12m, after 1 rebalance"
        );
        let broken = SimError {
            strategy: "sticky".to_string(),
            at_ms: SimTime::new(90_000),
            seed: 1,
            problem: SimProblem::Violations(vec!["x".to_string()]),
        };
        assert_eq!(
            run_line("sticky", &Err(broken)),
            "sticky: stopped at simulated 1m30s"
        );
    }

    #[test]
    fn off_a_terminal_runs_are_counted() {
        let progress = RunProgress::start(2);
        assert!(progress.bar.is_none(), "tests run with stderr piped");
        progress.ended("kip441", &Ok(result(Outcome::Completed, 1)));
        assert_eq!(*progress.ended.lock().unwrap(), 1);
        progress.finish();
    }
}
