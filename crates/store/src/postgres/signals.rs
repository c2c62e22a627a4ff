//! The signals between nodes (`crate::signals`) on PostgreSQL: `NOTIFY` to say, `LISTEN` to hear.
//!
//! Each has a connection of its own on the store's runtime, apart from the writes and reads, so a
//! burst of signals never waits behind a commit. The listening connection is checked every
//! [`CHECK_EVERY`] (a network cut shows no error by itself) and made again after
//! [`RETRY_AFTER`] when lost; once it listens again it signals [`Signal::Everyone`], since what was
//! said meanwhile was not heard.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{broadcast, mpsc};
use tokio::time::timeout;
use tokio_postgres::{AsyncMessage, Client};

use super::tls::Target;
use super::{PATIENCE, connect, describe};
use crate::AccountId;
use crate::signals::{AccountSignals, CHANNEL, LocalSignals, News, Signal, from_payload, to_payload};

/// How often the listening connection is asked whether it still answers.
const CHECK_EVERY: Duration = Duration::from_secs(15);
/// The listening connection's `application_name`.
const APPLICATION_NAME: &str = "evr-signals";
/// The wait before a lost connection is made again, and the longest while attempts fail.
const RETRY_AFTER: Duration = Duration::from_secs(1);
const RETRY_AT_MOST: Duration = Duration::from_secs(30);

/// The signals of a node of a shared store.
pub(super) struct PgSignals {
    local: Arc<LocalSignals>,
    outgoing: mpsc::UnboundedSender<(AccountId, News)>,
}

impl PgSignals {
    /// Starts saying and listening on the runtime of `handle`.
    pub(super) fn start(handle: &tokio::runtime::Handle, target: Target) -> PgSignals {
        let local = Arc::new(LocalSignals::default());
        let (outgoing, queued) = mpsc::unbounded_channel();
        handle.spawn(say(target.clone(), queued));
        handle.spawn(listen(target, local.clone()));
        PgSignals { local, outgoing }
    }
}

impl AccountSignals for PgSignals {
    fn signal(&self, accounts: &[AccountId], news: News) {
        for account in accounts {
            if self.outgoing.send((*account, news)).is_err() {
                tracing::warn!("a signal was not sent: the store is closed");
                return;
            }
        }
    }

    fn subscribe(&self) -> broadcast::Receiver<Signal> {
        self.local.subscribe()
    }
}

/// Sends the queued signals, those queued together in one statement.
async fn say(target: Target, mut queued: mpsc::UnboundedReceiver<(AccountId, News)>) {
    let mut client: Option<Client> = None;
    while let Some((account, news)) = queued.recv().await {
        let mut payloads = vec![to_payload(&account, news)];
        while let Ok((account, news)) = queued.try_recv() {
            let payload = to_payload(&account, news);
            if !payloads.contains(&payload) {
                payloads.push(payload);
            }
        }
        if client.as_ref().is_none_or(Client::is_closed) {
            client = match timeout(PATIENCE, connect(&target)).await {
                Ok(Ok(c)) => Some(c),
                Ok(Err(e)) => {
                    tracing::warn!(error = %describe(&e), "signals not sent: no connection");
                    continue;
                }
                Err(_) => {
                    tracing::warn!("signals not sent: no connection in {} s", PATIENCE.as_secs());
                    continue;
                }
            };
        }
        let Some(c) = &client else { continue };
        let params: [&(dyn tokio_postgres::types::ToSql + Sync); 2] = [&CHANNEL, &payloads];
        let sent = c.execute("SELECT pg_notify($1, p) FROM unnest($2::text[]) AS p", &params);
        let failed = match timeout(PATIENCE, sent).await {
            Ok(Ok(_)) => None,
            Ok(Err(e)) => Some(describe(&e)),
            Err(_) => Some(format!("no answer in {} s", PATIENCE.as_secs())),
        };
        if let Some(error) = failed {
            tracing::warn!(%error, signals = payloads.len(), "signals not sent");
            client = None;
        }
    }
}

/// Listens for as long as the store runs, connecting again whenever the connection is lost: after
/// [`RETRY_AFTER`] when it had listened, the wait doubled while attempts fail (up to
/// [`RETRY_AT_MOST`]), so that a database down for long is neither asked nor logged about every second.
async fn listen(target: Target, local: Arc<LocalSignals>) {
    let mut listened_before = false;
    let mut wait = RETRY_AFTER;
    loop {
        let (ended, listened) = listen_once(&target, &local, &mut listened_before).await;
        wait = if listened {
            RETRY_AFTER
        } else {
            (wait * 2).min(RETRY_AT_MOST)
        };
        tracing::warn!(error = %ended, retry_in_ms = wait.as_millis() as u64, "the signals' connection was lost; connecting again");
        tokio::time::sleep(wait).await;
    }
}

/// One listening connection, until it fails: what it failed of, and whether it listened at all.
async fn listen_once(target: &Target, local: &LocalSignals, listened_before: &mut bool) -> (String, bool) {
    // named, so that an operator sees what it is (and a test can cut it)
    let mut config = target.config.clone();
    config.application_name(APPLICATION_NAME);
    let (client, mut connection) = match timeout(PATIENCE, config.connect(target.tls.clone())).await {
        Ok(Ok(made)) => made,
        Ok(Err(e)) => return (describe(&e), false),
        Err(_) => return (format!("no connection in {} s", PATIENCE.as_secs()), false),
    };
    // The connection is driven here; its notifications come out through `heard`.
    let (heard_tx, mut heard) = mpsc::unbounded_channel::<String>();
    let driver = tokio::spawn(async move {
        loop {
            match std::future::poll_fn(|cx| connection.poll_message(cx)).await {
                Some(Ok(AsyncMessage::Notification(n))) => {
                    if heard_tx.send(n.payload().to_string()).is_err() {
                        return;
                    }
                }
                Some(Ok(_)) => {}
                Some(Err(e)) => {
                    tracing::debug!(error = %describe(&e), "the signals' connection failed");
                    return;
                }
                None => return,
            }
        }
    });
    let mut listened = false;
    let failure = async {
        match timeout(PATIENCE, client.batch_execute(&format!("LISTEN {CHANNEL}"))).await {
            Ok(Ok(())) => {}
            Ok(Err(e)) => return describe(&e),
            Err(_) => return format!("LISTEN: no answer in {} s", PATIENCE.as_secs()),
        }
        listened = true;
        if *listened_before {
            local.deliver(Signal::Everyone);
        }
        *listened_before = true;
        let mut check = tokio::time::interval(CHECK_EVERY);
        check.tick().await;
        loop {
            tokio::select! {
                payload = heard.recv() => match payload {
                    Some(payload) => match from_payload(&payload) {
                        Some(signal) => local.deliver(signal),
                        None => tracing::warn!("a signal that names no account was ignored"),
                    },
                    None => return "the connection ended".to_string(),
                },
                _ = check.tick() => match timeout(PATIENCE, client.simple_query("SELECT 1")).await {
                    Ok(Ok(_)) => {}
                    Ok(Err(e)) => return describe(&e),
                    Err(_) => return format!("no answer in {} s", PATIENCE.as_secs()),
                },
            }
        }
    }
    .await;
    driver.abort();
    (failure, listened)
}
