//! How the accounts' rows are read on SQLite: the columns and their decoding (a damaged id is
//! [`StoreError::Corrupt`]).

use rusqlite::{Connection, Row, params};

use crate::accounts::{AccountId, AccountSeat, StoredAccount, StoredCeremony, StoredPasskey, StoredSession};
use crate::columns::account_id_from_column;
use crate::{StoreError, StoredSeat};

/// How long a sign-in mail is counted at most (`purge_accounts`).
pub(super) const DAY_MS: i64 = 24 * 3_600_000;

pub(super) const ACCOUNT: &str = "id, username, created_at, deleted_at, email, email_confirmed";
pub(super) const PASSKEY: &str = "credential_id, account_id, passkey, label, created_at, last_used_at";
pub(super) const SESSION: &str = "id_hash, account_id, label, created_at, last_seen_at, expires_at";
pub(super) const CEREMONY: &str = "id_hash, kind, account_id, username, state, expires_at";

pub(super) fn read_error(e: rusqlite::Error) -> StoreError {
    StoreError::Read(e.to_string())
}

pub(super) fn write_error(e: rusqlite::Error) -> StoreError {
    StoreError::Write(e.to_string())
}

/// A row's account id, or the decoding error (as a rusqlite error, so that it travels out of a
/// query; turned back into [`StoreError::Corrupt`] by [`corrupt`]).
pub(in crate::sqlite) fn id_at(r: &Row<'_>, i: usize) -> rusqlite::Result<AccountId> {
    let bytes: Vec<u8> = r.get(i)?;
    account_id_from_column(&bytes).map_err(|e| {
        rusqlite::Error::FromSqlConversionFailure(i, rusqlite::types::Type::Blob, Box::new(Corrupt(e.to_string())))
    })
}

#[derive(Debug)]
pub(super) struct Corrupt(String);

impl std::fmt::Display for Corrupt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Corrupt {}

/// A read's error: damage as [`StoreError::Corrupt`], the rest as `otherwise` makes it.
pub(super) fn corrupt(otherwise: fn(rusqlite::Error) -> StoreError) -> impl Fn(rusqlite::Error) -> StoreError {
    move |e| match &e {
        rusqlite::Error::FromSqlConversionFailure(_, _, inner) if inner.is::<Corrupt>() => StoreError::Corrupt {
            what: inner.to_string(),
        },
        _ => otherwise(e),
    }
}

pub(super) fn account_row(r: &Row<'_>) -> rusqlite::Result<StoredAccount> {
    Ok(StoredAccount {
        id: id_at(r, 0)?,
        username: r.get(1)?,
        created_at: r.get(2)?,
        deleted_at: r.get(3)?,
        email: r.get(4)?,
        email_confirmed: r.get(5)?,
    })
}

pub(super) fn passkey_row(r: &Row<'_>) -> rusqlite::Result<StoredPasskey> {
    Ok(StoredPasskey {
        credential_id: r.get(0)?,
        account: id_at(r, 1)?,
        passkey: r.get(2)?,
        label: r.get(3)?,
        created_at: r.get(4)?,
        last_used_at: r.get(5)?,
    })
}

pub(super) fn session_row(r: &Row<'_>) -> rusqlite::Result<StoredSession> {
    Ok(StoredSession {
        id_hash: r.get(0)?,
        account: id_at(r, 1)?,
        label: r.get(2)?,
        created_at: r.get(3)?,
        last_seen_at: r.get(4)?,
        expires_at: r.get(5)?,
    })
}

pub(super) fn ceremony_row(r: &Row<'_>) -> rusqlite::Result<StoredCeremony> {
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

pub(super) fn seat_row(r: &Row<'_>) -> rusqlite::Result<(String, String, i64)> {
    Ok((r.get(0)?, r.get(1)?, r.get(2)?))
}

pub(super) fn decode_seat((code, seat, added_at): (String, String, i64)) -> Result<AccountSeat, StoreError> {
    Ok(AccountSeat {
        code,
        seat: StoredSeat::from_text(&seat)?,
        added_at,
    })
}

pub(super) fn seats_of(conn: &Connection, account: &AccountId) -> rusqlite::Result<Vec<(String, String, i64)>> {
    let mut stmt = conn.prepare_cached(
        "SELECT room_code, seat, added_at FROM account_seats WHERE account_id = ?1
         ORDER BY added_at DESC, room_code DESC, seat DESC",
    )?;
    let rows = stmt.query_map(params![account.as_slice()], seat_row)?;
    rows.collect()
}
