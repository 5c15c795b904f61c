//! Checking one fixture: a log file whose `@expect`/`@assert` directives say what replaying
//! it must produce (docs/notation/README.md).

use crate::error::VerifyError;
use crate::expectation::{At, Expectation};
use crate::open::{open, with_game, Peeked, WithGame};
use crate::replay::{Outcome, Replayer};
use crate::source::Source;
use crate::verify::{verify, VerifyOptions};
use crate::{Context, Games};
use arbiter_engine::Game;
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;

/// What a test case of a suite stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum CaseKind {
    Fixture,
    Coverage,
    EmptySuite,
}

/// The outcome of one fixture.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FixtureResult {
    /// The fixture's path as given.
    pub path: String,
    /// The test's name: the path relative to the suite's directory (the path as given when
    /// the fixture was run alone), so it does not depend on how the directory was typed.
    pub name: String,
    /// A fixture file, or a case the suite adds: rule coverage under
    /// `--require-full-coverage`, or the failure of a suite that found no fixture.
    pub kind: CaseKind,
    /// The game it is a log of (`None` when the file could not be read that far).
    pub game: Option<String>,
    pub passed: bool,
    /// Whether the fixture could not be used at all (unreadable, malformed, unknown game):
    /// a JUnit `<error>` rather than a `<failure>`.
    pub unusable: bool,
    /// One line per unmet expectation or unexpected finding.
    pub failures: Vec<String>,
    /// Rule ids of `@expect violation` lines that matched an actual violation.
    pub covered: Vec<String>,
    /// On failure, what happened, printed as `arbiter verify` prints it.
    pub happened: Option<String>,
    /// Wall time in seconds, for JUnit.
    pub seconds: f64,
}

impl fmt::Display for FixtureResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.passed {
            return writeln!(f, "ok   {}", self.name);
        }
        writeln!(f, "FAIL {}", self.name)?;
        for failure in &self.failures {
            writeln!(f, "  {failure}")?;
        }
        if let Some(h) = &self.happened {
            writeln!(f, "  what happened (as `arbiter verify` reports it):")?;
            for line in h.lines() {
                writeln!(f, "    {line}")?;
            }
        }
        Ok(())
    }
}

/// What replaying a fixture actually produced, in the terms expectations use.
#[derive(Default)]
struct Actual {
    violations: Vec<(u64, String, String)>,
    /// Findings that may follow from an unverified effect: (record, rule, message).
    uncertain: Vec<(u64, String, String)>,
    unverified: Vec<u64>,
    error: Option<(u64, String)>,
    /// What is still owed at the end (nothing when none, or after an error).
    owed: crate::incomplete::Owed,
    /// Facts after each record an assertion asks about.
    facts: BTreeMap<u64, Vec<(String, String)>>,
    end_facts: Vec<(String, String)>,
    records: u64,
}

struct Work<'c> {
    source: &'c Source,
    expectations: Vec<(usize, Expectation)>,
}

impl<'a> WithGame<'a> for Work<'_> {
    type Output = (String, Vec<(usize, Expectation)>, Actual);
    fn run<G: Game>(self, peeked: Peeked) -> Result<Self::Output, VerifyError> {
        let expectations = self.expectations;
        let wanted: Vec<u64> = expectations
            .iter()
            .filter_map(|(_, e)| match e {
                Expectation::Assert { at: At::Record(n), .. } => Some(*n),
                _ => None,
            })
            .collect();
        let opened = open::<G>(self.source, peeked, &[])?;
        let mut replay = Replayer::new(opened);
        replay.derive = derives(&expectations);
        let mut actual = Actual::default();
        while let Some(step) = replay.step() {
            let step = step?;
            actual.records += 1;
            match &step.outcome {
                Outcome::Applied(f) => {
                    for v in &f.violations {
                        actual.violations.push((step.index, v.rule.to_string(), v.message.clone()));
                    }
                    for v in &f.uncertain {
                        actual.uncertain.push((step.index, v.rule.to_string(), v.message.clone()));
                    }
                    if !f.unverified.is_empty() {
                        actual.unverified.push(step.index);
                    }
                }
                Outcome::Failed(e) => actual.error = Some((step.index, e.to_string())),
                _ => {}
            }
            // A consequence derived before record N is part of the state after record N - 1
            // (the table applies it before the next decision): an assertion there sees it.
            let after = if step.derived { step.index.checked_sub(1) } else { Some(step.index) };
            if let Some(at) = after.filter(|at| wanted.contains(at)) {
                if actual.error.is_none() {
                    actual.facts.insert(at, replay.game().facts(&replay.state));
                }
            }
        }
        actual.end_facts = replay.game().facts(&replay.state);
        if actual.error.is_none() {
            actual.owed = crate::incomplete::owed(replay.game(), &replay.state);
        }
        Ok((G::info().id.to_string(), expectations, actual))
    }
}

/// Whether the fixture says `@derive`: its log leaves consequences to the rules.
fn derives(expectations: &[(usize, Expectation)]) -> bool {
    expectations.iter().any(|(_, e)| *e == Expectation::Derive)
}

/// Check one fixture file. Never fails: an unusable file is a failing fixture whose failure
/// says why.
pub fn run_fixture<R: Games>(ctx: &Context<'_, R>, path: &Path) -> FixtureResult {
    let started = std::time::Instant::now();
    let source = Source::file(path);
    let mut result = FixtureResult {
        path: path.display().to_string(),
        name: path.display().to_string(),
        kind: CaseKind::Fixture,
        game: None,
        passed: false,
        unusable: false,
        failures: Vec::new(),
        covered: Vec::new(),
        happened: None,
        seconds: 0.0,
    };
    // Expectations may follow the records they name, so the (small) file is read whole
    // for them first; replay then streams it as every command does.
    let ran = crate::logfile::LogFile::read(path)
        .and_then(|file| with_game(ctx, &source, Work { source: &source, expectations: file.expectations }));
    match ran {
        Err(e) => {
            // Still name the game when the header was readable, so JUnit groups it right.
            result.game = crate::logfile::LogReader::open(path).ok().map(|f| f.header.game);
            result.unusable = true;
            result.failures.push(format!("unusable: {e}"));
        }
        Ok((game, expectations, actual)) => {
            result.game = Some(game);
            judge(&expectations, &actual, &mut result);
            check_splits(ctx, &source, &expectations, &mut result);
            if !result.failures.is_empty() {
                let options = VerifyOptions { derive: derives(&expectations), ..Default::default() };
                result.happened = Some(match verify(ctx, &source, &options) {
                    Ok(r) => r.to_string(),
                    Err(e) => e.to_string(),
                });
            }
        }
    }
    result.passed = result.failures.is_empty();
    result.seconds = started.elapsed().as_secs_f64();
    result
}

/// `@expect split N NAME=VALUE`: diff the fixture against itself under the other reading.
fn check_splits<R: Games>(
    ctx: &Context<'_, R>,
    source: &Source,
    expectations: &[(usize, Expectation)],
    result: &mut FixtureResult,
) {
    for (line, e) in expectations {
        let Expectation::Split { record, name, value } = e else { continue };
        let other = source.clone().with_variant(name, value);
        match crate::diff::diff(ctx, source, &other, &crate::diff::DiffOptions::default()) {
            Err(err) => result.failures.push(format!("line {line}: `{e}` but the diff cannot run: {err}")),
            Ok(d) => match d.divergences.first() {
                None => result.failures.push(format!("line {line}: `{e}` but the two readings never split")),
                Some(first) => {
                    let at = first.a.as_ref().or(first.b.as_ref()).map(|r| r.index);
                    if at != Some(*record) {
                        let at =
                            at.map_or("before the first record".to_string(), |i| format!("at record {i}"));
                        result.failures.push(format!(
                            "line {line}: `{e}` but they first split {at} ({}: {})",
                            first.reason, first.explanation
                        ));
                    }
                }
            },
        }
    }
}

fn judge(expectations: &[(usize, Expectation)], actual: &Actual, result: &mut FixtureResult) {
    let fail = &mut result.failures;
    // `@expect violation N RULE` claims that record N breaks RULE: it matches every
    // violation of RULE at N (a record may break one rule several times, e.g. for two
    // markers), and a violation is unexpected when no line claims its (record, rule).
    let claimed: Vec<(u64, &str)> = expectations
        .iter()
        .filter_map(|(_, e)| match e {
            Expectation::Violation { record, rule } => Some((*record, rule.as_str())),
            _ => None,
        })
        .collect();
    // Uncertain findings are claimed like violations (`@expect uncertain N RULE` must be met)
    // but, like unverified effects, one no line claims does not fail a fixture: an uncertain
    // finding is not a violation (`verify` does not count it), so a log the book calls legal
    // stays a passing fixture while the engine cannot check the effect it follows from.
    for (line, e) in expectations {
        match e {
            Expectation::Clean => {
                if !actual.violations.is_empty() || actual.error.is_some() {
                    fail.push(format!(
                        "line {line}: `{e}` but {} violation(s){}",
                        actual.violations.len(),
                        if actual.error.is_some() { " and an unapplicable record" } else { "" }
                    ));
                }
            }
            Expectation::Violation { record, rule } => {
                if actual.violations.iter().any(|(r, id, _)| r == record && id == rule) {
                    result.covered.push(rule.clone());
                } else {
                    fail.push(not_found(*line, e, *record, &actual.violations, "no violation"));
                }
            }
            Expectation::Uncertain { record, rule } => {
                if !actual.uncertain.iter().any(|(r, id, _)| r == record && id == rule) {
                    fail.push(not_found(*line, e, *record, &actual.uncertain, "no uncertain finding"));
                }
            }
            Expectation::Error { record } => match &actual.error {
                Some((r, _)) if r == record => {}
                Some((r, m)) => {
                    fail.push(format!("line {line}: `{e}` but replay stopped at record {r} ({m})"))
                }
                None => fail.push(format!("line {line}: `{e}` but every record could be applied")),
            },
            Expectation::Unverified { record } => {
                if !actual.unverified.contains(record) {
                    fail.push(format!("line {line}: `{e}` but record {record} has no unverified effect"));
                }
            }
            // Needs a second replay; see `check_splits`.
            Expectation::Split { .. } | Expectation::Derive => {}
            // The first thing owed: a consequence, else the decision only the player makes.
            Expectation::Incomplete { owed } => match (actual.owed.first(), owed) {
                (None, _) => fail.push(format!("line {line}: `{e}` but the log ends with nothing owed")),
                (Some(first), Some(want)) if !same_words(first, want) => {
                    fail.push(format!("line {line}: `{e}` but the rules first owe `{first}`"))
                }
                _ => {}
            },
            Expectation::Assert { at, key, value } => {
                let facts = match at {
                    At::End => Some(&actual.end_facts),
                    At::Record(n) => actual.facts.get(n),
                };
                match facts {
                    None => fail.push(format!(
                        "line {line}: `{e}` but replay never got past that record ({} records replayed)",
                        actual.records
                    )),
                    Some(facts) => match facts.iter().find(|(k, _)| k == key) {
                        Some((_, v)) if v == value => {}
                        Some((_, v)) => fail.push(format!("line {line}: `{e}` but {key} = {v}")),
                        None => {
                            let keys: Vec<&str> = facts.iter().map(|(k, _)| k.as_str()).collect();
                            fail.push(format!(
                                "line {line}: `{e}` but there is no fact `{key}` (facts: {})",
                                keys.join(", ")
                            ))
                        }
                    },
                }
            }
        }
    }
    for (record, rule, message) in &actual.violations {
        if claimed.contains(&(*record, rule.as_str())) {
            continue;
        }
        fail.push(format!("unexpected violation at record {record}: {rule}: {message}"));
    }
    if let Some((record, message)) = &actual.error {
        if !expectations.iter().any(|(_, e)| matches!(e, Expectation::Error { .. })) {
            fail.push(format!("unexpected: record {record} cannot be applied: {message}"));
        }
    }
    // A log that ends owing consequences fails only a fixture that says what it must owe
    // (`@expect incomplete`): rule breakers are cut right after the record they break, and
    // what they leave owed is not their point. `verify` reports it for every log.
}

/// The failure of an `@expect` line claiming a finding at `record` that is not there,
/// listing what the record has instead (`findings`: `(record, rule, message)`).
fn not_found(
    line: usize,
    e: &Expectation,
    record: u64,
    findings: &[(u64, String, String)],
    none: &str,
) -> String {
    let there: Vec<String> =
        findings.iter().filter(|(r, _, _)| *r == record).map(|(_, id, m)| format!("{id} ({m})")).collect();
    let has = if there.is_empty() { none.to_string() } else { there.join(", ") };
    format!("line {line}: `{e}` not found; record {record} has {has}")
}

/// Two notation lines equal up to spacing.
fn same_words(a: &str, b: &str) -> bool {
    a.split_whitespace().eq(b.split_whitespace())
}
