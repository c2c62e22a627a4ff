//! Who sits where: taking the free seat (with the invite link, or the room code and its join code),
//! the players' display names, moving a seat to another device, and a seat's summary for the list of
//! rooms a device holds. Watching needs only the room code; playing needs a secret only the
//! creator can hand out.

use evr_rules::{ByFaction, Faction, Outcome};
use serde::{Deserialize, Serialize};

use crate::{ClockView, ForfeitReason, Opponent, RoomOptions};

/// Longest display name of a player (or a spectator in the chat), in characters.
pub const MAX_NAME_CHARS: usize = 24;

/// Digits of a room's join code.
pub const JOIN_CODE_DIGITS: usize = 6;

/// Wrong join codes a room takes before its join code stops working (the invite link keeps
/// working; the creator can make a new code). A guesser's chance: at most this many in 10^6.
pub const MAX_WRONG_JOIN_CODES: u32 = 20;

/// How long a link that moves a seat to another device works, in seconds.
pub const TRANSFER_LINK_SECS: u64 = 600;

/// Devices a seat may be played on at once (the first one and those it was moved to).
pub const MAX_SEAT_DEVICES: usize = 8;

/// Body of `POST /api/rooms`: the room's options and, optionally, the creator's display name.
/// On the wire it is one object: the options' fields and `name`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct CreateRoom {
    #[serde(flatten)]
    pub options: RoomOptions,
    /// The creator's display name (1 to [`MAX_NAME_CHARS`] characters once trimmed, no control
    /// characters); absent: shown as their side.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub name: Option<String>,
}

/// Read by hand: the options refuse unknown fields, which serde cannot do through `flatten`.
impl<'de> Deserialize<'de> for CreateRoom {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<CreateRoom, D::Error> {
        use serde::de::Error;
        let mut fields = serde_json::Map::<String, serde_json::Value>::deserialize(d)?;
        let name = match fields.remove("name") {
            None | Some(serde_json::Value::Null) => None,
            Some(serde_json::Value::String(s)) => Some(s),
            Some(_) => return Err(D::Error::custom("name: a string")),
        };
        let options = RoomOptions::deserialize(serde_json::Value::Object(fields)).map_err(D::Error::custom)?;
        Ok(CreateRoom { options, name })
    }
}

/// Body of `POST /api/rooms/{code}/join`: exactly one of the secret from the invite link's
/// fragment (`invite`) or the join code the creator sees beside it (`join_code`, for a friend
/// who types the room code). The room code alone never takes a seat: it lets people watch.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct JoinRequest {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub invite: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub join_code: Option<String>,
    /// The joining player's display name; absent: shown as their side.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub name: Option<String>,
}

/// Answer to `POST /api/rooms/{code}/invite`: a new invite link and join code for the free seat
/// (the previous ones stop working). Only the creator may ask, while the other seat is free.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct NewInvite {
    pub invite_url: String,
    pub join_code: String,
}

/// Answer to `POST /api/rooms/{code}/transfer`: a link that seats another device in the
/// requesting player's seat, once, within [`TRANSFER_LINK_SECS`]; a newer link replaces it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct SeatTransfer {
    /// `/r/{code}/take#{secret}`: the secret travels in the fragment, never sent to servers.
    pub url: String,
    /// When it stops working, in milliseconds since 1970 (UTC).
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub expires_at: i64,
}

/// Body of `POST /api/rooms/{code}/take`: the secret of a transfer link.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct TakeSeat {
    pub secret: String,
}

/// One device a seat is played on (an item of [`SeatDevices`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct SeatDevice {
    /// The device that asked.
    pub this_device: bool,
    /// When the seat was moved to this device with a link, in seconds since 1970 (UTC); `null`
    /// for the device that holds the seat's first token (the one that created or joined the room,
    /// or the device kept when the others were signed out).
    #[cfg_attr(feature = "ts", ts(type = "number | null"))]
    pub added_at: Option<i64>,
    /// Whether the device is connected to the room now.
    pub connected: bool,
}

/// Answer to `GET /api/rooms/{code}/devices` with a seat token: the devices that seat is played
/// on (the seat's first device first, then in the order they were added).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct SeatDevices {
    pub devices: Vec<SeatDevice>,
    /// When the seat's link to another device (made, not used yet) stops working, in milliseconds
    /// since 1970 (UTC); `null` when there is none.
    #[cfg_attr(feature = "ts", ts(type = "number | null"))]
    pub link_expires_at: Option<i64>,
}

/// Answer to `POST /api/rooms/{code}/devices/sign-out-others` with a seat token: the asking
/// device is the seat's only one now. The other devices' tokens stop working (their connections are
/// closed with `bad_token`) and the seat's unused link to another device is dropped.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct SignedOut {
    /// How many devices were signed out.
    pub devices: u32,
}

/// Where a seat's game stands, from that seat's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum SeatState {
    /// The other seat is still free.
    WaitingForOpponent,
    /// The game waits for a decision of this seat (alone, or of both sides at once).
    YourTurn,
    /// The game waits for the opponent.
    TheirTurn,
    /// The game is over (see `outcome` and `forfeit_winner`).
    Over,
}

/// Answer to `GET /api/rooms/{code}/seat` with a seat token (`Authorization: Bearer …`): what the
/// list of a device's rooms shows of one room.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct SeatSummary {
    pub code: String,
    /// The token's side in the room's current game (sides swap at each rematch).
    pub you: Faction,
    /// The players' display names in the current game, `[rebel, imperial]`.
    pub names: ByFaction<Option<String>>,
    /// Who takes the other seat.
    pub opponent: Opponent,
    pub game_number: u32,
    pub state: SeatState,
    /// The current game's round (0 before the first).
    pub round: u32,
    /// Victory points now, `[rebel, imperial]`.
    pub vp: ByFaction<u32>,
    /// How the rules ended the game (`null` while it is played or when it was won outside them).
    pub outcome: Option<Outcome>,
    pub forfeit_winner: Option<Faction>,
    pub forfeit_reason: Option<ForfeitReason>,
    /// A correspondence room's clock as it stands at this answer (each side's deadline and time
    /// left), so the list can put the games where this seat owes a decision first, with the time
    /// left; `null` in rooms without one, in live rooms and once the game is over.
    #[serde(default)]
    pub clock: Option<ClockView>,
}
