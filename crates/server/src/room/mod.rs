//! A room: one actor task owns the match, its two seats and its spectators. A change is
//! committed to the store before anything about it is sent; what each connection receives is
//! built in `routing.rs` for that connection's viewer.

mod computer;
mod game_match;
mod registry;
mod routing;

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;

use axum::extract::ws::Utf8Bytes;
use evr_protocol::{ErrorCode, Opponent, Role, RoomOptions, ServerMsg, SpectatorPolicy};
use evr_rules::{Action, Faction, Game};
use tokio::sync::{mpsc, oneshot};

use self::computer::ComputerSeat;
use self::game_match::{Match, Player};
pub use self::registry::Registry;
use crate::config::Config;
use crate::metrics_names as m;
use crate::secrets;
use crate::store::{Store, StoreError, StoredRoom, WriteOp};

/// Identifies one WebSocket connection.
pub type ConnId = u64;

/// A message queued for one connection: already serialized, shared between connections that see
/// the same thing.
pub type Outbound = Utf8Bytes;

/// What the room actor is asked to do.
#[derive(Debug)]
pub enum Command {
    /// A connection said hello. `reply` gets its role, or why it was refused.
    Connect {
        conn: ConnId,
        token: Option<String>,
        last_seq: Option<u32>,
        out: mpsc::Sender<Outbound>,
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
    /// The guest takes the free seat with the invite secret (HTTP).
    Join {
        invite: String,
        reply: oneshot::Sender<Result<Joined, ErrorCode>>,
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

struct Conn {
    /// `None`: a spectator.
    player: Option<Player>,
    out: mpsc::Sender<Outbound>,
}

/// The state a room actor owns.
pub struct Room {
    code: String,
    options: RoomOptions,
    invite_hash: Vec<u8>,
    seat_hashes: [Option<Vec<u8>>; 2],
    current: Match,
    /// Update sequence number of the room: one per accepted action or new game.
    seq: u32,
    conns: HashMap<ConnId, Conn>,
    /// When each player's last connection closed (while they have none).
    away_since: [Option<Instant>; 2],
    store: Arc<dyn Store>,
    config: Arc<Config>,
    /// The computer opponent on the guest seat, in rooms created against the computer.
    computer: Option<ComputerSeat>,
    /// The room's own mailbox, for the computer's decisions (weak: it never keeps the room alive).
    self_tx: Option<mpsc::WeakSender<Command>>,
}

/// Why a stored room could not be rebuilt.
#[derive(Debug, thiserror::Error)]
#[error("room {code}: {reason}")]
pub struct RecoveryError {
    code: String,
    reason: String,
}

fn faction_str(f: Faction) -> &'static str {
    match f {
        Faction::Rebel => "rebel",
        Faction::Imperial => "imperial",
    }
}

fn parse_faction(s: &str) -> Option<Faction> {
    match s {
        "rebel" => Some(Faction::Rebel),
        "imperial" => Some(Faction::Imperial),
        _ => None,
    }
}

fn game_seed(config: &Config) -> Result<i64, std::io::Error> {
    match config.test_fixed_seed {
        Some(seed) => Ok(seed as i64),
        None => secrets::new_seed(),
    }
}

fn computer_seat(options: &RoomOptions, config: &Config) -> Option<ComputerSeat> {
    match options.opponent.unwrap_or_default() {
        Opponent::Friend => None,
        Opponent::Computer { level } => Some(ComputerSeat::new(level, game_seed(config).unwrap_or(0) as u64)),
    }
}

fn new_game(options: &RoomOptions, seed: i64) -> Result<Game, String> {
    Game::new(options.mode, seed as u64).map_err(|e| e.to_string())
}

impl Room {
    /// A new room whose first game starts with `creator_faction`; stored before it exists.
    pub async fn create(
        code: String,
        options: RoomOptions,
        creator_faction: Faction,
        invite: &str,
        creator_token: &str,
        store: Arc<dyn Store>,
        config: Arc<Config>,
    ) -> Result<Room, StoreError> {
        let seed = game_seed(&config).map_err(|e| StoreError::Corrupt(e.to_string()))?;
        let game = new_game(&options, seed).map_err(StoreError::Corrupt)?;
        let options_json = serde_json::to_string(&options).map_err(|e| StoreError::Corrupt(e.to_string()))?;
        let created_at = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs() as i64)
            .unwrap_or(0);
        let room_write = store.submit(WriteOp::CreateRoom {
            code: code.clone(),
            options: options_json,
            invite_hash: secrets::hash_token(invite),
            creator_hash: secrets::hash_token(creator_token),
            created_at,
        });
        let game_write = store.submit(WriteOp::StartGame {
            code: code.clone(),
            game_no: 1,
            seed,
            creator_faction: faction_str(creator_faction).into(),
            seq: 0,
        });
        room_write.await.map_err(|_| StoreError::Closed)??;
        game_write.await.map_err(|_| StoreError::Closed)??;
        let computer = computer_seat(&options, &config);
        // The computer's seat is taken by a token nobody holds.
        let guest_hash = match computer {
            Some(_) => Some(secrets::hash_token(
                &secrets::new_token().map_err(|e| StoreError::Corrupt(e.to_string()))?,
            )),
            None => None,
        };
        Ok(Room {
            code,
            options,
            invite_hash: secrets::hash_token(invite),
            seat_hashes: [Some(secrets::hash_token(creator_token)), guest_hash],
            current: Match {
                game_no: 1,
                creator_faction,
                game,
                start_seq: 0,
                history: Vec::new(),
                applied: HashMap::new(),
                forfeit_winner: None,
                rematch: [false; 2],
            },
            seq: 0,
            conns: HashMap::new(),
            away_since: [None; 2],
            store,
            computer,
            self_tx: None,
            config,
        })
    }

    /// Rebuilds a stored room: its latest game from the seed and the action log.
    pub fn recover(stored: StoredRoom, store: Arc<dyn Store>, config: Arc<Config>) -> Result<Room, RecoveryError> {
        let code = stored.code.clone();
        let fail = |reason: String| RecoveryError {
            code: code.clone(),
            reason,
        };
        let options: RoomOptions = serde_json::from_str(&stored.options).map_err(|e| fail(e.to_string()))?;
        let last = stored.game.as_ref().ok_or_else(|| fail("no game".into()))?;
        let creator_faction = parse_faction(&last.creator_faction).ok_or_else(|| fail("bad faction".into()))?;
        let mut game = new_game(&options, last.seed).map_err(&fail)?;
        let mut history = Vec::with_capacity(last.actions.len());
        let mut applied = HashMap::new();
        let mut seq = last.start_seq;
        for a in &last.actions {
            let seat = parse_faction(&a.seat).ok_or_else(|| fail(format!("bad seat at seq {}", a.seq)))?;
            let action: Action = serde_json::from_str(&a.action).map_err(|e| fail(format!("seq {}: {e}", a.seq)))?;
            let events = game
                .apply(seat, action)
                .map_err(|e| fail(format!("seq {} refused on replay: {e}", a.seq)))?;
            history.push((a.seq, events));
            applied.insert((seat, a.action_id.clone()), a.seq);
            seq = a.seq;
        }
        let forfeit_winner = last
            .result
            .as_deref()
            .and_then(|r| serde_json::from_str::<serde_json::Value>(r).ok())
            .and_then(|v| v.get("forfeit_winner").and_then(|w| w.as_str()).and_then(parse_faction));
        let computer = computer_seat(&options, &config);
        let guest_hash = match (&computer, stored.guest_hash) {
            (Some(_), None) => Some(secrets::hash_token(
                &secrets::new_token().map_err(|e| fail(e.to_string()))?,
            )),
            (_, hash) => hash,
        };
        // Nobody is connected to a room that was just loaded: a seated person's absence (and so the
        // opponent's claim clock) counts from now. The computer is never away.
        let now = Instant::now();
        let away_since = [
            Some(now),
            guest_hash.as_ref().filter(|_| computer.is_none()).map(|_| now),
        ];
        Ok(Room {
            code: stored.code,
            options,
            invite_hash: stored.invite_hash,
            seat_hashes: [Some(stored.creator_hash), guest_hash],
            current: Match {
                game_no: last.game_no,
                creator_faction,
                game,
                start_seq: last.start_seq,
                history,
                applied,
                forfeit_winner,
                rematch: [false; 2],
            },
            seq,
            conns: HashMap::new(),
            away_since,
            store,
            computer,
            self_tx: None,
            config,
        })
    }

    /// Starts the actor; returns its handle. The actor leaves `registry` (and memory) after
    /// `config.room_idle()` without a connection.
    pub fn spawn(mut self, tracker: &tokio_util::task::TaskTracker, registry: Arc<Registry>) -> RoomHandle {
        let (tx, rx) = mpsc::channel(256);
        self.self_tx = Some(tx.downgrade());
        tracker.spawn(self.run(rx, registry));
        RoomHandle { tx }
    }

    /// The next command; `None` when the room should stop: its mailbox closed, or it sat idle
    /// with no connection and the registry let it go.
    async fn next_command(&self, rx: &mut mpsc::Receiver<Command>, registry: &Registry) -> Option<Command> {
        loop {
            if !self.conns.is_empty() {
                return rx.recv().await;
            }
            match tokio::time::timeout(self.config.room_idle(), rx.recv()).await {
                Ok(cmd) => return cmd,
                Err(_) if registry.release_if_unused(&self.code, rx) => {
                    metrics::counter!(m::ROOMS_RELEASED).increment(1);
                    tracing::debug!(room = %self.code, "idle room left memory");
                    return None;
                }
                Err(_) => {} // someone still holds a handle: wait another period
            }
        }
    }

    async fn run(mut self, mut rx: mpsc::Receiver<Command>, registry: Arc<Registry>) {
        metrics::gauge!(m::ROOMS).increment(1.0);
        self.schedule_computer();
        while let Some(cmd) = self.next_command(&mut rx, &registry).await {
            match cmd {
                Command::Connect {
                    conn,
                    token,
                    last_seq,
                    out,
                    reply,
                } => {
                    let result = self.connect(conn, token, last_seq, out);
                    let _ = reply.send(result);
                }
                Command::Disconnect { conn } => self.disconnect(conn),
                Command::Action {
                    conn,
                    based_on,
                    action_id,
                    action,
                } => {
                    self.action(conn, based_on, action_id, action).await;
                }
                Command::Rematch { conn } => self.rematch(conn).await,
                Command::ClaimWin { conn } => self.claim_win(conn).await,
                Command::Join { invite, reply } => {
                    let result = self.join(&invite).await;
                    let _ = reply.send(result);
                }
                Command::ComputerAction { based_on, action } => self.computer_action(based_on, action).await,
                Command::Shutdown => {
                    let msg = ServerMsg::Error {
                        code: ErrorCode::ShuttingDown,
                        message: "the server is restarting; reconnect in a moment".into(),
                        action_id: None,
                    };
                    let ids: Vec<ConnId> = self.conns.keys().copied().collect();
                    for id in ids {
                        self.send(id, &msg);
                    }
                    break;
                }
            }
        }
        metrics::gauge!(m::ROOMS).decrement(1.0);
    }

    // ----- commands -----

    fn connect(
        &mut self,
        conn: ConnId,
        token: Option<String>,
        last_seq: Option<u32>,
        out: mpsc::Sender<Outbound>,
    ) -> Result<Role, ErrorCode> {
        let player = match &token {
            Some(t) => {
                let p = Player::BOTH.into_iter().find(|p| {
                    self.seat_hashes[p.index()]
                        .as_deref()
                        .is_some_and(|h| secrets::token_matches(t, h))
                });
                Some(p.ok_or(ErrorCode::BadToken)?)
            }
            None if self.options.spectators == SpectatorPolicy::Off => return Err(ErrorCode::SpectatorsNotAllowed),
            None => None,
        };
        self.conns.insert(conn, Conn { player, out });
        metrics::gauge!(m::CONNECTIONS, "role" => if player.is_some() { "player" } else { "spectator" }).increment(1.0);
        if let Some(p) = player {
            self.away_since[p.index()] = None;
        }
        let welcome = self.welcome(player, last_seq);
        self.send(conn, &welcome);
        self.broadcast_presence();
        Ok(self.role_of(player))
    }

    fn remove_conn(&mut self, conn: ConnId) {
        let Some(c) = self.conns.remove(&conn) else { return };
        metrics::gauge!(m::CONNECTIONS, "role" => if c.player.is_some() { "player" } else { "spectator" })
            .decrement(1.0);
        if let Some(p) = c.player
            && !self.conns.values().any(|o| o.player == Some(p))
        {
            self.away_since[p.index()] = Some(Instant::now());
        }
    }

    /// Whether `p` is present: a connection of theirs is open, or `p` is the computer.
    fn is_connected(&self, p: Player) -> bool {
        (p == Player::Guest && self.computer.is_some()) || self.conns.values().any(|c| c.player == Some(p))
    }

    fn disconnect(&mut self, conn: ConnId) {
        if self.conns.contains_key(&conn) {
            self.remove_conn(conn);
            self.broadcast_presence();
        }
    }

    async fn join(&mut self, invite: &str) -> Result<Joined, ErrorCode> {
        if !secrets::token_matches(invite, &self.invite_hash) {
            return Err(ErrorCode::BadToken);
        }
        if self.seat_hashes[Player::Guest.index()].is_some() {
            return Err(ErrorCode::SeatTaken);
        }
        let token = secrets::new_token().map_err(|_| ErrorCode::StorageFailed)?;
        let hash = secrets::hash_token(&token);
        let write = self.store.submit(WriteOp::SetGuest {
            code: self.code.clone(),
            guest_hash: hash.clone(),
        });
        match write.await {
            Ok(Ok(())) => {}
            _ => return Err(ErrorCode::StorageFailed),
        }
        self.seat_hashes[Player::Guest.index()] = Some(hash);
        // The guest has not connected yet: their clock for claims starts now.
        self.away_since[Player::Guest.index()] = Some(Instant::now());
        self.broadcast_presence();
        Ok(Joined {
            faction: self.current.faction_of(Player::Guest),
            token,
        })
    }

    async fn action(&mut self, conn: ConnId, based_on: u32, action_id: String, action: Action) {
        let Some(player) = self.conns.get(&conn).map(|c| c.player) else {
            return;
        };
        let Some(player) = player else {
            return self.error(
                conn,
                ErrorCode::SpectatorCannotAct,
                "spectators cannot act",
                Some(action_id),
            );
        };
        if action_id.is_empty() || action_id.len() > evr_protocol::MAX_ACTION_ID_LEN {
            return self.error(
                conn,
                ErrorCode::BadActionId,
                "action ids are 1 to 64 characters",
                Some(action_id),
            );
        }
        let seat = self.current.faction_of(player);
        if let Some(seq) = self.current.applied.get(&(seat, action_id.clone())).copied() {
            // Already applied: acknowledge again, apply nothing.
            return self.send(conn, &ServerMsg::Ack { action_id, seq });
        }
        if self.seat_hashes[Player::Guest.index()].is_none() {
            return self.error(
                conn,
                ErrorCode::WaitingForOpponent,
                "the other seat is still free",
                Some(action_id),
            );
        }
        if self.current.forfeit_winner.is_some() {
            let e = ErrorCode::Rule(evr_rules::RuleError::GameOver);
            return self.error(conn, e, "the game is over", Some(action_id));
        }
        if based_on != self.seq {
            self.error(
                conn,
                ErrorCode::StaleAction,
                "the game changed; here is the current view",
                Some(action_id),
            );
            let welcome = self.welcome(Some(player), Some(based_on));
            return self.send(conn, &welcome);
        }
        let started = Instant::now();
        match self.commit_action(seat, action_id.clone(), action).await {
            Ok(seq) => {
                self.send(conn, &ServerMsg::Ack { action_id, seq });
                self.broadcast_update();
                metrics::histogram!(m::ACTION_TO_BROADCAST).record(started.elapsed().as_secs_f64());
                self.schedule_computer();
            }
            Err((code, message)) => self.error(conn, code, message, Some(action_id)),
        }
    }

    /// Applies `seat`'s action to a copy of the game, stores it, and only once it is committed
    /// makes it the live game. Returns the new `seq`; on error nothing changed.
    async fn commit_action(
        &mut self,
        seat: Faction,
        action_id: String,
        action: Action,
    ) -> Result<u32, (ErrorCode, String)> {
        let mut next = self.current.game.clone();
        let events = next
            .apply(seat, action)
            .map_err(|e| (ErrorCode::Rule(e), e.to_string()))?;
        let action_json = serde_json::to_string(&action).map_err(|e| (ErrorCode::BadMessage, e.to_string()))?;
        let seq = self.seq + 1;
        let write = self.store.submit(WriteOp::AppendAction {
            code: self.code.clone(),
            game_no: self.current.game_no,
            seq,
            seat: faction_str(seat).into(),
            action: action_json,
            action_id: action_id.clone(),
        });
        if !matches!(write.await, Ok(Ok(()))) {
            return Err((
                ErrorCode::StorageFailed,
                "the action could not be stored; nothing changed".into(),
            ));
        }
        self.current.game = next;
        self.seq = seq;
        self.current.applied.insert((seat, action_id), seq);
        self.current.history.push((seq, events));
        metrics::counter!(m::ACTIONS).increment(1);
        Ok(seq)
    }

    fn broadcast_update(&mut self) {
        let seq = self.seq;
        self.broadcast(|room, viewer| {
            let events = room
                .current
                .history
                .last()
                .map(|(_, evs)| evs.iter().map(|e| e.project(viewer)).collect())
                .unwrap_or_default();
            ServerMsg::Update {
                seq,
                view: Box::new(room.current.game.view(viewer)),
                events,
            }
        });
    }

    async fn rematch(&mut self, conn: ConnId) {
        let Some(Some(player)) = self.conns.get(&conn).map(|c| c.player) else {
            return self.error(
                conn,
                ErrorCode::SpectatorCannotAct,
                "spectators cannot ask for a rematch",
                None,
            );
        };
        if !self.current.is_over() {
            return self.error(
                conn,
                ErrorCode::GameNotOver,
                "a rematch starts once the game is over",
                None,
            );
        }
        self.current.rematch[player.index()] = true;
        if self.computer.is_some() {
            // The computer always accepts.
            self.current.rematch[Player::Guest.index()] = true;
        }
        if self.current.rematch != [true, true] {
            let room = self.room_info();
            return self.broadcast(|_, _| ServerMsg::Room { room: room.clone() });
        }
        let seed = match game_seed(&self.config) {
            Ok(s) => s,
            Err(e) => return self.error(conn, ErrorCode::StorageFailed, e.to_string(), None),
        };
        let game = match new_game(&self.options, seed) {
            Ok(g) => g,
            Err(e) => return self.error(conn, ErrorCode::StorageFailed, e, None),
        };
        let creator_faction = self.current.creator_faction.opponent();
        let seq = self.seq + 1;
        let game_no = self.current.game_no + 1;
        let write = self.store.submit(WriteOp::StartGame {
            code: self.code.clone(),
            game_no,
            seed,
            creator_faction: faction_str(creator_faction).into(),
            seq,
        });
        if !matches!(write.await, Ok(Ok(()))) {
            self.current.rematch[player.index()] = false;
            return self.error(conn, ErrorCode::StorageFailed, "the rematch could not be stored", None);
        }
        self.seq = seq;
        self.current = Match {
            game_no,
            creator_faction,
            game,
            start_seq: seq,
            history: Vec::new(),
            applied: HashMap::new(),
            forfeit_winner: None,
            rematch: [false; 2],
        };
        // Roles changed (sides swap): everyone gets a fresh welcome.
        let targets: Vec<(ConnId, Option<Player>)> = self.conns.iter().map(|(id, c)| (*id, c.player)).collect();
        for (id, p) in targets {
            let welcome = self.welcome(p, None);
            self.send(id, &welcome);
        }
        self.schedule_computer();
    }

    async fn claim_win(&mut self, conn: ConnId) {
        let Some(Some(player)) = self.conns.get(&conn).map(|c| c.player) else {
            return self.error(
                conn,
                ErrorCode::SpectatorCannotAct,
                "spectators cannot claim a win",
                None,
            );
        };
        let other = if player == Player::Creator {
            Player::Guest
        } else {
            Player::Creator
        };
        let grace = self.config.disconnect_grace();
        let away_long_enough =
            self.away_since[other.index()].is_some_and(|t| t.elapsed() >= grace) && !self.is_connected(other);
        if self.current.is_over() || !away_long_enough {
            return self.error(
                conn,
                ErrorCode::CannotClaimWin,
                "the opponent is here or the grace period is not over",
                None,
            );
        }
        let winner = self.current.faction_of(player);
        let result = serde_json::json!({ "forfeit_winner": faction_str(winner) }).to_string();
        let write = self.store.submit(WriteOp::EndGame {
            code: self.code.clone(),
            game_no: self.current.game_no,
            result,
        });
        if !matches!(write.await, Ok(Ok(()))) {
            return self.error(conn, ErrorCode::StorageFailed, "the claim could not be stored", None);
        }
        self.current.forfeit_winner = Some(winner);
        let room = self.room_info();
        self.broadcast(|_, _| ServerMsg::Room { room: room.clone() });
    }
}
