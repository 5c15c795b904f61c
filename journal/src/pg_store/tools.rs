//! What the tests of the PostgreSQL backend need of the server beyond the journal: an empty
//! schema of their own (`test_server`).

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
