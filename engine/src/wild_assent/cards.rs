//! The catalog: stat blocks (Seekers, Assents, Gladiators, Summons, Hunt Creatures by
//! Threat), skills, Equipment, Instinct cards and Scout cards, read with the kit's catalog
//! reader (block format; docs/notation/wild-assent.md, "Catalog files"). Ids are interned:
//! the state refers to cards by typed index.
//!
//! **Nothing the catalog accepts vanishes.** Each effect is checked against the kind of
//! card it is written on (`check_place`): an effect the engine would never apply there is
//! refused with its line, and card text goes in `text` lines, reported unverified where it
//! is used.
//!
//! A summon's `attack` line may leave out its damage type: it then shares its summoner's
//! ("Unless otherwise noted, Summons ... share the Damage Type of their summoner"), settled
//! once every block is read (`share_damage_types`).

use super::effect::Effect;
use super::state::taint::Trigger;
use crate::kit::catalog::{lines, refer, Builtin, Id, Line, Problems, Table};
use crate::kit::effect::{check_place, parse, CardEffects};
use crate::kit::name::Name;
use crate::kit::named::named_enum;
use crate::kit::words::Words;
use std::sync::Arc;

named_enum! {
    /// Physical or Magical damage.
    pub enum DamageKind ("a damage type (physical, magical)") { Physical = "physical", Magical = "magical" }
}

named_enum! {
    /// A movement type.
    pub enum Movement ("a movement type (normal, swift, flying)") {
        Normal = "normal", Swift = "swift", Flying = "flying"
    }
}

named_enum! {
    /// What a stat block is.
    pub enum UnitKind ("a unit kind") {
        Seeker = "seeker", Assent = "assent", Gladiator = "gladiator", Creature = "creature", Summon = "summon"
    }
}

named_enum! {
    /// The Resource types a Creature drops.
    pub enum Resource ("a resource (essence, horn, blood, eye, feather, heart)") {
        Essence = "essence", Horn = "horn", Blood = "blood", Eye = "eye", Feather = "feather", Heart = "heart"
    }
}

named_enum! {
    /// The skill symbols, and the two uses the book names in words.
    pub enum SkillKind ("a skill kind (active, free, passive, defensive, special, movement)") {
        Active = "active", Free = "free", Passive = "passive", Defensive = "defensive",
        Special = "special", Movement = "movement"
    }
}

named_enum! {
    /// An Arena Creature's size (drafting).
    pub enum Size ("a size (large, medium)") { Large = "large", Medium = "medium" }
}

named_enum! {
    /// The first word of an Instinct card's target line.
    pub enum Pool ("a target kind (self, ally, enemy, enemies)") {
        Itself = "self", Ally = "ally", Enemy = "enemy", Enemies = "enemies"
    }
}

named_enum! {
    /// How an Instinct card moves its Creature.
    pub enum Moving ("a movement keyword (halt, advance, careful-advance)") {
        Halt = "halt", Advance = "advance", Careful = "careful-advance"
    }
}

named_enum! {
    /// A stat the targeting keywords compare.
    pub enum Stat ("a stat (hp, pdef, mdef)") { Hp = "hp", Pdef = "pdef", Mdef = "mdef" }
}

/// One keyword of an Instinct card's target line, after its first word.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Criterion {
    /// `lowest-STAT`
    Lowest(Stat),
    /// `highest-STAT`
    Highest(Stat),
    /// A stat with no Lowest / Highest of its own (`HP` in "Lowest PDEF - HP - Nearest").
    Bare(Stat),
    Nearest,
    Farthest,
    /// `highest-missing`: the most damage received.
    HighestMissing,
    /// `most-adjacent`: the destination with the most enemies adjacent (for `enemies`).
    MostAdjacent,
}

impl std::fmt::Display for Criterion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Criterion::Lowest(s) => write!(f, "lowest-{s}"),
            Criterion::Highest(s) => write!(f, "highest-{s}"),
            Criterion::Bare(s) => write!(f, "{s}"),
            Criterion::Nearest => f.write_str("nearest"),
            Criterion::Farthest => f.write_str("farthest"),
            Criterion::HighestMissing => f.write_str("highest-missing"),
            Criterion::MostAdjacent => f.write_str("most-adjacent"),
        }
    }
}

impl Criterion {
    fn parse(word: &str) -> Option<Criterion> {
        Some(match word {
            "nearest" => Criterion::Nearest,
            "farthest" => Criterion::Farthest,
            "highest-missing" => Criterion::HighestMissing,
            "most-adjacent" => Criterion::MostAdjacent,
            w => match (w.strip_prefix("lowest-"), w.strip_prefix("highest-")) {
                (Some(s), _) => Criterion::Lowest(Stat::parse(s)?),
                (_, Some(s)) => Criterion::Highest(Stat::parse(s)?),
                _ => Criterion::Bare(Stat::parse(w)?),
            },
        })
    }
}

/// An attack's numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Profile {
    pub kind: DamageKind,
    pub range: u8,
    pub damage: i32,
    pub dice: u8,
    /// It hits every adjacent enemy (`area adjacent-enemies`) instead of one target.
    pub area: bool,
    /// (With `area`) it hits every adjacent miniature, allies too (`area adjacent`: Tidal
    /// Wave, Arena Example 10, "all adjacent Gladiators must be moved").
    #[serde(default)]
    pub allies: bool,
}

/// Health and defenses (a Hunt Creature has one set per Threat).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Stats {
    pub health: i32,
    pub pdef: i32,
    pub mdef: i32,
}

/// A stat block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnitCard {
    pub kind: UnitKind,
    /// Speed and movement type (a Hunt Creature's come from its Instinct cards).
    pub speed: u8,
    pub movement: Movement,
    /// By Threat (index Threat - 1); the same three times for everything but Hunt Creatures.
    pub stats: [Stats; 3],
    /// The default attack (a Hunt Creature attacks through its Instinct cards).
    pub attack: Option<Profile>,
    pub skills: Vec<Id<Skill>>,
    pub resource: Option<Resource>,
    pub size: Option<Size>,
    /// A Summon's summoner and how many copies of it there are.
    pub summoner: Option<Id<UnitCard>>,
    pub copies: u8,
    /// (Arena) An Assent's five Skill cards, two of which it takes into a match.
    pub skill_cards: Vec<Id<Skill>>,
    /// (Arena) An Assent's two Equipment slots, by symbol (`Any` when none is known).
    pub slots: [EquipType; 2],
}

impl UnitCard {
    /// Its stats at a Threat (1 to 3; outside that, the nearest).
    pub fn stats_at(&self, threat: u8) -> Stats {
        self.stats[usize::from(threat.clamp(1, 3)) - 1]
    }
}

/// A skill or an Equipment card (the same shape: Equipment is "activated the same as Skills").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skill {
    pub kind: SkillKind,
    /// (Arena) An Equipment card's type (`None`: not given by the catalog).
    pub equip_type: Option<EquipType>,
    /// An attack made with it (`attack ... with SKILL`).
    pub attack: Option<Profile>,
    pub effects: CardEffects<Effect>,
    /// When its standing text first acts (`trigger slain`; `always` when not given).
    pub trigger: Trigger,
}

/// An Instinct card.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Instinct {
    pub creature: Id<UnitCard>,
    pub pool: Pool,
    pub criteria: Vec<Criterion>,
    pub movement: Movement,
    pub moving: Moving,
    /// Speed by Threat.
    pub speed: [u8; 3],
    /// The attack by Threat; `None` when the action is card text.
    pub attack: Option<[Profile; 3]>,
    pub effects: CardEffects<Effect>,
}

/// A Scout card.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scout {
    pub threat: u8,
    /// The named Creatures and their Threat.
    pub prey: Vec<(Id<UnitCard>, u8)>,
    /// How many Creatures to draw from each Threat stack (index Threat - 1).
    pub draw: [u8; 3],
    /// The Environment and anything else the form cannot express.
    pub text: Vec<String>,
}

named_enum! {
    /// An Arena Equipment card's type, and the symbol of the Equipment slot that takes it
    /// (`any`: a slot without symbol).
    pub enum EquipType ("an Equipment type (armor, weapon-magical, weapon-physical, consumable, accessory, any)") {
        Armor = "armor", WeaponMagical = "weapon-magical", WeaponPhysical = "weapon-physical",
        Consumable = "consumable", Accessory = "accessory", Any = "any"
    }
}

named_enum! {
    /// A Demand's Condition the engine judges: `slay-creature`, a side slays an enemy
    /// Creature during the round.
    pub enum Condition ("a Condition (slay-creature)") { SlayCreature = "slay-creature" }
}

named_enum! {
    /// A Silvestrem card's type.
    pub enum SilvestremKind ("a Silvestrem type (whim, edict, demand)") {
        Whim = "whim", Edict = "edict", Demand = "demand"
    }
}

/// A Silvestrem card (Arena): its type and its text (never expressible: reported unverified).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Silvestrem {
    pub kind: SilvestremKind,
    /// (Demand) A Condition the engine can judge from the state; `None`: text only.
    pub condition: Option<Condition>,
    pub text: Vec<String>,
}

/// Everything an encounter's events can name. The Hunt and the Arena have stat blocks of
/// their own (a Streamcaller is a Hunt Creature with three Threats and an Arena Gladiator):
/// each mode reads its own table.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Catalog {
    /// Hunt stat blocks (Seekers, Creatures, their Summons).
    pub hunt: Table<UnitCard>,
    /// Arena stat blocks (Assents, Gladiators, their Summons).
    pub arena: Table<UnitCard>,
    pub skills: Table<Skill>,
    pub equipment: Table<Skill>,
    pub instincts: Table<Instinct>,
    pub scouts: Table<Scout>,
    pub silvestrem: Table<Silvestrem>,
}

/// The built-in catalog, parsed once per process.
static ILLUSTRATIVE_PARSED: Builtin<Catalog> = Builtin::new();

impl Catalog {
    /// The stat blocks of one mode.
    pub fn units(&self, arena: bool) -> &Table<UnitCard> {
        if arena {
            &self.arena
        } else {
            &self.hunt
        }
    }

    /// Parse a catalog, sharing the parse of the built-in one.
    pub fn load(text: &str) -> Result<Arc<Catalog>, Vec<String>> {
        ILLUSTRATIVE_PARSED.parse(super::ILLUSTRATIVE, text, Catalog::parse)
    }

    /// Parse a catalog text, reporting every problem.
    pub fn parse(text: &str) -> Result<Catalog, Vec<String>> {
        let mut p = Problems::new();
        let mut blocks: Vec<(Line<'_>, Vec<Line<'_>>)> = Vec::new();
        for line in lines(text) {
            if line.indented {
                match blocks.last_mut() {
                    Some((_, props)) => props.push(line),
                    None => p.at(line.number, "a property before any block"),
                }
            } else {
                blocks.push((line, Vec::new()));
            }
        }
        // Names first, so blocks may refer to ones further down.
        let mut names = Names::default();
        for (head, props) in &blocks {
            let id = head.rest();
            if Name::new(id).is_none() {
                p.at(head.number, Name::expected(&format!("`{}`'s id", head.head())));
                continue;
            }
            let kind = head.head();
            let taken = match kind {
                "seeker" | "creature" => names.hunt.insert(id.to_string()),
                "assent" | "gladiator" => names.arena.insert(id.to_string()),
                "summon" => match summon_mode(props) {
                    Some(true) => names.arena.insert(id.to_string()),
                    Some(false) => names.hunt.insert(id.to_string()),
                    None => {
                        p.at(head.number, format!("summon `{id}` needs `mode hunt` or `mode arena`"));
                        continue;
                    }
                },
                "skill" | "equipment" => names.skills.insert(id.to_string()),
                "instinct" => names.instincts.insert(id.to_string()),
                "scout" => names.scouts.insert(id.to_string()),
                "silvestrem" => names.silvestrem.insert(id.to_string()),
                // The Encampment's blocks, read by campaign/catalog.rs.
                "building" | "worker" => true,
                _ => {
                    p.at(
                        head.number,
                        format!(
                            "a block (seeker, assent, gladiator, creature, summon, skill, equipment, \
                             instinct, scout, silvestrem), found `{kind}`"
                        ),
                    );
                    continue;
                }
            };
            if !taken {
                p.at(head.number, format!("`{id}` is defined twice"));
            }
        }
        let mut cat = Catalog::default();
        // Skills and Equipment first: stat blocks refer to them by id.
        for (head, props) in blocks.iter().filter(|(h, _)| matches!(h.head(), "skill" | "equipment")) {
            let skill = read_skill(head, props, &mut p);
            let table = if head.head() == "skill" { &mut cat.skills } else { &mut cat.equipment };
            let _ = table.insert(head.rest(), skill);
        }
        // Stat blocks, each mode's in its own table, then each summon's summoner by name.
        // A summon whose attack states no damage type shares its summoner's, settled once
        // the Instinct cards are read (a Hunt Creature attacks through them): its attack
        // line, by mode.
        let mut sharing: [Vec<(usize, Id<UnitCard>)>; 2] = [Vec::new(), Vec::new()];
        for arena in [false, true] {
            let mut units: Vec<(&str, UnitCard, Unit)> = Vec::new();
            for (head, props) in &blocks {
                let mode = match head.head() {
                    "seeker" | "creature" => Some(false),
                    "assent" | "gladiator" => Some(true),
                    "summon" => summon_mode(props),
                    _ => None,
                };
                if mode == Some(arena) {
                    let (unit, read) = read_unit(head, props, &cat, &mut p);
                    units.push((head.rest(), unit, read));
                }
            }
            let position = |name: &str| units.iter().position(|(n, ..)| *n == name);
            let summoners: Vec<Option<u16>> = units
                .iter()
                .map(|(id, _, read)| {
                    let s = read.summoner.as_deref()?;
                    let at = position(s);
                    if at.is_none() {
                        let mode = if arena { "Arena" } else { "Hunt" };
                        p.whole(format!("summon `{id}` names unknown {mode} stat block `{s}`"));
                    }
                    at.map(|i| i as u16)
                })
                .collect();
            let table = if arena { &mut cat.arena } else { &mut cat.hunt };
            for ((id, mut unit, read), summoner) in units.into_iter().zip(summoners) {
                unit.summoner = summoner.map(Id::new);
                if let (Ok(at), Some(line)) = (table.insert(id, unit), read.shares) {
                    sharing[usize::from(arena)].push((line, at));
                }
            }
        }
        for (head, props) in blocks.iter().filter(|(h, _)| matches!(h.head(), "instinct" | "scout")) {
            if head.head() == "instinct" {
                if let Some(card) = read_instinct(head, props, &cat, &mut p) {
                    let _ = cat.instincts.insert(head.rest(), card);
                }
            } else if let Some(card) = read_scout(head, props, &cat, &mut p) {
                let _ = cat.scouts.insert(head.rest(), card);
            }
        }
        share_damage_types(&mut cat, &sharing, &mut p);
        for (head, props) in blocks.iter().filter(|(h, _)| h.head() == "silvestrem") {
            if let Some(card) = read_silvestrem(head, props, &mut p) {
                let _ = cat.silvestrem.insert(head.rest(), card);
            }
        }
        // Summon effects name summons.
        for (_, name, skill) in cat.skills.iter().chain(cat.equipment.iter()) {
            for e in &skill.effects.effects {
                if let Effect::Summon(s) = e {
                    let found = [&cat.hunt, &cat.arena]
                        .iter()
                        .any(|t| t.by_name(s.as_str()).is_some_and(|u| u.kind == UnitKind::Summon));
                    if !found {
                        p.whole(format!("`{name}` summons `{s}`, which is no summon block"));
                    }
                }
            }
        }
        for (_, name, unit) in cat.hunt.iter().chain(cat.arena.iter()) {
            if unit.kind == UnitKind::Creature
                && !cat.instincts.iter().any(|(_, _, c)| cat.hunt.name(c.creature) == name)
            {
                p.whole(format!("creature `{name}` has no Instinct card"));
            }
            // A summon's copies are `ID-1` .. `ID-N`: the names must fit a miniature id.
            if unit.kind == UnitKind::Summon && Name::new(&format!("{name}-{}", unit.copies)).is_none() {
                p.whole(format!("summon `{name}`: `{name}-{}` is too long an id", unit.copies));
            }
        }
        p.finish(cat)
    }
}

/// Block ids by namespace, for duplicate checks.
#[derive(Default)]
struct Names {
    hunt: std::collections::BTreeSet<String>,
    arena: std::collections::BTreeSet<String>,
    skills: std::collections::BTreeSet<String>,
    instincts: std::collections::BTreeSet<String>,
    scouts: std::collections::BTreeSet<String>,
    silvestrem: std::collections::BTreeSet<String>,
}

/// Which table a summon block belongs to (`mode arena`), `None` when it does not say.
fn summon_mode(props: &[Line<'_>]) -> Option<bool> {
    props.iter().find(|l| l.head() == "mode").and_then(|l| match l.rest() {
        "hunt" => Some(false),
        "arena" => Some(true),
        _ => None,
    })
}

/// Slashed numbers (`4/4/5`), one per Threat, or one number for all three.
fn slashed(word: &str, what: &str, max: i32) -> Result<[i32; 3], String> {
    let parts: Vec<&str> = word.split('/').collect();
    let nums: Option<Vec<i32>> =
        parts.iter().map(|p| p.parse::<i32>().ok().filter(|n| (0..=max).contains(n))).collect();
    match (nums, parts.len()) {
        (Some(n), 1) => Ok([n[0]; 3]),
        (Some(n), 3) => Ok([n[0], n[1], n[2]]),
        _ => Err(format!("{what} (a number 0-{max}, or three as `4/4/5` for Threats 1/2/3), found `{word}`")),
    }
}

/// `TYPE range R damage D dice N [area adjacent-enemies|adjacent]`, each number slashed or not.
fn read_profile(text: &str, per_threat: bool) -> Result<[Profile; 3], String> {
    let mut w = Words::new(text);
    let kind = w.named::<DamageKind>().map_err(|e| format!("{} , found {}", e.expected, e.found))?;
    let mut num = |key: &str, max: i32| -> Result<[i32; 3], String> {
        w.keyword(key).map_err(|e| format!("`{key}`, found {}", e.found))?;
        let word = w.word("a number").map_err(|e| format!("a number after `{key}`, found {}", e.found))?;
        let v = slashed(word, key, max)?;
        if !per_threat && word.contains('/') {
            return Err(format!("one number after `{key}` (slashes are for Instinct cards), found `{word}`"));
        }
        Ok(v)
    };
    let range = num("range", 20)?;
    let damage = num("damage", 99)?;
    let dice = num("dice", 20)?;
    let (area, allies) = if w.optional("area") {
        match w
            .word("an area")
            .map_err(|e| format!("`adjacent-enemies` or `adjacent` after `area`, found {}", e.found))?
        {
            "adjacent-enemies" => (true, false),
            "adjacent" => (true, true),
            other => return Err(format!("`adjacent-enemies` or `adjacent` after `area`, found `{other}`")),
        }
    } else {
        (false, false)
    };
    if let Some(extra) = w.peek() {
        return Err(format!("end of the attack line, found `{extra}`"));
    }
    if range.contains(&0) {
        return Err("a Range of at least 1".into());
    }
    Ok([0, 1, 2].map(|t| Profile {
        kind,
        range: range[t] as u8,
        damage: damage[t],
        dice: dice[t] as u8,
        area,
        allies,
    }))
}

fn number(line: &Line<'_>, value: &str, min: i32, max: i32, p: &mut Problems) -> Option<i32> {
    match value.parse::<i32>() {
        Ok(n) if (min..=max).contains(&n) => Some(n),
        _ => {
            p.at(line.number, format!("`{}`: a number from {min} to {max}, found `{value}`", line.head()));
            None
        }
    }
}

fn defense(line: &Line<'_>, p: &mut Problems) -> Option<(i32, i32)> {
    let v: Vec<&str> = line.rest().split_whitespace().collect();
    if v.len() != 2 {
        p.at(line.number, "`defense PDEF MDEF`: two numbers");
        return None;
    }
    Some((number(line, v[0], 0, 99, p)?, number(line, v[1], 0, 99, p)?))
}

/// Where each kind of skill applies its effects.
fn allowed(kind: SkillKind, attack: bool, e: &Effect) -> bool {
    match kind {
        SkillKind::Active | SkillKind::Free if attack => e.is_attack(),
        SkillKind::Active | SkillKind::Free => e.is_use(),
        SkillKind::Passive => e.is_attack() || e.is_owner(),
        SkillKind::Special => matches!(e, Effect::On(..)),
        SkillKind::Defensive => matches!(e, Effect::Defense(_)),
        SkillKind::Movement => matches!(e, Effect::Leap(_)),
    }
}

fn read_skill(head: &Line<'_>, props: &[Line<'_>], p: &mut Problems) -> Skill {
    let equipment = head.head() == "equipment";
    let mut kind = None;
    let mut attack = None;
    let mut effects: Vec<(usize, Effect)> = Vec::new();
    let mut text = Vec::new();
    let mut equip_type = None;
    let mut trigger = Trigger::Always;
    for line in props {
        match line.head() {
            "kind" => kind = p.check(line.number, line.rest().parse::<SkillKind>()),
            "trigger" => {
                trigger = p.check(line.number, line.rest().parse::<Trigger>()).unwrap_or(Trigger::Always)
            }
            "type" if equipment => equip_type = p.check(line.number, line.rest().parse::<EquipType>()),
            "attack" => attack = p.check(line.number, read_profile(line.rest(), false)).map(|a| a[0]),
            "effect" => {
                if let Some(e) = p.check(line.number, parse::<Effect>(line.rest())) {
                    effects.push((line.number, e));
                }
            }
            "text" => text.push(line.rest().to_string()),
            // The campaign's (campaign/catalog.rs): when the card is discarded.
            "discard" if equipment => {}
            other => p.at(
                line.number,
                format!("a property of a skill (kind, attack, effect, text, trigger), found `{other}`"),
            ),
        }
    }
    // Equipment is passive unless it says otherwise; a skill names its symbol.
    let kind = match (kind, equipment) {
        (Some(k), _) => k,
        (None, true) => SkillKind::Passive,
        (None, false) => {
            p.at(head.number, format!("skill `{}` needs a `kind`", head.rest()));
            SkillKind::Passive
        }
    };
    if attack.is_some() && !matches!(kind, SkillKind::Active | SkillKind::Free) && !equipment {
        p.at(head.number, format!("skill `{}`: only an active or free skill makes an attack", head.rest()));
    }
    let place = format!("a {kind} {}", if attack.is_some() { "attack skill" } else { "skill" });
    for (n, e) in &effects {
        let ok = allowed(kind, attack.is_some(), e) || (equipment && attack.is_some() && e.is_owner());
        p.check(*n, check_place(e, ok, &place));
    }
    Skill {
        kind,
        equip_type,
        attack,
        effects: CardEffects { effects: effects.into_iter().map(|(_, e)| e).collect(), text },
        trigger,
    }
}

/// What a stat block's lines say beyond its card, settled once every block is read: a
/// summon's summoner by name, and the line of a summon's attack that states no damage type
/// (it shares its summoner's: [`share_damage_types`]).
struct Unit {
    summoner: Option<String>,
    shares: Option<usize>,
}

/// "Unless otherwise noted, Summons always have 1 Health, share the Damage Type of their
/// summoner and activate as part of their summoner's activation" (Hunt: Summons, l.272;
/// Arena: Summons, l.416). A summon whose `attack` line states no type takes its summoner's;
/// one that states a type has it "otherwise noted", the summoner's or not (its card prints
/// it, as the summoner's card prints the Summon's stats).
///
/// The summoner's Damage Type is the one its card prints. A Seeker's, Assent's or
/// Gladiator's is its default attack's ("Base Damage and Damage Type ... The symbol
/// identifies the form of damage the Seeker's default attack uses", l.79; the Gladiator's,
/// l.410): an attack skill or a weapon states a type of its own and is not the card's. A
/// Hunt Creature's card prints none (Wild Creature Cards, l.150-162: Health, the two
/// Defenses, Threat, Resource, Skills); it attacks through its Instinct cards, each
/// "Physical Attack" or magical (l.263). When every attack on them has one type that is the
/// Creature's; when they differ, or none attacks, the book gives it no Damage Type and says
/// nothing of which a Summon would share, and a type drawn from the card in play would
/// change a Summon's printed stats from one activation to the next. So that case is no
/// interpretation but a catalog that must say: the summon's line is refused with a message
/// asking for the type, never filled in with a guess.
fn share_damage_types(cat: &mut Catalog, sharing: &[Vec<(usize, Id<UnitCard>)>; 2], p: &mut Problems) {
    for arena in [false, true] {
        let list = &sharing[usize::from(arena)];
        if list.is_empty() {
            continue;
        }
        // Every type is worked out before any is written: a summon of a sharing summon reads
        // the chain as the catalog states it.
        let mut kinds: Vec<(Id<UnitCard>, DamageKind)> = Vec::new();
        for &(line, id) in list {
            match shared_type(cat, arena, id, list) {
                Some(Ok(k)) => kinds.push((id, k)),
                Some(Err(e)) => p.at(line, e),
                // An unknown summoner, reported already.
                None => {}
            }
        }
        let table = if arena { &mut cat.arena } else { &mut cat.hunt };
        for (id, k) in kinds {
            if let Some(a) = table[id].attack.as_mut() {
                a.kind = k;
            }
        }
    }
}

/// The Damage Type summon `id` shares ([`share_damage_types`]), or why it has none to share;
/// `None` when its summoner is unknown (reported with the summoner's name).
fn shared_type(
    cat: &Catalog,
    arena: bool,
    id: Id<UnitCard>,
    sharing: &[(usize, Id<UnitCard>)],
) -> Option<Result<DamageKind, String>> {
    let table = cat.units(arena);
    let name = table.name(id);
    let write = "write the Summon's own: `attack physical|magical range ...`";
    let mut at = id;
    // A summon whose summoner is a summon sharing too takes it from further up; a chain is
    // at most the table long, so a loop of summoners ends.
    for _ in 0..=table.len() {
        let summoner = table[at].summoner?;
        let (card, s) = (&table[summoner], table.name(summoner));
        if card.kind == UnitKind::Summon && sharing.iter().any(|&(_, i)| i == summoner) {
            at = summoner;
            continue;
        }
        if card.kind != UnitKind::Creature {
            return Some(card.attack.map(|a| a.kind).ok_or_else(|| {
                format!(
                    "summon `{name}` states no damage type and `{s}` has none to share (no default \
                     attack, whose type is a card's Damage Type); {write}"
                )
            }));
        }
        let mut kinds = cat
            .instincts
            .iter()
            .filter(|(_, _, c)| c.creature == summoner)
            .filter_map(|(_, _, c)| c.attack.map(|a| a[0].kind));
        let first = kinds.next();
        return Some(match first {
            Some(k) if kinds.all(|o| o == k) => Ok(k),
            Some(_) => Err(format!(
                "summon `{name}` states no damage type and creature `{s}` has no one to share: its \
                 Instinct cards attack with physical and magical damage (a Wild Creature card prints \
                 no Damage Type); {write}"
            )),
            None => Err(format!(
                "summon `{name}` states no damage type and creature `{s}` has none to share: no \
                 Instinct card of it attacks; {write}"
            )),
        });
    }
    Some(Err(format!("summon `{name}` states no damage type and its summoners summon each other; {write}")))
}

fn read_unit(head: &Line<'_>, props: &[Line<'_>], cat: &Catalog, p: &mut Problems) -> (UnitCard, Unit) {
    let kind = UnitKind::parse(head.head()).unwrap_or(UnitKind::Seeker);
    let id = head.rest();
    let mut u = UnitCard {
        kind,
        speed: 0,
        movement: Movement::Normal,
        stats: [Stats::default(); 3],
        attack: None,
        skills: Vec::new(),
        resource: None,
        size: None,
        summoner: None,
        copies: 1,
        skill_cards: Vec::new(),
        slots: [EquipType::Any; 2],
    };
    let (mut speed, mut health, mut def, mut threats) = (false, false, false, [false; 3]);
    let mut read = Unit { summoner: None, shares: None };
    let creature = kind == UnitKind::Creature;
    for line in props {
        let rest = line.rest();
        match line.head() {
            "speed" if !creature => {
                let mut w = rest.split_whitespace();
                if let Some(n) = number(line, w.next().unwrap_or(""), 0, 20, p) {
                    u.speed = n as u8;
                    speed = true;
                }
                if let Some(m) = w.next() {
                    u.movement = p.check(line.number, m.parse::<Movement>()).unwrap_or(Movement::Normal);
                }
            }
            "health" if !creature => {
                if let Some(n) = number(line, rest, 1, 99, p) {
                    u.stats.iter_mut().for_each(|s| s.health = n);
                    health = true;
                }
            }
            "defense" if !creature => {
                if let Some((pd, md)) = defense(line, p) {
                    u.stats.iter_mut().for_each(|s| (s.pdef, s.mdef) = (pd, md));
                    def = true;
                }
            }
            "attack" if !creature => {
                // A summon's attack may leave its type out: it shares its summoner's
                // ("Unless otherwise noted", Summons), settled once every block is read.
                let shares = kind == UnitKind::Summon && rest.split_whitespace().next() == Some("range");
                let text = if shares { format!("physical {rest}") } else { rest.to_string() };
                u.attack = p.check(line.number, read_profile(&text, false)).map(|a| a[0]);
                read.shares = (shares && u.attack.is_some()).then_some(line.number);
            }
            "threat" if creature => {
                // `threat T health H defense P M`
                let w: Vec<&str> = rest.split_whitespace().collect();
                match (w.as_slice(), w.first().and_then(|t| t.parse::<usize>().ok())) {
                    ([_, "health", h, "defense", pd, md], Some(t @ 1..=3)) => {
                        if let (Some(h), Some(pd), Some(md)) = (
                            number(line, h, 1, 99, p),
                            number(line, pd, 0, 99, p),
                            number(line, md, 0, 99, p),
                        ) {
                            u.stats[t - 1] = Stats { health: h, pdef: pd, mdef: md };
                            threats[t - 1] = true;
                        }
                    }
                    _ => p.at(line.number, "`threat T health H defense PDEF MDEF`, T from 1 to 3"),
                }
            }
            "resource" if creature => u.resource = p.check(line.number, rest.parse::<Resource>()),
            "size" if kind == UnitKind::Gladiator => u.size = p.check(line.number, rest.parse::<Size>()),
            "of" if kind == UnitKind::Summon => read.summoner = Some(rest.to_string()),
            "mode" if kind == UnitKind::Summon => {}
            "copies" if kind == UnitKind::Summon => u.copies = number(line, rest, 1, 9, p).unwrap_or(1) as u8,
            "skills" => {
                for s in rest.split_whitespace() {
                    if let Some(sid) = refer(&cat.skills, s, &format!("`{id}`"), "skill", p) {
                        u.skills.push(sid);
                    }
                }
            }
            "skill-cards" if kind == UnitKind::Assent => {
                for s in rest.split_whitespace() {
                    if let Some(sid) = refer(&cat.skills, s, &format!("`{id}`"), "skill", p) {
                        u.skill_cards.push(sid);
                    }
                }
            }
            "slots" if kind == UnitKind::Assent => {
                let w: Vec<&str> = rest.split_whitespace().collect();
                match w.as_slice() {
                    [a, b] => {
                        let a = p.check(line.number, a.parse::<EquipType>()).unwrap_or(EquipType::Any);
                        let b = p.check(line.number, b.parse::<EquipType>()).unwrap_or(EquipType::Any);
                        u.slots = [a, b];
                    }
                    _ => p.at(
                        line.number,
                        "`slots TYPE TYPE`: the two Equipment slots' symbols (`any` for none)",
                    ),
                }
            }
            other => p.at(line.number, format!("`{other}` is not a property of a {kind} block")),
        }
    }
    if creature {
        if threats != [true; 3] {
            p.at(
                head.number,
                format!("creature `{id}` needs a `threat` line for each of Threats 1, 2 and 3"),
            );
        }
        if u.resource.is_none() {
            p.at(head.number, format!("creature `{id}` needs a `resource`"));
        }
    } else {
        if kind == UnitKind::Summon && !health {
            // "Unless otherwise noted, Summons always have 1 Health".
            u.stats.iter_mut().for_each(|s| s.health = 1);
            health = true;
        }
        for (ok, what) in [(speed, "speed"), (health, "health"), (def, "defense")] {
            if !ok {
                p.at(head.number, format!("{kind} `{id}` needs a `{what}` line"));
            }
        }
        if kind == UnitKind::Summon && read.summoner.is_none() {
            p.at(head.number, format!("summon `{id}` needs `of SUMMONER`"));
        }
    }
    (u, read)
}

fn read_instinct(head: &Line<'_>, props: &[Line<'_>], cat: &Catalog, p: &mut Problems) -> Option<Instinct> {
    let id = head.rest();
    let (mut creature, mut target, mut moving, mut attack) = (None, None, None, None);
    let (mut effects, mut text) = (Vec::new(), Vec::new());
    for line in props {
        let rest = line.rest();
        match line.head() {
            "creature" => {
                creature = refer(&cat.hunt, rest, &format!("instinct `{id}`"), "creature", p);
                if creature.is_some_and(|c| cat.hunt[c].kind != UnitKind::Creature) {
                    p.at(line.number, format!("`{rest}` is not a Hunt creature"));
                }
            }
            "target" => {
                let mut w = rest.split_whitespace();
                let pool = p.check(line.number, w.next().unwrap_or("").parse::<Pool>());
                let mut criteria = Vec::new();
                for word in w {
                    match Criterion::parse(word) {
                        Some(c) => criteria.push(c),
                        None => p.at(
                            line.number,
                            format!(
                                "a targeting keyword (lowest-STAT, highest-STAT, STAT, nearest, farthest, \
                                 highest-missing, most-adjacent; STAT is hp, pdef or mdef), found `{word}`"
                            ),
                        ),
                    }
                }
                if pool.is_some_and(|pl| (pl == Pool::Enemies) != (criteria == [Criterion::MostAdjacent])) {
                    p.at(line.number, "`enemies` goes with `most-adjacent` alone, and `most-adjacent` with `enemies`");
                }
                if matches!(criteria.first(), Some(Criterion::Bare(_))) {
                    p.at(line.number, "a bare stat follows a lowest- or highest- keyword");
                }
                target = pool.map(|pl| (pl, criteria));
            }
            "move" => {
                // `[swift|flying] halt|advance|careful-advance [S/S/S]`
                let w: Vec<&str> = rest.split_whitespace().collect();
                let (movement, w) = match w.first().and_then(|m| Movement::parse(m)) {
                    Some(m) => (m, &w[1..]),
                    None => (Movement::Normal, &w[..]),
                };
                let how = p.check(line.number, w.first().copied().unwrap_or("").parse::<Moving>());
                let speed = match (how, w.get(1)) {
                    (Some(Moving::Halt), None) => Some([0; 3]),
                    (Some(Moving::Halt), Some(_)) => {
                        p.at(line.number, "`halt` takes no Speed");
                        None
                    }
                    (Some(_), Some(s)) => p.check(line.number, slashed(s, "a Speed", 20)),
                    (Some(_), None) => {
                        p.at(line.number, "a Speed after the movement keyword");
                        None
                    }
                    (None, _) => None,
                };
                if w.len() > 2 {
                    p.at(line.number, "end of the move line");
                }
                if let (Some(how), Some(s)) = (how, speed) {
                    moving = Some((movement, how, s.map(|n| n as u8)));
                }
            }
            "attack" => attack = p.check(line.number, read_profile(rest, true)),
            "effect" => {
                if let Some(e) = p.check(line.number, parse::<Effect>(rest)) {
                    effects.push((line.number, e));
                }
            }
            "text" => text.push(rest.to_string()),
            other => p.at(
                line.number,
                format!("a property of an Instinct card (creature, target, move, attack, effect, text), found `{other}`"),
            ),
        }
    }
    let mut missing = |ok: bool, what: &str| {
        if !ok {
            p.at(head.number, format!("instinct `{id}` needs a `{what}` line"));
        }
    };
    missing(creature.is_some(), "creature");
    missing(target.is_some(), "target");
    missing(moving.is_some(), "move");
    if attack.is_none() && text.is_empty() && effects.is_empty() {
        p.at(
            head.number,
            format!("instinct `{id}` needs an `attack` line, or effects or `text` saying what its action is"),
        );
    }
    if attack.is_some_and(|a| a[0].area) != target.as_ref().is_some_and(|(pl, _)| *pl == Pool::Enemies) {
        p.at(
            head.number,
            format!("instinct `{id}`: an `enemies` target goes with an area attack (`area adjacent-enemies` or `area adjacent`)"),
        );
    }
    // An attack's effects go with the attack; a card without one acts with its effects.
    let mut kept = Vec::new();
    for (n, e) in effects {
        let ok = if attack.is_some() {
            e.is_attack() && !matches!(e, Effect::Dice(..) | Effect::AssignIfDamaged)
        } else {
            e.is_use()
        };
        let place = if attack.is_some() { "an Instinct card's attack" } else { "an Instinct card's action" };
        if p.check(n, check_place(&e, ok, place)).is_some() {
            kept.push(e);
        }
    }
    let effects = kept;
    let (pool, criteria) = target?;
    let (movement, how, speed) = moving?;
    Some(Instinct {
        creature: creature?,
        pool,
        criteria,
        movement,
        moving: how,
        speed,
        attack,
        effects: CardEffects { effects, text },
    })
}

fn read_scout(head: &Line<'_>, props: &[Line<'_>], cat: &Catalog, p: &mut Problems) -> Option<Scout> {
    let id = head.rest();
    let mut s = Scout { threat: 0, prey: Vec::new(), draw: [0; 3], text: Vec::new() };
    for line in props {
        let rest = line.rest();
        let w: Vec<&str> = rest.split_whitespace().collect();
        match (line.head(), w.as_slice()) {
            ("threat", [t]) => s.threat = number(line, t, 1, 3, p).unwrap_or(1) as u8,
            ("prey", [c, t]) => {
                let c = refer(&cat.hunt, c, &format!("scout `{id}`"), "creature", p);
                if let (Some(c), Some(t)) = (c, number(line, t, 1, 3, p)) {
                    if cat.hunt[c].kind != UnitKind::Creature {
                        p.at(line.number, "prey is a Hunt creature");
                    }
                    s.prey.push((c, t as u8));
                }
            }
            ("draw", [t, n]) => {
                if let (Some(t), Some(n)) = (number(line, t, 1, 3, p), number(line, n, 0, 6, p)) {
                    s.draw[t as usize - 1] = n as u8;
                }
            }
            ("text", _) => s.text.push(rest.to_string()),
            (other, _) => p.at(
                line.number,
                format!("a property of a Scout card (`threat T`, `prey CREATURE T`, `draw T N`, `text`), found `{other}`"),
            ),
        }
    }
    if s.threat == 0 || s.prey.is_empty() {
        p.at(head.number, format!("scout `{id}` needs `threat` and at least one `prey`"));
        return None;
    }
    Some(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_illustrative_catalog_parses() {
        let c = Catalog::parse(super::super::ILLUSTRATIVE).unwrap_or_else(|e| panic!("{}", e.join("\n")));
        assert!(c.hunt.by_name("illithena").is_some());
        assert!(c.arena.by_name("streamcaller").is_some() && c.hunt.by_name("streamcaller").is_some());
        assert!(c.instincts.len() >= 5);
    }

    #[test]
    fn every_problem_is_reported_with_its_line() {
        let text = "\
seeker zaxos
  speed 4
  health 10
  defense 2 x
  attack physical range 0 damage 3 dice 3
  skills nope
skill maim
  kind active
  effect leap 3
creature gryphon
  resource feathers
instinct g1
  creature gryphon
  target enemy lowest-pdef nearest
  move flying advance 3/3
  attack physical range 1 damage 3/4/5 dice 3/3/4
blob x
";
        let e = Catalog::parse(text).unwrap_err();
        let all = e.join("\n");
        for needle in [
            "line 4:",
            "line 5:",
            "unknown skill `nope`",
            "line 9:",
            "line 11:",
            "needs a `threat` line",
            "line 15:",
            "line 17:",
        ] {
            assert!(all.contains(needle), "{needle} missing in:\n{all}");
        }
        assert_eq!(
            read_profile("magical range 1 damage 0/0/0 dice 4/5/6 area adjacent-enemies", true).unwrap()[2]
                .dice,
            6
        );
        assert!(read_profile("magical range 1 damage 0/0/0 dice 4/5/6", false).is_err());
        let all = read_profile("magical range 1 damage 0 dice 5 area adjacent", false).unwrap()[0];
        assert!(all.area && all.allies);
        assert!(read_profile("magical range 1 damage 0 dice 5 area around", false).is_err());
    }

    /// "Unless otherwise noted, Summons ... share the Damage Type of their summoner" (Hunt:
    /// Summons, l.272; Arena: Summons, l.416), as [`share_damage_types`] reads it.
    #[test]
    fn a_summon_shares_its_summoners_damage_type_unless_noted() {
        let c = Catalog::parse(super::super::ILLUSTRATIVE).unwrap_or_else(|e| panic!("{}", e.join("\n")));
        let kind =
            |arena: bool, name: &str| c.units(arena).by_name(name).and_then(|u| u.attack).map(|a| a.kind);
        // The built-in catalog states none: each is its summoner's (Instinct cards, default attack).
        assert_eq!(kind(false, "wildswood-skirmisher"), Some(DamageKind::Physical));
        assert_eq!(kind(false, "daemonspawn"), Some(DamageKind::Magical));
        assert_eq!(kind(false, "waterbound"), Some(DamageKind::Magical));
        assert_eq!(kind(true, "daemonspawn"), Some(DamageKind::Magical));
        assert_eq!(kind(true, "wildswood-skirmisher"), Some(DamageKind::Physical));
        // Every other number of the line is read as written.
        let imp = c.hunt.by_name("daemonspawn").and_then(|u| u.attack);
        assert_eq!(imp.map(|a| (a.range, a.damage, a.dice)), Some((1, 1, 1)));

        let base = "\
skill bolt
  kind active
  attack physical range 2 damage 1 dice 1
seeker caller
  speed 4
  health 9
  attack magical range 2 damage 2 dice 2
  defense 1 1
  skills bolt
seeker mute
  speed 4
  health 9
  defense 1 1
creature fiend
  resource heart
  threat 1 health 9 defense 1 1
  threat 2 health 9 defense 1 1
  threat 3 health 9 defense 1 1
instinct fiend-1
  creature fiend
  target enemy nearest
  move advance 3
  attack physical range 1 damage 1 dice 1
instinct fiend-2
  creature fiend
  target enemy nearest
  move advance 3
  attack magical range 1 damage 1 dice 1
";
        let summon = |of: &str, attack: &str| {
            format!("{base}summon imp\n  mode hunt\n  of {of}\n  speed 3\n  attack {attack}\n  defense 0 0\n")
        };
        // A Seeker's Damage Type is its default attack's, not an attack skill's.
        let c =
            Catalog::parse(&summon("caller", "range 1 damage 1 dice 1")).unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(c.hunt.by_name("imp").and_then(|u| u.attack).map(|a| a.kind), Some(DamageKind::Magical));
        // A stated type is "otherwise noted": kept, the summoner's or not.
        let c = Catalog::parse(&summon("caller", "physical range 1 damage 1 dice 1"))
            .unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(c.hunt.by_name("imp").and_then(|u| u.attack).map(|a| a.kind), Some(DamageKind::Physical));
        let c = Catalog::parse(&summon("fiend", "magical range 1 damage 1 dice 1"))
            .unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(c.hunt.by_name("imp").and_then(|u| u.attack).map(|a| a.kind), Some(DamageKind::Magical));
        // No one type to share: the catalog must state it, on the attack line.
        let line = base.lines().count() + 5;
        for (of, why) in [("fiend", "physical and magical"), ("mute", "no default attack")] {
            let e = Catalog::parse(&summon(of, "range 1 damage 1 dice 1")).unwrap_err().join("\n");
            assert!(e.contains(&format!("line {line}:")) && e.contains(why), "{of}: {e}");
            assert!(e.contains("`attack physical|magical range ...`"), "{e}");
        }
        // Only a summon's line may leave the type out.
        let e = Catalog::parse(&base.replace("attack magical range 2 damage 2", "attack range 2 damage 2"))
            .unwrap_err();
        assert!(e.join("\n").contains("line 7:"), "{e:?}");
    }
}

/// A `silvestrem ID` block: `type whim|edict|demand` and `text` lines.
fn read_silvestrem(head: &Line<'_>, props: &[Line<'_>], p: &mut Problems) -> Option<Silvestrem> {
    let mut kind = None;
    let mut text = Vec::new();
    let mut condition = None;
    for line in props {
        match line.head() {
            "type" => kind = p.check(line.number, line.rest().parse::<SilvestremKind>()),
            "condition" => condition = p.check(line.number, line.rest().parse::<Condition>()),
            "text" => text.push(line.rest().to_string()),
            other => p.at(
                line.number,
                format!(
                    "a property of a Silvestrem card (`type whim|edict|demand`, `condition`, `text`), found `{other}`"
                ),
            ),
        }
    }
    if kind.is_none() {
        p.at(head.number, format!("silvestrem `{}` needs a `type` line", head.rest()));
    }
    Some(Silvestrem { kind: kind?, condition, text })
}
