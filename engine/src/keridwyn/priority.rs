//! The Priority token's Finesse tie-break: tied participants each roll Finesse in turn
//! order; "the highest roll gains the Priority token, comparing second highest and lower
//! dice if higher values match, rerolling if needed on a perfect tie". Every roll modifier
//! applies to these dice as to any roll (Dazzle's -1 included). Who holds the token, and
//! when it is re-checked, is derived in due.rs.

use super::effect::Skill;
use super::event::Event;
use super::rules::{self, RerollRolls, TiebreakDice, TiebreakReroll};
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
        let rolls = std::mem::take(rolls);
        let resume = match std::mem::replace(&mut s.phase, Phase::Over) {
            Phase::TieBreak { resume, .. } => *resume,
            other => other,
        };
        self.decide_rolloff(s, rolls, resume);
        Ok(())
    }

    /// Every tied participant's Finesse roll is down: the token to the roll no other beats,
    /// or a new roll-off among the rolls that tie ("rerolling if needed on a perfect tie").
    /// The rolls are kept (`rolloff`) until the next record, for a Fame reroll of one of them.
    fn decide_rolloff(&self, s: &mut State, rolls: Vec<(Seat, Roll)>, resume: Phase) {
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
        s.rolloff = rolls;
        if let [winner] = winners[..] {
            s.phase = resume;
            s.recheck = Some(Recheck::To(winner));
        } else {
            s.phase = Phase::TieBreak { tied: winners, rolls: Vec::new(), resume: Box::new(resume) };
        }
    }

    /// Whether `ev` is a Fame reroll of a Finesse tie-break die (`reroll-rolls=any-roll`): no
    /// action's roll is being resolved, and a roll-off is open or its last roll just came.
    pub(crate) fn tiebreak_reroll_due(&self, s: &State, ev: &Event) -> bool {
        self.params.reroll_rolls == RerollRolls::AnyRoll
            && Self::rerolls_tiebreak(s, ev)
            && (matches!(&s.phase, Phase::TieBreak { rolls, .. } if !rolls.is_empty())
                || !s.rolloff.is_empty())
    }

    /// Whether `ev` is a Fame reroll aimed at a Finesse tie-break roll, for
    /// `reroll-rolls=action-roll` to refuse: no action's roll is being resolved, and a roll-off
    /// is under way (open, even before its first roll, or its last roll just came and the token
    /// it gives is not recorded yet).
    pub(crate) fn rerolls_tiebreak(s: &State, ev: &Event) -> bool {
        matches!(ev, Event::Rerolled { .. })
            && !s.current.as_ref().is_some_and(|c| c.rolled)
            && (matches!(&s.phase, Phase::TieBreak { .. }) || !s.rolloff.is_empty())
    }

    /// `reroll A 2 -> 9 fame 2` of a tie-break die: the die of the payer's own roll when it
    /// shows it, else of the latest roll that does. What it decides is `tiebreak-reroll`;
    /// `fame_changes` says whether the Fame it costs changes the payer's Fame.
    ///
    /// `recheck` (the default): "each time after Fame changes, the participant with the highest
    /// Fame gains the Priority token" (l.26), so the Fame paid ends the roll-off and the token
    /// is checked from the Fame (the payer, tied before paying, is now lower; a tie among the
    /// others rolls off anew). A reroll that costs no Fame changes none and starts no check:
    /// its die counts as under `die-decides`.
    ///
    /// `die-decides` (rules version 10): the rerolled die decides the roll-off (l.26 "the
    /// highest roll gains the Priority token"; l.61 "Fame ... can help characters act first and
    /// change their luck"): a roll-off still open goes on with it, one whose last roll just came
    /// is decided again, and the Fame it costs starts no check.
    pub(crate) fn tiebreak_reroll(
        &self,
        s: &mut State,
        ev: &Event,
        p: Seat,
        (from, to): (u8, u8),
        fame_changes: bool,
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
        let open = matches!(&s.phase, Phase::TieBreak { rolls, .. } if !rolls.is_empty());
        let rolls = match &mut s.phase {
            Phase::TieBreak { rolls, .. } if open => rolls,
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
        if fame_changes && self.params.tiebreak_reroll == TiebreakReroll::Recheck {
            // The roll-off, open or just decided, gives way to the check from the Fame (due.rs:
            // the highest Fame, or a new roll-off among those tied for it). The rolls it still
            // owed are remembered, for the next records (step.rs).
            s.rolloff.clear();
            if let Phase::TieBreak { resume, tied, rolls } = &mut s.phase {
                s.unrolled = tied
                    .iter()
                    .filter(|t| !rolls.iter().any(|(r, _)| r == *t))
                    .filter_map(|t| u32::try_from(t.i()).ok().and_then(|n| 1u64.checked_shl(n)))
                    .fold(0, |m, bit| m | bit);
                s.phase = std::mem::replace(resume.as_mut(), Phase::Over);
            }
            s.recheck = Some(Recheck::Check);
            return Ok(());
        }
        if open {
            return Ok(());
        }
        let rolls = std::mem::take(&mut s.rolloff);
        let resume = match std::mem::replace(&mut s.phase, Phase::Over) {
            Phase::TieBreak { resume, .. } => *resume,
            other => other,
        };
        self.decide_rolloff(s, rolls, resume);
        Ok(())
    }
}
