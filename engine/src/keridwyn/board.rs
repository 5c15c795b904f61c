//! The readable fight board (participants, Grit, Fame, ailments, ongoing effects, the
//! Priority track) and the flat facts fixtures assert on.

use super::effect::Ailment;
use super::state::{Fighter, Ongoing, State};
use super::KeridwynFight;
use std::fmt::Write as _;

fn ongoing(o: &Ongoing) -> String {
    let effects: Vec<String> = o.effects.iter().map(|e| e.to_string()).collect();
    match o.rounds {
        Some(r) => format!("{}[{}]({r})", o.card, effects.join(", ")),
        None => format!("{}[{}](fight)", o.card, effects.join(", ")),
    }
}

fn ailments(f: &Fighter) -> String {
    let list: Vec<String> = Ailment::ALL
        .iter()
        .filter(|a| f.ailment(**a) > 0)
        .map(|a| format!("{a} {}", f.ailment(*a)))
        .collect();
    if list.is_empty() {
        "-".into()
    } else {
        list.join(", ")
    }
}

fn or_dash(s: String) -> String {
    if s.is_empty() {
        "-".into()
    } else {
        s
    }
}

impl KeridwynFight {
    fn track_text(&self, s: &State) -> String {
        let tokens: Vec<String> = self
            .ordered_track(s)
            .iter()
            .map(|t| format!("{}:{}:{}", t.priority, s.fighters[t.who].label, t.card))
            .collect();
        or_dash(tokens.join(" "))
    }

    fn done_text(&self, s: &State) -> String {
        let tokens: Vec<String> =
            s.done.iter().map(|t| format!("{}:{}:{}", t.priority, s.fighters[t.who].label, t.card)).collect();
        or_dash(tokens.join(" "))
    }

    pub(crate) fn render_board(&self, s: &State) -> String {
        let mut out = String::new();
        let holder = s.holder.map(|h| s.fighters[h].label.clone()).unwrap_or("-".into());
        let _ = writeln!(out, "Round {}  phase {}  Priority token: {holder}", s.round, s.phase.name());
        if let Some(w) = &s.winner {
            let _ = writeln!(out, "Fight over: {w} wins");
        }
        let _ = writeln!(out, "Seats (clockwise):");
        for (i, f) in s.fighters.iter().enumerate() {
            let token = if s.holder == Some(i) { "*" } else { " " };
            let who =
                if f.monster { format!("{} (monster)", f.label) } else { format!("{} {}", f.label, f.card) };
            let state = if f.defeated { "  DEFEATED" } else { "" };
            let _ = writeln!(
                out,
                " {token} {who:<18} Grit {:>3}  Fame {:>2}  ailments: {}{state}",
                f.grit,
                f.fame,
                ailments(f)
            );
            let effects: Vec<String> = f.effects.iter().map(ongoing).collect();
            if !effects.is_empty() {
                let _ = writeln!(out, "     effects: {}", effects.join("; "));
            }
            if !f.monster {
                let hand: Vec<&str> = f.hand.iter().map(|h| h.name()).collect();
                let _ = writeln!(out, "     hand: {}", or_dash(hand.join(" ")));
            }
        }
        let _ = writeln!(out, "Priority track: {}", self.track_text(s));
        if !s.done.is_empty() {
            let _ = writeln!(out, "  resolved this round: {}", self.done_text(s));
        }
        if s.lured {
            let _ = writeln!(out, "Lured: the monster's Breakable effect is ignored this round");
        }
        if let Some(b) = s.balance {
            let _ =
                writeln!(out, "Balance: {} draws the monster's single-target attacks", s.fighters[b].label);
        }
        if let Some(c) = &s.current {
            let dice: Vec<String> = c.dice.iter().map(|d| d.to_string()).collect();
            let _ = writeln!(
                out,
                "Resolving: {} {} (roll {} {}, modifier {:+})",
                s.fighters[c.who].label,
                c.card,
                c.skill,
                or_dash(dice.join(" ")),
                self.roll_modifier(s, c)
            );
        }
        if let Some(next) = self.next_consequence_of(s) {
            let _ = writeln!(out, "Rules call for: {next}");
        }
        out
    }

    fn next_consequence_of(&self, s: &State) -> Option<super::event::Event> {
        <Self as crate::Game>::next_consequence(self, s)
    }

    pub(crate) fn state_facts(&self, s: &State) -> Vec<(String, String)> {
        let mut out = vec![
            ("round".to_string(), s.round.to_string()),
            ("phase".to_string(), s.phase.name().to_string()),
            ("priority".to_string(), s.holder.map(|h| s.fighters[h].label.clone()).unwrap_or("-".into())),
            ("track".to_string(), self.track_text(s)),
            ("track.done".to_string(), self.done_text(s)),
            ("lured".to_string(), s.lured.to_string()),
            ("winner".to_string(), s.winner.clone().unwrap_or("-".into())),
        ];
        if let Some(c) = &s.current {
            let dice: Vec<String> = c.dice.iter().map(|d| d.to_string()).collect();
            out.push(("roll.dice".into(), or_dash(dice.join(" "))));
            out.push((
                "roll.value".into(),
                if c.rolled { self.roll_value(s, c).to_string() } else { "-".into() },
            ));
        }
        for f in &s.fighters {
            let k = |key: &str| format!("{}.{key}", f.label);
            out.push((k("card"), f.card.clone()));
            out.push((k("grit"), f.grit.to_string()));
            out.push((k("fame"), f.fame.to_string()));
            for a in Ailment::ALL {
                out.push((k(a.name()), f.ailment(a).to_string()));
            }
            let effects: Vec<String> = f.effects.iter().map(ongoing).collect();
            out.push((k("effects"), or_dash(effects.join("; "))));
            if !f.monster {
                let hand: Vec<&str> = f.hand.iter().map(|h| h.name()).collect();
                out.push((k("hand"), or_dash(hand.join(" "))));
            }
            out.push((k("defeated"), f.defeated.to_string()));
            out.push((k("trophies"), or_dash(f.trophies.join(" "))));
        }
        out
    }
}
