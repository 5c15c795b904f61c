//! The consequences the rules still require: turning a pending [`Step`] into the event it
//! expects, running the control steps (which only move the fight along), and applying a
//! consequence as it was played.

use super::cards::Area;
use super::effect::{Ailment, Effect};
use super::event::Event;
use super::rules;
use super::state::{ActionKind, Current, Ongoing, Phase, State, Step};
use super::KeridwynFight;
use crate::{Findings, StepError};

impl KeridwynFight {
    /// Resolve a participant as an event names it: seat label or card id.
    pub(crate) fn resolve(&self, s: &State, name: &str) -> Option<usize> {
        s.fighters
            .iter()
            .position(|f| f.label == name)
            .or_else(|| s.fighters.iter().position(|f| f.card == name))
    }

    fn label(&self, s: &State, i: usize) -> String {
        s.fighters.get(i).map(|f| f.label.clone()).unwrap_or_default()
    }

    /// The event a step expects now, or `None` when it expects nothing (a no-op or a
    /// control step).
    pub(crate) fn expected(&self, s: &State, step: &Step) -> Option<Event> {
        let f = |i: usize| &s.fighters[i];
        match step {
            Step::PriorityCheck
            | Step::StartEffects
            | Step::Effects { .. }
            | Step::EndAction
            | Step::NextAction => None,
            Step::Priority(i) => Some(Event::Priority { who: self.label(s, *i) }),
            Step::Afflict { who, ailment, rounds, .. } => {
                if f(*who).defeated || self.immune(s, *who, *ailment) {
                    return None;
                }
                let total = f(*who).ailment(*ailment).saturating_add(*rounds);
                Some(Event::Afflict { who: self.label(s, *who), ailment: *ailment, add: *rounds, total })
            }
            Step::Cure { who, ailment } => {
                let from = f(*who).ailment(*ailment);
                (from > 0).then(|| Event::Cure { who: self.label(s, *who), ailment: *ailment, from })
            }
            Step::Act => {
                let t = self.ordered_track(s).into_iter().next()?;
                Some(Event::Act { who: self.label(s, t.who), card: t.card })
            }
            Step::Outcome { target } => {
                let c = s.current.as_ref()?;
                Some(Event::Outcome { target: self.label(s, *target), hit: self.succeeds(s, c, *target) })
            }
            Step::Damage { target, base } => {
                let c = s.current.as_ref()?;
                if f(*target).defeated {
                    return None;
                }
                let damage = self.damage(s, c, *target, base);
                let block = self.block(s, c, *target);
                let injury = damage.saturating_sub(block).max(0);
                Some(Event::Damage { who: self.label(s, *target), damage, block, injury })
            }
            Step::DefeatCheck(i) => {
                (!f(*i).defeated && f(*i).grit <= 0).then(|| Event::Defeated { who: self.label(s, *i) })
            }
            Step::Tick { who, ailment } => {
                let from = f(*who).ailment(*ailment);
                if from == 0 || f(*who).defeated {
                    return None;
                }
                let injury = (*ailment == Ailment::Burn).then_some(1);
                Some(Event::Tick { who: self.label(s, *who), ailment: *ailment, from, to: from - 1, injury })
            }
            Step::EndRound => Some(Event::EndRound { round: s.round }),
            Step::Fame { who, delta } => Some(Event::Fame {
                who: self.label(s, *who),
                delta: *delta,
                total: f(*who).fame.saturating_add(*delta),
            }),
            Step::Trophy { who } => {
                let monster = self.monster(s).map(|m| f(m).card.clone()).unwrap_or_default();
                Some(Event::Trophy { who: self.label(s, *who), monster })
            }
        }
    }

    /// Run control steps and drop no-op steps at the head until the head expects an event,
    /// nothing is pending, or a tie-break (decisions) must come first.
    pub(crate) fn settle(&self, s: &mut State) {
        // Each pass removes the head; control steps add finitely many steps, so this ends.
        while !matches!(s.phase, Phase::TieBreak { .. }) {
            let Some(head) = s.steps.first().cloned() else { break };
            if self.expected(s, &head).is_some() {
                break;
            }
            s.steps.remove(0);
            self.control(s, &head);
        }
    }

    fn push_front(s: &mut State, steps: Vec<Step>) {
        s.steps.splice(0..0, steps);
    }

    /// What a control step does (no-op steps do nothing).
    fn control(&self, s: &mut State, step: &Step) {
        match step {
            Step::PriorityCheck => match self.priority_winner(s) {
                Ok(Some(w)) => Self::push_front(s, vec![Step::Priority(w)]),
                Ok(None) => {}
                Err(tied) => {
                    let resume = Box::new(std::mem::replace(&mut s.phase, Phase::Over));
                    s.phase = Phase::TieBreak { tied, rolls: Vec::new(), resume };
                }
            },
            Step::StartEffects => {
                let Some(m) = self.monster(s) else { return };
                let Some(card) = self.catalog.monsters.get(&s.fighters[m].card) else { return };
                let mut steps = Vec::new();
                for who in self.turn_order(s).into_iter().filter(|&i| !s.fighters[i].monster) {
                    for e in &card.start {
                        if let Effect::Ailment(ailment, rounds) = e {
                            steps.push(Step::Afflict {
                                who,
                                ailment: *ailment,
                                rounds: *rounds,
                                start: true,
                            });
                        }
                    }
                }
                Self::push_front(s, steps);
            }
            Step::Effects { target } => self.attack_effects(s, *target),
            Step::EndAction => {
                let Some(c) = s.current.take() else { return };
                let monster_first = s.fighters[c.who].monster && !c.second;
                if monster_first && s.characters > 2 && s.phase != Phase::Over {
                    s.phase = Phase::MonsterRoll { second: true };
                } else {
                    Self::push_front(s, vec![Step::NextAction]);
                }
            }
            Step::NextAction => {
                if s.phase == Phase::Over {
                    return;
                }
                s.phase = Phase::Actions;
                if !s.track.is_empty() {
                    Self::push_front(s, vec![Step::Act]);
                    return;
                }
                let mut steps = Vec::new();
                for who in self.turn_order(s) {
                    for ailment in Ailment::ALL {
                        steps.push(Step::Tick { who, ailment });
                        if ailment == Ailment::Burn {
                            steps.push(Step::DefeatCheck(who));
                        }
                    }
                }
                steps.push(Step::EndRound);
                Self::push_front(s, steps);
            }
            _ => {}
        }
    }

    /// An attack hit `target`: its effects in card order (an Immune target under the
    /// `whole-attack` reading takes none of them).
    fn attack_effects(&self, s: &mut State, target: usize) {
        let Some(c) = s.current.clone() else { return };
        let Some(card) = self.catalog.cards.get(&c.card) else { return };
        let immune_to_it =
            card.effects.iter().any(|e| matches!(e, Effect::Ailment(a, _) if self.immune(s, target, *a)));
        if self.params.immunity_whole_attack && immune_to_it {
            return;
        }
        let mut steps = Vec::new();
        let mut lasting = Vec::new();
        for e in &card.effects {
            match e {
                Effect::Damage(base) => {
                    steps.push(Step::Damage { target, base: base.clone() });
                    steps.push(Step::DefeatCheck(target));
                }
                Effect::Ailment(ailment, rounds) => steps.push(Step::Afflict {
                    who: target,
                    ailment: *ailment,
                    rounds: *rounds,
                    start: false,
                }),
                other => lasting.push(other.clone()),
            }
        }
        if !lasting.is_empty() {
            self.start_ongoing(s, target, &c.card, lasting, card.rounds);
        }
        Self::push_front(s, steps);
    }

    /// Start a card's ongoing effect on a fighter, replacing an earlier instance of the card.
    pub(crate) fn start_ongoing(
        &self,
        s: &mut State,
        who: usize,
        card: &str,
        effects: Vec<Effect>,
        rounds: Option<u32>,
    ) {
        let cures: Vec<Step> = effects
            .iter()
            .filter_map(|e| {
                if let Effect::Immunity(a) = e {
                    Some(Step::Cure { who, ailment: *a })
                } else {
                    None
                }
            })
            .collect();
        let since = s.round;
        let f = &mut s.fighters[who];
        // "the new effect replaces the previous instance": the old one is kept aside only to
        // recognise a log that lets both count (`kf.effect.replace`).
        let (old, kept): (Vec<Ongoing>, Vec<Ongoing>) =
            std::mem::take(&mut f.effects).into_iter().partition(|o| o.card == card);
        f.effects = kept;
        f.superseded.extend(old);
        // A card with nothing the form can express leaves nothing to track (its text was
        // reported as unverified).
        if !effects.is_empty() {
            f.effects.push(Ongoing { card: card.to_string(), effects, rounds, since });
        }
        Self::push_front(s, cures);
    }

    /// Apply a consequence as played (`ev` is the recorded event, or the expected one when
    /// the log left it out).
    pub(crate) fn apply_consequence(
        &self,
        s: &mut State,
        ev: &Event,
        findings: &mut Findings,
    ) -> Result<(), StepError> {
        let who_of = |s: &State, name: &str| {
            self.resolve(s, name)
                .ok_or_else(|| StepError::new(format!("`{ev}` names `{name}`, who is not in the fight")))
        };
        match ev {
            Event::Priority { who } => s.holder = Some(who_of(s, who)?),
            Event::Afflict { who, ailment, total, .. } => {
                let i = who_of(s, who)?;
                s.fighters[i].ailments[ailment.index()] = *total;
            }
            Event::Cure { who, ailment, .. } => {
                let i = who_of(s, who)?;
                s.fighters[i].ailments[ailment.index()] = 0;
            }
            Event::Act { who, card } => {
                let i = who_of(s, who)?;
                // An action that is not on the track (the monster using another action than
                // its d6 gave) cannot be played as recorded: the due one is resolved instead.
                let pos = s
                    .track
                    .iter()
                    .position(|t| t.who == i && &t.card == card)
                    .or_else(|| {
                        let due = self.ordered_track(s).into_iter().next()?;
                        s.track.iter().position(|t| *t == due)
                    })
                    .ok_or_else(|| {
                        StepError::rule(
                            rules::ORDER,
                            format!("`{ev}`: {who} has no `{card}` action on the track"),
                        )
                    })?;
                let token = s.track.remove(pos);
                s.done.push(token.clone());
                self.begin_action(s, token, findings);
            }
            Event::Outcome { target, hit } => {
                let t = who_of(s, target)?;
                let Some(c) = s.current.as_mut() else { return Ok(()) };
                c.outcomes_started = true;
                let (kind, who, card) = (c.kind, c.who, c.card.clone());
                if *hit {
                    match kind {
                        ActionKind::Attack(_) => {
                            if s.fighters[t].monster {
                                s.last_hit = Some(who);
                            }
                            Self::push_front(s, vec![Step::Effects { target: t }]);
                        }
                        ActionKind::SupportSpell => {
                            if let Some(k) = self.catalog.cards.get(&card) {
                                self.start_ongoing(s, t, &card, k.effects.clone(), k.rounds);
                            }
                        }
                        ActionKind::Lure => s.lured = true,
                    }
                }
            }
            Event::Damage { who, injury, .. } => {
                let i = who_of(s, who)?;
                // Grit stops at 0: the fighter is then defeated.
                s.fighters[i].grit = s.fighters[i].grit.saturating_sub(*injury).max(0);
            }
            Event::Tick { who, ailment, to, injury, .. } => {
                let i = who_of(s, who)?;
                s.fighters[i].ailments[ailment.index()] = *to;
                s.fighters[i].grit = s.fighters[i].grit.saturating_sub(injury.unwrap_or(0)).max(0);
            }
            Event::EndRound { .. } => self.end_round(s),
            Event::Defeated { who } => {
                let i = who_of(s, who)?;
                self.defeat(s, i);
            }
            Event::Fame { who, total, .. } => {
                let i = who_of(s, who)?;
                s.fighters[i].fame = *total;
            }
            Event::Trophy { who, monster } => {
                let i = who_of(s, who)?;
                s.fighters[i].trophies.push(monster.clone());
            }
            _ => {}
        }
        Ok(())
    }

    /// An action token comes off the track.
    fn begin_action(&self, s: &mut State, token: super::state::Token, findings: &mut Findings) {
        let who = token.who;
        let mut current = Current {
            who,
            card: token.card.clone(),
            kind: ActionKind::Lure,
            skill: super::effect::Skill::Wit,
            targets: Vec::new(),
            second: token.second,
            dice: Vec::new(),
            bonus: 0,
            rolled: false,
            outcomes_started: false,
        };
        if token.card == "lure" {
            match self.monster(s).filter(|&m| !s.fighters[m].defeated) {
                Some(m) => {
                    current.targets = vec![m];
                    s.current = Some(current);
                    s.phase = Phase::AwaitRoll;
                }
                None => {
                    // Nothing Breakable to lure in a fight between characters.
                    s.current = Some(current);
                    Self::push_front(s, vec![Step::EndAction]);
                }
            }
            return;
        }
        let Some(card) = self.catalog.cards.get(&token.card) else {
            s.current = Some(current);
            Self::push_front(s, vec![Step::EndAction]);
            return;
        };
        for t in &card.text {
            findings
                .unverified
                .push(format!("{}: `{}` says \"{t}\" (not checked)", s.fighters[who].label, card.id));
        }
        if !card.self_effects.is_empty() {
            // Attacker-only benefits take place even if the attack fails.
            self.start_ongoing(s, who, &format!("{}:self", card.id), card.self_effects.clone(), card.rounds);
        }
        match card.attack {
            Some(a) => {
                current.kind = ActionKind::Attack(card.kind);
                current.skill = a.roll;
                let single_monster = s.fighters[who].monster && a.area == Area::Single;
                match self.targets(s, who, a.area) {
                    Ok(t) => {
                        current.targets = t;
                        s.phase = Phase::AwaitRoll;
                    }
                    Err(_) => s.phase = Phase::AwaitTarget,
                }
                if single_monster {
                    s.alternate = !s.alternate;
                    if self.params.balance_next_attack_only {
                        s.balance = None;
                    }
                }
                s.current = Some(current);
            }
            None if card.kind == super::cards::CardKind::Spell => {
                current.kind = ActionKind::SupportSpell;
                current.targets = vec![token.on.unwrap_or(who)];
                s.current = Some(current);
                s.phase = Phase::AwaitRoll;
            }
            None => {
                // "Gear cards that do not attack do not require any roll."
                self.start_ongoing(s, who, &card.id, card.effects.clone(), card.rounds);
                s.current = Some(current);
                Self::push_front(s, vec![Step::EndAction]);
            }
        }
    }

    fn end_round(&self, s: &mut State) {
        let on_reveal = self.params.focus_on_reveal;
        for f in &mut s.fighters {
            if f.focus_played {
                if !on_reveal {
                    f.hand = super::state::HandCard::ALL.to_vec();
                    f.discarded.clear();
                }
                f.focus_played = false;
            }
            f.revealed = false;
            for o in f.effects.iter_mut().chain(f.superseded.iter_mut()) {
                if let Some(r) = o.rounds.as_mut() {
                    *r = r.saturating_sub(1);
                }
            }
            f.effects.retain(|o| o.rounds != Some(0));
            f.superseded.retain(|o| o.rounds != Some(0));
        }
        s.lured = false;
        s.done.clear();
        s.monster_rolled = false;
        s.balance = None;
        s.round += 1;
        s.phase = Phase::Reveal;
    }

    fn defeat(&self, s: &mut State, i: usize) {
        s.fighters[i].defeated = true;
        s.track.retain(|t| t.who != i);
        let monster = self.monster(s);
        let living_chars: Vec<usize> =
            self.turn_order(s).into_iter().filter(|&c| !s.fighters[c].monster).collect();
        if s.fighters[i].monster {
            let rank = s.fighters[i].fame;
            let mut steps = Vec::new();
            for &c in &living_chars {
                let delta = if self.params.rank_to_all || s.last_hit == Some(c) { rank } else { rank / 2 };
                steps.push(Step::Fame { who: c, delta });
            }
            if let Some(w) = s.last_hit.filter(|w| living_chars.contains(w)) {
                steps.push(Step::Trophy { who: w });
                s.winner = Some(s.fighters[w].label.clone());
            }
            self.finish(s, steps);
        } else if monster.is_none() && living_chars.len() == 1 {
            s.winner = Some(s.fighters[living_chars[0]].label.clone());
            self.finish(s, Vec::new());
        } else if living_chars.is_empty() {
            s.winner = monster.map(|m| s.fighters[m].label.clone());
            self.finish(s, Vec::new());
        } else if s.holder == Some(i) {
            Self::push_front(s, vec![Step::PriorityCheck]);
        }
    }

    /// The fight is over: only the awards remain to be recorded.
    fn finish(&self, s: &mut State, awards: Vec<Step>) {
        // "All ongoing effects end when the fight ends."
        for f in &mut s.fighters {
            f.effects.clear();
            f.superseded.clear();
            f.ailments = [0; 4];
        }
        s.phase = Phase::Over;
        s.track.clear();
        s.current = None;
        s.steps = awards;
    }
}
