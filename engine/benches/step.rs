//! `cargo bench -p arbiter-engine --bench step`: the step function alone, per event, over
//! whole simulated games (the cost every replay, verify and diff pays per record).

mod common;

use arbiter_engine::{Findings, Game, GameVisitor};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::cell::RefCell;
use std::hint::black_box;

#[derive(Clone, Copy)]
struct Step<'c>(&'c RefCell<Criterion>);

impl GameVisitor for Step<'_> {
    type Output = ();
    fn visit<G: Game>(self) {
        let Some(s) = common::sessions::<G>(20_000) else { return common::skipped::<G>() };
        let mut c = self.0.borrow_mut();
        let mut group = c.benchmark_group(format!("step/{}", G::info().id));
        group.throughput(Throughput::Elements(s.events));
        group.bench_function("whole games", |b| {
            let mut findings = Findings::default();
            b.iter(|| {
                for events in &s.sessions {
                    let mut state = s.game.initial_state();
                    for e in events {
                        findings.clear();
                        let _ = s.game.step(&mut state, black_box(e), &mut findings);
                    }
                    black_box(&state);
                }
            })
        });
        group.finish();
    }
}

fn bench(c: &mut Criterion) {
    let cell = RefCell::new(std::mem::take(c));
    common::for_each_game(Step(&cell));
    *c = cell.into_inner();
}

criterion_group!(benches, bench);
criterion_main!(benches);
