//! The embedded default store: SQLite in WAL mode, one writing connection whose writes are
//! committed in groups (`group_commit.rs`). Factions are stored
//! as `rebel`/`imperial`, options, actions and results as JSON: the format of every database
//! written so far, which must keep loading.

use std::path::Path;
use std::sync::Arc;

use evr_rules::Faction;
use rusqlite::{Connection, OptionalExtension, params};
use serde::Serialize;
use tokio::sync::oneshot;

use self::backup::{BackupError, BackupReport, SQLITE_FILE};
use self::checkpoint::{Checkpointer, WRITER_AUTOCHECKPOINT_PAGES};
use self::reads::{load_game, load_room};
use self::schema::open;
use crate::columns::{faction_text, json, secret_columns};
use crate::group_commit::GroupCommit;
use crate::{Epoch, Store, StoreError, StoredDeadlines, StoredGame, StoredRoom, StoredSeat, Write, WriteOp};

mod accounts;
pub(crate) mod backup;
mod checkpoint;
mod deadlines;
mod friends;
pub(crate) mod mail;
mod ratings;
mod reads;
mod schema;

fn to_json(value: &impl Serialize) -> Result<String, rusqlite::Error> {
    json(value).map_err(|e| rusqlite::Error::ToSqlConversionFailure(Box::new(e)))
}

fn read_error(e: rusqlite::Error) -> StoreError {
    StoreError::Read(e.to_string())
}

/// SQLite with one writing connection (group commit on the runtime's thread), one connection for
/// loading rooms (WAL lets it read while the writer commits) and a checkpointer thread
/// (`sqlite/checkpoint.rs`).
pub struct SqliteStore {
    writer: Arc<GroupCommit>,
    reader: std::sync::Mutex<Connection>,
    checkpointer: std::sync::Mutex<Checkpointer>,
    /// One node: its signals stay in memory.
    signals: crate::signals::LocalSignals,
}

impl SqliteStore {
    /// Opens (creating if needed) `data_dir/evr.sqlite3`, runs migrations and starts the
    /// checkpointer. Rooms are loaded one at a time, when they are first needed (`load_room`).
    pub fn open(data_dir: &Path) -> Result<SqliteStore, StoreError> {
        std::fs::create_dir_all(data_dir).map_err(|e| StoreError::DataDir(data_dir.to_path_buf(), e))?;
        let path = data_dir.join(SQLITE_FILE);
        let conn = open(&path)?;
        conn.pragma_update(None, "wal_autocheckpoint", WRITER_AUTOCHECKPOINT_PAGES)
            .map_err(|e| StoreError::Open(e.to_string()))?;
        let reader = open(&path)?;
        let checkpointer = Checkpointer::start(open(&path)?, &path)?;
        Ok(SqliteStore {
            writer: GroupCommit::new(conn, commit_batch),
            reader: std::sync::Mutex::new(reader),
            checkpointer: std::sync::Mutex::new(checkpointer),
            signals: crate::signals::LocalSignals::default(),
        })
    }

    /// Copies the database of `data_dir` to file `to` while a server may be serving from it: a
    /// consistent snapshot of everything committed before the copy began, checked with
    /// `PRAGMA integrity_check` before it takes its name (`sqlite/backup.rs`). Refuses an existing
    /// `to` unless `overwrite`. Blocking.
    pub fn backup(data_dir: &Path, to: &Path, overwrite: bool) -> Result<BackupReport, BackupError> {
        backup::backup(data_dir, to, overwrite)
    }

    /// Puts backup `from` into `data_dir` (which must hold no database yet) as its database, after
    /// checking it; [`SqliteStore::open`] on `data_dir` then serves from it. Blocking.
    pub fn restore(from: &Path, data_dir: &Path) -> Result<BackupReport, BackupError> {
        backup::restore(from, data_dir)
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

    fn due_rooms(&self, now_ms: i64, limit: usize) -> Result<Vec<String>, StoreError> {
        let conn = self.reader.lock().map_err(|_| StoreError::Closed)?;
        deadlines::due_rooms(&conn, now_ms, limit)
    }

    fn load_deadlines(&self, code: &str, game_no: u32) -> Result<StoredDeadlines, StoreError> {
        let conn = self.reader.lock().map_err(|_| StoreError::Closed)?;
        deadlines::load_deadlines(&conn, code, game_no)
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
            join_code_hash,
            creator_hash,
            creator_name,
            created_at,
        } => execute_cached(
            conn,
            "INSERT INTO rooms (code, options, invite_hash, join_code_hash, creator_hash, creator_name, created_at,
                                owner_epoch)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            params![
                code,
                to_json(options)?,
                invite_hash,
                join_code_hash,
                creator_hash,
                creator_name,
                created_at,
                epoch
            ],
        ),
        WriteOp::SetGuest {
            code,
            guest_hash,
            guest_name,
        } => execute_cached(
            conn,
            "UPDATE rooms SET guest_hash = ?2, guest_name = ?3 WHERE code = ?1 AND owner_epoch = ?4",
            params![code, guest_hash, guest_name, epoch],
        ),
        WriteOp::SetName { code, seat, name } => execute_cached(
            conn,
            match seat {
                StoredSeat::Creator => "UPDATE rooms SET creator_name = ?2 WHERE code = ?1 AND owner_epoch = ?3",
                StoredSeat::Guest => "UPDATE rooms SET guest_name = ?2 WHERE code = ?1 AND owner_epoch = ?3",
            },
            params![code, name, epoch],
        ),
        WriteOp::NewInvite {
            code,
            invite_hash,
            join_code_hash,
        } => execute_cached(
            conn,
            "UPDATE rooms SET invite_hash = ?2, join_code_hash = ?3, join_failures = 0
             WHERE code = ?1 AND owner_epoch = ?4",
            params![code, invite_hash, join_code_hash, epoch],
        ),
        WriteOp::WrongJoinCode { code } => execute_cached(
            conn,
            "UPDATE rooms SET join_failures = join_failures + 1 WHERE code = ?1 AND owner_epoch = ?2",
            params![code, epoch],
        ),
        WriteOp::IssueTransfer {
            code,
            seat,
            secret_hash,
            expires_at,
        } => execute_cached(
            conn,
            "INSERT INTO seat_transfers (room_code, seat, secret_hash, expires_at)
             SELECT ?1, ?2, ?3, ?4 WHERE EXISTS (SELECT 1 FROM rooms WHERE code = ?1 AND owner_epoch = ?5)
             ON CONFLICT (room_code, seat) DO UPDATE SET secret_hash = excluded.secret_hash,
                                                         expires_at = excluded.expires_at",
            params![code, seat.as_str(), secret_hash, expires_at, epoch],
        ),
        WriteOp::TakeSeat {
            code,
            seat,
            secret_hash,
            token_hash,
            added_at,
        } => {
            // the link is used up only under the claim, and only the link used up seats the device
            let used = execute_cached(
                conn,
                "DELETE FROM seat_transfers WHERE room_code = ?1 AND seat = ?2 AND secret_hash = ?3
                 AND EXISTS (SELECT 1 FROM rooms WHERE code = ?1 AND owner_epoch = ?4)",
                params![code, seat.as_str(), secret_hash, epoch],
            )?;
            if used == 0 {
                return Ok(false);
            }
            execute_cached(
                conn,
                "INSERT INTO seat_devices (room_code, seat, token_hash, added_at) VALUES (?1, ?2, ?3, ?4)",
                params![code, seat.as_str(), token_hash, added_at],
            )
        }
        WriteOp::AddDevice {
            code,
            seat,
            token_hash,
            added_at,
        } => execute_cached(
            conn,
            "INSERT INTO seat_devices (room_code, seat, token_hash, added_at)
             SELECT ?1, ?2, ?3, ?4 WHERE EXISTS (SELECT 1 FROM rooms WHERE code = ?1 AND owner_epoch = ?5)",
            params![code, seat.as_str(), token_hash, added_at, epoch],
        ),
        WriteOp::KeepOneDevice { code, seat, token_hash } => {
            let kept = execute_cached(
                conn,
                match seat {
                    StoredSeat::Creator => "UPDATE rooms SET creator_hash = ?2 WHERE code = ?1 AND owner_epoch = ?3",
                    StoredSeat::Guest => "UPDATE rooms SET guest_hash = ?2 WHERE code = ?1 AND owner_epoch = ?3",
                },
                params![code, token_hash, epoch],
            )?;
            if kept == 0 {
                return Ok(false);
            }
            // (in the batch's transaction: all three or none)
            execute_cached(
                conn,
                "DELETE FROM seat_devices WHERE room_code = ?1 AND seat = ?2",
                params![code, seat.as_str()],
            )?;
            execute_cached(
                conn,
                "DELETE FROM seat_transfers WHERE room_code = ?1 AND seat = ?2",
                params![code, seat.as_str()],
            )
            .map(|_| 1)
        }
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
            wake,
            rated,
        } => {
            let rows = execute_cached(
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
            )?;
            // the deadlines in the same transaction as the action they follow
            if let Some(wake) = wake
                && rows > 0
            {
                deadlines::set_wake(conn, code, wake, epoch)?;
            }
            // the rating in the same transaction as the action that ended the game
            if let Some(end) = rated
                && rows > 0
            {
                ratings::rate_in(conn, code, *game_no, end)?;
            }
            Ok(rows)
        }
        WriteOp::SetWake { code, wake } => deadlines::set_wake(conn, code, wake, epoch),
        WriteOp::Reminder {
            code,
            reminder,
            recorded_at,
            wake,
        } => deadlines::record_reminder(conn, code, reminder, *recorded_at, wake, epoch),
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
                "INSERT INTO chat (room_code, id, game_no, at, channel, author, body, author_name)
                 SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?9
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
                    epoch,
                    m.name
                ],
            )
        }
        WriteOp::EndGame {
            code,
            game_no,
            result,
            rated,
        } => {
            let rows = execute_cached(
                conn,
                "UPDATE games SET result = ?3 WHERE room_code = ?1 AND game_no = ?2 AND result IS NULL
                 AND EXISTS (SELECT 1 FROM rooms WHERE code = ?1 AND owner_epoch = ?4)",
                params![code, game_no, to_json(result)?, epoch],
            )?;
            if rows > 0 {
                deadlines::clear_wake(conn, code, epoch)?;
                if let Some(end) = rated {
                    ratings::rate_in(conn, code, *game_no, end)?;
                }
            }
            Ok(rows)
        }
    }
    .map(|rows| rows > 0)
}

#[cfg(test)]
mod tests;
