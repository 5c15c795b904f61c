//! The flat facts (what fixtures assert and diff compares), in a fixed order. The keys are
//! listed in docs/notation/flame-and-forge.md.

use super::catalog::{Dwarf, Subject};
use super::city::Tile;
use super::state::{At, Phase, State, EMPTY};
use super::FlameAndForge;
use crate::kit::facts::{list_or_dash, Facts};

impl FlameAndForge {
    pub(super) fn phase_name(&self, s: &State) -> &'static str {
        match s.phase {
            Phase::Market => "setup-forge",
            Phase::Retaliations(_) => "setup-retaliations",
            Phase::Seats => "setup-seats",
            Phase::Deal(_) => "setup-dragonslayers",
            Phase::TurnStart => "first-turn",
            Phase::Resolve | Phase::Drawn => "1-resolve-event",
            Phase::Draw => "2-draw-event",
            Phase::Place => "3-place-dwarf",
            Phase::End => "4-check-end",
            Phase::Over { .. } => "over",
        }
    }

    pub(super) fn outcome(&self, s: &State) -> &'static str {
        match s.phase {
            Phase::Over { won: true, .. } => "won",
            Phase::Over { won: false, .. } => "lost",
            _ => "playing",
        }
    }

    fn gems_text(gems: [u8; 3]) -> String {
        format!("y{} b{} r{}", gems[0], gems[1], gems[2])
    }

    pub(super) fn fact_list(&self, s: &State) -> Vec<(String, String)> {
        let c = &*self.catalog;
        let mut f = Facts::new();
        f.put("outcome", self.outcome(s));
        f.put("phase", self.phase_name(s));
        f.put("turn", s.turns);
        f.put("active", s.seats.get(s.active as usize).map_or("-".to_string(), |p| p.colour.to_string()));
        f.put("placements", s.placements);
        f.put("scorched", s.scorched());
        f.put_list("scorched.tiles", Tile::all().filter(|&t| s.tile(t).scorched));
        f.put_list(
            "fires",
            Tile::all().filter(|&t| s.tile(t).fire > 0).map(|t| format!("{t}:{}", s.tile(t).fire)),
        );
        f.put_list(
            "gems",
            Tile::all()
                .filter(|&t| s.tile(t).gem_count() > 0)
                .map(|t| format!("{t}:{}", Self::gems_text(s.tile(t).gems).replace(' ', ","))),
        );
        f.put_list("monsters", s.monsters.iter().flatten().map(|&(m, t)| format!("{}@{t}", c.cards.name(m))));
        f.put_list("horde", s.horde.iter().map(|&m| c.cards.name(m)));
        f.put("horde.vp", self.horde_vp(s));
        f.put_list("events", s.events.iter().map(|&e| c.events.name(e)));
        f.put("events.deck", s.event_deck.len());
        f.put_list("market", s.market.cards().map(|i| c.cards.name(i)));
        f.put("items.deck", s.items.len());
        f.put("monsters.deck", s.monster_deck.len());
        f.put("retaliation.deck", s.dragon_deck.len());
        f.put("supply", Self::gems_text(s.supply));
        f.put("supply.fire", s.fire_supply);
        for t in Tile::all() {
            let ts = s.tile(t);
            let dwarfs: Vec<String> = ts
                .spots
                .iter()
                .take(c.spots(t, ts.scorched))
                .map(|&d| if d == EMPTY { ".".into() } else { s.player(d).colour.to_string() })
                .collect();
            f.put_of(&t.to_string(), "fire", ts.fire);
            f.put_of(&t.to_string(), "spots", dwarfs.join(" "));
        }
        for p in &s.seats {
            let k = p.colour.name();
            f.put_of(k, "health", p.health.value);
            f.put_of(k, "gems", Self::gems_text(p.gems));
            f.put_of(
                k,
                "campfire",
                list_or_dash(
                    Dwarf::ALL
                        .iter()
                        .filter(|d| p.campfire[d.index()] > 0)
                        .map(|d| format!("{}x{}", d, p.campfire[d.index()])),
                    " ",
                ),
            );
            f.put_of(k, "stash", list_or_dash(Dwarf::ALL.iter().filter(|d| p.stash[d.index()]), " "));
            f.put_of(k, "board", list_or_dash(p.board.iter().flatten(), " "));
            f.put_of(
                k,
                "city",
                list_or_dash(p.city.iter().flatten().map(|d| format!("{}:{}", d.tile, d.dwarf)), " "),
            );
            f.put_of(k, "deck", p.deck.len());
            f.put_of(k, "discard", list_or_dash(p.deck.discard.iter().map(|&x| c.cards.name(x)), " "));
            f.put_of(k, "retired", list_or_dash(p.retired.iter().map(|&x| c.cards.name(x)), " "));
            f.put_of(
                k,
                "books",
                Subject::ALL
                    .iter()
                    .map(|s| format!("{}:{}", s, p.books[s.index()]))
                    .collect::<Vec<_>>()
                    .join(" "),
            );
            f.put_of(k, "heal", self.retreat_heal_of(p));
            f.put_of(k, "token", p.active_token.map_or("-", |t| c.tokens.name(t)));
            // Scenario 01's Well Rested token is listed while it waits in the stash (l.338).
            let rested = (p.rested_stash > 0).then_some(super::decide::WELL_RESTED);
            f.put_of(
                k,
                "tokens",
                list_or_dash(p.tokens.iter().map(|&t| c.tokens.name(t)).chain(rested), " "),
            );
            f.put_of(k, "slayer", p.slayer.map_or("-", |x| c.slayers.name(x)));
            f.put_of(k, "footprint", p.footprint);
        }
        match s.challenges.last() {
            Some(ch) => {
                let foe = match ch.foe {
                    super::state::Adversary::Dragon => "dragon".to_string(),
                    super::state::Adversary::Monster { card, .. } => c.cards.name(card).to_string(),
                };
                f.put("challenge", format!("{} vs {foe}", s.player(ch.seat).colour));
                f.put("challenge.strength", ch.strength);
                f.put("challenge.successes", ch.successes);
                f.put("challenge.frenzy", ch.frenzy);
                f.put_list("challenge.played", ch.played.iter().map(|&x| c.cards.name(x)));
            }
            None => {
                f.put("challenge", "-");
            }
        }
        let bank = s.placement().map_or(0, |p| p.bank);
        f.put("bank", bank);
        f.put(
            "placement",
            s.placement().map_or("-".to_string(), |p| match p.at {
                At::Tile { tile, spot } => {
                    format!("{} {} {tile} spot {}", s.player(p.seat).colour, p.dwarf, spot + 1)
                }
                At::Castle => format!("{} {} castle", s.player(p.seat).colour, p.dwarf),
                At::Board { spot } => {
                    format!("{} {} board spot {}", s.player(p.seat).colour, p.dwarf, spot + 1)
                }
            }),
        );
        f.put("dragon.slayer", s.slayer_seat.map_or("-".to_string(), |k| s.player(k).colour.to_string()));
        // The parts as they stand, none of them depending on a reading; what does (Strength,
        // by `strength-scope`; the totals and the rank) only as the log records it at the end.
        f.put(
            "score.dragon",
            s.score_dragon.map_or_else(|| self.dragon_score(s).to_string(), |n| n.to_string()),
        );
        for (k, p) in s.seats.iter().enumerate() {
            let sc = self.score_parts(s, k as u8);
            let n = p.colour.name();
            f.put_of(n, "vp.deck", sc.deck);
            f.put_of(n, "vp.discard", sc.discard);
            f.put_of(n, "prestige", sc.rest.prestige);
            f.put_of(n, "hoard", sc.rest.hoard);
            f.put_of(n, "glory", sc.rest.glory());
            f.put_of(n, "fame", sc.rest.fame);
            f.put_of(n, "score", p.score.map_or("-".to_string(), |n| n.to_string()));
        }
        f.put("score.team", s.score_team.map_or("-".to_string(), |(n, _)| n.to_string()));
        f.put("score.rank", s.score_team.map_or("-".to_string(), |(_, r)| r.to_string()));
        f.into_vec()
    }

    /// A player's retreat heal (as `retreat_heal`, from the player alone).
    fn retreat_heal_of(&self, p: &super::state::Player) -> u8 {
        let level = p.books[Subject::Healing.index()];
        let track = (1..=level)
            .rev()
            .find_map(|l| match self.catalog.level(Subject::Healing, l).map(|l| l.reward) {
                Some(super::catalog::Reward::Campfire(n)) => Some(n),
                _ => None,
            })
            .unwrap_or(0);
        let token = p.active_token.and_then(|t| self.catalog.tokens.get(t)).map_or(0, |t| t.campfire);
        track + token + p.rested
    }
}
