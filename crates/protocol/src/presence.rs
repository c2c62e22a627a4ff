//! Who is in a room: each seat's connection state and the spectator count.

use evr_rules::ByFaction;
use serde::{Deserialize, Serialize};

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
    pub seats: ByFaction<SeatPresence>,
    pub spectators: u32,
}
