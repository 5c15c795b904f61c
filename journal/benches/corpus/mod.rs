//! The synthetic events both journal benches store, shaped like a dice game's: mostly small,
//! some with a handful of dice, and the session metadata they go under.

use arbiter_journal::{Record, SessionMeta};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Shaped like a dice game's events: mostly small, some with a handful of dice.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Ev {
    Rolled(Vec<u8>),
    Rerolled { face: u8, dice: Vec<u8> },
    Moved { slot: u8, up: bool },
    Stopped,
}

pub fn event(i: u64) -> Record<Ev> {
    let x = i.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40;
    Record::Event(match i % 10 {
        0 => Ev::Rolled((0..8).map(|k| ((x >> (k * 3)) % 6) as u8 + 1).collect()),
        1 | 2 => {
            Ev::Rerolled { face: (x % 6) as u8 + 1, dice: vec![(x % 5) as u8 + 1; 1 + (x % 3) as usize] }
        }
        3 => Ev::Stopped,
        _ => Ev::Moved { slot: (x % 6) as u8 + 1, up: x & 1 == 0 },
    })
}

pub fn meta() -> SessionMeta {
    SessionMeta {
        game: "bench".to_string(),
        setup: BTreeMap::new(),
        catalog: None,
        rules_version: 1,
        created: 0,
        title: String::new(),
        parent: None,
    }
}
