//! A seeded campaign: the Encampment's setup, then Seasons, each encounter played by the
//! encounter's simulator (simulate.rs) and each Encampment phase by a small planner that
//! heals, visits the Markets (sells, hires, buys), upgrades, crafts and scouts while
//! keeping two Seekers able to Scout. Each phase has seeded moods: a thrifty one saves its
//! gold for a building or an upgrade instead of hiring, a neglectful one spends actions at
//! the Temple until fewer than two Seekers can Scout (the Encampment goes Derelict). Gold
//! comes only from captured Creatures, so most campaigns never afford a building.
//! Every event is legal; every consequence is taken from `next_consequence`.

use super::super::event::Lineup;
use super::event::DRAW_MAX;
use super::{at_level, Building, CampEvent, Stage};
use crate::kit::name::Name;
use crate::wild_assent::event::Event;
use crate::wild_assent::simulate::{name, Play};
use crate::wild_assent::state::{Phase, State};
use crate::wild_assent::WildAssent;

impl WildAssent {
    pub(crate) fn random_campaign(&self, seed: u64, events: usize) -> Vec<Event> {
        self.random_campaign_state(seed, events).0
    }

    /// The log and the state the simulator reached.
    pub(crate) fn random_campaign_state(&self, seed: u64, events: usize) -> (Vec<Event>, State) {
        let mut p = Play::new(self, seed, events);
        self.camp_setup(&mut p);
        let mut guard = 0;
        while !p.full() && guard < events * 4 + 100 {
            guard += 1;
            p.settle();
            if p.full() {
                break;
            }
            let Some(stage) = p.state.camp.as_ref().map(|c| c.stage) else { break };
            match stage {
                Stage::Encounter if p.state.phase == Phase::Setup && p.state.units.is_empty() => {
                    self.setup_encounter(&mut p)
                }
                Stage::Encounter if p.state.phase == Phase::Over => break,
                Stage::Encounter => self.play_one(&mut p),
                Stage::Encampment => self.play_encampment(&mut p),
                Stage::Setup | Stage::Won | Stage::Lost => break,
            }
        }
        (p.log, p.state)
    }

    fn cards_event(names: &[&str], scout: bool) -> Vec<Event> {
        names
            .chunks(DRAW_MAX)
            .filter_map(|c| {
                let v: Vec<Name> = c.iter().map(|n| name(n)).collect();
                Lineup::new(&v)
            })
            .map(|cards| {
                Event::Camp(if scout {
                    CampEvent::ScoutDraw { cards }
                } else {
                    CampEvent::WorkerDraw { cards }
                })
            })
            .collect()
    }

    fn camp_setup(&self, p: &mut Play<'_>) {
        let mut choice = vec![Building::Temple, Building::Workshop, Building::Den, Building::Pens];
        p.rng.shuffle(&mut choice);
        for &b in &choice[..2] {
            p.push(Event::Camp(CampEvent::Build { building: b }));
        }
        let mut cheap: Vec<&str> =
            self.camp_catalog.workers.iter().filter(|(_, _, w)| w.cost < 2).map(|(_, n, _)| n).collect();
        p.rng.shuffle(&mut cheap);
        cheap.truncate(3);
        for e in Self::cards_event(&cheap, false) {
            p.push(e);
        }
        if let Some(&w) = cheap.get(p.pick(cheap.len().max(1))) {
            p.push(Event::Camp(CampEvent::Hire { worker: name(w), replacing: None }));
        }
        let mut first: Vec<&str> = self
            .catalog
            .scouts
            .iter()
            .filter(|(_, _, c)| c.threat == 1 && c.text.is_empty())
            .map(|(_, n, _)| n)
            .collect();
        p.rng.shuffle(&mut first);
        first.truncate(2);
        for e in Self::cards_event(&first, true) {
            p.push(e);
        }
        if let Some(&c) = first.get(p.pick(first.len().max(1))) {
            p.push(Event::Camp(CampEvent::ScoutPick { card: name(c) }));
        }
    }

    /// The planner's moods for the Encampment phase under way, fixed for the whole phase (drawn
    /// from where the phase starts in the log, so the choice is as seeded as the log and costs
    /// no draw of the player's): whether it saves its gold for buildings and upgrades rather
    /// than hiring, and whether it neglects Scouting (spending actions at the Temple until
    /// fewer than two Seekers can Scout: the Encampment goes Derelict).
    fn moods(p: &Play<'_>) -> (bool, bool) {
        let start = p
            .log
            .iter()
            .rposition(|e| matches!(e, Event::Camp(CampEvent::Encampment | CampEvent::Derelict)))
            .unwrap_or(0);
        let mut rng = crate::kit::rng::SplitMix64::new(start as u64 ^ 0x5eed_ca3b);
        (rng.below(100) < 70, rng.below(100) < 12)
    }

    /// One decision of an Encampment phase.
    fn play_encampment(&self, p: &mut Play<'_>) {
        let s = p.state.clone();
        let Some(c) = s.camp.as_deref() else { return };
        let need = self.scout_need();
        let push = |p: &mut Play<'_>, e: CampEvent| p.push(Event::Camp(e));
        // No two Seekers able to Scout, actions left (`derelict-timing=spent`, where the new
        // phase is owed only once every action is spent): the planner stops spending them and
        // the new, Derelict, phase begins, as it does at once under `at-once`.
        if c.scouting.is_none()
            && c.pick.is_none()
            && c.seekers.iter().filter(|m| m.actions >= need).count() < 2
        {
            // The phase ends: the Creatures the Encampment cannot house go first.
            if c.creatures.len() > self.housing(c) {
                return push(p, CampEvent::Release { creature: name(self.units().name(c.creatures[0].0)) });
            }
            // The last Season's phase (`survival-end=encampment`) is followed by no Derelict
            // phase: the campaign is won where it ends.
            if self.last_phase(c) {
                return push(p, CampEvent::Won);
            }
            return push(p, CampEvent::Derelict);
        }
        let (thrifty, neglect) = Self::moods(p);
        // A Scouting under way: draw, then pick.
        if let Some(owed) = c.scouting {
            if c.scouts.len() < usize::from(owed) {
                let mut pool: Vec<&str> = self
                    .catalog
                    .scouts
                    .iter()
                    .filter(|(id, _, sc)| sc.text.is_empty() && !c.scouts.contains(id))
                    .map(|(_, n, _)| n)
                    .collect();
                p.rng.shuffle(&mut pool);
                pool.truncate((usize::from(owed) - c.scouts.len()).min(DRAW_MAX));
                match Self::cards_event(&pool, true).into_iter().next() {
                    Some(e) => p.push(e),
                    None => p.want = p.log.len(), // no card left to draw: stop here
                }
            } else if let Some(&pick) = if p.chance(70) {
                // Mostly the easiest hunt: the fewest Creatures, then the lowest Threat (a
                // lone Creature is the likeliest capture, and captures are the only gold).
                c.scouts.iter().min_by_key(|&&id| {
                    let sc = &self.catalog.scouts[id];
                    (sc.prey.len() + sc.draw.iter().map(|&n| usize::from(n)).sum::<usize>(), sc.threat)
                })
            } else {
                c.scouts.get(p.pick(c.scouts.len()))
            } {
                push(p, CampEvent::ScoutPick { card: name(self.catalog.scouts.name(pick)) });
            }
            return;
        }
        // The Markets' tasks while a visit is open.
        if c.market.is_some() {
            if let Some(&(cr, _)) = c.creatures.first() {
                return push(p, CampEvent::Sell { creature: name(self.units().name(cr)) });
            }
            let visit = c.market.unwrap_or_default();
            let deck: Vec<&str> = self
                .camp_catalog
                .workers
                .iter()
                .filter(|(id, _, _)| {
                    !c.workers.contains(id) && !c.boxed.contains(id) && !c.drawn.contains(id)
                })
                .map(|(_, n, _)| n)
                .collect();
            if visit.drawn == 0 && deck.len() >= 2 && c.gold >= 1 {
                let mut deck = deck;
                p.rng.shuffle(&mut deck);
                deck.truncate(2);
                return p.push(Self::cards_event(&deck, false).remove(0));
            }
            if let Some(&w) =
                c.drawn.iter().find(|&&w| !thrifty && u32::from(self.camp_catalog.workers[w].cost) <= c.gold)
            {
                let replacing = (c.workers.len() >= self.slots(c))
                    .then(|| name(self.camp_catalog.workers.name(c.workers[0])));
                return push(
                    p,
                    CampEvent::Hire { worker: name(self.camp_catalog.workers.name(w)), replacing },
                );
            }
            // Gold goes to a new building, or (left for below) an upgrade.
            if c.gold >= 2 && p.chance(50) {
                if let Some(&b) = Building::ALL.iter().find(|&&b| c.built(b).is_none()) {
                    return push(p, CampEvent::Buy { building: b });
                }
            }
        }
        // Upgrades, while the gold lasts.
        for b in &c.buildings {
            let cost = match b.next {
                1 => 2,
                2 => 3,
                _ => continue,
            };
            if !b.bought && !b.upgraded && c.gold >= cost && p.chance(70) {
                return push(p, CampEvent::Upgrade { building: b.building });
            }
        }
        // A neglected phase: Temple visits (healing or not) by Seekers still able to Scout,
        // the one with the fewest actions first, until fewer than two can.
        let level = c.level(Building::Temple);
        let card = self.camp_catalog.building(Building::Temple);
        let visitors = c.seekers.iter().filter(|m| m.visited).count();
        let room = |m: &super::Member| {
            m.visited || card.visitors == [0; 3] || visitors < usize::from(at_level(card.visitors, level))
        };
        if neglect && level > 0 && c.market.is_none() && c.creatures.len() <= self.housing(c) {
            let able = c.seekers.iter().filter(|m| m.actions >= need).count();
            if able >= 2 {
                if let Some(m) =
                    c.seekers.iter().filter(|m| m.actions >= need && room(m)).min_by_key(|m| m.actions)
                {
                    return push(p, CampEvent::Temple { seeker: m.name });
                }
            }
        }
        // Creatures the Encampment cannot house go before the phase ends.
        if c.creatures.len() > self.housing(c) && c.market.is_none() {
            return push(p, CampEvent::Release { creature: name(self.units().name(c.creatures[0].0)) });
        }
        // Actions, keeping two Seekers able to Scout (unless the planner lets it go Derelict).
        let careless = p.chance(3);
        let keeps = |i: usize, n: u8| {
            careless
                || c.seekers
                    .iter()
                    .enumerate()
                    .filter(|(j, m)| if *j == i { m.actions >= n + need } else { m.actions >= need })
                    .count()
                    >= 2
        };
        let fresh: Vec<usize> = (0..c.seekers.len()).filter(|&i| c.seekers[i].actions == 5).collect();
        if fresh.len() >= 4 && c.market.is_none() && self.market_possible(c) && p.chance(60) {
            let (a, b) = (c.seekers[fresh[0]].name, c.seekers[fresh[1]].name);
            return push(p, CampEvent::Market { a, b });
        }
        for (i, m) in c.seekers.iter().enumerate() {
            if level > 0 && m.damage > 0 && m.actions >= 1 && room(m) && keeps(i, 1) {
                return push(p, CampEvent::Temple { seeker: m.name });
            }
        }
        if let Some(eq) = self.craftable(c) {
            if let Some(i) = (0..c.seekers.len()).find(|&i| c.seekers[i].actions >= 1 && keeps(i, 1)) {
                return push(
                    p,
                    CampEvent::Craft {
                        seeker: c.seekers[i].name,
                        card: name(self.catalog.equipment.name(eq)),
                    },
                );
            }
        }
        if careless {
            if let Some(m) = c.seekers.iter().find(|m| m.actions >= 1) {
                if level > 0 && room(m) {
                    return push(p, CampEvent::Temple { seeker: m.name });
                }
            }
        }
        let mut able: Vec<&super::Member> = c.seekers.iter().filter(|m| m.actions >= need).collect();
        able.sort_by_key(|m| std::cmp::Reverse(m.actions));
        if able.len() >= 2 {
            return push(p, CampEvent::Scout { a: able[0].name, b: able[1].name });
        }
        // Nothing to do: the Derelict rule is due (settled by the caller), or the log stops.
        if self.campaign_next(&p.state).is_none() {
            p.want = p.log.len();
        }
    }

    /// Whether a visit to the Markets could do something.
    fn market_possible(&self, c: &super::Camp) -> bool {
        !c.creatures.is_empty() || c.gold >= 1
    }

    /// An Equipment card a hired Worker's recipe makes from the stored Resources.
    fn craftable(
        &self,
        c: &super::Camp,
    ) -> Option<crate::kit::catalog::Id<crate::wild_assent::cards::Skill>> {
        if c.level(Building::Workshop) == 0 {
            return None;
        }
        c.workers.iter().find_map(|&w| {
            let worker = &self.camp_catalog.workers[w];
            if c.level(worker.building) == 0 {
                return None;
            }
            worker
                .recipes
                .iter()
                .find(|r| r.needs.iter().all(|(res, n)| c.resources[res.index()] >= u16::from(*n)))
                .map(|r| r.equipment)
        })
    }
}
