//! `cargo xtask man [DIR]`: the man pages of `arbiter` (clap_mangen), generated from the very
//! clap definition the binary parses with (`src/cli.rs`, compiled here as well), so they
//! cannot fall behind the commands: `arbiter.1` and one `arbiter-COMMAND.1` per command,
//! written to DIR (default `target/man`).

#[allow(dead_code)]
#[path = "../../src/cli.rs"]
mod cli;

use crate::Fallible;
use clap::CommandFactory;
use std::path::{Path, PathBuf};

pub fn run(args: &[String]) -> Fallible {
    let dir = args.first().map(PathBuf::from).unwrap_or_else(|| Path::new("target").join("man"));
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let command = cli::Cli::command();
    let mut written = vec![write_page(&dir, "arbiter", command.clone())?];
    for sub in command.get_subcommands().filter(|s| s.get_name() != "help") {
        let name = format!("arbiter-{}", sub.get_name());
        let page = sub.clone().display_name(name.clone()).bin_name(format!("arbiter {}", sub.get_name()));
        written.push(write_page(&dir, &name, page)?);
    }
    println!("wrote {} man pages to {} (try `man {}`)", written.len(), dir.display(), written[0].display());
    Ok(())
}

fn write_page(dir: &Path, name: &str, command: clap::Command) -> Fallible<PathBuf> {
    let path = dir.join(format!("{name}.1"));
    let mut page = Vec::new();
    clap_mangen::Man::new(command).render(&mut page)?;
    std::fs::write(&path, page).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_for_arbiter_and_each_command_with_its_options_and_examples() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("temp dir: {e}"));
        run(&[dir.path().display().to_string()]).unwrap_or_else(|e| panic!("man: {e}"));
        let page = |name: &str| std::fs::read_to_string(dir.path().join(name)).unwrap_or_default();
        let top = page("arbiter.1");
        assert!(top.contains(".TH arbiter 1") && top.contains("EXIT STATUS"), "{top}");
        let verify = page("arbiter-verify.1");
        for part in
            [".TH arbiter-verify 1", "arbiter verify", "\\-\\-max\\-findings", "EXAMPLES", "verdicts.json"]
        {
            assert!(verify.contains(part), "arbiter-verify.1 lacks `{part}`:\n{verify}");
        }
        let pages = std::fs::read_dir(dir.path()).map(|d| d.count()).unwrap_or_default();
        assert!(pages >= 20, "only {pages} pages");
    }
}
