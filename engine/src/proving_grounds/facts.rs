//! The flat `key = value` view of a table that fixtures assert on and diff compares.
//! Keys and their order are stable; docs/notation/proving-grounds.md lists them.

use super::dice::Dice;
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

impl ProvingGrounds {
    pub(super) fn fact_list(&self, s: &State) -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = Vec::with_capacity(48);
        let mut put = |k: &str, v: String| out.push((k.to_string(), v));
        put("outcome", s.outcome.name().to_string());
        put("phase", s.phase.name().to_string());
        put("round", s.round.to_string());
        put("rerolls", s.rerolls.to_string());
        put("health", s.health.to_string());
        put("health.last", self.config.health.to_string());
        put("stack", s.stack.to_string());
        put(
            "stack.at",
            if s.stack.is_empty() { "-".to_string() } else { s.stack_at(self.config.rings).to_string() },
        );
        put("replace.owed", if s.replace_owed { "yes" } else { "no" }.to_string());
        put("pool", s.pool.to_string());
        put("pool.colors", s.pool.colors().to_string());
        put("sets", sets(&s.pool));
        put("singles", singles(&s.pool));
        for k in 0..EXHAUSTION {
            put(&format!("exhaustion.{}", k + 1), s.exhaustion[k].to_string());
        }
        for i in 0..SLOTS {
            let n = i + 1;
            let slot = &s.slots[i];
            match slot.card {
                Some(c) => {
                    let en = self.enemy(c);
                    put(&format!("slot.{n}.enemy"), en.id.clone());
                    put(&format!("slot.{n}.marker"), slot.marker.to_string());
                    put(&format!("slot.{n}.top"), en.top().to_string());
                }
                None => {
                    put(&format!("slot.{n}.enemy"), "-".to_string());
                    put(&format!("slot.{n}.marker"), "-".to_string());
                    put(&format!("slot.{n}.top"), "-".to_string());
                }
            }
            let mut dice = Dice::new();
            for d in s.pool.iter().filter(|d| d.value as usize == n) {
                dice.push(*d);
            }
            put(&format!("slot.{n}.dice"), dice.to_string());
        }
        put("defeated", s.defeated.to_string());
        let discard: Vec<&str> = s.discard_pile().iter().map(|&c| self.enemy(c).id.as_str()).collect();
        put("discard", if discard.is_empty() { "-".to_string() } else { discard.join(" ") });
        put("deck.drawn", s.drawn_count().to_string());
        put("deck.left", self.enemies.len().saturating_sub(s.drawn_count() as usize).to_string());
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
            put("conspirators.owed", m.reveal_owed.to_string());
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
