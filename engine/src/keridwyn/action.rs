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
    to_end, Action, ActionKind, Current, Effects, Ongoing, Phase, Seat, Seats, Source, State, Token,
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
        };
        let card = match token.action {
            Action::Lure => {
                match s.monster().filter(|&m| !s.fighter(m).defeated) {
                    Some(m) => {
                        current.targets = smallvec::smallvec![m];
                        s.phase = Phase::AwaitRoll;
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
            s.fighter_mut(who).taint_with(ordinal);
            if let Some(on) = token.on {
                s.fighter_mut(on).taint_with(ordinal);
            }
        }
        let lasting: Effects = k.self_effects.iter().copied().filter(|e| !e.is_instant()).collect();
        if !lasting.is_empty() {
            // Attacker-only benefits take place even if the attack fails.
            self.start_ongoing(s, who, Source::SelfBenefit { by: who, card }, lasting, k.rounds);
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
                        s.phase = Phase::AwaitRoll;
                    }
                    Targets::Chosen(t) => {
                        current.targets = t;
                        s.phase = Phase::AwaitRoll;
                    }
                    Targets::Random(_) => s.phase = Phase::AwaitTarget,
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
                s.phase = Phase::AwaitRoll;
            }
            None => {
                // "Gear cards that do not attack do not require any roll."
                let effects = Effects::from_slice(&k.effects);
                self.start_ongoing(s, who, Source::Card { by: who, card }, effects, k.rounds);
                self.no_roll(s, &mut current);
            }
        }
        s.current = Some(current);
    }

    /// An action that needs no roll: nothing is left to resolve.
    fn no_roll(&self, s: &mut State, c: &mut Current) {
        c.rolled = true;
        c.targets.clear();
        s.phase = Phase::Rolled;
    }

    /// The outcome on target `at`, as recorded (a recorded target other than the due one
    /// is resolved as played).
    pub(crate) fn outcome(&self, s: &mut State, at: u8, target: Seat, hit: bool) {
        let Some(c) = s.current.as_mut() else { return };
        c.outcomes_started = true;
        c.at = at;
        c.effect = None;
        if let Some(t) = c.targets.get_mut(usize::from(at)) {
            *t = target;
        }
        let (kind, who, action) = (c.kind, c.who, c.action);
        let next = |s: &mut State| {
            if let Some(c) = s.current.as_mut() {
                c.at = at.saturating_add(1);
            }
        };
        if !hit {
            return next(s);
        }
        let card = match action {
            Action::Card(id) => Some(id),
            Action::Lure => None,
        };
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
                    return next(s);
                }
                let lasting: Effects = k.effects.iter().copied().filter(|e| !e.is_instant()).collect();
                if !lasting.is_empty() {
                    self.start_ongoing(s, target, Source::Card { by: who, card: id }, lasting, k.rounds);
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
    /// instance": the same source's earlier instance ends, on whichever fighter it was.
    pub(crate) fn start_ongoing(
        &self,
        s: &mut State,
        on: Seat,
        source: Source,
        effects: Effects,
        rounds: Option<u32>,
    ) {
        let since = s.round;
        for f in &mut s.fighters {
            if f.effects.iter().any(|o| o.source == source) {
                // Kept aside only to recognise a log that lets both count (`kf.effect.replace`).
                let (old, kept): (Vec<Ongoing>, Vec<Ongoing>) =
                    std::mem::take(&mut f.effects).into_iter().partition(|o| o.source == source);
                f.effects = kept;
                f.superseded.extend(old);
            }
        }
        // A card with nothing the form can express leaves nothing to track (its text was
        // reported as unverified).
        if !effects.is_empty() {
            s.cure_check |= effects.iter().any(|e| matches!(e, Effect::Immunity(_)));
            s.fighter_mut(on).effects.push(super::state::Ongoing { source, effects, rounds, since });
        }
    }

    /// Every outcome and effect of the current action is recorded: on to the next token,
    /// or (with more than 2 characters) the monster's second action after its first.
    pub(crate) fn end_action(&self, s: &mut State) {
        let Some(c) = s.current.take() else { return };
        let monster_first = s.fighter(c.who).is_monster() && !c.second;
        s.phase = if monster_first && s.characters > 2 {
            Phase::MonsterRoll { second: true }
        } else {
            Phase::Actions
        };
    }
}
