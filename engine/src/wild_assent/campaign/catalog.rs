//! The Encampment's cards: what each building does at each level, and the Workers. The book
//! names the five buildings and a few numbers (the Barracks houses 1 Creature, two Worker
//! slots at first, six at most; a new building costs 2 gold; upgrades 2 and 3 gold); every
//! level-dependent number is on the Encampment board, which the text does not print. They
//! are read from the catalog's `building` and `worker` blocks (docs/notation/wild-assent.md,
//! "Campaign"); the illustrative catalog's are invented and say so.
//!
//! ```text
//! building temple          # per level 1, 2, 3
//!   heal 2 3 4             # healed by one action at the Temple
//!   visitors 1 2 4         # Seekers who may heal there in one Encampment phase
//!   unlock taunt 2         # the Skill needs the Temple at level 2 or above (page 9's diagram)
//! equipment whetstone      # the encounter's block; the campaign reads only `discard`
//!   discard after-encounter  # after-use | after-encounter | never
//! worker blacksmith
//!   cost 1
//!   building workshop
//!   recipe iron-buckler horn 1 blood 1
//!   text Skill: ...        # reported unverified while the Worker serves
//! ```

use super::super::cards::{Catalog as Cards, Resource, Skill};
use crate::kit::catalog::{lines, Id, Line, Problems, Table};
use crate::kit::named::named_enum;

named_enum! {
    /// The Encampment's buildings.
    pub enum Building ("a building") {
        Temple = "temple", Workshop = "workshop", Barracks = "barracks", Den = "seekers-den",
        Pens = "creature-pens"
    }
}

/// What a building gives at levels 1, 2 and 3 (index level - 1).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BuildingCard {
    /// Temple: healed by one action.
    pub heal: [u8; 3],
    /// Temple: Seekers who may heal in one Encampment phase.
    pub visitors: [u8; 3],
    /// Barracks: Worker slots.
    pub slots: [u8; 3],
    /// Barracks: passive healing of every Seeker as the Encampment phase begins.
    pub rest: [u8; 3],
    /// Barracks, Creature Pens: Creatures housed.
    pub housing: [u8; 3],
    /// Seeker's Den: Scout cards drawn beyond the two.
    pub scouts: [u8; 3],
    /// Creature Pens: gold added to each Creature sold.
    pub sell: [u8; 3],
    /// Seeker Skills this building unlocks, each from a level (`unlock SKILL LEVEL`).
    pub unlocks: Vec<(Id<Skill>, u8)>,
    /// Anything the form cannot express (reported unverified while the building stands).
    pub text: Vec<String>,
}

named_enum! {
    /// When an Equipment card leaves the Encampment: "some may be discarded after use (or
    /// after the Encounter)".
    pub enum Discard ("a discard timing (after-use, after-encounter, never)") {
        AfterUse = "after-use", AfterEncounter = "after-encounter", Never = "never"
    }
}

/// A Crafting Recipe: the Equipment card and the Resources it takes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recipe {
    pub equipment: Id<Skill>,
    pub needs: Vec<(Resource, u8)>,
}

/// A Worker card.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Worker {
    pub cost: u8,
    pub building: Building,
    pub recipes: Vec<Recipe>,
    pub text: Vec<String>,
}

/// The Encampment's part of a catalog.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Catalog {
    pub buildings: [BuildingCard; 5],
    pub workers: Table<Worker>,
    /// Equipment cards' discard timings, as far as the catalog states them.
    pub discards: Vec<(Id<Skill>, Discard)>,
}

impl Default for Catalog {
    fn default() -> Self {
        // What the book prints: two Worker slots, one Creature in the Barracks.
        let mut buildings: [BuildingCard; 5] = Default::default();
        buildings[Building::Barracks.index()].slots = [2, 2, 2];
        buildings[Building::Barracks.index()].housing = [1, 1, 1];
        Catalog { buildings, workers: Table::default(), discards: Vec::new() }
    }
}

impl Catalog {
    pub fn building(&self, b: Building) -> &BuildingCard {
        &self.buildings[b.index()]
    }

    /// Whether the catalog transcribes any of the Skill-unlock diagram (`unlock` lines).
    pub fn states_unlocks(&self) -> bool {
        self.buildings.iter().any(|b| !b.unlocks.is_empty())
    }

    /// What a Skill needs: every building and level an `unlock` line names for it (none:
    /// a default Skill, or one the catalog does not state).
    pub fn unlock_needs(&self, skill: Id<Skill>) -> impl Iterator<Item = (Building, u8)> + '_ {
        Building::ALL.iter().flat_map(move |&b| {
            self.building(b).unlocks.iter().filter(move |(k, _)| *k == skill).map(move |&(_, l)| (b, l))
        })
    }

    /// An Equipment card's discard timing, when the catalog states it.
    pub fn discard(&self, card: Id<Skill>) -> Option<Discard> {
        self.discards.iter().find(|(c, _)| *c == card).map(|&(_, d)| d)
    }

    /// Read the `building` and `worker` blocks of a catalog text (the other blocks are the
    /// encounter's); recipes name Equipment cards of `cards`.
    pub fn parse(text: &str, cards: &Cards) -> Result<Catalog, Vec<String>> {
        let mut p = Problems::new();
        let mut cat = Catalog::default();
        let mut block: Option<(Line<'_>, Vec<Line<'_>>)> = None;
        let mut blocks = Vec::new();
        for line in lines(text) {
            if !line.indented {
                blocks.extend(block.take());
                if matches!(line.head(), "building" | "worker" | "equipment") {
                    block = Some((line, Vec::new()));
                }
            } else if let Some((_, props)) = block.as_mut() {
                props.push(line);
            }
        }
        blocks.extend(block.take());
        for (head, props) in &blocks {
            let id = head.rest();
            if head.head() == "equipment" {
                read_discard(head, props, cards, &mut cat.discards, &mut p);
            } else if head.head() == "building" {
                match Building::parse(id) {
                    Some(b) => read_building(&mut cat.buildings[b.index()], props, cards, &mut p),
                    None => p.at(
                        head.number,
                        format!("expected {}", <Building as crate::kit::named::Named>::expected()),
                    ),
                }
            } else {
                let w = read_worker(head, props, cards, &mut p);
                if let Some(w) = w {
                    if let Err(e) = cat.workers.insert(id, w) {
                        p.at(head.number, e);
                    }
                }
            }
        }
        p.finish(cat)
    }
}

/// `heal 2 3 4`: one number per level.
fn levels(line: &Line<'_>, p: &mut Problems) -> [u8; 3] {
    let v: Vec<Option<u8>> = line.rest().split_whitespace().map(|w| w.parse().ok()).collect();
    match v.as_slice() {
        [Some(a), Some(b), Some(c)] => [*a, *b, *c],
        _ => {
            p.at(line.number, format!("`{}` takes three numbers 0-255, one per level", line.head()));
            [0; 3]
        }
    }
}

/// An `equipment` block's `discard` line (its other lines are the encounter's).
fn read_discard(
    head: &Line<'_>,
    props: &[Line<'_>],
    cards: &Cards,
    out: &mut Vec<(Id<Skill>, Discard)>,
    p: &mut Problems,
) {
    let Some(card) = cards.equipment.id(head.rest()) else { return };
    for line in props.iter().filter(|l| l.head() == "discard") {
        match Discard::parse(line.rest()) {
            Some(_) if out.iter().any(|(c, _)| *c == card) => {
                p.at(line.number, format!("`{}` has a second `discard` line", head.rest()))
            }
            Some(d) => out.push((card, d)),
            None => {
                p.at(line.number, format!("expected {}", <Discard as crate::kit::named::Named>::expected()))
            }
        }
    }
}

/// `unlock SKILL LEVEL`: a Skill of the catalog and a level 1-3.
fn read_unlock(line: &Line<'_>, cards: &Cards, p: &mut Problems) -> Option<(Id<Skill>, u8)> {
    let mut words = line.rest().split_whitespace();
    let skill = words.next().and_then(|k| cards.skills.id(k));
    let level = words.next().and_then(|l| l.parse::<u8>().ok()).filter(|l| (1..=3).contains(l));
    match (skill, level, words.next()) {
        (Some(k), Some(l), None) => Some((k, l)),
        _ => {
            p.at(line.number, "`unlock` names a skill of the catalog, then the building's level 1-3");
            None
        }
    }
}

fn read_building(b: &mut BuildingCard, props: &[Line<'_>], cards: &Cards, p: &mut Problems) {
    for line in props {
        match line.head() {
            "unlock" => b.unlocks.extend(read_unlock(line, cards, p)),
            "heal" => b.heal = levels(line, p),
            "visitors" => b.visitors = levels(line, p),
            "slots" => b.slots = levels(line, p).map(|n| n.min(6)),
            "rest" => b.rest = levels(line, p),
            "housing" => b.housing = levels(line, p),
            "scouts" => b.scouts = levels(line, p),
            "sell" => b.sell = levels(line, p),
            "text" => b.text.push(line.rest().to_string()),
            other => p.at(
                line.number,
                format!(
                    "a building property (heal, visitors, slots, rest, housing, scouts, sell, unlock, text), found `{other}`"
                ),
            ),
        }
    }
}

fn read_worker(head: &Line<'_>, props: &[Line<'_>], cards: &Cards, p: &mut Problems) -> Option<Worker> {
    let mut w = Worker { cost: 1, building: Building::Workshop, recipes: Vec::new(), text: Vec::new() };
    let mut building = None;
    for line in props {
        match line.head() {
            "cost" => match line.rest().parse::<u8>() {
                Ok(c) => w.cost = c,
                Err(_) => p.at(line.number, "`cost` takes a number of gold"),
            },
            "building" => match Building::parse(line.rest()) {
                Some(b) => building = Some(b),
                None => p.at(
                    line.number,
                    format!("expected {}", <Building as crate::kit::named::Named>::expected()),
                ),
            },
            "recipe" => {
                let mut words = line.rest().split_whitespace();
                let Some(eq) = words.next().and_then(|e| cards.equipment.id(e)) else {
                    p.at(
                        line.number,
                        "`recipe` names an Equipment card of the catalog, then RESOURCE N pairs",
                    );
                    continue;
                };
                let rest: Vec<&str> = words.collect();
                let mut needs = Vec::new();
                for pair in rest.chunks(2) {
                    match (
                        pair.first().and_then(|r| Resource::parse(r)),
                        pair.get(1).and_then(|n| n.parse().ok()),
                    ) {
                        (Some(r), Some(n)) => needs.push((r, n)),
                        _ => p.at(line.number, "a recipe's Resources are pairs like `horn 2`"),
                    }
                }
                w.recipes.push(Recipe { equipment: eq, needs });
            }
            "text" => w.text.push(line.rest().to_string()),
            other => p.at(
                line.number,
                format!("a worker property (cost, building, recipe, text), found `{other}`"),
            ),
        }
    }
    match building {
        Some(b) => {
            w.building = b;
            Some(w)
        }
        None => {
            p.at(head.number, format!("worker `{}` needs a `building`", head.rest()));
            None
        }
    }
}
