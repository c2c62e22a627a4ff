//! What a room actor is asked to do, and the handle that asks it. Connections and HTTP handlers
//! talk to a room only through these.

use evr_protocol::{ChatBody, ChatChannel, ErrorCode, Role, RoomStatus};
use evr_rules::{Action, Faction};
use tokio::sync::{mpsc, oneshot};

/// Identifies one WebSocket connection.
pub type ConnId = u64;

pub use crate::outbox::Outbound;
use crate::outbox::Outbox;

/// What the room actor is asked to do. Commands wait in the room's mailbox, whose slots are as
/// large as the largest command: the large ones are boxed, which halves the mailbox's memory.
#[derive(Debug)]
pub enum Command {
    /// A connection said hello. Its `reply` gets its role, or why it was refused.
    Connect(Box<Connect>),
    Disconnect {
        conn: ConnId,
    },
    Action(Box<PlayerAction>),
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
    /// A chat message.
    Chat(Box<ChatLine>),
    /// The guest takes the free seat. Its `reply` gets the seat, or why it was refused.
    Join(Box<Join>),
    /// The creator asks for a new invite secret and join code (`token`: their seat token).
    NewInvite {
        token: String,
        reply: oneshot::Sender<Result<Invite, ErrorCode>>,
    },
    /// A player asks for a link that moves their seat to another device.
    IssueTransfer {
        token: String,
        reply: oneshot::Sender<Result<Transfer, ErrorCode>>,
    },
    /// Another device takes a seat with a transfer link's secret.
    TakeSeat {
        secret: String,
        reply: oneshot::Sender<Result<Joined, ErrorCode>>,
    },
    /// A device signed in to the account that keeps `seat` takes it (`account_seat.rs`).
    AccountDevice {
        seat: evr_store::StoredSeat,
        reply: oneshot::Sender<Result<Joined, ErrorCode>>,
    },
    /// The account that kept `seat` was deleted: its name leaves the seat.
    EraseName {
        seat: evr_store::StoredSeat,
        reply: oneshot::Sender<Result<(), ErrorCode>>,
    },
    /// A player asks for the devices their seat is played on.
    Devices {
        token: String,
        reply: oneshot::Sender<Result<evr_protocol::SeatDevices, ErrorCode>>,
    },
    /// A player signs every other device out of their seat; the reply counts them.
    SignOutOthers {
        token: String,
        reply: oneshot::Sender<Result<u32, ErrorCode>>,
    },
    /// The seat on `conn` sets (or clears) its display name.
    SetName {
        conn: ConnId,
        name: Option<String>,
    },
    /// What anyone with the code may know of the room (HTTP).
    Status {
        reply: oneshot::Sender<RoomStatus>,
    },
    /// The store says the room's claim is now `claimed`: if that is newer than the room's own,
    /// another server took it and the room lets go (`ownership.rs`).
    Moved {
        claimed: evr_store::Epoch,
    },
    /// The computer opponent decided (`None`: it found nothing to do).
    ComputerAction {
        based_on: u32,
        action: Option<Action>,
    },
    /// A correspondence deadline or reminder may be due (the sweeper, `crate::deadlines`): a room
    /// asleep or just loaded acts on it now.
    Deadlines,
    /// Tell everyone the server is going away and stop.
    Shutdown,
}

/// A connection said hello.
#[derive(Debug)]
pub struct Connect {
    pub conn: ConnId,
    pub token: Option<String>,
    pub last_seq: Option<u32>,
    pub out: Outbox,
    pub reply: oneshot::Sender<Result<Role, ErrorCode>>,
}

/// A player's action, as sent on `conn`.
#[derive(Debug)]
pub struct PlayerAction {
    pub conn: ConnId,
    pub based_on: u32,
    pub action_id: String,
    pub action: Action,
}

/// A chat message from `conn`.
#[derive(Debug)]
pub struct ChatLine {
    pub conn: ConnId,
    pub channel: ChatChannel,
    pub body: ChatBody,
    pub name: Option<String>,
}

/// The guest takes the free seat, with the invite secret or the join code, under a display name
/// (already checked, `None`: shown as the side).
#[derive(Debug)]
pub struct Join {
    pub by: JoinBy,
    pub name: Option<String>,
    pub reply: oneshot::Sender<Result<Joined, ErrorCode>>,
}

/// The secret a guest joins with.
#[derive(Debug)]
pub enum JoinBy {
    /// The secret of the invite link.
    Invite(String),
    /// The join code a friend types with the room code.
    JoinCode(String),
}

/// A new invite secret and join code (to be told only to the creator).
#[derive(Clone, Debug)]
pub struct Invite {
    pub secret: String,
    pub join_code: String,
}

/// A link that moves a seat to another device: its secret and when it expires (ms since 1970).
#[derive(Clone, Debug)]
pub struct Transfer {
    pub secret: String,
    pub expires_at: i64,
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
    /// The room's claim on its store (`ownership.rs`).
    pub ownership: std::sync::Arc<super::ownership::Ownership>,
}
