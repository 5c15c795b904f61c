//! Timing helpers: wall-clock measurement and the figures the table prints.

use crate::Fallible;
use std::time::{Duration, Instant};

/// How long `f` took, with what it returned.
pub fn timed<T>(f: impl FnOnce() -> Fallible<T>) -> Fallible<(T, Duration)> {
    let start = Instant::now();
    let out = f()?;
    Ok((out, start.elapsed()))
}

/// The median of a set of samples (seconds); the median resists the noise of a shared
/// 2-core machine better than the mean.
pub fn median(mut samples: Vec<f64>) -> f64 {
    if samples.is_empty() {
        return f64::NAN;
    }
    samples.sort_by(|a, b| a.total_cmp(b));
    samples[samples.len() / 2]
}

/// Run `f` `times` times and return the median duration in seconds.
pub fn median_of<T>(times: usize, mut f: impl FnMut() -> Fallible<T>) -> Fallible<f64> {
    let mut samples = Vec::with_capacity(times);
    for _ in 0..times {
        let ((), d) = timed(|| f().map(|_| ()))?;
        samples.push(d.as_secs_f64());
    }
    Ok(median(samples))
}

/// Events per second from a count and a duration.
pub fn rate(events: u64, secs: f64) -> f64 {
    if secs > 0.0 {
        events as f64 / secs
    } else {
        f64::INFINITY
    }
}
