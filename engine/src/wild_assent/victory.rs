//! The end of an Arena match: Deathmatch (the default: as soon as a side's last Assent
//! falls, the other side wins) or Last Man Standing (a side wins when every enemy Assent and
//! Creature is slain; Summons are not Creatures). Nothing happens after the victory.
//!
//! An Escaped Assent has fallen for Deathmatch (interpretation `deathmatch-escape`) but is
//! not slain for Last Man Standing (`last-standing-escape`), by default.
//!
//! A side counts only once it has had such a miniature on the table, so a combat that sets
//! up one side's Creatures without their Assent (the book's examples) never ends by it.
//!
//! The match is judged once the attack being resolved is over on every target: one roll
//! resolves on each target (Arena Example 10), and the notation lets a log write an area
//! attack's targets in any order, so a verdict judged at the first fallen miniature would
//! follow that order. When both sides fell in one attack the book names no winner: a draw
//! by default, or the attacking side wins (interpretation `double-fall`).

use super::cards::UnitKind;
use super::due::{Due, Fact};
use super::rules::{self, DeathmatchEscape, DoubleFall, LastStandingEscape, Mode, Victory};
use super::state::{Phase, Presence, Side, State, UnitIx};
use super::WildAssent;
use crate::{Findings, Violation};

impl WildAssent {
    /// Whether `side` has fallen: it had a miniature the victory condition counts, and each
    /// such miniature is out.
    fn fallen(&self, s: &State, side: Side) -> bool {
        let counts = |kind: UnitKind| match self.params.victory {
            Victory::Deathmatch => kind == UnitKind::Assent,
            Victory::LastStanding => matches!(kind, UnitKind::Assent | UnitKind::Gladiator),
        };
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
    }

    /// The match's result once decided: `Some(Some(side))` a side won, `Some(None)` a draw
    /// (both sides fell in one attack, `double-fall=draw`), `None` not decided (or not yet:
    /// the attack being resolved still owes a consequence to a target).
    pub(crate) fn result(&self, s: &State) -> Option<Option<Side>> {
        if self.params.mode != Mode::Arena {
            return None;
        }
        let (red, blue) = (self.fallen(s, Side::Red), self.fallen(s, Side::Blue));
        if !red && !blue {
            return None;
        }
        // The rest of the attack first: its other targets' damage (and a hazard's) may bring
        // the other side down too, whichever target the log wrote first.
        if self.attack_due(s).is_some() {
            return None;
        }
        Some(match (red, blue) {
            (true, false) => Some(Side::Blue),
            (false, true) => Some(Side::Red),
            _ => match self.params.double_fall {
                DoubleFall::Draw => None,
                // The attack just resolved (or still being, its attacker gone) made both fall.
                DoubleFall::Attacker => s
                    .attack
                    .as_ref()
                    .map(|a| a.attacker)
                    .or(s.last_attack.map(|(u, _)| u))
                    .map(|u| s.unit(u).side),
            },
        })
    }

    /// `victory SIDE` (or `victory draw`), as soon as the match is decided.
    pub(crate) fn victory_due(&self, s: &State) -> Option<Due> {
        if s.phase != Phase::Play || s.winner.is_some() {
            return None;
        }
        let side = self.result(s)?;
        let rule = match self.params.victory {
            Victory::Deathmatch => rules::VICTORY_DEATHMATCH,
            Victory::LastStanding => rules::VICTORY_LAST,
        };
        Some(Due { fact: Fact::Victory(side), rule, cause: super::due::Cause::Plain })
    }

    /// A record `ev` (not the `victory`) where the match's result is owed: the `victory` is
    /// left out, one finding under the victory rule; the match ends there, and the records
    /// the table played on after it are noted as not checked (`played_on`), not each a
    /// finding (the book: "As soon as a player's Assent ... falls, the other player/team
    /// wins", l.363). `true`: reported and made.
    pub(crate) fn victory_left_out(
        &self,
        s: &mut State,
        ev: &dyn std::fmt::Display,
        f: &mut Findings,
    ) -> bool {
        let Some(d) = self.victory_due(s) else { return false };
        let Fact::Victory(side) = d.fact else { return false };
        let owed = match side {
            Some(x) => format!("victory {x}"),
            None => "victory draw".to_string(),
        };
        f.violate(Violation::new(
            d.rule,
            format!("the log leaves out `{owed}`: the match ends as soon as a side falls, before `{ev}`"),
        ));
        s.winner = side;
        s.phase = Phase::Over;
        s.played_on = true;
        true
    }

    /// A record after the end of a match the engine ended itself (`played_on`): noted, not
    /// a finding. `true`: noted.
    pub(crate) fn after_played_on(&self, s: &State, ev: &dyn std::fmt::Display, f: &mut Findings) -> bool {
        if !(s.played_on && s.phase == Phase::Over) {
            return false;
        }
        f.unverified.push(format!(
            "`{ev}` is played on after the match's end (the `victory` left out above): not checked"
        ));
        true
    }

    /// An Arena `end U` recorded while U's activation has neither acted nor passed, nothing
    /// being resolved: the action (or `pass`) is left out, one finding, and the activation
    /// is taken as passed so the recorded `end` closes it (audit r6 D13). `true`: reported.
    pub(crate) fn pass_left_out(
        &self,
        s: &mut State,
        u: UnitIx,
        ev: &dyn std::fmt::Display,
        f: &mut Findings,
    ) -> bool {
        if self.params.mode != Mode::Arena || s.attack.is_some() || s.skill.is_some() || s.capture.is_some() {
            return false;
        }
        let name = s.unit(u).name;
        let Some(a) = s.act.as_mut().filter(|a| a.unit == u && !a.done) else { return false };
        a.done = true;
        f.violate(Violation::new(
            rules::ONE_AT_A_TIME,
            format!("the log leaves out `{name}`'s action or `pass {name}` before `{ev}`: taken as passed"),
        ));
        true
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
