//! The replay file: everything needed to replay a finished game and check its shuffles.

use evr_protocol::{Fairness, ForfeitReason};
use evr_rules::{Action, ByFaction, Faction, Mode, Outcome};
use serde::{Deserialize, Serialize};

/// The value of `format`: says what the file is.
pub const FORMAT: &str = "evr-replay";

/// The version of the format this build writes and reads.
pub const VERSION: u32 = 1;

/// A finished game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Replay {
    /// Always [`FORMAT`].
    pub format: String,
    /// [`VERSION`] for the files this build writes.
    pub version: u32,
    /// The room's code and the game's number in it (1, then one more per rematch).
    pub room: String,
    pub game_number: u32,
    pub mode: Mode,
    /// The side the room's creator played in this game.
    pub creator_faction: Faction,
    /// The commitment published at the start, and the seed and salt told at the end.
    pub fairness: Fairness,
    /// The room's update `seq` when the game started; its actions follow as `start_seq + 1, …`.
    pub start_seq: u32,
    /// Every accepted action, in order.
    pub actions: Vec<ReplayAction>,
    /// How the game ended by the rules (`None` when a player claimed the win instead).
    pub outcome: Option<Outcome>,
    /// The side that won outside the rules (the opponent stayed away and the win was claimed, or
    /// the opponent's clock ran out), if the game ended so.
    pub forfeit_winner: Option<Faction>,
    /// Why the game ended outside the rules, when it did: written only then, so that files of
    /// games the rules ended read as before. `both_out_of_time` ends a game with no winner.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forfeit_reason: Option<ForfeitReason>,
    /// The players' display names, `[rebel, imperial]` (`null`: none given). Absent in files
    /// written before names: read as none. Not part of what `verify` checks.
    #[serde(default)]
    pub names: ByFaction<Option<String>>,
}

/// One accepted action: the room's update number, who took it and what it was.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReplayAction {
    pub seq: u32,
    pub seat: Faction,
    pub action: Action,
}

impl Replay {
    /// Reads a replay file; a file of another format or version is refused.
    pub fn from_json(text: &str) -> Result<Replay, crate::Mismatch> {
        let replay: Replay = serde_json::from_str(text).map_err(|e| crate::Mismatch::Malformed(e.to_string()))?;
        if replay.format != FORMAT {
            return Err(crate::Mismatch::Malformed(format!(
                "format {:?}, expected {FORMAT:?}",
                replay.format
            )));
        }
        if replay.version != VERSION {
            return Err(crate::Mismatch::Malformed(format!(
                "version {}, this build reads version {VERSION}",
                replay.version
            )));
        }
        Ok(replay)
    }
}
