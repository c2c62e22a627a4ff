//! What a room actor is asked to do, and the handle that asks it. Connections and HTTP handlers
//! talk to a room only through these.

use evr_protocol::{ChatBody, ChatChannel, ErrorCode, Role, RoomStatus};
use evr_rules::{Action, Faction};
use tokio::sync::{mpsc, oneshot};

/// Identifies one WebSocket connection.
pub type ConnId = u64;

pub use crate::outbox::Outbound;
use crate::outbox::Outbox;

/// What the room actor is asked to do.
#[derive(Debug)]
pub enum Command {
    /// A connection said hello. `reply` gets its role, or why it was refused.
    Connect {
        conn: ConnId,
        token: Option<String>,
        last_seq: Option<u32>,
        out: Outbox,
        reply: oneshot::Sender<Result<Role, ErrorCode>>,
    },
    Disconnect {
        conn: ConnId,
    },
    Action {
        conn: ConnId,
        based_on: u32,
        action_id: String,
        action: Action,
    },
    Rematch {
        conn: ConnId,
    },
    ClaimWin {
        conn: ConnId,
    },
    /// The player on `conn` agrees to reveal the finished game in its replay.
    RevealReplay {
        conn: ConnId,
    },
    /// A chat message from `conn`.
    Chat {
        conn: ConnId,
        channel: ChatChannel,
        body: ChatBody,
        name: Option<String>,
    },
    /// The guest takes the free seat with the invite secret, or with the code alone (`None`).
    Join {
        invite: Option<String>,
        reply: oneshot::Sender<Result<Joined, ErrorCode>>,
    },
    /// What anyone with the code may know of the room (HTTP).
    Status {
        reply: oneshot::Sender<RoomStatus>,
    },
    /// The computer opponent decided (`None`: it found nothing to do).
    ComputerAction {
        based_on: u32,
        action: Option<Action>,
    },
    /// Tell everyone the server is going away and stop.
    Shutdown,
}

/// Answer to a successful join.
#[derive(Clone, Debug)]
pub struct Joined {
    pub faction: Faction,
    pub token: String,
}

/// A cheap handle to a room actor.
#[derive(Clone)]
pub struct RoomHandle {
    pub tx: mpsc::Sender<Command>,
}
