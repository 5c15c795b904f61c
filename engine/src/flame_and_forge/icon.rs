//! The action icons ("Actions Overview") in the kit's declarative effect form: what a city
//! spot, a player-board spot, a special dwarf, a challenge card, an advanced token or a
//! dragonslayer card does, one icon at a time, left to right.
//!
//! Catalog words (the book's icon in brackets): `gem y|b|r` (gem), `heart`, `heal N` (the
//! Guardian's +3), `burst`, `tankard` (retire), `anvil` (forge), `research`, `bow`
//! (challenge), `upgrade`, `extinguish` (grey fire), `douse N` (the Warrior's fires),
//! `footprint`, `haste` (grey meeple), `axe`, `frenzy` (Battle Frenzy), `pay y|b|r` (gem
//! exchange), `forge-free N` (a Relics reward: a free forge with N multicolour gems), and
//! `wait ICON` (the hourglass: a pending action). Card text the form has no words for is
//! `text ...`, reported unverified where it is resolved.

use crate::kit::effect::{self, args, Vocabulary};
use crate::kit::named::named_enum;
use crate::kit::words::Words;
use serde::{Deserialize, Serialize};
use std::fmt;

named_enum! {
    /// A gem colour.
    pub enum Gem ("a gem") { Y = "y", B = "b", R = "r" }
}

/// One icon.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Icon {
    Gem(Gem),
    Heal(u8),
    Burst,
    Tankard,
    Anvil,
    Research,
    Bow,
    Upgrade,
    Extinguish,
    Douse(u8),
    Footprint,
    Haste,
    Axe,
    Frenzy,
    Pay(Gem),
    ForgeFree(u8),
    /// Card text the form cannot express: an index into the catalog's texts.
    Text(u16),
}

/// An icon as printed: the icon, and whether it bears the hourglass (pending).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sym {
    pub icon: Icon,
    pub wait: bool,
}

impl fmt::Display for Icon {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Icon::Gem(g) => write!(f, "gem {g}"),
            Icon::Heal(1) => f.write_str("heart"),
            Icon::Heal(n) => write!(f, "heal {n}"),
            Icon::Burst => f.write_str("burst"),
            Icon::Tankard => f.write_str("tankard"),
            Icon::Anvil => f.write_str("anvil"),
            Icon::Research => f.write_str("research"),
            Icon::Bow => f.write_str("bow"),
            Icon::Upgrade => f.write_str("upgrade"),
            Icon::Extinguish => f.write_str("extinguish"),
            Icon::Douse(n) => write!(f, "douse {n}"),
            Icon::Footprint => f.write_str("footprint"),
            Icon::Haste => f.write_str("haste"),
            Icon::Axe => f.write_str("axe"),
            Icon::Frenzy => f.write_str("frenzy"),
            Icon::Pay(g) => write!(f, "pay {g}"),
            Icon::ForgeFree(n) => write!(f, "forge-free {n}"),
            Icon::Text(i) => write!(f, "text #{i}"),
        }
    }
}

impl fmt::Display for Sym {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.wait {
            f.write_str("wait ")?;
        }
        write!(f, "{}", self.icon)
    }
}

fn small(w: &mut Words<'_>) -> Result<u8, String> {
    let n = args::number(w)?;
    u8::try_from(n).ok().filter(|&n| (1..=9).contains(&n)).ok_or_else(|| format!("a number 1-9, found {n}"))
}

impl Vocabulary for Sym {
    const VERBS: &'static str =
        "gem, heart, heal, burst, tankard, anvil, research, bow, upgrade, extinguish, \
                                 douse, footprint, haste, axe, frenzy, pay, forge-free, wait";
    fn read(verb: &str, w: &mut Words<'_>) -> Result<Option<Sym>, String> {
        if verb == "wait" {
            let inner = w.word("an icon").map_err(|_| "an icon after `wait`".to_string())?;
            return match Sym::read(inner, w)? {
                Some(Sym { wait: false, icon }) => Ok(Some(Sym { icon, wait: true })),
                Some(_) => Err("one `wait`".into()),
                None => Err(format!("an icon ({}), found `{inner}`", Self::VERBS)),
            };
        }
        let icon = match verb {
            "gem" => Icon::Gem(args::named(w)?),
            "heart" => Icon::Heal(1),
            "heal" => Icon::Heal(small(w)?),
            "burst" => Icon::Burst,
            "tankard" => Icon::Tankard,
            "anvil" => Icon::Anvil,
            "research" => Icon::Research,
            "bow" => Icon::Bow,
            "upgrade" => Icon::Upgrade,
            "extinguish" => Icon::Extinguish,
            "douse" => Icon::Douse(small(w)?),
            "footprint" => Icon::Footprint,
            "haste" => Icon::Haste,
            "axe" => Icon::Axe,
            "frenzy" => Icon::Frenzy,
            "pay" => Icon::Pay(args::named(w)?),
            "forge-free" => Icon::ForgeFree(small(w)?),
            _ => return Ok(None),
        };
        Ok(Some(Sym { icon, wait: false }))
    }
}

/// Where a list of icons is printed, for what the catalog may put there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// A city spot, a board spot, a special dwarf, a token or a dragonslayer card.
    Action,
    /// A challenge card (starting card, item, monster): Frenzy and the hourglass too.
    Card,
}

/// Read a comma-separated icon list (`axe, frenzy, wait anvil`, `-` for none); card text
/// `text ...` runs to the end of the line and is kept in `texts`.
pub fn parse_list(text: &str, place: Place, texts: &mut Vec<String>) -> Result<Vec<Sym>, String> {
    let text = text.trim();
    if text == "-" {
        return Ok(Vec::new());
    }
    let (icons, free) = match text.find("text ") {
        Some(0) => ("", Some(&text[5..])),
        Some(at) if text[..at].trim_end().ends_with(',') => {
            (text[..at].trim_end().trim_end_matches(','), Some(&text[at + 5..]))
        }
        _ => (text, None),
    };
    let mut out = Vec::new();
    for part in icons.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let sym: Sym = effect::parse(part)?;
        let applies = match sym.icon {
            Icon::Frenzy => place == Place::Card,
            Icon::ForgeFree(_) => false,
            _ => place == Place::Card || !sym.wait,
        };
        let where_ = if place == Place::Card { "a card symbol" } else { "an action" };
        effect::check_place(&sym, applies, where_)?;
        out.push(sym);
    }
    if let Some(free) = free {
        let index = u16::try_from(texts.len()).map_err(|_| "too many texts".to_string())?;
        texts.push(free.trim().to_string());
        out.push(Sym { icon: Icon::Text(index), wait: false });
    }
    if out.is_empty() {
        return Err("an icon list (`-` for none)".into());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn icon_lists_read_and_print() {
        let mut texts = Vec::new();
        let l = parse_list("axe, frenzy, wait gem y, pay r", Place::Card, &mut texts).unwrap();
        assert_eq!(
            l.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
            ["axe", "frenzy", "wait gem y", "pay r"]
        );
        assert!(parse_list("frenzy", Place::Action, &mut texts).unwrap_err().contains("text"));
        assert!(parse_list("wait heart", Place::Action, &mut texts).is_err());
        assert_eq!(parse_list("-", Place::Action, &mut texts).unwrap(), vec![]);
        let l = parse_list("heart, text Draw a card, then smile", Place::Action, &mut texts).unwrap();
        assert_eq!(l[1].icon, Icon::Text(0));
        assert_eq!(texts, ["Draw a card, then smile"]);
        assert!(parse_list("hug", Place::Card, &mut texts).unwrap_err().contains("text ..."));
        assert!(parse_list("heal 12", Place::Card, &mut texts).is_err());
    }
}
