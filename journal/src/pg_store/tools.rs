//! What the tests and the benchmark of the PostgreSQL backend need of the server beyond the
//! journal (`test_server`): an empty schema of their own, and the server's bare costs.

/// Make `schema` on the server at `url`, empty (dropping one of that name first).
pub fn fresh_schema(url: &str, schema: &str) -> Result<(), String> {
    if !schema.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(format!("`{schema}` is not a plain schema name"));
    }
    let made = std::thread::scope(|scope| {
        scope
            .spawn(|| -> Result<(), postgres::Error> {
                let mut client = postgres::Client::connect(url, postgres::NoTls)?;
                client
                    .batch_execute(&format!("DROP SCHEMA IF EXISTS {schema} CASCADE; CREATE SCHEMA {schema}"))
            })
            .join()
    });
    match made {
        Ok(Ok(())) => Ok(()),
        Ok(Err(e)) => Err(format!("cannot make schema {schema}: {e}")),
        Err(_) => Err("the PostgreSQL client failed".to_string()),
    }
}

/// The server's costs the journal's own are made of, for the benchmark to say where time
/// goes: the median of `n` round trips of an empty statement, and of `n` commits of one
/// small row (a round trip plus the server's flush of its write-ahead log), in seconds,
/// through the same client and `synchronous_commit=on`.
pub fn round_trip_and_commit(url: &str, n: usize) -> Result<(f64, f64), String> {
    let measured = std::thread::scope(|scope| {
        scope
            .spawn(|| -> Result<(f64, f64), postgres::Error> {
                let mut client = postgres::Client::connect(url, postgres::NoTls)?;
                // A table of this call's own (a logged one: a temporary table's commit would
                // not wait for the server's log), so two measurements at once do not drop
                // each other's.
                static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
                let n_call = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let table = format!("arbiter_probe_commits_{}_{n_call}", std::process::id());
                client.batch_execute(&format!(
                    "SET synchronous_commit = on; CREATE TABLE IF NOT EXISTS {table} (n bigint)"
                ))?;
                let ping = client.prepare("SELECT 1")?;
                let insert = client.prepare(&format!("INSERT INTO {table} VALUES ($1)"))?;
                let (mut trips, mut commits) = (Vec::with_capacity(n), Vec::with_capacity(n));
                for i in 0..n {
                    let t = std::time::Instant::now();
                    client.query(&ping, &[])?;
                    trips.push(t.elapsed().as_secs_f64());
                    let t = std::time::Instant::now();
                    client.execute(&insert, &[&(i as i64)])?;
                    commits.push(t.elapsed().as_secs_f64());
                }
                client.batch_execute(&format!("DROP TABLE {table}"))?;
                Ok((median(trips), median(commits)))
            })
            .join()
    });
    match measured {
        Ok(Ok(costs)) => Ok(costs),
        Ok(Err(e)) => Err(format!("cannot measure the server: {e}")),
        Err(_) => Err("the PostgreSQL client failed".to_string()),
    }
}

fn median(mut samples: Vec<f64>) -> f64 {
    samples.sort_by(f64::total_cmp);
    samples.get(samples.len() / 2).copied().unwrap_or(f64::NAN)
}

/// Bytes the journal's tables take on the server at `url` (the schema its `search_path`
/// names), indexes and TOAST included: `pg_total_relation_size` of each.
pub fn table_bytes(url: &str) -> Result<u64, String> {
    let measured = std::thread::scope(|scope| {
        scope
            .spawn(|| -> Result<i64, postgres::Error> {
                let mut client = postgres::Client::connect(url, postgres::NoTls)?;
                let row = client.query_one(
                    "SELECT (pg_total_relation_size('arbiter_sessions') + pg_total_relation_size('arbiter_records') \
                     + pg_total_relation_size('arbiter_snapshots'))::bigint",
                    &[],
                )?;
                row.try_get(0)
            })
            .join()
    });
    match measured {
        Ok(Ok(bytes)) => Ok(u64::try_from(bytes).unwrap_or(0)),
        Ok(Err(e)) => Err(format!("cannot measure the tables: {e}")),
        Err(_) => Err("the PostgreSQL client failed".to_string()),
    }
}
