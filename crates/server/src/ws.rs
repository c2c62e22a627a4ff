//! One WebSocket connection: a reader that validates client frames and forwards them to the room,
//! and a writer that sends the connection's bounded queue. A connection never blocks its room:
//! the room drops a connection whose queue is full.

use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use evr_protocol::{ClientMsg, ErrorCode, MAX_FRAME_BYTES, PROTOCOL_VERSION, ServerMsg};
use futures_util::{SinkExt, StreamExt};
use governor::{Quota, RateLimiter};
use tokio::sync::{mpsc, oneshot};
use tokio_util::sync::CancellationToken;

use crate::app::App;
use crate::room::{Command, ConnId, Outbound, RoomHandle};
use crate::secrets;

/// Frames above this are refused by the WebSocket layer itself (the connection closes); frames
/// between [`MAX_FRAME_BYTES`] and this get a `frame_too_large` error and the connection stays.
const HARD_FRAME_LIMIT: usize = 4 * MAX_FRAME_BYTES;
/// Initial read buffer per connection.
const READ_BUFFER: usize = 4 * 1024;
/// A client must say hello within this time.
const HELLO_TIMEOUT: Duration = Duration::from_secs(15);
/// One send to a client may take this long before the connection is dropped.
const SEND_TIMEOUT: Duration = Duration::from_secs(10);
/// Refused messages (rate limit, bad frames) tolerated before the connection is closed.
const MAX_STRIKES: u32 = 100;

pub async fn upgrade(
    ws: WebSocketUpgrade,
    Path(code): Path<String>,
    headers: HeaderMap,
    State(app): State<Arc<App>>,
) -> Response {
    let origin = app.config.public_origin.trim_end_matches('/');
    if !origin.is_empty()
        && let Some(o) = headers.get(header::ORIGIN)
        && o.as_bytes() != origin.as_bytes()
    {
        return (StatusCode::FORBIDDEN, "origin not allowed").into_response();
    }
    let tracker = app.tracker.clone();
    // Client frames are small; a 128 KiB default read buffer per socket would dominate memory
    // with thousands of connections. Writes are flushed per message.
    ws.read_buffer_size(READ_BUFFER)
        .write_buffer_size(0)
        .max_message_size(HARD_FRAME_LIMIT)
        .max_frame_size(HARD_FRAME_LIMIT)
        .on_upgrade(move |socket| tracker.track_future(connection(socket, app, code)))
}

fn encode(msg: &ServerMsg) -> Option<Outbound> {
    serde_json::to_string(msg).ok().map(Utf8Bytes::from)
}

fn error_msg(code: ErrorCode, message: impl Into<String>) -> ServerMsg {
    metrics::counter!(crate::metrics_names::ERRORS, "code" => code.as_str()).increment(1);
    ServerMsg::Error {
        code,
        message: message.into(),
        action_id: None,
    }
}

async fn connection(socket: WebSocket, app: Arc<App>, code: String) {
    let conn: ConnId = app.next_conn_id();
    let (sink, mut stream) = socket.split();
    let (out, out_rx) = mpsc::channel::<Outbound>(app.config.outbound_queue.max(4));
    // Cancelled when the writer has sent its close frame: the reader then stops waiting for a
    // client that does not answer the closing handshake.
    let written = CancellationToken::new();
    let writer = tokio::spawn(write_loop(sink, out_rx, written.clone()));

    // Until the room accepts the hello, this task holds the only strong sender; afterwards the room
    // does, and this task keeps a weak one, so that the writer ends when the room lets go.
    let mut strong = Some(out);
    let weak = strong.as_ref().map(|s| s.downgrade());
    let mut room: Option<RoomHandle> = None;
    let per_second = NonZeroU32::new(app.config.messages_per_second).unwrap_or(NonZeroU32::MIN);
    let burst = per_second.saturating_mul(NonZeroU32::MIN.saturating_add(1));
    let limiter = RateLimiter::direct(Quota::per_second(per_second).allow_burst(burst));
    let mut strikes = 0u32;

    let reply = |msg: &ServerMsg, strong: &Option<mpsc::Sender<Outbound>>| {
        let sender = strong.clone().or_else(|| weak.as_ref().and_then(|w| w.upgrade()));
        if let (Some(s), Some(text)) = (sender, encode(msg)) {
            let _ = s.try_send(text);
        }
    };

    loop {
        let deadline = if room.is_none() { HELLO_TIMEOUT } else { Duration::MAX };
        let next = tokio::select! {
            n = tokio::time::timeout(deadline, stream.next()) => match n {
                Ok(n) => n,
                Err(_) => {
                    reply(&error_msg(ErrorCode::HelloExpected, "say hello first"), &strong);
                    break;
                }
            },
            _ = written.cancelled() => break,
        };
        let text = match next {
            Some(Ok(Message::Text(t))) => t,
            Some(Ok(Message::Binary(_))) => {
                strikes += 1;
                reply(&error_msg(ErrorCode::BadMessage, "send JSON text frames"), &strong);
                if strikes > MAX_STRIKES {
                    break;
                }
                continue;
            }
            Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
            Some(Ok(Message::Close(_))) | Some(Err(_)) | None => break,
        };
        if limiter.check().is_err() {
            strikes += 1;
            reply(
                &error_msg(ErrorCode::RateLimited, "too many messages; slow down"),
                &strong,
            );
            if strikes > MAX_STRIKES {
                break;
            }
            continue;
        }
        if text.len() > MAX_FRAME_BYTES {
            strikes += 1;
            reply(
                &error_msg(
                    ErrorCode::FrameTooLarge,
                    format!("frames are at most {MAX_FRAME_BYTES} bytes"),
                ),
                &strong,
            );
            if strikes > MAX_STRIKES {
                break;
            }
            continue;
        }
        let msg: ClientMsg = match serde_json::from_str(text.as_str()) {
            Ok(m) => m,
            Err(e) => {
                strikes += 1;
                reply(
                    &error_msg(ErrorCode::BadMessage, format!("not a client message: {e}")),
                    &strong,
                );
                if strikes > MAX_STRIKES {
                    break;
                }
                continue;
            }
        };
        match (&room, msg) {
            (
                None,
                ClientMsg::Hello {
                    version,
                    token,
                    last_seq,
                },
            ) => {
                if version != PROTOCOL_VERSION {
                    let m = format!("this server speaks protocol {PROTOCOL_VERSION}; reload the page");
                    reply(&error_msg(ErrorCode::VersionMismatch, m), &strong);
                    break;
                }
                let found = match secrets::is_room_code(&code) {
                    true => app.room(&code).await,
                    false => Ok(None),
                };
                let handle = match found {
                    Ok(Some(handle)) => handle,
                    Ok(None) => {
                        reply(&error_msg(ErrorCode::RoomNotFound, "no such room"), &strong);
                        break;
                    }
                    Err(e) => {
                        tracing::error!(room = %code, error = %e, "cannot load the room");
                        reply(&error_msg(ErrorCode::StorageFailed, "cannot load the room"), &strong);
                        break;
                    }
                };
                let Some(out) = strong.clone() else { break };
                let (tx, rx) = oneshot::channel();
                let cmd = Command::Connect {
                    conn,
                    token,
                    last_seq,
                    out,
                    reply: tx,
                };
                if handle.tx.send(cmd).await.is_err() {
                    reply(&error_msg(ErrorCode::ShuttingDown, "the room is closing"), &strong);
                    break;
                }
                match rx.await {
                    Ok(Ok(_role)) => {
                        strong = None;
                        room = Some(handle);
                    }
                    Ok(Err(e)) => {
                        let m = match e {
                            ErrorCode::BadToken => "this seat token does not belong to the room",
                            ErrorCode::SpectatorsNotAllowed => "this room does not allow spectators",
                            _ => "refused",
                        };
                        reply(&error_msg(e, m), &strong);
                        break;
                    }
                    Err(_) => break,
                }
            }
            (None, _) => {
                reply(&error_msg(ErrorCode::HelloExpected, "say hello first"), &strong);
                break;
            }
            (Some(_), ClientMsg::Hello { .. }) => {
                reply(&error_msg(ErrorCode::HelloRepeated, "hello was already said"), &strong);
            }
            (Some(_), ClientMsg::Ping) => reply(&ServerMsg::Pong, &strong),
            (
                Some(h),
                ClientMsg::Action {
                    based_on,
                    action_id,
                    action,
                },
            ) => {
                if h.tx
                    .send(Command::Action {
                        conn,
                        based_on,
                        action_id,
                        action,
                    })
                    .await
                    .is_err()
                {
                    break;
                }
            }
            (Some(h), ClientMsg::Rematch) => {
                if h.tx.send(Command::Rematch { conn }).await.is_err() {
                    break;
                }
            }
            (Some(h), ClientMsg::ClaimWin) => {
                if h.tx.send(Command::ClaimWin { conn }).await.is_err() {
                    break;
                }
            }
        }
    }
    if let Some(h) = room {
        let _ = h.tx.send(Command::Disconnect { conn }).await;
    }
    drop(strong);
    let _ = writer.await;
}

async fn write_loop(
    mut sink: futures_util::stream::SplitSink<WebSocket, Message>,
    mut queue: mpsc::Receiver<Outbound>,
    written: CancellationToken,
) {
    let _done = written.drop_guard();
    while let Some(text) = queue.recv().await {
        match tokio::time::timeout(SEND_TIMEOUT, sink.send(Message::Text(text))).await {
            Ok(Ok(())) => {}
            _ => return,
        }
    }
    let close = CloseFrame {
        code: axum::extract::ws::close_code::NORMAL,
        reason: Utf8Bytes::from_static("bye"),
    };
    let _ = tokio::time::timeout(SEND_TIMEOUT, sink.send(Message::Close(Some(close)))).await;
}
