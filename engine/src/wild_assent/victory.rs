//! The end of an Arena match: Deathmatch (the default: as soon as a side's last Assent
//! falls, the other side wins) or Last Man Standing (a side wins when every enemy Assent and
//! Creature is slain; Summons are not Creatures). Nothing happens after the victory.
//!
//! An Escaped Assent has fallen for Deathmatch (interpretation `deathmatch-escape`) but is
//! not slain for Last Man Standing (`last-standing-escape`), by default.
//!
//! A side counts only once it has had such a miniature on the table, so a combat that sets
//! up one side's Creatures without their Assent (the book's examples) never ends by it.

use super::cards::UnitKind;
use super::due::{Due, Fact};
use super::rules::{self, DeathmatchEscape, LastStandingEscape, Mode, Victory};
use super::state::{Phase, Presence, Side, State};
use super::WildAssent;

impl WildAssent {
    /// The side that has won, if the match is decided.
    pub(crate) fn winner(&self, s: &State) -> Option<Side> {
        if self.params.mode != Mode::Arena {
            return None;
        }
        let counts = |kind: UnitKind| match self.params.victory {
            Victory::Deathmatch => kind == UnitKind::Assent,
            Victory::LastStanding => matches!(kind, UnitKind::Assent | UnitKind::Gladiator),
        };
        let fallen = |side: Side| {
            let mut had = false;
            for u in s.units.iter().filter(|u| u.side == side && counts(u.kind)) {
                had = true;
                let gone = match u.presence {
                    Presence::OnBoard => false,
                    // Deathmatch's "falls" and Last Man Standing's "slain" read apart.
                    Presence::Escaped => match self.params.victory {
                        Victory::Deathmatch => self.params.escape == DeathmatchEscape::Falls,
                        Victory::LastStanding => self.params.last_escape == LastStandingEscape::Gone,
                    },
                    _ => true,
                };
                if !gone {
                    return false;
                }
            }
            had
        };
        match (fallen(Side::Red), fallen(Side::Blue)) {
            (true, false) => Some(Side::Blue),
            (false, true) => Some(Side::Red),
            _ => None,
        }
    }

    /// `victory SIDE`, as soon as the match is decided.
    pub(crate) fn victory_due(&self, s: &State) -> Option<Due> {
        if s.phase != Phase::Play || s.winner.is_some() {
            return None;
        }
        let side = self.winner(s)?;
        let rule = match self.params.victory {
            Victory::Deathmatch => rules::VICTORY_DEATHMATCH,
            Victory::LastStanding => rules::VICTORY_LAST,
        };
        Some(Due { fact: Fact::Victory(side), rule, cause: super::due::Cause::Plain })
    }

    /// The rule an event after the end breaks.
    pub(crate) fn over_rule(&self) -> &'static str {
        if self.params.mode == Mode::Arena {
            rules::GAME_OVER
        } else {
            rules::END_ENCOUNTER
        }
    }
}
