//! [`MailStore`] on SQLite (a child module of `sqlite/mod.rs`, for its connections): writes on the
//! writing connection between two group commits, reads on the reading one.

use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};

use super::SqliteStore;
use crate::mail::{
    KEEP_AFTER_GAME_OVER_MS, LIMIT_WINDOW_MS, MailLimits, MailLink, MailStore, NewAddress, Purged, Registered,
    StoredAddress,
};
use crate::{StoreError, StoredSeat};

/// The schema version that adds the mail tables (`sqlite/schema.rs`). Addresses are keyed by the
/// seat (creator or guest), not the side: sides swap at each rematch.
pub(crate) const MAIL_SCHEMA: &str = "
CREATE TABLE mail_addresses (
    room_code TEXT NOT NULL REFERENCES rooms(code),
    seat TEXT NOT NULL,
    email TEXT NOT NULL,
    email_key BLOB NOT NULL,
    language TEXT NOT NULL,
    confirm_hash BLOB NOT NULL UNIQUE,
    confirm_expires_at INTEGER NOT NULL,
    confirmed_at INTEGER,
    over_since INTEGER,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (room_code, seat)
);
CREATE TABLE mail_unsubscribe (
    secret_hash BLOB PRIMARY KEY,
    room_code TEXT NOT NULL,
    seat TEXT NOT NULL
);
CREATE INDEX mail_unsubscribe_seat ON mail_unsubscribe (room_code, seat);
CREATE TABLE mail_confirmations (
    email_key BLOB NOT NULL,
    room_code TEXT NOT NULL,
    at INTEGER NOT NULL
);
CREATE INDEX mail_confirmations_key ON mail_confirmations (email_key, at);
CREATE INDEX mail_confirmations_room ON mail_confirmations (room_code, at);
";

const COLUMNS: &str = "room_code, seat, email, language, confirmed_at IS NOT NULL, confirm_expires_at";

fn read_error(e: rusqlite::Error) -> StoreError {
    StoreError::Read(e.to_string())
}

fn write_error(e: rusqlite::Error) -> StoreError {
    StoreError::Write(e.to_string())
}

fn address(r: &rusqlite::Row<'_>) -> rusqlite::Result<(String, String, String, String, bool, i64)> {
    Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?))
}

fn decode(row: (String, String, String, String, bool, i64)) -> Result<StoredAddress, StoreError> {
    let (code, seat, email, language, confirmed, confirm_expires_at) = row;
    Ok(StoredAddress {
        code,
        seat: StoredSeat::from_text(&seat)?,
        email,
        language,
        confirmed,
        confirm_expires_at,
    })
}

impl SqliteStore {
    /// Runs `f` on the writing connection (between two group commits).
    fn mail_write<T>(&self, f: impl FnOnce(&mut Connection) -> rusqlite::Result<T>) -> Result<T, StoreError> {
        self.writer.with_connection(f)?.map_err(write_error)
    }

    fn mail_read<T>(&self, f: impl FnOnce(&Connection) -> rusqlite::Result<T>) -> Result<T, StoreError> {
        let conn = self.reader.lock().map_err(|_| StoreError::Closed)?;
        f(&conn).map_err(read_error)
    }
}

fn register(conn: &mut Connection, new: &NewAddress, limits: MailLimits) -> rusqlite::Result<Registered> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let seat = new.seat.as_str();
    let current: Option<(Vec<u8>, bool)> = tx
        .query_row(
            "SELECT email_key, confirmed_at IS NOT NULL FROM mail_addresses WHERE room_code = ?1 AND seat = ?2",
            params![new.code, seat],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()?;
    if current.is_some_and(|(key, confirmed)| confirmed && key == new.email_key) {
        tx.execute(
            "UPDATE mail_addresses SET language = ?3 WHERE room_code = ?1 AND seat = ?2",
            params![new.code, seat, new.language],
        )?;
        tx.commit()?;
        return Ok(Registered::AlreadyConfirmed);
    }
    let since = new.now_ms - LIMIT_WINDOW_MS;
    let to_address: u32 = tx.query_row(
        "SELECT COUNT(*) FROM mail_confirmations WHERE email_key = ?1 AND at > ?2",
        params![new.email_key, since],
        |r| r.get(0),
    )?;
    if to_address >= limits.per_address {
        return Ok(Registered::AddressLimit);
    }
    let others: u32 = tx.query_row(
        "SELECT COUNT(DISTINCT email_key) FROM mail_confirmations WHERE room_code = ?1 AND at > ?2 AND email_key <> ?3",
        params![new.code, since, new.email_key],
        |r| r.get(0),
    )?;
    if others >= limits.addresses_per_room {
        return Ok(Registered::RoomLimit);
    }
    // the links of a replaced address must not unsubscribe the new one
    tx.execute(
        "DELETE FROM mail_unsubscribe WHERE room_code = ?1 AND seat = ?2",
        params![new.code, seat],
    )?;
    tx.execute(
        "INSERT INTO mail_addresses (room_code, seat, email, email_key, language, confirm_hash, confirm_expires_at,
                                     confirmed_at, over_since, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, NULL, NULL, ?8)
         ON CONFLICT (room_code, seat) DO UPDATE SET email = excluded.email, email_key = excluded.email_key,
             language = excluded.language, confirm_hash = excluded.confirm_hash,
             confirm_expires_at = excluded.confirm_expires_at, confirmed_at = NULL, over_since = NULL,
             created_at = excluded.created_at",
        params![
            new.code,
            seat,
            new.email,
            new.email_key,
            new.language,
            new.confirm_hash,
            new.confirm_expires_at,
            new.now_ms
        ],
    )?;
    tx.execute(
        "INSERT INTO mail_unsubscribe (secret_hash, room_code, seat) VALUES (?1, ?2, ?3)",
        params![new.unsubscribe_hash, new.code, seat],
    )?;
    tx.execute(
        "INSERT INTO mail_confirmations (email_key, room_code, at) VALUES (?1, ?2, ?3)",
        params![new.email_key, new.code, new.now_ms],
    )?;
    tx.commit()?;
    Ok(Registered::ConfirmationDue)
}

impl MailStore for SqliteStore {
    fn register_address(&self, new: &NewAddress, limits: MailLimits) -> Result<Registered, StoreError> {
        self.mail_write(|conn| register(conn, new, limits))
    }

    fn seat_address(&self, code: &str, seat: StoredSeat) -> Result<Option<StoredAddress>, StoreError> {
        let sql = format!("SELECT {COLUMNS} FROM mail_addresses WHERE room_code = ?1 AND seat = ?2");
        let row = self.mail_read(|c| c.query_row(&sql, params![code, seat.as_str()], address).optional())?;
        row.map(decode).transpose()
    }

    fn address_by_link(&self, link: MailLink, secret_hash: &[u8]) -> Result<Option<StoredAddress>, StoreError> {
        let sql = match link {
            MailLink::Confirm => format!("SELECT {COLUMNS} FROM mail_addresses WHERE confirm_hash = ?1"),
            MailLink::Unsubscribe => format!(
                "SELECT {COLUMNS} FROM mail_addresses a WHERE EXISTS (SELECT 1 FROM mail_unsubscribe u
                 WHERE u.secret_hash = ?1 AND u.room_code = a.room_code AND u.seat = a.seat)"
            ),
        };
        let row = self.mail_read(|c| c.query_row(&sql, params![secret_hash], address).optional())?;
        row.map(decode).transpose()
    }

    fn confirm(&self, secret_hash: &[u8], now_ms: i64) -> Result<Option<StoredAddress>, StoreError> {
        let sql = format!(
            "UPDATE mail_addresses SET confirmed_at = COALESCE(confirmed_at, ?2)
             WHERE confirm_hash = ?1 AND (confirmed_at IS NOT NULL OR confirm_expires_at > ?2)
             RETURNING {COLUMNS}"
        );
        let row = self.mail_write(|c| c.query_row(&sql, params![secret_hash, now_ms], address).optional())?;
        row.map(decode).transpose()
    }

    fn add_unsubscribe(&self, code: &str, seat: StoredSeat, secret_hash: &[u8]) -> Result<(), StoreError> {
        self.mail_write(|c| {
            c.execute(
                "INSERT INTO mail_unsubscribe (secret_hash, room_code, seat) VALUES (?1, ?2, ?3)",
                params![secret_hash, code, seat.as_str()],
            )
        })
        .map(|_| ())
    }

    fn unsubscribe(&self, secret_hash: &[u8]) -> Result<Option<StoredAddress>, StoreError> {
        let found = self.address_by_link(MailLink::Unsubscribe, secret_hash)?;
        if let Some(a) = &found {
            self.forget(&a.code, a.seat)?;
        }
        Ok(found)
    }

    fn forget(&self, code: &str, seat: StoredSeat) -> Result<bool, StoreError> {
        self.mail_write(|conn| {
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            tx.execute(
                "DELETE FROM mail_unsubscribe WHERE room_code = ?1 AND seat = ?2",
                params![code, seat.as_str()],
            )?;
            let n = tx.execute(
                "DELETE FROM mail_addresses WHERE room_code = ?1 AND seat = ?2",
                params![code, seat.as_str()],
            )?;
            tx.commit()?;
            Ok(n > 0)
        })
    }

    fn rooms_with_addresses(&self) -> Result<Vec<(String, Option<i64>)>, StoreError> {
        self.mail_read(|c| {
            let mut stmt = c.prepare("SELECT room_code, MIN(over_since) FROM mail_addresses GROUP BY room_code")?;
            let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
            rows.collect()
        })
    }

    fn set_over(&self, code: &str, over: bool, now_ms: i64) -> Result<(), StoreError> {
        self.mail_write(|c| {
            if over {
                c.execute(
                    "UPDATE mail_addresses SET over_since = ?2 WHERE room_code = ?1 AND over_since IS NULL",
                    params![code, now_ms],
                )
            } else {
                c.execute(
                    "UPDATE mail_addresses SET over_since = NULL WHERE room_code = ?1",
                    params![code],
                )
            }
        })
        .map(|_| ())
    }

    fn purge(&self, now_ms: i64) -> Result<Purged, StoreError> {
        self.mail_write(|conn| {
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let after_game = tx.execute(
                "DELETE FROM mail_addresses WHERE over_since IS NOT NULL AND over_since <= ?1",
                params![now_ms - KEEP_AFTER_GAME_OVER_MS],
            )?;
            let unconfirmed = tx.execute(
                "DELETE FROM mail_addresses WHERE confirmed_at IS NULL AND confirm_expires_at <= ?1",
                params![now_ms],
            )?;
            tx.execute(
                "DELETE FROM mail_unsubscribe WHERE NOT EXISTS (SELECT 1 FROM mail_addresses a
                 WHERE a.room_code = mail_unsubscribe.room_code AND a.seat = mail_unsubscribe.seat)",
                [],
            )?;
            tx.execute(
                "DELETE FROM mail_confirmations WHERE at <= ?1",
                params![now_ms - LIMIT_WINDOW_MS],
            )?;
            tx.commit()?;
            Ok(Purged {
                after_game: after_game as u64,
                unconfirmed: unconfirmed as u64,
            })
        })
    }
}
