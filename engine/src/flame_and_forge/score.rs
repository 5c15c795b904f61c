//! End-game scoring (l.352-385): the Dragon's points, each player's five parts, the team's
//! total and rank. Pure arithmetic over the final table, shared by the consequences that
//! check a recorded score and the facts that show the breakdown.

use super::catalog::{CardId, Subject};
use super::event::Rank;
use super::params::{NegativeRank, RankBoundary, Scenario, StrengthScope};
use super::rules as r;
use super::state::State;
use super::FlameAndForge;
use std::collections::BTreeMap;
use std::fmt;

/// A player's score by part.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PlayerScore {
    pub strength: i16,
    pub prestige: i16,
    pub hoard: i16,
    /// Retired cards' VP, and the retire bonus (counted in Glory).
    pub retired: i16,
    pub bonus: i16,
    pub fame: i16,
}

impl PlayerScore {
    pub fn glory(&self) -> i16 {
        self.retired + self.bonus
    }
    pub fn total(&self) -> i16 {
        self.strength + self.prestige + self.hoard + self.glory() + self.fame
    }
}

impl fmt::Display for PlayerScore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Strength {} + Prestige {} + Hoard {} + Glory {} ({} + bonus {}) + Fame {} = {}",
            self.strength,
            self.prestige,
            self.hoard,
            self.glory(),
            self.retired,
            self.bonus,
            self.fame,
            self.total()
        )
    }
}

/// What the facts show of a player's score while it is not recorded: Strength's halves and
/// the other parts (`rest.strength` is the face-down pile's).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ScoreParts {
    pub deck: i16,
    pub discard: i16,
    pub rest: PlayerScore,
}

/// The side of the game's kept hoard memo: stashes of at most 15 gems.
const HOARD_SIDE: usize = 16;

/// The retire bonus (l.277-282): 0-4 cards 0, 5 cards 3, 6 cards 4, 7 or more 5.
pub fn retire_bonus(cards: usize) -> i16 {
    match cards {
        0..=4 => 0,
        5 => 3,
        6 => 4,
        _ => 5,
    }
}

impl FlameAndForge {
    fn vp(&self, cards: impl IntoIterator<Item = CardId>) -> i16 {
        cards.into_iter().map(|c| self.catalog.cards.get(c).map_or(0, |c| i16::from(c.vp))).sum()
    }

    /// The horde's VP.
    pub(super) fn horde_vp(&self, s: &State) -> u16 {
        s.horde.iter().map(|&m| self.catalog.cards.get(m).map_or(0, |c| u16::from(c.vp))).sum()
    }

    /// Destruction + Followers, times Rivals (l.356-360).
    pub(super) fn dragon_score(&self, s: &State) -> u16 {
        (s.scorched() as u16 + self.horde_vp(s)) * s.seats.len() as u16
    }

    pub(super) fn dragon_breakdown(&self, s: &State) -> String {
        format!(
            "({} scorched + {} horde VP) x {} players = {}",
            s.scorched(),
            self.horde_vp(s),
            s.seats.len(),
            self.dragon_score(s)
        )
    }

    /// The most red gems a stash can be transmuted into by the Library's exchange rules.
    pub(super) fn hoard(&self, gems: [u8; 3]) -> i16 {
        /// What `best` knows: by the stash in an array for a small stash (each count is at
        /// most the first stash's total, since an exchange takes more gems than it gives),
        /// in a map for a large one.
        enum Memo {
            Dense { side: usize, best: Vec<u8> },
            Sparse(BTreeMap<[u8; 3], u8>),
        }
        impl Memo {
            fn at(side: usize, g: [u8; 3]) -> usize {
                (usize::from(g[0]) * side + usize::from(g[1])) * side + usize::from(g[2])
            }
            fn get(&self, g: [u8; 3]) -> Option<u8> {
                match self {
                    Memo::Dense { side, best } => Some(best[Memo::at(*side, g)]).filter(|&v| v != u8::MAX),
                    Memo::Sparse(m) => m.get(&g).copied(),
                }
            }
            fn set(&mut self, g: [u8; 3], v: u8) {
                match self {
                    Memo::Dense { side, best } => best[Memo::at(*side, g)] = v,
                    Memo::Sparse(m) => {
                        m.insert(g, v);
                    }
                }
            }
        }
        fn best(c: &super::Catalog, g: [u8; 3], memo: &mut Memo) -> u8 {
            if let Some(v) = memo.get(g) {
                return v;
            }
            let mut top = g[2];
            for e in &c.exchanges {
                let mut need = [0u8; 3];
                for x in &e.give {
                    need[x.index()] += 1;
                }
                if (0..3).all(|i| g[i] >= need[i]) {
                    let mut next = g;
                    for i in 0..3 {
                        next[i] -= need[i];
                    }
                    next[e.get.index()] = next[e.get.index()].saturating_add(1);
                    // Each exchange takes more gems than it gives, so this ends.
                    if next.iter().map(|&x| u16::from(x)).sum::<u16>()
                        < g.iter().map(|&x| u16::from(x)).sum::<u16>()
                    {
                        top = top.max(best(c, next, memo));
                    }
                }
            }
            memo.set(g, top.min(u8::MAX - 1));
            top
        }
        let side = gems.iter().map(|&x| usize::from(x)).sum::<usize>() + 1;
        if side <= HOARD_SIDE {
            // A small stash: in the game's memo of side `HOARD_SIDE` (every stash `best` visits
            // from it has fewer gems, so each count is below the side too).
            let mut kept = self.hoards.lock().unwrap_or_else(|e| e.into_inner());
            let mut known = std::mem::take(&mut *kept);
            if known.is_empty() {
                known = vec![u8::MAX; HOARD_SIDE * HOARD_SIDE * HOARD_SIDE];
            }
            let mut memo = Memo::Dense { side: HOARD_SIDE, best: known };
            let v = best(&self.catalog, gems, &mut memo);
            if let Memo::Dense { best, .. } = memo {
                *kept = best;
            }
            return i16::from(v);
        }
        let mut memo = if side <= 32 {
            Memo::Dense { side, best: vec![u8::MAX; side * side * side] }
        } else {
            Memo::Sparse(BTreeMap::new())
        };
        i16::from(best(&self.catalog, gems, &mut memo))
    }

    pub(super) fn player_score(&self, s: &State, seat: u8) -> PlayerScore {
        self.player_score_with(s, seat, self.config.strength_scope)
    }

    fn player_score_with(&self, s: &State, seat: u8, scope: StrengthScope) -> PlayerScore {
        let p = s.player(seat);
        let mut cards = p.deck.known();
        if scope == StrengthScope::AllCards {
            cards.extend(p.deck.discard.iter().copied());
        }
        let prestige = Subject::ALL
            .iter()
            .map(|&sub| self.catalog.level(sub, p.best[sub.index()]).map_or(0, |l| i16::from(l.vp)))
            .sum();
        let dragon = match self.config.scenario {
            Scenario::S01 => self.catalog.scenario01.dragon,
            Scenario::Free => self.catalog.dragon,
        };
        PlayerScore {
            strength: self.vp(cards),
            prestige,
            hoard: self.hoard(p.gems),
            retired: self.vp(p.retired.iter().copied()),
            bonus: retire_bonus(p.retired.len()),
            fame: if s.slayer_seat == Some(seat) { i16::from(dragon.vp) } else { 0 },
        }
    }

    /// The parts of a player's score that depend on no reading: Strength's two halves
    /// (the face-down pile's VP and the discard pile's) and the rest as `player_score`.
    pub(super) fn score_parts(&self, s: &State, seat: u8) -> ScoreParts {
        let p = s.player(seat);
        let deck = self.player_score_with(s, seat, StrengthScope::DeckOnly);
        ScoreParts { deck: deck.strength, discard: self.vp(p.deck.discard.iter().copied()), rest: deck }
    }

    /// The part of a player's score a wrong recorded total left out (or counted under the
    /// other reading of Strength's scope).
    pub(super) fn player_score_blame(&self, s: &State, seat: u8, recorded: i16) -> &'static str {
        let p = self.player_score(s, seat);
        let t = p.total();
        let other = match self.config.strength_scope {
            StrengthScope::AllCards => StrengthScope::DeckOnly,
            StrengthScope::DeckOnly => StrengthScope::AllCards,
        };
        let parts = [
            (t - p.strength, r::SCORE_STRENGTH),
            (self.player_score_with(s, seat, other).total(), r::SCORE_STRENGTH),
            (t - p.prestige, r::SCORE_PRESTIGE),
            (t - p.bonus, r::RETIRE_BONUS),
            (t - p.glory(), r::SCORE_GLORY),
            (t - p.hoard, r::SCORE_HOARD),
            (t - p.fame, r::SCORE_FAME),
        ];
        if let Some((_, rule)) = parts.iter().find(|(v, _)| *v == recorded) {
            return rule;
        }
        // A bonus from the retire table for too few cards (3, 4 or 5 points with fewer than 5):
        // the table is read by the count of retired cards, so only a player who retired some
        // could have misread it; with none retired the excess is no bonus of theirs, and the
        // general scoring rule is blamed.
        let retired = s.player(seat).retired.len();
        if (1..5).contains(&retired) && (3..=5).contains(&(recorded - t)) {
            return r::RETIRE_BONUS;
        }
        r::SCORE_STRENGTH
    }

    pub(super) fn team_score(&self, s: &State) -> i16 {
        let players: i16 = (0..s.seats.len() as u8).map(|k| self.player_score(s, k).total()).sum();
        players - self.dragon_score(s) as i16
    }

    /// The rank of a team score (l.380-385, `rank-boundary`; below 0, `negative-rank`).
    pub(super) fn rank(&self, score: i16) -> Rank {
        if score < 0 {
            return match self.config.negative_rank {
                NegativeRank::None => Rank::Unranked,
                NegativeRank::Rookie => Rank::Rookie,
            };
        }
        let band = match self.config.rank_boundary {
            RankBoundary::LowerInclusive => score / 10,
            RankBoundary::UpperInclusive => (score.max(1) - 1) / 10,
        };
        match band {
            0 => Rank::Rookie,
            1 => Rank::Guardian,
            2 => Rank::Warrior,
            3 => Rank::King,
            _ => Rank::Hero,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Game, Setup};

    fn game(setup: Setup) -> FlameAndForge {
        FlameAndForge::new(&setup, super::super::ILLUSTRATIVE).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn ranks_bonuses_and_the_hoard() {
        let g = game(Setup::default());
        assert_eq!(
            [0, 9, 10, 25, 40, 77].map(|n| g.rank(n)),
            [Rank::Rookie, Rank::Rookie, Rank::Guardian, Rank::Warrior, Rank::Hero, Rank::Hero]
        );
        assert_eq!(g.rank(-3), Rank::Unranked);
        assert_eq!(game(Setup::default().with("negative-rank", "rookie")).rank(-3), Rank::Rookie);
        let u = game(Setup::default().with("rank-boundary", "upper-inclusive"));
        assert_eq!(
            [0, 10, 11, 40, 41].map(|n| u.rank(n)),
            [Rank::Rookie, Rank::Rookie, Rank::Guardian, Rank::King, Rank::Hero]
        );
        assert_eq!((0..=8).map(retire_bonus).collect::<Vec<_>>(), [0, 0, 0, 0, 0, 3, 4, 5, 5]);
        // y+y->b, b+b->r, y+b->r: 3 yellow + 1 blue make 2 red (y+b, then y+y->b... ).
        assert_eq!(g.hoard([0, 0, 2]), 2);
        assert_eq!(g.hoard([1, 1, 0]), 1);
        assert_eq!(g.hoard([3, 1, 0]), 1);
        assert_eq!(g.hoard([4, 0, 0]), 1);
        assert_eq!(g.hoard([2, 3, 1]), 3);
    }
}
