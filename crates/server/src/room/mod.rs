//! A room: one actor task owns the match, its two seats and its spectators. A change is
//! committed to the store before anything about it is sent; what each connection receives is
//! built in `projection.rs` for that connection's viewer.
//!
//! This file holds the room's state and its dispatcher; each kind of command is handled in its own
//! file: `seats.rs` (connecting, leaving, claiming a win), `joining.rs` (the guest taking the
//! free seat: invite link or join code), `transfer.rs` (a seat moved to another device),
//! `devices.rs` (a seat's devices listed, the others signed out),
//! `names.rs` (display names), `play.rs` (actions and rematches), `chat.rs` (the chat, whose
//! rules are `crate::chat`), `clock.rs` (the clocks, whose arithmetic is `crate::clock`),
//! `computer.rs` (the computer opponent), `recovery.rs` (rebuilding from the store).

mod account_seat;
mod chat;
mod clock;
mod command;
mod computer;
mod deadline;
mod devices;
#[cfg(test)]
mod fuzz_tests;
mod game_match;
mod hibernation;
mod joining;
mod names;
pub mod ownership;
mod play;
mod projection;
mod ratings;
mod recovery;
mod registry;
mod reveal;
mod seat;
mod seats;
#[cfg(test)]
pub(crate) mod tests;
mod transfer;

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;

use evr_protocol::{ErrorCode, Opponent, RoomOptions, ServerMsg};
use evr_rules::{Faction, Game};
use tokio::sync::mpsc;

pub use self::command::{
    ChatLine, Command, ConnId, Connect, Invite, Join, JoinBy, Joined, Outbound, PlayerAction, RoomHandle, Transfer,
};
use self::computer::ComputerSeat;
pub(crate) use self::deadline::{claim_with_deadlines, now_ms};
use self::game_match::Match;
pub use self::joining::new_join_code;
pub use self::recovery::RecoveryError;
pub use self::registry::{LoadGates, Registry};
use self::seat::{BySeat, Seat};
pub(crate) use self::seats::stored_status;
use crate::config::Config;
use crate::fairness::GameSecret;
use crate::metrics_names as m;
use crate::secrets;
use evr_store::{FIRST_EPOCH, Store, StoreError, WriteOp};

struct Conn {
    /// `None`: a spectator.
    seat: Option<Seat>,
    /// A seat's connection: the hash its token matched (which of the seat's devices it is).
    device: Option<Vec<u8>>,
    out: crate::outbox::Outbox,
    /// How many chat messages it may still send now.
    chat_allowance: crate::chat::Allowance,
}

/// What woke the room actor.
enum Wake {
    Command(Command),
    /// A clock may have run out.
    Clock,
    /// A correspondence deadline or reminder may be due (`deadline.rs`).
    Deadlines,
    /// Nobody was connected for the hibernation time.
    Hibernate,
}

/// The state a room actor owns.
pub struct Room {
    code: String,
    options: RoomOptions,
    invite_hash: Vec<u8>,
    /// The join code a friend types with the room code (`None`: a room against the computer).
    join_code: Option<joining::JoinCode>,
    /// Each seat's token hash; `None` while the seat is free.
    seat_hashes: BySeat<Option<Vec<u8>>>,
    /// The token hashes of the other devices each seat was moved to (`transfer.rs`).
    devices: BySeat<Vec<devices::MovedDevice>>,
    /// Each seat's transfer link not used yet.
    transfers: BySeat<Option<transfer::PendingTransfer>>,
    /// Each seat's display name (`None`: shown as its side).
    names: BySeat<Option<String>>,
    current: Match,
    /// Update sequence number of the room: one per accepted action or new game.
    seq: u32,
    conns: HashMap<ConnId, Conn>,
    /// When each seat's last connection closed (while it has none).
    away_since: BySeat<Option<Instant>>,
    store: Arc<dyn Store>,
    config: Arc<Config>,
    /// The computer opponent on the guest seat, in rooms created against the computer.
    computer: Option<ComputerSeat>,
    /// The room's own mailbox, for the computer's decisions (weak: it never keeps the room alive).
    self_tx: Option<mpsc::WeakSender<Command>>,
    /// The latest chat messages.
    chat: crate::chat::ChatLog,
    /// The current game's clocks, in a room with a time control.
    clock: Option<crate::clock::Clock>,
    /// A loss on time whose write failed is tried again at this time.
    clock_retry_at: Option<Instant>,
    /// The room's claim on the store; every write is made under it (`ownership.rs`).
    ownership: Arc<ownership::Ownership>,
    /// The current game's deadlines, in a correspondence room (`deadline.rs`).
    deadlines: Option<deadline::RoomDeadlines>,
    /// Where reminders go (`crate::notify`).
    notifier: Arc<dyn crate::notify::Notifier>,
    /// A rated room's players' ratings, once read (`ratings.rs`).
    ratings: Option<ratings::RoomRatings>,
}

/// What a new room is made of: its code, options and first side, and the secrets the creator is
/// told (stored only as hashes).
pub struct NewRoom {
    pub code: String,
    pub options: RoomOptions,
    pub creator_faction: Faction,
    pub invite: String,
    /// `None`: the computer takes the other seat.
    pub join_code: Option<String>,
    pub creator_token: String,
    /// Already checked (`crate::names`).
    pub creator_name: Option<String>,
}

/// Seconds since 1970 (UTC), for dates kept in the store.
fn unix_now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}

/// A new game's secret randomness: a key from the OS (a fixed one in tests that ask for it).
fn game_secret(config: &Config) -> Result<GameSecret, std::io::Error> {
    match config.test_fixed_seed {
        Some(seed) => Ok(crate::fairness::for_test(seed)),
        None => crate::fairness::generate(),
    }
}

/// The computer opponent's own randomness (its searches), apart from the game's.
fn bot_seed(config: &Config) -> u64 {
    match config.test_fixed_seed {
        Some(seed) => seed,
        None => secrets::new_seed().unwrap_or(0) as u64,
    }
}

fn computer_seat(options: &RoomOptions, config: &Config) -> Option<ComputerSeat> {
    match options.opponent.unwrap_or_default() {
        Opponent::Friend => None,
        Opponent::Computer { level } => Some(ComputerSeat::new(level, bot_seed(config))),
    }
}

fn new_game(options: &RoomOptions, secret: &GameSecret) -> Result<Game, String> {
    Game::with_seed(options.mode, secret.game_seed()).map_err(|e| e.to_string())
}

impl Room {
    /// The room's state around `current`, nobody connected, `seq` at the game's start.
    fn new(
        code: String,
        options: RoomOptions,
        invite_hash: Vec<u8>,
        seat_hashes: BySeat<Option<Vec<u8>>>,
        current: Match,
        store: Arc<dyn Store>,
        config: Arc<Config>,
    ) -> Room {
        Room {
            // the creator's claim; a room loaded from the store takes the claim it made
            ownership: ownership::Ownership::new(FIRST_EPOCH),
            code,
            options,
            invite_hash,
            join_code: None,
            seat_hashes,
            devices: BySeat::default(),
            transfers: BySeat::default(),
            names: BySeat::default(),
            seq: current.start_seq,
            current,
            conns: HashMap::new(),
            away_since: BySeat::default(),
            store,
            config,
            computer: None,
            self_tx: None,
            ratings: None,
            chat: crate::chat::ChatLog::default(),
            clock: None,
            clock_retry_at: None,
            deadlines: None,
            notifier: Arc::new(crate::notify::NoNotifier),
        }
    }

    /// A new room whose first game starts with `creator_faction`; stored before it exists.
    pub async fn create(new: NewRoom, store: Arc<dyn Store>, config: Arc<Config>) -> Result<Room, StoreError> {
        let NewRoom {
            code,
            options,
            creator_faction,
            invite,
            join_code,
            creator_token,
            creator_name,
        } = new;
        let join_code = join_code.map(|c| joining::JoinCode::new(&code, &c));
        let secret = game_secret(&config).map_err(|e| StoreError::Write(format!("no seed: {e}")))?;
        let game = new_game(&options, &secret).map_err(|what| StoreError::Corrupt { what })?;
        let created_at = unix_now();
        let room_write = store.submit(
            FIRST_EPOCH,
            WriteOp::CreateRoom {
                code: code.clone(),
                options,
                invite_hash: secrets::hash_token(&invite),
                join_code_hash: join_code.as_ref().map(|j| j.hash.clone()),
                creator_hash: secrets::hash_token(&creator_token),
                creator_name: creator_name.clone(),
                created_at,
            },
        );
        let game_write = store.submit(
            FIRST_EPOCH,
            WriteOp::StartGame {
                code: code.clone(),
                game_no: 1,
                secret,
                creator_faction,
                seq: 0,
                started_at: created_at,
            },
        );
        room_write.await.map_err(|_| StoreError::Closed)??;
        game_write.await.map_err(|_| StoreError::Closed)??;
        let computer = computer_seat(&options, &config);
        // The computer's seat is taken by a token nobody holds.
        let guest_hash = match computer {
            Some(_) => Some(secrets::hash_token(
                &secrets::new_token().map_err(|e| StoreError::Write(format!("no token: {e}")))?,
            )),
            None => None,
        };
        let mut room = Room::new(
            code,
            options,
            secrets::hash_token(&invite),
            BySeat::new(Some(secrets::hash_token(&creator_token)), guest_hash),
            Match::new(1, creator_faction, game, secret, 0),
            store,
            config,
        );
        room.computer = computer;
        room.join_code = join_code;
        room.names.creator = creator_name;
        room.clock = room.fresh_clock(Instant::now());
        room.deadlines = room.fresh_deadlines();
        // against the computer the game (and its first deadline) starts at once
        if let Some(wake) = room.deadlines_to_store().filter(|w| w.wake_at.is_some()) {
            let write = room.store.submit(
                FIRST_EPOCH,
                WriteOp::SetWake {
                    code: room.code.clone(),
                    wake,
                },
            );
            write.await.map_err(|_| StoreError::Closed)??;
        }
        Ok(room)
    }

    /// Starts the actor; returns its handle. Without a connection the actor hibernates after
    /// `config.room_hibernate()` (`hibernation.rs`) and leaves `registry` (and memory) after
    /// `config.room_idle()`.
    pub fn spawn(self, tracker: &tokio_util::task::TaskTracker, registry: Arc<Registry>) -> RoomHandle {
        let (tx, rx) = mpsc::channel(256);
        let ownership = self.ownership.clone();
        tracker.spawn(hibernation::lifecycle(Box::new(self), tx.downgrade(), rx, registry));
        RoomHandle { tx, ownership }
    }

    /// What wakes the room next; `None` when the room should stop: its mailbox closed, or it sat
    /// idle with no connection (and no clock running) and the registry let it go.
    async fn next_wake(&self, rx: &mut mpsc::Receiver<Command>, registry: &Registry) -> Option<Wake> {
        let (hibernate, release) = (self.config.room_hibernate(), self.config.room_idle());
        loop {
            let deadline = self.clock_deadline().map(tokio::time::Instant::from_std);
            // A correspondence room wakes at its deadlines but may sleep and leave memory before
            // them: then the sweeper (`crate::deadlines`) brings it back in time.
            let deadlines = self.deadline_wake();
            // A running clock keeps the room awake: it must run out even if everyone left.
            let computer_thinking = self.computer.as_ref().is_some_and(|c| c.thinking);
            let idle = self.conns.is_empty() && deadline.is_none() && !computer_thinking;
            tokio::select! {
                cmd = rx.recv() => return cmd.map(Wake::Command),
                _ = tokio::time::sleep_until(deadline.unwrap_or_else(tokio::time::Instant::now)), if deadline.is_some() => {
                    return Some(Wake::Clock);
                }
                _ = tokio::time::sleep_until(deadlines.unwrap_or_else(tokio::time::Instant::now)), if deadlines.is_some() => {
                    return Some(Wake::Deadlines);
                }
                _ = tokio::time::sleep(hibernate.min(release)), if idle => {
                    if hibernate < release {
                        return Some(Wake::Hibernate);
                    }
                    if registry.release_if_unused(&self.code, rx) {
                        metrics::counter!(m::ROOMS_RELEASED).increment(1);
                        tracing::debug!(room = %self.code, "idle room left memory");
                        return None;
                    }
                    // someone still holds a handle: wait another period
                }
            }
        }
    }

    /// Handles commands (the one that woke a sleeping room first) until the room stops or
    /// falls idle.
    async fn run(
        &mut self,
        rx: &mut mpsc::Receiver<Command>,
        registry: &Registry,
        first: Option<Command>,
    ) -> hibernation::RunEnd {
        self.schedule_computer();
        let mut first = first;
        loop {
            let cmd = match first.take() {
                Some(cmd) => cmd,
                None => match self.next_wake(rx, registry).await {
                    None => return hibernation::RunEnd::Stopped,
                    Some(Wake::Hibernate) => return hibernation::RunEnd::Idle,
                    Some(Wake::Deadlines) => {
                        self.on_deadlines().await;
                        if self.ownership.is_lost() {
                            self.let_go(registry);
                            return hibernation::RunEnd::Stopped;
                        }
                        continue;
                    }
                    Some(Wake::Clock) => {
                        self.check_clocks().await;
                        if self.ownership.is_lost() {
                            self.let_go(registry);
                            return hibernation::RunEnd::Stopped;
                        }
                        continue;
                    }
                    Some(Wake::Command(cmd)) => cmd,
                },
            };
            if let std::ops::ControlFlow::Break(()) = self.handle(cmd).await {
                return hibernation::RunEnd::Stopped;
            }
            if self.ownership.is_lost() {
                self.let_go(registry);
                return hibernation::RunEnd::Stopped;
            }
        }
    }

    /// One command; `Break` after a shutdown.
    async fn handle(&mut self, cmd: Command) -> std::ops::ControlFlow<()> {
        match cmd {
            Command::Connect(c) => {
                let Connect {
                    conn,
                    token,
                    last_seq,
                    out,
                    reply,
                } = *c;
                if self.options.rated && self.ratings.is_none() {
                    self.refresh_ratings().await;
                }
                let result = self.connect(conn, token, last_seq, out);
                let _ = reply.send(result);
            }
            Command::Disconnect { conn } => self.disconnect(conn),
            Command::Action(a) => {
                let PlayerAction {
                    conn,
                    based_on,
                    action_id,
                    action,
                } = *a;
                self.action(conn, based_on, action_id, action).await;
            }
            Command::Rematch { conn } => self.rematch(conn).await,
            Command::ClaimWin { conn } => self.claim_win(conn).await,
            Command::RevealReplay { conn } => self.reveal_replay(conn).await,
            Command::Chat(c) => {
                let ChatLine {
                    conn,
                    channel,
                    body,
                    name,
                } = *c;
                self.chat(conn, channel, body, name).await;
            }
            Command::Join(j) => {
                let Join { by, name, reply } = *j;
                let result = self.join(by, name).await;
                let _ = reply.send(result);
            }
            Command::NewInvite { token, reply } => {
                let _ = reply.send(self.new_invite(&token).await);
            }
            Command::IssueTransfer { token, reply } => {
                let _ = reply.send(self.issue_transfer(&token).await);
            }
            Command::TakeSeat { secret, reply } => {
                let _ = reply.send(self.take_seat(&secret).await);
            }
            Command::AccountDevice { seat, reply } => {
                let _ = reply.send(self.account_device(seat).await);
            }
            Command::EraseName { seat, reply } => {
                let _ = reply.send(self.erase_name(seat).await);
            }
            Command::Devices { token, reply } => {
                let _ = reply.send(self.list_devices(&token));
            }
            Command::SignOutOthers { token, reply } => {
                let _ = reply.send(self.sign_out_others(&token).await);
            }
            Command::SetName { conn, name } => self.set_name(conn, name).await,
            Command::Status { reply } => {
                let _ = reply.send(self.status());
            }
            Command::ComputerAction { based_on, action } => self.computer_action(based_on, action).await,
            Command::Deadlines => self.on_deadlines().await,
            // the dispatcher lets the room go after this command (`ownership.rs`)
            Command::Moved { claimed } => self.ownership.lose_to(claimed),
            Command::Shutdown => {
                self.shut_down();
                return std::ops::ControlFlow::Break(());
            }
        }
        std::ops::ControlFlow::Continue(())
    }

    /// Tells every connection the server is going away.
    fn shut_down(&mut self) {
        self.tell_to_reconnect("the server is restarting; reconnect in a moment");
    }

    /// Sends every connection `shutting_down` (clients connect again in a moment); `why` in words.
    fn tell_to_reconnect(&mut self, why: &str) {
        let msg = ServerMsg::Error {
            code: ErrorCode::ShuttingDown,
            message: why.into(),
            action_id: None,
        };
        let ids: Vec<ConnId> = self.conns.keys().copied().collect();
        for id in ids {
            self.send(id, &msg);
        }
    }
}
