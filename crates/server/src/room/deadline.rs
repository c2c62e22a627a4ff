//! Correspondence rooms' deadlines in the room actor (their arithmetic is
//! `crate::clock::CorrespondenceClock`): decisions become due when the game starts and after each
//! action (stored with it, with the room's next wake-up), a missed deadline loses the game on
//! time (stored before anyone hears of it), and the reminders are recorded in the store under the
//! room's claim before they are handed to the `Notifier` — at most once: a crash between the two
//! loses that reminder, never sends it twice (`proto/PROTOCOL.md`).
//!
//! Time here is wall-clock time (ms since the epoch): a deadline is a moment, and a server that
//! was down, or another node, computes the same one from what was stored.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

use evr_rules::Faction;
use evr_store::{
    Deadlines, ReminderKind, Store, StoreError, StoredDeadlines, StoredReminder, StoredRoom, Wake, WriteOp,
};

use super::Room;
use super::clock::deciding;
use super::seat::Seat;
use crate::clock::{CorrespondenceClock, DueReminder};
use crate::notify::{self, Notifier, Reminder};

/// How long a failed write of a deadline's outcome or a reminder waits before it is tried again.
const RETRY_MS: i64 = 1_000;

/// Milliseconds since 1970 (UTC).
pub(crate) fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

type Done = HashSet<(Faction, u32, ReminderKind)>;

/// A correspondence room's current decisions and the reminders done for them.
#[derive(Clone, Debug)]
pub(super) struct RoomDeadlines {
    clock: CorrespondenceClock,
    /// Reminders recorded (sent) or passed over (the player was connected) for these decisions.
    done: Done,
    /// A failed write is tried again at this time.
    retry_at: Option<i64>,
}

impl RoomDeadlines {
    /// The room's deadlines and wake-up as they are to be stored.
    fn wake(&self, game_no: u32) -> Wake {
        Wake {
            deadlines: Deadlines {
                game_no,
                due: self.clock.due(),
            },
            wake_at: self.clock.next_wake(&self.done),
        }
    }

    /// Forgets the reminders of decisions no longer owed.
    fn prune(&mut self) {
        let due = self.clock.due();
        self.done
            .retain(|(side, seq, _)| due[*side].is_some_and(|d| d.seq == *seq));
    }
}

/// Claims room `code` and loads it with its deadlines (blocking: off the async threads).
pub(crate) fn claim_with_deadlines(
    store: &Arc<dyn Store>,
    code: &str,
) -> Result<Option<(StoredRoom, StoredDeadlines)>, StoreError> {
    let Some(stored) = store.claim_room(code)? else {
        return Ok(None);
    };
    let correspondence = stored.options.clock.and_then(|c| c.correspondence()).is_some();
    let deadlines = match (&stored.game, correspondence) {
        (Some(game), true) => store.load_deadlines(code, game.game_no)?,
        _ => StoredDeadlines::default(),
    };
    Ok(Some((stored, deadlines)))
}

fn to_kind(kind: ReminderKind) -> notify::ReminderKind {
    match kind {
        ReminderKind::YourTurn => notify::ReminderKind::YourTurn,
        ReminderKind::TimeRunningOut => notify::ReminderKind::TimeRunningOut,
    }
}

impl Room {
    /// Where the room's reminders go (`App::notifier`).
    pub fn set_notifier(&mut self, notifier: Arc<dyn Notifier>) {
        self.notifier = notifier;
    }

    fn correspondence_clock(&self) -> Option<CorrespondenceClock> {
        let c = self.options.clock?.correspondence()?;
        Some(CorrespondenceClock::new(c.days_per_decision, self.config.day_ms()))
    }

    /// A new game's deadlines: running at once when both seats are taken.
    pub(super) fn fresh_deadlines(&self) -> Option<RoomDeadlines> {
        let mut clock = self.correspondence_clock()?;
        if self.seat_hashes[Seat::Guest].is_some() && !self.current.is_over() {
            clock.start(now_ms(), self.seq, &deciding(&self.current.game));
        }
        Some(RoomDeadlines {
            clock,
            done: Done::new(),
            retry_at: None,
        })
    }

    /// A recovered game's deadlines, as stored (moments in time: nothing is given back for the
    /// time the server was away). A reminder scheduled before the stored wake-up was done (the
    /// wake-up is always the earliest one not done); recorded reminders are done. A game started
    /// whose start was not stored (a crash between the two writes) owes its decisions from now.
    pub(crate) fn restore_deadlines(&mut self, stored: StoredDeadlines) {
        let Some(mut clock) = self.correspondence_clock() else {
            return;
        };
        let game_no = self.current.game_no;
        let mut done = Done::new();
        let mut unstored = false;
        match stored.deadlines.filter(|d| d.game_no == game_no) {
            _ if self.current.is_over() => {}
            Some(d) => {
                clock = CorrespondenceClock::restore(self.days(), self.config.day_ms(), d.due);
                if let Some(wake_at) = stored.wake_at {
                    done.extend(clock.reminders_before(wake_at));
                }
            }
            None if self.seat_hashes[Seat::Guest].is_some() => {
                clock.start(now_ms(), self.seq, &deciding(&self.current.game));
                unstored = true;
            }
            None => {}
        }
        done.extend(
            stored
                .reminders
                .iter()
                .filter(|r| r.game_no == game_no)
                .map(|r| (r.side, r.decision_seq, r.kind)),
        );
        self.deadlines = Some(RoomDeadlines {
            clock,
            done,
            // written at the first wake-up, which is now
            retry_at: unstored.then_some(0),
        });
    }

    fn days(&self) -> u8 {
        self.options
            .clock
            .and_then(|c| c.correspondence())
            .map_or(1, |c| c.days_per_decision)
    }
}

impl Room {
    /// The clock as a client is told it now, in a correspondence room.
    pub(super) fn deadlines_view(&self) -> Option<evr_protocol::ClockView> {
        self.deadlines.as_ref().map(|d| d.clock.view(now_ms()))
    }

    /// The guest took the seat: the first decisions are due from now.
    pub(super) fn start_deadlines(&mut self) {
        let deciding = deciding(&self.current.game);
        let seq = self.seq;
        if let Some(d) = &mut self.deadlines {
            d.clock.start(now_ms(), seq, &deciding);
            d.done.clear();
        }
    }

    /// The deadlines after `actor`'s action at update `seq`, leaving `next` to decide, and the
    /// wake-up to store with the action (`None` outside correspondence rooms).
    pub(super) fn deadlines_after(
        &self,
        seq: u32,
        actor: Faction,
        next: &evr_rules::Game,
    ) -> Option<(RoomDeadlines, Wake)> {
        let mut d = self.deadlines.clone()?;
        if next.is_over() {
            d.clock.stop();
        } else {
            d.clock.after_decision(now_ms(), seq, actor, &next.seats_to_act());
        }
        d.prune();
        let wake = d.wake(self.current.game_no);
        Some((d, wake))
    }

    /// Stores the deadlines and wake-up (a game started, reminders passed over); a failed write
    /// is tried again at the next wake-up.
    pub(super) async fn store_deadlines(&mut self) {
        let Some(d) = &self.deadlines else { return };
        let write = self.submit(WriteOp::SetWake {
            code: self.code.clone(),
            wake: d.wake(self.current.game_no),
        });
        let ok = write.await.is_ok();
        if let Some(d) = &mut self.deadlines {
            d.retry_at = (!ok).then(|| now_ms() + RETRY_MS);
        }
    }

    /// The game ended otherwise (a claimed win): nobody owes anything (the store cleared the
    /// wake-up with the result).
    pub(super) fn stop_deadlines(&mut self) {
        if let Some(d) = &mut self.deadlines {
            d.clock.stop();
            d.prune();
        }
    }

    /// When the room must wake for its deadlines, as a timer's instant.
    pub(super) fn deadline_wake(&self) -> Option<tokio::time::Instant> {
        let d = self.deadlines.as_ref()?;
        if self.current.is_over() && d.retry_at.is_none() {
            return None;
        }
        let at = match (d.clock.next_wake(&d.done), d.retry_at) {
            (Some(a), Some(b)) => a.min(b),
            (a, b) => a.or(b)?,
        };
        let wait = Duration::from_millis((at - now_ms()).max(0) as u64);
        Some(tokio::time::Instant::now() + wait)
    }

    /// A deadline or reminder may be due (the room's timer, or the sweeper's nudge): a missed
    /// deadline ends the game; then the reminders due are recorded and handed over.
    pub(super) async fn on_deadlines(&mut self) {
        let retry = self.deadlines.as_ref().is_some_and(|d| d.retry_at.is_some());
        if self.check_deadlines().await || self.ownership.is_lost() {
            return;
        }
        // a reminder whose record failed is tried again at `retry_at`, before anything else
        let Some(passed_over) = self.send_reminders().await else {
            return;
        };
        if (passed_over || retry) && !self.ownership.is_lost() {
            self.store_deadlines().await;
        }
    }

    /// Whether a deadline has passed (the game then ends here, before anything else is done).
    pub(super) async fn check_deadlines(&mut self) -> bool {
        let now = now_ms();
        let Some(out) = self.deadlines.as_ref().and_then(|d| d.clock.out_of_time(now)) else {
            return false;
        };
        if self.current.is_over() {
            return false;
        }
        if let Err(e) = self.store_time_loss(out).await {
            // fenced: another server owns the room and announces nothing from here
            if !matches!(e, StoreError::Fenced) {
                tracing::error!(room = %self.code, "the loss on time could not be stored; trying again");
            }
            if let Some(d) = &mut self.deadlines {
                d.retry_at = Some(now + RETRY_MS);
            }
            return true;
        }
        if let Some(d) = &mut self.deadlines {
            d.clock.stop();
            d.prune();
            d.retry_at = None;
        }
        let loser = match out {
            crate::clock::OutOfTime::Side(side) => side.name(),
            crate::clock::OutOfTime::Both => "both",
        };
        tracing::info!(room = %self.code, loser, "a deadline passed");
        crate::test_events::record(|| format!("timeout {} {} {loser}", self.code, self.current.game_no));
        self.announce_time_loss(out);
        true
    }

    /// Whether a person holds `side`'s seat and has a connection to the room now.
    fn side_connected(&self, side: Faction) -> bool {
        let seat = self.current.seat_of(side);
        self.conns.values().any(|c| c.seat == Some(seat))
    }

    /// Records and hands over the reminders due now; returns whether some were passed over (then
    /// the wake-up moved without a reminder's write, and the caller stores it), `None` if a
    /// record failed.
    async fn send_reminders(&mut self) -> Option<bool> {
        let now = now_ms();
        let d = self.deadlines.as_ref()?;
        if self.current.is_over() {
            return Some(false);
        }
        let due = d.clock.reminders_due(now, &d.done);
        let all_before = d.clock.reminders_before(now + 1);
        let mut passed_over = false;
        for r in due {
            let computer = self.computer.is_some() && self.current.seat_of(r.side) == Seat::Guest;
            if computer || (r.kind == ReminderKind::YourTurn && self.side_connected(r.side)) {
                if let Some(d) = &mut self.deadlines {
                    d.done.insert(r.key());
                }
                passed_over = true;
                continue;
            }
            if !self.record_and_send(r, now).await {
                return None;
            }
        }
        // what came due meanwhile (a "your turn" a late "running out" superseded) is done too
        if let Some(d) = &mut self.deadlines {
            let before = d.done.len();
            d.done.extend(all_before);
            passed_over |= d.done.len() > before;
        }
        Some(passed_over)
    }

    /// Records reminder `r` under the room's claim, then hands it to the notifier; `false` if
    /// the record failed (tried again later; fenced: the room is another server's now).
    async fn record_and_send(&mut self, r: DueReminder, now: i64) -> bool {
        let Some(d) = &mut self.deadlines else { return false };
        let mut after = d.clone();
        after.done.insert(r.key());
        let write = self.submit(WriteOp::Reminder {
            code: self.code.clone(),
            reminder: StoredReminder {
                game_no: self.current.game_no,
                side: r.side,
                decision_seq: r.decision_seq,
                kind: r.kind,
            },
            recorded_at: now,
            wake: after.wake(self.current.game_no),
        });
        if write.await.is_err() {
            if let Some(d) = &mut self.deadlines {
                d.retry_at = Some(now + RETRY_MS);
            }
            return false;
        }
        if let Some(d) = &mut self.deadlines {
            d.done.insert(r.key());
        }
        tracing::info!(room = %self.code, side = r.side.name(), kind = r.kind.as_str(), "reminder recorded");
        crate::test_events::record(|| {
            let (game, side, kind) = (self.current.game_no, r.side.name(), r.kind.as_str());
            format!("reminder {} {game} {side} {} {kind}", self.code, r.decision_seq)
        });
        self.notifier.send(Reminder {
            room: self.code.clone(),
            game_no: self.current.game_no,
            side: r.side,
            kind: to_kind(r.kind),
            decision_seq: u64::from(r.decision_seq),
            deadline_unix_ms: r.deadline_ms,
            opponent_name: self.names[self.current.seat_of(r.side.opponent())].clone(),
        });
        true
    }

    /// The room's deadlines and wake-up to store with a new room (against the computer the game
    /// starts at once).
    pub(super) fn deadlines_to_store(&self) -> Option<Wake> {
        self.deadlines.as_ref().map(|d| d.wake(self.current.game_no))
    }

    /// After a committed action: its deadlines (already stored with it) are the room's.
    pub(super) fn adopt_deadlines(&mut self, d: Option<RoomDeadlines>) {
        if d.is_some() {
            self.deadlines = d;
        }
    }
}
