//! Random outcomes and the decisions around a roll: the monster's d6 (its action, placed
//! on the track), the random target when neither condition chooses, the roll itself, and
//! what may come between a roll and its outcome: a reroll paid in Fame, a mercenary recalled.

use super::cards::{Area, MonsterId};
use super::compute::Targets;
use super::event::Event;
use super::rules::{self, ActionDieModifiers, ActionDieTime, NoFirstAction, RecallLimit};
use super::setup::out_of_sequence;
use super::state::{ActionDie, Phase, Seat, State, Token, Who};
use super::KeridwynFight;
use crate::kit::dice::Roll;
use crate::kit::effect::unverified;
use crate::{Findings, StepError, Violation};

impl KeridwynFight {
    /// `action wyvern 6`: the monster's action die, one of its skill dice (the sample puts it
    /// on the fight tracker and rolls it again among the Wyvern's four Might dice, l.51, l.55).
    pub(crate) fn monster_action(
        &self,
        s: &mut State,
        ev: &Event,
        monster: &str,
        face: u8,
        f: &mut Findings,
    ) -> Result<(), StepError> {
        // Rolled before every player revealed (reported under `action-die-time=after-reveals`):
        // the first die, or the second right after a first rolled there that gave no action
        // (`no-first-action=second-roll`: that first action is done at once).
        let reveals = matches!(s.phase, Phase::Reveal) && s.monster().is_some();
        let early_second = reveals && self.second_after_no_action(s);
        let early = reveals && (!s.monster_rolled || early_second);
        // Or the second die before the first action is completed (with more than 2
        // characters): reported, and the reveals or the actions go on from where they are.
        let premature = !early && self.second_before_first_done(s);
        let second = match s.phase {
            Phase::MonsterRoll { second } => second,
            _ if early => early_second,
            _ if premature => true,
            _ => return Err(out_of_sequence(ev, s)),
        };
        if premature {
            f.violate(Violation::new(
                rules::SECOND_ACTION,
                format!(
                    "`{ev}` is the monster's second action die, rolled before its first action of the round \
                     is completed (l.44: \"after the monster completes their first action of the round, they \
                     roll for a second action\")"
                ),
            ));
        }
        if early && self.params.action_die == ActionDieTime::AfterReveals {
            f.violate(Violation::new(
                rules::SEQUENCE,
                "the monster's action is rolled after every player has revealed their cards",
            ));
        }
        let m = s.monster().ok_or_else(|| out_of_sequence(ev, s))?;
        if self.seat(s, monster) != Some(m) {
            return Err(StepError::new(format!("`{monster}` is not the monster in this fight")));
        }
        let sides = self.params.die.sides();
        if !(1..=sides).contains(&face) {
            return Err(StepError::new(format!("the monster's die is a d{sides}; {face} is not a face")));
        }
        let mut die = ActionDie {
            monster: m,
            face,
            pushed: false,
            phase: s.phase.clone(),
            monster_rolled: s.monster_rolled,
            second_rolled: s.second_rolled,
        };
        s.monster_rolled = true;
        s.second_rolled |= second;
        let Who::Monster(id) = s.fighter(m).who else { return Err(out_of_sequence(ev, s)) };
        // The number that picks the action (`action-die-modifiers`): the face, or the face with
        // the monster's roll modifiers; one below 1 is bracketed by no action.
        let number = match self.params.action_modifiers {
            ActionDieModifiers::Face => face,
            ActionDieModifiers::RollModifiers => {
                u8::try_from(i32::from(face).saturating_add(self.roller_modifier(s, m)).max(0))
                    .unwrap_or(u8::MAX)
            }
        };
        let action = self.catalog.monster_action(id, number);
        if action.is_none() && number > 1 {
            self.unknown_action(s, m, id, number, f);
        }
        let base = action.and_then(|c| self.catalog.cards.get(c)).and_then(|c| c.priority);
        if let (Some(card), Some(base)) = (action, base) {
            let priority = self.token_priority(s, m, base, second);
            s.track.push(Token {
                who: m,
                action: super::state::Action::Card(card),
                priority,
                on: None,
                second,
            });
            die.pushed = true;
            if !early && !premature {
                s.set_phase(Phase::Actions);
            }
        } else if early || premature {
            // No action on a face rolled before every player revealed: the reveals go on (a
            // second roll, with more than 2 characters, comes once they are done: plan.rs).
        } else if !second
            && self.counted_characters(s) > 2
            && self.params.no_first_action == NoFirstAction::SecondRoll
        {
            // No action on this face: the second roll comes at once (`no-first-action`).
            s.set_phase(Phase::MonsterRoll { second: true });
        } else {
            s.set_phase(Phase::Actions);
        }
        s.action_die = Some(Box::new(die));
        Ok(())
    }

    /// A face other than 1 that the monster's card, as the catalog gives it, brackets no
    /// action for. Only a 1 may give no action (l.32 "Some monsters do not use any action if a
    /// 1 is rolled"), so the printed card has an action there that the catalog leaves out (the
    /// shipped and test catalogs print parts of cards): the monster takes no action the engine
    /// could check, reported unverified, and what the monster does this round is uncertain.
    #[cold]
    #[inline(never)]
    fn unknown_action(&self, s: &mut State, m: Seat, id: MonsterId, number: u8, f: &mut Findings) {
        let text = format!("[{number}]: an action this catalog does not give (l.32: only a 1 may give none)");
        let line = unverified(self.label(s, m), self.catalog.monsters.name(id), &text);
        let ordinal = s.unverified.report(f, line);
        s.fighter_mut(m).taint_by(ordinal, &text);
    }

    /// Whether `ev` is a Fame reroll of the monster's action die just rolled (no action's
    /// roll is being resolved, and the die shows the face it names).
    pub(crate) fn rerolls_action_die(s: &State, ev: &Event) -> bool {
        let Event::Rerolled { from, .. } = ev else { return false };
        s.action_die.as_ref().is_some_and(|d| d.face == *from) && s.current.as_ref().is_none_or(|c| !c.rolled)
    }

    /// A Fame reroll of the monster's action die (`reroll-rolls=any-roll`: "Fame ... can help
    /// characters ... change their luck", l.61, names no roll, and the sample's first reroll is
    /// of the monster's die, l.56). The pick the old face made is undone (its token taken off)
    /// and made again with the new face; the Fame is paid as for any reroll (audit r6 A2: it
    /// stopped the replay).
    fn reroll_action_die(
        &self,
        s: &mut State,
        ev: &Event,
        to: u8,
        f: &mut Findings,
    ) -> Result<(), StepError> {
        let Some(die) = s.action_die.take() else { return Err(out_of_sequence(ev, s)) };
        if die.pushed {
            if let Some(j) = s.track.iter().rposition(|t| t.who == die.monster) {
                s.track.remove(j);
            }
        }
        s.phase = die.phase.clone();
        s.monster_rolled = die.monster_rolled;
        s.second_rolled = die.second_rolled;
        let label = self.label(s, die.monster).to_string();
        let again = Event::MonsterActionRolled { monster: super::name::Name::new(&label), face: to };
        self.monster_action(s, &again, &label, to, f)
    }

    /// `target B`: the monster's random pick.
    pub(crate) fn pick_target(
        &self,
        s: &mut State,
        ev: &Event,
        who: &str,
        f: &mut Findings,
    ) -> Result<(), StepError> {
        if !matches!(s.phase, Phase::AwaitTarget) {
            return Err(out_of_sequence(ev, s));
        }
        let t = self.seat(s, who).ok_or_else(|| StepError::new(format!("no fighter `{who}`")))?;
        if s.current.is_none() {
            return Err(out_of_sequence(ev, s));
        }
        self.set_pick(s, t, f);
        s.set_phase(Phase::AwaitRoll);
        Ok(())
    }

    /// The monster's random pick is `t` (a `target`, or the first outcome recorded after a
    /// roll that left the pick out): checked against the characters it may attack.
    pub(crate) fn set_pick(&self, s: &mut State, t: Seat, f: &mut Findings) {
        let Some(attacker) = s.current.as_ref().map(|c| c.who) else { return };
        let candidates = match self.targets(s, attacker, Area::Single) {
            Targets::Chosen(t) | Targets::Random(t) => t,
            Targets::Balance(b) => smallvec::smallvec![b],
        };
        if !candidates.contains(&t) {
            f.violate(Violation::new(
                rules::TARGETING,
                format!("{} is not a living character the monster can attack", self.label(s, t)),
            ));
        }
        if let Some(c) = s.current.as_mut() {
            c.targets = smallvec::smallvec![t];
            c.pick_pending = false;
        }
    }

    /// A monster's roll where its random pick is awaited: the log left the `target` out
    /// (one finding, kf.monster.targeting). The replay goes on without a target; the first
    /// outcome recorded names the pick (step.rs), as a table that skipped writing it down
    /// would read its own log.
    fn pick_left_out(&self, s: &mut State, i: Seat, f: &mut Findings) {
        let Some(attacker) = s.current.as_ref().map(|c| c.who).filter(|&c| c == i) else { return };
        let names = match self.targets(s, attacker, Area::Single) {
            Targets::Random(t) | Targets::Chosen(t) => {
                t.iter().map(|&c| self.label(s, c)).collect::<Vec<_>>().join(", ")
            }
            Targets::Balance(b) => self.label(s, b).to_string(),
        };
        f.violate(Violation::new(
            rules::TARGETING,
            format!(
                "neither targeting condition chooses, so the target is picked at random among {names}; \
                 the log leaves out the pick (`target ...`) before the roll (the outcome recorded next is \
                 taken as naming it)"
            ),
        ));
        if let Some(c) = s.current.as_mut() {
            c.pick_pending = true;
        }
        s.set_phase(Phase::AwaitRoll);
    }

    /// `roll X SKILL dice`: the current action's roll, or a Finesse roll for the token.
    pub(crate) fn roll(
        &self,
        s: &mut State,
        ev: &Event,
        who: &str,
        skill: super::effect::Skill,
        dice: &Roll,
        f: &mut Findings,
    ) -> Result<(), StepError> {
        let sides = self.params.die.sides();
        if let Some(bad) = dice.off_die(sides) {
            return Err(StepError::new(format!("a die shows 1-{sides}, not {bad}")));
        }
        let i = self.seat(s, who).ok_or_else(|| StepError::new(format!("no fighter `{who}`")))?;
        if matches!(s.phase, Phase::TieBreak { .. }) {
            return self.tiebreak_roll(s, i, skill, dice, f);
        }
        if matches!(s.phase, Phase::AwaitTarget) {
            self.pick_left_out(s, i, f);
        }
        if !matches!(s.phase, Phase::AwaitRoll) {
            return Err(out_of_sequence(ev, s));
        }
        let Some(c) = s.current.as_ref() else { return Err(out_of_sequence(ev, s)) };
        if c.who != i {
            return Err(StepError::rule(
                rules::SEQUENCE,
                format!("the action being resolved is {}'s, not {who}'s", self.label(s, c.who)),
            ));
        }
        let taint = s.fighter(i).taint;
        let mark = |v: Violation| match taint {
            Some(o) => v.uncertain_after(o),
            None => v,
        };
        if skill != c.skill {
            f.violate(mark(
                Violation::new(
                    rules::ROLL_SKILL,
                    format!("`{}` is rolled with {}, not {skill}", self.action_name(c.action), c.skill),
                )
                .expected_recorded(format!("roll {who} {} ...", c.skill), ev.to_string()),
            ));
        }
        let tier = usize::from(s.fighter(i).tier(c.skill));
        // The wrong skill rolled with that skill's own number of dice is one slip, the skill
        // (audit r6 D10: it was a dice-count finding too).
        let as_rolled = skill != c.skill && dice.len() == usize::from(s.fighter(i).tier(skill));
        if dice.len() != tier && !as_rolled {
            f.violate(mark(Violation::new(
                rules::DICE_COUNT,
                format!("{who} has {} tier {tier} and rolls {tier} dice, not {}", c.skill, dice.len()),
            )));
        }
        // A roll: an outcome recorded from now on is for this action (`State::passed`).
        s.passed = super::state::Hint(false);
        if let Some(c) = s.current.as_mut() {
            c.dice = dice.clone();
            c.rolled = true;
            c.at = 0;
            c.effect = None;
            c.early = 0;
        }
        s.set_phase(Phase::Rolled);
        Ok(())
    }

    /// Rerolls and recalls need a roll whose outcome is not yet stated.
    fn before_outcome(&self, s: &State, ev: &Event, f: &mut Findings) -> Result<(), StepError> {
        match &s.current {
            Some(c) if c.rolled => {
                if c.outcomes_started {
                    f.violate(Violation::new(
                        rules::REROLL_WHEN,
                        format!("`{ev}` after the roll's outcome was stated"),
                    ));
                }
                Ok(())
            }
            _ => Err(out_of_sequence(ev, s)),
        }
    }

    /// `reroll A 9 -> 6 fame 2`
    pub(crate) fn reroll(
        &self,
        s: &mut State,
        ev: &Event,
        payer: &str,
        from: u8,
        to: u8,
        fame: i32,
        f: &mut Findings,
    ) -> Result<(), StepError> {
        let tiebreak = self.tiebreak_reroll_due(s, ev);
        let action_die = !tiebreak && Self::rerolls_action_die(s, ev);
        if !tiebreak && !action_die {
            self.before_outcome(s, ev, f)?;
        }
        let p = self.seat(s, payer).ok_or_else(|| StepError::new(format!("no fighter `{payer}`")))?;
        let sides = self.params.die.sides();
        if !(1..=sides).contains(&to) {
            return Err(StepError::new(format!("a die shows 1-{sides}, not {to}")));
        }
        if tiebreak && (s.fighter(p).is_monster() || s.fighter(p).defeated) {
            return self.tiebreak_reroll(s, ev, p, (from, to), false, f);
        }
        let cost = self.params.reroll_cost;
        let payer_f = s.fighter(p);
        if payer_f.is_monster() || payer_f.defeated {
            f.violate(Violation::new(
                rules::REROLL_FAME,
                format!("{payer} cannot spend Fame: only characters in the fight reroll"),
            ));
        } else if payer_f.fame < cost {
            // No record of this reroll is right: no expected value is shown.
            f.violate(Violation::new(
                rules::REROLL_FAME,
                format!(
                    "a reroll costs {cost} Fame and {payer} has only {}: {payer} cannot reroll",
                    payer_f.fame
                ),
            ));
        } else if fame != cost {
            f.violate(
                Violation::new(rules::REROLL_FAME, format!("a reroll costs {cost} Fame, not {fame}"))
                    .expected_recorded(format!("reroll {payer} {from} -> {to} fame {cost}"), ev.to_string()),
            );
        }
        // The Fame as paid: the recorded price, applied as played, unless the payer does not
        // have it. Fame cannot be spent below nothing ("expend 2 Fame", l.56): a reroll the
        // payer cannot afford is the finding above, and its Fame stays (the table's later
        // Fame awards count from it, not from a negative total).
        let affords = s.fighter(p).fame >= fame;
        let paid = if affords { fame } else { 0 };
        if tiebreak {
            // Whether the Fame changes is what `tiebreak-reroll=recheck` asks.
            let before = s.fighter(p).fame;
            let after = before.saturating_sub(paid);
            self.tiebreak_reroll(s, ev, p, (from, to), after != before, f)?;
            s.fighter_mut(p).fame = after;
            return Ok(());
        }
        if action_die {
            if !s.fighter(p).is_monster() && affords {
                let fp = s.fighter_mut(p);
                fp.fame = fp.fame.saturating_sub(paid);
                s.recheck = Some(super::state::Recheck::Check);
            }
            return self.reroll_action_die(s, ev, to, f);
        }
        if s.current.is_none() {
            return Err(out_of_sequence(ev, s));
        }
        let Some(c) = s.current.as_mut() else { return Ok(()) };
        if !c.dice.reroll(from, to) {
            return Err(StepError::new(format!("`{ev}`: the roll {} has no die showing {from}", c.dice)));
        }
        if !s.fighter(p).is_monster() && affords {
            let fp = s.fighter_mut(p);
            fp.fame = fp.fame.saturating_sub(paid);
            s.recheck = Some(super::state::Recheck::Check);
        }
        Ok(())
    }

    /// Whether a mercenary last recalled in `last` may not be recalled again in `round`.
    pub(crate) fn recalled(&self, last: Option<u32>, round: u32) -> bool {
        match self.params.recall {
            RecallLimit::OncePerFight => last.is_some(),
            RecallLimit::OncePerRound => last == Some(round),
        }
    }

    /// `recall B chargo +1`
    pub(crate) fn recall(
        &self,
        s: &mut State,
        ev: &Event,
        who: &str,
        merc: &str,
        bonus: i32,
        f: &mut Findings,
    ) -> Result<(), StepError> {
        // Declared once the action is being resolved, before its dice are rolled, is as good as
        // after them: "They decide to recall their mercenary Chargo to gain +1 on the roll"
        // (l.57) fixes no order between the recall and the dice (audit r6 A1: it stopped the
        // replay). The bonus is kept on the action and counts once the dice come.
        let before_roll = matches!(s.phase, Phase::AwaitRoll | Phase::AwaitTarget)
            && s.current.as_ref().is_some_and(|c| !c.rolled);
        if !before_roll {
            self.before_outcome(s, ev, f)?;
        }
        let i = self.seat(s, who).ok_or_else(|| StepError::new(format!("no fighter `{who}`")))?;
        let id = self
            .catalog
            .mercs
            .id(merc)
            .ok_or_else(|| StepError::new(format!("no mercenary `{merc}` in the catalog")))?;
        let card = &self.catalog.mercs[id];
        let roller = s.current.as_ref().map(|c| c.who);
        let entry = s.fighter(i).mercs.iter().position(|(m, _)| *m == id);
        let again = match self.params.recall {
            RecallLimit::OncePerFight => "this fight",
            RecallLimit::OncePerRound => "this round",
        };
        let problem = match entry {
            None => Some(match s.fighters.iter().find(|x| x.mercs.iter().any(|(m, _)| *m == id)) {
                Some(with) => {
                    format!("{merc} is with {}, not {who}: one mercenary card, one character", with.label)
                }
                None => format!("{who} has no mercenary `{merc}` with them"),
            }),
            Some(e) if self.recalled(s.fighter(i).mercs[e].1, s.round) => {
                Some(format!("{merc} was already recalled {again}"))
            }
            _ if roller != Some(i) => Some(format!("{who} can only recall for their own roll")),
            _ if bonus != card.roll_bonus => Some(format!("{merc} gives {:+}", card.roll_bonus)),
            _ => None,
        };
        if let Some(p) = problem {
            let v = Violation::new(rules::RECALL, p);
            f.violate(if bonus != card.roll_bonus {
                v.expected_recorded(format!("recall {who} {merc} {:+}", card.roll_bonus), ev.to_string())
            } else {
                v
            });
        }
        if let Some(e) = entry {
            s.fighter_mut(i).mercs[e].1 = Some(s.round);
        }
        if let Some(c) = s.current.as_mut() {
            c.bonus = c.bonus.saturating_add(bonus);
        }
        Ok(())
    }
}
