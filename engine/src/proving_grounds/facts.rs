//! The flat `key = value` view of a table that fixtures assert on and diff compares.
//! Keys and their order are stable; docs/notation/proving-grounds.md lists them.

use super::dice::{Color, ColorCounts, Dice, Die, MAX_DICE};
use super::modules::Module;
use super::state::{State, EXHAUSTION, SLOTS};
use super::ProvingGrounds;
use std::fmt::Write as _;

/// `3x2 4x2 6x3`: each face shown by two or more dice, with how many; `-` when none.
pub fn sets(pool: &Dice) -> String {
    let faces = pool.faces();
    let mut s = String::new();
    for (face, &n) in faces.iter().enumerate().skip(1) {
        if n >= 2 {
            if !s.is_empty() {
                s.push(' ');
            }
            let _ = write!(s, "{face}x{n}");
        }
    }
    if s.is_empty() {
        s.push('-');
    }
    s
}

/// `4 5`: each face shown by exactly one die; `-` when none.
pub fn singles(pool: &Dice) -> String {
    let faces = pool.faces();
    let list: Vec<String> = (1..=6).filter(|&f| faces[f] == 1).map(|f| f.to_string()).collect();
    if list.is_empty() {
        "-".to_string()
    } else {
        list.join(" ")
    }
}

/// The per-slot keys, spelled out once: `verify` reports the final facts of every session,
/// so building them is paid per session and `format!`-ing 24 keys each time showed up.
const SLOT_KEYS: [[&str; 4]; SLOTS] = [
    ["slot.1.enemy", "slot.1.marker", "slot.1.top", "slot.1.dice"],
    ["slot.2.enemy", "slot.2.marker", "slot.2.top", "slot.2.dice"],
    ["slot.3.enemy", "slot.3.marker", "slot.3.top", "slot.3.dice"],
    ["slot.4.enemy", "slot.4.marker", "slot.4.top", "slot.4.dice"],
    ["slot.5.enemy", "slot.5.marker", "slot.5.top", "slot.5.dice"],
    ["slot.6.enemy", "slot.6.marker", "slot.6.top", "slot.6.dice"],
];
const EXHAUSTION_KEYS: [&str; EXHAUSTION] = ["exhaustion.1", "exhaustion.2", "exhaustion.3"];

/// A number as text without the formatting machinery (the same digits `to_string` writes).
fn num(n: impl Into<u32>) -> String {
    let mut n: u32 = n.into();
    let mut digits = [0u8; 10];
    let mut k = digits.len();
    loop {
        k -= 1;
        digits[k] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    digits[k..].iter().map(|&d| d as char).collect()
}

/// The dice as `Dice`'s `Display` prints them (`1 3 5g`, `?b` unrolled, `-` when none),
/// written directly.
fn dice_text<'a>(dice: impl Iterator<Item = &'a Die>) -> String {
    let mut s = String::with_capacity(3 * MAX_DICE);
    for d in dice {
        if !s.is_empty() {
            s.push(' ');
        }
        if d.value == 0 {
            s.push('?');
        } else {
            s.push_str(&num(d.value));
        }
        s.push_str(d.color.suffix());
    }
    if s.is_empty() {
        s.push('-');
    }
    s
}

/// Color counts as `ColorCounts`'s `Display` prints them (`w w g`, `-` when none).
fn counts_text(c: ColorCounts) -> String {
    let mut s = String::new();
    for k in Color::ALL {
        for _ in 0..c.get(k) {
            if !s.is_empty() {
                s.push(' ');
            }
            s.push(k.letter());
        }
    }
    if s.is_empty() {
        s.push('-');
    }
    s
}

impl ProvingGrounds {
    pub(super) fn fact_list(&self, s: &State) -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = Vec::with_capacity(64);
        let mut put = |k: &str, v: String| out.push((k.to_string(), v));
        put("outcome", s.outcome.name().to_string());
        put("phase", s.phase.name().to_string());
        put("round", num(s.round));
        put("rerolls", num(s.rerolls));
        put("health", num(s.health));
        put("health.last", num(self.config.health));
        put("stack", counts_text(s.stack));
        put(
            "stack.at",
            if s.stack.is_empty() { "-".to_string() } else { num(s.stack_at(self.config.rings)) },
        );
        put("replace.owed", if s.replace_owed { "yes" } else { "no" }.to_string());
        put("pool", dice_text(s.pool.iter()));
        put("pool.colors", counts_text(s.pool.colors()));
        put("sets", sets(&s.pool));
        put("singles", singles(&s.pool));
        for (k, key) in EXHAUSTION_KEYS.iter().enumerate() {
            put(key, counts_text(s.exhaustion[k]));
        }
        for (i, [enemy, marker, top, dice]) in SLOT_KEYS.iter().enumerate() {
            let slot = &s.slots[i];
            match slot.card {
                Some(c) => {
                    let en = self.enemy(c);
                    put(enemy, en.id.clone());
                    put(marker, num(slot.marker));
                    put(top, num(en.top()));
                }
                None => {
                    put(enemy, "-".to_string());
                    put(marker, "-".to_string());
                    put(top, "-".to_string());
                }
            }
            put(dice, dice_text(s.pool.iter().filter(|d| d.value as usize == i + 1)));
        }
        put("defeated", num(s.defeated));
        let discard: Vec<&str> = s.discard_pile().iter().map(|&c| self.enemy(c).id.as_str()).collect();
        put("discard", if discard.is_empty() { "-".to_string() } else { discard.join(" ") });
        put("deck.drawn", num(s.drawn_count()));
        put("deck.left", num(self.enemies.len().saturating_sub(s.drawn_count() as usize) as u32));
        if !self.config.modules.is_empty() {
            self.module_facts(s, &mut out);
        }
        out
    }

    /// The modules' keys, each only when its module is in play (so a training game's facts,
    /// and every diff of one, are unchanged).
    fn module_facts(&self, s: &State, out: &mut Vec<(String, String)>) {
        let mut put = |k: &str, v: String| out.push((k.to_string(), v));
        let m = &s.mods;
        put("modules", self.config.modules.names().join(","));
        if self.config.modules.has(Module::Shields) {
            put("shields", slot_list(m.shields));
        }
        if self.config.modules.has(Module::SunMoon) {
            put("dial", m.dial.to_string());
            put("facing", if m.facing == 0 { "-".to_string() } else { m.facing.to_string() });
            let (sun, moon) = match self.sun_moon_slots(s) {
                Some((a, b)) => ((a + 1).to_string(), (b + 1).to_string()),
                None => ("-".to_string(), "-".to_string()),
            };
            put("sun", sun);
            put("moon", moon);
            put("borrowed", m.borrowed.to_string());
            put("borrowed.new", m.borrowed_new.to_string());
        }
        if self.config.modules.has(Module::Conspirators) {
            put("conspirator.die", if m.conspire == 0 { "-".to_string() } else { m.conspire.to_string() });
            put(
                "conspirators.revealed",
                card_list(m.revealed, self.conspirators.iter().map(|c| c.id.as_str())),
            );
            put("conspirators.active", card_list(m.active, self.conspirators.iter().map(|c| c.id.as_str())));
            put("conspirators.owed", self.reveals_owed(s).to_string());
        }
        if self.config.modules.has(Module::Dragonling) {
            put("dragonling", if m.dragon == 0 { "-".to_string() } else { m.dragon.to_string() });
        }
        if self.config.modules.has(Module::Chariots) {
            let chariot = m.chariot.and_then(|k| self.chariots.get(k as usize));
            put("chariot", chariot.map_or("-".to_string(), |c| c.id.clone()));
            put("chariot.dice", m.chariot_dice.to_string());
            put(
                "chariot.met",
                self.chariot_met_now(s).map_or("-", |b| if b { "yes" } else { "no" }).to_string(),
            );
            put("reserve", m.reserve.to_string());
            put("chariots.met", m.chariots_met.to_string());
            put(
                "chariots.left",
                (self.chariots.len() as u32).saturating_sub(m.chariots_drawn.count_ones()).to_string(),
            );
        }
        if self.config.modules.has(Module::Inspiration) {
            put("inspiration.played", card_list(m.inspired, self.inspirations.iter().map(|c| c.id.as_str())));
        }
        if self.config.modules.has(Module::Rolls) {
            put("rolls.left", m.rolls_left.to_string());
        }
    }
}

/// `1 4` for the slots whose bits are set, `-` when none.
fn slot_list(bits: u8) -> String {
    let list: Vec<String> = (0..6).filter(|i| bits & (1 << i) != 0).map(|i| (i + 1).to_string()).collect();
    if list.is_empty() {
        "-".to_string()
    } else {
        list.join(" ")
    }
}

/// The ids of the cards whose bits are set, in catalog order, `-` when none.
fn card_list<'a>(bits: u32, ids: impl Iterator<Item = &'a str>) -> String {
    let list: Vec<&str> =
        ids.enumerate().filter(|(k, _)| *k < 32 && bits & (1 << k) != 0).map(|(_, id)| id).collect();
    if list.is_empty() {
        "-".to_string()
    } else {
        list.join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_direct_writers_print_as_display_does() {
        for n in [0u32, 7, 10, 99, 255, 65_535, u32::MAX] {
            assert_eq!(num(n), n.to_string());
        }
        let mut pool = Dice::new();
        assert_eq!(dice_text(pool.iter()), pool.to_string());
        for d in [Die::new(0, Color::Blue), Die::new(3, Color::White), Die::new(6, Color::Green)] {
            pool.push(d);
            assert_eq!(dice_text(pool.iter()), pool.to_string());
        }
        for c in [ColorCounts([0, 0, 0, 0]), ColorCounts([2, 1, 0, 3]), ColorCounts([0, 0, 1, 0])] {
            assert_eq!(counts_text(c), c.to_string());
        }
    }
}
