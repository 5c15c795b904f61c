//! The Silvestrem deck (Arena): one card drawn at each round's start, never a card twice
//! (the book describes no reshuffle). A Whim is resolved and discarded at once, an Edict
//! stays for the rest of the match, a Demand is resolved and discarded at the end of its
//! round. Every card's text is reported unverified when drawn (the book prints none of
//! them), and may touch every miniature while the card is in force: a Whim until the next
//! activation begins, a Demand until its discard, an Edict to the end (taint.rs). With the deck left in the box (`silvestrem=off`,
//! Vareclea's Day Off) no card is drawn.
//!
//! In `scope=combat` the round's end is not recorded: a Demand stays until the next draw
//! (the next round's). In `scope=match` it is judged and discarded at its round's end
//! (round.rs).

use super::cards::SilvestremKind;
use super::rules::{self, Mode};
use super::state::{Phase, State};
use super::WildAssent;
use crate::kit::name::Name;
use crate::{Findings, StepError, Violation};

impl WildAssent {
    /// `silvestrem CARD`.
    pub(crate) fn silvestrem_draw(
        &self,
        s: &mut State,
        card: Name,
        f: &mut Findings,
    ) -> Result<(), StepError> {
        if self.params.mode != Mode::Arena {
            return Err(StepError::new("`silvestrem`: the Silvestrem deck is the Arena's (mode=arena)"));
        }
        let id = self
            .catalog
            .silvestrem
            .id(card.as_str())
            .ok_or_else(|| StepError::new(format!("no Silvestrem card `{card}` in the catalog")))?;
        if s.phase != Phase::Play {
            return Err(StepError::new("`silvestrem` comes after `begin`"));
        }
        if !self.params.silvestrem {
            f.violate(Violation::new(
                rules::SILVESTREM_DAY_OFF,
                "the Silvestrem deck is left in the box (silvestrem=off): no card is drawn",
            ));
            return Ok(());
        }
        self.round_start(s, None, f);
        if s.act.is_some() {
            f.violate(Violation::new(
                rules::SILVESTREM_DRAW,
                "a Silvestrem card is drawn at a round's start, not during an activation",
            ));
        }
        if s.silvestrem.drawn.contains(&id) {
            f.violate(Violation::new(
                rules::SILVESTREM_DRAW,
                format!("{card} was drawn already: the deck holds each card once"),
            ));
        }
        // A new round: last round's Demand has been resolved and discarded, a Whim long since.
        s.silvestrem.demand = None;
        s.silvestrem.whim = None;
        s.silvestrem.drawn.push(id);
        match self.catalog.silvestrem[id].kind {
            SilvestremKind::Whim => s.silvestrem.whim = Some(id),
            SilvestremKind::Edict => s.silvestrem.edicts.push(id),
            SilvestremKind::Demand => s.silvestrem.demand = Some(id),
        }
        self.report_silvestrem(s, f, id);
        Ok(())
    }

    /// The cards in force: the Edicts, then this round's Demand.
    pub(crate) fn silvestrem_active(&self, s: &State) -> Vec<String> {
        s.silvestrem
            .edicts
            .iter()
            .chain(s.silvestrem.demand.iter())
            .map(|&c| self.catalog.silvestrem.name(c).to_string())
            .collect()
    }
}
