//! The start of a connection: the first message must be a `hello` of this protocol version; the
//! room is then found (loaded from the store if it is not in memory) and asked to seat the
//! connection (a seat token) or let it watch (no token). Any refusal here is fatal: the
//! connection closes.

use std::sync::Arc;

use evr_protocol::{ClientMsg, ErrorCode, PROTOCOL_VERSION};
use tokio::sync::oneshot;

use super::frame::Refusal;
use crate::app::App;
use crate::outbox::Outbox;
use crate::room::{Command, ConnId, Connect, RoomHandle};
use crate::secrets;

/// What a valid `hello` asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Hello {
    pub(super) token: Option<String>,
    pub(super) last_seq: Option<u32>,
}

fn refusal(code: ErrorCode, message: impl Into<String>) -> Refusal {
    Refusal {
        code,
        message: message.into(),
    }
}

/// The hello in the first message, or why the connection must close.
pub(super) fn hello(first: ClientMsg) -> Result<Hello, Refusal> {
    match first {
        ClientMsg::Hello {
            version,
            token,
            last_seq,
        } if version == PROTOCOL_VERSION => Ok(Hello { token, last_seq }),
        ClientMsg::Hello { .. } => Err(refusal(
            ErrorCode::VersionMismatch,
            format!("this server speaks protocol {PROTOCOL_VERSION}; reload the page"),
        )),
        _ => Err(refusal(ErrorCode::HelloExpected, "say hello first")),
    }
}

/// Finds room `code` and asks it to take connection `conn` (which receives through `out`).
pub(super) async fn enter(
    app: &Arc<App>,
    code: &str,
    conn: ConnId,
    hello: Hello,
    out: Outbox,
) -> Result<RoomHandle, Refusal> {
    let found = match secrets::canonical_room_code(code) {
        Some(code) => app.room(&code).await,
        None => Ok(None),
    };
    let handle = match found {
        Ok(Some(handle)) => handle,
        Ok(None) => return Err(refusal(ErrorCode::RoomNotFound, "no such room")),
        Err(e) => {
            tracing::error!(room = %code, error = %e, "cannot load the room");
            return Err(refusal(ErrorCode::StorageFailed, "cannot load the room"));
        }
    };
    let (tx, rx) = oneshot::channel();
    let cmd = Command::Connect(Box::new(Connect {
        conn,
        token: hello.token,
        last_seq: hello.last_seq,
        out,
        reply: tx,
    }));
    if handle.tx.send(cmd).await.is_err() {
        return Err(refusal(ErrorCode::ShuttingDown, "the room is closing"));
    }
    match rx.await {
        Ok(Ok(_role)) => Ok(handle),
        Ok(Err(code)) => Err(refusal(
            code,
            match code {
                ErrorCode::BadToken => "this seat token does not belong to the room",
                ErrorCode::SpectatorsNotAllowed => "this room does not allow spectators",
                _ => "refused",
            },
        )),
        Err(_) => Err(refusal(ErrorCode::ShuttingDown, "the room is closing")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hello_of_this_version_is_accepted_with_its_token_and_seq() {
        let first = ClientMsg::Hello {
            version: PROTOCOL_VERSION,
            token: Some("t".into()),
            last_seq: Some(9),
        };
        assert_eq!(
            hello(first),
            Ok(Hello {
                token: Some("t".into()),
                last_seq: Some(9)
            })
        );
    }

    #[test]
    fn another_version_or_another_first_message_is_refused_fatally() {
        let old = ClientMsg::Hello {
            version: PROTOCOL_VERSION + 1,
            token: None,
            last_seq: None,
        };
        let code = hello(old).map_err(|r| r.code);
        assert_eq!(code, Err(ErrorCode::VersionMismatch));
        let code = hello(ClientMsg::Ping).map_err(|r| r.code);
        assert_eq!(code, Err(ErrorCode::HelloExpected));
        for code in [ErrorCode::VersionMismatch, ErrorCode::HelloExpected] {
            assert!(code.is_fatal(), "{code:?} closes the connection");
        }
    }
}
