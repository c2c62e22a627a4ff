//! [`AccountStore`] on PostgreSQL (a child module of `postgres/mod.rs`, for its connections), as
//! the mail addresses are kept (`postgres/mail.rs`): a call that is one statement runs on the
//! reading connection (a secret used once is a `DELETE … RETURNING` or an `UPDATE … RETURNING`,
//! which one node at a time gets); a call of several statements is one transaction on a
//! connection of its own (a shared connection cannot hold a transaction), kept for the next one.
//! Concurrent nodes: a taken username key or credential id is found by `ON CONFLICT`, which waits
//! for the other transaction; the passkeys of an account are changed under its row's lock; the
//! sign-in mails are counted under an advisory lock.

use futures_util::FutureExt;
use tokio_postgres::Transaction;

// (`pub(super)`: the friends' store shares its rows' helpers and transactions, `postgres/friends.rs`)
pub(super) mod rows;
mod schema;

pub(crate) use self::schema::ACCOUNTS_SCHEMA;

use self::rows::{
    CEREMONY, DAY_MS, PASSKEY, Param, SEATS, SESSION, SIGN_IN_MAIL_LOCK, bytes, ceremony_row, get, id_at, passkey_row,
    read_error, seat_row, session_row, text, write_error,
};
use super::PostgresStore;
use crate::accounts::{
    AccountCreated, AccountId, AccountSeat, AccountStore, MailAllowed, NewAccount, PasskeyRemoved, SeatKept,
    StoredAccount, StoredCeremony, StoredPasskey, StoredSession,
};
use crate::{StoreError, StoredSeat};

async fn insert_passkey(
    tx: &Transaction<'_>,
    account: &[u8],
    p: &StoredPasskey,
) -> Result<bool, tokio_postgres::Error> {
    tx.execute(
        "INSERT INTO account_passkeys (credential_id, account_id, passkey, label, created_at, last_used_at)
         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (credential_id) DO NOTHING",
        &[
            &p.credential_id,
            &account,
            &p.passkey,
            &p.label,
            &p.created_at,
            &p.last_used_at,
        ],
    )
    .await
    .map(|n| n == 1)
}

impl AccountStore for PostgresStore {
    fn create_account(
        &self,
        account: &NewAccount,
        passkey: &StoredPasskey,
        session: &StoredSession,
    ) -> Result<AccountCreated, StoreError> {
        let (account, passkey, session) = (account.clone(), passkey.clone(), session.clone());
        self.account_tx(move |tx| {
            async move {
                let id = account.id.to_vec();
                let created = tx
                    .execute(
                        "INSERT INTO accounts (id, username, username_key, created_at, email_confirmed)
                         VALUES ($1, $2, $3, $4, FALSE) ON CONFLICT (username_key) DO NOTHING",
                        &[&id, &account.username, &account.username_key, &account.created_at],
                    )
                    .await?;
                if created == 0 {
                    return Ok(AccountCreated::UsernameTaken);
                }
                if !insert_passkey(&tx, &id, &passkey).await? {
                    // (the account's row is rolled back with the transaction)
                    return Ok(AccountCreated::PasskeyTaken);
                }
                tx.execute(
                    "INSERT INTO account_sessions (id_hash, account_id, label, created_at, last_seen_at, expires_at)
                     VALUES ($1, $2, $3, $4, $5, $6)",
                    &[
                        &session.id_hash,
                        &id,
                        &session.label,
                        &session.created_at,
                        &session.last_seen_at,
                        &session.expires_at,
                    ],
                )
                .await?;
                tx.commit().await?;
                Ok(AccountCreated::Created)
            }
            .boxed()
        })
    }

    fn account(&self, id: &AccountId) -> Result<Option<StoredAccount>, StoreError> {
        self.account_where("id = $1", bytes(id))
    }

    fn account_by_username_key(&self, key: &str) -> Result<Option<StoredAccount>, StoreError> {
        self.account_where("username_key = $1", text(key))
    }

    fn account_by_email(&self, email: &str) -> Result<Option<StoredAccount>, StoreError> {
        // (two accounts may have confirmed one address: the oldest is the one)
        self.account_where(
            "email = $1 AND email_confirmed AND deleted_at IS NULL ORDER BY created_at, id LIMIT 1",
            text(email),
        )
    }

    fn add_passkey(&self, passkey: &StoredPasskey) -> Result<bool, StoreError> {
        let p = passkey;
        let rows = self.account_statement(
            format!(
                "INSERT INTO account_passkeys ({PASSKEY}) VALUES ($1, $2, $3, $4, $5, $6)
                 ON CONFLICT (credential_id) DO NOTHING RETURNING 1"
            ),
            vec![
                bytes(&p.credential_id),
                bytes(&p.account),
                text(&p.passkey),
                text(&p.label),
                Param::Int(p.created_at),
                Param::MaybeInt(p.last_used_at),
            ],
            write_error,
        )?;
        Ok(!rows.is_empty())
    }

    fn passkey(&self, credential_id: &[u8]) -> Result<Option<StoredPasskey>, StoreError> {
        let sql = format!("SELECT {PASSKEY} FROM account_passkeys WHERE credential_id = $1");
        let rows = self.account_statement(sql, vec![bytes(credential_id)], read_error)?;
        rows.first().map(passkey_row).transpose()
    }

    fn passkeys(&self, account: &AccountId) -> Result<Vec<StoredPasskey>, StoreError> {
        let sql =
            format!("SELECT {PASSKEY} FROM account_passkeys WHERE account_id = $1 ORDER BY created_at, credential_id");
        let rows = self.account_statement(sql, vec![bytes(account)], read_error)?;
        rows.iter().map(passkey_row).collect()
    }

    fn passkey_used(&self, credential_id: &[u8], passkey: &str, now_ms: i64) -> Result<(), StoreError> {
        self.account_statement(
            "UPDATE account_passkeys SET passkey = $2, last_used_at = $3 WHERE credential_id = $1".into(),
            vec![bytes(credential_id), text(passkey), Param::Int(now_ms)],
            write_error,
        )
        .map(|_| ())
    }

    fn remove_passkey(&self, account: &AccountId, credential_id: &[u8]) -> Result<PasskeyRemoved, StoreError> {
        let (id, credential) = (account.to_vec(), credential_id.to_vec());
        self.account_tx(move |tx| {
            async move {
                // the account's row locked: two removals of its last two passkeys go one at a time
                let confirmed: bool = match tx
                    .query_opt(
                        "SELECT email_confirmed AND email IS NOT NULL FROM accounts WHERE id = $1 FOR UPDATE",
                        &[&id],
                    )
                    .await?
                {
                    Some(row) => row.try_get(0)?,
                    None => return Ok(PasskeyRemoved::NoSuch),
                };
                let counts = tx
                    .query_one(
                        "SELECT COUNT(*) FILTER (WHERE credential_id = $2), COUNT(*) FILTER (WHERE credential_id <> $2)
                         FROM account_passkeys WHERE account_id = $1",
                        &[&id, &credential],
                    )
                    .await?;
                let (this, others): (i64, i64) = (counts.try_get(0)?, counts.try_get(1)?);
                if this == 0 {
                    return Ok(PasskeyRemoved::NoSuch);
                }
                if others == 0 && !confirmed {
                    return Ok(PasskeyRemoved::LastWay);
                }
                tx.execute(
                    "DELETE FROM account_passkeys WHERE account_id = $1 AND credential_id = $2",
                    &[&id, &credential],
                )
                .await?;
                tx.commit().await?;
                Ok(PasskeyRemoved::Removed)
            }
            .boxed()
        })
    }

    fn create_session(&self, session: &StoredSession) -> Result<(), StoreError> {
        let s = session;
        self.account_statement(
            format!("INSERT INTO account_sessions ({SESSION}) VALUES ($1, $2, $3, $4, $5, $6)"),
            vec![
                bytes(&s.id_hash),
                bytes(&s.account),
                text(&s.label),
                Param::Int(s.created_at),
                Param::Int(s.last_seen_at),
                Param::Int(s.expires_at),
            ],
            write_error,
        )
        .map(|_| ())
    }

    fn session(&self, id_hash: &[u8]) -> Result<Option<StoredSession>, StoreError> {
        let sql = format!("SELECT {SESSION} FROM account_sessions WHERE id_hash = $1");
        let rows = self.account_statement(sql, vec![bytes(id_hash)], read_error)?;
        rows.first().map(session_row).transpose()
    }

    fn touch_session(&self, id_hash: &[u8], now_ms: i64) -> Result<(), StoreError> {
        self.account_statement(
            "UPDATE account_sessions SET last_seen_at = GREATEST(last_seen_at, $2) WHERE id_hash = $1".into(),
            vec![bytes(id_hash), Param::Int(now_ms)],
            write_error,
        )
        .map(|_| ())
    }

    fn sessions(&self, account: &AccountId) -> Result<Vec<StoredSession>, StoreError> {
        let sql = format!(
            "SELECT {SESSION} FROM account_sessions WHERE account_id = $1 ORDER BY created_at DESC, id_hash DESC"
        );
        let rows = self.account_statement(sql, vec![bytes(account)], read_error)?;
        rows.iter().map(session_row).collect()
    }

    fn delete_session(&self, account: &AccountId, id_hash: &[u8]) -> Result<bool, StoreError> {
        let rows = self.account_statement(
            "DELETE FROM account_sessions WHERE account_id = $1 AND id_hash = $2 RETURNING 1".into(),
            vec![bytes(account), bytes(id_hash)],
            write_error,
        )?;
        Ok(!rows.is_empty())
    }

    fn delete_other_sessions(&self, account: &AccountId, keep: &[u8]) -> Result<u64, StoreError> {
        let rows = self.account_statement(
            "DELETE FROM account_sessions WHERE account_id = $1 AND id_hash <> $2 RETURNING 1".into(),
            vec![bytes(account), bytes(keep)],
            write_error,
        )?;
        Ok(rows.len() as u64)
    }

    fn put_ceremony(&self, ceremony: &StoredCeremony) -> Result<(), StoreError> {
        let c = ceremony.clone();
        self.read(move |client| async move {
            client
                .execute(
                    "INSERT INTO account_ceremonies (id_hash, kind, account_id, username, state, expires_at)
                     VALUES ($1, $2, $3, $4, $5, $6)",
                    &[
                        &c.id_hash,
                        &c.kind,
                        &c.account.map(|a| a.to_vec()),
                        &c.username,
                        &c.state,
                        &c.expires_at,
                    ],
                )
                .await
                .map(|_| ())
                .map_err(write_error)
        })
    }

    fn take_ceremony(&self, id_hash: &[u8], now_ms: i64) -> Result<Option<StoredCeremony>, StoreError> {
        let rows = self.account_statement(
            format!("DELETE FROM account_ceremonies WHERE id_hash = $1 RETURNING {CEREMONY}"),
            vec![bytes(id_hash)],
            write_error,
        )?;
        let taken = rows.first().map(ceremony_row).transpose()?;
        Ok(taken.filter(|c| c.expires_at > now_ms))
    }

    fn keep_seat(
        &self,
        account: &AccountId,
        code: &str,
        seat: StoredSeat,
        now_ms: i64,
    ) -> Result<SeatKept, StoreError> {
        let (id, code) = (account.to_vec(), code.to_string());
        let keeper = self.account_tx(move |tx| {
            async move {
                let seat = seat.as_str();
                let kept = tx
                    .execute(
                        "INSERT INTO account_seats (room_code, seat, account_id, added_at) VALUES ($1, $2, $3, $4)
                         ON CONFLICT (room_code, seat) DO NOTHING",
                        &[&code, &seat, &id, &now_ms],
                    )
                    .await?;
                if kept == 1 {
                    tx.commit().await?;
                    return Ok(None);
                }
                let row = tx
                    .query_one(
                        "SELECT account_id FROM account_seats WHERE room_code = $1 AND seat = $2",
                        &[&code, &seat],
                    )
                    .await?;
                Ok(Some(row.try_get::<_, Vec<u8>>(0)?))
            }
            .boxed()
        })?;
        Ok(match keeper {
            None => SeatKept::Kept,
            Some(keeper) if keeper == account.as_slice() => SeatKept::Already,
            Some(_) => SeatKept::OtherAccount,
        })
    }

    fn account_seats(&self, account: &AccountId) -> Result<Vec<AccountSeat>, StoreError> {
        let rows = self.account_statement(SEATS.into(), vec![bytes(account)], read_error)?;
        rows.iter().map(seat_row).collect()
    }

    fn seat_account(&self, code: &str, seat: StoredSeat) -> Result<Option<AccountId>, StoreError> {
        let rows = self.account_statement(
            "SELECT account_id FROM account_seats WHERE room_code = $1 AND seat = $2".into(),
            vec![text(code), text(seat.as_str())],
            read_error,
        )?;
        rows.first().map(|r| id_at(r, 0)).transpose()
    }

    fn set_email(
        &self,
        account: &AccountId,
        email: &str,
        confirm_hash: &[u8],
        expires_at: i64,
    ) -> Result<(), StoreError> {
        self.account_statement(
            "UPDATE accounts SET email = $2, email_confirmed = FALSE, email_confirm_hash = $3,
                                 email_confirm_expires_at = $4
             WHERE id = $1 AND deleted_at IS NULL"
                .into(),
            vec![bytes(account), text(email), bytes(confirm_hash), Param::Int(expires_at)],
            write_error,
        )
        .map(|_| ())
    }

    fn confirm_email(&self, confirm_hash: &[u8], now_ms: i64) -> Result<Option<AccountId>, StoreError> {
        let rows = self.account_statement(
            "UPDATE accounts SET email_confirmed = TRUE, email_confirm_hash = NULL, email_confirm_expires_at = NULL
             WHERE email_confirm_hash = $1 AND email_confirm_expires_at > $2 AND deleted_at IS NULL
             RETURNING id"
                .into(),
            vec![bytes(confirm_hash), Param::Int(now_ms)],
            write_error,
        )?;
        rows.first().map(|r| id_at(r, 0)).transpose()
    }

    fn put_sign_in_link(&self, account: &AccountId, secret_hash: &[u8], expires_at: i64) -> Result<(), StoreError> {
        self.account_statement(
            "INSERT INTO account_sign_in_links (secret_hash, account_id, expires_at) VALUES ($1, $2, $3)".into(),
            vec![bytes(secret_hash), bytes(account), Param::Int(expires_at)],
            write_error,
        )
        .map(|_| ())
    }

    fn use_sign_in_link(&self, secret_hash: &[u8], now_ms: i64) -> Result<Option<AccountId>, StoreError> {
        let rows = self.account_statement(
            "DELETE FROM account_sign_in_links WHERE secret_hash = $1 RETURNING account_id, expires_at".into(),
            vec![bytes(secret_hash)],
            write_error,
        )?;
        match rows.first() {
            Some(r) if get::<i64>(r, 1)? > now_ms => Ok(Some(id_at(r, 0)?)),
            _ => Ok(None),
        }
    }

    fn count_sign_in_mail(
        &self,
        email_key: &[u8],
        now_ms: i64,
        window_ms: i64,
        limit: u32,
    ) -> Result<MailAllowed, StoreError> {
        let key = email_key.to_vec();
        self.account_tx(move |tx| {
            async move {
                tx.execute("SELECT pg_advisory_xact_lock($1)", &[&SIGN_IN_MAIL_LOCK])
                    .await?;
                let since = now_ms - window_ms;
                let counted: i64 = tx
                    .query_one(
                        "SELECT COUNT(*) FROM account_sign_in_mails WHERE email_key = $1 AND sent_at > $2",
                        &[&key, &since],
                    )
                    .await?
                    .try_get(0)?;
                if counted >= i64::from(limit) {
                    return Ok(MailAllowed::AddressLimit);
                }
                tx.execute(
                    "INSERT INTO account_sign_in_mails (email_key, sent_at) VALUES ($1, $2)",
                    &[&key, &now_ms],
                )
                .await?;
                tx.commit().await?;
                Ok(MailAllowed::Yes)
            }
            .boxed()
        })
    }

    fn delete_account(&self, account: &AccountId, now_ms: i64) -> Result<Vec<AccountSeat>, StoreError> {
        let id = account.to_vec();
        let rows = self.account_tx(move |tx| {
            async move {
                tx.execute(
                    "UPDATE accounts SET username = NULL, deleted_at = COALESCE(deleted_at, $2), email = NULL,
                                         email_confirmed = FALSE, email_confirm_hash = NULL,
                                         email_confirm_expires_at = NULL
                     WHERE id = $1",
                    &[&id, &now_ms],
                )
                .await?;
                for sql in [
                    "DELETE FROM account_passkeys WHERE account_id = $1",
                    "DELETE FROM account_sessions WHERE account_id = $1",
                    "DELETE FROM account_ceremonies WHERE account_id = $1",
                    "DELETE FROM account_sign_in_links WHERE account_id = $1",
                ] {
                    tx.execute(sql, &[&id]).await?;
                }
                let seats = tx.query(SEATS, &[&id]).await?;
                tx.commit().await?;
                Ok(seats)
            }
            .boxed()
        })?;
        rows.iter().map(seat_row).collect()
    }

    fn purge_accounts(&self, now_ms: i64, idle_ms: i64) -> Result<u64, StoreError> {
        self.account_tx(move |tx| {
            async move {
                let idle_since = now_ms - idle_ms;
                let sessions = tx
                    .execute(
                        "DELETE FROM account_sessions WHERE expires_at <= $1 OR last_seen_at <= $2",
                        &[&now_ms, &idle_since],
                    )
                    .await?;
                tx.execute("DELETE FROM account_ceremonies WHERE expires_at <= $1", &[&now_ms])
                    .await?;
                tx.execute("DELETE FROM account_sign_in_links WHERE expires_at <= $1", &[&now_ms])
                    .await?;
                tx.execute(
                    "UPDATE accounts SET email_confirm_hash = NULL, email_confirm_expires_at = NULL
                     WHERE email_confirm_hash IS NOT NULL AND email_confirm_expires_at <= $1",
                    &[&now_ms],
                )
                .await?;
                let day_ago = now_ms - DAY_MS;
                tx.execute("DELETE FROM account_sign_in_mails WHERE sent_at < $1", &[&day_ago])
                    .await?;
                tx.commit().await?;
                Ok(sessions)
            }
            .boxed()
        })
    }
}
