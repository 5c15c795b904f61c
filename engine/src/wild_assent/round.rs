//! The Arena round (`scope=match`): `round N` starts it (Exhaust cleared, the last round's
//! Momentum dice and bonuses gone, interpretation `momentum-duration`); the Silvestrem card
//! and each side's Momentum roll come next, once each, in the order of interpretation
//! `round-start-order`, before the first activation; then the Assents activate, alternating
//! sides (round 1: the drafting roll's winner first; later: the side whose Assent went
//! second last round), then the Creatures one at a time in troupe order, alternating sides
//! from the side whose Assent went second (a side with none left is skipped; with four
//! players every player activates one Creature before any activates a second). When no
//! Assent or Creature is left to activate the round is over: the next `round` is due.
//!
//! At the round's end (resolution) the round's Demand is judged for each side when its
//! Condition is one the engine can check (`demand SIDE success|failure`); its Success and
//! Failure text stay unverified.
//!
//! Who may activate next is derived from the state, never kept as a queue: the Exhaust
//! tokens, the troupes' order, and the counts of this round's activations.

use super::cards::{Condition, UnitKind};
use super::due::{Due, Fact};
use super::rules::{self, LoneAssentOrder, MomentumDuration, RoundStart, Scope};
use super::state::arena::Match;
use super::state::momentum::Pool;
use super::state::{Phase, Presence, Side, State, UnitIx};
use super::WildAssent;
use crate::{Findings, Violation};

fn slot(side: Side) -> usize {
    usize::from(side == Side::Blue)
}

/// The Silvestrem card's place in `Match::missed` (after the two sides' rolls).
const MISSED_CARD: usize = 2;

impl WildAssent {
    fn is_match(&self) -> bool {
        self.params.scope == Scope::Match
    }

    /// An Assent or Creature that may still activate this round.
    fn may_activate(&self, s: &State, i: UnitIx) -> bool {
        let u = s.unit(i);
        u.on_board() && !u.exhausted && matches!(u.kind, UnitKind::Assent | UnitKind::Gladiator)
    }

    /// The side's Creatures that may activate next: per troupe, the first ready one in its
    /// order, with its troupe and the troupe's Creature activations this round (0 without
    /// troupes).
    fn creature_candidates(&self, s: &State, side: Side) -> Vec<(UnitIx, Option<usize>, u8)> {
        let mut out: Vec<(UnitIx, Option<usize>, u8)> = Vec::new();
        for (t, troupe) in s.troupes.troupes.iter().enumerate().filter(|(_, t)| t.side == side) {
            let next =
                troupe.cards.iter().skip(1).filter_map(|c| s.find(c)).find(|&i| self.may_activate(s, i));
            if let Some(i) = next {
                out.push((i, Some(t), s.arena.per_troupe.get(t).copied().unwrap_or(0)));
            }
        }
        if !s.troupes.troupes.iter().any(|t| t.side == side) {
            // No troupe laid out: placement order.
            let next = s.indices().find(|&i| {
                s.unit(i).side == side && s.unit(i).kind == UnitKind::Gladiator && self.may_activate(s, i)
            });
            out.extend(next.map(|i| (i, None, 0)));
        }
        out
    }

    /// Who may activate next this round, and the rule an activation out of order breaks
    /// (`None`: the round is over).
    pub(crate) fn next_up(&self, s: &State) -> Option<(Vec<UnitIx>, &'static str)> {
        let m = &s.arena;
        let assents: Vec<UnitIx> =
            s.indices().filter(|&i| self.may_activate(s, i) && s.unit(i).kind == UnitKind::Assent).collect();
        if !assents.is_empty() {
            let side = m.first.map(|f| if m.assents % 2 == 0 { f } else { f.other() });
            let of_side: Vec<UnitIx> =
                assents.iter().copied().filter(|&i| side.is_none_or(|x| s.unit(i).side == x)).collect();
            return Some((if of_side.is_empty() { assents } else { of_side }, rules::ORDER_ASSENTS));
        }
        // The side that activated its Assent second starts the Creatures; with one Assent left
        // in the match, `lone-assent-order` says which side that is.
        let first = match self.params.lone_assent {
            LoneAssentOrder::Nominal => m.first,
            LoneAssentOrder::Activated => m.lead.or(m.first),
        };
        let c0 = first.map(Side::other).unwrap_or(Side::Red);
        let c1 = c0.other();
        let mut a = self.creature_candidates(s, c0);
        let mut b = self.creature_candidates(s, c1);
        // "Each player should activate one Creature before the first player activates a
        // second (players who have no available Creatures are skipped)": only the players
        // with the fewest Creature activations this round, whichever team they are on, may
        // go. With two players (one troupe a side) this is the sides' alternation itself;
        // with four, a team whose other player has nothing left waits for the other team's
        // players to catch up rather than going again at its turn.
        let least = a.iter().chain(&b).map(|c| c.2).min().unwrap_or(0);
        a.retain(|c| c.2 == least);
        b.retain(|c| c.2 == least);
        // Alternating from the side that went last (the side whose Assent went second
        // first): a side with none left is skipped.
        let (first, then) = if m.last_creature == Some(c0) { (b, a) } else { (a, b) };
        let pick = if !first.is_empty() {
            first
        } else if !then.is_empty() {
            then
        } else {
            return None;
        };
        Some((pick.into_iter().map(|c| c.0).collect(), rules::ORDER_CREATURES))
    }

    /// Whether Creature `u`'s activation, out of the alternation as played, is the book's
    /// schedule (audit r6 D8): with two players the side whose Assent went second activates
    /// a Creature first, then the sides alternate, a side with none left skipped; so the side
    /// with fewer Creature activations this round goes (that side on a tie), whatever the
    /// order of the activations before. After two activations swapped (one finding) the log
    /// is back on the book's schedule, which is accepted as the alternation from the mistake
    /// is; on a legal log the two are the same.
    #[cold]
    #[inline(never)]
    fn book_schedule(&self, s: &State, u: UnitIx, rule: &'static str) -> bool {
        if rule != rules::ORDER_CREATURES || s.unit(u).kind != UnitKind::Gladiator {
            return false;
        }
        let m = &s.arena;
        let first = match self.params.lone_assent {
            LoneAssentOrder::Nominal => m.first,
            LoneAssentOrder::Activated => m.lead.or(m.first),
        };
        let c0 = first.map(Side::other).unwrap_or(Side::Red);
        let done = |side: Side| {
            s.units.iter().filter(|x| x.side == side && x.kind == UnitKind::Gladiator && x.exhausted).count()
        };
        let mut a = self.creature_candidates(s, c0);
        let mut b = self.creature_candidates(s, c0.other());
        if self.params.players == 4 {
            // Four players: "each player should activate one Creature before the first player
            // activates a second" (l.389): only the players with the fewest Creature
            // activations this round are on the schedule, as in `next_up`; the teams
            // alternate as the sides do (D8 with four players).
            let least = a.iter().chain(&b).map(|c| c.2).min().unwrap_or(0);
            a.retain(|c| c.2 == least);
            b.retain(|c| c.2 == least);
        }
        let (first, then) = if done(c0) <= done(c0.other()) { (a, b) } else { (b, a) };
        let pick = if first.is_empty() { then } else { first };
        pick.iter().any(|c| c.0 == u)
    }

    /// The Creature activations this round of the troupe `u` belongs to.
    fn troupe_turns(&self, s: &State, u: UnitIx) -> Option<u8> {
        let t = s.troupes.of(&s.unit(u).name)?;
        Some(s.arena.per_troupe.get(t).copied().unwrap_or(0))
    }

    /// A (not free) activation of an Assent or Creature in a match: the round's start is
    /// complete, it is its turn, it has not activated this round.
    pub(crate) fn match_activation(&self, s: &mut State, u: UnitIx, f: &mut Findings) {
        if !self.is_match() || !matches!(s.unit(u).kind, UnitKind::Assent | UnitKind::Gladiator) {
            return;
        }
        let name = s.unit(u).name;
        let mut out_of_turn = false;
        if !s.arena.started {
            let mut missing = Vec::new();
            if self.params.silvestrem
                && !s.arena.drawn
                && self.silvestrem_left(s)
                && !s.arena.missed[MISSED_CARD]
            {
                missing.push("the Silvestrem card".to_string());
            }
            for side in [Side::Red, Side::Blue] {
                let playing = s.units.iter().any(|x| x.side == side && x.on_board());
                if playing && !s.arena.rolled[slot(side)] && !s.arena.missed[slot(side)] {
                    missing.push(format!("{side}'s Momentum roll"));
                }
            }
            if !missing.is_empty() {
                // Reported once: drawn or rolled late, it is the same mistake (audit r6 D7).
                if self.params.silvestrem && !s.arena.drawn && self.silvestrem_left(s) {
                    s.arena.missed[MISSED_CARD] = true;
                }
                for side in [Side::Red, Side::Blue] {
                    s.arena.missed[slot(side)] |= !s.arena.rolled[slot(side)];
                }
                f.violate(Violation::new(
                    rules::ROUND_SEQUENCE,
                    format!(
                        "round {} begins with {} before the first activation",
                        s.round,
                        missing.join(" and ")
                    ),
                ));
            }
        }
        s.arena.started = true;
        if s.unit(u).exhausted {
            f.violate(self.taint(
                s,
                Violation::new(rules::ORDER_ONCE, format!("`{name}` has activated this round")),
                &[Some(u)],
            ));
        } else if let Some((legal, rule)) = self.next_up(s) {
            if !legal.contains(&u) && !self.book_schedule(s, u, rule) {
                out_of_turn = true;
                let names: Vec<String> = legal.iter().map(|&i| s.unit(i).name.to_string()).collect();
                let mut rule = rule;
                let side = s.unit(u).side;
                if rule == rules::ORDER_CREATURES && self.params.players == 4 {
                    // Its troupe's next Creature, from a player who has activated more
                    // Creatures than one who is owed a turn: the four-player rule.
                    let own = self.creature_candidates(s, side).into_iter().find(|c| c.0 == u).map(|c| c.2);
                    let owed = legal.first().and_then(|&l| self.troupe_turns(s, l));
                    if own.zip(owed).is_some_and(|(own, owed)| own > owed) {
                        rule = rules::ORDER_TEAMS;
                    }
                }
                f.violate(self.taint(
                    s,
                    Violation::new(
                        rule,
                        format!("`{name}` activates out of order: next is {}", names.join(" or ")),
                    ),
                    &[Some(u)],
                ));
            }
        }
        let side = s.unit(u).side;
        let m = &mut s.arena;
        if s.units[usize::from(u)].kind == UnitKind::Assent {
            // The round's first Assent goes first as played: one that went out of turn is
            // reported once, and the order goes on from it ("followed by a player from the
            // other team", l.388; the Creatures start with the side whose Assent went second,
            // l.389; next round's first is the side that went second, l.392), so the legal
            // activations after the mistake are not reported again.
            if m.first.is_none() || (m.assents == 0 && out_of_turn) {
                m.first = Some(side);
            }
            if m.assents == 0 {
                m.lead = Some(side);
            }
            m.assents = m.assents.saturating_add(1);
        } else {
            m.last_creature = Some(side);
            if let Some(t) = s.troupes.of(&s.units[usize::from(u)].name) {
                if m.per_troupe.len() <= t {
                    m.per_troupe.resize(t + 1, 0);
                }
                m.per_troupe[t] = m.per_troupe[t].saturating_add(1);
            }
        }
        s.unit_mut(u).exhausted = true;
    }

    /// A Silvestrem draw (`card`) or a side's Momentum roll (`roll`) at a round's start.
    pub(crate) fn round_start(&self, s: &mut State, roll: Option<Side>, f: &mut Findings) {
        if !self.is_match() {
            return;
        }
        let what = match roll {
            Some(side) => format!("{side}'s Momentum roll"),
            None => "the Silvestrem card".to_string(),
        };
        // Drawn or rolled late after the record that should have followed it reported it
        // missing: the same mistake, no second finding (audit r6 D7).
        let reported = match roll {
            Some(side) => s.arena.missed[slot(side)],
            None => s.arena.missed[MISSED_CARD],
        };
        if s.arena.started && !reported {
            f.violate(Violation::new(
                rules::ROUND_SEQUENCE,
                format!("{what} comes at round {}'s start, before its first activation", s.round),
            ));
        }
        let again = match roll {
            Some(side) => s.arena.rolled[slot(side)],
            None => s.arena.drawn,
        };
        if again {
            f.violate(Violation::new(rules::ROUND_SEQUENCE, format!("{what} comes once a round")));
        }
        let rolled = s.arena.rolled.iter().any(|r| *r);
        // The card (or roll) due first and not recorded is reported once, at the first record
        // that should have followed it; the records after it are not reported again for it.
        match (self.params.round_start, roll) {
            (RoundStart::SilvestremFirst, Some(_))
                if self.params.silvestrem
                    && !s.arena.drawn
                    && self.silvestrem_left(s)
                    && !s.arena.missed[MISSED_CARD] =>
            {
                s.arena.missed[MISSED_CARD] = true;
                f.violate(Violation::new(
                    rules::ROUND_SEQUENCE,
                    format!("{what} comes after the Silvestrem card is drawn (round-start-order=silvestrem-first)"),
                ))
            }
            (RoundStart::MomentumFirst, None) if (0..2).any(|i| !s.arena.rolled[i] && !s.arena.missed[i]) => {
                for i in 0..2 {
                    s.arena.missed[i] |= !s.arena.rolled[i];
                }
                f.violate(Violation::new(
                    rules::ROUND_SEQUENCE,
                    format!(
                        "the Silvestrem card comes after {} Momentum roll (round-start-order=momentum-first)",
                        if rolled { "the other side's" } else { "both sides'" }
                    ),
                ))
            }
            _ => {}
        }
        match roll {
            Some(side) => s.arena.rolled[slot(side)] = true,
            None => s.arena.drawn = true,
        }
    }

    /// The next round, once no Assent or Creature is left to activate in this one.
    pub(crate) fn round_due(&self, s: &State) -> Option<Due> {
        if !self.is_match()
            || s.phase != Phase::Play
            || s.act.is_some()
            || s.attack.is_some()
            || s.skill.is_some()
        {
            return None;
        }
        if s.round == 0 {
            return Some(Due {
                fact: Fact::Round(1),
                rule: rules::ROUND_SEQUENCE,
                cause: super::due::Cause::Plain,
            });
        }
        if s.arena.started && self.next_up(s).is_none() {
            if let Some(d) = self.demand_due(s) {
                return Some(d);
            }
            return Some(Due {
                fact: Fact::Round(s.round.saturating_add(1)),
                rule: rules::ROUND_SEQUENCE,
                cause: super::due::Cause::Plain,
            });
        }
        None
    }

    /// `round N` in a match: the round's bookkeeping starts over; the Momentum dice of the
    /// last round are gone (their bonuses carried into this one under `next-round`).
    pub(crate) fn new_round(&self, s: &mut State, n: u16) {
        if !self.is_match() {
            return;
        }
        let first = if n <= 1 { self.player_one(s) } else { s.arena.first.map(Side::other) };
        let carried: Vec<u8> = s.units.iter().map(|u| u.momentum).collect();
        let slain_at_start = [self.slain(s, Side::Red), self.slain(s, Side::Blue)];
        s.arena = Match { first, carried, slain_at_start, ..Match::default() };
        for u in &mut s.units {
            u.momentum = 0;
            u.momentum_dice = 0;
        }
        s.momentum = [Pool::default(); 2];
        s.momentum_cured = 0;
        s.silvestrem.demand = None;
    }

    /// The side's Creatures slain so far.
    fn slain(&self, s: &State, side: Side) -> u8 {
        let n = s.units.iter().filter(|u| u.side == side && u.kind == UnitKind::Gladiator);
        n.filter(|u| u.presence == Presence::Slain).count() as u8
    }

    /// At the round's end, the round's Demand judged for each side in turn (red, blue), when
    /// its Condition is one the engine judges (`condition` in the catalog); a Demand of text
    /// alone was reported unverified as it was drawn and is judged by nobody here.
    fn demand_due(&self, s: &State) -> Option<Due> {
        let side = [Side::Red, Side::Blue].into_iter().find(|&x| !s.arena.judged[slot(x)])?;
        self.demand_for(s, side)
    }

    /// The round's Demand judged for `side` (`None`: no Demand the engine judges, or this
    /// side's judged already). Called where the round's end owes the Demands: the book judges
    /// each side's and names no order (`order.rs` takes them in the log's).
    pub(crate) fn demand_for(&self, s: &State, side: Side) -> Option<Due> {
        let id = s.silvestrem.demand?;
        let condition = self.catalog.silvestrem[id].condition?;
        if s.arena.judged[slot(side)] {
            return None;
        }
        let met = match condition {
            Condition::SlayCreature => {
                let enemy = side.other();
                self.slain(s, enemy) > s.arena.slain_at_start[slot(enemy)]
            }
        };
        Some(Due {
            fact: Fact::Demand(side, met),
            rule: rules::SILVESTREM_DEMAND,
            cause: super::due::Cause::Plain,
        })
    }

    /// A side's Demand has been judged.
    pub(crate) fn judged(&self, s: &mut State, side: Side) {
        s.arena.judged[slot(side)] = true;
    }

    /// Whether the Silvestrem deck still holds a card (it holds each once and the book
    /// describes no reshuffle: once empty, no card is owed).
    pub(crate) fn silvestrem_left(&self, s: &State) -> bool {
        s.silvestrem.drawn.len() < self.catalog.silvestrem.iter().count()
    }

    /// The Momentum dice whose bonuses count now for miniature `i` (`momentum::Face::bit`).
    pub(crate) fn bonus_dice(&self, s: &State, i: UnitIx) -> u8 {
        if self.is_match() && self.params.duration == MomentumDuration::NextRound {
            s.arena.carried.get(usize::from(i)).copied().unwrap_or(0)
        } else {
            s.unit(i).momentum
        }
    }
}
