//! `verify` on the toy game: findings, retractions, errors, derivation, variants, old rules.

mod toy;

use arbiter_verify::{verify, ErrorKind, Source, VerifyOptions};

#[test]
fn clean_log_exits_zero() {
    let d = toy::dir("clean");
    let p = toy::log(&d, "a.arb", "roll 3\nadd 3\nroll 6\nadd 6\n");
    let r = verify(&toy::ctx(), &Source::file(&p), &VerifyOptions::default()).unwrap();
    assert_eq!(r.records, 4);
    assert!(r.is_clean());
    assert_eq!(r.exit_code, 0);
    assert_eq!(r.final_facts[0].value, "9");
    assert!(r.to_string().contains("clean"));
}

#[test]
fn violations_name_rule_text_section_expected_and_recorded() {
    let d = toy::dir("viol");
    let p = toy::log(&d, "a.arb", "roll 3\nadd 4\nroll 9\n");
    let r = verify(&toy::ctx(), &Source::file(&p), &VerifyOptions::default()).unwrap();
    assert_eq!(r.exit_code, 1);
    let v = &r.violations()[0];
    assert_eq!((v.record.index, v.record.line, v.rule.as_str()), (1, Some(3), "toy.add.matches-roll"));
    assert_eq!(v.text, "Add what the die shows.");
    assert_eq!(v.section, "Adding");
    assert_eq!(v.expected.as_deref(), Some("add 3"));
    assert_eq!(v.recorded.as_deref(), Some("add 4"));
    assert_eq!(r.violations()[1].rule, "toy.roll.range");
    let text = r.to_string();
    assert!(text.contains("record #1 (line 3) `add 4`: violation of toy.add.matches-roll"), "{text}");
    assert!(text.contains("expected: add 3"), "{text}");
    let json = serde_json::to_value(&r).unwrap();
    assert_eq!(json["findings"][0]["kind"], "violation");
    assert_eq!(json["findings"][0]["rule"], "toy.add.matches-roll");
    assert_eq!(json["summary"]["violations"], 2);
    assert_eq!(json["exit_code"], 1);
}

#[test]
fn retracted_records_are_reported_and_skipped() {
    let d = toy::dir("retract");
    let p = toy::log(&d, "a.arb", "roll 3\nadd 4\nundo\nadd 3\n");
    let r = verify(&toy::ctx(), &Source::file(&p), &VerifyOptions::default()).unwrap();
    assert!(r.is_clean(), "{r}");
    assert_eq!(r.retracted().len(), 1);
    assert_eq!((r.retracted()[0].record.index, r.retracted()[0].by), (1, 2));
    assert!(r.to_string().contains("record #1 (line 3) `add 4` retracted by record 2"), "{r}");
    assert_eq!(r.final_facts[0].value, "3");
}

#[test]
fn an_unapplicable_record_stops_replay_there() {
    let d = toy::dir("error");
    let p = toy::log(&d, "a.arb", "roll 3\nadd 3\nroll 200\nadd 200\nroll 0\n");
    let r = verify(&toy::ctx(), &Source::file(&p), &VerifyOptions::default()).unwrap();
    let e = r.error.as_ref().unwrap();
    assert_eq!(e.record.index, 2);
    assert_eq!(e.rule.as_deref(), Some("toy.roll.range"));
    assert!(r.violations().is_empty(), "nothing after the stop is judged");
    assert_eq!(r.exit_code, 1);
    assert!(r.to_string().contains("cannot be applied: toy.roll.range: no die shows 200"), "{r}");
}

#[test]
fn a_byte_order_mark_and_crlf_line_ends_are_accepted() {
    let d = toy::dir("bom");
    let p = d.join("a.arb");
    std::fs::write(&p, "\u{feff}@game toy\r\nroll 3\r\nadd 3\r\n").unwrap();
    let r = verify(&toy::ctx(), &Source::file(&p), &VerifyOptions::default()).unwrap();
    assert!(r.is_clean() && r.records == 2, "{r}");
}

#[test]
fn unverified_effects_are_reported() {
    let d = toy::dir("unverified");
    let p = toy::log(&d, "a.arb", "note the cat sat on the dice\n");
    let r = verify(&toy::ctx(), &Source::file(&p), &VerifyOptions::default()).unwrap();
    assert_eq!(r.unverified().len(), 1);
    assert!(r.unverified()[0].effect.contains("cat"));
    assert!(r.is_clean());
}

#[test]
fn derive_completes_a_log_of_rolls() {
    let d = toy::dir("derive");
    let p = toy::log(&d, "a.arb", "roll 3\nroll 5\n");
    let opts = VerifyOptions { derive: true, ..Default::default() };
    let r = verify(&toy::ctx(), &Source::file(&p), &opts).unwrap();
    assert!(r.is_clean(), "{r}");
    let completed = r.completed.unwrap();
    assert_eq!(completed, "@game toy\nroll 3\nadd 3   # derived\nroll 5\nadd 5   # derived\n");
    assert_eq!(r.final_facts[0].value, "8");
}

#[test]
fn variants_from_source_options_and_file_apply() {
    let d = toy::dir("variants");
    let p = toy::log(&d, "a.arb", "roll 3\nadd 6\n");
    let plain = verify(&toy::ctx(), &Source::file(&p), &VerifyOptions::default()).unwrap();
    assert_eq!(plain.violations().len(), 1);
    let doubled =
        verify(&toy::ctx(), &Source::file(&p).with_variant("double", "yes"), &VerifyOptions::default())
            .unwrap();
    assert!(doubled.is_clean());
    assert_eq!(doubled.interpretations, vec!["double=yes".to_string()]);
    let opts = VerifyOptions { variants: vec![("double".into(), "yes".into())], ..Default::default() };
    assert!(verify(&toy::ctx(), &Source::file(&p), &opts).unwrap().is_clean());
    let q = toy::log(&d, "b.arb", "@variant double=yes\nroll 3\nadd 6\n");
    assert!(verify(&toy::ctx(), &Source::file(&q), &VerifyOptions::default()).unwrap().is_clean());
}

#[test]
fn unusable_inputs_are_one_sentence_errors() {
    let d = toy::dir("unusable");
    let ctx = toy::ctx();
    let o = VerifyOptions::default();
    let p = toy::log(&d, "a.arb", "roll x\n");
    let e = verify(&ctx, &Source::file(&p), &o).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Parse);
    assert_eq!(e.message, format!("{}:2:6: expected a number, found x", p.display()));
    let q = d.join("b.arb");
    std::fs::write(&q, "@game chess\n").unwrap();
    let e = verify(&ctx, &Source::file(&q), &o).unwrap_err();
    assert_eq!(e.kind, ErrorKind::UnknownGame);
    assert!(e.message.contains("unknown game `chess` (known games: toy)"), "{e}");
    let e = verify(&ctx, &Source::file(&p).with_variant("colour", "red"), &o).unwrap_err();
    assert!(e.message.contains("unknown parameter `colour`"), "{e}");
    let c = toy::log(&d, "c.arb", "@catalog missing-cards.txt\n");
    let e = verify(&ctx, &Source::file(&c), &o).unwrap_err();
    assert!(e.message.contains("catalog `missing-cards.txt` is neither a built-in catalog of toy"), "{e}");
    let e = verify(&ctx, &Source::session("s1"), &o).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Session);
}

#[test]
fn a_log_from_older_rules_says_when_the_outcome_changes() {
    let d = toy::dir("rules");
    let same = toy::log(&d, "same.arb", "@rules 1\nroll 3\nadd 3\n");
    let r = verify(&toy::ctx(), &Source::file(&same), &VerifyOptions::default()).unwrap();
    assert_eq!(r.rules_change.as_ref().unwrap().outcome_changed, Some(false));
    let changed = toy::log(&d, "changed.arb", "@rules 1\nroll 6\nadd 0\n");
    let r = verify(&toy::ctx(), &Source::file(&changed), &VerifyOptions::default()).unwrap();
    let change = r.rules_change.as_ref().unwrap();
    assert_eq!(change.outcome_changed, Some(true));
    assert!(change.summary.contains("@rules=1"), "{}", change.summary);
    assert_eq!(r.violations().len(), 1, "judged under the current rules");
}

#[test]
fn the_streamed_json_is_the_document_the_report_serializes_to() {
    let d = toy::dir("json-stream");
    let p = toy::log(&d, "a.arb", "roll 3\nadd 4\nnote x\nroll 9\nadd 4\nundo\nroll 2\n");
    let r = verify(&toy::ctx(), &Source::file(&p), &VerifyOptions::default()).unwrap();
    assert!(r.findings.len() >= 4, "{r}");
    let findings: Vec<String> = r.findings.iter().map(|f| serde_json::to_string(f).unwrap()).collect();
    let streamed = format!("{}\n{}\n{}", r.json_head(), findings.join(",\n"), r.json_tail());
    let whole = serde_json::to_value(&r).unwrap();
    assert_eq!(serde_json::from_str::<serde_json::Value>(&streamed).unwrap(), whole);
    assert_eq!(whole["incomplete"]["owed"][0], "add 2");
    assert_eq!(whole["summary"]["retracted"], 1);
    // The human form: head, findings in log order, tail.
    assert_eq!(
        r.to_string(),
        format!(
            "{}{}{}",
            r.head_text(),
            r.findings.iter().map(|f| f.to_string()).collect::<String>(),
            r.tail_text()
        )
    );
}

#[test]
fn max_findings_shows_the_first_and_counts_the_rest_by_rule() {
    let d = toy::dir("max");
    let p = toy::log(&d, "a.arb", &"roll 9\n".repeat(30));
    let options = VerifyOptions { max_findings: Some(5), ..VerifyOptions::default() };
    let r = verify(&toy::ctx(), &Source::file(&p), &options).unwrap();
    assert_eq!(r.findings.len(), 5);
    assert_eq!((r.summary.violations, r.summary.shown, r.summary.omitted), (59, 5, 54));
    assert_eq!(r.summary.by_rule[0].rule, "toy.roll.range");
    assert_eq!((r.summary.by_rule[0].count, r.summary.by_rule[1].count), (30, 29));
    let text = r.to_string();
    assert!(text.contains("violations by rule:") && text.contains("54 more not shown"), "{text}");
    let strict = VerifyOptions { strict: true, ..VerifyOptions::default() };
    let q = toy::log(&d, "b.arb", "roll 3\n");
    assert_eq!(verify(&toy::ctx(), &Source::file(&q), &VerifyOptions::default()).unwrap().exit_code, 0);
    assert_eq!(verify(&toy::ctx(), &Source::file(&q), &strict).unwrap().exit_code, 1);
}
