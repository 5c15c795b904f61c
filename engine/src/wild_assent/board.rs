//! The board as a player sees it: the grid with columns `a`.. and rows 1.. (row 1 at the
//! bottom), each miniature as a two-letter tag with an arrow for its facing, the obstacles,
//! and under it a legend (Health, statuses, capture tokens), the activation in progress and
//! the attack being resolved with the line of sight and the range it checked (the line's
//! fields marked `*` on the grid).

use super::cards::{DamageKind, UnitKind};
use super::geometry::Blocker;
use super::state::{Attack, Faces, Obstacle, Phase, Side, Stage, State, UnitIx};
use super::WildAssent;
use crate::kit::facts::list_or_dash;
use crate::kit::grid::{Facing, Pos};
use std::fmt::Write as _;

fn arrow(f: Facing) -> char {
    match f {
        Facing::N => '^',
        Facing::E => '>',
        Facing::S => 'v',
        Facing::W => '<',
    }
}

fn obstacle_cell(o: Obstacle) -> &'static str {
    match o {
        Obstacle::Partial => "%%%",
        Obstacle::Full => "###",
        Obstacle::Thornbrush | Obstacle::Blades => "xxx",
        Obstacle::Pit => "(_)",
    }
}

impl WildAssent {
    /// A two-letter tag per miniature: a Seeker's or the red side's starts upper case.
    pub(crate) fn tags(&self, s: &State) -> Vec<String> {
        let mut tags: Vec<String> = Vec::with_capacity(s.units.len());
        for u in &s.units {
            let name = u.name.as_str();
            let parts: Vec<&str> = name.split('-').collect();
            let first = name.chars().next().unwrap_or('?');
            let second = match parts.as_slice() {
                [_, last] if last.chars().all(|c| c.is_ascii_digit()) => last.chars().next().unwrap_or('?'),
                [_, next, ..] => next.chars().next().unwrap_or('?'),
                _ => name.chars().nth(1).unwrap_or('?'),
            };
            let upper = matches!(u.side, Side::Seekers | Side::Red);
            let first = if upper { first.to_ascii_uppercase() } else { first };
            let mut tag = format!("{first}{second}");
            let mut k = 1;
            while tags.contains(&tag) {
                tag = format!("{first}{k}");
                k += 1;
            }
            tags.push(tag);
        }
        tags
    }

    pub(crate) fn render_board(&self, s: &State) -> String {
        let b = self.params.board;
        let tags = self.tags(s);
        let mut out = String::new();
        let _ = writeln!(out, "{}", self.headline(s));
        // The attack's line of sight, marked on the grid.
        let line: Vec<Pos> = s
            .attack
            .as_ref()
            .filter(|a| !a.profile.area)
            .and_then(|a| a.targets.first().map(|&t| (a.attacker, t)))
            .map(|(a, t)| {
                self.sight(s, s.unit(a).place(), s.unit(t).at, &[]).line.into_iter().map(|(p, _)| p).collect()
            })
            .unwrap_or_default();
        let _ = write!(out, "   ");
        for x in 0..b.width {
            let _ = write!(out, " {} ", (b'a' + x as u8) as char);
        }
        out.push('\n');
        for y in (0..b.height).rev() {
            let _ = write!(out, "{:>2} ", y + 1);
            for x in 0..b.width {
                let p = Pos::new(x, y);
                let cell = match (s.at(p), s.obstacle(p)) {
                    (Some(u), _) => format!("{}{}", tags[usize::from(u)], arrow(s.unit(u).facing)),
                    (None, Some(o)) => obstacle_cell(o).to_string(),
                    (None, None) if line.contains(&p) => " * ".to_string(),
                    (None, None) => " . ".to_string(),
                };
                out.push_str(&cell);
            }
            let _ = writeln!(out, " {}", y + 1);
        }
        let _ = write!(out, "   ");
        for x in 0..b.width {
            let _ = write!(out, " {} ", (b'a' + x as u8) as char);
        }
        out.push('\n');
        if !s.obstacles.is_empty() {
            let obs = s.obstacles.iter().map(|(p, o)| format!("{} {o}", p.algebraic()));
            let _ = writeln!(
                out,
                "obstacles: {}  (%%% partial cover, ### full cover, xxx hazard, (_) pit)",
                list_or_dash(obs, ", ")
            );
        }
        for i in s.indices() {
            let _ = writeln!(out, "  {} {}", tags[usize::from(i)], self.legend(s, i));
        }
        let active = self.silvestrem_active(s);
        if !active.is_empty() {
            let _ = writeln!(out, "silvestrem cards in force: {}", active.join(", "));
        }
        for (side, pool) in ["red", "blue"].iter().zip(s.momentum.iter()) {
            if pool.rolled && pool.dice.count() > 0 {
                let _ = writeln!(out, "momentum dice of {side} to assign: {}", pool.dice);
            }
        }
        if let Some(a) = s.act.as_ref() {
            let u = s.unit(a.unit);
            let mut line = format!("activation: {}", u.name);
            if let Some(c) = a.card {
                let _ = write!(line, " with Instinct card {}", self.catalog.instincts.name(c));
            }
            if let Some(t) = a.target {
                let _ = write!(line, ", target {}", s.unit(t).name);
            }
            let _ = write!(line, ", Speed {} of {} spent", a.spent, self.speed_of(s, a));
            if a.acted {
                line.push_str(", action used");
            }
            if a.free {
                line.push_str(" (free activation)");
            }
            let _ = writeln!(out, "{line}");
        }
        if let Some(text) = self.attack_text(s) {
            out.push_str(&text);
        }
        out
    }

    fn headline(&self, s: &State) -> String {
        let mode = self.params.mode;
        match s.phase {
            Phase::Setup => format!("Wild Assent ({mode}), setting up"),
            Phase::Over if s.winner.is_some() => {
                format!("Wild Assent ({mode}), match won by {}", s.winner.map(|w| w.name()).unwrap_or("-"))
            }
            // An Arena match over with no winner: both sides fell in one attack (`double-fall`).
            Phase::Over if mode == super::rules::Mode::Arena => format!("Wild Assent ({mode}), match drawn"),
            Phase::Over => format!(
                "Wild Assent ({mode}), encounter {}",
                match s.outcome {
                    Some(super::state::Outcome::Won) => "won",
                    _ => "lost",
                }
            ),
            Phase::Play if self.params.scope == super::rules::Scope::Encounter => {
                // `next_side` is whose activation comes next (the fact `turn`): while a
                // miniature is activating that is already the other side, so the heading names
                // the activation in progress and its side first, then the turn after it (audit
                // r4 O5: "the Creatures' turn" was printed while a Seeker activated).
                let turn = |side: Side| match side {
                    Side::Seekers => "the Seekers' turn",
                    _ => "the Creatures' turn",
                };
                let next = self.next_side(s);
                let head = format!("Wild Assent ({mode}), round {}", s.round);
                match (s.act.as_ref(), next) {
                    (Some(a), _) => {
                        let u = s.unit(a.unit);
                        // A free activation (a Summon's within its summoner's, a Seeker's
                        // Rout) is made within the turn in progress: the Creatures' while
                        // their card is being resolved.
                        let now = match (a.free, s.hunt.drawing) {
                            (true, true) => {
                                format!("{}, {} activating (free activation)", turn(Side::Creatures), u.name)
                            }
                            (true, false) => {
                                format!("{}, {} activating (free activation)", turn(u.side), u.name)
                            }
                            (false, _) => format!("{}, {} activating", turn(u.side), u.name),
                        };
                        // A Creature's activation keeps its side drawing (`next_side` says
                        // the Creatures until it ends): what comes after it is asked of the
                        // state with the drawing over. Only the board asks, not the step.
                        let next = if s.hunt.drawing {
                            let mut done = s.clone();
                            done.hunt.drawing = false;
                            self.next_side(&done)
                        } else {
                            next
                        };
                        let after = next.map_or("the round's end", turn);
                        format!("{head}, {now}; next: {after}")
                    }
                    (None, Some(side)) => format!("{head}, {}", turn(side)),
                    (None, None) => format!("{head}, the round is over"),
                }
            }
            // An Arena match: its round, who went first, who may activate next (audit r6 O1:
            // it read "combat" at every point of every round).
            Phase::Play if self.params.scope == super::rules::Scope::Match => {
                let mut head = format!("Wild Assent ({mode}), round {}", s.round);
                if let Some(first) = s.arena.first {
                    head.push_str(&format!(", {first}'s Assent first"));
                }
                match (s.act.as_ref(), self.next_up(s)) {
                    (Some(a), _) => head.push_str(&format!(", {} activating", s.unit(a.unit).name)),
                    (None, Some((legal, _))) if !legal.is_empty() => {
                        let names: Vec<String> = legal.iter().map(|&i| s.unit(i).name.to_string()).collect();
                        head.push_str(&format!("; next: {}", names.join(" or ")));
                    }
                    _ => head.push_str(", the round is over"),
                }
                head
            }
            Phase::Play => format!("Wild Assent ({mode}), combat"),
        }
    }

    /// One miniature's line: where, Health, statuses, tokens.
    fn legend(&self, s: &State, i: UnitIx) -> String {
        let u = s.unit(i);
        let card = self.card(s, i);
        let mut line = u.name.to_string();
        if card.kind == UnitKind::Creature {
            let _ = write!(line, " (Threat {})", u.threat);
        }
        if !u.on_board() {
            let _ = write!(line, ": {}", u.presence);
            return line;
        }
        let (pdef, mdef) = self.defenses(s, i);
        let _ = write!(
            line,
            " {} facing {}, Health {}/{}, PDEF {pdef} MDEF {mdef}",
            u.at.algebraic(),
            u.facing,
            self.remaining(s, i),
            self.stats(s, i).health
        );
        let statuses: Vec<&str> =
            super::effect::Status::ALL.iter().filter(|st| u.has(**st)).map(|st| st.name()).collect();
        if !statuses.is_empty() {
            let _ = write!(line, " [{}]", statuses.join(" "));
        }
        let momentum: Vec<&str> = super::state::momentum::Face::ALL
            .iter()
            .filter(|m| u.momentum & m.bit() != 0)
            .map(|m| m.name())
            .collect();
        if !momentum.is_empty() {
            let _ = write!(line, " momentum {{{}}}", momentum.join(" "));
        }
        if u.in_pit {
            line.push_str(" in a Pit");
        }
        if let Some((c, flipped)) = u.capture {
            let _ = write!(
                line,
                ", {} {}",
                if flipped { "captured token on" } else { "capturing" },
                s.unit(c).name
            );
        }
        // Exhaust tokens are the Hunt's (l.62); an Arena Gladiator that has activated has
        // no token (audit r6 O2).
        if u.exhausted && self.params.mode != super::rules::Mode::Arena {
            line.push_str(", exhausted");
        }
        line
    }

    /// The attack being resolved: what its line of sight crossed, the range, the back
    /// attack, the dice, and each target's damage once rolled.
    /// Whether the attack's target `k` has had its Knockback resolved: its consequences are
    /// past the Knockback stage and the attack knocks it back (any target under "On Attack",
    /// one that took damage under plain Knockback). Only the board asks, not the step.
    fn knocked_already(&self, s: &State, a: &Attack, k: usize, faces: Faces) -> bool {
        let at = usize::from(a.at);
        let past = k < at
            || (k == at
                && matches!(a.stage, Stage::Hazard | Stage::HazardBleed | Stage::HazardLast | Stage::Done));
        if !past {
            return false;
        }
        let after = self.kept_after_damage(s, a, faces.specials);
        after.knocks() || (after.knocks_damaged() && self.damage_parts(s, a, k, faces).dealt() > 0)
    }

    fn attack_text(&self, s: &State) -> Option<String> {
        let a = s.attack.as_ref()?;
        let me = s.unit(a.attacker);
        let kind = if a.profile.kind == DamageKind::Physical { "physical" } else { "magical" };
        let mut out = format!(
            "attack: {} ({kind}, Range {}, Base Damage {}), {} Attack Dice",
            me.name, a.profile.range, a.profile.damage, a.dice
        );
        if let Some(r) = a.roll {
            let _ = write!(out, ", rolled {r}");
        }
        out.push('\n');
        for (k, &t) in a.targets.iter().enumerate() {
            let tu = s.unit(t);
            // A target its Knockback has already moved stands where the knock left it, and the
            // state no longer holds the field it was attacked on: its arc, line of sight, range
            // and damage (cover is the field's) worked out again from there would describe
            // another attack (audit r4 O6: `range 2 of 1` for an attack made at range 1).
            if a.roll.is_some_and(|faces| self.knocked_already(s, a, k, faces)) {
                let _ = writeln!(
                    out,
                    "  -> {} on {} after its Knockback (arc, line of sight, range and damage were \
                     checked at the attack, from the field it stood on then){}",
                    tu.name,
                    tu.at.algebraic(),
                    if a.back.get(k).copied().unwrap_or(false) { ", from behind (+2)" } else { "" }
                );
                continue;
            }
            let sight = self.sight(s, me.place(), tu.at, &[]);
            let crossed: Vec<String> = sight
                .line
                .iter()
                .map(|(p, touch)| match touch {
                    crate::kit::grid::Touch::Through => p.algebraic().to_string(),
                    crate::kit::grid::Touch::Corner => format!("{} (corner)", p.algebraic()),
                })
                .collect();
            let blocked = match sight.blocked {
                None => "clear".to_string(),
                Some((p, Blocker::Miniature(o), _)) => {
                    format!("blocked by {} on {}", s.unit(o).name, p.algebraic())
                }
                Some((p, Blocker::Obstacle(o), _)) => format!("blocked by {o} on {}", p.algebraic()),
            };
            let _ = write!(
                out,
                "  -> {} on {}: frontal arc {}, line of sight from {} crosses {} ({blocked}), range {} of {}{}",
                tu.name,
                tu.at.algebraic(),
                if sight.arc { "yes" } else { "no" },
                me.at.algebraic(),
                list_or_dash(crossed, " "),
                sight.range,
                a.profile.range,
                if a.back.get(k).copied().unwrap_or(false) { ", from behind (+2)" } else { "" }
            );
            if let Some(faces) = a.roll {
                let p = self.damage_parts(s, a, k, faces);
                let _ = write!(
                    out,
                    "; damage {} ({} against defense {}{})",
                    p.dealt(),
                    p.total(),
                    p.defense(),
                    if p.ignore { ", ignored" } else { "" }
                );
            }
            out.push('\n');
        }
        Some(out)
    }
}
