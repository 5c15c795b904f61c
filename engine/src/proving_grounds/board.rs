//! The readable board: six enemies with their tracks and markers, health track with the
//! colored stack, exhaustion track and pool.

use super::facts::{sets, singles};
use super::state::{State, EXHAUSTION, SLOTS};
use super::ProvingGrounds;
use std::fmt::Write as _;

impl ProvingGrounds {
    pub(super) fn board_text(&self, s: &State) -> String {
        let mut b = String::new();
        let _ = writeln!(
            b,
            "Proving Grounds, round {} ({}), {}: {} defeated",
            s.round,
            s.phase.name(),
            s.outcome.name(),
            s.defeated
        );
        let _ =
            writeln!(b, "  tracks bottom to top: B bottom, *start, N dice (g/y/b colors) to enter, [marker]");
        for i in 0..SLOTS {
            let slot = &s.slots[i];
            let _ = write!(b, "  #{} ", i + 1);
            match slot.card {
                None => {
                    let _ = write!(b, "(empty)");
                }
                Some(c) => {
                    let en = self.enemy(c);
                    let _ = write!(b, "{:<18} ", en.id);
                    for (k, req) in en.track.iter().enumerate() {
                        let label = if k == 0 { "B".to_string() } else { req.to_string() };
                        let start = if k == en.start as usize { "*" } else { "" };
                        if k == slot.marker as usize {
                            let _ = write!(b, "[{start}{label}]");
                        } else {
                            let _ = write!(b, " {start}{label} ");
                        }
                    }
                    if let Some(icon) = en.icon {
                        let _ = write!(b, "  icon {icon}");
                    }
                }
            }
            let n = i + 1;
            let dice: Vec<String> =
                s.pool.iter().filter(|d| d.value as usize == n).map(|d| d.to_string()).collect();
            if !dice.is_empty() {
                let _ = write!(b, "  <- {}", dice.join(" "));
            }
            b.push('\n');
        }
        let _ = write!(b, "  health   ");
        for space in 1..=self.config.health {
            let stack = if !s.stack.is_empty() && space == s.stack_at(self.config.rings) {
                format!("({})", s.stack)
            } else {
                String::new()
            };
            if space == s.health {
                let _ = write!(b, "[{space}{stack}]");
            } else {
                let _ = write!(b, " {space}{stack} ");
            }
        }
        b.push('\n');
        let _ = write!(b, "  exhaustion (top to bottom)");
        for k in 0..EXHAUSTION {
            let _ = write!(b, "  {}: {}", k + 1, s.exhaustion[k]);
        }
        b.push('\n');
        let _ = writeln!(b, "  pool     {}  (sets {}; singles {})", s.pool, sets(&s.pool), singles(&s.pool));
        if s.replace_owed {
            let _ = writeln!(b, "  a die replacement is owed (replace w -> g|y|b)");
        }
        b
    }
}
