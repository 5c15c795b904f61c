//! The flat `key = value` view fixtures assert on and diff compares (docs/notation/wild-assent.md,
//! "Fact keys"): the table, each miniature, the activation, the attack with the line of
//! sight and range it checked, and what each miniature could attack from where it stands.

use super::cards::UnitKind;
use super::geometry::LineStatus;
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
        if self.params.scope == Scope::Match {
            // The Arena round: whose Assent goes first, who may activate next.
            f.put("round.first", value_or_dash(s.arena.first));
            let next = match (s.phase, s.act.is_some(), self.next_up(s)) {
                (Phase::Play, false, Some((legal, _))) => {
                    legal.iter().map(|&i| s.unit(i).name.to_string()).collect()
                }
                _ => Vec::new(),
            };
            f.put_list("round.next", next);
        }
        if self.params.mode == Mode::Arena {
            // `draw`: the match is over with no winner (`double-fall=draw`).
            let drawn = s.phase == Phase::Over && s.winner.is_none();
            f.put("winner", if drawn { "draw".to_string() } else { value_or_dash(s.winner) });
            f.put_list("silvestrem.active", self.silvestrem_active(s));
            f.put("silvestrem.drawn", s.silvestrem.drawn.len());
            f.put("draft.player1", value_or_dash(s.draft.first));
            f.put("draft.picks", s.draft.picks.len());
            let order = self.draft_order();
            let at = self.draft_aligns(s)[0];
            let next = s.draft.first.zip(order.get(usize::from(at.0))).map(|(first, &(p1, pick))| {
                // The turns of a phase begun on the other side run swapped (draft.rs).
                let side = if p1 != at.1 { first } else { first.other() };
                format!("{side}:{pick}")
            });
            f.put("draft.next", value_or_dash(next));
            for (side, pool) in ["red", "blue"].iter().zip(s.momentum.iter()) {
                f.put(
                    format!("momentum.{side}"),
                    if pool.dice.count() == 0 { "-".to_string() } else { pool.dice.to_string() },
                );
            }
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
                    match self.line_status(s, me.at, s.unit(t).at) {
                        LineStatus::Clear => "clear".to_string(),
                        LineStatus::Corner(p) => format!("corner:{}", p.algebraic()),
                        LineStatus::Blocked(p) => format!("blocked:{}", p.algebraic()),
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
        if self.params.mode == Mode::Arena {
            let held = super::state::momentum::Face::ALL
                .iter()
                .filter(|m| u.momentum & m.bit() != 0)
                .map(|m| m.name());
            f.put_list(format!("{n}.momentum"), held);
        }
        f.put_of(n, "pit", if u.in_pit { "yes" } else { "no" });
        let covers = if u.on_board() { self.partial_covers_by(s, u.at) } else { 0 };
        f.put_of(n, "cover", if covers > 0 { "yes" } else { "no" });
        // How many Partial Covers are beside it: the table's fact that `partial-cover-stack`
        // reads into a Defense.
        f.put_of(n, "covers", covers);
        // What it could attack from where it stands with its default attack: enemies in its
        // frontal arc with a clear line (`sight`), those also in range (`reach`), and how many
        // fields it could attack. A line that only touches a blocker's corner is listed apart
        // (`-corner`): the interpretation `los-corner` decides it, and facts describe the
        // table, not a reading.
        if u.on_board() && s.phase != Phase::Setup {
            if let Some(p) =
                card.attack.filter(|_| self.params.mode == Mode::Arena || card.kind != UnitKind::Creature)
            {
                let me = u.place();
                let enemies: Vec<UnitIx> = s
                    .indices()
                    .filter(|&e| {
                        s.unit(e).on_board() && self.enemies(s, i, e) && me.facing.in_arc(me.at, s.unit(e).at)
                    })
                    .collect();
                let status = |e: UnitIx| self.line_status(s, me.at, s.unit(e).at);
                let range = |e: UnitIx| me.at.distance(s.unit(e).at) <= u32::from(p.range);
                let clear: Vec<UnitIx> =
                    enemies.iter().copied().filter(|&e| status(e) == LineStatus::Clear).collect();
                let corner: Vec<UnitIx> =
                    enemies.iter().copied().filter(|&e| matches!(status(e), LineStatus::Corner(_))).collect();
                let name = |e: &UnitIx| s.unit(*e).name;
                f.put_list(format!("{n}.sight"), clear.iter().map(name));
                f.put_list(format!("{n}.reach"), clear.iter().filter(|&&e| range(e)).map(name));
                if !corner.is_empty() {
                    f.put_list(format!("{n}.sight-corner"), corner.iter().map(name));
                    f.put_list(format!("{n}.reach-corner"), corner.iter().filter(|&&e| range(e)).map(name));
                }
                let (clear, corner) = self.fields_in_reach(s, me, p.range);
                f.put_of(n, "reach-fields", clear);
                if corner > 0 {
                    f.put_of(n, "reach-fields-corner", corner);
                }
            }
        }
    }

    /// How many fields a miniature at `me` could attack with `range` (in its frontal arc,
    /// within range): with a clear line, and with a line only touching a blocker's corner.
    fn fields_in_reach(&self, s: &State, me: Place, range: u8) -> (usize, usize) {
        let r = i16::from(range);
        let fields = (-r..=r)
            .flat_map(|dx| (-r..=r).map(move |dy| (dx, dy)))
            .map(|(dx, dy)| me.at.offset(dx, dy))
            .filter(|&p: &Pos| p != me.at && self.params.board.contains(p) && me.facing.in_arc(me.at, p));
        let (mut clear, mut corner) = (0, 0);
        for p in fields {
            match self.line_status(s, me.at, p) {
                LineStatus::Clear => clear += 1,
                LineStatus::Corner(_) => corner += 1,
                LineStatus::Blocked(_) => {}
            }
        }
        (clear, corner)
    }
}
