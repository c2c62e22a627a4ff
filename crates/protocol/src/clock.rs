//! Optional clocks: a bank of time per player plus an increment per decision, kept by the server.

use evr_rules::ByFaction;
use serde::{Deserialize, Serialize};

/// A room's time control: each player's bank, and the seconds added after each of their decisions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct TimeControl {
    /// The bank each player starts every game with, in seconds (60 to 5,400: 1 to 90 minutes).
    pub bank_secs: u32,
    /// Added to a player's bank after each of their decisions, in seconds (0 to 120).
    pub increment_secs: u32,
}

impl TimeControl {
    pub const MIN_BANK_SECS: u32 = 60;
    pub const MAX_BANK_SECS: u32 = 5_400;
    pub const MAX_INCREMENT_SECS: u32 = 120;

    /// Whether it is within the bounds above (`min_bank_secs`: the server's floor, lower in tests).
    pub fn is_sane(&self, min_bank_secs: u32) -> bool {
        (min_bank_secs..=Self::MAX_BANK_SECS).contains(&self.bank_secs)
            && self.increment_secs <= Self::MAX_INCREMENT_SECS
    }
}

/// The clocks as the server had them when it sent this: each player's time left, and whose clock
/// is running (a seat's runs while it has something to decide; both during simultaneous choices).
/// A client counts a running clock down from the moment it received this.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ClockView {
    /// Milliseconds left, `[rebel, imperial]`.
    #[cfg_attr(feature = "ts", ts(type = "[number, number]"))]
    pub remaining_ms: ByFaction<u64>,
    pub running: ByFaction<bool>,
}

/// Why a game ended outside the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum ForfeitReason {
    /// The opponent stayed away past the grace period and the winner claimed the win.
    #[default]
    OpponentAway,
    /// The loser's clock ran out.
    Time,
}
