//! Messages from the server to one connection. Every game payload is the recipient's own
//! projection (`evr_rules::View`, `evr_rules::LogEntry`); nothing else about a game is ever sent.

use evr_rules::{Faction, LogEntry, Mode, View};
use serde::{Deserialize, Serialize};

use crate::ErrorCode;

/// Which side the room creator takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum SideChoice {
    Rebel,
    Imperial,
    Random,
}

/// Whether people with the watch link may spectate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum SpectatorPolicy {
    Off,
    AnyoneWithLink,
}

/// How strong the computer opponent plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum ComputerLevel {
    Easy,
    Normal,
    Hard,
}

/// Who takes the other seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Opponent {
    /// A friend joins with the invite link.
    #[default]
    Friend,
    /// The server's computer player takes the seat at once.
    Computer { level: ComputerLevel },
}

/// The options of `POST /api/rooms`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct RoomOptions {
    pub side: SideChoice,
    pub mode: Mode,
    pub spectators: SpectatorPolicy,
    /// Who takes the other seat; absent means a friend.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub opponent: Option<Opponent>,
}

/// What a connection is in a room.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "role", content = "faction", rename_all = "snake_case")]
pub enum Role {
    Seat(Faction),
    Spectator,
}

/// Presence of one seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct SeatPresence {
    /// Someone holds this seat's token.
    pub taken: bool,
    /// At least one connection of this seat is open.
    pub connected: bool,
    /// Seconds until the opponent may claim the win (while disconnected in a running game).
    pub claim_in_seconds: Option<u32>,
}

/// Who is here: `[rebel, imperial]` seats and the spectator count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Presence {
    pub seats: [SeatPresence; 2],
    pub spectators: u32,
}

/// Room facts every connection may know.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct RoomInfo {
    pub code: String,
    pub options: RoomOptions,
    /// 1 for the first game, 2 after the first rematch, …
    pub game_number: u32,
    /// Who asked for a rematch of the finished game, `[rebel, imperial]`.
    pub rematch_requested: [bool; 2],
    /// The game ended because this side claimed the win after the opponent stayed away.
    pub forfeit_winner: Option<Faction>,
}

/// A server message.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMsg {
    /// Answer to `hello`: who you are and the full current view.
    /// `missed`: after a reconnect with `last_seq` in this game, what happened since, as you may
    /// know it; `None` when the server cannot tell (the view is complete either way).
    Welcome {
        version: u32,
        you: Role,
        room: RoomInfo,
        seq: u32,
        view: Box<View>,
        presence: Presence,
        missed: Option<Vec<LogEntry>>,
    },
    /// The game changed. `events` are what happened since `seq - 1`, as you may know it.
    Update {
        seq: u32,
        view: Box<View>,
        events: Vec<LogEntry>,
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
