//! Unit tests of the rules, given / when / then.

use super::*;
use crate::Game;

fn game(pairs: &[&str]) -> WildAssent {
    let setup = Setup::from_pairs(pairs.iter().copied()).unwrap_or_else(|e| panic!("{e}"));
    WildAssent::new(&setup, ILLUSTRATIVE).unwrap_or_else(|e| panic!("{e}"))
}

/// Replay a simulated log and return the first flagged record with its findings.
fn first_flag(g: &WildAssent, log: &[Event]) -> Option<(usize, String)> {
    let mut s = g.initial_state();
    for (i, e) in log.iter().enumerate() {
        let mut f = Findings::default();
        match g.step(&mut s, e, &mut f) {
            Err(err) => return Some((i, format!("`{e}`: error {err}"))),
            Ok(()) if !f.is_clean() => return Some((i, format!("`{e}`: {:?}", f.violations))),
            Ok(()) => {}
        }
    }
    None
}

#[test]
fn simulated_encounters_verify_clean() {
    for pairs in [&[][..], &["scope=combat"][..], &["mode=arena", "scope=combat"][..]] {
        let g = game(pairs);
        for seed in 1..=8 {
            let log = g.random_encounter(seed, 3000);
            assert!(!log.is_empty());
            if let Some((i, why)) = first_flag(&g, &log) {
                let ctx: Vec<String> = log[i.saturating_sub(12)..=i].iter().map(|e| e.to_string()).collect();
                panic!("{pairs:?} seed {seed}: record {i} flagged: {why}\n{}", ctx.join("\n"));
            }
        }
    }
}
