//! The Creature AI of the Hunt, as checks: which miniatures an Instinct card may target
//! (the kind, those it can perform its action on this activation, the card's keywords in
//! order, else the closest), and whether a recorded movement is one the card requires
//! (Halt; Advance along a shortest path until adjacent or out of Speed, then facing the
//! target; Careful Advance until in range, or away while staying in range), by searching
//! the board with the kit's paths. The simulator walks the same searches to play a card.
//!
//! "In range" for a Creature is able to attack: the target in its frontal arc, in line of
//! sight and within the card's Range (docs/notation/wild-assent.md, fixed readings).

use super::cards::{Criterion, Instinct, Moving, Pool, Stat};
use super::rules::{self, TargetCriteria};
use super::state::{Activation, Side, State, UnitIx};
use super::WildAssent;
use crate::kit::paths::{Distances, Move, Mover, Place};

/// What a recorded Creature movement breaks: the rule and one sentence.
pub(crate) type Breach = (&'static str, String);

/// The searches one Creature activation's checks share.
pub(crate) struct Reach {
    pub mover: Mover<'static>,
    pub speed: u8,
    /// Cheapest cost from where the activation began, up to its Speed.
    pub from: Distances,
}

impl WildAssent {
    fn card_of_act(&self, act: &Activation) -> Option<&Instinct> {
        act.card.map(|c| &self.catalog.instincts[c])
    }

    /// The Range of the card's attack at the Creature's Threat (1 for a card without one).
    pub(crate) fn card_range(&self, s: &State, act: &Activation) -> u8 {
        let t = usize::from(s.unit(act.unit).threat.clamp(1, 3)) - 1;
        self.card_of_act(act).and_then(|c| c.attack).map_or(1, |a| a[t].range)
    }

    /// Whether two miniatures are enemies.
    pub(crate) fn enemies(&self, s: &State, a: UnitIx, b: UnitIx) -> bool {
        let (x, y) = (s.unit(a).side, s.unit(b).side);
        match (x, y) {
            (Side::Seekers, Side::Creatures) | (Side::Creatures, Side::Seekers) => true,
            (Side::Red, Side::Blue) | (Side::Blue, Side::Red) => true,
            _ => false,
        }
    }

    /// The miniatures of the card's first word.
    pub(crate) fn pool(&self, s: &State, act: &Activation) -> Vec<UnitIx> {
        let Some(card) = self.card_of_act(act) else { return Vec::new() };
        let me = act.unit;
        s.indices()
            .filter(|&i| s.unit(i).on_board())
            .filter(|&i| match card.pool {
                Pool::Itself => i == me,
                Pool::Ally => i != me && !self.enemies(s, me, i) && s.unit(i).side == s.unit(me).side,
                Pool::Enemy | Pool::Enemies => self.enemies(s, me, i),
            })
            .collect()
    }

    /// The searches for a Creature activation: how it moves and where it can get.
    pub(crate) fn reach(&self, s: &State, act: &Activation) -> Reach {
        let movement = self.movement_of(s, act);
        let mover = self.mover(s, act.unit, movement, true);
        let speed = self.speed_of(s, act);
        let from = mover.from(act.start, speed);
        Reach { mover, speed, from }
    }

    /// Whether the Creature standing at `place` could attack `target` (arc, line of sight,
    /// Range), its own field left empty.
    pub(crate) fn ready(&self, s: &State, act: &Activation, place: Place, target: UnitIx) -> bool {
        let range = self.card_range(s, act);
        self.can_see(s, place, s.unit(target).at, range, &[act.unit])
    }

    /// Whether some facing at `place`'s field would let it attack `target`.
    fn can_face(&self, s: &State, act: &Activation, place: Place, target: UnitIx) -> bool {
        crate::kit::grid::Facing::ALL.iter().any(|&f| self.ready(s, act, Place::new(place.at, f), target))
    }

    fn adjacent_goal(&self, s: &State, target: UnitIx) -> impl Fn(Place) -> bool + '_ {
        let at = s.unit(target).at;
        move |p: Place| p.at.adjacent(at)
    }

    /// The cheapest cost, within Speed, of a place `goal` accepts.
    fn nearest_within(r: &Reach, goal: impl Fn(Place) -> bool) -> Option<u8> {
        r.from.reached().filter(|(p, _)| r.mover.end.contains(p.at) && goal(*p)).map(|(_, c)| c).min()
    }

    /// Whether the Creature can perform its action on `target` this activation, moving as
    /// its card requires.
    pub(crate) fn actionable(&self, s: &State, act: &Activation, r: &Reach, target: UnitIx) -> bool {
        let Some(card) = self.card_of_act(act) else { return false };
        if card.attack.is_none() {
            // A card whose action is text: only its reach can be judged.
            return true;
        }
        match card.moving {
            Moving::Halt => self.ready(s, act, act.start, target),
            Moving::Careful => {
                r.from
                    .reached()
                    .any(|(p, c)| c <= r.speed && r.mover.end.contains(p.at) && self.ready(s, act, p, target))
                    || self.ready(s, act, act.start, target)
            }
            Moving::Advance => {
                let goal = self.adjacent_goal(s, target);
                match Self::nearest_within(r, &goal) {
                    Some(d) => {
                        // It ends adjacent at that cost; it attacks if it arrives facing the
                        // target, or has a rotation left and a facing that sees it.
                        r.from.reached().any(|(p, c)| {
                            c == d
                                && goal(p)
                                && r.mover.end.contains(p.at)
                                && (self.ready(s, act, p, target)
                                    || (d < r.speed && self.can_face(s, act, p, target)))
                        })
                    }
                    None => {
                        self.toward_ends(s, act, r, &goal).into_iter().any(|p| self.ready(s, act, p, target))
                    }
                }
            }
        }
    }

    /// Where a Creature that cannot reach its goal this activation may end: on a shortest
    /// path toward it, on a field it may end on, as far along as its Speed allows.
    fn toward_ends(
        &self,
        _s: &State,
        act: &Activation,
        r: &Reach,
        goal: &dyn Fn(Place) -> bool,
    ) -> Vec<Place> {
        let h = r.mover.to(goal, u8::MAX - 1);
        let Some(total) = h.get(act.start) else { return vec![act.start] };
        let on_path: Vec<(Place, u8)> = r
            .from
            .reached()
            .filter(|&(p, c)| c <= r.speed && (r.mover.end.contains(p.at) || p == act.start))
            .filter_map(|(p, c)| h.get(p).filter(|hp| c + hp == total).map(|hp| (p, hp)))
            .collect();
        let best = on_path.iter().map(|&(_, hp)| hp).min();
        on_path.into_iter().filter(|&(_, hp)| Some(hp) == best).map(|(p, _)| p).collect()
    }

    /// The targets an Instinct card allows: the pool, those actionable, and the best of those
    /// by the card's keywords (or, when none is actionable, the closest of the pool).
    pub(crate) fn legal_targets(
        &self,
        s: &State,
        act: &Activation,
    ) -> (Vec<UnitIx>, Vec<UnitIx>, Vec<UnitIx>) {
        let pool = self.pool(s, act);
        let Some(card) = self.card_of_act(act) else { return (pool, Vec::new(), Vec::new()) };
        let r = self.reach(s, act);
        let able: Vec<UnitIx> = pool.iter().copied().filter(|&t| self.actionable(s, act, &r, t)).collect();
        let best = if able.is_empty() {
            let at = s.unit(act.unit).at;
            let d = pool.iter().map(|&t| at.distance(s.unit(t).at)).min();
            pool.iter().copied().filter(|&t| Some(at.distance(s.unit(t).at)) == d).collect()
        } else {
            self.by_criteria(s, act, &card.criteria, able.clone())
        };
        (pool, able, best)
    }

    /// Apply the card's keywords in order, each breaking the previous one's tie.
    fn by_criteria(
        &self,
        s: &State,
        act: &Activation,
        criteria: &[Criterion],
        mut left: Vec<UnitIx>,
    ) -> Vec<UnitIx> {
        let at = s.unit(act.unit).at;
        let stat = |t: UnitIx, st: Stat| -> i32 {
            match st {
                Stat::Hp => self.remaining(s, t),
                Stat::Pdef => self.defenses(s, t).0,
                Stat::Mdef => self.defenses(s, t).1,
            }
        };
        let mut lowest = true;
        for c in criteria {
            let key: Box<dyn Fn(UnitIx) -> i32> = match *c {
                Criterion::Lowest(st) => {
                    lowest = true;
                    Box::new(move |t| stat(t, st))
                }
                Criterion::Highest(st) => {
                    lowest = false;
                    Box::new(move |t| -stat(t, st))
                }
                Criterion::Bare(st) => {
                    if self.params.criteria == TargetCriteria::SkipStatTies {
                        continue;
                    }
                    let low = lowest;
                    Box::new(move |t| if low { stat(t, st) } else { -stat(t, st) })
                }
                Criterion::Nearest => Box::new(move |t| at.distance(s.unit(t).at) as i32),
                Criterion::Farthest => Box::new(move |t| -(at.distance(s.unit(t).at) as i32)),
                Criterion::HighestMissing => Box::new(move |t| -s.unit(t).damage),
                Criterion::MostAdjacent => continue,
            };
            if let Some(best) = left.iter().map(|&t| key(t)).min() {
                left.retain(|&t| key(t) == best);
            }
        }
        left
    }

    /// The goal a card's movement heads for with this target, or `None` for Halt.
    fn goal<'a>(
        &'a self,
        s: &'a State,
        act: &'a Activation,
        target: UnitIx,
    ) -> Option<Box<dyn Fn(Place) -> bool + 'a>> {
        let card = self.card_of_act(act)?;
        match card.moving {
            Moving::Halt => None,
            Moving::Advance => Some(Box::new(self.adjacent_goal(s, target))),
            Moving::Careful => Some(Box::new(move |p| self.ready(s, act, p, target))),
        }
    }

    /// Check one recorded stretch of a Creature's movement: `places` are where each step led,
    /// with the Speed spent since the activation began.
    pub(crate) fn check_creature_path(
        &self,
        s: &State,
        act: &Activation,
        before: (Place, u8),
        places: &[(Place, u8)],
    ) -> Option<Breach> {
        let card = self.card_of_act(act)?;
        if places.is_empty() {
            return None;
        }
        if card.pool == Pool::Enemies {
            return None; // judged where it stops
        }
        let target = act.target?;
        let Some(goal) = self.goal(s, act, target) else {
            return Some((
                rules::CMOVE_HALT,
                format!("its card says Halt: `{}` does not move", s.unit(act.unit).name),
            ));
        };
        let r = self.reach(s, act);
        let name = s.unit(act.unit).name;
        let tname = s.unit(target).name;
        if card.moving == Moving::Careful && (goal(act.start) || self.ready(s, act, act.start, target)) {
            return None; // moving away while staying in range: judged where it stops
        }
        match Self::nearest_within(&r, &goal) {
            Some(d) => {
                // Reached: Advance only turns where it stands, Careful Advance stops.
                let mut reached = goal(before.0).then_some(before.0.at);
                for &(p, c) in places {
                    match reached {
                        Some(at) if card.moving == Moving::Careful || p.at != at => {
                            let rule = if card.moving == Moving::Careful {
                                rules::CMOVE_CAREFUL
                            } else {
                                rules::CMOVE_ADVANCE
                            };
                            return Some((
                                rule,
                                format!("`{name}` moves on after reaching {tname} (it stops there)"),
                            ));
                        }
                        Some(_) => {}
                        None if goal(p) && r.mover.end.contains(p.at) => {
                            reached = Some(p.at);
                            if c != d {
                                return Some((
                                    rules::CMOVE_SHORTEST,
                                    format!(
                                        "`{name}` reaches {tname} for {c} Speed; a shortest path costs {d}"
                                    ),
                                ));
                            }
                        }
                        None => {}
                    }
                }
                None
            }
            None => {
                let h = r.mover.to(&goal, u8::MAX - 1);
                let total = h.get(act.start)?;
                for &(p, c) in places {
                    if h.get(p).is_none_or(|hp| hp + c != total) {
                        return Some((
                            rules::CMOVE_SHORTEST,
                            format!("`{name}` leaves every shortest path toward {tname} ({total} Speed from where it began)"),
                        ));
                    }
                }
                None
            }
        }
    }

    /// Check where a Creature's movement stopped (before its action, or as it passes).
    pub(crate) fn check_creature_stop(&self, s: &State, act: &Activation) -> Option<Breach> {
        let card = self.card_of_act(act)?;
        let here = s.unit(act.unit).place();
        let name = s.unit(act.unit).name;
        let r = self.reach(s, act);
        if card.pool == Pool::Enemies {
            let count = |p: Place| self.pool(s, act).iter().filter(|&&e| s.unit(e).at.adjacent(p.at)).count();
            let best = r
                .from
                .reached()
                .filter(|(p, _)| r.mover.end.contains(p.at))
                .map(|(p, _)| count(p))
                .max()
                .unwrap_or(0);
            let best = best.max(count(act.start));
            return (count(here) < best).then(|| {
                (
                    rules::TARGET_CRITERIA,
                    format!("`{name}` ends next to {} enemies; {best} was possible", count(here)),
                )
            });
        }
        let target = act.target?;
        let tname = s.unit(target).name;
        let goal = self.goal(s, act, target)?;
        let left = r.speed.saturating_sub(act.spent);
        if card.moving == Moving::Careful && goal(act.start) {
            // In range at the start: as far from the target (then from the other Seekers) as
            // possible, still in range.
            let enemies = self.pool(s, act);
            let score = |p: Place| {
                let t = p.at.distance(s.unit(target).at);
                let others = enemies
                    .iter()
                    .filter(|&&e| e != target)
                    .map(|&e| p.at.distance(s.unit(e).at))
                    .min()
                    .unwrap_or(u32::MAX);
                (t, others)
            };
            let best = r
                .from
                .reached()
                .filter(|(p, _)| (r.mover.end.contains(p.at) || *p == act.start) && goal(*p))
                .map(|(p, _)| score(p))
                .chain(std::iter::once(score(act.start)))
                .max();
            return (!goal(here) || Some(score(here)) < best).then(|| {
                (
                    rules::CMOVE_CAREFUL,
                    format!("`{name}` was in range of {tname}: it moves as far away as it can while staying in range"),
                )
            });
        }
        match Self::nearest_within(&r, &goal) {
            Some(_) if goal(here) => {
                // At the destination: Advance faces the target when Speed is left.
                {
                    let turn =
                        left > 0 && !self.ready(s, act, here, target) && self.can_face(s, act, here, target);
                    card.moving == Moving::Advance && turn
                }
                .then(|| {
                    (rules::CMOVE_FACE, format!("`{name}` has {left} Speed left to turn toward {tname}"))
                })
            }
            Some(d) => {
                let rule =
                    if card.moving == Moving::Careful { rules::CMOVE_CAREFUL } else { rules::CMOVE_ADVANCE };
                Some((
                    rule,
                    format!(
                        "`{name}` stops short of {tname}, which it reaches for {d} of its {} Speed",
                        r.speed
                    ),
                ))
            }
            None => {
                let ends = self.toward_ends(s, act, &r, &goal);
                let rule =
                    if card.moving == Moving::Careful { rules::CMOVE_CAREFUL } else { rules::CMOVE_ADVANCE };
                (!ends.contains(&here))
                    .then(|| (rule, format!("`{name}` stops with {left} Speed left on its way to {tname}")))
            }
        }
    }

    /// A movement the card allows (for the simulator): the moves, in order.
    pub(crate) fn creature_moves(
        &self,
        s: &State,
        act: &Activation,
        pick: &mut dyn FnMut(usize) -> usize,
    ) -> Vec<Move> {
        let Some(card) = self.card_of_act(act) else { return Vec::new() };
        let r = self.reach(s, act);
        let end_ok = |p: Place| r.mover.end.contains(p.at) || p == act.start;
        let choose = |cands: Vec<Place>, pick: &mut dyn FnMut(usize) -> usize| -> Option<Place> {
            if cands.is_empty() {
                None
            } else {
                Some(cands[pick(cands.len())])
            }
        };
        let dest = if card.pool == Pool::Enemies {
            let count = |p: Place| self.pool(s, act).iter().filter(|&&e| s.unit(e).at.adjacent(p.at)).count();
            let places: Vec<Place> = r.from.reached().filter(|(p, _)| end_ok(*p)).map(|(p, _)| p).collect();
            let best = places.iter().map(|&p| count(p)).max().unwrap_or(0).max(count(act.start));
            if count(act.start) == best {
                None
            } else {
                choose(places.into_iter().filter(|&p| count(p) == best).collect(), pick)
            }
        } else {
            let Some(target) = act.target else { return Vec::new() };
            let Some(goal) = self.goal(s, act, target) else { return Vec::new() };
            if card.moving == Moving::Careful && goal(act.start) {
                let enemies = self.pool(s, act);
                let score = |p: Place| {
                    let t = p.at.distance(s.unit(target).at);
                    let o = enemies
                        .iter()
                        .filter(|&&e| e != target)
                        .map(|&e| p.at.distance(s.unit(e).at))
                        .min()
                        .unwrap_or(u32::MAX);
                    (t, o)
                };
                let places: Vec<Place> =
                    r.from.reached().filter(|(p, _)| end_ok(*p) && goal(*p)).map(|(p, _)| p).collect();
                let best = places.iter().map(|&p| score(p)).max();
                if best.is_none() || best == Some(score(act.start)) {
                    None
                } else {
                    choose(places.into_iter().filter(|&p| Some(score(p)) == best).collect(), pick)
                }
            } else {
                match Self::nearest_within(&r, &goal) {
                    Some(d) => {
                        let mut ends: Vec<Place> = r
                            .from
                            .reached()
                            .filter(|&(p, c)| c == d && goal(p) && end_ok(p))
                            .map(|(p, _)| p)
                            .collect();
                        // Arrive already facing the target when a rotation cannot be afforded.
                        if card.moving == Moving::Advance && d == r.speed {
                            let facing: Vec<Place> =
                                ends.iter().copied().filter(|&p| self.ready(s, act, p, target)).collect();
                            if !facing.is_empty() {
                                ends = facing;
                            }
                        }
                        let end = choose(ends, pick);
                        match end {
                            Some(e)
                                if card.moving == Moving::Advance
                                    && !self.ready(s, act, e, target)
                                    && d < r.speed =>
                            {
                                let mut path = self.path_to(&r, act.start, e);
                                if let Some(f) = crate::kit::grid::Facing::ALL.iter().copied().find(|&f| {
                                    self.ready(s, act, crate::kit::paths::Place::new(e.at, f), target)
                                }) {
                                    if let Some(t) = e.facing.turn_to(f) {
                                        path.push(Move::Turn(t));
                                    }
                                }
                                return path;
                            }
                            other => other,
                        }
                    }
                    None => choose(self.toward_ends(s, act, &r, &goal), pick),
                }
            }
        };
        match dest {
            Some(e) if e != act.start => self.path_to(&r, act.start, e),
            _ => Vec::new(),
        }
    }

    /// A cheapest path from `from` to `to`.
    fn path_to(&self, r: &Reach, from: Place, to: Place) -> Vec<Move> {
        let h = r.mover.to(|p| p == to, u8::MAX - 1);
        let mut at = from;
        let mut path = Vec::new();
        while let Some(hp) = h.get(at).filter(|&h| h > 0) {
            let Some((m, q, k)) = r.mover.moves(at).find(|&(_, q, k)| hp >= k && h.get(q) == Some(hp - k))
            else {
                break;
            };
            path.push(m);
            at = q;
            let _ = k;
        }
        path
    }
}
