//! The rule catalog: every id the step function can report, with its rulebook section
//! (section heading, and the line of `flame-and-forge.txt` where the rule is printed).

use crate::kit::rules::rules;

rules! {
    // Setup and health.
    SETUP_CITY = "ff.setup.city", "The city is the Dragon's Castle and 21 tiles in 3 territories, each a line of 4 under a line of 3, as the scenario shows; nothing names a tile outside it", "Game Setup 1 (l.52)";
    SETUP_SUPPLY = "ff.setup.supply", "Gems (3 colours) and fire tokens come from the Supply and go back to it; nothing is taken from an empty pile", "Game Setup 2 (l.53); Game Contents";
    SETUP_FORGE = "ff.setup.forge", "The Forge starts as the top 3 cards of the shuffled item deck, face up", "Game Setup 3 (l.54)";
    SETUP_LIBRARY = "ff.setup.library", "Advanced research tokens are three face-down piles, one per subject; a draw comes from its subject's pile", "Game Setup 4 (l.55)";
    SETUP_MONSTER_DECK = "ff.setup.monster-deck", "The monster deck is the shuffled 2VP monsters under 3 per player of the 1VP monsters; the other 1VP monsters leave the game", "Game Setup 5 (l.56)";
    SETUP_RETALIATION_DECK = "ff.setup.retaliation-deck", "The Retaliation deck is the shuffled Dragon cards, changed as the scenario says", "Game Setup 6 (l.57)";
    SETUP_RETALIATION_ORDER = "ff.setup.retaliation-order", "At setup one Retaliation card is resolved per territory: Wastelands, then Valley, then Outskirts", "Game Setup 6 (l.57)";
    RETALIATION_RESOLVE = "ff.retaliation.resolve", "A Retaliation card puts the top monster card by its territory and the monster on the marked tile, then its fire and gems on the marked tiles", "Resolving a Retaliation Card (l.61)";
    RETALIATION_REPLACE = "ff.retaliation.replace", "Whenever a monster is defeated, a new Retaliation card is resolved on its territory at once", "Resolving a Retaliation Card (l.63); l.150; l.255";
    RETALIATION_BOTTOM = "ff.retaliation.bottom", "A resolved Dragon card goes to the bottom of the Dragon deck", "Resolving a Retaliation Card (l.63)";
    SETUP_FIRST_PLAYER = "ff.setup.first-player", "Players take seats in turn order, each with a colour of their own, the first being the First Player, before the first turn", "Game Setup 7 (l.67)";
    SETUP_PLAYER_KIT = "ff.setup.player-kit", "Each player has 7 dwarfs on the campfire and 5 special dwarfs in the stash (upgrades bring them out), 7 starting cards as the challenge deck, 3 book tokens and a heart", "Game Setup 7 (l.67, l.95, l.97)";
    SETUP_BOARD_SIDE = "ff.setup.board-side", "Each player picks a side of their player board (Miner or a guild)", "Game Setup 7.1 (l.69)";
    SETUP_HEALTH = "ff.setup.health", "Health starts at 7", "Game Setup 7.2 (l.93)";
    SETUP_BOOK = "ff.setup.book", "Book tokens start on the first level of the Library (see interpretation book-tokens)", "Game Setup 7.5 (l.99)";
    SETUP_BONUS_GEMS = "ff.setup.bonus-gems", "The second player gets 1 yellow gem, the third 2, the fourth 3; the First Player none", "Game Setup 7.6 (l.101, l.105)";
    SETUP_EVENT_DECK = "ff.setup.event-deck", "The event deck holds the table's numbers of S, T and D cards for the player count and difficulty, chosen at random", "Game Setup 8 (l.107-115)";
    HEALTH_BOUNDS = "ff.health.bounds", "Health never goes above 7 nor below 0: what a change would take beyond is lost", "Game Setup 7.2 (l.93)";
    // Turn, events and fire.
    TURN_ORDER = "ff.turn.order", "Turns go clockwise from the First Player until the game ends", "Game Overview (l.123)";
    TURN_PHASES = "ff.turn.phases", "A turn is: 1 resolve an event, 2 draw an event, 3 place a dwarf, 4 check the end and pass, in that order", "Game Overview (l.125)";
    EVENT_NONE = "ff.event.none", "With no active event Phase 1 is skipped (so the first turn has none)", "Phase 1 (l.129); Game Setup 8 (l.107)";
    EVENT_TOP = "ff.event.top", "Only the rightmost (top) active event is resolved", "Phase 1 (l.131)";
    EVENT_COUNTER = "ff.event.counter", "The action resolved is the one whose Event Counter range holds the number of active events", "Phase 1 (l.131)";
    EVENT_TERRITORY = "ff.event.territory", "One diamond targets the Outskirts, two the Valley, three the Wastelands; none any territory", "Phase 1 (l.133-138)";
    EVENT_TILE = "ff.event.tile", "The target tile has the action's building; with a monster icon and no building, the target is a tile with a monster", "Phase 1 (l.140)";
    EVENT_ICONS = "ff.event.icons", "An action's icons are placed one at a time, each once; with several possible tiles the player may split them", "Phase 1 (l.142)";
    EVENT_FIRE = "ff.event.fire", "A fire icon puts a fire on the target tile; it is ignored when only scorched tiles qualify", "Phase 1 (l.144, l.156)";
    EVENT_GEM = "ff.event.gem", "A gem icon puts a gem of its colour on the target tile", "Phase 1 (l.145)";
    EVENT_DRAW = "ff.event.draw", "Phase 2: the top card of the event deck becomes the rightmost active event (an empty deck: see interpretation empty-event-deck)", "Phase 2 (l.162)";
    EVENT_PERSIST = "ff.event.persist", "An event stays active until a discard condition removes it; resolving it does not", "Phase 2 (l.162-166)";
    FIRE_MONSTER = "ff.fire.monster", "A fire placed on a monster's tile defeats it: the monster joins the Dragon's horde and a Retaliation card is resolved there", "Anytime you are placing fire (l.150)";
    FIRE_PRESENT_DWARF = "ff.fire.present-dwarf", "Dwarfs already on a tile take no damage from a fire placed there", "Anytime you are placing fire (l.152)";
    FIRE_SCORCH = "ff.fire.scorch", "A tile reaching 3 fires is scorched at once: its fires go back to the Supply, it flips, its gems stay", "Anytime you are placing fire (l.154, l.158)";
    FIRE_SCORCHED_TILE = "ff.fire.scorched-tile", "No fire is ever placed on a scorched tile", "Anytime you are placing fire (l.156)";
    END_SCORCHED_LOSS = "ff.end.scorched-loss", "7 scorched tiles lose the game (see interpretation end-timing)", "Anytime you are placing fire (l.154); Phase 4 (l.346)";
    // Placing dwarfs.
    PLACE_MAIN_ACTION = "ff.place.main-action", "Phase 3 places exactly one dwarf from the campfire, on a free player-board spot (Regroup) or a legal tile (City Raid); each Haste adds one", "Phase 3 (l.170)";
    PLACE_ZERO_HEALTH = "ff.place.zero-health", "At 0 health a dwarf may not go to the city: the placement must be a Regroup", "Phase 3 (l.170)";
    RAID_FIRST_LINE = "ff.raid.first-line", "A player with no dwarf in the city raids the bottom line of the Outskirts", "City Raid (l.174)";
    RAID_ADVANCE = "ff.raid.advance", "A later raid goes exactly one line above the player's topmost city dwarf, on a tile adjacent to its tile", "City Raid (l.174)";
    RAID_NO_SAME_LINE = "ff.raid.no-same-line", "Never two dwarfs of one player in a line, never a raid below, and dwarfs never move", "City Raid (l.174)";
    RAID_CASTLE = "ff.raid.castle", "The Castle is the line above the Wastelands, adjacent to its 3 upper tiles; there is nothing above it", "City Raid (l.176)";
    RAID_LEFTMOST = "ff.raid.leftmost", "The dwarf takes the leftmost empty spot of the tile; a tile with no empty spot cannot be raided", "City Raid (l.172)";
    RAID_TWO_PLAYER = "ff.raid.two-player", "With two players the dwarf takes the leftmost empty spot with an available action (see interpretation two-player-spot)", "City Raid (l.178)";
    RAID_SEQUENCE = "ff.raid.sequence", "A raid resolves in order: 1 the special dwarf's ability, 2 fire damage, 3 the tile", "City Raid (l.180-184)";
    RAID_FIRE_DAMAGE = "ff.raid.fire-damage", "1 damage per fire on the tile, and one fire removed per damage actually taken", "City Raid (l.183)";
    RAID_ZERO_CONTINUES = "ff.raid.zero-continues", "The tile is still resolved when fire damage brought health to 0", "City Raid (l.183)";
    RAID_SPOTS = "ff.raid.spots", "The spot actions are performed left to right from the dwarf's spot to the tile's end, skipping spots with another player's dwarf", "City Raid (l.185, l.189)";
    RAID_GEMS = "ff.raid.gems", "The gems on the raided tile are picked up", "City Raid (l.186)";
    RAID_CHALLENGE_OPTION = "ff.raid.challenge-option", "A monster on the raided tile (the Dragon in the Castle) may be challenged, once", "City Raid (l.187)";
    RAID_STEP3_ORDER = "ff.raid.step3-order", "Step 3's tile actions (the spots left to right, the gems, the challenge) come in the order the player chooses, each once, a spot's icons one at a time (see interpretation raid-spots)", "City Raid (l.184)";
    REGROUP_LEFTMOST = "ff.regroup.leftmost", "A Regroup dwarf takes the leftmost free spot of the player board; a full board takes none", "Regroup (l.195)";
    REGROUP_SEQUENCE = "ff.regroup.sequence", "A Regroup resolves the special ability, then the action of its spot and of every spot to its right", "Regroup (l.197-201)";
    RETREAT_TRIGGER = "ff.retreat.trigger", "A player with no dwarf in the campfire, or no legal placement, retreats before placing, and only then", "Retreat (l.203, l.209, l.211)";
    RETREAT_FREE = "ff.retreat.free", "Retreating is not an action: the placement still follows", "Retreat (l.203)";
    RETREAT_RETURN = "ff.retreat.return", "A retreat returns all of the player's dwarfs, city and board, to the campfire (so the raid path starts again); other players' dwarfs stay", "Retreat (l.205)";
    RETREAT_CAMPFIRE = "ff.retreat.campfire", "Then the campfire's top Healing level heals, plus an active advanced token with the campfire icon", "Retreat (l.206); Healing Track (l.326)";
    RETREAT_GEM_LIMIT = "ff.retreat.gem-limit", "Then the stash is cut to 7 gems, the player choosing the discards", "Retreat (l.207)";
    HASTE_AFTER = "ff.haste.after", "A Haste placement happens only after the current placement is fully resolved", "Haste (l.213)";
    HASTE_REPEAT = "ff.haste.repeat", "Each Haste gives one more placement; each is resolved in full before the next", "Haste (l.213)";
    // Action icons.
    ICON_GEM = "ff.icon.gem", "A gem icon takes that gem from the Supply", "Actions Overview (l.219)";
    ICON_HEART = "ff.icon.heart", "A heart icon gains 1 health", "Actions Overview (l.220)";
    ICON_TANKARD = "ff.icon.tankard", "A tankard icon retires a card (from the deck or the discard pile); it is not declined while there is one", "Actions Overview (l.221)";
    ICON_ANVIL = "ff.icon.anvil", "A forge happens only from an anvil icon (or a Relics reward)", "Actions Overview (l.222)";
    ICON_RESEARCH = "ff.icon.research", "A research action happens only from a research icon (or the Alchemist)", "Actions Overview (l.223)";
    ICON_BOW = "ff.icon.bow", "A bow icon challenges any monster in the city or the Dragon", "Actions Overview (l.224)";
    ICON_UPGRADE = "ff.icon.upgrade", "An upgrade icon may replace a campfire dwarf by a special dwarf from the stash", "Actions Overview (l.225)";
    ICON_EXTINGUISH = "ff.icon.extinguish", "A grey fire icon removes a fire from the current tile or an adjacent one (with no city tile in play: see interpretation fire-off-city)", "Actions Overview (l.226)";
    ICON_FOOTPRINT = "ff.icon.footprint", "A footprint icon lets the next raid go to any tile of the next line", "Actions Overview (l.227)";
    ICON_HASTE = "ff.icon.haste", "A haste icon gives one more placement after this one", "Actions Overview (l.228)";
    ICON_AXE = "ff.icon.axe", "An axe icon adds one success to a challenge", "Actions Overview (l.229)";
    ICON_BURST = "ff.icon.burst", "A burst icon deals 1 damage at once", "Actions Overview (l.230)";
    ICON_GEM_EXCHANGE = "ff.icon.gem-exchange", "A gem-exchange icon spends the gem, or 1 health when the player has none of it; the actions follow either way", "Actions Overview (l.231)";
    // Challenges.
    CHALLENGE_REVEAL = "ff.challenge.reveal", "A challenge reveals cards from the player's own challenge deck, one at a time, until they flee, pass out or win: a player with a card to reveal reveals one before fleeing", "Resolving a Challenge (l.235)";
    CHALLENGE_RESOLVE_ALL = "ff.challenge.resolve-all", "Every symbol of a revealed card is resolved, left to right", "Resolving a Challenge (l.237)";
    CHALLENGE_MISSING_GEM = "ff.challenge.missing-gem", "A cost in a gem the player lacks costs 1 damage instead, and the actions still happen", "Resolving a Challenge (l.239)";
    CHALLENGE_PENDING = "ff.challenge.pending", "Hourglass actions wait for the end of the challenge and happen only if the player flees or wins", "Resolving a Challenge (l.241)";
    CHALLENGE_RESHUFFLE = "ff.challenge.reshuffle", "A deck that runs out during a challenge: the discard pile is shuffled into a new deck and play goes on", "Resolving a Challenge (l.243, l.259)";
    CHALLENGE_NO_SHUFFLE = "ff.challenge.no-shuffle", "A challenge deck is shuffled only at setup, on a Retire, and when it runs out during a challenge", "Resolving a Challenge (l.259)";
    FRENZY_OWE = "ff.frenzy.owe", "A Battle Frenzy requirement makes the player reveal until it is paid, even after enough successes: no fleeing or winning while it is owed", "Battle Frenzy (l.247)";
    FRENZY_EXHAUSTED = "ff.frenzy.exhausted", "An unpaid Battle Frenzy is excused only when no card is left to reveal", "Battle Frenzy (l.247)";
    CHALLENGE_FLEE = "ff.challenge.flee", "Fleeing: at 1 health or more with no Frenzy owed; the pending actions are resolved, the played cards go to the discard pile", "Resolving a Challenge (l.251)";
    CHALLENGE_PASS_OUT = "ff.challenge.pass-out", "At 0 health the challenge is lost at once, even with enough successes; no pending actions", "Resolving a Challenge (l.253)";
    CHALLENGE_WIN = "ff.challenge.win", "At 1 health or more, successes reaching the adversary's strength and no Frenzy owed, the challenge is won at once", "Resolving a Challenge (l.255)";
    CHALLENGE_WIN_CARD = "ff.challenge.win-card", "The defeated monster's card goes to the winner's discard pile", "Resolving a Challenge (l.255, l.257)";
    CHALLENGE_WIN_EVENT = "ff.challenge.win-event", "An active event with the Win-a-Challenge condition, of the player's choice, goes to the bottom of the event deck, +1 health (see interpretation win-events)", "Resolving a Challenge (l.255)";
    CHALLENGE_WIN_RETALIATION = "ff.challenge.win-retaliation", "After a monster is beaten the top Dragon card is resolved on its territory", "Resolving a Challenge (l.255, l.257)";
    CHALLENGE_WIN_PENDING = "ff.challenge.win-pending", "After a win the pending actions are resolved (interpretations win-order, win-pending) and the played cards discarded", "Resolving a Challenge (l.255, l.257)";
    CHALLENGE_TARGET = "ff.challenge.target", "A raid challenges the monster on its tile (the Dragon in the Castle); a bow icon any monster or the Dragon", "City Raid (l.187); Actions Overview (l.224)";
    // Forge, Retire, Research.
    FORGE_CHOOSE = "ff.forge.choose", "A forge takes one of the items face up in the Forge", "Forge (l.263)";
    FORGE_REFRESH = "ff.forge.refresh", "Once per forge action, before choosing: the 3 items to the bottom of the item deck and 3 new revealed", "Forge (l.263); Actions Overview (l.222)";
    FORGE_EXACT = "ff.forge.exact", "The cost is paid with exactly the gems it shows, from the stash (or a Relics reward's multicolour gems)", "Forge (l.265, l.269)";
    FORGE_NO_EXCHANGE = "ff.forge.no-exchange", "No gem exchange during a forge action", "Forge (l.265)";
    FORGE_TO_DISCARD = "ff.forge.to-discard", "The forged item goes to the player's discard pile", "Forge (l.265)";
    FORGE_REFILL = "ff.forge.refill", "The empty Forge spot is refilled from the top of the item deck at once (see interpretation forge-refill)", "Forge (l.265)";
    FORGE_EVENTS = "ff.forge.events", "For each gem of the cost, one active event with that gem's discard condition goes to the bottom of the event deck (the player choosing), +1 health each (a Relics forge's: see interpretation relics-events)", "Forge (l.269, l.271); Relics Track (l.318)";
    RETIRE_PICK = "ff.retire.pick", "A Retire combines the discard pile with the deck and places one card of them, chosen, under the board", "Retire (l.275)";
    RETIRE_SHUFFLE = "ff.retire.shuffle", "After a Retire the player may shuffle the combined deck (\"you can shuffle\"): not recorded, the deck's order is unknown either way; a `shuffle` record is a challenge's (its deck ran out), not a Retire's", "Retire (l.275); l.259";
    RETIRE_BONUS = "ff.retire.bonus", "Retired cards score 0 (0-4 cards), 3 (5), 4 (6), 5 (7 or more) at the end", "Retire (l.277-282)";
    RESEARCH_FUND = "ff.research.fund", "A research action spends one gem matching the next step's funding cost to move a book token one step up a subject", "Research (l.288)";
    RESEARCH_TRANSMUTE = "ff.research.transmute", "Each research action allows one exchange by one of the Library's rules", "Research (l.290, l.298)";
    RESEARCH_LEGENDS = "ff.research.legends", "Reaching a Legends upgrade spot replaces a campfire dwarf by a special dwarf from the stash at once", "Legends Track (l.306)";
    SPECIAL_TIMING = "ff.special.timing", "A special dwarf's ability happens when it raids or regroups, before the tile or the spots", "Legends Track (l.306); City Raid (l.182); Regroup (l.197)";
    SPECIAL_GUARDIAN = "ff.special.guardian", "Guardian (Miner): +3 health", "Legends Track (l.308)";
    SPECIAL_ALCHEMIST = "ff.special.alchemist", "Alchemist (Miner): one research action", "Legends Track (l.309)";
    SPECIAL_DRAGONRIDER = "ff.special.dragonrider", "Dragonrider (Miner): may raid any tile of the line above, still exactly one line up", "Legends Track (l.310)";
    SPECIAL_WARRIOR = "ff.special.warrior", "Warrior (Miner): +1 success for a challenge, and two adjacent fire tokens removed", "Legends Track (l.311)";
    SPECIAL_KING = "ff.special.king", "King (Miner): a Haste placement after his actions are fully resolved", "Legends Track (l.312); Retreat (l.209)";
    RESEARCH_RELICS = "ff.research.relics", "Reaching a Relics forge spot gives a free forge with the spot's multicolour gems at once; its events are discarded as normal", "Relics Track (l.318, l.320)";
    RESEARCH_HEALING = "ff.research.healing", "From a Healing campfire spot on, every retreat heals by the topmost Healing ability reached", "Healing Track (l.326, l.328)";
    RESEARCH_ADVANCED_DRAW = "ff.research.advanced-draw", "Reaching a subject's top level: draw 3 tokens of that subject, keep 1, the others to the bottom of its pile", "Advanced Research (l.334)";
    RESEARCH_ADVANCED_USE = "ff.research.advanced-use", "An active advanced token is used at most once a turn and turns face up at the start of its owner's next turn", "Advanced Research (l.334)";
    RESEARCH_ADVANCED_ACTIVE = "ff.research.advanced-active", "Only one advanced token is active; the player chooses it as they keep another, and switches it only on a regroup or a retreat", "Advanced Research (l.338)";
    // End of turn, end of game, scoring.
    END_CHECK_ORDER = "ff.end.check-order", "Phase 4: first a Dragon beaten this turn (win), then 7 scorched tiles (loss), else the turn passes", "Phase 4 (l.342-348)";
    END_DRAGON_WIN = "ff.end.dragon-win", "Beating the Dragon in a challenge wins the game (see interpretation end-timing)", "Game Overview (l.121); Phase 4 (l.344)";
    END_GAME_OVER = "ff.end.game-over", "Nothing happens after the game has ended but its scoring", "Phase 4 (l.344, l.346)";
    SCORE_WHEN = "ff.score.when", "Scores are computed only when the Dragon was beaten", "End Game Scoring (l.352)";
    SCORE_DRAGON = "ff.score.dragon", "Dragon = (scorched tiles + VP of the monsters in its horde) x number of players", "End Game Scoring (l.356-362)";
    SCORE_STRENGTH = "ff.score.strength", "A player scores the VP of the cards in their challenge deck (see interpretation strength-scope)", "End Game Scoring (l.366)";
    SCORE_PRESTIGE = "ff.score.prestige", "Plus, per research subject, the VP of the highest level reached", "End Game Scoring (l.368)";
    SCORE_HOARD = "ff.score.hoard", "Plus 1 per red gem after transmuting the stash to red by the Library's exchange rules", "End Game Scoring (l.370)";
    SCORE_GLORY = "ff.score.glory", "Plus the VP of the retired cards and the retire bonus", "End Game Scoring (l.372); Retire (l.277-282)";
    SCORE_FAME = "ff.score.fame", "Plus, for the player who beat the Dragon, the Dragon challenge's VP", "End Game Scoring (l.374)";
    SCORE_TEAM = "ff.score.team", "The team scores the sum of the players' scores minus the Dragon's", "End Game Scoring (l.378)";
    SCORE_RANK = "ff.score.rank", "Rank: Rookie 0-10, Guardian 10-20, Warrior 20-30, King 30-40, Hero 40+ (see interpretations rank-boundary, negative-rank)", "End Game Scoring (l.380-385)";
    // Scenario 01, Pack A, unlockables.
    S01_BORED_BEAST = "ff.s01.bored-beast", "Scenario 01: the Dragon has strength 12; a dwarf placed in the Castle deals its owner 1 damage and gives 1 automatic success", "Scenario 01, Additional Rules (l.405)";
    S01_SLEEPING_DRAGON = "ff.s01.sleeping-dragon", "Scenario 01: the 3 Sleeping Dragon cards, shuffled, are on top of the Retaliation deck", "Scenario 01, Additional Rules (l.407)";
    S01_WELL_RESTED = "ff.s01.well-rested", "Scenario 01: every player starts with \"Heal 2 when you retreat\" (see interpretation well-rested)", "Scenario 01, Additional Rules (l.409)";
    PACKA_DEAL = "ff.packa.deal", "Pack A: each player is dealt two dragonslayer cards before the game and keeps one", "When You Defeat the Dragon, Open Pack A (l.415)";
    PACKA_USE = "ff.packa.use", "A dragonslayer card is used once, by its owner, at any moment; its effects go to the active player", "When You Defeat the Dragon, Open Pack A (l.415, l.417)";
    UNLOCK_APPLY_ALL = "ff.unlock.apply-all", "Unlocked cards and rules are played in every scenario once unlocked, and only once unlocked", "Warning (l.44-48)";
}
