//! Enemies drawn into the encounter board's slots: the six of the setup ("Draw six enemy
//! cards, one at a time ... place it in an empty slot") and the refills of step 3 ("For each
//! empty slot ... draw the top card of the enemy deck"). A deck that runs out leaves slots
//! empty; a roll is then legal with empty slots.

use super::event::Event;
use super::rules::*;
use super::state::{Phase, State, SLOTS};
use super::ProvingGrounds;
use crate::{Findings, StepError, Violation};

impl ProvingGrounds {
    /// `draw SLOT CARD`.
    // Called once, from `step::apply`, for every such event: inlined there.
    #[inline]
    pub(super) fn draw(
        &self,
        s: &mut State,
        slot: u8,
        name: &str,
        e: &Event,
        f: &mut Findings,
    ) -> Result<(), StepError> {
        let card = self
            .cards
            .enemies
            .iter()
            .position(|en| en.id == name)
            .ok_or_else(|| StepError::new(format!("no enemy `{name}` in the catalog")))?
            as u8;
        match s.phase {
            Phase::Draw => {}
            Phase::Move | Phase::Check => {
                self.end_round_without_recovery(s, e, f);
                if s.phase == Phase::Over {
                    return Ok(()); // a wound the log left out lost the game: nothing follows
                }
                s.phase = Phase::Draw;
            }
            _ => f.violate(Violation::new(
                STEP_ORDER,
                "enemies are drawn during setup or step 3 (recover), not while rolling",
            )),
        }
        let i = slot as usize - 1;
        let taken = s.slots[i].card;
        if let Some(old) = taken {
            f.violate(Violation::new(
                DRAW_EMPTY_SLOT,
                format!("slot {slot} still holds `{}`", self.enemy(old).id),
            ));
        }
        if s.is_drawn(card) {
            f.violate(Violation::new(DRAW_UNIQUE, format!("`{name}` was already drawn this game")));
        }
        s.mark_drawn(card);
        if taken.is_some() {
            // The enemy there stays (l.57 "place it in an empty slot"; an enemy leaves the
            // board only when defeated, l.151): the records after this one are judged against
            // it, so the one mistake is one finding. The card drawn has left the deck.
            return Ok(());
        }
        s.slots[i].card = Some(card);
        s.slots[i].marker = self.enemy(card).start;
        s.marker_unknown &= !(1 << i); // placed on its start space: known again
        s.marker_unknown_ordinal[i] = 0; // meaningless once known: canonical for the digest
        Ok(())
    }

    /// Before a roll: every slot holds an enemy unless the deck ran out.
    pub(super) fn check_slots_filled(&self, s: &State, f: &mut Findings) {
        let empty = s.slots.iter().filter(|sl| sl.card.is_none()).count();
        let left = self.cards.enemies.len().saturating_sub(s.drawn_count() as usize);
        if empty > 0 && left > 0 {
            let rule = if s.round == 0 { SETUP_SIX_ENEMIES } else { RECOVER_REFILL };
            let list: Vec<String> =
                (0..SLOTS).filter(|&i| s.slots[i].card.is_none()).map(|i| (i + 1).to_string()).collect();
            f.violate(Violation::new(
                rule,
                format!(
                    "slot(s) {} are empty at the roll while the deck still has {left} card(s)",
                    list.join(", ")
                ),
            ));
        }
    }
}
