//! The shared store: PostgreSQL, for several server nodes serving one site (`--store
//! postgres://…`). The same contract as SQLite (`tests/server/store_contract.rs` runs against
//! both): a write is answered only once committed, a write made under an old claim on its room is
//! fenced, rooms load back from their action log.
//!
//! The store runs its connections on a runtime of its own (one thread): the rooms' runtime only
//! queues writes and awaits answers, and the blocking loads can be called from any thread. One
//! connection writes: it takes every write queued since its last commit and commits them in one
//! transaction, the statements pipelined (sent together, answered together) — the same group
//! commit as SQLite's, for the same reason. Another connection reads.

use std::sync::{Arc, Mutex, RwLock};

use evr_rules::Faction;
use futures_util::future::join_all;
use tokio::sync::{mpsc, oneshot};
use tokio_postgres::types::ToSql;
use tokio_postgres::{Client, NoTls, Row, Statement};

use super::columns::{faction_from_text, faction_text, from_json, json, secret_columns, secret_from_columns};
use super::group_commit::outcome;
use super::postgres_schema;
use super::{Epoch, GameResult, Store, StoreError, StoredAction, StoredGame, StoredRoom, Write, WriteOp};
use crate::chat::{self, StoredChat};

/// The most writes committed in one transaction.
const MAX_BATCH: usize = 512;

type Reply = oneshot::Sender<Result<(), StoreError>>;

/// What the writing task is sent.
enum Job {
    Write(Write, Reply),
    /// Commit what is queued, then stop and say so.
    Close(std::sync::mpsc::Sender<()>),
}

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

fn write_error(e: &tokio_postgres::Error) -> StoreError {
    StoreError::Write(describe(e))
}

fn read_error(e: tokio_postgres::Error) -> StoreError {
    StoreError::Read(describe(&e))
}

/// Where the server connects, without the password (for messages).
fn target(config: &tokio_postgres::Config) -> String {
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
        "PostgreSQL at {}:{port} (database {:?}, user {:?})",
        hosts.join(","),
        config.get_dbname().unwrap_or("(default)"),
        config.get_user().unwrap_or("(default)")
    )
}

/// Opens a connection; its driving task runs on the current (the store's) runtime.
async fn connect(config: &tokio_postgres::Config) -> Result<Client, tokio_postgres::Error> {
    let (client, connection) = config.connect(NoTls).await?;
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
    config: tokio_postgres::Config,
    jobs: mpsc::UnboundedSender<Job>,
    reader: RwLock<Arc<Client>>,
}

impl PostgresStore {
    /// Connects to `url` (`postgres://user:password@host:port/database`), brings the schema to
    /// this server's version and starts the writer. Fails with a message naming the database (not
    /// the password) when it cannot be reached, refuses the login, or holds a newer schema.
    pub fn open(url: &str) -> Result<PostgresStore, StoreError> {
        let config: tokio_postgres::Config = url
            .parse()
            .map_err(|e: tokio_postgres::Error| StoreError::Open(format!("--store is not a PostgreSQL URL: {e}")))?;
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name("evr-postgres")
            .enable_all()
            .build()
            .map_err(|e| StoreError::Open(format!("the store's thread: {e}")))?;
        let handle = runtime.handle().clone();
        let where_ = target(&config);
        let opened = on(&handle, {
            let config = config.clone();
            async move {
                let cannot =
                    |e: tokio_postgres::Error| StoreError::Open(format!("cannot use {where_}: {}", describe(&e)));
                let mut writer = tokio::time::timeout(std::time::Duration::from_secs(10), connect(&config))
                    .await
                    .map_err(|_| StoreError::Open(format!("cannot use {where_}: no answer in 10 s")))?
                    .map_err(cannot)?;
                postgres_schema::migrate(&mut writer).await?;
                let reader = connect(&config).await.map_err(cannot)?;
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
        handle.spawn(write_loop(writer, config.clone(), queued));
        Ok(PostgresStore {
            runtime: Mutex::new(Some(runtime)),
            handle,
            config,
            jobs,
            reader: RwLock::new(Arc::new(reader)),
        })
    }

    /// The reading connection, connected again if it was lost (a database restart).
    fn reader(&self) -> Result<Arc<Client>, StoreError> {
        let current = self.reader.read().map_err(|_| StoreError::Closed)?.clone();
        if !current.is_closed() {
            return Ok(current);
        }
        let config = self.config.clone();
        let fresh = Arc::new(on(&self.handle, async move { connect(&config).await })?.map_err(read_error)?);
        if let Ok(mut slot) = self.reader.write() {
            *slot = fresh.clone();
        }
        Ok(fresh)
    }

    /// Runs `query` with the reading connection on the store's runtime and waits for it.
    fn read<T: Send + 'static, F>(&self, query: impl FnOnce(Arc<Client>) -> F) -> Result<T, StoreError>
    where
        F: Future<Output = Result<T, StoreError>> + Send + 'static,
    {
        let client = self.reader()?;
        on(&self.handle, query(client))?
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

/// The prepared statements of the writing connection.
struct Statements {
    create_room: Statement,
    set_guest: Statement,
    start_game: Statement,
    append_action: Statement,
    reveal_rebel: Statement,
    reveal_imperial: Statement,
    chat: Statement,
    end_game: Statement,
}

/// The claim check every write but a room's creation makes, in its own statement: the room's row
/// is read `FOR SHARE`, so a claim (which updates that row) waits for this transaction, and a
/// write that comes after a claim sees it.
const OWNED: &str = "EXISTS (SELECT 1 FROM rooms WHERE code = $1 AND owner_epoch = $EPOCH FOR SHARE)";

async fn prepare(c: &Client) -> Result<Statements, tokio_postgres::Error> {
    let owned = |n: u32| OWNED.replace("$EPOCH", &format!("${n}"));
    Ok(Statements {
        create_room: c
            .prepare(
                "INSERT INTO rooms (code, options, invite_hash, creator_hash, created_at, owner_epoch)
                 VALUES ($1, $2, $3, $4, $5, $6)",
            )
            .await?,
        set_guest: c
            .prepare("UPDATE rooms SET guest_hash = $2 WHERE code = $1 AND owner_epoch = $3")
            .await?,
        start_game: c
            .prepare(&format!(
                "INSERT INTO games (room_code, game_no, seed, seed_key, seed_salt, creator_faction, start_seq, started_at)
                 SELECT $1, $2, $3, $4, $5, $6, $7, $8 WHERE {} ON CONFLICT DO NOTHING",
                owned(9)
            ))
            .await?,
        append_action: c
            .prepare(&format!(
                "INSERT INTO actions (room_code, game_no, seq, seat, action, action_id, clock_ms)
                 SELECT $1, $2, $3, $4, $5, $6, $7 WHERE {} ON CONFLICT DO NOTHING",
                owned(8)
            ))
            .await?,
        reveal_rebel: c
            .prepare(&format!(
                "UPDATE games SET reveal_rebel = TRUE WHERE room_code = $1 AND game_no = $2 AND {}",
                owned(3)
            ))
            .await?,
        reveal_imperial: c
            .prepare(&format!(
                "UPDATE games SET reveal_imperial = TRUE WHERE room_code = $1 AND game_no = $2 AND {}",
                owned(3)
            ))
            .await?,
        chat: c
            .prepare(&format!(
                "INSERT INTO chat (room_code, id, game_no, at, channel, author, body)
                 SELECT $1, $2, $3, $4, $5, $6, $7 WHERE {} ON CONFLICT DO NOTHING",
                owned(8)
            ))
            .await?,
        end_game: c
            .prepare(&format!(
                "UPDATE games SET result = $3 WHERE room_code = $1 AND game_no = $2 AND {}",
                owned(4)
            ))
            .await?,
    })
}

/// A statement's parameters, owned.
type Params = Vec<Box<dyn ToSql + Sync + Send>>;

/// The statement and parameters of one write.
fn statement<'a>(s: &'a Statements, w: &Write) -> Result<(&'a Statement, Params), StoreError> {
    let epoch = w.epoch as i64;
    let unwritable = |e: serde_json::Error| StoreError::Write(format!("cannot encode: {e}"));
    Ok(match &w.op {
        WriteOp::CreateRoom {
            code,
            options,
            invite_hash,
            creator_hash,
            created_at,
        } => (
            &s.create_room,
            vec![
                Box::new(code.clone()),
                Box::new(json(options).map_err(unwritable)?),
                Box::new(invite_hash.clone()),
                Box::new(creator_hash.clone()),
                Box::new(*created_at),
                Box::new(epoch),
            ],
        ),
        WriteOp::SetGuest { code, guest_hash } => (
            &s.set_guest,
            vec![Box::new(code.clone()), Box::new(guest_hash.clone()), Box::new(epoch)],
        ),
        WriteOp::StartGame {
            code,
            game_no,
            secret,
            creator_faction,
            seq,
            started_at,
        } => {
            let (seed, key, salt) = secret_columns(secret);
            (
                &s.start_game,
                vec![
                    Box::new(code.clone()),
                    Box::new(i64::from(*game_no)),
                    Box::new(seed),
                    Box::new(key),
                    Box::new(salt),
                    Box::new(faction_text(*creator_faction).to_string()),
                    Box::new(i64::from(*seq)),
                    Box::new(*started_at),
                    Box::new(epoch),
                ],
            )
        }
        WriteOp::AppendAction {
            code,
            game_no,
            seq,
            seat,
            action,
            action_id,
            clock_ms,
        } => (
            &s.append_action,
            vec![
                Box::new(code.clone()),
                Box::new(i64::from(*game_no)),
                Box::new(i64::from(*seq)),
                Box::new(faction_text(*seat).to_string()),
                Box::new(json(action).map_err(unwritable)?),
                Box::new(action_id.clone()),
                Box::new(clock_ms.map(|c| json(&c)).transpose().map_err(unwritable)?),
                Box::new(epoch),
            ],
        ),
        WriteOp::AgreeToReveal { code, game_no, faction } => (
            match faction {
                Faction::Rebel => &s.reveal_rebel,
                Faction::Imperial => &s.reveal_imperial,
            },
            vec![Box::new(code.clone()), Box::new(i64::from(*game_no)), Box::new(epoch)],
        ),
        WriteOp::Chat { code, chat } => {
            let m = &chat.message;
            (
                &s.chat,
                vec![
                    Box::new(code.clone()),
                    Box::new(m.id as i64),
                    Box::new(i64::from(chat.game_no)),
                    Box::new(m.at),
                    Box::new(json(&m.channel).map_err(unwritable)?),
                    Box::new(json(&m.from).map_err(unwritable)?),
                    Box::new(json(&m.body).map_err(unwritable)?),
                    Box::new(epoch),
                ],
            )
        }
        WriteOp::EndGame { code, game_no, result } => (
            &s.end_game,
            vec![
                Box::new(code.clone()),
                Box::new(i64::from(*game_no)),
                Box::new(json(result).map_err(unwritable)?),
                Box::new(epoch),
            ],
        ),
    })
}

/// Runs `writes` on `c` (in its transaction, if one is open), pipelined: rows written per write.
async fn run_writes(
    c: &tokio_postgres::Transaction<'_>,
    s: &Statements,
    writes: &[Write],
) -> Result<Vec<u64>, StoreError> {
    let prepared = writes.iter().map(|w| statement(s, w)).collect::<Result<Vec<_>, _>>()?;
    let runs = prepared.iter().map(|(stmt, params)| {
        let params: Vec<&(dyn ToSql + Sync)> = params.iter().map(|p| p.as_ref() as &(dyn ToSql + Sync)).collect();
        async move { c.execute(*stmt, &params).await }
    });
    join_all(runs)
        .await
        .into_iter()
        .map(|r| r.map_err(|e| write_error(&e)))
        .collect()
}

/// Commits `writes` in one transaction: for each, rows written.
async fn commit(client: &mut Client, s: &Statements, writes: &[Write]) -> Result<Vec<u64>, StoreError> {
    let tx = client.transaction().await.map_err(|e| write_error(&e))?;
    let rows = run_writes(&tx, s, writes).await?;
    tx.commit().await.map_err(|e| write_error(&e))?;
    Ok(rows)
}

/// The writing connection, connected again (and its statements prepared) when lost.
struct Writer {
    client: Client,
    statements: Statements,
}

async fn writer(config: &tokio_postgres::Config) -> Result<Writer, StoreError> {
    let client = connect(config).await.map_err(|e| write_error(&e))?;
    let statements = prepare(&client).await.map_err(|e| write_error(&e))?;
    Ok(Writer { client, statements })
}

/// The group commit: every write queued while the previous batch committed joins the next one.
/// A batch that fails is committed write by write, so that only the failing write is refused.
async fn write_loop(client: Client, config: tokio_postgres::Config, mut jobs: mpsc::UnboundedReceiver<Job>) {
    let mut conn = match prepare(&client).await {
        Ok(statements) => Some(Writer { client, statements }),
        Err(e) => {
            tracing::error!(error = %describe(&e), "cannot prepare the store's statements");
            None
        }
    };
    // whoever asked to close, told once everything queued before is committed
    let mut closing = Vec::new();
    loop {
        // once closing, only what is already queued (more than one batch, maybe) is committed
        let next = if closing.is_empty() {
            jobs.recv().await
        } else {
            jobs.try_recv().ok()
        };
        let Some(first) = next else { break };
        let mut batch = Vec::new();
        let mut replies = Vec::new();
        let mut job = Some(first);
        while let Some(j) = job.take() {
            match j {
                Job::Write(w, reply) => {
                    batch.push(w);
                    replies.push(reply);
                }
                Job::Close(done) => {
                    jobs.close();
                    closing.push(done);
                }
            }
            if batch.len() < MAX_BATCH {
                job = jobs.try_recv().ok();
            }
        }
        if batch.is_empty() {
            continue;
        }
        if conn.as_ref().is_none_or(|w| w.client.is_closed()) {
            conn = writer(&config).await.ok();
        }
        let Some(w) = conn.as_mut() else {
            for reply in replies {
                let _ = reply.send(Err(StoreError::Write("the database cannot be reached".into())));
            }
            continue;
        };
        match commit(&mut w.client, &w.statements, &batch).await {
            Ok(rows) => {
                for (rows, reply) in rows.into_iter().zip(replies) {
                    let _ = reply.send(outcome(rows > 0));
                }
            }
            Err(e) if batch.len() == 1 => {
                for reply in replies {
                    let _ = reply.send(Err(StoreError::Write(e.to_string())));
                }
            }
            Err(_) => {
                for (write, reply) in batch.into_iter().zip(replies) {
                    let alone = commit(&mut w.client, &w.statements, std::slice::from_ref(&write)).await;
                    let _ = reply.send(alone.and_then(|rows| outcome(rows.first().is_some_and(|n| *n > 0))));
                }
            }
        }
    }
    for done in closing {
        let _ = done.send(());
    }
}

fn get<'a, T: tokio_postgres::types::FromSql<'a>>(row: &'a Row, i: usize) -> Result<T, StoreError> {
    row.try_get(i).map_err(read_error)
}

async fn load_room(c: &Client, code: &str) -> Result<Option<StoredRoom>, StoreError> {
    let Some(r) = c
        .query_opt(
            "SELECT code, options, invite_hash, creator_hash, guest_hash, owner_epoch FROM rooms WHERE code = $1",
            &[&code],
        )
        .await
        .map_err(read_error)?
    else {
        return Ok(None);
    };
    let code: String = get(&r, 0)?;
    let options: String = get(&r, 1)?;
    Ok(Some(StoredRoom {
        options: from_json(&options, || format!("room {code}: options"))?,
        invite_hash: get(&r, 2)?,
        creator_hash: get(&r, 3)?,
        guest_hash: get(&r, 4)?,
        epoch: get::<i64>(&r, 5)? as Epoch,
        // Only the current game matters: a rematch starts from its own seed.
        game: load_game(c, &code, None).await?,
        chat: load_chat(c, &code).await?,
        code,
    }))
}

/// Game `game_no` of room `code`, or its latest game (`None`), with its actions.
async fn load_game(c: &Client, code: &str, game_no: Option<u32>) -> Result<Option<StoredGame>, StoreError> {
    let wanted = game_no.map(i64::from);
    let Some(r) = c
        .query_opt(
            "SELECT game_no, seed, creator_faction, start_seq, result, seed_key, seed_salt, reveal_rebel,
                    reveal_imperial, started_at
             FROM games WHERE room_code = $1 AND ($2::BIGINT IS NULL OR game_no = $2) ORDER BY game_no DESC LIMIT 1",
            &[&code, &wanted],
        )
        .await
        .map_err(read_error)?
    else {
        return Ok(None);
    };
    let game_no = get::<i64>(&r, 0)? as u32;
    let result: Option<String> = get(&r, 4)?;
    Ok(Some(StoredGame {
        game_no,
        secret: secret_from_columns(get(&r, 1)?, get(&r, 5)?, get(&r, 6)?, || {
            format!("room {code} game {game_no}")
        })?,
        creator_faction: faction_from_text(&get::<String>(&r, 2)?)?,
        start_seq: get::<i64>(&r, 3)? as u32,
        result: result
            .map(|t| from_json::<GameResult>(&t, || format!("room {code} game {game_no}: result")))
            .transpose()?,
        reveal: evr_rules::ByFaction::new(get(&r, 7)?, get(&r, 8)?),
        started_at: get(&r, 9)?,
        actions: load_actions(c, code, game_no).await?,
    }))
}

async fn load_actions(c: &Client, code: &str, game_no: u32) -> Result<Vec<StoredAction>, StoreError> {
    let rows = c
        .query(
            "SELECT seq, seat, action, action_id, clock_ms FROM actions WHERE room_code = $1 AND game_no = $2 ORDER BY seq",
            &[&code, &i64::from(game_no)],
        )
        .await
        .map_err(read_error)?;
    rows.iter()
        .map(|r| {
            let seq = get::<i64>(r, 0)? as u32;
            let clock: Option<String> = get(r, 4)?;
            Ok(StoredAction {
                seq,
                seat: faction_from_text(&get::<String>(r, 1)?)?,
                action: from_json(&get::<String>(r, 2)?, || format!("room {code} seq {seq}: action"))?,
                action_id: get(r, 3)?,
                clock_ms: clock
                    .map(|t| from_json(&t, || format!("room {code} seq {seq}: clock")))
                    .transpose()?,
            })
        })
        .collect()
}

/// The room's latest `chat::KEPT` messages, oldest first.
async fn load_chat(c: &Client, code: &str) -> Result<Vec<StoredChat>, StoreError> {
    let rows = c
        .query(
            "SELECT id, game_no, at, channel, author, body FROM chat WHERE room_code = $1 ORDER BY id DESC LIMIT $2",
            &[&code, &(chat::KEPT as i64)],
        )
        .await
        .map_err(read_error)?;
    let mut out = rows
        .iter()
        .map(|r| {
            let id = get::<i64>(r, 0)?;
            let what = || format!("room {code} chat {id}");
            Ok(StoredChat {
                game_no: get::<i64>(r, 1)? as u32,
                message: evr_protocol::ChatMessage {
                    id: id as u64,
                    at: get(r, 2)?,
                    channel: from_json(&get::<String>(r, 3)?, what)?,
                    from: from_json(&get::<String>(r, 4)?, what)?,
                    body: from_json(&get::<String>(r, 5)?, what)?,
                },
            })
        })
        .collect::<Result<Vec<_>, StoreError>>()?;
    out.reverse();
    Ok(out)
}
