//! The HTTP API: request and answer bodies, and the paths they go to. Every refused request is
//! answered with an [`ApiErrorBody`] and the status of its code ([`ErrorCode::http_status`]).

use evr_rules::{ByFaction, Faction, Outcome};
use serde::{Deserialize, Serialize};

use crate::{ErrorCode, ForfeitReason, SpectatorPolicy};

/// `POST` here with [`crate::RoomOptions`] to create a room; the answer is a [`CreatedRoom`] (201).
pub const CREATE_ROOM_PATH: &str = "/api/rooms";

/// Where to `POST` a [`crate::JoinRequest`] for room `code`; the answer is a [`JoinedRoom`] (200).
pub fn join_room_path(code: &str) -> String {
    format!("/api/rooms/{code}/join")
}

/// Where the creator `POST`s (with their seat token) for a new invite link and join code:
/// a [`crate::NewInvite`] (200).
pub fn invite_path(code: &str) -> String {
    format!("/api/rooms/{code}/invite")
}

/// Where a player `POST`s (with their seat token) for a link that moves their seat to another
/// device: a [`crate::SeatTransfer`] (201).
pub fn transfer_path(code: &str) -> String {
    format!("/api/rooms/{code}/transfer")
}

/// Where the other device `POST`s a [`crate::TakeSeat`] to take the seat: a [`JoinedRoom`] (200).
pub fn take_seat_path(code: &str) -> String {
    format!("/api/rooms/{code}/take")
}

/// `GET` here with a seat token for the devices that seat is played on: [`crate::SeatDevices`] (200).
pub fn devices_path(code: &str) -> String {
    format!("/api/rooms/{code}/devices")
}

/// Where a player `POST`s (with their seat token) to sign every other device out of their seat:
/// [`crate::SignedOut`] (200).
pub fn sign_out_others_path(code: &str) -> String {
    format!("/api/rooms/{code}/devices/sign-out-others")
}

/// `GET` here with a seat token for that seat's [`crate::SeatSummary`] (200).
pub fn seat_path(code: &str) -> String {
    format!("/api/rooms/{code}/seat")
}

/// `GET` here for what anyone with room `code` may know of it: a [`RoomStatus`] (200).
pub fn room_path(code: &str) -> String {
    format!("/api/rooms/{code}")
}

/// `GET` here for the replay file of game `game` (1, 2, … per rematch) of room `code`
/// (`proto/REPLAY.md`), once the game is over and both players agreed to reveal it.
pub fn replay_path(code: &str, game: u32) -> String {
    format!("/api/rooms/{code}/games/{game}/replay")
}

/// `GET` here for the room's games, finished and current: a [`GameArchive`] (200).
pub fn games_path(code: &str) -> String {
    format!("/api/rooms/{code}/games")
}

/// The WebSocket of room `code`.
pub fn websocket_path(code: &str) -> String {
    format!("/ws/{code}")
}

/// Answer to `POST /api/rooms`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct CreatedRoom {
    pub code: String,
    /// The creator's side.
    pub seat: Faction,
    /// The creator's seat token: keep it to come back to the seat.
    pub token: String,
    /// Link for the other player (the secret is in the fragment, never sent to servers); `null`
    /// when the computer takes the other seat.
    pub invite_url: Option<String>,
    /// Link for spectators; `null` when the room does not allow spectators.
    pub watch_url: Option<String>,
    /// The join code (`JOIN_CODE_DIGITS` digits) a friend types with the room code to take the
    /// other seat; only the creator is told it. `null` when the computer takes the other seat.
    pub join_code: Option<String>,
}

/// Answer to `GET /api/rooms/{code}`: what a person who typed the code needs to decide between
/// taking the free seat and watching.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct RoomStatus {
    /// The room's code as the server writes it (what was typed may differ in case or grouping).
    pub code: String,
    /// The other seat is still free: joining takes it.
    pub seat_free: bool,
    /// Whether people with the code may watch.
    pub spectators: SpectatorPolicy,
}

/// Answer to `POST /api/rooms/{code}/join`: the free seat is now the caller's.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct JoinedRoom {
    pub seat: Faction,
    /// The seat token: keep it to come back to the seat.
    pub token: String,
}

/// Body of every refused HTTP request.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ApiErrorBody {
    pub code: ErrorCode,
    /// A sentence for people (English); clients show their own text for `code`.
    pub message: String,
}

/// Answer to `GET /api/rooms/{code}/games`: every game of the room, oldest first (a rematch adds one).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct GameArchive {
    pub code: String,
    pub games: Vec<GameSummary>,
}

/// One game of a room. A game being played says only that it is (`over: false`, no result).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct GameSummary {
    /// 1, 2, … (one more per rematch).
    pub number: u32,
    /// When it started, in seconds since 1970 (UTC); `null` for games stored before dates were kept.
    #[cfg_attr(feature = "ts", ts(type = "number | null"))]
    pub started_at: Option<i64>,
    pub over: bool,
    /// How the rules ended it (`null` while it is played or when a win was claimed).
    pub outcome: Option<Outcome>,
    /// The side that won outside the rules (see `forfeit_reason`).
    pub forfeit_winner: Option<Faction>,
    /// Why: the win was claimed after the opponent stayed away, or the loser's clock ran out.
    pub forfeit_reason: Option<ForfeitReason>,
    /// Its replay file can be downloaded (`replay_path`): over, and revealed by both players.
    pub replay_available: bool,
    /// The players' display names in this game, `[rebel, imperial]` (`null`: shown as the side).
    pub names: ByFaction<Option<String>>,
}
