//! Sections 5 and 6 on the long session: the state at event N with and without snapshots,
//! and the diff of two long logs that split early and late.

use super::campaign::CampaignGames;
use super::long::{self, Long, PLAIN, SNAPPED};
use super::measure::median;
use super::report::{Row, Unit};
use super::Run;
use crate::Fallible;
use arbiter_engine::{digest, Game};
use arbiter_verify::{Context, DiffOptions, Source};
use std::time::Instant;

/// Section 5. Also checks that the state from a snapshot equals the state from the start:
/// a fast wrong answer must not pass for a fast answer.
pub fn state_at<G: Game>(run: &mut Run<G>, long: &Long<G>) -> Fallible {
    let mut points = Vec::new();
    let mut n = 1_000u64;
    while n <= long.len {
        points.push(n);
        n *= 10;
    }
    let ctx = Context::with_games(CampaignGames::<G>::default(), Some(&long.journal));
    let mut with = Vec::new();
    for &n in &points {
        let (full, full_secs) = timed_median(3, || long.state_at(PLAIN, n, false))?;
        let (snap, snap_secs) = timed_median(21, || long.state_at(SNAPPED, n, true))?;
        if full != snap {
            return Err(
                format!("the state at {n} from a snapshot differs from the state replayed from 0").into()
            );
        }
        // N itself may fall on a snapshot; N - 1 is the worst case, the most records past
        // the nearest one. The table shows the worst.
        let worst_n = n - 1;
        let (full_w, _) = timed_median(1, || long.state_at(PLAIN, worst_n, false))?;
        let (snap_w, worst_secs) = timed_median(21, || long.state_at(SNAPPED, worst_n, true))?;
        if full_w != snap_w {
            return Err(format!(
                "the state at {worst_n} from a snapshot differs from the state replayed from 0"
            )
            .into());
        }
        run.raw(format!(
            "state at {n} (journal + step, driver): {:.3} ms from the start; from a snapshot (every {} records) \
             {:.3} ms at N, {:.3} ms at N - 1",
            full_secs * 1e3,
            long.every,
            snap_secs * 1e3,
            worst_secs * 1e3
        ));
        // The same through verify's `replay` (what `arbiter replay SESSION --to N` runs: it
        // also renders the board, the facts and the digest of the state).
        let through_verify = |session: &str, to: u64, times: usize| {
            timed_median(times, || {
                arbiter_verify::replay(&ctx, &Source::session(session), Some(to), &[])
                    .map_err(|e| e.to_string().into())
            })
        };
        let verified = (|| -> Fallible<(f64, f64)> {
            let (plain, plain_secs) = through_verify(PLAIN, n, 1)?;
            let (from_snap, snap_secs) = through_verify(SNAPPED, worst_n, 11)?;
            let (at_n, at_n_secs) = through_verify(SNAPPED, n, 11)?;
            if plain.state.digest != digest(&full).to_string()
                || from_snap.state.digest != digest(&snap_w).to_string()
                || at_n.state.digest != plain.state.digest
            {
                return Err("verify's replay reached another state than the journal replay".into());
            }
            if from_snap.from_snapshot.is_none() && worst_n >= long.every {
                return Err(format!("verify's replay to {worst_n} did not start from a snapshot").into());
            }
            Ok((plain_secs, snap_secs.max(at_n_secs)))
        })();
        match verified {
            Ok((plain_secs, snap_secs)) => {
                run.raw(format!(
                    "state at {n} (verify::replay): {:.3} ms from the start, {:.3} ms from a snapshot (worst of N, N - 1)",
                    plain_secs * 1e3,
                    snap_secs * 1e3
                ));
                run.rows.push(
                    Row::new("5", format!("state at N = {n}, replayed from 0"), Unit::Millis)
                        .arbiter(plain_secs * 1e3),
                );
                with.push((n, snap_secs * 1e3));
            }
            Err(e) => {
                // verify cannot run here: the journal-level figures stand in, said so.
                run.raw(format!(
                    "state at {n}: verify::replay failed ({e}); the table shows the driver's figures"
                ));
                run.rows.push(
                    Row::new("5", format!("state at N = {n}, replayed from 0 (driver)"), Unit::Millis)
                        .arbiter(full_secs * 1e3),
                );
                with.push((n, snap_secs.max(worst_secs) * 1e3));
            }
        }
    }
    let first = with.first().map(|w| w.1).unwrap_or(f64::NAN);
    for (n, ms) in with {
        let mut row = Row::new(
            "5",
            format!("state at N = {n} or N - 1, from the nearest snapshot (worst)"),
            Unit::Millis,
        )
        .arbiter(ms);
        if n == 1_000_000 {
            let growth = ms / first;
            row = row.target("< 1 ms at N = 10^6", ms < 1.0).target_with(
                "flat in N: ≤ 2× the time at 10^3",
                format!("{growth:.2}×"),
                growth <= 2.0,
            );
        }
        run.rows.push(row);
    }
    Ok(())
}

/// Section 6: the first split of the plain log against a copy changed at each index.
pub fn diff<G: Game>(run: &mut Run<G>, long: &Long<G>, splits: &[u64]) -> Fallible {
    for &at in splits {
        let other = long::split_name(at);
        let (found, secs) = timed_median(3, || long.first_split(PLAIN, &other))?;
        if found != Some(at) {
            return Err(format!("diff of `{PLAIN}` and `{other}` split at {found:?}, not at {at}").into());
        }
        run.raw(format!(
            "diff split at {at} of {}: {:.3} ms (lockstep stream + step, driver)",
            long.len,
            secs * 1e3
        ));
        // The same through verify's `diff` (what `arbiter diff A B` runs).
        let ctx = Context::with_games(CampaignGames::<G>::default(), Some(&long.journal));
        let verified = timed_median(3, || {
            arbiter_verify::diff(
                &ctx,
                &Source::session(PLAIN),
                &Source::session(&other),
                &DiffOptions::default(),
            )
            .map_err(|e| e.to_string().into())
        })
        .and_then(|(report, secs)| {
            let split = report.divergences.first().and_then(|d| d.a.as_ref()).map(|r| r.index);
            if split == Some(at) {
                Ok(secs)
            } else {
                Err(format!("verify's diff split at {split:?}, not at {at}").into())
            }
        });
        let (label, secs) = match verified {
            Ok(v) => {
                run.raw(format!("diff split at {at} of {}: {:.3} ms (verify::diff)", long.len, v * 1e3));
                ("", v)
            }
            Err(e) => {
                run.raw(format!(
                    "diff split at {at}: verify::diff failed ({e}); the table shows the driver's figure"
                ));
                (" (driver)", secs)
            }
        };
        let mut row = Row::new(
            "6",
            format!("diff of two {}-event logs splitting at {at}{label}", long.len),
            Unit::Millis,
        )
        .arbiter(secs * 1e3);
        if at == 10 {
            row = row.target("< 10 ms", secs < 0.010);
        }
        run.rows.push(row);
    }
    Ok(())
}

/// The median time of `times` runs of `f`, with the last result.
fn timed_median<T>(times: usize, mut f: impl FnMut() -> Fallible<T>) -> Fallible<(T, f64)> {
    let mut samples = Vec::with_capacity(times);
    let mut last = None;
    for _ in 0..times {
        let start = Instant::now();
        last = Some(f()?);
        samples.push(start.elapsed().as_secs_f64());
    }
    let out = last.ok_or("timed_median: no run")?;
    Ok((out, median(samples)))
}
