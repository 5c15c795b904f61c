//! The Arena draft: each side rolls five Attack Dice (the most symbols, Successes and
//! Specials, is Player 1; a tie is rolled again), then picks in the book's order: large
//! Creatures (P1 1, P2 2, P1 1), medium Creatures (interpretation `draft-medium-2p` for two
//! players), Assents (Player 2 first, one per player) and Equipment (Player 2 first, two per
//! Assent; interpretation `draft-equipment-4p` for four). A team of the four-player game
//! drafts as one side. The draft is optional in a log; once begun, its order is checked.

use super::cards::{Size, UnitKind};
use super::rules::{self, DraftEquipment, DraftMedium, Mode};
use super::state::arena::Pick;
use super::state::{Faces, Phase, Side, State};
use super::WildAssent;
use crate::kit::name::Name;
use crate::{Findings, StepError, Violation};

fn slot(side: Side) -> Option<usize> {
    match side {
        Side::Red => Some(0),
        Side::Blue => Some(1),
        _ => None,
    }
}

impl Pick {
    fn rule(self) -> &'static str {
        match self {
            Pick::Large => rules::DRAFT_LARGE,
            Pick::Medium => rules::DRAFT_MEDIUM,
            Pick::Assent => rules::DRAFT_ASSENT,
            Pick::Equipment => rules::DRAFT_EQUIPMENT,
        }
    }
}

impl WildAssent {
    /// The draft's picks in order: (Player 1?, what).
    pub(crate) fn draft_order(&self) -> Vec<(bool, Pick)> {
        let four = self.params.players == 4;
        let runs = |pick: Pick, p1_first: bool, counts: &[u8]| -> Vec<(bool, Pick)> {
            counts
                .iter()
                .enumerate()
                .flat_map(|(k, &n)| std::iter::repeat_n(((k % 2 == 0) == p1_first, pick), usize::from(n)))
                .collect()
        };
        let medium: &[u8] = if !four && self.params.draft_medium == DraftMedium::Table {
            &[1, 2, 2, 1]
        } else {
            &[1, 2, 2, 2, 1]
        };
        let assents: &[u8] = if four { &[1, 2, 1] } else { &[1, 1] };
        let equipment: &[u8] = match (four, self.params.draft_equipment) {
            (false, _) => &[1, 2, 1],
            (true, DraftEquipment::TwoPerAssent) => &[1, 2, 2, 2, 1],
            (true, DraftEquipment::Table) => &[1, 2, 2, 1],
        };
        let mut order = runs(Pick::Large, true, &[1, 2, 1]);
        order.extend(runs(Pick::Medium, true, medium));
        order.extend(runs(Pick::Assent, false, assents));
        order.extend(runs(Pick::Equipment, false, equipment));
        order
    }

    fn draft_time(&self, s: &State, what: &str) -> Result<(), StepError> {
        if self.params.mode != Mode::Arena {
            return Err(StepError::new(format!("`{what}`: the draft is the Arena's (mode=arena)")));
        }
        if s.phase != Phase::Setup {
            return Err(StepError::new(format!("`{what}` belongs to the setup, before `begin`")));
        }
        Ok(())
    }

    /// `draft-roll SIDE FACES`.
    #[cold]
    #[inline(never)]
    pub(crate) fn draft_roll(
        &self,
        s: &mut State,
        side: Side,
        faces: Faces,
        f: &mut Findings,
    ) -> Result<(), StepError> {
        self.draft_time(s, "draft-roll")?;
        let k = slot(side).ok_or_else(|| StepError::new("the draft is between red and blue"))?;
        let d = &mut s.draft;
        if d.first.is_some() {
            f.violate(Violation::new(
                rules::DRAFT_ROLL,
                format!(
                    "Player 1 is decided ({}): no roll is owed",
                    d.first.map(|x| x.name()).unwrap_or("-")
                ),
            ));
            return Ok(());
        }
        if faces.count() != 5 {
            f.violate(Violation::new(
                rules::DRAFT_ROLL,
                format!("{side} rolls five Attack Dice, not {}", faces.count()),
            ));
        }
        if d.rolls[k].is_some() {
            f.violate(Violation::new(
                rules::DRAFT_ROLL,
                format!("{side} has rolled already: the other side rolls"),
            ));
        }
        d.rolls[k] = Some(faces.successes.saturating_add(faces.specials));
        if let [Some(r), Some(b)] = d.rolls {
            if r == b {
                // A tie is rolled again.
                d.rolls = [None, None];
            } else {
                d.first = Some(if r > b { Side::Red } else { Side::Blue });
            }
        }
        Ok(())
    }

    /// `draft SIDE CARD`.
    #[cold]
    #[inline(never)]
    pub(crate) fn draft_pick(
        &self,
        s: &mut State,
        side: Side,
        card: Name,
        f: &mut Findings,
    ) -> Result<(), StepError> {
        self.draft_time(s, "draft")?;
        slot(side).ok_or_else(|| StepError::new("the draft is between red and blue"))?;
        let what = if let Some(id) = self.catalog.units(true).id(card.as_str()) {
            let c = &self.catalog.units(true)[id];
            match (c.kind, c.size) {
                (UnitKind::Assent, _) => Pick::Assent,
                (UnitKind::Gladiator, Some(Size::Large)) => Pick::Large,
                (UnitKind::Gladiator, _) => Pick::Medium,
                _ => {
                    return Err(StepError::new(format!(
                        "`{card}` is not drafted (a Summon comes with its summoner)"
                    )))
                }
            }
        } else if self.catalog.equipment.id(card.as_str()).is_some() {
            Pick::Equipment
        } else {
            return Err(StepError::new(format!("no Arena card `{card}` in the catalog")));
        };
        let Some(first) = s.draft.first else {
            f.violate(Violation::new(
                rules::DRAFT_ROLL,
                "the drafting roll decides Player 1 before the first pick",
            ));
            return Ok(());
        };
        let order = self.draft_order();
        let n = s.draft.picks.len();
        match order.get(n) {
            None => f.violate(Violation::new(
                what.rule(),
                format!("the draft is complete ({} picks)", order.len()),
            )),
            Some(&(p1, due)) => {
                let turn = if p1 { first } else { first.other() };
                let player = if p1 { 1 } else { 2 };
                if turn != side || due != what {
                    f.violate(Violation::new(
                        due.rule(),
                        format!("pick {} of the draft is Player {player}'s ({turn}) {due} pick, not {side}'s {what}", n + 1),
                    ));
                }
            }
        }
        if s.draft.picks.contains(&card) {
            f.violate(Violation::new(rules::DRAFT_ONCE, format!("{card} is drafted already")));
        }
        s.draft.picks.push(card);
        Ok(())
    }
}
