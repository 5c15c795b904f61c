//! `cargo bench -p arbiter-engine --bench verify`: verify in memory as the verify crate
//! does it per record: step, keep every finding with its record index, and check the
//! consequence the rules derive. Target: 5,000,000 events per second on one core.

mod common;

use arbiter_engine::{Findings, Game, GameVisitor, Violation};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::cell::RefCell;
use std::hint::black_box;

#[derive(Clone, Copy)]
struct Verify<'c>(&'c RefCell<Criterion>);

impl GameVisitor for Verify<'_> {
    type Output = ();
    fn visit<G: Game>(self) {
        let Some(s) = common::sessions::<G>(100_000) else { return common::skipped::<G>() };
        let mut c = self.0.borrow_mut();
        let mut group = c.benchmark_group(format!("verify/{}", G::info().id));
        group.throughput(Throughput::Elements(s.events));
        group.bench_function("in memory", |b| {
            let mut findings = Findings::default();
            let mut report: Vec<(usize, Violation)> = Vec::new();
            b.iter(|| {
                report.clear();
                for events in &s.sessions {
                    let mut state = s.game.initial_state();
                    for (i, e) in events.iter().enumerate() {
                        findings.clear();
                        if s.game.step(&mut state, e, &mut findings).is_err() {
                            break;
                        }
                        report.extend(findings.violations.drain(..).map(|v| (i, v)));
                    }
                    black_box(&state);
                }
                black_box(report.len())
            })
        });
        group.bench_function("in memory, with derived consequences", |b| {
            let mut findings = Findings::default();
            b.iter(|| {
                let mut derived = 0usize;
                for events in &s.sessions {
                    let mut state = s.game.initial_state();
                    for e in events {
                        derived += s.game.next_consequence(&state).is_some() as usize;
                        findings.clear();
                        let _ = s.game.step(&mut state, e, &mut findings);
                    }
                }
                black_box(derived)
            })
        });
        group.finish();
    }
}

fn bench(c: &mut Criterion) {
    let cell = RefCell::new(std::mem::take(c));
    common::for_each_game(Verify(&cell));
    *c = cell.into_inner();
}

criterion_group!(benches, bench);
criterion_main!(benches);
