//! Progress for long work (an import of a large file, a big fixture suite, a whole-database
//! audit, a corpus of simulated games): a bar on standard error while it is a terminal, and
//! nothing at all otherwise, so a pipe, a file or a CI log never gets the redraws.
//!
//! The bar appears only once the work has run for a moment: a command that finishes at once
//! draws nothing. It is cleared when the work ends, so the report that follows starts on a
//! clean line.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::time::{Duration, Instant};

/// How long work runs before its bar is shown, unless `ARBITER_PROGRESS_DELAY_MS` says
/// otherwise (0 shows it at once: how the tests see a bar without long work).
const SHOW_AFTER: Duration = Duration::from_millis(300);

fn show_after() -> Duration {
    std::env::var("ARBITER_PROGRESS_DELAY_MS")
        .ok()
        .and_then(|ms| ms.parse().ok())
        .map_or(SHOW_AFTER, Duration::from_millis)
}

/// A progress bar, or nothing when standard error is not a terminal.
pub struct Progress {
    bar: Option<ProgressBar>,
    started: Instant,
    after: Duration,
}

impl Progress {
    /// A bar counting toward `total` steps, labelled `what` (`auditing`, `importing`).
    pub fn new(total: u64, what: &'static str) -> Progress {
        let bar = std::io::stderr().is_terminal().then(|| {
            // Hidden until the work has run for SHOW_AFTER.
            let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::hidden());
            let style = ProgressStyle::with_template("{prefix:>10} [{bar:30}] {pos}/{len} {wide_msg}")
                .map(|s| s.progress_chars("=> "))
                .unwrap_or_else(|_| ProgressStyle::default_bar());
            bar.set_style(style);
            bar.set_prefix(what);
            bar
        });
        Progress { bar, started: Instant::now(), after: show_after() }
    }

    fn shown(&self) -> Option<&ProgressBar> {
        let bar = self.bar.as_ref()?;
        if bar.is_hidden() && self.started.elapsed() >= self.after {
            bar.set_draw_target(ProgressDrawTarget::stderr());
        }
        Some(bar)
    }

    /// `n` more steps done.
    pub fn advance(&self, n: u64) {
        if let Some(bar) = self.shown() {
            bar.inc(n);
        }
    }

    /// `done` of `total` steps done (the total may be learnt late).
    pub fn at(&self, done: u64, total: u64) {
        if let Some(bar) = self.shown() {
            bar.set_length(total);
            bar.set_position(done);
        }
    }

    /// The step being worked on, shown after the count.
    pub fn message(&self, text: &str) {
        if let Some(bar) = self.shown() {
            bar.set_message(text.to_string());
        }
    }

    /// The work is over: clear the bar.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        // An error path leaves no half-drawn bar under its message.
        self.finish();
    }
}
