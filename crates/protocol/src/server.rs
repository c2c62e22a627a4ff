//! Messages from the server to one connection. Every game payload is the recipient's own
//! projection (`evr_rules::View`, `evr_rules::LogEntry`); nothing else about a game is ever sent.

use evr_rules::{LogEntry, View, ViewChanges};
use serde::{Deserialize, Serialize};

use crate::{ChatMessage, ClockView, ErrorCode, Presence, Role, RoomInfo};

/// A server message.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMsg {
    /// Answer to `hello`: who you are and the full current view.
    /// `log`: the whole log of the current game, as you may know it, so a reload or a reconnect
    /// shows everything that happened (not only the current round, which is `view.log`).
    /// `missed`: after a reconnect with `last_seq` in this game, what happened since, as you may
    /// know it (the tail of `log`); `None` when the server cannot tell.
    /// `chat`: the room's latest chat messages you may read (up to `CHAT_HISTORY`), oldest first.
    /// `clock`: the clocks now, in a room with a time control.
    Welcome {
        version: u32,
        you: Role,
        room: RoomInfo,
        seq: u32,
        view: Box<View>,
        presence: Presence,
        log: Vec<LogEntry>,
        missed: Option<Vec<LogEntry>>,
        chat: Vec<ChatMessage>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", ts(optional))]
        clock: Option<ClockView>,
    },
    /// The game changed. `changes`: the fields of your view that changed since `seq - 1` (apply
    /// them to the view you hold: each present field replaces yours; `null` means it became empty).
    /// `events` are what happened since `seq - 1`, as you may know it. `clock`: the clocks after
    /// it, in a room with a time control.
    Update {
        seq: u32,
        changes: Box<ViewChanges>,
        events: Vec<LogEntry>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", ts(optional))]
        clock: Option<ClockView>,
    },
    /// Your action `action_id` was stored and applied as update `seq` (sent again, with the same
    /// `seq`, if the same action id arrives twice).
    Ack {
        action_id: String,
        seq: u32,
    },
    /// Room facts changed (a new game after a rematch, a rematch request).
    Room {
        room: RoomInfo,
    },
    /// Chat messages you may now read, oldest first: a new message, or, when a game ends, what the
    /// spectators wrote during it (for the seats).
    Chat {
        messages: Vec<ChatMessage>,
    },
    /// The clocks changed without an update: they started (both seats taken) or stopped (the game
    /// ended, a clock ran out).
    Clock {
        clock: ClockView,
    },
    /// Who is connected changed.
    Presence {
        presence: Presence,
    },
    /// A message was refused; nothing changed. `action_id` names the refused action, if any.
    Error {
        code: ErrorCode,
        message: String,
        action_id: Option<String>,
    },
    Pong,
}
