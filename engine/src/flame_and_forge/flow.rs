//! Moving the table on: after every event the stack is *settled* (finished activities
//! popped, the next stage of each entered, icons that need no record applied), so that its
//! top says exactly what comes next: a consequence (`consequence.rs` derives it) or a
//! decision or reveal ([`Await`]). Also the read-only questions both share: which tiles an
//! event's fire may go to, where a dwarf may raid, what a fire icon may reach.

use super::catalog::{CardKind, Dwarf, EventIcon, RetItem, Reward, Subject, Target};
use super::city::{territory_tiles, tiles_of, Territory, Tile, Tiles};
use super::icon::{Gem, Icon, Sym};
use super::owed::Due;
use super::params::{BookTokens, EmptyEventDeck, FireOffCity, ForgeRefill, Packs, WarriorFire, WinCheck};
use super::state::{At, CStage, End, FStage, Frame, PStage, Phase, RStage, Src, State, GEM_LIMIT};
use super::FlameAndForge;
use crate::kit::effect::unverified;
use crate::Findings;
use std::borrow::Cow;

/// What the table waits for when no consequence is owed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Await {
    /// The game is over.
    Nothing,
    /// Items revealed into the Forge (how many).
    Market(u8),
    RetaliationCard(Territory),
    MonsterCard,
    Seat,
    Deal(u8),
    KeepSlayer(u8),
    EventDraw,
    Placement(u8),
    Forge {
        seat: u8,
        refreshed: bool,
    },
    Research {
        seat: u8,
        alchemist: bool,
    },
    Upgrade {
        seat: u8,
        optional: bool,
    },
    Bow(u8),
    Retire(u8),
    ChallengeOption(u8),
    Reveal(u8),
    AdvancedDraw(u8, Subject),
    KeepToken(u8),
}

/// What the settle stood still on (`settle`), so that `owed_after_settle` need not derive
/// again what the stand-still arm already found.
#[derive(Debug, Clone, Copy)]
pub enum Stop {
    /// Nothing kept: the due is derived from the table (`due_here`).
    Unknown,
    /// The icon at `next` of the icons frame on top.
    Icon(Sym),
    /// What the top frame owes, as `due_here` derives it after the end-of-game check.
    Top(Due),
    /// A top frame that owes nothing (a decision or a reveal is awaited).
    Nothing,
    /// An empty stack: what the phase owes (`phase_due`), found at the stand-still.
    Phase(Option<Due>),
}

/// The territories of the opening Retaliations, in order (l.57).
pub const OPENING: [Territory; 3] = [Territory::Wastelands, Territory::Valley, Territory::Outskirts];

impl FlameAndForge {
    /// The territory of the next opening Retaliation (the `k`-th): the first of Wastelands,
    /// Valley, Outskirts (l.57) with no monster yet. A setup Retaliation always places a
    /// monster (l.61 "there will always be a monster"), so a territory with one has had its
    /// card; a card a log resolved out of order (one `ff.setup.retaliation-order` finding,
    /// taken where recorded) leaves the territories skipped owed in their order.
    pub(super) fn opening_next(&self, s: &State, k: u8) -> Territory {
        OPENING
            .iter()
            .copied()
            .find(|&t| self.opening_left(s, t))
            .unwrap_or(OPENING[usize::from(k).min(OPENING.len() - 1)])
    }

    /// Whether Scenario 01's Bored Beast (l.405) comes after the special dwarf's ability in a
    /// placement at `at` (`beast-order=ability-first`, the Castle only): such a placement
    /// starts at the ability, its Beast stages follow it and lead on to the fire damage (none in
    /// the Castle). Under `beast-first` the Beast stages come first and lead to the ability.
    pub(super) fn beast_after_ability(&self, at: At) -> bool {
        at == At::Castle
            && self.config.scenario == super::params::Scenario::S01
            && self.config.beast_order == super::params::BeastOrder::AbilityFirst
    }

    /// The stage a placement at `at` starts at.
    pub(super) fn first_stage(&self, at: At) -> PStage {
        if self.beast_after_ability(at) {
            PStage::Ability
        } else {
            PStage::BeastDamage
        }
    }

    /// The stage after the Bored Beast's damage and success, both done.
    pub(super) fn after_beast(&self) -> PStage {
        match self.config.beast_order {
            super::params::BeastOrder::BeastFirst => PStage::Ability,
            super::params::BeastOrder::AbilityFirst => PStage::Burn,
        }
    }

    /// Whether the placement's special dwarf ability is behind it (a record it would have
    /// owed is then out of its time).
    pub(super) fn past_ability(&self, p: &super::state::Placement) -> bool {
        p.stage > PStage::Ability || (p.stage < PStage::Ability && self.beast_after_ability(p.at))
    }

    /// Whether the opening Retaliation of territory `t` is still to come (no monster there).
    pub(super) fn opening_left(&self, s: &State, t: Territory) -> bool {
        s.monsters.get(t.index()).is_some_and(|m| m.is_none())
    }

    /// The icon at `i` of a source, with whether it bears the hourglass. Inlined into the
    /// settle's icons arm (about one move in three) and `icons_due`.
    #[inline(always)]
    pub(super) fn icon_at(&self, s: &State, src: Src, i: usize) -> Option<Sym> {
        let c = &self.catalog;
        match src {
            Src::Spot { tile, spot } => c.spot(tile, s.tile(tile).scorched, spot as usize).get(i).copied(),
            Src::Board { spot } => {
                let seat = self.icons_seat(s)?;
                c.boards.get(s.player(seat).side)?.regroup.get(spot as usize)?.get(i).copied()
            }
            Src::Special(d) => {
                let seat = self.icons_seat(s)?;
                c.boards.get(s.player(seat).side)?.specials[d.index()].get(i).copied()
            }
            Src::Card(card) => c.cards.get(card)?.symbols.get(i).copied(),
            Src::Pending(k) => {
                let (card, at) = *s.challenges.get(k as usize)?.pending.get(i)?;
                c.cards.get(card)?.symbols.get(at as usize).map(|sym| Sym { icon: sym.icon, wait: false })
            }
            Src::Token(t) => c.tokens.get(t)?.effect.get(i).copied(),
            Src::Slayer(sl) => c.slayers.get(sl)?.effect.get(i).copied(),
        }
    }

    /// The seat of the innermost icons frame.
    fn icons_seat(&self, s: &State) -> Option<u8> {
        s.stack.iter().rev().find_map(|f| match f {
            Frame::Icons { seat, .. } => Some(*seat),
            _ => None,
        })
    }

    /// A name for where icons come from, for reports.
    /// Borrowed where the name is the catalog's or a dwarf's (no string made for a report).
    pub(super) fn src_name(&self, s: &State, src: Src) -> Cow<'_, str> {
        let c = &self.catalog;
        match src {
            Src::Spot { tile, spot } => Cow::Owned(format!("{tile} spot {}", spot + 1)),
            Src::Board { spot } => Cow::Owned(format!("board spot {}", spot + 1)),
            Src::Special(d) => Cow::Borrowed(d.name()),
            Src::Card(card) => Cow::Borrowed(c.cards.name(card)),
            Src::Pending(k) => {
                let card = s.challenges.get(k as usize).and_then(|ch| ch.pending.first()).map(|p| p.0);
                Cow::Borrowed(card.map_or("pending", |card| c.cards.name(card)))
            }
            Src::Token(t) => Cow::Borrowed(c.tokens.name(t)),
            Src::Slayer(sl) => Cow::Borrowed(c.slayers.name(sl)),
        }
    }

    /// Report card text the engine cannot apply, and mark what depends on it.
    #[inline(never)]
    fn report_text(&self, s: &mut State, f: &mut Findings, seat: Option<u8>, source: &str, text: u16) {
        // The colour's name is what its `Display` writes: no string is made for it.
        let who = seat.map_or("the city", |k| s.player(k).colour.name());
        let ordinal = s.unverified.report(f, unverified(who, source, self.catalog.text(text)));
        if let Some(k) = seat {
            s.player_mut(k).taint = Some(ordinal);
        }
        if let Some(ch) = s.challenges.last_mut() {
            if ch.stage == CStage::Running {
                ch.taint = Some(ordinal);
            }
        }
    }

    /// The running challenge (cards being revealed), if any.
    pub(super) fn running(&self, s: &State) -> Option<usize> {
        let ch = s.challenges.last()?;
        (ch.stage == CStage::Running && s.stack.iter().any(|f| matches!(f, Frame::Challenge)))
            .then(|| s.challenges.len() - 1)
    }

    /// What a Retaliation card's fire or gem item owes on its territory: its token on the
    /// tile it marks, when that tile is on the board and the Supply has one (a fire never on a
    /// scorched tile); `None` passes it over.
    pub(super) fn ret_item_due(&self, s: &State, territory: Territory, item: RetItem) -> Option<Due> {
        let due = ret_item_token(territory, item)?;
        let Due::RetIcon { fire, gem, tile } = due else { return None };
        let supplied =
            if fire { !s.tile(tile).scorched && s.fire_supply != 0 } else { s.supply[gem.index()] != 0 };
        supplied.then_some(due)
    }

    /// The tiles an event action's icon may go to.
    pub(super) fn event_targets(
        &self,
        s: &State,
        card: super::catalog::EventId,
        action: u8,
        fire: bool,
    ) -> Tiles {
        let Some(a) = self.catalog.events.get(card).and_then(|e| e.actions.get(action as usize)) else {
            return 0;
        };
        let mut mask = match a.target {
            Target::Building(b) => self.catalog.building_tiles.get(b as usize).copied().unwrap_or(0),
            Target::Monster => s.monsters.iter().flatten().fold(0, |m, &(_, t)| m | 1 << t.0),
        };
        if let Some(terr) = a.territory {
            mask &= territory_tiles(terr);
        }
        if fire {
            for t in tiles_of(mask) {
                if s.tile(t).scorched {
                    mask &= !(1 << t.0);
                }
            }
        }
        mask
    }

    /// The tiles an event action aims at, scorched ones included.
    pub(super) fn event_targets_any(&self, s: &State, card: super::catalog::EventId, action: u8) -> Tiles {
        self.event_targets(s, card, action, false)
    }

    /// The action of an event resolved with `count` active events: the one whose Event
    /// Counter holds the count; above every range, the highest.
    pub(super) fn event_action(&self, card: super::catalog::EventId, count: usize) -> Option<u8> {
        let e = self.catalog.events.get(card)?;
        let count = count.min(255) as u8;
        e.actions
            .iter()
            .position(|a| a.lo <= count && count <= a.hi)
            .or_else(|| {
                e.actions
                    .iter()
                    .enumerate()
                    .filter(|(_, a)| a.hi < count)
                    .max_by_key(|(_, a)| a.hi)
                    .map(|(i, _)| i)
            })
            .map(|i| i as u8)
    }

    /// The tile of the innermost placement, when it is in the city.
    pub(super) fn current_tile(&self, s: &State) -> Option<Tile> {
        match s.placement()?.at {
            At::Tile { tile, .. } => Some(tile),
            At::Castle => Some(Tile::CASTLE),
            At::Board { .. } => None,
        }
    }

    /// The tiles with fire a grey fire icon (or the Warrior, `warrior`) may reach: the
    /// current city tile and those adjacent (l.226; the Warrior's own by `warrior-fire`); with
    /// no city tile in play (a Regroup), as `fire-off-city` says.
    #[inline(never)]
    pub(super) fn fire_range(&self, s: &State, warrior: bool) -> Tiles {
        let fire = Tile::all().filter(|&t| s.tile(t).fire > 0).fold(0, |m, t| m | 1 << t.0);
        match self.current_tile(s) {
            None => match self.config.fire_off_city {
                FireOffCity::None => 0,
                FireOffCity::AnyTile => fire,
            },
            Some(c) => {
                let here = !warrior || self.config.warrior_fire == WarriorFire::TileOrAdjacent;
                fire & (c.neighbours() | if here { 1 << c.0 } else { 0 })
            }
        }
    }

    /// The first free regroup spot of a player's board.
    pub(super) fn free_board_spot(&self, s: &State, seat: u8) -> Option<u8> {
        let p = s.player(seat);
        let n = self.catalog.boards.get(p.side).map_or(0, |b| b.regroup.len()).min(p.board.len());
        p.board[..n].iter().position(Option::is_none).map(|i| i as u8)
    }

    /// Whether a dwarf of this kind may raid non-adjacent tiles (the Dragonrider).
    pub(super) fn rider(&self, s: &State, seat: u8, dwarf: Dwarf) -> bool {
        self.catalog.boards.get(s.player(seat).side).is_some_and(|b| b.riders.contains(&dwarf))
    }

    /// The tiles (and the Castle) a dwarf may raid now, ignoring health.
    pub(super) fn raid_tiles(&self, s: &State, seat: u8, dwarf: Dwarf) -> Tiles {
        let p = s.player(seat);
        let free = |t: Tile| -> bool {
            t.is_castle() || {
                let n = self.catalog.spots(t, s.tile(t).scorched).min(s.tile(t).spots.len());
                s.tile(t).spots[..n].contains(&super::state::EMPTY)
            }
        };
        let mut mask = 0;
        match p.top() {
            None => {
                for t in Tile::line_tiles(1).filter(|&t| free(t)) {
                    mask |= 1 << t.0;
                }
            }
            Some(top) => {
                let open = p.footprint || self.rider(s, seat, dwarf);
                for t in Tile::line_tiles(top.tile.line() + 1).filter(|&t| free(t)) {
                    if open || top.tile.touches_above(t) {
                        mask |= 1 << t.0;
                    }
                }
            }
        }
        mask
    }

    /// Whether a player has a legal placement for some dwarf of their campfire.
    pub(super) fn can_place(&self, s: &State, seat: u8) -> bool {
        let p = s.player(seat);
        if p.campfire_count() == 0 {
            return false;
        }
        if self.free_board_spot(s, seat).is_some() {
            return true;
        }
        p.health.value > 0
            && Dwarf::ALL.iter().any(|&d| p.campfire[d.index()] > 0 && self.raid_tiles(s, seat, d) != 0)
    }

    /// Whether an upgrade can be made: a plain dwarf on the campfire and a special in the stash.
    pub(super) fn can_upgrade(&self, s: &State, seat: u8) -> bool {
        let p = s.player(seat);
        p.campfire[Dwarf::Plain.index()] > 0 && p.stash.iter().any(|&x| x)
    }

    /// The retreat's heal: the topmost Healing level's campfire reward, an active token's
    /// campfire icon, and Scenario 01's token (`well-rested=advanced-token`).
    pub(super) fn retreat_heal(&self, s: &State, seat: u8) -> u8 {
        let p = s.player(seat);
        let level = p.books[Subject::Healing.index()];
        let track = (1..=level)
            .rev()
            .find_map(|l| match self.catalog.level(Subject::Healing, l).map(|l| l.reward) {
                Some(Reward::Campfire(n)) => Some(n),
                _ => None,
            })
            .unwrap_or(0);
        let token = p.active_token.and_then(|t| self.catalog.tokens.get(t)).map_or(0, |t| t.campfire);
        track.saturating_add(token).saturating_add(p.rested)
    }

    /// The gem-limit's default discard: the commonest colour (yellow first on a tie).
    pub(super) fn drop_default(&self, s: &State, seat: u8) -> super::icon::Gem {
        let g = s.player(seat).gems;
        let i = (0..3).max_by_key(|&i| (g[i], std::cmp::Reverse(i))).unwrap_or(0);
        super::icon::Gem::ALL[i]
    }

    /// Settle the table: pop what is finished, enter the next stage of what is not, apply
    /// what needs no record, until a consequence is owed or a decision awaited. What it
    /// stood still on when that is known ([`Stop`], for `owed_after_settle`, which then need
    /// not look it up again).
    pub(super) fn settle(&self, s: &mut State, f: &mut Findings) -> Stop {
        for _ in 0..10_000 {
            let mut stop = Stop::Unknown;
            // An empty stack is the phase's: moved on here, without a call of the big match
            // (about one move in four).
            let moved = if s.stack.is_empty() {
                self.settle_phase(s, &mut stop)
            } else {
                self.settle_once(s, f, &mut stop)
            };
            if !moved {
                return stop;
            }
        }
        Stop::Unknown
    }

    /// One move; `false` when the table stands still (`stop`: what it stands on, when the
    /// arm knows it).
    #[inline(never)]
    fn settle_once(&self, s: &mut State, f: &mut Findings, stop: &mut Stop) -> bool {
        let c = &*self.catalog;
        // The top frame's index (used only when there is one).
        let last = s.stack.len().wrapping_sub(1);
        // Matched in place: each arm copies only the fields it reads (copying the whole frame
        // out first cost about 20 instructions a move).
        let Some(top) = s.stack.last() else { return self.settle_phase(s, stop) };
        // The icons frame to enter: the one on top, or the one the placement on top just
        // pushed (a spot's, or the special's), entered in this move as the next one would
        // enter it (one call of this function less per icons frame a placement pushes).
        let (at, icons) = 'icons: {
            let moved = match *top {
                Frame::Bonus { seat } => {
                    if seat == 0 {
                        s.stack.pop();
                        return true;
                    }
                    *stop = Stop::Top(Due::Bonus { seat, n: seat.min(3) });
                    false
                }
                Frame::EventIcons { card, action, next } => {
                    let icon = c
                        .events
                        .get(card)
                        .and_then(|e| e.actions.get(action as usize))
                        .and_then(|a| a.icons.get(next as usize))
                        .copied();
                    match icon {
                        None => {
                            s.stack.pop();
                            true
                        }
                        Some(EventIcon::Fire) => {
                            let tiles = self.event_targets(s, card, action, true);
                            if tiles == 0 || s.fire_supply == 0 {
                                s.stack[last] = Frame::EventIcons { card, action, next: next + 1 };
                                return true;
                            }
                            *stop = Stop::Top(Due::EventIcon { fire: true, gem: Gem::Y, tiles });
                            false
                        }
                        Some(EventIcon::Gem(g)) => {
                            let tiles = self.event_targets(s, card, action, false);
                            if tiles == 0 || s.supply[g.index()] == 0 {
                                s.stack[last] = Frame::EventIcons { card, action, next: next + 1 };
                                return true;
                            }
                            *stop = Stop::Top(Due::EventIcon { fire: false, gem: g, tiles });
                            false
                        }
                        Some(EventIcon::Text(t)) => {
                            self.report_text(s, f, None, c.events.name(card), t);
                            s.stack[last] = Frame::EventIcons { card, action, next: next + 1 };
                            true
                        }
                    }
                }
                Frame::AfterFire { tile, stage, protect } => match stage {
                    0 if s.tile(tile).fire >= 3 => {
                        *stop = Stop::Top(Due::Scorch { tile });
                        false
                    }
                    0 => {
                        s.stack[last] = Frame::AfterFire { tile, stage: 1, protect };
                        true
                    }
                    // The defeat recorded before the scorch (`reorder`): the scorch, then the
                    // Retaliation.
                    3 if s.tile(tile).fire >= 3 => {
                        *stop = Stop::Top(Due::Scorch { tile });
                        false
                    }
                    3 => {
                        s.stack[last] = Frame::AfterFire { tile, stage: 2, protect };
                        true
                    }
                    1 => match s.monster_on(tile) {
                        Some((monster, _)) if !protect => {
                            *stop = Stop::Top(Due::Horde { tile, monster });
                            false
                        }
                        _ => {
                            s.stack.pop();
                            true
                        }
                    },
                    _ => {
                        // The monster went to the horde: a Retaliation on its territory.
                        let territory = tile.territory().unwrap_or(Territory::Outskirts);
                        s.stack[last] =
                            Frame::Retaliation { territory, card: None, monster: false, next: 0, done: 0 };
                        true
                    }
                },
                Frame::Retaliation { territory, card, monster, next, done } => {
                    let Some(card) = card else {
                        *stop = Stop::Nothing;
                        return false;
                    };
                    if !monster {
                        if s.monster_deck.is_empty() || s.monsters[territory.index()].is_some() {
                            s.stack[last] =
                                Frame::Retaliation { territory, card: Some(card), monster: true, next, done };
                            return true;
                        }
                        *stop = Stop::Nothing;
                        return false;
                    }
                    let skip =
                        Frame::Retaliation { territory, card: Some(card), monster, next: next + 1, done };
                    if u32::from(done) & 1u32.checked_shl(u32::from(next)).unwrap_or(0) != 0 {
                        // Placed ahead of its turn (`reorder`): passed over now.
                        s.stack[last] = skip;
                        return true;
                    }
                    match c.retaliations.get(card).and_then(|r| r.items.get(next as usize)).copied() {
                        None => {
                            s.stack.pop();
                            s.dragon_deck.to_bottom(card);
                            true
                        }
                        Some(item @ (RetItem::Fire(..) | RetItem::Gem(..))) => {
                            match self.ret_item_due(s, territory, item) {
                                Some(due) => {
                                    *stop = Stop::Top(due);
                                    false
                                }
                                None => {
                                    // Its tile is off the board, or the Supply has none: passed over.
                                    s.stack[last] = skip;
                                    true
                                }
                            }
                        }
                        Some(RetItem::Text(t)) => {
                            self.report_text(s, f, None, c.retaliations.name(card), t);
                            s.stack[last] = skip;
                            true
                        }
                    }
                }
                Frame::Placement(mut p) => {
                    // Its stages in a row, while nothing is pushed above it.
                    let moved = self.settle_placement(s, &mut p);
                    if moved {
                        s.stack[last] = Frame::Placement(p);
                        if s.stack.len() == last + 2 {
                            if let Some(&Frame::Icons { seat, src, next, sub }) = s.stack.last() {
                                break 'icons (last + 1, (seat, src, next, sub));
                            }
                        }
                    }
                    if p.stage == PStage::Done && s.stack.len() == last + 1 {
                        s.stack.pop();
                        return true;
                    }
                    if !moved {
                        // Standing still on the placement: what its stage owes, found here.
                        *stop = self.placement_due(s, &p).map_or(Stop::Nothing, Stop::Top);
                    }
                    moved
                }
                Frame::Icons { seat, src, next, sub } => break 'icons (last, (seat, src, next, sub)),
                Frame::Forge { seat, free, refreshed, item, stage } => match stage {
                    FStage::Choose => {
                        if s.market.cards().next().is_none() && s.items.is_empty() {
                            s.stack.pop();
                            return true;
                        }
                        *stop = Stop::Nothing;
                        false
                    }
                    FStage::LastRefill => {
                        // `forge-refill=after-events`: the refill after the events, and the forge is
                        // done.
                        if s.market.refill_due(&s.items).is_some() {
                            *stop = Stop::Nothing;
                            return false;
                        }
                        s.stack.pop();
                        true
                    }
                    FStage::Refill => {
                        let later = item.is_some() && self.config.forge_refill == ForgeRefill::AfterEvents;
                        if !later && s.market.refill_due(&s.items).is_some() {
                            *stop = Stop::Nothing;
                            return false;
                        }
                        s.stack[last] = match item {
                            Some(card) => {
                                let mut left = [0u8; 3];
                                for g in &c.cards[card].cost {
                                    left[g.index()] += 1;
                                }
                                Frame::Forge {
                                    seat,
                                    free,
                                    refreshed,
                                    item,
                                    stage: FStage::Events { left, heal: 0, ahead: false },
                                }
                            }
                            None => Frame::Forge { seat, free, refreshed: true, item, stage: FStage::Choose },
                        };
                        true
                    }
                    FStage::Events { left, heal, .. } => {
                        if let Some(due) = self.forge_events_due(s, seat, left, heal) {
                            *stop = Stop::Top(due);
                            return false;
                        }
                        // A refill still owed (`after-events`, or one a log under `immediate`
                        // recorded after the events: `late_refill`) comes now.
                        if self.config.forge_refill == ForgeRefill::AfterEvents
                            || s.market.refill_due(&s.items).is_some()
                        {
                            s.stack[last] =
                                Frame::Forge { seat, free, refreshed, item, stage: FStage::LastRefill };
                        } else {
                            s.stack.pop();
                        }
                        true
                    }
                },
                Frame::Research { seat, stage, alchemist } => match stage {
                    RStage::Choose => {
                        *stop = Stop::Nothing;
                        false
                    }
                    RStage::Reward { subject, level } => {
                        s.stack.pop();
                        let reward = c.level(subject, level).map_or(Reward::None, |l| l.reward);
                        if level == c.top_level(subject) && level > 1 {
                            s.stack.push(Frame::Advanced { seat, subject, drawn: [None; 3] });
                        }
                        match reward {
                            Reward::Upgrade if self.can_upgrade(s, seat) => {
                                s.stack.push(Frame::Upgrade { seat, optional: false })
                            }
                            Reward::ForgeFree(n) => s.stack.push(Frame::Forge {
                                seat,
                                free: n,
                                refreshed: false,
                                item: None,
                                stage: FStage::Choose,
                            }),
                            _ => {}
                        }
                        let _ = alchemist;
                        true
                    }
                },
                Frame::Upgrade { seat, .. } => {
                    if self.can_upgrade(s, seat) {
                        *stop = Stop::Nothing;
                        return false;
                    }
                    s.stack.pop();
                    true
                }
                Frame::Bow { .. } => {
                    *stop = Stop::Nothing;
                    false
                }
                Frame::Retire { seat } => {
                    let p = s.player(seat);
                    if p.deck.is_empty() && p.deck.discard.is_empty() {
                        s.stack.pop();
                        return true;
                    }
                    *stop = Stop::Nothing;
                    false
                }
                Frame::Challenge => self.settle_challenge(s, stop),
                Frame::Retreat { seat, healed } => {
                    if !healed {
                        let n = self.retreat_heal(s, seat);
                        if n > 0 {
                            *stop = Stop::Top(self.campfire_due(s, seat, n));
                            return false;
                        }
                        s.stack[last] = Frame::Retreat { seat, healed: true };
                        return true;
                    }
                    if s.player(seat).gem_count() > GEM_LIMIT {
                        *stop = Stop::Top(Due::Drop { seat, gem: self.drop_default(s, seat) });
                        return false;
                    }
                    s.stack.pop();
                    true
                }
                Frame::Advanced { subject, drawn, .. } => {
                    if drawn[0].is_none() && s.advanced[subject.index()].is_empty() {
                        s.stack.pop();
                        return true;
                    }
                    false
                }
            };
            return moved;
        };
        self.settle_icons(s, f, at, icons, stop)
    }

    /// The active event (the top one) a forge may discard for one of the colours left.
    pub(super) fn forge_event(&self, s: &State, left: [u8; 3]) -> Option<super::catalog::EventId> {
        s.events.iter().rev().copied().find(|&e| {
            matches!(self.catalog.events.get(e).map(|e| e.discard), Some(super::catalog::Condition::Gem(g)) if left[g.index()] > 0)
        })
    }

    /// An active Win-a-Challenge event (the top one).
    pub(super) fn win_event(&self, s: &State) -> Option<super::catalog::EventId> {
        s.events.iter().rev().copied().find(|&e| {
            self.catalog.events.get(e).is_some_and(|e| e.discard == super::catalog::Condition::Win)
        })
    }

    /// The stages of the placement on top (`p`, copied out of its frame), in a row from its
    /// own, while nothing is pushed above it: whether any moved on. A stage moves on to a
    /// later one or stands still, and one that pushes an icons frame ends the run, so the
    /// stages are written in their order, each entered when the run has reached it: one
    /// pass, no loop (as a loop over a `match` of the stages, LLVM computed every stage's
    /// reads of the table before the first, whichever stages ran: ~75 instructions a call).
    #[inline(always)]
    fn settle_placement(&self, s: &mut State, p: &mut super::state::Placement) -> bool {
        let c = &*self.catalog;
        let mut moved = false;
        if p.stage == PStage::BeastDamage {
            if p.at == At::Castle && self.config.scenario == super::params::Scenario::S01 {
                return moved;
            }
            p.stage = PStage::Ability;
            moved = true;
        }
        if matches!(p.stage, PStage::BeastSuccess | PStage::BeastLastDamage) {
            return moved;
        }
        if p.stage == PStage::Ability {
            // `beast-order=ability-first`: the Bored Beast after the ability (l.182 "First you
            // perform your special dwarf's ability"), the Castle's placement having started here.
            p.stage = if self.beast_after_ability(p.at) { PStage::BeastDamage } else { PStage::Burn };
            moved = true;
            let has =
                c.boards.get(s.player(p.seat).side).is_some_and(|b| !b.specials[p.dwarf.index()].is_empty());
            if p.dwarf != Dwarf::Plain && has {
                s.stack.push(Frame::Icons { seat: p.seat, src: Src::Special(p.dwarf), next: 0, sub: 0 });
                return moved;
            }
        }
        if p.stage == PStage::Burn {
            if let At::Tile { tile, .. } = p.at {
                if s.tile(tile).fire > 0 && s.player(p.seat).health.value > 0 {
                    return moved;
                }
            }
            p.stage = PStage::Spots;
            moved = true;
        }
        if p.stage == PStage::Spots {
            // The next spot with icons (on a tile, one free or the player's own): plain loops,
            // which stay inline (`find` over the range became a call).
            let mut next = None;
            match p.at {
                At::Tile { tile, .. } => {
                    let t = s.tile(tile);
                    let scorched = t.scorched;
                    let n = c.spots(tile, scorched).min(super::state::MAX_SPOTS);
                    for i in p.spot as usize..n {
                        let d = t.spots[i];
                        if !c.spot(tile, scorched, i).is_empty() && (d == super::state::EMPTY || d == p.seat)
                        {
                            next = Some((Src::Spot { tile, spot: i as u8 }, i));
                            break;
                        }
                    }
                }
                At::Board { .. } => {
                    let n = c.boards.get(s.player(p.seat).side).map_or(0, |b| b.regroup.len());
                    for i in p.spot as usize..n {
                        if c.boards.get(s.player(p.seat).side).is_some_and(|b| !b.regroup[i].is_empty()) {
                            next = Some((Src::Board { spot: i as u8 }, i));
                            break;
                        }
                    }
                }
                At::Castle => {}
            }
            moved = true;
            match next {
                Some((src, i)) => {
                    p.spot = i as u8 + 1;
                    s.stack.push(Frame::Icons { seat: p.seat, src, next: 0, sub: 0 });
                    return moved;
                }
                None => p.stage = PStage::Pick,
            }
        }
        if p.stage == PStage::Pick {
            if let At::Tile { tile, .. } = p.at {
                if !p.picked && s.tile(tile).gem_count() > 0 {
                    return moved;
                }
            }
            p.stage = PStage::Challenge;
            moved = true;
        }
        if p.stage == PStage::Challenge {
            let foe = match p.at {
                // `monster_on(tile).is_some()`, inline (it stayed a call here).
                At::Tile { tile, .. } => s.monsters.iter().any(|m| m.is_some_and(|(_, at)| at == tile)),
                At::Castle => true,
                At::Board { .. } => false,
            };
            if foe && !p.challenged {
                return moved;
            }
            p.stage = PStage::Done;
            moved = true;
        }
        moved
    }

    /// The icons frame on top (`seat, src, next, sub`); `stop` is set to the icon at
    /// `next`, which is what the table stands on when this returns `false`.
    fn settle_icons(
        &self,
        s: &mut State,
        f: &mut Findings,
        last: usize,
        (seat, src, next, sub): (u8, Src, u8, u8),
        stop: &mut Stop,
    ) -> bool {
        let Some(sym) = self.icon_at(s, src, next as usize) else {
            s.stack.pop();
            return true;
        };
        *stop = Stop::Icon(sym);
        let advance = |s: &mut State| s.stack[last] = Frame::Icons { seat, src, next: next + 1, sub: 0 };
        let running = |s: &State| self.running(s).is_some();
        // At 0 health the challenge is lost at once (l.253): no symbol of the card after the one
        // that brought it there is resolved, not even one applied without a record (a tankard, an
        // anvil...). Standing still here, the due is the pass-out (`card_cut_short`); so too for
        // a win under `win-check=immediate`.
        // (The running challenge is looked for only when one of the two can be: every card's
        // every symbol comes here.)
        if matches!(src, Src::Card(_)) {
            let at_zero = s.player(seat).health.value == 0;
            if at_zero || self.config.win_check == WinCheck::Immediate {
                if let Some(k) = self.running(s) {
                    if at_zero || self.won_mid_card(s, k) {
                        return false;
                    }
                }
            }
        }
        if sym.wait {
            // The hourglass: kept for the end of the challenge.
            if let (Src::Card(card), Some(k)) = (src, self.running(s)) {
                s.challenges[k].pending.push((card, next));
            }
            advance(s);
            return true;
        }
        match sym.icon {
            Icon::Gem(g) => {
                if s.supply[g.index()] == 0 {
                    advance(s);
                    return true;
                }
                false
            }
            Icon::Heal(_) | Icon::Burst | Icon::Footprint | Icon::Haste | Icon::Pay(_) => false,
            Icon::Axe => {
                if running(s) || s.placement().is_some() {
                    return false;
                }
                advance(s);
                true
            }
            Icon::Frenzy => {
                if running(s) {
                    return false;
                }
                advance(s);
                true
            }
            Icon::Extinguish => {
                if self.fire_range(s, false) != 0 {
                    return false;
                }
                advance(s);
                true
            }
            Icon::Douse(n) => {
                if sub < n && self.fire_range(s, true) != 0 {
                    return false;
                }
                advance(s);
                true
            }
            Icon::Tankard => {
                advance(s);
                s.stack.push(Frame::Retire { seat });
                true
            }
            Icon::Anvil => {
                advance(s);
                s.stack.push(Frame::Forge {
                    seat,
                    free: 0,
                    refreshed: false,
                    item: None,
                    stage: FStage::Choose,
                });
                true
            }
            Icon::ForgeFree(n) => {
                advance(s);
                s.stack.push(Frame::Forge {
                    seat,
                    free: n,
                    refreshed: false,
                    item: None,
                    stage: FStage::Choose,
                });
                true
            }
            Icon::Research => {
                advance(s);
                if s.player(seat).gem_count() > 0 {
                    let alchemist = src == Src::Special(Dwarf::Alchemist);
                    s.stack.push(Frame::Research { seat, stage: RStage::Choose, alchemist });
                }
                true
            }
            Icon::Bow => {
                advance(s);
                s.stack.push(Frame::Bow { seat });
                true
            }
            Icon::Upgrade => {
                advance(s);
                if self.can_upgrade(s, seat) {
                    s.stack.push(Frame::Upgrade { seat, optional: true });
                }
                true
            }
            Icon::Text(t) => {
                let name = self.src_name(s, src);
                self.report_text(s, f, Some(seat), &name, t);
                advance(s);
                true
            }
        }
    }

    #[inline(never)]
    fn settle_challenge(&self, s: &mut State, stop: &mut Stop) -> bool {
        let Some(k) = s.challenges.len().checked_sub(1) else {
            s.stack.pop();
            return true;
        };
        let stage = s.challenges[k].stage;
        let end = s.challenges[k].end;
        let dragon = s.challenges[k].foe == super::state::Adversary::Dragon;
        match stage {
            CStage::Running => {
                // Standing still on the running challenge: what it owes, found here.
                *stop = self.running_due(s, &s.challenges[k]).map_or(Stop::Nothing, Stop::Top);
                false
            }
            CStage::Events { heal, done, .. } => {
                if heal > 0 || self.win_discards_more(done) {
                    if let Some(due) = self.win_events_due(s, s.challenges[k].seat, heal) {
                        *stop = Stop::Top(due);
                        return false;
                    }
                }
                s.challenges[k].stage = self.after(stage, end, dragon);
                true
            }
            CStage::Retaliation => {
                s.challenges[k].stage = self.after(stage, end, dragon);
                if let super::state::Adversary::Monster { territory, .. } = s.challenges[k].foe {
                    s.stack.push(Frame::Retaliation {
                        territory,
                        card: None,
                        monster: false,
                        next: 0,
                        done: 0,
                    });
                }
                true
            }
            CStage::Pending => {
                // The pending icons are resolved above the challenge, which then goes on.
                s.challenges[k].stage = self.after(stage, end, dragon);
                if !s.challenges[k].pending.is_empty() {
                    s.stack.push(Frame::Icons {
                        seat: s.challenges[k].seat,
                        src: Src::Pending(k as u8),
                        next: 0,
                        sub: 0,
                    });
                }
                true
            }
            CStage::Close => {
                let ch = s.challenges.remove(k);
                s.discard_played(ch);
                s.stack.pop();
                true
            }
        }
    }

    /// The stage after `stage` in the end of a challenge that ended so (`win-order`).
    pub(super) fn after(&self, stage: CStage, end: Option<End>, dragon: bool) -> CStage {
        use super::params::WinOrder;
        let events = CStage::Events { heal: 0, done: 0, ahead: false };
        let order: &[CStage] = match (end, self.config.win_order) {
            (Some(End::Won), WinOrder::Text) => {
                &[events, CStage::Retaliation, CStage::Pending, CStage::Close]
            }
            (Some(End::Won), WinOrder::Caption) => {
                &[CStage::Pending, events, CStage::Retaliation, CStage::Close]
            }
            (Some(End::Fled), _) => &[CStage::Pending, CStage::Close],
            _ => &[CStage::Close],
        };
        let same = |a: CStage, b: CStage| std::mem::discriminant(&a) == std::mem::discriminant(&b);
        let i = match stage {
            CStage::Running => 0,
            _ => order.iter().position(|&x| same(x, stage)).map_or(order.len(), |i| i + 1),
        };
        let mut next = order.get(i).copied().unwrap_or(CStage::Close);
        if dragon && next == CStage::Retaliation {
            next = order.get(i + 1).copied().unwrap_or(CStage::Close);
        }
        next
    }

    /// The phase moved on (an empty stack); at a stand-still `stop` is what the phase owes.
    #[inline]
    fn settle_phase(&self, s: &mut State, stop: &mut Stop) -> bool {
        match s.phase {
            Phase::Retaliations(k) if (k as usize) < OPENING.len() => {
                s.stack.push(Frame::Retaliation {
                    territory: self.opening_next(s, k),
                    card: None,
                    monster: false,
                    next: 0,
                    done: 0,
                });
                s.phase = Phase::Retaliations(k + 1);
                true
            }
            Phase::Retaliations(_) => {
                s.phase = Phase::Seats;
                true
            }
            Phase::Seats if s.seats.len() >= usize::from(self.config.players) => {
                s.phase = if self.config.packs == Packs::A { Phase::Deal(0) } else { Phase::TurnStart };
                true
            }
            Phase::Deal(k) if usize::from(k) >= s.seats.len() => {
                s.phase = Phase::TurnStart;
                true
            }
            Phase::Resolve => {
                s.phase = Phase::Draw;
                true
            }
            // Phase 1 done after Phase 2's event was drawn ahead of it: Phase 3.
            Phase::Drawn => {
                s.phase = Phase::Place;
                true
            }
            // No card to draw: Phase 2 draws none (`empty-event-deck=skip`); under `lost` the
            // game's end is owed (`phase_due`).
            Phase::Draw
                if s.event_deck.is_empty() && self.config.empty_event_deck == EmptyEventDeck::Skip =>
            {
                s.phase = Phase::Place;
                true
            }
            Phase::Place if s.placements == 0 => {
                s.phase = Phase::End;
                true
            }
            // A Haste gained once the turn's placements are done, before Phase 4 passes the
            // turn (a dragonslayer card, l.415 "At any moment ... giving the active player it's
            // effects"): "Place (and resolve) one additional dwarf after you complete resolving
            // this one" (l.228), so the placement is owed unless Phase 4 ends the game (l.344,
            // l.346). Without this the Haste was counted and then dropped as the turn passed.
            Phase::End if s.placements > 0 && s.end_reached().is_none() => {
                s.phase = Phase::Place;
                true
            }
            _ => {
                *stop = Stop::Phase(self.phase_due(s));
                false
            }
        }
    }

    /// What the table awaits (when no consequence is owed). Always inlined: `decide` calls it
    /// on every decision, and the call cost about a fifth of its work.
    #[inline(always)]
    pub(super) fn awaited(&self, s: &State) -> Await {
        let Some(top) = s.stack.last() else {
            return match s.phase {
                Phase::Market => Await::Market(3),
                Phase::Seats => Await::Seat,
                Phase::Deal(k) if s.seats.get(k as usize).is_some_and(|p| p.dealt.is_empty()) => {
                    Await::Deal(k)
                }
                Phase::Deal(k) => Await::KeepSlayer(k),
                Phase::Draw => Await::EventDraw,
                Phase::Place => Await::Placement(s.active),
                _ => Await::Nothing,
            };
        };
        match *top {
            Frame::Retaliation { territory, card: None, .. } => Await::RetaliationCard(territory),
            Frame::Retaliation { .. } => Await::MonsterCard,
            Frame::Placement(p) => Await::ChallengeOption(p.seat),
            Frame::Forge { stage: FStage::Refill | FStage::LastRefill, .. } => {
                Await::Market(s.market.slots.iter().filter(|x| x.is_none()).count().min(s.items.len()) as u8)
            }
            Frame::Forge { seat, refreshed, .. } => Await::Forge { seat, refreshed },
            Frame::Research { seat, alchemist, .. } => Await::Research { seat, alchemist },
            Frame::Upgrade { seat, optional } => Await::Upgrade { seat, optional },
            Frame::Bow { seat } => Await::Bow(seat),
            Frame::Retire { seat } => Await::Retire(seat),
            Frame::Challenge => s.challenges.last().map_or(Await::Nothing, |c| Await::Reveal(c.seat)),
            Frame::Advanced { seat, subject, drawn } => {
                if drawn[0].is_none() {
                    Await::AdvancedDraw(seat, subject)
                } else {
                    Await::KeepToken(seat)
                }
            }
            _ => Await::Nothing,
        }
    }

    /// Whether the book tokens' starting levels apply (`book-tokens`): the level a subject
    /// starts on for a player who named `first` at their seat.
    pub(super) fn starting_books(&self, first: Option<Subject>) -> [u8; 3] {
        let mut books = match self.config.book_tokens {
            BookTokens::OnePerSubject => [1; 3],
            BookTokens::Single => {
                let mut b = [0; 3];
                b[first.unwrap_or(Subject::Legends).index()] = 1;
                b
            }
        };
        if self.config.scenario == super::params::Scenario::S01
            && self.config.well_rested == super::params::WellRested::HealingLevel
        {
            books[Subject::Healing.index()] =
                self.catalog.scenario01.rested_level.min(self.catalog.top_level(Subject::Healing));
        }
        books
    }

    /// Whether a card id names a monster.
    pub(super) fn is_monster(&self, card: super::catalog::CardId) -> bool {
        self.catalog.cards.get(card).is_some_and(|c| c.kind == CardKind::Monster)
    }
}

/// The token a Retaliation card's fire or gem item marks on `territory` (a fire's gem is
/// `Gem::Y`, unused), whatever the Supply holds; `None` for a text or a tile off the board.
pub(super) fn ret_item_token(territory: Territory, item: RetItem) -> Option<Due> {
    match item {
        RetItem::Gem(gem, row, pos) => {
            Some(Due::RetIcon { fire: false, gem, tile: Tile::relative(territory, row, pos)? })
        }
        RetItem::Fire(row, pos) => {
            Some(Due::RetIcon { fire: true, gem: Gem::Y, tile: Tile::relative(territory, row, pos)? })
        }
        RetItem::Text(_) => None,
    }
}
