//! What each connection receives. Every game payload sent to a connection is computed here, with
//! the viewer [`Room::viewer_of`] gives for that connection: live updates, welcomes on join and
//! reconnect (with the missed log entries), presence, room facts and errors alike.

use std::collections::HashMap;
use std::time::Instant;

use bytes::Bytes;
use evr_protocol::{ErrorCode, PROTOCOL_VERSION, Presence, Role, RoomInfo, SeatPresence, ServerMsg};
use evr_rules::{ByFaction, LogEntry, Viewer};

use super::seat::Seat;
use super::{ConnId, Outbound, Room};
use crate::metrics_names as m;
use crate::outbox::Refused;

impl Room {
    pub(super) fn viewer_of(&self, player: Option<Seat>) -> Viewer {
        match player {
            Some(p) => Viewer::Seat(self.current.faction_of(p)),
            None => Viewer::Spectator,
        }
    }

    pub(super) fn role_of(&self, player: Option<Seat>) -> Role {
        match player {
            Some(p) => Role::Seat(self.current.faction_of(p)),
            None => Role::Spectator,
        }
    }

    pub(super) fn room_info(&self) -> RoomInfo {
        RoomInfo {
            code: self.code.clone(),
            options: self.options,
            game_number: self.current.game_no,
            rematch_requested: ByFaction::from_fn(|f| self.current.rematch[self.current.seat_of(f)]),
            forfeit_winner: self.current.forfeit_winner,
            forfeit_reason: self.current.forfeit_reason,
            fairness: crate::fairness::public(&self.current.secret, self.current.is_over()),
            reveal_agreed: self.reveal_agreed(),
            names: ByFaction::from_fn(|f| self.names[self.current.seat_of(f)].clone()),
            ratings: self.ratings_view(),
        }
    }

    pub(super) fn presence(&self) -> Presence {
        let now = Instant::now();
        let grace = self.config.disconnect_grace();
        let seats = ByFaction::from_fn(|f| {
            let p = self.current.seat_of(f);
            let connected = self.is_connected(p);
            let claim_in_seconds = match self.away_since[p] {
                // in a correspondence game absence is normal: the deadline decides, not a claim
                Some(t)
                    if !connected
                        && !self.current.is_over()
                        && self.seat_hashes[p].is_some()
                        && self.deadlines.is_none() =>
                {
                    Some(grace.saturating_sub(now.duration_since(t)).as_secs() as u32)
                }
                _ => None,
            };
            SeatPresence {
                taken: self.seat_hashes[p].is_some(),
                connected,
                claim_in_seconds,
            }
        });
        let spectators = self.conns.values().filter(|c| c.seat.is_none()).count() as u32;
        Presence { seats, spectators }
    }

    /// Serializes and queues `msg` for one connection; a connection that cannot keep up is dropped.
    pub(super) fn send(&mut self, conn: ConnId, msg: &ServerMsg) {
        match serde_json::to_string(msg) {
            Ok(text) => self.send_raw(conn, Bytes::from(text)),
            Err(e) => tracing::error!(room = %self.code, error = %e, "cannot serialize a message"),
        }
    }

    pub(super) fn send_raw(&mut self, conn: ConnId, text: Outbound) {
        let Some(c) = self.conns.get(&conn) else { return };
        match c.out.try_send(text) {
            Ok(()) => {}
            Err(Refused::Full) => {
                tracing::warn!(room = %self.code, conn, "a client does not keep up: dropping the connection");
                metrics::counter!(m::SLOW_CONSUMERS).increment(1);
                self.remove_conn(conn);
            }
            // the client went away; its reader is telling the room
            Err(Refused::Closed) => self.remove_conn(conn),
        }
    }

    pub(super) fn error(
        &mut self,
        conn: ConnId,
        code: ErrorCode,
        message: impl Into<String>,
        action_id: Option<String>,
    ) {
        metrics::counter!(m::ERRORS, "code" => code.as_str()).increment(1);
        self.send(
            conn,
            &ServerMsg::Error {
                code,
                message: message.into(),
                action_id,
            },
        );
    }

    /// Sends `make(viewer)` to every connection, serializing once per distinct viewer.
    pub(super) fn broadcast(&mut self, make: impl Fn(&Room, Viewer) -> ServerMsg) {
        let mut cache: HashMap<Viewer, Outbound> = HashMap::new();
        let targets: Vec<(ConnId, Viewer)> = self.conns.iter().map(|(id, c)| (*id, self.viewer_of(c.seat))).collect();
        for (id, viewer) in targets {
            let text = match cache.get(&viewer) {
                Some(t) => t.clone(),
                None => match serde_json::to_string(&make(self, viewer)) {
                    Ok(s) => {
                        let t = Bytes::from(s);
                        cache.insert(viewer, t.clone());
                        t
                    }
                    Err(e) => {
                        tracing::error!(room = %self.code, error = %e, "cannot serialize a message");
                        continue;
                    }
                },
            };
            self.send_raw(id, text);
        }
    }

    /// Tells everyone the room's facts (`room`): names, rematch requests, a result, agreements.
    pub(super) fn broadcast_room_info(&mut self) {
        let room = self.room_info();
        self.broadcast(|_, _| ServerMsg::Room { room: room.clone() });
    }

    pub(super) fn broadcast_presence(&mut self) {
        let presence = self.presence();
        self.broadcast(|_, _| ServerMsg::Presence { presence });
    }

    pub(super) fn welcome(&self, player: Option<Seat>, last_seq: Option<u32>) -> ServerMsg {
        let viewer = self.viewer_of(player);
        let game_log = self.current.log(self.options.mode).unwrap_or_else(|e| {
            // never expected: the moves were accepted by the same engine from the same start
            tracing::error!(room = %self.code, error = %e, "cannot rebuild the game's log");
            Vec::new()
        });
        let project = |(_, events): &(u32, Vec<evr_rules::Event>)| {
            events.iter().map(|e| e.project(viewer)).collect::<Vec<LogEntry>>()
        };
        let missed = last_seq
            .filter(|s| *s >= self.current.start_seq && *s <= self.seq)
            .map(|since| {
                game_log
                    .iter()
                    .filter(|(seq, _)| *seq > since)
                    .flat_map(project)
                    .collect::<Vec<LogEntry>>()
            });
        ServerMsg::Welcome {
            version: PROTOCOL_VERSION,
            you: self.role_of(player),
            room: self.room_info(),
            seq: self.seq,
            view: Box::new(self.current.game.view(viewer)),
            presence: self.presence(),
            log: game_log.iter().flat_map(project).collect(),
            missed,
            chat: self
                .chat
                .history(super::chat::reader_of(player.is_some()), self.chat_at()),
            clock: self.clock_view(),
        }
    }
}
