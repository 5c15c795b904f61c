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

    /// What a pick of `card` takes (an error for a card no pick takes).
    pub(crate) fn pick_kind(&self, card: &Name) -> Result<Pick, StepError> {
        if let Some(id) = self.catalog.units(true).id(card.as_str()) {
            let c = &self.catalog.units(true)[id];
            match (c.kind, c.size) {
                (UnitKind::Assent, _) => Ok(Pick::Assent),
                (UnitKind::Gladiator, Some(Size::Large)) => Ok(Pick::Large),
                (UnitKind::Gladiator, _) => Ok(Pick::Medium),
                _ => {
                    Err(StepError::new(format!("`{card}` is not drafted (a Summon comes with its summoner)")))
                }
            }
        } else if self.catalog.equipment.id(card.as_str()).is_some() {
            Ok(Pick::Equipment)
        } else {
            Err(StepError::new(format!("no Arena card `{card}` in the catalog")))
        }
    }

    /// The pick the book's order `order` has at `at` (index, phase swapped), with Player 1
    /// `first`: (the side, what it takes).
    fn due_pick(order: &[(bool, Pick)], first: Side, at: (u16, bool)) -> Option<(Side, Pick)> {
        let &(p1, what) = order.get(usize::from(at.0))?;
        Some((if p1 != at.1 { first } else { first.other() }, what))
    }

    /// The reading `at` one pick on: a swap of the turns lasts to its phase's end.
    fn next_pick(order: &[(bool, Pick)], at: (u16, bool)) -> (u16, bool) {
        let k = usize::from(at.0);
        let same = order.get(k + 1).map(|x| x.1) == order.get(k).map(|x| x.1);
        (at.0.saturating_add(1), at.1 && same)
    }

    /// The readings of the draft so far ([`super::state::arena::Draft::aligns`]).
    pub(crate) fn draft_aligns(&self, s: &State) -> Vec<(u16, bool)> {
        if s.draft.aligns.is_empty() {
            vec![(u16::try_from(s.draft.picks.len()).unwrap_or(u16::MAX), false)]
        } else {
            s.draft.aligns.clone()
        }
    }

    /// Whether `side` has made fewer picks of `what` than the book's order gives it: a pick
    /// the log left out (reported at the pick after it), whose card a troupe or Assent may
    /// then carry without a second finding.
    pub(crate) fn pick_left_out(&self, s: &State, side: Side, what: Pick) -> bool {
        let Some(first) = s.draft.first else { return false };
        let order = self.draft_order();
        let owed =
            order.iter().filter(|&&(p1, w)| w == what && (if p1 { first } else { first.other() }) == side);
        let made = s
            .draft
            .picks
            .iter()
            .zip(&s.draft.sides)
            .filter(|(c, x)| **x == side && self.pick_kind(c).ok() == Some(what));
        made.count() < owed.count()
    }

    /// A draft begun and not finished in every reading of its picks: the pick the book's
    /// order has next is left out (one finding, under its phase's rule).
    pub(crate) fn draft_unfinished(&self, s: &State, f: &mut Findings) {
        let Some(first) = s.draft.first else { return };
        if s.draft.picks.is_empty() {
            return;
        }
        let order = self.draft_order();
        let aligns = self.draft_aligns(s);
        if aligns.iter().any(|at| usize::from(at.0) >= order.len()) {
            return;
        }
        let at = aligns[0];
        if let Some((side, what)) = Self::due_pick(&order, first, at) {
            let player = if side == first { 1 } else { 2 };
            f.violate(Violation::new(
                what.rule(),
                format!(
                    "the draft ends at {} of its {} picks: pick {} is Player {player}'s ({side}) {what} pick",
                    s.draft.picks.len(),
                    order.len(),
                    at.0 + 1
                ),
            ));
        }
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
        let what = self.pick_kind(&card)?;
        let Some(first) = s.draft.first else {
            f.violate(Violation::new(
                rules::DRAFT_ROLL,
                "the drafting roll decides Player 1 before the first pick",
            ));
            return Ok(());
        };
        // The order is judged as played: one pick out of turn, or one left out, is one
        // finding, and the next picks are judged from every reading of the picks so far
        // that the recorded pick fits (the turns of its phase swapped, or the missing picks
        // taken as made), as an activation out of turn is (order.rs).
        let order = self.draft_order();
        let aligns = self.draft_aligns(s);
        let fits = |at: (u16, bool)| Self::due_pick(&order, first, at) == Some((side, what));
        let mut next: Vec<(u16, bool)> =
            aligns.iter().filter(|&&at| fits(at)).map(|&at| Self::next_pick(&order, at)).collect();
        if next.is_empty() {
            let at = aligns[0];
            match Self::due_pick(&order, first, at) {
                None => f.violate(Violation::new(
                    what.rule(),
                    format!("the draft is complete ({} picks)", order.len()),
                )),
                Some((turn, due)) => {
                    let player = if turn == first { 1 } else { 2 };
                    f.violate(Violation::new(
                        due.rule(),
                        format!(
                            "pick {} of the draft is Player {player}'s ({turn}) {due} pick, not {side}'s {what}",
                            at.0 + 1
                        ),
                    ))
                }
            }
            for &at in &aligns {
                if usize::from(at.0) >= order.len() {
                    continue;
                }
                // Taken as made, whatever it took.
                next.push(Self::next_pick(&order, at));
                // The phase begun (or going on) on the other side: its turns swap.
                let swapped = (at.0, !at.1);
                if fits(swapped) {
                    next.push(Self::next_pick(&order, swapped));
                }
                // One or two picks left out.
                let mut skip = at;
                for _ in 0..2 {
                    skip = Self::next_pick(&order, skip);
                    if fits(skip) {
                        next.push(Self::next_pick(&order, skip));
                    }
                }
            }
            if next.is_empty() {
                next = aligns;
            }
        }
        let mut uniq: Vec<(u16, bool)> = Vec::new();
        for at in next {
            if !uniq.contains(&at) && uniq.len() < 8 {
                uniq.push(at);
            }
        }
        s.draft.aligns = uniq;
        s.draft.sides.push(side);
        if s.draft.picks.contains(&card) {
            f.violate(Violation::new(rules::DRAFT_ONCE, format!("{card} is drafted already")));
        }
        s.draft.picks.push(card);
        Ok(())
    }
}
