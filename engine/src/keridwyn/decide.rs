//! Decisions and random outcomes: joins, the start, reveals, the monster's d6, random
//! targets, rolls, rerolls and recalls. Each is checked against the rules and applied as
//! played when it can be.

use super::cards::CardKind;
use super::effect::{Effect, Skill};
use super::event::{Event, Play};
use super::rules;
use super::state::{Fighter, HandCard, Ongoing, Phase, State, Step, Token};
use super::KeridwynFight;
use crate::{Findings, StepError, Violation};

/// Skill dice: the rulebook's rolls of 9 and 10 (after +1) read as ten-sided dice.
pub const DIE_SIDES: u8 = 10;

fn out_of_sequence(ev: &Event, s: &State) -> StepError {
    StepError::rule(
        rules::SEQUENCE,
        format!("`{ev}` cannot happen now (the fight is at `{}`)", s.phase.name()),
    )
}

impl KeridwynFight {
    pub(crate) fn decide(&self, s: &mut State, ev: &Event, f: &mut Findings) -> Result<(), StepError> {
        match ev {
            Event::Join { player, character, worn, mercs } => {
                self.join(s, ev, player, character, worn, mercs, f)
            }
            Event::Monster { monster, place, number } => {
                if s.phase != Phase::Joining {
                    return Err(out_of_sequence(ev, s));
                }
                let card = self
                    .catalog
                    .monsters
                    .get(monster)
                    .ok_or_else(|| StepError::new(format!("no monster `{monster}` in the catalog")))?;
                if s.pending_monster.is_some() || s.fighters.iter().any(|x| x.monster) {
                    f.violate(Violation::new(
                        rules::JOIN,
                        format!("a second monster `{monster}` in one fight"),
                    ));
                    return Ok(());
                }
                for t in &card.text {
                    f.unverified.push(format!("{monster}: \"{t}\" (not checked)"));
                }
                let fighter = Fighter {
                    label: monster.clone(),
                    card: monster.clone(),
                    monster: true,
                    grit: card.grit,
                    fame: card.rank,
                    skills: card.skills,
                    ailments: [0; 4],
                    effects: Vec::new(),
                    superseded: Vec::new(),
                    passives: card.passives.clone(),
                    worn: None,
                    cards: Vec::new(),
                    hand: Vec::new(),
                    discarded: Vec::new(),
                    focus_played: false,
                    revealed: false,
                    mercs: Vec::new(),
                    defeated: false,
                    trophies: Vec::new(),
                };
                s.pending_monster = Some((fighter, *place, *number));
                Ok(())
            }
            Event::Begin => self.begin(s, ev, f),
            Event::Reveal { who, plays } => self.reveal(s, ev, who, plays, f),
            Event::MonsterAction { monster, face } => {
                // Rolled before every player revealed: recorded as played, and reported.
                let early = s.phase == Phase::Reveal && !s.monster_rolled && self.monster(s).is_some();
                let second = match s.phase {
                    Phase::MonsterRoll { second } => second,
                    _ if early => false,
                    _ => return Err(out_of_sequence(ev, s)),
                };
                if early {
                    f.violate(Violation::new(
                        rules::SEQUENCE,
                        "the monster's action is rolled after every player has revealed their cards",
                    ));
                }
                let m = self.monster(s).ok_or_else(|| out_of_sequence(ev, s))?;
                if self.resolve(s, monster) != Some(m) {
                    return Err(StepError::new(format!("`{monster}` is not the monster in this fight")));
                }
                if !(1..=6).contains(face) {
                    return Err(StepError::new(format!("the monster's die is a d6; {face} is not a face")));
                }
                s.monster_rolled = true;
                let card = self.catalog.monster_action(&s.fighters[m].card, *face);
                let base = card.and_then(|c| self.catalog.cards.get(c)).and_then(|c| c.priority);
                if let (Some(card), Some(base)) = (card, base) {
                    let priority = self.token_priority(s, m, base, second);
                    s.track.push(Token { who: m, card: card.to_string(), priority, on: None, second });
                    if early {
                        return Ok(());
                    }
                    s.phase = Phase::Actions;
                    s.steps.insert(0, Step::NextAction);
                } else if !second && s.characters > 2 {
                    // No action on this face: the second roll comes at once.
                    s.phase = Phase::MonsterRoll { second: true };
                } else {
                    s.phase = Phase::Actions;
                    s.steps.insert(0, Step::NextAction);
                }
                Ok(())
            }
            Event::Target { who } => {
                if s.phase != Phase::AwaitTarget {
                    return Err(out_of_sequence(ev, s));
                }
                let t = self.resolve(s, who).ok_or_else(|| StepError::new(format!("no fighter `{who}`")))?;
                let c = s.current.as_ref().map(|c| c.who).unwrap_or(0);
                let candidates = match self.targets(s, c, super::cards::Area::Single) {
                    Ok(t) | Err(t) => t,
                };
                if !candidates.contains(&t) {
                    f.violate(Violation::new(
                        rules::TARGETING,
                        format!("{who} is not a living character the monster can attack"),
                    ));
                }
                if let Some(c) = s.current.as_mut() {
                    c.targets = vec![t];
                }
                s.phase = Phase::AwaitRoll;
                Ok(())
            }
            Event::Roll { who, skill, dice } => self.roll(s, ev, who, *skill, dice, f),
            Event::Reroll { payer, from, to, fame } => {
                self.before_outcome(s, ev, f)?;
                let p =
                    self.resolve(s, payer).ok_or_else(|| StepError::new(format!("no fighter `{payer}`")))?;
                if !(1..=DIE_SIDES).contains(to) {
                    return Err(StepError::new(format!("a die shows 1-{DIE_SIDES}, not {to}")));
                }
                let cost = self.params.reroll_cost;
                let payer_f = &s.fighters[p];
                if payer_f.monster || payer_f.defeated {
                    f.violate(Violation::new(
                        rules::REROLL_FAME,
                        format!("{payer} cannot spend Fame: only characters in the fight reroll"),
                    ));
                } else if *fame != cost || payer_f.fame < cost {
                    f.violate(
                        Violation::new(
                            rules::REROLL_FAME,
                            format!("a reroll costs {cost} Fame and {payer} has {}", payer_f.fame),
                        )
                        .expected_recorded(
                            format!("reroll {payer} {from} -> {to} fame {cost}"),
                            ev.to_string(),
                        ),
                    );
                }
                let seq = out_of_sequence(ev, s);
                let c = s.current.as_mut().ok_or(seq)?;
                let pos = c.dice.iter().position(|d| d == from).ok_or_else(|| {
                    StepError::new(format!("`{ev}`: the roll {:?} has no die showing {from}", c.dice))
                })?;
                c.dice[pos] = *to;
                if !s.fighters[p].monster {
                    s.fighters[p].fame = s.fighters[p].fame.saturating_sub(*fame);
                    s.steps.insert(0, Step::PriorityCheck);
                }
                Ok(())
            }
            Event::Recall { who, merc, bonus } => {
                self.before_outcome(s, ev, f)?;
                let i = self.resolve(s, who).ok_or_else(|| StepError::new(format!("no fighter `{who}`")))?;
                let card = self
                    .catalog
                    .mercs
                    .get(merc)
                    .ok_or_else(|| StepError::new(format!("no mercenary `{merc}` in the catalog")))?;
                let roller = s.current.as_ref().map(|c| c.who);
                let entry = s.fighters[i].mercs.iter().position(|(m, _)| m == merc);
                let problem = match entry {
                    None => Some(format!("{who} has no mercenary `{merc}` with them")),
                    Some(e) if s.fighters[i].mercs[e].1 => {
                        Some(format!("{merc} was already recalled this fight"))
                    }
                    _ if roller != Some(i) => Some(format!("{who} can only recall for their own roll")),
                    _ if *bonus != card.roll_bonus => Some(format!("{merc} gives {:+}", card.roll_bonus)),
                    _ => None,
                };
                if let Some(p) = problem {
                    let v = Violation::new(rules::RECALL, p);
                    f.violate(if *bonus != card.roll_bonus {
                        v.expected_recorded(
                            format!("recall {who} {merc} {:+}", card.roll_bonus),
                            ev.to_string(),
                        )
                    } else {
                        v
                    });
                }
                if let Some(e) = entry {
                    s.fighters[i].mercs[e].1 = true;
                }
                if let Some(c) = s.current.as_mut() {
                    c.bonus = c.bonus.saturating_add(*bonus);
                }
                Ok(())
            }
            _ => Ok(()),
        }
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

    #[allow(clippy::too_many_arguments)]
    fn join(
        &self,
        s: &mut State,
        ev: &Event,
        player: &str,
        character: &str,
        worn: &Option<String>,
        mercs: &[String],
        f: &mut Findings,
    ) -> Result<(), StepError> {
        if s.phase != Phase::Joining {
            return Err(StepError::rule(
                rules::JOIN,
                format!("`{ev}`: characters join before the fight begins"),
            ));
        }
        let card = self
            .catalog
            .characters
            .get(character)
            .ok_or_else(|| StepError::new(format!("no character `{character}` in the catalog")))?;
        if s.fighters.iter().any(|x| x.label == player || x.card == character) {
            f.violate(Violation::new(
                rules::JOIN,
                format!("{player} / {character} already joined this fight"),
            ));
            return Ok(());
        }
        let worn_cards: Vec<&String> =
            card.cards.iter().filter(|c| self.catalog.cards.get(*c).is_some_and(|k| k.worn)).collect();
        let chosen = match worn {
            Some(w) if worn_cards.contains(&w) => Some(w.clone()),
            Some(w) => {
                f.violate(Violation::new(rules::WORN, format!("{character} has no worn gear `{w}`")));
                None
            }
            None if worn_cards.len() > 1 => {
                f.violate(Violation::new(
                    rules::WORN,
                    format!("{character} has {} worn gear and must choose 1 as they enter", worn_cards.len()),
                ));
                None
            }
            None => worn_cards.first().map(|w| w.to_string()),
        };
        let mut passives: Vec<Effect> = Vec::new();
        for t in &card.traits {
            if let Some(tr) = self.catalog.traits.get(t) {
                passives.extend(tr.effects.iter().cloned());
                for text in &tr.text {
                    f.unverified.push(format!("{player}: trait `{t}` says \"{text}\" (not checked)"));
                }
            }
        }
        if let Some(k) = chosen.as_ref().and_then(|w| self.catalog.cards.get(w)) {
            passives.extend(k.effects.iter().cloned());
        }
        let mut merc_list = Vec::new();
        for m in mercs {
            if !self.catalog.mercs.contains_key(m) {
                return Err(StepError::new(format!("no mercenary `{m}` in the catalog")));
            }
            merc_list.push((m.clone(), false));
        }
        s.fighters.push(Fighter {
            label: player.to_string(),
            card: character.to_string(),
            monster: false,
            grit: card.grit,
            fame: card.fame,
            skills: card.skills,
            ailments: [0; 4],
            effects: Vec::new(),
            superseded: Vec::new(),
            passives,
            worn: chosen,
            cards: card.cards.clone(),
            hand: HandCard::ALL.to_vec(),
            discarded: Vec::new(),
            focus_played: false,
            revealed: false,
            mercs: merc_list,
            defeated: false,
            trophies: Vec::new(),
        });
        s.characters += 1;
        Ok(())
    }

    fn begin(&self, s: &mut State, ev: &Event, f: &mut Findings) -> Result<(), StepError> {
        if s.phase != Phase::Joining {
            return Err(out_of_sequence(ev, s));
        }
        let k = s.fighters.len();
        if k == 0 {
            return Err(StepError::rule(rules::JOIN, "no character joined the fight"));
        }
        match s.pending_monster.take() {
            Some((mut m, _, number)) => {
                // "Count a number of places starting from the first actor equal to the cage
                // number ... The monster is in the seat clockwise of that player."
                let after = number as usize % k;
                m.grit += 4 * (k as i32 - 1);
                s.fighters.insert(after + 1, m);
            }
            None if k != 2 => f.violate(Violation::new(
                rules::JOIN,
                format!("a fight between characters has exactly 2 of them, not {k}"),
            )),
            None => {}
        }
        s.round = 1;
        s.phase = Phase::Reveal;
        s.steps = vec![Step::PriorityCheck, Step::StartEffects];
        Ok(())
    }

    fn reveal(
        &self,
        s: &mut State,
        ev: &Event,
        who: &str,
        plays: &[Play],
        f: &mut Findings,
    ) -> Result<(), StepError> {
        if s.phase != Phase::Reveal {
            return Err(out_of_sequence(ev, s));
        }
        let i = self.resolve(s, who).ok_or_else(|| StepError::new(format!("no fighter `{who}`")))?;
        if s.fighters[i].monster || s.fighters[i].defeated || s.fighters[i].revealed {
            return Err(StepError::rule(rules::SEQUENCE, format!("{who} has no cards to reveal now")));
        }
        if let Some(next) = self.next_revealer(s).filter(|&n| n != i) {
            f.violate(
                Violation::new(
                    rules::REVEAL_ORDER,
                    format!("{} reveals before {who} (reverse turn order)", s.fighters[next].label),
                )
                .expected_recorded(format!("reveal {} ...", s.fighters[next].label), ev.to_string()),
            );
        }
        let hand_cards: Vec<HandCard> = plays
            .iter()
            .filter_map(|p| match p {
                Play::Lure => Some(HandCard::Lure),
                Play::Balance => Some(HandCard::Balance),
                Play::Focus => Some(HandCard::Focus),
                Play::Primary { .. } => Some(HandCard::Primary),
                Play::Secondary { .. } => Some(HandCard::Secondary),
                Play::Maneuver { .. } => Some(HandCard::Maneuver),
                Play::Immune(_) => None,
            })
            .collect();
        if hand_cards.len() != 2 {
            f.violate(Violation::new(
                rules::TWO_CARDS,
                format!("{who} played {} cards, not 2", hand_cards.len()),
            ));
        }
        // Focus returning earlier discards as it is revealed (`on-reveal` reading).
        if self.params.focus_on_reveal && hand_cards.contains(&HandCard::Focus) {
            let back = std::mem::take(&mut s.fighters[i].discarded);
            s.fighters[i].hand.extend(back);
        }
        for h in &hand_cards {
            let fi = &mut s.fighters[i];
            match fi.hand.iter().position(|x| x == h) {
                Some(p) => {
                    fi.hand.remove(p);
                    fi.discarded.push(*h);
                }
                None => f.violate(Violation::new(
                    rules::ONCE,
                    format!("{who}'s {} was already used and Focus has not been played since", h.name()),
                )),
            }
        }
        let maneuver = plays.iter().any(|p| matches!(p, Play::Maneuver { .. }));
        let immunities = plays.iter().filter(|p| matches!(p, Play::Immune(_))).count();
        let maneuver_gear = plays.iter().any(|p| matches!(p, Play::Maneuver { card: Some(_) }));
        if immunities > 0 && !maneuver {
            f.violate(Violation::new(rules::CHOICE, "only Maneuver grants Immunity to an Ailment"));
        } else if immunities > 1 {
            f.violate(Violation::new(rules::CHOICE, "Maneuver grants Immunity to one Ailment"));
        } else if immunities == 1 && maneuver_gear && !self.params.maneuver_both {
            f.violate(Violation::new(
                rules::CHOICE,
                "Maneuver grants gear or Immunity, not both (maneuver-options)",
            ));
        }
        for p in plays {
            match p {
                Play::Lure => {
                    let base = self.catalog.hand_priority.get("lure").copied().unwrap_or(0);
                    let priority = self.token_priority(s, i, base, false);
                    s.track.push(Token { who: i, card: "lure".into(), priority, on: None, second: false });
                }
                Play::Balance => s.balance = Some(i),
                Play::Focus => s.fighters[i].focus_played = true,
                Play::Immune(a) => {
                    let since = s.round;
                    let fi = &mut s.fighters[i];
                    fi.effects.retain(|o| o.card != "maneuver");
                    fi.effects.push(Ongoing {
                        card: "maneuver".into(),
                        effects: vec![Effect::Immunity(*a)],
                        rounds: Some(1),
                        since,
                    });
                    s.steps.push(Step::Cure { who: i, ailment: *a });
                }
                Play::Primary { card, on } | Play::Secondary { card, on } => {
                    self.choose(s, i, card, on.as_deref(), false, f);
                }
                Play::Maneuver { card: Some(card) } => self.choose(s, i, card, None, true, f),
                Play::Maneuver { card: None } => {}
            }
        }
        s.fighters[i].revealed = true;
        if self.next_revealer(s).is_none() {
            if !s.monster_rolled && self.monster(s).is_some_and(|m| !s.fighters[m].defeated) {
                s.phase = Phase::MonsterRoll { second: false };
            } else {
                s.phase = Phase::Actions;
                s.steps.push(Step::NextAction);
            }
        }
        Ok(())
    }

    /// Primary, Secondary or Maneuver declaring a card: check it and put its token down.
    fn choose(
        &self,
        s: &mut State,
        i: usize,
        card: &str,
        on: Option<&str>,
        maneuver: bool,
        f: &mut Findings,
    ) {
        let who = s.fighters[i].label.clone();
        let Some(k) = self.catalog.cards.get(card).filter(|_| s.fighters[i].cards.iter().any(|c| c == card))
        else {
            f.violate(Violation::new(rules::CHOICE, format!("{who} has no card `{card}`")));
            return;
        };
        if k.worn {
            f.violate(Violation::new(
                rules::WORN_PROTECTS,
                format!("`{card}` is worn: it protects without being played"),
            ));
            return;
        }
        if maneuver && (k.kind != CardKind::Gear || k.attack.is_some()) {
            f.violate(Violation::new(
                rules::CHOICE,
                format!("Maneuver uses gear that does not attack, not `{card}`"),
            ));
        }
        let target = match on {
            None => None,
            Some(o) => {
                let t = self.resolve(s, o).filter(|&t| !s.fighters[t].monster && !s.fighters[t].defeated);
                if k.kind != CardKind::Spell || k.attack.is_some() || t.is_none() {
                    f.violate(Violation::new(
                        rules::GRANT,
                        format!("only a Spell that does not attack may be granted to another character (`{card}@{o}`)"),
                    ));
                }
                t
            }
        };
        let priority = self.token_priority(s, i, k.priority.unwrap_or(0), false);
        s.track.push(Token { who: i, card: card.to_string(), priority, on: target, second: false });
    }

    fn roll(
        &self,
        s: &mut State,
        ev: &Event,
        who: &str,
        skill: Skill,
        dice: &[u8],
        f: &mut Findings,
    ) -> Result<(), StepError> {
        if let Some(bad) = dice.iter().find(|d| !(1..=DIE_SIDES).contains(*d)) {
            return Err(StepError::new(format!("a die shows 1-{DIE_SIDES}, not {bad}")));
        }
        let i = self.resolve(s, who).ok_or_else(|| StepError::new(format!("no fighter `{who}`")))?;
        if let Phase::TieBreak { tied, rolls, resume } = &mut s.phase {
            if !tied.contains(&i) || rolls.iter().any(|(r, _)| *r == i) {
                return Err(StepError::rule(
                    rules::TIEBREAK,
                    format!("{who} is not due a Finesse roll for the token"),
                ));
            }
            let next = tied.iter().copied().find(|t| !rolls.iter().any(|(r, _)| r == t));
            if next != Some(i) {
                f.violate(Violation::new(
                    rules::TIEBREAK,
                    format!("tied participants roll in turn order; {who} rolled out of turn"),
                ));
            }
            if skill != Skill::Finesse {
                f.violate(Violation::new(
                    rules::ROLL_SKILL,
                    format!("the token tie is rolled with Finesse, not {skill}"),
                ));
            }
            let tier = s.fighters[i].tier(Skill::Finesse) as usize;
            if dice.len() != tier {
                f.violate(Violation::new(
                    rules::DICE_COUNT,
                    format!("{who} rolls {tier} dice for Finesse, not {}", dice.len()),
                ));
            }
            let mut sorted = dice.to_vec();
            sorted.sort_unstable_by(|a, b| b.cmp(a));
            rolls.push((i, sorted));
            if rolls.len() == tied.len() {
                let best = rolls.iter().map(|(_, d)| d.clone()).max().unwrap_or_default();
                let winners: Vec<usize> = rolls.iter().filter(|(_, d)| *d == best).map(|(w, _)| *w).collect();
                if winners.len() == 1 {
                    let resume = std::mem::replace(resume.as_mut(), Phase::Over);
                    s.phase = resume;
                    if s.holder != Some(winners[0]) {
                        s.steps.insert(0, Step::Priority(winners[0]));
                    }
                } else {
                    *tied = winners;
                    rolls.clear();
                }
            }
            return Ok(());
        }
        if s.phase != Phase::AwaitRoll {
            return Err(out_of_sequence(ev, s));
        }
        let Some(c) = s.current.as_mut() else { return Err(out_of_sequence(ev, s)) };
        if c.who != i {
            return Err(StepError::rule(
                rules::SEQUENCE,
                format!("the action being resolved is {}'s, not {who}'s", s.fighters[c.who].label),
            ));
        }
        if skill != c.skill {
            f.violate(
                Violation::new(
                    rules::ROLL_SKILL,
                    format!("`{}` is rolled with {}, not {skill}", c.card, c.skill),
                )
                .expected_recorded(format!("roll {who} {} ...", c.skill), ev.to_string()),
            );
        }
        let tier = s.fighters[i].tier(c.skill) as usize;
        if dice.len() != tier {
            f.violate(Violation::new(
                rules::DICE_COUNT,
                format!("{who} has {} tier {tier} and rolls {tier} dice, not {}", c.skill, dice.len()),
            ));
        }
        c.dice = dice.to_vec();
        c.rolled = true;
        let mut steps: Vec<Step> = c.targets.iter().map(|&t| Step::Outcome { target: t }).collect();
        steps.push(Step::EndAction);
        s.steps.splice(0..0, steps);
        s.phase = Phase::Rolled;
        Ok(())
    }
}
