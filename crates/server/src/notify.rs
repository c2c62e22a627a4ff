//! Reminders leave the server through a `Notifier` (mail today: `crate::mail`; Web Push would be
//! another implementation — the browser makers' push services are out of reach of our tests).
use evr_rules::Faction;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReminderKind {
    YourTurn,
    TimeRunningOut,
}

/// One reminder, already recorded in the store as sent (at most once per decision and kind).
#[derive(Clone, Debug)]
pub struct Reminder {
    pub room: String,
    pub game_no: u32,
    /// The side the reminder goes to.
    pub side: Faction,
    pub kind: ReminderKind,
    /// The action `seq` at which the decision became due (identifies the decision).
    pub decision_seq: u64,
    /// When the decision must be made, ms since the epoch.
    pub deadline_unix_ms: i64,
    /// The opponent's display name, if they gave one.
    pub opponent_name: Option<String>,
}

pub trait Notifier: Send + Sync + 'static {
    /// Whether reminders can be sent at all (false: the room does not offer them).
    fn enabled(&self) -> bool;
    /// Hands the reminder over; it must not block the room (spawn the sending).
    fn send(&self, reminder: Reminder);
}

pub struct NoNotifier;
impl Notifier for NoNotifier {
    fn enabled(&self) -> bool {
        false
    }
    fn send(&self, _: Reminder) {}
}
