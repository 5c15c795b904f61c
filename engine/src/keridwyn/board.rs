//! The readable fight board (participants, Grit, Fame, ailments, ongoing effects, the
//! Priority track) and the flat facts fixtures assert on: the one place seats and cards
//! are written back as labels and ids.

use super::effect::{Ailment, Effect};
use super::fact::{Cause, Due, Fact};
use super::state::{Action, Fighter, Ongoing, Source, State, Token};
use super::KeridwynFight;
use crate::kit::facts::{list_or_dash, or_dash, value_or_dash, Facts};
use crate::Game;
use std::fmt::Write as _;

impl KeridwynFight {
    /// How an ongoing effect's source is written (`enhance-power`, `spiked-gauntlet:self`,
    /// `maneuver`).
    fn source_name(&self, o: &Ongoing) -> String {
        match o.source {
            Source::Card { card, .. } => self.catalog.cards.name(card).to_string(),
            Source::SelfBenefit { card, .. } => format!("{}:self", self.catalog.cards.name(card)),
            Source::Maneuver { .. } => "maneuver".to_string(),
        }
    }

    fn ongoing(&self, o: &Ongoing) -> String {
        let effects = list_or_dash(&o.effects, ", ");
        let effects = if o.effects.is_empty() { String::new() } else { effects };
        match o.rounds {
            Some(r) => format!("{}[{effects}]({r})", self.source_name(o)),
            None => format!("{}[{effects}](fight)", self.source_name(o)),
        }
    }

    fn effects_text(&self, f: &Fighter) -> String {
        list_or_dash(f.effects.iter().map(|o| self.ongoing(o)), "; ")
    }

    fn ailments_text(f: &Fighter) -> String {
        list_or_dash(
            Ailment::ALL.iter().filter(|a| f.ailment(**a) > 0).map(|a| format!("{a} {}", f.ailment(*a))),
            ", ",
        )
    }

    fn token_text(&self, s: &State, t: &Token) -> String {
        format!("{}:{}:{}", t.priority, self.label(s, t.who), self.action_name(t.action))
    }

    fn track_text(&self, s: &State) -> String {
        list_or_dash(self.ordered_track(s).iter().map(|t| self.token_text(s, t)), " ")
    }

    fn done_text(&self, s: &State) -> String {
        list_or_dash(s.done.iter().map(|t| self.token_text(s, t)), " ")
    }

    fn hand_text(f: &Fighter) -> String {
        list_or_dash(f.hand.iter().map(|h| h.name()), " ")
    }

    pub(crate) fn render_board(&self, s: &State) -> String {
        let mut out = String::new();
        let holder = value_or_dash(s.holder.map(|h| self.label(s, h)));
        let _ = writeln!(out, "Round {}  phase {}  Priority token: {holder}", s.round, s.phase.name());
        if let Some(w) = s.winner {
            let _ = writeln!(out, "Fight over: {} wins", self.label(s, w));
        }
        let _ = writeln!(out, "Seats (clockwise):");
        for (i, f) in s.fighters.iter().enumerate() {
            let token = if s.holder.is_some_and(|h| h.i() == i) { "*" } else { " " };
            let who = if f.is_monster() {
                format!("{} (monster)", f.label)
            } else {
                format!("{} {}", f.label, self.card_name(f))
            };
            let state = if f.defeated { "  DEFEATED" } else { "" };
            let _ = writeln!(
                out,
                " {token} {who:<18} Grit {:>3}  Fame {:>2}  ailments: {}{state}",
                f.grit,
                f.fame,
                Self::ailments_text(f)
            );
            if !f.effects.is_empty() {
                let _ = writeln!(out, "     effects: {}", self.effects_text(f));
            }
            if !f.is_monster() {
                let _ = writeln!(out, "     hand: {}", Self::hand_text(f));
            }
        }
        let _ = writeln!(out, "Priority track: {}", self.track_text(s));
        if !s.done.is_empty() {
            let _ = writeln!(out, "  resolved this round: {}", self.done_text(s));
        }
        if s.lured {
            let _ = writeln!(out, "Lured: the monster's Breakable effect is ignored this round");
        }
        if let Some(b) = s.balance {
            let _ = writeln!(out, "Balance: {} draws the monster's single-target attacks", self.label(s, b));
        }
        if let Some(c) = &s.current {
            let _ = writeln!(
                out,
                "Resolving: {} {} (roll {} {}, modifier {:+})",
                self.label(s, c.who),
                self.action_name(c.action),
                c.skill,
                or_dash(c.dice.to_string()),
                self.roll_modifier(s, c)
            );
        }
        if let Some(next) = self.next_consequence(s) {
            let _ = writeln!(out, "Rules call for: {next}{}", self.damage_terms(s));
        }
        out
    }

    /// What the damage owed next follows from (` (6 from the card, +1 Accuracy: one die
    /// reaching 9; Block 3)`), or nothing when no damage of an action is owed next.
    fn damage_terms(&self, s: &State) -> String {
        let Some(Due { cause: Cause::Effect { effect, .. }, fact: Fact::DamageDealt { who, block, .. } }) =
            self.next_due(s)
        else {
            return String::new();
        };
        let Some(c) = s.current.as_ref() else { return String::new() };
        let Action::Card(id) = c.action else { return String::new() };
        let Some(&Effect::Damage(base)) =
            self.catalog.cards.get(id).and_then(|k| k.effects.get(usize::from(effect)))
        else {
            return String::new();
        };
        let p = self.damage_parts(s, c, who, base);
        let mut terms = vec![format!("{} from the card", p.base)];
        if p.mods != 0 {
            terms.push(format!("{:+} from effects", p.mods));
        }
        if p.weak != 0 {
            terms.push("-1 Weak".to_string());
        }
        let dice = match p.accuracy {
            0 => "no die".to_string(),
            1 => "1 die".to_string(),
            n => format!("{n} dice"),
        };
        terms.push(format!("{:+} Accuracy: {dice} reaching {}", p.accuracy, p.difficulty));
        format!(" ({}; Block {block})", terms.join(", "))
    }

    pub(crate) fn state_facts(&self, s: &State) -> Vec<(String, String)> {
        let mut out = Facts::new();
        out.put("round", s.round)
            .put("phase", s.phase.name())
            .put("priority", value_or_dash(s.holder.map(|h| self.label(s, h))))
            .put("track", self.track_text(s))
            .put("track.done", self.done_text(s))
            .put("lured", s.lured)
            .put("winner", value_or_dash(s.winner.map(|w| self.label(s, w))));
        if let Some(c) = &s.current {
            out.put("roll.dice", or_dash(c.dice.to_string()));
            out.put("roll.value", if c.rolled { self.roll_value(s, c).to_string() } else { "-".into() });
        }
        for f in &s.fighters {
            let l = f.label.as_str();
            out.put_of(l, "card", self.card_name(f)).put_of(l, "grit", f.grit).put_of(l, "fame", f.fame);
            for a in Ailment::ALL {
                out.put_of(l, a.name(), f.ailment(*a));
            }
            out.put_of(l, "effects", self.effects_text(f));
            if !f.is_monster() {
                out.put_of(l, "hand", Self::hand_text(f));
                // The worn gear that applies; `?` while the log has not shown a choice it left out.
                let worn = value_or_dash(f.worn.map(|w| self.catalog.cards.name(w)));
                out.put_of(l, "worn", if f.worn_open { format!("{worn}?") } else { worn });
            }
            out.put_of(l, "defeated", f.defeated);
            out.put_of(
                l,
                "trophies",
                list_or_dash(f.trophies.iter().map(|m| self.catalog.monsters.name(*m)), " "),
            );
        }
        out.into_vec()
    }
}
