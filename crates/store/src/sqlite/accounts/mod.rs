//! [`AccountStore`] on SQLite (a child module of `sqlite/mod.rs`, for its connections), as the mail
//! addresses are kept (`sqlite/mail.rs`): every write is one transaction on the writing connection
//! between two group commits, so that writes are one at a time (a secret is used once, a count
//! and its insert are atomic); reads on the reading connection.

use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};

// (`pub(super)`: the friends' store shares its rows' helpers and transactions, `sqlite/friends.rs`)
pub(super) mod rows;
mod schema;

pub(crate) use self::schema::ACCOUNTS_SCHEMA;

use self::rows::{
    ACCOUNT, CEREMONY, DAY_MS, PASSKEY, SESSION, account_row, ceremony_row, corrupt, decode_seat, id_at, passkey_row,
    read_error, seats_of, session_row, write_error,
};
use super::SqliteStore;
use crate::accounts::{
    AccountCreated, AccountId, AccountSeat, AccountStore, MailAllowed, NewAccount, PasskeyRemoved, SeatKept,
    StoredAccount, StoredCeremony, StoredPasskey, StoredSession,
};
use crate::{StoreError, StoredSeat};

impl SqliteStore {
    /// Runs `f` in one immediate transaction on the writing connection (between two group
    /// commits), committed if it returns `Ok` and rolled back otherwise.
    pub(in crate::sqlite) fn account_write<T>(
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

    pub(in crate::sqlite) fn account_read<T>(
        &self,
        f: impl FnOnce(&Connection) -> rusqlite::Result<T>,
    ) -> Result<T, StoreError> {
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
