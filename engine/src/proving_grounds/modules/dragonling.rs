//! Dragonling (reference card, Step 1; enemy card anatomy, "Dragonling Icon"): the dragonling
//! die is rolled with the pool each round and "may" be rerolled with any set; an enemy's icon
//! is its weakness to one result of that die.
//!
//! What a weakness does is the interpretation `dragonling-weakness`: not guessed (a marker move
//! against a weak enemy is reported unverified), or the die joins the attack as one more die.
//! The dragonling token has no rule in the text and is not modelled.

use super::Hooks;
use crate::proving_grounds::attack::AttackMods;
use crate::proving_grounds::dice::{Color, ColorCounts};
use crate::proving_grounds::event::{Action, Event};
use crate::proving_grounds::params::DragonlingWeakness;
use crate::proving_grounds::rules::*;
use crate::proving_grounds::state::{Phase, State, SLOTS};
use crate::proving_grounds::ProvingGrounds;
use crate::{Findings, StepError, Violation};

pub(super) struct Dragonling;

impl Hooks for Dragonling {
    /// The dragonling die may only follow the roll or reroll it went with: any other event
    /// ends that chance.
    fn before_event(&self, s: &mut State, e: &Event) {
        if !matches!(e.action, Action::DragonlingRolled { .. }) {
            s.mods.dragonling.may_roll = false;
        }
    }

    fn event(
        &self,
        _g: &ProvingGrounds,
        s: &mut State,
        e: &Event,
        f: &mut Findings,
    ) -> Result<(), StepError> {
        if let Action::DragonlingRolled { value } = e.action {
            let m = &mut s.mods.dragonling;
            if !m.may_roll {
                f.violate(Violation::new(
                    DRAGON_WITH_SET,
                    "the dragonling die is rolled with the pool or rerolled with a set: record it right after that `roll` or `reroll`",
                ));
            }
            m.face = value;
            m.may_roll = false;
        }
        Ok(())
    }

    fn after_roll(&self, _g: &ProvingGrounds, s: &mut State) {
        s.mods.dragonling = Default::default();
        s.mods.dragonling.may_roll = true;
    }

    fn after_reroll(&self, _g: &ProvingGrounds, s: &mut State, f: &mut Findings) {
        let m = &mut s.mods.dragonling;
        m.may_roll = true;
        // A reroll "with any set" (card l.6) presumes the die was rolled with the pool: the
        // first event after the roll shows it was not recorded (audit r6 D18), once.
        if m.face == 0 && !m.missed {
            m.missed = true;
            f.violate(Violation::new(
                DRAGON_WITH_POOL,
                "the dragonling die was not rolled with the pool this round (`dragon N` after the `roll`)",
            ));
        }
    }

    /// Rolling ends: the dragonling die must have been rolled with the pool.
    fn leave_roll(&self, _g: &ProvingGrounds, s: &mut State, f: &mut Findings) {
        if s.mods.dragonling.face == 0 && !s.mods.dragonling.missed {
            f.violate(Violation::new(
                DRAGON_WITH_POOL,
                "the dragonling die was not rolled with the pool this round (`dragon N` after the `roll`)",
            ));
        }
    }

    /// Under `dragonling-weakness=extra-die`, the die joins the attack on a weak enemy.
    fn attack(&self, g: &ProvingGrounds, s: &State, i: usize, _m: &mut AttackMods, dice: &mut ColorCounts) {
        // The die joins an attack: an enemy assigned no dice is not attacked (l.137 "No Dice
        // ... nothing happens"), whatever its weakness.
        if g.config.dragonling_weakness == DragonlingWeakness::ExtraDie
            && !dice.is_empty()
            && g.weak_to_dragon(s, i)
        {
            dice.add(Color::White);
        }
    }

    /// Under `dragonling-weakness=unverified`, a move against a weak enemy is not guessed.
    fn marker_turn(&self, g: &ProvingGrounds, s: &mut State, i: usize, _e: &Event, f: &mut Findings) {
        g.weakness_unverified(s, f, i);
    }
}

impl ProvingGrounds {
    fn weak_to_dragon(&self, s: &State, i: usize) -> bool {
        let face = s.mods.dragonling.face;
        s.slots[i].card.is_some_and(|c| face != 0 && self.enemy(c).icon == Some(face))
    }

    /// Under `dragonling-weakness=unverified`, the attack on slot `i` meets the weakness the
    /// engine does not guess: reported unverified once a round (at the enemy's turn, or where
    /// its skipped turn is reported), and its ordinal returned. The weakness is a property of
    /// that one enemy (Enemy Card Anatomy 8), so it taints only that enemy's resolution (its
    /// turn, its defeat or wound, the moon's or sun's step on it), not the round.
    pub(in crate::proving_grounds) fn weakness_unverified(
        &self,
        s: &mut State,
        f: &mut Findings,
        i: usize,
    ) -> Option<u32> {
        // Only an attacked enemy's turn can depend on its weakness (l.137: with no dice,
        // nothing happens), so a hold for an enemy assigned none is checked as any other.
        if self.config.dragonling_weakness != DragonlingWeakness::Unverified
            || !self.weak_to_dragon(s, i)
            || s.pool.colors_showing(i as u8 + 1).is_empty()
        {
            return None;
        }
        if let Some(o) = self.weak_uncertain(s, i) {
            return Some(o);
        }
        let c = s.slots[i].card?;
        let why = format!(
            "the dragonling die shows {}, the weakness of `{}`; the rulebook does not say what a weakness does (dragonling-weakness=unverified)",
            s.mods.dragonling.face,
            self.enemy(c).id
        );
        let ordinal = self.report_unverified(s, f, why, false);
        let m = &mut s.mods.dragonling;
        m.weak |= 1 << i;
        m.weak_ordinal[i] = ordinal;
        Some(ordinal)
    }

    /// The unverified weakness slot `i`'s resolution may follow from this round, if any.
    pub(in crate::proving_grounds) fn weak_uncertain(&self, s: &State, i: usize) -> Option<u32> {
        let m = &s.mods.dragonling;
        (i < SLOTS && m.weak & (1 << i) != 0).then(|| m.weak_ordinal[i])
    }

    /// The first unverified weakness an attack met this round, while the round is on (its
    /// recovery ends it, as it ends every effect's round): an effect the engine cannot apply,
    /// so a die exhausted beyond a wound's may be its doing (uncertain, not a violation).
    pub(in crate::proving_grounds) fn weakness_this_round(&self, s: &State) -> Option<u32> {
        let m = &s.mods.dragonling;
        if m.weak == 0 || !matches!(s.phase, Phase::Roll | Phase::Move | Phase::Check) {
            return None;
        }
        (0..SLOTS).filter(|&i| m.weak & (1 << i) != 0).map(|i| m.weak_ordinal[i]).min()
    }

    /// Whether a finding about slot `i`'s resolution is certain: no unverified effect of this
    /// round (`taint`, or the one `apply_tainted` is replaying under), no unverified weakness
    /// of that enemy, and its marker where the log says. Only then is a consequence the log
    /// left out applied as the rules required (one omission, one finding: kit::due): after an
    /// unverified effect, the table may have done what the effect says instead.
    pub(in crate::proving_grounds) fn certain_about(&self, s: &State, i: usize) -> bool {
        s.taint.is_none()
            && s.tainted_event.is_none()
            && self.weak_uncertain(s, i).is_none()
            && !(i < SLOTS && s.marker_unknown & (1 << i) != 0)
    }

    /// Whether what makes slot `i`'s resolution uncertain is only its enemy's unverified
    /// weakness this round (no wider effect, its marker where the log says). A marker turn
    /// the log left out is then still made as the verified rules require, its finding
    /// uncertain: the weakness's effect is written nowhere (l.49), the move the book gives
    /// (l.121-133) is the table it implies, and leaving it unmade kept the marker a space off
    /// for the rest of the game, so that correct records rounds later were counted violations
    /// (audit r6 D19). (A wound left out stays unmade: a marker left on its end space is the
    /// table's own sign the weakness may have acted, `leave_marker_unknown`.)
    pub(in crate::proving_grounds) fn only_weak(&self, s: &State, i: usize) -> bool {
        s.taint.is_none()
            && s.tainted_event.is_none()
            && self.weak_uncertain(s, i).is_some()
            && !(i < SLOTS && s.marker_unknown & (1 << i) != 0)
    }

    /// Report `v`, a finding about slot `i`'s resolution: uncertain when that enemy met an
    /// unverified weakness this round, or when an unverified effect of an earlier round left
    /// its marker where the log cannot say (`leave_marker_unknown`).
    pub(in crate::proving_grounds) fn violate_about(
        &self,
        s: &State,
        i: usize,
        f: &mut Findings,
        v: Violation,
    ) {
        // This round's weakness first, else a marker an earlier round's unverified effect left
        // where the log cannot say.
        let unknown = (i < SLOTS && s.marker_unknown & (1 << i) != 0).then(|| s.marker_unknown_ordinal[i]);
        match self.weak_uncertain(s, i).or(unknown) {
            Some(o) => f.violate(v.uncertain_after(o)),
            None => f.violate(v),
        }
    }
}
