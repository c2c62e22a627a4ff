//! The room: the options it was created with, the facts every connection may know, and what a
//! connection is in it.

use evr_rules::{ByFaction, Faction, Mode};
use serde::{Deserialize, Serialize};

use crate::{ForfeitReason, SeatRating, TimeControl};

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
    /// Every game of the room is revealed in full when it ends: its replay file (every secret
    /// choice) can be downloaded at once, as if both players had agreed (`reveal_replay`). The room's
    /// pages say so before anyone makes a secret choice. Absent means no.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    #[cfg_attr(feature = "ts", ts(optional, as = "Option<bool>"))]
    pub reveal_at_end: bool,
    /// A time control for every game of the room; absent: no clock.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub clock: Option<TimeControl>,
    /// Every game of the room that ends with a winner changes both players' ratings. Only a
    /// challenge both accounts agreed was rated makes such a room (`POST /api/rooms` refuses it).
    /// Absent means no.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    #[cfg_attr(feature = "ts", ts(optional, as = "Option<bool>"))]
    pub rated: bool,
}

/// What a connection is in a room.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "role", content = "faction", rename_all = "snake_case")]
pub enum Role {
    Seat(Faction),
    Spectator,
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
    pub rematch_requested: ByFaction<bool>,
    /// The game ended outside the rules with this side the winner: see `forfeit_reason`.
    pub forfeit_winner: Option<Faction>,
    /// Why (with `forfeit_winner`): the opponent stayed away and the win was claimed, or the
    /// loser's clock ran out.
    pub forfeit_reason: Option<ForfeitReason>,
    /// The current game's provably fair shuffles: its commitment, and its key and salt once it is
    /// over. `None` for a game stored before commitments existed.
    pub fairness: Option<Fairness>,
    /// Which players agreed to show everything of the finished game in its replay, `[rebel,
    /// imperial]`; its file can be downloaded once both did.
    pub reveal_agreed: ByFaction<bool>,
    /// The players' display names in the current game, `[rebel, imperial]` (`null`: shown as the
    /// side). Text, never markup.
    pub names: ByFaction<Option<String>>,
    /// In a rated room, the players' ratings, `[rebel, imperial]` (`null` for a seat whose rating
    /// is not known yet); absent in other rooms.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub ratings: Option<ByFaction<Option<SeatRating>>>,
}

/// Provably fair shuffles. When a game starts the server commits to its random key:
/// `commitment` = SHA-256(salt ‖ seed), lowercase hex, the 16-byte salt followed by the 32-byte seed.
/// `seed` (the ChaCha20 key every shuffle and random draw of the game comes from) and `salt` are
/// `null` while the game is being played and given to everyone, as lowercase hex, once it is over.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Fairness {
    pub commitment: String,
    pub seed: Option<String>,
    pub salt: Option<String>,
}
