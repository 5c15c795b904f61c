//! The seeded player's whole Arena match (`mode=arena scope=match`): the drafting roll and
//! the draft in the book's order (random cards of the kind due), the troupes (Creatures in a
//! random order; with four players a side's Creatures dealt between its two troupes), two
//! Skill cards per Assent, the Equipment that fits its slots, the obstacles and Gladiators
//! in turns in their zones, and at each round's start the Silvestrem card and the Momentum
//! dice (Blanks rerolled, every die given to a Gladiator that may take it, the rest
//! discarded). Activations follow `next_up`; the match plays on to its victory.

use super::cards::{Size, UnitKind};
use super::event::Lineup;
use super::event::{Event, Field};
use super::rules::RoundStart;
use super::simulate::{name, Play};
use super::state::arena::Pick;
use super::state::momentum::{Dice, Face};
use super::state::{Faces, Obstacle, Side};
use super::WildAssent;
use crate::kit::grid::{Facing, Pos};
use crate::kit::name::Name;

impl WildAssent {
    fn attack_faces(p: &mut Play<'_>, n: u8) -> Faces {
        let mut f = Faces::default();
        for _ in 0..n {
            match p.face() {
                0 => f.specials += 1,
                1 => f.successes += 1,
                _ => f.blanks += 1,
            }
        }
        f
    }

    /// The cards of one draft kind, by catalog id.
    fn draft_pool(&self, pick: Pick) -> Vec<String> {
        match pick {
            Pick::Equipment => self.catalog.equipment.iter().map(|(_, n, _)| n.to_string()).collect(),
            _ => self
                .catalog
                .units(true)
                .iter()
                .filter(|(_, _, c)| match pick {
                    Pick::Assent => c.kind == UnitKind::Assent,
                    Pick::Large => c.kind == UnitKind::Gladiator && c.size == Some(Size::Large),
                    _ => c.kind == UnitKind::Gladiator && c.size != Some(Size::Large),
                })
                .map(|(_, n, _)| n.to_string())
                .collect(),
        }
    }

    pub(super) fn setup_match(&self, p: &mut Play<'_>) {
        // The drafting roll, again on a tie.
        while p.state.draft.first.is_none() && !p.full() {
            let r = Self::attack_faces(p, 5);
            p.push(Event::DraftRoll { side: Side::Red, faces: r });
            let b = Self::attack_faces(p, 5);
            p.push(Event::DraftRoll { side: Side::Blue, faces: b });
        }
        let Some(first) = p.state.draft.first else { return };
        let mut mine: [Vec<(Pick, Name)>; 2] = [Vec::new(), Vec::new()];
        for (p1, pick) in self.draft_order() {
            let side = if p1 { first } else { first.other() };
            let taken = &p.state.draft.picks;
            let free: Vec<String> = self
                .draft_pool(pick)
                .into_iter()
                .filter(|c| !taken.iter().any(|t| t.as_str() == c))
                .collect();
            if free.is_empty() {
                return;
            }
            let card = name(&free[p.pick(free.len())]);
            p.push(Event::Draft { side, card });
            mine[usize::from(side == Side::Blue)].push((pick, card));
        }
        // Troupes, Skill cards, Equipment.
        let per_side = usize::from(self.params.players / 2);
        let mut troupes: Vec<(Side, Vec<Name>)> = Vec::new();
        for side in [Side::Red, Side::Blue] {
            let cards = &mine[usize::from(side == Side::Blue)];
            let assents: Vec<Name> =
                cards.iter().filter(|(k, _)| *k == Pick::Assent).map(|(_, c)| *c).collect();
            let mut creatures: Vec<Name> = cards
                .iter()
                .filter(|(k, _)| matches!(k, Pick::Large | Pick::Medium))
                .map(|(_, c)| *c)
                .collect();
            p.rng.shuffle(&mut creatures);
            for (t, a) in assents.iter().take(per_side).enumerate() {
                let mut lineup = vec![*a];
                lineup.extend(creatures.iter().skip(t).step_by(per_side).take(Lineup::MAX - 1));
                troupes.push((side, lineup));
            }
        }
        for (side, cards) in &troupes {
            if let Some(l) = Lineup::new(cards) {
                p.push(Event::Troupe { side: *side, cards: l });
            }
        }
        for (side, cards) in &troupes {
            let Some(&assent) = cards.first() else { continue };
            let Some(id) = self.catalog.units(true).id(assent.as_str()) else { continue };
            let mut options: Vec<Name> = self.catalog.units(true)[id]
                .skill_cards
                .iter()
                .map(|&k| name(self.catalog.skills.name(k)))
                .collect();
            p.rng.shuffle(&mut options);
            if let Some(l) = Lineup::new(&options[..options.len().min(2)]) {
                p.push(Event::Skills { unit: assent, skills: l });
            }
            let _ = side;
        }
        let placed_units: Vec<(Side, Name)> =
            troupes.iter().flat_map(|(side, cards)| cards.iter().map(move |c| (*side, *c))).collect();
        // Obstacles: Player 1 first, one of each kind a side, never adjacent to another.
        let h = self.params.board.height;
        let mut kinds: [Vec<Obstacle>; 2] = [
            vec![Obstacle::Partial, Obstacle::Full, Obstacle::Blades, Obstacle::Pit],
            vec![Obstacle::Partial, Obstacle::Full, Obstacle::Blades, Obstacle::Pit],
        ];
        for k in 0..8 {
            let side = if k % 2 == 0 { first } else { first.other() };
            let lines = if side == Side::Red { 2..5 } else { h - 5..h - 2 };
            let fields: Vec<Pos> = self
                .free_fields(&p.state, lines, &mut p.rng)
                .into_iter()
                .filter(|q| !p.state.obstacles.iter().any(|(o, _)| o.adjacent(*q)))
                .collect();
            let Some(&at) = fields.first() else { return };
            let Some(kind) = kinds[usize::from(side == Side::Blue)].pop() else { return };
            p.push(Event::Obstacle { at: Field(at), kind });
        }
        // Gladiators: Player 2 first, alternating, a side with none left skipped.
        let mut left: [Vec<Name>; 2] = [Vec::new(), Vec::new()];
        for (side, n) in &placed_units {
            left[usize::from(*side == Side::Blue)].push(*n);
        }
        let mut side = first.other();
        while !left[0].is_empty() || !left[1].is_empty() {
            if left[usize::from(side == Side::Blue)].is_empty() {
                side = side.other();
            }
            let Some(unit) = left[usize::from(side == Side::Blue)].pop() else { break };
            let lines = if side == Side::Red { 0..2 } else { h - 2..h };
            let Some(&at) = self.free_fields(&p.state, lines, &mut p.rng).first() else { return };
            let facing = if side == Side::Red { Facing::N } else { Facing::S };
            p.push(Event::Place { unit, at: Field(at), facing, threat: None, side: Some(side) });
            self.equip_fitting(p, unit, side);
            side = side.other();
        }
        p.push(Event::Begin);
    }

    /// An Assent just placed takes the side's drafted Equipment not yet carried that fits.
    fn equip_fitting(&self, p: &mut Play<'_>, unit: Name, side: Side) {
        let s = &p.state;
        let Some(u) = s.find(&unit) else { return };
        if s.unit(u).kind != UnitKind::Assent {
            return;
        }
        let carried: Vec<_> = s.units.iter().flat_map(|x| x.equipment.into_iter().flatten()).collect();
        let mut wanted = Vec::new();
        for card in s.draft.picks.clone() {
            let Some(id) = self.catalog.equipment.id(card.as_str()) else { continue };
            if carried.contains(&id) || self.drafted_by(s, &card) != Some(side) {
                continue;
            }
            wanted.push(card);
        }
        for card in wanted {
            let s = &p.state;
            if s.unit(u).equipment.iter().all(Option::is_some) {
                break;
            }
            let mut f = crate::Findings::default();
            self.check_equip(s, u, card, &mut f);
            if f.is_clean() {
                p.push(Event::Equip { unit, card });
            }
        }
    }

    /// A round's start not yet played: the Silvestrem card and the Momentum dice, in the
    /// order of `round-start-order`. Whether it played something.
    pub(super) fn match_round_start(&self, p: &mut Play<'_>) -> bool {
        let s = &p.state;
        if s.round == 0 || s.arena.started || s.act.is_some() {
            return false;
        }
        let draw_owed = self.params.silvestrem && !s.arena.drawn && self.silvestrem_left(s);
        let roll_owed: Vec<Side> = [Side::Red, Side::Blue]
            .into_iter()
            .filter(|&x| !s.arena.rolled[usize::from(x == Side::Blue)])
            .filter(|&x| s.units.iter().any(|u| u.side == x && u.on_board()))
            .collect();
        let silvestrem_now = match self.params.round_start {
            RoundStart::SilvestremFirst => draw_owed,
            RoundStart::MomentumFirst => draw_owed && roll_owed.is_empty(),
        };
        if silvestrem_now {
            let left: Vec<String> = self
                .catalog
                .silvestrem
                .iter()
                .filter(|(id, _, _)| !s.silvestrem.drawn.contains(id))
                .map(|(_, n, _)| n.to_string())
                .collect();
            let card = name(&left[p.pick(left.len())]);
            p.push(Event::Silvestrem { card });
            return true;
        }
        if let Some(&side) = roll_owed.first() {
            self.play_momentum(p, side);
            return true;
        }
        false
    }

    fn momentum_faces(p: &mut Play<'_>, n: u8) -> Dice {
        let mut d = Dice::default();
        for _ in 0..n {
            // Six faces, five results: Blank twice.
            let face = match p.rng.below(6) {
                0 => Face::Damage,
                1 => Face::Defense,
                2 => Face::Speed,
                3 => Face::Heal,
                _ => Face::Blank,
            };
            d.add(face);
        }
        d
    }

    /// A side's Momentum roll, the Blanks rerolled once, every die given or discarded.
    fn play_momentum(&self, p: &mut Play<'_>, side: Side) {
        // Five a side, or five a player under `momentum-4p=player` (`dice_owed`).
        let (n, _) = self.dice_owed(&p.state, side);
        let roll = Self::momentum_faces(p, n);
        p.push(Event::Momentum { side, dice: roll });
        let blanks = roll.of(Face::Blank);
        if blanks > 0 && p.chance(70) {
            let mut from = Dice::default();
            for _ in 0..blanks {
                from.add(Face::Blank);
            }
            let to = Self::momentum_faces(p, blanks);
            p.push(Event::MomentumReroll { side, from, to });
        }
        let slot = usize::from(side == Side::Blue);
        for face in Face::ALL.iter().copied() {
            while p.state.momentum[slot].dice.of(face) > 0 && !p.full() {
                let mut one = Dice::default();
                one.add(face);
                let s = &p.state;
                let takers: Vec<_> = s
                    .indices()
                    .filter(|&i| s.unit(i).on_board() && s.unit(i).side == side)
                    .filter(|&i| face != Face::Blank && self.assign_refusal(s, i, &one).is_none())
                    .collect();
                // Healing goes to the most hurt.
                let taker = if face == Face::Heal {
                    takers.iter().copied().max_by_key(|&i| s.unit(i).damage)
                } else if takers.is_empty() {
                    None
                } else {
                    Some(takers[p.pick(takers.len())])
                };
                match taker {
                    Some(i) => {
                        let unit = p.state.unit(i).name;
                        p.push(Event::MomentumAssign { unit, dice: one });
                        p.settle();
                    }
                    None => p.push(Event::MomentumDiscard { side, dice: one }),
                }
            }
        }
    }
}
