//! Timing helpers: wall-clock measurement and the figures the table prints.

/// The median of a set of samples (seconds); the median resists the noise of a shared
/// 2-core machine better than the mean.
pub fn median(mut samples: Vec<f64>) -> f64 {
    if samples.is_empty() {
        return f64::NAN;
    }
    samples.sort_by(|a, b| a.total_cmp(b));
    samples[samples.len() / 2]
}

/// Events per second from a count and a duration.
pub fn rate(events: u64, secs: f64) -> f64 {
    if secs > 0.0 {
        events as f64 / secs
    } else {
        f64::INFINITY
    }
}
