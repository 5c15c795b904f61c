//! Vouching for and deciding about a session's stored history: `seal` (a referee's signed
//! receipt of its head), `check --receipt` (holding it to one) and `check --accept-loss`
//! (going on after its data file lost records).

use super::{exit, open_journal};
use crate::error::CliError;
use arbiter_journal::{Receipt, SealKey};
use arbiter_verify::Context;
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

/// `arbiter seal SESSION --key FILE [--out FILE]`, or `arbiter seal --new-key FILE`.
pub fn seal(
    db: &Path,
    session: Option<&str>,
    key: Option<&Path>,
    out: Option<&Path>,
    new_key: Option<&Path>,
) -> Result<ExitCode, CliError> {
    if let Some(path) = new_key {
        let key = SealKey::generate()?;
        write_new(path, key.to_text().as_bytes(), true)?;
        println!("new key in `{}`; keep it outside the database, readable by you only", path.display());
        println!("public key (publish it; checkers pass it as --signer): {}", key.public());
        return Ok(ExitCode::SUCCESS);
    }
    let (Some(session), Some(key_path)) = (session, key) else {
        return Err(CliError::input("give a SESSION and --key FILE (or --new-key FILE to make a key)"));
    };
    let key = SealKey::parse(&read_text(key_path, "key file")?)?;
    // Sealing writes nothing to the database, so it works on a read-only copy too.
    let journal = super::open_reader(db)?;
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let receipt = journal.seal(session, &key, now)?;
    match out {
        Some(path) => {
            write_new(path, receipt.to_text().as_bytes(), false)?;
            println!(
                "sealed `{session}`: {} records, chain hash {}; receipt in `{}`",
                receipt.records,
                arbiter_journal::hex(&receipt.head),
                path.display()
            );
        }
        None => print!("{}", receipt.to_text()),
    }
    Ok(ExitCode::SUCCESS)
}

/// `arbiter check SESSION --receipt FILE [--signer HEX]` or `--accept-loss`.
pub fn check(
    db: &Path,
    session: &str,
    receipt: Option<&Path>,
    signer: Option<&str>,
    accept_loss: bool,
) -> Result<ExitCode, CliError> {
    if accept_loss {
        let journal = open_journal(db, false)?;
        match journal.accept_loss(session)? {
            Some(loss) if loss.vanished => println!(
                "accepted: session `{session}` is gone from the data file ({} records were acknowledged); it is forgotten",
                loss.expected
            ),
            Some(loss) => println!(
                "accepted: session `{session}` now ends at record {} (records {}..{} are given up)",
                loss.holds, loss.holds, loss.expected
            ),
            None => {
                // A session that is not there has not "lost nothing": say it is not found.
                journal.len(session)?;
                println!("session `{session}` has lost nothing; nothing to accept")
            }
        }
        return Ok(ExitCode::SUCCESS);
    }
    // A key that cannot be one is bad input (exit 2), not a receipt that fails (exit 1).
    if let Some(key) = signer {
        if key.len() != 64 || !key.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(CliError::input(format!(
                "`{}` is not a public key: --signer takes the 64 hex digits `arbiter seal --new-key` printed",
                arbiter_verify::shown(key)
            )));
        }
    }
    let receipt = match receipt {
        Some(path) => Receipt::parse(&read_text(path, "receipt")?)?,
        None => return Err(CliError::input("give --receipt FILE or --accept-loss")),
    };
    let journal = super::open_reader(db)?;
    let view = arbiter_verify::check(&Context::new(&journal), session)?;
    print!("{view}");
    let verdict = journal.check_receipt(session, &receipt, signer)?;
    match &verdict {
        None => println!(
            "receipt holds: the first {} records are as sealed at {} by key {}",
            receipt.records,
            receipt.sealed,
            receipt.signer_hex()
        ),
        Some(why) => println!("receipt FAILS: {why}"),
    }
    Ok(exit(if verdict.is_some() { 1 } else { view.exit_code }))
}

fn read_text(path: &Path, what: &str) -> Result<String, CliError> {
    let meta = std::fs::metadata(path)
        .map_err(|e| CliError::input(format!("cannot read the {what} `{}`: {e}", path.display())))?;
    // A receipt or key is a few hundred bytes; anything else is not one.
    if !meta.is_file() || meta.len() > 64 << 10 {
        return Err(CliError::input(format!("`{}` is not a {what}", path.display())));
    }
    std::fs::read_to_string(path)
        .map_err(|e| CliError::input(format!("cannot read the {what} `{}`: {e}", path.display())))
}

/// Write a new file, never replacing one; `secret` makes it readable by its owner only.
fn write_new(path: &Path, bytes: &[u8], secret: bool) -> Result<(), CliError> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    if secret {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    #[cfg(not(unix))]
    let _ = secret;
    let failed = |e: std::io::Error| match e.kind() {
        std::io::ErrorKind::AlreadyExists => CliError::input(format!(
            "`{}` already exists: a key or receipt is never written over, so give a new file name",
            path.display()
        )),
        _ => CliError::input(format!("cannot write `{}`: {e}", path.display())),
    };
    let mut file = options.open(path).map_err(failed)?;
    // The file is this command's own (made new above): one that cannot be written whole (a
    // full disk) is removed again, so a key or receipt is there whole or not at all.
    file.write_all(bytes).and_then(|()| file.sync_all()).map_err(|e| {
        drop(file);
        let _ = std::fs::remove_file(path);
        failed(e)
    })
}
