//! The fixture runner on the toy game: expectations met and unmet, coverage, JUnit.

mod toy;

use arbiter_verify::{junit_xml, run_fixture, run_fixtures, FixtureOptions};

#[test]
fn every_kind_of_expectation_passes_when_met() {
    let d = toy::dir("fx-pass");
    let p = toy::log(
        &d,
        "ok.arb",
        "roll 3\nadd 4\nnote x\nroll 200\n@expect violation 1 toy.add.matches-roll\n@expect unverified 2\n@expect error 3\n@assert 1 count = 4\n@assert end pending = -\n",
    );
    let r = run_fixture(&toy::ctx(), &p);
    assert!(r.passed, "{r}");
    assert_eq!(r.covered, vec!["toy.add.matches-roll".to_string()]);
    assert_eq!(r.game.as_deref(), Some("toy"));
    let v = toy::log(
        &d,
        "variant.arb",
        "@variant double=yes\nroll 3\nadd 6\n@expect clean\n@expect split 1 double=no\n",
    );
    assert!(run_fixture(&toy::ctx(), &v).passed);
    let j = d.join("j.jsonl");
    std::fs::write(&j, "{\"game\":\"toy\"}\n{\"event\":{\"Roll\":9}}\n{\"directive\":\"@expect violation 0 toy.roll.range\"}\n").unwrap();
    assert!(run_fixture(&toy::ctx(), &j).passed);
}

#[test]
fn unmet_expectations_say_what_was_expected_and_what_happened() {
    let d = toy::dir("fx-fail");
    let p = toy::log(
        &d,
        "bad.arb",
        "roll 3\nadd 4\nroll 2\n@expect violation 0 toy.roll.range\n@assert 1 count = 3\n@assert 9 count = 3\n@assert end colour = red\n@expect error 2\n@expect unverified 0\n",
    );
    let r = run_fixture(&toy::ctx(), &p);
    assert!(!r.passed);
    let text = r.to_string();
    let expected = [
        "line 5: `@expect violation 0 toy.roll.range` not found; record 0 has no violation",
        "line 6: `@assert 1 count = 3` but count = 4",
        "line 7: `@assert 9 count = 3` but replay never got past that record (3 records replayed)",
        "line 8: `@assert end colour = red` but there is no fact `colour` (facts: count, pending)",
        "line 9: `@expect error 2` but every record could be applied",
        "line 10: `@expect unverified 0` but record 0 has no unverified effect",
        "unexpected violation at record 1: toy.add.matches-roll: the roll was 3",
    ];
    for e in expected {
        assert!(r.failures.iter().any(|f| f == e), "missing `{e}` in {:#?}", r.failures);
    }
    assert_eq!(r.failures.len(), expected.len(), "{:#?}", r.failures);
    // The same form as `verify`, so the fix is obvious from the CI log.
    assert!(text.contains("record #1 (line 3) `add 4`: violation of toy.add.matches-roll"), "{text}");
    assert!(text.contains("expected: add 3"), "{text}");
}

#[test]
fn split_expectations_diff_the_log_against_another_reading() {
    let d = toy::dir("fx-split");
    let ok = toy::log(&d, "ok.arb", "roll 6\nadd 6\nroll 6\nadd 6\n@expect split 3 cap=10\n");
    assert!(run_fixture(&toy::ctx(), &ok).passed);
    let wrong = toy::log(&d, "wrong.arb", "roll 6\nadd 6\nroll 6\nadd 6\n@expect split 1 cap=10\n@expect split 0 double=no\n@expect split 0 colour=red\n");
    let r = run_fixture(&toy::ctx(), &wrong);
    assert_eq!(r.failures.len(), 3, "{r}");
    assert!(r.failures[0].starts_with("line 6: `@expect split 1 cap=10` but they first split at record 3 (same event, different states:"), "{r}");
    assert_eq!(r.failures[1], "line 7: `@expect split 0 double=no` but the two readings never split");
    assert!(r.failures[2].contains("unknown parameter `colour`"), "{r}");
}

#[test]
fn clean_expectation_and_unusable_files_fail() {
    let d = toy::dir("fx-clean");
    let p = toy::log(&d, "c.arb", "roll 9\n@expect clean\n");
    let r = run_fixture(&toy::ctx(), &p);
    assert_eq!(r.failures[0], "line 3: `@expect clean` but 1 violation(s)");
    let q = toy::log(&d, "u.arb", "jump\n");
    let r = run_fixture(&toy::ctx(), &q);
    assert!(r.failures[0].starts_with("unusable: "), "{r}");
    assert!(r.failures[0].ends_with("u.arb:2:1: expected `roll`, `add` or `note`, found jump"), "{r}");
    assert_eq!(r.game.as_deref(), Some("toy"));
}

#[test]
fn suite_counts_coverage_and_closing_line() {
    let d = toy::dir("fx-suite");
    std::fs::create_dir_all(d.join("sub")).unwrap();
    toy::log(&d, "a.arb", "roll 9\n@expect violation 0 toy.roll.range\n");
    toy::log(&d.join("sub"), "b.arb", "roll 1\nroll 2\n@expect violation 1 toy.roll.pending\n");
    toy::log(&d, "c.arb", "roll 9\n@expect clean\n");
    std::fs::write(d.join("notes.txt"), "not a fixture").unwrap();
    // A link back to the directory itself must not send the walk round in circles.
    #[cfg(unix)]
    std::os::unix::fs::symlink(&d, d.join("sub").join("loop")).unwrap();
    let opts = FixtureOptions { coverage: true, require_full_coverage: false };
    let r = run_fixtures(&toy::ctx(), &d, &opts).unwrap();
    assert_eq!((r.passed, r.failed, r.exit_code), (2, 1, 1));
    let paths: Vec<&str> = r.fixtures.iter().map(|f| f.path.rsplit('/').next().unwrap_or("")).collect();
    assert_eq!(paths, vec!["a.arb", "c.arb", "b.arb"], "sorted by path, sub/ after c.arb");
    let cov = &r.coverage.as_ref().unwrap()[0];
    assert_eq!(cov.covered, vec!["toy.roll.range", "toy.roll.pending"]);
    assert_eq!(cov.missing, vec!["toy.add.matches-roll", "toy.add.without-roll"]);
    assert!(r.to_string().ends_with("2 passed, 1 failed\n"));
    assert!(r.to_string().contains("MISSING toy.add.without-roll"));

    std::fs::remove_file(d.join("c.arb")).unwrap();
    let ok = run_fixtures(&toy::ctx(), &d, &FixtureOptions::default()).unwrap();
    assert_eq!(ok.exit_code, 0);
    let strict =
        run_fixtures(&toy::ctx(), &d, &FixtureOptions { coverage: true, require_full_coverage: true })
            .unwrap();
    assert_eq!(strict.exit_code, 1, "coverage is not full");
    toy::log(&d, "d.arb", "add 1\nroll 2\nadd 3\n@expect violation 0 toy.add.without-roll\n@expect violation 2 toy.add.matches-roll\n");
    let full = run_fixtures(&toy::ctx(), &d, &FixtureOptions { coverage: true, require_full_coverage: true })
        .unwrap();
    assert_eq!(full.exit_code, 0, "{full}");
    assert!(run_fixtures(&toy::ctx(), &d.join("missing"), &opts).is_err());
}

/// A tiny XML well-formedness check: balanced tags, quoted attributes, no raw `<` or `&`.
fn check_xml(xml: &str) -> Vec<String> {
    let mut stack: Vec<String> = Vec::new();
    let mut rest = xml.trim_start();
    rest = rest.strip_prefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>").expect("declaration");
    let mut order = Vec::new();
    while let Some(open) = rest.find('<') {
        let text = &rest[..open];
        assert!(!text.contains('>'), "raw > in text: {text}");
        for (i, _) in text.match_indices('&') {
            let ent = &text[i..];
            assert!(
                ["&amp;", "&lt;", "&gt;", "&quot;", "&apos;"].iter().any(|e| ent.starts_with(e)),
                "bad entity"
            );
        }
        let close = rest[open..].find('>').expect("unclosed tag") + open;
        let tag = &rest[open + 1..close];
        assert!(!tag.contains('<'), "raw < inside a tag: {tag}");
        assert_eq!(tag.matches('"').count() % 2, 0, "unbalanced quotes: {tag}");
        if let Some(name) = tag.strip_prefix('/') {
            assert_eq!(stack.pop().as_deref(), Some(name), "mismatched close");
        } else {
            let name = tag.split_whitespace().next().unwrap_or("").trim_end_matches('/').to_string();
            order.push(name.clone());
            if !tag.ends_with('/') {
                stack.push(name);
            }
        }
        rest = &rest[close + 1..];
    }
    assert!(stack.is_empty(), "unclosed elements {stack:?}");
    order
}

#[test]
fn junit_is_well_formed_with_one_case_per_fixture_and_escaped_failures() {
    let d = toy::dir("fx-junit");
    toy::log(&d, "pass.arb", "roll 1\n@expect clean\n");
    toy::log(&d, "fail <&\"'>.arb", "roll 9\n@expect clean\n");
    std::fs::write(d.join("nogame.arb"), "roll 1\n").unwrap();
    let r = run_fixtures(&toy::ctx(), &d, &FixtureOptions::default()).unwrap();
    let xml = junit_xml(&r.fixtures);
    let elements = check_xml(&xml);
    assert_eq!(elements.iter().filter(|e| *e == "testcase").count(), 3);
    assert_eq!(elements.iter().filter(|e| *e == "failure").count(), 1);
    assert_eq!(elements.iter().filter(|e| *e == "error").count(), 1, "an unusable fixture is an error");
    assert_eq!(
        elements.iter().filter(|e| *e == "testsuite").count(),
        2,
        "toy, and the directory for nogame.arb"
    );
    assert!(
        xml.contains("<testsuites name=\"arbiter fixtures\" tests=\"3\" failures=\"1\" errors=\"1\""),
        "{xml}"
    );
    assert!(!xml.contains("time=\"-"), "{xml}");
    assert!(xml.contains("<testcase name=\"pass.arb\""), "names are relative to the suite directory: {xml}");
    assert!(xml.contains("fail &lt;&amp;&quot;&apos;&gt;.arb"), "{xml}");
    assert!(xml.contains("message=\"line 3: `@expect clean` but 1 violation(s)\""), "{xml}");
    assert_eq!(r.junit(), xml);
}
