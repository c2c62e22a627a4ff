//! A server pointed at a database it cannot use stops at start, saying why: unreachable, a wrong
//! password, a schema written by a newer server.

use std::process::Command;

use anyhow::{Result, ensure};

use crate::nodes::{free_port, postgres_url};
use crate::support;

/// Starts `evr-server --store url`; it must exit with an error whose output contains `expected`.
fn refuses(url: &str, expected: &str) -> Result<()> {
    let out = Command::new(env!("CARGO_BIN_EXE_evr-server"))
        .args(["--bind", &format!("127.0.0.1:{}", free_port()?), "--store", url])
        .output()?;
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    ensure!(!out.status.success(), "the server started on {url}: {said}");
    ensure!(
        said.contains(expected),
        "the message names the problem ({expected:?}): {said}"
    );
    ensure!(
        !said.contains("wrong-password"),
        "the message does not repeat the password: {said}"
    );
    Ok(())
}

#[tokio::test]
#[ignore = "needs PostgreSQL: scripts/test.sh runs it"]
async fn a_database_the_server_cannot_use_stops_it_at_start_with_a_clear_message() -> Result<()> {
    let url = support::postgres::fresh_database(&postgres_url()?, "cluster_bad_config").await?;
    // nothing listens there
    refuses(
        &format!("postgres://evr:wrong-password@127.0.0.1:{}/evr", free_port()?),
        "cannot use PostgreSQL at 127.0.0.1",
    )?;
    // the right server, the wrong password
    let rest = url.strip_prefix("postgres://").unwrap_or(&url);
    let (login, server) = rest
        .split_once('@')
        .ok_or_else(|| anyhow::anyhow!("no user in {url}"))?;
    let user = login.split(':').next().unwrap_or(login);
    refuses(
        &format!("postgres://{user}:wrong-password@{server}"),
        "password authentication failed",
    )?;
    // a schema from a newer server
    let opened = {
        let url = url.clone();
        tokio::task::spawn_blocking(move || evr_store::PostgresStore::open(&url)).await??
    };
    drop(opened);
    let (client, connection) = tokio_postgres::connect(&url, tokio_postgres::NoTls).await?;
    tokio::spawn(connection);
    client.batch_execute("UPDATE evr_schema SET version = 99").await?;
    refuses(&url, "schema is version 99, newer than this server's")?;
    // and a URL that is not one
    refuses(
        "mysql://evr@127.0.0.1/evr",
        "postgres://USER:PASSWORD@HOST:PORT/DATABASE",
    )?;
    Ok(())
}
