//! Optional clocks, kept by the server: a live clock (a bank of time per player plus an increment
//! per decision) or a correspondence clock (each decision due within a number of days).

use evr_rules::ByFaction;
use serde::{Deserialize, Serialize};

/// A room's time control: a live clock or a correspondence clock. On the wire it is one of two
/// shapes, told apart by their fields: `{"bank_secs", "increment_secs"}` or `{"days_per_decision"}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(untagged)]
pub enum TimeControl {
    Live(LiveClock),
    Correspondence(Correspondence),
}

/// A live clock: each player's bank, and the seconds added after each of their decisions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct LiveClock {
    /// The bank each player starts every game with, in seconds (60 to 5,400: 1 to 90 minutes).
    pub bank_secs: u32,
    /// Added to a player's bank after each of their decisions, in seconds (0 to 120).
    pub increment_secs: u32,
}

/// A correspondence clock: every decision a side owes is due `days_per_decision` days after it
/// became due (wall-clock time: the deadline is a moment, whether or not the server was running).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct Correspondence {
    /// 1, 2, 3 or 7.
    pub days_per_decision: u8,
}

impl LiveClock {
    pub const MIN_BANK_SECS: u32 = 60;
    pub const MAX_BANK_SECS: u32 = 5_400;
    pub const MAX_INCREMENT_SECS: u32 = 120;

    /// Whether it is within the bounds above (`min_bank_secs`: the server's floor, lower in tests).
    pub fn is_sane(&self, min_bank_secs: u32) -> bool {
        (min_bank_secs..=Self::MAX_BANK_SECS).contains(&self.bank_secs)
            && self.increment_secs <= Self::MAX_INCREMENT_SECS
    }
}

impl Correspondence {
    /// The days a decision may take that a room may ask for.
    pub const DAYS: [u8; 4] = [1, 2, 3, 7];

    pub fn is_sane(&self) -> bool {
        Self::DAYS.contains(&self.days_per_decision)
    }
}

impl TimeControl {
    /// The smallest live bank a room may ask for (tests may allow less: `is_sane`'s argument).
    pub const MIN_BANK_SECS: u32 = LiveClock::MIN_BANK_SECS;

    /// Whether it is within the bounds of its kind (`min_bank_secs`: the server's floor for a live bank).
    pub fn is_sane(&self, min_bank_secs: u32) -> bool {
        match self {
            TimeControl::Live(live) => live.is_sane(min_bank_secs),
            TimeControl::Correspondence(c) => c.is_sane(),
        }
    }

    /// The live clock, if it is one.
    pub fn live(&self) -> Option<LiveClock> {
        match self {
            TimeControl::Live(live) => Some(*live),
            TimeControl::Correspondence(_) => None,
        }
    }

    /// The correspondence clock, if it is one.
    pub fn correspondence(&self) -> Option<Correspondence> {
        match self {
            TimeControl::Live(_) => None,
            TimeControl::Correspondence(c) => Some(*c),
        }
    }
}

/// The clocks as the server had them when it sent this: each player's time left, and whose clock
/// is running (a seat's runs while it has something to decide; both during simultaneous choices).
/// A client counts a running clock down from the moment it received this. In a correspondence
/// room the time left is the time to that side's deadline (a side that owes nothing: the whole
/// time of a decision).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ClockView {
    /// Milliseconds left, `[rebel, imperial]`.
    #[cfg_attr(feature = "ts", ts(type = "[number, number]"))]
    pub remaining_ms: ByFaction<u64>,
    pub running: ByFaction<bool>,
    /// Correspondence rooms: when each side's current decision must be made, in milliseconds since
    /// the epoch, `[rebel, imperial]` (`null`: that side owes nothing). Always `null` in live rooms.
    #[cfg_attr(feature = "ts", ts(type = "[number | null, number | null]"))]
    pub deadline_unix_ms: ByFaction<Option<i64>>,
    /// Correspondence rooms: the days each decision may take; `null` in live rooms.
    pub days_per_decision: Option<u8>,
}

/// Why a game ended outside the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum ForfeitReason {
    /// The opponent stayed away past the grace period and the winner claimed the win.
    #[default]
    OpponentAway,
    /// The loser's clock ran out (live), or the loser missed a deadline (correspondence).
    Time,
    /// Both clocks ran out together (a simultaneous choice neither made in time), or both missed
    /// the same deadline: the game ended with no winner (`forfeit_winner` is `null`).
    BothOutOfTime,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_shapes_read_and_the_live_one_is_written_as_before() {
        let live: TimeControl = serde_json::from_str(r#"{"bank_secs":600,"increment_secs":10}"#).unwrap();
        assert_eq!(
            live,
            TimeControl::Live(LiveClock {
                bank_secs: 600,
                increment_secs: 10
            })
        );
        assert_eq!(
            serde_json::to_string(&live).unwrap(),
            r#"{"bank_secs":600,"increment_secs":10}"#
        );
        let corr: TimeControl = serde_json::from_str(r#"{"days_per_decision":3}"#).unwrap();
        assert_eq!(
            corr,
            TimeControl::Correspondence(Correspondence { days_per_decision: 3 })
        );
        assert_eq!(serde_json::to_string(&corr).unwrap(), r#"{"days_per_decision":3}"#);
        assert!(corr.is_sane(60));
        assert!(!TimeControl::Correspondence(Correspondence { days_per_decision: 5 }).is_sane(60));
        for bad in [
            r#"{"bank_secs":600}"#,
            r#"{"bank_secs":600,"increment_secs":10,"days_per_decision":1}"#,
            r#"{"days_per_decision":1,"x":1}"#,
            r#"{"days_per_decision":-1}"#,
        ] {
            assert!(serde_json::from_str::<TimeControl>(bad).is_err(), "{bad}");
        }
    }
}
