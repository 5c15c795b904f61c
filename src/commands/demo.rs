//! `arbiter demo`: the guided tour a new user runs first. It stores the shipped disputed
//! session (`examples/disputed-wound.arb`, compiled in) in the database when it is not there
//! yet, then runs the three commands a referee would: `verify`, `explain` on the disputed
//! record, and `diff` under the other reading of the exhaustion rule.

use super::open_journal;
use crate::error::CliError;
use crate::output::print;
use arbiter_verify::{Context, DiffOptions, Source, VerifyOptions};
use std::path::Path;
use std::process::ExitCode;

const SESSION: &str = "disputed-wound";
const LOG: &str = include_str!("../../examples/disputed-wound.arb");
/// The record whose legality was disputed (the two white 4s against the Green Warden).
const DISPUTED: u64 = 10;

pub fn demo(db: &Path) -> Result<ExitCode, CliError> {
    let journal = open_journal(db, true)?;
    let ctx = Context::new(&journal);
    if journal.sessions()?.iter().any(|(name, _)| name == SESSION) {
        print(&format!(
            "== using session `{SESSION}` already in `{}`\n\n",
            arbiter_journal::display_location(db)
        ))?;
    } else {
        let dir = tempfile_dir()?;
        let file = dir.join(format!("{SESSION}.arb"));
        std::fs::write(&file, LOG)
            .map_err(|e| CliError::input(format!("could not write `{}`: {e}", file.display())))?;
        let created = arbiter_verify::import_file(&ctx, &file, Some(SESSION));
        let _ = std::fs::remove_dir_all(&dir);
        print(&format!("== arbiter import examples/disputed-wound.arb --session {SESSION}\n{}\n", created?))?;
    }
    let session = Source::session(SESSION);
    print(&format!("== arbiter verify {SESSION}\n"))?;
    print(&arbiter_verify::verify(&ctx, &session, &VerifyOptions::default())?.to_string())?;
    print(&format!("\n== arbiter explain {SESSION} {DISPUTED}\n"))?;
    print(&arbiter_verify::explain(&ctx, &session, DISPUTED, &[])?.to_string())?;
    let other = session.clone().with_variant("exhaust-from", "wounding-enemy");
    print(&format!("\n== arbiter diff {SESSION} {SESSION}@exhaust-from=wounding-enemy\n"))?;
    print(&arbiter_verify::diff(&ctx, &session, &other, &DiffOptions::default())?.to_string())?;
    Ok(ExitCode::SUCCESS)
}

/// A fresh private directory for the compiled-in log (import reads files).
fn tempfile_dir() -> Result<std::path::PathBuf, CliError> {
    let dir = std::env::temp_dir().join(format!("arbiter-demo-{}", std::process::id()));
    std::fs::create_dir_all(&dir)
        .map_err(|e| CliError::input(format!("could not create `{}`: {e}", dir.display())))?;
    Ok(dir)
}
