//! The clocks' arithmetic, apart from the room: `live.rs` (a bank per side and an increment, in
//! `Instant`s: a restart gives back the time it was down) and `correspondence.rs` (a deadline per
//! decision, in wall-clock milliseconds: the deadline is a moment, whether the server ran or not).

mod correspondence;
mod live;

pub use correspondence::{CorrespondenceClock, DueReminder, REAL_DAY_MS};
pub use live::Clock;

use evr_rules::Faction;

/// Who ran out of time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutOfTime {
    /// This side ran out (the first to, of two): it loses.
    Side(Faction),
    /// Both ran out at the same moment: both clocks of a simultaneous choice with the same time
    /// left, or the same correspondence deadline missed by both. Nobody wins.
    Both,
}

impl OutOfTime {
    /// Of the sides out of time by now and when each ran out, the one that ran out first, or
    /// both when they ran out together.
    pub(crate) fn first<T: Ord + Copy>(out: impl Iterator<Item = (Faction, T)>) -> Option<OutOfTime> {
        let out: Vec<(Faction, T)> = out.collect();
        match out.as_slice() {
            [] => None,
            [(side, _)] => Some(OutOfTime::Side(*side)),
            [(a, ta), (b, tb), ..] => Some(match ta.cmp(tb) {
                std::cmp::Ordering::Less => OutOfTime::Side(*a),
                std::cmp::Ordering::Greater => OutOfTime::Side(*b),
                std::cmp::Ordering::Equal => OutOfTime::Both,
            }),
        }
    }
}
