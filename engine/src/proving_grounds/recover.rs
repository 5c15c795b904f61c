//! Step 3, Recover: "Retrieve all dice assigned to enemies this round, returning them to your
//! dice pool. On the exhaustion track, move all dice down one space. Any dice that were on the
//! bottom space ... return to your dice pool." Empty slots are then refilled (`draw`).
//!
//! Victory (eight defeats, or more when a round defeats several) is declared here, "at the end
//! of the round"; a loss happens at once, in `checks`.

use super::dice::{Color, Dice, Die};
use super::event::Event;
use super::rules::*;
use super::state::{Outcome, Phase, State, EXHAUSTION};
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
            _ => f.violate(Violation::new(STEP_ORDER, "recovery ends a round, but no round is in progress")),
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

    /// A roll or draw shows the round ended without `recover`.
    pub(super) fn end_round_without_recovery(&self, s: &mut State, e: &Event, f: &mut Findings) {
        self.close_checks(s, e, f);
        f.violate(
            Violation::new(RECOVER_MISSING, "the round ended without step 3 (recover)")
                .expected_recorded("recover", e.to_string()),
        );
    }
}
