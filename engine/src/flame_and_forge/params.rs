//! Setup parameters and interpretations, and their typed form (`Config`).
//!
//! Every reading of a passage the rulebook leaves silent or contradicts is a named parameter
//! with a default that follows the plain words and the book's own worked examples.

use crate::kit::named::named_enum;
use crate::kit::rules::Readings;
use crate::{ParamKind, ParamSpec, Setup};

named_enum! {
    /// The table's difficulty (the event deck's composition).
    pub enum Difficulty ("a difficulty") { Easy = "easy", Medium = "medium", Hard = "hard" }
}
named_enum! {
    /// The scenario played: 01 (The Dragon Sleeps) or none (the base rules alone).
    pub enum Scenario ("a scenario") { S01 = "01", Free = "none" }
}
named_enum! {
    /// Unlockable packs in play.
    pub enum Packs ("a pack list") { Locked = "none", A = "a" }
}
named_enum! {
    /// `win-order`: when a won challenge's pending actions come.
    pub enum WinOrder ("a win order") { Text = "text", Caption = "caption" }
}
named_enum! {
    /// `win-pending`: whether a won challenge's pending actions may be declined.
    pub enum WinPending ("a reading") { May = "may", Must = "must" }
}
named_enum! {
    /// `haste`: whether a Haste placement may be declined.
    pub enum Haste ("a reading") { May = "may", Must = "must" }
}
named_enum! {
    /// `retreat-placement`: whether the placement after a retreat may be declined.
    pub enum RetreatPlacement ("a reading") { Must = "must", May = "may" }
}
named_enum! {
    /// `win-check`: when a challenge's successes reaching the adversary's strength win it.
    pub enum WinCheck ("a timing") { CardEnd = "card-end", Immediate = "immediate" }
}
named_enum! {
    /// `win-events`: how many Win-a-Challenge events a win discards.
    pub enum WinEvents ("a count") { One = "one", All = "all" }
}
named_enum! {
    /// `frenzy-cards`: whether a card revealed to pay Battle Frenzy is resolved.
    pub enum FrenzyCards ("a reading") { Resolve = "resolve", SetAside = "set-aside" }
}
named_enum! {
    /// `reshuffle`: when a challenge deck that ran out is made again from the discard pile.
    pub enum Reshuffle ("a reading") { OnDraw = "on-draw", WhenEmpty = "when-empty" }
}
named_enum! {
    /// `end-timing`: when the game's end is checked.
    pub enum EndTiming ("a timing") { Phase4 = "phase4", Immediate = "immediate" }
}
named_enum! {
    /// `book-tokens`: where the book tokens start.
    pub enum BookTokens ("a reading") { OnePerSubject = "one-per-subject", Single = "single" }
}
named_enum! {
    /// `two-player-spot`: which spots a two-player raid skips.
    pub enum TwoPlayerSpot ("a reading") { SkipBlank = "skip-blank", SkipBlocked = "skip-blocked" }
}
named_enum! {
    /// `well-rested`: what Scenario 01's starting "Heal 2" token is.
    pub enum WellRested ("a reading") { AdvancedToken = "advanced-token", HealingLevel = "healing-level" }
}
named_enum! {
    /// `strength-scope`: which cards Strength counts.
    pub enum StrengthScope ("a scope") { DeckOnly = "deck-only", AllCards = "all-cards" }
}
named_enum! {
    /// `rank-boundary`: which rank a score on a boundary (10, 20, 30, 40) gets.
    pub enum RankBoundary ("a reading") { LowerInclusive = "lower-inclusive", UpperInclusive = "upper-inclusive" }
}
named_enum! {
    /// `warrior-fire`: where the Warrior's two fires come from.
    pub enum WarriorFire ("a reading") { AdjacentTiles = "adjacent-tiles", TileOrAdjacent = "tile-or-adjacent" }
}
named_enum! {
    /// `challenge-at-zero`: a challenge begun at 0 health.
    pub enum ChallengeAtZero ("a reading") { PassesOut = "passes-out", Forbidden = "forbidden" }
}
named_enum! {
    /// `forge-refill`: when the Forge's empty spot is refilled after a forge.
    pub enum ForgeRefill ("a timing") { Immediate = "immediate", AfterEvents = "after-events" }
}
named_enum! {
    /// `empty-event-deck`: Phase 2 with no card left in the event deck.
    pub enum EmptyEventDeck ("a reading") { Skip = "skip", Lost = "lost" }
}
named_enum! {
    /// `raid-spots`: whether the gems and the challenge of a raid's step 3 may come between two
    /// of its spots.
    pub enum RaidSpots ("a reading") { Interleave = "interleave", Block = "block" }
}
named_enum! {
    /// `relics-forge`: how the Relics track's free forge pays an item costing more gems than
    /// its multicolour gems.
    pub enum RelicsForge ("a reading") { WithStash = "with-stash", MulticolourOnly = "multicolour-only" }
}
named_enum! {
    /// `relics-events`: whether the Relics track's free forge may decline its item's events.
    pub enum RelicsEvents ("a reading") { May = "may", Must = "must" }
}
named_enum! {
    /// `negative-rank`: the rank of a negative team score.
    pub enum NegativeRank ("a reading") { None = "none", Rookie = "rookie" }
}
named_enum! {
    /// `fire-off-city`: what a grey fire icon (or the Warrior) may reach with no city tile in
    /// play (a Regroup).
    pub enum FireOffCity ("a reading") { None = "none", AnyTile = "any-tile" }
}

named_enum! {
    /// `beast-order`: Scenario 01's Bored Beast against a special dwarf's ability when a dwarf
    /// is placed in the dragon's Castle.
    pub enum BeastOrder ("an order") { BeastFirst = "beast-first", AbilityFirst = "ability-first" }
}

pub const PLAYERS: &str = "players";
pub const DIFFICULTY: &str = "difficulty";
pub const SCENARIO: &str = "scenario";
pub const PACKS: &str = "packs";

/// Every parameter the game accepts.
pub static PARAMS: &[ParamSpec] = &[
    ParamSpec {
        name: PLAYERS,
        kind: ParamKind::Setup,
        allowed: &["1", "2", "3", "4"],
        default: "2",
        doc: "How many dwarfs' bands play (1-4): the event deck's size, 3 one-VP monsters per player, \
              the bonus gems and the Dragon's score depend on it.",
        section: "Game Setup 5, 7.6, 8; End Game Scoring",
    },
    ParamSpec {
        name: DIFFICULTY,
        kind: ParamKind::Setup,
        allowed: Difficulty::NAMES,
        default: Difficulty::Medium.name(),
        doc: "The row of the event table used: how many S, T and D cards make the event deck.",
        section: "Game Setup 8 (l.111-115)",
    },
    ParamSpec {
        name: SCENARIO,
        kind: ParamKind::Setup,
        allowed: Scenario::NAMES,
        default: Scenario::S01.name(),
        doc: "The scenario: `01` (The Dragon Sleeps: Bored Beast, Sleeping Dragon, Well Rested, the \
              catalog's scenario 01 city) or `none` (the base rules alone, the catalog's Dragon).",
        section: "Game Setup 1; Scenario 01",
    },
    ParamSpec {
        name: PACKS,
        kind: ParamKind::Setup,
        allowed: Packs::NAMES,
        default: Packs::Locked.name(),
        doc: "Unlocked packs: `a` once the Dragon has been beaten (Pack A's dragonslayer cards, in every \
              scenario from then on: \"Once unlocked the cards (and rules) should be applied to ALL \
              scenarios\").",
        section: "Warning (l.44-48); When You Defeat the Dragon, Open Pack A",
    },
    ParamSpec {
        name: "win-order",
        kind: ParamKind::Interpretation,
        allowed: WinOrder::NAMES,
        default: WinOrder::Text.name(),
        doc: "The text (l.255) orders a won challenge: the monster to the discard pile, one Win-a-Challenge \
              event discarded (+1 health), \"immediately draw the top of the Dragon deck and resolve it\", \
              \"Then finally you may resolve all the cards that you played\". The caption (l.257) says \
              \"Add the defeated monster ... Then resolve any pending actions. Discard resolved events ... \
              Draw and resolve a Reaction card\". `text`: events, Retaliation, then pending actions; \
              `caption`: pending actions, events, then Retaliation.",
        section: "Resolving a Challenge (l.255, l.257)",
    },
    ParamSpec {
        name: "win-events",
        kind: ParamKind::Interpretation,
        allowed: WinEvents::NAMES,
        default: WinEvents::One.name(),
        doc: "l.255: \"remove one active event card that has a discard condition Win a Challenge. If there \
              are more than one such events active, you choose which one\" against the caption (l.257): \
              \"Discard resolved events to the bottom of the event deck. Gain one health for each event \
              discarded this way.\" `one`: one event (the text's plain words); `all`: every such event.",
        section: "Resolving a Challenge (l.255, l.257)",
    },
    ParamSpec {
        name: "win-pending",
        kind: ParamKind::Interpretation,
        allowed: WinPending::NAMES,
        default: WinPending::May.name(),
        doc: "After a win the text (l.255) says \"Then finally you may resolve all the cards that you \
              played\"; its caption (l.257) says \"Then resolve any pending actions\", as fleeing does \
              (l.251 \"Resolve all the pending actions\"). `may`: the winner may decline the pending \
              actions still to come (`pass`), the text's plain words; `must`: they are resolved.",
        section: "Resolving a Challenge (l.251, l.255, l.257)",
    },
    ParamSpec {
        name: "frenzy-cards",
        kind: ParamKind::Interpretation,
        allowed: FrenzyCards::NAMES,
        default: FrenzyCards::Resolve.name(),
        doc: "l.247: \"you place the revealed card in a separate pile\" against l.237 \"you MUST resolve \
              ... ALL symbols on it\" and the example (l.245), where the two cards revealed for the \
              Frenzy win the fight. `resolve`: a card revealed to pay Battle Frenzy pays one and is \
              resolved like any other; `set-aside`: it pays one and its symbols are not resolved.",
        section: "Battle Frenzy (l.245-247)",
    },
    ParamSpec {
        name: "reshuffle",
        kind: ParamKind::Interpretation,
        allowed: Reshuffle::NAMES,
        default: Reshuffle::OnDraw.name(),
        doc: "l.243: \"If you do not have any more cards left, but there are cards in your discard pile, \
              you shuffle your discard pile, create a new challenge deck and continue drawing\"; l.259: \
              shuffle \"ONLY when you resolve a Retire action or you run out of cards during a challenge \
              ... and keep on fighting\". `on-draw`: the shuffle is made to draw on, so a player who flees \
              after revealing their last card does not shuffle (the cards of the challenge then join \
              the discard pile the next draw shuffles), as a won challenge does not; `when-empty`: the \
              discard pile is shuffled in as soon as the deck runs out, before the player may flee.",
        section: "Resolving a Challenge (l.243, l.259)",
    },
    ParamSpec {
        name: "haste",
        kind: ParamKind::Interpretation,
        allowed: Haste::NAMES,
        default: Haste::May.name(),
        doc: "l.213: \"this action may even award you Haste again and you may do this multiple times if \
              able\" against the icon's abridged \"Place (and resolve) one additional dwarf\" (l.228). `may`: \
              a Haste placement is a permission, the player may decline it (`pass`), before the retreat an \
              empty campfire would owe for it, too; `must`: every Haste placement is made.",
        section: "Haste (l.213); Actions Overview (l.228)",
    },
    ParamSpec {
        name: "retreat-placement",
        kind: ParamKind::Interpretation,
        allowed: RetreatPlacement::NAMES,
        default: RetreatPlacement::Must.name(),
        doc: "l.203: \"Retreating does not count as an action, you will still resolve your action afterward \
              normally\" against the example l.211: \"their next action will start with a Retreat and then \
              they may place a dwarf afterward\". `must`: the rule's plain words, Phase 3's placement (l.170) \
              follows the retreat as any turn's does, and the example's \"may\" says the placement is possible \
              again (the retreat is what makes it so), not that it may be skipped; `may`: the player may \
              decline it (`pass`) and the turn goes on to Phase 4.",
        section: "Retreat (l.203-211); Phase 3 (l.170)",
    },
    ParamSpec {
        name: "win-check",
        kind: ParamKind::Interpretation,
        allowed: WinCheck::NAMES,
        default: WinCheck::CardEnd.name(),
        doc: "l.237: \"When you reveal a card from your challenge deck, you MUST resolve from left to right ALL \
              symbols on it\" against l.255: \"You Won: You have at least 1 health, you scored enough successes \
              ... The challenge immediately ends\". `card-end`: the card's symbols are all resolved and the \
              win is checked then (a burst after the winning axe still costs its health); `immediate`: the \
              challenge is won as soon as a symbol brings the successes to the adversary's strength with no \
              Battle Frenzy owed, and the card's later symbols are not resolved (as at 0 health, l.253).",
        section: "Resolving a Challenge (l.237, l.253-255)",
    },
    ParamSpec {
        name: "end-timing",
        kind: ParamKind::Interpretation,
        allowed: EndTiming::NAMES,
        default: EndTiming::Phase4.name(),
        doc: "l.154: \"If at any point you have 7 scorched tiles in the city, you lose the game\" against \
              Phase 4 (l.342-346), which checks in order \"Was the dragon defeated this turn?\" then \
              \"Are 7 city tiles scorched?\". `phase4`: the turn is finished and Phase 4 decides, a Dragon \
              beaten in the same turn winning; `immediate`: a 7th scorched tile loses at once and a \
              beaten Dragon wins at once.",
        section: "Anytime you are placing fire (l.154); Phase 4 (l.342-346)",
    },
    ParamSpec {
        name: "book-tokens",
        kind: ParamKind::Interpretation,
        allowed: BookTokens::NAMES,
        default: BookTokens::OnePerSubject.name(),
        doc: "l.99: \"Each player places one of their book tokens at the first level on the Library \
              board\" (each has 3, l.67), while the research example (l.292-298) advances one player on \
              all three subjects. `one-per-subject`: a token on the first level of each subject; \
              `single`: one token, on the first level of the subject named at the seat \
              (`seat blue miner books legends`); a research on a subject without a token brings a \
              reserve token to its first level.",
        section: "Game Setup 7.5 (l.99); Research (l.292-298)",
    },
    ParamSpec {
        name: "two-player-spot",
        kind: ParamKind::Interpretation,
        allowed: TwoPlayerSpot::NAMES,
        default: TwoPlayerSpot::SkipBlank.name(),
        doc: "l.178, two players: \"place it on the leftmost empty spot with an available action to \
              constrict you\". `skip-blank`: skip empty spots with no action icon; `skip-blocked`: also \
              skip a spot whose action begins with a gem exchange the player cannot pay. With no such \
              spot, the leftmost empty one.",
        section: "City Raid (l.178)",
    },
    ParamSpec {
        name: "well-rested",
        kind: ParamKind::Interpretation,
        allowed: WellRested::NAMES,
        default: WellRested::AdvancedToken.name(),
        doc: "Scenario 01, l.409: \"all players start with a research token on slot 4 'Heal 2 when you \
              retreat to your campfire'\". The book's words decide it: the Library's places are levels \
              (l.99, l.334), steps (l.288, l.300) and spots (l.306, l.318, l.326) and the tokens on it book \
              tokens (l.67, l.99, l.288), while a slot is where an advanced research token goes on the \
              player board (l.334 \"The token they chose goes on the appropriate slot on their player \
              board\"); the Healing track adds such a token to the campfire's heal (l.326 \"the topmost \
              ability you have in this track plus any advanced research token if applicable\", Retreat \
              l.206); and the book's Healing example heals 2 after one step from the first level (l.296, \
              l.328), not on a fourth level. `advanced-token` (the plain words): the book tokens start on \
              level 1 (7.5, l.99) and each player starts with an active token \"campfire heal 2\", as an \
              advanced research token, added to the campfire's own heal (no Prestige); `healing-level`: \
              the player's Healing book token starts on level 4 (Prestige and later research count from \
              there, its campfire heals as that level says). Under `advanced-token` the token competes \
              with those kept later: l.338 \"If a player manages to acquire more than one such tokens, \
              they choose one of them to keep active on their player board and the rest remain in their \
              stash\" speaks of tokens acquired, and the scenario gives this one rather than the player \
              acquiring it, so the book leaves it open; the reading takes it as one of \"such tokens\" (it \
              is a token on the board's slot, l.334, where one token is active), the only reading under \
              which it is an advanced token at all. A token kept goes to the stash (Well Rested staying \
              active) unless the player's next decision is `activate` it; `activate P well-rested` \
              brings Well Rested back on a regroup or a retreat.",
        section: "Scenario 01, Additional Rules (l.409); Healing Track (l.326); Advanced Research (l.334, l.338)",
    },
    ParamSpec {
        name: "strength-scope",
        kind: ParamKind::Interpretation,
        allowed: StrengthScope::NAMES,
        default: StrengthScope::DeckOnly.name(),
        doc: "l.366: \"Strength: Add all the VP from cards in their Challenge Deck\". The book keeps the \
              challenge deck and its discard pile apart throughout (l.97 \"This is their challenge deck. \
              Leave room next to your player board for its discard pile\"; l.243 a deck that ran out is \
              made again from the discard pile; l.259 \"Your discard pile is open information but not your \
              deck\"; l.275 the Retire action \"combine[s] your discard pile with your challenge deck\"), \
              no end-game step merges them (l.342-378), and the only worked player score (l.376 \"Blue \
              Player points: 32 points\") gives no parts. `deck-only` (the plain words): the VP of the \
              cards in the face-down deck pile; `all-cards`: every card the player owns and did not retire \
              (deck and discard pile, \"deck\" read as the cards they fight with).",
        section: "End Game Scoring (l.366); Game Setup 7.4 (l.97); Resolving a Challenge (l.243, l.259); Retire (l.275)",
    },
    ParamSpec {
        name: "rank-boundary",
        kind: ParamKind::Interpretation,
        allowed: RankBoundary::NAMES,
        default: RankBoundary::LowerInclusive.name(),
        doc: "The rank table (l.381-385) lists \"0 to 10\", \"10 to 20\", ... \"40+\". `lower-inclusive`: \
              10 is Guardian; `upper-inclusive`: 10 is Rookie. A negative team score: see `negative-rank`.",
        section: "End Game Scoring (l.380-385)",
    },
    ParamSpec {
        name: "warrior-fire",
        kind: ParamKind::Interpretation,
        allowed: WarriorFire::NAMES,
        default: WarriorFire::AdjacentTiles.name(),
        doc:
            "l.311, the Warrior \"removes two adjacent fire tokens\". `adjacent-tiles`: from tiles adjacent \
              to the Warrior's tile; `tile-or-adjacent`: from its own tile too (before the fire damage of \
              step 2). From a Regroup, as `fire-off-city` says.",
        section: "Legends Track (l.311)",
    },
    ParamSpec {
        name: "challenge-at-zero",
        kind: ParamKind::Interpretation,
        allowed: ChallengeAtZero::NAMES,
        default: ChallengeAtZero::PassesOut.name(),
        doc: "l.183 lets a raid go on at 0 health and l.253 ends a challenge \"immediately\" at 0 health. \
              `passes-out`: a challenge begun at 0 health is lost at once, with no pending actions; \
              `forbidden`: it cannot be begun.",
        section: "City Raid (l.183); Resolving a Challenge (l.253)",
    },
    ParamSpec {
        name: "forge-refill",
        kind: ParamKind::Interpretation,
        allowed: ForgeRefill::NAMES,
        default: ForgeRefill::Immediate.name(),
        doc: "l.265: \"When you forge an item, take the card and place it in your discard pile. Immediately \
              draw a new item from the top of the market deck and place it face up refilling the empty spot\"; \
              the matching events are discarded in the next paragraph (l.269), and the examples' captions \
              (l.271, l.320) go from the item in the discard pile straight to the events, with no refill. \
              `immediate`: the refill comes as soon as the item is in the discard pile, before the events \
              (the text's plain words); `after-events`: the item, then its events (and their health), then \
              the refill, as the captions run.",
        section: "Forge (l.265-271); Relics Track (l.320)",
    },
    ParamSpec {
        name: "empty-event-deck",
        kind: ParamKind::Interpretation,
        allowed: EmptyEventDeck::NAMES,
        default: EmptyEventDeck::Skip.name(),
        doc: "Phase 2 (l.162) says \"Draw and reveal the top card from the Event Deck\"; the book says \
              nothing of a deck with no card left (every event card active: discarded events go to its \
              bottom). `skip`: there is no card to draw, so Phase 2 draws none and the turn goes on to \
              Phase 3 (the plain words act on a card that is not there); `lost`: the city is overrun \
              (l.166 \"having 7+ events active will lose you the game very quickly\"), the game is lost \
              at once.",
        section: "Phase 2 (l.160-166)",
    },
    ParamSpec {
        name: "fire-off-city",
        kind: ParamKind::Interpretation,
        allowed: FireOffCity::NAMES,
        default: FireOffCity::None.name(),
        doc: "The grey fire icon (l.226): \"Remove a fire token from either the current city tile, or any \
              tile adjacent\"; the Warrior (l.311) \"removes two adjacent fire tokens\". A Regroup (on \
              the player board, l.195) has no city tile; the book does not say what these reach then. \
              `none`: the plain words name the current city tile and its neighbours, and there is none, \
              so no fire is removed; `any-tile`: a fire anywhere in the city.",
        section: "Actions Overview (l.226); Legends Track (l.311); Regroup (l.195-201)",
    },
    ParamSpec {
        name: "raid-spots",
        kind: ParamKind::Interpretation,
        allowed: RaidSpots::NAMES,
        default: RaidSpots::Interleave.name(),
        doc: "l.184: \"Finally resolve the tile actions in any order you choose:\" then (l.185) \"When resolving \
              the tile's spots, you perform all action one at a time left to right, starting from the spot you \
              just placed your dwarf on\", (l.186) the gems, (l.187) the challenge. The book does not say \
              whether the spots are one of three parts or each spot a tile action of its own. `interleave`: \
              the plain words, every tile action in the player's order, the spots' own order left to right: \
              the gems and the challenge may come before the spots, after them, or between two of them (not \
              in the middle of one spot's icons: \"one at a time\"); `block`: the spots are one part, \
              resolved together, the gems and the challenge before or after them.",
        section: "City Raid (l.184-187)",
    },
    ParamSpec {
        name: "relics-forge",
        kind: ParamKind::Interpretation,
        allowed: RelicsForge::NAMES,
        default: RelicsForge::WithStash.name(),
        doc: "l.318: \"immediately perform a forge having one ore more multicolor gems for free\"; the example \
              (l.320) \"got a forge action and 3 multicolor gems... They forge this sword for free\"; l.269: \
              \"whether you paid the gem from your stash or if you got a multicolor gem as a bonus for an \
              action\". Silent on an item costing more gems than the reward's multicolour gems. \
              `with-stash`: the plain words, a forge (paid from the stash, l.265) in which the player also \
              has the free multicolour gems: they pay what they can (the colours the stash lacks first), \
              the stash the rest; `multicolour-only`: the forge is free (\"forge this sword for free\"), \
              so only an item the multicolour gems pay in full may be taken.",
        section: "Relics Track (l.318, l.320); Forge (l.265, l.269)",
    },
    ParamSpec {
        name: "relics-events",
        kind: ParamKind::Interpretation,
        allowed: RelicsEvents::NAMES,
        default: RelicsEvents::May.name(),
        doc: "l.318: \"immediately perform a forge having one ore more multicolor gems for free. ... However, \
              items forged this way may Discard events as normal\" against the forge's own \"For each gem \
              that is part of the forging cost, discard one matching Event\" (l.269) and the example \
              (l.320), where they are discarded. `may`: the plain words, a permission: the player may \
              decline the item's events still to discard (`pass`, the health of one already discarded \
              being still gained); `must`: they are discarded as a forge's are.",
        section: "Relics Track (l.318, l.320); Forge (l.269)",
    },
    ParamSpec {
        name: "beast-order",
        kind: ParamKind::Interpretation,
        allowed: BeastOrder::NAMES,
        default: BeastOrder::BeastFirst.name(),
        doc: "Scenario 01's Bored Beast (l.405): \"every time a player places one of their dwarfs in the \
              dragon's castle, they will take one damage AND get one automatic success\", against the raid's \
              order (l.180-182): \"To resolve a raid, after placing your dwarf perform the following in \
              order: 1. First you perform your special dwarf's ability (if applicable)\". The Beast is no step \
              of that list: its trigger is the placing itself, which the list comes after (\"after placing \
              your dwarf\"), while \"First\" may be read as putting the ability before anything the raid \
              brings. The worked examples that reach the Castle (l.193; l.209, a King raiding it) say \
              nothing of the Beast, so the book does not settle it. `beast-first`: the Beast's damage and \
              success at the placing, then the ability (the engine's only reading up to rules version 13, \
              kept as default since neither passage's plain words decide it); `ability-first`: the ability, \
              then the Beast. They differ for a Guardian (+3 health) entering at 5-7 health: 1 damage then \
              +3 ends at 7, +3 (capped at 7) then 1 damage at 6.",
        section: "Scenario 01, Additional Rules (l.405); City Raid (l.180-182)",
    },
    ParamSpec {
        name: "negative-rank",
        kind: ParamKind::Interpretation,
        allowed: NegativeRank::NAMES,
        default: NegativeRank::None.name(),
        doc: "l.378: \"add all the players' scores together and then subtract the Dragon's score, this gives \
              you your final total score. Check the table on the right to find out how well you did\"; the \
              table (l.380-385) starts at \"Rookie 0 to 10\". The book is silent on a score below 0, which the \
              subtraction can give. `none`: the table's plain words, no row holds it, so no rank (`-`); \
              `rookie`: the lowest rank, as every score below 10.",
        section: "End Game Scoring (l.378-385)",
    },
];

/// The setup, read and typed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Config {
    pub players: u8,
    pub difficulty: Difficulty,
    pub scenario: Scenario,
    pub packs: Packs,
    pub win_order: WinOrder,
    pub win_events: WinEvents,
    pub win_pending: WinPending,
    pub frenzy_cards: FrenzyCards,
    pub reshuffle: Reshuffle,
    pub haste: Haste,
    pub retreat_placement: RetreatPlacement,
    pub win_check: WinCheck,
    pub end_timing: EndTiming,
    pub book_tokens: BookTokens,
    pub two_player_spot: TwoPlayerSpot,
    pub well_rested: WellRested,
    pub strength_scope: StrengthScope,
    pub rank_boundary: RankBoundary,
    pub warrior_fire: WarriorFire,
    pub challenge_at_zero: ChallengeAtZero,
    pub forge_refill: ForgeRefill,
    pub empty_event_deck: EmptyEventDeck,
    pub fire_off_city: FireOffCity,
    pub raid_spots: RaidSpots,
    pub relics_forge: RelicsForge,
    pub relics_events: RelicsEvents,
    pub negative_rank: NegativeRank,
    pub beast_order: BeastOrder,
}

impl Config {
    /// Read a setup; every problem goes to `r`.
    pub fn read(setup: &Setup) -> (Config, Readings) {
        let mut r = Readings::new(setup, PARAMS);
        let config = Config {
            players: r.number(PLAYERS, 1, 4, 2) as u8,
            difficulty: r.get(DIFFICULTY, Difficulty::Medium),
            scenario: r.get(SCENARIO, Scenario::S01),
            packs: r.get(PACKS, Packs::Locked),
            win_order: r.get("win-order", WinOrder::Text),
            win_events: r.get("win-events", WinEvents::One),
            win_pending: r.get("win-pending", WinPending::May),
            frenzy_cards: r.get("frenzy-cards", FrenzyCards::Resolve),
            reshuffle: r.get("reshuffle", Reshuffle::OnDraw),
            haste: r.get("haste", Haste::May),
            retreat_placement: r.get("retreat-placement", RetreatPlacement::Must),
            win_check: r.get("win-check", WinCheck::CardEnd),
            end_timing: r.get("end-timing", EndTiming::Phase4),
            book_tokens: r.get("book-tokens", BookTokens::OnePerSubject),
            two_player_spot: r.get("two-player-spot", TwoPlayerSpot::SkipBlank),
            well_rested: r.get("well-rested", WellRested::AdvancedToken),
            strength_scope: r.get("strength-scope", StrengthScope::DeckOnly),
            rank_boundary: r.get("rank-boundary", RankBoundary::LowerInclusive),
            warrior_fire: r.get("warrior-fire", WarriorFire::AdjacentTiles),
            challenge_at_zero: r.get("challenge-at-zero", ChallengeAtZero::PassesOut),
            forge_refill: r.get("forge-refill", ForgeRefill::Immediate),
            empty_event_deck: r.get("empty-event-deck", EmptyEventDeck::Skip),
            fire_off_city: r.get("fire-off-city", FireOffCity::None),
            raid_spots: r.get("raid-spots", RaidSpots::Interleave),
            relics_forge: r.get("relics-forge", RelicsForge::WithStash),
            relics_events: r.get("relics-events", RelicsEvents::May),
            negative_rank: r.get("negative-rank", NegativeRank::None),
            beast_order: r.get("beast-order", BeastOrder::BeastFirst),
        };
        (config, r)
    }

    /// The event table (l.111-115): S, T and D cards for this player count and difficulty.
    pub fn event_mix(&self) -> [usize; 3] {
        let row: [[usize; 3]; 3] = match self.players {
            1 => [[10, 6, 2], [12, 4, 3], [12, 2, 4]],
            2 => [[10, 6, 1], [12, 4, 2], [12, 2, 3]],
            3 => [[9, 6, 1], [10, 4, 2], [10, 3, 3]],
            _ => [[8, 6, 1], [10, 6, 2], [10, 4, 2]],
        };
        row[self.difficulty.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::rules::check_reading;

    #[test]
    fn every_reading_parses_and_the_event_table_is_the_books() {
        check_reading::<Difficulty>(PARAMS, DIFFICULTY).unwrap();
        check_reading::<Scenario>(PARAMS, SCENARIO).unwrap();
        check_reading::<Packs>(PARAMS, PACKS).unwrap();
        check_reading::<WinOrder>(PARAMS, "win-order").unwrap();
        check_reading::<WinEvents>(PARAMS, "win-events").unwrap();
        check_reading::<FrenzyCards>(PARAMS, "frenzy-cards").unwrap();
        check_reading::<Reshuffle>(PARAMS, "reshuffle").unwrap();
        check_reading::<Haste>(PARAMS, "haste").unwrap();
        check_reading::<RetreatPlacement>(PARAMS, "retreat-placement").unwrap();
        check_reading::<WinCheck>(PARAMS, "win-check").unwrap();
        check_reading::<EndTiming>(PARAMS, "end-timing").unwrap();
        check_reading::<BookTokens>(PARAMS, "book-tokens").unwrap();
        check_reading::<TwoPlayerSpot>(PARAMS, "two-player-spot").unwrap();
        check_reading::<WellRested>(PARAMS, "well-rested").unwrap();
        check_reading::<StrengthScope>(PARAMS, "strength-scope").unwrap();
        check_reading::<RankBoundary>(PARAMS, "rank-boundary").unwrap();
        check_reading::<WarriorFire>(PARAMS, "warrior-fire").unwrap();
        check_reading::<ChallengeAtZero>(PARAMS, "challenge-at-zero").unwrap();
        check_reading::<ForgeRefill>(PARAMS, "forge-refill").unwrap();
        check_reading::<EmptyEventDeck>(PARAMS, "empty-event-deck").unwrap();
        check_reading::<FireOffCity>(PARAMS, "fire-off-city").unwrap();
        check_reading::<RaidSpots>(PARAMS, "raid-spots").unwrap();
        check_reading::<RelicsForge>(PARAMS, "relics-forge").unwrap();
        check_reading::<RelicsEvents>(PARAMS, "relics-events").unwrap();
        check_reading::<NegativeRank>(PARAMS, "negative-rank").unwrap();
        check_reading::<BeastOrder>(PARAMS, "beast-order").unwrap();
        // Totals per row as the spec reads the table: 1 player 18/19/18 ... 4 players 15/18/16.
        let totals = |players: u8| -> Vec<usize> {
            Difficulty::ALL
                .iter()
                .map(|&difficulty| {
                    let (mut c, _) = Config::read(&Setup::default());
                    c.players = players;
                    c.difficulty = difficulty;
                    c.event_mix().iter().sum()
                })
                .collect()
        };
        assert_eq!(totals(1), [18, 19, 18]);
        assert_eq!(totals(2), [17, 18, 17]);
        assert_eq!(totals(3), [16, 16, 16]);
        assert_eq!(totals(4), [15, 18, 16]);
        let (c, r) = Config::read(&Setup::default().with("players", "5"));
        assert!(r.finish(()).is_err());
        assert_eq!(c.players, 2);
    }
}
