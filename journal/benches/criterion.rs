//! criterion benchmarks of the journal's operations: `cargo bench -p arbiter-journal --bench
//! criterion`. `benches/journal.rs` prints the same quantities once, against the targets.

mod corpus;

use arbiter_journal::{codec, Journal, Record};
use corpus::{event, meta, Ev};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::time::Duration;

/// A failure in a benchmark's setup: report it and stop, since no number would mean anything.
fn or_exit<T, E: std::fmt::Display>(r: Result<T, E>) -> T {
    r.unwrap_or_else(|e| {
        eprintln!("benchmark setup failed: {e}");
        std::process::exit(2)
    })
}

fn codec_benches(c: &mut Criterion) {
    let records: Vec<Record<Ev>> = (0..1000).map(event).collect();
    let encoded: Vec<Vec<u8>> = records.iter().map(|r| or_exit(codec::encode(r))).collect();
    let mut group = c.benchmark_group("codec");
    group.throughput(Throughput::Elements(records.len() as u64));
    group.bench_function("encode 1000 records", |b| {
        let mut out = Vec::with_capacity(16 << 10);
        b.iter(|| {
            out.clear();
            for r in &records {
                let _ = codec::encode_into(r, &mut out);
            }
            out.len()
        })
    });
    group.bench_function("decode 1000 records", |b| {
        b.iter(|| encoded.iter().filter(|bytes| codec::decode::<Record<Ev>>(bytes).is_ok()).count())
    });
    group.finish();
}

fn journal_benches(c: &mut Criterion) {
    let dir = or_exit(tempfile::tempdir());
    let j = or_exit(Journal::open(dir.path().join("db")));
    const SCANNED: u64 = 100_000;
    let all: Vec<Record<Ev>> = (0..SCANNED).map(event).collect();
    or_exit(j.import("scan", &meta(), &all));

    let mut group = c.benchmark_group("journal");
    group.sample_size(20).measurement_time(Duration::from_secs(4));
    group.throughput(Throughput::Elements(SCANNED));
    group.bench_function("scan + decode 100k records", |b| {
        b.iter(|| or_exit(j.events::<Ev>("scan", 0)).filter(|r| r.is_ok()).count())
    });
    group.bench_function("check 100k records", |b| b.iter(|| or_exit(j.check::<Ev>("scan")).is_ok()));

    or_exit(j.create_session("batched", &meta()));
    let batch: Vec<Record<Ev>> = (0..1000).map(event).collect();
    group.throughput(Throughput::Elements(batch.len() as u64));
    group.bench_function("durable append, batch of 1000", |b| {
        let mut next = or_exit(j.len("batched"));
        b.iter(|| next = or_exit(j.append("batched", next, &batch)))
    });

    or_exit(j.create_session("single", &meta()));
    group.throughput(Throughput::Elements(1));
    group.bench_function("durable append, single record", |b| {
        let mut next = or_exit(j.len("single"));
        b.iter(|| next = or_exit(j.append("single", next, &[event(next)])))
    });
    group.finish();
}

criterion_group!(benches, codec_benches, journal_benches);
criterion_main!(benches);
