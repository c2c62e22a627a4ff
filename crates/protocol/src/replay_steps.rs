//! A finished game step by step, for the replay page: the view of one viewer after every action,
//! with the log entries each action produced for that viewer. The server builds it from the stored
//! action log with the engine, and only for a finished game.

use evr_rules::{ByFaction, Faction, LogEntry, Mode, Outcome, View, Viewer};
use serde::{Deserialize, Serialize};

use crate::{Fairness, ForfeitReason};

/// Whose eyes a replay is seen through (`?eyes=` of [`replay_steps_path`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum ReplayEyes {
    /// What a spectator saw: public information only. Anyone with the room's code.
    Spectator,
    /// What the requesting player saw from their own seat: needs their seat token
    /// (`Authorization: Bearer …`).
    Seat,
    /// Everything: both players' characters and strategies, every option and seen card, the decks'
    /// and the event deck's order. Only once both players agreed to reveal the game.
    Everything,
}

impl ReplayEyes {
    pub fn as_str(self) -> &'static str {
        match self {
            ReplayEyes::Spectator => "spectator",
            ReplayEyes::Seat => "seat",
            ReplayEyes::Everything => "everything",
        }
    }
}

/// `GET` here for finished game `game` of room `code` step by step, through `eyes`: a
/// [`ReplaySteps`] (200), gzipped for a client that accepts it.
pub fn replay_steps_path(code: &str, game: u32, eyes: ReplayEyes) -> String {
    format!("/api/rooms/{code}/games/{game}/steps?eyes={}", eyes.as_str())
}

/// Answer to [`replay_steps_path`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ReplaySteps {
    pub code: String,
    pub game_number: u32,
    pub mode: Mode,
    /// Whose views the steps hold: `spectator`, `{"seat": …}` (the requesting player's side in this
    /// game) or `omniscient` (everything).
    pub viewer: Viewer,
    /// The side the requesting player played in this game, when the request carried their seat
    /// token (`null` otherwise): the page offers that seat's eyes.
    pub your_faction: Option<Faction>,
    /// Both players agreed to reveal the game: `everything` may be asked for, and the replay file
    /// can be downloaded.
    pub revealed: bool,
    /// The game is over: its key and salt are given (`null` only for a game stored before
    /// commitments existed).
    pub fairness: Option<Fairness>,
    /// How the rules ended it (`null` when a win was claimed).
    pub outcome: Option<Outcome>,
    /// The side that won outside the rules (see `forfeit_reason`).
    pub forfeit_winner: Option<Faction>,
    /// Why: the win was claimed after the opponent stayed away, or the loser's clock ran out.
    pub forfeit_reason: Option<ForfeitReason>,
    /// The players' display names in this game, `[rebel, imperial]` (`null`: shown as the side).
    pub names: ByFaction<Option<String>>,
    /// The game as it started, then after each of its actions, in order.
    pub steps: Vec<ReplayStep>,
}

/// The game after one action (or at its start).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ReplayStep {
    /// The room's update number this step had when it was played live (the game's start: its first).
    pub seq: u32,
    /// Who acted (`null` for the start). The action itself is not given: its effects are the log.
    pub seat: Option<Faction>,
    /// The viewer's view after the action. Its `log` is empty and its `legal_actions` too: the
    /// log of the game so far is the `log` of every step up to this one.
    pub view: View,
    /// The log entries of this action as the viewer knows them.
    pub log: Vec<LogEntry>,
}
