//! `verify --derive` fills a consequence left out in the middle of a log, where the next
//! record is another consequence, and still reports a consequence
//! recorded with a wrong value as the violation it is. On the rulebook's sample round
//! (keridwyn-fight), whose consequences are all derived from the state.

use arbiter_verify::{verify, Context, Source, VerifyOptions};
use std::path::{Path, PathBuf};

/// The shipped sample round with one line changed by `edit` (`None`: the line dropped),
/// written beside the fixtures' catalogs in a scratch directory.
fn sample_with(name: &str, line: &str, edit: Option<&str>) -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/keridwyn-fight");
    let text = std::fs::read_to_string(root.join("wyvern-sample-round.arb")).unwrap();
    let mut found = false;
    let mut out = String::new();
    for l in text.lines() {
        // Only the log: the fixture's own expectations are not this test's.
        if l.starts_with("@expect") || l.starts_with("@assert") {
            continue;
        }
        if !found && l.split('#').next().unwrap_or("").trim() == line {
            found = true;
            if let Some(e) = edit {
                out.push_str(e);
                out.push('\n');
            }
            continue;
        }
        out.push_str(l);
        out.push('\n');
    }
    assert!(found, "`{line}` is in the sample round");
    let dir = std::env::temp_dir().join(format!("arbiter-derive-gap-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, out).unwrap();
    p
}

fn derive(p: &Path) -> arbiter_verify::VerifyReport {
    let opts = VerifyOptions { derive: true, ..Default::default() };
    verify(&Context::files(), &Source::file(p), &opts).unwrap()
}

#[test]
fn a_consequence_left_out_before_another_is_derived() {
    // Lure's `miss wyvern` left out: the next record, `act B enhance-power`, is another
    // consequence.
    let p = sample_with("gap.arb", "miss wyvern", None);
    let plain = verify(&Context::files(), &Source::file(&p), &VerifyOptions::default()).unwrap();
    assert_eq!(plain.violations().len(), 1, "{plain}");
    let r = derive(&p);
    assert!(r.is_clean(), "{r}");
    let completed = r.completed.unwrap();
    assert!(
        completed.contains("roll A wit 4 2\nmiss wyvern   # derived\nact B enhance-power\n"),
        "{completed}"
    );
}

#[test]
fn a_consequence_recorded_wrong_is_still_reported() {
    // The Burn's damage written as 5: a wrong version of the owed `damage B 6 ...`.
    let p = sample_with("wrong.arb", "damage B 6 block 2 injury 4", Some("damage B 5 block 2 injury 3"));
    let r = derive(&p);
    assert_eq!(r.violations().len(), 1, "{r}");
    assert_eq!(r.violations()[0].rule, "kf.damage.amount", "{r}");
    let completed = r.completed.unwrap();
    assert!(!completed.contains("damage B 6 block 2 injury 4"), "{completed}");
}
