//! Storage reliability through the `arbiter` binary, as users run it: two commands that
//! create the same new database at once never lose a session either acknowledged; a
//! referee's receipt catches a rewritten history; a lost record is refused until accepted.
//!
//! `ARBITER_RACE_TRIALS=N` runs more race trials (`cargo xtask crash` runs hundreds).

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::Duration;

type TestResult = Result<(), Box<dyn std::error::Error>>;

fn arbiter(db: &Path, args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_arbiter"));
    command.arg("--db").arg(db).args(args).env_remove("ARBITER_DB").env_remove("ARBITER_SEAL_KEY");
    command.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
    command
}

fn run(db: &Path, args: &[&str]) -> Result<Output, Box<dyn std::error::Error>> {
    Ok(arbiter(db, args).output()?)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A simulated game (`good.arb`) and the same with one malformed line (`bad.arb`).
fn games(dir: &Path) -> Result<(PathBuf, PathBuf), Box<dyn std::error::Error>> {
    let good = dir.join("good.arb");
    let made =
        arbiter(&dir.join("unused.db"), &["simulate", "proving-grounds", "--seed", "3", "--events", "300"])
            .arg("--out")
            .arg(&good)
            .output()?;
    assert!(made.status.success(), "simulate: {}", text(&made.stderr));
    let bad = dir.join("bad.arb");
    std::fs::write(&bad, std::fs::read_to_string(&good)?.replacen("recover", "recover 99", 1))?;
    Ok((good, bad))
}

/// A small deterministic generator (xorshift64*), so a failing trial can be replayed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

/// Two processes create the same new database at once: `import good --session X` and one
/// of a failing import, a `new X` that finds the name taken, or the same import. The
/// second starts up to 5 ms before or after the first. Whatever each reports, a session
/// either one acknowledged is there afterwards: the one whose work failed removes only a
/// database it made alone and found empty under the lock.
#[test]
fn racing_creators_never_remove_an_acknowledged_session() -> TestResult {
    let trials: u64 = std::env::var("ARBITER_RACE_TRIALS").ok().and_then(|n| n.parse().ok()).unwrap_or(24);
    let dir = tempfile::tempdir()?;
    let (good, bad) = games(dir.path())?;
    let (good, bad) = (good.display().to_string(), bad.display().to_string());
    let mut rng = Rng(0x5EED_2024);
    let mut outcomes = std::collections::BTreeMap::<String, u64>::new();
    for trial in 0..trials {
        let db = dir.path().join(format!("db{trial}"));
        let kind = rng.next() % 3;
        let second: Vec<&str> = match kind {
            0 => vec!["import", &bad, "--session", "Y"],
            1 => vec!["new", "X", "--game", "proving-grounds"],
            _ => vec!["import", &good, "--session", "X"],
        };
        let first = ["import", good.as_str(), "--session", "X"];
        let delay = Duration::from_micros(rng.next() % 5_000);
        let spawn = |args: &[&str]| -> std::io::Result<Child> { arbiter(&db, args).spawn() };
        let (p1, p2) = if rng.next() % 2 == 0 {
            let p1 = spawn(&first)?;
            std::thread::sleep(delay);
            (p1, spawn(&second)?)
        } else {
            let p2 = spawn(&second)?;
            std::thread::sleep(delay);
            (spawn(&first)?, p2)
        };
        let (o1, o2) = (p1.wait_with_output()?, p2.wait_with_output()?);
        let stored = |o: &Output| o.status.success() && text(&o.stdout).contains("session `X`");
        let acknowledged = stored(&o1) || (kind != 0 && stored(&o2));
        let listed = db.exists() && {
            let sessions = run(&db, &["sessions"])?;
            text(&sessions.stdout).lines().any(|l| l.starts_with("X "))
        };
        assert!(
            !acknowledged || listed,
            "trial {trial} (kind {kind}): session X was acknowledged and is gone\n{}\n{}",
            text(&o1.stderr),
            text(&o2.stderr)
        );
        let outcome = format!("kind {kind}: X acknowledged {acknowledged}, listed {listed}");
        *outcomes.entry(outcome).or_default() += 1;
    }
    println!("race trials: {trials}; outcomes: {outcomes:?}");
    Ok(())
}

#[test]
fn a_sealed_session_is_checked_against_its_receipt() -> TestResult {
    let dir = tempfile::tempdir()?;
    let (good, _) = games(dir.path())?;
    let db = dir.path().join("db");
    let imported = arbiter(&db, &["import"]).arg(&good).args(["--session", "disputed"]).output()?;
    assert!(imported.status.success(), "{}", text(&imported.stderr));
    let key = dir.path().join("referee.key");
    let made = arbiter(&db, &["seal", "--new-key"]).arg(&key).output()?;
    assert!(made.status.success(), "{}", text(&made.stderr));
    let public = text(&made.stdout).split_whitespace().last().unwrap_or_default().to_string();
    assert_eq!(public.len(), 64, "{}", text(&made.stdout));
    let again = arbiter(&db, &["seal", "--new-key"]).arg(&key).output()?;
    assert_eq!(again.status.code(), Some(2), "an existing key is never overwritten");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(std::fs::metadata(&key)?.permissions().mode() & 0o777, 0o600);
    }
    let receipt = dir.path().join("disputed.receipt");
    let sealed =
        arbiter(&db, &["seal", "disputed", "--key"]).arg(&key).arg("--out").arg(&receipt).output()?;
    assert!(sealed.status.success(), "{}", text(&sealed.stderr));
    let check = |db: &Path| {
        arbiter(db, &["check", "disputed", "--receipt"]).arg(&receipt).args(["--signer", &public]).output()
    };
    let holds = check(&db)?;
    assert_eq!(holds.status.code(), Some(0), "{}{}", text(&holds.stdout), text(&holds.stderr));
    assert!(text(&holds.stdout).contains("receipt holds"), "{}", text(&holds.stdout));

    // The forgery of the issue: export, edit one line, import as a new database.
    let exported = run(&db, &["export", "disputed"])?;
    let mut lines: Vec<String> = text(&exported.stdout).lines().map(str::to_string).collect();
    let at = lines.iter().position(|l| l.starts_with("up ")).ok_or("no `up` line")?;
    lines[at] = lines[at].replacen("up", "down", 1);
    let forged_file = dir.path().join("forged.arb");
    std::fs::write(&forged_file, lines.join("\n") + "\n")?;
    let forged = dir.path().join("forged.db");
    let imported =
        arbiter(&forged, &["import"]).arg(&forged_file).args(["--session", "disputed"]).output()?;
    assert!(imported.status.success(), "{}", text(&imported.stderr));
    let plain = run(&forged, &["check", "disputed"])?;
    assert_eq!(plain.status.code(), Some(0), "the chain alone passes a careful forgery");
    let caught = check(&forged)?;
    assert_eq!(caught.status.code(), Some(1), "{}{}", text(&caught.stdout), text(&caught.stderr));
    assert!(text(&caught.stdout).contains("receipt FAILS"), "{}", text(&caught.stdout));
    Ok(())
}
