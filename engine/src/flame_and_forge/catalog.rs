//! The catalog: every component the rulebook does not print, as data. Tiles (building and
//! spots, both sides), player boards, challenge cards (starting cards, items, monsters),
//! event and Retaliation cards, the Library's tracks and exchange rules, advanced research
//! tokens, dragonslayer cards and the Dragon. Block format (docs/notation/flame-and-forge.md,
//! "Catalog files"): a header `KIND ID` at the left margin, then indented properties.
//!
//! Every problem of a catalog is reported at once, each with its line.

use super::city::{Territory, Tile, TILES};
use super::icon::{parse_list, Gem, Icon, Place, Sym};
use super::label::Label;
use crate::kit::catalog::{lines, refer, Id, Line, Problems, Table};
use crate::kit::named::named_enum;
use crate::kit::words::Words;

named_enum! {
    /// A dwarf: the plain one or one of the five special dwarfs.
    pub enum Dwarf ("a dwarf") {
        Plain = "dwarf", Guardian = "guardian", Alchemist = "alchemist",
        Dragonrider = "dragonrider", Warrior = "warrior", King = "king"
    }
}
named_enum! {
    /// A research subject.
    pub enum Subject ("a subject") { Legends = "legends", Relics = "relics", Healing = "healing" }
}
named_enum! {
    /// What a card of the challenge deck is.
    pub enum CardKind ("a card kind") { Starting = "starting", Item = "item", Monster = "monster" }
}
named_enum! {
    /// Event card types: Standard ("Stare"), Treasure, Danger.
    pub enum EventKind ("an event type") { S = "S", T = "T", D = "D" }
}

/// A challenge card: a starting card, an item or a monster.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Card {
    pub kind: CardKind,
    pub vp: u8,
    pub symbols: Vec<Sym>,
    /// An item's forging cost.
    pub cost: Vec<Gem>,
    /// A monster's strength: the successes that beat it.
    pub strength: u8,
}
pub type CardId = Id<Card>;

/// A player board side.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Board {
    /// The Regroup spots, left to right.
    pub regroup: Vec<Vec<Sym>>,
    /// Each special dwarf's bonus action (indexed by `Dwarf`; the plain dwarf has none).
    pub specials: [Vec<Sym>; 6],
    /// The special dwarfs that may raid any tile of the next line (the Miner's Dragonrider).
    pub riders: Vec<Dwarf>,
}
pub type BoardId = Id<Board>;

/// A tile's side: its spots left to right, each a list of icons (none for a blank spot).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Side {
    pub spots: Vec<Vec<Sym>>,
}

/// A city tile of the scenario.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TileDef {
    /// Index into `Catalog::buildings`.
    pub building: u8,
    pub front: Side,
    pub scorched: Side,
}

/// An event's discard condition.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Condition {
    Gem(Gem),
    Win,
}

/// What an event action targets in its territory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    Building(u8),
    Monster,
}

/// An icon of an event action.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EventIcon {
    Fire,
    Gem(Gem),
    Text(u16),
}

/// One action of an event card.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventAction {
    /// The Event Counter range (`hi` 255 for `N+`).
    pub lo: u8,
    pub hi: u8,
    /// `None`: any territory (no diamond).
    pub territory: Option<Territory>,
    pub target: Target,
    pub icons: Vec<EventIcon>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventCard {
    pub kind: EventKind,
    pub discard: Condition,
    pub actions: Vec<EventAction>,
}
pub type EventId = Id<EventCard>;

/// What a Retaliation card places, relative to its territory (row 1 or 2, position).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RetItem {
    Fire(u8, u8),
    Gem(Gem, u8, u8),
    Text(u16),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RetCard {
    /// A Sleeping Dragon card (Scenario 01), not one of the Dragon cards.
    pub sleeping: bool,
    pub monster: (u8, u8),
    pub items: Vec<RetItem>,
}
pub type RetId = Id<RetCard>;

/// What reaching a Library level gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reward {
    None,
    Upgrade,
    ForgeFree(u8),
    /// Retreats heal this much from now on (the top one counts).
    Campfire(u8),
}

/// A level of a research subject (the first is where book tokens start).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Level {
    pub cost: Option<Gem>,
    pub vp: u8,
    pub reward: Reward,
}

/// A gem exchange rule of the Library: `give` (sorted) for one `get`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Exchange {
    pub give: Vec<Gem>,
    pub get: Gem,
}

impl Exchange {
    /// `y+b->r`.
    pub fn parse(word: &str) -> Option<Exchange> {
        let (give, get) = word.split_once("->")?;
        let mut gems: Vec<Gem> = give.split('+').map(Gem::parse).collect::<Option<_>>()?;
        gems.sort_unstable();
        (!gems.is_empty()).then_some(())?;
        Some(Exchange { give: gems, get: Gem::parse(get)? })
    }
}

impl std::fmt::Display for Exchange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let give: Vec<&str> = self.give.iter().map(|g| g.name()).collect();
        write!(f, "{}->{}", give.join("+"), self.get)
    }
}

/// An advanced research token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    pub subject: Subject,
    /// Added to the retreat heal while active.
    pub campfire: u8,
    /// What using it does (flipped face down).
    pub effect: Vec<Sym>,
    /// When it may be used: card text, reported unverified when used.
    pub when: Option<u16>,
}
pub type TokenId = Id<Token>;

/// A dragonslayer card (Pack A): what it gives the active player.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Slayer {
    pub effect: Vec<Sym>,
}
pub type SlayerId = Id<Slayer>;

/// The Dragon of a scenario.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Dragon {
    pub strength: u8,
    pub vp: u8,
}

/// Scenario 01's components.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scenario01 {
    pub dragon: Dragon,
    /// The Sleeping Dragon cards put on top of the Retaliation deck.
    pub sleeping: Vec<RetId>,
    /// Well Rested: the Healing level the slot is ("slot 4") and its heal.
    pub rested_level: u8,
    pub rested_heal: u8,
}

/// A whole catalog.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Catalog {
    pub buildings: Vec<String>,
    pub tiles: Vec<TileDef>,
    pub boards: Table<Board>,
    pub cards: Table<Card>,
    /// Every player's 7 starting cards.
    pub gang: Vec<CardId>,
    pub events: Table<EventCard>,
    pub retaliations: Table<RetCard>,
    pub library: [Vec<Level>; 3],
    pub exchanges: Vec<Exchange>,
    pub tokens: Table<Token>,
    pub slayers: Table<Slayer>,
    pub dragon: Dragon,
    pub scenario01: Scenario01,
    /// The Supply: gems by colour, then fire tokens (the box's, Game Contents, unless the
    /// catalog says otherwise).
    pub supply: [u8; 3],
    pub fire: u8,
    /// Card text the icon form cannot express, by `Icon::Text` index.
    pub texts: Vec<String>,
    /// Names looked up by the label an event carries (derived from the tables).
    pub names: Names,
    /// The tiles of each building, by `Catalog::buildings` index (derived from the tiles).
    pub building_tiles: Vec<u32>,
    /// The cards each deck is made of (derived from the tables).
    pub pools: Pools,
}

/// The ids each deck is made of, sorted (derived once from the tables, so a table is set
/// up without searching them).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Pools {
    /// The monsters worth 1 VP, then those worth 2.
    pub monsters: [Vec<CardId>; 2],
    pub items: Vec<CardId>,
    /// By `EventKind` index.
    pub events: [Vec<EventId>; 3],
    /// The Retaliation cards that are not Sleeping Dragon cards.
    pub dragon: Vec<RetId>,
    /// The advanced research tokens, by `Subject` index.
    pub tokens: [Vec<TokenId>; 3],
    pub slayers: Vec<SlayerId>,
}

impl Pools {
    fn of(
        cards: &Table<Card>,
        events: &Table<EventCard>,
        rets: &Table<RetCard>,
        tokens: &Table<Token>,
        slayers: &Table<Slayer>,
    ) -> Pools {
        let monsters = |vp: u8| {
            cards
                .iter()
                .filter(|(_, _, k)| k.kind == CardKind::Monster && k.vp == vp)
                .map(|(id, _, _)| id)
                .collect()
        };
        Pools {
            monsters: [monsters(1), monsters(2)],
            items: cards.iter().filter(|(_, _, k)| k.kind == CardKind::Item).map(|(id, _, _)| id).collect(),
            events: [EventKind::S, EventKind::T, EventKind::D]
                .map(|kind| events.iter().filter(|(_, _, e)| e.kind == kind).map(|(id, _, _)| id).collect()),
            dragon: rets.iter().filter(|(_, _, r)| !r.sleeping).map(|(id, _, _)| id).collect(),
            tokens: [Subject::Legends, Subject::Relics, Subject::Healing]
                .map(|sub| tokens.iter().filter(|(_, _, t)| t.subject == sub).map(|(id, _, _)| id).collect()),
            slayers: slayers.iter().map(|(id, _, _)| id).collect(),
        }
    }
}

/// Ids by the label an event names them with: an open-addressing hash table of the labels'
/// bytes as integers (the step resolves a label per reveal; a binary search over the sorted
/// keys cost about 80 instructions a lookup, the hash one probe or two).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Lookup {
    /// A power of two of slots (at least twice the labels), `(0, _)` empty: a label is never
    /// empty, so its key is never 0.
    slots: Vec<(u128, u16)>,
    /// `64 - log2(slots.len())`: the hash's top bits index the table.
    shift: u32,
}

impl Lookup {
    fn of<T>(table: &Table<T>) -> Lookup {
        let mut keys: Vec<(u128, u16)> = table
            .iter()
            .filter_map(|(id, name, _)| Some((Label::new(name)?.key(), id.index() as u16)))
            .collect();
        keys.sort_unstable();
        let bits = (keys.len() * 2).max(2).next_power_of_two().trailing_zeros();
        let mut lookup = Lookup { slots: vec![(0, 0); 1 << bits], shift: 64 - bits };
        for &(key, _) in &keys {
            // A label named twice keeps the id the sorted keys' binary search gave it.
            let Ok(i) = keys.binary_search_by_key(&key, |&(k, _)| k) else { continue };
            let mut at = lookup.home(key);
            loop {
                match lookup.slots[at] {
                    (0, _) => {
                        lookup.slots[at] = keys[i];
                        break;
                    }
                    (k, _) if k == key => break,
                    _ => at = (at + 1) & (lookup.slots.len() - 1),
                }
            }
        }
        lookup
    }
    /// The slot a key's probe starts at.
    fn home(&self, key: u128) -> usize {
        let folded = (key as u64) ^ ((key >> 64) as u64);
        (folded.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize
    }
    /// The id a label names (`None`: nothing by that name).
    pub fn get<T>(&self, label: Label) -> Option<Id<T>> {
        let key = label.key();
        if self.slots.is_empty() {
            return None;
        }
        let mask = self.slots.len() - 1;
        let mut at = self.home(key);
        loop {
            let (k, id) = self.slots[at];
            // Empty first: a key of 0 (no label has one) is then never found.
            if k == 0 {
                return None;
            }
            if k == key {
                return Some(Id::new(id));
            }
            at = (at + 1) & mask;
        }
    }
}

/// The lookups of the tables an event names entries of.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Names {
    pub cards: Lookup,
    pub events: Lookup,
    pub retaliations: Lookup,
    pub slayers: Lookup,
    pub tokens: Lookup,
    pub boards: Lookup,
    /// Each card's and each event card's name as a label, by id (`Label::UNKNOWN` for a
    /// name that is not one): a Horde or an event discard the step checks carries one, and
    /// parsing the name again for every check cost about 100 instructions.
    pub card_labels: Vec<Label>,
    pub event_labels: Vec<Label>,
}

impl Names {
    /// A card's label (`Label::UNKNOWN` for an id the catalog has no entry for).
    pub fn card_label(&self, id: CardId) -> Label {
        self.card_labels.get(id.index()).copied().unwrap_or(Label::UNKNOWN)
    }
    /// An event card's label (`Label::UNKNOWN` for an id the catalog has no entry for).
    pub fn event_label(&self, id: EventId) -> Label {
        self.event_labels.get(id.index()).copied().unwrap_or(Label::UNKNOWN)
    }
}

/// The labels of a table's names, by id.
fn labels<T>(table: &Table<T>) -> Vec<Label> {
    table.names().map(|name| Label::new(name).unwrap_or(Label::UNKNOWN)).collect()
}

/// One block: its header and its indented property lines.
struct Block<'a> {
    kind: &'a str,
    id: &'a str,
    line: Line<'a>,
    props: Vec<Line<'a>>,
}

fn blocks(text: &str) -> Vec<Block<'_>> {
    let mut out: Vec<Block<'_>> = Vec::new();
    for line in lines(text) {
        if line.indented {
            if let Some(b) = out.last_mut() {
                b.props.push(line);
                continue;
            }
        }
        let mut w = line.text.split_whitespace();
        let kind = w.next().unwrap_or("");
        let id = w.next().unwrap_or("");
        out.push(Block { kind, id, line, props: Vec::new() });
    }
    out
}

fn number(word: &str, max: u8) -> Result<u8, String> {
    word.parse::<u8>().ok().filter(|&n| n <= max).ok_or_else(|| format!("a number 0-{max}, found `{word}`"))
}

fn position(word: &str) -> Result<(u8, u8), String> {
    let mut c = word.chars();
    let row = match c.next() {
        Some('1') => 1,
        Some('2') => 2,
        _ => 0,
    };
    let pos = c.next().filter(|p| p.is_ascii_lowercase()).map(|p| p as u8 - b'a');
    match (row, pos, c.next()) {
        (1, Some(p), None) if p < 4 => Ok((1, p)),
        (2, Some(p), None) if p < 3 => Ok((2, p)),
        _ => Err(format!("a position in the territory (1a-1d, 2a-2c), found `{word}`")),
    }
}

/// Everything read so far, and the cross-references still to check.
struct Reader {
    p: Problems,
    texts: Vec<String>,
    buildings: Vec<String>,
    tiles: Vec<Option<TileDef>>,
    boards: Table<Board>,
    cards: Table<Card>,
    gang: Vec<(usize, String)>,
    events: Table<EventCard>,
    retaliations: Table<RetCard>,
    library: [Vec<Level>; 3],
    exchanges: Vec<Exchange>,
    tokens: Table<Token>,
    slayers: Table<Slayer>,
    dragon: Option<Dragon>,
    s01: Option<(Dragon, Vec<String>, u8, u8)>,
    supply: ([u8; 3], u8),
}

impl Reader {
    fn icons(&mut self, line: &Line<'_>, text: &str, place: Place) -> Vec<Sym> {
        let r = parse_list(text, place, &mut self.texts);
        self.p.check(line.number, r).unwrap_or_default()
    }

    fn building(&mut self, name: &str) -> u8 {
        match self.buildings.iter().position(|b| b == name) {
            Some(i) => i as u8,
            None => {
                self.buildings.push(name.to_string());
                (self.buildings.len() - 1) as u8
            }
        }
    }

    fn unknown(&mut self, line: &Line<'_>, what: &str) {
        self.p.at(line.number, format!("unknown {what} `{}`", line.head()));
    }

    fn tile(&mut self, b: &Block<'_>) {
        let Some(tile) = Tile::parse(b.id).filter(|t| !t.is_castle()) else {
            return self.p.at(b.line.number, format!("a city tile (O1a-W2c), found `{}`", b.id));
        };
        let mut def = TileDef::default();
        let mut building = None;
        let mut scorched_given = false;
        for prop in &b.props {
            match prop.head() {
                "building" => building = Some(self.building(prop.rest())),
                "spot" => {
                    let s = self.icons(prop, prop.rest(), Place::Action);
                    def.front.spots.push(s);
                }
                "scorched-spot" => {
                    scorched_given = true;
                    let s = self.icons(prop, prop.rest(), Place::Action);
                    def.scorched.spots.push(s);
                }
                _ => self.unknown(prop, "tile property (building, spot, scorched-spot)"),
            }
        }
        match building {
            Some(bd) => def.building = bd,
            None => self.p.at(b.line.number, format!("tile {} has no building", b.id)),
        }
        if def.front.spots.is_empty() {
            self.p.at(b.line.number, format!("tile {} has no spot", b.id));
        }
        if !scorched_given {
            // The scorched side's spots are not printed: as many, with no action.
            def.scorched.spots = vec![Vec::new(); def.front.spots.len()];
        }
        if self.tiles[tile.index()].replace(def).is_some() {
            self.p.at(b.line.number, format!("tile {} is defined twice", b.id));
        }
    }

    fn board(&mut self, b: &Block<'_>) {
        let mut board = Board::default();
        for prop in &b.props {
            match prop.head() {
                "spot" => {
                    let s = self.icons(prop, prop.rest(), Place::Action);
                    board.regroup.push(s);
                }
                "special" => {
                    let mut w = Words::new(prop.rest());
                    match w.named::<Dwarf>() {
                        Ok(Dwarf::Plain) | Err(_) => self.p.at(
                            prop.number,
                            "a special dwarf (guardian, alchemist, dragonrider, warrior, king)",
                        ),
                        Ok(d) => {
                            let s = self.icons(prop, w.rest(), Place::Action);
                            board.specials[d.index()] = s;
                        }
                    }
                }
                "rider" => match Dwarf::parse(prop.rest()) {
                    Some(d) if d != Dwarf::Plain => board.riders.push(d),
                    _ => self.p.at(prop.number, format!("a special dwarf, found `{}`", prop.rest())),
                },
                _ => self.unknown(prop, "board property (spot, special, rider)"),
            }
        }
        if board.regroup.is_empty() {
            self.p.at(b.line.number, format!("board {} has no regroup spot", b.id));
        }
        let r = self.boards.insert(b.id, board).map(|_| ());
        self.p.check(b.line.number, r);
    }

    fn card(&mut self, b: &Block<'_>, kind: CardKind) {
        let mut card = Card { kind, vp: 0, symbols: Vec::new(), cost: Vec::new(), strength: 0 };
        for prop in &b.props {
            match (prop.head(), kind) {
                ("vp", _) => card.vp = self.p.check(prop.number, number(prop.rest(), 99)).unwrap_or(0),
                ("symbols", _) => {
                    let s = self.icons(prop, prop.rest(), Place::Card);
                    card.symbols.extend(s);
                }
                ("cost", CardKind::Item) => {
                    let gems: Result<Vec<Gem>, String> =
                        prop.rest().split_whitespace().map(|g| g.parse::<Gem>()).collect();
                    card.cost = self.p.check(prop.number, gems).unwrap_or_default();
                }
                ("strength", CardKind::Monster) => {
                    card.strength = self.p.check(prop.number, number(prop.rest(), 99)).unwrap_or(1)
                }
                _ => self.unknown(prop, &format!("{} property", kind.name())),
            }
        }
        match kind {
            CardKind::Item if card.cost.is_empty() => {
                self.p.at(b.line.number, format!("item {} has no cost", b.id))
            }
            CardKind::Monster if !(1..=2).contains(&card.vp) => {
                self.p.at(b.line.number, format!("monster {} must be worth 1 or 2 VP", b.id))
            }
            CardKind::Monster if card.strength == 0 => {
                self.p.at(b.line.number, format!("monster {} has no strength", b.id))
            }
            _ => {}
        }
        let r = self.cards.insert(b.id, card).map(|_| ());
        self.p.check(b.line.number, r);
    }

    fn event(&mut self, b: &Block<'_>) {
        let mut kind = None;
        let mut discard = None;
        let mut actions = Vec::new();
        for prop in &b.props {
            match prop.head() {
                "type" => kind = self.p.check(prop.number, prop.rest().parse::<EventKind>()),
                "discard" => {
                    discard = match prop.rest() {
                        "win" => Some(Condition::Win),
                        g => self.p.check(prop.number, g.parse::<Gem>().map(Condition::Gem)),
                    }
                }
                "action" => {
                    if let Some(a) = self.event_action(prop) {
                        actions.push(a);
                    }
                }
                _ => self.unknown(prop, "event property (type, discard, action)"),
            }
        }
        let (Some(kind), Some(discard)) = (kind, discard) else {
            return self.p.at(b.line.number, format!("event {} needs a type and a discard condition", b.id));
        };
        if actions.is_empty() {
            self.p.at(b.line.number, format!("event {} has no action", b.id));
        }
        let r = self.events.insert(b.id, EventCard { kind, discard, actions }).map(|_| ());
        self.p.check(b.line.number, r);
    }

    /// `action 1-2 outskirts tavern fire, gem y` / `action 5+ any monster fire`.
    fn event_action(&mut self, prop: &Line<'_>) -> Option<EventAction> {
        let mut w = prop.rest().splitn(4, char::is_whitespace);
        let (range, territory, target, icons) =
            (w.next()?, w.next().unwrap_or(""), w.next().unwrap_or(""), w.next());
        let range = match range.strip_suffix('+') {
            Some(lo) => lo.parse::<u8>().ok().map(|lo| (lo, 255)),
            None => range.split_once('-').and_then(|(a, b)| Some((a.parse().ok()?, b.parse().ok()?))),
        };
        let Some((lo, hi)) = range.filter(|(lo, hi)| lo <= hi && *lo >= 1) else {
            self.p.at(prop.number, "an Event Counter range like 1-2 or 5+");
            return None;
        };
        let territory = match territory {
            "any" => None,
            t => match Territory::parse(t) {
                Some(t) => Some(t),
                None => {
                    self.p.at(prop.number, format!("a territory or `any`, found `{t}`"));
                    return None;
                }
            },
        };
        let target = match target {
            "" => {
                self.p.at(prop.number, "a building or `monster`");
                return None;
            }
            "monster" => Target::Monster,
            b => Target::Building(self.building(b)),
        };
        let mut list = Vec::new();
        let icons = icons.unwrap_or("").trim();
        let (icons, text) = match icons.find("text ") {
            Some(at) => (icons[..at].trim_end().trim_end_matches(','), Some(&icons[at + 5..])),
            None => (icons, None),
        };
        for part in icons.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let mut w = Words::new(part);
            let icon = match w.word("") {
                Ok("fire") => Some(EventIcon::Fire),
                Ok("gem") => w.named::<Gem>().ok().map(EventIcon::Gem),
                _ => None,
            };
            match icon.filter(|_| w.at_end()) {
                Some(i) => list.push(i),
                None => self
                    .p
                    .at(prop.number, format!("an event icon (fire, gem y|b|r, text ...), found `{part}`")),
            }
        }
        if let Some(text) = text {
            list.push(EventIcon::Text(self.texts.len() as u16));
            self.texts.push(text.trim().to_string());
        }
        if list.is_empty() {
            self.p.at(prop.number, "an event action with no icon");
        }
        Some(EventAction { lo, hi, territory, target, icons: list })
    }

    fn retaliation(&mut self, b: &Block<'_>) {
        let mut card = RetCard { sleeping: false, monster: (0, 0), items: Vec::new() };
        let mut monster = false;
        for prop in &b.props {
            match prop.head() {
                "sleeping" => card.sleeping = true,
                "monster" => {
                    if let Some(p) = self.p.check(prop.number, position(prop.rest())) {
                        card.monster = p;
                        monster = true;
                    }
                }
                "fire" => {
                    for w in prop.rest().split_whitespace() {
                        if let Some((r, c)) = self.p.check(prop.number, position(w)) {
                            card.items.push(RetItem::Fire(r, c));
                        }
                    }
                }
                "gem" => {
                    let mut w = prop.rest().split_whitespace();
                    let gem = self.p.check(prop.number, w.next().unwrap_or("").parse::<Gem>());
                    for at in w {
                        if let (Some(g), Some((r, c))) = (gem, self.p.check(prop.number, position(at))) {
                            card.items.push(RetItem::Gem(g, r, c));
                        }
                    }
                }
                "text" => {
                    card.items.push(RetItem::Text(self.texts.len() as u16));
                    self.texts.push(prop.rest().to_string());
                }
                _ => self.unknown(prop, "retaliation property (sleeping, monster, fire, gem, text)"),
            }
        }
        if !monster {
            self.p.at(b.line.number, format!("retaliation {} places no monster", b.id));
        }
        let r = self.retaliations.insert(b.id, card).map(|_| ());
        self.p.check(b.line.number, r);
    }

    /// `track legends` with `level N [cost G] vp V [upgrade|forge-free N|campfire N]` lines.
    fn track(&mut self, b: &Block<'_>) {
        let Some(subject) = Subject::parse(b.id) else {
            return self.p.at(
                b.line.number,
                format!("{}, found `{}`", <Subject as crate::kit::Named>::expected(), b.id),
            );
        };
        let mut levels = Vec::new();
        for prop in &b.props {
            if prop.head() != "level" {
                self.unknown(prop, "track property (level)");
                continue;
            }
            match Self::level(prop.rest(), levels.len() + 1) {
                Ok(l) => levels.push(l),
                Err(e) => self.p.at(prop.number, e),
            }
        }
        if levels.len() < 2 {
            self.p.at(b.line.number, format!("track {} needs at least 2 levels", b.id));
        }
        if levels.first().is_some_and(|l| l.cost.is_some()) {
            self.p.at(b.line.number, "a track's first level (where book tokens start) has no cost");
        }
        if levels.iter().skip(1).any(|l| l.cost.is_none()) {
            self.p.at(b.line.number, "every level above the first has a funding cost");
        }
        self.library[subject.index()] = levels;
    }

    fn level(text: &str, expected: usize) -> Result<Level, String> {
        let mut w = Words::new(text);
        let n: usize = w.number("a level number").map_err(|e| e.to_string())?;
        if n != expected {
            return Err(format!("level {expected} next, found level {n}"));
        }
        let mut level = Level { cost: None, vp: 0, reward: Reward::None };
        while let Some(word) = w.peek() {
            w.skip();
            let value = |w: &mut Words<'_>| w.number_in(0..=99u8, "a number").map_err(|e| e.to_string());
            match word {
                "cost" => level.cost = Some(w.named::<Gem>().map_err(|e| e.to_string())?),
                "vp" => level.vp = value(&mut w)?,
                "upgrade" => level.reward = Reward::Upgrade,
                "forge-free" => level.reward = Reward::ForgeFree(value(&mut w)?),
                "campfire" => level.reward = Reward::Campfire(value(&mut w)?),
                other => return Err(format!("cost, vp, upgrade, forge-free or campfire, found `{other}`")),
            }
        }
        Ok(level)
    }

    fn token(&mut self, b: &Block<'_>) {
        let mut token = Token { subject: Subject::Legends, campfire: 0, effect: Vec::new(), when: None };
        let mut subject = false;
        for prop in &b.props {
            match prop.head() {
                "subject" => {
                    if let Some(s) = self.p.check(prop.number, prop.rest().parse::<Subject>()) {
                        token.subject = s;
                        subject = true;
                    }
                }
                "campfire" => token.campfire = self.p.check(prop.number, number(prop.rest(), 9)).unwrap_or(0),
                "use" => token.effect = self.icons(prop, prop.rest(), Place::Action),
                "when" => {
                    token.when = Some(self.texts.len() as u16);
                    self.texts.push(prop.rest().to_string());
                }
                _ => self.unknown(prop, "token property (subject, campfire, use, when)"),
            }
        }
        if !subject {
            self.p.at(b.line.number, format!("token {} has no subject", b.id));
        }
        let r = self.tokens.insert(b.id, token).map(|_| ());
        self.p.check(b.line.number, r);
    }

    fn dragon(&mut self, b: &Block<'_>) -> Dragon {
        let mut d = Dragon { strength: 0, vp: 0 };
        for prop in &b.props {
            match prop.head() {
                "strength" => d.strength = self.p.check(prop.number, number(prop.rest(), 99)).unwrap_or(1),
                "vp" => d.vp = self.p.check(prop.number, number(prop.rest(), 99)).unwrap_or(0),
                "sleeping" | "well-rested" => {}
                _ => self.unknown(prop, "dragon property (strength, vp)"),
            }
        }
        if d.strength == 0 {
            self.p.at(b.line.number, "the Dragon needs a strength");
        }
        d
    }
}

/// Parse a catalog, reporting every problem at once.
pub fn parse_catalog(text: &str) -> Result<Catalog, Vec<String>> {
    let mut r = Reader {
        p: Problems::new(),
        texts: Vec::new(),
        buildings: Vec::new(),
        tiles: vec![None; TILES],
        boards: Table::default(),
        cards: Table::default(),
        gang: Vec::new(),
        events: Table::default(),
        retaliations: Table::default(),
        library: [Vec::new(), Vec::new(), Vec::new()],
        exchanges: Vec::new(),
        tokens: Table::default(),
        slayers: Table::default(),
        dragon: None,
        s01: None,
        supply: ([25, 20, 16], 25),
    };
    for b in blocks(text) {
        let named = matches!(
            b.kind,
            "board" | "starting" | "item" | "monster" | "event" | "retaliation" | "token" | "slayer"
        );
        if named && (b.id.len() > 16 || !crate::kit::words::is_id(b.id)) {
            r.p.at(
                b.line.number,
                format!("an id of at most 16 letters, digits, `-` or `_`, found `{}`", b.id),
            );
        }
        match b.kind {
            "tile" => r.tile(&b),
            "board" => r.board(&b),
            "starting" => r.card(&b, CardKind::Starting),
            "item" => r.card(&b, CardKind::Item),
            "monster" => r.card(&b, CardKind::Monster),
            "gang" => {
                for id in b.line.rest().split_whitespace() {
                    r.gang.push((b.line.number, id.to_string()));
                }
            }
            "event" => r.event(&b),
            "retaliation" => r.retaliation(&b),
            "track" => r.track(&b),
            "exchange" => match Exchange::parse(b.id) {
                Some(e) => r.exchanges.push(e),
                None => r.p.at(b.line.number, format!("an exchange like y+b->r, found `{}`", b.id)),
            },
            "token" => r.token(&b),
            "supply" => {
                let mut w = Words::new(b.line.rest());
                while let Some(word) = w.peek() {
                    w.skip();
                    let n = w.number_in(0..=99u8, "a count 0-99");
                    match (word, n) {
                        ("y", Ok(n)) => r.supply.0[0] = n,
                        ("b", Ok(n)) => r.supply.0[1] = n,
                        ("r", Ok(n)) => r.supply.0[2] = n,
                        ("fire", Ok(n)) => r.supply.1 = n,
                        _ => {
                            r.p.at(b.line.number, "supply y N b N r N fire N");
                            break;
                        }
                    }
                }
            }
            "slayer" => {
                let mut effect = Vec::new();
                for prop in &b.props {
                    match prop.head() {
                        "use" => effect = r.icons(prop, prop.rest(), Place::Action),
                        _ => r.unknown(prop, "slayer property (use)"),
                    }
                }
                let res = r.slayers.insert(b.id, Slayer { effect }).map(|_| ());
                r.p.check(b.line.number, res);
            }
            "dragon" => {
                let d = r.dragon(&b);
                if b.id == "01" {
                    let mut sleeping = Vec::new();
                    let mut rested = (4, 2);
                    for prop in &b.props {
                        match prop.head() {
                            "sleeping" => sleeping.extend(prop.rest().split_whitespace().map(String::from)),
                            "well-rested" => {
                                let mut w = Words::new(prop.rest());
                                let level =
                                    w.keyword("healing").and_then(|_| w.number_in(1..=20u8, "a level"));
                                let heal = w.keyword("campfire").and_then(|_| w.number_in(0..=9u8, "a heal"));
                                match (level, heal) {
                                    (Ok(l), Ok(h)) => rested = (l, h),
                                    _ => r.p.at(prop.number, "well-rested healing LEVEL campfire HEAL"),
                                }
                            }
                            _ => {}
                        }
                    }
                    r.s01 = Some((d, sleeping, rested.0, rested.1));
                } else if b.id == "base" {
                    r.dragon = Some(d);
                } else {
                    r.p.at(b.line.number, format!("a dragon for `base` or scenario `01`, found `{}`", b.id));
                }
            }
            other => r.p.at(
                b.line.number,
                format!(
                    "a block kind (tile, board, starting, item, monster, gang, event, retaliation, track, \
                     exchange, token, slayer, dragon, supply), found `{other}`"
                ),
            ),
        }
    }
    // Cross-references and what a game cannot be played without.
    let mut gang = Vec::new();
    for (line, id) in &r.gang {
        match r.cards.id(id) {
            Some(c) if r.cards[c].kind == CardKind::Starting => gang.push(c),
            _ => r.p.at(*line, format!("the gang names `{id}`, which is not a starting card")),
        }
    }
    if gang.len() != 7 {
        r.p.whole(format!("the gang (each player's starting cards) has {} cards, not 7", gang.len()));
    }
    let missing: Vec<String> =
        Tile::all().filter(|t| r.tiles[t.index()].is_none()).map(|t| t.name()).collect();
    if !missing.is_empty() {
        r.p.whole(format!("the city lacks the tiles {}", missing.join(" ")));
    }
    for s in Subject::ALL {
        if r.library[s.index()].is_empty() {
            r.p.whole(format!("the Library has no {} track", s.name()));
        }
    }
    if r.boards.id("miner").is_none() {
        r.p.whole("no `board miner` (the recommended side)");
    }
    let dragon = r.dragon.unwrap_or_else(|| {
        r.p.whole("no `dragon base`");
        Dragon { strength: 1, vp: 0 }
    });
    let (s01_dragon, sleeping_names, rested_level, rested_heal) = r.s01.take().unwrap_or_else(|| {
        r.p.whole("no `dragon 01` (Scenario 01)");
        (dragon, Vec::new(), 4, 2)
    });
    let mut sleeping = Vec::new();
    for name in &sleeping_names {
        if let Some(id) = refer(&r.retaliations, name, "dragon 01", "retaliation card", &mut r.p) {
            sleeping.push(id);
        }
    }
    let (supply, fire) = r.supply;
    let Reader {
        p,
        texts,
        buildings,
        tiles,
        boards,
        cards,
        events,
        retaliations,
        library,
        exchanges,
        tokens,
        slayers,
        ..
    } = r;
    let tiles: Vec<TileDef> = tiles.into_iter().map(Option::unwrap_or_default).collect();
    let mut building_tiles = vec![0u32; buildings.len()];
    for (i, t) in tiles.iter().enumerate() {
        if let Some(m) = building_tiles.get_mut(t.building as usize) {
            *m |= 1 << i;
        }
    }
    let pools = Pools::of(&cards, &events, &retaliations, &tokens, &slayers);
    let names = Names {
        cards: Lookup::of(&cards),
        events: Lookup::of(&events),
        retaliations: Lookup::of(&retaliations),
        slayers: Lookup::of(&slayers),
        tokens: Lookup::of(&tokens),
        boards: Lookup::of(&boards),
        card_labels: labels(&cards),
        event_labels: labels(&events),
    };
    p.finish(Catalog {
        buildings,
        tiles,
        boards,
        cards,
        gang,
        events,
        retaliations,
        library,
        exchanges,
        tokens,
        slayers,
        dragon,
        scenario01: Scenario01 { dragon: s01_dragon, sleeping, rested_level, rested_heal },
        supply,
        fire,
        texts,
        names,
        building_tiles,
        pools,
    })
}

impl Catalog {
    /// The icons of a tile's spot on the side showing.
    pub fn spot(&self, tile: Tile, scorched: bool, spot: usize) -> &[Sym] {
        let Some(def) = self.tiles.get(tile.index()) else { return &[] };
        let side = if scorched { &def.scorched } else { &def.front };
        side.spots.get(spot).map(Vec::as_slice).unwrap_or(&[])
    }
    /// How many spots a tile has on the side showing.
    pub fn spots(&self, tile: Tile, scorched: bool) -> usize {
        self.tiles.get(tile.index()).map_or(0, |d| {
            if scorched {
                d.scorched.spots.len()
            } else {
                d.front.spots.len()
            }
        })
    }
    pub fn building_of(&self, tile: Tile) -> u8 {
        self.tiles.get(tile.index()).map_or(u8::MAX, |d| d.building)
    }
    pub fn text(&self, index: u16) -> &str {
        self.texts.get(index as usize).map(String::as_str).unwrap_or("?")
    }
    /// The level of a subject (1-based), if it exists.
    pub fn level(&self, subject: Subject, level: u8) -> Option<&Level> {
        self.library[subject.index()].get((level as usize).checked_sub(1)?)
    }
    pub fn top_level(&self, subject: Subject) -> u8 {
        self.library[subject.index()].len() as u8
    }
    /// Whether the icons in a list include one of these.
    pub fn has_icon(list: &[Sym], f: impl Fn(Icon) -> bool) -> bool {
        list.iter().any(|s| f(s.icon))
    }
}

/// The shipped illustrative catalog (docs/notation/flame-and-forge.md says what it is shaped to).
/// A static, not a const: one address, so the text `builtin_catalog` hands out is recognised
/// as the built-in catalog without comparing its bytes (`kit::catalog::is_builtin`).
pub static ILLUSTRATIVE: &str = include_str!("../../catalogs/flame-and-forge/illustrative.cat");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_illustrative_catalog_reads() {
        let c = parse_catalog(ILLUSTRATIVE).unwrap_or_else(|e| panic!("{}", e.join("\n")));
        assert_eq!(c.tiles.len(), 21);
        assert_eq!(c.gang.len(), 7);
        assert!(c.cards.iter().filter(|(_, _, k)| k.kind == CardKind::Monster).count() >= 12);
        assert_eq!(c.scenario01.dragon.strength, 12);
        assert_eq!(c.scenario01.sleeping.len(), 3);
    }

    #[test]
    fn every_problem_is_reported_with_its_line() {
        let bad =
            "tile O1a\n  spot hug\nitem sword\n  vp 1\nmonster imp\n  vp 3\nevent e\n  type Q\nfrog x\n";
        let e = parse_catalog(bad).unwrap_err();
        assert!(e.iter().any(|l| l.starts_with("catalog line 2:") && l.contains("text ...")), "{e:#?}");
        assert!(e.iter().any(|l| l.starts_with("catalog line 3:") && l.contains("no cost")), "{e:#?}");
        assert!(e.iter().any(|l| l.starts_with("catalog line 5:") && l.contains("1 or 2 VP")), "{e:#?}");
        assert!(e.iter().any(|l| l.starts_with("catalog line 8:")), "{e:#?}");
        assert!(e.iter().any(|l| l.starts_with("catalog line 9:") && l.contains("block kind")), "{e:#?}");
        assert!(e.iter().any(|l| l.contains("lacks the tiles")), "{e:#?}");
    }
}
