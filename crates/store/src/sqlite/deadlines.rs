//! The SQLite store's deadlines (`deadlines.rs`): the writes the group commit applies with a
//! room's other writes, and the reads of the sweeper and of a room's recovery.

use rusqlite::{Connection, OptionalExtension, params};

use crate::columns::{faction_from_text, faction_text, from_json, json};
use crate::deadlines::{ReminderKind, StoredDeadlines, StoredReminder, Wake, sql};
use crate::{Deadlines, StoreError};

fn to_json(value: &impl serde::Serialize) -> Result<String, rusqlite::Error> {
    json(value).map_err(|e| rusqlite::Error::ToSqlConversionFailure(Box::new(e)))
}

fn read_error(e: rusqlite::Error) -> StoreError {
    StoreError::Read(e.to_string())
}

/// Sets the room's deadlines and wake-up if `epoch` is still its claim; rows written.
pub(super) fn set_wake(conn: &Connection, code: &str, wake: &Wake, epoch: i64) -> Result<usize, rusqlite::Error> {
    conn.prepare_cached(sql::SET_WAKE)?
        .execute(params![code, to_json(&wake.deadlines)?, wake.wake_at, epoch])
}

/// Clears the room's wake-up (its game ended) if `epoch` is still its claim.
pub(super) fn clear_wake(conn: &Connection, code: &str, epoch: i64) -> Result<usize, rusqlite::Error> {
    conn.prepare_cached(sql::CLEAR_WAKE)?.execute(params![code, epoch])
}

/// Records `reminder` (nothing if it was recorded already) and then the room's wake-up.
pub(super) fn record_reminder(
    conn: &Connection,
    code: &str,
    reminder: &StoredReminder,
    recorded_at: i64,
    wake: &Wake,
    epoch: i64,
) -> Result<usize, rusqlite::Error> {
    let rows = conn.prepare_cached(sql::RECORD_REMINDER)?.execute(params![
        code,
        reminder.game_no,
        faction_text(reminder.side),
        reminder.decision_seq,
        reminder.kind.as_str(),
        recorded_at,
        epoch
    ])?;
    if rows > 0 {
        set_wake(conn, code, wake, epoch)?;
    }
    Ok(rows)
}

pub(super) fn due_rooms(conn: &Connection, now_ms: i64, limit: usize) -> Result<Vec<String>, StoreError> {
    let mut stmt = conn.prepare_cached(sql::DUE_ROOMS).map_err(read_error)?;
    let rows = stmt
        .query_map(params![now_ms, limit as i64], |r| r.get::<_, String>(0))
        .map_err(read_error)?;
    rows.collect::<Result<Vec<_>, _>>().map_err(read_error)
}

pub(super) fn load_deadlines(conn: &Connection, code: &str, game_no: u32) -> Result<StoredDeadlines, StoreError> {
    let row = conn
        .prepare_cached(sql::ROOM_WAKE)
        .and_then(|mut s| {
            s.query_row([code], |r| {
                Ok((r.get::<_, Option<i64>>(0)?, r.get::<_, Option<String>>(1)?))
            })
            .optional()
        })
        .map_err(read_error)?;
    let Some((wake_at, deadlines)) = row else {
        return Ok(StoredDeadlines::default());
    };
    let deadlines = deadlines
        .map(|d| from_json::<Deadlines>(&d, || format!("room {code}: deadlines")))
        .transpose()?;
    let mut stmt = conn.prepare_cached(sql::REMINDERS).map_err(read_error)?;
    let rows = stmt
        .query_map(params![code, game_no], |r| {
            Ok((r.get::<_, String>(0)?, r.get::<_, u32>(1)?, r.get::<_, String>(2)?))
        })
        .map_err(read_error)?;
    let mut reminders = Vec::new();
    for row in rows {
        let (side, decision_seq, kind) = row.map_err(read_error)?;
        reminders.push(StoredReminder {
            game_no,
            side: faction_from_text(&side)?,
            decision_seq,
            kind: ReminderKind::from_text(&kind)?,
        });
    }
    Ok(StoredDeadlines {
        wake_at,
        deadlines,
        reminders,
    })
}
