//! Step 3, Recover: "Retrieve all dice assigned to enemies this round, returning them to your
//! dice pool. On the exhaustion track, move all dice down one space. Any dice that were on the
//! bottom space ... return to your dice pool." Empty slots are then refilled (`draw`).
//!
//! Victory (eight defeats, or more when a round defeats several) is declared here, "at the end
//! of the round"; a loss happens at once, in `checks`.

use super::dice::{Color, ColorCounts, Dice, Die};
use super::event::Event;
use super::params::EffectDieReturn;
use super::rules::*;
use super::state::{Outcome, Phase, State, EXHAUSTION, SLOTS};
use super::ProvingGrounds;
use crate::{Findings, Violation};

/// Defeats needed to win.
pub const DEFEATS_TO_WIN: u8 = 8;

impl ProvingGrounds {
    /// `recover`.
    // Called once, from `step::apply`, for every such event: inlined there.
    #[inline]
    pub(super) fn recover(&self, s: &mut State, e: &Event, f: &mut Findings) {
        match s.phase {
            Phase::Roll | Phase::Move | Phase::Check => self.close_checks(s, e, f),
            _ => {
                // A `recover` written twice, or before any roll: one finding, and the
                // exhaustion track moves once a round (l.183), not again (audit r6 D1).
                f.violate(Violation::new(STEP_ORDER, "recovery ends a round, but no round is in progress"));
                return;
            }
        }
        if s.phase == Phase::Over {
            return; // a wound the log left out, applied at the checks' close, lost the game
        }
        self.recover_dice(s);
    }

    /// Step 3 once the checks are closed: the dice come back, the exhaustion track moves
    /// down, and the round ends (won, or on to the refill).
    fn recover_dice(&self, s: &mut State) {
        for i in 0..SLOTS {
            // An enemy left unresolved after its unverified weakness (the round's wider taint
            // is handled by `apply_tainted`).
            if let Some(o) = self.weak_uncertain(s, i) {
                self.leave_marker_unknown(s, i, o);
            }
        }
        if self.config.effect_die_return == EffectDieReturn::TrackFirst {
            effect_dice_from_track(s);
        }
        // Every die comes back unrolled, so the pool is its dice by color: counted here, then
        // laid out once in the canonical order.
        let mut pool = s.pool.colors().plus(s.exhaustion[EXHAUSTION - 1]);
        s.exhaustion.copy_within(0..EXHAUSTION - 1, 1);
        s.exhaustion[0] = Default::default();
        for m in self.modules() {
            m.return_dice(self, s, &mut pool);
        }
        for m in self.modules() {
            m.recover(self, s, &mut pool);
        }
        end_effect_dice(s, &mut pool);
        s.exhaust_named = false; // the texts of this round stop acting
        s.pool = Dice::new();
        for &c in Color::ALL {
            for _ in 0..pool.get(c) {
                s.pool.push(Die::new(0, c)); // at most the box's 14 dice
            }
        }
        if s.defeated >= DEFEATS_TO_WIN {
            s.outcome = Outcome::Won;
            s.phase = Phase::Over;
        } else {
            s.phase = Phase::Draw;
        }
    }

    /// A roll or draw shows the round ended without `recover`: one finding, and the recovery
    /// the rules required is made (the dice back, the track down), so that the pool the next
    /// roll is judged by is the one the rules give, not one a step behind (l.183).
    pub(super) fn end_round_without_recovery(&self, s: &mut State, e: &Event, f: &mut Findings) {
        self.close_checks(s, e, f);
        f.violate(
            Violation::new(RECOVER_MISSING, "the round ended without step 3 (recover)")
                .expected_recorded("recover", e.to_string()),
        );
        if s.phase != Phase::Over {
            self.recover_dice(s);
            // A `recover` recorded late, before the next round's markers move, is the record
            // of this recovery (`step::late_record`).
            s.made.recovery = true;
            s.made.note();
        }
    }
}

/// `effect-die-return=track-first`, as the round of an unverified effect ends (before the
/// track moves down): a die the effect added is first the one a wound of this round sent to the
/// exhaustion track's top space, if one of its color is there. In the first round the top
/// space also holds the setup's white die, which no wound sent.
fn effect_dice_from_track(s: &mut State) {
    if s.effect_extra.is_empty() {
        return;
    }
    for &c in Color::ALL {
        let k = c.index();
        let setup = u8::from(s.round <= 1 && c == Color::White);
        let this_round = s.exhaustion[0].0[k].saturating_sub(setup);
        let here = s.effect_extra.0[k].min(this_round);
        s.exhaustion[0].0[k] -= here;
        s.effect_extra.0[k] -= here;
    }
}

/// The round of an unverified effect ends: a roll after it that held dice the verified pool
/// did not (a card's "Take a colored die from the dial for this round") or lacked some, gave
/// the table those dice for this round only (every card text the catalogs carry acts within
/// its round), so the pool goes back to what the verified rules say. A die the effect added
/// leaves from the pool (under `effect-die-return=pool-first`, the default: the track's dice
/// move only as Step 3 moves them; `track-first` has taken it from the track already), or, if
/// none of its color is left there, from the exhaustion track; a die it took away comes back
/// to the pool.
fn end_effect_dice(s: &mut State, pool: &mut ColorCounts) {
    if s.effect_extra.is_empty() && s.effect_missing.is_empty() {
        return;
    }
    for k in 0..4 {
        let from_pool = s.effect_extra.0[k].min(pool.0[k]);
        pool.0[k] -= from_pool;
        let mut left = s.effect_extra.0[k] - from_pool;
        for space in s.exhaustion.iter_mut() {
            let here = left.min(space.0[k]);
            space.0[k] -= here;
            left -= here;
        }
    }
    *pool = pool.plus(s.effect_missing);
    s.effect_extra = ColorCounts::default();
    s.effect_missing = ColorCounts::default();
}
