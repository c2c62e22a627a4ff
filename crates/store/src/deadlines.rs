//! What a correspondence room stores about its deadlines, the same in every store: when each
//! side's current decision became due (`Deadlines`, JSON in `rooms.deadlines`), the moment the room
//! must next wake up (`rooms.wake_at`, ms since the epoch, indexed: [`Store::due_rooms`] finds the
//! rooms to wake with nobody connected) and the reminders recorded as sent (table `reminders`,
//! unique per game, side, decision and kind: a reminder is recorded before it is handed over, so
//! none is ever sent twice).
//!
//! [`Store::due_rooms`]: crate::Store::due_rooms

use evr_rules::{ByFaction, Faction};
use serde::{Deserialize, Serialize};

use super::StoreError;

/// A decision a side owes: since when (ms since the epoch) and the room's update `seq` at which it
/// became due (which identifies it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct DueDecision {
    pub at_ms: i64,
    pub seq: u32,
}

/// The decisions each side of game `game_no` owes, `[rebel, imperial]` (`None`: owes nothing).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Deadlines {
    pub game_no: u32,
    pub due: ByFaction<Option<DueDecision>>,
}

/// A room's deadlines and its next wake-up, written together under the room's claim.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wake {
    pub deadlines: Deadlines,
    /// When the room must next wake up (a deadline, a reminder), ms since the epoch; `None`: never.
    pub wake_at: Option<i64>,
}

/// The two reminders a decision may bring.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReminderKind {
    YourTurn,
    TimeRunningOut,
}

impl ReminderKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ReminderKind::YourTurn => "your_turn",
            ReminderKind::TimeRunningOut => "time_running_out",
        }
    }

    pub fn from_text(text: &str) -> Result<ReminderKind, StoreError> {
        match text {
            "your_turn" => Ok(ReminderKind::YourTurn),
            "time_running_out" => Ok(ReminderKind::TimeRunningOut),
            other => Err(StoreError::Corrupt {
                what: format!("reminder kind {other:?}"),
            }),
        }
    }
}

/// A reminder recorded as sent: at most one per game, side, decision and kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct StoredReminder {
    pub game_no: u32,
    pub side: Faction,
    /// The update `seq` at which the decision became due.
    pub decision_seq: u32,
    pub kind: ReminderKind,
}

/// What a room stored about its deadlines, for its recovery.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StoredDeadlines {
    pub wake_at: Option<i64>,
    pub deadlines: Option<Deadlines>,
    /// The reminders recorded for the game asked for.
    pub reminders: Vec<StoredReminder>,
}

/// SQL shared by both stores (the placeholders are SQLite's `?N`, which PostgreSQL's `$N` mirror).
pub(super) mod sql {
    /// Sets a room's deadlines and wake-up under its claim: `(code, deadlines, wake_at, epoch)`.
    pub const SET_WAKE: &str = "UPDATE rooms SET deadlines = ?2, wake_at = ?3 WHERE code = ?1 AND owner_epoch = ?4";
    /// A game's end leaves nothing due: `(code, epoch)`.
    pub const CLEAR_WAKE: &str = "UPDATE rooms SET wake_at = NULL WHERE code = ?1 AND owner_epoch = ?2";
    /// Records a reminder under the room's claim; a reminder already recorded writes nothing (and
    /// the write is then refused as fenced): `(code, game_no, side, decision_seq, kind, at, epoch)`.
    pub const RECORD_REMINDER: &str =
        "INSERT INTO reminders (room_code, game_no, side, decision_seq, kind, recorded_at)
         SELECT ?1, ?2, ?3, ?4, ?5, ?6 WHERE EXISTS (SELECT 1 FROM rooms WHERE code = ?1 AND owner_epoch = ?7)
         ON CONFLICT DO NOTHING";
    pub const DUE_ROOMS: &str = "SELECT code FROM rooms WHERE wake_at <= ?1 ORDER BY wake_at LIMIT ?2";
    pub const ROOM_WAKE: &str = "SELECT wake_at, deadlines FROM rooms WHERE code = ?1";
    pub const REMINDERS: &str = "SELECT side, decision_seq, kind FROM reminders WHERE room_code = ?1 AND game_no = ?2";

    /// The same statement with PostgreSQL's placeholders (`?N` → `$N`).
    pub fn postgres(sql: &str) -> String {
        sql.replace('?', "$")
    }
}

/// The schema both stores add for deadlines (SQLite's version 9, PostgreSQL's version 3): the
/// same text, since both accept these types.
pub(super) const SCHEMA: &str = "
ALTER TABLE rooms ADD COLUMN wake_at BIGINT;
ALTER TABLE rooms ADD COLUMN deadlines TEXT;
CREATE INDEX rooms_wake_at ON rooms (wake_at) WHERE wake_at IS NOT NULL;
CREATE TABLE reminders (
    room_code TEXT NOT NULL REFERENCES rooms(code),
    game_no BIGINT NOT NULL,
    side TEXT NOT NULL,
    decision_seq BIGINT NOT NULL,
    kind TEXT NOT NULL,
    recorded_at BIGINT NOT NULL,
    PRIMARY KEY (room_code, game_no, side, decision_seq, kind)
);
";
