//! The board as text: the city from the Castle down (fires, scorched tiles, gems, monsters
//! and every dwarf on its spot), then the events, the Forge and each player.

use super::catalog::Subject;
use super::city::{Territory, Tile, CASTLE_LINE};
use super::state::{State, EMPTY};
use super::FlameAndForge;
use crate::kit::facts::list_or_dash;
use std::fmt::Write as _;

impl FlameAndForge {
    fn tile_cell(&self, s: &State, t: Tile) -> String {
        let c = &*self.catalog;
        let ts = s.tile(t);
        let building = c.buildings.get(c.building_of(t) as usize).map_or("?", String::as_str);
        let mut cell = format!("{t} {building}");
        if ts.scorched {
            cell.push_str(" SCORCHED");
        }
        if ts.fire > 0 {
            let _ = write!(cell, " fire {}", "*".repeat(ts.fire as usize));
        }
        if ts.gem_count() > 0 {
            let _ = write!(cell, " gems y{} b{} r{}", ts.gems[0], ts.gems[1], ts.gems[2]);
        }
        if let Some((m, _)) = s.monster_on(t) {
            let _ = write!(cell, " MONSTER {}", c.cards.name(m));
        }
        let spots: Vec<String> = ts
            .spots
            .iter()
            .take(c.spots(t, ts.scorched))
            .map(|&d| if d == EMPTY { ".".to_string() } else { s.player(d).colour.to_string() })
            .collect();
        let _ = write!(cell, " [{}]", spots.join(" "));
        cell
    }

    pub(super) fn board_text(&self, s: &State) -> String {
        let c = &*self.catalog;
        let mut out = String::new();
        let active = s.seats.get(s.active as usize).map_or("-".to_string(), |p| p.colour.to_string());
        let _ = writeln!(
            out,
            "Flame & Forge: turn {}, {active} to play ({}); {} of 7 tiles scorched; outcome {}",
            s.turns,
            self.phase_name(s),
            s.scorched(),
            self.outcome(s)
        );
        let castle: Vec<String> = s
            .seats
            .iter()
            .filter_map(|p| p.city[CASTLE_LINE as usize - 1].map(|d| format!("{} {}", p.colour, d.dwarf)))
            .collect();
        let strength = match self.config.scenario {
            super::params::Scenario::S01 => c.scenario01.dragon.strength,
            super::params::Scenario::Free => c.dragon.strength,
        };
        let _ =
            writeln!(out, "Castle: the Dragon (strength {strength}); dwarfs: {}", list_or_dash(castle, ", "));
        for line in (1..CASTLE_LINE).rev() {
            let territory = Territory::ALL[(line as usize - 1) / 2];
            let cells: Vec<String> = Tile::line_tiles(line).map(|t| self.tile_cell(s, t)).collect();
            let _ = writeln!(out, "{:<10} {}", territory.name(), cells.join(" | "));
        }
        let _ = writeln!(
            out,
            "Horde: {} ({} VP)",
            list_or_dash(s.horde.iter().map(|&m| c.cards.name(m)), " "),
            self.horde_vp(s)
        );
        let _ = writeln!(
            out,
            "Events (top last): {}; {} in the deck",
            list_or_dash(s.events.iter().map(|&e| c.events.name(e)), " "),
            s.event_deck.len()
        );
        let _ = writeln!(out, "Forge: {}", list_or_dash(s.market.cards().map(|i| c.cards.name(i)), ", "));
        for p in &s.seats {
            let books: Vec<String> =
                Subject::ALL.iter().map(|sub| format!("{} {}", sub, p.books[sub.index()])).collect();
            let _ = writeln!(
                out,
                "{}: health {}, gems y{} b{} r{}, campfire {}, board [{}], deck {}, discard {}, books {}",
                p.colour,
                p.health.value,
                p.gems[0],
                p.gems[1],
                p.gems[2],
                p.campfire_count(),
                p.board
                    .iter()
                    .take(c.boards.get(p.side).map_or(0, |b| b.regroup.len()))
                    .map(|d| d.map_or(".".to_string(), |d| d.to_string()))
                    .collect::<Vec<_>>()
                    .join(" "),
                p.deck.len(),
                p.deck.discard.len(),
                books.join(", ")
            );
        }
        if let Some(ch) = s.challenges.last() {
            let _ = writeln!(
                out,
                "Challenge: {} {} / {} successes, {} Frenzy owed",
                s.player(ch.seat).colour,
                ch.successes,
                ch.strength,
                ch.frenzy
            );
        }
        out
    }
}
