//! How the accounts' calls reach PostgreSQL: the columns read and their decoding, the parameters
//! that travel to the store's runtime, one statement on the reading connection or one transaction
//! on the accounts' own connection.

use futures_util::future::BoxFuture;
use tokio_postgres::{Client, Row, Transaction};

use super::super::{PATIENCE, PostgresStore, connect, describe, on};
use crate::accounts::{AccountId, AccountSeat, StoredAccount, StoredCeremony, StoredPasskey, StoredSession};
use crate::columns::account_id_from_column;
use crate::{StoreError, StoredSeat};

/// Any number, the same on every node: the advisory lock of the sign-in mails' count.
pub(super) const SIGN_IN_MAIL_LOCK: i64 = 0x0045_7652_5369_676e;

/// How long a sign-in mail is counted at most (`purge_accounts`).
pub(super) const DAY_MS: i64 = 24 * 3_600_000;

pub(super) const ACCOUNT: &str = "id, username, created_at, deleted_at, email, email_confirmed";
pub(super) const PASSKEY: &str = "credential_id, account_id, passkey, label, created_at, last_used_at";
pub(super) const SESSION: &str = "id_hash, account_id, label, created_at, last_seen_at, expires_at";
pub(super) const CEREMONY: &str = "id_hash, kind, account_id, username, state, expires_at";
pub(super) const SEATS: &str = "SELECT room_code, seat, added_at FROM account_seats WHERE account_id = $1
                     ORDER BY added_at DESC, room_code DESC, seat DESC";

pub(in crate::postgres) fn read_error(e: tokio_postgres::Error) -> StoreError {
    StoreError::Read(describe(&e))
}

pub(in crate::postgres) fn write_error(e: tokio_postgres::Error) -> StoreError {
    StoreError::Write(describe(&e))
}

pub(in crate::postgres) fn get<'a, T: tokio_postgres::types::FromSql<'a>>(
    row: &'a Row,
    i: usize,
) -> Result<T, StoreError> {
    row.try_get(i).map_err(read_error)
}

pub(in crate::postgres) fn id_at(row: &Row, i: usize) -> Result<AccountId, StoreError> {
    account_id_from_column(&get::<Vec<u8>>(row, i)?)
}

pub(super) fn account_row(r: &Row) -> Result<StoredAccount, StoreError> {
    Ok(StoredAccount {
        id: id_at(r, 0)?,
        username: get(r, 1)?,
        created_at: get(r, 2)?,
        deleted_at: get(r, 3)?,
        email: get(r, 4)?,
        email_confirmed: get(r, 5)?,
    })
}

pub(super) fn passkey_row(r: &Row) -> Result<StoredPasskey, StoreError> {
    Ok(StoredPasskey {
        credential_id: get(r, 0)?,
        account: id_at(r, 1)?,
        passkey: get(r, 2)?,
        label: get(r, 3)?,
        created_at: get(r, 4)?,
        last_used_at: get(r, 5)?,
    })
}

pub(super) fn session_row(r: &Row) -> Result<StoredSession, StoreError> {
    Ok(StoredSession {
        id_hash: get(r, 0)?,
        account: id_at(r, 1)?,
        label: get(r, 2)?,
        created_at: get(r, 3)?,
        last_seen_at: get(r, 4)?,
        expires_at: get(r, 5)?,
    })
}

pub(super) fn ceremony_row(r: &Row) -> Result<StoredCeremony, StoreError> {
    let account: Option<Vec<u8>> = get(r, 2)?;
    Ok(StoredCeremony {
        id_hash: get(r, 0)?,
        kind: get(r, 1)?,
        account: account.as_deref().map(account_id_from_column).transpose()?,
        username: get(r, 3)?,
        state: get(r, 4)?,
        expires_at: get(r, 5)?,
    })
}

pub(super) fn seat_row(r: &Row) -> Result<AccountSeat, StoreError> {
    Ok(AccountSeat {
        code: get(r, 0)?,
        seat: StoredSeat::from_text(&get::<String>(r, 1)?)?,
        added_at: get(r, 2)?,
    })
}

/// A statement's rows, decoded by the caller once it answered.
pub(in crate::postgres) type Rows = Vec<Row>;

impl PostgresStore {
    /// Runs `work` in one transaction on the accounts' connection (made when first needed, and
    /// again after it was lost or a transaction went unanswered), committed by `work` itself.
    pub(in crate::postgres) fn account_tx<T: Send + 'static>(
        &self,
        work: impl for<'a> FnOnce(Transaction<'a>) -> BoxFuture<'a, Result<T, tokio_postgres::Error>> + Send + 'static,
    ) -> Result<T, StoreError> {
        let target = self.target.clone();
        let slot = self.transactions.clone();
        on(&self.handle, async move {
            let mut kept = slot.lock().await;
            let attempt = async {
                let mut client: Client = match kept.take() {
                    Some(client) if !client.is_closed() => client,
                    _ => connect(&target).await?,
                };
                let out = work(client.transaction().await?).await;
                // (an unfinished transaction was rolled back when dropped: the connection is clean)
                *kept = Some(client);
                out
            };
            let answer = tokio::time::timeout(PATIENCE * 2, attempt).await;
            match answer {
                Ok(done) => done.map_err(write_error),
                Err(_) => Err(StoreError::Write(format!(
                    "no answer in {} s",
                    (PATIENCE * 2).as_secs()
                ))),
            }
        })?
    }

    /// One statement on the reading connection: its rows.
    pub(in crate::postgres) fn account_statement(
        &self,
        sql: String,
        params: Vec<Param>,
        error: fn(tokio_postgres::Error) -> StoreError,
    ) -> Result<Rows, StoreError> {
        self.read(move |c| async move {
            let refs: Vec<&(dyn tokio_postgres::types::ToSql + Sync)> = params.iter().map(Param::as_sql).collect();
            c.query(&sql, &refs).await.map_err(error)
        })
    }

    pub(super) fn account_where(&self, condition: &str, value: Param) -> Result<Option<StoredAccount>, StoreError> {
        let sql = format!("SELECT {ACCOUNT} FROM accounts WHERE {condition}");
        let rows = self.account_statement(sql, vec![value], read_error)?;
        rows.first().map(account_row).transpose()
    }
}

/// A statement's parameter, owned (it travels to the store's runtime).
pub(in crate::postgres) enum Param {
    Bytes(Vec<u8>),
    Text(String),
    Int(i64),
    MaybeInt(Option<i64>),
    Float(f64),
}

impl Param {
    pub(super) fn as_sql(&self) -> &(dyn tokio_postgres::types::ToSql + Sync) {
        match self {
            Param::Bytes(b) => b,
            Param::Text(t) => t,
            Param::Int(i) => i,
            Param::MaybeInt(i) => i,
            Param::Float(f) => f,
        }
    }
}

pub(in crate::postgres) fn bytes(b: &[u8]) -> Param {
    Param::Bytes(b.to_vec())
}

pub(in crate::postgres) fn text(t: &str) -> Param {
    Param::Text(t.to_string())
}
