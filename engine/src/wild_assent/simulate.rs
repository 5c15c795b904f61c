//! A seeded random player: legal Hunt encounters (the default setup) or free combats
//! (`scope=combat`, both modes), every consequence taken from `next_consequence`, every
//! Creature played as its Instinct card requires (the AI's own searches walk its path).
//! The same seed gives the same log on every machine, and a shorter request is a prefix of
//! a longer one (the player never looks ahead).
//!
//! The Attack die's faces are not printed; the simulator rolls a die with 2 Successes, 1
//! Special and 3 Blanks (it only needs some die: logs record faces, not the die).

use super::cards::{Movement, Pool, SkillKind, UnitKind};
use super::effect::Effect;
use super::event::{Event, Field, Path, Step, StepKind};
use super::rules::{CreaturePitExit, Mode, PitPath, Scope, SummonTiming};
use super::state::{Faces, Obstacle, Phase, Side, State, UnitIx};
use super::WildAssent;
use crate::kit::grid::{Facing, Pos};
use crate::kit::name::Name;
use crate::kit::paths::{Move, Place};
use crate::kit::rng::SplitMix64;
use crate::{Findings, Game};

/// A log being played, stopping at its length.
pub(super) struct Play<'g> {
    pub(super) game: &'g WildAssent,
    pub(super) state: State,
    pub(super) log: Vec<Event>,
    pub(super) want: usize,
    pub(super) rng: SplitMix64,
    /// The activation the player last decided about (its index in the log), and whether it
    /// chose not to move in it.
    current: Option<usize>,
    stayed: Option<UnitIx>,
}

impl<'g> Play<'g> {
    /// A log to play from the game's initial state.
    pub(super) fn new(game: &'g WildAssent, seed: u64, events: usize) -> Play<'g> {
        Play {
            game,
            state: game.initial_state(),
            log: Vec::new(),
            want: events,
            rng: SplitMix64::new(seed),
            current: None,
            stayed: None,
        }
    }

    pub(super) fn full(&self) -> bool {
        self.log.len() >= self.want
    }

    /// Record an event (the player only plays legal ones; a debug build checks it).
    pub(super) fn push(&mut self, e: Event) {
        if self.full() {
            return;
        }
        if matches!(e, Event::Activate { .. } | Event::Instinct { .. }) {
            self.current = Some(self.log.len());
            self.stayed = None;
        }
        let mut f = Findings::default();
        let ok = self.game.step(&mut self.state, &e, &mut f);
        debug_assert!(ok.is_ok() && f.is_clean(), "simulated `{e}` is not legal: {ok:?} {:?}", f.violations);
        self.log.push(e);
    }

    /// Every consequence owed.
    pub(super) fn settle(&mut self) {
        while !self.full() {
            match self.game.next_consequence(&self.state) {
                Some(c) => self.push(c),
                None => break,
            }
        }
    }

    pub(super) fn pick(&mut self, n: usize) -> usize {
        self.rng.below(n)
    }

    pub(super) fn chance(&mut self, percent: usize) -> bool {
        self.rng.below(100) < percent
    }

    pub(super) fn face(&mut self) -> u8 {
        // 0 Special, 1-2 Success, 3-5 Blank.
        match self.rng.below(6) {
            0 => 0,
            1 | 2 => 1,
            _ => 2,
        }
    }
}

/// A catalog id as a name (the catalog reader accepts only ids a `Name` holds, so the
/// placeholder is never used with a catalog that loaded).
pub(super) fn name(s: &str) -> Name {
    Name::new(s).unwrap_or(Name::literal("x"))
}

impl WildAssent {
    pub(crate) fn random_encounter(&self, seed: u64, events: usize) -> Vec<Event> {
        let mut p = Play {
            game: self,
            state: self.initial_state(),
            log: Vec::new(),
            want: events,
            rng: SplitMix64::new(seed),
            current: None,
            stayed: None,
        };
        match self.params.scope {
            Scope::Encounter | Scope::Campaign => self.setup_encounter(&mut p),
            Scope::Combat => self.setup_combat(&mut p),
            Scope::Match => self.setup_match(&mut p),
        }
        let mut guard = 0;
        while !p.full() && guard < events * 4 + 100 {
            guard += 1;
            p.settle();
            if p.full() || p.state.phase == Phase::Over {
                break;
            }
            if self.params.scope == Scope::Combat && self.combat_over(&p.state) {
                break;
            }
            if self.params.scope == Scope::Match && self.match_round_start(&mut p) {
                continue;
            }
            self.play_one(&mut p);
        }
        p.log
    }

    /// Free fields in rows `rows`, shuffled.
    pub(super) fn free_fields(
        &self,
        s: &State,
        rows: std::ops::Range<i16>,
        rng: &mut SplitMix64,
    ) -> Vec<Pos> {
        let b = self.params.board;
        let mut v: Vec<Pos> = rows
            .flat_map(|y| (0..b.width).map(move |x| Pos::new(x, y)))
            .filter(|&p| b.contains(p) && s.at(p).is_none() && s.obstacle(p).is_none())
            .collect();
        rng.shuffle(&mut v);
        v
    }

    pub(super) fn setup_encounter(&self, p: &mut Play<'_>) {
        let scouts: Vec<&str> =
            self.catalog.scouts.iter().filter(|(_, _, c)| c.text.is_empty()).map(|(_, n, _)| n).collect();
        let Some(&scout) = scouts.get(p.pick(scouts.len().max(1))) else { return };
        // A campaign's Season has its Scout card already (the Scouting picked it).
        if p.state.hunt.scout.is_none() {
            p.push(Event::Scout { card: name(scout) });
        }
        let creatures: Vec<&str> =
            self.units().iter().filter(|(_, _, u)| u.kind == UnitKind::Creature).map(|(_, n, _)| n).collect();
        for _ in 0..40 {
            let owed = p.state.hunt.owed;
            let Some(t) = (0..3).find(|&t| owed[t] > 0) else { break };
            let sc = p.state.hunt.scout.map(|s| self.catalog.scouts[s].prey.clone()).unwrap_or_default();
            let named: Vec<&str> = sc.iter().map(|(c, _)| self.units().name(*c)).collect();
            let pool: Vec<&str> = creatures.iter().copied().filter(|c| !named.contains(c)).collect();
            let c = pool[p.pick(pool.len())];
            p.push(Event::Draw { threat: t as u8 + 1, creature: name(c) });
        }
        let face = p.rng.die(6);
        p.push(Event::SetupRoll { face });
        if face == 6 {
            let setup = p.rng.die(5);
            p.push(Event::SetupChoice { setup });
        }
        let h = self.params.board.height;
        let seekers: Vec<&str> = self
            .units()
            .iter()
            .filter(|(_, _, u)| u.kind == UnitKind::Seeker)
            .map(|(_, n, _)| n)
            .take(4)
            .collect();
        let mut low = self.free_fields(&p.state, 0..2, &mut p.rng);
        for sk in &seekers {
            let at = low.pop().unwrap_or(Pos::new(0, 0));
            p.push(Event::Place {
                unit: name(sk),
                at: Field(at),
                facing: Facing::N,
                threat: None,
                side: None,
            });
        }
        let equipment: Vec<&str> = self
            .catalog
            .equipment
            .iter()
            .filter(|(_, _, e)| e.effects.text.is_empty())
            .map(|(_, n, _)| n)
            .collect();
        for sk in &seekers {
            // A campaign's Seekers take only what the Encampment stores (campaign/simulate.rs).
            if !equipment.is_empty() && p.state.camp.is_none() && p.chance(40) {
                let e = equipment[p.pick(equipment.len())];
                p.push(Event::Equip { unit: name(sk), card: name(e) });
            }
        }
        let mut high = self.free_fields(&p.state, h - 2..h, &mut p.rng);
        for (c, _) in p.state.hunt.creatures.clone() {
            let at = high.pop().unwrap_or(Pos::new(0, h - 1));
            p.push(Event::Place {
                unit: name(self.units().name(c)),
                at: Field(at),
                facing: Facing::S,
                threat: None,
                side: None,
            });
        }
        let mut mid = self.free_fields(&p.state, 3..h - 3, &mut p.rng);
        for _ in 0..4 {
            let Some(at) = mid.pop() else { break };
            loop {
                let face = p.rng.die(6);
                p.push(Event::ObstacleRoll { at: Field(at), face });
                if p.state.hunt.reroll.is_none() || p.full() {
                    break;
                }
            }
        }
        p.push(Event::Begin);
    }

    fn setup_combat(&self, p: &mut Play<'_>) {
        let h = self.params.board.height;
        let arena = self.params.mode == Mode::Arena;
        let mut low = self.free_fields(&p.state, 0..2, &mut p.rng);
        let mut high = self.free_fields(&p.state, h - 2..h, &mut p.rng);
        let blocks: Vec<(&str, UnitKind)> = self.units().iter().map(|(_, n, u)| (n, u.kind)).collect();
        let (first, second) = if arena {
            (UnitKind::Assent, UnitKind::Gladiator)
        } else {
            (UnitKind::Seeker, UnitKind::Creature)
        };
        let mut a: Vec<&str> = blocks.iter().filter(|(_, k)| *k == first).map(|(n, _)| *n).collect();
        let mut b: Vec<&str> = blocks.iter().filter(|(_, k)| *k == second).map(|(n, _)| *n).collect();
        p.rng.shuffle(&mut a);
        p.rng.shuffle(&mut b);
        let n = 2 + p.pick(2);
        for (i, unit) in a.iter().take(n).enumerate() {
            let at = low.pop().unwrap_or(Pos::new(i as i16, 0));
            let side = arena.then_some(Side::Red);
            p.push(Event::Place { unit: name(unit), at: Field(at), facing: Facing::N, threat: None, side });
        }
        if arena {
            // Both sides have an Assent and Gladiators; the blue side takes the second Assent.
            for unit in b.iter().take(n) {
                let at = low.pop().unwrap_or(Pos::new(0, 1));
                p.push(Event::Place {
                    unit: name(unit),
                    at: Field(at),
                    facing: Facing::N,
                    threat: None,
                    side: Some(Side::Red),
                });
            }
        }
        for (i, unit) in b.iter().skip(if arena { n } else { 0 }).take(n + 1).enumerate() {
            let at = high.pop().unwrap_or(Pos::new(i as i16, h - 1));
            let threat = (!arena).then(|| p.rng.die(3));
            let side = arena.then_some(Side::Blue);
            p.push(Event::Place { unit: name(unit), at: Field(at), facing: Facing::S, threat, side });
        }
        let mut mid = self.free_fields(&p.state, 3..h - 3, &mut p.rng);
        for kind in [
            Obstacle::Partial,
            Obstacle::Full,
            Obstacle::Pit,
            if arena { Obstacle::Blades } else { Obstacle::Thornbrush },
        ] {
            if let Some(at) = mid.pop() {
                p.push(Event::Obstacle { at: Field(at), kind });
            }
        }
        p.push(Event::Begin);
    }

    fn combat_over(&self, s: &State) -> bool {
        let alive = |f: &dyn Fn(Side) -> bool| s.units.iter().any(|u| u.on_board() && f(u.side));
        !alive(&|x| matches!(x, Side::Seekers | Side::Red))
            || !alive(&|x| matches!(x, Side::Creatures | Side::Blue))
    }

    /// One decision or random outcome.
    pub(super) fn play_one(&self, p: &mut Play<'_>) {
        let s = p.state.clone();
        if let Some(a) = s.attack.as_ref().filter(|a| a.roll.is_none()) {
            let mut faces = Faces::default();
            for _ in 0..a.dice {
                match p.face() {
                    0 => faces.specials += 1,
                    1 => faces.successes += 1,
                    _ => faces.blanks += 1,
                }
            }
            p.push(Event::Roll { unit: s.unit(a.attacker).name, faces });
            return;
        }
        let Some(act) = s.act.clone() else {
            self.start_activation(p);
            return;
        };
        let u = act.unit;
        let me = s.unit(u);
        if act.pit && me.in_pit {
            let exits: Vec<Pos> = me
                .at
                .neighbours()
                .into_iter()
                .filter(|&q| self.params.board.contains(q) && s.at(q).is_none() && s.obstacle(q).is_none())
                // A Creature's, toward its destination under `creature-pit-exit=toward-target`.
                .filter(|&q| {
                    self.params.creature_pit_exit == CreaturePitExit::AnyField
                        || act.card.is_none()
                        || self.check_creature_exit(&s, &act, q).is_none()
                })
                .collect();
            match exits.get(p.pick(exits.len().max(1))) {
                Some(&q) => p.push(Event::Exit { unit: me.name, to: Field(q) }),
                None => p.push(Event::Pass { unit: me.name }),
            }
            return;
        }
        if act.card.is_some() {
            self.play_creature(p, &act);
        } else {
            self.play_free_will(p, &act);
        }
    }

    fn start_activation(&self, p: &mut Play<'_>) {
        let s = p.state.clone();
        if let Some(g) = s.grant.filter(|&g| s.unit(g).on_board()) {
            p.push(Event::Activate { unit: s.unit(g).name, free: true });
            return;
        }
        if self.params.scope == Scope::Match {
            if let Some((legal, _)) = self.next_up(&s) {
                let u = legal[p.pick(legal.len())];
                p.push(Event::Activate { unit: s.unit(u).name, free: false });
            }
            return;
        }
        if self.params.scope == Scope::Encounter {
            match self.next_side(&s) {
                Some(Side::Seekers) => {
                    let ready: Vec<UnitIx> = s
                        .indices()
                        .filter(|&i| {
                            let x = s.unit(i);
                            x.on_board() && !x.exhausted && self.card(&s, i).kind == UnitKind::Seeker
                        })
                        .collect();
                    let u = ready[p.pick(ready.len())];
                    p.push(Event::Activate { unit: s.unit(u).name, free: false });
                }
                _ => {
                    let cards = s.hunt.deck.remaining().to_vec();
                    let c = cards[p.pick(cards.len())];
                    p.push(Event::Instinct { card: name(self.catalog.instincts.name(c)) });
                }
            }
            return;
        }
        let alive: Vec<UnitIx> = s
            .indices()
            .filter(|&i| s.unit(i).on_board() && self.card(&s, i).kind != UnitKind::Summon)
            .filter(|&i| !s.units.iter().any(|o| o.on_board() && o.capture.is_some_and(|(c, _)| c == i)))
            .collect();
        if alive.is_empty() {
            return;
        }
        let u = alive[p.pick(alive.len())];
        if self.params.mode == Mode::Hunt && self.card(&s, u).kind == UnitKind::Creature {
            let card = s.unit(u).card;
            let cards: Vec<&str> = self
                .catalog
                .instincts
                .iter()
                .filter(|(_, _, c)| c.creature == card)
                .map(|(_, n, _)| n)
                .collect();
            let c = cards[p.pick(cards.len())];
            p.push(Event::Instinct { card: name(c) });
        } else {
            p.push(Event::Activate { unit: s.unit(u).name, free: false });
        }
    }

    /// `pit-path=into`: a walking Creature's moves, searched over its Pits as open ground, cut
    /// at the first that enters a Pit (its activation ends there).
    fn stop_at_pit(&self, s: &State, act: &super::state::Activation, moves: &mut Vec<Move>) {
        let movement = self.movement_of(s, act);
        if movement == Movement::Flying {
            return;
        }
        let walk = self.mover(s, act.unit, movement, false);
        let mut at = s.unit(act.unit).place();
        for (i, &m) in moves.iter().enumerate() {
            let Ok((next, _)) = walk.apply(at, m) else { return };
            at = next;
            if walk.stop.contains(at.at) {
                moves.truncate(i + 1);
                return;
            }
        }
    }

    /// A Creature follows its Instinct card: its Summons first, then the target, the
    /// movement the card requires, and its attack when it can.
    fn play_creature(&self, p: &mut Play<'_>, act: &super::state::Activation) {
        let s = p.state.clone();
        let u = act.unit;
        let me = s.unit(u);
        let card = act.card.map(|c| &self.catalog.instincts[c]);
        // Its Summons before it moves or acts: before its target too (`summon-timing`'s
        // default), or once its card has its target (`after-target`; a card naming none has
        // no `target` line to wait for).
        let summons_now = match self.params.summon_timing {
            SummonTiming::BeforeMove => act.target.is_none(),
            SummonTiming::AfterTarget => act.target.is_some() || card.is_none_or(|c| c.pool == Pool::Enemies),
        };
        if !act.moved && !act.acted && summons_now && self.summon_step(p, act) {
            return;
        }
        if act.target.is_none() && card.is_some_and(|c| c.pool != Pool::Enemies) && !act.moved && !act.acted {
            let (pool, _, best) = self.legal_targets(&s, act);
            let from = if best.is_empty() { pool } else { best };
            if let Some(&t) = from.get(p.pick(from.len().max(1))) {
                p.push(Event::Target { unit: s.unit(t).name });
                return;
            }
            p.push(Event::Pass { unit: me.name });
            return;
        }
        if !act.moved && !act.acted && p.stayed != Some(u) {
            let mut rng = p.rng.clone();
            let mut moves = self.creature_moves(&s, act, &mut |n| rng.below(n));
            p.rng = rng;
            if self.params.pit_path == PitPath::Into {
                self.stop_at_pit(&s, act, &mut moves);
            }
            if !moves.is_empty() {
                let steps: Vec<Step> = moves.iter().filter_map(|&m| Step::of(kind_of(m))).collect();
                if let Some(path) = Path::new(&steps) {
                    let to = self.lands(&s, u, &moves);
                    p.push(Event::Move { unit: me.name, path, to: Some(Field(to)) });
                    return;
                }
            }
            // No movement: go on to the action.
            p.stayed = Some(u);
            self.play_creature(p, act);
            return;
        }
        if !act.acted {
            let here = me.place();
            let can = match card {
                Some(c) if c.attack.is_some() && c.pool == Pool::Enemies => s.indices().any(|i| {
                    s.unit(i).on_board() && self.enemies(&s, u, i) && s.unit(i).at.adjacent(here.at)
                }),
                Some(c) if c.attack.is_some() => {
                    act.target.is_some_and(|t| s.unit(t).on_board() && self.ready(&s, act, here, t))
                }
                _ => false,
            };
            if let Some(c) = act.card.filter(|&c| {
                let k = &self.catalog.instincts[c];
                k.attack.is_none() && !k.effects.effects.is_empty()
            }) {
                p.push(Event::Skill {
                    unit: me.name,
                    skill: name(self.catalog.instincts.name(c)),
                    target: None,
                });
                return;
            }
            if can {
                let target = if card.is_some_and(|c| c.pool == Pool::Enemies) {
                    None
                } else {
                    act.target.map(|t| s.unit(t).name)
                };
                p.push(Event::Attack { unit: me.name, target, with: None });
                return;
            }
        }
        p.push(Event::Pass { unit: me.name });
    }

    /// A summoner may bring in a Summon, which then activates inside its activation.
    fn summon_step(&self, p: &mut Play<'_>, act: &super::state::Activation) -> bool {
        let s = p.state.clone();
        let u = act.unit;
        if s.outer.is_some() || !p.chance(30) {
            return false;
        }
        let summons: Vec<Name> = self
            .skills_of(&s, u)
            .flat_map(|(k, _)| k.effects.effects.iter())
            .filter_map(|e| if let Effect::Summon(n) = e { Some(*n) } else { None })
            .collect();
        for base in summons {
            let Some(card) = self.units().by_name(base.as_str()) else { continue };
            for copy in 1..=card.copies {
                let Some(id) = Name::new(&format!("{base}-{copy}")) else { continue };
                let present = s.find(&id).is_some_and(|i| s.unit(i).on_board());
                if present {
                    continue;
                }
                let fields: Vec<Pos> = s
                    .unit(u)
                    .at
                    .neighbours()
                    .into_iter()
                    .filter(|&q| {
                        self.params.board.contains(q) && s.at(q).is_none() && s.obstacle(q).is_none()
                    })
                    .collect();
                let Some(&at) = fields.get(p.pick(fields.len().max(1))) else { return false };
                p.push(Event::Summon { unit: id, at: Field(at), facing: s.unit(u).facing });
                p.push(Event::Activate { unit: id, free: false });
                return true;
            }
        }
        false
    }

    /// A Seeker, a Gladiator or a Summon: move somewhere within its Speed, then capture,
    /// attack, use a skill or pass.
    fn play_free_will(&self, p: &mut Play<'_>, act: &super::state::Activation) {
        let s = p.state.clone();
        let u = act.unit;
        let me = s.unit(u);
        if !act.moved && !act.acted && !act.free_action && self.summon_step(p, act) {
            return;
        }
        let capture_target =
            me.capture.map(|(c, _)| c).filter(|&c| s.unit(c).on_board() && s.unit(c).at.adjacent(me.at));
        if !act.moved && !act.acted && !act.free_action && p.stayed != Some(u) {
            if capture_target.is_none() && p.chance(80) {
                let speed = self.speed_of(&s, act);
                let movement = self.movement_of(&s, act);
                let mut mover = self.mover(&s, u, movement, true);
                if self.params.pit_path == PitPath::Into && movement != Movement::Flying {
                    // Its search's open Pits are a Creature's: a player's miniature goes round.
                    mover = super::geometry::avoiding(mover, s.obstacle_cells().2);
                }
                let from = mover.from(me.place(), speed.saturating_sub(act.spent));
                let places: Vec<Place> = from
                    .reached()
                    .filter(|(q, c)| *c > 0 && mover.end.contains(q.at))
                    .map(|(q, _)| q)
                    .collect();
                // Prefer places from which an enemy can be attacked.
                let good: Vec<Place> =
                    places.iter().copied().filter(|&q| !self.attackable(&s, u, q).is_empty()).collect();
                let pool = if !good.is_empty() && p.chance(75) { good } else { places };
                if let Some(&dest) = pool.get(p.pick(pool.len().max(1))) {
                    let h = mover.to(|q| q == dest, u8::MAX - 1);
                    let mut at = me.place();
                    let mut steps = Vec::new();
                    while let Some(hp) = h.get(at).filter(|&x| x > 0) {
                        let Some((m, q, _)) =
                            mover.moves(at).find(|&(_, q, k)| hp >= k && h.get(q) == Some(hp - k))
                        else {
                            break;
                        };
                        steps.extend(Step::of(kind_of(m)));
                        at = q;
                    }
                    if let Some(path) = Path::new(&steps).filter(|p| !p.is_empty()) {
                        p.push(Event::Move { unit: me.name, path, to: Some(Field(at.at)) });
                        return;
                    }
                }
            }
            p.stayed = Some(u);
            self.play_free_will(p, act);
            return;
        }
        if act.acted {
            p.push(Event::Pass { unit: me.name });
            return;
        }
        // A capture: keep one going, or start one on a weakened Creature next to it.
        if self.params.mode == Mode::Hunt && self.card(&s, u).kind == UnitKind::Seeker {
            let start = s.indices().find(|&c| {
                let cu = s.unit(c);
                cu.on_board()
                    && self.card(&s, c).kind == UnitKind::Creature
                    && cu.at.adjacent(me.at)
                    && self.remaining(&s, c) <= self.stats(&s, c).health / 2
            });
            let c = capture_target.or(start.filter(|_| me.capture.is_none() && p.chance(60)));
            if let Some(c) = c {
                p.push(Event::Capture { unit: me.name, creature: s.unit(c).name });
                return;
            }
        }
        // A non-attack skill now and then.
        let usable: Vec<(String, bool)> = self
            .skills_of(&s, u)
            .filter(|(k, _)| {
                matches!(k.kind, SkillKind::Active | SkillKind::Free)
                    && k.attack.is_none()
                    && k.effects.text.is_empty()
            })
            .map(|(k, _)| {
                (self.skill_name(k), k.effects.effects.iter().any(|e| matches!(e, Effect::Status(_))))
            })
            .collect();
        if !usable.is_empty() && !act.free_action && p.chance(15) {
            let (skill, hostile) = usable[p.pick(usable.len())].clone();
            let targets: Vec<UnitIx> = s
                .indices()
                .filter(|&i| s.unit(i).on_board() && (self.enemies(&s, u, i) == hostile) && i != u)
                .collect();
            if let Some(&t) = targets.get(p.pick(targets.len().max(1))) {
                p.push(Event::Skill { unit: me.name, skill: name(&skill), target: Some(s.unit(t).name) });
                return;
            }
        }
        let targets = self.attackable(&s, u, me.place());
        if !targets.is_empty() {
            let (t, with) = targets[p.pick(targets.len())].clone();
            p.push(Event::Attack {
                unit: me.name,
                target: t.map(|t| s.unit(t).name),
                with: with.map(|w| name(&w)),
            });
            return;
        }
        p.push(Event::Pass { unit: me.name });
    }

    /// The attacks a free-willed miniature could make from `at`: (target, skill).
    fn attackable(&self, s: &State, u: UnitIx, at: Place) -> Vec<(Option<UnitIx>, Option<String>)> {
        let mut out = Vec::new();
        let mut profiles: Vec<(super::cards::Profile, Option<String>)> = Vec::new();
        if let Some(p) = self.card(s, u).attack {
            profiles.push((p, None));
        }
        for (k, _) in self.skills_of(s, u) {
            if let (Some(p), SkillKind::Active) = (k.attack, k.kind) {
                if k.effects.text.is_empty() {
                    profiles.push((p, Some(self.skill_name(k))));
                }
            }
        }
        for (p, with) in profiles {
            if p.area {
                if s.indices()
                    .any(|i| s.unit(i).on_board() && self.enemies(s, u, i) && s.unit(i).at.adjacent(at.at))
                {
                    out.push((None, with.clone()));
                }
                continue;
            }
            for t in s.indices().filter(|&i| s.unit(i).on_board() && self.enemies(s, u, i)) {
                if self.can_see(s, at, s.unit(t).at, p.range, &[u]) {
                    out.push((Some(t), with.clone()));
                }
            }
        }
        out
    }
}

impl WildAssent {
    /// Where a Creature's moves lead.
    fn lands(&self, s: &State, u: UnitIx, moves: &[Move]) -> Pos {
        let mut at = s.unit(u).place();
        for &m in moves {
            at = match m {
                Move::Turn(t) => Place::new(at.at, at.facing.turned(t)),
                Move::Step(r) => {
                    let (dx, dy) = at.facing.toward(r);
                    Place::new(at.at.offset(dx, dy), at.facing)
                }
                Move::Hop(r) => {
                    let (dx, dy) = at.facing.toward(r);
                    Place::new(at.at.offset(2 * dx, 2 * dy), at.facing)
                }
            };
        }
        at.at
    }
}

/// The notation's step for a kit move.
fn kind_of(m: Move) -> StepKind {
    match m {
        Move::Step(r) => StepKind::Step(r),
        Move::Turn(t) => StepKind::Turn(t),
        Move::Hop(r) => StepKind::Hop(r),
    }
}
