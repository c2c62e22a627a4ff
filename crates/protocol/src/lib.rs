//! # evr-protocol — the EvR Online wire protocol
//!
//! JSON over WebSocket. Every message is an object with a `type` field. The client opens
//! `/ws/{room_code}` and sends [`ClientMsg::Hello`] first; the server answers with
//! [`ServerMsg::Welcome`] (or an error and a close). After that:
//!
//! - every change of a room's game is one [`ServerMsg::Update`] with a contiguous `seq`, carrying the
//!   recipient's own view and log entries (projected for that viewer by `evr-rules`);
//! - a client sends [`ClientMsg::Action`] naming the `seq` its decision was based on; a stale action
//!   is refused with `stale_action` and followed by a fresh view, never dropped silently;
//! - actions are idempotent per (seat, `action_id`).
//!
//! ```
//! use evr_protocol::{ClientMsg, PROTOCOL_VERSION};
//!
//! let hello: ClientMsg = serde_json::from_str(r#"{"type":"hello","version":1,"token":null,"last_seq":null}"#).unwrap();
//! assert_eq!(hello, ClientMsg::Hello { version: PROTOCOL_VERSION, token: None, last_seq: None });
//! ```

mod client;
mod error_code;
mod server;

pub use client::ClientMsg;
pub use error_code::ErrorCode;
pub use server::{
    ComputerLevel, Opponent, Presence, Role, RoomInfo, RoomOptions, SeatPresence, ServerMsg, SideChoice,
    SpectatorPolicy,
};

/// Bumped whenever a message changes incompatibly. `hello` carries it; a mismatch is refused with
/// [`ErrorCode::VersionMismatch`].
pub const PROTOCOL_VERSION: u32 = 1;

/// Largest accepted client frame in bytes.
pub const MAX_FRAME_BYTES: usize = 16 * 1024;

/// Longest accepted client action id.
pub const MAX_ACTION_ID_LEN: usize = 64;
