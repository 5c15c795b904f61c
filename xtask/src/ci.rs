//! `cargo xtask ci`: the checks CI runs, in the order that fails fastest.

use crate::Fallible;
use std::process::Command;

/// Formatting first (seconds), then the whole workspace's tests, as `.ci/run` does
/// (`--locked`: the lock file must already hold every dependency).
pub fn run() -> Fallible {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let root = workspace_root();
    let steps: [&[&str]; 2] = [&["fmt", "--all", "--", "--check"], &["test", "--workspace", "--locked"]];
    for args in steps {
        println!("xtask ci: cargo {}", args.join(" "));
        let status = Command::new(&cargo).args(args).current_dir(&root).status()?;
        if !status.success() {
            return Err(format!("`cargo {}` failed ({status})", args.join(" ")).into());
        }
    }
    println!("xtask ci: all checks passed");
    Ok(())
}

/// The workspace root: xtask lives one level below it.
pub fn workspace_root() -> std::path::PathBuf {
    let manifest = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest.parent().unwrap_or(manifest).to_path_buf()
}
