//! What every store must do with signals (`AccountSignals`): a signal reaches every listener of
//! the node, naming its account and its news; on PostgreSQL it reaches the other nodes too, and a node whose
//! listening connection was lost tells its listeners to look again (`Signal::Everyone`) once it
//! listens again.

use std::time::Duration;

use anyhow::{Context, Result, bail, ensure};
use evr_store::{News, Signal, Store};
use tokio::sync::broadcast;

use crate::core::stores;
use crate::friends::id;

/// Longer than a signal takes by far (milliseconds), short enough for a failing test.
const PATIENCE: Duration = Duration::from_secs(10);

/// The next signal that is not `Everyone` (heard when a node's listening connection was made
/// again; a loaded machine may do so).
async fn next_account_signal(rx: &mut broadcast::Receiver<Signal>) -> Result<Signal> {
    loop {
        match tokio::time::timeout(PATIENCE, rx.recv()).await {
            Ok(Ok(Signal::Everyone)) => continue,
            Ok(Ok(signal)) => return Ok(signal),
            Ok(Err(e)) => bail!("no signal: {e}"),
            Err(_) => bail!("no signal in {} s", PATIENCE.as_secs()),
        }
    }
}

#[tokio::test]
async fn a_signal_reaches_every_listener_of_the_node_and_names_its_account() -> Result<()> {
    for opened in stores("signals").await? {
        let name = opened.name;
        let signals = opened.store.signals().context("signals")?;
        let (mut a, mut b) = (signals.subscribe(), signals.subscribe());
        signals.signal(&[id(1), id(2)], News::Challenges);
        signals.signal(&[id(3)], News::Friends);
        for rx in [&mut a, &mut b] {
            for expected in [
                Signal::Account(id(1), News::Challenges),
                Signal::Account(id(2), News::Challenges),
                Signal::Account(id(3), News::Friends),
            ] {
                let heard = next_account_signal(rx).await.context(name)?;
                ensure!(heard == expected, "{name}: {heard:?}");
            }
        }
    }
    Ok(())
}

#[tokio::test]
async fn a_signal_reaches_the_other_node_and_a_lost_connection_is_told_as_everyone() -> Result<()> {
    let url = match std::env::var("EVR_TEST_POSTGRES") {
        Ok(url) if !url.is_empty() => url,
        _ => {
            eprintln!("EVR_TEST_POSTGRES is not set: two PostgreSQL nodes are not tested here");
            return Ok(());
        }
    };
    let database = "contract_signals_nodes";
    let first = crate::support::postgres::fresh_store(&url, database).await?;
    let second = crate::support::postgres::same_database(&url, database).await?;
    let mut heard = second.signals().context("signals")?.subscribe();
    // the second node may not listen yet: say it again until it hears
    let mut got = None;
    for _ in 0..50 {
        first.signals().context("signals")?.signal(&[id(7)], News::Friends);
        if let Ok(Ok(signal)) = tokio::time::timeout(Duration::from_millis(200), heard.recv()).await {
            got = Some(signal);
            break;
        }
    }
    ensure!(
        got == Some(Signal::Account(id(7), News::Friends)),
        "the other node heard {got:?}"
    );

    // every listening connection of the database cut: each node listens again and says so
    let (client, connection) = tokio_postgres::connect(&url, tokio_postgres::NoTls).await?;
    let driver = tokio::spawn(connection);
    let cut = client
        .execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
             WHERE datname = $1 AND application_name = 'evr-signals'",
            &[&database],
        )
        .await?;
    ensure!(cut >= 2, "{cut} listening connections were cut, two expected");
    let everyone = loop {
        match tokio::time::timeout(PATIENCE, heard.recv()).await {
            Ok(Ok(Signal::Everyone)) => break true,
            Ok(Ok(_)) => continue,
            _ => break false,
        }
    };
    ensure!(everyone, "no `Everyone` after the listening connection was cut");
    // and it hears again (a late copy of the first signal may come before)
    first.signals().context("signals")?.signal(&[id(8)], News::Challenges);
    let again = loop {
        match next_account_signal(&mut heard).await? {
            Signal::Account(a, _) if a == id(7) => continue,
            other => break other,
        }
    };
    ensure!(
        again == Signal::Account(id(8), News::Challenges),
        "after the cut: {again:?}"
    );
    drop(client);
    let _ = driver.await;
    first.close();
    second.close();
    Ok(())
}
