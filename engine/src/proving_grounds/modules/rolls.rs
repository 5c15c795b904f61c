//! The Rolls tracker (reference card, Step 1: "For each reroll, reduce the Rolls tracker ...
//! Stop when satisfied or out of rerolls"). Its size is the setup's `rolls-size`; whether it
//! refills every round or once per game is `rolls-reset`.

use super::Hooks;
use crate::proving_grounds::dice::ColorCounts;
use crate::proving_grounds::params::RollsReset;
use crate::proving_grounds::rules::*;
use crate::proving_grounds::state::State;
use crate::proving_grounds::ProvingGrounds;
use crate::{Findings, Violation};

pub(super) struct Rolls;

impl Hooks for Rolls {
    fn setup(&self, g: &ProvingGrounds, s: &mut State) {
        s.mods.rolls.left = g.config.rolls;
    }

    /// Under `rolls-reset=round` the tracker is set again at each round's recovery, for the
    /// next round; under `game` only at setup. Not at the roll: an inspiration card is played
    /// "at any time", and rerolls it adds before a roll (at setup, or between a recovery and
    /// the next roll) are the player's for that round.
    fn recover(&self, g: &ProvingGrounds, s: &mut State, _pool: &mut ColorCounts) {
        if g.config.rolls_reset == RollsReset::Round {
            s.mods.rolls.left = g.config.rolls;
        }
    }

    fn after_reroll(&self, _g: &ProvingGrounds, s: &mut State, f: &mut Findings) {
        if s.mods.rolls.left == 0 {
            f.violate(Violation::new(ROLLS_OUT, "the Rolls tracker is out of rerolls"));
        }
        s.mods.rolls.left = s.mods.rolls.left.saturating_sub(1);
    }
}
