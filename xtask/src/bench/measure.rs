//! Timing helpers: wall-clock measurement and the figures the table prints.

/// The median of a set of samples (seconds); the median resists the noise of a shared
/// 2-core machine better than the mean.
pub fn median(samples: Vec<f64>) -> f64 {
    percentile(samples, 50.0)
}

/// The `p`-th percentile (nearest rank) of a set of samples; NaN for none.
pub fn percentile(mut samples: Vec<f64>, p: f64) -> f64 {
    if samples.is_empty() {
        return f64::NAN;
    }
    samples.sort_by(|a, b| a.total_cmp(b));
    if p == 50.0 {
        return samples[samples.len() / 2];
    }
    let rank = ((p / 100.0) * samples.len() as f64).ceil() as usize;
    samples[rank.clamp(1, samples.len()) - 1]
}

/// The arithmetic mean; NaN for none.
pub fn mean(samples: &[f64]) -> f64 {
    if samples.is_empty() {
        f64::NAN
    } else {
        samples.iter().sum::<f64>() / samples.len() as f64
    }
}

/// Events per second from a count and a duration.
pub fn rate(events: u64, secs: f64) -> f64 {
    if secs > 0.0 {
        events as f64 / secs
    } else {
        f64::INFINITY
    }
}

/// `lo-hi×` of a set of ratios, for a figure measured over several rounds.
pub fn range(ratios: &[f64]) -> String {
    let lo = ratios.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = ratios.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    format!("{lo:.2}-{hi:.2}×")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_mean_and_range() {
        let s: Vec<f64> = (1..=100).map(f64::from).collect();
        assert_eq!(median(s.clone()), 51.0);
        assert_eq!(percentile(s.clone(), 99.0), 99.0);
        assert_eq!(percentile(s.clone(), 90.0), 90.0);
        assert_eq!(percentile(vec![3.0], 99.0), 3.0);
        assert!(percentile(Vec::new(), 99.0).is_nan());
        assert_eq!(mean(&[1.0, 2.0, 6.0]), 3.0);
        assert_eq!(range(&[1.31, 1.5, 1.2]), "1.20-1.50×");
    }
}
