//! `arbiter verify`: every finding of a whole log, and the completed log on request.

use crate::error::VerifyError;
use crate::open::{describe_setup, open, with_game, Body, Opened, Peeked, Record, RecordStream, WithGame};
use crate::replay::{Outcome, Replayer};
use crate::report::{
    findings_views, step_error_view, views_of, Fact, RecordView, RetractedView, StepErrorView, UncertainView,
    UnverifiedView, ViolationView,
};
use crate::source::Source;
use crate::{Context, Games};
use arbiter_engine::{Findings, Game};
use serde::Serialize;
use std::collections::BTreeSet;
use std::fmt;

/// How to verify.
#[derive(Debug, Clone, Default)]
pub struct VerifyOptions {
    /// `--variant NAME=VALUE` overrides, applied after the source's own.
    pub variants: Vec<(String, String)>,
    /// Complete the log: insert the consequences the rules derive (`next_consequence`)
    /// before each decision or random outcome and at the end, and print the completed log.
    pub derive: bool,
    /// Leave `final_facts` empty: `arbiter verify` prints no facts unless asked for JSON,
    /// and building them is most of what a short session costs beyond stepping it.
    pub skip_final_facts: bool,
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

/// The verdict on a whole log.
///
/// JSON schema (`arbiter verify --json`): an object with `source` (string), `game`,
/// `title` (string or null), `setup` (string `name=value ...`), `interpretations` (array of
/// `name=value` differing from their default), `rules_version` (number), `records` (number
/// of records read), `violations` (array of `{record:{index,line,notation}, rule, text,
/// section, message, expected, recorded}`), `unverified` (array of `{record, effect}`),
/// `uncertain` (array of `{finding, after, after_record}`: findings that may follow from
/// the unverified effect numbered `after`, reported at record `after_record`; never counted),
/// `retracted` (array of `{record, by}`), `error` (null or `{record, rule, message}`: the
/// record replay stopped at), `completed` (null or the completed log as notation),
/// `rules_change` (null or a [`RulesChange`]), `final_facts` (array of `{key, value}`; empty when `skip_final_facts`), `final_digest`
/// (hex SHA-256 of the final state) and
/// `exit_code` (0 clean, 1 violations or an unapplicable record).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct VerifyReport {
    pub source: String,
    pub game: String,
    pub title: Option<String>,
    pub setup: String,
    pub interpretations: Vec<String>,
    pub rules_version: u32,
    pub records: u64,
    pub violations: Vec<ViolationView>,
    pub unverified: Vec<UnverifiedView>,
    /// Findings that may follow from an unverified effect: shown, not counted (exit 0 when
    /// they are all there is).
    pub uncertain: Vec<UncertainView>,
    pub retracted: Vec<RetractedView>,
    pub error: Option<StepErrorView>,
    pub completed: Option<String>,
    pub rules_change: Option<RulesChange>,
    pub final_facts: Vec<Fact>,
    /// Hex SHA-256 of the final state (always set).
    pub final_digest: String,
    pub exit_code: i32,
}

impl VerifyReport {
    /// Whether nothing is wrong: no violation and no unapplicable record.
    pub fn is_clean(&self) -> bool {
        self.violations.is_empty() && self.error.is_none()
    }
}

/// Verify a whole log.
pub fn verify<R: Games>(
    ctx: &Context<'_, R>,
    source: &Source,
    options: &VerifyOptions,
) -> Result<VerifyReport, VerifyError> {
    with_game(ctx, source, Work { ctx, source, options })
}

struct Work<'c, 'a, R: Games> {
    ctx: &'c Context<'a, R>,
    source: &'c Source,
    options: &'c VerifyOptions,
}

impl<'c, 'a, R: Games> WithGame<'a> for Work<'c, 'a, R> {
    type Output = VerifyReport;
    fn run<G: Game>(self, peeked: Peeked) -> Result<VerifyReport, VerifyError> {
        let recorded_version = peeked.header().rules_version;
        let current = G::info().rules_version;
        let mut report = run_one::<G>(self.source, peeked, self.options)?;
        if let Some(old) = recorded_version.filter(|v| *v != current) {
            report.rules_change = Some(rules_change::<R, G>(self.ctx, self.source, old, &report)?);
        }
        Ok(report)
    }
}

/// Replay `source` under `rules=old` as well and compare the outcomes.
fn rules_change<R: Games, G: Game>(
    ctx: &Context<'_, R>,
    source: &Source,
    old: u32,
    now: &VerifyReport,
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
    let then = run_one::<G>(&old_source, peeked, &VerifyOptions::default())?;
    let key = |r: &VerifyReport| -> Vec<(u64, String)> {
        r.violations.iter().map(|v| (v.record.index, v.rule.clone())).collect()
    };
    let changed = key(&then) != key(now) || then.final_digest != now.final_digest || then.error != now.error;
    let summary = if changed {
        format!(
            "recorded under rules version {old}, replayed under version {current}: the outcome changes ({} violation(s) under version {old}, {} now); `arbiter diff {old_source} {source}` shows where",
            then.violations.len(),
            now.violations.len()
        )
    } else {
        format!(
            "recorded under rules version {old}, replayed under version {current}: the outcome is the same"
        )
    };
    Ok(RulesChange { recorded: old, current, reproducible: true, outcome_changed: Some(changed), summary })
}

fn run_one<G: Game>(
    source: &Source,
    peeked: Peeked,
    options: &VerifyOptions,
) -> Result<VerifyReport, VerifyError> {
    let opened = open::<G>(source, peeked, &options.variants)?;
    let (setup, interpretations) = describe_setup(&opened.game);
    let mut report = VerifyReport {
        source: source.to_string(),
        game: G::info().id.to_string(),
        title: opened.header.title.clone(),
        setup,
        interpretations,
        rules_version: G::info().rules_version,
        records: 0,
        violations: Vec::new(),
        unverified: Vec::new(),
        uncertain: Vec::new(),
        retracted: Vec::new(),
        error: None,
        completed: None,
        rules_change: None,
        final_facts: Vec::new(),
        final_digest: String::new(),
        exit_code: 0,
    };
    if options.derive {
        completing(opened, &mut report, options)?;
    } else {
        checking(opened, &mut report, options)?;
    }
    report.exit_code = if report.is_clean() { 0 } else { 1 };
    Ok(report)
}

/// The plain verify loop (no derived consequences): step every record in place and build
/// views only for the records the report shows. This is `arbiter verify SESSION`'s hot path,
/// so it does not go through [`Replayer`], whose per-record `Stepped` values (an owned event
/// and a fresh `Findings` each) cost about as much as the step itself. It must report
/// exactly what the `Replayer` loop in [`completing`] reports for the same log.
fn checking<G: Game>(
    opened: Opened<'_, G>,
    report: &mut VerifyReport,
    options: &VerifyOptions,
) -> Result<(), VerifyError> {
    let Opened { game, retracted, records, .. } = opened;
    // The loop is compiled once for a session's stream and once for the rest.
    match records {
        RecordStream::Session(events) => {
            check_records(&game, &retracted, events.map(crate::session::record), report, options)
        }
        records => check_records(&game, &retracted, records, report, options),
    }
}

fn check_records<G: Game>(
    game: &G,
    retracted: &BTreeSet<u64>,
    records: impl Iterator<Item = Result<Record<G::Event>, VerifyError>>,
    report: &mut VerifyReport,
    options: &VerifyOptions,
) -> Result<(), VerifyError> {
    let mut state = game.initial_state();
    let mut findings = Findings::default();
    // Most logs retract nothing: skip the set lookup for every record then.
    let any_retracted = !retracted.is_empty();
    let mut retracted_records: Vec<RecordView> = Vec::new();
    for record in records {
        let record = record?;
        report.records += 1;
        let event = match record.body {
            Body::Retract(target) => {
                if let Some(pos) = retracted_records.iter().position(|r| r.index == target) {
                    let retracted_record = retracted_records.remove(pos);
                    report.retracted.push(RetractedView { record: retracted_record, by: record.index });
                }
                continue;
            }
            Body::Event(e) => e,
        };
        if any_retracted && retracted.contains(&record.index) {
            retracted_records.push(RecordView {
                index: record.index,
                line: record.line,
                notation: event.to_string(),
            });
            continue;
        }
        // `findings` is empty here: it is cleared after every record that filled it, so a
        // clean record (the common case) pays nothing for it.
        match game.step(&mut state, &event, &mut findings) {
            Ok(()) => {
                // A clean record adds nothing to the report.
                if !findings.is_empty() {
                    findings_views::<G>(
                        record.index,
                        record.line,
                        &event,
                        &findings,
                        &mut report.violations,
                        &mut report.unverified,
                        &mut report.uncertain,
                    );
                    findings.clear();
                }
            }
            Err(e) => {
                // Replay stops at a record that cannot be applied.
                report.error = Some(step_error_view(record.index, record.line, &event, &e));
                break;
            }
        }
    }
    if !options.skip_final_facts {
        report.final_facts = crate::report::facts_of(game, &state);
    }
    report.final_digest = crate::report::digest_of(&state);
    Ok(())
}

/// The loop of `--derive`: the [`Replayer`] inserts the consequences the rules derive, and
/// every record, read or derived, is printed into the completed log.
fn completing<G: Game>(
    opened: Opened<'_, G>,
    report: &mut VerifyReport,
    options: &VerifyOptions,
) -> Result<(), VerifyError> {
    let header = opened.header.clone();
    let mut replay = Replayer::new(opened);
    replay.derive = true;
    let mut completed = String::new();
    let mut retracted_records: Vec<RecordView> = Vec::new();
    while let Some(step) = replay.step() {
        let step = step?;
        if !step.derived {
            report.records += 1;
        }
        completed.push_str(&step.notation());
        if step.derived {
            completed.push_str("   # derived");
        }
        completed.push('\n');
        match &step.outcome {
            Outcome::Retracted => retracted_records.push(RecordView::of(&step)),
            Outcome::Retraction(target) => {
                if let Some(pos) = retracted_records.iter().position(|r| r.index == *target) {
                    let record = retracted_records.remove(pos);
                    report.retracted.push(RetractedView { record, by: step.index });
                }
            }
            _ => {}
        }
        // A clean record (the common case) adds nothing to the report.
        if matches!(&step.outcome, Outcome::Applied(f) if f.is_empty()) {
            continue;
        }
        let views = views_of::<G>(&step);
        report.violations.extend(views.violations);
        report.unverified.extend(views.unverified);
        for mut u in views.uncertain {
            u.after_record = report.unverified.get(u.after as usize).map(|v| v.record.index);
            report.uncertain.push(u);
        }
        if views.error.is_some() {
            report.error = views.error;
        }
    }
    if !options.skip_final_facts {
        report.final_facts = crate::report::facts_of(replay.game(), &replay.state);
    }
    report.final_digest = crate::report::digest_of(&replay.state);
    report.completed = Some(format!("{}{completed}", crate::logfile::header_to_notation(&header)));
    Ok(())
}

impl fmt::Display for VerifyReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {} ({} records", self.source, self.game, self.records)?;
        if !self.setup.is_empty() {
            write!(f, ", setup {}", self.setup)?;
        }
        writeln!(f, ", rules version {})", self.rules_version)?;
        if !self.interpretations.is_empty() {
            writeln!(f, "interpretations: {}", self.interpretations.join(" "))?;
        }
        if let Some(change) = &self.rules_change {
            writeln!(f, "rules: {}", change.summary)?;
        }
        for r in &self.retracted {
            writeln!(f, "record {} retracted by record {} (skipped by replay)", r.record, r.by)?;
        }
        for v in &self.violations {
            write!(f, "{v}")?;
        }
        for u in &self.unverified {
            write!(f, "{u}")?;
        }
        for u in &self.uncertain {
            write!(f, "{u}")?;
        }
        if let Some(e) = &self.error {
            writeln!(f, "{e}")?;
        }
        if let Some(c) = &self.completed {
            writeln!(f, "completed log:")?;
            f.write_str(c)?;
        }
        if self.is_clean() && !self.uncertain.is_empty() {
            writeln!(
                f,
                "clean: no violation ({} uncertain finding(s) after unverified effects, not counted)",
                self.uncertain.len()
            )
        } else if self.is_clean() {
            writeln!(f, "clean: no violation")
        } else {
            writeln!(
                f,
                "{} violation(s){}",
                self.violations.len(),
                if self.error.is_some() { ", replay stopped at an unapplicable record" } else { "" }
            )
        }
    }
}
