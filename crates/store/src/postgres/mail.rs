//! [`MailStore`] on PostgreSQL (a child module of `postgres/mod.rs`, for its connections): single
//! statements on the reading connection; a registration, which checks the limits and writes in one
//! transaction, on a connection of its own (a shared connection cannot hold a transaction), under
//! a transaction-level advisory lock, so that the nodes' registrations pass the limits one at a time.

use tokio_postgres::Row;

use super::{PATIENCE, PostgresStore, connect, describe, on};
use crate::mail::{
    KEEP_AFTER_GAME_OVER_MS, LIMIT_WINDOW_MS, MailLimits, MailLink, MailStore, NewAddress, Purged, Registered,
    StoredAddress,
};
use crate::{StoreError, StoredSeat};

/// The schema version that adds the mail tables (`postgres/schema.rs`), as SQLite's
/// (`sqlite/mail.rs`).
pub(crate) const MAIL_SCHEMA: &str = "
CREATE TABLE mail_addresses (
    room_code TEXT NOT NULL REFERENCES rooms(code),
    seat TEXT NOT NULL,
    email TEXT NOT NULL,
    email_key BYTEA NOT NULL,
    language TEXT NOT NULL,
    confirm_hash BYTEA NOT NULL UNIQUE,
    confirm_expires_at BIGINT NOT NULL,
    confirmed_at BIGINT,
    over_since BIGINT,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (room_code, seat)
);
CREATE TABLE mail_unsubscribe (
    secret_hash BYTEA PRIMARY KEY,
    room_code TEXT NOT NULL,
    seat TEXT NOT NULL
);
CREATE INDEX mail_unsubscribe_seat ON mail_unsubscribe (room_code, seat);
CREATE TABLE mail_confirmations (
    email_key BYTEA NOT NULL,
    room_code TEXT NOT NULL,
    at BIGINT NOT NULL
);
CREATE INDEX mail_confirmations_key ON mail_confirmations (email_key, at);
CREATE INDEX mail_confirmations_room ON mail_confirmations (room_code, at);
";

/// Any number, the same on every node: the advisory lock of registrations.
const REGISTRATION_LOCK: i64 = 0x0045_7652_4d61_696c;

const COLUMNS: &str = "room_code, seat, email, language, confirmed_at IS NOT NULL, confirm_expires_at";

fn read_error(e: tokio_postgres::Error) -> StoreError {
    StoreError::Read(describe(&e))
}

fn write_error(e: tokio_postgres::Error) -> StoreError {
    StoreError::Write(describe(&e))
}

fn decode(r: &Row) -> Result<StoredAddress, StoreError> {
    let seat: String = r.try_get(1).map_err(read_error)?;
    Ok(StoredAddress {
        code: r.try_get(0).map_err(read_error)?,
        seat: StoredSeat::from_text(&seat)?,
        email: r.try_get(2).map_err(read_error)?,
        language: r.try_get(3).map_err(read_error)?,
        confirmed: r.try_get(4).map_err(read_error)?,
        confirm_expires_at: r.try_get(5).map_err(read_error)?,
    })
}

async fn register(
    mut client: tokio_postgres::Client,
    new: NewAddress,
    limits: MailLimits,
) -> Result<Registered, tokio_postgres::Error> {
    let tx = client.transaction().await?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&REGISTRATION_LOCK])
        .await?;
    let seat = new.seat.as_str();
    let current = tx
        .query_opt(
            "SELECT email_key, confirmed_at IS NOT NULL FROM mail_addresses WHERE room_code = $1 AND seat = $2",
            &[&new.code, &seat],
        )
        .await?;
    if let Some(row) = current {
        let (key, confirmed): (Vec<u8>, bool) = (row.try_get(0)?, row.try_get(1)?);
        if confirmed && key == new.email_key {
            tx.execute(
                "UPDATE mail_addresses SET language = $3 WHERE room_code = $1 AND seat = $2",
                &[&new.code, &seat, &new.language],
            )
            .await?;
            tx.commit().await?;
            return Ok(Registered::AlreadyConfirmed);
        }
    }
    let since = new.now_ms - LIMIT_WINDOW_MS;
    let to_address: i64 = tx
        .query_one(
            "SELECT COUNT(*) FROM mail_confirmations WHERE email_key = $1 AND at > $2",
            &[&new.email_key, &since],
        )
        .await?
        .try_get(0)?;
    if to_address >= i64::from(limits.per_address) {
        return Ok(Registered::AddressLimit);
    }
    let others: i64 = tx
        .query_one(
            "SELECT COUNT(DISTINCT email_key) FROM mail_confirmations
             WHERE room_code = $1 AND at > $2 AND email_key <> $3",
            &[&new.code, &since, &new.email_key],
        )
        .await?
        .try_get(0)?;
    if others >= i64::from(limits.addresses_per_room) {
        return Ok(Registered::RoomLimit);
    }
    // the links of a replaced address must not unsubscribe the new one
    tx.execute(
        "DELETE FROM mail_unsubscribe WHERE room_code = $1 AND seat = $2",
        &[&new.code, &seat],
    )
    .await?;
    tx.execute(
        "INSERT INTO mail_addresses (room_code, seat, email, email_key, language, confirm_hash, confirm_expires_at,
                                     confirmed_at, over_since, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, NULL, NULL, $8)
         ON CONFLICT (room_code, seat) DO UPDATE SET email = excluded.email, email_key = excluded.email_key,
             language = excluded.language, confirm_hash = excluded.confirm_hash,
             confirm_expires_at = excluded.confirm_expires_at, confirmed_at = NULL, over_since = NULL,
             created_at = excluded.created_at",
        &[
            &new.code,
            &seat,
            &new.email,
            &new.email_key,
            &new.language,
            &new.confirm_hash,
            &new.confirm_expires_at,
            &new.now_ms,
        ],
    )
    .await?;
    tx.execute(
        "INSERT INTO mail_unsubscribe (secret_hash, room_code, seat) VALUES ($1, $2, $3)",
        &[&new.unsubscribe_hash, &new.code, &seat],
    )
    .await?;
    tx.execute(
        "INSERT INTO mail_confirmations (email_key, room_code, at) VALUES ($1, $2, $3)",
        &[&new.email_key, &new.code, &new.now_ms],
    )
    .await?;
    tx.commit().await?;
    Ok(Registered::ConfirmationDue)
}

impl MailStore for PostgresStore {
    fn register_address(&self, new: &NewAddress, limits: MailLimits) -> Result<Registered, StoreError> {
        let target = self.target.clone();
        let new = new.clone();
        on(&self.handle, async move {
            let work = async move {
                let client = connect(&target).await?;
                register(client, new, limits).await
            };
            match tokio::time::timeout(PATIENCE * 2, work).await {
                Ok(done) => done.map_err(write_error),
                Err(_) => Err(StoreError::Write(format!(
                    "no answer in {} s",
                    (PATIENCE * 2).as_secs()
                ))),
            }
        })?
    }

    fn seat_address(&self, code: &str, seat: StoredSeat) -> Result<Option<StoredAddress>, StoreError> {
        let code = code.to_string();
        self.read(move |c| async move {
            let sql = format!("SELECT {COLUMNS} FROM mail_addresses WHERE room_code = $1 AND seat = $2");
            let row = c.query_opt(&sql, &[&code, &seat.as_str()]).await.map_err(read_error)?;
            row.as_ref().map(decode).transpose()
        })
    }

    fn address_by_link(&self, link: MailLink, secret_hash: &[u8]) -> Result<Option<StoredAddress>, StoreError> {
        let hash = secret_hash.to_vec();
        self.read(move |c| async move {
            let sql = match link {
                MailLink::Confirm => format!("SELECT {COLUMNS} FROM mail_addresses WHERE confirm_hash = $1"),
                MailLink::Unsubscribe => format!(
                    "SELECT {COLUMNS} FROM mail_addresses a WHERE EXISTS (SELECT 1 FROM mail_unsubscribe u
                     WHERE u.secret_hash = $1 AND u.room_code = a.room_code AND u.seat = a.seat)"
                ),
            };
            let row = c.query_opt(&sql, &[&hash]).await.map_err(read_error)?;
            row.as_ref().map(decode).transpose()
        })
    }

    fn confirm(&self, secret_hash: &[u8], now_ms: i64) -> Result<Option<StoredAddress>, StoreError> {
        let hash = secret_hash.to_vec();
        self.read(move |c| async move {
            let sql = format!(
                "UPDATE mail_addresses SET confirmed_at = COALESCE(confirmed_at, $2)
                 WHERE confirm_hash = $1 AND (confirmed_at IS NOT NULL OR confirm_expires_at > $2)
                 RETURNING {COLUMNS}"
            );
            let row = c.query_opt(&sql, &[&hash, &now_ms]).await.map_err(write_error)?;
            row.as_ref().map(decode).transpose()
        })
    }

    fn add_unsubscribe(&self, code: &str, seat: StoredSeat, secret_hash: &[u8]) -> Result<(), StoreError> {
        let (code, hash) = (code.to_string(), secret_hash.to_vec());
        self.read(move |c| async move {
            c.execute(
                "INSERT INTO mail_unsubscribe (secret_hash, room_code, seat) VALUES ($1, $2, $3)",
                &[&hash, &code, &seat.as_str()],
            )
            .await
            .map(|_| ())
            .map_err(write_error)
        })
    }

    fn unsubscribe(&self, secret_hash: &[u8]) -> Result<Option<StoredAddress>, StoreError> {
        let found = self.address_by_link(MailLink::Unsubscribe, secret_hash)?;
        if let Some(a) = &found {
            self.forget(&a.code, a.seat)?;
        }
        Ok(found)
    }

    fn forget(&self, code: &str, seat: StoredSeat) -> Result<bool, StoreError> {
        let code = code.to_string();
        self.read(move |c| async move {
            // one statement: the links go with the address
            let n = c
                .execute(
                    "WITH links AS (DELETE FROM mail_unsubscribe WHERE room_code = $1 AND seat = $2)
                     DELETE FROM mail_addresses WHERE room_code = $1 AND seat = $2",
                    &[&code, &seat.as_str()],
                )
                .await
                .map_err(write_error)?;
            Ok(n > 0)
        })
    }

    fn rooms_with_addresses(&self) -> Result<Vec<(String, Option<i64>)>, StoreError> {
        self.read(move |c| async move {
            let rows = c
                .query(
                    "SELECT room_code, MIN(over_since) FROM mail_addresses GROUP BY room_code",
                    &[],
                )
                .await
                .map_err(read_error)?;
            rows.iter()
                .map(|r| Ok((r.try_get(0)?, r.try_get(1)?)))
                .collect::<Result<Vec<_>, tokio_postgres::Error>>()
                .map_err(read_error)
        })
    }

    fn set_over(&self, code: &str, over: bool, now_ms: i64) -> Result<(), StoreError> {
        let code = code.to_string();
        self.read(move |c| async move {
            let done = if over {
                c.execute(
                    "UPDATE mail_addresses SET over_since = $2 WHERE room_code = $1 AND over_since IS NULL",
                    &[&code, &now_ms],
                )
                .await
            } else {
                c.execute(
                    "UPDATE mail_addresses SET over_since = NULL WHERE room_code = $1",
                    &[&code],
                )
                .await
            };
            done.map(|_| ()).map_err(write_error)
        })
    }

    fn purge(&self, now_ms: i64) -> Result<Purged, StoreError> {
        self.read(move |c| async move {
            let over_before = now_ms - KEEP_AFTER_GAME_OVER_MS;
            let after_game = c
                .execute(
                    "DELETE FROM mail_addresses WHERE over_since IS NOT NULL AND over_since <= $1",
                    &[&over_before],
                )
                .await
                .map_err(write_error)?;
            let unconfirmed = c
                .execute(
                    "DELETE FROM mail_addresses WHERE confirmed_at IS NULL AND confirm_expires_at <= $1",
                    &[&now_ms],
                )
                .await
                .map_err(write_error)?;
            c.execute(
                "DELETE FROM mail_unsubscribe u WHERE NOT EXISTS (SELECT 1 FROM mail_addresses a
                 WHERE a.room_code = u.room_code AND a.seat = u.seat)",
                &[],
            )
            .await
            .map_err(write_error)?;
            let window = now_ms - LIMIT_WINDOW_MS;
            c.execute("DELETE FROM mail_confirmations WHERE at <= $1", &[&window])
                .await
                .map_err(write_error)?;
            Ok(Purged {
                after_game,
                unconfirmed,
            })
        })
    }
}
