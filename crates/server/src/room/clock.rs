//! The clocks in the room actor (their arithmetic is `crate::clock`): they start when both seats
//! are taken, follow every committed action (stored with it), stop at the end, and a clock that
//! runs out ends the game for the other side — stored before anyone hears of it.

use std::time::{Duration, Instant};

use evr_protocol::{ClockView, ForfeitReason, ServerMsg};
use evr_rules::{ByFaction, Faction, Game};

use super::Room;
use super::seat::Seat;
use crate::clock::{Clock, OutOfTime};
use evr_store::{GameResult, StoredAction, WriteOp};

/// The stored result of a game ended on time: the other side wins, or nobody when both ran out
/// together.
fn time_result(out: OutOfTime) -> GameResult {
    match out {
        OutOfTime::Side(loser) => GameResult {
            forfeit_winner: Some(loser.opponent()),
            reason: ForfeitReason::Time,
        },
        OutOfTime::Both => GameResult {
            forfeit_winner: None,
            reason: ForfeitReason::BothOutOfTime,
        },
    }
}

/// Who decides next in `game`: nobody once it is over.
pub(super) fn deciding(game: &Game) -> Vec<Faction> {
    if game.is_over() {
        Vec::new()
    } else {
        game.seats_to_act()
    }
}

/// How long a failed write of a time loss waits before it is tried again.
const RETRY: Duration = Duration::from_secs(1);

impl Room {
    /// A new game's clock (full banks), running at once when both seats are taken.
    pub(super) fn fresh_clock(&self, now: Instant) -> Option<Clock> {
        let mut clock = Clock::new(self.options.clock?.live()?, now);
        if self.seat_hashes[Seat::Guest].is_some() {
            clock.run(now, &deciding(&self.current.game));
        }
        Some(clock)
    }

    /// A recovered game's clock: the banks stored with its last action (full if none), running
    /// from now — the time the server was away is nobody's.
    pub(super) fn recovered_clock(&self, actions: &[StoredAction], now: Instant) -> Option<Clock> {
        let control = self.options.clock?.live()?;
        let bank = Duration::from_secs(u64::from(control.bank_secs));
        let remaining = actions
            .iter()
            .rev()
            .find_map(|a| a.clock_ms)
            .map_or(ByFaction::splat(bank), |ms| ms.map(Duration::from_millis));
        let mut clock = Clock::restore(control, remaining, now);
        if self.seat_hashes[Seat::Guest].is_some() && !self.current.is_over() {
            clock.run(now, &deciding(&self.current.game));
        }
        Some(clock)
    }

    /// The clocks as a client is told them now.
    pub(super) fn clock_view(&self) -> Option<ClockView> {
        self.clock
            .as_ref()
            .map(|c| c.view(Instant::now()))
            .or_else(|| self.deadlines_view())
    }

    /// The guest took the seat: the clocks start.
    pub(super) fn start_clock(&mut self) {
        self.start_deadlines();
        let now = Instant::now();
        let deciding = deciding(&self.current.game);
        if let Some(c) = &mut self.clock {
            c.run(now, &deciding);
        }
        self.broadcast_clock();
    }

    pub(super) fn broadcast_clock(&mut self) {
        if let Some(clock) = self.clock_view() {
            self.broadcast(|_, _| ServerMsg::Clock { clock });
        }
    }

    /// When the room must wake to check the clocks (a clock runs out, or a failed write is retried).
    pub(super) fn clock_deadline(&self) -> Option<Instant> {
        if self.current.is_over() {
            return None;
        }
        match self.clock_retry_at {
            Some(t) => Some(t),
            None => self.clock.as_ref()?.next_deadline(),
        }
    }

    /// Whether a clock has run out (the game then ends here, before anything else is done).
    pub(super) async fn check_clocks(&mut self) -> bool {
        if self.check_deadlines().await {
            return true;
        }
        let now = Instant::now();
        let Some(out) = self.clock.as_ref().and_then(|c| c.out_of_time(now)) else {
            return false;
        };
        if self.current.is_over() {
            return false;
        }
        if self.store_time_loss(out).await.is_err() {
            tracing::error!(room = %self.code, "the loss on time could not be stored; trying again");
            self.clock_retry_at = Some(now + RETRY);
            return true;
        }
        self.clock_retry_at = None;
        if let Some(c) = &mut self.clock {
            c.stop(now);
        }
        tracing::info!(room = %self.code, out = ?out, "a clock ran out");
        self.announce_time_loss(out);
        true
    }

    /// Stores that a side lost on time, or that both ran out together and nobody won (a live
    /// clock ran out, or a correspondence deadline passed: `room/deadline.rs`), under the room's
    /// claim.
    pub(super) async fn store_time_loss(&mut self, out: OutOfTime) -> Result<(), evr_store::StoreError> {
        let result = time_result(out);
        // lost on time counts as lost; both out of time is nobody's win, and not rated
        let rated = match out {
            OutOfTime::Side(_) => self.rated_end(result.forfeit_winner),
            OutOfTime::Both => None,
        };
        let write = self.submit(WriteOp::EndGame {
            code: self.code.clone(),
            game_no: self.current.game_no,
            result,
            rated,
        });
        write.await?;
        self.refresh_ratings().await;
        Ok(())
    }

    /// Tells everyone how the game ended on time, once it is stored.
    pub(super) fn announce_time_loss(&mut self, out: OutOfTime) {
        let result = time_result(out);
        self.current.forfeit_winner = result.forfeit_winner;
        self.current.forfeit_reason = Some(result.reason);
        let room = self.room_info();
        self.broadcast(|_, _| ServerMsg::Room { room: room.clone() });
        self.broadcast_clock();
        self.show_spectators_chat_to_seats();
    }
}
