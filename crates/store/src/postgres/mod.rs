//! The shared store: PostgreSQL, for several server nodes serving one site (`--store
//! postgres://…`). The same contract as SQLite (`tests/server/store_contract.rs` runs against
//! both): a write is answered only once committed, a write made under an old claim on its room is
//! fenced, rooms load back from their action log.
//!
//! The store runs its connections on a runtime of its own (one thread): the rooms' runtime only
//! queues writes and awaits answers, and the blocking loads can be called from any thread. One
//! connection writes: it takes every write queued since its last commit and commits them in one
//! transaction, the statements pipelined (sent together, answered together) — the same group
//! commit as SQLite's, for the same reason (`postgres/writes.rs`). Another connection reads
//! (`postgres/reads.rs`). A database that stops answering (a network cut) fails reads, commits and
//! connection attempts after [`PATIENCE`] instead of hanging the rooms, and the connection is made
//! again. TLS, with libpq's `sslmode` and `sslrootcert`, is `postgres/tls.rs`'s.

use std::sync::{Arc, Mutex, RwLock};

use tokio::sync::{mpsc, oneshot};
use tokio_postgres::Client;

use self::reads::{load_game, load_room};
use self::tls::Target;
use self::writes::{Job, write_loop};
use crate::{Epoch, Store, StoreError, StoredDeadlines, StoredGame, StoredRoom, Write, WriteOp};

mod accounts;
mod deadlines;
mod friends;
pub(crate) mod mail;
mod ratings;
mod reads;
mod schema;
mod signals;
mod tls;
mod writes;

/// How long a connection attempt, a read or a commit may take before it counts as failed: a
/// database that stopped answering (a network cut, not a refusal) must not hang the rooms.
pub(super) const PATIENCE: std::time::Duration = std::time::Duration::from_secs(5);

/// A PostgreSQL error as a person needs to read it: the server's own message when it sent one
/// ("password authentication failed for user …"), else the client's with its cause ("error
/// connecting to server: Connection refused").
pub(super) fn describe(e: &tokio_postgres::Error) -> String {
    if let Some(db) = e.as_db_error() {
        return format!("{} ({})", db.message(), db.code().code());
    }
    match std::error::Error::source(e) {
        Some(cause) => format!("{e}: {cause}"),
        None => e.to_string(),
    }
}

fn read_error(e: tokio_postgres::Error) -> StoreError {
    StoreError::Read(describe(&e))
}

/// Where the server connects and how, without the password (for messages).
fn whereabouts(target: &Target) -> String {
    let config = &target.config;
    let hosts: Vec<String> = config
        .get_hosts()
        .iter()
        .map(|h| match h {
            tokio_postgres::config::Host::Tcp(name) => name.clone(),
            tokio_postgres::config::Host::Unix(path) => path.display().to_string(),
        })
        .collect();
    let port = config.get_ports().first().copied().unwrap_or(5432);
    format!(
        "PostgreSQL at {}:{port} (database {:?}, user {:?}; {})",
        hosts.join(","),
        config.get_dbname().unwrap_or("(default)"),
        config.get_user().unwrap_or("(default)"),
        target.describe_tls()
    )
}

/// Opens a connection (with TLS as the URL's `sslmode` asks); its driving task runs on the current
/// (the store's) runtime.
pub(super) async fn connect(target: &Target) -> Result<Client, tokio_postgres::Error> {
    let (client, connection) = target.config.connect(target.tls.clone()).await?;
    tokio::spawn(async move {
        if let Err(e) = connection.await {
            tracing::warn!(error = %describe(&e), "a PostgreSQL connection ended");
        }
    });
    Ok(client)
}

/// PostgreSQL with a writing connection (group commit) and a reading one, on the store's own
/// runtime.
pub struct PostgresStore {
    runtime: Mutex<Option<tokio::runtime::Runtime>>,
    handle: tokio::runtime::Handle,
    target: Target,
    jobs: mpsc::UnboundedSender<Job>,
    /// `None` after a read went unanswered: connected again at the next read.
    reader: RwLock<Option<Arc<Client>>>,
    /// The connection of the accounts' transactions (`postgres/accounts.rs`), made when first
    /// needed; `None` after it was lost.
    transactions: Arc<tokio::sync::Mutex<Option<Client>>>,
    /// `NOTIFY` and `LISTEN` between the nodes (`postgres/signals.rs`).
    signals: signals::PgSignals,
}

impl PostgresStore {
    /// Connects to `url` (`postgres://user:password@host:port/database`, with libpq's `sslmode`
    /// and `sslrootcert` if wanted), brings the schema to this server's version and starts the
    /// writer. Fails with a message naming the database and the TLS mode (not the password) when
    /// it cannot be reached, fails a TLS check, refuses the login, or holds a newer schema.
    pub fn open(url: &str) -> Result<PostgresStore, StoreError> {
        let mut target = Target::parse(url)?;
        if target.config.get_connect_timeout().is_none() {
            target.config.connect_timeout(PATIENCE);
        }
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name("evr-postgres")
            .enable_all()
            .build()
            .map_err(|e| StoreError::Open(format!("the store's thread: {e}")))?;
        let handle = runtime.handle().clone();
        let where_ = whereabouts(&target);
        let opened = on(&handle, {
            let target = target.clone();
            async move {
                let cannot = |e: tokio_postgres::Error| {
                    let hint = tls::hint(&e).map(|h| format!(" ({h})")).unwrap_or_default();
                    StoreError::Open(format!("cannot use {where_}: {}{hint}", describe(&e)))
                };
                let mut writer = tokio::time::timeout(std::time::Duration::from_secs(10), connect(&target))
                    .await
                    .map_err(|_| StoreError::Open(format!("cannot use {where_}: no answer in 10 s")))?
                    .map_err(cannot)?;
                schema::migrate(&mut writer).await?;
                let reader = connect(&target).await.map_err(cannot)?;
                let encrypted = encrypted(&reader).await;
                tracing::info!(encrypted, "connected to {where_}");
                Ok::<_, StoreError>((writer, reader))
            }
        });
        let (writer, reader) = match opened {
            Ok(Ok(clients)) => clients,
            Ok(Err(e)) | Err(e) => {
                // dropping a runtime blocks, which a runtime's thread (the caller's) must not
                runtime.shutdown_background();
                return Err(e);
            }
        };
        let (jobs, queued) = mpsc::unbounded_channel();
        handle.spawn(write_loop(writer, target.clone(), queued));
        let signals = signals::PgSignals::start(&handle, target.clone());
        Ok(PostgresStore {
            runtime: Mutex::new(Some(runtime)),
            handle,
            target,
            jobs,
            reader: RwLock::new(Some(Arc::new(reader))),
            transactions: Arc::new(tokio::sync::Mutex::new(None)),
            signals,
        })
    }

    /// The reading connection, connected again if it was lost (a database restart).
    fn reader(&self) -> Result<Arc<Client>, StoreError> {
        let current = self.reader.read().map_err(|_| StoreError::Closed)?.clone();
        if let Some(client) = current.filter(|c| !c.is_closed()) {
            return Ok(client);
        }
        let target = self.target.clone();
        let fresh = on(&self.handle, async move {
            tokio::time::timeout(PATIENCE, connect(&target)).await
        })?
        .map_err(|_| StoreError::Read(format!("no answer in {} s", PATIENCE.as_secs())))?
        .map_err(read_error)?;
        let fresh = Arc::new(fresh);
        if let Ok(mut slot) = self.reader.write() {
            *slot = Some(fresh.clone());
        }
        Ok(fresh)
    }

    /// Runs `query` with the reading connection on the store's runtime and waits for it.
    fn read<T: Send + 'static, F>(&self, query: impl FnOnce(Arc<Client>) -> F) -> Result<T, StoreError>
    where
        F: Future<Output = Result<T, StoreError>> + Send + 'static,
    {
        let client = self.reader()?;
        let query = query(client);
        let answer = on(&self.handle, async move { tokio::time::timeout(PATIENCE, query).await })?;
        answer.unwrap_or_else(|_| {
            // a connection that stopped answering is given up: the next read connects again
            if let Ok(mut slot) = self.reader.write() {
                *slot = None;
            }
            Err(StoreError::Read(format!("no answer in {} s", PATIENCE.as_secs())))
        })
    }
}

/// Whether the server says this connection is encrypted (`prefer` decides only when connecting),
/// for the log: "yes", "no", or "unknown" on a server without `pg_stat_ssl`.
async fn encrypted(client: &Client) -> &'static str {
    let asked = client.query_opt("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()", &[]);
    match tokio::time::timeout(PATIENCE, asked).await {
        Ok(Ok(Some(row))) => match row.try_get::<_, bool>(0) {
            Ok(true) => "yes",
            Ok(false) => "no",
            Err(_) => "unknown",
        },
        _ => "unknown",
    }
}

/// Runs `fut` on the store's runtime and waits for it, from any thread (also a runtime's: the
/// caller's thread only blocks, it never drives the future).
fn on<T: Send + 'static>(
    handle: &tokio::runtime::Handle,
    fut: impl Future<Output = T> + Send + 'static,
) -> Result<T, StoreError> {
    let (tx, rx) = std::sync::mpsc::channel();
    handle.spawn(async move {
        let _ = tx.send(fut.await);
    });
    rx.recv().map_err(|_| StoreError::Closed)
}

impl Store for PostgresStore {
    fn submit(&self, epoch: Epoch, op: WriteOp) -> oneshot::Receiver<Result<(), StoreError>> {
        let (reply, answer) = oneshot::channel();
        if let Err(mpsc::error::SendError(Job::Write(_, reply))) =
            self.jobs.send(Job::Write(Write { epoch, op }, reply))
        {
            let _ = reply.send(Err(StoreError::Closed));
        }
        answer
    }

    fn claim_room(&self, code: &str) -> Result<Option<StoredRoom>, StoreError> {
        let code = code.to_string();
        self.read(move |c| async move {
            // committed before the room is read: a write under the old claim either committed
            // before this (and is read below) or waits for it and is then fenced (`FOR SHARE`)
            let claimed = c
                .query_opt(
                    "UPDATE rooms SET owner_epoch = owner_epoch + 1 WHERE code = $1 RETURNING owner_epoch",
                    &[&code],
                )
                .await
                .map_err(|e| StoreError::Write(describe(&e)))?;
            if claimed.is_none() {
                return Ok(None);
            }
            load_room(&c, &code).await
        })
    }

    fn epochs(&self, codes: &[String]) -> Result<Vec<(String, Epoch)>, StoreError> {
        let codes = codes.to_vec();
        self.read(move |c| async move {
            let rows = c
                .query("SELECT code, owner_epoch FROM rooms WHERE code = ANY($1)", &[&codes])
                .await
                .map_err(read_error)?;
            rows.iter()
                .map(|r| Ok((r.try_get::<_, String>(0)?, r.try_get::<_, i64>(1)? as Epoch)))
                .collect::<Result<Vec<_>, tokio_postgres::Error>>()
                .map_err(read_error)
        })
    }

    fn is_shared(&self) -> bool {
        true
    }

    fn due_rooms(&self, now_ms: i64, limit: usize) -> Result<Vec<String>, StoreError> {
        self.read(move |c| async move { deadlines::due_rooms(&c, now_ms, limit).await })
    }

    fn load_deadlines(&self, code: &str, game_no: u32) -> Result<StoredDeadlines, StoreError> {
        let code = code.to_string();
        self.read(move |c| async move { deadlines::load_deadlines(&c, &code, game_no).await })
    }

    fn mail(&self) -> Option<&dyn crate::MailStore> {
        Some(self)
    }

    fn accounts(&self) -> Option<&dyn crate::AccountStore> {
        Some(self)
    }

    fn friends(&self) -> Option<&dyn crate::FriendStore> {
        Some(self)
    }

    fn ratings(&self) -> Option<&dyn crate::RatingStore> {
        Some(self)
    }

    fn signals(&self) -> Option<&dyn crate::AccountSignals> {
        Some(&self.signals)
    }

    fn load_room(&self, code: &str) -> Result<Option<StoredRoom>, StoreError> {
        let code = code.to_string();
        self.read(move |c| async move { load_room(&c, &code).await })
    }

    fn load_game(&self, code: &str, game_no: u32) -> Result<Option<StoredGame>, StoreError> {
        let code = code.to_string();
        self.read(move |c| async move { load_game(&c, &code, Some(game_no)).await })
    }

    fn game_numbers(&self, code: &str) -> Result<Vec<u32>, StoreError> {
        let code = code.to_string();
        self.read(move |c| async move {
            let rows = c
                .query(
                    "SELECT game_no FROM games WHERE room_code = $1 ORDER BY game_no",
                    &[&code],
                )
                .await
                .map_err(read_error)?;
            rows.iter()
                .map(|r| r.try_get::<_, i64>(0).map(|n| n as u32))
                .collect::<Result<Vec<_>, _>>()
                .map_err(read_error)
        })
    }

    /// Stops taking writes and waits until what was queued is committed.
    fn close(&self) {
        let (done, wait) = std::sync::mpsc::channel();
        if self.jobs.send(Job::Close(done)).is_ok() {
            let _ = wait.recv_timeout(std::time::Duration::from_secs(10));
        }
    }
}

impl Drop for PostgresStore {
    fn drop(&mut self) {
        self.close();
        if let Some(runtime) = self.runtime.lock().ok().and_then(|mut r| r.take()) {
            // may run on another runtime's thread, where a runtime must not block to stop
            runtime.shutdown_background();
        }
    }
}
