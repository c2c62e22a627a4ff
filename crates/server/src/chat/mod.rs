//! The room's chat, apart from the game: what a message may say, who may write and read each
//! channel, the latest messages kept in memory, and each connection's allowance. The room actor
//! (`room/chat.rs`) only stores a checked message and hands it to the connections that may read it.
//!
//! Nothing of the game ever goes into a message: the server adds only who wrote it (a seat as the
//! side it plays, a spectator under the name they chose), when, and its id.

mod allowance;

use std::collections::VecDeque;

use evr_protocol::{CHAT_HISTORY, ChatAuthor, ChatBody, ChatChannel, ChatMessage, ErrorCode, MAX_CHAT_CHARS};
use evr_rules::Faction;

pub use self::allowance::Allowance;

/// A message as the room keeps it, with the game it was written during (the store's type).
pub use evr_store::StoredChat;

/// Who is reading.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reader {
    Seat,
    Spectator,
}

/// The game the room is at: its number and whether it is over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameAt {
    pub game_no: u32,
    pub over: bool,
}

/// Whether `reader` may read `chat` now. The players' channel is everyone's; the spectators' is
/// the spectators', and the seats' only once the game it was written during is over — during the
/// game a spectator could otherwise tell a player what they saw.
pub fn may_read(reader: Reader, chat: &StoredChat, at: GameAt) -> bool {
    match (chat.message.channel, reader) {
        (ChatChannel::Players, _) | (ChatChannel::Spectators, Reader::Spectator) => true,
        (ChatChannel::Spectators, Reader::Seat) => chat.game_no < at.game_no || at.over,
    }
}

/// A refused message: its code and a sentence for people. Nothing is stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refused(pub ErrorCode, pub &'static str);

/// Checks a message written by `seat` (`None`: a spectator) and says who wrote it.
pub fn check(
    seat: Option<Faction>,
    channel: ChatChannel,
    body: ChatBody,
    name: Option<&str>,
) -> Result<(ChatAuthor, ChatBody), Refused> {
    let author = match (seat, channel) {
        (Some(f), ChatChannel::Players) => ChatAuthor::Seat(f),
        (None, ChatChannel::Spectators) => ChatAuthor::Spectator(display_name(name)?),
        (Some(_), ChatChannel::Spectators) => {
            return Err(Refused(
                ErrorCode::ChatNotAllowed,
                "players write the players' chat; the spectators' is theirs",
            ));
        }
        (None, ChatChannel::Players) => {
            return Err(Refused(
                ErrorCode::ChatNotAllowed,
                "spectators write the spectators' chat",
            ));
        }
    };
    let body = match body {
        ChatBody::Text { text } => ChatBody::Text {
            text: clean_text(&text)?,
        },
        phrase @ ChatBody::Phrase { .. } => phrase,
    };
    Ok((author, body))
}

/// Free text as stored: trimmed, 1 to `MAX_CHAT_CHARS` characters, something visible, and no
/// character that names refuse (`crate::names::unfit`) but line breaks: controls, characters that
/// reorder the text around them (`gg \u{202E}exe.evil` shows as "gg live.exe", and the rest of the
/// chat with it), invisible ones (a message of U+200B or U+3164 shows as an empty line from
/// nobody), line separators that are no `\n`, private use.
fn clean_text(text: &str) -> Result<String, Refused> {
    use crate::names::Unfit;
    let text = text.trim();
    if text.is_empty() {
        return Err(Refused(ErrorCode::BadChat, "the message is empty"));
    }
    if text.chars().count() > MAX_CHAT_CHARS {
        return Err(Refused(ErrorCode::BadChat, "a message is at most 300 characters"));
    }
    let why = match crate::names::first_unfit(text, true) {
        None if crate::names::has_visible(text) => return Ok(text.to_string()),
        None | Some(Unfit::Invisible) => "the message holds invisible characters (zero-width, fillers, blanks)",
        Some(Unfit::Control) => "the message holds control characters",
        Some(Unfit::Reorders) => "the message holds characters that reorder the text around them",
        Some(Unfit::Separator) => "the message holds line or paragraph separators: break lines with a line feed",
        Some(Unfit::PrivateUse) => "the message holds private-use characters",
    };
    Err(Refused(ErrorCode::BadChat, why))
}

/// A spectator's display name (`crate::names`).
fn display_name(name: Option<&str>) -> Result<String, Refused> {
    name.and_then(crate::names::display_name).ok_or(Refused(
        ErrorCode::BadChat,
        "a spectator writes under a name of 1 to 24 characters",
    ))
}

/// The room's latest messages (enough that each reader gets its `CHAT_HISTORY` latest even when
/// the other channel was busier), and the next id.
#[derive(Debug, Default)]
pub struct ChatLog {
    kept: VecDeque<StoredChat>,
    next_id: u64,
}

/// How many messages the room keeps in memory (and loads back from the store).
pub const KEPT: usize = evr_store::CHAT_KEPT;

impl ChatLog {
    /// The log of a room whose stored latest messages are `stored`, oldest first.
    pub fn from_stored(stored: Vec<StoredChat>) -> ChatLog {
        let next_id = stored.last().map_or(1, |c| c.message.id + 1);
        let mut kept: VecDeque<StoredChat> = stored.into();
        while kept.len() > KEPT {
            kept.pop_front();
        }
        ChatLog { kept, next_id }
    }

    /// The id the next message gets.
    pub fn next_id(&self) -> u64 {
        self.next_id.max(1)
    }

    /// Keeps a message once it is stored.
    pub fn push(&mut self, chat: StoredChat) {
        self.next_id = chat.message.id + 1;
        self.kept.push_back(chat);
        if self.kept.len() > KEPT {
            self.kept.pop_front();
        }
    }

    /// The latest `CHAT_HISTORY` messages `reader` may read, oldest first.
    pub fn history(&self, reader: Reader, at: GameAt) -> Vec<ChatMessage> {
        let mut out: Vec<ChatMessage> = self
            .kept
            .iter()
            .rev()
            .filter(|c| may_read(reader, c, at))
            .take(CHAT_HISTORY)
            .map(|c| c.message.clone())
            .collect();
        out.reverse();
        out
    }

    /// What the spectators wrote during game `game_no`: the seats read it once that game is over.
    pub fn spectators_during(&self, game_no: u32) -> Vec<ChatMessage> {
        self.kept
            .iter()
            .filter(|c| c.game_no == game_no && c.message.channel == ChatChannel::Spectators)
            .map(|c| c.message.clone())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use evr_protocol::Phrase;

    use super::*;

    fn text(t: &str) -> ChatBody {
        ChatBody::Text { text: t.into() }
    }

    fn chat(id: u64, game_no: u32, channel: ChatChannel) -> StoredChat {
        StoredChat {
            game_no,
            message: ChatMessage {
                id,
                at: 0,
                game: game_no,
                channel,
                from: ChatAuthor::Seat(Faction::Rebel),
                body: text("hi"),
                name: None,
            },
        }
    }

    #[test]
    fn seats_read_the_spectators_only_once_their_game_is_over() {
        let during = GameAt {
            game_no: 2,
            over: false,
        };
        let over = GameAt { game_no: 2, over: true };
        let theirs = chat(1, 2, ChatChannel::Spectators);
        assert!(!may_read(Reader::Seat, &theirs, during));
        assert!(may_read(Reader::Seat, &theirs, over));
        assert!(may_read(Reader::Spectator, &theirs, during));
        assert!(
            may_read(Reader::Seat, &chat(2, 1, ChatChannel::Spectators), during),
            "an earlier game's"
        );
        assert!(may_read(Reader::Seat, &chat(3, 2, ChatChannel::Players), during));
        assert!(may_read(Reader::Spectator, &chat(3, 2, ChatChannel::Players), during));
    }

    #[test]
    fn each_side_writes_its_own_channel_under_its_name() {
        let (author, _) = check(Some(Faction::Imperial), ChatChannel::Players, text("gl"), None).unwrap();
        assert_eq!(author, ChatAuthor::Seat(Faction::Imperial));
        let (author, _) = check(None, ChatChannel::Spectators, text("wow"), Some("  Ana ")).unwrap();
        assert_eq!(author, ChatAuthor::Spectator("Ana".into()));
        let refused = |r: Result<_, Refused>| r.err().map(|Refused(code, _)| code);
        assert_eq!(
            refused(check(Some(Faction::Rebel), ChatChannel::Spectators, text("x"), None)),
            Some(ErrorCode::ChatNotAllowed)
        );
        assert_eq!(
            refused(check(None, ChatChannel::Players, text("x"), Some("Ana"))),
            Some(ErrorCode::ChatNotAllowed)
        );
        assert_eq!(
            refused(check(None, ChatChannel::Spectators, text("x"), None)),
            Some(ErrorCode::BadChat)
        );
        let long_name = "n".repeat(evr_protocol::MAX_NAME_CHARS + 1);
        assert_eq!(
            refused(check(None, ChatChannel::Spectators, text("x"), Some(&long_name))),
            Some(ErrorCode::BadChat)
        );
    }

    #[test]
    fn text_is_trimmed_and_bounded_phrases_pass() {
        let ok = |t: &str| check(Some(Faction::Rebel), ChatChannel::Players, text(t), None);
        assert_eq!(ok("  hi  ").unwrap().1, text("hi"));
        assert!(ok(&"字".repeat(MAX_CHAT_CHARS)).is_ok(), "300 characters, not bytes");
        assert_eq!(ok(&"a".repeat(MAX_CHAT_CHARS + 1)).unwrap_err().0, ErrorCode::BadChat);
        assert_eq!(ok("   ").unwrap_err().0, ErrorCode::BadChat);
        assert_eq!(ok("a\u{0}b").unwrap_err().0, ErrorCode::BadChat);
        assert!(
            ok("<script>alert(1)</script>").is_ok(),
            "stored as typed: clients show text as text"
        );
        let phrase = ChatBody::Phrase {
            phrase: Phrase::GoodGame,
        };
        assert_eq!(
            check(Some(Faction::Rebel), ChatChannel::Players, phrase.clone(), None)
                .unwrap()
                .1,
            phrase
        );
    }

    #[test]
    fn a_message_shows_something_and_nothing_that_hides_or_reorders() {
        let said = |t: &str| check(Some(Faction::Rebel), ChatChannel::Players, text(t), None);
        for bad in [
            "\u{200B}",
            "\u{3164}",
            "\u{2800}\n\u{2800}",
            "gg\u{200B}",
            "gg \u{202E}exe.evil",
            "a\u{2028}b",
            "a\u{2029}b",
            "\u{E000}",
            "a\tb",
        ] {
            assert_eq!(said(bad).unwrap_err().0, ErrorCode::BadChat, "{bad:?}");
        }
        // line breaks, spaces and emoji (with their joiners) are what chat is made of
        for good in ["gg\nwp", "well  played", "🎉", "👩\u{200D}💻 ok", "❤\u{FE0F}"] {
            assert_eq!(said(good).unwrap().1, text(good), "{good:?}");
        }
        // a spectator's name obeys the names' rules
        let as_spectator = |name: &str| check(None, ChatChannel::Spectators, text("hi"), Some(name));
        assert_eq!(as_spectator("Ana\u{200B}").unwrap_err().0, ErrorCode::BadChat);
        assert!(as_spectator("Ana").is_ok());
    }

    #[test]
    fn history_is_the_latest_a_reader_may_read() {
        let mut log = ChatLog::from_stored(Vec::new());
        assert_eq!(log.next_id(), 1);
        for id in 1..=(KEPT as u64 + 10) {
            let channel = if id % 2 == 0 {
                ChatChannel::Spectators
            } else {
                ChatChannel::Players
            };
            log.push(chat(id, 1, channel));
        }
        assert_eq!(log.next_id(), KEPT as u64 + 11);
        let at = GameAt {
            game_no: 1,
            over: false,
        };
        let seat = log.history(Reader::Seat, at);
        assert_eq!(seat.len(), CHAT_HISTORY, "a seat gets its 100 latest players' messages");
        assert!(seat.iter().all(|m| m.channel == ChatChannel::Players));
        assert!(seat.windows(2).all(|w| w[0].id < w[1].id), "oldest first");
        let spectator = log.history(Reader::Spectator, at);
        assert_eq!(spectator.len(), CHAT_HISTORY);
        assert_eq!(spectator.last().map(|m| m.id), Some(KEPT as u64 + 10));
        assert_eq!(log.spectators_during(1).len(), KEPT / 2);
        assert!(log.spectators_during(2).is_empty());
    }
}
