//! Chat at the table: what people typed or picked, never anything of the game. Two channels: the
//! players' (both seats write, everyone reads) and the spectators' (spectators write; a seat reads
//! it only once the game it was written during is over, so nobody watching can tell a player what
//! they saw).

use evr_rules::Faction;
use serde::{Deserialize, Serialize};

/// Longest free text of a chat message, in characters (Unicode scalar values).
pub const MAX_CHAT_CHARS: usize = 300;

/// How many of the room's latest messages a connection gets on joining or reconnecting.
pub const CHAT_HISTORY: usize = 100;

/// Who may write and read a message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum ChatChannel {
    /// Written by the seats, read by everyone.
    Players,
    /// Written by spectators; the seats read it only once the game it was written during is over.
    Spectators,
}

/// A quick phrase: sent as its id, shown in each reader's own language.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum Phrase {
    GoodLuck,
    GoodGame,
    Thinking,
    WellPlayed,
    YourTurn,
    Rematch,
}

/// What a message says.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ChatBody {
    Phrase {
        phrase: Phrase,
    },
    /// Free text, 1 to [`MAX_CHAT_CHARS`] characters; always shown as text, never as markup.
    Text {
        text: String,
    },
}

/// Who wrote a message: a seat, shown as the side it played when it wrote, or a spectator under the
/// name they chose.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum ChatAuthor {
    Seat(Faction),
    Spectator(String),
}

/// One message of the room's chat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ChatMessage {
    /// 1, 2, … in the room: the order messages were stored in.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub id: u64,
    /// When it was stored, in milliseconds since 1970 (UTC).
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub at: i64,
    /// The room's game it was written in (1, then one more per rematch). Sides swap at every
    /// rematch, so a seat's message is by whoever played `from`'s side in that game: a reader who
    /// plays that side now wrote it only if the number of games since is even.
    pub game: u32,
    pub channel: ChatChannel,
    pub from: ChatAuthor,
    pub body: ChatBody,
    /// A seat's display name when it wrote (a spectator's is in `from`); absent: shown as its side.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub name: Option<String>,
}
