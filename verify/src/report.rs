//! The pieces every report shares: a record as printed, a violation with its rule's text
//! and source, a state view. All are plain data (strings and numbers) so the command line
//! prints them without generics and `--json` serializes them as they are.

use crate::replay::{Outcome, Stepped};
use arbiter_engine::{Game, Violation};
use serde::{Deserialize, Serialize};
use std::fmt;

/// A record as the user sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordView {
    /// Index in the log (0-based; the journal sequence number for sessions).
    pub index: u64,
    /// 1-based line in the file, when the log is a file.
    pub line: Option<usize>,
    /// The record in notation (`undo` for a retraction).
    pub notation: String,
}

impl RecordView {
    pub(crate) fn of<E: fmt::Display>(s: &Stepped<E>) -> Self {
        RecordView { index: s.index, line: s.line, notation: s.notation() }
    }

    /// The view of record `index`, an event.
    pub(crate) fn event<E: fmt::Display>(index: u64, line: Option<usize>, event: &E) -> Self {
        RecordView { index, line, notation: crate::replay::notation(event) }
    }
}

impl fmt::Display for RecordView {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(l) => write!(f, "#{} (line {l}) `{}`", self.index, self.notation),
            None => write!(f, "#{} `{}`", self.index, self.notation),
        }
    }
}

/// A broken rule at a record, with everything needed to judge it without the rulebook.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ViolationView {
    pub record: RecordView,
    /// Stable rule id (`pg.resolve.single-moves-down`).
    pub rule: String,
    /// The rule's one-line text from the catalog.
    pub text: String,
    /// The rulebook section it comes from.
    pub section: String,
    /// What happened, with the numbers involved.
    pub message: String,
    /// What the rules say should have been recorded (notation), when there is one answer.
    pub expected: Option<String>,
    /// What was recorded instead.
    pub recorded: Option<String>,
}

impl ViolationView {
    /// The view of violation `v` of `record` (taken, not copied: the emitter moves a
    /// record's view into its last finding).
    pub(crate) fn of<G: Game>(record: RecordView, v: &Violation) -> Self {
        let rule = rule_of::<G>(v.rule);
        ViolationView {
            record,
            rule: v.rule.to_string(),
            text: rule.0,
            section: rule.1,
            message: v.message.clone(),
            expected: v.expected.clone(),
            recorded: v.recorded.clone(),
        }
    }
}

/// A rule's text and section, or a marker when a game reports an id its catalog lacks.
pub(crate) fn rule_of<G: Game>(id: &str) -> (String, String) {
    match G::rules().iter().find(|r| r.id == id) {
        Some(r) => (r.text.to_string(), r.section.to_string()),
        None => ("(rule missing from the game's catalog)".to_string(), "?".to_string()),
    }
}

impl fmt::Display for ViolationView {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "record {}: violation of {}", self.record, self.rule)?;
        writeln!(f, "    rule:     {} [{}]", self.text, self.section)?;
        writeln!(f, "    what:     {}", self.message)?;
        if let Some(e) = &self.expected {
            writeln!(f, "    expected: {e}")?;
        }
        if let Some(r) = &self.recorded {
            writeln!(f, "    recorded: {r}")?;
        }
        Ok(())
    }
}

/// An effect the engine could not check.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnverifiedView {
    pub record: RecordView,
    pub effect: String,
}

impl fmt::Display for UnverifiedView {
    /// One line, as every report prints it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "record {}: unverified: {}", self.record, self.effect)
    }
}

/// A finding that may follow from an earlier unverified effect (`Violation::uncertain`):
/// shown, never counted as a violation, so it never changes an exit status.
///
/// JSON: `{finding: {record, rule, text, section, message, expected, recorded}, after,
/// after_record}` (in `verify --json` with `"kind": "uncertain"` beside them).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UncertainView {
    pub finding: ViolationView,
    /// The unverified effect's ordinal: its position among the unverified effects the
    /// replay reported since the initial state.
    pub after: u32,
    /// The record that reported that effect, when the report holds it.
    pub after_record: Option<u64>,
}

impl fmt::Display for UncertainView {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v = &self.finding;
        match self.after_record {
            Some(n) => write!(f, "record {}: uncertain after unverified effect at #{n}", v.record)?,
            None => write!(f, "record {}: uncertain after an earlier unverified effect", v.record)?,
        }
        writeln!(f, " (not counted): {}", v.rule)?;
        writeln!(f, "    rule:     {} [{}]", v.text, v.section)?;
        writeln!(f, "    what:     {}", v.message)
    }
}

/// The findings of one report, in the order every report prints them: violations, then
/// unverified effects, then the uncertain findings that may follow from them.
pub(crate) fn write_findings(
    f: &mut fmt::Formatter<'_>,
    violations: &[ViolationView],
    unverified: &[UnverifiedView],
    uncertain: &[UncertainView],
) -> fmt::Result {
    for v in violations {
        write!(f, "{v}")?;
    }
    for u in unverified {
        write!(f, "{u}")?;
    }
    for u in uncertain {
        write!(f, "{u}")?;
    }
    Ok(())
}

/// A record that cannot be applied: replay stopped there.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StepErrorView {
    pub record: RecordView,
    /// The rule involved, when the game names one.
    pub rule: Option<String>,
    pub message: String,
}

impl fmt::Display for StepErrorView {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "record {} cannot be applied: ", self.record)?;
        if let Some(r) = &self.rule {
            write!(f, "{r}: ")?;
        }
        write!(f, "{} (replay stopped here)", self.message)
    }
}

/// A retracted record and the record that retracted it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RetractedView {
    pub record: RecordView,
    pub by: u64,
}

/// One `key = value` of a state.
///
/// JSON: `{"key": ..., "value": ...}`, the value a number when it is one (an integer written
/// the canonical way, `3`, `-1`, never `03`), else the game's word as a string.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fact {
    pub key: String,
    pub value: String,
}

impl Fact {
    /// The value as JSON: a number where the game wrote one.
    pub fn typed(&self) -> serde_json::Value {
        typed(&self.value)
    }
}

/// A fact's value as JSON: an integer when the text is one in canonical form (so the text
/// round-trips: `3` -> 3 -> `3`), else the text.
fn typed(text: &str) -> serde_json::Value {
    let digits = text.strip_prefix('-').unwrap_or(text);
    let canonical = !digits.is_empty()
        && digits.bytes().all(|b| b.is_ascii_digit())
        && (digits == "0" || !digits.starts_with('0'))
        && text != "-0";
    match text.parse::<i64>() {
        Ok(n) if canonical => serde_json::Value::from(n),
        _ => serde_json::Value::from(text),
    }
}

impl Serialize for Fact {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut s = serializer.serialize_struct("Fact", 2)?;
        s.serialize_field("key", &self.key)?;
        s.serialize_field("value", &self.typed())?;
        s.end()
    }
}

/// Facts as one JSON object, `{"key": value, ...}` in the game's order: the table as
/// structured data (`jq '.state.values.health'`).
struct Values<'a>(&'a [Fact]);

impl Serialize for Values<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for f in self.0 {
            map.serialize_entry(&f.key, &f.typed())?;
        }
        map.end()
    }
}

/// A state as people and scripts read it.
///
/// JSON: `board` (the text people read), `facts` (`[{key, value}]` in the game's order, typed
/// values), `values` (the same facts as one object, key to typed value) and `digest`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StateView {
    /// The game's readable board (several lines).
    pub board: String,
    /// The flat facts fixtures assert on, in the game's order.
    pub facts: Vec<Fact>,
    /// SHA-256 of the state's canonical encoding, hex.
    pub digest: String,
}

impl Serialize for StateView {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut s = serializer.serialize_struct("StateView", 4)?;
        s.serialize_field("board", &self.board)?;
        s.serialize_field("facts", &self.facts)?;
        s.serialize_field("values", &Values(&self.facts))?;
        s.serialize_field("digest", &self.digest)?;
        s.end()
    }
}

impl StateView {
    pub(crate) fn of<G: Game>(game: &G, state: &G::State) -> Self {
        StateView { board: game.board(state), facts: facts_of(game, state), digest: digest_of(state) }
    }
}

/// A state's digest as reports print it: 64 lowercase hex digits, exactly what
/// `Digest`'s `Display` writes. Spelled out by hand because formatting 32 bytes through
/// `fmt` (about 8,000 instructions) cost as much as stepping fifteen events, and verifying a
/// league prints one per session.
pub(crate) fn digest_of<T: Serialize>(state: &T) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let digest = arbiter_engine::digest(state);
    let mut hex = String::with_capacity(2 * digest.0.len());
    for byte in digest.0 {
        hex.push(char::from(HEX[usize::from(byte >> 4)]));
        hex.push(char::from(HEX[usize::from(byte & 0x0f)]));
    }
    hex
}

pub(crate) fn facts_of<G: Game>(game: &G, state: &G::State) -> Vec<Fact> {
    game.facts(state).into_iter().map(|(key, value)| Fact { key, value }).collect()
}

impl fmt::Display for StateView {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let board = self.board.trim_end();
        if board.is_empty() {
            for fact in &self.facts {
                writeln!(f, "  {} = {}", fact.key, fact.value)?;
            }
        } else {
            for line in board.lines() {
                writeln!(f, "  {line}")?;
            }
        }
        writeln!(f, "  digest {}", &self.digest[..self.digest.len().min(12)])
    }
}

/// Everything one stepped record found, as views.
#[derive(Debug, Clone, Default)]
pub(crate) struct StepViews {
    pub violations: Vec<ViolationView>,
    pub unverified: Vec<UnverifiedView>,
    pub uncertain: Vec<UncertainView>,
    pub error: Option<StepErrorView>,
}

/// The view of a finding that may follow from an earlier unverified effect. `unverified`
/// holds the record of every unverified effect since the initial state, in order: the
/// finding's ordinal is a position in it.
pub(crate) fn uncertain_view<G: Game>(
    record: RecordView,
    v: &Violation,
    unverified: &[u64],
) -> UncertainView {
    let after = v.uncertain.unwrap_or(0);
    UncertainView {
        finding: ViolationView::of::<G>(record, v),
        after,
        after_record: unverified.get(after as usize).copied(),
    }
}

/// The view of an event that cannot be applied.
pub(crate) fn step_error_view<E: fmt::Display>(
    index: u64,
    line: Option<usize>,
    event: &E,
    e: &arbiter_engine::StepError,
) -> StepErrorView {
    StepErrorView {
        record: RecordView::event(index, line, event),
        rule: e.rule.map(str::to_string),
        message: e.message.clone(),
    }
}

/// Which record reported each unverified effect so far, in order: what an uncertain finding's
/// ordinal (`UncertainView::after`) indexes.
#[derive(Debug, Clone, Default)]
pub(crate) struct Taints(Vec<u64>);

impl Taints {
    /// Count the unverified effects of record `index`.
    pub fn saw(&mut self, index: u64, f: &arbiter_engine::Findings) {
        self.0.extend(std::iter::repeat_n(index, f.unverified.len()));
    }

    /// Count a reported unverified effect.
    pub fn saw_one(&mut self, index: u64) {
        self.0.push(index);
    }

    /// Name the record of each view's effect.
    pub fn resolve(&self, views: &mut [UncertainView]) {
        for v in views {
            v.after_record = self.0.get(v.after as usize).copied();
        }
    }

    pub fn records(&self) -> &[u64] {
        &self.0
    }
}

pub(crate) fn views_of<G: Game>(s: &Stepped<G::Event>) -> StepViews {
    let mut out = StepViews::default();
    // The common case, a clean record, needs no view: its notation is not printed.
    if matches!(&s.outcome, Outcome::Applied(f) if f.is_empty())
        || matches!(s.outcome, Outcome::Retracted | Outcome::Retraction(_))
    {
        return out;
    }
    let record = RecordView::of(s);
    match &s.outcome {
        Outcome::Applied(f) => {
            out.violations = f.violations.iter().map(|v| ViolationView::of::<G>(record.clone(), v)).collect();
            out.unverified = f
                .unverified
                .iter()
                .map(|u| UnverifiedView { record: record.clone(), effect: u.clone() })
                .collect();
            // Resolved to a record by a caller that holds every unverified effect so far.
            out.uncertain = f.uncertain.iter().map(|v| uncertain_view::<G>(record.clone(), v, &[])).collect();
        }
        Outcome::Failed(e) => {
            out.error =
                Some(StepErrorView { record, rule: e.rule.map(str::to_string), message: e.message.clone() })
        }
        Outcome::Retracted | Outcome::Retraction(_) => {}
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fact_is_a_number_exactly_when_its_text_is_one() {
        for (text, json) in [
            ("3", "3"),
            ("0", "0"),
            ("-2", "-2"),
            ("03", "\"03\""),
            ("-0", "\"-0\""),
            ("+1", "\"+1\""),
            ("2g", "\"2g\""),
            ("", "\"\""),
            ("99999999999999999999", "\"99999999999999999999\""),
        ] {
            assert_eq!(typed(text).to_string(), json, "{text}");
        }
        let view = StateView {
            board: String::new(),
            facts: vec![
                Fact { key: "health".into(), value: "7".into() },
                Fact { key: "pool".into(), value: "1 2".into() },
            ],
            digest: "d".into(),
        };
        let json = serde_json::to_string(&view).unwrap_or_default();
        assert_eq!(
            json,
            r#"{"board":"","facts":[{"key":"health","value":7},{"key":"pool","value":"1 2"}],"values":{"health":7,"pool":"1 2"},"digest":"d"}"#
        );
    }

    #[test]
    fn digest_of_prints_what_the_digest_displays() {
        for value in [vec![], vec![0u8], vec![1, 2, 3], (0..=255).collect::<Vec<u8>>()] {
            let expected = arbiter_engine::digest(&value).to_string();
            assert_eq!(digest_of(&value), expected);
            assert_eq!(expected.len(), 64);
        }
    }
}
