//! The embedded default store: SQLite in WAL mode, one writing connection whose writes are
//! committed in groups (`group_commit.rs`). Factions are stored
//! as `rebel`/`imperial`, options, actions and results as JSON: the format of every database
//! written so far, which must keep loading.

use std::path::Path;
use std::sync::Arc;

use evr_rules::{ByFaction, Faction};
use rusqlite::{Connection, OptionalExtension, params};
use rusqlite_migration::{M, Migrations};
use serde::Serialize;
use tokio::sync::oneshot;

use evr_protocol::ChatMessage;

use super::checkpoint::{Checkpointer, WRITER_AUTOCHECKPOINT_PAGES};
use super::columns::{faction_from_text, faction_text, from_json, json, secret_columns, secret_from_columns};
use super::group_commit::GroupCommit;
use super::{Epoch, GameResult, Store, StoreError, StoredAction, StoredGame, StoredRoom, Write, WriteOp};
use crate::chat::{self, StoredChat};

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

/// Version 2: provably fair shuffles. A game started from a 256-bit key stores the key and the
/// salt of its commitment (`seed` is then 0); games stored before keep their 64-bit `seed` and
/// NULL here.
const SEED_KEYS: &str = "
ALTER TABLE games ADD COLUMN seed_key BLOB;
ALTER TABLE games ADD COLUMN seed_salt BLOB;
";

/// Version 3: each player's agreement to reveal a finished game in its replay.
const REVEAL: &str = "
ALTER TABLE games ADD COLUMN reveal_rebel INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN reveal_imperial INTEGER NOT NULL DEFAULT 0;
";

/// Version 4: when each game started (for the room's archive).
const STARTED_AT: &str = "ALTER TABLE games ADD COLUMN started_at INTEGER;";

/// Version 5: the room's chat. `channel`, `author` and `body` are the protocol's JSON.
const CHAT: &str = "
CREATE TABLE chat (
    room_code TEXT NOT NULL REFERENCES rooms(code),
    id INTEGER NOT NULL,
    game_no INTEGER NOT NULL,
    at INTEGER NOT NULL,
    channel TEXT NOT NULL,
    author TEXT NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (room_code, id)
);
";

/// Version 6: with a clock, each side's time left after each action (`[rebel, imperial]` in
/// milliseconds, JSON), so a restart resumes the clocks where the last action left them.
const CLOCKS: &str = "ALTER TABLE actions ADD COLUMN clock_ms TEXT;";

/// Version 7: the room's ownership claim (`super::Epoch`); rooms stored before start unclaimed.
const OWNER_EPOCH: &str = "ALTER TABLE rooms ADD COLUMN owner_epoch INTEGER NOT NULL DEFAULT 0;";

fn migrations() -> Migrations<'static> {
    Migrations::new(vec![
        M::up(SCHEMA),
        M::up(SEED_KEYS),
        M::up(REVEAL),
        M::up(STARTED_AT),
        M::up(CHAT),
        M::up(CLOCKS),
        M::up(OWNER_EPOCH),
    ])
}

fn open(path: &Path) -> Result<Connection, StoreError> {
    let opening = |e: rusqlite::Error| StoreError::Open(format!("{}: {e}", path.display()));
    let mut conn = Connection::open(path).map_err(opening)?;
    conn.pragma_update(None, "journal_mode", "WAL").map_err(opening)?;
    // NORMAL in WAL mode: a commit survives a crash of this process (the test kills it with -9);
    // surviving a power cut as well would need FULL.
    conn.pragma_update(None, "synchronous", "NORMAL").map_err(opening)?;
    conn.pragma_update(None, "foreign_keys", "ON").map_err(opening)?;
    conn.busy_timeout(std::time::Duration::from_secs(5)).map_err(opening)?;
    migrations()
        .to_latest(&mut conn)
        .map_err(|e| StoreError::Open(format!("{}: migration: {e}", path.display())))?;
    Ok(conn)
}

fn to_json(value: &impl Serialize) -> Result<String, rusqlite::Error> {
    json(value).map_err(|e| rusqlite::Error::ToSqlConversionFailure(Box::new(e)))
}

fn read_error(e: rusqlite::Error) -> StoreError {
    StoreError::Read(e.to_string())
}

/// SQLite with one writing connection (group commit on the runtime's thread), one connection for
/// loading rooms (WAL lets it read while the writer commits) and a checkpointer thread
/// (`checkpoint.rs`).
pub struct SqliteStore {
    writer: Arc<GroupCommit>,
    reader: std::sync::Mutex<Connection>,
    checkpointer: std::sync::Mutex<Checkpointer>,
}

impl SqliteStore {
    /// Opens (creating if needed) `data_dir/evr.sqlite3`, runs migrations and starts the
    /// checkpointer. Rooms are loaded one at a time, when they are first needed (`load_room`).
    pub fn open(data_dir: &Path) -> Result<SqliteStore, StoreError> {
        std::fs::create_dir_all(data_dir).map_err(|e| StoreError::DataDir(data_dir.to_path_buf(), e))?;
        let path = data_dir.join("evr.sqlite3");
        let conn = open(&path)?;
        conn.pragma_update(None, "wal_autocheckpoint", WRITER_AUTOCHECKPOINT_PAGES)
            .map_err(|e| StoreError::Open(e.to_string()))?;
        let reader = open(&path)?;
        let checkpointer = Checkpointer::start(open(&path)?, &path)?;
        Ok(SqliteStore {
            writer: GroupCommit::new(conn, commit_batch),
            reader: std::sync::Mutex::new(reader),
            checkpointer: std::sync::Mutex::new(checkpointer),
        })
    }
}

impl Store for SqliteStore {
    fn load_room(&self, code: &str) -> Result<Option<StoredRoom>, StoreError> {
        let conn = self.reader.lock().map_err(|_| StoreError::Closed)?;
        load_room(&conn, code)
    }

    fn claim_room(&self, code: &str) -> Result<Option<StoredRoom>, StoreError> {
        // on the writing connection, between two group commits: on the reading one, the group
        // commit would meet SQLite's lock and sleep on the runtime's thread
        self.writer
            .with_connection(|conn| {
                conn.prepare_cached("UPDATE rooms SET owner_epoch = owner_epoch + 1 WHERE code = ?1")
                    .and_then(|mut stmt| stmt.execute([code]))
            })?
            .map_err(|e| StoreError::Write(e.to_string()))?;
        let conn = self.reader.lock().map_err(|_| StoreError::Closed)?;
        load_room(&conn, code)
    }

    fn epochs(&self, codes: &[String]) -> Result<Vec<(String, Epoch)>, StoreError> {
        let conn = self.reader.lock().map_err(|_| StoreError::Closed)?;
        let mut stmt = conn
            .prepare_cached("SELECT owner_epoch FROM rooms WHERE code = ?1")
            .map_err(read_error)?;
        let mut out = Vec::with_capacity(codes.len());
        for code in codes {
            if let Some(epoch) = stmt
                .query_row([code], |r| r.get::<_, i64>(0))
                .optional()
                .map_err(read_error)?
            {
                out.push((code.clone(), epoch as Epoch));
            }
        }
        Ok(out)
    }

    fn load_game(&self, code: &str, game_no: u32) -> Result<Option<StoredGame>, StoreError> {
        let conn = self.reader.lock().map_err(|_| StoreError::Closed)?;
        load_game(&conn, code, Some(game_no))
    }

    fn game_numbers(&self, code: &str) -> Result<Vec<u32>, StoreError> {
        let conn = self.reader.lock().map_err(|_| StoreError::Closed)?;
        let mut stmt = conn
            .prepare_cached("SELECT game_no FROM games WHERE room_code = ?1 ORDER BY game_no")
            .map_err(read_error)?;
        let rows = stmt.query_map([code], |r| r.get::<_, u32>(0)).map_err(read_error)?;
        rows.collect::<Result<Vec<u32>, _>>().map_err(read_error)
    }

    /// Stops taking writes, commits what is queued and runs a last checkpoint.
    fn close(&self) {
        self.writer.close();
        if let Ok(mut c) = self.checkpointer.lock() {
            c.stop();
        }
    }

    fn submit(&self, epoch: Epoch, op: WriteOp) -> oneshot::Receiver<Result<(), StoreError>> {
        self.writer.submit(epoch, op)
    }
}

impl Drop for SqliteStore {
    fn drop(&mut self) {
        self.close();
    }
}

/// One transaction for the whole batch. Every statement, `BEGIN` and `COMMIT` included, is a
/// cached prepared statement: parsing SQL again for each write cost as much as running it.
fn commit_batch(conn: &mut Connection, batch: &[Write]) -> Result<Vec<bool>, rusqlite::Error> {
    conn.prepare_cached("BEGIN")?.execute([])?;
    let applied = batch.iter().map(|w| apply(conn, w)).collect::<Result<Vec<bool>, _>>();
    match applied.and_then(|applied| conn.prepare_cached("COMMIT")?.execute([]).map(|_| applied)) {
        Ok(applied) => Ok(applied),
        Err(e) => {
            // the batch is all or nothing: undo what it wrote before the failure
            if !conn.is_autocommit() {
                let _ = conn.execute_batch("ROLLBACK");
            }
            Err(e)
        }
    }
}

fn execute_cached(conn: &Connection, sql: &str, params: impl rusqlite::Params) -> Result<usize, rusqlite::Error> {
    conn.prepare_cached(sql)?.execute(params)
}

/// Applies one write if its claim still holds; `false`: fenced (a newer claim, or its key is
/// already stored), nothing written. Every statement but a room's creation checks the room's
/// `owner_epoch` in the same statement.
fn apply(conn: &Connection, write: &Write) -> Result<bool, rusqlite::Error> {
    let epoch = write.epoch as i64;
    match &write.op {
        WriteOp::CreateRoom {
            code,
            options,
            invite_hash,
            creator_hash,
            created_at,
        } => execute_cached(
            conn,
            "INSERT INTO rooms (code, options, invite_hash, creator_hash, created_at, owner_epoch)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![code, to_json(options)?, invite_hash, creator_hash, created_at, epoch],
        ),
        WriteOp::SetGuest { code, guest_hash } => execute_cached(
            conn,
            "UPDATE rooms SET guest_hash = ?2 WHERE code = ?1 AND owner_epoch = ?3",
            params![code, guest_hash, epoch],
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
            execute_cached(
                conn,
                "INSERT INTO games (room_code, game_no, seed, seed_key, seed_salt, creator_faction, start_seq, started_at)
                 SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8
                 WHERE EXISTS (SELECT 1 FROM rooms WHERE code = ?1 AND owner_epoch = ?9)
                 ON CONFLICT DO NOTHING",
                params![code, game_no, seed, key, salt, faction_text(*creator_faction), seq, started_at, epoch],
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
        } => execute_cached(
            conn,
            "INSERT INTO actions (room_code, game_no, seq, seat, action, action_id, clock_ms)
             SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7
             WHERE EXISTS (SELECT 1 FROM rooms WHERE code = ?1 AND owner_epoch = ?8)
             ON CONFLICT DO NOTHING",
            params![
                code,
                game_no,
                seq,
                faction_text(*seat),
                to_json(action)?,
                action_id,
                clock_ms.map(|c| to_json(&c)).transpose()?,
                epoch
            ],
        ),
        WriteOp::AgreeToReveal { code, game_no, faction } => execute_cached(
            conn,
            match faction {
                Faction::Rebel => {
                    "UPDATE games SET reveal_rebel = 1 WHERE room_code = ?1 AND game_no = ?2
                     AND EXISTS (SELECT 1 FROM rooms WHERE code = ?1 AND owner_epoch = ?3)"
                }
                Faction::Imperial => {
                    "UPDATE games SET reveal_imperial = 1 WHERE room_code = ?1 AND game_no = ?2
                     AND EXISTS (SELECT 1 FROM rooms WHERE code = ?1 AND owner_epoch = ?3)"
                }
            },
            params![code, game_no, epoch],
        ),
        WriteOp::Chat { code, chat } => {
            let m = &chat.message;
            execute_cached(
                conn,
                "INSERT INTO chat (room_code, id, game_no, at, channel, author, body)
                 SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7
                 WHERE EXISTS (SELECT 1 FROM rooms WHERE code = ?1 AND owner_epoch = ?8)
                 ON CONFLICT DO NOTHING",
                params![
                    code,
                    m.id as i64,
                    chat.game_no,
                    m.at,
                    to_json(&m.channel)?,
                    to_json(&m.from)?,
                    to_json(&m.body)?,
                    epoch
                ],
            )
        }
        WriteOp::EndGame { code, game_no, result } => execute_cached(
            conn,
            "UPDATE games SET result = ?3 WHERE room_code = ?1 AND game_no = ?2
             AND EXISTS (SELECT 1 FROM rooms WHERE code = ?1 AND owner_epoch = ?4)",
            params![code, game_no, to_json(result)?, epoch],
        ),
    }
    .map(|rows| rows > 0)
}

/// Game `game_no` of room `code`, or its latest game (`None`), with its actions.
fn load_game(conn: &Connection, code: &str, game_no: Option<u32>) -> Result<Option<StoredGame>, StoreError> {
    let row = conn
        .query_row(
            "SELECT game_no, seed, creator_faction, start_seq, result, seed_key, seed_salt, reveal_rebel, reveal_imperial,
                    started_at
             FROM games WHERE room_code = ?1 AND (?2 IS NULL OR game_no = ?2) ORDER BY game_no DESC LIMIT 1",
            params![code, game_no],
            |r| {
                Ok((
                    (r.get::<_, u32>(0)?, r.get::<_, i64>(1)?, r.get::<_, String>(2)?, r.get::<_, u32>(3)?),
                    (r.get::<_, Option<String>>(4)?, r.get::<_, Option<Vec<u8>>>(5)?, r.get::<_, Option<Vec<u8>>>(6)?),
                    (r.get::<_, bool>(7)?, r.get::<_, bool>(8)?, r.get::<_, Option<i64>>(9)?),
                ))
            },
        )
        .optional()
        .map_err(read_error)?;
    let Some((
        (game_no, seed, creator_faction, start_seq),
        (result, key, salt),
        (reveal_rebel, reveal_imperial, started_at),
    )) = row
    else {
        return Ok(None);
    };
    Ok(Some(StoredGame {
        game_no,
        secret: secret_from_columns(seed, key, salt, || format!("room {code} game {game_no}"))?,
        creator_faction: faction_from_text(&creator_faction)?,
        start_seq,
        result: result
            .map(|r| from_json::<GameResult>(&r, || format!("room {code} game {game_no}: result")))
            .transpose()?,
        reveal: ByFaction::new(reveal_rebel, reveal_imperial),
        started_at,
        actions: load_actions(conn, code, game_no)?,
    }))
}

fn load_room(conn: &Connection, code: &str) -> Result<Option<StoredRoom>, StoreError> {
    let room = conn
        .query_row(
            "SELECT code, options, invite_hash, creator_hash, guest_hash, owner_epoch FROM rooms WHERE code = ?1",
            [code],
            |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, Vec<u8>>(2)?,
                    r.get::<_, Vec<u8>>(3)?,
                    r.get::<_, Option<Vec<u8>>>(4)?,
                    r.get::<_, i64>(5)?,
                ))
            },
        )
        .optional()
        .map_err(read_error)?;
    let Some((code, options, invite_hash, creator_hash, guest_hash, epoch)) = room else {
        return Ok(None);
    };
    let options = from_json(&options, || format!("room {code}: options"))?;
    // Only the current game matters: a rematch starts from its own seed.
    let game = load_game(conn, &code, None)?;
    let chat = load_chat(conn, &code)?;
    Ok(Some(StoredRoom {
        code,
        epoch: epoch as Epoch,
        options,
        invite_hash,
        creator_hash,
        guest_hash,
        game,
        chat,
    }))
}

/// The room's latest `chat::KEPT` messages, oldest first.
fn load_chat(conn: &Connection, code: &str) -> Result<Vec<StoredChat>, StoreError> {
    let mut stmt = conn
        .prepare_cached(
            "SELECT id, game_no, at, channel, author, body FROM chat WHERE room_code = ?1 ORDER BY id DESC LIMIT ?2",
        )
        .map_err(read_error)?;
    let rows = stmt
        .query_map(params![code, chat::KEPT as i64], |r| {
            Ok((
                (r.get::<_, i64>(0)?, r.get::<_, u32>(1)?, r.get::<_, i64>(2)?),
                (r.get::<_, String>(3)?, r.get::<_, String>(4)?, r.get::<_, String>(5)?),
            ))
        })
        .map_err(read_error)?;
    let mut out = Vec::new();
    for row in rows {
        let ((id, game_no, at), (channel, author, body)) = row.map_err(read_error)?;
        let what = || format!("room {code} chat {id}");
        out.push(StoredChat {
            game_no,
            message: ChatMessage {
                id: id as u64,
                at,
                channel: from_json(&channel, what)?,
                from: from_json(&author, what)?,
                body: from_json(&body, what)?,
            },
        });
    }
    out.reverse();
    Ok(out)
}

fn load_actions(conn: &Connection, code: &str, game_no: u32) -> Result<Vec<StoredAction>, StoreError> {
    let mut stmt = conn
        .prepare_cached(
            "SELECT seq, seat, action, action_id, clock_ms FROM actions WHERE room_code = ?1 AND game_no = ?2 ORDER BY seq",
        )
        .map_err(read_error)?;
    let rows = stmt
        .query_map(params![code, game_no], |r| {
            Ok((
                r.get::<_, u32>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, String>(3)?,
                r.get::<_, Option<String>>(4)?,
            ))
        })
        .map_err(read_error)?;
    let mut actions = Vec::new();
    for row in rows {
        let (seq, seat, action, action_id, clock_ms) = row.map_err(read_error)?;
        actions.push(StoredAction {
            seq,
            seat: faction_from_text(&seat)?,
            action: from_json(&action, || format!("room {code} seq {seq}: action"))?,
            action_id,
            clock_ms: clock_ms
                .map(|c| from_json(&c, || format!("room {code} seq {seq}: clock")))
                .transpose()?,
        });
    }
    Ok(actions)
}

#[cfg(test)]
#[path = "sqlite_tests.rs"]
mod tests;
