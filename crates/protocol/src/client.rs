//! Messages from a browser (or bot) to the server.

use evr_rules::Action;
use serde::{Deserialize, Serialize};

use crate::{ChatBody, ChatChannel};

/// A client message.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMsg {
    /// First message on a connection. `token`: the seat token (absent for spectators).
    /// `last_seq`: the last update this client saw, to resume after a reconnect.
    Hello {
        version: u32,
        token: Option<String>,
        last_seq: Option<u32>,
    },
    /// A game action, decided on the view of update `based_on`. `action_id` is chosen by the client
    /// and makes the action idempotent: sending it again does not apply it twice.
    Action {
        based_on: u32,
        action_id: String,
        action: Action,
    },
    /// Ask for (or accept) a rematch once the game is over; sides swap.
    Rematch,
    /// Claim the win after the opponent stayed disconnected past the grace period.
    ClaimWin,
    /// Agree to show everything of the finished game in its replay (both players' hidden choices,
    /// hands and deck orders). The replay file can be downloaded once both seats agreed.
    RevealReplay,
    /// A chat message on `channel` (seats write the players' channel, spectators the spectators').
    /// `name`: the display name of a spectator (1 to `MAX_NAME_CHARS` characters; seats send none:
    /// they are shown under their display name, `set_name`, or as their side). Stored, then sent to everyone who may read it as `chat`.
    Chat {
        channel: ChatChannel,
        body: ChatBody,
        #[serde(default)]
        name: Option<String>,
    },
    /// A seat sets its display name (1 to `MAX_NAME_CHARS` characters once trimmed, no control
    /// characters), or clears it (`null`: shown as its side). Stored, then told to everyone in
    /// `room.names`.
    SetName { name: Option<String> },
    /// Keep-alive; answered with `pong`.
    Ping,
}
