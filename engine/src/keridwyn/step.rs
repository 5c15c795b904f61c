//! The step function. A recorded consequence goes through the kit's consequence loop
//! (`check_recorded`: paired with what is due, judged, applied as played). A decision or a
//! random outcome first flushes what the log left out (each due reported once), unless it
//! may come before them (a reroll between a roll and its outcome), then is checked and
//! applied as played when it can be.

use super::cards::CardKind;
use super::event::Event;
use super::fact::{unresolved, Cause, Due, Fact};
use super::rules::{self, NoFirstAction, RerollRolls};
use super::setup::out_of_sequence;
use super::state::{Action, Phase, Recheck, Seat, State};
use super::KeridwynFight;
use crate::kit::due;
use crate::{Findings, StepError, Violation};

impl KeridwynFight {
    #[inline]
    pub(crate) fn step_event(&self, s: &mut State, ev: &Event, f: &mut Findings) -> Result<(), StepError> {
        // The roll-off just decided stays open to a Fame reroll until the next other record.
        if !s.rolloff.is_empty() && !matches!(ev, Event::Rerolled { .. }) {
            s.rolloff.clear();
        }
        // So does the monster's action die just rolled.
        if s.action_die.is_some() && !matches!(ev, Event::Rerolled { .. }) {
            s.action_die = None;
        }
        // So do the rolls a roll-off ended by a reroll's Fame still owed, to their rolls.
        if s.unrolled != 0 && self.unrolled_roll(s, ev).is_none() {
            s.unrolled = 0;
        }
        if ev.is_consequence() {
            if matches!(s.phase, Phase::TieBreak { .. }) || s.current.as_ref().is_some_and(|c| c.pick_pending)
            {
                self.decision_left_out(s, ev, f);
            }
            // The record is resolved and the head of the chain derived once, here, and shared
            // by the reorderings below and the common case: deriving the due is most of the
            // cost of a consequence's step. (Neither reordering changes the fighters or the
            // track, which are all resolving reads.)
            // The head first: resolving an `act` starts from the token it names.
            let mut head = self.next_due(s);
            let Some(recorded) = self.resolved(s, ev, head.as_ref()) else {
                return Err(unresolved(ev));
            };
            // Only a damage record can settle a worn gear choice left open; asked first, so the
            // other consequences do not walk the fighters. A choice settled may change the due.
            if matches!(recorded, Fact::DamageDealt { .. }) && self.settle_worn(s, &recorded) {
                head = self.next_due(s);
            }
            if let Fact::Outcome { target, .. } = recorded {
                if self.outcome_order(s, target, head.as_ref()) {
                    head = self.next_due(s);
                }
            }
            if let Some(due) = self.out_of_turn(s, &recorded, head.as_ref()) {
                if recorded != due.fact {
                    self.compare_fact(s, &due, &recorded, ev, f);
                }
                return self.apply_due(s, &due, &recorded, f);
            }
            // The line just recorded, written again where it is not what is due: one finding,
            // not applied, so the real next record is still the one owed (audit r6 D3: the copy
            // was taken for the next due, which was then dropped).
            if s.last_fact == Some(recorded) && head.as_ref().is_none_or(|d| d.fact != recorded) {
                let v = self.not_due(s, &recorded, ev);
                f.violate(Violation::new(
                    v.rule,
                    format!("`{ev}` is recorded twice: it was done by the line before (not applied again)"),
                ));
                return Ok(());
            }
            // The shared judgement, on the due and the record already worked out.
            due::judge_recorded(self, s, ev, head, &recorded, f)
        } else {
            if s.last_fact.is_some() {
                s.last_fact = None;
            }
            self.step_decision(s, ev, f)
        }
    }

    /// A decision or a random outcome (kept out of line, so that a consequence's step does
    /// not pay for this path's frame).
    #[inline(never)]
    fn step_decision(&self, s: &mut State, ev: &Event, f: &mut Findings) -> Result<(), StepError> {
        // Decisions the rules rule out altogether are reported and ignored before the
        // owed consequences are flushed (they do not show those are missing).
        if let Some(v) = self.needless(s, ev) {
            f.violate(v);
            return Ok(());
        }
        let at = s.phase.name();
        if !self.may_precede(s, ev) {
            due::flush(self, s, f)?;
        }
        if let Err(e) = self.decide(s, ev, f) {
            return Err(self.named_at(s, ev, at, e));
        }
        self.advance(s);
        Ok(())
    }

    /// A decision out of sequence names the phase the fight was at when it came (`at`, the
    /// phase `arbiter replay` shows before it), not only the one the consequences flushed
    /// before it brought the fight to (after a roll, a `target` flushed the outcomes and the
    /// end of round and was said to come at `reveal`). Other errors pass through.
    #[cold]
    fn named_at(&self, s: &State, ev: &Event, at: &str, e: StepError) -> StepError {
        let now = s.phase.name();
        if at == now || e != out_of_sequence(ev, s) {
            return e;
        }
        StepError::rule(
            rules::SEQUENCE,
            format!(
                "`{ev}` cannot happen now (the fight is at `{at}`, and at `{now}` once the consequences \
                 owed are applied)"
            ),
        )
    }

    /// An area attack's outcomes in the order the table states them. The rulebook names no
    /// order for an attack's targets, and its sample states Fire Breath's "fails against Player
    /// A and succeeds against Player B" (l.56) though turn order puts B first: when the outcome
    /// owed next is a target's and the record names another target of the same roll still to
    /// be resolved, that target is resolved now (the rest keep their turn order). Each hit's
    /// effects still follow it in card order (l.56 "cause 4 rounds of Burn, then deal damage").
    /// `head` is the due owed now; whether the targets were reordered (the head is then
    /// another).
    fn outcome_order(&self, s: &mut State, t: Seat, head: Option<&Due>) -> bool {
        let Some(&Due { cause: Cause::Outcome { at }, .. }) = head else { return false };
        let Some(c) = s.current.as_mut() else { return false };
        let at = usize::from(at);
        let later = c.targets.iter().skip(at.saturating_add(1)).position(|&x| x == t);
        let Some(j) = later.map(|p| p.saturating_add(at).saturating_add(1)) else { return false };
        let x = c.targets.remove(j);
        c.targets.insert(at, x);
        true
    }

    /// Consequences owed to several fighters at once, in the order the table states them.
    /// The end of round's ticks: "Once all actions are complete, ... reduce the duration of all
    /// ongoing effects by 1" (l.33) names no order, and the sample ticks Player B's Burn before
    /// the Wyvern's Slow and Weak (l.59) though turn order puts the Wyvern first. The monster's
    /// start-of-fight effects: "immediately causes 2 rounds of Burn to each of them" (l.48)
    /// names none either. Nor do a monster's awards: "each surviving character gains Fame ...,
    /// the character who made the last successful attack attains the monster card, and any other
    /// characters ... gain Fame equal to half" (l.37) states the card between the two Fames.
    /// While such a consequence is owed (the next due is one), a record of
    /// another fighter's still-owed one (a tick of another fighter or ailment; the same kind
    /// of start effect on another character) is that one's due, judged and applied as such.
    /// `recorded` is the record resolved, `head` the due owed now.
    fn out_of_turn(&self, s: &State, recorded: &Fact, head: Option<&Due>) -> Option<Due> {
        let head = head?;
        let recorded = *recorded;
        match recorded {
            Fact::Ticked { .. } if head.cause == Cause::Tick => {}
            Fact::Afflicted { .. } | Fact::DamageDealt { .. }
                if matches!(head.cause, Cause::Start { .. }) => {}
            Fact::FameGained { .. } | Fact::TrophyTaken { .. }
                if matches!(head.cause, Cause::Fame | Cause::Trophy) => {}
            _ => return None,
        }
        match recorded {
            Fact::FameGained { who, .. } => return self.fame_due_of(s, who).filter(|d| d.fact != head.fact),
            Fact::TrophyTaken { .. } => return self.trophy_due(s).filter(|d| d.fact != head.fact),
            _ => {}
        }
        let (w, ailment) = recorded.subject()?;
        let due = match head.cause {
            Cause::Tick if s.fighter(w).defeated => return None,
            Cause::Tick => super::due::tick_due_of(s, w, ailment?)?,
            _ => self.start_due_of(s, w)?,
        };
        let other = head.fact.subject() != due.fact.subject() && due.fact.same_kind(&recorded);
        other.then_some(due)
    }

    /// A consequence recorded where a decision was awaited, the decision left out: one
    /// finding, and the replay goes on as the log reads. A token recorded during a Finesse
    /// tie-break skipped the roll-off (kf.start.tiebreak): the recorded holder is taken as
    /// the roll-off's winner. An outcome recorded after a monster's roll whose random pick
    /// was left out (reported at the roll) names the pick.
    #[cold]
    fn decision_left_out(&self, s: &mut State, ev: &Event, f: &mut Findings) {
        match ev {
            Event::TokenGained { who } => {
                let Some(w) = self.seat(s, who) else { return };
                let Phase::TieBreak { tied, rolls, .. } = &s.phase else { return };
                let names: Vec<&str> = tied.iter().map(|&t| self.label(s, t)).collect();
                let names = names.join(" and ");
                let rolled = if rolls.is_empty() { "" } else { " (not all of them rolled)" };
                f.violate(Violation::new(
                    rules::TIEBREAK,
                    format!(
                        "{names} are tied for the Priority token and each roll Finesse; the log gives it \
                         without the roll-off{rolled} (taken as recorded)"
                    ),
                ));
                if !tied.contains(&w) {
                    f.violate(Violation::new(
                        rules::PRIORITY_TOKEN,
                        format!("{who} is not among those tied for the highest Fame ({names})"),
                    ));
                }
                let Phase::TieBreak { resume, .. } = &mut s.phase else { return };
                s.phase = std::mem::replace(resume.as_mut(), Phase::Over);
                s.recheck = Some(Recheck::To(w));
            }
            Event::Outcome { target, .. } => {
                if let Some(t) = self.seat(s, target) {
                    self.set_pick(s, t, f);
                }
            }
            _ => {}
        }
    }

    /// A reroll or recall belongs to the roll being resolved: it comes before that roll's
    /// outcomes (one after its first outcome is reported as such, not as outcomes left out).
    /// A monster's second action die rolled before its first action comes where it is.
    pub(crate) fn may_precede(&self, s: &State, ev: &Event) -> bool {
        (matches!(ev, Event::Rerolled { .. }) && s.current.as_ref().is_some_and(|c| c.rolled))
            // A recall is for its owner's own roll: one by another character is for a roll to
            // come (l.57 fixes no order between a recall and the dice), after these outcomes.
            || (match ev {
                Event::Recalled { who, .. } => {
                    s.current.as_ref().is_some_and(|c| {
                        c.rolled
                            && self
                                .seat(s, who)
                                .is_some_and(|i| i == c.who || !s.track.iter().any(|t| t.who == i))
                    })
                }
                _ => false,
            })
            // A tie-break die rerolled before the token its roll-off gave is recorded.
            || (!s.rolloff.is_empty() && self.tiebreak_reroll_due(s, ev))
            // The monster's action die rerolled right after it is rolled.
            || Self::rerolls_action_die(s, ev)
            // The monster's second die recorded before its first action is taken up: judged
            // where the log puts it (kf.monster.second-action), not after that action.
            || (matches!(ev, Event::MonsterActionRolled { .. }) && self.second_before_first_done(s))
    }

    /// The seat of a Finesse roll `ev` records, when it is one the roll-off a reroll's Fame
    /// ended still owed (`State::unrolled`) and no roll-off is open since.
    fn unrolled_roll(&self, s: &State, ev: &Event) -> Option<Seat> {
        let Event::Rolled { who, .. } = ev else { return None };
        if matches!(s.phase, Phase::TieBreak { .. }) || s.current.is_some() {
            return None;
        }
        let i = self.seat(s, who)?;
        let bit = 1u64.checked_shl(u32::try_from(i.i()).ok()?)?;
        (s.unrolled & bit != 0).then_some(i)
    }

    /// A roll for gear that does not attack, a second monster action with 2 characters or
    /// fewer, a Fame reroll during a Finesse tie-break with no action's roll to reroll, or a
    /// Finesse roll the roll-off a reroll's Fame ended no longer owes: there is nothing to
    /// decide.
    fn needless(&self, s: &State, ev: &Event) -> Option<Violation> {
        if s.unrolled != 0 {
            if let Some(i) = self.unrolled_roll(s, ev) {
                // `tiebreak-reroll=recheck`: the Fame paid re-checked the token from the Fame
                // (l.26 "each time after Fame changes"), so the roll-off that owed this roll is
                // over. Reported and ignored: the token due is the Fame's.
                return Some(Violation::new(
                    rules::TIEBREAK,
                    format!(
                        "`{ev}`: {} owes no Finesse roll for the token: the Fame a reroll cost ended the \
                         roll-off and the token goes by the Fame (tiebreak-reroll=recheck; not applied)",
                        self.label(s, i)
                    ),
                ));
            }
        }
        match ev {
            // "The roll" a Fame reroll changes is the action's (the sample's two, l.53 and l.56,
            // are both of an attack); a tie-break roll is not one, while the roll-off is open or
            // right after its last roll (before the token it gives is recorded: no flush, so the
            // token is not taken for left out). Reported and not applied, so the replay goes on
            // with the roll-off as the log records it.
            Event::Rerolled { .. }
                if self.params.reroll_rolls == RerollRolls::ActionRoll && Self::rerolls_action_die(s, ev) =>
            {
                Some(Violation::new(
                    rules::REROLL_ACTION_ROLL,
                    format!(
                        "`{ev}` rerolls the monster's action die: under reroll-rolls=action-roll a Fame reroll \
                         is of the roll of the action being resolved (not applied)"
                    ),
                ))
            }
            Event::Rerolled { .. }
                if self.params.reroll_rolls == RerollRolls::ActionRoll && Self::rerolls_tiebreak(s, ev) =>
            {
                Some(Violation::new(
                    rules::REROLL_ACTION_ROLL,
                    format!(
                        "`{ev}` rerolls a Finesse tie-break roll for the Priority token: a Fame reroll is of \
                         the roll of the action being resolved, and none is (not applied)"
                    ),
                ))
            }
            Event::Rolled { who, .. } if s.current.is_none() && !matches!(s.phase, Phase::AwaitRoll) => {
                let i = self.seat(s, who)?;
                let last = s.done.last().filter(|t| t.who == i)?;
                let Action::Card(id) = last.action else { return None };
                let card = self.catalog.cards.get(id)?;
                (card.kind == CardKind::Gear && card.attack.is_none()).then(|| {
                    Violation::new(
                        rules::GEAR_NO_ROLL,
                        format!(
                            "`{}` is gear that does not attack: it needs no roll, `{ev}` is not due",
                            self.catalog.cards.name(id)
                        ),
                    )
                })
            }
            Event::MonsterActionRolled { .. }
                // During the reveals too: a die rolled there already is this round's (the flag
                // is cleared as a round ends), so another is a second action.
                if self.counted_characters(s) <= 2
                    && s.monster_rolled
                    && !matches!(s.phase, Phase::MonsterRoll { .. }) =>
            {
                Some(Violation::new(
                    rules::SECOND_ACTION,
                    format!(
                        "with {} character(s) the monster has one action a round; `{ev}` is not due",
                        self.counted_characters(s)
                    ),
                ))
            }
            Event::MonsterActionRolled { .. }
                if self.params.no_first_action == NoFirstAction::NoSecondRoll
                    && self.first_gave_none(s)
                    && !matches!(s.phase, Phase::MonsterRoll { .. }) =>
            {
                Some(Violation::new(
                    rules::SECOND_ACTION,
                    format!(
                        "the monster's first action die gave no action, so it has no first action to complete \
                         and no second one this round (no-first-action=no-second-roll); `{ev}` is not due"
                    ),
                ))
            }
            _ => None,
        }
    }

    /// Check and apply a decision or a random outcome.
    fn decide(&self, s: &mut State, ev: &Event, f: &mut Findings) -> Result<(), StepError> {
        match ev {
            Event::Joined { .. } => self.join(s, ev, f),
            Event::MonsterPlaced { monster, place, number } => {
                self.place_monster(s, ev, monster, *place, *number, f)
            }
            Event::Begun => self.begin(s, ev, f),
            Event::Revealed { who, plays } => self.reveal(s, ev, who, plays, f),
            Event::MonsterActionRolled { monster, face } => self.monster_action(s, ev, monster, *face, f),
            Event::TargetPicked { who } => self.pick_target(s, ev, who, f),
            Event::Rolled { who, skill, dice } => self.roll(s, ev, who, *skill, dice, f),
            Event::Rerolled { payer, from, to, fame } => self.reroll(s, ev, payer, *from, *to, *fame, f),
            Event::Recalled { who, merc, bonus } => self.recall(s, ev, who, merc, *bonus, f),
            _ => Ok(()),
        }
    }
}
