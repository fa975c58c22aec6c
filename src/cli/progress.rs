//! The progress bar `sweep` shows: a wall-clock display, so it lives in the
//! command line; the library only calls back after each run.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hidden_progress_bar_off_a_terminal() {
        // Tests run with stderr captured or piped: the bar must not draw.
        let bar = progress_bar(10);
        bar.inc(3);
        assert_eq!(bar.position(), 3);
    }
}
