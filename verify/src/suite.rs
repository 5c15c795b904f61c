//! `arbiter fixtures DIR`: every fixture under a directory, with coverage and JUnit.

use crate::coverage::{coverage, GameCoverage};
use crate::error::{ErrorKind, VerifyError};
use crate::fixture::{run_fixture, FixtureResult};
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

/// The outcome of a suite.
///
/// JSON schema: `fixtures` (array of `{path, game, passed, failures: [string], covered:
/// [rule id], happened: string|null, seconds}`), `passed`, `failed` (numbers), `coverage`
/// (null or array of `{game, covered: [id], missing: [id]}` for each game with a fixture
/// under DIR), `exit_code` (0 all passed and coverage, when required, full; 1 otherwise).
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
        VerifyError::new(ErrorKind::Io, format!("cannot read fixture directory {}: {e}", dir.display()))
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

/// Run every fixture under `dir` (or the one file `dir` names).
pub fn run_fixtures<R: Games>(
    ctx: &Context<'_, R>,
    dir: &Path,
    options: &FixtureOptions,
) -> Result<FixtureReport, VerifyError> {
    let files = if dir.is_file() { vec![dir.to_path_buf()] } else { fixture_files(dir)? };
    let fixtures: Vec<FixtureResult> = files.iter().map(|p| run_fixture(ctx, p)).collect();
    let passed = fixtures.iter().filter(|f| f.passed).count();
    let failed = fixtures.len() - passed;
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
    let coverage_ok = !options.require_full_coverage
        || coverage.as_ref().is_none_or(|c| c.iter().all(GameCoverage::is_full));
    let exit_code = if failed == 0 && coverage_ok { 0 } else { 1 };
    Ok(FixtureReport { fixtures, passed, failed, coverage, exit_code })
}

impl fmt::Display for FixtureReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for r in &self.fixtures {
            write!(f, "{r}")?;
        }
        if let Some(c) = &self.coverage {
            for g in c {
                write!(f, "{g}")?;
            }
        }
        writeln!(f, "{} passed, {} failed", self.passed, self.failed)
    }
}
