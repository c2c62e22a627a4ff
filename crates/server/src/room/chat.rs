//! Chat in the room actor: a message is checked (`crate::chat`), stored, and only then sent to the
//! connections that may read it; when a game ends, the seats get what the spectators wrote during it.

use std::time::Instant;

use bytes::Bytes;
use evr_protocol::{ChatBody, ChatChannel, ChatMessage, ErrorCode, ServerMsg};

use super::{ConnId, Room};
use crate::chat::{self, GameAt, Reader, Refused, StoredChat};
use evr_store::WriteOp;

/// Milliseconds since 1970 (UTC), for the time a message was stored.
fn unix_millis() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

impl Room {
    /// The game the room is at, as the chat's visibility sees it.
    pub(super) fn chat_at(&self) -> GameAt {
        GameAt {
            game_no: self.current.game_no,
            over: self.current.is_over(),
        }
    }

    pub(super) async fn chat(&mut self, conn: ConnId, channel: ChatChannel, body: ChatBody, name: Option<String>) {
        let Some(c) = self.conns.get_mut(&conn) else { return };
        if !c.chat_allowance.take(Instant::now()) {
            return self.error(
                conn,
                ErrorCode::ChatRateLimited,
                "too many messages: wait a moment",
                None,
            );
        }
        let seat_name = c.seat.and_then(|s| self.names[s].clone());
        let seat = c.seat.map(|s| self.current.faction_of(s));
        let (from, body) = match chat::check(seat, channel, body, name.as_deref()) {
            Ok(checked) => checked,
            Err(Refused(code, why)) => return self.error(conn, code, why, None),
        };
        let stored = StoredChat {
            game_no: self.current.game_no,
            message: ChatMessage {
                id: self.chat.next_id(),
                at: unix_millis(),
                game: self.current.game_no,
                channel,
                from,
                body,
                // a seat's name as it is now: the message keeps it if the name changes later
                name: seat_name,
            },
        };
        let write = self.submit(WriteOp::Chat {
            code: self.code.clone(),
            chat: stored.clone(),
        });
        if write.await.is_err() {
            return self.error(conn, ErrorCode::StorageFailed, "the message could not be stored", None);
        }
        let at = self.chat_at();
        let readers: Vec<ConnId> = self
            .conns
            .iter()
            .filter(|(_, c)| chat::may_read(reader_of(c.seat.is_some()), &stored, at))
            .map(|(id, _)| *id)
            .collect();
        let message = stored.message.clone();
        self.chat.push(stored);
        self.send_chat(&readers, vec![message]);
    }

    /// The game just ended: the seats now read what the spectators wrote during it.
    pub(super) fn show_spectators_chat_to_seats(&mut self) {
        let messages = self.chat.spectators_during(self.current.game_no);
        if messages.is_empty() {
            return;
        }
        let seats: Vec<ConnId> = self
            .conns
            .iter()
            .filter(|(_, c)| c.seat.is_some())
            .map(|(id, _)| *id)
            .collect();
        self.send_chat(&seats, messages);
    }

    fn send_chat(&mut self, to: &[ConnId], messages: Vec<ChatMessage>) {
        match serde_json::to_string(&ServerMsg::Chat { messages }) {
            Ok(text) => {
                let text = Bytes::from(text);
                for id in to {
                    self.send_raw(*id, text.clone());
                }
            }
            Err(e) => tracing::error!(room = %self.code, error = %e, "cannot serialize a chat message"),
        }
    }
}

/// How the chat sees a connection: a seat or a spectator.
pub(super) fn reader_of(seated: bool) -> Reader {
    if seated { Reader::Seat } else { Reader::Spectator }
}
