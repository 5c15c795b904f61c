//! The flat `key = value` view of a table that fixtures assert on and diff compares.
//! Keys and their order are stable; docs/notation/proving-grounds.md lists them.

use super::dice::{Color, ColorCounts, Dice, Die, MAX_DICE};
use super::params::Module;
use super::state::{State, EXHAUSTION, SLOTS};
use super::ProvingGrounds;
use crate::kit::facts::{list_or_dash, value_or_dash};

/// `3x2 4x2 6x3`: each face shown by two or more dice, with how many; `-` when none.
pub fn sets(pool: &Dice) -> String {
    let faces = pool.faces();
    list_or_dash((1..=6).filter(|&f| faces[f] >= 2).map(|f| format!("{f}x{}", faces[f])), " ")
}

/// `4 5`: each face shown by exactly one die; `-` when none.
pub fn singles(pool: &Dice) -> String {
    let faces = pool.faces();
    list_or_dash((1..=6).filter(|&f| faces[f] == 1), " ")
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
    for &k in Color::ALL {
        for _ in 0..c.get(k) {
            if !s.is_empty() {
                s.push(' ');
            }
            s.push_str(k.name());
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
        put("replace.owed", if s.replace_owed || s.replace_banked > 0 { "yes" } else { "no" }.to_string());
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
        put("discard", list_or_dash(s.discard_pile().iter().map(|&c| &self.enemy(c).id), " "));
        put("deck.drawn", num(s.drawn_count()));
        put("deck.left", num(self.cards.enemies.len().saturating_sub(s.drawn_count() as usize) as u32));
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
            put("shields", slot_list(m.shields.shielded));
        }
        if self.config.modules.has(Module::SunMoon) {
            let sm = &m.sun_moon;
            put("dial", sm.dial.to_string());
            put("facing", value_or_dash((sm.facing != 0).then_some(sm.facing)));
            let slots = self.sun_moon_slots(s);
            put("sun", value_or_dash(slots.map(|(sun, _)| sun + 1)));
            put("moon", value_or_dash(slots.map(|(_, moon)| moon + 1)));
            put("borrowed", sm.borrowed.to_string());
            put("borrowed.new", sm.borrowed_new.to_string());
        }
        if self.config.modules.has(Module::Conspirators) {
            let c = &m.conspirators;
            put("conspirator.die", value_or_dash((c.die != 0).then_some(c.die)));
            put(
                "conspirators.revealed",
                card_list(c.revealed, self.cards.conspirators.iter().map(|c| c.id.as_str())),
            );
            put(
                "conspirators.active",
                card_list(c.active, self.cards.conspirators.iter().map(|c| c.id.as_str())),
            );
            put("conspirators.owed", self.reveals_owed(s).to_string());
        }
        if self.config.modules.has(Module::Dragonling) {
            let face = m.dragonling.face;
            put("dragonling", value_or_dash((face != 0).then_some(face)));
        }
        if self.config.modules.has(Module::Chariots) {
            let ch = &m.chariots;
            let chariot = ch.chariot.and_then(|k| self.cards.chariots.get(k as usize));
            put("chariot", value_or_dash(chariot.map(|c| &c.id)));
            put("chariot.dice", ch.dice.to_string());
            put("chariot.met", value_or_dash(self.chariot_met(s).map(|b| if b { "yes" } else { "no" })));
            put("reserve", ch.reserve.to_string());
            put("chariots.met", ch.met.to_string());
            put(
                "chariots.left",
                (self.cards.chariots.len() as u32).saturating_sub(ch.drawn.count_ones()).to_string(),
            );
        }
        if self.config.modules.has(Module::Inspiration) {
            put(
                "inspiration.played",
                card_list(m.inspiration.played, self.cards.inspirations.iter().map(|c| c.id.as_str())),
            );
        }
        if self.config.modules.has(Module::Rolls) {
            put("rolls.left", m.rolls.left.to_string());
        }
    }
}

/// `1 4` for the slots whose bits are set, `-` when none.
fn slot_list(bits: u8) -> String {
    list_or_dash((0..SLOTS).filter(|i| bits & (1 << i) != 0).map(|i| i + 1), " ")
}

/// The ids of the cards whose bits are set, in catalog order, `-` when none.
fn card_list<'a>(bits: u32, ids: impl Iterator<Item = &'a str>) -> String {
    list_or_dash(ids.enumerate().filter(|(k, _)| *k < 32 && bits & (1 << k) != 0).map(|(_, id)| id), " ")
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
