//! End to end on a Wild Assent campaign (one log spanning many encounters): `replay --to N`
//! shows the campaign's state around the encounter in progress, and `diff` of two
//! campaigns splits inside the encounter where they part, not at a Season's boundary.

mod common;

use common::Sandbox;

const WHOLE: &str = "fixtures/wild-assent/campaign-whole-seeded.arb";

/// The records of a log (events, in order).
fn records(path: &str) -> Vec<String> {
    let text =
        std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).expect("log");
    text.lines()
        .map(|l| l.split('#').next().unwrap_or("").trim().to_string())
        .filter(|l| !l.is_empty() && !l.starts_with('@'))
        .collect()
}

fn index(records: &[String], needle: &str) -> usize {
    records.iter().position(|r| r == needle).unwrap_or_else(|| panic!("`{needle}` not in {WHOLE}"))
}

#[test]
fn replay_shows_the_campaign_and_the_encounter_in_progress() {
    let s = Sandbox::new();
    let r = records(WHOLE);
    let second = index(&r, "season 2");
    // Ten records into the second Season's encounter.
    let out = s.run(&["replay", WHOLE, "--to", &(second + 10).to_string()]).expect(0).out();
    assert!(out.contains("Season 2 of 3 (encounter)"), "{out}");
    assert!(out.contains("buildings barracks:1 seekers-den:1 workshop:1"), "{out}");
    assert!(out.contains("Workers: fletcher"), "{out}");
    // The encounter's table below it.
    assert!(out.contains("zaxos"), "{out}");
    let craft = index(&r, "craft zaxos hunters-bow");
    let out = s.run(&["replay", WHOLE, "--to", &(craft + 1).to_string(), "--json"]).expect(0).out();
    let json: serde_json::Value = serde_json::from_str(&out).expect("replay --json is JSON");
    let text = json.to_string();
    for fact in ["camp.equipment", "hunters-bow", "camp.zaxos.actions", "encampment"] {
        assert!(text.contains(fact), "`{fact}` missing from {text}");
    }
}

#[test]
fn diff_of_two_campaigns_splits_inside_the_encounter_where_they_part() {
    let s = Sandbox::new();
    let r = records(WHOLE);
    let (second, third) = (index(&r, "season 2"), index(&r, "season 3"));
    // The first Attack roll of the second Season's encounter, one Success turned Blank.
    let roll = (second..third).find(|&i| r[i].starts_with("roll ") && r[i].contains(" s")).expect("a roll");
    let changed = r[roll].replacen(" s", " b", 1);
    let original = r[roll].clone();
    let other = s.derive("other.arb", WHOLE, |lines| {
        // The same roll may be recorded earlier too: the line looked for is the one in Season 2.
        let season = lines.iter().position(|l| l.trim() == "season 2").expect("Season 2's line");
        let at = season + lines[season..].iter().position(|l| l.trim() == original).expect("the roll's line");
        lines[at] = changed.clone();
    });
    let out = s.run(&["diff", WHOLE, &other, "--json"]).expect(1).out();
    let json: serde_json::Value = serde_json::from_str(&out).expect("diff --json is JSON");
    let split = json["divergences"][0]["a"]["index"].as_u64().expect("a split") as usize;
    assert_eq!(split, roll, "{out}");
    assert!(second < split && split < third, "the split {split} is inside Season 2 ({second}..{third})");
    // Before it the two campaigns agree on everything, Encampment included.
    assert_eq!(json["last_agreement"]["a"]["index"].as_u64(), Some(roll as u64 - 1), "{out}");
    // At the split, the replay of either shows the second Season's encounter.
    let at = s.run(&["replay", &other, "--to", &(split + 1).to_string()]).expect(0).out();
    assert!(at.contains("Season 2 of 3 (encounter)"), "{at}");
}
