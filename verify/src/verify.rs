//! `arbiter verify`: every finding of a whole log, streamed as it is found, and the completed
//! log on request.
//!
//! Findings go to a [`FindingSink`] the moment a record produces them, so a log of a million
//! violations is printed (or counted) without being held: the report keeps counts by rule id
//! and, past `--max-findings`, only counts. [`verify`] is the same run with a sink that keeps
//! the findings, for callers that want them all (tests, the fixture runner, the demo).

use crate::error::VerifyError;
use crate::incomplete::IncompleteView;
use crate::open::{describe_setup, open, with_game, Opened, Peeked, WithGame};
use crate::records::{Body, RecordStream};
use crate::replay::{Outcome, Replayer};
use crate::report::{
    step_error_view, uncertain_view, Fact, RecordView, RetractedView, StepErrorView, UncertainView,
    UnverifiedView, ViolationView,
};
use crate::retraction::Retracted;
use crate::source::Source;
use crate::{Context, Games};
use arbiter_engine::{Findings, Game};
use serde::ser::SerializeStruct;
use serde::{Serialize, Serializer};
use std::collections::BTreeMap;
use std::fmt;
use std::hash::{DefaultHasher, Hash, Hasher};

/// How to verify.
#[derive(Debug, Clone, Default)]
pub struct VerifyOptions {
    /// `--variant NAME=VALUE` overrides, applied after the source's own.
    pub variants: Vec<(String, String)>,
    /// Complete the log: insert the consequences the rules derive (`next_consequence`)
    /// before each decision or random outcome and at the end, and print the completed log.
    pub derive: bool,
    /// Leave `final_facts` and `final_digest` empty: `arbiter verify` prints neither unless
    /// asked for JSON, and building them is most of what a short session costs beyond
    /// stepping it. (The digest is still computed when a log recorded under an older rules
    /// version is compared with its replay under this one.)
    pub skip_final_facts: bool,
    /// Report at most this many findings; the rest are counted in the summary only.
    pub max_findings: Option<u64>,
    /// `--strict`: a log that ends with consequences still owed fails (exit 1).
    pub strict: bool,
}

/// What happens when a log recorded under an older rules version is replayed today.
///
/// A game that changes a rule in a way that can change a stored session's outcome bumps
/// `GameInfo::rules_version`. To keep old sessions auditable it may declare an
/// interpretation parameter named `rules` whose values are the versions it can still
/// reproduce; verify then replays the log under both and says whether the outcome changed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RulesChange {
    /// The version the log was recorded under.
    pub recorded: u32,
    /// The version this build implements (what the report above used).
    pub current: u32,
    /// Whether this build can still replay the recorded version (`rules` interpretation).
    pub reproducible: bool,
    /// Whether the findings or final state differ between the two versions (`None` when
    /// the old version cannot be reproduced).
    pub outcome_changed: Option<bool>,
    /// One sentence for people, naming the diff command that shows where.
    pub summary: String,
}

/// One finding, in log order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Finding {
    /// A rule the record breaks.
    Violation(ViolationView),
    /// An effect of the record the engine could not check.
    Unverified(UnverifiedView),
    /// A record a later one retracted; replay skipped it (reported when the retraction is
    /// reached).
    Retracted(RetractedView),
    /// A finding that may follow from an earlier unverified effect: shown, never counted as
    /// a violation, so it never changes the exit status.
    Uncertain(UncertainView),
}

impl Finding {
    /// The record the finding is about.
    pub fn record(&self) -> &RecordView {
        match self {
            Finding::Violation(v) => &v.record,
            Finding::Unverified(u) => &u.record,
            Finding::Retracted(r) => &r.record,
            Finding::Uncertain(u) => &u.finding.record,
        }
    }
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Finding::Violation(v) => write!(f, "{v}"),
            Finding::Unverified(u) => write!(f, "{u}"),
            Finding::Retracted(r) => {
                writeln!(f, "record {} retracted by record {} (skipped by replay)", r.record, r.by)
            }
            Finding::Uncertain(u) => write!(f, "{u}"),
        }
    }
}

/// How many violations broke one rule.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RuleCount {
    pub rule: String,
    pub count: u64,
}

/// The counts of a verify, whatever was shown.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Summary {
    pub violations: u64,
    pub unverified: u64,
    pub retracted: u64,
    /// Findings that may follow from an unverified effect (not violations).
    pub uncertain: u64,
    /// Findings reported one by one.
    pub shown: u64,
    /// Findings past `--max-findings`, counted here only.
    pub omitted: u64,
    /// Violations per rule id, most frequent first.
    pub by_rule: Vec<RuleCount>,
}

/// The verdict on a whole log. Its JSON form is `schemas/verify.json`.
///
/// Fields, in the order they serialize: `source` (as typed), `game`, `title`, `setup`
/// (`name=value ...`, every parameter with defaults filled in), `interpretations` (those
/// differing from their default), `rules_version` (the version this build replayed it
/// under), `findings` (violations, unverified effects and retracted records in log order,
/// each with a `kind`; at most `--max-findings`), `records` (records read, retractions
/// included), `total` (records in the log: more than `records` when replay stopped early),
/// `error` (the record replay stopped at), `incomplete` (the consequences still
/// owed at the end), `completed` (`--derive`), `rules_change`, `final_facts`,
/// `final_digest`, `summary` and `exit_code`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerifyReport {
    pub source: String,
    pub game: String,
    pub title: Option<String>,
    pub setup: String,
    pub interpretations: Vec<String>,
    pub rules_version: u32,
    /// The findings kept: all of them (up to `max_findings`) from [`verify`], none from
    /// [`verify_streaming`], which hands them to its sink instead.
    pub findings: Vec<Finding>,
    pub records: u64,
    /// Records in the whole log: more than `records` when replay stopped at a record that
    /// cannot be applied (the rest were not checked).
    pub total: u64,
    pub error: Option<StepErrorView>,
    pub incomplete: Option<IncompleteView>,
    pub completed: Option<String>,
    pub rules_change: Option<RulesChange>,
    pub final_facts: Vec<Fact>,
    /// Hex SHA-256 of the final state (empty under `skip_final_facts`, see there).
    pub final_digest: String,
    pub summary: Summary,
    /// 0 clean; 1 violations, an unapplicable record, or (`--strict`) an incomplete log.
    pub exit_code: i32,
    /// The setup parameters that differ from their defaults (`name=value ...`): what the
    /// head line shows people (JSON has the whole `setup`).
    pub setup_changed: String,
}

impl VerifyReport {
    /// Whether nothing is wrong: no violation and no unapplicable record.
    pub fn is_clean(&self) -> bool {
        self.summary.violations == 0 && self.error.is_none()
    }

    /// The violations kept.
    pub fn violations(&self) -> Vec<&ViolationView> {
        self.findings
            .iter()
            .filter_map(|f| if let Finding::Violation(v) = f { Some(v) } else { None })
            .collect()
    }

    /// The unverified effects kept.
    pub fn unverified(&self) -> Vec<&UnverifiedView> {
        self.findings
            .iter()
            .filter_map(|f| if let Finding::Unverified(u) = f { Some(u) } else { None })
            .collect()
    }

    /// The uncertain findings kept.
    pub fn uncertain(&self) -> Vec<&UncertainView> {
        self.findings
            .iter()
            .filter_map(|f| if let Finding::Uncertain(u) = f { Some(u) } else { None })
            .collect()
    }

    /// The retracted records kept.
    pub fn retracted(&self) -> Vec<&RetractedView> {
        self.findings
            .iter()
            .filter_map(|f| if let Finding::Retracted(r) = f { Some(r) } else { None })
            .collect()
    }

    fn head_fields<S: SerializeStruct>(&self, s: &mut S) -> Result<(), S::Error> {
        s.serialize_field("source", &self.source)?;
        s.serialize_field("game", &self.game)?;
        s.serialize_field("title", &self.title)?;
        s.serialize_field("setup", &self.setup)?;
        s.serialize_field("interpretations", &self.interpretations)?;
        s.serialize_field("rules_version", &self.rules_version)
    }

    fn tail_fields<S: SerializeStruct>(&self, s: &mut S) -> Result<(), S::Error> {
        s.serialize_field("records", &self.records)?;
        s.serialize_field("total", &self.total)?;
        s.serialize_field("error", &self.error)?;
        s.serialize_field("incomplete", &self.incomplete)?;
        s.serialize_field("completed", &self.completed)?;
        s.serialize_field("rules_change", &self.rules_change)?;
        s.serialize_field("final_facts", &self.final_facts)?;
        s.serialize_field("final_digest", &self.final_digest)?;
        s.serialize_field("summary", &self.summary)?;
        s.serialize_field("exit_code", &self.exit_code)
    }

    /// The JSON text before the findings: `{"source":...,"findings":[`. With
    /// [`Self::json_tail`] and the findings (compact, comma-separated) between them it makes
    /// exactly the JSON document the report serializes to, so `--json` can stream.
    pub fn json_head(&self) -> String {
        let text = serde_json::to_string(&Part(self, true)).unwrap_or_default();
        format!("{},\"findings\":[", text.strip_suffix('}').unwrap_or(&text))
    }

    /// The JSON text after the findings: `],"records":...}`.
    pub fn json_tail(&self) -> String {
        let text = serde_json::to_string(&Part(self, false)).unwrap_or_default();
        format!("],{}", text.strip_prefix('{').unwrap_or(&text))
    }

    /// The lines printed before the findings.
    pub fn head_text(&self) -> String {
        // The number of records is not known yet when this is printed (the report streams);
        // the closing line gives it.
        let mut out = format!("{}: {} (rules version {}", self.source, self.game, self.rules_version);
        if !self.setup_changed.is_empty() {
            out.push_str(&format!(", setup {}", self.setup_changed));
        }
        out.push_str(")\n");
        if !self.interpretations.is_empty() {
            out.push_str(&format!("interpretations: {}\n", self.interpretations.join(" ")));
        }
        out
    }

    /// The lines printed after the findings.
    pub fn tail_text(&self) -> String {
        let mut out = String::new();
        if let Some(e) = &self.error {
            out.push_str(&format!("{e}\n"));
        }
        if let Some(i) = &self.incomplete {
            out.push_str(&i.to_string());
        }
        if let Some(c) = &self.completed {
            out.push_str("completed log:\n");
            out.push_str(c);
        }
        if let Some(change) = &self.rules_change {
            out.push_str(&format!("rules: {}\n", change.summary));
        }
        let s = &self.summary;
        if s.omitted > 0 || s.violations >= 10 {
            out.push_str("violations by rule:\n");
            for r in &s.by_rule {
                out.push_str(&format!("  {:>8}  {}\n", r.count, r.rule));
            }
        }
        if s.omitted > 0 {
            out.push_str(&format!(
                "{} finding(s) shown, {} more not shown (--max-findings)\n",
                s.shown, s.omitted
            ));
        }
        if self.is_clean() {
            out.push_str(&format!("clean: no violation in {} records", self.records));
            if s.uncertain > 0 {
                out.push_str(&format!(
                    " ({} uncertain finding(s) after unverified effects, not counted)",
                    s.uncertain
                ));
            }
            if self.incomplete.is_some() {
                out.push_str(", but the log is incomplete");
            }
            out.push('\n');
        } else {
            match &self.error {
                None => out.push_str(&format!("{} violation(s) in {} records\n", s.violations, self.records)),
                Some(e) if self.total > self.records => out.push_str(&format!(
                    "{} violation(s) in the first {} of {} records: replay stopped at #{}, which cannot be applied; the {} record(s) after it were not checked\n",
                    s.violations,
                    self.records,
                    self.total,
                    e.record.index,
                    self.total - self.records
                )),
                Some(e) => out.push_str(&format!(
                    "{} violation(s) in {} records: replay stopped at the last, #{}, which cannot be applied\n",
                    s.violations, self.records, e.record.index
                )),
            }
        }
        out
    }
}

/// The head (`true`) or tail fields of a report, for streaming its JSON.
struct Part<'r>(&'r VerifyReport, bool);

impl Serialize for Part<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("VerifyReport", 9)?;
        if self.1 {
            self.0.head_fields(&mut s)?;
        } else {
            self.0.tail_fields(&mut s)?;
        }
        s.end()
    }
}

impl Serialize for VerifyReport {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("VerifyReport", 16)?;
        self.head_fields(&mut s)?;
        s.serialize_field("findings", &self.findings)?;
        self.tail_fields(&mut s)?;
        s.end()
    }
}

impl fmt::Display for VerifyReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.head_text())?;
        for finding in &self.findings {
            write!(f, "{finding}")?;
        }
        f.write_str(&self.tail_text())
    }
}

/// Where a verify sends its findings as it finds them.
pub trait FindingSink {
    /// Called once before any finding, with the head fields (`source` .. `rules_version`)
    /// of the report set; `records` is not known yet.
    fn head(&mut self, report: &VerifyReport) -> Result<(), VerifyError>;
    /// One finding, in log order.
    fn finding(&mut self, finding: &Finding) -> Result<(), VerifyError>;
    /// One finding, handed over rather than lent: a sink that keeps its findings takes it
    /// as it is instead of copying it. The verify loops call this one; by default it lends
    /// the finding to [`Self::finding`].
    fn take(&mut self, finding: Finding) -> Result<(), VerifyError> {
        self.finding(&finding)
    }
}

/// A sink that keeps every finding it is given.
#[derive(Default)]
struct Keep(Vec<Finding>);

impl FindingSink for Keep {
    fn head(&mut self, _report: &VerifyReport) -> Result<(), VerifyError> {
        Ok(())
    }
    fn finding(&mut self, finding: &Finding) -> Result<(), VerifyError> {
        self.take(finding.clone())
    }
    fn take(&mut self, finding: Finding) -> Result<(), VerifyError> {
        self.0.push(finding);
        Ok(())
    }
}

/// Verify a whole log, keeping its findings in the report.
pub fn verify<R: Games>(
    ctx: &Context<'_, R>,
    source: &Source,
    options: &VerifyOptions,
) -> Result<VerifyReport, VerifyError> {
    let mut keep = Keep::default();
    let mut report = verify_streaming(ctx, source, options, &mut keep)?;
    report.findings = keep.0;
    Ok(report)
}

/// Verify a whole log, handing each finding to `sink` as it is found; the report returned
/// has no findings, only their counts.
pub fn verify_streaming<R: Games>(
    ctx: &Context<'_, R>,
    source: &Source,
    options: &VerifyOptions,
    sink: &mut dyn FindingSink,
) -> Result<VerifyReport, VerifyError> {
    with_game(ctx, source, Work { ctx, source, options, sink })
}

struct Work<'c, 'a, R: Games> {
    ctx: &'c Context<'a, R>,
    source: &'c Source,
    options: &'c VerifyOptions,
    sink: &'c mut dyn FindingSink,
}

impl<'c, 'a, R: Games> WithGame<'a> for Work<'c, 'a, R> {
    type Output = VerifyReport;
    fn run<G: Game>(self, peeked: Peeked) -> Result<VerifyReport, VerifyError> {
        let recorded_version = peeked.header().rules_version;
        let current = G::info().rules_version;
        // The digest is compared with the older rules version's when they differ.
        let digest = !self.options.skip_final_facts || recorded_version.is_some_and(|v| v != current);
        let (mut report, keys) = run_one::<G>(self.source, peeked, self.options, self.sink, digest)?;
        report.total = match &report.error {
            None => report.records,
            // Counting is best effort: a file whose unread rest does not even read as records
            // still gets the report of what was checked.
            Some(_) => total_records(self.ctx, self.source).unwrap_or(0).max(report.records),
        };
        if let Some(old) = recorded_version.filter(|v| *v != current) {
            report.rules_change = Some(rules_change::<R, G>(self.ctx, self.source, old, &report, keys)?);
        }
        Ok(report)
    }
}

/// The number of records in a whole log (a session's length, or a file's records counted
/// syntax only): what a replay that stopped early did not reach.
fn total_records<R: Games>(ctx: &Context<'_, R>, source: &Source) -> Result<u64, VerifyError> {
    match &source.origin {
        crate::source::Origin::Session(name) => {
            crate::session::journal(ctx, name)?.len(name).map_err(crate::session::from_journal)
        }
        crate::source::Origin::File(path) => crate::logfile::count_records(path),
    }
}

/// A sink that drops everything: the second replay of a rules-version comparison.
struct Discard;

impl FindingSink for Discard {
    fn head(&mut self, _report: &VerifyReport) -> Result<(), VerifyError> {
        Ok(())
    }
    fn finding(&mut self, _finding: &Finding) -> Result<(), VerifyError> {
        Ok(())
    }
}

/// Replay `source` under `rules=old` as well and compare the outcomes.
fn rules_change<R: Games, G: Game>(
    ctx: &Context<'_, R>,
    source: &Source,
    old: u32,
    now: &VerifyReport,
    now_keys: u64,
) -> Result<RulesChange, VerifyError> {
    let current = G::info().rules_version;
    let declared = G::params().iter().find(|p| p.name == "rules");
    let reproducible = declared.is_some_and(|p| {
        p.allowed.is_empty() || p.allowed[0].starts_with('<') || p.allowed.contains(&old.to_string().as_str())
    });
    if !reproducible {
        return Ok(RulesChange {
            recorded: old,
            current,
            reproducible: false,
            outcome_changed: None,
            summary: format!(
                "recorded under rules version {old}, replayed under version {current}; this build cannot replay version {old}, so whether the outcome changed is unknown"
            ),
        });
    }
    let old_source = source.clone().with_variant("rules", &old.to_string());
    let peeked = crate::open::peek(ctx, &old_source)?;
    let options = VerifyOptions { skip_final_facts: true, max_findings: Some(0), ..VerifyOptions::default() };
    let (then, then_keys) = run_one::<G>(&old_source, peeked, &options, &mut Discard, true)?;
    // The violations are compared by a hash of their (record, rule) sequence, so that the
    // comparison holds no more than the reports do.
    let changed = then_keys != now_keys || then.final_digest != now.final_digest || then.error != now.error;
    let summary = if changed {
        format!(
            "recorded under rules version {old}, replayed under version {current}: the outcome changes ({} violation(s) under version {old}, {} now); `arbiter diff {old_source} {source}` shows where",
            then.summary.violations, now.summary.violations
        )
    } else {
        format!(
            "recorded under rules version {old}, replayed under version {current}: the outcome is the same"
        )
    };
    Ok(RulesChange { recorded: old, current, reproducible: true, outcome_changed: Some(changed), summary })
}

/// The record whose findings an [`Emitter`] is showing. Its view (the notation printed) is
/// built only when a first finding is shown, and the event's last finding takes it: most
/// records with findings have exactly one, which then costs no copy of the notation.
struct RecordSlot<'e, E> {
    index: u64,
    line: Option<usize>,
    event: &'e E,
    view: Option<RecordView>,
    /// The event's findings not yet given a view, shown or not.
    left: usize,
}

impl<E: fmt::Display> RecordSlot<'_, E> {
    /// The view for the next finding shown.
    fn next(&mut self) -> RecordView {
        self.left -= 1;
        let view = self.view.take().unwrap_or_else(|| RecordView::event(self.index, self.line, self.event));
        if self.left > 0 {
            self.view = Some(view.clone());
        }
        view
    }
}

/// Counts findings, hands the first `max` to the sink, and remembers what a comparison
/// needs.
struct Emitter<'s> {
    sink: &'s mut dyn FindingSink,
    max: u64,
    summary: Summary,
    by_rule: BTreeMap<&'static str, u64>,
    /// A hash of every violation's (record, rule), for comparing two replays.
    keys: DefaultHasher,
    /// Retracted records waiting for the record that retracts them.
    waiting: Vec<RecordView>,
    /// The record of every unverified effect so far, in order: an uncertain finding names
    /// the effect it may follow from by its position here.
    unverified_at: Vec<u64>,
}

impl<'s> Emitter<'s> {
    fn room(&self) -> bool {
        self.summary.shown < self.max
    }

    fn send(&mut self, finding: Finding) -> Result<(), VerifyError> {
        self.summary.shown += 1;
        self.sink.take(finding)
    }

    /// The findings of one stepped event. Views are built only for findings that are shown.
    /// The effects' texts are moved out of `f`, which the caller clears after the event.
    fn findings<G: Game>(
        &mut self,
        index: u64,
        line: Option<usize>,
        event: &G::Event,
        f: &mut Findings,
    ) -> Result<(), VerifyError> {
        let mut record = RecordSlot {
            index,
            line,
            event,
            view: None,
            left: f.violations.len() + f.unverified.len() + f.uncertain.len(),
        };
        for v in &f.violations {
            self.summary.violations += 1;
            *self.by_rule.entry(v.rule).or_default() += 1;
            (index, v.rule).hash(&mut self.keys);
            if self.room() {
                let view = ViolationView::of::<G>(record.next(), v);
                self.send(Finding::Violation(view))?;
            } else {
                self.summary.omitted += 1;
            }
        }
        for u in &mut f.unverified {
            self.summary.unverified += 1;
            self.unverified_at.push(index);
            if self.room() {
                let view = UnverifiedView { record: record.next(), effect: std::mem::take(u) };
                self.send(Finding::Unverified(view))?;
            } else {
                self.summary.omitted += 1;
            }
        }
        for v in &f.uncertain {
            self.summary.uncertain += 1;
            if self.room() {
                let view = uncertain_view::<G>(record.next(), v, &self.unverified_at);
                self.send(Finding::Uncertain(view))?;
            } else {
                self.summary.omitted += 1;
            }
        }
        Ok(())
    }

    /// A record that a later one retracts, reached by replay (and skipped).
    fn will_be_retracted(&mut self, record: RecordView) {
        self.waiting.push(record);
    }

    /// The retraction of `target` by record `by`.
    fn retraction(&mut self, target: u64, by: u64) -> Result<(), VerifyError> {
        let Some(pos) = self.waiting.iter().position(|r| r.index == target) else { return Ok(()) };
        let record = self.waiting.swap_remove(pos);
        self.summary.retracted += 1;
        if self.room() {
            self.send(Finding::Retracted(RetractedView { record, by }))
        } else {
            self.summary.omitted += 1;
            Ok(())
        }
    }

    fn finish(mut self) -> (Summary, u64) {
        let mut by_rule: Vec<RuleCount> = self
            .by_rule
            .iter()
            .map(|(rule, count)| RuleCount { rule: rule.to_string(), count: *count })
            .collect();
        by_rule.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.rule.cmp(&b.rule)));
        self.summary.by_rule = by_rule;
        (self.summary, self.keys.finish())
    }
}

fn run_one<G: Game>(
    source: &Source,
    peeked: Peeked,
    options: &VerifyOptions,
    sink: &mut dyn FindingSink,
    digest: bool,
) -> Result<(VerifyReport, u64), VerifyError> {
    // The overrides this run replays under, in the order they apply: what `--derive` writes
    // back as `@variant` lines so the completed log replays the same way.
    let mut overrides = match &peeked {
        Peeked::File(file) => file.variants.clone(),
        Peeked::Session(..) => Vec::new(),
    };
    overrides.extend(source.variants.iter().cloned());
    overrides.extend(options.variants.iter().cloned());
    let opened = open::<G>(source, peeked, &options.variants)?;
    let described = describe_setup(&opened.game);
    let mut report = VerifyReport {
        source: source.to_string(),
        game: G::info().id.to_string(),
        title: opened.header.title.clone(),
        setup: described.setup,
        interpretations: described.interpretations,
        rules_version: G::info().rules_version,
        findings: Vec::new(),
        records: 0,
        total: 0,
        error: None,
        incomplete: None,
        completed: None,
        rules_change: None,
        final_facts: Vec::new(),
        final_digest: String::new(),
        summary: Summary::default(),
        exit_code: 0,
        setup_changed: described.changed,
    };
    sink.head(&report)?;
    let mut emitter = Emitter {
        sink,
        max: options.max_findings.unwrap_or(u64::MAX),
        summary: Summary::default(),
        by_rule: BTreeMap::new(),
        keys: DefaultHasher::new(),
        waiting: Vec::new(),
        unverified_at: Vec::new(),
    };
    if options.derive {
        completing(opened, &mut report, &mut emitter, options, &overrides, digest)?;
    } else {
        checking(opened, &mut report, &mut emitter, options, digest)?;
    }
    let (summary, keys) = emitter.finish();
    report.summary = summary;
    let failed = !report.is_clean() || (options.strict && report.incomplete.is_some());
    report.exit_code = i32::from(failed);
    Ok((report, keys))
}

/// The plain verify loop (no derived consequences): step every record in place and build
/// views only for the records the report shows. This is `arbiter verify SESSION`'s and
/// `arbiter verify FILE`'s hot path, so it does not go through [`Replayer`], whose
/// per-record `Stepped` values (an owned event and a fresh `Findings` each) cost about as
/// much as the step itself. It must report exactly what the `Replayer` loop in
/// [`completing`] reports for the same log.
fn checking<G: Game>(
    opened: Opened<G>,
    report: &mut VerifyReport,
    emitter: &mut Emitter<'_>,
    options: &VerifyOptions,
    digest: bool,
) -> Result<(), VerifyError> {
    let Opened { game, retracted, records, .. } = opened;
    let mut check = Check {
        game: &game,
        retracted: &retracted,
        // Most logs retract nothing: skip the set lookup for every record then.
        any_retracted: !retracted.is_empty(),
        state: game.initial_state(),
        findings: Findings::default(),
    };
    // The loop is compiled once for a session's stream and once for a file's, and each
    // hands the check its event by reference where it was decoded or parsed.
    match records {
        RecordStream::Session(events) => {
            for item in events {
                let (index, record) = item.map_err(crate::session::from_journal)?;
                let go_on = match &record {
                    arbiter_journal::Record::Event(e) => check.event(index, None, e, report, emitter)?,
                    arbiter_journal::Record::Retract(target) => {
                        check.retraction(*target, index, report, emitter)?
                    }
                };
                if !go_on {
                    break;
                }
            }
        }
        RecordStream::File(mut file) => file.each(|index, line, body| match body {
            Body::Event(e) => check.event(index, Some(line), e, report, emitter),
            Body::Retract(target) => check.retraction(*target, index, report, emitter),
        })?,
    }
    finish::<G>(&game, &check.state, report, options, digest);
    Ok(())
}

/// The state of the plain verify loop.
struct Check<'g, G: Game> {
    game: &'g G,
    retracted: &'g Retracted,
    any_retracted: bool,
    state: G::State,
    /// Empty between records: it is cleared after every record that filled it, so a clean
    /// record (the common case) pays nothing for it.
    findings: Findings,
}

impl<G: Game> Check<'_, G> {
    /// A retraction record.
    #[inline]
    fn retraction(
        &mut self,
        target: u64,
        index: u64,
        report: &mut VerifyReport,
        emitter: &mut Emitter<'_>,
    ) -> Result<bool, VerifyError> {
        report.records += 1;
        emitter.retraction(target, index)?;
        Ok(true)
    }

    /// Check one event; `false` when replay stops here (a record that cannot be applied).
    /// Always inlined: compiled as a call in one build of the session loop, it cost that
    /// loop about 50 instructions per event (its frame, and the state reached through
    /// `self` rather than kept in registers).
    #[inline(always)]
    fn event(
        &mut self,
        index: u64,
        line: Option<usize>,
        event: &G::Event,
        report: &mut VerifyReport,
        emitter: &mut Emitter<'_>,
    ) -> Result<bool, VerifyError> {
        report.records += 1;
        if self.any_retracted && self.retracted.contains(index) {
            emitter.will_be_retracted(RecordView::event(index, line, event));
            return Ok(true);
        }
        match self.game.step(&mut self.state, event, &mut self.findings) {
            Ok(()) => {
                if !self.findings.is_empty() {
                    emitter.findings::<G>(index, line, event, &mut self.findings)?;
                    self.findings.clear();
                }
                Ok(true)
            }
            Err(e) => {
                // Replay stops at a record that cannot be applied.
                report.error = Some(step_error_view(index, line, event, &e));
                Ok(false)
            }
        }
    }
}

/// What every loop reports about the final state.
fn finish<G: Game>(
    game: &G,
    state: &G::State,
    report: &mut VerifyReport,
    options: &VerifyOptions,
    digest: bool,
) {
    if report.error.is_none() {
        report.incomplete = IncompleteView::of(game, state, report.records);
    }
    if !options.skip_final_facts {
        report.final_facts = crate::report::facts_of(game, state);
    }
    if digest {
        report.final_digest = crate::report::digest_of(state);
    }
}

/// The loop of `--derive`: the [`Replayer`] inserts the consequences the rules derive, and
/// every record, read or derived, is printed into the completed log.
fn completing<G: Game>(
    opened: Opened<G>,
    report: &mut VerifyReport,
    emitter: &mut Emitter<'_>,
    options: &VerifyOptions,
    overrides: &[(String, String)],
    digest: bool,
) -> Result<(), VerifyError> {
    let (header, variants) = crate::transfer::split_interpretations::<G>(opened.header.clone(), overrides);
    let mut replay = Replayer::new(opened);
    replay.derive = true;
    let mut completed = String::new();
    while let Some(step) = replay.step() {
        let mut step = step?;
        if !step.derived {
            report.records += 1;
        }
        completed.push_str(&step.notation());
        if step.derived {
            completed.push_str("   # derived");
        }
        completed.push('\n');
        match (&mut step.outcome, &step.event) {
            (Outcome::Retracted, _) => emitter.will_be_retracted(RecordView::of(&step)),
            (Outcome::Retraction(target), _) => emitter.retraction(*target, step.index)?,
            (Outcome::Applied(f), Some(event)) => emitter.findings::<G>(step.index, step.line, event, f)?,
            (Outcome::Failed(e), Some(event)) => {
                report.error = Some(step_error_view(step.index, step.line, event, e));
            }
            _ => {}
        }
    }
    finish::<G>(replay.game(), &replay.state, report, options, digest);
    let mut head = crate::logfile::header_to_notation(&header);
    for (name, value) in &variants {
        head.push_str(&format!("@variant {name}={value}\n"));
    }
    report.completed = Some(format!("{head}{completed}"));
    Ok(())
}
