//! `arbiter fixtures DIR`: every fixture under a directory, with coverage and JUnit.
//!
//! What CI reads must agree with the exit code: a suite that found no fixture is one failing
//! case, and under `--require-full-coverage` each game's coverage is a case of its own that
//! fails when a rule is broken by no fixture, so the closing line and the JUnit report never
//! show green tests on a red job.

use crate::coverage::{coverage, GameCoverage};
use crate::error::{ErrorKind, VerifyError};
use crate::fixture::{run_fixture, CaseKind, FixtureResult};
use crate::shown::shown;
use crate::{Context, Games};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::{Path, PathBuf};

/// How to run a suite.
#[derive(Debug, Clone, Default)]
pub struct FixtureOptions {
    /// Compute rule coverage per game.
    pub coverage: bool,
    /// Fail (exit 1) when a game's coverage is not full; implies `coverage`.
    pub require_full_coverage: bool,
}

/// The outcome of a suite. Its JSON form (`arbiter fixtures --json`) is
/// `schemas/fixtures.json`: `fixtures` (every case: `{path, name, kind, game, passed,
/// unusable, failures, covered, happened, seconds}`), `passed`, `failed`, `coverage` (null or
/// `[{game, covered, missing}]`) and `exit_code`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FixtureReport {
    pub fixtures: Vec<FixtureResult>,
    pub passed: usize,
    pub failed: usize,
    pub coverage: Option<Vec<GameCoverage>>,
    pub exit_code: i32,
}

impl FixtureReport {
    /// JUnit XML for the suite.
    pub fn junit(&self) -> String {
        crate::junit::junit_xml(&self.fixtures)
    }
}

/// Every `*.arb` and `*.jsonl` under `dir`, recursively, in sorted path order.
pub fn fixture_files(dir: &Path) -> Result<Vec<PathBuf>, VerifyError> {
    let mut out = Vec::new();
    collect(dir, &mut out)?;
    out.sort();
    Ok(out)
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), VerifyError> {
    let entries = std::fs::read_dir(dir).map_err(|e| {
        VerifyError::new(
            ErrorKind::Io,
            format!("cannot read fixture directory {}: {e}", shown(&dir.display().to_string())),
        )
    })?;
    for entry in entries {
        let entry = entry.map_err(|e| VerifyError::io(&dir.display().to_string(), &e))?;
        let path = entry.path();
        // `file_type` does not follow symbolic links: a linked directory is not entered, so
        // a link cycle cannot recurse forever. A linked file is still a fixture.
        let is_dir = entry.file_type().map(|t| t.is_dir()).unwrap_or(false);
        if is_dir {
            collect(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "arb" || e == "jsonl") {
            out.push(path);
        }
    }
    Ok(())
}

/// A case the suite adds (coverage, an empty suite) rather than a fixture file.
fn suite_case(name: String, kind: CaseKind, game: Option<String>, failures: Vec<String>) -> FixtureResult {
    FixtureResult {
        path: name.clone(),
        name,
        kind,
        game,
        passed: failures.is_empty(),
        unusable: false,
        failures,
        covered: Vec::new(),
        happened: None,
        seconds: 0.0,
    }
}

/// Run every fixture under `dir` (or the one file `dir` names). A directory that cannot be
/// read is an error; one without fixtures is a failing suite.
pub fn run_fixtures<R: Games>(
    ctx: &Context<'_, R>,
    dir: &Path,
    options: &FixtureOptions,
) -> Result<FixtureReport, VerifyError> {
    run_fixtures_with(ctx, dir, options, &mut |_, _| {})
}

/// [`run_fixtures`], telling `progress` (fixtures run, fixtures found) after each fixture,
/// for a progress bar.
pub fn run_fixtures_with<R: Games>(
    ctx: &Context<'_, R>,
    dir: &Path,
    options: &FixtureOptions,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<FixtureReport, VerifyError> {
    let (files, root) = if dir.is_file() {
        (vec![dir.to_path_buf()], dir.parent().unwrap_or(Path::new("")).to_path_buf())
    } else {
        (fixture_files(dir)?, dir.to_path_buf())
    };
    let mut fixtures: Vec<FixtureResult> = files
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let mut result = run_fixture(ctx, p);
            result.name = p.strip_prefix(&root).unwrap_or(p).display().to_string();
            progress(i + 1, files.len());
            result
        })
        .collect();
    if fixtures.is_empty() {
        fixtures.push(suite_case(
            "(no fixtures)".to_string(),
            CaseKind::EmptySuite,
            None,
            vec![format!(
                "no fixture (*.arb, *.jsonl) under {}: a suite that runs nothing is broken",
                shown(&dir.display().to_string())
            )],
        ));
    }
    let coverage = (options.coverage || options.require_full_coverage).then(|| {
        let mut matched: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for f in &fixtures {
            if let Some(g) = &f.game {
                if ctx.games.ids().contains(&g.as_str()) {
                    matched.entry(g.clone()).or_default().extend(f.covered.iter().cloned());
                }
            }
        }
        matched.iter().map(|(g, m)| coverage(&ctx.games, g, m)).collect::<Vec<_>>()
    });
    if options.require_full_coverage {
        for c in coverage.iter().flatten() {
            let failures = if c.is_full() {
                Vec::new()
            } else {
                vec![format!("rule coverage of {}: no fixture breaks {}", c.game, c.missing.join(", "))]
            };
            fixtures.push(suite_case(
                format!("coverage/{}", c.game),
                CaseKind::Coverage,
                Some(c.game.clone()),
                failures,
            ));
        }
    }
    let passed = fixtures.iter().filter(|f| f.passed).count();
    let failed = fixtures.len() - passed;
    let exit_code = if failed == 0 { 0 } else { 1 };
    Ok(FixtureReport { fixtures, passed, failed, coverage, exit_code })
}

impl fmt::Display for FixtureReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for r in self.fixtures.iter().filter(|r| r.kind != CaseKind::Coverage) {
            write!(f, "{r}")?;
        }
        if let Some(c) = &self.coverage {
            for g in c {
                write!(f, "{g}")?;
            }
        }
        for r in self.fixtures.iter().filter(|r| r.kind == CaseKind::Coverage) {
            write!(f, "{r}")?;
        }
        writeln!(f, "{} passed, {} failed", self.passed, self.failed)
    }
}
