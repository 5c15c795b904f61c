//! What the tests of the `arbiter` binary share: a sandbox with its own database, and a
//! run's exit code and output with the checks every test makes on them.
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// A scratch directory with its own database, removed at the end of the test.
pub struct Sandbox {
    dir: tempfile::TempDir,
}

impl Sandbox {
    pub fn new() -> Sandbox {
        Sandbox { dir: tempfile::tempdir().expect("temp dir") }
    }

    pub fn db(&self) -> PathBuf {
        self.dir.path().join("arbiter.db")
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// Run `arbiter --db <sandbox db> ARGS` from the repository root.
    pub fn run(&self, args: &[&str]) -> Run {
        self.run_with_stdin(args, "")
    }

    pub fn run_with_stdin(&self, args: &[&str], stdin: &str) -> Run {
        self.run_full(args, stdin, &[])
    }

    /// Run with extra environment variables.
    pub fn run_with_env(&self, args: &[&str], env: &[(&str, &str)]) -> Run {
        self.run_full(args, "", env)
    }

    fn run_full(&self, args: &[&str], stdin: &str, env: &[(&str, &str)]) -> Run {
        let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .arg("--db")
            .arg(self.db())
            .args(args)
            .env_remove("ARBITER_DB")
            // The retraction cache of long files, in the sandbox rather than the user's cache.
            .env("ARBITER_CACHE_DIR", self.dir.path().join("cache"))
            .envs(env.iter().copied())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn arbiter");
        child.stdin.take().expect("stdin").write_all(stdin.as_bytes()).expect("write stdin");
        Run(child.wait_with_output().expect("wait for arbiter"))
    }

    /// Write a log derived from a shipped one: `edit` gets its lines.
    pub fn derive(&self, name: &str, from: &str, edit: impl FnOnce(&mut Vec<String>)) -> String {
        let text =
            std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(from)).expect("fixture");
        let mut lines: Vec<String> = text
            .lines()
            .filter(|l| !l.starts_with("@expect") && !l.starts_with("@assert"))
            .map(str::to_string)
            .collect();
        edit(&mut lines);
        let path = self.path(name);
        std::fs::write(&path, lines.join("\n") + "\n").expect("write log");
        path.to_string_lossy().into_owned()
    }
}

pub struct Run(pub Output);

impl Run {
    pub fn code(&self) -> i32 {
        self.0.status.code().expect("exit code")
    }
    pub fn out(&self) -> String {
        String::from_utf8_lossy(&self.0.stdout).into_owned()
    }
    pub fn err(&self) -> String {
        String::from_utf8_lossy(&self.0.stderr).into_owned()
    }
    #[track_caller]
    pub fn expect(self, code: i32) -> Run {
        assert_eq!(self.code(), code, "stdout:\n{}\nstderr:\n{}", self.out(), self.err());
        self
    }
    /// Unusable input: exit 2, one sentence on stderr, no backtrace.
    #[track_caller]
    pub fn expect_refused(self, fragment: &str) -> Run {
        let run = self.expect(2);
        let err = run.err();
        assert!(err.contains(fragment), "stderr lacks `{fragment}`:\n{err}");
        assert!(!err.contains("panicked") && !err.contains("RUST_BACKTRACE"), "{err}");
        assert!(err.trim().lines().count() <= 5, "not one clear sentence:\n{err}");
        run
    }
}
