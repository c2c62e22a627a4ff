//! Stable error codes on the wire, with the HTTP status each is answered with and whether it is
//! fatal. Rule errors keep the engine's codes (`evr_rules::RuleError::code`).
//!
//! The table in `protocol_errors!` below is the one definition of every protocol error: one line
//! gives the variant, its code, its status and whether it is fatal. The TypeScript union
//! (`proto/ts/ErrorCode.ts`) and the table of statuses (`proto/ts/errorCodes.ts`) are generated
//! from it, and the browser's translations are keyed by that union, so a new code does not compile
//! anywhere until it is translated.

use evr_rules::RuleError;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

macro_rules! protocol_errors {
    ($( $(#[doc = $doc:literal])* $variant:ident = $code:literal, status $status:literal, fatal $fatal:literal; )*) => {
        /// Why the server refused a message or a request.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum ErrorCode {
            $( $(#[doc = $doc])* $variant, )*
            /// The game refused the action (the code is the engine's, e.g. `not_your_turn`).
            Rule(RuleError),
        }

        impl ErrorCode {
            /// Every code that is not a rule error, in table order.
            pub const PROTOCOL: &'static [ErrorCode] = &[ $( ErrorCode::$variant, )* ];

            /// The stable snake_case code.
            pub fn as_str(self) -> &'static str {
                match self {
                    $( ErrorCode::$variant => $code, )*
                    ErrorCode::Rule(e) => e.code(),
                }
            }

            /// The HTTP status an API request refused with this code gets. On a WebSocket the
            /// code travels in an `error` message; the status documents its kind there.
            pub fn http_status(self) -> u16 {
                match self {
                    $( ErrorCode::$variant => $status, )*
                    ErrorCode::Rule(_) => 422,
                }
            }

            /// Fatal: the server closes the connection after it, and connecting again with the
            /// same token, room and version cannot succeed. A client stops retrying.
            pub fn is_fatal(self) -> bool {
                match self {
                    $( ErrorCode::$variant => $fatal, )*
                    ErrorCode::Rule(_) => false,
                }
            }
        }
    };
}

protocol_errors! {
    /// The frame or body is not valid JSON or not a known message.
    BadMessage = "bad_message", status 400, fatal false;
    /// The frame (or an API request's body) is larger than [`crate::MAX_FRAME_BYTES`].
    FrameTooLarge = "frame_too_large", status 413, fatal false;
    /// `hello` carried another protocol version.
    VersionMismatch = "version_mismatch", status 400, fatal true;
    /// The first message was not `hello`: the connection is closed.
    HelloExpected = "hello_expected", status 400, fatal true;
    /// `hello` came again on a connection that already said it; the connection stays as it was.
    HelloRepeated = "hello_repeated", status 400, fatal false;
    /// No room with that code.
    RoomNotFound = "room_not_found", status 404, fatal true;
    /// Too many rooms created from this address recently.
    TooManyRooms = "too_many_rooms", status 429, fatal false;
    /// The seat token or invite secret does not belong to this room.
    BadToken = "bad_token", status 403, fatal true;
    /// The invite was already used: both seats are taken.
    SeatTaken = "seat_taken", status 409, fatal false;
    /// The join code typed with the room code is not this room's.
    BadJoinCode = "bad_join_code", status 403, fatal false;
    /// Too many wrong join codes: from this address recently, or for this room (its join code then
    /// no longer works; the invite link does, and the creator can make a new code).
    TooManyJoinAttempts = "too_many_join_attempts", status 429, fatal false;
    /// A display name that is empty once trimmed, longer than `MAX_NAME_CHARS`, or holds control
    /// characters; nothing changed.
    BadName = "bad_name", status 400, fatal false;
    /// The link that moves a seat to another device was used already, has expired (10 minutes),
    /// or was replaced by a newer one.
    TransferLinkInvalid = "transfer_link_invalid", status 410, fatal false;
    /// The seat is already played on as many devices as a seat may be (`MAX_SEAT_DEVICES`).
    TooManyDevices = "too_many_devices", status 409, fatal false;
    /// Only the player who created the room may do this (a new invite link and join code).
    NotRoomCreator = "not_room_creator", status 403, fatal false;
    /// This room does not allow spectators.
    SpectatorsNotAllowed = "spectators_not_allowed", status 403, fatal true;
    /// A spectator tried to act.
    SpectatorCannotAct = "spectator_cannot_act", status 403, fatal false;
    /// The action was decided on an older view; a fresh one follows.
    StaleAction = "stale_action", status 409, fatal false;
    /// The action id is empty or too long.
    BadActionId = "bad_action_id", status 400, fatal false;
    /// Too many messages, connections or replays from this client: slow down.
    RateLimited = "rate_limited", status 429, fatal false;
    /// The game has not started: the other seat is still free.
    WaitingForOpponent = "waiting_for_opponent", status 409, fatal false;
    /// Rematch asked before the game ended.
    GameNotOver = "game_not_over", status 409, fatal false;
    /// No game with that number in this room.
    GameNotFound = "game_not_found", status 404, fatal false;
    /// The replay shows everything: both players must agree first (`reveal_replay`).
    ReplayNotRevealed = "replay_not_revealed", status 403, fatal false;
    /// A game stored before commitments existed has no verifiable replay.
    ReplayUnavailable = "replay_unavailable", status 409, fatal false;
    /// A chat message on a channel this connection may not write (a seat on the spectators', a
    /// spectator on the players').
    ChatNotAllowed = "chat_not_allowed", status 403, fatal false;
    /// A chat message that is empty, longer than `MAX_CHAT_CHARS`, or from a spectator without a
    /// valid name; nothing was stored.
    BadChat = "bad_chat", status 400, fatal false;
    /// Too many chat messages from this connection: wait a moment.
    ChatRateLimited = "chat_rate_limited", status 429, fatal false;
    /// Claim-win refused: the opponent is connected or the grace period has not passed.
    CannotClaimWin = "cannot_claim_win", status 409, fatal false;
    /// Nothing is at this address (an API path the server does not have).
    NotFound = "not_found", status 404, fatal false;
    /// The address does not take this method (e.g. `GET /api/rooms`).
    MethodNotAllowed = "method_not_allowed", status 405, fatal false;
    /// A plain HTTP request to the WebSocket address `/ws/{code}`.
    WebsocketRequired = "websocket_required", status 426, fatal true;
    /// A WebSocket or a state-changing request from a page of another site (`--public-origin`, else
    /// the request's own address).
    OriginNotAllowed = "origin_not_allowed", status 403, fatal true;
    /// This server sends no mail (`--smtp-url` is not set): reminders are not offered.
    MailDisabled = "mail_disabled", status 404, fatal false;
    /// Not an email address this server sends reminders to (one `local@domain`, at most
    /// `MAX_EMAIL_BYTES`).
    BadEmail = "bad_email", status 400, fatal false;
    /// The SMTP server did not take the confirmation mail; try again later.
    MailNotSent = "mail_not_sent", status 502, fatal false;
    /// The request needs a signed-in account (the session cookie is missing, expired or ended).
    NotSignedIn = "not_signed_in", status 401, fatal false;
    /// This server offers no accounts (its public origin is not a host name passkeys can use).
    AccountsDisabled = "accounts_disabled", status 404, fatal false;
    /// A username that is not 2 to 20 letters, digits, `_`, `-` or `.`.
    BadUsername = "bad_username", status 400, fatal false;
    /// Another account has this username (ignoring case and look-alike characters).
    UsernameTaken = "username_taken", status 409, fatal false;
    /// The username is kept back (the site's own words, or a deleted account's).
    UsernameReserved = "username_reserved", status 409, fatal false;
    /// The passkey's answer did not verify, or no account has that passkey.
    PasskeyRefused = "passkey_refused", status 400, fatal false;
    /// The passkey ceremony was finished already or took longer than 5 minutes: begin again.
    CeremonyExpired = "ceremony_expired", status 410, fatal false;
    /// The account's only passkey cannot be removed while it has no confirmed email address.
    LastWayToSignIn = "last_way_to_sign_in", status 409, fatal false;
    /// The sign-in or confirmation link was used already or has expired.
    SignInLinkInvalid = "sign_in_link_invalid", status 410, fatal false;
    /// The signed-in account does not keep a seat of this room.
    SeatNotKept = "seat_not_kept", status 403, fatal false;
    /// The username typed to confirm deleting the account is not the account's.
    ConfirmationMismatch = "confirmation_mismatch", status 400, fatal false;
    /// No account has this username (or it is the asking account's own).
    PlayerNotFound = "player_not_found", status 404, fatal false;
    /// Only friends may do this (challenge, see the record between them).
    NotFriends = "not_friends", status 403, fatal false;
    /// The player takes no challenges.
    ChallengesClosed = "challenges_closed", status 403, fatal false;
    /// Too many open challenges sent (20).
    TooManyChallenges = "too_many_challenges", status 429, fatal false;
    /// Too many friends and friend requests sent (200).
    TooManyFriends = "too_many_friends", status 409, fatal false;
    /// You blocked this player: unblock them first.
    PlayerBlocked = "player_blocked", status 409, fatal false;
    /// No open challenge with this id for you: it was answered, withdrawn or accepted already, or it expired.
    ChallengeNotFound = "challenge_not_found", status 404, fatal false;
    /// No friend request from this player to answer.
    NoFriendRequest = "no_friend_request", status 404, fatal false;
    /// The server could not store or load; nothing changed.
    StorageFailed = "storage_failed", status 500, fatal false;
    /// The server is shutting down, or the room moved to another server (several servers sharing
    /// one store); connect again in a moment.
    ShuttingDown = "shutting_down", status 503, fatal false;
}

impl ErrorCode {
    /// Every code, protocol codes first, then the engine's.
    pub fn all() -> impl Iterator<Item = ErrorCode> {
        ErrorCode::PROTOCOL
            .iter()
            .copied()
            .chain(RuleError::ALL.iter().copied().map(ErrorCode::Rule))
    }

    /// The error with this code, if there is one.
    pub fn from_code(code: &str) -> Option<ErrorCode> {
        ErrorCode::all().find(|c| c.as_str() == code)
    }
}

impl From<RuleError> for ErrorCode {
    fn from(e: RuleError) -> ErrorCode {
        ErrorCode::Rule(e)
    }
}

impl std::fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for ErrorCode {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for ErrorCode {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<ErrorCode, D::Error> {
        let code = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        ErrorCode::from_code(&code).ok_or_else(|| serde::de::Error::custom(format!("unknown error code {code:?}")))
    }
}

/// In TypeScript an error code is the union of every code string.
#[cfg(feature = "ts")]
impl ts_rs::TS for ErrorCode {
    type WithoutGenerics = Self;
    type OptionInnerType = Self;

    fn docs() -> Option<String> {
        Some("/**\n * Why the server refused a message or a request (crates/protocol/src/error_code.rs).\n */\n".into())
    }

    fn name(_: &ts_rs::Config) -> String {
        "ErrorCode".into()
    }

    fn inline(_: &ts_rs::Config) -> String {
        ErrorCode::all()
            .map(|c| format!("\"{}\"", c.as_str()))
            .collect::<Vec<_>>()
            .join(" | ")
    }

    fn decl(cfg: &ts_rs::Config) -> String {
        format!("type ErrorCode = {};", <Self as ts_rs::TS>::inline(cfg))
    }

    fn decl_concrete(cfg: &ts_rs::Config) -> String {
        <Self as ts_rs::TS>::decl(cfg)
    }

    fn output_path() -> Option<std::path::PathBuf> {
        Some("ErrorCode.ts".into())
    }
}

#[cfg(test)]
mod tests {
    use super::ErrorCode;

    #[test]
    fn codes_are_unique_across_protocol_and_rules() {
        let mut all: Vec<&str> = ErrorCode::all().map(|c| c.as_str()).collect();
        let n = all.len();
        all.sort();
        all.dedup();
        assert_eq!(all.len(), n, "an error code is used twice");
    }

    #[test]
    fn every_code_reads_back_from_its_wire_form() {
        for code in ErrorCode::all() {
            let json = serde_json::to_string(&code).unwrap();
            assert_eq!(json, format!("\"{}\"", code.as_str()));
            assert_eq!(serde_json::from_str::<ErrorCode>(&json).unwrap(), code);
        }
        assert!(serde_json::from_str::<ErrorCode>("\"no_such_code\"").is_err());
    }

    #[test]
    fn statuses_are_client_or_server_errors_and_rule_errors_are_not_fatal() {
        for code in ErrorCode::all() {
            assert!((400..600).contains(&code.http_status()), "{code}");
        }
        assert!(ErrorCode::BadToken.is_fatal() && !ErrorCode::StaleAction.is_fatal());
        assert!(!ErrorCode::Rule(evr_rules::RuleError::NotYourTurn).is_fatal());
    }
}
