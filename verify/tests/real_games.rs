//! The generic operations end to end on the engine's real games and their shipped fixtures.
//! Nothing here knows a game: it walks whatever fixtures and interpretations exist.

use arbiter_engine::{Game, GameVisitor, ParamKind};
use arbiter_verify::{
    diff, explain, fixture_files, replay, verify, Context, DiffOptions, Fact, Games, Source, VerifyOptions,
};
use std::path::Path;

/// `(name, alternative values)` of every interpretation with a closed list of values.
struct Interpretations;

impl GameVisitor for Interpretations {
    type Output = Vec<(String, Vec<String>)>;
    fn visit<G: Game>(self) -> Self::Output {
        G::params()
            .iter()
            .filter(|p| {
                p.kind == ParamKind::Interpretation && !p.allowed.is_empty() && !p.allowed[0].starts_with('<')
            })
            .map(|p| {
                let others = p.allowed.iter().filter(|v| **v != p.default).map(|v| v.to_string()).collect();
                (p.name.to_string(), others)
            })
            .collect()
    }
}

#[test]
fn every_shipped_fixture_diffs_identical_with_itself_and_reports_run_under_every_reading() {
    let ctx = Context::files();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures");
    let files = fixture_files(&root).unwrap_or_default();
    let mut checked = 0;
    for path in files {
        let source = Source::file(&path);
        // Fixtures being written may not parse yet; those are the fixture runner's business.
        let Ok(report) = verify(&ctx, &source, &VerifyOptions::default()) else { continue };
        checked += 1;
        let same = diff(&ctx, &source, &source, &DiffOptions::default()).unwrap();
        assert!(same.identical, "{}: {same}", path.display());
        assert_eq!(same.exit_code, 0);
        let end = replay(&ctx, &source, None, &[]).unwrap();
        assert_eq!(end.state.facts, report.final_facts, "{}", path.display());
        if report.records > 0 && report.error.is_none() {
            let last = explain(&ctx, &source, report.records - 1, &[]).unwrap();
            assert_eq!(last.after.map(|a| a.digest), Some(end.state.digest), "{}", path.display());
        }
        let readings = ctx.games.dispatch(&report.game, Interpretations).unwrap_or_default();
        for (name, values) in readings {
            for value in values {
                let other = source.clone().with_variant(&name, &value);
                // Another reading may be refused by the log's own setup; when it is accepted,
                // the diff must agree with the two verdicts.
                let Ok(theirs) = verify(&ctx, &other, &VerifyOptions::default()) else { continue };
                let d = diff(&ctx, &source, &other, &DiffOptions::default()).unwrap();
                if !d.identical {
                    continue;
                }
                // A reading may change only who is owed next (Wild Assent's `lone-assent-order`
                // at a log that stops before that activation): no recorded event differs, so the
                // diff rightly finds no split; every other fact must agree.
                let settled = |facts: &[Fact]| -> Vec<Fact> {
                    facts.iter().filter(|f| !f.key.ends_with(".next")).cloned().collect()
                };
                assert_eq!(
                    settled(&theirs.final_facts),
                    settled(&report.final_facts),
                    "{} @{name}={value}",
                    path.display()
                );
                assert_eq!(
                    theirs.violations().len(),
                    report.violations().len(),
                    "{} @{name}={value}",
                    path.display()
                );
            }
        }
    }
    assert!(checked > 0, "no usable fixture under {}", root.display());
}
