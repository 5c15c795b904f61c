//! Conspirators (reference card: Start of Round, Step 2B): at the start of each round one
//! die is rolled, and a revealed conspirator whose number it shows is active this round; a new
//! conspirator is revealed after each defeat while any remain.
//!
//! How many are revealed at setup is the interpretation `conspirators-start`. What an active
//! conspirator does is card data: `require +N` raises every space's dice count this round (the
//! core marker rules apply it through `attack`), `no-rerolls` forbids rerolls; other text is
//! reported unverified when the card becomes active.

use super::Hooks;
use crate::kit::effect::unverified;
use crate::proving_grounds::attack::AttackMods;
use crate::proving_grounds::cards::Effect;
use crate::proving_grounds::dice::ColorCounts;
use crate::proving_grounds::event::{Action, Event};
use crate::proving_grounds::params::Module;
use crate::proving_grounds::rules::*;
use crate::proving_grounds::state::{Phase, State};
use crate::proving_grounds::ProvingGrounds;
use crate::{Findings, StepError, Violation};

pub(super) struct Conspirators;

impl Hooks for Conspirators {
    fn event(&self, g: &ProvingGrounds, s: &mut State, e: &Event, f: &mut Findings) -> Result<(), StepError> {
        match &e.action {
            Action::ConspiratorRolled { value } => g.conspire(s, *value, f),
            Action::ConspiratorRevealed { card } => g.reveal(s, card, f)?,
            _ => {}
        }
        Ok(())
    }

    fn start_round(&self, g: &ProvingGrounds, s: &mut State, f: &mut Findings) {
        if s.mods.conspirators.die == 0 {
            f.violate(Violation::new(
                CONSPIRE_EACH_ROUND,
                "the conspirator die was not rolled before the roll",
            ));
            // Which revealed conspirator is active this round is a die the log does not
            // give: a turn any of its faces would explain is not a second finding
            // (`markers::move_marker`, audit r6 D11).
            if s.mods.conspirators.revealed != 0 {
                s.mods.conspirators.die = UNKNOWN_DIE;
            }
        }
        if g.reveal_pending(s) {
            f.violate(Violation::new(
                CONSPIRATOR_REVEAL,
                format!("{} conspirator(s) should have been revealed before the roll", g.reveals_owed(s)),
            ));
            s.mods.conspirators.reveal_owed = 0;
        }
    }

    fn after_reroll(&self, g: &ProvingGrounds, s: &mut State, f: &mut Findings) {
        let active = s.mods.conspirators.active;
        let blocking = g
            .cards
            .conspirators
            .iter()
            .enumerate()
            .find(|(k, c)| active & (1 << k) != 0 && c.effect == Effect::NoRerolls);
        if let Some((_, c)) = blocking {
            f.violate(Violation::new(
                CONSPIRATOR_NO_REROLLS,
                format!("conspirator `{}` is active this round: no set may be rerolled", c.id),
            ));
        }
    }

    fn attack(&self, g: &ProvingGrounds, s: &State, _i: usize, m: &mut AttackMods, _dice: &mut ColorCounts) {
        m.extra_count = m.extra_count.saturating_add(g.extra_count(s));
    }

    fn after_defeat(&self, g: &ProvingGrounds, s: &mut State, _i: usize) {
        if s.mods.conspirators.revealed_ahead > 0 {
            s.mods.conspirators.revealed_ahead -= 1; // its reveal came first
            return;
        }
        if g.unrevealed(s) > u32::from(g.reveals_owed(s)) {
            s.mods.conspirators.reveal_owed = s.mods.conspirators.reveal_owed.saturating_add(1);
        }
    }

    fn close_round(&self, g: &ProvingGrounds, s: &mut State, _e: &Event, f: &mut Findings) {
        if g.reveal_pending(s) {
            f.violate(Violation::new(
                CONSPIRATOR_REVEAL,
                "a defeat owed a new conspirator, but none was revealed",
            ));
            s.mods.conspirators.reveal_owed = 0;
        }
    }

    fn recover(&self, _g: &ProvingGrounds, s: &mut State, _pool: &mut ColorCounts) {
        let m = &mut s.mods.conspirators;
        m.die = 0;
        m.active = 0;
        m.revealed_ahead = 0;
        // A text that never found its moment this round did not act.
        m.text_waits = None;
        m.text_at_wound = false;
    }

    /// The conspirator drawn is random: the round waits for it.
    fn awaits_chance(&self, g: &ProvingGrounds, s: &State) -> bool {
        g.reveal_pending(s)
    }
}

/// Whether a conspirator's card text acts only when a wound is suffered: its opening clause is
/// "When you suffer a wound" (the illustrative Poisoner's), so nothing before the round's first
/// wound can follow from it. Any other text is not read: it may act from the next event on.
fn acts_at_wounds(text: &str) -> bool {
    let words: Vec<String> = text
        .split_whitespace()
        .take(5)
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()).to_ascii_lowercase())
        .collect();
    words == ["when", "you", "suffer", "a", "wound"]
}

/// The conspirator die of a round whose `conspire` the log left out (any face may have come).
pub(in crate::proving_grounds) const UNKNOWN_DIE: u8 = 7;

impl ProvingGrounds {
    /// The conspirators the die's face `value` makes active.
    pub(in crate::proving_grounds) fn active_for(&self, s: &State, value: u8) -> u32 {
        let revealed = s.mods.conspirators.revealed;
        self.cards
            .conspirators
            .iter()
            .enumerate()
            .filter(|(k, c)| revealed & (1 << k) != 0 && c.die == value)
            .fold(0, |m, (k, _)| m | (1 << k))
    }

    /// An active conspirator's text waits for the point where it can first act: `e` is that
    /// point when it is the next event (text not read) or the round's first wound ("When you
    /// suffer a wound ..."). From there, the round's findings may follow from it.
    pub(in crate::proving_grounds) fn text_acts(&self, s: &mut State, e: &Event) {
        let m = &mut s.mods.conspirators;
        if let Some(ordinal) = m.text_waits {
            if !m.text_at_wound || matches!(e.action, Action::WoundSuffered { .. }) {
                m.text_waits = None;
                m.text_at_wound = false;
                s.taint = Some(ordinal);
            }
        }
    }

    /// `conspire N`: the start-of-round die; the revealed conspirators it shows become active.
    fn conspire(&self, s: &mut State, value: u8, f: &mut Findings) {
        self.before_roll(s, "the conspirator die", f);
        let m = &mut s.mods.conspirators;
        // (A die the roll showed missing is no earlier roll: this is that one, late.)
        if m.die != 0 && m.die != UNKNOWN_DIE {
            f.violate(Violation::new(
                CONSPIRE_EACH_ROUND,
                "the conspirator die was already rolled this round",
            ));
        }
        m.die = value;
        m.active = 0;
        for (k, c) in self.cards.conspirators.iter().enumerate() {
            if s.mods.conspirators.revealed & (1 << k) != 0 && c.die == value {
                s.mods.conspirators.active |= 1 << k;
                if let Effect::Text(t) = &c.effect {
                    // The text cannot act before it is active, so the `conspire` event's own
                    // findings stand; it taints from where it can first act (`text_acts`).
                    let said = unverified("conspirator (active this round)", &c.id, t);
                    let ordinal = self.report_unverified(s, f, said, false);
                    let m = &mut s.mods.conspirators;
                    m.text_waits = Some(ordinal);
                    m.text_at_wound = acts_at_wounds(t);
                }
            }
        }
    }

    /// `reveal CARD`: at setup, and after a defeat.
    fn reveal(&self, s: &mut State, card: &str, f: &mut Findings) -> Result<(), StepError> {
        let k = self
            .cards
            .conspirators
            .iter()
            .position(|c| c.id == card)
            .ok_or_else(|| StepError::new(format!("no conspirator `{card}` in the catalog")))?;
        if s.mods.conspirators.revealed & (1 << k) != 0 {
            f.violate(Violation::new(CONSPIRATOR_REVEAL, format!("`{card}` is already revealed")));
        } else if self.reveals_owed(s) == 0 && self.defeat_pending(s) {
            // The card follows a defeat (l.26-27) that the log has not recorded yet, or left
            // out: this is that defeat's reveal, not a second finding (audit r6 D13).
            s.mods.conspirators.revealed_ahead = s.mods.conspirators.revealed_ahead.saturating_add(1);
        } else if self.reveals_owed(s) == 0 {
            f.violate(Violation::new(
                CONSPIRATOR_REVEAL,
                "no conspirator is owed: one is revealed after each defeat (and at setup only under conspirators-start)",
            ));
        }
        let m = &mut s.mods.conspirators;
        m.revealed |= 1 << k;
        m.reveal_owed = m.reveal_owed.saturating_sub(1);
        Ok(())
    }

    /// In step 2, an enemy's marker is on its top space, its defeat not yet resolved.
    fn defeat_pending(&self, s: &State) -> bool {
        matches!(s.phase, Phase::Move | Phase::Check)
            && s.slots.iter().any(|sl| sl.card.is_some_and(|c| sl.marker >= self.enemy(c).top()))
    }

    fn unrevealed(&self, s: &State) -> u32 {
        let n = self.cards.conspirators.len() as u32;
        n - s.mods.conspirators.revealed.count_ones().min(n)
    }

    /// Conspirators to reveal now: those of the setup (`conspirators-start`, until the first
    /// roll) not yet revealed, and one for each defeat since. The setup's count is not kept in
    /// the table, so that readings of `conspirators-start` start from the same table and split
    /// where a reveal (or its absence) first tells them apart.
    pub(in crate::proving_grounds) fn reveals_owed(&self, s: &State) -> u8 {
        let setup = if s.round == 0 {
            let start = self.config.conspirators_start.min(self.cards.conspirators.len() as u8);
            start.saturating_sub(s.mods.conspirators.revealed.count_ones() as u8)
        } else {
            0
        };
        setup.saturating_add(s.mods.conspirators.reveal_owed)
    }

    /// A reveal is owed and a card remains to be revealed.
    pub(in crate::proving_grounds) fn reveal_pending(&self, s: &State) -> bool {
        self.has(Module::Conspirators) && self.reveals_owed(s) > 0 && self.unrevealed(s) > 0
    }

    /// The requirement increase of the active conspirators.
    fn extra_count(&self, s: &State) -> u8 {
        let active = s.mods.conspirators.active;
        self.cards.conspirators.iter().enumerate().filter(|(k, _)| active & (1 << k) != 0).fold(
            0u8,
            |n, (_, c)| match c.effect {
                Effect::RequireMore(m) => n.saturating_add(m),
                _ => n,
            },
        )
    }

    /// An active conspirator forbids rerolls this round (the simulated player asks).
    pub(in crate::proving_grounds) fn rerolls_forbidden(&self, s: &State) -> bool {
        let active = s.mods.conspirators.active;
        self.cards
            .conspirators
            .iter()
            .enumerate()
            .any(|(k, c)| active & (1 << k) != 0 && c.effect == Effect::NoRerolls)
    }
}
