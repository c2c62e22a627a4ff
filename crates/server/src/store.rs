//! Durable storage: rooms, seats (token hashes), games (seeds) and every accepted action.
//!
//! The action log plus the seed rebuild any match after a restart. The embedded default is SQLite
//! in WAL mode with one writer thread: writes queued while a transaction commits are committed
//! together in the next one (group commit), and every writer waits for its commit before the room
//! acknowledges or broadcasts anything.

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::thread::JoinHandle;

use rusqlite::{Connection, OptionalExtension, params};
use rusqlite_migration::{M, Migrations};
use tokio::sync::oneshot;

/// A storage failure. The room treats it as "nothing happened" and tells the client.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("migration: {0}")]
    Migration(#[from] rusqlite_migration::Error),
    #[error("data directory {0}: {1}")]
    DataDir(PathBuf, std::io::Error),
    #[error("the store is shut down")]
    Closed,
    #[error("stored data is invalid: {0}")]
    Corrupt(String),
}

/// One change to persist.
#[derive(Clone, Debug)]
pub enum WriteOp {
    CreateRoom {
        code: String,
        options: String,
        invite_hash: Vec<u8>,
        creator_hash: Vec<u8>,
        created_at: i64,
    },
    SetGuest {
        code: String,
        guest_hash: Vec<u8>,
    },
    /// A game starts; `creator_faction` is "rebel" or "imperial".
    StartGame {
        code: String,
        game_no: u32,
        seed: i64,
        creator_faction: String,
        seq: u32,
    },
    /// An accepted action of game `game_no`, the room's update `seq`.
    AppendAction {
        code: String,
        game_no: u32,
        seq: u32,
        seat: String,
        action: String,
        action_id: String,
    },
    /// A game ended outside the rules (a claimed win); `result` is JSON.
    EndGame {
        code: String,
        game_no: u32,
        result: String,
    },
}

/// Where writes go. SQLite is the implementation; a server-grade database can follow.
pub trait Store: Send + Sync + 'static {
    /// Queues a write; the receiver resolves once it is committed.
    fn submit(&self, op: WriteOp) -> oneshot::Receiver<Result<(), StoreError>>;
}

/// A room as stored, with its current game and that game's actions, for recovery.
#[derive(Clone, Debug)]
pub struct StoredRoom {
    pub code: String,
    pub options: String,
    pub invite_hash: Vec<u8>,
    pub creator_hash: Vec<u8>,
    pub guest_hash: Option<Vec<u8>>,
    /// The room's latest game (`None` only if the data is damaged: a room is stored with its first).
    pub game: Option<StoredGame>,
}

#[derive(Clone, Debug)]
pub struct StoredGame {
    pub game_no: u32,
    pub seed: i64,
    pub creator_faction: String,
    pub start_seq: u32,
    pub result: Option<String>,
    pub actions: Vec<StoredAction>,
}

#[derive(Clone, Debug)]
pub struct StoredAction {
    pub seq: u32,
    pub seat: String,
    pub action: String,
    pub action_id: String,
}

const SCHEMA: &str = "
CREATE TABLE rooms (
    code TEXT PRIMARY KEY,
    options TEXT NOT NULL,
    invite_hash BLOB NOT NULL,
    creator_hash BLOB NOT NULL,
    guest_hash BLOB,
    created_at INTEGER NOT NULL
);
CREATE TABLE games (
    room_code TEXT NOT NULL REFERENCES rooms(code),
    game_no INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    creator_faction TEXT NOT NULL,
    start_seq INTEGER NOT NULL,
    result TEXT,
    PRIMARY KEY (room_code, game_no)
);
CREATE TABLE actions (
    room_code TEXT NOT NULL,
    game_no INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    seat TEXT NOT NULL,
    action TEXT NOT NULL,
    action_id TEXT NOT NULL,
    PRIMARY KEY (room_code, seq),
    FOREIGN KEY (room_code, game_no) REFERENCES games(room_code, game_no)
);
";

fn migrations() -> Migrations<'static> {
    Migrations::new(vec![M::up(SCHEMA)])
}

fn open(path: &Path) -> Result<Connection, StoreError> {
    let mut conn = Connection::open(path)?;
    conn.pragma_update(None, "journal_mode", "WAL")?;
    // NORMAL in WAL mode: a commit survives a crash of this process (the test kills it with -9);
    // surviving a power cut as well would need FULL.
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    conn.busy_timeout(std::time::Duration::from_secs(5))?;
    migrations().to_latest(&mut conn)?;
    Ok(conn)
}

enum Job {
    Write(WriteOp, oneshot::Sender<Result<(), StoreError>>),
}

/// SQLite with one writer thread, and one connection for loading rooms (WAL lets it read while the
/// writer commits).
pub struct SqliteStore {
    jobs: std::sync::Mutex<Option<mpsc::Sender<Job>>>,
    writer: std::sync::Mutex<Option<JoinHandle<()>>>,
    reader: std::sync::Mutex<Connection>,
}

/// The most writes committed in one transaction.
const MAX_BATCH: usize = 512;

impl SqliteStore {
    /// Opens (creating if needed) `data_dir/evr.sqlite3`, runs migrations and starts the writer
    /// thread. Rooms are loaded one at a time, when they are first needed (`load_room`).
    pub fn open(data_dir: &Path) -> Result<SqliteStore, StoreError> {
        std::fs::create_dir_all(data_dir).map_err(|e| StoreError::DataDir(data_dir.to_path_buf(), e))?;
        let path = data_dir.join("evr.sqlite3");
        let conn = open(&path)?;
        let reader = open(&path)?;
        let (tx, rx) = mpsc::channel();
        let writer = std::thread::Builder::new()
            .name("evr-store-writer".into())
            .spawn(move || writer_loop(conn, rx))
            .map_err(|e| StoreError::DataDir(path, e))?;
        Ok(SqliteStore {
            jobs: std::sync::Mutex::new(Some(tx)),
            writer: std::sync::Mutex::new(Some(writer)),
            reader: std::sync::Mutex::new(reader),
        })
    }

    /// Room `code` with its current game and that game's actions, as committed; `None` if there is
    /// no such room. Blocking: call it off the async threads.
    pub fn load_room(&self, code: &str) -> Result<Option<StoredRoom>, StoreError> {
        let conn = self.reader.lock().map_err(|_| StoreError::Closed)?;
        load_room(&conn, code)
    }

    /// Stops taking writes, commits what is queued and waits for the writer thread.
    pub fn close(&self) {
        if let Ok(mut jobs) = self.jobs.lock() {
            jobs.take();
        }
        let handle = self.writer.lock().ok().and_then(|mut w| w.take());
        if let Some(h) = handle {
            let _ = h.join();
        }
    }
}

impl Store for SqliteStore {
    fn submit(&self, op: WriteOp) -> oneshot::Receiver<Result<(), StoreError>> {
        let (tx, rx) = oneshot::channel();
        let sent = match self.jobs.lock() {
            Ok(jobs) => match jobs.as_ref() {
                Some(j) => j
                    .send(Job::Write(op, tx))
                    .map_err(|mpsc::SendError(Job::Write(_, tx))| tx),
                None => Err(tx),
            },
            Err(_) => Err(tx),
        };
        if let Err(tx) = sent {
            let _ = tx.send(Err(StoreError::Closed));
        }
        rx
    }
}

impl Drop for SqliteStore {
    fn drop(&mut self) {
        self.close();
    }
}

fn writer_loop(mut conn: Connection, rx: mpsc::Receiver<Job>) {
    while let Ok(first) = rx.recv() {
        let mut batch = vec![first];
        while batch.len() < MAX_BATCH {
            match rx.try_recv() {
                Ok(job) => batch.push(job),
                Err(_) => break,
            }
        }
        let result = commit_batch(&mut conn, &batch);
        for Job::Write(_, reply) in batch {
            let r = match &result {
                Ok(()) => Ok(()),
                Err(e) => Err(StoreError::Corrupt(e.to_string())),
            };
            let _ = reply.send(r);
        }
    }
}

fn commit_batch(conn: &mut Connection, batch: &[Job]) -> Result<(), rusqlite::Error> {
    let tx = conn.transaction()?;
    for Job::Write(op, _) in batch {
        apply(&tx, op)?;
    }
    tx.commit()
}

fn apply(conn: &Connection, op: &WriteOp) -> Result<(), rusqlite::Error> {
    match op {
        WriteOp::CreateRoom {
            code,
            options,
            invite_hash,
            creator_hash,
            created_at,
        } => conn.execute(
            "INSERT INTO rooms (code, options, invite_hash, creator_hash, created_at) VALUES (?1, ?2, ?3, ?4, ?5)",
            params![code, options, invite_hash, creator_hash, created_at],
        ),
        WriteOp::SetGuest { code, guest_hash } => conn.execute(
            "UPDATE rooms SET guest_hash = ?2 WHERE code = ?1",
            params![code, guest_hash],
        ),
        WriteOp::StartGame {
            code,
            game_no,
            seed,
            creator_faction,
            seq,
        } => conn.execute(
            "INSERT INTO games (room_code, game_no, seed, creator_faction, start_seq) VALUES (?1, ?2, ?3, ?4, ?5)",
            params![code, game_no, seed, creator_faction, seq],
        ),
        WriteOp::AppendAction {
            code,
            game_no,
            seq,
            seat,
            action,
            action_id,
        } => conn.execute(
            "INSERT INTO actions (room_code, game_no, seq, seat, action, action_id) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![code, game_no, seq, seat, action, action_id],
        ),
        WriteOp::EndGame { code, game_no, result } => conn.execute(
            "UPDATE games SET result = ?3 WHERE room_code = ?1 AND game_no = ?2",
            params![code, game_no, result],
        ),
    }
    .map(|_| ())
}

fn load_room(conn: &Connection, code: &str) -> Result<Option<StoredRoom>, StoreError> {
    let room = conn
        .query_row(
            "SELECT code, options, invite_hash, creator_hash, guest_hash FROM rooms WHERE code = ?1",
            [code],
            |r| {
                Ok(StoredRoom {
                    code: r.get(0)?,
                    options: r.get(1)?,
                    invite_hash: r.get(2)?,
                    creator_hash: r.get(3)?,
                    guest_hash: r.get(4)?,
                    game: None,
                })
            },
        )
        .optional()?;
    let Some(mut room) = room else { return Ok(None) };
    // Only the current game matters: a rematch starts from its own seed.
    let game = conn
        .query_row(
            "SELECT game_no, seed, creator_faction, start_seq, result FROM games WHERE room_code = ?1
             ORDER BY game_no DESC LIMIT 1",
            [code],
            |r| {
                Ok(StoredGame {
                    game_no: r.get(0)?,
                    seed: r.get(1)?,
                    creator_faction: r.get(2)?,
                    start_seq: r.get(3)?,
                    result: r.get(4)?,
                    actions: Vec::new(),
                })
            },
        )
        .optional()?;
    if let Some(mut game) = game {
        let mut actions = conn.prepare_cached(
            "SELECT seq, seat, action, action_id FROM actions WHERE room_code = ?1 AND game_no = ?2 ORDER BY seq",
        )?;
        let rows = actions.query_map(params![code, game.game_no], |r| {
            Ok(StoredAction {
                seq: r.get(0)?,
                seat: r.get(1)?,
                action: r.get(2)?,
                action_id: r.get(3)?,
            })
        })?;
        for a in rows {
            game.actions.push(a?);
        }
        room.game = Some(game);
    }
    Ok(Some(room))
}

/// Whether a room exists (used by tests).
pub fn room_exists(data_dir: &Path, code: &str) -> Result<bool, StoreError> {
    let conn = open(&data_dir.join("evr.sqlite3"))?;
    Ok(conn
        .query_row("SELECT 1 FROM rooms WHERE code = ?1", [code], |_| Ok(()))
        .optional()?
        .is_some())
}
