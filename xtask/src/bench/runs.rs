//! Several whole runs of one game folded into one set of rows (`--runs N`): each figure is
//! the median of the runs, the lowest and highest beside it, and a target is met only when
//! it was met in every run. One run on a shared machine can be lucky or unlucky; the range
//! over runs shows how far a figure moves, and a verdict holds in all of them or is MISSED.

use super::measure::median;
use super::report::{Row, Target};
use super::Measured;
use crate::Fallible;

/// Fold the runs of one game (the same sections in the same order each time) into one.
pub fn combine(runs: Vec<Measured>) -> Fallible<Measured> {
    let n = runs.len();
    let mut iter = runs.into_iter();
    let Some(first) = iter.next() else { return Err("no run to combine".into()) };
    if n == 1 {
        return Ok(first);
    }
    let rest: Vec<Measured> = iter.collect();
    let mut raw: Vec<String> = first.raw.iter().map(|l| format!("(run 1) {l}")).collect();
    for (i, run) in rest.iter().enumerate() {
        raw.extend(run.raw.iter().map(|l| format!("(run {}) {l}", i + 2)));
    }
    let mut rows = Vec::with_capacity(first.rows.len());
    for (i, row) in first.rows.into_iter().enumerate() {
        let mut same = vec![&row];
        for run in &rest {
            match run.rows.get(i) {
                Some(other) if other.key() == row.key() => same.push(other),
                _ => {
                    return Err(format!(
                        "run {} did not measure `{}` where run 1 did",
                        same.len() + 1,
                        row.measure
                    )
                    .into())
                }
            }
        }
        rows.push(fold(&same));
    }
    Ok(Measured { rows, raw })
}

/// One row from the same row of every run.
fn fold(same: &[&Row]) -> Row {
    let n = same.len();
    let first = same[0];
    // A run that could not measure arbiter's figure decides the row: nothing is passed on
    // the strength of the other runs.
    if let Some(failed) = same.iter().find(|r| r.arbiter.is_none()) {
        let mut row = (*failed).clone();
        row.note = format!("{} (in one of {n} runs)", row.note);
        return row;
    }
    let values: Vec<f64> = same.iter().filter_map(|r| r.arbiter).collect();
    let lo = values.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let baseline = |pick: fn(&Row) -> Option<f64>| -> Option<f64> {
        let v: Vec<f64> = same.iter().filter_map(|r| pick(r)).collect();
        (v.len() == n).then(|| median(v))
    };
    let targets = first
        .targets
        .iter()
        .enumerate()
        .map(|(j, t)| {
            let each: Vec<&Target> = same.iter().filter_map(|r| r.targets.get(j)).collect();
            let met = each.len() == n && each.iter().all(|t| t.met);
            let missed = each.iter().filter(|t| !t.met).count();
            let mut figure = format!("{} of {n} runs met it", n - missed);
            let figures: Vec<&str> =
                each.iter().map(|t| t.figure.as_str()).filter(|f| !f.is_empty()).collect();
            if !figures.is_empty() {
                figure.push_str(&format!(": {}", figures.join(" / ")));
            }
            Target { text: t.text.clone(), figure, met }
        })
        .collect();
    Row {
        arbiter: Some(median(values)),
        spread: Some((lo, hi)),
        sqlite: baseline(|r| r.sqlite),
        jsonl: baseline(|r| r.jsonl),
        targets,
        ..first.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::report::Unit;

    fn run(v: f64, met: bool) -> Measured {
        let row = Row::new("3", "scan (100 events)", Unit::Rate).arbiter(v).sqlite(2.0 * v).target_with(
            "≥ 1 M/s",
            format!("{v}"),
            met,
        );
        Measured { rows: vec![row], raw: vec!["line".into()] }
    }

    #[test]
    fn the_median_the_range_and_a_target_met_only_in_every_run() {
        let all =
            combine(vec![run(3.0, true), run(1.0, true), run(2.0, true)]).unwrap_or_else(|e| panic!("{e}"));
        let row = &all.rows[0];
        assert_eq!((row.arbiter, row.spread, row.sqlite), (Some(2.0), Some((1.0, 3.0)), Some(4.0)));
        assert!(row.targets[0].met && row.targets[0].figure.starts_with("3 of 3 runs met it: 3 / 1 / 2"));
        assert_eq!(all.raw, ["(run 1) line", "(run 2) line", "(run 3) line"]);
        let one_missed = combine(vec![run(3.0, true), run(1.0, false)]).unwrap_or_else(|e| panic!("{e}"));
        assert!(!one_missed.rows[0].targets[0].met, "{:?}", one_missed.rows[0].targets);
        let failed = Measured {
            rows: vec![Row::new("3", "scan (100 events)", Unit::Rate).note("broke")],
            raw: vec![],
        };
        let with_failure = combine(vec![run(3.0, true), failed]).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(with_failure.rows[0].arbiter, None);
        let other = Measured { rows: vec![Row::new("4", "other", Unit::Rate).arbiter(1.0)], raw: vec![] };
        assert!(combine(vec![run(3.0, true), other]).is_err());
    }
}
