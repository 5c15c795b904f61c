//! The Silvestrem deck (Arena): one card drawn at each round's start, never a card twice
//! (the book describes no reshuffle). A Whim is resolved and discarded at once, an Edict
//! stays for the rest of the match, a Demand is resolved and discarded at the end of its
//! round. Every card's text is reported unverified when drawn (the book prints none of
//! them), and may touch every miniature while the card is in force: a Whim until the next
//! activation begins, a Demand until its discard, an Edict to the end (taint.rs). With the deck left in the box (`silvestrem=off`,
//! Vareclea's Day Off) no card is drawn.
//!
//! A Whim is carried out as it is drawn ("Read the bulleted text carefully and carry out
//! the action indicated", l.510). A Whim whose text may move miniatures (`movement:`, or no
//! scope) makes a `move` line outside any activation, before the next activation begins,
//! the Whim's action: the engine cannot read the card's text, so the move is reported
//! unverified, applied as recorded (a turn, a step, a hop: no Speed, no direction rule) and
//! the findings in the text's scope after it, while the Whim is in force, are uncertain
//! after it; never `wa.activation.own`. Only a move no card can call for is refused: off
//! the board (`wa.board.bounds`), or onto a miniature or an obstacle none may stand on
//! (`wa.board.field`); it is not applied.
//!
//! In `scope=combat` the round's end is not recorded: a Demand stays until the next draw
//! (the next round's). In `scope=match` it is judged and discarded at its round's end
//! (round.rs).

use super::cards::SilvestremKind;
use super::event::Path;
use super::rules::{self, Mode};
use super::state::taint::TextScope;
use super::state::{Obstacle, Phase, State};
use super::WildAssent;
use crate::kit::grid::Pos;
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

    /// Whether a `move` of `unit` is the Whim's action: no activation under way, a Whim
    /// drawn since the last one began (it is resolved at once) whose text may move
    /// miniatures (scoped `movement`, or unscoped), and `unit` on the board.
    pub(crate) fn whim_moves(&self, s: &State, unit: &Name) -> bool {
        let Some(w) = s.silvestrem.whim else { return false };
        s.act.is_none()
            && s.silvestrem
                .texts
                .iter()
                .any(|(c, sc, _)| *c == w && matches!(sc, TextScope::Movement | TextScope::Any))
            && s.find(unit).is_some_and(|u| s.unit(u).on_board())
    }

    /// A `move` the Whim in force calls for ([`WildAssent::whim_moves`]): reported
    /// unverified and applied as recorded, step by step with no Speed or direction rule (the
    /// card's text, which the engine cannot read, says how it moves); its report marks the
    /// findings in the text's scope while the Whim is in force. A move off the board or onto
    /// a field no miniature may stand on is refused and not applied.
    pub(crate) fn whim_move(
        &self,
        s: &mut State,
        unit: Name,
        path: &Path,
        to: Option<Pos>,
        f: &mut Findings,
    ) -> Result<(), StepError> {
        let (Some(u), Some(w)) = (s.find(&unit), s.silvestrem.whim) else { return Ok(()) };
        let start = s.unit(u).place();
        let mut place = start;
        for step in path.steps() {
            // Where the step lands, whatever the rules say (as an illegal step is applied).
            place = Self::raw_step(place, step.kind()).0;
            if !self.params.board.contains(place.at) {
                f.violate(Violation::new(
                    rules::BOUNDS,
                    format!("`{unit}` is moved off the board ({}): not applied", place.at.algebraic()),
                ));
                return Ok(());
            }
        }
        let end = place.at;
        if let Some(to) = to.filter(|&t| t != end) {
            return Err(StepError::new(format!(
                "`{unit}`'s steps lead to {}, not {}: the record contradicts itself",
                end.algebraic(),
                to.algebraic()
            )));
        }
        // Two miniatures on one field, or one on cover, is no position any card leaves.
        let other = s.indices().find(|&o| o != u && s.unit(o).on_board() && s.unit(o).at == end);
        let blocked = s.obstacle(end).filter(|o| o.is_full() || *o == Obstacle::Partial);
        if other.is_some() || blocked.is_some() {
            let what = match (other, blocked) {
                (Some(o), _) => format!("`{}`'s field", s.unit(o).name),
                (_, Some(b)) => format!("{b}"),
                _ => String::new(),
            };
            f.violate(Violation::new(
                rules::FIELD,
                format!("`{unit}` is moved onto {what} ({}): not applied", end.algebraic()),
            ));
            return Ok(());
        }
        let card = self.catalog.silvestrem.name(w).to_string();
        let scope = s.silvestrem.texts.iter().find(|(c, _, _)| *c == w).map_or(TextScope::Any, |t| t.1);
        let o = s.unverified.report(
            f,
            format!(
                "`{unit}` moves from {} to {} as the Whim `{card}` has it (the card's effect is not checked)",
                start.at.algebraic(),
                end.algebraic()
            ),
        );
        // Kept with the deck: what this move may have changed is uncertain while the Whim is
        // in force, and the board is judged as recorded once it lapses.
        s.silvestrem.texts.push((w, scope, o));
        // "Any Gladiator who enters a Pit field must end their activation immediately ...
        // spend their entire next activation to move to an adjacent field."
        let pit = s.obstacle(end) == Some(Obstacle::Pit);
        s.move_unit(u, end);
        let x = s.unit_mut(u);
        x.facing = place.facing;
        x.in_pit = pit;
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
