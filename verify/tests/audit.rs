//! `audit` (`arbiter verify --all`) on the toy game: every session compared with its previous
//! verdict (same, changed, recorded on since, new) and, for a session recorded under an older
//! rules version, with a replay under that version.

mod toy;

use arbiter_journal::Journal;
use arbiter_verify::{
    audit, audit_junit, import_file, AuditOptions, Comparison, Context, Recorder, Verdicts,
};

fn sessions(d: &toy::Dir, j: &Journal) {
    let ctx = Context::with_games(toy::ToyGames, Some(j));
    for (name, body) in [
        ("clean", "roll 3\nadd 3\n"),
        ("wrong", "roll 3\nadd 4\nroll 2\nadd 2\n"),
        // Recorded under rules version 1, when a 6 added nothing: today it adds 6.
        ("old", "@rules 1\nroll 6\nadd 0\n"),
        ("owing", "roll 5\n"),
        ("big", "roll 6\nadd 6\nroll 6\nadd 6\n"),
    ] {
        let p = toy::log(d, &format!("{name}.arb"), body);
        import_file(&ctx, &p, Some(name)).unwrap();
    }
}

#[test]
fn an_audit_sums_up_and_compares_with_the_last_one() {
    let d = toy::dir("audit");
    let j = Journal::open(d.join("db")).unwrap();
    sessions(&d, &j);
    let ctx = Context::with_games(toy::ToyGames, Some(&j));
    let seen = std::sync::atomic::AtomicUsize::new(0);
    let count = |_: &arbiter_verify::SessionAudit| {
        seen.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    };
    let first = audit(&ctx, &AuditOptions::default(), &Verdicts::new(), &count).unwrap();
    assert_eq!(seen.load(std::sync::atomic::Ordering::Relaxed), 5, "one call a session, for a progress bar");
    let names: Vec<&str> = first.sessions.iter().map(|s| s.session.as_str()).collect();
    assert_eq!(names, ["big", "clean", "old", "owing", "wrong"], "by name, whatever thread finished first");
    let s = &first.summary;
    assert_eq!((s.sessions, s.clean, s.with_violations, s.incomplete, s.unusable), (5, 3, 2, 1, 0));
    assert_eq!(
        (s.violations, s.by_rule[0].rule.as_str(), s.by_rule[0].count),
        (2, "toy.add.matches-roll", 2)
    );
    assert_eq!((s.new, s.changed), (5, 1), "every session is new; `old` changed under its rules version");
    let old = first.sessions.iter().find(|x| x.session == "old").unwrap();
    assert!(old.changed() && old.failed, "{old:?}");
    assert_eq!(old.rules_change.as_ref().and_then(|c| c.outcome_changed), Some(true));
    assert!(
        old.changes[0].starts_with(
            "rules: recorded under rules version 1, replayed under version 2: the outcome changes"
        ),
        "{:?}",
        old.changes
    );
    assert_eq!(first.exit_code, 1);
    let wrong = first.sessions.iter().find(|x| x.session == "wrong").unwrap();
    assert!(!wrong.failed, "a session's own violations are listed, not failures");
    let strict =
        audit(&ctx, &AuditOptions { strict: true, ..AuditOptions::default() }, &Verdicts::new(), &|_| {})
            .unwrap();
    assert!(strict.sessions.iter().filter(|x| x.failed).count() == 3, "under strict, not clean fails too");

    // Against the first audit: the same rules give the same verdicts.
    let previous = first.verdicts(&Verdicts::new());
    let again = audit(&ctx, &AuditOptions::default(), &previous, &|_| {}).unwrap();
    let same: Vec<Comparison> = again.sessions.iter().map(|x| x.comparison).collect();
    assert_eq!(same, [Comparison::Same; 5]);

    // Another reading doubles every add: verdicts change on the sessions with a roll.
    let doubled = AuditOptions { variants: vec![("double".into(), "yes".into())], ..AuditOptions::default() };
    let changed = audit(&ctx, &doubled, &previous, &|_| {}).unwrap();
    let clean = changed.sessions.iter().find(|x| x.session == "clean").unwrap();
    assert_eq!(clean.comparison, Comparison::Changed);
    assert_eq!(clean.changes, ["verdict: clean -> 1 violation(s) (toy.add.matches-roll 1)"]);
    let text = changed.to_string();
    assert!(text.contains("CHANGED clean (toy)\n    verdict: clean -> 1 violation(s)"), "{text}");
    let xml = audit_junit(&changed);
    assert!(xml.contains("<testcase name=\"clean\" classname=\"audit.toy\" time=\"0\">\n      <failure message=\"verdict: clean -&gt; 1 violation(s)"), "{xml}");
    assert_eq!(xml.matches("<testcase ").count(), 5);
    // A cap at ten changes no verdict, but the table `big` ends with: its outcome.
    let capped = AuditOptions { variants: vec![("cap".into(), "10".into())], ..AuditOptions::default() };
    let capped = audit(&ctx, &capped, &previous, &|_| {}).unwrap();
    let big = capped.sessions.iter().find(|x| x.session == "big").unwrap();
    assert_eq!(big.comparison, Comparison::Changed);
    assert_eq!(big.changes, ["outcome: the final table differs; `arbiter replay big` shows it now"]);

    // A session recorded on since is not compared.
    let mut rec = Recorder::open(&ctx, "owing").unwrap();
    rec.submit("add 5", false).unwrap();
    drop(rec);
    let grown = audit(&ctx, &AuditOptions::default(), &previous, &|_| {}).unwrap();
    let owing = grown.sessions.iter().find(|x| x.session == "owing").unwrap();
    assert_eq!(owing.comparison, Comparison::Recorded);
    assert_eq!(grown.summary.recorded, 1);

    // A --variant no game has is refused whole.
    let typo = AuditOptions { variants: vec![("dubble".into(), "yes".into())], ..AuditOptions::default() };
    assert!(audit(&ctx, &typo, &previous, &|_| {}).unwrap_err().message.contains("no game has a parameter"));
}
