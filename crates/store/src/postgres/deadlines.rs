//! The PostgreSQL store's reads of deadlines (`deadlines.rs`): the rooms due, and a room's
//! deadlines with its game's recorded reminders. Its writes are in `postgres/writes.rs`.

use tokio_postgres::Client;

use super::describe;
use crate::columns::{faction_from_text, from_json};
use crate::deadlines::{ReminderKind, StoredDeadlines, StoredReminder, sql};
use crate::{Deadlines, StoreError};

fn read_error(e: tokio_postgres::Error) -> StoreError {
    StoreError::Read(describe(&e))
}

pub(super) async fn due_rooms(c: &Client, now_ms: i64, limit: usize) -> Result<Vec<String>, StoreError> {
    let rows = c
        .query(&sql::postgres(sql::DUE_ROOMS), &[&now_ms, &(limit as i64)])
        .await
        .map_err(read_error)?;
    rows.iter().map(|r| r.try_get(0).map_err(read_error)).collect()
}

pub(super) async fn load_deadlines(c: &Client, code: &str, game_no: u32) -> Result<StoredDeadlines, StoreError> {
    let Some(row) = c
        .query_opt(&sql::postgres(sql::ROOM_WAKE), &[&code])
        .await
        .map_err(read_error)?
    else {
        return Ok(StoredDeadlines::default());
    };
    let wake_at: Option<i64> = row.try_get(0).map_err(read_error)?;
    let deadlines: Option<String> = row.try_get(1).map_err(read_error)?;
    let deadlines = deadlines
        .map(|d| from_json::<Deadlines>(&d, || format!("room {code}: deadlines")))
        .transpose()?;
    let rows = c
        .query(&sql::postgres(sql::REMINDERS), &[&code, &i64::from(game_no)])
        .await
        .map_err(read_error)?;
    let mut reminders = Vec::with_capacity(rows.len());
    for r in &rows {
        let side: String = r.try_get(0).map_err(read_error)?;
        let seq: i64 = r.try_get(1).map_err(read_error)?;
        let kind: String = r.try_get(2).map_err(read_error)?;
        reminders.push(StoredReminder {
            game_no,
            side: faction_from_text(&side)?,
            decision_seq: u32::try_from(seq).map_err(|_| StoreError::Corrupt {
                what: format!("room {code}: reminder seq {seq}"),
            })?,
            kind: ReminderKind::from_text(&kind)?,
        });
    }
    Ok(StoredDeadlines {
        wake_at,
        deadlines,
        reminders,
    })
}
