//! The Priority token's Finesse tie-break: tied participants each roll Finesse in turn
//! order; "the highest roll gains the Priority token, comparing second highest and lower
//! dice if higher values match, rerolling if needed on a perfect tie". Every roll modifier
//! applies to these dice as to any roll (Dazzle's -1 included). Who holds the token, and
//! when it is re-checked, is derived in due.rs.

use super::effect::Skill;
use super::event::Event;
use super::rules::{self, RerollRolls, TiebreakDice};
use super::state::{Phase, Recheck, Seat, State};
use super::KeridwynFight;
use crate::kit::dice::{Modified, Roll};
use crate::{Findings, StepError, Violation};
use std::cmp::Ordering;

impl KeridwynFight {
    /// A Finesse roll for the token.
    pub(crate) fn tiebreak_roll(
        &self,
        s: &mut State,
        i: Seat,
        skill: Skill,
        dice: &Roll,
        f: &mut Findings,
    ) -> Result<(), StepError> {
        let who = self.label(s, i).to_string();
        let tier = usize::from(s.fighter(i).tier(Skill::Finesse));
        let Phase::TieBreak { tied, rolls, .. } = &mut s.phase else { return Ok(()) };
        if !tied.contains(&i) || rolls.iter().any(|(r, _)| *r == i) {
            return Err(StepError::rule(
                rules::TIEBREAK,
                format!("{who} is not due a Finesse roll for the token"),
            ));
        }
        // "they each roll Finesse" (l.26): in no order the book names, so any order.
        if skill != Skill::Finesse {
            f.violate(Violation::new(
                rules::ROLL_SKILL,
                format!("the token tie is rolled with Finesse, not {skill}"),
            ));
        }
        if dice.len() != tier {
            f.violate(Violation::new(
                rules::DICE_COUNT,
                format!("{who} rolls {tier} dice for Finesse, not {}", dice.len()),
            ));
        }
        rolls.push((i, dice.clone()));
        if rolls.len() < tied.len() {
            return Ok(());
        }
        let rolls = rolls.clone();
        // Compared die by die after each roller's modifiers. The winners are the rolls no
        // other roll beats: under `tiebreak-unequal-dice=perfect-tie` "matching" is not
        // transitive (8 ties 8 3 and 8 2, which do not tie each other), so no running best.
        let modified: Vec<_> = rolls.iter().map(|(w, r)| (*w, r.with(self.roller_modifier(s, *w)))).collect();
        let compare = |a: &Modified<'_>, b: &Modified<'_>| match self.params.tiebreak_dice {
            TiebreakDice::FewerLoses => a.compare(b),
            TiebreakDice::PerfectTie => a.compare_paired(b),
        };
        let winners: Vec<Seat> = modified
            .iter()
            .filter(|(_, m)| !modified.iter().any(|(_, o)| compare(o, m) == Ordering::Greater))
            .map(|(w, _)| *w)
            .collect();
        let Phase::TieBreak { tied, rolls, resume } = &mut s.phase else { return Ok(()) };
        s.rolloff = rolls.clone();
        if let [winner] = winners[..] {
            let resume = std::mem::replace(resume.as_mut(), Phase::Over);
            s.phase = resume;
            s.recheck = Some(Recheck::To(winner));
        } else {
            *tied = winners;
            rolls.clear();
        }
        Ok(())
    }

    /// Whether `ev` is a Fame reroll of a Finesse tie-break die (`reroll-rolls=any-roll`): no
    /// action's roll is being resolved, and a roll-off is open or its last roll just came.
    pub(crate) fn tiebreak_reroll_due(&self, s: &State, ev: &Event) -> bool {
        matches!(ev, Event::Rerolled { .. })
            && self.params.reroll_rolls == RerollRolls::AnyRoll
            && !s.current.as_ref().is_some_and(|c| c.rolled)
            && (matches!(&s.phase, Phase::TieBreak { rolls, .. } if !rolls.is_empty())
                || !s.rolloff.is_empty())
    }

    /// `reroll A 2 -> 9 fame 2` of a tie-break die: the die of the payer's own roll when it
    /// shows it, else of the latest roll that does. The Fame spent changes Fame, and "each time
    /// after Fame changes, the participant with the highest Fame gains the Priority token"
    /// (l.26): the roll-off gives way to the token's check from the Fame (a new roll-off if
    /// the highest are still tied).
    pub(crate) fn tiebreak_reroll(
        &self,
        s: &mut State,
        ev: &Event,
        p: Seat,
        from: u8,
        to: u8,
        f: &mut Findings,
    ) -> Result<(), StepError> {
        let payer = s.fighter(p);
        if payer.is_monster() || payer.defeated {
            f.violate(Violation::new(
                rules::REROLL_FAME,
                format!(
                    "{} cannot spend Fame: only characters in the fight reroll (not applied)",
                    payer.label
                ),
            ));
            return Ok(());
        }
        let rolls = match &mut s.phase {
            Phase::TieBreak { rolls, .. } if !rolls.is_empty() => rolls,
            _ => &mut s.rolloff,
        };
        let own = rolls.iter().position(|(w, r)| *w == p && r.dice().contains(&from));
        let k = own.or_else(|| rolls.iter().rposition(|(_, r)| r.dice().contains(&from)));
        let Some(k) = k else {
            return Err(StepError::new(format!(
                "`{ev}`: no Finesse roll of the roll-off has a die showing {from}"
            )));
        };
        rolls[k].1.reroll(from, to);
        s.rolloff.clear();
        if let Phase::TieBreak { resume, .. } = &mut s.phase {
            s.phase = std::mem::replace(resume.as_mut(), Phase::Over);
        }
        s.recheck = Some(Recheck::Check);
        Ok(())
    }
}
