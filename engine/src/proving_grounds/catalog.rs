//! The card catalog file format, and its parser into validated cards.
//!
//! Enemies come first, one a line, five fields separated by `|`:
//!
//! ```text
//! # id         | name         | track (bottom to top, * = start) | icon | ability
//! pit-brawler  | Pit Brawler  | B 2 *2 2                         | 3    | -
//! ```
//!
//! The track lists the bottom space `B`, then for each space above it the dice needed to
//! move into it: a count and the required colors (`2`, `2g`, `3b`, `3gy`). The start space
//! carries a `*`. The icon is a dragonling result 1-6 or `-`; the ability is free text or `-`.
//!
//! The module cards follow in sections opened by a `[conspirators]`, `[chariots]` or
//! `[inspiration]` line (`[enemies]` goes back to enemies); their fields are in `cards`.
//! The catalog may be a user's file, so every problem is reported with its line number and
//! nothing here panics. Lines, comments and the problems are the kit's catalog reader
//! (`kit::catalog`); ids are unique within a kind (an interning `Table` each); the built-in
//! catalog is parsed once per process (`cards`).

use super::cards::{parse_effect, sort_condition, CardKind, Chariot, Conspirator, DieSpec, Inspiration};
use super::dice::Color;
use super::enemy::{Enemy, Requirement, MAX_TRACK};
use crate::kit::catalog::{lines, Builtin, Problems, Table};
use std::sync::{Arc, OnceLock};

/// The most enemies one catalog may hold (card indices are a `u8`; drawn cards are a bitset).
pub const MAX_ENEMIES: usize = 256;
/// The most cards of each module kind (they are bitsets of a `u32` in the state).
pub const MAX_MODULE_CARDS: usize = 32;
/// The fewest enemies a game can start with: one for each slot.
pub const MIN_ENEMIES: usize = 6;
/// The longest card id, so that notation lines stay short.
pub const MAX_ID: usize = 40;

/// The illustrative catalog shipped with the engine: enemies, then one file per module's cards.
pub const ILLUSTRATIVE: &str = concat!(
    include_str!("../../catalogs/proving-grounds/illustrative.pgcat"),
    "\n",
    include_str!("../../catalogs/proving-grounds/conspirators.pgcat"),
    "\n",
    include_str!("../../catalogs/proving-grounds/chariots.pgcat"),
    "\n",
    include_str!("../../catalogs/proving-grounds/inspiration.pgcat"),
);

/// Every card of a catalog.
#[derive(Debug, Clone, Default)]
pub struct Catalog {
    pub enemies: Vec<Enemy>,
    pub conspirators: Vec<Conspirator>,
    pub chariots: Vec<Chariot>,
    pub inspirations: Vec<Inspiration>,
}

/// Parse catalog text into enemies, or every problem found, each as `catalog line N: ...`.
pub fn parse_catalog(text: &str) -> Result<Vec<Enemy>, Vec<String>> {
    parse_full_catalog(text).map(|c| c.enemies)
}

/// The cards of `text`, shared: the built-in catalog is parsed once per process (verifying a
/// league builds one game per session, and parsing its text cost more than stepping a short
/// session), any other text each time.
pub fn cards(text: &str) -> Result<Arc<Catalog>, Vec<String>> {
    static BUILTIN: Builtin<Catalog> = Builtin::new();
    BUILTIN.parse(ILLUSTRATIVE, text, parse_full_catalog)
}

/// Parse catalog text into every card it holds, or every problem found.
pub fn parse_full_catalog(text: &str) -> Result<Catalog, Vec<String>> {
    let mut cat = Catalog::default();
    let mut problems = Problems::new();
    let mut section: Option<CardKind> = None;
    // One id table per section (enemies, then each module kind): ids are unique within a kind.
    let mut ids: [Table<()>; 4] = Default::default();
    for line in lines(text) {
        let n = line.number;
        if let Some(name) = line.text.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            section = match name.trim() {
                "enemies" => None,
                "conspirators" => Some(CardKind::Conspirator),
                "chariots" => Some(CardKind::Chariot),
                "inspiration" => Some(CardKind::Inspiration),
                other => {
                    problems.at(
                        n,
                        format!("unknown section `[{other}]` (known: enemies, conspirators, chariots, inspiration)"),
                    );
                    section
                }
            };
            continue;
        }
        let id = match section {
            None => parse_line(line.text).map(|e| {
                let id = e.id.clone();
                cat.enemies.push(e);
                id
            }),
            Some(kind) => parse_module_card(kind, line.text, &mut cat),
        };
        let table = &mut ids[section.map_or(0, |k| k as usize + 1)];
        if let Some(id) = problems.check(n, id) {
            if problems.check(n, table.insert(&id, ())).is_none() {
                drop_last(section, &mut cat);
            }
        }
    }
    if problems.is_empty() && cat.enemies.len() < MIN_ENEMIES {
        problems.whole(format!(
            "{} enemies; a game needs at least {MIN_ENEMIES}, one per slot",
            cat.enemies.len()
        ));
    }
    if cat.enemies.len() > MAX_ENEMIES {
        problems.whole(format!("{} enemies; at most {MAX_ENEMIES} are supported", cat.enemies.len()));
    }
    for (what, len) in [
        ("conspirators", cat.conspirators.len()),
        ("chariots", cat.chariots.len()),
        ("inspiration cards", cat.inspirations.len()),
    ] {
        if len > MAX_MODULE_CARDS {
            problems.whole(format!("{len} {what}; at most {MAX_MODULE_CARDS} are supported"));
        }
    }
    problems.finish(cat)
}

/// The placeholder card for a catalog index past the catalog (see `ProvingGrounds::enemy`),
/// built once.
pub fn unknown_enemy() -> Arc<Enemy> {
    static UNKNOWN: OnceLock<Arc<Enemy>> = OnceLock::new();
    UNKNOWN
        .get_or_init(|| {
            Arc::new(Enemy {
                id: "unknown-card".to_string(),
                name: "Unknown card".to_string(),
                track: vec![
                    Requirement::default(),
                    Requirement { count: 2, ..Requirement::default() },
                    Requirement { count: 2, ..Requirement::default() },
                ],
                start: 1,
                ability: None,
                icon: None,
            })
        })
        .clone()
}

fn drop_last(section: Option<CardKind>, cat: &mut Catalog) {
    match section {
        None => drop(cat.enemies.pop()),
        Some(CardKind::Conspirator) => drop(cat.conspirators.pop()),
        Some(CardKind::Chariot) => drop(cat.chariots.pop()),
        Some(CardKind::Inspiration) => drop(cat.inspirations.pop()),
    }
}

fn check_id(id: &str) -> Result<(), String> {
    if id.is_empty()
        || id.len() > MAX_ID
        || !id.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
    {
        return Err(format!(
            "card id `{id}` must be 1-{MAX_ID} lowercase letters, digits or `-` (it is typed in notation lines)"
        ));
    }
    Ok(())
}

/// One line of a module section; the card goes into `cat`, its id comes back.
fn parse_module_card(kind: CardKind, line: &str, cat: &mut Catalog) -> Result<String, String> {
    let fields: Vec<&str> = line.split('|').map(str::trim).collect();
    let want = if kind == CardKind::Inspiration { 3 } else { 4 };
    if fields.len() != want {
        let shape = match kind {
            CardKind::Conspirator => "id | name | die | effect",
            CardKind::Chariot => "id | name | condition | effect",
            CardKind::Inspiration => "id | name | effect",
        };
        return Err(format!("expected {want} fields `{shape}`, found {}", fields.len()));
    }
    let id = fields[0];
    check_id(id)?;
    if fields[1].is_empty() {
        return Err(format!("card `{id}` has no name"));
    }
    let effect_text = fields[want - 1];
    if effect_text.is_empty() || effect_text == "-" {
        return Err(format!("card `{id}` has no effect"));
    }
    let effect = parse_effect(kind, effect_text).map_err(|e| format!("card `{id}`: {e}"))?;
    let (id, name) = (id.to_string(), fields[1].to_string());
    match kind {
        CardKind::Conspirator => {
            let die = match fields[2].parse::<u8>() {
                Ok(v @ 1..=6) => v,
                _ => return Err(format!("conspirator `{id}`: die must be 1-6, found `{}`", fields[2])),
            };
            cat.conspirators.push(Conspirator { id: id.clone(), name, die, effect });
        }
        CardKind::Chariot => {
            let mut condition = Vec::new();
            for w in fields[2].split_whitespace() {
                match DieSpec::parse(w) {
                    Some(s) => condition.push(s),
                    None => {
                        return Err(format!(
                            "chariot `{id}`: a condition is dice like `5`, `6b`, `*`, `*g`, found `{w}`"
                        ))
                    }
                }
            }
            if condition.is_empty() || condition.len() > 14 {
                return Err(format!("chariot `{id}`: the condition needs 1-14 dice"));
            }
            sort_condition(&mut condition);
            cat.chariots.push(Chariot { id: id.clone(), name, condition, effect });
        }
        CardKind::Inspiration => cat.inspirations.push(Inspiration { id: id.clone(), name, effect }),
    }
    Ok(id)
}

fn parse_line(line: &str) -> Result<Enemy, String> {
    let fields: Vec<&str> = line.split('|').map(str::trim).collect();
    if fields.len() != 5 {
        return Err(format!(
            "expected 5 fields `id | name | track | icon | ability`, found {}",
            fields.len()
        ));
    }
    let id = fields[0];
    if id.is_empty()
        || id.len() > MAX_ID
        || !id.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
    {
        return Err(format!(
            "enemy id `{id}` must be 1-{MAX_ID} lowercase letters, digits or `-` (it is typed in `draw` lines)"
        ));
    }
    if fields[1].is_empty() {
        return Err(format!("enemy `{id}` has no name"));
    }
    let (track, start) = parse_track(fields[2]).map_err(|m| format!("enemy `{id}`: {m}"))?;
    let icon = match fields[3] {
        "-" => None,
        s => match s.parse::<u8>() {
            Ok(v @ 1..=6) => Some(v),
            _ => {
                return Err(format!("enemy `{id}`: icon must be a dragonling result 1-6 or `-`, found `{s}`"))
            }
        },
    };
    let ability = match fields[4] {
        "-" | "" => None,
        s => Some(s.to_string()),
    };
    Ok(Enemy { id: id.to_string(), name: fields[1].to_string(), track, start, ability, icon })
}

fn parse_track(text: &str) -> Result<(Vec<Requirement>, u8), String> {
    let mut words = text.split_whitespace();
    if words.next() != Some("B") {
        return Err(format!("the track must start with the bottom space `B`, found `{text}`"));
    }
    let mut track = vec![Requirement::default()];
    let mut start = None;
    for w in words {
        let (starred, body) = match w.strip_prefix('*') {
            Some(b) => (true, b),
            None => (false, w),
        };
        if starred {
            if start.is_some() {
                return Err("the track marks two start spaces".into());
            }
            start = Some(track.len() as u8);
        }
        track.push(parse_requirement(body)?);
        if track.len() > MAX_TRACK {
            return Err(format!("the track has more than {MAX_TRACK} spaces"));
        }
    }
    if track.len() < 3 {
        return Err("the track needs a bottom, a start and a top space".into());
    }
    match start {
        None => Err("no start space: mark one with `*`".into()),
        Some(s) if s as usize == track.len() - 1 => Err("the start space cannot be the top space".into()),
        Some(s) => Ok((track, s)),
    }
}

fn parse_requirement(word: &str) -> Result<Requirement, String> {
    let digits = word.bytes().take_while(u8::is_ascii_digit).count();
    let count: u8 = match word[..digits].parse() {
        Ok(c @ 1..=14) => c,
        _ => {
            return Err(format!(
                "a space needs a dice count 1-14 then colors g/y/b (`2`, `3b`), found `{word}`"
            ))
        }
    };
    let mut r = Requirement { count, ..Requirement::default() };
    for b in word[digits..].bytes() {
        match Color::from_letter(b) {
            Some(c) if c != Color::White => r.colors.add(c),
            _ => return Err(format!("`{word}`: colors are g, y or b, found `{}`", b as char)),
        }
    }
    if r.colors.total() > count {
        return Err(format!("`{word}` requires more colored dice than dice"));
    }
    Ok(r)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_illustrative_catalog_is_valid_and_big_enough_for_whole_games() {
        let enemies = parse_catalog(ILLUSTRATIVE).unwrap_or_default();
        assert!(enemies.len() >= 30, "{}", enemies.len());
        let e4 = enemies.iter().find(|e| e.id == "green-warden");
        assert_eq!(e4.map(|e| e.requirement(e.start + 1).to_string()), Some("2g".to_string()));
    }

    #[test]
    fn every_bad_line_is_reported_with_its_number() {
        let text = "a | A | B *2 2 | - | -\nb | B | B 2 2 | - | -\nc | C | B *2 2x | - | -\nbad\nA | A | B *2 2 | 9 | -\na | A2 | B *2 2 | - | -\n";
        let errs = parse_catalog(text).unwrap_err();
        assert_eq!(errs.len(), 5, "{errs:?}");
        assert!(errs[0].starts_with("catalog line 2:") && errs[0].contains("start"), "{errs:?}");
        assert!(errs[1].starts_with("catalog line 3:") && errs[1].contains("colors"), "{errs:?}");
        assert!(errs[2].starts_with("catalog line 4:") && errs[2].contains("5 fields"), "{errs:?}");
        assert!(errs[3].starts_with("catalog line 5:"), "{errs:?}");
        assert!(errs[4].starts_with("catalog line 6:") && errs[4].contains("twice"), "{errs:?}");
    }

    #[test]
    fn a_catalog_too_small_for_six_slots_is_refused() {
        let errs = parse_catalog("a | A | B *2 2 | - | -").unwrap_err();
        assert!(errs[0].contains("at least 6"), "{errs:?}");
    }

    #[test]
    fn the_builtin_catalog_is_parsed_once_and_shared() {
        let copy = ILLUSTRATIVE.to_string();
        let (a, b) = match (cards(ILLUSTRATIVE), cards(&copy)) {
            (Ok(a), Ok(b)) => (a, b),
            other => panic!("the built-in catalog must parse: {other:?}"),
        };
        assert!(Arc::ptr_eq(&a, &b), "a copy of the built-in text reuses its parse");
        let fresh = parse_full_catalog(ILLUSTRATIVE).unwrap_or_default();
        assert_eq!((fresh.enemies, fresh.chariots), (a.enemies.clone(), a.chariots.clone()));
        let text = "a | A | B *2 2 | - | -\nb | B | B *2 2 | - | -\nc | C | B *2 2 | - | -\n\
                    d | D | B *2 2 | - | -\ne | E | B *2 2 | - | -\nf | F | B *2 2 | - | -";
        assert_eq!(cards(text).map(|c| c.enemies.len()), Ok(6));
        assert!(cards("a | A | nonsense").is_err());
    }

    #[test]
    fn a_track_round_trips_through_its_text() {
        let e = parse_line("x | X | B 2 *3b 2gy | 4 | Hits hard").unwrap_or_else(|m| panic!("{m}"));
        assert_eq!(e.track_text(), "B 2 *3b 2gy");
        assert_eq!((e.start, e.top(), e.icon), (2, 3, Some(4)));
        assert_eq!(e.ability.as_deref(), Some("Hits hard"));
    }
}
