//! scratch (not committed)
use arbiter_engine::wild_assent::WildAssent;
use arbiter_engine::{Findings, Game, Setup};

fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
fn flag(g: &WildAssent, ev: &[<WildAssent as Game>::Event]) -> Option<usize> {
    let mut s = g.initial_state();
    for (i, e) in ev.iter().enumerate() {
        let mut f = Findings::default();
        if g.step(&mut s, e, &mut f).is_err() || !f.is_clean() {
            return Some(i);
        }
    }
    None
}
#[test]
fn harmless() {
    let g = WildAssent::new(&Setup::default(), arbiter_engine::wild_assent::ILLUSTRATIVE).unwrap();
    for seed in 1..=40u64 {
        let events = g.simulate(seed, 2000).unwrap();
        let owed: Vec<usize> =
            (0..events.len()).filter(|&i| WildAssent::is_consequence(&events[i])).collect();
        for k in 0..3u64 {
            let i = owed[(mix(seed * 7 + k) % owed.len() as u64) as usize];
            if i + 1 == events.len() {
                continue;
            }
            let mut log = events.clone();
            let removed = log.remove(i);
            if flag(&g, &log).is_none() {
                eprintln!(
                    "seed {seed}: dropping {i} `{removed}` not flagged; next: {:?}",
                    log.get(i).map(|e| e.to_string())
                );
            }
        }
    }
}
fn change_a_digit(
    game: &WildAssent,
    event: &<WildAssent as Game>::Event,
    pick: u64,
) -> Option<<WildAssent as Game>::Event> {
    let line = event.to_string();
    let digits: Vec<usize> =
        line.char_indices().filter(|(_, c)| c.is_ascii_digit()).map(|(i, _)| i).collect();
    for k in 0..digits.len() {
        let at = digits[(pick as usize + k) % digits.len()];
        let old = line.as_bytes()[at] - b'0';
        for step in 1..6u8 {
            let new = (old + step - 1) % 6 + 1;
            if new == old {
                continue;
            }
            let mut changed = line.clone();
            changed.replace_range(at..at + 1, &new.to_string());
            if let Ok(e) = game.parse_event(&changed) {
                if e != *event {
                    return Some(e);
                }
            }
        }
    }
    None
}
#[test]
fn digits() {
    let g = WildAssent::new(&Setup::default(), arbiter_engine::wild_assent::ILLUSTRATIVE).unwrap();
    for seed in 1..=40u64 {
        let events = g.simulate(seed, 2000).unwrap();
        for round in 0..6u64 {
            let i = (mix(seed * 31 + round) % events.len() as u64) as usize;
            let Some(changed) = change_a_digit(&g, &events[i], mix(seed ^ round)) else { continue };
            let mut log = events.clone();
            let original = std::mem::replace(&mut log[i], changed);
            if WildAssent::is_consequence(&original) && flag(&g, &log).is_none() {
                eprintln!("seed {seed}: {i} `{original}` -> `{}` accepted", log[i]);
            }
        }
    }
}
#[test]
fn corner() {
    let g = WildAssent::new(
        &Setup::default().with("los-corner", "blocked"),
        arbiter_engine::wild_assent::ILLUSTRATIVE,
    )
    .unwrap();
    let _ = g.simulate(2, 2000);
}
