//! A game's live clocks, apart from the room: each side's bank, whose clock runs (a side that has
//! something to decide; both during simultaneous choices), the increment after each decision,
//! and who runs out first. Time comes in as `Instant`s, so tests drive it without waiting.
//!
//! The room (`room/clock.rs`) stores the banks with every action, so a restarted server resumes
//! from the last stored banks: neither resetting a clock nor charging anyone for the time the
//! server was down (the time since that action is given back).

use std::time::{Duration, Instant};

use evr_protocol::{ClockView, LiveClock};
use evr_rules::{ByFaction, Faction};

use super::OutOfTime;

#[derive(Clone, Debug, PartialEq)]
pub struct Clock {
    control: LiveClock,
    remaining: ByFaction<Duration>,
    running: ByFaction<bool>,
    /// Up to when the running sides were charged.
    charged_to: Instant,
}

impl Clock {
    /// Full banks, nothing running.
    pub fn new(control: LiveClock, now: Instant) -> Clock {
        let bank = Duration::from_secs(u64::from(control.bank_secs));
        Clock::restore(control, ByFaction::splat(bank), now)
    }

    /// The banks as stored, nothing running.
    pub fn restore(control: LiveClock, remaining: ByFaction<Duration>, now: Instant) -> Clock {
        Clock {
            control,
            remaining,
            running: ByFaction::splat(false),
            charged_to: now,
        }
    }

    /// Charges the running sides for the time since the last charge.
    fn charge(&mut self, now: Instant) {
        let spent = now.saturating_duration_since(self.charged_to);
        for f in Faction::BOTH {
            if self.running[f] {
                self.remaining[f] = self.remaining[f].saturating_sub(spent);
            }
        }
        self.charged_to = now.max(self.charged_to);
    }

    /// From `now` the clocks of `deciding` run and the others stand.
    pub fn run(&mut self, now: Instant, deciding: &[Faction]) {
        self.charge(now);
        self.running = ByFaction::from_fn(|f| deciding.contains(&f));
    }

    /// `actor` decided at `now` (it gets its increment); from then the clocks of `deciding` run.
    pub fn after_decision(&mut self, now: Instant, actor: Faction, deciding: &[Faction]) {
        self.charge(now);
        self.remaining[actor] += Duration::from_secs(u64::from(self.control.increment_secs));
        self.running = ByFaction::from_fn(|f| deciding.contains(&f));
    }

    /// Every clock stands (the game is over).
    pub fn stop(&mut self, now: Instant) {
        self.run(now, &[]);
    }

    /// Whose clock has run out by `now`: of two, the one that ran out first, or both when they
    /// ran out together (a simultaneous choice with the same time left).
    pub fn out_of_time(&self, now: Instant) -> Option<OutOfTime> {
        let spent = now.saturating_duration_since(self.charged_to);
        OutOfTime::first(
            Faction::BOTH
                .into_iter()
                .filter(|f| self.running[*f] && self.remaining[*f] <= spent)
                .map(|f| (f, self.remaining[f])),
        )
    }

    /// When the next running clock runs out, if one runs.
    pub fn next_deadline(&self) -> Option<Instant> {
        Faction::BOTH
            .into_iter()
            .filter(|f| self.running[*f])
            .map(|f| self.charged_to + self.remaining[f])
            .min()
    }

    /// Each side's time left at `now`.
    pub fn remaining_at(&self, now: Instant) -> ByFaction<Duration> {
        let spent = now.saturating_duration_since(self.charged_to);
        ByFaction::from_fn(|f| {
            if self.running[f] {
                self.remaining[f].saturating_sub(spent)
            } else {
                self.remaining[f]
            }
        })
    }

    /// The clocks as a client is told them at `now`.
    pub fn view(&self, now: Instant) -> ClockView {
        ClockView {
            remaining_ms: self.remaining_at(now).map(|d| d.as_millis() as u64),
            running: self.running,
            deadline_unix_ms: ByFaction::splat(None),
            days_per_decision: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEN_PLUS_FIVE: LiveClock = LiveClock {
        bank_secs: 10,
        increment_secs: 5,
    };

    fn secs(s: u64) -> Duration {
        Duration::from_secs(s)
    }

    #[test]
    fn only_the_deciding_side_is_charged_and_a_decision_adds_the_increment() {
        let t0 = Instant::now();
        let mut c = Clock::new(TEN_PLUS_FIVE, t0);
        assert_eq!(
            c.view(t0 + secs(3)).remaining_ms,
            ByFaction::splat(10_000),
            "nothing runs yet"
        );
        c.run(t0, &[Faction::Rebel]);
        assert_eq!(c.remaining_at(t0 + secs(4)), ByFaction::new(secs(6), secs(10)));
        c.after_decision(t0 + secs(4), Faction::Rebel, &[Faction::Imperial]);
        assert_eq!(c.remaining_at(t0 + secs(4)), ByFaction::new(secs(11), secs(10)));
        assert_eq!(c.remaining_at(t0 + secs(7)), ByFaction::new(secs(11), secs(7)));
        assert_eq!(c.view(t0 + secs(7)).running, ByFaction::new(false, true));
        assert_eq!(c.next_deadline(), Some(t0 + secs(14)));
    }

    #[test]
    fn simultaneous_choices_run_both_clocks_and_the_first_out_loses() {
        let t0 = Instant::now();
        let mut c = Clock::new(TEN_PLUS_FIVE, t0);
        c.run(t0, &Faction::BOTH);
        c.after_decision(t0 + secs(2), Faction::Imperial, &[Faction::Rebel]);
        // the Imperial chose (13 s left, standing); the Rebel still runs: 8 s left
        assert_eq!(c.remaining_at(t0 + secs(2)), ByFaction::new(secs(8), secs(13)));
        assert_eq!(c.out_of_time(t0 + secs(9)), None);
        assert_eq!(c.out_of_time(t0 + secs(10)), Some(OutOfTime::Side(Faction::Rebel)));
        let mut both = Clock::new(TEN_PLUS_FIVE, t0);
        both.run(t0, &Faction::BOTH);
        both.after_decision(t0, Faction::Imperial, &Faction::BOTH);
        assert_eq!(
            both.out_of_time(t0 + secs(30)),
            Some(OutOfTime::Side(Faction::Rebel)),
            "the Rebel ran out first"
        );
        assert_eq!(both.remaining_at(t0 + secs(30)), ByFaction::splat(Duration::ZERO));
    }

    #[test]
    fn both_clocks_of_a_simultaneous_choice_running_out_together_lose_nobody_the_game() {
        let t0 = Instant::now();
        let mut c = Clock::new(TEN_PLUS_FIVE, t0);
        c.run(t0, &Faction::BOTH);
        assert_eq!(c.out_of_time(t0 + secs(9)), None);
        assert_eq!(c.out_of_time(t0 + secs(10)), Some(OutOfTime::Both));
        assert_eq!(
            c.out_of_time(t0 + secs(60)),
            Some(OutOfTime::Both),
            "checked late, still together"
        );
    }

    #[test]
    fn stopped_and_restored_clocks_stand() {
        let t0 = Instant::now();
        let mut c = Clock::new(TEN_PLUS_FIVE, t0);
        c.run(t0, &[Faction::Imperial]);
        c.stop(t0 + secs(3));
        assert_eq!(c.remaining_at(t0 + secs(100)), ByFaction::new(secs(10), secs(7)));
        assert_eq!(c.next_deadline(), None);
        assert_eq!(c.out_of_time(t0 + secs(100)), None);
        let restored = Clock::restore(TEN_PLUS_FIVE, ByFaction::new(secs(4), secs(2)), t0 + secs(500));
        assert_eq!(
            restored.remaining_at(t0 + secs(900)),
            ByFaction::new(secs(4), secs(2)),
            "the downtime is given back"
        );
    }
}
