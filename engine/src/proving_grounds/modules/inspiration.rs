//! Inspiration: the rulebook names "15 Inspiration Cards" among the components and gives no
//! rule for them. `inspire CARD` records a card played, at any time; `inspire CARD SLOT` plays
//! it on the enemy in that slot. Whether a card played is spent is `inspiration-reuse`.
//!
//! Effects are card data: `rolls +N` (the Rolls tracker gains N; unverified without the
//! `rolls` module), `reroll-single` (one single may be rerolled this round), `heal N`, and on
//! one enemy, whose slot the log names, `marker +N` and `unshield`; other text, or a card
//! played on an enemy without naming it, is reported unverified.

use super::Hooks;
use crate::kit::effect::unverified;
use crate::proving_grounds::cards::{Effect, Inspiration as Card};
use crate::proving_grounds::dice::ColorCounts;
use crate::proving_grounds::event::{Action, Event};
use crate::proving_grounds::params::{InspirationReuse, Module};
use crate::proving_grounds::rules::*;
use crate::proving_grounds::state::State;
use crate::proving_grounds::ProvingGrounds;
use crate::{Findings, StepError, Violation};

pub(super) struct Inspiration;

impl Hooks for Inspiration {
    fn event(&self, g: &ProvingGrounds, s: &mut State, e: &Event, f: &mut Findings) -> Result<(), StepError> {
        match &e.action {
            Action::InspirationPlayed { card } => g.inspire(s, card, None, f),
            Action::InspirationPlayedOn { card, slot } => g.inspire(s, card, Some(*slot as usize - 1), f),
            _ => Ok(()),
        }
    }

    fn allow_single_reroll(&self, s: &mut State) -> bool {
        std::mem::replace(&mut s.mods.inspiration.single_reroll, false)
    }

    fn recover(&self, _g: &ProvingGrounds, s: &mut State, _pool: &mut ColorCounts) {
        s.mods.inspiration.single_reroll = false;
    }
}

impl ProvingGrounds {
    /// An inspiration card played, on the enemy in slot `on` when the log names one.
    fn inspire(
        &self,
        s: &mut State,
        card: &str,
        on: Option<usize>,
        f: &mut Findings,
    ) -> Result<(), StepError> {
        let k = self
            .cards
            .inspirations
            .iter()
            .position(|c| c.id == card)
            .ok_or_else(|| StepError::new(format!("no inspiration card `{card}` in the catalog")))?;
        let c = &self.cards.inspirations[k];
        if let Some(i) = on {
            if s.slots[i].card.is_none() {
                return Err(StepError::new(format!(
                    "`{card}` is played on slot {}, which holds no enemy",
                    i + 1
                )));
            }
            // Free text may say what it acts on; a form of the engine's says whether it does.
            if !c.effect.targets_an_enemy() && !matches!(c.effect, Effect::Text(_)) {
                return Err(StepError::new(format!(
                    "`{card}` ({}) is not played on an enemy: write `inspire {card}`",
                    c.effect
                )));
            }
        }
        let m = &mut s.mods.inspiration;
        if self.config.inspiration_reuse == InspirationReuse::Once && m.played & (1 << k) != 0 {
            f.violate(Violation::new(INSPIRATION_ONCE, format!("`{card}` was already played")));
        }
        m.played |= 1 << k;
        match (&c.effect, on) {
            (Effect::MarkerUp(n), Some(i)) => {
                if let Some(top) = s.slots[i].card.map(|card| self.enemy(card).top()) {
                    s.slots[i].marker = s.slots[i].marker.saturating_add(*n).min(top);
                }
            }
            (Effect::Unshield, Some(i)) => s.mods.shields.shielded &= !(1 << i),
            (effect, None) if effect.targets_an_enemy() => {
                let why = format!(
                    "inspiration `{}` ({effect}) acts on one enemy, but the log does not say which (`inspire {} SLOT`)",
                    c.id, c.id
                );
                self.report_unverified(s, f, why, true);
            }
            (Effect::Text(t), Some(i)) => {
                let said = unverified(&format!("inspiration (on slot {})", i + 1), &c.id, t);
                self.report_unverified(s, f, said, true);
            }
            (effect, _) => self.inspire_untargeted(s, c, effect, f),
        }
        Ok(())
    }

    /// The effect of a card played on no enemy.
    fn inspire_untargeted(&self, s: &mut State, c: &Card, effect: &Effect, f: &mut Findings) {
        match effect {
            Effect::Rolls(n) if self.has(Module::Rolls) => {
                s.mods.rolls.left = s.mods.rolls.left.saturating_add(*n)
            }
            Effect::Rolls(_) => {
                let why = format!(
                    "inspiration `{}` adds rerolls, but no Rolls tracker is in play (module `rolls`)",
                    c.id
                );
                self.report_unverified(s, f, why, false);
            }
            Effect::RerollSingle => s.mods.inspiration.single_reroll = true,
            // The health marker moves back up, never above the start space.
            Effect::Heal(n) => s.health = s.health.saturating_sub(*n).max(1),
            Effect::Text(t) => {
                self.report_unverified(s, f, unverified("inspiration", &c.id, t), true);
            }
            // Another kind's effect (refused when the catalog is read) or one played on an
            // enemy (handled by `inspire`).
            _ => {}
        }
    }
}
