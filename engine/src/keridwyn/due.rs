//! What the rules require next, derived from the state: the ordered chain of "is X due?"
//! predicates (18xx's steps), interrupts first, then the agenda of the phase, whose
//! position is a cursor in the state (which target, which effect of the card, which
//! ailments ticked), never a queue. `advance` makes the moves that need no record (an
//! action ending, the token re-check that changes nothing) whenever nothing is due.
//!
//! This is the game's side of the kit's consequence loop (`kit::due::Consequences`):
//! `check_recorded` pairs a recorded consequence with what is due here, `flush` reports
//! what a log left out, and `next_consequence` writes the head of the chain back as notation.

use super::cards::ActionCard;
use super::compute::TokenWinner;
use super::effect::{Ailment, Effect};
use super::event::Event;
use super::fact::{Acting, Cause, Due, Fact};
use super::rules::{self, FameOnDefeat};
use super::state::{Action, ActionKind, Current, Phase, Recheck, Seat, State, Who};
use super::KeridwynFight;
use crate::kit::due::{Consequences, Pairing};
use crate::{Findings, StepError};

impl KeridwynFight {
    /// The head of the chain.
    pub(crate) fn next_due(&self, s: &State) -> Option<Due> {
        match s.phase {
            Phase::Joining | Phase::TieBreak { .. } => None,
            Phase::Over => self.award_due(s),
            // The interrupts are gated here on the flags that make them possible, so the
            // common step (none of them owed) pays a few loads, not a call each.
            _ => {
                if s.someone_down() {
                    if let Some(d) = self.defeat_due(s) {
                        return Some(d);
                    }
                }
                if s.recheck.is_some() {
                    if let Some(d) = self.token_due(s) {
                        return Some(d);
                    }
                }
                if s.cure_check {
                    if let Some(d) = self.cure_due(s) {
                        return Some(d);
                    }
                }
                if s.starting {
                    if let Some(d) = self.start_due(s) {
                        return Some(d);
                    }
                }
                self.phase_due(s)
            }
        }
    }

    /// A living fighter at 0 Grit is defeated.
    fn defeat_due(&self, s: &State) -> Option<Due> {
        if !s.someone_down() {
            return None;
        }
        let who = self.turn_order(s).find(|&i| s.fighter(i).grit <= 0)?;
        Some(Due { fact: Fact::Defeated { who }, cause: Cause::Defeat })
    }

    /// Fame changed (or the holder fell): the token goes to the highest Fame.
    fn token_due(&self, s: &State) -> Option<Due> {
        let to = match s.recheck? {
            Recheck::Check => match self.token_winner(s) {
                TokenWinner::To(w) => w,
                _ => return None,
            },
            Recheck::To(w) if s.holder != Some(w) => w,
            Recheck::To(_) => return None,
        };
        Some(Due { fact: Fact::TokenGained { who: to }, cause: Cause::Token })
    }

    /// An Immune fighter still afflicted by the ailment.
    fn cure_due(&self, s: &State) -> Option<Due> {
        if !s.cure_check || s.fighters.iter().all(|f| f.ailments == [0; 4] || f.defeated) {
            return None;
        }
        for i in self.turn_order(s) {
            let f = s.fighter(i);
            if f.ailments == [0; 4] {
                continue;
            }
            let immune = self.immunities(s, i);
            if immune == 0 {
                continue;
            }
            for &a in Ailment::ALL {
                if f.ailment(a) > 0 && immune & (1 << a.index()) != 0 {
                    return Some(Due {
                        fact: Fact::Cured { who: i, ailment: a, from: f.ailment(a) },
                        cause: Cause::Cure,
                    });
                }
            }
        }
        None
    }

    /// The monster's start-of-fight effects, on each character in turn order.
    fn start_due(&self, s: &State) -> Option<Due> {
        if !s.starting {
            return None;
        }
        self.characters(s).find_map(|i| self.start_due_of(s, i))
    }

    /// The next start-of-fight effect character `i` is owed, in card order.
    pub(crate) fn start_due_of(&self, s: &State, i: Seat) -> Option<Due> {
        let m = s.monster()?;
        let Who::Monster(card) = s.fighter(m).who else { return None };
        let start = &self.catalog.monsters.get(card)?.start;
        let f = s.fighter(i);
        for (k, e) in start.iter().enumerate() {
            if f.started & (1 << k) != 0 {
                continue;
            }
            let cause = Cause::Start { effect: k as u8 };
            match *e {
                Effect::Ailment(a, n) if !self.immune(s, i, a) => {
                    let total = f.ailment(a).saturating_add(n);
                    return Some(Due { fact: Fact::Afflicted { who: i, ailment: a, add: n, total }, cause });
                }
                Effect::Damage(base) => {
                    // Not an attack: no Accuracy, no Block.
                    let damage = self.base_damage(s, i, base).max(0);
                    let fact = Fact::DamageDealt { who: i, damage, block: 0, injury: damage };
                    return Some(Due { fact, cause });
                }
                _ => {}
            }
        }
        None
    }

    /// The phase's own agenda.
    fn phase_due(&self, s: &State) -> Option<Due> {
        match s.phase {
            Phase::AwaitRoll | Phase::AwaitTarget => self.self_due(s),
            Phase::Rolled => self.self_due(s).or_else(|| self.action_due(s)),
            Phase::Actions => {
                if let Some((_, t)) = self.next_token(s) {
                    return Some(Due {
                        fact: Fact::Acted { who: t.who, action: Acting::Token(t.action) },
                        cause: Cause::Act,
                    });
                }
                self.tick_due(s)
                    .or(Some(Due { fact: Fact::RoundEnded { round: s.round }, cause: Cause::EndRound }))
            }
            _ => None,
        }
    }

    /// The acting fighter's own ailments from its card, as the action starts.
    #[inline]
    fn self_due(&self, s: &State) -> Option<Due> {
        let c = s.current.as_ref()?;
        let Action::Card(id) = c.action else { return None };
        let card = self.catalog.cards.get(id)?;
        // Asked on every step of an action; most cards have no effect on their user.
        if card.self_effects.len() <= usize::from(c.self_next) {
            return None;
        }
        self.self_ailment_due(s, c, card)
    }

    #[inline(never)]
    fn self_ailment_due(&self, s: &State, c: &Current, card: &ActionCard) -> Option<Due> {
        let f = s.fighter(c.who);
        if f.defeated {
            return None;
        }
        for (k, e) in card.self_effects.iter().enumerate().skip(usize::from(c.self_next)) {
            if let Effect::Ailment(a, n) = *e {
                if !self.immune(s, c.who, a) {
                    let fact = Fact::Afflicted {
                        who: c.who,
                        ailment: a,
                        add: n,
                        total: f.ailment(a).saturating_add(n),
                    };
                    return Some(Due { fact, cause: Cause::SelfAilment { effect: k as u8 } });
                }
            }
        }
        None
    }

    /// After the roll: the outcome on each target in turn, and after a hit the card's
    /// instant effects on that target in card order.
    pub(crate) fn action_due(&self, s: &State) -> Option<Due> {
        let c = s.current.as_ref().filter(|c| c.rolled)?;
        let effects: &[Effect] = match c.action {
            Action::Card(id) => self.catalog.cards.get(id).map_or(&[], |k| &k.effects),
            Action::Lure => &[],
        };
        let mut at = usize::from(c.at);
        let mut next = c.effect;
        while let Some(&target) = c.targets.get(at) {
            let t = s.fighter(target);
            match next {
                None if !t.defeated => {
                    let hit = self.succeeds(s, c, target);
                    return Some(Due {
                        fact: Fact::Outcome { target, hit },
                        cause: Cause::Outcome { at: at as u8 },
                    });
                }
                None => {}
                Some(k) => {
                    let early = if at == usize::from(c.at) { c.early } else { 0 };
                    for (j, e) in effects.iter().enumerate().skip(usize::from(k)) {
                        if t.defeated {
                            break;
                        }
                        if early & (1u64 << j) != 0 {
                            continue;
                        }
                        let cause = Cause::Effect { at: at as u8, effect: j as u8 };
                        match *e {
                            Effect::Damage(base) => {
                                let damage = self.damage(s, c, target, base);
                                let block = self.block(s, c, target);
                                let injury = damage.saturating_sub(block).max(0);
                                let fact = Fact::DamageDealt { who: target, damage, block, injury };
                                return Some(Due { fact, cause });
                            }
                            Effect::Ailment(a, n) if !self.immune(s, target, a) => {
                                let fact = Fact::Afflicted {
                                    who: target,
                                    ailment: a,
                                    add: n,
                                    total: t.ailment(a).saturating_add(n),
                                };
                                return Some(Due { fact, cause });
                            }
                            _ => {}
                        }
                    }
                }
            }
            at += 1;
            next = None;
        }
        None
    }

    /// Whether `action_due` has anything left (without computing its numbers).
    fn action_pending(&self, s: &State) -> bool {
        let Some(c) = s.current.as_ref().filter(|c| c.rolled) else { return false };
        if c.pick_pending {
            // The random pick left out: the outcome recorded next names it.
            return true;
        }
        let effects: &[Effect] = match c.action {
            Action::Card(id) => self.catalog.cards.get(id).map_or(&[], |k| &k.effects),
            Action::Lure => &[],
        };
        let mut at = usize::from(c.at);
        let mut next = c.effect;
        while let Some(&target) = c.targets.get(at) {
            let t = s.fighter(target);
            match next {
                None if !t.defeated => return true,
                None => {}
                Some(_) if t.defeated => {}
                // Rare: an ailment was recorded ahead of the cursor; ask the full question.
                Some(_) if at == usize::from(c.at) && c.early != 0 => return self.action_due(s).is_some(),
                Some(k) => {
                    let rest = effects.get(usize::from(k)..).unwrap_or(&[]);
                    // A damage is always owed; the target's Immunities (a pass over its
                    // effects) are looked at only when an ailment is the question.
                    if rest.iter().any(|e| matches!(e, Effect::Damage(_))) {
                        return true;
                    }
                    if rest.iter().any(|e| matches!(e, Effect::Ailment(..))) {
                        let immune = self.immunities(s, target);
                        let owed = |e: &Effect| matches!(*e, Effect::Ailment(a, _) if immune & (1 << a.index()) == 0);
                        if rest.iter().any(owed) {
                            return true;
                        }
                    }
                }
            }
            at += 1;
            next = None;
        }
        false
    }

    /// `recorded`, an ailment on the target of `due` (the ailment the cursor owes next), as
    /// the effect that owes it: one of the same unbroken run of ailment effects of the card,
    /// not yet applied. A damage between them keeps the card's order (l.56 "cause 4 rounds
    /// of Burn, then deal damage").
    fn ailment_ahead(&self, s: &State, due: &Due, recorded: &Fact) -> Option<Due> {
        let (Cause::Effect { at, effect: k }, Fact::Afflicted { who, ailment: owed, .. }) =
            (due.cause, due.fact)
        else {
            return None;
        };
        let Fact::Afflicted { who: w, ailment, .. } = *recorded else { return None };
        if w != who || ailment == owed {
            return None;
        }
        let c = s.current.as_ref()?;
        let Action::Card(id) = c.action else { return None };
        let effects = &self.catalog.cards.get(id)?.effects;
        let early = if c.at == at { c.early } else { 0 };
        for (j, e) in effects.iter().enumerate().skip(usize::from(k) + 1) {
            match *e {
                Effect::Ailment(a, n) if a == ailment => {
                    if early & (1u64 << j) != 0 || self.immune(s, who, a) {
                        return None;
                    }
                    let total = s.fighter(who).ailment(a).saturating_add(n);
                    let fact = Fact::Afflicted { who, ailment: a, add: n, total };
                    return Some(Due { fact, cause: Cause::Effect { at, effect: j as u8 } });
                }
                Effect::Ailment(..) => {}
                _ => return None,
            }
        }
        None
    }

    /// End of round: every ailment of every fighter drops by one, in turn order.
    fn tick_due(&self, s: &State) -> Option<Due> {
        self.turn_order(s).find_map(|i| Ailment::ALL.iter().find_map(|&a| tick_due_of(s, i, a)))
    }

    /// After a monster's defeat: Fame for each surviving character, then the monster card.
    fn award_due(&self, s: &State) -> Option<Due> {
        self.characters(s).find_map(|i| self.fame_due_of(s, i)).or_else(|| self.trophy_due(s))
    }

    /// Character `i`'s Fame for the monster's defeat, while it is owed.
    pub(crate) fn fame_due_of(&self, s: &State, i: Seat) -> Option<Due> {
        if !s.awarding {
            return None;
        }
        let m = s.monster()?;
        let f = s.fighter(i);
        if f.awarded || f.defeated || f.is_monster() {
            return None;
        }
        let delta = self.award(s, i, s.fighter(m).fame);
        // A +0 award changes nothing: the rules do not owe its record (a table may write it;
        // `zero_award` accepts it), as with a hit that deals nothing.
        (delta != 0).then(|| Due {
            fact: Fact::FameGained { who: i, delta, total: f.fame.saturating_add(delta) },
            cause: Cause::Fame,
        })
    }

    /// The monster card for the last successful attacker, while it is owed.
    pub(crate) fn trophy_due(&self, s: &State) -> Option<Due> {
        if !s.awarding {
            return None;
        }
        let m = s.monster()?;
        let w = s.last_hit.filter(|_| !s.trophy_given)?;
        let Who::Monster(monster) = s.fighter(m).who else { return None };
        Some(Due { fact: Fact::TrophyTaken { who: w, monster: Some(monster) }, cause: Cause::Trophy })
    }

    /// The Fame a surviving character gains for a monster of this Rank.
    fn award(&self, s: &State, i: Seat, rank: i32) -> i32 {
        // The half clause covers every survivor but the last successful attacker, that
        // attacker defeated or not (`fame-on-defeat`; the independent checks' reading of l.37).
        if self.params.fame == FameOnDefeat::RankToAll || s.last_hit == Some(i) {
            rank
        } else {
            rank / 2
        }
    }

    /// `fame X +0 -> F` (F its Fame) for a surviving character whose award is 0 (half a
    /// Rank 1, rounded down): the award written out, a change of nothing; no finding.
    fn zero_award(&self, s: &State, fact: &Fact) -> bool {
        let Fact::FameGained { who, delta: 0, total } = *fact else { return false };
        let Some(m) = s.monster() else { return false };
        let f = s.fighter(who);
        s.awarding
            && !f.is_monster()
            && !f.defeated
            && total == f.fame
            && self.award(s, who, s.fighter(m).fame) == 0
    }

    /// Make the moves no record stands for, until something is due or a decision is awaited.
    #[inline]
    pub(crate) fn advance(&self, s: &mut State) {
        // Nobody at 0 Grit: the defeat interrupt need not be looked for until Grit goes down.
        if s.may_be_down.0 && !s.someone_down() {
            s.may_be_down.0 = false;
        }
        // Only three moves need no record: the token's re-check settling, the start effects
        // running out, an action ending. Most steps have none to make, and pay this test
        // in line rather than a call.
        if s.recheck.is_none() && !s.starting && !s.cure_check && !matches!(s.phase, Phase::Rolled) {
            return;
        }
        self.advance_moves(s);
    }

    #[inline(never)]
    fn advance_moves(&self, s: &mut State) {
        // Each pass changes the state towards a due or a decision; bounded all the same.
        for _ in 0..64 {
            if s.recheck.is_none() && !s.starting && !s.cure_check && !matches!(s.phase, Phase::Rolled) {
                return;
            }
            if matches!(s.phase, Phase::Joining | Phase::TieBreak { .. } | Phase::Over)
                || self.defeat_due(s).is_some()
            {
                return;
            }
            match s.recheck {
                Some(Recheck::Check) => match self.token_winner(s) {
                    TokenWinner::Unchanged => {
                        s.recheck = None;
                        continue;
                    }
                    TokenWinner::Tie(tied) => {
                        s.recheck = None;
                        let resume = Box::new(std::mem::replace(&mut s.phase, Phase::Over));
                        s.phase = Phase::TieBreak { tied, rolls: Vec::new(), resume };
                        return;
                    }
                    TokenWinner::To(_) => return,
                },
                Some(Recheck::To(w)) if s.holder == Some(w) => {
                    s.recheck = None;
                    continue;
                }
                Some(Recheck::To(_)) => return,
                None => {}
            }
            if s.cure_check {
                if self.cure_due(s).is_some() {
                    return;
                }
                s.cure_check = false;
            }
            if s.starting {
                if self.start_due(s).is_some() {
                    return;
                }
                s.starting = false;
            }
            // An action whose every outcome and effect is recorded is over.
            if matches!(s.phase, Phase::Rolled) && self.self_due(s).is_none() && !self.action_pending(s) {
                self.end_action(s);
                continue;
            }
            return;
        }
    }

    /// Apply a due consequence as `played` (the record, or the due's own values).
    pub(crate) fn apply_due(
        &self,
        s: &mut State,
        due: &Due,
        played: &Fact,
        f: &mut Findings,
    ) -> Result<(), StepError> {
        // The last consequence applied, to tell the same line written again (step.rs).
        s.last_fact = Some(*played);
        match (due.cause, *played) {
            (Cause::Token, Fact::TokenGained { who }) => {
                s.holder = Some(who);
                s.recheck = None;
            }
            (Cause::Cure, Fact::Cured { who, ailment, .. }) => {
                s.fighter_mut(who).ailments[ailment.index()] = 0
            }
            (Cause::Start { effect }, played) => {
                if let Some((who, _)) = due.fact.subject() {
                    s.fighter_mut(who).started |= 1 << effect;
                }
                self.apply_change(s, &played);
            }
            (Cause::SelfAilment { effect }, played) => {
                if let Some(c) = s.current.as_mut() {
                    c.self_next = effect.saturating_add(1);
                }
                self.apply_change(s, &played);
            }
            (Cause::Act, Fact::Acted { who, action }) => self.take_token(s, due, who, action, f)?,
            (Cause::Outcome { at }, Fact::Outcome { target, hit }) => self.outcome(s, at, target, hit),
            (Cause::Effect { at, effect }, played) => {
                if let Some(c) = s.current.as_mut() {
                    match c.effect {
                        // An ailment recorded ahead of the one the cursor owes (`reorder`):
                        // marked done, the cursor stays on the earlier one.
                        Some(k) if c.at == at && effect > k => c.early |= 1u64 << effect,
                        _ => {
                            if c.at != at {
                                c.early = 0;
                            }
                            c.at = at;
                            c.effect = Some(effect.saturating_add(1));
                        }
                    }
                }
                self.apply_change(s, &played);
            }
            (Cause::Defeat, Fact::Defeated { who }) => self.defeat(s, who),
            (Cause::Tick, Fact::Ticked { who, ailment, to, injury, .. }) => {
                if let Some((w, Some(a))) = due.fact.subject() {
                    s.fighter_mut(w).ticked |= 1 << a.index();
                }
                let fi = s.fighter_mut(who);
                fi.ailments[ailment.index()] = to;
                fi.grit = fi.grit.saturating_sub(injury.unwrap_or(0)).max(0);
                s.grit_changed();
                // A tick recorded upwards on an Immune fighter is removed at once.
                s.cure_check |= to > 0 && self.immune(s, who, ailment);
                // The round's last tick ends a fight an earlier tick's defeat decided.
                self.settle_after_ticks(s, who);
            }
            (Cause::EndRound, _) => self.end_round(s),
            (Cause::Fame, Fact::FameGained { who, total, .. }) => {
                if let Some((w, _)) = due.fact.subject() {
                    s.fighter_mut(w).awarded = true;
                }
                s.fighter_mut(who).fame = total;
            }
            (Cause::Trophy, Fact::TrophyTaken { who, monster }) => {
                s.trophy_given = true;
                if let Some(m) = monster {
                    s.fighter_mut(who).trophies.push(m);
                }
            }
            _ => {}
        }
        // A consequence is what changes a fighter mid-round (`track-priority`).
        self.reprice_track(s);
        self.advance(s);
        Ok(())
    }

    /// An ailment set or a damage taken, as played.
    fn apply_change(&self, s: &mut State, played: &Fact) {
        match *played {
            Fact::Afflicted { who, ailment, total, .. } => {
                // An ailment is due only to a fighter not Immune to it; one recorded anyway
                // is removed at once.
                s.cure_check |= self.immune(s, who, ailment);
                s.fighter_mut(who).ailments[ailment.index()] = total;
            }
            Fact::DamageDealt { who, injury, .. } => {
                // Grit stops at 0: the fighter is then defeated.
                let fi = s.fighter_mut(who);
                fi.grit = fi.grit.saturating_sub(injury).max(0);
                s.grit_changed();
            }
            _ => {}
        }
    }

    /// The unverified effect a finding about these seats may follow from (the latest).
    pub(crate) fn taint_of(&self, s: &State, seats: impl IntoIterator<Item = Seat>) -> Option<u32> {
        seats.into_iter().filter_map(|i| s.fighters.get(i.i()).and_then(|f| f.taint)).max()
    }

    /// The fighters whose numbers a due consequence is computed from: a finding about it may
    /// follow from an unverified effect on one of them. Narrow on purpose: the subject (and
    /// the actor of an outcome or an effect), never the whole table, so card text on one
    /// fighter does not blind the audit of the rest of the fight.
    fn involved(&self, s: &State, due: &Due) -> [Option<Seat>; 2] {
        let subject = due.fact.subject().map(|(w, _)| w);
        match due.cause {
            Cause::Outcome { .. } | Cause::Effect { .. } | Cause::SelfAilment { .. } => {
                [subject, s.current.as_ref().map(|c| c.who)]
            }
            Cause::Start { .. } | Cause::Cure | Cause::Defeat | Cause::Tick => [subject, None],
            Cause::Token | Cause::Act | Cause::EndRound | Cause::Fame | Cause::Trophy => [None, None],
        }
    }

    /// The unverified effect a finding about `due` may follow from: any effect marking the
    /// fighters involved, and for a defeat (the only consequence computed from Grit) also an
    /// effect that may only have moved their Grit ("Heal 3 Grit.").
    fn uncertain_of(&self, s: &State, due: &Due) -> Option<u32> {
        let seats = self.involved(s, due).into_iter().flatten();
        if due.cause == Cause::Defeat {
            seats.filter_map(|i| s.fighters.get(i.i()).and_then(|f| f.any_taint())).max()
        } else {
            self.taint_of(s, seats)
        }
    }
}

impl Consequences for KeridwynFight {
    type State = State;
    type Due = Due;
    type Fact = Fact;
    type Event = Event;

    fn resolve(&self, s: &State, recorded: &Event) -> Result<Fact, StepError> {
        self.resolve_fact(s, recorded)
    }
    fn resolve_owed(&self, s: &State, recorded: &Event, due: Option<&Due>) -> Result<Fact, StepError> {
        self.resolve_owed_fact(s, recorded, due)
    }
    fn due(&self, s: &State) -> Option<Due> {
        self.next_due(s)
    }
    fn fact(&self, due: &Due) -> Fact {
        due.fact
    }
    fn pairing(&self, due: &Fact, recorded: &Fact) -> Pairing {
        // A +0 award is never due (`award_due` skips it): it is no wrong subject for another
        // character's award, and `unexpected` accepts it.
        let zero = matches!(recorded, Fact::FameGained { delta: 0, .. });
        if !due.same_kind(recorded) || (zero && due.subject() != recorded.subject()) {
            Pairing::None
        } else if due.subject() == recorded.subject() {
            Pairing::Subject
        } else {
            Pairing::Kind
        }
    }
    fn rule(&self, s: &State, due: &Due) -> &'static str {
        match (due.cause, due.fact) {
            (Cause::Token, _) if s.holder.is_some_and(|h| s.fighter(h).defeated) => rules::HOLDER_DEFEATED,
            (Cause::Token, _) => rules::PRIORITY_TOKEN,
            (Cause::Cure, _) => rules::IMMUNITY,
            (Cause::Start { .. }, _) => rules::START_EFFECT,
            (Cause::SelfAilment { .. }, _) => rules::ATTACKER_BENEFIT,
            (Cause::Act, _) => rules::ORDER,
            (Cause::Outcome { .. }, _) => match s.current.as_ref().map(|c| c.kind) {
                Some(ActionKind::SupportSpell) => rules::WIT_SIX,
                Some(ActionKind::Lure) => rules::LURE,
                _ => rules::DEFENSE,
            },
            (Cause::Effect { .. }, Fact::Afflicted { .. }) => rules::STACK,
            (Cause::Effect { .. }, _) => rules::DAMAGE,
            (Cause::Defeat, _) => rules::DEFEAT,
            (Cause::Tick, Fact::Ticked { ailment: Ailment::Burn, .. }) => rules::BURN,
            (Cause::Tick, _) => rules::DURATION,
            (Cause::EndRound, _) => rules::END_ROUND,
            (Cause::Fame, _) => rules::FAME_AWARD,
            (Cause::Trophy, _) => rules::TROPHY,
        }
    }
    fn apply(&self, s: &mut State, due: &Due, played: &Fact, f: &mut Findings) -> Result<(), StepError> {
        self.apply_due(s, due, played, f)
    }
    /// `own-tie-order=any`: a participant's other token on the Priority of the one owed
    /// next is owed as much (l.33 orders participants, not one participant's two actions).
    ///
    /// And a hit's ailments named together ("2 rounds of Slow and Weak", l.58: the book names
    /// no order for them) may be recorded in either order: an ailment of the same run of
    /// ailment effects on the same target is owed as much as the first of them.
    fn reorder(&self, s: &mut State, due: &Due, recorded: &Fact) -> Option<Due> {
        if let (Cause::Effect { .. }, Fact::Afflicted { .. }) = (due.cause, due.fact) {
            return self.ailment_ahead(s, due, recorded);
        }
        if self.params.own_tie_order != rules::OwnTieOrder::Any {
            return None;
        }
        let (Cause::Act, Fact::Acted { who, action: Acting::Token(owed) }) = (due.cause, due.fact) else {
            return None;
        };
        let Fact::Acted { who: w, action: Acting::Token(other) } = *recorded else { return None };
        if w != who || other == owed {
            return None;
        }
        let priority = |a: Action| s.track.iter().find(|t| t.who == who && t.action == a).map(|t| t.priority);
        let same = priority(owed).is_some_and(|p| priority(other) == Some(p));
        same.then_some(Due { fact: *recorded, ..*due })
    }
    fn compare(&self, s: &State, due: &Due, recorded: &Fact, event: &Event, f: &mut Findings) {
        self.compare_fact(s, due, recorded, event, f)
    }
    fn unexpected(&self, s: &mut State, recorded: &Fact, event: &Event, f: &mut Findings) {
        // `damage X 0 block 0 injury 0` where no damage to X is due is how a table writes
        // that a hit did nothing (an Immunity that protects against the whole attack): it
        // changes nothing and says what the rules say, so it is no finding. (Where damage to
        // X is due, a recorded 0 pairs with it and is judged by `compare`.)
        if let Fact::DamageDealt { damage: 0, block: 0, injury: 0, .. } = *recorded {
            return;
        }
        // Likewise `fame X +0 -> F` where X's award is 0 (fixtures/keridwyn-fight/
        // fame-zero-award.arb).
        if self.zero_award(s, recorded) {
            return;
        }
        let v = self.not_due(s, recorded, event);
        // A monster's defeat refused because only its +4 Grit per character beyond the first
        // keeps it standing: the fight goes on as the book says, and the awards the table
        // writes for that defeat follow from this one slip (step.rs passes over them; audit
        // r6 D8: each was a finding of its own).
        if v.rule == rules::EXTRA_GRIT {
            s.last_fact = Some(*recorded);
        }
        // A `defeated` nothing owes may be owed after all if an unverified effect moved Grit.
        let taint = match recorded {
            Fact::Defeated { .. } => {
                recorded.subject().and_then(|(w, _)| s.fighters.get(w.i())).and_then(|f| f.any_taint())
            }
            _ => self.taint_of(s, recorded.subject().map(|(w, _)| w)),
        };
        f.violate(match taint {
            Some(o) => v.uncertain_after(o),
            None => v,
        });
    }
    fn event(&self, s: &State, due: &Due) -> Event {
        self.notate(s, &due.fact)
    }
    fn uncertain(&self, s: &State, due: &Due) -> Option<u32> {
        self.uncertain_of(s, due)
    }
}

/// Fighter `i`'s tick of ailment `a` at the end of the round, while it is owed.
pub(crate) fn tick_due_of(s: &State, i: Seat, a: Ailment) -> Option<Due> {
    let f = s.fighter(i);
    let from = f.ailment(a);
    (from > 0 && f.ticked & (1 << a.index()) == 0).then(|| Due {
        fact: Fact::Ticked {
            who: i,
            ailment: a,
            from,
            to: from - 1,
            injury: (a == Ailment::Burn).then_some(1),
        },
        cause: Cause::Tick,
    })
}
