//! What the rules require next, derived from the table alone (`Game::next_consequence`): an
//! ordered chain of "is this due?" checks, the same ones the step function judges recorded
//! consequences by.
//!
//! In order: a module's consequence before the markers (the chariot's resolution), each
//! marker's turn from #1 to #6 (a slot with dice that do not move its marker gets `hold`, so
//! `arbiter explain` on a wrong `up 4` says "the rules say: `hold 4`"; slots with no dice are
//! skipped), a module's consequence after them (the moon's move), one before the checks (a
//! borrow from the dial), then each defeat, each wound, and `recover`. A wound and a borrow
//! carry the player's choice of die: derived, they take the one a player who does not say
//! would (white first; the dial's first color). Nothing is derived during setup, refills and
//! step 1, while a mandatory replacement is owed (`replacement=mandatory`: the player's choice
//! of die), or while a module waits for a card to be drawn. An optional replacement may be
//! declined by recording nothing, so the consequences after it are derived, and a recorded
//! `replace` goes before them (`Game::precedes_consequences`).

use super::attack::{Expected, Hold};
use super::dice::Color;
use super::event::{Action, Event};
use super::params::{ReplaceWithoutWhite, Replacement};
use super::state::{Phase, State, SLOTS};
use super::ProvingGrounds;

impl ProvingGrounds {
    /// The consequence the state requires next.
    pub(super) fn consequence(&self, s: &State) -> Option<Action> {
        self.consequence_unless(s, self.config.replacement == Replacement::Mandatory)
    }

    /// The consequence the state requires next; `None` while a replacement is owed and
    /// `waits` (the player decides then: a mandatory replacement, or the simulated player who
    /// always makes its replacement).
    pub(super) fn consequence_unless(&self, s: &State, waits: bool) -> Option<Action> {
        match s.phase {
            Phase::Over | Phase::Draw | Phase::Roll => return None,
            Phase::Move => {
                if let Some(a) = self.modules().find_map(|m| m.due_before_moves(self, s)) {
                    return Some(a);
                }
                for i in s.cursor as usize..SLOTS {
                    if s.slots[i].card.is_some() && !s.has_moved(i) {
                        if let Some(a) = due_turn(i as u8 + 1, self.expected_for(s, i)) {
                            return Some(a);
                        }
                    }
                }
                if let Some(a) = self.modules().find_map(|m| m.due_after_moves(self, s)) {
                    return Some(a);
                }
            }
            Phase::Check => {}
        }
        if let Some(a) = self.modules().find_map(|m| m.due_before_checks(self, s)) {
            return Some(a);
        }
        if (s.replace_owed || s.replace_banked > 0) && waits {
            return None; // the player decides which die: no consequence comes first
        }
        // A conspirator owed by a defeat is a random card (card l.27 "Draw a new conspirator
        // card"): nothing is derived past it, so a log's own `reveal` after its defeat comes
        // before the wounds and the recovery derived (audit r6 D15: a losing wound derived
        // first put the log's reveal after the end of the game).
        if self.modules().any(|m| m.awaits_chance(self, s)) {
            return None;
        }
        // Under `replacement=optional` the replacement is a choice ("you get to replace"),
        // and declining is recording nothing: what the rules owe after it (the other checks,
        // `recover`) is derived as if declined. A recorded `replace` is taken first
        // (`precedes_consequences`).
        for i in 0..SLOTS {
            let Some(card) = s.slots[i].card else { continue };
            if s.slots[i].marker >= self.enemy(card).top() {
                return Some(Action::EnemyDefeated { slot: i as u8 + 1 });
            }
        }
        if let Some(i) = self.pending_wound(s) {
            return Some(Action::WoundSuffered { slot: i as u8 + 1, exhausted: self.default_exhaust(s, i) });
        }
        Some(Action::Recovered)
    }

    /// The decision the rules require while nothing is derived: a mandatory replacement
    /// (`Game::owed_decision`), named with its notation form and the player's choice as the
    /// placeholder `COLOR`, so a log ending here is incomplete without a die being guessed.
    pub(super) fn decision_owed(&self, s: &State) -> Option<String> {
        if matches!(s.phase, Phase::Move | Phase::Check) && self.reveal_pending(s) {
            // The card is a random draw: a log ending here lacks it (and what follows it).
            return Some("a conspirator revealed for the defeat (card l.27), `reveal CARD`".to_string());
        }
        if self.config.replacement != Replacement::Mandatory
            || !(s.replace_owed || s.replace_banked > 0)
            || s.phase == Phase::Over
            || self.consequence(s).is_some()
        {
            return None;
        }
        let has_white = s.pool.iter().any(|d| d.color == Color::White);
        let (gives, form) = match self.config.replace_without_white {
            _ if has_white => ("a white die of the pool", "replace w -> COLOR"),
            ReplaceWithoutWhite::Colored => ("a colored die of the pool", "replace COLOR -> COLOR"),
            // `Skip` owes no replacement without a white die (`lose_health`); `Add` discards none.
            ReplaceWithoutWhite::Add | ReplaceWithoutWhite::Skip => ("nothing", "replace - -> COLOR"),
        };
        Some(format!(
            "a replacement (`replacement=mandatory`): {gives} for a die of the stack ({:#}), `{form}`",
            s.stack
        ))
    }

    /// A decision that may come before the consequences owed: a replacement the last wound
    /// allows (it is made "right after the wound", before the round goes on).
    pub(super) fn may_precede(&self, s: &State, e: &Event) -> bool {
        ((s.replace_owed || s.replace_banked > 0) && matches!(e.action, Action::DieReplaced { .. }))
            // A card's text exhausting a die acts within its round, before its recovery.
            || (s.taint.is_some() && matches!(e.action, Action::DieExhausted { .. }))
    }

    /// The first slot whose marker is on the bottom space (a wound to resolve).
    pub(super) fn pending_wound(&self, s: &State) -> Option<usize> {
        (0..SLOTS).find(|&i| s.slots[i].card.is_some() && s.slots[i].marker == 0)
    }
}

/// How a slot's turn is recorded when the rules require `expected` of it.
pub(super) fn turn_action(slot: u8, expected: Expected) -> Action {
    match expected {
        Expected::Down | Expected::Reflected => Action::MarkerMovedDown { slot },
        Expected::Shield => Action::ShieldGained { slot },
        Expected::Unshield => Action::ShieldRemoved { slot },
        Expected::Up(spaces) => Action::MarkerMovedUp { slot, spaces },
        Expected::Hold(_) => Action::MarkerHeld { slot },
    }
}

/// The turn a slot is due, or `None` for a slot that was not attacked. Holds stay optional in
/// a log: a skipped hold is never reported (see `markers::report_missing_moves`).
fn due_turn(slot: u8, expected: Expected) -> Option<Action> {
    match expected {
        Expected::Hold(Hold::NoDice) => None,
        e => Some(turn_action(slot, e)),
    }
}
