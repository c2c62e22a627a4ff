//! # evr-protocol — the EvR Online wire protocol
//!
//! The one definition of everything that crosses the network: WebSocket messages both ways
//! ([`ClientMsg`], [`ServerMsg`]), HTTP bodies ([`CreatedRoom`], [`JoinRequest`], [`JoinedRoom`],
//! [`GameArchive`], [`ReplaySteps`], [`ApiErrorBody`]), error codes with their HTTP status and whether they are fatal ([`ErrorCode`]),
//! and the limits. Every type serializes and deserializes, so the server, the bot client, the load
//! generator and the tests all speak through these types; the browser's TypeScript types are
//! generated from them into `proto/ts` (a drift test fails when they differ).
//!
//! JSON over WebSocket. Every message is an object with a `type` field. The client opens
//! `/ws/{room_code}` and sends [`ClientMsg::Hello`] first; the server answers with
//! [`ServerMsg::Welcome`] (or an error and a close). After that:
//!
//! - every change of a room's game is one [`ServerMsg::Update`] with a contiguous `seq`, carrying what
//!   changed in the recipient's own view and its log entries (projected for that viewer by
//!   `evr-rules`);
//! - a client sends [`ClientMsg::Action`] naming the `seq` its decision was based on; a stale action
//!   is refused with `stale_action` and followed by a fresh view, never dropped silently;
//! - actions are idempotent per (seat, `action_id`).
//!
//! ```
//! use evr_protocol::{ClientMsg, PROTOCOL_VERSION};
//!
//! let hello: ClientMsg = serde_json::from_str(r#"{"type":"hello","version":2,"token":null,"last_seq":null}"#).unwrap();
//! assert_eq!(hello, ClientMsg::Hello { version: PROTOCOL_VERSION, token: None, last_seq: None });
//! ```

mod accounts;
mod chat;
mod client;
mod clock;
mod error_code;
mod friends;
mod http;
mod mail;
mod presence;
mod ratings;
mod replay_steps;
mod room;
mod seats;
mod server;
#[cfg(feature = "ts")]
pub mod typescript;

pub use accounts::{
    ACCOUNT_EMAIL_PATH, ACCOUNT_EXPORT_PATH, ACCOUNT_PATH, ACCOUNT_ROOMS_PATH, ADD_PASSKEY_BEGIN_PATH,
    ADD_PASSKEY_FINISH_PATH, AccountBrief, AccountDetails, AccountExport, AccountRoom, AccountRooms,
    CONFIRM_ACCOUNT_EMAIL_PATH, CeremonyFinish, CeremonyStart, DELETE_ACCOUNT_PATH, DeleteAccount, EMAIL_SIGN_IN_PATH,
    EmailSignIn, HeldSeat, KEEP_SEATS_PATH, KeepOutcome, KeepSeats, KeptSeat, KeptSeats, LINK_SIGN_IN_PATH, LinkSecret,
    MAX_SEATS_KEPT_AT_ONCE, MAX_USERNAME_CHARS, MIN_USERNAME_CHARS, PasskeyInfo, REGISTER_BEGIN_PATH,
    REGISTER_FINISH_PATH, RegisterBegin, SESSION_COOKIE, SESSION_PATH, SIGN_IN_BEGIN_PATH, SIGN_IN_FINISH_PATH,
    SIGN_IN_LINK_SECS, SIGN_OUT_OTHERS_PATH, SIGN_OUT_PATH, SessionInfo, SessionState, SetAccountEmail,
    SignedOutSessions, account_seat_path, passkey_path, session_path,
};
pub use chat::{CHAT_HISTORY, ChatAuthor, ChatBody, ChatChannel, ChatMessage, MAX_CHAT_CHARS, Phrase};
pub use client::ClientMsg;
pub use clock::{ClockView, Correspondence, ForfeitReason, LiveClock, TimeControl};
pub use error_code::ErrorCode;
pub use friends::{
    ACCEPT_CHALLENGE_PATH, ACCEPT_FRIEND_PATH, ACCOUNT_EVENTS_PATH, AddFriend, BLOCK_PATH, CHALLENGE_DAYS,
    CHALLENGE_PATH, CHALLENGE_SETTINGS_PATH, CHALLENGES_PATH, Challenge, ChallengeAccepted, ChallengeList,
    ChallengeSettings, DECLINE_CHALLENGE_PATH, DECLINE_FRIEND_PATH, FRIENDS_PATH, Friend, FriendAdded, FriendList,
    FriendName, FriendStatus, GameEnd, HEAD_TO_HEAD_GAMES, HEAD_TO_HEAD_PATH, HeadToHead, MAX_FRIENDS,
    MAX_OPEN_CHALLENGES, NewChallenge, ONLINE_WITHIN_SECS, OtherAccount, REMOVE_FRIEND_PATH, Record, SentAccepted,
    SharedGame, UNBLOCK_PATH, WhoMayChallenge,
};
pub use http::{
    ApiErrorBody, CREATE_ROOM_PATH, CreatedRoom, GameArchive, GameSummary, JoinedRoom, RoomStatus, devices_path,
    games_path, invite_path, join_room_path, replay_path, room_path, seat_path, sign_out_others_path, take_seat_path,
    transfer_path, websocket_path,
};
pub use mail::{
    MAIL_STATUS_PATH, MAX_EMAIL_BYTES, MailLanguage, MailStatus, ReminderSettings, RemindersSet, RemindersStatus,
    SetReminders, reminders_path,
};
pub use presence::{Presence, SeatPresence};
pub use ratings::{
    LEADERBOARD_MIN_GAMES, LEADERBOARD_PATH, LEADERBOARD_PLAYERS, Leaderboard, LeaderboardEntry, PLAYER_PAGE_GAMES,
    PLAYER_PATH, PlayerPage, RatedGame, RatingShown, SeatRating, SideEdge,
};
pub use replay_steps::{ReplayEyes, ReplayStep, ReplaySteps, replay_steps_path};
pub use room::{ComputerLevel, Fairness, Opponent, Role, RoomInfo, RoomOptions, SideChoice, SpectatorPolicy};
pub use seats::{
    CreateRoom, JOIN_CODE_DIGITS, JoinRequest, MAX_NAME_CHARS, MAX_SEAT_DEVICES, MAX_WRONG_JOIN_CODES, NewInvite,
    SeatDevice, SeatDevices, SeatState, SeatSummary, SeatTransfer, SignedOut, TRANSFER_LINK_SECS, TakeSeat,
};
pub use server::ServerMsg;

/// Bumped whenever a message changes incompatibly. `hello` carries it; a mismatch is refused with
/// [`ErrorCode::VersionMismatch`].
pub const PROTOCOL_VERSION: u32 = 2;

/// Largest accepted client frame in bytes.
pub const MAX_FRAME_BYTES: usize = 16 * 1024;

/// Longest accepted client action id.
pub const MAX_ACTION_ID_LEN: usize = 64;
