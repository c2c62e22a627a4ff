//! The game moving on: an action applied to a copy of the game, committed, and only then made
//! live and broadcast; and a rematch, stored before the new game is announced.

use std::time::Instant;

use evr_protocol::{ErrorCode, ServerMsg};
use evr_rules::{Action, Event, Faction, Game};

use super::game_match::Match;
use super::seat::Seat;
use super::{ConnId, Room, game_secret, new_game, unix_now};
use crate::metrics_names as m;
use evr_store::WriteOp;

impl Room {
    pub(super) async fn action(&mut self, conn: ConnId, based_on: u32, action_id: String, action: Action) {
        let Some(player) = self.conns.get(&conn).map(|c| c.seat) else {
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
        if let Some(seq) = self.current.applied[seat].get(&action_id) {
            // Already applied: acknowledge again, apply nothing.
            return self.send(conn, &ServerMsg::Ack { action_id, seq });
        }
        if self.seat_hashes[Seat::Guest].is_none() {
            return self.error(
                conn,
                ErrorCode::WaitingForOpponent,
                "the other seat is still free",
                Some(action_id),
            );
        }
        if self.check_clocks().await || self.current.forfeit_reason.is_some() {
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
            Ok(move_) => {
                self.send(
                    conn,
                    &ServerMsg::Ack {
                        action_id,
                        seq: move_.seq,
                    },
                );
                self.broadcast_update(&move_);
                metrics::histogram!(m::ACTION_TO_BROADCAST).record(started.elapsed().as_secs_f64());
                self.schedule_computer();
            }
            Err((code, message)) => self.error(conn, code, message, Some(action_id)),
        }
    }

    /// Applies `seat`'s action to a copy of the game, stores it, and only once it is committed
    /// makes it the live game. Returns the move made; on error nothing changed.
    pub(super) async fn commit_action(
        &mut self,
        seat: Faction,
        action_id: String,
        action: Action,
    ) -> Result<Committed, (ErrorCode, String)> {
        let mut next = self.current.game.clone();
        let events = next
            .apply(seat, action)
            .map_err(|e| (ErrorCode::Rule(e), e.to_string()))?;
        let seq = self.seq + 1;
        let now = Instant::now();
        let mut clock = self.clock.clone();
        if let Some(c) = &mut clock {
            c.after_decision(now, seat, &super::clock::deciding(&next));
        }
        let deadlines = self.deadlines_after(seq, seat, &next);
        let write = self.submit(WriteOp::AppendAction {
            code: self.code.clone(),
            game_no: self.current.game_no,
            seq,
            seat,
            action,
            action_id: action_id.clone(),
            clock_ms: clock
                .as_ref()
                .map(|c| c.remaining_at(now).map(|d| d.as_millis() as u64)),
            wake: deadlines.as_ref().map(|(_, wake)| *wake),
            // the game's end is rated in the same transaction
            rated: next.outcome().and_then(|outcome| self.rated_end(outcome.winner)),
        });
        match write.await {
            Ok(()) => {}
            // another server owns the room now: the client reconnects there (`ownership.rs`)
            Err(evr_store::StoreError::Fenced) => {
                return Err((
                    ErrorCode::ShuttingDown,
                    "this room moved to another server; reconnect in a moment".into(),
                ));
            }
            Err(_) => {
                return Err((
                    ErrorCode::StorageFailed,
                    "the action could not be stored; nothing changed".into(),
                ));
            }
        }
        let before = std::mem::replace(&mut self.current.game, next);
        self.clock = clock;
        self.adopt_deadlines(deadlines.map(|(d, _)| d));
        self.seq = seq;
        self.current.record(seq, seat, action, action_id);
        metrics::counter!(m::ACTIONS).increment(1);
        if self.current.is_over() {
            // the ratings the game's end just changed, before everyone is told of it
            self.refresh_ratings().await;
        }
        Ok(Committed { seq, events, before })
    }

    /// Tells everyone about the move just committed: to each viewer, what changed in its view.
    pub(super) fn broadcast_update(&mut self, move_: &Committed) {
        let seq = self.seq;
        let clock = self.clock_view();
        self.broadcast(|room, viewer| {
            let events = move_.events.iter().map(|e| e.project(viewer)).collect();
            // Only what changed: the client holds the view as of `seq - 1` (the welcome's or the
            // last update's). The log is not among the changes: every client holds it and extends
            // it with `events`.
            let now = room.current.game.view_without_log(viewer);
            ServerMsg::Update {
                seq,
                changes: Box::new(now.changes_since(&move_.before.view_without_log(viewer))),
                events,
                clock,
            }
        });
        // The game just ended (no action follows the last one): its key and salt are now
        // everyone's, so the shuffles can be checked against the commitment shown at its start.
        if self.current.game.is_over() {
            let room = self.room_info();
            self.broadcast(|_, _| ServerMsg::Room { room: room.clone() });
            self.show_spectators_chat_to_seats();
        }
    }

    pub(super) async fn rematch(&mut self, conn: ConnId) {
        let Some(player) = self.seat_or_refuse(conn, "spectators cannot ask for a rematch") else {
            return;
        };
        if !self.current.is_over() {
            return self.error(
                conn,
                ErrorCode::GameNotOver,
                "a rematch starts once the game is over",
                None,
            );
        }
        self.current.rematch[player] = true;
        if self.computer.is_some() {
            // The computer always accepts.
            self.current.rematch[Seat::Guest] = true;
        }
        if !self.current.rematch.all(|asked| *asked) {
            let room = self.room_info();
            return self.broadcast(|_, _| ServerMsg::Room { room: room.clone() });
        }
        let secret = match game_secret(&self.config) {
            Ok(s) => s,
            Err(e) => {
                tracing::error!(room = %self.code, error = %e, "no randomness for a rematch");
                return self.error(conn, ErrorCode::StorageFailed, "the rematch could not be started", None);
            }
        };
        let game = match new_game(&self.options, &secret) {
            Ok(g) => g,
            Err(e) => {
                tracing::error!(room = %self.code, error = %e, "the rematch's game could not be set up");
                return self.error(conn, ErrorCode::StorageFailed, "the rematch could not be started", None);
            }
        };
        let creator_faction = self.current.creator_faction.opponent();
        let seq = self.seq + 1;
        let game_no = self.current.game_no + 1;
        let write = self.submit(WriteOp::StartGame {
            code: self.code.clone(),
            game_no,
            secret,
            creator_faction,
            seq,
            started_at: unix_now(),
        });
        if write.await.is_err() {
            self.current.rematch[player] = false;
            return self.error(conn, ErrorCode::StorageFailed, "the rematch could not be stored", None);
        }
        self.seq = seq;
        self.current = Match::new(game_no, creator_faction, game, secret, seq);
        self.clock = self.fresh_clock(Instant::now());
        self.deadlines = self.fresh_deadlines();
        self.store_deadlines().await;
        // Roles changed (sides swap): everyone gets a fresh welcome.
        let targets: Vec<(ConnId, Option<Seat>)> = self.conns.iter().map(|(id, c)| (*id, c.seat)).collect();
        for (id, p) in targets {
            let welcome = self.welcome(p, None);
            self.send(id, &welcome);
        }
        self.schedule_computer();
    }
}

/// A move committed and made live.
pub(super) struct Committed {
    pub(super) seq: u32,
    /// What the move logged.
    pub(super) events: Vec<Event>,
    /// The game just before it, for what changed in each view.
    pub(super) before: Game,
}
