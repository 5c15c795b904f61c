//! The flat `key = value` view of a table that fixtures assert on and diff compares.
//! Keys and their order are stable; docs/notation/proving-grounds.md lists them.

use super::dice::Dice;
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
        out
    }
}
