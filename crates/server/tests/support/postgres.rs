//! A fresh, empty PostgreSQL database per test, on the server `EVR_TEST_POSTGRES` names
//! (`postgres://USER@HOST:PORT/DATABASE`; its user may create databases).

use anyhow::{Context, Result};
use evr_store::PostgresStore;

/// `url` with its database replaced by `database`.
pub fn with_database(url: &str, database: &str) -> Result<String> {
    let (base, _) = url.rsplit_once('/').context("the URL names no database")?;
    Ok(format!("{base}/{database}"))
}

/// Creates database `name` afresh (dropping one left by an earlier run) on `url`'s server.
pub async fn fresh_database(url: &str, name: &str) -> Result<String> {
    let (client, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls)
        .await
        .with_context(|| format!("connecting to {url}"))?;
    let driver = tokio::spawn(connection);
    // one statement each: several in one message would run in a transaction, which these refuse
    for sql in [
        format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"),
        format!("CREATE DATABASE {name}"),
    ] {
        client.batch_execute(&sql).await.with_context(|| sql.clone())?;
    }
    drop(client);
    let _ = driver.await;
    with_database(url, name)
}

/// A store on a fresh database `name`.
pub async fn fresh_store(url: &str, name: &str) -> Result<PostgresStore> {
    let url = fresh_database(url, name).await?;
    // opening blocks while it connects and migrates: off the test's runtime thread
    Ok(tokio::task::spawn_blocking(move || PostgresStore::open(&url)).await??)
}
