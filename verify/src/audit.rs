//! `arbiter verify --all`: every session of a journal verified on all cores, summed up by rule
//! id, and compared with the verdicts of the previous audit.
//!
//! After a rules fix a league wants to know which of its stored sessions changed outcome.
//! Each session's [`Verdict`] is what the next audit compares with: its violations and
//! uncertain findings (a SHA-256 of every record and rule, so the same counts on other
//! records still differ), whether replay stopped or the log ends owing consequences, and its
//! outcome (a SHA-256 of its final facts). A session is compared only when it still holds the
//! records it held then (same length, same chain hash): one recorded on since changed for
//! that reason alone. A session recorded under an older rules version is also replayed under
//! `rules=N` where the game can (`VerifyReport::rules_change`).
//!
//! Where previous verdicts are kept is the caller's choice ([`Verdicts`] is plain serde
//! data); the command line keeps them in a file beside the database.

use crate::error::VerifyError;
use crate::session::{from_journal, journal};
use crate::source::Source;
use crate::verify::{
    verify_streaming, Finding, FindingSink, RuleCount, RulesChange, VerifyOptions, VerifyReport,
};
use crate::{Context, Games};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::fmt;

/// What an audit keeps of one session, for the next audit to compare with.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Verdict {
    pub game: String,
    /// Records the session held, and the chain hash after them (hex).
    pub records: u64,
    pub head: String,
    /// The rules version the session was replayed under (this build's, for its game).
    pub rules_version: u32,
    /// `clean`, `violations`, `unapplicable` (replay stopped at a record that cannot be
    /// applied) or `incomplete` (clean, but the log ends owing consequences).
    pub verdict: String,
    pub violations: u64,
    pub uncertain: u64,
    /// Violations per rule id.
    pub by_rule: BTreeMap<String, u64>,
    /// SHA-256 (hex) of every violation's and uncertain finding's record and rule, in order.
    pub findings: String,
    /// SHA-256 (hex) of the final facts: the outcome.
    pub outcome: String,
}

impl Verdict {
    /// The verdict in a few words: `clean`, `2 violation(s) (pg.x 2)`, ...
    pub fn short(&self) -> String {
        match self.verdict.as_str() {
            "violations" | "unapplicable" => {
                let rules: Vec<String> = self.by_rule.iter().map(|(r, n)| format!("{r} {n}")).collect();
                let stopped = if self.verdict == "unapplicable" { ", replay stopped" } else { "" };
                format!("{} violation(s){stopped} ({})", self.violations, rules.join(", ")).replace(" ()", "")
            }
            other => other.to_string(),
        }
    }
}

/// Previous verdicts by session name.
pub type Verdicts = BTreeMap<String, Verdict>;

/// How a session compares with its previous verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Comparison {
    /// No previous verdict (a new session, or the first audit).
    New,
    /// The same verdict and outcome on the same records.
    Same,
    /// The same records, another verdict or outcome: the rules (or their reading) changed it.
    Changed,
    /// The session holds other records than when it was last audited: not compared.
    Recorded,
}

/// One session's audit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SessionAudit {
    pub session: String,
    pub game: String,
    /// Its verdict now (`None` when it could not be verified at all; see `error`).
    pub verdict: Option<Verdict>,
    pub comparison: Comparison,
    /// What changed, one sentence each (`verdict: clean -> 1 violation(s) (...)`, `outcome:
    /// the final table differs`), for `changed` and for a rules-version change.
    pub changes: Vec<String>,
    /// The previous verdict, in a few words, when there is one.
    pub previous: Option<String>,
    /// The session was recorded under an older rules version: what replaying it under that
    /// version says.
    pub rules_change: Option<RulesChange>,
    /// Why the session could not be verified (a damaged or unreadable session).
    pub error: Option<String>,
    /// Whether this session fails the audit (changed, unusable, or with `strict` not clean).
    pub failed: bool,
}

impl SessionAudit {
    /// Whether its verdict or outcome changed, against the previous audit or under its old
    /// rules version.
    pub fn changed(&self) -> bool {
        self.comparison == Comparison::Changed
            || self.rules_change.as_ref().is_some_and(|c| c.outcome_changed == Some(true))
    }
}

/// The counts of an audit.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct AuditSummary {
    pub sessions: u64,
    pub clean: u64,
    /// Sessions with at least one violation (or a record that cannot be applied).
    pub with_violations: u64,
    /// Clean sessions that end owing consequences.
    pub incomplete: u64,
    /// Sessions that could not be verified.
    pub unusable: u64,
    /// Violations in all sessions, and per rule id (most frequent first).
    pub violations: u64,
    pub by_rule: Vec<RuleCount>,
    /// Sessions whose verdict or outcome changed (against the previous audit or under their
    /// old rules version).
    pub changed: u64,
    /// Sessions with no previous verdict, and sessions recorded on since it.
    pub new: u64,
    pub recorded: u64,
}

/// The whole audit. Its JSON form (`arbiter verify --all --json`) is `schemas/audit.json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AuditReport {
    /// Every session, by name.
    pub sessions: Vec<SessionAudit>,
    pub summary: AuditSummary,
    /// 0, or 1 when a session failed (see [`SessionAudit::failed`]).
    pub exit_code: i32,
}

impl AuditReport {
    /// The verdicts to keep for the next audit: this audit's, and the previous ones of
    /// sessions that could not be verified now (so a passing fault does not lose them).
    pub fn verdicts(&self, previous: &Verdicts) -> Verdicts {
        let mut out = Verdicts::new();
        for s in &self.sessions {
            match (&s.verdict, previous.get(&s.session)) {
                (Some(v), _) => {
                    out.insert(s.session.clone(), v.clone());
                }
                (None, Some(old)) => {
                    out.insert(s.session.clone(), old.clone());
                }
                (None, None) => {}
            }
        }
        out
    }
}

/// How to audit.
#[derive(Debug, Clone, Default)]
pub struct AuditOptions {
    /// `--variant` overrides for every session.
    pub variants: Vec<(String, String)>,
    /// A session that is not clean (or ends owing consequences) fails the audit too.
    pub strict: bool,
}

/// Audit every session of the context's journal, comparing with `previous`. `done` is called
/// once per session as it finishes (from the worker threads), for a progress bar.
pub fn audit<R: Games + Sync>(
    ctx: &Context<'_, R>,
    options: &AuditOptions,
    previous: &Verdicts,
    done: &(dyn Fn(&SessionAudit) + Sync),
) -> Result<AuditReport, VerifyError> {
    let journal = ctx.journal.ok_or_else(|| VerifyError::argument("an audit needs a database"))?;
    // A `--variant` applies to the sessions of the games that have the parameter; one that
    // no game has is a typo.
    for (name, _) in &options.variants {
        if !ctx.games.ids().iter().any(|g| params_of(ctx, g).contains(&name.as_str())) {
            return Err(VerifyError::argument(format!(
                "--variant {}: no game has a parameter of that name (`arbiter rules GAME` lists them)",
                crate::shown::shown(name)
            )));
        }
    }
    let names: Vec<String> = journal.sessions().map_err(from_journal)?.into_iter().map(|(n, _)| n).collect();
    let sessions: Vec<SessionAudit> = names
        .par_iter()
        .map(|name| {
            let one = audit_one(ctx, name, options, previous.get(name));
            done(&one);
            one
        })
        .collect();
    let mut summary = AuditSummary { sessions: sessions.len() as u64, ..AuditSummary::default() };
    let mut by_rule: BTreeMap<&str, u64> = BTreeMap::new();
    for s in &sessions {
        match &s.verdict {
            None => summary.unusable += 1,
            Some(v) => {
                match v.verdict.as_str() {
                    "clean" => summary.clean += 1,
                    "incomplete" => {
                        summary.clean += 1;
                        summary.incomplete += 1
                    }
                    _ => summary.with_violations += 1,
                }
                summary.violations += v.violations;
                for (rule, n) in &v.by_rule {
                    *by_rule.entry(rule).or_default() += n;
                }
            }
        }
        summary.changed += u64::from(s.changed());
        match s.comparison {
            Comparison::New => summary.new += 1,
            Comparison::Recorded => summary.recorded += 1,
            Comparison::Same | Comparison::Changed => {}
        }
    }
    let mut by_rule: Vec<RuleCount> =
        by_rule.into_iter().map(|(rule, count)| RuleCount { rule: rule.to_string(), count }).collect();
    by_rule.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.rule.cmp(&b.rule)));
    summary.by_rule = by_rule;
    let exit_code = i32::from(sessions.iter().any(|s| s.failed));
    Ok(AuditReport { sessions, summary, exit_code })
}

/// Hashes the findings of one session as they are found.
struct Hashing {
    findings: Sha256,
}

impl FindingSink for Hashing {
    fn head(&mut self, _report: &VerifyReport) -> Result<(), VerifyError> {
        Ok(())
    }
    fn finding(&mut self, finding: &Finding) -> Result<(), VerifyError> {
        let (tag, record, rule) = match finding {
            Finding::Violation(v) => (b'v', v.record.index, v.rule.as_str()),
            Finding::Uncertain(u) => (b'u', u.finding.record.index, u.finding.rule.as_str()),
            Finding::Unverified(_) | Finding::Retracted(_) => return Ok(()),
        };
        self.findings.update([tag]);
        self.findings.update(record.to_le_bytes());
        self.findings.update(rule.as_bytes());
        self.findings.update([0]);
        Ok(())
    }
}

/// The names of a game's parameters (none for a game this build does not have).
fn params_of<R: Games>(ctx: &Context<'_, R>, game: &str) -> Vec<&'static str> {
    struct Names;
    impl arbiter_engine::GameVisitor for Names {
        type Output = Vec<&'static str>;
        fn visit<G: arbiter_engine::Game>(self) -> Vec<&'static str> {
            G::params().iter().map(|p| p.name).collect()
        }
    }
    ctx.games.dispatch(game, Names).unwrap_or_default()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn audit_one<R: Games>(
    ctx: &Context<'_, R>,
    name: &str,
    options: &AuditOptions,
    previous: Option<&Verdict>,
) -> SessionAudit {
    let mut out = SessionAudit {
        session: name.to_string(),
        game: String::new(),
        verdict: None,
        comparison: Comparison::New,
        changes: Vec::new(),
        previous: previous.map(Verdict::short),
        rules_change: None,
        error: None,
        failed: false,
    };
    match verdict_of(ctx, name, options) {
        Err(e) => {
            out.error = Some(e.message);
            out.game = previous.map(|p| p.game.clone()).unwrap_or_default();
            out.failed = true;
        }
        Ok((verdict, report)) => {
            out.game = verdict.game.clone();
            out.rules_change = report.rules_change;
            if let Some(change) = out.rules_change.as_ref().filter(|c| c.outcome_changed == Some(true)) {
                out.changes.push(format!("rules: {}", change.summary));
            }
            if let Some(before) = previous {
                compare(before, &verdict, &mut out);
            }
            let not_clean = verdict.verdict != "clean";
            out.failed = out.changed() || (options.strict && not_clean);
            out.verdict = Some(verdict);
        }
    }
    out
}

/// Set the comparison of `now` with the previous verdict.
fn compare(before: &Verdict, now: &Verdict, out: &mut SessionAudit) {
    if before.records != now.records || before.head != now.head {
        out.comparison = Comparison::Recorded;
        return;
    }
    let verdict_changed = before.verdict != now.verdict || before.findings != now.findings;
    let outcome_changed = before.outcome != now.outcome;
    if !verdict_changed && !outcome_changed {
        out.comparison = Comparison::Same;
        return;
    }
    out.comparison = Comparison::Changed;
    let versions = if before.rules_version != now.rules_version {
        format!(" (rules version {} then, {} now)", before.rules_version, now.rules_version)
    } else {
        String::new()
    };
    if verdict_changed {
        out.changes.push(format!("verdict: {} -> {}{versions}", before.short(), now.short()));
    }
    if outcome_changed {
        out.changes.push(format!(
            "outcome: the final table differs{versions}; `arbiter replay {}` shows it now",
            out.session
        ));
    }
}

/// Verify one session and reduce the report to a verdict.
fn verdict_of<R: Games>(
    ctx: &Context<'_, R>,
    name: &str,
    options: &AuditOptions,
) -> Result<(Verdict, VerifyReport), VerifyError> {
    let j = journal(ctx, name)?;
    let game = j.session(name).map_err(from_journal)?.game;
    let known = params_of(ctx, &game);
    let variants = options.variants.iter().filter(|(k, _)| known.contains(&k.as_str())).cloned().collect();
    // Read the head before verifying: a session recorded on meanwhile is then seen as grown
    // by the next audit, never as changed.
    let records = j.len(name).map_err(from_journal)?;
    let head = hex(&j.hash_at(name, records).map_err(from_journal)?);
    let verify = VerifyOptions { variants, strict: options.strict, ..VerifyOptions::default() };
    let mut sink = Hashing { findings: Sha256::new() };
    let report = verify_streaming(ctx, &Source::session(name), &verify, &mut sink)?;
    let verdict = if report.error.is_some() {
        "unapplicable"
    } else if report.summary.violations > 0 {
        "violations"
    } else if report.incomplete.is_some() {
        "incomplete"
    } else {
        "clean"
    };
    let mut facts = Sha256::new();
    for f in &report.final_facts {
        facts.update(f.key.as_bytes());
        facts.update([0]);
        facts.update(f.value.as_bytes());
        facts.update([0]);
    }
    let verdict = Verdict {
        game: report.game.clone(),
        records,
        head,
        rules_version: report.rules_version,
        verdict: verdict.to_string(),
        violations: report.summary.violations,
        uncertain: report.summary.uncertain,
        by_rule: report.summary.by_rule.iter().map(|r| (r.rule.clone(), r.count)).collect(),
        findings: hex(&sink.findings.finalize()),
        outcome: hex(&facts.finalize()),
    };
    Ok((verdict, report))
}

impl fmt::Display for AuditReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = &self.summary;
        for session in self.sessions.iter().filter(|s| s.changed()) {
            writeln!(f, "CHANGED {} ({})", session.session, session.game)?;
            for change in &session.changes {
                writeln!(f, "    {change}")?;
            }
        }
        for session in &self.sessions {
            if let Some(e) = &session.error {
                writeln!(f, "FAIL {}: cannot be verified: {e}", session.session)?;
            }
        }
        if !s.by_rule.is_empty() {
            writeln!(f, "violations by rule:")?;
            for r in &s.by_rule {
                writeln!(f, "  {:>8}  {}", r.count, r.rule)?;
            }
        }
        let not_clean: Vec<&str> = self
            .sessions
            .iter()
            .filter(|s| {
                s.verdict.as_ref().is_some_and(|v| v.verdict == "violations" || v.verdict == "unapplicable")
            })
            .map(|s| s.session.as_str())
            .collect();
        if !not_clean.is_empty() {
            const SHOWN: usize = 20;
            let more = not_clean.len().saturating_sub(SHOWN);
            let mut list = not_clean[..not_clean.len().min(SHOWN)].join(", ");
            if more > 0 {
                list.push_str(&format!(" and {more} more (--json lists them all)"));
            }
            writeln!(f, "sessions with violations: {list}")?;
        }
        writeln!(
            f,
            "audited {} session(s): {} clean ({} incomplete), {} with violations, {} unusable; {} violation(s) in all",
            s.sessions, s.clean, s.incomplete, s.with_violations, s.unusable, s.violations
        )?;
        writeln!(
            f,
            "against the previous audit: {} changed, {} new, {} recorded on since (not compared)",
            s.changed, s.new, s.recorded
        )
    }
}

/// JUnit XML for CI: one test case per session (classname `audit.GAME`), failing when its
/// verdict or outcome changed (or, under `strict`, when it is not clean), an error when it
/// cannot be verified.
pub fn audit_junit(report: &AuditReport) -> String {
    use crate::junit::xml_escape;
    let mut by_game: BTreeMap<&str, Vec<&SessionAudit>> = BTreeMap::new();
    for s in &report.sessions {
        by_game.entry(if s.game.is_empty() { "unknown" } else { s.game.as_str() }).or_default().push(s);
    }
    let failures = report.sessions.iter().filter(|s| s.failed && s.error.is_none()).count();
    let errors = report.sessions.iter().filter(|s| s.error.is_some()).count();
    let mut out = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"arbiter audit\" tests=\"{}\" failures=\"{failures}\" errors=\"{errors}\">\n",
        report.sessions.len()
    );
    for (game, sessions) in by_game {
        let failures = sessions.iter().filter(|s| s.failed && s.error.is_none()).count();
        let errors = sessions.iter().filter(|s| s.error.is_some()).count();
        out.push_str(&format!(
            "  <testsuite name=\"audit.{}\" tests=\"{}\" failures=\"{failures}\" errors=\"{errors}\">\n",
            xml_escape(game),
            sessions.len()
        ));
        for s in sessions {
            out.push_str(&format!(
                "    <testcase name=\"{}\" classname=\"audit.{}\" time=\"0\"",
                xml_escape(&s.session),
                xml_escape(game)
            ));
            let verdict = s.verdict.as_ref().map(Verdict::short).unwrap_or_default();
            if let Some(e) = &s.error {
                out.push_str(&format!(
                    ">\n      <error message=\"{}\" type=\"unusable\">{}</error>\n    </testcase>\n",
                    xml_escape(e),
                    xml_escape(e)
                ));
            } else if s.failed {
                let first = s.changes.first().cloned().unwrap_or_else(|| format!("not clean: {verdict}"));
                let body = if s.changes.is_empty() { first.clone() } else { s.changes.join("\n") };
                out.push_str(&format!(
                    ">\n      <failure message=\"{}\" type=\"audit\">{}</failure>\n    </testcase>\n",
                    xml_escape(&first),
                    xml_escape(&body)
                ));
            } else {
                out.push_str(&format!(
                    ">\n      <system-out>{}</system-out>\n    </testcase>\n",
                    xml_escape(&verdict)
                ));
            }
        }
        out.push_str("  </testsuite>\n");
    }
    out.push_str("</testsuites>\n");
    out
}
