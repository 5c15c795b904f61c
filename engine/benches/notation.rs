//! `cargo bench -p arbiter-engine --bench notation`: reading and printing notation lines,
//! alone and followed by the step (verify from text). Target: 2,000,000 lines per second.

mod common;

use arbiter_engine::{Findings, Game, GameVisitor};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::cell::RefCell;
use std::fmt::Write as _;
use std::hint::black_box;

#[derive(Clone, Copy)]
struct Notation<'c>(&'c RefCell<Criterion>);

impl GameVisitor for Notation<'_> {
    type Output = ();
    fn visit<G: Game>(self) {
        let Some(s) = common::sessions::<G>(50_000) else { return common::skipped::<G>() };
        let texts: Vec<String> = s
            .sessions
            .iter()
            .map(|events| {
                let mut text = String::new();
                for e in events {
                    let _ = writeln!(text, "{e}");
                }
                text
            })
            .collect();
        let mut c = self.0.borrow_mut();
        let mut group = c.benchmark_group(format!("notation/{}", G::info().id));
        group.throughput(Throughput::Elements(s.events));
        group.bench_function("parse", |b| {
            b.iter(|| {
                let mut ok = 0usize;
                for text in &texts {
                    for line in text.lines() {
                        ok += s.game.parse_event(black_box(line)).is_ok() as usize;
                    }
                }
                ok
            })
        });
        group.bench_function("parse + step", |b| {
            let mut findings = Findings::default();
            b.iter(|| {
                for text in &texts {
                    let mut state = s.game.initial_state();
                    for line in text.lines() {
                        let Ok(e) = s.game.parse_event(line) else { break };
                        findings.clear();
                        let _ = s.game.step(&mut state, &e, &mut findings);
                    }
                    black_box(&state);
                }
            })
        });
        group.bench_function("print", |b| {
            let mut out = String::new();
            b.iter(|| {
                for events in &s.sessions {
                    for e in events {
                        out.clear();
                        let _ = write!(out, "{e}");
                        black_box(&out);
                    }
                }
            })
        });
        group.finish();
    }
}

fn bench(c: &mut Criterion) {
    let cell = RefCell::new(std::mem::take(c));
    common::for_each_game(Notation(&cell));
    *c = cell.into_inner();
}

criterion_group!(benches, bench);
criterion_main!(benches);
