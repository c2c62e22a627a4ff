//! Stable error codes on the wire. Rule errors keep the engine's codes (`evr_rules::RuleError::code`).

use serde::{Serialize, Serializer};

/// Why the server refused a message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(type = "string"))]
pub enum ErrorCode {
    /// The frame is not valid JSON or not a known message.
    BadMessage,
    /// The frame is larger than [`crate::MAX_FRAME_BYTES`].
    FrameTooLarge,
    /// `hello` carried another protocol version.
    VersionMismatch,
    /// The first message was not `hello`, or `hello` came twice.
    HelloExpected,
    /// No room with that code.
    RoomNotFound,
    /// Too many rooms created from this address recently.
    TooManyRooms,
    /// The seat token or invite secret does not belong to this room.
    BadToken,
    /// The invite was already used: both seats are taken.
    SeatTaken,
    /// This room does not allow spectators.
    SpectatorsNotAllowed,
    /// A spectator tried to act.
    SpectatorCannotAct,
    /// The action was decided on an older view; a fresh one follows.
    StaleAction,
    /// The action id is empty or too long.
    BadActionId,
    /// Too many messages: slow down.
    RateLimited,
    /// The game has not started: the other seat is still free.
    WaitingForOpponent,
    /// Rematch asked before the game ended.
    GameNotOver,
    /// Claim-win refused: the opponent is connected or the grace period has not passed.
    CannotClaimWin,
    /// The server could not store the action; nothing changed.
    StorageFailed,
    /// The server is shutting down.
    ShuttingDown,
    /// The game refused the action (the code is the engine's, e.g. `not_your_turn`).
    Rule(evr_rules::RuleError),
}

impl ErrorCode {
    /// The stable snake_case code.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::BadMessage => "bad_message",
            ErrorCode::FrameTooLarge => "frame_too_large",
            ErrorCode::VersionMismatch => "version_mismatch",
            ErrorCode::HelloExpected => "hello_expected",
            ErrorCode::RoomNotFound => "room_not_found",
            ErrorCode::BadToken => "bad_token",
            ErrorCode::SeatTaken => "seat_taken",
            ErrorCode::TooManyRooms => "too_many_rooms",
            ErrorCode::SpectatorsNotAllowed => "spectators_not_allowed",
            ErrorCode::SpectatorCannotAct => "spectator_cannot_act",
            ErrorCode::StaleAction => "stale_action",
            ErrorCode::BadActionId => "bad_action_id",
            ErrorCode::RateLimited => "rate_limited",
            ErrorCode::WaitingForOpponent => "waiting_for_opponent",
            ErrorCode::GameNotOver => "game_not_over",
            ErrorCode::CannotClaimWin => "cannot_claim_win",
            ErrorCode::StorageFailed => "storage_failed",
            ErrorCode::ShuttingDown => "shutting_down",
            ErrorCode::Rule(e) => e.code(),
        }
    }

    /// Every non-rule code (rule codes: `evr_rules::RuleError::ALL`).
    pub const PROTOCOL: [ErrorCode; 18] = [
        ErrorCode::BadMessage,
        ErrorCode::FrameTooLarge,
        ErrorCode::VersionMismatch,
        ErrorCode::HelloExpected,
        ErrorCode::RoomNotFound,
        ErrorCode::BadToken,
        ErrorCode::SeatTaken,
        ErrorCode::TooManyRooms,
        ErrorCode::SpectatorsNotAllowed,
        ErrorCode::SpectatorCannotAct,
        ErrorCode::StaleAction,
        ErrorCode::BadActionId,
        ErrorCode::RateLimited,
        ErrorCode::WaitingForOpponent,
        ErrorCode::GameNotOver,
        ErrorCode::CannotClaimWin,
        ErrorCode::StorageFailed,
        ErrorCode::ShuttingDown,
    ];
}

impl Serialize for ErrorCode {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::ErrorCode;

    #[test]
    fn codes_are_unique_across_protocol_and_rules() {
        let mut all: Vec<&str> = ErrorCode::PROTOCOL.iter().map(|c| c.as_str()).collect();
        all.extend(evr_rules::RuleError::ALL.iter().map(|e| e.code()));
        let n = all.len();
        all.sort();
        all.dedup();
        assert_eq!(all.len(), n, "an error code is used twice");
    }
}
