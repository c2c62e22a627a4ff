//! [`AccountStore`] on SQLite (a child module of `sqlite/mod.rs`, for its connections), as the mail
//! addresses are kept (`sqlite/mail.rs`): every write is one transaction on the writing connection
//! between two group commits, so that writes are one at a time (a secret is used once, a count
//! and its insert are atomic); reads on the reading connection.

use rusqlite::{Connection, OptionalExtension, Row, TransactionBehavior, params};

use super::SqliteStore;
use crate::accounts::{
    AccountCreated, AccountId, AccountSeat, AccountStore, MailAllowed, NewAccount, PasskeyRemoved, SeatKept,
    StoredAccount, StoredCeremony, StoredPasskey, StoredSession,
};
use crate::columns::account_id_from_column;
use crate::{StoreError, StoredSeat};

/// The schema version that adds the accounts (`sqlite/schema.rs`). A deleted account keeps its
/// row (its `username_key` stays taken) with its personal columns emptied; the seats it kept stay.
pub(crate) const ACCOUNTS_SCHEMA: &str = "
CREATE TABLE accounts (
    id BLOB PRIMARY KEY,
    username TEXT,
    username_key TEXT NOT NULL UNIQUE,
    created_at INTEGER NOT NULL,
    deleted_at INTEGER,
    email TEXT,
    email_confirmed INTEGER NOT NULL DEFAULT 0,
    email_confirm_hash BLOB UNIQUE,
    email_confirm_expires_at INTEGER
);
CREATE INDEX accounts_email ON accounts (email);
CREATE TABLE account_passkeys (
    credential_id BLOB PRIMARY KEY,
    account_id BLOB NOT NULL REFERENCES accounts(id),
    passkey TEXT NOT NULL,
    label TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    last_used_at INTEGER
);
CREATE INDEX account_passkeys_account ON account_passkeys (account_id);
CREATE TABLE account_sessions (
    id_hash BLOB PRIMARY KEY,
    account_id BLOB NOT NULL REFERENCES accounts(id),
    label TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    last_seen_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
);
CREATE INDEX account_sessions_account ON account_sessions (account_id);
CREATE TABLE account_ceremonies (
    id_hash BLOB PRIMARY KEY,
    kind TEXT NOT NULL,
    account_id BLOB,
    username TEXT,
    state TEXT NOT NULL,
    expires_at INTEGER NOT NULL
);
CREATE INDEX account_ceremonies_account ON account_ceremonies (account_id);
CREATE TABLE account_seats (
    room_code TEXT NOT NULL,
    seat TEXT NOT NULL,
    account_id BLOB NOT NULL REFERENCES accounts(id),
    added_at INTEGER NOT NULL,
    PRIMARY KEY (room_code, seat)
);
CREATE INDEX account_seats_account ON account_seats (account_id, added_at);
CREATE TABLE account_sign_in_links (
    secret_hash BLOB PRIMARY KEY,
    account_id BLOB NOT NULL REFERENCES accounts(id),
    expires_at INTEGER NOT NULL
);
CREATE INDEX account_sign_in_links_account ON account_sign_in_links (account_id);
CREATE TABLE account_sign_in_mails (
    email_key BLOB NOT NULL,
    sent_at INTEGER NOT NULL
);
CREATE INDEX account_sign_in_mails_key ON account_sign_in_mails (email_key, sent_at);
";

/// How long a sign-in mail is counted at most (`purge_accounts`).
const DAY_MS: i64 = 24 * 3_600_000;

const ACCOUNT: &str = "id, username, created_at, deleted_at, email, email_confirmed";
const PASSKEY: &str = "credential_id, account_id, passkey, label, created_at, last_used_at";
const SESSION: &str = "id_hash, account_id, label, created_at, last_seen_at, expires_at";
const CEREMONY: &str = "id_hash, kind, account_id, username, state, expires_at";

fn read_error(e: rusqlite::Error) -> StoreError {
    StoreError::Read(e.to_string())
}

fn write_error(e: rusqlite::Error) -> StoreError {
    StoreError::Write(e.to_string())
}

/// A row's account id, or the decoding error (as a rusqlite error, so that it travels out of a
/// query; turned back into [`StoreError::Corrupt`] by [`corrupt`]).
fn id_at(r: &Row<'_>, i: usize) -> rusqlite::Result<AccountId> {
    let bytes: Vec<u8> = r.get(i)?;
    account_id_from_column(&bytes).map_err(|e| {
        rusqlite::Error::FromSqlConversionFailure(i, rusqlite::types::Type::Blob, Box::new(Corrupt(e.to_string())))
    })
}

#[derive(Debug)]
struct Corrupt(String);

impl std::fmt::Display for Corrupt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Corrupt {}

/// A read's error: damage as [`StoreError::Corrupt`], the rest as `otherwise` makes it.
fn corrupt(otherwise: fn(rusqlite::Error) -> StoreError) -> impl Fn(rusqlite::Error) -> StoreError {
    move |e| match &e {
        rusqlite::Error::FromSqlConversionFailure(_, _, inner) if inner.is::<Corrupt>() => StoreError::Corrupt {
            what: inner.to_string(),
        },
        _ => otherwise(e),
    }
}

fn account_row(r: &Row<'_>) -> rusqlite::Result<StoredAccount> {
    Ok(StoredAccount {
        id: id_at(r, 0)?,
        username: r.get(1)?,
        created_at: r.get(2)?,
        deleted_at: r.get(3)?,
        email: r.get(4)?,
        email_confirmed: r.get(5)?,
    })
}

fn passkey_row(r: &Row<'_>) -> rusqlite::Result<StoredPasskey> {
    Ok(StoredPasskey {
        credential_id: r.get(0)?,
        account: id_at(r, 1)?,
        passkey: r.get(2)?,
        label: r.get(3)?,
        created_at: r.get(4)?,
        last_used_at: r.get(5)?,
    })
}

fn session_row(r: &Row<'_>) -> rusqlite::Result<StoredSession> {
    Ok(StoredSession {
        id_hash: r.get(0)?,
        account: id_at(r, 1)?,
        label: r.get(2)?,
        created_at: r.get(3)?,
        last_seen_at: r.get(4)?,
        expires_at: r.get(5)?,
    })
}

fn ceremony_row(r: &Row<'_>) -> rusqlite::Result<StoredCeremony> {
    let account: Option<Vec<u8>> = r.get(2)?;
    let account = match account {
        Some(_) => Some(id_at(r, 2)?),
        None => None,
    };
    Ok(StoredCeremony {
        id_hash: r.get(0)?,
        kind: r.get(1)?,
        account,
        username: r.get(3)?,
        state: r.get(4)?,
        expires_at: r.get(5)?,
    })
}

fn seat_row(r: &Row<'_>) -> rusqlite::Result<(String, String, i64)> {
    Ok((r.get(0)?, r.get(1)?, r.get(2)?))
}

fn decode_seat((code, seat, added_at): (String, String, i64)) -> Result<AccountSeat, StoreError> {
    Ok(AccountSeat {
        code,
        seat: StoredSeat::from_text(&seat)?,
        added_at,
    })
}

fn seats_of(conn: &Connection, account: &AccountId) -> rusqlite::Result<Vec<(String, String, i64)>> {
    let mut stmt = conn.prepare_cached(
        "SELECT room_code, seat, added_at FROM account_seats WHERE account_id = ?1
         ORDER BY added_at DESC, room_code DESC, seat DESC",
    )?;
    let rows = stmt.query_map(params![account.as_slice()], seat_row)?;
    rows.collect()
}

impl SqliteStore {
    /// Runs `f` in one immediate transaction on the writing connection (between two group
    /// commits), committed if it returns `Ok` and rolled back otherwise.
    fn account_write<T>(
        &self,
        f: impl FnOnce(&rusqlite::Transaction<'_>) -> rusqlite::Result<T>,
    ) -> Result<T, StoreError> {
        self.writer
            .with_connection(|conn| {
                let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
                let out = f(&tx)?;
                tx.commit()?;
                Ok(out)
            })?
            .map_err(corrupt(write_error))
    }

    fn account_read<T>(&self, f: impl FnOnce(&Connection) -> rusqlite::Result<T>) -> Result<T, StoreError> {
        let conn = self.reader.lock().map_err(|_| StoreError::Closed)?;
        f(&conn).map_err(corrupt(read_error))
    }

    fn account_where(&self, condition: &str, value: &dyn rusqlite::ToSql) -> Result<Option<StoredAccount>, StoreError> {
        let sql = format!("SELECT {ACCOUNT} FROM accounts WHERE {condition}");
        self.account_read(|c| c.prepare_cached(&sql)?.query_row([value], account_row).optional())
    }
}

impl AccountStore for SqliteStore {
    fn create_account(
        &self,
        account: &NewAccount,
        passkey: &StoredPasskey,
        session: &StoredSession,
    ) -> Result<AccountCreated, StoreError> {
        self.account_write(|tx| {
            let exists = |sql: &str, value: &dyn rusqlite::ToSql| -> rusqlite::Result<bool> {
                tx.prepare_cached(sql)?.exists([value])
            };
            if exists("SELECT 1 FROM accounts WHERE username_key = ?1", &account.username_key)? {
                return Ok(AccountCreated::UsernameTaken);
            }
            if exists(
                "SELECT 1 FROM account_passkeys WHERE credential_id = ?1",
                &passkey.credential_id,
            )? {
                return Ok(AccountCreated::PasskeyTaken);
            }
            let id = account.id.as_slice();
            tx.prepare_cached(
                "INSERT INTO accounts (id, username, username_key, created_at, email_confirmed)
                 VALUES (?1, ?2, ?3, ?4, 0)",
            )?
            .execute(params![id, account.username, account.username_key, account.created_at])?;
            insert_passkey(tx, id, passkey)?;
            insert_session(tx, id, session)?;
            Ok(AccountCreated::Created)
        })
    }

    fn account(&self, id: &AccountId) -> Result<Option<StoredAccount>, StoreError> {
        self.account_where("id = ?1", &id.as_slice())
    }

    fn account_by_username_key(&self, key: &str) -> Result<Option<StoredAccount>, StoreError> {
        self.account_where("username_key = ?1", &key)
    }

    fn account_by_email(&self, email: &str) -> Result<Option<StoredAccount>, StoreError> {
        // (two accounts may have confirmed one address: the oldest is the one)
        self.account_where(
            "email = ?1 AND email_confirmed = 1 AND deleted_at IS NULL ORDER BY created_at, id LIMIT 1",
            &email,
        )
    }

    fn add_passkey(&self, passkey: &StoredPasskey) -> Result<bool, StoreError> {
        self.account_write(|tx| {
            if tx
                .prepare_cached("SELECT 1 FROM account_passkeys WHERE credential_id = ?1")?
                .exists([&passkey.credential_id])?
            {
                return Ok(false);
            }
            insert_passkey(tx, passkey.account.as_slice(), passkey)?;
            Ok(true)
        })
    }

    fn passkey(&self, credential_id: &[u8]) -> Result<Option<StoredPasskey>, StoreError> {
        let sql = format!("SELECT {PASSKEY} FROM account_passkeys WHERE credential_id = ?1");
        self.account_read(|c| {
            c.prepare_cached(&sql)?
                .query_row([credential_id], passkey_row)
                .optional()
        })
    }

    fn passkeys(&self, account: &AccountId) -> Result<Vec<StoredPasskey>, StoreError> {
        let sql =
            format!("SELECT {PASSKEY} FROM account_passkeys WHERE account_id = ?1 ORDER BY created_at, credential_id");
        self.account_read(|c| {
            let mut stmt = c.prepare_cached(&sql)?;
            let rows = stmt.query_map([account.as_slice()], passkey_row)?;
            rows.collect()
        })
    }

    fn passkey_used(&self, credential_id: &[u8], passkey: &str, now_ms: i64) -> Result<(), StoreError> {
        self.account_write(|tx| {
            tx.prepare_cached("UPDATE account_passkeys SET passkey = ?2, last_used_at = ?3 WHERE credential_id = ?1")?
                .execute(params![credential_id, passkey, now_ms])
                .map(|_| ())
        })
    }

    fn remove_passkey(&self, account: &AccountId, credential_id: &[u8]) -> Result<PasskeyRemoved, StoreError> {
        self.account_write(|tx| {
            let id = account.as_slice();
            if !tx
                .prepare_cached("SELECT 1 FROM account_passkeys WHERE account_id = ?1 AND credential_id = ?2")?
                .exists(params![id, credential_id])?
            {
                return Ok(PasskeyRemoved::NoSuch);
            }
            let others: i64 = tx
                .prepare_cached("SELECT COUNT(*) FROM account_passkeys WHERE account_id = ?1 AND credential_id <> ?2")?
                .query_row(params![id, credential_id], |r| r.get(0))?;
            let confirmed = tx
                .prepare_cached("SELECT 1 FROM accounts WHERE id = ?1 AND email_confirmed = 1 AND email IS NOT NULL")?
                .exists([id])?;
            if others == 0 && !confirmed {
                return Ok(PasskeyRemoved::LastWay);
            }
            tx.prepare_cached("DELETE FROM account_passkeys WHERE account_id = ?1 AND credential_id = ?2")?
                .execute(params![id, credential_id])?;
            Ok(PasskeyRemoved::Removed)
        })
    }

    fn create_session(&self, session: &StoredSession) -> Result<(), StoreError> {
        self.account_write(|tx| insert_session(tx, session.account.as_slice(), session))
    }

    fn session(&self, id_hash: &[u8]) -> Result<Option<StoredSession>, StoreError> {
        let sql = format!("SELECT {SESSION} FROM account_sessions WHERE id_hash = ?1");
        self.account_read(|c| c.prepare_cached(&sql)?.query_row([id_hash], session_row).optional())
    }

    fn touch_session(&self, id_hash: &[u8], now_ms: i64) -> Result<(), StoreError> {
        self.account_write(|tx| {
            tx.prepare_cached("UPDATE account_sessions SET last_seen_at = MAX(last_seen_at, ?2) WHERE id_hash = ?1")?
                .execute(params![id_hash, now_ms])
                .map(|_| ())
        })
    }

    fn sessions(&self, account: &AccountId) -> Result<Vec<StoredSession>, StoreError> {
        let sql = format!(
            "SELECT {SESSION} FROM account_sessions WHERE account_id = ?1 ORDER BY created_at DESC, id_hash DESC"
        );
        self.account_read(|c| {
            let mut stmt = c.prepare_cached(&sql)?;
            let rows = stmt.query_map([account.as_slice()], session_row)?;
            rows.collect()
        })
    }

    fn delete_session(&self, account: &AccountId, id_hash: &[u8]) -> Result<bool, StoreError> {
        self.account_write(|tx| {
            tx.prepare_cached("DELETE FROM account_sessions WHERE account_id = ?1 AND id_hash = ?2")?
                .execute(params![account.as_slice(), id_hash])
                .map(|n| n > 0)
        })
    }

    fn delete_other_sessions(&self, account: &AccountId, keep: &[u8]) -> Result<u64, StoreError> {
        self.account_write(|tx| {
            tx.prepare_cached("DELETE FROM account_sessions WHERE account_id = ?1 AND id_hash <> ?2")?
                .execute(params![account.as_slice(), keep])
                .map(|n| n as u64)
        })
    }

    fn put_ceremony(&self, ceremony: &StoredCeremony) -> Result<(), StoreError> {
        self.account_write(|tx| {
            tx.prepare_cached(
                "INSERT INTO account_ceremonies (id_hash, kind, account_id, username, state, expires_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            )?
            .execute(params![
                ceremony.id_hash,
                ceremony.kind,
                ceremony.account.as_ref().map(|a| a.as_slice()),
                ceremony.username,
                ceremony.state,
                ceremony.expires_at
            ])
            .map(|_| ())
        })
    }

    fn take_ceremony(&self, id_hash: &[u8], now_ms: i64) -> Result<Option<StoredCeremony>, StoreError> {
        let sql = format!("DELETE FROM account_ceremonies WHERE id_hash = ?1 RETURNING {CEREMONY}");
        let taken = self.account_write(|tx| tx.prepare_cached(&sql)?.query_row([id_hash], ceremony_row).optional())?;
        Ok(taken.filter(|c| c.expires_at > now_ms))
    }

    fn keep_seat(
        &self,
        account: &AccountId,
        code: &str,
        seat: StoredSeat,
        now_ms: i64,
    ) -> Result<SeatKept, StoreError> {
        self.account_write(|tx| {
            let keeper: Option<AccountId> = tx
                .prepare_cached("SELECT account_id FROM account_seats WHERE room_code = ?1 AND seat = ?2")?
                .query_row(params![code, seat.as_str()], |r| id_at(r, 0))
                .optional()?;
            match keeper {
                Some(keeper) if keeper == *account => Ok(SeatKept::Already),
                Some(_) => Ok(SeatKept::OtherAccount),
                None => {
                    tx.prepare_cached(
                        "INSERT INTO account_seats (room_code, seat, account_id, added_at) VALUES (?1, ?2, ?3, ?4)",
                    )?
                    .execute(params![code, seat.as_str(), account.as_slice(), now_ms])?;
                    Ok(SeatKept::Kept)
                }
            }
        })
    }

    fn account_seats(&self, account: &AccountId) -> Result<Vec<AccountSeat>, StoreError> {
        let rows = self.account_read(|c| seats_of(c, account))?;
        rows.into_iter().map(decode_seat).collect()
    }

    fn seat_account(&self, code: &str, seat: StoredSeat) -> Result<Option<AccountId>, StoreError> {
        self.account_read(|c| {
            c.prepare_cached("SELECT account_id FROM account_seats WHERE room_code = ?1 AND seat = ?2")?
                .query_row(params![code, seat.as_str()], |r| id_at(r, 0))
                .optional()
        })
    }

    fn set_email(
        &self,
        account: &AccountId,
        email: &str,
        confirm_hash: &[u8],
        expires_at: i64,
    ) -> Result<(), StoreError> {
        self.account_write(|tx| {
            tx.prepare_cached(
                "UPDATE accounts SET email = ?2, email_confirmed = 0, email_confirm_hash = ?3,
                                     email_confirm_expires_at = ?4
                 WHERE id = ?1 AND deleted_at IS NULL",
            )?
            .execute(params![account.as_slice(), email, confirm_hash, expires_at])
            .map(|_| ())
        })
    }

    fn confirm_email(&self, confirm_hash: &[u8], now_ms: i64) -> Result<Option<AccountId>, StoreError> {
        self.account_write(|tx| {
            tx.prepare_cached(
                "UPDATE accounts SET email_confirmed = 1, email_confirm_hash = NULL, email_confirm_expires_at = NULL
                 WHERE email_confirm_hash = ?1 AND email_confirm_expires_at > ?2 AND deleted_at IS NULL
                 RETURNING id",
            )?
            .query_row(params![confirm_hash, now_ms], |r| id_at(r, 0))
            .optional()
        })
    }

    fn put_sign_in_link(&self, account: &AccountId, secret_hash: &[u8], expires_at: i64) -> Result<(), StoreError> {
        self.account_write(|tx| {
            tx.prepare_cached(
                "INSERT INTO account_sign_in_links (secret_hash, account_id, expires_at) VALUES (?1, ?2, ?3)",
            )?
            .execute(params![secret_hash, account.as_slice(), expires_at])
            .map(|_| ())
        })
    }

    fn use_sign_in_link(&self, secret_hash: &[u8], now_ms: i64) -> Result<Option<AccountId>, StoreError> {
        let used = self.account_write(|tx| {
            tx.prepare_cached(
                "DELETE FROM account_sign_in_links WHERE secret_hash = ?1 RETURNING account_id, expires_at",
            )?
            .query_row([secret_hash], |r| Ok((id_at(r, 0)?, r.get::<_, i64>(1)?)))
            .optional()
        })?;
        Ok(used.filter(|(_, expires_at)| *expires_at > now_ms).map(|(id, _)| id))
    }

    fn count_sign_in_mail(
        &self,
        email_key: &[u8],
        now_ms: i64,
        window_ms: i64,
        limit: u32,
    ) -> Result<MailAllowed, StoreError> {
        self.account_write(|tx| {
            let counted: i64 = tx
                .prepare_cached("SELECT COUNT(*) FROM account_sign_in_mails WHERE email_key = ?1 AND sent_at > ?2")?
                .query_row(params![email_key, now_ms - window_ms], |r| r.get(0))?;
            if counted >= i64::from(limit) {
                return Ok(MailAllowed::AddressLimit);
            }
            tx.prepare_cached("INSERT INTO account_sign_in_mails (email_key, sent_at) VALUES (?1, ?2)")?
                .execute(params![email_key, now_ms])?;
            Ok(MailAllowed::Yes)
        })
    }

    fn delete_account(&self, account: &AccountId, now_ms: i64) -> Result<Vec<AccountSeat>, StoreError> {
        let rows = self.account_write(|tx| {
            let id = account.as_slice();
            tx.prepare_cached(
                "UPDATE accounts SET username = NULL, deleted_at = COALESCE(deleted_at, ?2), email = NULL,
                                     email_confirmed = 0, email_confirm_hash = NULL, email_confirm_expires_at = NULL
                 WHERE id = ?1",
            )?
            .execute(params![id, now_ms])?;
            for sql in [
                "DELETE FROM account_passkeys WHERE account_id = ?1",
                "DELETE FROM account_sessions WHERE account_id = ?1",
                "DELETE FROM account_ceremonies WHERE account_id = ?1",
                "DELETE FROM account_sign_in_links WHERE account_id = ?1",
            ] {
                tx.prepare_cached(sql)?.execute([id])?;
            }
            seats_of(tx, account)
        })?;
        rows.into_iter().map(decode_seat).collect()
    }

    fn purge_accounts(&self, now_ms: i64, idle_ms: i64) -> Result<u64, StoreError> {
        self.account_write(|tx| {
            let sessions = tx
                .prepare_cached("DELETE FROM account_sessions WHERE expires_at <= ?1 OR last_seen_at <= ?2")?
                .execute(params![now_ms, now_ms - idle_ms])?;
            tx.prepare_cached("DELETE FROM account_ceremonies WHERE expires_at <= ?1")?
                .execute([now_ms])?;
            tx.prepare_cached("DELETE FROM account_sign_in_links WHERE expires_at <= ?1")?
                .execute([now_ms])?;
            tx.prepare_cached(
                "UPDATE accounts SET email_confirm_hash = NULL, email_confirm_expires_at = NULL
                 WHERE email_confirm_hash IS NOT NULL AND email_confirm_expires_at <= ?1",
            )?
            .execute([now_ms])?;
            tx.prepare_cached("DELETE FROM account_sign_in_mails WHERE sent_at < ?1")?
                .execute([now_ms - DAY_MS])?;
            Ok(sessions as u64)
        })
    }
}

fn insert_passkey(tx: &Connection, account: &[u8], passkey: &StoredPasskey) -> rusqlite::Result<()> {
    tx.prepare_cached(
        "INSERT INTO account_passkeys (credential_id, account_id, passkey, label, created_at, last_used_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?
    .execute(params![
        passkey.credential_id,
        account,
        passkey.passkey,
        passkey.label,
        passkey.created_at,
        passkey.last_used_at
    ])
    .map(|_| ())
}

fn insert_session(tx: &Connection, account: &[u8], session: &StoredSession) -> rusqlite::Result<()> {
    tx.prepare_cached(
        "INSERT INTO account_sessions (id_hash, account_id, label, created_at, last_seen_at, expires_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?
    .execute(params![
        session.id_hash,
        account,
        session.label,
        session.created_at,
        session.last_seen_at,
        session.expires_at
    ])
    .map(|_| ())
}
