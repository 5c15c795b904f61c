//! `arbiter diff A B`: replay two logs in lockstep and report where they split and why.
//!
//! Both sides are streamed: records are parsed and stepped one pair at a time, states are
//! compared with `==`, and digests and facts are computed only for the records reported, so
//! diffing two long logs that split early costs as much as replaying up to the split.
//! Alignment is on effective records: a retracted record and the retraction itself are
//! skipped on both sides, so logs that differ only by an undone mistake are the same game.

use crate::error::VerifyError;
use crate::logfile::ScanTarget;
use crate::open::{open_scanned, peek, scan_target, unknown_game, with_game, Opened, Peeked, WithGame};
use crate::replay::{Outcome, Replayer, Stepped};
use crate::report::{facts_of, Fact, RecordView};
use crate::source::Source;
use crate::{Context, Games};
use arbiter_engine::Game;
use serde::Serialize;
use std::collections::VecDeque;
use std::fmt;

/// How to diff.
#[derive(Debug, Clone, Default)]
pub struct DiffOptions {
    /// How many agreeing records before the split to show.
    pub context: usize,
    /// Report every later divergence, not only the first.
    pub all: bool,
    /// `--variant NAME=VALUE` overrides applied to both sides.
    pub variants: Vec<(String, String)>,
}

/// Why two replays split at a record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SplitReason {
    /// The two logs start from different tables (setup or catalog).
    SetupDiffers,
    /// The logs record different events.
    EventsDiffer,
    /// Same event, different resulting state (another interpretation or rules version).
    StatesDiffer,
    /// Same event and state, but a violation (or an unapplicable record) on one side only.
    VerdictsDiffer,
    /// One log ends (or stops at an unapplicable record) while the other goes on.
    Prefix,
}

impl fmt::Display for SplitReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SplitReason::SetupDiffers => "the setups differ",
            SplitReason::EventsDiffer => "the events differ",
            SplitReason::StatesDiffer => "same event, different states",
            SplitReason::VerdictsDiffer => "same event and state, different verdicts",
            SplitReason::Prefix => "one log ends",
        })
    }
}

/// Two records that agree, with the state digest after them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Agreement {
    pub a: RecordView,
    pub b: RecordView,
    /// Hex SHA-256 of the (equal) state after these records.
    pub digest: String,
}

/// One fact that differs between the two states.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FieldDiff {
    pub key: String,
    /// `None` when side A has no such fact.
    pub a: Option<String>,
    pub b: Option<String>,
}

/// One place where the replays split.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Divergence {
    pub reason: SplitReason,
    /// One sentence saying what differs.
    pub explanation: String,
    /// The record on each side (`None` when that side has ended, or for a setup split).
    pub a: Option<RecordView>,
    pub b: Option<RecordView>,
    /// The violations (`rule: message`) each side finds at this record.
    pub a_verdict: Vec<String>,
    pub b_verdict: Vec<String>,
    /// The facts that differ in the states after this record.
    pub state_diff: Vec<FieldDiff>,
    /// A unified diff (`-` A, `+` B) of the two readable boards after this record; empty
    /// when the boards print the same.
    pub board_diff: String,
    /// Hex digests of the two states after this record.
    pub a_digest: String,
    pub b_digest: String,
    /// Whether the two states were equal before this record (a later split may come where
    /// they already differ); the text report says so, the JSON has the explanation.
    #[serde(skip)]
    pub states_equal_before: bool,
}

/// The comparison of two replays.
///
/// Its JSON form (`arbiter diff --json`) is `schemas/diff.json`: `a`, `b` (the sources), `game`,
/// `identical` (bool), `compared` (effective record pairs compared, counted from record 0 even
/// when both sides started from a shared snapshot), `last_agreement` (null or `{a, b, digest}`
/// with `a`/`b` = `{index, line, notation}`), `context` (array of `{a, b}` record pairs
/// before the first split, oldest first), `divergences` (array of `{reason, explanation,
/// a, b, a_verdict, b_verdict, state_diff: [{key, a, b}], board_diff, a_digest, b_digest}`; `reason` is
/// one of `setup-differs`, `events-differ`, `states-differ`, `verdicts-differ`, `prefix`;
/// only the first unless `--all`) and `exit_code` (0 identical, 1 split).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DiffReport {
    pub a: String,
    pub b: String,
    pub game: String,
    pub identical: bool,
    pub compared: u64,
    /// Set when both sides started from the same cached state after this many records
    /// instead of record 0 (a fork and its parent share their records up to the fork). Not
    /// part of the output, which never depends on the cache; for tests.
    #[serde(skip)]
    pub from_snapshot: Option<u64>,
    pub last_agreement: Option<Agreement>,
    pub context: Vec<ContextPair>,
    pub divergences: Vec<Divergence>,
    pub exit_code: i32,
}

/// An agreeing pair shown before the split.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ContextPair {
    pub a: RecordView,
    pub b: RecordView,
}

/// Diff two sources of the same game.
pub fn diff<R: Games>(
    ctx: &Context<'_, R>,
    a: &Source,
    b: &Source,
    options: &DiffOptions,
) -> Result<DiffReport, VerifyError> {
    with_game(ctx, a, Work { ctx, a, b, options })
}

struct Work<'c, 'a, R: Games> {
    ctx: &'c Context<'a, R>,
    a: &'c Source,
    b: &'c Source,
    options: &'c DiffOptions,
}

/// The next record of a side that counts for the game.
fn next_effective<G: Game>(r: &mut Replayer<G>) -> Result<Option<Stepped<G::Event>>, VerifyError> {
    while let Some(step) = r.step() {
        let step = step?;
        if step.effective() {
            return Ok(Some(step));
        }
    }
    Ok(None)
}

fn verdict<E>(s: &Stepped<E>) -> Vec<String> {
    match &s.outcome {
        Outcome::Applied(f) => f.violations.iter().map(|v| format!("{}: {}", v.rule, v.message)).collect(),
        Outcome::Failed(e) => vec![format!("cannot be applied: {e}")],
        _ => Vec::new(),
    }
}

fn rule_ids<E>(s: &Stepped<E>) -> Vec<String> {
    match &s.outcome {
        Outcome::Applied(f) => f.violations.iter().map(|v| v.rule.to_string()).collect(),
        Outcome::Failed(e) => vec![format!("error {}", e.rule.unwrap_or("-"))],
        _ => Vec::new(),
    }
}

/// The two boards as a unified diff, the lines around each change kept so a person sees
/// which enemy, track or pile they belong to.
fn board_diff<G: Game>(ga: &G, sa: &G::State, gb: &G, sb: &G::State) -> String {
    let (a, b) = (ga.board(sa), gb.board(sb));
    if a == b {
        return String::new();
    }
    similar::TextDiff::from_lines(&a, &b).unified_diff().context_radius(2).header("A", "B").to_string()
}

/// The facts that differ between two states; when the facts agree but the states do not
/// (the difference is in what the table does not show: a consequence owed next, a catalog
/// value not yet in play), the values of the states themselves that differ, keyed
/// `(not shown) PATH`, so that a split always says why.
fn states_diff<G: Game>(ga: &G, sa: &G::State, gb: &G, sb: &G::State) -> Vec<FieldDiff> {
    let facts = field_diff(&facts_of(ga, sa), &facts_of(gb, sb));
    if !facts.is_empty() || sa == sb {
        return facts;
    }
    let (Ok(a), Ok(b)) = (serde_json::to_value(sa), serde_json::to_value(sb)) else { return facts };
    let mut out = Vec::new();
    value_diff("", &a, &b, &mut out);
    out
}

/// At most this many hidden values are listed: the first ones name the difference.
const MAX_HIDDEN: usize = 8;

/// The leaves of two JSON values that differ, by path (`due.0.target`).
fn value_diff(path: &str, a: &serde_json::Value, b: &serde_json::Value, out: &mut Vec<FieldDiff>) {
    use serde_json::Value;
    if out.len() >= MAX_HIDDEN || a == b {
        return;
    }
    let join = |k: &str| if path.is_empty() { k.to_string() } else { format!("{path}.{k}") };
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for (k, va) in x {
                value_diff(&join(k), va, y.get(k).unwrap_or(&Value::Null), out);
            }
            for (k, vb) in y.iter().filter(|(k, _)| !x.contains_key(*k)) {
                value_diff(&join(k), &Value::Null, vb, out);
            }
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            for (i, (va, vb)) in x.iter().zip(y).enumerate() {
                value_diff(&join(&i.to_string()), va, vb, out);
            }
        }
        _ => {
            let show = |v: &Value| match v {
                Value::Null => None,
                v => Some(crate::shown::shown(&v.to_string()).into_owned()),
            };
            out.push(FieldDiff { key: format!("(not shown) {path}"), a: show(a), b: show(b) });
        }
    }
}

fn field_diff(a: &[Fact], b: &[Fact]) -> Vec<FieldDiff> {
    let mut out = Vec::new();
    for fa in a {
        let vb = b.iter().find(|f| f.key == fa.key).map(|f| f.value.clone());
        if vb.as_deref() != Some(fa.value.as_str()) {
            out.push(FieldDiff { key: fa.key.clone(), a: Some(fa.value.clone()), b: vb });
        }
    }
    for fb in b {
        if !a.iter().any(|f| f.key == fb.key) {
            out.push(FieldDiff { key: fb.key.clone(), a: None, b: Some(fb.value.clone()) });
        }
    }
    out
}

/// A state both sides may start from instead of record 0: when one session is a fork of the
/// other, both replayed as recorded, they hold the same records up to the fork point, so
/// their states agree at any snapshot both have there. The snapshot is taken at least
/// `context` + 1 records before the fork point, so the last agreement and the context before
/// a split at the fork are still replayed. `None` (start from 0) whenever that cannot be
/// shown: files, overrides, no fork relation, no shared snapshot, or states that differ.
#[allow(clippy::type_complexity)]
fn shared_snapshot<R: Games, G: Game>(
    ctx: &Context<'_, R>,
    (a, pa): (&Source, &Peeked),
    (b, pb): (&Source, &Peeked),
    context: usize,
) -> Result<Option<(u64, (Opened<G>, G::State), (Opened<G>, G::State))>, VerifyError> {
    let (Peeked::Session(na, ha, _), Peeked::Session(nb, hb, _)) = (pa, pb) else { return Ok(None) };
    if !a.variants.is_empty() || !b.variants.is_empty() || ha.setup != hb.setup || ha.catalog != hb.catalog {
        return Ok(None);
    }
    let parent_of = |name: &str| -> Result<Option<arbiter_journal::Parent>, VerifyError> {
        Ok(crate::session::journal(ctx, name)?.session(name).map_err(crate::session::from_journal)?.parent)
    };
    let fork_at = match (parent_of(na)?, parent_of(nb)?) {
        (_, Some(p)) if p.session == *na => p.at,
        (Some(p), _) if p.session == *nb => p.at,
        _ => return Ok(None),
    };
    let Some(limit) = fork_at.checked_sub(context as u64 + 1) else { return Ok(None) };
    // Each side's latest usable snapshot; walk down until both have one at the same place.
    let mut to = limit;
    for _ in 0..4 {
        let Some(b) = crate::state::snapshot::<R, G>(ctx, nb, hb, Some(to))? else {
            return Ok(None);
        };
        let Some(a) = crate::state::snapshot::<R, G>(ctx, na, ha, Some(b.at))? else {
            return Ok(None);
        };
        if a.at == b.at {
            return Ok((a.state == b.state).then_some((a.at, (a.opened, a.state), (b.opened, b.state))));
        }
        to = a.at;
    }
    Ok(None)
}

impl<'c, 'a, R: Games> WithGame<'a> for Work<'c, 'a, R> {
    type Output = DiffReport;
    fn run<G: Game>(self, peeked_a: Peeked) -> Result<DiffReport, VerifyError> {
        let peeked_b = peek(self.ctx, self.b)?;
        let (ga, gb) = (G::info().id, peeked_b.header().game.clone());
        if gb != ga {
            if self.ctx.games.ids().contains(&gb.as_str()) {
                return Err(VerifyError::argument(format!(
                    "{} is a game of {ga} and {} a game of {gb}: there is nothing to compare",
                    self.a, self.b
                )));
            }
            return Err(unknown_game(self.ctx, &self.b.to_string(), &gb));
        }
        let shared = if self.options.variants.is_empty() {
            shared_snapshot::<R, G>(self.ctx, (self.a, &peeked_a), (self.b, &peeked_b), self.options.context)?
        } else {
            None
        };
        let (mut ra, mut rb, from_snapshot) = match shared {
            Some((at, (opened_a, state_a), (opened_b, state_b))) => {
                let (mut ra, mut rb) = (Replayer::new(opened_a), Replayer::new(opened_b));
                ra.state = state_a;
                rb.state = state_b;
                (ra, rb, Some(at))
            }
            None => {
                // A retraction anywhere later in a file can withdraw a record before the
                // split, so both files are scanned to their ends before replay (a byte
                // search, see `logfile::retracted_records`, or an entry of the retraction
                // index for a long file scanned before): the two scans run side by side.
                let scan = |target: Option<ScanTarget>| target.map(|t| t.retracted());
                let (target_a, target_b) = (scan_target(&peeked_a), scan_target(&peeked_b));
                let (scanned_a, scanned_b) = match (&target_a, &target_b) {
                    (Some(_), Some(_)) => std::thread::scope(|scope| {
                        let b = scope.spawn(|| scan(target_b));
                        let a = scan(target_a);
                        (a, b.join())
                    }),
                    _ => (scan(target_a), Ok(scan(target_b))),
                };
                let scanned_b = scanned_b.map_err(|_| {
                    VerifyError::new(
                        crate::ErrorKind::Io,
                        format!("{}: the scan for retractions failed", self.b),
                    )
                })?;
                (
                    Replayer::new(open_scanned::<G>(
                        self.a,
                        peeked_a,
                        &self.options.variants,
                        scanned_a.transpose()?,
                    )?),
                    Replayer::new(open_scanned::<G>(
                        self.b,
                        peeked_b,
                        &self.options.variants,
                        scanned_b.transpose()?,
                    )?),
                    None,
                )
            }
        };
        let mut report = DiffReport {
            a: self.a.to_string(),
            b: self.b.to_string(),
            game: ga.to_string(),
            identical: true,
            compared: match (from_snapshot, &self.a.origin) {
                (Some(at), crate::source::Origin::Session(name)) => {
                    effective_before::<R>(self.ctx, name, at)?
                }
                _ => 0,
            },
            from_snapshot,
            last_agreement: None,
            context: Vec::new(),
            divergences: Vec::new(),
            exit_code: 0,
        };
        let digest = |s: &G::State| crate::report::digest_of(s);
        // The tables before the first record: the states and, when a setup parameter or the
        // catalog differs, what the setups put on the table outside them (a game may keep a
        // setup value, such as the board's size, in the game rather than in each state): the
        // facts and boards each side shows. An interpretation alone is compared by its
        // states, so its split is where its reading first changes the game (a track length it
        // also changes shows in that split's boards).
        let mut states_equal = ra.state == rb.state
            && (!table_setup_differs::<G>(ra.game().setup(), rb.game().setup())
                || (facts_of(ra.game(), &ra.state) == facts_of(rb.game(), &rb.state)
                    && ra.game().board(&ra.state) == rb.game().board(&rb.state)));
        if !states_equal {
            report.divergences.push(Divergence {
                reason: SplitReason::SetupDiffers,
                states_equal_before: true,
                explanation: format!(
                    "the tables differ before the first record ({})",
                    setup_delta::<G>(ra.game().setup(), rb.game().setup())
                ),
                a: None,
                b: None,
                a_verdict: Vec::new(),
                b_verdict: Vec::new(),
                state_diff: states_diff(ra.game(), &ra.state, rb.game(), &rb.state),
                board_diff: board_diff(ra.game(), &ra.state, rb.game(), &rb.state),
                a_digest: digest(&ra.state),
                b_digest: digest(&rb.state),
            });
        }
        let mut context: VecDeque<ContextPair> = VecDeque::new();
        while self.options.all || report.divergences.is_empty() {
            // The state before this pair, kept so the last agreement's digest can be named
            // once the split is found (digests are computed only for reported records).
            let before = (report.divergences.is_empty() && states_equal).then(|| ra.state.clone());
            let sa = next_effective(&mut ra)?;
            let sb = next_effective(&mut rb)?;
            let (x, y) = match (sa, sb) {
                (None, None) => break,
                (Some(x), Some(y)) => (x, y),
                (x, y) => {
                    let (ended, goes_on, other) = if x.is_none() { ("A", "B", &y) } else { ("B", "A", &x) };
                    let other_view = other.as_ref().map(RecordView::of);
                    let stopped = if x.is_none() { ra.stopped() } else { rb.stopped() };
                    let why = if stopped { "stops at an unapplicable record" } else { "ends" };
                    report.divergences.push(Divergence {
                        reason: SplitReason::Prefix,
                        states_equal_before: states_equal,
                        explanation: format!(
                            "{ended} {why} after {} compared records; {goes_on} goes on with `{}`",
                            report.compared,
                            other_view.as_ref().map(|v| v.notation.as_str()).unwrap_or("")
                        ),
                        a: x.as_ref().map(RecordView::of),
                        b: y.as_ref().map(RecordView::of),
                        a_verdict: x.as_ref().map(verdict).unwrap_or_default(),
                        b_verdict: y.as_ref().map(verdict).unwrap_or_default(),
                        state_diff: states_diff(ra.game(), &ra.state, rb.game(), &rb.state),
                        board_diff: board_diff(ra.game(), &ra.state, rb.game(), &rb.state),
                        a_digest: digest(&ra.state),
                        b_digest: digest(&rb.state),
                    });
                    if let Some(b) = before {
                        report.last_agreement = report.last_agreement.take().map(|mut l| {
                            l.digest = digest(&b);
                            l
                        });
                    }
                    break;
                }
            };
            report.compared += 1;
            let now_equal = ra.state == rb.state;
            let reason = if x.event != y.event {
                Some(SplitReason::EventsDiffer)
            } else if states_equal && !now_equal {
                Some(SplitReason::StatesDiffer)
            } else if rule_ids(&x) != rule_ids(&y) {
                Some(SplitReason::VerdictsDiffer)
            } else {
                None
            };
            let was_equal = states_equal;
            states_equal = now_equal;
            let (va, vb) = (RecordView::of(&x), RecordView::of(&y));
            let Some(reason) = reason else {
                if report.divergences.is_empty() && now_equal {
                    report.last_agreement =
                        Some(Agreement { a: va.clone(), b: vb.clone(), digest: String::new() });
                    if self.options.context > 0 {
                        if context.len() == self.options.context {
                            context.pop_front();
                        }
                        context.push_back(ContextPair { a: va, b: vb });
                    }
                }
                continue;
            };
            if report.divergences.is_empty() {
                if let (Some(b), Some(l)) = (before, report.last_agreement.as_mut()) {
                    l.digest = digest(&b);
                }
                report.context = context.drain(..).collect();
            }
            let explanation = match reason {
                SplitReason::EventsDiffer => {
                    format!("A records `{}`, B records `{}`", va.notation, vb.notation)
                }
                SplitReason::StatesDiffer => format!(
                    "`{}` leaves different states ({}){}",
                    va.notation,
                    setup_delta::<G>(ra.game().setup(), rb.game().setup()),
                    if rule_ids(&x) != rule_ids(&y) { "; it is judged differently as well" } else { "" }
                ),
                _ => format!(
                    "`{}` is judged differently ({}){}",
                    va.notation,
                    setup_delta::<G>(ra.game().setup(), rb.game().setup()),
                    if was_equal { "" } else { "; the states already differed" }
                ),
            };
            report.divergences.push(Divergence {
                reason,
                states_equal_before: was_equal,
                explanation,
                a_verdict: verdict(&x),
                b_verdict: verdict(&y),
                a: Some(va),
                b: Some(vb),
                state_diff: states_diff(ra.game(), &ra.state, rb.game(), &rb.state),
                board_diff: board_diff(ra.game(), &ra.state, rb.game(), &rb.state),
                a_digest: digest(&ra.state),
                b_digest: digest(&rb.state),
            });
        }
        if report.divergences.is_empty() {
            if let Some(l) = report.last_agreement.as_mut() {
                l.digest = digest(&ra.state);
            }
        }
        report.identical = report.divergences.is_empty();
        report.exit_code = if report.identical { 0 } else { 1 };
        Ok(report)
    }
}

/// The effective records (neither retracted nor retractions) among a session's first `at`:
/// the pairs a diff started from a snapshot after `at` records has compared already. A
/// usable snapshot has no retraction after it reaching before it, so each retraction before
/// `at` removes itself and one record before `at`.
fn effective_before<R: Games>(ctx: &Context<'_, R>, name: &str, at: u64) -> Result<u64, VerifyError> {
    let j = crate::session::journal(ctx, name)?;
    let retractions = j.retractions(name).map_err(crate::session::from_journal)?;
    let before = retractions.iter().filter(|(by, _)| *by < at).count() as u64;
    Ok(at.saturating_sub(2 * before))
}

/// Whether two setups differ in the catalog or in a parameter of the table (not an
/// interpretation), a value not given counting as its default.
fn table_setup_differs<G: Game>(a: &arbiter_engine::Setup, b: &arbiter_engine::Setup) -> bool {
    let catalog =
        |s: &arbiter_engine::Setup| s.catalog.clone().unwrap_or_else(|| G::default_catalog().to_string());
    catalog(a) != catalog(b)
        || G::params().iter().filter(|p| p.kind == arbiter_engine::ParamKind::Setup).any(|p| {
            let value = |s: &arbiter_engine::Setup| {
                s.params.get(p.name).map_or(p.default, String::as_str).to_string()
            };
            value(a) != value(b)
        })
}

/// What differs between two setups, `name: A x, B y; ...`, for the explanation of a split
/// that the events alone do not explain.
fn setup_delta<G: Game>(a: &arbiter_engine::Setup, b: &arbiter_engine::Setup) -> String {
    let mut keys: Vec<&String> = a.params.keys().chain(b.params.keys()).collect();
    keys.sort();
    keys.dedup();
    let mut out: Vec<String> = Vec::new();
    for k in keys {
        let (va, vb) = (a.params.get(k), b.params.get(k));
        if va != vb {
            // A value not given is the parameter's default, named as such.
            let default = G::params().iter().find(|p| p.name == k.as_str()).map(|p| p.default);
            let show = |v: Option<&String>| match (v, default) {
                (Some(v), _) => v.clone(),
                (None, Some(d)) => d.to_string(),
                (None, None) => "(default)".to_string(),
            };
            out.push(format!("{k}: A {}, B {}", show(va), show(vb)));
        }
    }
    if a.catalog != b.catalog {
        let show = |c: &Option<String>| c.clone().unwrap_or_else(|| G::default_catalog().to_string());
        out.push(format!("catalog: A {}, B {}", show(&a.catalog), show(&b.catalog)));
    }
    if out.is_empty() {
        "same setup on both sides".to_string()
    } else {
        out.join("; ")
    }
}

impl fmt::Display for DiffReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "A: {}\nB: {}", self.a, self.b)?;
        match &self.last_agreement {
            Some(l) => writeln!(
                f,
                "last agreement: A {} = B {}, state {}",
                l.a,
                l.b,
                &l.digest[..l.digest.len().min(12)]
            )?,
            None => writeln!(f, "last agreement: none (they differ from the start)")?,
        }
        if self.identical {
            return writeln!(
                f,
                "identical: {} records compared, same events, verdicts and states",
                self.compared
            );
        }
        if !self.context.is_empty() {
            writeln!(f, "context:")?;
            for c in &self.context {
                writeln!(f, "    A {}   B {}", c.a, c.b)?;
            }
        }
        for (i, d) in self.divergences.iter().enumerate() {
            let which = if i == 0 { "first split" } else { "then" };
            // A later verdict split may come where the states already differ: its reason
            // must not call them the same.
            let reason = match d.reason {
                SplitReason::VerdictsDiffer if !d.states_equal_before || d.a_digest != d.b_digest => {
                    "same event, different verdicts".into()
                }
                r => r.to_string(),
            };
            writeln!(f, "{which}: {reason} — {}", d.explanation)?;
            let none =
                if d.reason == SplitReason::SetupDiffers { "(before the first record)" } else { "(ended)" };
            let side = |r: &Option<RecordView>| r.as_ref().map_or(none.to_string(), |r| r.to_string());
            writeln!(f, "    A {}", side(&d.a))?;
            for v in &d.a_verdict {
                writeln!(f, "        {v}")?;
            }
            writeln!(f, "    B {}", side(&d.b))?;
            for v in &d.b_verdict {
                writeln!(f, "        {v}")?;
            }
            if d.state_diff.is_empty() && d.board_diff.is_empty() {
                writeln!(f, "    states after: equal")?;
            } else {
                if !d.state_diff.is_empty() {
                    writeln!(f, "    states after (A -> B):")?;
                }
                for fd in &d.state_diff {
                    let v = |x: &Option<String>| x.clone().unwrap_or_else(|| "(absent)".to_string());
                    writeln!(f, "      {}: {} -> {}", fd.key, v(&fd.a), v(&fd.b))?;
                }
                if !d.board_diff.is_empty() {
                    writeln!(f, "    boards after:")?;
                    for line in d.board_diff.lines() {
                        writeln!(f, "      {line}")?;
                    }
                }
            }
        }
        Ok(())
    }
}
