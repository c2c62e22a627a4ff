//! What a connection does with a client message once its hello was accepted: hand it to the room
//! as a command, or answer it itself. Pure, so the mapping is tested without a room or a socket.

use evr_protocol::{ClientMsg, ErrorCode, ServerMsg};

use super::frame::Refusal;
use crate::room::{ChatLine, Command, ConnId, PlayerAction};

/// Where a message of a seated or watching connection goes.
#[derive(Debug)]
pub(crate) enum Route {
    /// To the room's mailbox.
    Room(Command),
    /// Answered by the connection: the room is not involved.
    Answer(Box<ServerMsg>),
    /// Refused by the connection; nothing changes.
    Refuse(Refusal),
}

pub(crate) fn route(conn: ConnId, msg: ClientMsg) -> Route {
    match msg {
        ClientMsg::Hello { .. } => Route::Refuse(Refusal {
            code: ErrorCode::HelloRepeated,
            message: "hello was already said".into(),
        }),
        ClientMsg::Ping => Route::Answer(Box::new(ServerMsg::Pong)),
        ClientMsg::Action {
            based_on,
            action_id,
            action,
        } => Route::Room(Command::Action(Box::new(PlayerAction {
            conn,
            based_on,
            action_id,
            action,
        }))),
        ClientMsg::Rematch => Route::Room(Command::Rematch { conn }),
        ClientMsg::ClaimWin => Route::Room(Command::ClaimWin { conn }),
        ClientMsg::RevealReplay => Route::Room(Command::RevealReplay { conn }),
        ClientMsg::SetName { name } => Route::Room(Command::SetName { conn, name }),
        ClientMsg::Chat { channel, body, name } => Route::Room(Command::Chat(Box::new(ChatLine {
            conn,
            channel,
            body,
            name,
        }))),
    }
}

#[cfg(test)]
mod tests {
    use evr_rules::Action;

    use super::*;

    #[test]
    fn game_messages_go_to_the_room_with_the_connection_id() {
        let action = ClientMsg::Action {
            based_on: 7,
            action_id: "a1".into(),
            action: Action::PlayCard,
        };
        assert!(matches!(
            route(3, action),
            Route::Room(Command::Action(ref a))
                if matches!(**a, PlayerAction { conn: 3, based_on: 7, ref action_id, action: Action::PlayCard } if action_id == "a1")
        ));
        assert!(matches!(
            route(4, ClientMsg::Rematch),
            Route::Room(Command::Rematch { conn: 4 })
        ));
        assert!(matches!(
            route(5, ClientMsg::ClaimWin),
            Route::Room(Command::ClaimWin { conn: 5 })
        ));
    }

    #[test]
    fn ping_is_answered_and_a_second_hello_refused_without_the_room() {
        assert!(matches!(route(1, ClientMsg::Ping), Route::Answer(m) if *m == ServerMsg::Pong));
        let hello = ClientMsg::Hello {
            version: evr_protocol::PROTOCOL_VERSION,
            token: None,
            last_seq: None,
        };
        match route(1, hello) {
            Route::Refuse(r) => {
                assert_eq!(r.code, ErrorCode::HelloRepeated);
                assert!(!r.code.is_fatal(), "the connection stays");
            }
            other => panic!("a second hello must be refused, not {other:?}"),
        }
    }
}
