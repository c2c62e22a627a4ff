//! A correspondence game's clock: every decision a side owes is due `days` days after it became
//! due, and the reminders that go with it. Pure arithmetic on wall-clock milliseconds since the
//! epoch (the room passes `now`), so tests drive time without waiting.
//!
//! A decision becomes due when the game starts (both seats taken) for the sides that must decide,
//! and after each action for the sides that must decide next, except that a side which already
//! owed a decision and still owes it (the other side of a simultaneous choice acted) keeps its
//! deadline. The actor always owes a new decision if it must decide again. The room stores `due`
//! with every action (`evr_store::Deadlines`), so a restarted server, or another node, computes
//! the same deadlines: unlike a live clock, nothing is given back for the time it was down.

use std::collections::HashSet;

use evr_protocol::ClockView;
use evr_rules::{ByFaction, Faction};
use evr_store::{DueDecision, ReminderKind};

use super::OutOfTime;

/// The length of a real day; tests shorten it (`--day-secs`, feature `test-days`).
pub const REAL_DAY_MS: i64 = 86_400_000;
/// "Your turn" waits this long after the decision became due (a player who answers at once is
/// not mailed), scaled like a day when days are shortened.
const YOUR_TURN_AFTER_REAL_MS: i64 = 120_000;

/// A reminder that has come due: for `side`'s decision that became due at `decision_seq`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DueReminder {
    pub side: Faction,
    pub kind: ReminderKind,
    pub decision_seq: u32,
    pub deadline_ms: i64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct CorrespondenceClock {
    days: u8,
    day_ms: i64,
    due: ByFaction<Option<DueDecision>>,
}

impl CorrespondenceClock {
    /// Nothing due yet.
    pub fn new(days: u8, day_ms: i64) -> CorrespondenceClock {
        CorrespondenceClock {
            days,
            day_ms: day_ms.max(1),
            due: ByFaction::splat(None),
        }
    }

    /// The decisions as stored.
    pub fn restore(days: u8, day_ms: i64, due: ByFaction<Option<DueDecision>>) -> CorrespondenceClock {
        CorrespondenceClock {
            due,
            ..CorrespondenceClock::new(days, day_ms)
        }
    }

    pub fn due(&self) -> ByFaction<Option<DueDecision>> {
        self.due
    }

    /// The time each decision may take.
    pub fn window_ms(&self) -> i64 {
        i64::from(self.days) * self.day_ms
    }

    /// The game starts (or restarts, with nothing stored): every side in `deciding` owes a
    /// decision from `now_ms`.
    pub fn start(&mut self, now_ms: i64, seq: u32, deciding: &[Faction]) {
        self.due = ByFaction::from_fn(|f| deciding.contains(&f).then_some(DueDecision { at_ms: now_ms, seq }));
    }

    /// `actor` decided at `now_ms` (update `seq`); from then the sides in `deciding` owe a
    /// decision: a new one, except a side (not the actor) that already owed one keeps it.
    pub fn after_decision(&mut self, now_ms: i64, seq: u32, actor: Faction, deciding: &[Faction]) {
        let before = self.due;
        self.due = ByFaction::from_fn(|f| {
            if !deciding.contains(&f) {
                None
            } else if f != actor
                && let Some(kept) = before[f]
            {
                Some(kept)
            } else {
                Some(DueDecision { at_ms: now_ms, seq })
            }
        });
    }

    /// Nobody owes anything (the game is over).
    pub fn stop(&mut self) {
        self.due = ByFaction::splat(None);
    }

    /// When `side`'s current decision must be made.
    pub fn deadline(&self, side: Faction) -> Option<i64> {
        self.due[side].map(|d| d.at_ms + self.window_ms())
    }

    /// Whose deadline has passed by `now_ms`: of two, the earlier deadline's side, or both when
    /// both missed the same deadline (a simultaneous choice both left undecided).
    pub fn out_of_time(&self, now_ms: i64) -> Option<OutOfTime> {
        OutOfTime::first(
            Faction::BOTH
                .into_iter()
                .filter_map(|f| self.deadline(f).map(|d| (f, d)))
                .filter(|(_, d)| *d <= now_ms),
        )
    }

    fn your_turn_at(&self, d: DueDecision) -> i64 {
        d.at_ms + YOUR_TURN_AFTER_REAL_MS * self.day_ms / REAL_DAY_MS
    }

    /// When a fifth of the time is left.
    fn running_out_at(&self, d: DueDecision) -> i64 {
        d.at_ms + self.window_ms() - self.window_ms() / 5
    }

    /// Each reminder of the current decisions and when it comes due.
    fn schedule(&self) -> impl Iterator<Item = (i64, DueReminder)> + '_ {
        Faction::BOTH.into_iter().flat_map(move |side| {
            self.due[side].into_iter().flat_map(move |d| {
                let deadline_ms = d.at_ms + self.window_ms();
                let reminder = |kind| DueReminder {
                    side,
                    kind,
                    decision_seq: d.seq,
                    deadline_ms,
                };
                [
                    (self.your_turn_at(d), reminder(ReminderKind::YourTurn)),
                    (self.running_out_at(d), reminder(ReminderKind::TimeRunningOut)),
                ]
            })
        })
    }

    /// The reminders due at `now_ms` that are not in `done` (sent or passed over already). A
    /// "your turn" that comes due as late as "time is running out" (a server that was down) is
    /// superseded by it: one mail, not two. Nothing is due once the deadline has passed.
    pub fn reminders_due(&self, now_ms: i64, done: &HashSet<(Faction, u32, ReminderKind)>) -> Vec<DueReminder> {
        let due: Vec<DueReminder> = self
            .schedule()
            .filter(|(at, r)| *at <= now_ms && now_ms < r.deadline_ms && !done.contains(&key(r)))
            .map(|(_, r)| r)
            .collect();
        let superseded = |r: &DueReminder| {
            r.kind == ReminderKind::YourTurn
                && due
                    .iter()
                    .any(|o| o.side == r.side && o.kind == ReminderKind::TimeRunningOut)
        };
        due.iter().filter(|r| !superseded(r)).copied().collect()
    }

    /// Every reminder of the current decisions scheduled before `t` (sent or not).
    pub fn reminders_before(&self, t: i64) -> Vec<(Faction, u32, ReminderKind)> {
        self.schedule()
            .filter(|(at, _)| *at < t)
            .map(|(_, r)| key(&r))
            .collect()
    }

    /// When the room must next wake: the earliest deadline or reminder not in `done`.
    pub fn next_wake(&self, done: &HashSet<(Faction, u32, ReminderKind)>) -> Option<i64> {
        let reminders = self
            .schedule()
            .filter(|(_, r)| !done.contains(&key(r)))
            .map(|(at, r)| at.min(r.deadline_ms));
        let deadlines = Faction::BOTH.into_iter().filter_map(|f| self.deadline(f));
        reminders.chain(deadlines).min()
    }

    /// The clock as a client is told it at `now_ms`.
    pub fn view(&self, now_ms: i64) -> ClockView {
        let deadline = ByFaction::from_fn(|f| self.deadline(f));
        ClockView {
            // a side that owes nothing will have the whole window for its next decision
            remaining_ms: deadline.map(|d| d.map_or(self.window_ms(), |d| (d - now_ms).max(0)) as u64),
            running: deadline.map(|d| d.is_some()),
            deadline_unix_ms: deadline,
            days_per_decision: Some(self.days),
        }
    }
}

/// A reminder's identity: the side, its decision and the kind.
fn key(r: &DueReminder) -> (Faction, u32, ReminderKind) {
    r.key()
}

impl DueReminder {
    /// Its identity: the side, its decision and the kind.
    pub fn key(&self) -> (Faction, u32, ReminderKind) {
        (self.side, self.decision_seq, self.kind)
    }
}

#[cfg(test)]
#[path = "correspondence_tests.rs"]
mod tests;
