//! # evr-store — durable storage of EvR Online
//!
//! Rooms, seats (token hashes, names, devices, transfer links), games (seeds) and every accepted
//! action, behind the [`Store`] trait so that the server's rooms never depend on one database (and
//! tests can make it fail): the embedded SQLite ([`SqliteStore`]) and PostgreSQL for several servers
//! ([`PostgresStore`]), each with group commit, and the claims that fence a stale owner's writes.
//!
//! The action log plus the seed rebuild any match after a restart. Every writer waits for its
//! commit before the room acknowledges or broadcasts anything. Values cross this boundary typed
//! (factions, actions, options, results); only an implementation turns them into its own columns.

mod accounts;
mod columns;
mod deadlines;
mod friends;
mod group_commit;
mod mail;
mod postgres;
mod ratings;
mod secret;
pub mod signals;
mod sqlite;

use std::path::PathBuf;

use evr_protocol::{ForfeitReason, RoomOptions};
use evr_rules::{Action, ByFaction, Faction};
use serde::{Deserialize, Serialize};
use tokio::sync::oneshot;

pub use self::accounts::{
    AccountCreated, AccountId, AccountSeat, AccountStore, MailAllowed, NewAccount, PasskeyRemoved, SeatKept,
    StoredAccount, StoredCeremony, StoredPasskey, StoredSession,
};
pub use self::deadlines::{Deadlines, DueDecision, ReminderKind, StoredDeadlines, StoredReminder, Wake};
pub use self::friends::{
    CHALLENGE_TTL_MS, ChallengeCreated, ChallengesFrom, FriendLink, FriendRequested, FriendStore, LinkState,
    StoredChallenge,
};
pub use self::ratings::{RatedEnd, RatedGameRow, RatingRow, RatingStore, rate};
pub use self::secret::GameSecret;
pub use self::signals::{AccountSignals, News, Signal};

pub use self::mail::{
    KEEP_AFTER_GAME_OVER_MS, LIMIT_WINDOW_MS, MailLimits, MailLink, MailStore, NewAddress, Purged, Registered,
    StoredAddress,
};

pub use self::postgres::PostgresStore;
pub use self::sqlite::SqliteStore;
pub use self::sqlite::backup::{BackupError, BackupReport, SQLITE_FILE};

/// A room's ownership claim. A server that brings a room into memory claims it (`claim_room`),
/// which raises the room's stored epoch; every later write of that server for the room carries
/// the epoch it got and is refused ([`StoreError::Fenced`]) once another server has claimed the
/// room since. A new room starts at [`FIRST_EPOCH`], owned by the server that created it.
pub type Epoch = u64;

/// The epoch a room is created with.
pub const FIRST_EPOCH: Epoch = 1;

/// A storage failure. A failed write means nothing happened: the room tells the client and
/// changes nothing. Corrupt data means a stored room cannot be trusted: it is not loaded.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The store could not be opened (at start-up).
    #[error("cannot open the store: {0}")]
    Open(String),
    /// The data directory could not be created or used.
    #[error("data directory {0}: {1}")]
    DataDir(PathBuf, std::io::Error),
    /// A write was not committed (the database refused it or is unreachable).
    #[error("write not committed: {0}")]
    Write(String),
    /// Reading failed (the database is unreachable or refused the query).
    #[error("read failed: {0}")]
    Read(String),
    /// The store is shut down and takes no more writes.
    #[error("the store is shut down")]
    Closed,
    /// The write was made under an old claim on its room: another server has claimed the room
    /// since (or the write's `(room, seq)` is already stored). Nothing was written; this server
    /// must let the room go.
    #[error("another server owns this room now")]
    Fenced,
    /// What is stored cannot be decoded: `what` says which value.
    #[error("stored data is invalid: {what}")]
    Corrupt { what: String },
}

/// How a game ended outside the rules, as stored with the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameResult {
    /// The side that won outside the rules (a claimed win, the opponent's clock ran out); `None`
    /// when both ran out of time together.
    pub forfeit_winner: Option<Faction>,
    /// Why; results stored before clocks existed were claimed wins.
    #[serde(default)]
    pub reason: ForfeitReason,
}

impl GameResult {
    /// Whether this result ended its game (a winner outside the rules, or nobody's win on time).
    pub fn ended(&self) -> bool {
        self.forfeit_winner.is_some() || self.reason == ForfeitReason::BothOutOfTime
    }
}

/// How many of a room's latest chat messages a load brings back (the room keeps as many).
pub const CHAT_KEPT: usize = 2 * evr_protocol::CHAT_HISTORY;

/// A chat message as the room keeps and stores it: with the game it was written during, which
/// decides when the seats may read the spectators' channel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredChat {
    pub game_no: u32,
    pub message: evr_protocol::ChatMessage,
}

/// One change to persist.
#[derive(Clone, Debug)]
pub enum WriteOp {
    CreateRoom {
        code: String,
        options: RoomOptions,
        invite_hash: Vec<u8>,
        /// The join code's hash (`None`: the computer takes the other seat).
        join_code_hash: Option<Vec<u8>>,
        creator_hash: Vec<u8>,
        creator_name: Option<String>,
        created_at: i64,
    },
    SetGuest {
        code: String,
        guest_hash: Vec<u8>,
        guest_name: Option<String>,
    },
    /// A seat's display name, set or cleared.
    SetName {
        code: String,
        seat: StoredSeat,
        name: Option<String>,
    },
    /// A new invite secret and join code for the free seat (the old ones stop working; the count
    /// of wrong join codes starts again).
    NewInvite {
        code: String,
        invite_hash: Vec<u8>,
        join_code_hash: Vec<u8>,
    },
    /// One more wrong join code was tried for the room.
    WrongJoinCode { code: String },
    /// A link that moves `seat` to another device: it replaces the seat's previous one.
    IssueTransfer {
        code: String,
        seat: StoredSeat,
        secret_hash: Vec<u8>,
        /// Milliseconds since 1970 (UTC).
        expires_at: i64,
    },
    /// Another device took `seat` with the transfer link whose secret hashes to `secret_hash`: the
    /// link is used up and the device's own token (`token_hash`) now holds the seat too.
    TakeSeat {
        code: String,
        seat: StoredSeat,
        secret_hash: Vec<u8>,
        token_hash: Vec<u8>,
        /// Seconds since 1970 (UTC).
        added_at: i64,
    },
    /// A device signed in to the account that keeps `seat` takes it: its own token (`token_hash`)
    /// now holds the seat too, as a device a transfer link seated does.
    AddDevice {
        code: String,
        seat: StoredSeat,
        token_hash: Vec<u8>,
        /// Seconds since 1970 (UTC).
        added_at: i64,
    },
    /// The seat's device holding `token_hash` becomes the seat's only one: every other device's
    /// token stops working (the seat's first one included, when `token_hash` is not it) and its
    /// unused transfer link is dropped.
    KeepOneDevice {
        code: String,
        seat: StoredSeat,
        token_hash: Vec<u8>,
    },
    /// Game `game_no` starts at update `seq`, the creator playing `creator_faction`.
    StartGame {
        code: String,
        game_no: u32,
        secret: GameSecret,
        creator_faction: Faction,
        seq: u32,
        /// Seconds since 1970 (UTC).
        started_at: i64,
    },
    /// An accepted action of game `game_no`, the room's update `seq`.
    AppendAction {
        code: String,
        game_no: u32,
        seq: u32,
        seat: Faction,
        action: Action,
        action_id: String,
        /// In a room with a clock: each side's time left after this action, in milliseconds.
        clock_ms: Option<ByFaction<u64>>,
        /// In a correspondence room: the decisions owed after this action and the room's next
        /// wake-up, stored in the same transaction (a restart computes the same deadlines).
        wake: Option<Wake>,
        /// The action ends a rated room's game: both players are rated in the same transaction
        /// (`ratings.rs`).
        rated: Option<RatedEnd>,
    },
    /// A correspondence room's deadlines and next wake-up (a game started, a reminder was not due).
    SetWake { code: String, wake: Wake },
    /// A reminder is recorded as sent (before it is handed over: at most once), with the room's
    /// next wake-up. Refused as fenced if it was recorded already.
    Reminder {
        code: String,
        reminder: StoredReminder,
        /// Milliseconds since 1970 (UTC).
        recorded_at: i64,
        wake: Wake,
    },
    /// The player of `faction` agreed to reveal finished game `game_no` in its replay.
    AgreeToReveal {
        code: String,
        game_no: u32,
        faction: Faction,
    },
    /// A chat message of room `code`.
    Chat { code: String, chat: StoredChat },
    /// A game ended outside the rules (a claimed win, a clock or a deadline): nothing is due
    /// in the room any more (its wake-up is cleared). A game ends once: a second result is
    /// refused as fenced (whoever wrote the first owns the room).
    EndGame {
        code: String,
        game_no: u32,
        result: GameResult,
        /// A rated room's game ended with a winner: both players are rated in the same
        /// transaction (`ratings.rs`).
        rated: Option<RatedEnd>,
    },
}

/// One write under a claim: `op`, refused unless `epoch` is still the room's claim.
#[derive(Clone, Debug)]
pub struct Write {
    pub epoch: Epoch,
    pub op: WriteOp,
}

impl WriteOp {
    /// The room written to.
    pub fn code(&self) -> &str {
        match self {
            WriteOp::CreateRoom { code, .. }
            | WriteOp::SetGuest { code, .. }
            | WriteOp::SetName { code, .. }
            | WriteOp::NewInvite { code, .. }
            | WriteOp::WrongJoinCode { code }
            | WriteOp::IssueTransfer { code, .. }
            | WriteOp::TakeSeat { code, .. }
            | WriteOp::AddDevice { code, .. }
            | WriteOp::KeepOneDevice { code, .. }
            | WriteOp::StartGame { code, .. }
            | WriteOp::AppendAction { code, .. }
            | WriteOp::SetWake { code, .. }
            | WriteOp::Reminder { code, .. }
            | WriteOp::AgreeToReveal { code, .. }
            | WriteOp::Chat { code, .. }
            | WriteOp::EndGame { code, .. } => code,
        }
    }
}

/// Where rooms are kept.
pub trait Store: Send + Sync + 'static {
    /// Queues `op`, made under claim `epoch` (a `CreateRoom` stores `epoch` as the new room's
    /// first claim); the receiver resolves once it is committed, refused as
    /// [`StoreError::Fenced`], or failed.
    fn submit(&self, epoch: Epoch, op: WriteOp) -> oneshot::Receiver<Result<(), StoreError>>;

    /// Claims room `code` for this server (its epoch goes up by one, fencing any other server's
    /// writes for it) and loads it as [`load_room`](Store::load_room) does, with the new epoch.
    /// Blocking: call it off the async threads.
    fn claim_room(&self, code: &str) -> Result<Option<StoredRoom>, StoreError>;

    /// Each of `codes`' current epoch (rooms not stored are left out), so that a server can let
    /// go of the rooms another has claimed. Blocking.
    fn epochs(&self, codes: &[String]) -> Result<Vec<(String, Epoch)>, StoreError>;

    /// Whether other servers may share this store (and so claim this server's rooms).
    fn is_shared(&self) -> bool {
        false
    }

    /// Room `code` with its current game and that game's actions, as committed; `None` if there
    /// is no such room. Blocking: call it off the async threads.
    fn load_room(&self, code: &str) -> Result<Option<StoredRoom>, StoreError>;

    /// Game `game_no` of room `code` (any game of the room, for its replay); `None` if the room has
    /// no such game. Blocking: call it off the async threads.
    fn load_game(&self, code: &str, game_no: u32) -> Result<Option<StoredGame>, StoreError>;

    /// The numbers of room `code`'s games, oldest first (empty if there is no such room). Blocking.
    fn game_numbers(&self, code: &str) -> Result<Vec<u32>, StoreError>;

    /// Up to `limit` rooms whose wake-up (`Wake::wake_at`) is at or before `now_ms`, the earliest
    /// first: correspondence rooms with a deadline or a reminder due. Blocking.
    fn due_rooms(&self, now_ms: i64, limit: usize) -> Result<Vec<String>, StoreError>;

    /// Room `code`'s deadlines and wake-up, and the reminders recorded for its game `game_no`.
    /// Blocking.
    fn load_deadlines(&self, code: &str, game_no: u32) -> Result<StoredDeadlines, StoreError>;

    /// Stops taking writes and waits until what was queued is committed.
    fn close(&self) {}

    /// The seats' email addresses for reminders (`mail.rs`), kept beside the rooms; `None` in a
    /// store without them (tests' stores).
    fn mail(&self) -> Option<&dyn MailStore> {
        None
    }

    /// The accounts (`accounts.rs`), kept beside the rooms; `None` in a store without them
    /// (tests' stores).
    fn accounts(&self) -> Option<&dyn AccountStore> {
        None
    }

    /// Friends and challenges between accounts (`friends.rs`), kept beside the accounts; `None`
    /// in a store without them (tests' stores).
    fn friends(&self) -> Option<&dyn FriendStore> {
        None
    }

    /// Ratings (`ratings.rs`), kept beside the accounts; `None` in a store without them (tests'
    /// stores).
    fn ratings(&self) -> Option<&dyn RatingStore> {
        None
    }

    /// Signals between the nodes sharing this store (`signals.rs`); `None` in a store without
    /// them (tests' stores).
    fn signals(&self) -> Option<&dyn AccountSignals> {
        None
    }
}

/// A seat of a room, as stored: the creator's, or the guest's (who joined).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StoredSeat {
    Creator,
    Guest,
}

impl StoredSeat {
    pub fn as_str(self) -> &'static str {
        match self {
            StoredSeat::Creator => "creator",
            StoredSeat::Guest => "guest",
        }
    }

    pub fn from_text(text: &str) -> Result<StoredSeat, StoreError> {
        match text {
            "creator" => Ok(StoredSeat::Creator),
            "guest" => Ok(StoredSeat::Guest),
            other => Err(StoreError::Corrupt {
                what: format!("seat {other:?}"),
            }),
        }
    }
}

/// A device that took a seat with a transfer link: its own token's hash.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredDevice {
    pub seat: StoredSeat,
    pub token_hash: Vec<u8>,
    /// When the seat was moved to it, in seconds since 1970 (UTC).
    pub added_at: i64,
}

/// A seat's transfer link that has not been used (it may have expired).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredTransfer {
    pub seat: StoredSeat,
    pub secret_hash: Vec<u8>,
    /// Milliseconds since 1970 (UTC).
    pub expires_at: i64,
}

/// A room as stored, with its current game and that game's actions, for recovery.
#[derive(Clone, Debug)]
pub struct StoredRoom {
    pub code: String,
    /// The room's claim as loaded (the new one after `claim_room`).
    pub epoch: Epoch,
    pub options: RoomOptions,
    pub invite_hash: Vec<u8>,
    /// The join code's hash (`None` in rooms against the computer and rooms made before join codes).
    pub join_code_hash: Option<Vec<u8>>,
    /// Wrong join codes tried since the code was made.
    pub join_failures: u32,
    pub creator_hash: Vec<u8>,
    pub guest_hash: Option<Vec<u8>>,
    pub creator_name: Option<String>,
    pub guest_name: Option<String>,
    /// Devices each seat was moved to, besides its first.
    pub devices: Vec<StoredDevice>,
    /// Transfer links not used yet.
    pub transfers: Vec<StoredTransfer>,
    /// The room's latest game (`None` only if the data is damaged: a room is stored with its first).
    pub game: Option<StoredGame>,
    /// The room's latest chat messages (up to `chat::KEPT`), oldest first.
    pub chat: Vec<StoredChat>,
}

#[derive(Clone, Debug)]
pub struct StoredGame {
    pub game_no: u32,
    pub secret: GameSecret,
    pub creator_faction: Faction,
    pub start_seq: u32,
    pub result: Option<GameResult>,
    /// Which players agreed to reveal the finished game in its replay.
    pub reveal: ByFaction<bool>,
    /// Seconds since 1970 (UTC); `None` for games stored before dates were kept.
    pub started_at: Option<i64>,
    pub actions: Vec<StoredAction>,
}

#[derive(Clone, Debug)]
pub struct StoredAction {
    pub seq: u32,
    pub seat: Faction,
    pub action: Action,
    pub action_id: String,
    /// Each side's time left after it, in a room with a clock.
    pub clock_ms: Option<ByFaction<u64>>,
}
