//! What the contract tests need around a store: fresh directories, room options, a fresh
//! PostgreSQL database.

use std::path::PathBuf;

use anyhow::{Context, Result};
use evr_protocol::{RoomOptions, SideChoice, SpectatorPolicy};
use evr_rules::Mode;

/// A fresh directory under cargo's temporary one for tests.
pub fn temp_dir(name: &str) -> PathBuf {
    let n = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("{name}-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Room options: a random side, spectators welcome, a friend as the opponent.
pub fn options(mode: Mode) -> RoomOptions {
    RoomOptions {
        side: SideChoice::Random,
        mode,
        spectators: SpectatorPolicy::AnyoneWithLink,
        opponent: None,
        reveal_at_end: false,
        clock: None,
        rated: false,
    }
}

pub mod postgres {
    use super::*;
    use evr_store::PostgresStore;

    /// `url` with its database replaced by `database`.
    fn with_database(url: &str, database: &str) -> Result<String> {
        let (base, _) = url.rsplit_once('/').context("the URL names no database")?;
        Ok(format!("{base}/{database}"))
    }

    /// A store on a fresh database `name` of `url`'s server (dropping one left by an earlier run).
    pub async fn fresh_store(url: &str, name: &str) -> Result<PostgresStore> {
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
        let url = with_database(url, name)?;
        // opening blocks while it connects and migrates: off the test's runtime thread
        Ok(tokio::task::spawn_blocking(move || PostgresStore::open(&url)).await??)
    }

    /// Another store (another node's) on database `name` of `url`'s server, made by
    /// [`fresh_store`].
    pub async fn same_database(url: &str, name: &str) -> Result<PostgresStore> {
        let url = with_database(url, name)?;
        Ok(tokio::task::spawn_blocking(move || PostgresStore::open(&url)).await??)
    }
}
