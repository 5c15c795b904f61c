//! A seeded random player: whole legal games, the same for the same seed on every machine.
//!
//! It records every consequence exactly as `next_consequence` derives it (a choice among
//! several tiles or events takes the first, as a player who does not say would), and picks
//! decisions and reveals at random among the legal ones, leaning toward the Castle so that
//! some games are won. It steps its own log as it goes, so each choice sees the real table.

use super::catalog::{Dwarf, Subject};
use super::city::{tiles_of, Tile};
use super::event::{Colour, Event, Foe};
use super::flow::Await;
use super::label::Label;
use super::params::{BookTokens, Packs, RelicsForge};
use super::state::{Frame, State};
use super::FlameAndForge;
use crate::kit::rng::SplitMix64;
use crate::{Findings, Game};

fn label(name: &str) -> Label {
    Label::new(name).unwrap_or(Label::UNKNOWN)
}

/// `n` cards drawn one after the other from a copy of `deck` (each from what may come next).
fn draw<C: Copy + Ord>(deck: &crate::kit::deck::Deck<C>, n: usize, rng: &mut SplitMix64) -> Vec<C> {
    let mut deck = deck.clone();
    let mut out = Vec::new();
    for _ in 0..n {
        let Some(&card) = rng.pick(&deck.remaining()) else { break };
        if deck.reveal(card).is_err() {
            break;
        }
        out.push(card);
    }
    out
}

impl FlameAndForge {
    pub(super) fn simulate_log(&self, seed: u64, events: usize) -> Vec<Event> {
        self.play(seed, events).0
    }

    /// The simulated log and the simulator's own table at its end.
    pub(super) fn play(&self, seed: u64, events: usize) -> (Vec<Event>, State) {
        let mut rng = SplitMix64::new(seed ^ 0xF1A3_E00F_0F0E_2025);
        let mut s = self.initial_state();
        let mut out = Vec::new();
        let mut f = Findings::default();
        while out.len() < events {
            let e = match self.next_consequence(&s) {
                Some(e) => e,
                None => match self.choose(&s, &mut rng) {
                    Some(e) => e,
                    None => break,
                },
            };
            f.clear();
            if self.step(&mut s, &e, &mut f).is_err() {
                break;
            }
            debug_assert!(f.is_clean(), "the simulator played `{e}`: {:?}\n{}", f.violations, self.board(&s));
            out.push(e);
        }
        (out, s)
    }

    fn name_of(&self, card: super::catalog::CardId) -> Label {
        label(self.catalog.cards.name(card))
    }

    /// A decision or reveal for what the table awaits; `None` when the game is over.
    fn choose(&self, s: &State, rng: &mut SplitMix64) -> Option<Event> {
        let c = &*self.catalog;
        let who = |k: u8| s.player(k).colour;
        Some(match self.awaited(s) {
            Await::Nothing => return None,
            Await::Market(n) => {
                let deck = draw(&s.items, n as usize, rng);
                let mut items = [None; 3];
                for (slot, card) in items.iter_mut().zip(deck.iter()) {
                    *slot = Some(self.name_of(*card));
                }
                Event::Market { items }
            }
            Await::RetaliationCard(territory) => {
                let deck = s.dragon_deck.remaining();
                Event::Retaliation { card: label(c.retaliations.name(*rng.pick(&deck)?)), territory }
            }
            Await::MonsterCard => {
                let Some(Frame::Retaliation { territory, card: Some(ret), .. }) = s.stack.last().copied()
                else {
                    return None;
                };
                let (row, pos) = c.retaliations.get(ret)?.monster;
                let tile = Tile::relative(territory, row, pos)?;
                Event::Monster { card: self.name_of(*rng.pick(&s.monster_deck.remaining())?), tile }
            }
            Await::Seat => {
                let colour = Colour::ALL[s.seats.len() % 4];
                let side = if rng.one_in(4) {
                    rng.pick(&["runechart", "anvil", "tankard", "gemstone"]).copied().unwrap_or("miner")
                } else {
                    "miner"
                };
                let side = if c.boards.id(side).is_some() { side } else { "miner" };
                let books =
                    (self.config.book_tokens == BookTokens::Single).then(|| Subject::ALL[rng.below(3)]);
                Event::Seat { who: colour, side: label(side), books }
            }
            Await::Deal(k) => {
                let deck = draw(&s.slayers, 2, rng);
                let cards = [label(c.slayers.name(*deck.first()?)), label(c.slayers.name(*deck.get(1)?))];
                Event::Deal { who: who(k), cards }
            }
            Await::KeepSlayer(k) => {
                let dealt = &s.player(k).dealt;
                Event::Slayer { who: who(k), card: label(c.slayers.name(*rng.pick(dealt)?)) }
            }
            Await::EventDraw => {
                Event::Draw { card: label(c.events.name(*rng.pick(&s.event_deck.remaining())?)) }
            }
            Await::Placement(k) => return self.choose_placement(s, k, rng),
            Await::Forge { seat, refreshed } => {
                let p = s.player(seat);
                let free = match s.stack.last() {
                    Some(Frame::Forge { free, .. }) => *free,
                    _ => 0,
                };
                let affordable: Vec<_> = s
                    .market
                    .cards()
                    .filter(|&i| {
                        // `relics-forge=multicolour-only`: the free gems alone pay.
                        if free > 0 && self.config.relics_forge == RelicsForge::MulticolourOnly {
                            return c.cards[i].cost.len() <= free as usize;
                        }
                        let mut need = [0u8; 3];
                        for g in &c.cards[i].cost {
                            need[g.index()] += 1;
                        }
                        let short: u8 = (0..3).map(|g| need[g].saturating_sub(p.gems[g])).sum();
                        short <= free
                    })
                    .collect();
                match rng.pick(&affordable) {
                    Some(&item) if free > 0 || !rng.one_in(5) => {
                        Event::Forge { who: who(seat), item: self.name_of(item) }
                    }
                    _ if !refreshed && rng.one_in(3) && s.items.len() >= 3 => {
                        Event::Refresh { who: who(seat) }
                    }
                    _ if free > 0 => match s.market.cards().next() {
                        // A free forge is taken: the cheapest item the gems cover.
                        Some(_) => {
                            let cheapest = s.market.cards().min_by_key(|&i| c.cards[i].cost.len())?;
                            let short: usize = c.cards[cheapest].cost.len().saturating_sub(free as usize);
                            if short > 0 && !affordable.contains(&cheapest) {
                                Event::Pass { who: who(seat) }
                            } else {
                                Event::Forge { who: who(seat), item: self.name_of(cheapest) }
                            }
                        }
                        None => Event::Pass { who: who(seat) },
                    },
                    _ => Event::Pass { who: who(seat) },
                }
            }
            Await::Research { seat, .. } => {
                let p = s.player(seat);
                let options: Vec<Subject> = Subject::ALL
                    .iter()
                    .copied()
                    .filter(|&sub| {
                        let level = p.books[sub.index()];
                        level < c.top_level(sub)
                            && c.level(sub, (level + 1).max(2))
                                .and_then(|l| l.cost)
                                .is_some_and(|g| p.gem(g) > 0)
                    })
                    .collect();
                match rng.pick(&options) {
                    Some(&sub) => Event::Research {
                        who: who(seat),
                        subject: Some((sub, p.books[sub.index()] + 1)),
                        exchange: None,
                    },
                    None => Event::Pass { who: who(seat) },
                }
            }
            Await::Upgrade { seat, .. } => {
                let p = s.player(seat);
                let options: Vec<Dwarf> =
                    Dwarf::ALL.iter().copied().filter(|d| *d != Dwarf::Plain && p.stash[d.index()]).collect();
                Event::Upgrade { who: who(seat), dwarf: *rng.pick(&options)? }
            }
            Await::Bow(k) => {
                let monsters: Vec<_> = s.monsters.iter().flatten().map(|&(m, _)| m).collect();
                match rng.pick(&monsters) {
                    Some(&m) if rng.one_in(2) && s.player(k).health.value > 3 => {
                        Event::Challenge { who: who(k), foe: Foe::Monster(self.name_of(m)) }
                    }
                    _ => Event::Pass { who: who(k) },
                }
            }
            Await::Retire(k) => {
                let p = s.player(k);
                let mut cards = p.deck.known();
                cards.extend(p.deck.discard.iter().copied());
                Event::Retire { who: who(k), card: self.name_of(*rng.pick(&cards)?) }
            }
            Await::ChallengeOption(k) => {
                let p = s.placement()?;
                let dragon = matches!(p.at, super::state::At::Castle);
                let health = s.player(k).health.value;
                let go = if dragon { health >= 3 && !rng.one_in(4) } else { health >= 3 && rng.one_in(2) };
                if !go {
                    Event::Pass { who: who(k) }
                } else if dragon {
                    Event::Challenge { who: who(k), foe: Foe::Dragon }
                } else {
                    let super::state::At::Tile { tile, .. } = p.at else { return None };
                    let (m, _) = s.monster_on(tile)?;
                    Event::Challenge { who: who(k), foe: Foe::Monster(self.name_of(m)) }
                }
            }
            Await::Reveal(k) => {
                let ch = s.challenges.last()?;
                let p = s.player(k);
                let deck = p.deck.remaining();
                let owed = ch.frenzy > 0;
                // A challenge is fought with one card at least (l.235): no flight before it.
                let fought = !ch.played.is_empty();
                let flee = deck.is_empty()
                    || (fought && !owed && p.health.value <= 2 && rng.one_in(2))
                    || (fought && !owed && rng.one_in(8));
                if flee {
                    Event::Flee { who: who(k) }
                } else {
                    Event::Reveal { who: who(k), card: self.name_of(*rng.pick(&deck)?) }
                }
            }
            Await::AdvancedDraw(k, subject) => {
                let pile = draw(&s.advanced[subject.index()], 3, rng);
                let mut tokens = [None; 3];
                for (slot, t) in tokens.iter_mut().zip(pile.iter()) {
                    *slot = Some(label(c.tokens.name(*t)));
                }
                Event::Advanced { who: who(k), tokens }
            }
            Await::KeepToken(k) => {
                let Some(Frame::Advanced { drawn, .. }) = s.stack.last() else { return None };
                let options: Vec<_> = drawn.iter().flatten().copied().collect();
                Event::Keep { who: who(k), token: label(c.tokens.name(*rng.pick(&options)?)) }
            }
        })
    }

    fn choose_placement(&self, s: &State, k: u8, rng: &mut SplitMix64) -> Option<Event> {
        let p = s.player(k);
        let who = p.colour;
        // Now and then a dragonslayer card or the active token, while a challenge runs.
        if self.config.packs == Packs::A && p.slayer.is_some() && !p.slayer_used && rng.one_in(12) {
            return Some(Event::Hero { who });
        }
        let kinds: Vec<Dwarf> = Dwarf::ALL.iter().copied().filter(|d| p.campfire[d.index()] > 0).collect();
        let mut raids = Vec::new();
        if p.health.value > 0 {
            for &d in &kinds {
                for t in tiles_of(self.raid_tiles(s, k, d)) {
                    raids.push((d, t));
                }
            }
        }
        let board = self.free_board_spot(s, k).is_some();
        let raid = !raids.is_empty() && (!board || p.health.value >= 3 || rng.one_in(3)) && !rng.one_in(6);
        if raid {
            // Prefer special dwarfs a little, and the Castle when it is open.
            let castle: Vec<_> = raids.iter().filter(|(_, t)| t.is_castle()).copied().collect();
            let (dwarf, tile) = match rng.pick(&castle) {
                Some(&x) if p.health.value >= 4 => x,
                _ => *rng.pick(&raids)?,
            };
            return Some(Event::Raid { who, dwarf, tile, spot: self.spot_for(s, k, tile) });
        }
        if board {
            let spot = self.free_board_spot(s, k);
            return Some(Event::Regroup { who, dwarf: *rng.pick(&kinds)?, spot });
        }
        let (dwarf, tile) = *rng.pick(&raids)?;
        Some(Event::Raid { who, dwarf, tile, spot: self.spot_for(s, k, tile) })
    }
}
