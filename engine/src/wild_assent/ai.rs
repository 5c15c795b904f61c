//! The Creature AI of the Hunt, as checks: which miniatures an Instinct card may target
//! (the kind, those it can perform its action on this activation, the card's keywords in
//! order, else the closest), and whether a recorded movement is one the card requires
//! (Halt; Advance along a shortest path until adjacent or out of Speed, then facing the
//! target; Careful Advance until in range, or away while staying in range), by searching
//! the board with the kit's paths. The simulator walks the same searches to play a card.
//!
//! "In range" for Careful Advance's movement is the interpretation `careful-range`: within
//! the card's Range (the default, the plain words of the keyword and of Example 12), or able
//! to attack (the target in its frontal arc, in line of sight and within Range). Whether a
//! Creature can perform its action on a target (its targeting) is always the latter.

use super::cards::{Criterion, Instinct, Movement, Moving, Pool, Stat};
use super::geometry::Blockers;
use super::rules::{
    self, CarefulAway, CarefulRange, CarefulTurn, PitPath, TargetCriteria, TargetDefense, TargetHp,
};
use super::state::reach::{Kept, Reach};
use super::state::{Activation, Side, State, UnitIx};
use super::WildAssent;
use crate::kit::grid::{Facing, Pos};
use crate::kit::paths::{meet, Cells, Distances, Move, Mover, Place, Places};
use smallvec::SmallVec;

/// What a recorded Creature movement breaks: the rule and one sentence.
pub(crate) type Breach = (&'static str, String);

/// The miniatures of a set: kept with the state's indices (`state::members`), so that what
/// sits below the Creature AI (the consequence chain) lists them without importing it.
pub(crate) use super::state::members;

impl WildAssent {
    fn card_of_act(&self, act: &Activation) -> Option<&Instinct> {
        act.card.map(|c| &self.catalog.instincts[c])
    }

    /// The Range of the card's attack at the Creature's Threat (1 for a card without one).
    pub(crate) fn card_range(&self, s: &State, act: &Activation) -> u8 {
        let t = usize::from(s.unit(act.unit).threat.clamp(1, 3)) - 1;
        // Borrowed: the card's three attack profiles are not copied out to read one Range.
        self.card_of_act(act).and_then(|c| c.attack.as_ref()).map_or(1, |a| a[t].range)
    }

    /// Whether two miniatures are enemies.
    pub(crate) fn enemies(&self, s: &State, a: UnitIx, b: UnitIx) -> bool {
        foe(s.unit(a).side) == s.unit(b).side
    }

    /// The miniatures of the card's first word.
    pub(crate) fn pool(&self, s: &State, act: &Activation) -> Vec<UnitIx> {
        members(self.pool_mask(s, act)).collect()
    }

    /// As [`WildAssent::pool`], as a set.
    pub(crate) fn pool_mask(&self, s: &State, act: &Activation) -> u32 {
        let Some(card) = self.card_of_act(act) else { return 0 };
        let me = act.unit;
        // The card's word as the one side its pool is on (an ally is on its own side, never
        // its foe's), told once rather than for every miniature.
        let side = match card.pool {
            Pool::Itself => return u32::from(s.unit(me).on_board()) << me,
            Pool::Ally => s.unit(me).side,
            Pool::Enemy | Pool::Enemies => foe(s.unit(me).side),
        };
        // Kept with the state between writers of presence (`State::fielded_of`).
        let mut mask = s.fielded_of(side);
        if card.pool == Pool::Ally {
            mask &= !(1 << me);
        }
        mask
    }

    /// The searches for a Creature activation: how it moves and where it can get (the
    /// simulator's; the checks share theirs through a [`Kept`]).
    pub(crate) fn reach(&self, s: &State, act: &Activation) -> Reach {
        Reach::new(self.search_mover(s, act), act.start, self.speed_of(s, act))
    }

    /// How the Creature moves in its searches (`mover(.., true)`).
    fn search_mover(&self, s: &State, act: &Activation) -> Mover<'static> {
        self.mover(s, act.unit, self.movement_of(s, act), true)
    }

    /// Forget the kept reach unless it was made for this activation on the board as it is
    /// now (`mover`: the activation's search mover, built by the caller when unknown).
    /// Inlined, the judging out of line: nothing is kept at most targets, told without the
    /// call.
    #[inline]
    pub(crate) fn judge_kept(
        &self,
        s: &State,
        act: &Activation,
        kept: &mut Kept,
        mover: Option<&Mover<'static>>,
    ) {
        // Nothing kept (the usual case at a target, and at a Creature's stop): no mover to
        // build to say so.
        if kept.get().is_some() {
            self.judge_kept_reach(s, act, kept, mover);
        }
    }

    /// [`WildAssent::judge_kept`] with a reach kept.
    #[inline(never)]
    fn judge_kept_reach(&self, s: &State, act: &Activation, kept: &mut Kept, mover: Option<&Mover<'static>>) {
        let Some(r) = kept.get() else { return };
        let same = match mover {
            Some(m) => r.mover == *m,
            None => r.mover == self.search_mover(s, act),
        };
        if !(same && r.start == act.start && r.speed == self.speed_of(s, act)) {
            kept.forget();
        }
    }

    /// The reach for a Creature activation: the kept one when it is still right, else a new
    /// one made in its room. The mover is built once, to judge the kept reach and, when that
    /// is not right, for the new one.
    pub(crate) fn reach_now<'k>(&self, s: &State, act: &Activation, kept: &'k mut Kept) -> &'k mut Reach {
        self.reach_with(s, act, kept, self.search_mover(s, act))
    }

    /// As [`WildAssent::reach_now`], for a movement just checked with `walk`, the active
    /// miniature's mover for the activation's movement (`mover(.., false)`): the search's
    /// mover (`mover(.., true)`) is the same but for the Pits, which it leaves out instead
    /// of stopping on them. Only a mover that is not Flying keeps the Pits (as its stops);
    /// a Flying one's search mover is built anew.
    pub(crate) fn reach_after<'k>(
        &self,
        s: &State,
        act: &Activation,
        walk: &Mover<'static>,
        kept: &'k mut Kept,
    ) -> &'k mut Reach {
        let mover = if self.movement_of(s, act) == Movement::Flying {
            self.search_mover(s, act)
        } else if self.params.pit_path == PitPath::Around {
            super::geometry::avoiding(*walk, walk.stop)
        } else {
            super::geometry::open_pits(*walk)
        };
        self.reach_with(s, act, kept, mover)
    }

    /// As [`WildAssent::reach_now`], the search mover given.
    fn reach_with<'k>(
        &self,
        s: &State,
        act: &Activation,
        kept: &'k mut Kept,
        mover: Mover<'static>,
    ) -> &'k mut Reach {
        self.judge_kept(s, act, kept, Some(&mover));
        kept.get_or_make(|| (mover, act.start, self.speed_of(s, act)))
    }

    /// Whether the Creature standing at `place` could attack `target` (arc, line of sight,
    /// Range), its own field left empty.
    pub(crate) fn ready(&self, s: &State, act: &Activation, place: Place, target: UnitIx) -> bool {
        self.ready_in(s, act, &mut None, place, target, self.card_range(s, act))
    }

    /// As [`WildAssent::ready`], the card's Range known (a target's check asks several times)
    /// and the blockers kept in `b` ([`WildAssent::blockers_of`]). The Range and the arc are
    /// told first: the blockers are worked out only for a line to walk, and only the line is
    /// left to ask of them (`can_see_through` would test the Range and the arc again).
    /// Always inlined: a target's check asks for each target and place, and most are told
    /// by the Range or the arc, for less than the call cost.
    #[inline(always)]
    fn ready_in(
        &self,
        s: &State,
        act: &Activation,
        b: &mut Option<Blockers>,
        place: Place,
        target: UnitIx,
        range: u8,
    ) -> bool {
        let t = s.unit(target).at;
        place.at.distance(t) <= u32::from(range)
            && place.facing.in_arc(place.at, t)
            && self.clear_through(self.blockers_of(s, act, b), place.at, t)
    }

    /// The blockers of the Creature's lines of sight (every miniature but the Creature),
    /// worked out when first asked and kept in `b` for the rest of one check: the target's
    /// check asks for several targets and places on the same board.
    fn blockers_of<'b>(&self, s: &State, act: &Activation, b: &'b mut Option<Blockers>) -> &'b Blockers {
        b.get_or_insert_with(|| self.blockers(s, &[act.unit]))
    }

    /// Whether the Creature standing at `place` could attack the target on `t` (`range`: the
    /// card's, [`WildAssent::card_range`]; `b`: every miniature but the Creature blocks,
    /// [`WildAssent::blockers`], worked out once by the caller) as it faces, or (`turn`: a
    /// rotation is left) after turning to some facing whose arc holds the target. Either way
    /// the same line of sight is asked: it is walked once.
    fn attacks_from(&self, b: &Blockers, place: Place, t: Pos, range: u8, turn: bool) -> bool {
        if turn && !place.facing.in_arc(place.at, t) {
            place.at.distance(t) <= u32::from(range)
                && Facing::ALL.iter().any(|&f| f.in_arc(place.at, t))
                && self.clear_through(b, place.at, t)
        } else {
            self.can_see_through(b, place, t, range)
        }
    }

    /// How far from the Seekers a Careful Advance that starts in range of its target ends
    /// on field `at` (the larger, the farther: "as far away from its target (and any other
    /// Seeker) as possible", l.294), read by `careful-away`: the distance to the target, then
    /// to the nearest other Seeker of `others` (`target-first`); or the distance to the
    /// nearest Seeker of them all (`every-seeker`). The move's check and the simulator both
    /// rank places by it.
    fn careful_score(&self, s: &State, target: UnitIx, others: u32, at: Pos) -> (u32, u32) {
        let t = at.distance(s.unit(target).at);
        let o = members(others).map(|e| at.distance(s.unit(e).at)).min().unwrap_or(u32::MAX);
        match self.params.careful_away {
            CarefulAway::TargetFirst => (t, o),
            CarefulAway::EverySeeker => (t.min(o), 0),
        }
    }

    /// The cheapest cost, within Speed, of a place of `goal` it may end on (searched only as
    /// far as that). For a goal kept with the reach, the answer is kept with it: the target's
    /// check and the movement's, and the movement's path and its stop, ask for the same one.
    fn nearest_within(r: &mut Reach, goal: &Places) -> Option<u8> {
        let kept = r.goals.iter().position(|(_, g, _)| g.as_ref() == Some(goal));
        if let Some(d) = kept.and_then(|i| r.goals[i].2) {
            return d;
        }
        let d = r.nearest(&goal.map(|c| c.and(r.mover.end)));
        if let Some(i) = kept {
            r.goals[i].2 = Some(d);
        }
        d
    }

    /// Whether the Creature can perform its action on `target` this activation, moving as
    /// its card requires. The search (`reach`) is made only when a cheap test cannot tell;
    /// it and the blockers (`b`) are kept by the caller for the other targets it asks about.
    pub(crate) fn actionable(
        &self,
        s: &State,
        act: &Activation,
        reach: &mut Kept,
        b: &mut Option<Blockers>,
        target: UnitIx,
    ) -> bool {
        let Some(card) = self.card_of_act(act) else { return false };
        if card.attack.is_none() {
            // A card whose action is no attack: only its reach can be judged.
            return true;
        }
        let range = self.card_range(s, act);
        match card.moving {
            Moving::Halt => self.ready_in(s, act, b, act.start, target, range),
            Moving::Careful => {
                if self.ready_in(s, act, b, act.start, target, range) {
                    return true;
                }
                // Out of reach of every field in Range: no search can say otherwise.
                if self.least_speed(s, act, s.unit(target).at, range) > u32::from(self.speed_of(s, act)) {
                    return false;
                }
                let r = self.reach_of(s, act, reach);
                // Able to act on it: a place within Speed it may end on and could attack from,
                // whatever `careful-range` says of where its movement stops (the goal
                // `goal_within` gives with `attack`). Only whether there is one counts: the
                // fields in Range it reaches with a facing whose arc holds the target are walked
                // until one sees it, rather than the whole goal worked out and searched for.
                // Only the fields it reaches are walked: the others (most of the square when the
                // target is far) were each asked about for every facing. `fields` is kept with
                // the reach for the other targets and the movement's goal.
                let t = s.unit(target).at;
                let reached = r.fields();
                let all = r.all();
                self.fields_in_range(t, range).and(r.mover.end).and(reached).iter().any(|p| {
                    Facing::ALL.iter().any(|&f| all[f.index()].contains(p) && f.in_arc(p, t))
                        && self.clear_through(self.blockers_of(s, act, b), p, t)
                })
            }
            Moving::Advance => {
                let away = act.start.at.distance(s.unit(target).at);
                let speed = self.speed_of(s, act);
                if away <= 1 {
                    // Adjacent already: it attacks facing the target, or after one turn.
                    let t = s.unit(target).at;
                    return self.attacks_from(self.blockers_of(s, act, b), act.start, t, range, speed > 0);
                }
                if range <= 1 && self.least_speed(s, act, s.unit(target).at, 1) > u32::from(speed) {
                    // No move brings it next to the target. Told before the search: a target
                    // out of reach is otherwise searched for to the end of the Creature's Speed.
                    return false;
                }
                let r = self.reach_of(s, act, reach);
                let goal = self.reach_goal(s, act, r, target, true).unwrap_or_default();
                match Self::nearest_within(r, &goal) {
                    // It ends adjacent at that cost; it attacks if it arrives facing the target,
                    // or has a rotation left and a facing that sees it.
                    Some(d) => {
                        let (b, t) = (self.blockers_of(s, act, b), s.unit(target).at);
                        // Searched up to `d` at least.
                        let Some(layer) = r.searched().layer(d) else { return false };
                        let turn = d < r.speed;
                        Facing::ALL.iter().any(|&f| {
                            let i = f.index();
                            layer[i]
                                .and(goal[i])
                                .and(r.mover.end)
                                .iter()
                                .any(|at| self.attacks_from(b, Place::new(at, f), t, range, turn))
                        })
                    }
                    // Short of adjacent, only a ranged attack can be made.
                    None if range <= 1 => false,
                    None => {
                        let (b, t) = (self.blockers_of(s, act, b), s.unit(target).at);
                        Self::toward_ends(act, r, &goal).any(|p| self.attacks_from(b, p, t, range, false))
                    }
                }
            }
        }
    }

    /// A least Speed the Creature spends to stand within `within` fields (a square) of `t`:
    /// a step changes its field by one row or column (Swift's diagonal steps by one of each),
    /// a hop by two for 3 or more, a turn not at all.
    /// Inlined: a few subtractions, asked before every search of a target's check, and the
    /// call cost more than they do.
    #[inline]
    fn least_speed(&self, s: &State, act: &Activation, t: Pos, within: u8) -> u32 {
        let (dx, dy) = act.start.at.delta(t);
        let off = |d: i32| d.unsigned_abs().saturating_sub(u32::from(within));
        if self.movement_of(s, act) == Movement::Swift {
            off(dx).max(off(dy))
        } else {
            off(dx) + off(dy)
        }
    }

    /// The reach for the checks of a target: the kept one (judged by the caller), else a new
    /// one, made in its room.
    fn reach_of<'k>(&self, s: &State, act: &Activation, kept: &'k mut Kept) -> &'k mut Reach {
        kept.get_or_make(|| (self.search_mover(s, act), act.start, self.speed_of(s, act)))
    }

    /// Where a Creature that cannot reach its goal this activation may end: on a shortest
    /// path toward it, on a field it may end on, as far along as its Speed allows.
    /// Walked where they lie: a target's check asks whether any will do, and no list is made.
    fn toward_ends(act: &Activation, r: &mut Reach, goal: &Places) -> impl Iterator<Item = Place> {
        let ends = Self::toward_set(act, r, goal);
        let start = ends.is_none().then_some(act.start);
        ends.into_iter().flat_map(places_in).chain(start)
    }

    /// [`WildAssent::toward_ends`] as a set of places (`None`: where the activation began),
    /// searched once per goal and kept with the reach (the target's check and the movement's
    /// ask the same).
    fn toward_set(act: &Activation, r: &mut Reach, goal: &Places) -> Option<Places> {
        // Compared where it lies: the ~260-byte pair is not copied out to be compared.
        if let Some((g, ends)) = &r.toward {
            if g == goal {
                return *ends;
            }
        }
        // Out of reach: the whole search is there (`nearest_within` found nothing).
        r.complete();
        // Its layers made in the room of the last search's (moved out to be written beside
        // the reach the search reads).
        let mut back = std::mem::take(&mut r.back);
        let ends = Self::toward_search(act, r, &mut back, goal);
        r.back = back;
        r.toward = Some((*goal, ends));
        ends
    }

    /// The search behind [`WildAssent::toward_set`]. A place reached for k that is total - k
    /// from the goal (total: the cost of a shortest path) is on a shortest path; the farthest
    /// along (largest k) that it may end on is where it stops.
    ///
    /// The search backward from the goal stops as soon as that is known, short of the start
    /// (the goal is out of reach: total > Speed). Every path from the start to the goal
    /// passes a place the forward search reached for a cost in (Speed - L, Speed], L the
    /// costliest single move it can make (1 with no field to hop over: a turn and a step
    /// cost 1), as the move that first goes past Speed leaves from one; and on
    /// a shortest path that place's forward cost plus its cost to the goal is total; for any
    /// other place the sum is no less. So total is the least such sum over that band, final
    /// once the backward layer j is so far that no place found later could make a smaller
    /// one (j + 1 + the band's lowest cost >= the least sum); the layers total - k of the
    /// candidates k then follow as the search goes on. The answer is that of searching
    /// back until the start ([`Mover::to_set_until`]), which takes `total` layers.
    fn toward_search(act: &Activation, r: &Reach, back: &mut Distances, goal: &Places) -> Option<Places> {
        let bound = u8::MAX - 1;
        let costs = r.searched();
        let speed = usize::from(r.speed);
        let m = &r.mover;
        let hops = m.hop_cost.filter(|_| !m.hop_over.is_empty() && Self::hop_into_band(r, speed));
        let longest = m.turn_cost.max(1).max(hops.unwrap_or(1));
        let lo = (speed + 1).saturating_sub(usize::from(longest));
        let mut start = [Cells::new(); 4];
        start[act.start.facing.index()].insert(act.start.at);
        // The band's places as one set, to pass over a backward layer that meets none at once.
        let mut band = [Cells::new(); 4];
        for k in lo..=speed {
            if let Some(l) = costs.layer(k as u8) {
                for i in 0..4 {
                    band[i] = band[i].union(l[i]);
                }
            }
        }
        // The least sum found so far; then, once final, the next k to look at.
        let mut best: Option<usize> = None;
        let mut next: Option<(usize, Option<usize>)> = None;
        let mut found = None;
        r.mover.to_set_while_in(back, *goal, bound, |layers| {
            let j = layers.len() - 1;
            if next.is_none() {
                let back = &layers[j];
                if best.is_none_or(|b| j + lo < b) && meet(&band, back) {
                    // The cheapest band layer it meets makes this layer's least sum.
                    let k = (lo..=speed).find(|&k| costs.layer(k as u8).is_some_and(|fwd| meet(fwd, back)));
                    if let Some(k) = k.filter(|&k| best.is_none_or(|b| j + k < b)) {
                        best = Some(j + k);
                    }
                }
                match best {
                    Some(total) if j + 1 + lo >= total => {
                        if total > usize::from(bound) {
                            // Searched back until the start, it is past the bound.
                            return true;
                        }
                        next = Some((total, Some(speed.min(total))));
                    }
                    _ => return false,
                }
            }
            let Some((total, ref mut k)) = next else { return false };
            while let Some(kk) = *k {
                if total - kk > j {
                    return false; // its layer is still to come
                }
                if let Some(fwd) = costs.layer(kk as u8) {
                    found = ends_where(fwd, &layers[total - kk], r.mover.end, &start);
                    if found.is_some() {
                        return true;
                    }
                }
                *k = kk.checked_sub(1);
            }
            true
        });
        // Unoptimised builds (tests, fixtures) search back until the start too, and compare.
        debug_assert_eq!(found, Self::toward_search_plain(act, r, goal), "the band's answer differs");
        found
    }

    /// Whether a hop may be the move that first goes past Speed (`speed`) on a path from the
    /// start: one leaving a place the forward search reached for a cost short of Speed by
    /// less than a hop's cost. A hop leaves from a field next to one it may hop over (a
    /// Partial Cover, a few on a board): when no such place is next to one, the move that
    /// first goes past Speed leaves from a place of cost Speed (a turn or a step costs 1), and
    /// [`WildAssent::toward_search`]'s band is that one layer, not the three a hop spans (two
    /// layers fewer searched back from the goal). Told from the fields alone, whatever the
    /// facing and the field beyond: a `true` only keeps the wider band, which is always right.
    fn hop_into_band(r: &Reach, speed: usize) -> bool {
        let m = &r.mover;
        let Some(hop) = m.hop_cost else { return false };
        let costs = r.searched();
        let first = speed.saturating_sub(usize::from(hop) - 1);
        let mut band = Cells::new();
        for k in first..speed {
            if let Some(l) = costs.layer(k as u8) {
                band = band.union(l[0]).union(l[1]).union(l[2]).union(l[3]);
            }
        }
        // A place next to a field it may hop over (a step's reach: the eight around it).
        !band.is_empty() && m.hop_over.iter().any(|p| !band.and(Cells::square(p, 1)).is_empty())
    }

    /// [`WildAssent::toward_search`] as first written: back from the goal until the start.
    fn toward_search_plain(act: &Activation, r: &Reach, goal: &Places) -> Option<Places> {
        let h = r.mover.to_set_until(*goal, u8::MAX - 1, Some(act.start));
        let total = h.get(act.start)?;
        let mut start = [Cells::new(); 4];
        start[act.start.facing.index()].insert(act.start.at);
        for k in (0..=r.speed.min(total)).rev() {
            let (Some(fwd), Some(back)) = (r.searched().layer(k), h.layer(total - k)) else { continue };
            if let Some(ends) = ends_where(fwd, back, r.mover.end, &start) {
                return Some(ends);
            }
        }
        None
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
        let (mut reach, mut b) = (Kept::default(), None);
        let able: Vec<UnitIx> =
            pool.iter().copied().filter(|&t| self.actionable(s, act, &mut reach, &mut b, t)).collect();
        let best = if able.is_empty() {
            let at = s.unit(act.unit).at;
            let d = pool.iter().map(|&t| at.distance(s.unit(t).at)).min();
            pool.iter().copied().filter(|&t| Some(at.distance(s.unit(t).at)) == d).collect()
        } else {
            self.by_criteria(s, act, &card.criteria, able.clone())
        };
        (pool, able, best)
    }

    /// Whether `t` is a target the card allows: what [`WildAssent::legal_targets`] says,
    /// searching only as far as that takes (the others are searched only when they would
    /// rank before `t`, or when `t` is out of reach).
    pub(crate) fn target_allowed(
        &self,
        s: &State,
        act: &Activation,
        reach: &mut Kept,
        pool: u32,
        t: UnitIx,
    ) -> bool {
        if pool & (1 << t) == 0 {
            return false;
        }
        let Some(card) = self.card_of_act(act) else { return true };
        let others = pool & !(1 << t);
        if others == 0 {
            return true;
        }
        // The blockers, as the reach, are worked out once for every target asked about.
        let mut b = None;
        if self.actionable(s, act, reach, &mut b, t) {
            let mut keys = SmallVec::new();
            members(others).all(|u| {
                !self.ranks_before(s, act, &card.criteria, u, t, &mut keys)
                    || !self.actionable(s, act, reach, &mut b, u)
            })
        } else {
            let at = s.unit(act.unit).at;
            let away = |u: UnitIx| at.distance(s.unit(u).at);
            // Out of its reach: it goes for the closest, when it can reach none.
            members(others).all(|u| away(u) >= away(t))
                && members(others).all(|u| !self.actionable(s, act, reach, &mut b, u))
        }
    }

    /// One keyword's key for a target (the smallest ranks first), `None` for a keyword that
    /// ranks nothing under this reading. `lowest`: a bare stat keyword ranks the lowest first
    /// (it follows the last Lowest or Highest before it, [`after`]).
    fn criterion_key(&self, s: &State, at: Pos, c: Criterion, lowest: bool, t: UnitIx) -> Option<i32> {
        let stat = |st: Stat| -> i32 {
            match st {
                // `target-hp`: the Health left (the tracker), or the card's.
                Stat::Hp => match self.params.target_hp {
                    TargetHp::Remaining => self.remaining(s, t),
                    TargetHp::Printed => self.stats(s, t).health,
                },
                Stat::Pdef => self.defenses(s, t).0 + self.cover_bonus(s, t),
                Stat::Mdef => self.defenses(s, t).1 + self.cover_bonus(s, t),
            }
        };
        Some(match c {
            Criterion::Lowest(st) => stat(st),
            Criterion::Highest(st) => -stat(st),
            Criterion::Bare(_) if self.params.criteria == TargetCriteria::SkipStatTies => return None,
            Criterion::Bare(st) if lowest => stat(st),
            Criterion::Bare(st) => -stat(st),
            Criterion::Nearest => at.distance(s.unit(t).at) as i32,
            Criterion::Farthest => -(at.distance(s.unit(t).at) as i32),
            Criterion::HighestMissing => -s.unit(t).damage,
            Criterion::MostAdjacent => return None,
        })
    }

    /// Partial Cover's +1 Defense to a target's PDEF and MDEF as a card's Lowest / Highest
    /// ranks them: none by default (`target-defense=stat`: "a particular stat" is the card's,
    /// and where the target stands is none); with `with-cover`, the Keywords' "Any bonus to
    /// defense is added to both Magical and Physical Defense" counts it, as its damage does.
    fn cover_bonus(&self, s: &State, t: UnitIx) -> i32 {
        let counts = self.params.target_defense == TargetDefense::WithCover;
        if counts {
            self.cover_defense(s, s.unit(t).at)
        } else {
            0
        }
    }

    /// Whether the card's keywords rank `u` strictly before `t`. `t_keys`: `t`'s keys worked
    /// out so far, keyword by keyword, kept by the caller across the others `t` is ranked
    /// against (a stat keyword's key is a Health or Defense worked out from skills and
    /// Equipment): each is worked out once, and only as far as a ranking needs it.
    fn ranks_before(
        &self,
        s: &State,
        act: &Activation,
        criteria: &[Criterion],
        u: UnitIx,
        t: UnitIx,
        t_keys: &mut SmallVec<[Option<i32>; 4]>,
    ) -> bool {
        let at = s.unit(act.unit).at;
        let mut lowest = true;
        for (i, &c) in criteria.iter().enumerate() {
            if t_keys.len() == i {
                t_keys.push(self.criterion_key(s, at, c, lowest, t));
            }
            let keys = (self.criterion_key(s, at, c, lowest, u), t_keys[i]);
            lowest = after(c, lowest);
            if let (Some(a), Some(b)) = keys {
                if a != b {
                    return a < b;
                }
            }
        }
        false
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
        let mut lowest = true;
        for &c in criteria {
            let key = |t: UnitIx| self.criterion_key(s, at, c, lowest, t);
            if let Some(best) = left.iter().filter_map(|&t| key(t)).min() {
                left.retain(|&t| key(t) == Some(best));
            }
            lowest = after(c, lowest);
        }
        left
    }

    /// The places a card's movement heads for with this target (`None` for Halt): next to
    /// it for Advance; for Careful Advance, in range of it as `careful-range` reads it.
    pub(crate) fn goal_places(&self, s: &State, act: &Activation, target: UnitIx) -> Option<Places> {
        self.goal_within(s, act, target, None, self.careful_attacks())
    }

    /// Whether Careful Advance's "in range" is able to attack (`careful-range=attack`).
    fn careful_attacks(&self) -> bool {
        self.params.careful_range == CarefulRange::Attack
    }

    /// As [`WildAssent::goal_places`], only on the fields of `within` (those the Creature can
    /// reach, say: line of sight is checked for those alone). `attack`: Careful Advance's
    /// places are those it could attack from (in range, line of sight and frontal arc),
    /// else every place within Range, whatever the facing.
    pub(crate) fn goal_within(
        &self,
        s: &State,
        act: &Activation,
        target: UnitIx,
        within: Option<&Cells>,
        attack: bool,
    ) -> Option<Places> {
        let card = self.card_of_act(act)?;
        let t = s.unit(target).at;
        match card.moving {
            Moving::Halt => None,
            Moving::Advance => {
                // Every field next to the target, on the board.
                let mut c = Cells::square(t, 1).and(self.params.fields);
                c.remove(t);
                Some([c; 4])
            }
            Moving::Careful => {
                // In `within`, as one set: only those are walked for their line of sight.
                let mut near = self.fields_in_range(t, self.card_range(s, act));
                if let Some(w) = within {
                    near = near.and(*w);
                }
                if !attack {
                    // Within Range is all "in range" says: any facing, any line.
                    return Some([near; 4]);
                }
                let blockers = self.blockers(s, &[act.unit]);
                let mut g = [Cells::new(); 4];
                for p in near.iter().filter(|&p| self.clear_through(&blockers, p, t)) {
                    for &f in Facing::ALL {
                        if f.in_arc(p, t) {
                            g[f.index()].insert(p);
                        }
                    }
                }
                Some(g)
            }
        }
    }

    /// The fields within `range` of `t` (a square: Range counts diagonal steps) on the board,
    /// but `t`'s own.
    fn fields_in_range(&self, t: Pos, range: u8) -> Cells {
        let mut near = Cells::square(t, i16::from(range)).and(self.params.fields);
        near.remove(t);
        near
    }

    /// Check one recorded stretch of a Creature's movement: `places` are where each step led,
    /// with the Speed spent since the activation began.
    pub(crate) fn check_creature_path(
        &self,
        s: &State,
        act: &Activation,
        r: &mut Reach,
        goal: Option<&Places>,
        before: (Place, u8),
        places: &[(Place, u8)],
    ) -> Option<Breach> {
        let card = self.card_of_act(act)?;
        if places.is_empty() {
            return None;
        }
        if card.pool == Pool::Enemies {
            // Its destination is judged where it stops; the way there must be a shortest one.
            return Self::dearer_than_cheapest(s, act, r, places);
        }
        let target = act.target?;
        let Some(goal) = goal else {
            return Some((
                rules::CMOVE_HALT,
                format!("its card says Halt: `{}` does not move", s.unit(act.unit).name),
            ));
        };
        let name = s.unit(act.unit).name;
        let tname = s.unit(target).name;
        if card.moving == Moving::Careful && in_goal(goal, act.start) {
            // Moving away while staying in range: where it stops is judged there, the way
            // there here. A shortest path to where it stops ends as it arrives (a turn on the
            // spot reaches no field), so a turn once it stands in range on its last field is
            // moving on after its destination (rules version 13), unless it turns to face its
            // target to attack it (`careful-retreat-turn=face`): then only its cost is judged.
            let faces =
                |p: Place| self.params.careful_turn == CarefulTurn::Face && self.ready(s, act, p, target);
            if let Some(p) = turn_after_arriving(goal, before.0, places)
                .filter(|_| places.last().is_none_or(|&(last, _)| !faces(last)))
            {
                return Some((
                    rules::CMOVE_CAREFUL,
                    format!(
                        "`{name}` turns to face {} on {} after reaching where it stops (it stops as it arrives)",
                        p.facing,
                        p.at.algebraic()
                    ),
                ));
            }
            return Self::dearer_than_cheapest(s, act, r, places);
        }
        match Self::nearest_within(r, goal) {
            Some(d) => {
                // Reached: Advance only turns where it stands, Careful Advance stops.
                let mut reached = in_goal(goal, before.0).then_some(before.0.at);
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
                        // Turning where it stands after reaching: each facing for no more
                        // than it costs (not `tr tr` for `tb`, not away and back).
                        Some(_) => {
                            if let Some(d) = cheaper(r.costs(), p, c) {
                                return Some(Self::dearer_breach(s, act, p, c, d));
                            }
                        }
                        None if in_goal(goal, p) && r.mover.end.contains(p.at) => {
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
                // Out of reach this activation: it heads for the goal along a shortest path;
                // where it stops is judged at its action. Here: each field reached is reached
                // as cheaply as it can be (a cheapest path to a field on a shortest path is part
                // of one). The search carried to its end once, not asked to go on for each place.
                Self::dearer_than_cheapest(s, act, r, places)
            }
        }
    }

    /// Where the card's movement heads with its target, on the fields the Creature can reach
    /// (`None`: a Halt card, or no target).
    pub(crate) fn creature_goal(&self, s: &State, act: &Activation, r: &mut Reach) -> Option<Places> {
        self.reach_goal(s, act, r, act.target?, self.careful_attacks())
    }

    /// Where the card's movement heads with `target`, on the fields the Creature can reach
    /// (Careful Advance) or wherever (Advance); `None` for Halt. Worked out once per target
    /// and kept with the reach, which is made for this activation on this board. `attack`:
    /// Careful Advance's places are those it could attack from (see [`WildAssent::goal_within`]).
    fn reach_goal(
        &self,
        s: &State,
        act: &Activation,
        r: &mut Reach,
        target: UnitIx,
        attack: bool,
    ) -> Option<Places> {
        // The reach pins the board (every other miniature's field, the obstacles); the
        // target's own field and what the goal is for complete the key. Only Careful
        // Advance's goal depends on `attack`: Advance's (next to the target) and Halt's (none)
        // are one goal, which the target's check (`attack`) and the movement's then share.
        let careful = self.card_of_act(act)?.moving == Moving::Careful;
        let key = (target, s.unit(target).at, attack && careful);
        if let Some(&(_, goal, _)) = r.goals.iter().find(|(k, _, _)| *k == key) {
            return goal;
        }
        // Only Careful Advance's goal (line of sight checked field by field) is worth cutting
        // down to the fields it can reach.
        let goal = self.goal_within(s, act, target, careful.then(|| r.fields()).as_ref(), attack);
        r.goals.push((key, goal, None));
        goal
    }

    /// Under `creature-pit-exit=toward-target`: why a Creature climbing out of a Pit to `to`
    /// does not go toward its card's destination (l.290 "taking the shortest path to their
    /// destination"): of the adjacent fields it may end on, `to` must leave the least way to
    /// the destination of its target (of any target its card allows, when none is named),
    /// its facing kept. `None`: it does, or its card names no destination (Halt, a card for
    /// every enemy, none within any way).
    pub(crate) fn check_creature_exit(&self, s: &State, act: &Activation, to: Pos) -> Option<Breach> {
        let card = self.card_of_act(act)?;
        if card.pool == Pool::Enemies || card.moving == Moving::Halt {
            return None;
        }
        let targets: Vec<UnitIx> = match act.target {
            Some(t) => vec![t],
            None => self.legal_targets(s, act).2,
        };
        let me = s.unit(act.unit);
        let mover = self.search_mover(s, act);
        let fields: Vec<Pos> = me
            .at
            .neighbours()
            .into_iter()
            .filter(|&q| self.params.board.contains(q) && s.at(q).is_none() && mover.end.contains(q))
            .collect();
        let mut judged = false;
        for t in targets {
            let Some(goal) = self.goal_places(s, act, t) else { continue };
            let h = mover.to_set(goal, u8::MAX - 1);
            let left = |q: Pos| h.get(Place::new(q, me.facing));
            let Some(best) = fields.iter().filter_map(|&q| left(q)).min() else { continue };
            if left(to) == Some(best) {
                return None;
            }
            judged = true;
        }
        judged.then(|| {
            (
                rules::CMOVE_SHORTEST,
                format!(
                    "`{}` climbs out of its Pit to {}, not the adjacent field on a shortest path to where its card \
                     heads (`creature-pit-exit=toward-target`)",
                    me.name,
                    to.algebraic()
                ),
            )
        })
    }

    /// The first place of a Creature's path it reaches for more Speed than its cheapest way
    /// there costs (`None`: every one is reached as cheaply as it can be). A shortest path to
    /// wherever it stops is one whose every place is reached at its cheapest, so this judges
    /// the path whatever its destination (l.290 "taking the shortest path to their
    /// destination"), turns in place included. The search is carried to its end here: only
    /// paths the cheaper checks cannot judge come this way.
    fn dearer_than_cheapest(
        s: &State,
        act: &Activation,
        r: &mut Reach,
        places: &[(Place, u8)],
    ) -> Option<Breach> {
        let costs = r.costs();
        let (p, c, d) = places.iter().find_map(|&(p, c)| cheaper(costs, p, c).map(|d| (p, c, d)))?;
        Some(Self::dearer_breach(s, act, p, c, d))
    }

    #[cold]
    fn dearer_breach(s: &State, act: &Activation, p: Place, c: u8, d: u8) -> Breach {
        let name = s.unit(act.unit).name;
        (
            rules::CMOVE_SHORTEST,
            format!(
                "`{name}` reaches {} facing {} for {c} Speed; a shortest path costs {d}",
                p.at.algebraic(),
                p.facing
            ),
        )
    }

    /// Check where a Creature's movement stopped (before its action, or as it passes).
    /// `goal`: where its card's movement heads with its target (`creature_goal`).
    pub(crate) fn check_creature_stop(
        &self,
        s: &State,
        act: &Activation,
        r: &mut Reach,
        goal: Option<&Places>,
        here: Place,
        spent: u8,
    ) -> Option<Breach> {
        let card = self.card_of_act(act)?;
        let name = s.unit(act.unit).name;
        if card.pool == Pool::Enemies {
            // The pool as a set, walked for each place (no list of fields allocated).
            let enemies = self.pool_mask(s, act);
            let count = |p: Place| members(enemies).filter(|&e| s.unit(e).at.adjacent(p.at)).count();
            let best = r
                .fields()
                .and(r.mover.end)
                .iter()
                .map(|at| count(Place::new(at, act.start.facing)))
                .max()
                .unwrap_or(0)
                .max(count(act.start));
            if best == 0 {
                // Next to no enemy wherever it may end: it heads for the closest one instead.
                return (!self.toward_closest(s, act, r).iter().any(|ends| in_goal(ends, here))).then(|| {
                    (
                        rules::TARGET_UNREACHABLE,
                        format!("`{name}` can end next to no enemy: it moves toward the closest one"),
                    )
                });
            }
            return (count(here) < best).then(|| {
                (
                    rules::TARGET_CRITERIA,
                    format!("`{name}` ends next to {} enemies; {best} was possible", count(here)),
                )
            });
        }
        let target = act.target?;
        let tname = s.unit(target).name;
        let goal = goal?;
        let left = r.speed.saturating_sub(spent);
        if card.moving == Moving::Careful && in_goal(&goal, act.start) {
            // In range at the start: as far from the target (then from the other Seekers) as
            // possible, still in range.
            let others = self.pool_mask(s, act) & !(1 << target);
            let score = |at: Pos| self.careful_score(s, target, others, at);
            // A place's score is its field's (the facing does not count): each field reached
            // on the goal is scored once, not once per facing it was reached with.
            let all = r.all();
            let mut fields = Cells::new();
            for i in 0..4 {
                fields = fields.union(all[i].and(goal[i]));
            }
            let fields = fields.and(r.mover.end);
            let best = fields.iter().map(score).fold(score(act.start.at), std::cmp::max);
            let worse = score(here.at) < best;
            if !in_goal(goal, here) || worse {
                return Some((
                    rules::CMOVE_CAREFUL,
                    format!("`{name}` was in range of {tname}: it moves as far away as it can while staying in range"),
                ));
            }
            if let Some(b) = self.careful_away_dearer(s, act, r, &goal, here, spent, target) {
                return Some(b);
            }
            // There, with Speed left, it faces its target to attack (`careful-retreat-turn`).
            return (self.params.careful_turn == CarefulTurn::Face
                && left > 0
                && self.could_turn_to(s, act, here, target))
            .then(|| (rules::CMOVE_FACE, format!("`{name}` has {left} Speed left to turn toward {tname}")));
        }
        // Standing still where it began, on its goal, it has reached it (no search needed).
        let stays = here == act.start && r.mover.end.contains(here.at);
        let nearest = if stays && in_goal(goal, here) { Some(0) } else { Self::nearest_within(r, goal) };
        match nearest {
            Some(_) if in_goal(goal, here) => {
                // At the destination: Advance faces the target when Speed is left.
                let turn =
                    card.moving == Moving::Advance && left > 0 && self.could_turn_to(s, act, here, target);
                turn.then(|| {
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
                // Advance's goal (every field next to the target) is the same cut down to the
                // reach or not: the one given (`creature_goal`'s) is used, not worked out again.
                let full = if card.moving == Moving::Careful {
                    self.goal_places(s, act, target).unwrap_or_default()
                } else {
                    debug_assert_eq!(Some(*goal), self.goal_places(s, act, target), "Advance's goal differs");
                    *goal
                };
                let on_way = match Self::toward_set(act, r, &full) {
                    Some(ends) => in_goal(&ends, here),
                    None => here == act.start,
                };
                let rule =
                    if card.moving == Moving::Careful { rules::CMOVE_CAREFUL } else { rules::CMOVE_ADVANCE };
                (!on_way)
                    .then(|| (rule, format!("`{name}` stops with {left} Speed left on its way to {tname}")))
            }
        }
    }

    /// Careful Advance moving away while in range: it goes by a shortest path to the field
    /// where it stops and arrives there without a turn (l.290 "taking the shortest path to
    /// their destination"; audit r4 D7, rules version 20). The Speed walked is the least that
    /// reaches that field in range (any facing the goal holds it with), not only the least
    /// for the facing it ends with: `tb r` (2) where `l` (1) reaches the same field is not a
    /// shortest path. Under `careful-retreat-turn=face` one rotation after arriving, to face
    /// its target, comes on top.
    #[allow(clippy::too_many_arguments)]
    fn careful_away_dearer(
        &self,
        s: &State,
        act: &Activation,
        r: &mut Reach,
        goal: &Places,
        here: Place,
        spent: u8,
        target: UnitIx,
    ) -> Option<Breach> {
        let walked = spent.saturating_sub(act.spent);
        let turn = r.mover.turn_cost;
        let costs = r.costs();
        let at = |f: Facing| {
            goal[f.index()].contains(here.at).then(|| costs.get(Place::new(here.at, f))).flatten()
        };
        let least = Facing::ALL.iter().filter_map(|&f| at(f)).min()?;
        if walked <= least {
            return None;
        }
        let faced = self.params.careful_turn == CarefulTurn::Face
            && walked == least.saturating_add(turn)
            && Facing::ALL.iter().any(|&f| f != here.facing && at(f) == Some(least))
            && self.ready(s, act, here, target);
        (!faced).then(|| {
            (
                rules::CMOVE_SHORTEST,
                format!(
                    "`{}` reaches {} for {walked} Speed; a shortest path there costs {least}",
                    s.unit(act.unit).name,
                    here.at.algebraic()
                ),
            )
        })
    }

    /// Whether the Creature standing at `here` could attack `target` after a turn but not as
    /// it faces. Both ask the same line of sight: facing the target (the usual case), it has
    /// no turn to make whatever the line, and the blockers are not worked out.
    pub(crate) fn could_turn_to(&self, s: &State, act: &Activation, here: Place, target: UnitIx) -> bool {
        let t = s.unit(target).at;
        !here.facing.in_arc(here.at, t)
            && self.attacks_from(&self.blockers(s, &[act.unit]), here, t, self.card_range(s, act), true)
    }

    /// Under `pit-path=into`: where a walking Creature's movement stopped in a Pit (`here`,
    /// `spent` Speed in all). Its search takes the Pit as open ground, so the Pit must lie on a
    /// shortest path toward its destination (reached as cheaply as it can be, and that much
    /// nearer the goal): there the walk the card requires stops. For a card whose Creature was
    /// in range at the start (Careful Advance moving away) or that targets every enemy, the
    /// card names places to stop at, not a goal: the Pit must lie on a shortest path to one of
    /// them (a place within Speed the ordinary stop check accepts). Asked only for a move that
    /// entered a Pit.
    #[cold]
    pub(crate) fn check_creature_pit(
        &self,
        s: &State,
        act: &Activation,
        r: &mut Reach,
        goal: Option<&Places>,
        here: Place,
        spent: u8,
    ) -> Option<Breach> {
        let card = self.card_of_act(act)?;
        let away = card.moving == Moving::Careful && goal.is_some_and(|g| in_goal(g, act.start));
        if card.pool == Pool::Enemies || away {
            let walked = spent.saturating_sub(act.spent);
            let onward = r.mover.from(here, r.speed.saturating_sub(walked));
            let ends = r.mover.end;
            let reached: Vec<(Place, u8)> =
                r.costs().reached().filter(|(p, _)| ends.contains(p.at)).collect();
            let through = reached.into_iter().any(|(to, cost)| {
                onward.get(to).is_some_and(|rest| u16::from(walked) + u16::from(rest) == u16::from(cost))
                    && self.check_creature_stop(s, act, r, goal, to, act.spent.saturating_add(cost)).is_none()
            });
            return if through { None } else { self.check_creature_stop(s, act, r, goal, here, spent) };
        }
        let target = act.target?;
        goal?;
        // Careful Advance's goal was cut down to the fields it reaches: a Pit on its way toward
        // a goal out of reach is judged against the whole goal (Advance's is the same).
        let goal = self.goal_places(s, act, target)?;
        // Back from the goal as far as the start: each place's cost to the goal.
        let back = r.mover.to_set_until(goal, u8::MAX - 1, Some(act.start));
        let walked = u16::from(spent.saturating_sub(act.spent));
        let on_path = match (back.get(act.start), back.get(here)) {
            (Some(total), Some(rest)) => walked + u16::from(rest) == u16::from(total),
            _ => false,
        };
        (!on_path).then(|| {
            (
                rules::CMOVE_SHORTEST,
                format!(
                    "`{}` stops in the Pit on {}, on no shortest path toward {}",
                    s.unit(act.unit).name,
                    here.at.algebraic(),
                    s.unit(target).name
                ),
            )
        })
    }

    /// Where a Creature whose card targets every enemy ("the most enemies in melee range",
    /// Hunt Example 10) may stop when it can end next to none: "If no valid target is within
    /// range, the Creature will move forward toward the closest available target that meets
    /// its basic Ally/Enemy criteria" (Creature Movement; "it will instead move to the closest
    /// target", Activation Questions). One set of places per enemy at the least distance (a
    /// tie: toward any of them), each on a shortest path toward its card's goal with that
    /// enemy as far as Speed allows (its start, when it cannot move toward it). A Halt card
    /// does not move. Asked only when no enemy can be reached, so off the usual path.
    fn toward_closest(&self, s: &State, act: &Activation, r: &mut Reach) -> Vec<Places> {
        let at = act.start.at;
        let pool: Vec<UnitIx> = members(self.pool_mask(s, act)).collect();
        let least = pool.iter().map(|&e| at.distance(s.unit(e).at)).min();
        let mut out = Vec::new();
        for e in pool.into_iter().filter(|&e| Some(at.distance(s.unit(e).at)) == least) {
            let mut start = [Cells::new(); 4];
            start[act.start.facing.index()].insert(at);
            let ends = match self.goal_within(s, act, e, None, self.careful_attacks()) {
                Some(goal) => Self::toward_set(act, r, &goal).unwrap_or(start),
                None => start,
            };
            out.push(ends);
        }
        out
    }

    /// A movement the card allows (for the simulator): the moves, in order.
    pub(crate) fn creature_moves(
        &self,
        s: &State,
        act: &Activation,
        pick: &mut dyn FnMut(usize) -> usize,
    ) -> Vec<Move> {
        let Some(card) = self.card_of_act(act) else { return Vec::new() };
        let mut r = self.reach(s, act);
        // Every place within Speed is asked for below.
        r.complete();
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
            let places: Vec<Place> =
                r.searched().reached().filter(|(p, _)| end_ok(*p)).map(|(p, _)| p).collect();
            let best = places.iter().map(|&p| count(p)).max().unwrap_or(0).max(count(act.start));
            if best == 0 {
                // Next to no enemy anywhere it may end: toward the closest one.
                let ends: Vec<Place> =
                    self.toward_closest(s, act, &mut r).into_iter().flat_map(places_in).collect();
                choose(ends, pick)
            } else if count(act.start) == best {
                None
            } else {
                choose(places.into_iter().filter(|&p| count(p) == best).collect(), pick)
            }
        } else {
            let Some(target) = act.target else { return Vec::new() };
            let Some(goal) = self.goal_places(s, act, target) else { return Vec::new() };
            if card.moving == Moving::Careful && in_goal(&goal, act.start) {
                let others = self.pool_mask(s, act) & !(1 << target);
                let score = |p: Place| self.careful_score(s, target, others, p.at);
                let reached: Vec<(Place, u8)> =
                    r.searched().reached().filter(|(p, _)| end_ok(*p) && in_goal(&goal, *p)).collect();
                // It arrives without a turn by a shortest path to its field (l.290): only the
                // facings that field is reached with for its least Speed (audit r4 D7).
                let least = |at: Pos| reached.iter().filter(|(q, _)| q.at == at).map(|&(_, c)| c).min();
                let places: Vec<Place> =
                    reached.iter().filter(|&&(p, c)| least(p.at) == Some(c)).map(|&(p, _)| p).collect();
                let best = places.iter().map(|&p| score(p)).max();
                if best.is_none() || best == Some(score(act.start)) {
                    // It stays: no farther field is in range.
                    return self.face_after_retreat(s, act, &mut r, target, Vec::new());
                } else {
                    let end = choose(places.into_iter().filter(|&p| Some(score(p)) == best).collect(), pick);
                    // It arrives without a turn on its last field once in range there
                    // (`turn_after_arriving`); a cheapest path without the turns is still one.
                    // Then, under `careful-retreat-turn=face`, Speed left turns it to face
                    // its target when that lets it attack.
                    let path = match end {
                        Some(e) if e != act.start => {
                            let mut path = self.path_to(&r, act.start, e);
                            while let Some((Move::Turn(_), rest)) = path.split_last() {
                                match walk(&r.mover, act.start, rest) {
                                    Some(b) if in_goal(&goal, b) => {
                                        path.pop();
                                    }
                                    _ => break,
                                }
                            }
                            path
                        }
                        _ => Vec::new(),
                    };
                    return self.face_after_retreat(s, act, &mut r, target, path);
                }
            } else {
                match r.searched().first_in(&goal.map(|c| c.and(r.mover.end))) {
                    Some(d) => {
                        let mut ends: Vec<Place> = r
                            .searched()
                            .reached()
                            .filter(|&(p, c)| c == d && in_goal(&goal, p) && end_ok(p))
                            .map(|(p, _)| p)
                            .collect();
                        // Arrive already facing the target where a shortest path can: turning
                        // there after arriving would cost a rotation a shortest path to that
                        // place does not pay (l.290), and without Speed left there is no turn.
                        if card.moving == Moving::Advance {
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
                    None => choose(Self::toward_ends(act, &mut r, &goal).collect(), pick),
                }
            }
        };
        match dest {
            Some(e) if e != act.start => self.path_to(&r, act.start, e),
            _ => Vec::new(),
        }
    }

    /// A Careful Advance's retreat `path` (it arrives without a turn), then, under
    /// `careful-retreat-turn=face` with Speed left, facing its target when a turn lets it
    /// attack: that place is one of its own, reached by a cheapest way to it (which may
    /// arrive facing it, with no turn at the end).
    fn face_after_retreat(
        &self,
        s: &State,
        act: &Activation,
        r: &mut Reach,
        target: UnitIx,
        path: Vec<Move>,
    ) -> Vec<Move> {
        if self.params.careful_turn != CarefulTurn::Face {
            return path;
        }
        let speed = r.speed;
        let Some(p) = walk(&r.mover, act.start, &path) else { return path };
        if r.costs().get(p).is_none_or(|c| c >= speed) || !self.could_turn_to(s, act, p, target) {
            return path;
        }
        let mut facing: Option<(u8, Place)> = None;
        for q in Facing::ALL.iter().map(|&f| Place::new(p.at, f)) {
            let cost = r.costs().get(q).filter(|&c| c <= speed);
            if let Some(c) = cost.filter(|_| self.ready(s, act, q, target)) {
                if facing.is_none_or(|(best, _)| c < best) {
                    facing = Some((c, q));
                }
            }
        }
        match facing {
            Some((_, q)) if q != act.start => self.path_to(r, act.start, q),
            Some(_) => Vec::new(),
            None => path,
        }
    }

    /// A cheapest path from `from` to `to`.
    fn path_to(&self, r: &Reach, from: Place, to: Place) -> Vec<Move> {
        let mut goal = [Cells::new(); 4];
        goal[to.facing.index()].insert(to.at);
        let h = r.mover.to_set(goal, u8::MAX - 1);
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

/// The side a side fights: the Seekers and the Creatures, the Arena's Red and Blue.
fn foe(side: Side) -> Side {
    match side {
        Side::Seekers => Side::Creatures,
        Side::Creatures => Side::Seekers,
        Side::Red => Side::Blue,
        Side::Blue => Side::Red,
    }
}

/// Whether a bare stat keyword ranks the lowest first after keyword `c`.
fn after(c: Criterion, lowest: bool) -> bool {
    match c {
        Criterion::Lowest(_) => true,
        Criterion::Highest(_) => false,
        _ => lowest,
    }
}

/// The cost of place `p` when the search reached it for less than `c` (`costs.get(p)` below
/// `c`). A place lies in one layer, the first that has it: one on a path walked at its
/// cheapest, as most are, is told from its own layer `c` with one test, rather than each
/// layer before it asked for it.
#[inline]
fn cheaper(costs: &Distances, p: Place, c: u8) -> Option<u8> {
    if costs.layer(c).is_some_and(|l| l[p.facing.index()].contains(p.at)) {
        return None;
    }
    costs.get(p).filter(|&d| d < c)
}

/// Whether a place is in a set of places.
fn in_goal(goal: &Places, p: Place) -> bool {
    goal[p.facing.index()].contains(p.at)
}

/// The first place of a path (`places`, after `before`) that turns on its last field after
/// standing there in `goal`: its last stretch of places on that field, each after the first
/// in the goal (`None`: none).
fn turn_after_arriving(goal: &Places, before: Place, places: &[(Place, u8)]) -> Option<Place> {
    let last = places.last()?.0.at;
    let mut prev = before;
    // Only the stretch on the last field counts: a place there before the path last left it
    // is a detour, judged as a dearer path.
    let from = places.iter().rposition(|(p, _)| p.at != last).map_or(0, |i| i + 1);
    if from > 0 {
        prev = places[from - 1].0;
    }
    for &(p, _) in &places[from..] {
        if prev.at == last && in_goal(goal, prev) {
            return Some(p);
        }
        prev = p;
    }
    None
}

/// Where `moves` lead from `from` (`None`: one cannot be made).
fn walk(mover: &Mover<'static>, from: Place, moves: &[Move]) -> Option<Place> {
    moves.iter().try_fold(from, |at, &m| mover.apply(at, m).ok().map(|(p, _)| p))
}

/// Every place of a set, facing by facing.
fn places_in(set: Places) -> impl Iterator<Item = Place> {
    Facing::ALL.iter().flat_map(move |&f| set[f.index()].iter().map(move |at| Place::new(at, f)))
}

/// Where a shortest path may stop: the places at forward cost k (`fwd`) and backward cost
/// total - k (`back`) where the mover may end, or its start; `None` when there are none.
fn ends_where(fwd: &Places, back: &Places, end: Cells, start: &Places) -> Option<Places> {
    let mut ends = [Cells::new(); 4];
    let mut any = false;
    for i in 0..4 {
        ends[i] = fwd[i].and(back[i]).and(end.union(start[i]));
        any |= !ends[i].is_empty();
    }
    any.then_some(ends)
}
