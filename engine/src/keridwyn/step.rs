//! The step function. A recorded consequence goes through the kit's consequence loop
//! (`check_recorded`: paired with what is due, judged, applied as played). A decision or a
//! random outcome first flushes what the log left out (each due reported once), unless it
//! may come before them (a reroll between a roll and its outcome), then is checked and
//! applied as played when it can be.

use super::cards::CardKind;
use super::effect::Skill;
use super::event::Event;
use super::fact::{unresolved, Acting, Cause, Due, Fact};
use super::name::Name;
use super::rules::{self, NoFirstAction, OwnTieOrder, RerollRolls};
use super::setup::out_of_sequence;
use super::state::{Action, HeldRoll, Hint, Phase, Recheck, Seat, State, Token, Who};
use super::KeridwynFight;
use crate::kit::dice::Roll;
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
        // A roll held for this record (`HeldRoll`, cold).
        if s.held.is_some() && self.held_roll(s, ev, f)? {
            return Ok(());
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
            // A record that is not the due consequence: the table's slip is worked out (cold).
            if head.as_ref().is_none_or(|d| d.fact != recorded) {
                match self.reconcile(s, ev, &recorded, head, f)? {
                    Some(h) => head = h,
                    None => return Ok(()),
                }
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
        if self.roll_written_twice(s, ev) {
            f.violate(Violation::new(
                rules::SEQUENCE,
                format!(
                    "`{ev}` is recorded twice: the action was rolled by the line before (not applied again)"
                ),
            ));
            return Ok(());
        }
        // Decisions the rules rule out altogether are reported and ignored before the
        // owed consequences are flushed (they do not show those are missing).
        if let Some(v) = self.needless(s, ev) {
            if v.rule == rules::LURE {
                self.hold_lure_roll(s, ev);
            }
            f.violate(v);
            return Ok(());
        }
        let at = s.phase.name();
        if !self.may_precede(s, ev) {
            self.flush_owed(s, f)?;
        }
        if let Err(e) = self.decide(s, ev, f) {
            // A decision that shows the action's roll or the monster's action die was left out
            // (audit r6 D7): that one finding, then the decision as the log has it.
            if !self.gap_before(s, ev, f) {
                return Err(self.named_at(s, ev, at, e));
            }
            self.flush_owed(s, f)?;
            if let Err(e) = self.decide(s, ev, f) {
                return Err(self.named_at(s, ev, at, e));
            }
        }
        self.advance(s);
        Ok(())
    }

    /// Whether `ev` is the action's roll written again: the same fighter's roll with the same
    /// dice, the action rolled and none of its outcomes recorded yet. Each action rolls once
    /// ("Each attack indicates on the card what Skill to roll", l.5); taken as the next
    /// action's roll, the copy left out every outcome owed before it and that action's `act`
    /// (6 findings, then the replay stopped). A reroll is its own record (`reroll`).
    fn roll_written_twice(&self, s: &State, ev: &Event) -> bool {
        let Event::Rolled { who, dice, .. } = ev else { return false };
        s.current.as_ref().is_some_and(|c| {
            c.rolled && !c.outcomes_started && c.dice == *dice && self.seat(s, who) == Some(c.who)
        })
    }

    /// Report and apply every consequence owed before a decision (`due::flush`); the tokens
    /// it takes off the track were left out where they were owed, and a later `act` naming
    /// one is that slip written afterwards (`State::filled`).
    fn flush_owed(&self, s: &mut State, f: &mut Findings) -> Result<(), StepError> {
        let before = s.done.len();
        due::flush(self, s, f)?;
        for k in before..s.done.len() {
            mark_filled(s, k);
        }
        Ok(())
    }

    /// A recorded consequence that is not the one due (`head`): the table's slip, reported
    /// once under the rule it breaks, the state brought where the book puts it, the rest left
    /// to the shared judgement. `None`: the record is dealt with; else the due to judge it
    /// against.
    #[cold]
    #[inline(never)]
    fn reconcile(
        &self,
        s: &mut State,
        ev: &Event,
        recorded: &Fact,
        mut head: Option<Due>,
        f: &mut Findings,
    ) -> Result<Option<Option<Due>>, StepError> {
        // An `act` the replay already took as left out (at a roll of its own, or passed over as
        // gear that needs no roll), written late: the finding given there is the one slip
        // (audit r6 D4: `act B enhance-power` after its roll cost a second finding).
        if let Fact::Acted { who, action: Acting::Token(a) } = *recorded {
            if s.filled != 0 && !s.track.iter().any(|t| t.who == who && t.action == a) {
                let k = s.done.iter().rposition(|t| t.who == who && t.action == a);
                let bit = k.and_then(|k| 1u64.checked_shl(u32::try_from(k).ok()?)).unwrap_or(0);
                if s.filled & bit != 0 {
                    s.filled &= !bit;
                    return Ok(None);
                }
            }
        }
        // A monster's defeat refused because only its +4 Grit per character beyond the first
        // keeps it standing (due.rs): the awards the table writes for it, or the defeat written
        // again, follow from that one slip (audit r6 D8: each was a finding). The fight goes on.
        if let Some(Fact::Defeated { who: m }) = s.last_fact {
            let standing = s.fighters.get(m.i()).is_some_and(|x| x.is_monster() && !x.defeated);
            let follows = match *recorded {
                Fact::FameGained { .. } | Fact::TrophyTaken { .. } => true,
                Fact::Defeated { who } => who == m,
                _ => false,
            };
            if standing && follows {
                return Ok(None);
            }
        }
        // The line just recorded, written again where it is not what is due: one finding,
        // not applied, so the real next record is still the one owed (audit r6 D3: the copy
        // was taken for the next due, which was then dropped).
        if s.last_fact == Some(*recorded) {
            let v = self.not_due(s, recorded, ev);
            f.violate(Violation::new(
                v.rule,
                format!("`{ev}` is recorded twice: it was done by the line before (not applied again)"),
            ));
            return Ok(None);
        }
        // An `act` passing over the outcomes or effects of the action before it: an outcome
        // recorded next may be one of those, written late (`State::passed`).
        if matches!(recorded, Fact::Acted { .. })
            && head.is_some_and(|d| {
                matches!(d.cause, Cause::Outcome { .. } | Cause::Effect { .. } | Cause::SelfAilment { .. })
            })
        {
            s.passed = Hint(true);
        }
        // The monster's action die left out: an `act` (or any consequence where only the die
        // is awaited) comes after the reveals.
        if let Phase::MonsterRoll { second } = s.phase {
            if head.is_none() || matches!(recorded, Fact::Acted { .. }) {
                self.action_die_left_out(s, second, f);
                head = self.next_due(s);
            }
        }
        // The monster's `act` after its die was left out names its action.
        if s.action_unknown && self.unknown_action_token(s, recorded) {
            head = self.next_due(s);
        }
        // The action's roll left out: an outcome on its target where only the roll is awaited
        // (not one an `act` just passed over, written late).
        if head.is_none() && !s.passed.0 && self.outcome_unrolled(s, recorded) {
            let who = s.current.as_ref().map(|c| c.who);
            self.roll_left_out(s, Some(recorded), f);
            // The roll itself, written next, is the same slip written late.
            s.held = who.map(|w| Box::new(HeldRoll::Late(w)));
            head = self.next_due(s);
        }
        if let Some(d) = head.as_mut() {
            self.as_unrolled(s, d, recorded);
        }
        self.passed_over(s, head, recorded, f).map(Some)
    }

    /// Whether `recorded` is an outcome on a target of the action whose roll is awaited (its
    /// random pick, a character, when that is awaited).
    fn outcome_unrolled(&self, s: &State, recorded: &Fact) -> bool {
        let Fact::Outcome { target, .. } = *recorded else { return false };
        let Some(c) = s.current.as_ref().filter(|c| !c.rolled) else { return false };
        match s.phase {
            Phase::AwaitRoll => c.targets.contains(&target),
            Phase::AwaitTarget => s.fighters.get(target.i()).is_some_and(|t| !t.is_monster()),
            _ => false,
        }
    }

    /// The roll held for this record (`State::held`), taken off: whether the record is
    /// dealt with. A roll taken as left out and written now is the same slip, written late:
    /// no finding, its dice count for what of the action is still to come. A roll held as
    /// Lure's between characters, followed by a consequence where the roller's next action is
    /// owed, was that action's: its `act` is reported left out and the roll applied, and the
    /// record is then stepped.
    #[cold]
    #[inline(never)]
    fn held_roll(&self, s: &mut State, ev: &Event, f: &mut Findings) -> Result<bool, StepError> {
        let Some(held) = s.held.take() else { return Ok(false) };
        match *held {
            HeldRoll::Late(w) => {
                let Event::Rolled { who, dice, .. } = ev else { return Ok(false) };
                // Not a new action of theirs awaiting its own roll, nor a Finesse roll-off.
                let own_next = matches!(s.phase, Phase::AwaitRoll)
                    && s.current.as_ref().is_some_and(|c| c.who == w && !c.unrolled);
                if self.seat(s, who) != Some(w) || own_next || matches!(s.phase, Phase::TieBreak { .. }) {
                    return Ok(false);
                }
                if let Some(c) = s.current.as_mut().filter(|c| c.who == w && c.unrolled) {
                    c.dice = dice.clone();
                    c.unrolled = false;
                }
                Ok(true)
            }
            HeldRoll::Lure { who, skill, dice } => {
                if !ev.is_consequence() || matches!(ev, Event::Acted { .. }) || s.current.is_some() {
                    return Ok(false);
                }
                let next = self.next_token(s).map(|(_, t)| t).filter(|t| t.who == who);
                if !next.is_some_and(|t| self.action_skill(s, t.action) == Some(skill)) {
                    return Ok(false);
                }
                self.flush_owed(s, f)?;
                if !matches!(s.phase, Phase::AwaitRoll) {
                    return Ok(false);
                }
                let label = self.label(s, who).to_string();
                let again = Event::Rolled { who: Name::new(&label), skill, dice: dice.clone() };
                self.roll(s, &again, &label, skill, &dice, f)?;
                self.advance(s);
                Ok(false)
            }
        }
    }

    /// Hold a roll reported as Lure's between characters (`HeldRoll::Lure`).
    fn hold_lure_roll(&self, s: &mut State, ev: &Event) {
        if let Event::Rolled { who, skill, dice } = ev {
            if let Some(who) = self.seat(s, who) {
                s.held = Some(Box::new(HeldRoll::Lure { who, skill: *skill, dice: dice.clone() }));
            }
        }
    }

    /// Tokens that need no roll (gear that does not attack; Lure between characters) passed
    /// over by the `act` of a later token: each `act` left out, reported once and applied (its
    /// effect granted where the book puts it: "Their Heavy Shield on 11 simply takes place",
    /// l.53), so the later actions are judged as the book has them (audit r6 D2: the shield
    /// stayed on the track and every later `act` was a finding, the book's own `miss A` one).
    /// One participant's two tokens on one number are `reorder`'s (`own-tie-order`). Returns
    /// the due the record is then judged against.
    fn passed_over(
        &self,
        s: &mut State,
        mut head: Option<Due>,
        recorded: &Fact,
        f: &mut Findings,
    ) -> Result<Option<Due>, StepError> {
        let Fact::Acted { who: rw, action: Acting::Token(ra) } = *recorded else { return Ok(head) };
        let Some(rec) = s.track.iter().find(|t| t.who == rw && t.action == ra).copied() else {
            return Ok(head);
        };
        for _ in 0..=s.track.len() {
            let Some(d) = head else { break };
            let (Cause::Act, Fact::Acted { who: dw, action: Acting::Token(da) }) = (d.cause, d.fact) else {
                break;
            };
            if (dw, da) == (rw, ra) {
                break;
            }
            let Some(owed) = s.track.iter().find(|t| t.who == dw && t.action == da).copied() else { break };
            if dw == rw && owed.priority == rec.priority && self.params.own_tie_order == OwnTieOrder::Any {
                break;
            }
            if self.action_skill(s, owed.action).is_some() {
                break;
            }
            f.violate(due::left_out(self, s, &d));
            self.apply_due(s, &d, &d.fact, f)?;
            mark_filled(s, s.done.len().saturating_sub(1));
            head = self.next_due(s);
        }
        Ok(head)
    }

    /// The skill an action on the track rolls, `None` when it needs no roll: gear that does
    /// not attack (l.10 "they simply grant their effect"), Lure with no monster to lure.
    pub(crate) fn action_skill(&self, s: &State, action: Action) -> Option<Skill> {
        match action {
            Action::Lure => s.monster().filter(|&m| !s.fighter(m).defeated).map(|_| Skill::Wit),
            Action::Card(id) => {
                let k = self.catalog.cards.get(id)?;
                match k.attack {
                    Some(a) => Some(a.roll),
                    None if k.kind == CardKind::Spell => Some(Skill::Wit),
                    None => None,
                }
            }
        }
    }

    /// The due outcome or damage of an action whose roll was left out (`Current::unrolled`),
    /// as recorded: the dice are unknown, so any outcome may be the roll's, and a damage is
    /// the card's with some Accuracy (at most one a die of the roll's skill).
    fn as_unrolled(&self, s: &State, d: &mut Due, recorded: &Fact) {
        let Some(c) = s.current.as_ref().filter(|c| c.unrolled) else { return };
        match (d.fact, *recorded) {
            (Fact::Outcome { target, .. }, Fact::Outcome { target: t, .. }) if t == target => {
                d.fact = *recorded
            }
            (Fact::DamageDealt { who, damage, block, .. }, Fact::DamageDealt { who: w, damage: dr, .. })
                if w == who =>
            {
                let dice = i32::from(s.fighter(c.who).tier(c.skill));
                if dr >= damage && dr <= damage.saturating_add(dice) {
                    let injury = dr.saturating_sub(block).max(0);
                    d.fact = Fact::DamageDealt { who, damage: dr, block, injury };
                }
            }
            _ => {}
        }
    }

    /// A decision recorded where the action's roll or the monster's action die was still
    /// awaited, and that shows it was left out: another fighter's roll, a reveal or an action
    /// die while a roll is awaited; a roll or a reveal while the action die is. Reported once;
    /// whether the decision then applies is the caller's.
    #[cold]
    #[inline(never)]
    fn gap_before(&self, s: &mut State, ev: &Event, f: &mut Findings) -> bool {
        match s.phase {
            Phase::AwaitRoll | Phase::AwaitTarget => {
                let Some(c) = s.current.as_ref().filter(|c| !c.rolled) else { return false };
                let shows = match ev {
                    Event::Rolled { who, .. } => self.seat(s, who).is_some_and(|i| i != c.who),
                    Event::Revealed { .. } | Event::MonsterActionRolled { .. } => true,
                    _ => false,
                };
                if shows {
                    self.roll_left_out(s, None, f);
                }
                shows
            }
            // The action die written after the `act`s it was left out before: the same slip,
            // written late; it places the monster's token (none was named yet).
            Phase::Actions if s.action_unknown && matches!(ev, Event::MonsterActionRolled { .. }) => {
                s.action_unknown = false;
                s.set_phase(Phase::MonsterRoll { second: false });
                true
            }
            Phase::MonsterRoll { second } => {
                let shows = matches!(ev, Event::Rolled { .. } | Event::Revealed { .. });
                if shows {
                    self.action_die_left_out(s, second, f);
                }
                shows
            }
            _ => false,
        }
    }

    /// The action's roll left out (audit r6 D7: the outcome recorded was "not due", the next
    /// `act` and roll stopped the replay): one kf.roll.skill finding naming the roll ("Each
    /// attack indicates on the card what Skill to roll", l.5; "When using a Spell that does not
    /// attack, roll Wit", l.10). The outcome recorded next (`recorded`) is taken as the roll's;
    /// with none, the action is taken as having had no effect.
    fn roll_left_out(&self, s: &mut State, recorded: Option<&Fact>, f: &mut Findings) {
        let Some(c) = s.current.as_ref() else { return };
        let outcome = match recorded {
            Some(&Fact::Outcome { target, .. }) => Some(target),
            _ => None,
        };
        let then = if outcome.is_some() {
            "the outcome recorded is taken as the roll's"
        } else {
            "no outcome is recorded, so the action is taken as having had no effect"
        };
        let msg = format!(
            "the log leaves out {}'s {} roll for `{}` (each action rolls the Skill it names); {then}",
            self.label(s, c.who),
            c.skill,
            self.action_name(c.action)
        );
        f.violate(Violation::new(rules::ROLL_SKILL, msg));
        if matches!(s.phase, Phase::AwaitTarget) {
            if let Some(t) = outcome {
                self.set_pick(s, t, f);
            }
        }
        if let Some(c) = s.current.as_mut() {
            c.rolled = true;
            c.unrolled = true;
            c.dice = Roll::default();
            c.at = 0;
            c.effect = None;
            c.early = 0;
            c.pick_pending = false;
            if outcome.is_none_or(|t| !c.targets.contains(&t)) {
                c.targets.clear();
            }
        }
        s.set_phase(Phase::Rolled);
        self.advance(s);
    }

    /// The monster's action die left out (audit r6 D7: the `act`s after it were "not due" and
    /// the next roll stopped the replay): one kf.round.monster-action finding (l.32 "randomly
    /// choose what action the monster will use by rolling 1 die"); the actions go on, and the
    /// `act` the log records for the monster names its action (`unknown_action_token`).
    fn action_die_left_out(&self, s: &mut State, second: bool, f: &mut Findings) {
        let name = s.monster().map_or("the monster", |m| self.label(s, m));
        let which = if second { "second action die" } else { "action die" };
        let msg = format!(
            "the log leaves out {name}'s {which} (`action {name} N`): the action it uses is taken from the              `act` the log records for it"
        );
        f.violate(Violation::new(rules::MONSTER_ACTION, msg));
        s.monster_rolled = true;
        s.second_rolled |= second;
        s.action_unknown = true;
        s.set_phase(Phase::Actions);
    }

    /// Where the monster's action die was left out, its `act` naming one of its actions puts
    /// that action's token on the track (at its Priority, the monster's modifiers counted),
    /// to be judged there like any token. Whether it did.
    fn unknown_action_token(&self, s: &mut State, recorded: &Fact) -> bool {
        let Fact::Acted { who, action: Acting::Token(Action::Card(card)) } = *recorded else { return false };
        let Some(fighter) = s.fighters.get(who.i()) else { return false };
        let Who::Monster(id) = fighter.who else { return false };
        if fighter.defeated || s.track.iter().any(|t| t.who == who) {
            return false;
        }
        let Some(m) = self.catalog.monsters.get(id) else { return false };
        if !m.actions.iter().any(|(_, c)| *c == card) {
            return false;
        }
        let Some(base) = self.catalog.cards.get(card).and_then(|k| k.priority) else { return false };
        let second = s.done.iter().any(|t| t.who == who);
        let priority = self.token_priority(s, who, base, second);
        s.track.push(Token { who, action: Action::Card(card), priority, on: None, second });
        s.action_unknown = false;
        true
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
            Event::Rolled { who, skill, .. } if s.current.is_none() && !matches!(s.phase, Phase::AwaitRoll) => {
                let i = self.seat(s, who)?;
                let last = s.done.last().filter(|t| t.who == i)?;
                // Lure between characters has nothing to lure (no monster, nothing Breakable,
                // l.40), so its roll, the one the book describes Lure with (l.53), is not due:
                // one finding, not applied (audit r6 D5: it was taken as the next action's).
                if last.action == Action::Lure && s.monster().is_none() {
                    return Some(Violation::new(
                        rules::LURE,
                        format!(
                            "Lure has no effect in a fight between characters (there is no monster to lure): \
                             no roll is due, `{ev}` is not applied"
                        ),
                    ));
                }
                // The roller's next token rolls this skill: this is its roll, its `act` left out
                // (audit r6 D2: the roll was taken for the gear just used, which needs none).
                let next = self.next_token(s).map(|(_, t)| t).filter(|t| t.who == i);
                if next.is_some_and(|t| self.action_skill(s, t.action) == Some(*skill)) {
                    return None;
                }
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

/// Mark `s.done[k]` as a token the replay took as left out (`State::filled`).
fn mark_filled(s: &mut State, k: usize) {
    // A round of more than 64 tokens goes unmarked past the 64th.
    if let Some(bit) = u32::try_from(k).ok().and_then(|k| 1u64.checked_shl(k)) {
        s.filled |= bit;
    }
}
