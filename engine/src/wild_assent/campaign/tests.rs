//! The campaign's own tests: a simulated campaign verifies clean and replays to the
//! simulator's final state; `replay --to N` facts; notation round trips.

use crate::wild_assent::{Event, WildAssent, ILLUSTRATIVE};
use crate::{Findings, Game, Setup};

fn game(pairs: &[&str]) -> WildAssent {
    let setup = Setup::from_pairs(pairs.iter().copied()).unwrap_or_else(|e| panic!("{e}"));
    WildAssent::new(&setup, ILLUSTRATIVE).unwrap_or_else(|e| panic!("{e}"))
}

/// Replay a log; the first flagged record with its findings, and the state reached.
fn replay(g: &WildAssent, log: &[Event]) -> (Option<(usize, String)>, crate::wild_assent::State) {
    let mut s = g.initial_state();
    for (i, e) in log.iter().enumerate() {
        let mut f = Findings::default();
        match g.step(&mut s, e, &mut f) {
            Err(err) => return (Some((i, format!("`{e}`: error {err}"))), s),
            Ok(()) if !f.is_clean() => return (Some((i, format!("`{e}`: {:?}", f.violations))), s),
            Ok(()) => {}
        }
    }
    (None, s)
}

#[test]
fn a_simulated_campaign_verifies_clean_and_replays_to_the_simulators_state() {
    let mut seasons_played = 0;
    for pairs in
        [&["scope=campaign", "seasons=3"][..], &["scope=campaign", "seasons=2", "scout-actions=one-each"][..]]
    {
        let g = game(pairs);
        for seed in 1..=6 {
            let (log, end) = g.random_campaign_state(seed, 20_000);
            let (flag, state) = replay(&g, &log);
            if let Some((i, why)) = flag {
                let ctx: Vec<String> = log[i.saturating_sub(15)..=i].iter().map(|e| e.to_string()).collect();
                panic!("{pairs:?} seed {seed}: record {i} flagged: {why}\n{}", ctx.join("\n"));
            }
            assert_eq!(state, end, "{pairs:?} seed {seed}: the replay ends where the simulator did");
            // Every consequence the log records is the one owed, and none is owed at the end.
            assert_eq!(g.next_consequence(&state), None, "{pairs:?} seed {seed}");
            let camp = state.camp.as_deref().expect("a campaign state");
            assert!(
                matches!(camp.stage, super::Stage::Won | super::Stage::Lost),
                "{pairs:?} seed {seed}: the campaign ends won or lost, not at {:?}",
                camp.stage
            );
            seasons_played += usize::from(camp.season);
            // The logs round-trip through their notation.
            for e in &log {
                assert_eq!(g.parse_event(&e.to_string()).as_ref(), Ok(e), "`{e}`");
            }
        }
    }
    assert!(seasons_played > 12, "the campaigns play several Seasons ({seasons_played})");
}
