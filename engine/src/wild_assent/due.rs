//! What the rules require next, derived from the state: the ordered chain of "is X due?"
//! predicates. Interrupts first (a miniature at no Health leaves, a slain Creature drops its
//! Resources, a Summon whose summoner left is destroyed, a Creature with enough captured
//! tokens is captured), then the attack being resolved (per target: damage, statuses,
//! Knockback, a hazard), a skill's effects, a capture's damage and token, the Bleed and Stun
//! that begin an activation, the end of an activation (a capture cancelled, statuses
//! expired, `end`), then a Hunt encounter's bookkeeping (capture damage from an Instinct
//! card, a reshuffle, the next round, the end).
//!
//! This is the game's side of the kit's consequence loop (`kit::due::Consequences`):
//! `check_recorded` pairs a recorded consequence with what is due here, `flush` reports
//! what a log left out, and `next_consequence` writes the head of the chain as notation.

use super::cards::UnitKind;
use super::combat::{AfterDamage, Knock};
use super::effect::{Effect, Status};
use super::event::{Event, Field};
use super::rules::{
    self, BleedOnSkip, BleedStack, DoubleImmobilize, HazardPush, InstinctEscaped, InstinctReshuffle, Mode,
    Scope, StunConsumes,
};
use super::state::{Outcome, Phase, Presence, Removal, Side, Source, Stage, State, UnitIx};
use super::WildAssent;
use crate::kit::due::{Consequences, Pairing};
use crate::kit::grid::Pos;
use crate::{Findings, StepError, Violation};

/// A consequence as a typed fact: miniatures by index.
#[derive(Debug, Clone, Copy, Eq)]
pub enum Fact {
    Round(u16),
    Bleed(UnitIx, u8),
    Stunned(UnitIx),
    Damage(UnitIx, i32),
    Afflict(UnitIx, Status),
    Expire(UnitIx, Status),
    Knock(UnitIx, Option<Pos>),
    Hazard(UnitIx, i32),
    Removed(UnitIx, Removal),
    Resources(UnitIx, u8),
    Heal(UnitIx, i32),
    Cure(UnitIx),
    Escaped(UnitIx),
    CaptureDamage(UnitIx, i32),
    CaptureToken(UnitIx, UnitIx),
    CaptureFlip(UnitIx, UnitIx),
    CaptureCancel(UnitIx, UnitIx),
    Captured(UnitIx),
    End(UnitIx),
    Reshuffle,
    Ended(bool),
    /// The Arena match decided: the side that won, or `None` for a draw (`double-fall`).
    Victory(Option<Side>),
    /// (Arena match) A side's Demand judged at the round's end: met or not.
    Demand(Side, bool),
}

/// Written out rather than derived so that it is inlined: every record is compared with what
/// is due (`kit::due::check_recorded`), and the derived comparison was a call of its own.
impl PartialEq for Fact {
    #[inline(always)]
    fn eq(&self, other: &Fact) -> bool {
        use Fact::*;
        match (*self, *other) {
            (Round(a), Round(b)) => a == b,
            (Bleed(a, n), Bleed(b, m)) => a == b && n == m,
            (Stunned(a), Stunned(b)) => a == b,
            (Damage(a, n), Damage(b, m)) => a == b && n == m,
            (Afflict(a, x), Afflict(b, y)) => a == b && x == y,
            (Expire(a, x), Expire(b, y)) => a == b && x == y,
            (Knock(a, p), Knock(b, q)) => a == b && p == q,
            (Hazard(a, n), Hazard(b, m)) => a == b && n == m,
            (Removed(a, x), Removed(b, y)) => a == b && x == y,
            (Resources(a, n), Resources(b, m)) => a == b && n == m,
            (Heal(a, n), Heal(b, m)) => a == b && n == m,
            (Cure(a), Cure(b)) => a == b,
            (Escaped(a), Escaped(b)) => a == b,
            (CaptureDamage(a, n), CaptureDamage(b, m)) => a == b && n == m,
            (CaptureToken(a, x), CaptureToken(b, y)) => a == b && x == y,
            (CaptureFlip(a, x), CaptureFlip(b, y)) => a == b && x == y,
            (CaptureCancel(a, x), CaptureCancel(b, y)) => a == b && x == y,
            (Captured(a), Captured(b)) => a == b,
            (End(a), End(b)) => a == b,
            (Reshuffle, Reshuffle) => true,
            (Ended(a), Ended(b)) => a == b,
            (Victory(a), Victory(b)) => a == b,
            (Demand(a, x), Demand(b, y)) => a == b && x == y,
            // Different kinds. A new kind needs its arm above: without one, a fact of that
            // kind never equals itself, which unoptimised builds (tests, fixtures) catch here.
            _ => {
                debug_assert!(
                    std::mem::discriminant(self) != std::mem::discriminant(other),
                    "Fact::eq has no arm for {self:?}"
                );
                false
            }
        }
    }
}

impl Fact {
    /// The miniature the fact is about.
    pub(crate) fn subject(&self) -> Option<UnitIx> {
        match *self {
            Fact::Bleed(u, _)
            | Fact::Stunned(u)
            | Fact::Damage(u, _)
            | Fact::Afflict(u, _)
            | Fact::Expire(u, _)
            | Fact::Knock(u, _)
            | Fact::Hazard(u, _)
            | Fact::Removed(u, _)
            | Fact::Resources(u, _)
            | Fact::Heal(u, _)
            | Fact::Cure(u)
            | Fact::Escaped(u)
            | Fact::CaptureDamage(u, _)
            | Fact::CaptureToken(u, _)
            | Fact::CaptureFlip(u, _)
            | Fact::CaptureCancel(u, _)
            | Fact::Captured(u)
            | Fact::End(u) => Some(u),
            Fact::Round(_) | Fact::Reshuffle | Fact::Ended(_) | Fact::Victory(_) | Fact::Demand(..) => None,
        }
    }
}

/// What a due consequence advances once applied.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cause {
    Plain,
    Bleed,
    /// The attack's target `at`, at `stage`; `after`: what the attack does after damage,
    /// when the chain worked it out finding this due (`AfterDamage::UNKNOWN` otherwise), for
    /// the check of what it still owes once this is applied.
    Attack {
        at: u8,
        stage: Stage,
        after: AfterDamage,
    },
    /// The skill's effect `next`.
    Skill {
        next: u8,
    },
    CaptureHurt,
    CaptureMark,
    /// An Instinct card drawn for a Creature with capture tokens: this Seeker's 2 damage.
    CaptureCard(UnitIx),
    /// The healing of Healing dice just assigned.
    Momentum,
}

/// A consequence the rules owe: its fact, the rule it carries out, what it advances.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Due {
    pub fact: Fact,
    pub rule: &'static str,
    pub cause: Cause,
}

/// A miniature on the board at no Health leaves: the removal pass's first check, for one
/// miniature (`cards`: the mode's stat blocks, looked up once by the caller).
#[inline]
fn over_health(
    cards: &crate::kit::catalog::Table<super::cards::UnitCard>,
    i: UnitIx,
    u: &super::state::Unit,
) -> Option<Due> {
    if u.presence == Presence::OnBoard && u.damage > 0 && u.damage >= cards[u.card].stats_at(u.threat).health
    {
        let (how, rule) = match u.kind {
            UnitKind::Seeker => (Removal::Injured, rules::INJURED),
            UnitKind::Summon => (Removal::Destroyed, rules::SLAIN),
            _ => (Removal::Slain, rules::SLAIN),
        };
        return Some(due(Fact::Removed(i, how), rule));
    }
    None
}

fn due(fact: Fact, rule: &'static str) -> Due {
    Due { fact, rule, cause: Cause::Plain }
}

/// The stage after `stage` for one target.
fn next_stage(stage: Stage) -> Stage {
    match stage {
        Stage::Damage => Stage::Status(0),
        Stage::Status(k) => Stage::Status(k + 1),
        Stage::Knock => Stage::Done,
        Stage::Hazard => Stage::HazardBleed,
        Stage::HazardBleed | Stage::HazardLast | Stage::Done => Stage::Done,
    }
}

/// What an attack's consequence advances: its target `at` past `stage`, with what the
/// attack does after damage when the chain worked it out finding the due.
fn attack_cause(at: usize, stage: Stage, after: Option<AfterDamage>) -> Cause {
    Cause::Attack { at: at as u8, stage, after: after.unwrap_or(AfterDamage::UNKNOWN) }
}

/// A miniature of `side` on the board, Summons left out: what decides whether that side
/// still has one.
fn fielded(u: &super::state::Unit, side: Side) -> bool {
    u.on_board() && u.side == side && u.kind != UnitKind::Summon
}

/// Whether the Seekers and the Creatures each have a miniature on the board (Summons left
/// out), each looked for where it is found soonest: a Seeker first (they are placed first),
/// a Creature from the end (placed after them; a Summon entering is skipped).
fn sides_fielded(s: &State) -> (bool, bool) {
    let seekers = s.units.iter().any(|u| fielded(u, Side::Seekers));
    let creatures = s.units.iter().rev().any(|u| fielded(u, Side::Creatures));
    (seekers, creatures)
}

/// Whether a Seeker on the board has yet to activate this round (the first one found
/// settles it).
fn seeker_remaining(s: &State) -> bool {
    s.units
        .iter()
        .any(|u| u.side == Side::Seekers && u.on_board() && !u.exhausted && u.kind == UnitKind::Seeker)
}

/// How an encounter stands from whether each side has a miniature on the board (Summons
/// left out).
fn outcome_of(seekers: bool, creatures: bool) -> Option<Outcome> {
    if !seekers {
        Some(Outcome::Lost)
    } else if !creatures {
        Some(Outcome::Won)
    } else {
        None
    }
}

impl WildAssent {
    /// The head of the chain.
    pub(crate) fn next_due(&self, s: &State) -> Option<Due> {
        self.chain_head(s)
    }

    /// [`WildAssent::next_due`], written into its caller: a recorded consequence's check
    /// (`step_consequence`, every consequence record) asks through this one, without the call
    /// and its frame; the other askers (a flush, the derived log) call `next_due`.
    #[inline(always)]
    pub(crate) fn chain_head(&self, s: &State) -> Option<Due> {
        if s.phase != Phase::Play {
            return None;
        }
        // Early returns rather than a chain of `or_else`: each link of such a chain moved the
        // whole `Option<Due>` along, and this runs before every record. The checks that can
        // only find something in one mode, or with one field set, are told here from that
        // field, without the call (a large function's entry and exit cost more than the test);
        // each such check finds nothing without it, so skipping it changes nothing.
        if let Some(d) = self.removal_due(s) {
            return Some(d);
        }
        // `victory_due` finds a winner only in an Arena match (`winner`).
        if self.params.mode == Mode::Arena {
            if let Some(d) = self.victory_due(s) {
                return Some(d);
            }
        }
        if s.momentum_heal.is_some() {
            if let Some(d) = self.momentum_due(s) {
                return Some(d);
            }
        }
        if let Some(d) = self.attack_due(s) {
            return Some(d);
        }
        if s.skill.is_some() {
            if let Some(d) = self.skill_due(s) {
                return Some(d);
            }
        }
        if s.capture.is_some() {
            if let Some(d) = self.capture_due(s) {
                return Some(d);
            }
        }
        if s.hunt.capture_card.is_some() {
            if let Some(d) = self.card_capture_due(s) {
                return Some(d);
            }
        }
        if s.act.is_some() {
            // `start_due`, `cancel_due` and `end_due` are about the activation in progress;
            // with one, `encounter_due` and `round_due` find nothing.
            return self.start_due(s).or_else(|| self.cancel_due(s)).or_else(|| self.end_due(s));
        }
        if let Some(d) = self.encounter_due(s) {
            return Some(d);
        }
        // `round_due` is an Arena match's (`is_match`).
        if self.params.scope == Scope::Match {
            return self.round_due(s);
        }
        None
    }

    /// Whether nothing is due, told from a few fields and the removal pass (remembered when
    /// clean) without walking the rest of the chain or `flush`'s loop around it: `true` only
    /// when every check of [`WildAssent::next_due`] is sure to find nothing (`false` says
    /// nothing; the chain tells). The usual states before a decision: within an activation
    /// (a target, a move, an attack, its roll, a pass), the table known clean, nothing being
    /// resolved, the activation neither over nor owing its start (no Bleed or Stun token on
    /// the miniature) nor a cancelled capture (no capture token); between activations (the
    /// next one, a Creature's Instinct card), the same with no Hunt bookkeeping owed.
    #[inline]
    pub(crate) fn nothing_due(&self, s: &State) -> bool {
        // The chain owes nothing outside play (setting up, or over).
        if s.phase != Phase::Play {
            return true;
        }
        // victory_due: only an Arena match has a winner.
        let quiet = self.params.mode != Mode::Arena
            && s.momentum_heal.is_none()
            // attack_due: nothing rolled.
            && s.attack.as_ref().is_none_or(|k| k.roll.is_none())
            && s.skill.is_none()
            && s.capture.is_none()
            && s.hunt.capture_card.is_none()
            // The chain's first link itself: mostly the pass known clean, or (the decision
            // after an attack's last damage) one miniature's damage to look at.
            && self.removal_due(s).is_none();
        if !quiet {
            return false;
        }
        match s.act.as_ref() {
            // end_due: the activation goes on (and with one in progress, encounter_due and
            // round_due find nothing). start_due: no Bleed to deal nor Stun to skip;
            // cancel_due: no capture token. A token on it need not owe anything (the Bleed
            // dealt, a capture going on): then the two checks themselves, which are cheap.
            Some(a) => {
                let u = s.unit(a.unit);
                !a.done
                    && ((u.statuses & (Status::Bleed.bit() | Status::Stun.bit()) == 0 && u.capture.is_none())
                        || (self.start_due(s).is_none() && self.cancel_due(s).is_none()))
            }
            // Between activations the rest of the chain is the bookkeeping of a Hunt encounter
            // or an Arena round: told here without `flush` and the chain's call around it,
            // which every decision between activations paid to find nothing.
            None => self.params.scope != Scope::Match && self.encounter_due(s).is_none(),
        }
    }

    /// A miniature at no Health leaves; a slain Creature drops its Resources; a Summon
    /// whose summoner left is destroyed; a Creature with enough captured tokens is captured.
    #[inline]
    fn removal_due(&self, s: &State) -> Option<Due> {
        // A pass that found nothing is remembered (`state::Clean`) until a writer of what it
        // reads clears it: most records change no damage, presence or token, and skip it.
        if s.memo.1.get() {
            // Tests and fixtures run unoptimised: there every skipped pass is run anyway, so a
            // writer that forgets `State::units_changed` fails them instead of hiding a removal.
            debug_assert!(
                self.removal_pass(s).is_none(),
                "the removal pass was skipped as clean but owes a removal: a writer of damage, \
                 presence or tokens did not call State::units_changed"
            );
            return None;
        }
        self.removal_unknown(s)
    }

    /// [`WildAssent::removal_due`] when the pass is not known clean. Out of line: most calls
    /// find it clean, and with the pass inlined each caller saved the registers its loop needs.
    #[inline(never)]
    fn removal_unknown(&self, s: &State) -> Option<Due> {
        let d = match s.memo.1.damaged() {
            // Clean but for this miniature's damage: the pass found every other miniature
            // under its Health, and no drop, Summon or capture owed, and nothing of that
            // was written since; only this one can be due now, and then it is the first.
            Some(i) => {
                let d = s.units.get(usize::from(i)).and_then(|u| over_health(self.units(), i, u));
                // Unoptimised builds (tests, fixtures) run the whole pass too, and compare.
                debug_assert_eq!(d, self.removal_pass(s), "one miniature's damage written: the pass differs");
                d
            }
            None => self.removal_pass(s),
        };
        if d.is_none() {
            s.memo.1.set();
        }
        d
    }

    /// The removals, from the whole table.
    #[inline]
    fn removal_pass(&self, s: &State) -> Option<Due> {
        // One pass over the table (this runs before every record whose table changed): who
        // is at no Health, and what the later checks need.
        // The counts of flipped tokens are kept only once a flipped token is seen (most
        // tables have none), so the pass costs a few comparisons per miniature.
        let (mut summons, mut drop, mut flipped) = (0u32, None, None::<[u8; super::state::MAX_UNITS]>);
        let cards = self.units();
        for (i, u) in s.units.iter().enumerate() {
            match u.presence {
                Presence::OnBoard => {
                    // `stats`, with the mode's table looked up once for the whole pass.
                    if let Some(d) = over_health(cards, i as UnitIx, u) {
                        return Some(d);
                    }
                    summons |= u32::from(u.kind == UnitKind::Summon) << i;
                    if let Some((c, true)) = u.capture {
                        flipped.get_or_insert([0; super::state::MAX_UNITS])[usize::from(c)] += 1;
                    }
                }
                Presence::Slain if drop.is_none() && !u.dropped && u.kind == UnitKind::Creature => {
                    drop = Some((i as UnitIx, u.threat));
                }
                _ => {}
            }
        }
        if let Some((i, threat)) = drop.filter(|_| self.params.scope == Scope::Encounter) {
            return Some(due(Fact::Resources(i, threat), rules::RESOURCE_DROP));
        }
        for i in super::state::members(summons) {
            if self.summoner_gone(s, i) {
                return Some(due(Fact::Removed(i, Removal::Destroyed), rules::SUMMON_DESTROYED));
            }
        }
        if let Some(flipped) = flipped {
            for (i, u) in s.units.iter().enumerate() {
                if u.on_board()
                    && u.kind == UnitKind::Creature
                    && flipped[i] > u.threat
                    && self.all_kept(s, i)
                {
                    return Some(due(Fact::Captured(i as UnitIx), rules::CAPTURE_COMPLETE));
                }
            }
        }
        None
    }

    /// Whether every Seeker capturing Creature `c` has been assigned its capture action's
    /// damage since each last was (Example 13: "the Gryphon will be captured (after both
    /// Seekers take damage)"), or the tokens alone count (`capture-complete=tokens`).
    fn all_kept(&self, s: &State, c: usize) -> bool {
        self.params.capture_complete == rules::CaptureComplete::Tokens
            || s.units.iter().all(|u| {
                !u.on_board() || u.capture.is_none_or(|(x, _)| usize::from(x) != c) || u.capture_kept
            })
    }

    /// Seeker `seeker`'s capture action on `creature` has assigned its 2 damage: it has kept
    /// the capture in this turn of its capturers' actions. One that already had begins the
    /// next turn, every other capturer's action on it owed again.
    fn capture_kept(&self, s: &mut State, seeker: UnitIx, creature: UnitIx) {
        // Its own mark counts only with its token on this Creature (a capture just begun has
        // none yet, and a mark left from another capture is not this one's).
        let me = s.unit(seeker);
        if me.capture_kept && me.capture.is_some_and(|(x, _)| x == creature) {
            for u in s.units.iter_mut() {
                if u.capture.is_some_and(|(x, _)| x == creature) {
                    u.capture_kept = false;
                }
            }
        }
        s.unit_mut(seeker).capture_kept = true;
        s.tokens_changed();
    }

    /// Whether miniature `u`, removed `how` under the due of rule `rule`, was a Creature
    /// slain, for the standing texts that wait for one ("when a Creature is slain"). A Hunt
    /// Summon whose damage reached its Health counts: "Summons are special Creatures" (Hunt:
    /// Summons), and "When a Creature receives damage equal to or greater than its Health, it
    /// is slain" (Hunt: Wild Creature Cards), though its removal's keyword is "Destroy". A
    /// Summon destroyed because its summoner left took no such damage; an Arena Summon is no
    /// Creature ("Summons are not Creatures").
    fn creature_slain(&self, s: &State, u: UnitIx, how: Removal, rule: &'static str) -> bool {
        match (how, s.unit(u).kind) {
            (Removal::Slain, UnitKind::Creature | UnitKind::Gladiator) => true,
            (Removal::Destroyed, UnitKind::Summon) => self.params.mode == Mode::Hunt && rule == rules::SLAIN,
            _ => false,
        }
    }

    /// Whether Summon `i`'s summoner has left the board (the Summon is destroyed).
    fn summoner_gone(&self, s: &State, i: UnitIx) -> bool {
        let summoner = self.units()[s.unit(i).card].summoner;
        !s.units.iter().any(|o| Some(o.card) == summoner && o.on_board())
    }

    /// The removal pass's due for `fact` when the pass owes it now, whichever of its dues
    /// comes first: miniatures leaving together and a slain Creature's drop, which the book
    /// orders not (`order.rs`). Removals and drops only; `None` for anything else.
    pub(crate) fn removal_owed(&self, s: &State, fact: Fact) -> Option<Due> {
        match fact {
            Fact::Removed(i, _) => {
                let u = s.units.get(usize::from(i))?;
                if let Some(d) = over_health(self.units(), i, u) {
                    return Some(d);
                }
                (u.on_board() && u.kind == UnitKind::Summon && self.summoner_gone(s, i))
                    .then(|| due(Fact::Removed(i, Removal::Destroyed), rules::SUMMON_DESTROYED))
            }
            Fact::Resources(i, _) => {
                let u = s.units.get(usize::from(i))?;
                let drops = self.params.scope == Scope::Encounter
                    && u.presence == Presence::Slain
                    && !u.dropped
                    && u.kind == UnitKind::Creature;
                drops.then(|| due(Fact::Resources(i, u.threat), rules::RESOURCE_DROP))
            }
            _ => None,
        }
    }

    /// The attack's consequences, target by target, from where its cursor stands.
    #[inline]
    pub(crate) fn attack_due(&self, s: &State) -> Option<Due> {
        // No attack rolled (most records): nothing is due, told without the call.
        if s.attack.as_ref().is_none_or(|a| a.roll.is_none()) {
            return None;
        }
        self.attack_next(s, true, AfterDamage::UNKNOWN)
    }

    /// Whether the attack has a consequence left (its damage not worked out).
    #[inline]
    fn attack_pending(&self, s: &State, known: AfterDamage) -> bool {
        if let Some(a) = s.attack.as_ref().filter(|a| a.roll.is_some()) {
            let at = usize::from(a.at);
            // A target on the board whose damage is next (just rolled, or the last target's
            // consequences done): that damage is due, as `attack_next` would find at once.
            if a.stage == Stage::Damage && a.targets.get(at).is_some_and(|&t| s.unit(t).on_board()) {
                return true;
            }
            // A later target on the board: its damage is owed, whatever this target's own
            // consequences (which only the walk of the attack's effects would tell).
            if a.targets.iter().skip(at + 1).any(|&t| s.unit(t).on_board()) {
                return true;
            }
            // The last target past its damage, and an attack known (from the consequence just
            // applied) to have no status left for it and no Knockback (most attacks have
            // neither): nothing is owed, told without the walk.
            if known.done_at(a.stage) {
                return false;
            }
        }
        self.attack_next(s, false, known).is_some()
    }

    /// [`WildAssent::attack_due`]; without `values` only whether something is due counts (the
    /// pending check): a damage due is then 0 and a Knockback's field is not looked for.
    /// `known`: what the attack does after damage, when a consequence of it brought it along.
    ///
    /// Only the walk over the targets is here; a target's damage ([`WildAssent::damage_due`])
    /// and what follows it ([`WildAssent::target_rest_due`]) are worked out by calls of their
    /// own: with every stage inlined, each call (the due check and the pending check, for
    /// every consequence of an attack) paid for a large frame and for loads hoisted for
    /// stages it never reached.
    fn attack_next(&self, s: &State, values: bool, known: AfterDamage) -> Option<Due> {
        let a = s.attack.as_ref()?;
        let faces = a.roll?;
        let mut at = usize::from(a.at);
        let mut stage = a.stage;
        // The statuses and Knockback, walked out of the effects once and only when a target
        // gets past its damage (or with its damage, which walks them anyway).
        let mut fx = known.known();
        while let Some(&t) = a.targets.get(at) {
            if s.unit(t).on_board() {
                if stage == Stage::Damage {
                    return Some(self.damage_due(s, a, at, t, faces, values, fx));
                }
                if let Some(d) = self.target_rest_due(s, a, at, t, stage, faces, values, &mut fx) {
                    return Some(d);
                }
            }
            at += 1;
            stage = Stage::Damage;
        }
        None
    }

    /// The damage due to the attack's target `t` (its `at`-th), 0 without `values`; `fx`:
    /// what the attack does after damage, if known (else worked out with the damage).
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn damage_due(
        &self,
        s: &State,
        a: &super::state::Attack,
        at: usize,
        t: UnitIx,
        faces: super::state::Faces,
        values: bool,
        fx: Option<AfterDamage>,
    ) -> Due {
        let (dealt, after) = match fx {
            _ if !values => (0, fx),
            Some(_) => (self.damage_parts(s, a, at, faces).dealt(), fx),
            None => {
                let (p, after) = self.damage_and_after(s, a, at, faces);
                // Kept for the checks of this attack's later stages (`state::AttackKept`).
                s.memo.3.damage_due(after.bits());
                (p.dealt(), Some(after))
            }
        };
        let cause = attack_cause(at, Stage::Damage, after);
        Due { fact: Fact::Damage(t, dealt), rule: rules::ATTACK_TOTAL, cause }
    }

    /// What the attack's target `t` (its `at`-th, on the board) still owes from `stage` on,
    /// past its damage: its statuses, its Knockback, a hazard's damage and Bleed; `None`
    /// once it owes nothing. `fx`: what the attack does after damage, worked out here when
    /// not yet known (and kept for the targets after this one). Without `values`, a
    /// Knockback due says nowhere (`Fact::Knock(t, None)`): the pending check asks only
    /// whether it is owed, and its field is looked for by the due check of its record.
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    fn target_rest_due(
        &self,
        s: &State,
        a: &super::state::Attack,
        at: usize,
        t: UnitIx,
        mut stage: Stage,
        faces: super::state::Faces,
        values: bool,
        fx: &mut Option<AfterDamage>,
    ) -> Option<Due> {
        loop {
            let now = stage;
            match stage {
                Stage::Damage | Stage::Done => return None,
                Stage::Status(k) => match self.after_status(
                    s,
                    a,
                    *fx.get_or_insert_with(|| self.kept_after_damage(s, a, faces.specials)),
                    faces.specials,
                    usize::from(k),
                ) {
                    None => stage = Stage::Knock,
                    // An attack's own status on a target it dealt no damage to, under
                    // `status-plain=damaged` (a Special's trigger follows the roll).
                    Some((st, rule))
                        if self.params.status_plain == rules::StatusPlain::Damaged
                            && rule == super::combat::status_rule(st)
                            && !self.took_damage(s, a, at, faces) =>
                    {
                        stage = Stage::Status(k + 1)
                    }
                    Some((st, rule)) => match self.affliction(s, t, st) {
                        Some((st, r)) => {
                            let rule = if r == rules::IMMOBILIZE_STUN { r } else { rule };
                            return Some(Due {
                                fact: Fact::Afflict(t, st),
                                rule,
                                cause: attack_cause(at, now, *fx),
                            });
                        }
                        None => stage = Stage::Status(k + 1),
                    },
                },
                Stage::Knock => {
                    let after = *fx.get_or_insert_with(|| self.kept_after_damage(s, a, faces.specials));
                    // Plain Knockback moves a target that took damage; "On Attack" moves any.
                    let rule = if after.knocks() {
                        Some(rules::KNOCK_ON_ATTACK)
                    } else if after.knocks_damaged() && self.took_damage(s, a, at, faces) {
                        Some(rules::KNOCK_DAMAGED)
                    } else {
                        None
                    };
                    let rule = rule?;
                    let to = match values.then(|| self.knock_dest(s, s.unit(a.attacker).at, t)) {
                        Some(Knock::To(p)) => Some(p),
                        Some(Knock::Stays | Knock::Hazard) | None => None,
                    };
                    return Some(Due { fact: Fact::Knock(t, to), rule, cause: attack_cause(at, now, *fx) });
                }
                Stage::Hazard | Stage::HazardLast => {
                    let n = if self.params.hazard == HazardPush::Rule { 2 } else { 1 };
                    return Some(Due {
                        fact: Fact::Hazard(t, n),
                        rule: rules::HAZARD_PUSH,
                        cause: attack_cause(at, now, *fx),
                    });
                }
                Stage::HazardBleed => {
                    if self.params.hazard == HazardPush::Example {
                        return None;
                    }
                    let (st, _) = self.affliction(s, t, Status::Bleed)?;
                    let cause = attack_cause(at, now, *fx);
                    return Some(Due { fact: Fact::Afflict(t, st), rule: rules::HAZARD_PUSH, cause });
                }
            }
        }
    }

    /// The token a status becomes on this miniature (Immobilize on Immobilize is a Stun; a
    /// second Bleed adds nothing under `bleed-stack=single`), or `None` when it adds nothing.
    pub(crate) fn affliction(&self, s: &State, t: UnitIx, st: Status) -> Option<(Status, &'static str)> {
        let u = s.unit(t);
        match st {
            Status::Immobilize if u.has(Status::Immobilize) => {
                (!u.has(Status::Stun)).then_some((Status::Stun, rules::IMMOBILIZE_STUN))
            }
            Status::Bleed if u.has(Status::Bleed) && self.params.bleed_stack == BleedStack::Single => None,
            Status::Bleed => Some((st, rules::BLEED_TICK)),
            _ if u.has(st) => None,
            _ => Some((st, super::combat::status_rule(st))),
        }
    }

    /// A non-attack skill's effects on its target, in card order.
    fn skill_due(&self, s: &State) -> Option<Due> {
        let k = s.skill.as_ref()?;
        let (effects, _) = self.use_of(k.skill);
        let t = k.target;
        for (j, e) in effects.effects.iter().enumerate().skip(usize::from(k.next)) {
            let cause = Cause::Skill { next: j as u8 };
            let fact = match e {
                Effect::Heal(n) if s.unit(t).has(Status::Bleed) => {
                    return Some(Due { fact: Fact::Cure(t), rule: rules::BLEED_HEAL, cause })
                }
                Effect::Heal(n) => Fact::Heal(t, (*n).min(s.unit(t).damage).max(0)),
                Effect::Escape => Fact::Escaped(k.user),
                Effect::Status(st) => match self.affliction(s, t, *st) {
                    Some((st, _)) => Fact::Afflict(t, st),
                    None => continue,
                },
                _ => continue,
            };
            let rule = match fact {
                Fact::Heal(..) => rules::HEAL,
                Fact::Escaped(_) => rules::ESCAPE,
                Fact::Afflict(_, st) => super::combat::status_rule(st),
                _ => rules::HEAL,
            };
            if matches!(fact, Fact::Heal(_, 0)) {
                continue;
            }
            return Some(Due { fact, rule, cause });
        }
        None
    }

    /// A capture action: the Seeker's 2 damage, then its token placed or flipped.
    fn capture_due(&self, s: &State) -> Option<Due> {
        let c = s.capture?;
        if !s.unit(c.seeker).on_board() {
            return None;
        }
        let token = s.unit(c.seeker).capture.filter(|(cr, _)| *cr == c.creature);
        if !c.hurt {
            let rule = match token {
                None => rules::CAPTURE_START,
                Some((_, false)) => rules::CAPTURE_FLIP,
                Some((_, true)) => rules::CAPTURE_MAINTAIN,
            };
            return Some(Due { fact: Fact::CaptureDamage(c.seeker, 2), rule, cause: Cause::CaptureHurt });
        }
        if !c.marked {
            return match token {
                None => Some(Due {
                    fact: Fact::CaptureToken(c.seeker, c.creature),
                    rule: rules::CAPTURE_START,
                    cause: Cause::CaptureMark,
                }),
                Some((_, false)) => Some(Due {
                    fact: Fact::CaptureFlip(c.seeker, c.creature),
                    rule: rules::CAPTURE_FLIP,
                    cause: Cause::CaptureMark,
                }),
                Some((_, true)) => None,
            };
        }
        None
    }

    /// An Instinct card drawn for a Creature with capture tokens: 2 damage to each Seeker
    /// capturing it.
    fn card_capture_due(&self, s: &State) -> Option<Due> {
        let (_, mask) = s.hunt.capture_card?;
        let seeker = (0..32u8).find(|&i| mask & (1 << i) != 0)?;
        Some(Due {
            fact: Fact::CaptureDamage(seeker, 2),
            rule: rules::INSTINCT_CAPTURE,
            cause: Cause::CaptureCard(seeker),
        })
    }

    /// As an activation begins: Bleed's damage, then a Stun skipping it.
    fn start_due(&self, s: &State) -> Option<Due> {
        let a = s.act.as_ref()?;
        let u = s.unit(a.unit);
        let stunned = a.held & Status::Stun.bit() != 0;
        if !a.bled && u.has(Status::Bleed) && !(stunned && self.params.bleed_skip == BleedOnSkip::NoTick) {
            let n = if self.params.bleed_stack == BleedStack::Stack { u.bleed.max(1) } else { 1 };
            return Some(Due { fact: Fact::Bleed(a.unit, n), rule: rules::BLEED_TICK, cause: Cause::Bleed });
        }
        if stunned && !a.skipped && !a.defied && u.has(Status::Stun) {
            return Some(due(Fact::Stunned(a.unit), rules::STUN));
        }
        None
    }

    /// A capturing Seeker that moved, did something else, or ends its activation without
    /// capturing cancels its part.
    fn cancel_due(&self, s: &State) -> Option<Due> {
        let a = s.act.as_ref()?;
        let (creature, _) = s.unit(a.unit).capture?;
        let busy = s.capture.is_some();
        // A free action is a different action by default (`capture-free-action`).
        let free = a.free_action && self.params.capture_free_action == rules::CaptureFreeAction::Cancels;
        let cancel = !a.captured && !busy && (a.moved || a.acted || a.done || free);
        cancel.then(|| due(Fact::CaptureCancel(a.unit, creature), rules::CAPTURE_CANCEL))
    }

    /// The end of an activation: its statuses expire, then `end`.
    fn end_due(&self, s: &State) -> Option<Due> {
        let a = s.act.as_ref()?;
        if !a.done || s.attack.is_some() || s.skill.is_some() || s.capture.is_some() {
            return None;
        }
        // The first status in `Status::ALL` order whose token expires: a status's bit is its
        // place in that order, so the lowest bit set.
        let expiring = self.expiring(s, a);
        if expiring != 0 {
            let st = Status::ALL[expiring.trailing_zeros() as usize];
            return Some(due(Fact::Expire(a.unit, st), rules::EXPIRE));
        }
        // Its end, owed under the rule that ended it: a Pit entered this activation ends it
        // at once, and a Pit climbed out of takes the whole activation.
        let rule = if a.pit {
            rules::PIT_EXIT
        } else if s.unit(a.unit).in_pit {
            rules::PIT_STOP
        } else {
            rules::ONE_AT_A_TIME
        };
        Some(due(Fact::End(a.unit), rule))
    }

    /// The statuses (bits of `Status::bit`) whose tokens expire as activation `a` ends and
    /// are still on its miniature.
    pub(crate) fn expiring(&self, s: &State, a: &super::state::Activation) -> u8 {
        let u = s.unit(a.unit);
        let mut expiring = a.held & u.statuses & !a.expired & !Status::Bleed.bit();
        if a.skipped && self.params.stun == StunConsumes::StunOnly {
            expiring &= Status::Stun.bit();
        }
        expiring & ((1u8 << Status::ALL.len()) - 1)
    }

    /// A Hunt encounter's bookkeeping between activations.
    fn encounter_due(&self, s: &State) -> Option<Due> {
        if self.params.scope != Scope::Encounter || s.act.is_some() || s.attack.is_some() {
            return None;
        }
        // This runs before every decision between activations, mostly to find nothing. Each
        // thing it needs is looked for on its own rather than in one walk that ran until all
        // were known: whether each side is on the board is kept in the memo from one writer
        // of presence to the next (`state::Clean`, [`sides_fielded`] when not known), and
        // whether a Seeker has yet to activate is looked for only when the turn order asks
        // ([`WildAssent::side_after`]).
        let (seekers, creatures) = match s.memo.1.fielded() {
            Some(known) => {
                // Unoptimised builds (tests, fixtures) check the kept answer against the table.
                debug_assert_eq!(
                    known,
                    sides_fielded(s),
                    "a writer of presence did not call State::units_changed"
                );
                known
            }
            None => {
                let sides = sides_fielded(s);
                s.memo.1.set_fielded(sides);
                sides
            }
        };
        if let Some(o) = outcome_of(seekers, creatures) {
            return (!s.ended).then(|| match o {
                Outcome::Won => due(Fact::Ended(true), rules::END_ENCOUNTER),
                Outcome::Lost => due(Fact::Ended(false), rules::CAMPAIGN_LOST),
            });
        }
        if s.round == 0 {
            return Some(due(Fact::Round(1), rules::ROUND_END));
        }
        // "If all Instinct cards have been discarded ... shuffle the remaining cards to form a
        // new Instinct deck" (`instinct-reshuffle`). Between activations no card is in hand
        // (a Creature's is discarded as its activation ends, a dead or capture-token card as
        // it is drawn, the latter's once its Seekers are hurt: `capture_card`), so an empty
        // deck means every card has been discarded. `on-discard`: the deck is made again at
        // once, before a Seeker activates or a round begins; `on-draw` (default): when a
        // Creature's card is next to be drawn. The deck is looked at only then (under the
        // default, only when a Creature's turn is next), as before the choice was offered.
        if self.params.instinct_reshuffle == InstinctReshuffle::OnDiscard
            && s.hunt.capture_card.is_none()
            && s.hunt.deck.is_empty()
        {
            return Some(due(Fact::Reshuffle, rules::RESHUFFLE));
        }
        match self.side_after(s, || seeker_remaining(s)) {
            None => Some(due(Fact::Round(s.round + 1), rules::ROUND_END)),
            Some(Side::Creatures) if s.hunt.deck.is_empty() && s.hunt.capture_card.is_none() => {
                Some(due(Fact::Reshuffle, rules::RESHUFFLE))
            }
            _ => None,
        }
    }

    /// Whose activation comes next in a Hunt round (`None`: the round is over). A Creature
    /// turn in progress (cards being drawn) is the Creatures'.
    pub(crate) fn next_side(&self, s: &State) -> Option<Side> {
        self.side_after(s, || seeker_remaining(s))
    }

    /// [`WildAssent::next_side`], told whether a Seeker has yet to activate this round by
    /// `remaining`, asked only when the order depends on it (a walk of the table). Always
    /// inlined: a few comparisons, asked before every decision between activations.
    #[inline(always)]
    fn side_after(&self, s: &State, remaining: impl FnOnce() -> bool) -> Option<Side> {
        let h = &s.hunt;
        if h.drawing {
            return Some(Side::Creatures);
        }
        if self.seekers_first(s) {
            if h.creatures_done < h.seekers_done {
                Some(Side::Creatures)
            } else if remaining() {
                Some(Side::Seekers)
            } else {
                None
            }
        } else if !remaining() {
            None
        } else if h.creatures_done <= h.seekers_done {
            Some(Side::Creatures)
        } else {
            Some(Side::Seekers)
        }
    }

    /// Setups 3 and 4 let the Seekers go first.
    pub(crate) fn seekers_first(&self, s: &State) -> bool {
        matches!(s.hunt.setup, Some(3 | 4))
    }

    /// What a skill, an Equipment card or an Instinct card's action does, and its kind.
    pub(crate) fn use_of(
        &self,
        k: super::state::SkillRef,
    ) -> (&crate::kit::effect::CardEffects<Effect>, super::cards::SkillKind) {
        match k {
            super::state::SkillRef::Skill(id) => {
                (&self.catalog.skills[id].effects, self.catalog.skills[id].kind)
            }
            super::state::SkillRef::Equipment(id) => {
                (&self.catalog.equipment[id].effects, self.catalog.equipment[id].kind)
            }
            super::state::SkillRef::Instinct(id) => {
                (&self.catalog.instincts[id].effects, super::cards::SkillKind::Active)
            }
        }
    }

    /// Apply a fact to the state as played.
    fn apply_fact(&self, s: &mut State, fact: &Fact) {
        match *fact {
            Fact::Round(n) => {
                s.round = n;
                for u in &mut s.units {
                    u.exhausted = false;
                }
                s.hunt.seekers_done = 0;
                s.hunt.creatures_done = 0;
                self.new_round(s, n);
            }
            Fact::Bleed(u, n) => {
                s.unit_mut(u).damage += i32::from(n);
                self.damage_written(s, u);
            }
            Fact::Stunned(_) => {
                if let Some(a) = s.act.as_mut() {
                    a.skipped = true;
                    a.done = true;
                }
            }
            Fact::Damage(u, n) | Fact::Hazard(u, n) | Fact::CaptureDamage(u, n) => {
                s.unit_mut(u).damage += n;
                self.damage_written(s, u);
            }
            Fact::Afflict(u, st) => {
                let immobilize = self.params.immobilize;
                let unit = s.unit_mut(u);
                if st == Status::Stun
                    && unit.has(Status::Immobilize)
                    && immobilize == DoubleImmobilize::StunReplaces
                {
                    unit.statuses &= !Status::Immobilize.bit();
                }
                if st == Status::Bleed {
                    unit.bleed = unit.bleed.saturating_add(1);
                }
                unit.statuses |= st.bit();
            }
            Fact::Expire(u, st) => {
                let unit = s.unit_mut(u);
                unit.statuses &= !st.bit();
                if st == Status::Bleed {
                    unit.bleed = 0;
                }
                if let Some(a) = s.act.as_mut().filter(|a| a.unit == u) {
                    a.expired |= st.bit();
                }
            }
            Fact::Knock(u, Some(p)) => {
                let pit = s.obstacle(p) == Some(super::state::Obstacle::Pit);
                s.move_unit(u, p);
                s.unit_mut(u).in_pit = pit;
            }
            Fact::Knock(_, None) => {}
            Fact::Removed(u, how) => self.remove(s, u, how.presence()),
            Fact::Escaped(u) => {
                self.remove(s, u, Presence::Escaped);
                s.unit_mut(u).dropped = true;
            }
            Fact::Captured(u) => {
                self.remove(s, u, Presence::Captured);
                s.unit_mut(u).dropped = true;
            }
            Fact::Resources(u, _) => s.unit_mut(u).dropped = true,
            Fact::Heal(u, n) => {
                let unit = s.unit_mut(u);
                unit.damage = (unit.damage - n).max(0);
                self.damage_written(s, u);
            }
            Fact::Cure(u) => {
                let unit = s.unit_mut(u);
                unit.statuses &= !Status::Bleed.bit();
                unit.bleed = 0;
            }
            Fact::CaptureToken(u, c) | Fact::CaptureFlip(u, c) => {
                s.unit_mut(u).capture = Some((c, matches!(fact, Fact::CaptureFlip(..))));
                s.tokens_changed();
            }
            Fact::CaptureCancel(u, _) => {
                s.unit_mut(u).end_capture();
                s.tokens_changed();
            }
            Fact::End(_) => self.finish_activation(s),
            Fact::Reshuffle => {
                // The cards of the miniatures gone, kept inline (a table holds a handful): a
                // reshuffle comes every few rounds, and a list made and freed for it cost more
                // than the rest of its bookkeeping.
                // `instinct-escaped=spent`: "remove the cards for captured and slain Creatures"
                // leaves an Escaped Creature's in.
                let escaped_in = self.params.instinct_escaped == InstinctEscaped::Spent;
                let gone: smallvec::SmallVec<[_; 16]> = s
                    .units
                    .iter()
                    .filter(|u| !u.on_board() && !(escaped_in && u.presence == Presence::Escaped))
                    .map(|u| u.card)
                    .collect();
                if !gone.is_empty() {
                    let catalog = &self.catalog;
                    s.hunt.deck.discard.retain(|c| !gone.contains(&catalog.instincts[*c].creature));
                }
                s.hunt.deck.reshuffle();
            }
            Fact::Demand(side, _) => self.judged(s, side),
            Fact::Victory(side) => {
                // A draw leaves no winner: the match is over without one.
                s.winner = side;
                s.phase = Phase::Over;
            }
            Fact::Ended(won) => {
                s.ended = true;
                s.phase = Phase::Over;
                s.outcome = Some(if won { Outcome::Won } else { Outcome::Lost });
            }
        }
    }

    /// Miniature `i`'s damage was written: the removal pass's memo is told whether that
    /// leaves it at no Health, worked out here with the miniature at hand rather than by the
    /// next record's check (most damage leaves a miniature standing, and the table clean).
    #[inline]
    fn damage_written(&self, s: &mut State, i: UnitIx) {
        let over = over_health(self.units(), i, s.unit(i)).is_some();
        s.damage_changed(i, over);
    }

    /// A miniature leaves the board: its activation, attack and tokens go with it.
    pub(crate) fn remove(&self, s: &mut State, u: UnitIx, how: Presence) {
        s.set_presence(u, how);
        s.unit_mut(u).end_capture();
        for o in &mut s.units {
            if o.capture.is_some_and(|(c, _)| c == u) {
                o.end_capture();
            }
        }
        // An attack already rolled goes on without its attacker: the roll made its damage
        // (l.233 "The result is the total damage of the attack"), which each target is then
        // assigned, one roll resolving on every target (Arena Example 10); the book stops no
        // attack when its attacker leaves (a Summon whose summoner its area attack slew, say).
        // Only an attack not yet rolled is dropped.
        if s.attack.as_ref().is_some_and(|a| a.attacker == u && a.roll.is_none()) {
            s.attack = None;
        }
        if s.skill.as_ref().is_some_and(|k| k.user == u) {
            s.skill = None;
        }
        if s.capture.is_some_and(|c| c.seeker == u || c.creature == u) {
            s.capture = None;
        }
        if s.act.as_ref().is_some_and(|a| a.unit == u) {
            self.finish_activation(s);
        }
        if s.outer.as_ref().is_some_and(|a| a.unit == u) {
            s.outer = None;
        }
        if let Some((c, mask)) = s.hunt.capture_card {
            let mask = mask & !(1u32 << u);
            s.hunt.capture_card = if c == u || mask == 0 { None } else { Some((c, mask)) };
        }
    }

    /// The activation in progress is over: its Instinct card to the discard pile, a paused
    /// summoner's activation resumed, a Creature turn done.
    fn finish_activation(&self, s: &mut State) {
        let Some(a) = s.act.take() else { return };
        s.last_attack = None;
        if let Some(card) = a.card {
            if self.params.scope == Scope::Encounter {
                s.hunt.deck.discard(card);
                s.hunt.drawing = false;
            }
        }
        s.act = s.outer.take();
    }

    /// Moves that need no record: an attack, skill or capture whose consequences are all
    /// applied ends (and with it the action); a Creature turn that drew its second dead card,
    /// or whose capture damage left every Creature with a token, is over.
    #[inline]
    pub(crate) fn settle(&self, s: &mut State) {
        self.settle_knowing(s, AfterDamage::UNKNOWN);
    }

    /// [`WildAssent::settle`] after a consequence that brought along what its attack does
    /// after damage (`known`, else `AfterDamage::UNKNOWN`).
    #[inline]
    fn settle_knowing(&self, s: &mut State, known: AfterDamage) {
        // Every record and decision ends here, and most leave none of what `settle_pending`
        // reads set: told inline, without the large function's entry and exit. Each of its
        // branches needs one of these set, so skipping it when none is changes nothing.
        // A Creature turn's end waits for its activation to be over: while one is in progress
        // (most records of a Creature turn), the drawing needs no look either. The attack's
        // and the drawing's tests are `settle_pending`'s own (`attack_rolled`,
        // `drawing_over`), so neither calls it for nothing. (No branch writes what a later
        // one tests, so the branches' tests at entry decide.)
        if s.momentum_heal.is_some()
            || attack_rolled(s)
            || s.skill.is_some()
            || s.capture.is_some()
            || drawing_over(s)
        {
            self.settle_pending(s, known);
        }
    }

    /// [`WildAssent::settle`] when something it ends may be over. Never inlined: its callers
    /// reach it rarely (`settle_knowing`), and inlined it made their frames larger.
    #[inline(never)]
    fn settle_pending(&self, s: &mut State, known: AfterDamage) {
        if s.momentum_heal.is_some() && self.momentum_due(s).is_none() {
            s.momentum_heal = None;
        }
        if attack_rolled(s) && !self.attack_pending(s, known) {
            if let Some(a) = s.attack.take() {
                s.last_attack = Some((a.attacker, a.source));
                let free = matches!(a.source, Source::Skill(k) if self.catalog.skills[k].kind == super::cards::SkillKind::Free);
                if let Some(act) = s.act.as_mut().filter(|x| x.unit == a.attacker) {
                    if !free {
                        act.done = true;
                    }
                }
            }
        }
        if s.skill.is_some() && self.skill_due(s).is_none() {
            if let Some(k) = s.skill.take() {
                let free = self.use_of(k.skill).1 == super::cards::SkillKind::Free;
                if let Some(act) = s.act.as_mut().filter(|x| x.unit == k.user) {
                    if !free {
                        act.done = true;
                    }
                }
            }
        }
        if let Some(c) = s.capture {
            if !s.unit(c.seeker).on_board() {
                s.capture = None;
            } else if c.hurt && (c.marked || self.capture_due(s).is_none()) {
                s.capture = None;
                if let Some(act) = s.act.as_mut() {
                    act.done = true;
                }
            }
        }
        if drawing_over(s) {
            s.hunt.drawing = false;
        }
    }

    /// A recorded consequence's labels resolved, its first miniature looked for at `near`
    /// before the table is searched: the subject of what is due, which most records name.
    /// Names are unique on the table (a miniature is placed once, a Summon returns to its
    /// own entry), so the miniature found there is the one the search finds.
    fn resolve_near(&self, s: &State, e: &Event, near: Option<UnitIx>) -> Result<Fact, StepError> {
        let u = |n: &crate::kit::name::Name| s.find_near(n, near).ok_or_else(|| not_on_table(n));
        Ok(match e {
            Event::Round { n } => Fact::Round(*n),
            Event::Bleed { unit, amount } => Fact::Bleed(u(unit)?, *amount),
            Event::Stunned { unit } => Fact::Stunned(u(unit)?),
            Event::Damage { unit, amount } => Fact::Damage(u(unit)?, *amount),
            Event::Afflict { unit, status } => Fact::Afflict(u(unit)?, *status),
            Event::Expire { unit, status } => Fact::Expire(u(unit)?, *status),
            Event::Knock { unit, to } => Fact::Knock(u(unit)?, to.map(|f| f.0)),
            Event::Hazard { unit, amount } => Fact::Hazard(u(unit)?, *amount),
            Event::Removed { unit, how } => Fact::Removed(u(unit)?, *how),
            Event::Resources { unit, n } => Fact::Resources(u(unit)?, *n),
            Event::Heal { unit, amount } => Fact::Heal(u(unit)?, *amount),
            Event::Cure { unit } => Fact::Cure(u(unit)?),
            Event::Escaped { unit } => Fact::Escaped(u(unit)?),
            Event::CaptureDamage { unit, amount } => Fact::CaptureDamage(u(unit)?, *amount),
            Event::CaptureToken { unit, creature } => Fact::CaptureToken(u(unit)?, u(creature)?),
            Event::CaptureFlip { unit, creature } => Fact::CaptureFlip(u(unit)?, u(creature)?),
            Event::CaptureCancel { unit, creature } => Fact::CaptureCancel(u(unit)?, u(creature)?),
            Event::Captured { creature } => Fact::Captured(u(creature)?),
            Event::End { unit } => Fact::End(u(unit)?),
            Event::Reshuffle => Fact::Reshuffle,
            Event::Ended { won } => Fact::Ended(*won),
            Event::Victory { side } => Fact::Victory(Some(*side)),
            Event::Drawn => Fact::Victory(None),
            Event::Demand { side, met } => Fact::Demand(*side, *met),
            other => return Err(not_a_consequence(other)),
        })
    }
}

/// Whether record `e` is fact `f` written out: what [`WildAssent::resolve_near`] would
/// resolve it to is `f` (names are unique on the table, so the miniature named as `f`'s
/// is `f`'s). `false` says nothing (a kind not listed here, or a record that differs): the
/// record is then resolved. Inlined into the consequence loop, ahead of resolving.
///
/// The same answer as `Consequences::event(s, due) == *e` for the kinds listed, which
/// `resolve_owed` asserts in debug builds; written out here because building the whole
/// event to compare it cost 240 K instructions over 20,000 records (`--profile step`:
/// 19,681,638 against 19,441,297).
#[inline(always)]
fn records(s: &State, e: &Event, f: Fact) -> bool {
    let is = |n: &crate::kit::name::Name, u: UnitIx| {
        let hit = s.units.get(usize::from(u)).is_some_and(|x| x.name == *n);
        debug_assert!(!hit || s.find(n) == Some(u), "two miniatures named `{n}`");
        hit
    };
    match (f, e) {
        (Fact::Damage(t, n), Event::Damage { unit, amount }) => *amount == n && is(unit, t),
        (Fact::End(t), Event::End { unit }) => is(unit, t),
        (Fact::Afflict(t, st), Event::Afflict { unit, status }) => *status == st && is(unit, t),
        (Fact::Expire(t, st), Event::Expire { unit, status }) => *status == st && is(unit, t),
        (Fact::Knock(t, p), Event::Knock { unit, to }) => to.map(|f| f.0) == p && is(unit, t),
        (Fact::Removed(t, how), Event::Removed { unit, how: h }) => *h == how && is(unit, t),
        (Fact::Bleed(t, n), Event::Bleed { unit, amount }) => *amount == n && is(unit, t),
        (Fact::CaptureDamage(t, n), Event::CaptureDamage { unit, amount }) => *amount == n && is(unit, t),
        (Fact::Resources(t, n), Event::Resources { unit, n: m }) => *m == n && is(unit, t),
        (Fact::Round(n), Event::Round { n: m }) => *m == n,
        (Fact::Reshuffle, Event::Reshuffle) => true,
        _ => false,
    }
}

/// A record naming a miniature that is not on the table. Cold and out of line, as is
/// [`not_a_consequence`]: with the message written inline, resolving every record saved and
/// restored the registers that writing needs.
#[cold]
#[inline(never)]
fn not_on_table(n: &crate::kit::name::Name) -> StepError {
    StepError::new(format!("`{n}` is not on the table (no miniature of that name was placed)"))
}

/// Whether an attack is rolled and may have ended: one declared and not yet rolled (every
/// `attack` decision leaves one) has nothing to end. Asked by `settle_knowing` before the
/// call and by `settle_pending` for the attack's branch: one test, so they cannot differ.
#[inline]
fn attack_rolled(s: &State) -> bool {
    s.attack.as_ref().is_some_and(|a| a.roll.is_some())
}

/// Whether a Creature turn's drawing is over: its activation done, no capture card being
/// resolved, and its second dead card drawn. Asked where `attack_rolled` is.
#[inline]
fn drawing_over(s: &State) -> bool {
    s.hunt.drawing && s.act.is_none() && s.hunt.capture_card.is_none() && s.hunt.dead_draws >= 2
}

/// A record resolved as a consequence that is none.
#[cold]
#[inline(never)]
fn not_a_consequence(e: &Event) -> StepError {
    StepError::new(format!("`{e}` is not a consequence"))
}

impl Consequences for WildAssent {
    type State = State;
    type Due = Due;
    type Fact = Fact;
    type Event = Event;

    fn resolve(&self, s: &State, e: &Event) -> Result<Fact, StepError> {
        self.resolve_near(s, e, None)
    }

    // Inlined into the kit's consequence step, its one caller for every record: the call
    // and its frame cost more than the comparison it makes for most records.
    #[inline]
    fn resolve_owed(&self, s: &State, e: &Event, due: Option<&Due>) -> Result<Fact, StepError> {
        // Most records are the due consequence itself: told by comparing the record with it
        // field by field (its miniature by the due subject's name), it resolves to the due's
        // own fact without the resolving match and its call.
        if let Some(d) = due {
            if records(s, e, d.fact) {
                debug_assert!(self.event(s, d) == *e, "`records` disagrees with `event` on `{e}`");
                return Ok(d.fact);
            }
        }
        self.resolve_near(s, e, due.and_then(|d| d.fact.subject()))
    }

    // Inlined into the kit's consequence step, as `resolve_owed`: asked for every record.
    #[inline]
    fn due(&self, s: &State) -> Option<Due> {
        self.next_due(s)
    }

    fn fact(&self, d: &Due) -> Fact {
        d.fact
    }

    fn pairing(&self, due: &Fact, recorded: &Fact) -> Pairing {
        // Healing a Bleeding miniature cures instead: the same healing, a wrong value.
        if let (Fact::Cure(a), Fact::Heal(b, _)) | (Fact::Heal(a, _), Fact::Cure(b)) = (due, recorded) {
            return if a == b { Pairing::Subject } else { Pairing::Kind };
        }
        if std::mem::discriminant(due) != std::mem::discriminant(recorded) {
            return Pairing::None;
        }
        if due.subject() == recorded.subject() {
            Pairing::Subject
        } else {
            Pairing::Kind
        }
    }

    fn rule(&self, _s: &State, d: &Due) -> &'static str {
        d.rule
    }

    fn reorder(&self, s: &mut State, due: &Due, recorded: &Fact) -> Option<Due> {
        self.hazard_bleed_first(s, due, recorded).or_else(|| self.in_log_order(s, due, recorded))
    }

    fn apply(&self, s: &mut State, d: &Due, played: &Fact, f: &mut Findings) -> Result<(), StepError> {
        // Made at an omission finding (the kit reports it left out just before): a late
        // record of it is then not applied again (`unexpected`). Looked at only when a
        // finding was made, so the clean path pays two length tests.
        if !(f.violations.is_empty() && f.uncertain.is_empty()) {
            self.note_made(s, d, played, f);
        }
        self.apply_fact(s, played);
        // A Creature slain: the standing texts that wait for one can act now (taint.rs).
        if let Fact::Removed(u, how) = *played {
            if self.creature_slain(s, u, how, d.rule) {
                self.report_standing(s, f, super::state::taint::Trigger::Slain);
            }
        }
        match d.cause {
            Cause::Plain => {}
            Cause::Bleed => {
                if let Some(a) = s.act.as_mut() {
                    a.bled = true;
                }
            }
            Cause::Attack { at, stage, .. } => {
                if let Fact::Damage(t, n) = *played {
                    if n > 0 {
                        s.hunt.hurt |= 1u32.checked_shl(u32::from(t)).unwrap_or(0);
                    }
                }
                let next = match (stage, played) {
                    (Stage::Knock, Fact::Knock(t, None)) if d.fact == *played => {
                        let hazard = s
                            .attack
                            .as_ref()
                            .is_some_and(|a| self.knock_dest(s, s.unit(a.attacker).at, *t) == Knock::Hazard);
                        if hazard {
                            Stage::Hazard
                        } else {
                            Stage::Done
                        }
                    }
                    // The hazard's Bleed written before its damage (`hazard_bleed_first`):
                    // the damage is owed last.
                    (Stage::Hazard, Fact::Afflict(..)) => Stage::HazardLast,
                    (Stage::Knock, Fact::Knock(t, None)) => {
                        // Recorded as staying although due elsewhere (the finding is made):
                        // the replay goes on with the miniature where the rules knock it
                        // (Hunt Example 10, l.245: Illithena "is knocked into the adjacent
                        // Pit ... she will have to forfeit her next activation"), so a Pit it
                        // lands in holds it and its `exit` is no second finding (audit r6 D5).
                        // Reached only after that mismatch: the clean path never comes here.
                        self.knocked_as_due(s, *t, d.fact);
                        Stage::Done
                    }
                    _ => next_stage(stage),
                };
                if let Some(a) = s.attack.as_mut() {
                    a.at = at;
                    a.stage = next;
                }
            }
            Cause::Momentum => {
                s.momentum_heal = None;
                if let Fact::Cure(i) = *played {
                    s.momentum_cured |= 1u32 << i;
                }
            }
            Cause::Skill { next } => {
                if let Some(k) = s.skill.as_mut() {
                    k.next = next + 1;
                }
            }
            Cause::CaptureHurt => {
                if let Some(c) = s.capture.as_mut() {
                    c.hurt = true;
                }
                if let Some(c) = s.capture {
                    self.capture_kept(s, c.seeker, c.creature);
                }
            }
            Cause::CaptureMark => {
                if let Some(c) = s.capture.as_mut() {
                    c.marked = true;
                }
            }
            Cause::CaptureCard(seeker) => {
                if let Some((c, mask)) = s.hunt.capture_card {
                    let mask = mask & !(1u32 << seeker);
                    if mask == 0 {
                        s.hunt.capture_card = None;
                        // Every Creature left has a token: no card is drawn again (l.63,
                        // l.312). Summons, which no Instinct card activates, are left out by
                        // default (`capture-summons=skip`), so the capturers are assigned the
                        // damage once per Creatures' turn as in Example 13 (l.314); under
                        // `count` a Summon on the board (l.272: a Creature that never has a
                        // token) keeps the cards coming.
                        let skip = self.params.capture_summons == rules::CaptureSummons::Skip;
                        let all_held = s.units.iter().enumerate().all(|(i, u)| {
                            u.side != Side::Creatures
                                || !u.on_board()
                                || (skip && u.kind == UnitKind::Summon)
                                || s.units.iter().any(|o| {
                                    o.on_board() && o.capture.is_some_and(|(x, _)| usize::from(x) == i)
                                })
                        });
                        if all_held {
                            s.hunt.drawing = false;
                        }
                        let _ = c;
                    } else {
                        s.hunt.capture_card = Some((c, mask));
                    }
                }
            }
        }
        let known = match d.cause {
            Cause::Attack { after, .. } => after,
            _ => AfterDamage::UNKNOWN,
        };
        self.settle_knowing(s, known);
        Ok(())
    }

    fn compare(&self, s: &State, d: &Due, recorded: &Fact, event: &Event, f: &mut Findings) {
        let expected = self.event(s, d);
        let name = |i: UnitIx| s.unit(i).name;
        let (rule, msg) = match (d.fact, *recorded) {
            (a, b) if a.subject() != b.subject() => match (a.subject(), b.subject()) {
                (Some(x), Some(_)) => {
                    (d.rule, format!("the rules call for `{expected}` here (about {})", name(x)))
                }
                _ => (d.rule, format!("the rules call for `{expected}` here")),
            },
            (Fact::Damage(t, n), Fact::Damage(_, m)) => self.damage_mismatch(s, d, t, n, m),
            (Fact::Knock(t, None), Fact::Knock(_, Some(p))) => (
                rules::KNOCK_BLOCKED,
                format!("{} cannot be knocked to {}: it stays where it is", name(t), p.algebraic()),
            ),
            (Fact::Knock(t, Some(p)), Fact::Knock(_, None)) => {
                (rules::KNOCK_AWAY, format!("{} is knocked one field away, to {}", name(t), p.algebraic()))
            }
            (Fact::Knock(t, Some(p)), Fact::Knock(_, Some(q))) => (
                rules::KNOCK_AWAY,
                format!(
                    "{} is knocked one field directly away, to {}, not {}",
                    name(t),
                    p.algebraic(),
                    q.algebraic()
                ),
            ),
            (Fact::Afflict(t, st), Fact::Afflict(_, other)) => {
                (d.rule, format!("{} gains {st}, not {other}", name(t)))
            }
            (Fact::Hazard(t, n), Fact::Hazard(_, m)) => {
                (rules::HAZARD_PUSH, format!("{} pushed into a hazard is assigned {n}, not {m}", name(t)))
            }
            (Fact::Removed(t, how), Fact::Removed(_, other)) => {
                (d.rule, format!("{} is {how}, not {other}", name(t)))
            }
            (Fact::Bleed(t, n), Fact::Bleed(_, m)) => {
                (rules::BLEED_TICK, format!("{} bleeds {n}, not {m}", name(t)))
            }
            (Fact::Heal(t, n), Fact::Heal(_, m)) => (d.rule, format!("{} heals {n}, not {m}", name(t))),
            (Fact::Cure(t), Fact::Heal(..)) => (
                rules::BLEED_HEAL,
                format!("{} is Bleeding: the healing removes the Bleed and restores no Health", name(t)),
            ),
            (Fact::Resources(t, n), Fact::Resources(_, m)) => {
                (rules::RESOURCE_DROP, format!("{} drops {n} Resource cards (its Threat), not {m}", name(t)))
            }
            (Fact::CaptureDamage(t, n), Fact::CaptureDamage(_, m)) => {
                (d.rule, format!("{} is assigned {n} capture damage, not {m}", name(t)))
            }
            (Fact::Round(n), Fact::Round(m)) => {
                (rules::ROUND_END, format!("round {n} begins here, not round {m}"))
            }
            (Fact::Ended(w), Fact::Ended(_)) => {
                (d.rule, format!("the encounter is {}", if w { "won" } else { "lost" }))
            }
            _ => (d.rule, format!("the rules call for `{expected}` here")),
        };
        let v = Violation::new(rule, msg).expected_recorded(expected.to_string(), event.to_string());
        let v =
            self.taint(s, v, &[d.fact.subject(), recorded.subject(), s.attack.as_ref().map(|a| a.attacker)]);
        // A campaign's Seeker's Den may add Resources the catalog does not print.
        let v = match (d.fact, *recorded) {
            (Fact::Resources(_, n), Fact::Resources(_, m)) => self.den_resources(s, n, m, v),
            _ => v,
        };
        f.violate(v);
    }

    fn unexpected(&self, s: &mut State, recorded: &Fact, event: &Event, f: &mut Findings) {
        // The late record of a consequence the engine already made at an omission finding
        // (reported there as left out, and applied): that finding was the one this order
        // costs; applying it again, uncertain or not, would count it twice (rules version 20).
        if !s.made.is_empty() && s.made.take(&format!("{recorded:?}")) {
            return;
        }
        // A match decided and its `victory` left out (audit r6 D2): one finding, there.
        if matches!(*recorded, Fact::Victory(x) if s.played_on && x == s.winner) {
            return;
        }
        if self.params.mode == Mode::Arena
            && (self.after_played_on(s, event, f) || self.victory_left_out(s, event, f))
        {
            return;
        }
        if let Fact::End(u) = *recorded {
            if self.pass_left_out(s, u, event, f) {
                let _ = crate::kit::due::check_recorded(self, s, event, f);
                return;
            }
        }
        if let Fact::Round(n) = *recorded {
            if s.phase != Phase::Over {
                return self.round_early(s, n, event, f);
            }
        }
        let rule = if s.phase == Phase::Over {
            self.over_rule()
        } else {
            match *recorded {
                Fact::Round(_) => rules::ROUND_END,
                Fact::Bleed(..) => rules::BLEED_TICK,
                Fact::Stunned(_) => rules::STUN,
                Fact::Damage(..) => rules::ATTACK_TOTAL,
                Fact::Afflict(u, st) => self.unexpected_status(s, u, st),
                Fact::Expire(_, Status::Bleed) => rules::BLEED_PERSIST,
                Fact::Expire(..) => rules::EXPIRE,
                Fact::Knock(u, _) => self.unexpected_knock(s, u),
                Fact::Hazard(..) => rules::HAZARD_PUSH,
                Fact::Removed(u, _) if s.unit(u).kind == UnitKind::Seeker => rules::INJURED,
                Fact::Removed(..) => rules::SLAIN,
                Fact::Resources(u, _) if s.unit(u).presence == Presence::Escaped => rules::RESOURCE_ESCAPE,
                Fact::Resources(..) => rules::RESOURCE_DROP,
                Fact::Heal(..) => rules::HEAL,
                Fact::Cure(_) => rules::BLEED_HEAL,
                Fact::Escaped(_) => rules::ESCAPE,
                Fact::CaptureDamage(..) | Fact::CaptureToken(..) => rules::CAPTURE_START,
                Fact::CaptureFlip(..) => rules::CAPTURE_FLIP,
                Fact::CaptureCancel(..) => rules::CAPTURE_CANCEL,
                Fact::Captured(_) => rules::CAPTURE_REQUIRED,
                Fact::End(u) if s.act.as_ref().is_some_and(|a| a.unit == u && a.free_action && !a.done) => {
                    rules::ACTION_FREE
                }
                Fact::End(_) => rules::ONE_AT_A_TIME,
                Fact::Reshuffle => rules::RESHUFFLE,
                Fact::Ended(_) => rules::END_ENCOUNTER,
                Fact::Victory(_) if self.params.victory == super::rules::Victory::LastStanding => {
                    rules::VICTORY_LAST
                }
                Fact::Victory(_) => rules::VICTORY_DEATHMATCH,
                Fact::Demand(..) => rules::SILVESTREM_DEMAND,
            }
        };
        let v = Violation::new(
            rule,
            format!("`{event}` is not what the rules call for here (nothing of the kind is due)"),
        );
        let v = self.taint(s, v, &[recorded.subject(), s.attack.as_ref().map(|a| a.attacker)]);
        // Uncertain: an effect the engine could not apply (a Demand's Failure, a skill's text)
        // may have owed it. Damage, healing and statuses are then applied as played, so the
        // replay follows the table (a Gladiator slain by it falls, and what that owes is owed).
        // A reshuffle made when the deck still held cards is made as recorded, uncertain or
        // not: the draws after it come from the deck the table has, so one early reshuffle is
        // one finding, not one more at each card drawn (rules version 19).
        let as_played = matches!(recorded, Fact::Reshuffle)
            || v.uncertain.is_some()
                && matches!(
                    recorded,
                    Fact::Damage(..) | Fact::Heal(..) | Fact::Afflict(..) | Fact::Cure(_) | Fact::Expire(..)
                );
        f.violate(v);
        if as_played {
            self.apply_fact(s, recorded);
        }
    }

    fn event(&self, s: &State, d: &Due) -> Event {
        let n = |i: UnitIx| s.unit(i).name;
        match d.fact {
            Fact::Round(k) => Event::Round { n: k },
            Fact::Bleed(u, a) => Event::Bleed { unit: n(u), amount: a },
            Fact::Stunned(u) => Event::Stunned { unit: n(u) },
            Fact::Damage(u, a) => Event::Damage { unit: n(u), amount: a },
            Fact::Afflict(u, st) => Event::Afflict { unit: n(u), status: st },
            Fact::Expire(u, st) => Event::Expire { unit: n(u), status: st },
            Fact::Knock(u, to) => Event::Knock { unit: n(u), to: to.map(Field) },
            Fact::Hazard(u, a) => Event::Hazard { unit: n(u), amount: a },
            Fact::Removed(u, how) => Event::Removed { unit: n(u), how },
            Fact::Resources(u, k) => Event::Resources { unit: n(u), n: k },
            Fact::Heal(u, a) => Event::Heal { unit: n(u), amount: a },
            Fact::Cure(u) => Event::Cure { unit: n(u) },
            Fact::Escaped(u) => Event::Escaped { unit: n(u) },
            Fact::CaptureDamage(u, a) => Event::CaptureDamage { unit: n(u), amount: a },
            Fact::CaptureToken(u, c) => Event::CaptureToken { unit: n(u), creature: n(c) },
            Fact::CaptureFlip(u, c) => Event::CaptureFlip { unit: n(u), creature: n(c) },
            Fact::CaptureCancel(u, c) => Event::CaptureCancel { unit: n(u), creature: n(c) },
            Fact::Captured(c) => Event::Captured { creature: n(c) },
            Fact::End(u) => Event::End { unit: n(u) },
            Fact::Reshuffle => Event::Reshuffle,
            Fact::Ended(won) => Event::Ended { won },
            Fact::Victory(Some(side)) => Event::Victory { side },
            Fact::Victory(None) => Event::Drawn,
            Fact::Demand(side, met) => Event::Demand { side, met },
        }
    }

    fn uncertain(&self, s: &State, d: &Due) -> Option<u32> {
        [d.fact.subject(), s.attack.as_ref().map(|a| a.attacker)]
            .into_iter()
            .flatten()
            .filter_map(|u| s.unit(u).taint.for_rule(d.rule))
            .max()
    }
}

impl WildAssent {
    /// A wrong damage: the rule whose neglect explains it, and the arithmetic.
    fn damage_mismatch(&self, s: &State, d: &Due, t: UnitIx, n: i32, m: i32) -> (&'static str, String) {
        let name = s.unit(t).name;
        let Some((a, faces, at)) = s.attack.as_ref().and_then(|a| {
            let Cause::Attack { at, .. } = d.cause else { return None };
            Some((a, a.roll?, usize::from(at)))
        }) else {
            return (rules::ATTACK_TOTAL, format!("{name} takes {n}, not {m}"));
        };
        let p = self.damage_parts(s, a, at, faces);
        let mut rule = self.damage_blame(p, m, faces.specials);
        // An Instinct card read at another Threat.
        if rule == rules::ATTACK_TOTAL {
            if let Source::Instinct(c) = a.source {
                let card = &self.catalog.instincts[c];
                if let Some(profiles) = card.attack {
                    let other = profiles.iter().any(|pr| {
                        let mut q = p;
                        q.base = pr.damage;
                        pr.damage != a.profile.damage && q.dealt() == m
                    });
                    if other {
                        rule = rules::THREAT;
                    }
                }
            }
        }
        let how = if p.ignore {
            format!("{} ignoring defense", p.total())
        } else {
            format!(
                "{} - {} {} = {}",
                p.total(),
                if p.kind == super::cards::DamageKind::Physical { "PDEF" } else { "MDEF" },
                p.defense(),
                p.dealt()
            )
        };
        let back = if p.back { " + 2 from behind" } else { "" };
        let mut bonus = if p.bonus != 0 { format!(" + {} from skills", p.bonus) } else { String::new() };
        if p.surge {
            bonus.push_str(" + 1 Damage die");
        }
        (
            rule,
            format!(
                "{name} takes {n}, not {m}: Base Damage {} + {} Successes + {} Specials{back}{bonus}, {how}{}",
                p.base,
                p.successes,
                p.specials,
                match (p.cover, p.guard) {
                    (0, false) => String::new(),
                    (0, true) => " (Defense die +1)".to_owned(),
                    (c, false) => format!(" (Partial Cover +{c} Defense)"),
                    (c, true) => format!(" (Partial Cover +{c} Defense, Defense die +1)"),
                }
            ),
        )
    }

    /// A miniature pushed into a hazard "is assigned 2 damage and Bleed" (l.170), the book
    /// setting no order between the two: its Bleed recorded while the damage is owed is taken
    /// as owed now, and the damage is owed after it (`Stage::HazardLast`). `None` for anything
    /// else (the chain's order: damage, then Bleed, which `verify --derive` writes).
    fn hazard_bleed_first(&self, s: &State, due: &Due, recorded: &Fact) -> Option<Due> {
        let (
            Cause::Attack { at, stage: Stage::Hazard, after },
            Fact::Hazard(t, _),
            Fact::Afflict(u, Status::Bleed),
        ) = (due.cause, due.fact, *recorded)
        else {
            return None;
        };
        if t != u || self.params.hazard == HazardPush::Example {
            return None;
        }
        let (st, _) = self.affliction(s, t, Status::Bleed)?;
        Some(Due {
            fact: Fact::Afflict(t, st),
            rule: rules::HAZARD_PUSH,
            cause: Cause::Attack { at, stage: Stage::Hazard, after },
        })
    }

    /// The rule a Knockback of `u` recorded where none is due breaks: after an attack with
    /// plain Knockback (and no "On Attack" one), a target that took no damage is not moved (Hunt
    /// Example 10, l.245: each Seeker that takes damage "is moved one field away"),
    /// `wa.knockback.damaged`; otherwise `wa.knockback.away`.
    fn unexpected_knock(&self, s: &State, u: UnitIx) -> &'static str {
        if s.hunt.hurt & 1u32.checked_shl(u32::from(u)).unwrap_or(0) != 0 {
            return rules::KNOCK_AWAY;
        }
        let last = s.attack.as_ref().map(|a| (a.attacker, a.source)).or(s.last_attack);
        let Some((attacker, source)) = last else { return rules::KNOCK_AWAY };
        if self.params.knockback_plain != rules::KnockbackPlain::Damaged {
            return rules::KNOCK_AWAY;
        }
        let (mut plain, mut on_attack) = (false, false);
        self.each_attack_effect(s, attacker, source, |e| match e {
            Effect::Knockback => plain = true,
            Effect::OnAttackKnockback => on_attack = true,
            _ => {}
        });
        if plain && !on_attack {
            rules::KNOCK_DAMAGED
        } else {
            rules::KNOCK_AWAY
        }
    }

    /// The rule a status recorded where none is due breaks: a Special trigger counted wrong,
    /// Bleed on Bleed, or the status's own rule.
    fn unexpected_status(&self, s: &State, u: UnitIx, st: Status) -> &'static str {
        let last = s.attack.as_ref().map(|a| (a.attacker, a.source)).or(s.last_attack);
        if let Some((attacker, source)) = last {
            // The first trigger of the attack that gives this status names the rule.
            let mut rule = None;
            self.each_attack_effect(s, attacker, source, |e| match e {
                Effect::On(t, inner) if rule.is_none() && **inner == Effect::Status(st) => {
                    rule = Some(match t {
                        super::effect::Trigger::OnSpecial => rules::SPECIAL_ONCE,
                        super::effect::Trigger::OnEachSpecial => rules::SPECIAL_EACH,
                        super::effect::Trigger::OnSpecials(_) => rules::SPECIAL_THRESHOLD,
                    });
                }
                _ => {}
            });
            if let Some(rule) = rule {
                return rule;
            }
        }
        if st == Status::Stun && s.unit(u).has(Status::Immobilize) {
            return rules::IMMOBILIZE_STUN;
        }
        super::combat::status_rule(st)
    }
}

impl WildAssent {
    /// A `round N` recorded where nothing of the kind is due: most often the round in
    /// progress still owes activations (a Creature or Seeker the log never activates). The
    /// round's end breaks the mode's round rule (the Arena's "Once all players have
    /// activated their Assents and Creatures, the round ends", l.390; the Hunt's
    /// `wa.hunt.round.end`). When it is the next round, recorded between activations, it is
    /// reported once and begins as played: the table moved on, so the next round's records
    /// are judged in it rather than each reported against the round left unfinished.
    fn round_early(&self, s: &mut State, n: u16, event: &Event, f: &mut Findings) {
        let rule = if self.params.scope == Scope::Match { rules::ROUND_SEQUENCE } else { rules::ROUND_END };
        let between = s.act.is_none() && s.attack.is_none() && s.skill.is_none();
        let next = between && s.round >= 1 && n == s.round.saturating_add(1);
        let waiting =
            if self.params.scope == Scope::Match { self.next_up(s).map(|(who, _)| who) } else { None };
        let msg = match (&waiting, next) {
            (Some(who), true) if !who.is_empty() => {
                let names: Vec<String> = who.iter().map(|&i| format!("`{}`", s.unit(i).name)).collect();
                format!("round {} is not over: {} still to activate", s.round, names.join(" or "))
            }
            (_, true) => format!("round {} is not over: `{event}` comes before its end", s.round),
            _ => format!("`{event}` is not what the rules call for here (nothing of the kind is due)"),
        };
        let v = self.taint(s, Violation::new(rule, msg), &[]);
        f.violate(v);
        if next {
            self.apply_fact(s, &Fact::Round(n));
        }
    }
}

impl WildAssent {
    /// A Knockback recorded as staying where the rules move the miniature (`due`, with its
    /// field): reported by `compare`, then taken as the rules make it, so the records after it
    /// are judged from the field (and Pit) the book puts it on (audit r6 D5).
    #[cold]
    #[inline(never)]
    fn knocked_as_due(&self, s: &mut State, t: UnitIx, due: Fact) {
        if let Fact::Knock(u, Some(_)) = due {
            if u == t {
                self.apply_fact(s, &due);
            }
        }
    }

    /// [`Consequences::apply`] after a finding: when the last one is the kit's report that the
    /// log leaves out this very due (`kit::due::left_out`), the fact is made by the engine.
    #[inline(never)]
    fn note_made(&self, s: &mut State, d: &Due, played: &Fact, f: &Findings) {
        let last = match (f.violations.last(), f.uncertain.last()) {
            (Some(v), None) | (None, Some(v)) => v,
            // Both: the omission is the one just reported, in one list or the other.
            (Some(a), Some(b)) => {
                if a.message.starts_with("the log leaves out `") {
                    a
                } else {
                    b
                }
            }
            (None, None) => return,
        };
        if d.fact != *played || !last.message.starts_with("the log leaves out `") {
            return;
        }
        let written = format!("the log leaves out `{}`,", self.event(s, d));
        if last.message.starts_with(&written) {
            s.made.push(format!("{played:?}").into());
        }
    }
}
