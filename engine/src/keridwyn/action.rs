//! An action from the track to its end: the token taken (`act`), what it starts (the roll
//! it awaits, the targets it goes to, an attacker's own benefit, gear that simply grants its
//! effect), each outcome, and the ongoing effects a hit or a support spell starts. The
//! outcomes and effects that are due come from due.rs; this file applies them.

use super::cards::{Area, CardKind};
use super::compute::Targets;
use super::effect::{Effect, Skill};
use super::fact::{Acting, Due};
use super::rules::{self, Alternation, BalanceScope, ImmunityVsAttack};
use super::state::{
    to_end, Action, ActionKind, CardId, Current, Effects, Fighter, Ongoing, Phase, Seat, Seats, Source,
    State, Token,
};
use super::KeridwynFight;
use crate::kit::dice::Roll;
use crate::kit::effect::unverified;
use crate::{Findings, StepError};

impl KeridwynFight {
    /// `act`: the recorded token comes off the track; when it is not there (the monster
    /// using another action than its d6 gave), the due one is resolved instead.
    pub(crate) fn take_token(
        &self,
        s: &mut State,
        due: &Due,
        who: Seat,
        action: Acting,
        f: &mut Findings,
    ) -> Result<(), StepError> {
        let recorded = match action {
            Acting::Token(a) => s.track.iter().position(|t| t.who == who && t.action == a),
            _ => None,
        };
        let pos = recorded.or_else(|| {
            let super::fact::Fact::Acted { who: dw, action: Acting::Token(da) } = due.fact else {
                return None;
            };
            s.track.iter().position(|t| t.who == dw && t.action == da)
        });
        let token = pos.filter(|&p| p < s.track.len()).and_then(|p| {
            to_end(&mut s.track, p);
            s.track.pop()
        });
        let token = token.ok_or_else(|| {
            StepError::rule(rules::ORDER, format!("{} has no such action on the track", self.label(s, who)))
        })?;
        s.done.push(token);
        self.begin_action(s, token, f);
        Ok(())
    }

    /// A token comes off the track: set up the action it starts.
    fn begin_action(&self, s: &mut State, token: Token, f: &mut Findings) {
        let who = token.who;
        let mut current = Current {
            who,
            action: token.action,
            kind: ActionKind::Lure,
            skill: Skill::Wit,
            targets: Seats::new(),
            second: token.second,
            dice: Roll::default(),
            bonus: 0,
            rolled: false,
            outcomes_started: false,
            at: 0,
            effect: None,
            self_next: 0,
            pick_pending: false,
            given: 0,
            early: 0,
            unrolled: false,
        };
        let card = match token.action {
            Action::Lure => {
                match s.monster().filter(|&m| !s.fighter(m).defeated) {
                    Some(m) => {
                        current.targets = smallvec::smallvec![m];
                        s.set_phase(Phase::AwaitRoll);
                    }
                    // Nothing Breakable to lure in a fight between characters: done at once.
                    None => self.no_roll(s, &mut current),
                }
                s.current = Some(current);
                return;
            }
            Action::Card(id) => id,
        };
        let Some(k) = self.catalog.cards.get(card) else {
            self.no_roll(s, &mut current);
            s.current = Some(current);
            return;
        };
        // Card text the form cannot express: reported, and whoever it may change is tainted.
        for t in &k.text {
            let text = unverified(self.label(s, who), self.catalog.cards.name(card), t);
            let ordinal = s.unverified.report(f, text);
            s.fighter_mut(who).taint_by(ordinal, t);
            if let Some(on) = token.on {
                s.fighter_mut(on).taint_by(ordinal, t);
            }
        }
        let lasting: Effects = k.self_effects.iter().copied().filter(|e| !e.is_instant()).collect();
        if !lasting.is_empty() {
            // Attacker-only benefits take place even if the attack fails.
            self.start_ongoing(s, who, Source::SelfBenefit { by: who, card }, lasting, k.rounds, 0);
        }
        match k.attack {
            Some(a) => {
                current.kind = ActionKind::Attack(k.kind);
                current.skill = a.roll;
                let targets = self.targets(s, who, a.area);
                let monster = s.fighter(who).is_monster();
                let flips = monster
                    && match self.params.alternation {
                        Alternation::SingleTarget => a.area == Area::Single,
                        Alternation::ConditionsUsed => {
                            a.area == Area::Single && !matches!(targets, Targets::Balance(_))
                        }
                        Alternation::EveryAttack => true,
                    };
                match targets {
                    Targets::Balance(b) => {
                        current.targets = smallvec::smallvec![b];
                        s.set_phase(Phase::AwaitRoll);
                    }
                    Targets::Chosen(t) => {
                        current.targets = t;
                        s.set_phase(Phase::AwaitRoll);
                    }
                    Targets::Random(_) => s.set_phase(Phase::AwaitTarget),
                }
                if flips {
                    s.alternate = !s.alternate;
                }
                if monster && a.area == Area::Single && self.params.balance == BalanceScope::NextAttack {
                    s.balance = None;
                }
                for &t in &current.targets {
                    if let Some(o) = s.fighter(who).taint.filter(|_| !k.text.is_empty()) {
                        s.fighter_mut(t).taint_with(o);
                    }
                }
            }
            None if k.kind == CardKind::Spell => {
                current.kind = ActionKind::SupportSpell;
                current.targets = smallvec::smallvec![token.on.unwrap_or(who)];
                s.set_phase(Phase::AwaitRoll);
            }
            None => {
                // "Gear cards that do not attack do not require any roll."
                let effects = Effects::from_slice(&k.effects);
                self.start_ongoing(s, who, Source::Card { by: who, card }, effects, k.rounds, 0);
                self.no_roll(s, &mut current);
            }
        }
        s.current = Some(current);
    }

    /// An action that needs no roll: nothing is left to resolve.
    fn no_roll(&self, s: &mut State, c: &mut Current) {
        c.rolled = true;
        c.targets.clear();
        s.set_phase(Phase::Rolled);
    }

    /// The outcome on target `at`, as recorded (a recorded target other than the due one
    /// is resolved as played).
    pub(crate) fn outcome(&self, s: &mut State, at: u8, target: Seat, hit: bool) {
        let Some(c) = s.current.as_mut() else { return };
        c.outcomes_started = true;
        c.at = at;
        c.effect = None;
        c.early = 0;
        if let Some(t) = c.targets.get_mut(usize::from(at)) {
            *t = target;
        }
        let (kind, who, action) = (c.kind, c.who, c.action);
        // The targets of this use still to be resolved: their outcomes are judged as at the
        // roll ("Player A and Player B compare their defense", l.55), so the instance this
        // use replaces holds on them until their own outcome.
        let pending = c.targets.iter().skip(usize::from(at) + 1).fold(0, |m, &t| m | seat_bit(t));
        let next = |s: &mut State| {
            if let Some(c) = s.current.as_mut() {
                c.at = at.saturating_add(1);
                c.early = 0;
            }
        };
        let card = match action {
            Action::Card(id) => Some(id),
            Action::Lure => None,
        };
        if !hit {
            self.unreached(s, target, card);
            return next(s);
        }
        match (kind, card.and_then(|id| self.catalog.cards.get(id).map(|k| (id, k)))) {
            (ActionKind::Attack(_), Some((id, k))) => {
                if s.fighter(target).is_monster() {
                    s.last_hit = Some(who);
                }
                let immune_to_it = k
                    .effects
                    .iter()
                    .any(|e| matches!(e, Effect::Ailment(a, _) if self.immune(s, target, *a)));
                let no_effect = immune_to_it
                    && match self.params.immunity {
                        ImmunityVsAttack::WholeAttack => true,
                        ImmunityVsAttack::AilmentOnly => false,
                        // Only the Ailment is stopped: the attack is void on this target when
                        // what is left of it deals no damage.
                        ImmunityVsAttack::StopAilment => !self.deals_damage(s, target, &k.effects),
                    };
                if no_effect {
                    // Immune to what the attack causes: it has no effect on this target.
                    self.unreached(s, target, card);
                    return next(s);
                }
                let lasting: Effects = k.effects.iter().copied().filter(|e| !e.is_instant()).collect();
                if !lasting.is_empty() {
                    // The targets this use already reached keep their instance (an area
                    // attack is one use of the card, whatever number of fighters it hits).
                    let given = s.current.as_ref().map_or(0, |c| c.given);
                    let source = Source::Card { by: who, card: id };
                    self.start_ongoing(s, target, source, lasting, k.rounds, given | pending);
                    if let Some(c) = s.current.as_mut() {
                        c.given |= seat_bit(target);
                    }
                }
                if let Some(c) = s.current.as_mut() {
                    c.effect = Some(0);
                }
            }
            (ActionKind::SupportSpell, Some((id, k))) => {
                self.start_ongoing(
                    s,
                    target,
                    Source::Card { by: who, card: id },
                    Effects::from_slice(&k.effects),
                    k.rounds,
                    0,
                );
                next(s);
            }
            (ActionKind::Lure, _) => {
                s.lured = true;
                next(s);
            }
            _ => next(s),
        }
    }

    /// Start an ongoing effect on a fighter. "If a card that causes an ongoing effect is
    /// used again while its effect is active, the new effect replaces the previous
    /// instance": the same source's earlier instance ends, on whichever fighter it was,
    /// but on the fighters in `keep` (one bit a seat): those the same use already reached.
    pub(crate) fn start_ongoing(
        &self,
        s: &mut State,
        on: Seat,
        source: Source,
        effects: Effects,
        rounds: Option<u32>,
        keep: u64,
    ) {
        let since = s.round;
        for (i, f) in s.fighters.iter_mut().enumerate() {
            if keep & seat_bit(Seat::of(i)) == 0 {
                supersede(f, source);
            }
        }
        // A card with nothing the form can express leaves nothing to track (its text was
        // reported as unverified).
        if !effects.is_empty() {
            s.cure_check |= effects.iter().any(|e| matches!(e, Effect::Immunity(_)));
            s.fighter_mut(on).effects.push(super::state::Ongoing { source, effects, rounds, since });
        }
    }

    /// An attack's target the current use does not reach (missed, or Immune to it): once the
    /// use has reached another fighter, its new effect has replaced the previous instance,
    /// which ends here too (it was left in force only until this target's outcome).
    fn unreached(&self, s: &mut State, target: Seat, card: Option<CardId>) {
        let Some(c) = s.current.as_ref().filter(|c| c.given != 0) else { return };
        let (Some(card), ActionKind::Attack(_)) = (card, c.kind) else { return };
        let source = Source::Card { by: c.who, card };
        supersede(s.fighter_mut(target), source);
    }

    /// Every outcome and effect of the current action is recorded: on to the next token,
    /// or (with more than 2 characters) the monster's second action after its first.
    pub(crate) fn end_action(&self, s: &mut State) {
        let Some(c) = s.current.take() else { return };
        let monster_first = s.fighter(c.who).is_monster() && !c.second;
        // Its second die may already be down, rolled before this action (reported there).
        let next = if monster_first && self.counted_characters(s) > 2 && !s.second_rolled {
            Phase::MonsterRoll { second: true }
        } else {
            Phase::Actions
        };
        s.set_phase(next);
    }
}

/// A seat's bit in a set of seats kept in a `u64` (a fight seats at most 64 fighters).
fn seat_bit(i: Seat) -> u64 {
    1u64.checked_shl(u32::try_from(i.i()).unwrap_or(u32::MAX)).unwrap_or(0)
}

/// A fighter's instances of `source` end, replaced by a new use of the card; kept aside only
/// to recognise a log that lets both count (`kf.effect.replace`).
fn supersede(f: &mut Fighter, source: Source) {
    if f.effects.iter().any(|o| o.source == source) {
        let (old, kept): (Vec<Ongoing>, Vec<Ongoing>) =
            std::mem::take(&mut f.effects).into_iter().partition(|o| o.source == source);
        f.effects = kept;
        f.superseded.extend(old);
    }
}
