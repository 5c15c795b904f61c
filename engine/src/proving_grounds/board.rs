//! The readable board: six enemies with their tracks and markers, health track with the
//! colored stack, exhaustion track and pool, then one line per module in play.

use super::dice::Color;
use super::facts::{sets, singles};
use super::params::{Module, ReplaceWithoutWhite};
use super::state::{State, EXHAUSTION, SLOTS};
use super::ProvingGrounds;
use std::fmt::Write as _;

impl ProvingGrounds {
    pub(super) fn board_text(&self, s: &State) -> String {
        let mut b = String::new();
        let _ = writeln!(
            b,
            "Proving Grounds, round {} ({}), {}: {} defeated",
            s.round,
            s.phase.name(),
            s.outcome.name(),
            s.defeated
        );
        let _ =
            writeln!(b, "  tracks bottom to top: B bottom, *start, N dice (g/y/b colors) to enter, [marker]");
        for i in 0..SLOTS {
            let slot = &s.slots[i];
            let _ = write!(b, "  #{} ", i + 1);
            match slot.card {
                None => {
                    let _ = write!(b, "(empty)");
                }
                Some(c) => {
                    let en = self.enemy(c);
                    let _ = write!(b, "{:<18} ", en.id);
                    for (k, req) in en.track.iter().enumerate() {
                        let label = if k == 0 { "B".to_string() } else { req.to_string() };
                        let start = if k == en.start as usize { "*" } else { "" };
                        if k == slot.marker as usize {
                            let _ = write!(b, "[{start}{label}]");
                        } else {
                            let _ = write!(b, " {start}{label} ");
                        }
                    }
                    if let Some(icon) = en.icon {
                        let _ = write!(b, "  icon {icon}");
                    }
                }
            }
            let n = i + 1;
            let dice: Vec<String> =
                s.pool.iter().filter(|d| d.value as usize == n).map(|d| d.to_string()).collect();
            if !dice.is_empty() {
                let _ = write!(b, "  <- {}", dice.join(" "));
            }
            b.push('\n');
        }
        let _ = write!(b, "  health   ");
        for space in 1..=self.config.health {
            let stack = if !s.stack.is_empty() && space == s.stack_at(self.config.rings) {
                format!("({})", s.stack)
            } else {
                String::new()
            };
            if space == s.health {
                let _ = write!(b, "[{space}{stack}]");
            } else {
                let _ = write!(b, " {space}{stack} ");
            }
        }
        b.push('\n');
        let _ = write!(b, "  exhaustion (top to bottom)");
        for k in 0..EXHAUSTION {
            let _ = write!(b, "  {}: {}", k + 1, s.exhaustion[k]);
        }
        b.push('\n');
        let _ = writeln!(b, "  pool     {}  (sets {}; singles {})", s.pool, sets(&s.pool), singles(&s.pool));
        if s.replace_owed {
            // Only the colors the stack still holds can be taken (`pg.replace.from-stack`),
            // and the die given is a white one while the pool has one (as `decision_owed`).
            let has_white = s.pool.iter().any(|d| d.color == Color::White);
            let give = match self.config.replace_without_white {
                _ if has_white => "w",
                ReplaceWithoutWhite::Add => "-",
                _ => "COLOR",
            };
            let _ = write!(b, "  a die replacement is owed (replace {give} -> ");
            let mut first = true;
            for c in Color::COLORED.into_iter().filter(|&c| s.stack.get(c) > 0) {
                let _ = write!(b, "{}{}", if first { "" } else { "|" }, c.name());
                first = false;
            }
            b.push_str(")\n");
        }
        if !self.config.modules.is_empty() {
            self.module_board(s, &mut b);
        }
        b
    }

    /// One line per module in play: shields, dial and borrowed dice, conspirators, the
    /// dragonling die, the chariot and reserve, inspiration cards, the Rolls tracker.
    fn module_board(&self, s: &State, b: &mut String) {
        let m = &s.mods;
        let mods = self.config.modules;
        let _ = writeln!(b, "  modules  {}", mods.names().join(", "));
        if mods.has(Module::Shields) {
            let list: Vec<String> = (0..SLOTS)
                .filter(|i| m.shields.shielded & (1 << i) != 0)
                .map(|i| format!("#{}", i + 1))
                .collect();
            let _ = writeln!(
                b,
                "  shields  {}",
                if list.is_empty() { "none".to_string() } else { list.join(" ") }
            );
        }
        if mods.has(Module::SunMoon) {
            let sm = &m.sun_moon;
            let facing = match self.sun_moon_slots(s) {
                Some((sun, moon)) => {
                    format!("Maia faces #{} (sun #{}, moon #{})", sm.facing, sun + 1, moon + 1)
                }
                None => "dial not turned this round".to_string(),
            };
            let _ = writeln!(
                b,
                "  dial     {facing}; on the dial {}; borrowed {} (back at this recovery), {} (back next round)",
                sm.dial, sm.borrowed, sm.borrowed_new
            );
        }
        if mods.has(Module::Conspirators) {
            let names = |bits: u32| -> String {
                let l: Vec<&str> = self
                    .cards
                    .conspirators
                    .iter()
                    .enumerate()
                    .filter(|(k, _)| bits & (1 << k) != 0)
                    .map(|(_, c)| c.id.as_str())
                    .collect();
                if l.is_empty() {
                    "none".to_string()
                } else {
                    l.join(", ")
                }
            };
            let c = &m.conspirators;
            let die = if c.die == 0 { "not rolled".to_string() } else { c.die.to_string() };
            let _ = writeln!(
                b,
                "  conspirators revealed {}; die {die}; active {}; owed {}",
                names(c.revealed),
                names(c.active),
                self.reveals_owed(s)
            );
        }
        if mods.has(Module::Dragonling) {
            let face = match m.dragonling.face {
                0 => "not rolled".to_string(),
                n => n.to_string(),
            };
            let _ = writeln!(b, "  dragonling die {face}");
        }
        if mods.has(Module::Chariots) {
            let ch = &m.chariots;
            let chariot = match ch.chariot.and_then(|k| self.cards.chariots.get(k as usize)) {
                Some(c) => {
                    format!("{} (needs {}; {}) holding {}", c.id, c.condition_text(), c.effect, ch.dice)
                }
                None => "none".to_string(),
            };
            let _ = writeln!(b, "  chariot  {chariot}; reserve {}; {} met", ch.reserve, ch.met);
        }
        if mods.has(Module::Inspiration) {
            let played: Vec<&str> = self
                .cards
                .inspirations
                .iter()
                .enumerate()
                .filter(|(k, _)| m.inspiration.played & (1 << k) != 0)
                .map(|(_, c)| c.id.as_str())
                .collect();
            let _ = writeln!(
                b,
                "  inspiration played: {}",
                if played.is_empty() { "none".to_string() } else { played.join(", ") }
            );
        }
        if mods.has(Module::Rolls) {
            let _ = writeln!(b, "  rolls tracker {} left", m.rolls.left);
        }
    }
}
