//! The flat `key = value` view fixtures assert on and diff compares (docs/notation/wild-assent.md,
//! "Fact keys"): the table, each miniature, the activation, the attack with the line of
//! sight and range it checked, and what each miniature could attack from where it stands.

use super::cards::UnitKind;
use super::rules::{Mode, Scope};
use super::state::{Outcome, Phase, Side, State, UnitIx};
use super::WildAssent;
use crate::kit::facts::{value_or_dash, Facts};
use crate::kit::grid::Pos;
use crate::kit::paths::Place;

impl WildAssent {
    pub(crate) fn state_facts(&self, s: &State) -> Vec<(String, String)> {
        let mut f = Facts::new();
        f.put("mode", self.params.mode).put("scope", self.params.scope);
        f.put(
            "phase",
            match s.phase {
                Phase::Setup => "setup",
                Phase::Play => "play",
                Phase::Over => "over",
            },
        );
        f.put(
            "outcome",
            match s.outcome {
                None => "-",
                Some(Outcome::Won) => "won",
                Some(Outcome::Lost) => "lost",
            },
        );
        f.put("round", s.round);
        if self.params.scope == Scope::Encounter {
            let turn = match (s.phase, self.next_side(s)) {
                (Phase::Play, Some(Side::Seekers)) => "seekers",
                (Phase::Play, Some(_)) => "creatures",
                _ => "-",
            };
            f.put("turn", turn);
            f.put("scout", value_or_dash(s.hunt.scout.map(|c| self.catalog.scouts.name(c))));
            f.put("setup", value_or_dash(s.hunt.setup));
            f.put_list(
                "encounter",
                s.hunt.creatures.iter().map(|(c, t)| format!("{}:{t}", self.units().name(*c))),
            );
            f.put("instinct.deck", s.hunt.deck.len());
            f.put_list(
                "instinct.discard",
                s.hunt.deck.discard.iter().map(|c| self.catalog.instincts.name(*c)),
            );
        }
        f.put_list("obstacles", s.obstacles.iter().map(|(p, o)| format!("{}:{o}", p.algebraic())));
        f.put("active", value_or_dash(s.act.as_ref().map(|a| s.unit(a.unit).name)));
        if let Some(a) = s.act.as_ref() {
            f.put("active.spent", a.spent);
            f.put("active.speed", self.speed_of(s, a));
            f.put("active.acted", if a.acted { "yes" } else { "no" });
            if let Some(c) = a.card {
                f.put("active.card", self.catalog.instincts.name(c));
                f.put("active.target", value_or_dash(a.target.map(|t| s.unit(t).name)));
                if a.target.is_none() && !a.moved && !a.acted {
                    let (_, able, best) = self.legal_targets(s, a);
                    f.put_list("active.reachable", able.iter().map(|&t| s.unit(t).name));
                    f.put_list("active.targets", best.iter().map(|&t| s.unit(t).name));
                }
            }
        }
        f.put("free-activation", value_or_dash(s.grant.map(|g| s.unit(g).name)));
        if let Some(a) = s.attack.as_ref() {
            f.put("attack.by", s.unit(a.attacker).name);
            f.put_list("attack.targets", a.targets.iter().map(|&t| s.unit(t).name));
            f.put("attack.dice", a.dice);
            f.put("attack.roll", value_or_dash(a.roll));
            let me = s.unit(a.attacker).place();
            for (k, &t) in a.targets.iter().enumerate() {
                let name = s.unit(t).name;
                let sight = self.sight(s, me, s.unit(t).at, &[]);
                f.put(format!("attack.{name}.range"), sight.range);
                f.put(format!("attack.{name}.arc"), if sight.arc { "yes" } else { "no" });
                f.put(
                    format!("attack.{name}.line"),
                    match sight.blocked {
                        None => "clear".to_string(),
                        Some((p, _, _)) => format!("blocked:{}", p.algebraic()),
                    },
                );
                f.put(
                    format!("attack.{name}.back"),
                    if a.back.get(k).copied().unwrap_or(false) { "yes" } else { "no" },
                );
                if let Some(faces) = a.roll {
                    let p = self.damage_parts(s, a, k, faces);
                    f.put(format!("attack.{name}.total"), p.total());
                    f.put(format!("attack.{name}.damage"), p.dealt());
                }
            }
        }
        for i in s.indices() {
            self.unit_facts(s, i, &mut f);
        }
        f.put("unverified", s.unverified.reported);
        f.into_vec()
    }

    fn unit_facts(&self, s: &State, i: UnitIx, f: &mut Facts) {
        let u = s.unit(i);
        let n = u.name.as_str();
        let card = self.card(s, i);
        f.put_of(n, "state", u.presence);
        f.put_of(n, "field", u.at.algebraic());
        f.put_of(n, "facing", u.facing);
        f.put_of(n, "health", self.remaining(s, i));
        f.put_of(n, "damage", u.damage);
        let statuses = super::effect::Status::ALL.iter().filter(|st| u.has(**st)).map(|st| st.name());
        f.put_list(format!("{n}.status"), statuses);
        if card.kind == UnitKind::Creature {
            f.put_of(n, "threat", u.threat);
            let tokens = s.units.iter().filter(|o| o.capture.is_some_and(|(c, _)| c == i)).map(|o| {
                format!(
                    "{}:{}",
                    o.name,
                    if o.capture.is_some_and(|(_, x)| x) { "captured" } else { "capturing" }
                )
            });
            f.put_list(format!("{n}.tokens"), tokens);
        }
        if card.kind == UnitKind::Seeker {
            f.put_of(n, "exhausted", if u.exhausted { "yes" } else { "no" });
        }
        f.put_of(n, "pit", if u.in_pit { "yes" } else { "no" });
        f.put_of(n, "cover", if u.on_board() && self.by_partial_cover(s, u.at) { "yes" } else { "no" });
        // What it could attack from where it stands with its default attack: enemies in its
        // line of sight (arc and line), and those also in range.
        if u.on_board() && s.phase != Phase::Setup {
            if let Some(p) =
                card.attack.filter(|_| self.params.mode == Mode::Arena || card.kind != UnitKind::Creature)
            {
                let me = u.place();
                let enemies: Vec<UnitIx> =
                    s.indices().filter(|&e| s.unit(e).on_board() && self.enemies(s, i, e)).collect();
                let sight: Vec<UnitIx> = enemies
                    .iter()
                    .copied()
                    .filter(|&e| self.sight(s, me, s.unit(e).at, &[]).clear())
                    .collect();
                let reach =
                    sight.iter().copied().filter(|&e| me.at.distance(s.unit(e).at) <= u32::from(p.range));
                f.put_list(format!("{n}.sight"), sight.iter().map(|&e| s.unit(e).name));
                f.put_list(format!("{n}.reach"), reach.map(|e| s.unit(e).name));
                f.put_of(n, "reach-fields", self.fields_in_reach(s, me, p.range));
            }
        }
    }

    /// How many fields a miniature at `me` could attack with `range`: in its frontal arc, in
    /// line of sight, within range.
    fn fields_in_reach(&self, s: &State, me: Place, range: u8) -> usize {
        let r = i16::from(range);
        (-r..=r)
            .flat_map(|dx| (-r..=r).map(move |dy| (dx, dy)))
            .map(|(dx, dy)| me.at.offset(dx, dy))
            .filter(|&p: &Pos| p != me.at && self.params.board.contains(p))
            .filter(|&p| self.can_see(s, me, p, range, &[]))
            .count()
    }
}
