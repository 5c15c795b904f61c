//! Shields (reference card, "Attack Resolution Summary"): an incorrect set gives an unshielded
//! enemy a shield, a single removes it, and a correct set against a shielded enemy is reflected
//! (the marker moves down one).
//!
//! The table itself is `attack::resolve_attack_with`, which the core marker rules go through;
//! this module tells it which enemies are shielded and keeps the tokens as turns are recorded
//! (`shield N`, `unshield N`, a reflected `down N`). A shield stays on its enemy until a single
//! removes it or the enemy is defeated (a wound's reset keeps it); a reflected set keeps it
//! unless `shield-reflect=removed`.

use super::Hooks;
use crate::proving_grounds::attack::{AttackMods, Expected};
use crate::proving_grounds::dice::ColorCounts;
use crate::proving_grounds::event::Action;
use crate::proving_grounds::params::ShieldReflect;
use crate::proving_grounds::state::State;
use crate::proving_grounds::ProvingGrounds;

pub(super) struct Shields;

impl Hooks for Shields {
    fn attack(&self, _g: &ProvingGrounds, s: &State, i: usize, m: &mut AttackMods, _dice: &mut ColorCounts) {
        m.shields = true;
        m.shielded = s.mods.shields.shielded & (1 << i) != 0;
    }

    fn after_turn(&self, g: &ProvingGrounds, s: &mut State, i: usize, expected: Expected, action: &Action) {
        let shielded = &mut s.mods.shields.shielded;
        match action {
            Action::ShieldGained { .. } => *shielded |= 1 << i,
            Action::ShieldRemoved { .. } => *shielded &= !(1 << i),
            Action::MarkerMovedDown { .. }
                if expected == Expected::Reflected && g.config.shield_reflect == ShieldReflect::Removed =>
            {
                *shielded &= !(1 << i)
            }
            _ => {}
        }
    }

    /// A defeated enemy's shield goes with its card.
    fn after_defeat(&self, _g: &ProvingGrounds, s: &mut State, i: usize) {
        s.mods.shields.shielded &= !(1 << i);
    }
}
