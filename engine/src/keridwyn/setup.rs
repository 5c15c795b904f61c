//! Starting the fight: characters join (choosing one worn gear, bringing mercenaries), the
//! monster is named with its cage or zone, and `begin` seats it and owes the Priority
//! token and the monster's start-of-fight effects.

use super::effect::Effect;
use super::event::{Event, Place};
use super::fact::Fact;
use super::name::{Name, NameKey};
use super::rules;
use super::state::{
    CardId, CharacterId, Fighter, Hand, HandCard, PendingMonster, Phase, Recheck, State, Who, MAX_FIGHTERS,
};
use super::KeridwynFight;
use crate::kit::effect::unverified;
use crate::{Findings, StepError, Violation};

/// A decision made when the fight is not where it could be made.
pub(crate) fn out_of_sequence(ev: &Event, s: &State) -> StepError {
    StepError::rule(
        rules::SEQUENCE,
        format!("`{ev}` cannot happen now (the fight is at `{}`)", s.phase.name()),
    )
}

impl KeridwynFight {
    /// `join A steve [worn GEAR] [merc MERC]...`
    pub(crate) fn join(&self, s: &mut State, ev: &Event, f: &mut Findings) -> Result<(), StepError> {
        let Event::Joined { player, character, worn, mercs } = ev else { return Ok(()) };
        if !matches!(s.phase, Phase::Joining) {
            return Err(StepError::rule(
                rules::JOIN,
                format!("`{ev}`: characters join before the fight begins"),
            ));
        }
        let id = self
            .catalog
            .characters
            .id(character)
            .ok_or_else(|| StepError::new(format!("no character `{character}` in the catalog")))?;
        let card = &self.catalog.characters[id];
        if s.fighters.iter().any(|x| x.label == player.as_str() || x.who == Who::Character(id)) {
            f.violate(Violation::new(
                rules::JOIN,
                format!("{player} / {character} already joined this fight"),
            ));
            return Ok(());
        }
        if s.fighters.len() + 1 >= MAX_FIGHTERS {
            return Err(StepError::rule(
                rules::JOIN,
                format!("a fight seats at most {MAX_FIGHTERS} fighters"),
            ));
        }
        let worn_cards: Vec<CardId> = card
            .cards
            .iter()
            .copied()
            .filter(|&c| self.catalog.cards.get(c).is_some_and(|k| k.worn))
            .collect();
        // A choice left out (or naming no worn gear of theirs) is one finding; the rules still
        // have one worn gear apply (l.22 "they must choose only 1 that will apply"), so the
        // first applies until the first recorded damage to them shows which (`settle_worn`).
        let named = worn.as_ref().and_then(|w| self.catalog.cards.id(w)).filter(|c| worn_cards.contains(c));
        if let (Some(w), None) = (worn, named) {
            f.violate(Violation::new(rules::WORN, format!("{character} has no worn gear `{w}`")));
        } else if worn.is_none() && worn_cards.len() > 1 {
            f.violate(Violation::new(
                rules::WORN,
                format!("{character} has {} worn gear and must choose 1 as they enter", worn_cards.len()),
            ));
        }
        let chosen = named.or_else(|| worn_cards.first().copied());
        let worn_open = named.is_none() && worn_cards.len() > 1;
        let mut taint = None;
        for &t in &card.traits {
            if let Some(tr) = self.catalog.traits.get(t) {
                for text in &tr.text {
                    let line = unverified(player, self.catalog.traits.name(t), text);
                    taint = Some(s.unverified.report(f, line));
                }
            }
        }
        let passives = self.passives_of(id, chosen);
        let mut merc_list = Vec::new();
        for m in mercs {
            let id = self
                .catalog
                .mercs
                .id(m)
                .ok_or_else(|| StepError::new(format!("no mercenary `{m}` in the catalog")))?;
            // A mercenary is one card with one character ("Player B ... has the mercenary
            // Chargo with them", l.47): a second character naming it is one finding, and it
            // stays with the first (audit r6 D6: both recalled it, clean).
            if let Some(with) = s.fighters.iter().find(|x| x.mercs.iter().any(|(o, _)| *o == id)) {
                f.violate(Violation::new(
                    rules::JOIN,
                    format!(
                        "the mercenary {m} is already with {} in this fight; it is not with {player}",
                        with.label
                    ),
                ));
                continue;
            }
            if merc_list.iter().any(|(o, _)| *o == id) {
                continue;
            }
            merc_list.push((id, None));
        }
        s.fighters.push(Fighter {
            label: Name::new(player),
            key: NameKey::of(player),
            who: Who::Character(id),
            grit: card.grit,
            fame: card.fame,
            skills: card.skills,
            ailments: [0; 4],
            effects: Vec::new(),
            superseded: Vec::new(),
            passives,
            worn: chosen,
            worn_open,
            hand: Hand::from_slice(HandCard::ALL),
            discarded: Hand::new(),
            focus_played: false,
            revealed: false,
            mercs: merc_list,
            defeated: false,
            trophies: Vec::new(),
            started: 0,
            ticked: 0,
            awarded: false,
            taint,
            grit_taint: None,
        });
        s.characters += 1;
        s.grit_changed();
        Ok(())
    }

    /// A character's permanent effects: its traits', then its worn gear's.
    fn passives_of(&self, id: CharacterId, worn: Option<CardId>) -> Vec<Effect> {
        let mut passives: Vec<Effect> = Vec::new();
        for &t in self.catalog.characters.get(id).map_or(&[][..], |c| &c.traits[..]) {
            if let Some(tr) = self.catalog.traits.get(t) {
                passives.extend(tr.effects.iter().copied());
            }
        }
        if let Some(k) = worn.and_then(|w| self.catalog.cards.get(w)) {
            passives.extend(k.effects.iter().copied());
        }
        passives
    }

    /// The worn gear of a character whose choice the log left out, shown by the first damage
    /// recorded to them (`recorded`): the first of their worn gear (in catalog order) under
    /// which the damage owed now is the one recorded, or the first one applied so far when
    /// none is. The choice is then settled for the rest of the fight (unless that damage is
    /// the same under each of them). Only the finding at the
    /// join reports the omission; the Block goes on applying as l.22-23 require.
    /// Whether it settled the choice (the state changed).
    pub(crate) fn settle_worn(&self, s: &mut State, recorded: &Fact) -> bool {
        let Fact::DamageDealt { who, .. } = *recorded else { return false };
        let Some(x) = s.fighters.get(who.i()) else { return false };
        let Who::Character(id) = x.who else { return false };
        if !x.worn_open {
            return false;
        }
        let candidates: Vec<CardId> = self
            .catalog
            .characters
            .get(id)
            .map_or(&[][..], |c| &c.cards[..])
            .iter()
            .copied()
            .filter(|&c| self.catalog.cards.get(c).is_some_and(|k| k.worn))
            .collect();
        let due_with = |s: &State, c: CardId| {
            let mut t = s.clone();
            let x = &mut t.fighters[who.i()];
            x.worn = Some(c);
            x.passives = self.passives_of(id, Some(c));
            self.next_due(&t).map(|d| d.fact)
        };
        let dues: Vec<Option<Fact>> = candidates.iter().map(|&c| due_with(s, c)).collect();
        // A damage no worn gear changes (a start-of-fight effect, a spell against non-spell
        // Block) shows nothing: the choice stays open.
        if dues.windows(2).all(|w| w[0] == w[1]) {
            return false;
        }
        let shown = candidates.iter().zip(&dues).find(|(_, d)| **d == Some(*recorded)).map(|(&c, _)| c);
        let chosen = shown.or(s.fighters[who.i()].worn);
        let x = &mut s.fighters[who.i()];
        x.worn = chosen;
        x.passives = self.passives_of(id, chosen);
        x.worn_open = false;
        true
    }

    /// `monster wyvern cage 4`
    pub(crate) fn place_monster(
        &self,
        s: &mut State,
        ev: &Event,
        monster: &str,
        place: Place,
        number: u32,
        f: &mut Findings,
    ) -> Result<(), StepError> {
        if !matches!(s.phase, Phase::Joining) {
            return Err(out_of_sequence(ev, s));
        }
        let id = self
            .catalog
            .monsters
            .id(monster)
            .ok_or_else(|| StepError::new(format!("no monster `{monster}` in the catalog")))?;
        let card = &self.catalog.monsters[id];
        if s.pending_monster.is_some() || s.monster().is_some() {
            f.violate(Violation::new(rules::JOIN, format!("a second monster `{monster}` in one fight")));
            return Ok(());
        }
        let mut taint = None;
        for t in &card.text {
            taint = Some(s.unverified.report(f, unverified(monster, monster, t)));
        }
        let fighter = Fighter {
            label: Name::new(monster),
            key: NameKey::of(monster),
            who: Who::Monster(id),
            grit: card.grit,
            fame: card.rank,
            skills: card.skills,
            ailments: [0; 4],
            effects: Vec::new(),
            superseded: Vec::new(),
            passives: card.passives.clone(),
            worn: None,
            worn_open: false,
            hand: Hand::new(),
            discarded: Hand::new(),
            focus_played: false,
            revealed: false,
            mercs: Vec::new(),
            defeated: false,
            trophies: Vec::new(),
            started: 0,
            ticked: 0,
            awarded: false,
            taint,
            grit_taint: None,
        };
        s.pending_monster = Some(PendingMonster { fighter, place, number });
        Ok(())
    }

    /// `begin`: the monster is seated; the token and the start-of-fight effects are owed.
    pub(crate) fn begin(&self, s: &mut State, ev: &Event, f: &mut Findings) -> Result<(), StepError> {
        if !matches!(s.phase, Phase::Joining) {
            return Err(out_of_sequence(ev, s));
        }
        let k = s.fighters.len();
        if k == 0 {
            return Err(StepError::rule(rules::JOIN, "no character joined the fight"));
        }
        match s.pending_monster.take() {
            Some(PendingMonster { fighter: mut m, number, .. }) => {
                // "Count a number of places starting from the first actor equal to the cage
                // number ... The monster is in the seat clockwise of that player."
                let after = number as usize % k;
                m.grit = m.grit.saturating_add(4 * (k as i32 - 1));
                s.fighters.insert(after + 1, m);
            }
            None if k != 2 => f.violate(Violation::new(
                rules::JOIN,
                format!("a fight between characters has exactly 2 of them, not {k}"),
            )),
            None => {}
        }
        s.grit_changed();
        s.round = 1;
        s.set_phase(Phase::Reveal);
        s.recheck = Some(Recheck::Check);
        s.starting = true;
        s.cure_check = true;
        Ok(())
    }
}
