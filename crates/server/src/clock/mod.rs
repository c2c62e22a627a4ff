//! The clocks' arithmetic, apart from the room: `live.rs` (a bank per side and an increment, in
//! `Instant`s: a restart gives back the time it was down) and `correspondence.rs` (a deadline per
//! decision, in wall-clock milliseconds: the deadline is a moment, whether the server ran or not).

mod correspondence;
mod live;

pub use correspondence::{CorrespondenceClock, DueReminder, REAL_DAY_MS};
pub use live::Clock;
