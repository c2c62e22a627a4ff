//! Who is in the room: connections arriving and leaving (each with a seat's token, from any of its
//! devices, or as a spectator), and a win claimed when the opponent stayed away. Each change that must last is committed before
//! anyone hears of it.

use std::time::Instant;

use evr_protocol::{ErrorCode, ForfeitReason, Role, RoomStatus, SpectatorPolicy};

use super::seat::Seat;
use super::{Conn, ConnId, Room};
use crate::metrics_names as m;
use crate::outbox::Outbox;
use evr_store::{GameResult, WriteOp};

/// [`Room::status`] of a room as stored, for a node that does not hold it (`http::room_status`).
pub(crate) fn stored_status(stored: &evr_store::StoredRoom) -> RoomStatus {
    // (a room against the computer stores no guest: its seat is the computer's, never free)
    let against_computer = matches!(stored.options.opponent, Some(evr_protocol::Opponent::Computer { .. }));
    RoomStatus {
        code: stored.code.clone(),
        seat_free: stored.guest_hash.is_none() && !against_computer,
        spectators: stored.options.spectators,
    }
}

impl Room {
    /// What anyone with the code may know: whether the other seat is free, whether they may watch.
    pub(super) fn status(&self) -> RoomStatus {
        RoomStatus {
            code: self.code.clone(),
            seat_free: self.seat_hashes[Seat::Guest].is_none(),
            spectators: self.options.spectators,
        }
    }

    pub(super) fn connect(
        &mut self,
        conn: ConnId,
        token: Option<String>,
        last_seq: Option<u32>,
        out: Outbox,
    ) -> Result<Role, ErrorCode> {
        let (player, device) = match &token {
            Some(t) => {
                let (seat, hash) = self.device_of_token(t).ok_or(ErrorCode::BadToken)?;
                (Some(seat), Some(hash))
            }
            None if self.options.spectators == SpectatorPolicy::Off => return Err(ErrorCode::SpectatorsNotAllowed),
            None => (None, None),
        };
        self.conns.insert(
            conn,
            Conn {
                seat: player,
                device,
                out,
                chat_allowance: crate::chat::Allowance::new(Instant::now()),
            },
        );
        metrics::gauge!(m::CONNECTIONS, "role" => if player.is_some() { "player" } else { "spectator" }).increment(1.0);
        if let Some(p) = player {
            self.away_since[p] = None;
        }
        let welcome = self.welcome(player, last_seq);
        self.send(conn, &welcome);
        self.broadcast_presence();
        Ok(self.role_of(player))
    }

    /// The seat whose token (from its first device or one it was moved to) is `token`.
    pub(super) fn seat_of_token(&self, token: &str) -> Option<Seat> {
        self.device_of_token(token).map(|(seat, _)| seat)
    }

    pub(super) fn remove_conn(&mut self, conn: ConnId) {
        let Some(c) = self.conns.remove(&conn) else { return };
        metrics::gauge!(m::CONNECTIONS, "role" => if c.seat.is_some() { "player" } else { "spectator" }).decrement(1.0);
        if let Some(p) = c.seat
            && !self.conns.values().any(|o| o.seat == Some(p))
        {
            self.away_since[p] = Some(Instant::now());
        }
    }

    /// The seat of connection `conn`; a spectator (or a connection that is gone) is refused with
    /// `refusal` and gets `None`.
    pub(super) fn seat_or_refuse(&mut self, conn: ConnId, refusal: &str) -> Option<Seat> {
        let seat = self.conns.get(&conn).and_then(|c| c.seat);
        if seat.is_none() {
            self.error(conn, ErrorCode::SpectatorCannotAct, refusal, None);
        }
        seat
    }

    /// Whether `p` is present: a connection of theirs is open, or `p` is the computer.
    pub(super) fn is_connected(&self, p: Seat) -> bool {
        (p == Seat::Guest && self.computer.is_some()) || self.conns.values().any(|c| c.seat == Some(p))
    }

    pub(super) fn disconnect(&mut self, conn: ConnId) {
        if self.conns.contains_key(&conn) {
            self.remove_conn(conn);
            self.broadcast_presence();
        }
    }

    pub(super) async fn claim_win(&mut self, conn: ConnId) {
        let Some(player) = self.seat_or_refuse(conn, "spectators cannot claim a win") else {
            return;
        };
        let other = player.other();
        let grace = self.config.disconnect_grace();
        let away_long_enough =
            self.away_since[other].is_some_and(|t| t.elapsed() >= grace) && !self.is_connected(other);
        // in a correspondence game absence is normal: the opponent's deadline decides
        if self.current.is_over() || !away_long_enough || self.deadlines.is_some() {
            return self.error(
                conn,
                ErrorCode::CannotClaimWin,
                "the opponent is here or the grace period is not over",
                None,
            );
        }
        let winner = self.current.faction_of(player);
        let result = GameResult {
            forfeit_winner: Some(winner),
            reason: ForfeitReason::OpponentAway,
        };
        let write = self.submit(WriteOp::EndGame {
            code: self.code.clone(),
            game_no: self.current.game_no,
            result,
            // the player who left loses a rated game: leaving is no way out of a loss
            rated: self.rated_end(Some(winner)),
        });
        if write.await.is_err() {
            return self.error(conn, ErrorCode::StorageFailed, "the claim could not be stored", None);
        }
        self.refresh_ratings().await;
        self.current.forfeit_winner = Some(winner);
        self.current.forfeit_reason = Some(ForfeitReason::OpponentAway);
        if let Some(c) = &mut self.clock {
            c.stop(Instant::now());
        }
        self.stop_deadlines();
        self.broadcast_room_info();
        self.broadcast_clock();
        self.show_spectators_chat_to_seats();
    }
}
