//! One WebSocket connection: a reader that validates client frames and forwards them to the room,
//! and a writer that sends the connection's bounded queue. A connection never blocks its room:
//! the room drops a connection whose queue is full.
//!
//! The pieces, each testable on its own: `handshake` (the first message and entering the room),
//! `frame` (size and parsing of one frame), `strikes` (when refusals close the connection),
//! `dispatch` (where an accepted message goes) and `writer` (the sending half). This file only
//! wires them to the socket.

pub(crate) mod dispatch;
pub(crate) mod frame;
mod handshake;
mod strikes;
mod writer;

use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::{Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use evr_protocol::{ErrorCode, MAX_FRAME_BYTES, ServerMsg};
use futures_util::StreamExt;
use governor::{Quota, RateLimiter};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use self::dispatch::Route;
use self::frame::Refusal;
use self::strikes::{AfterStrike, MAX_STRIKES, Strikes};
use crate::app::App;
use crate::room::{Command, ConnId, Outbound, RoomHandle};

/// Frames above this are refused by the WebSocket layer itself (the connection closes); frames
/// between [`MAX_FRAME_BYTES`] and this get a `frame_too_large` error and the connection stays.
const HARD_FRAME_LIMIT: usize = 4 * MAX_FRAME_BYTES;
/// Initial read buffer per connection.
const READ_BUFFER: usize = 4 * 1024;
/// A client must say hello within this time.
const HELLO_TIMEOUT: Duration = Duration::from_secs(15);

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

/// Where this connection's own answers go: through the strong sender it holds until the room
/// accepts its hello, then through the room's (weakly held here, so that the writer ends when the
/// room lets the connection go).
struct Replies {
    strong: Option<mpsc::Sender<Outbound>>,
    weak: mpsc::WeakSender<Outbound>,
}

impl Replies {
    fn send(&self, msg: &ServerMsg) {
        let sender = self.strong.clone().or_else(|| self.weak.upgrade());
        if let (Some(s), Some(text)) = (sender, encode(msg)) {
            let _ = s.try_send(text);
        }
    }

    fn refuse(&self, r: Refusal) {
        self.send(&error_msg(r.code, r.message));
    }
}

async fn connection(socket: WebSocket, app: Arc<App>, code: String) {
    let conn: ConnId = app.next_conn_id();
    let (sink, mut stream) = socket.split();
    let (out, out_rx) = mpsc::channel::<Outbound>(app.config.outbound_queue.max(4));
    // Cancelled when the writer has sent its close frame: the reader then stops waiting for a
    // client that does not answer the closing handshake.
    let written = CancellationToken::new();
    let writer = tokio::spawn(writer::write_loop(sink, out_rx, written.clone()));

    let mut replies = Replies {
        weak: out.downgrade(),
        strong: Some(out),
    };
    let mut room: Option<RoomHandle> = None;
    let per_second = NonZeroU32::new(app.config.messages_per_second).unwrap_or(NonZeroU32::MIN);
    let burst = per_second.saturating_mul(NonZeroU32::MIN.saturating_add(1));
    let limiter = RateLimiter::direct(Quota::per_second(per_second).allow_burst(burst));
    let mut strikes = Strikes::new(MAX_STRIKES);

    loop {
        let deadline = if room.is_none() { HELLO_TIMEOUT } else { Duration::MAX };
        let next = tokio::select! {
            n = tokio::time::timeout(deadline, stream.next()) => match n {
                Ok(n) => n,
                Err(_) => {
                    replies.send(&error_msg(ErrorCode::HelloExpected, "say hello first"));
                    break;
                }
            },
            _ = written.cancelled() => break,
        };
        let read = match next {
            Some(Ok(Message::Text(_))) if limiter.check().is_err() => Err(Refusal {
                code: ErrorCode::RateLimited,
                message: "too many messages; slow down".into(),
            }),
            Some(Ok(Message::Text(t))) => frame::read(t.as_str()),
            Some(Ok(Message::Binary(_))) => Err(Refusal {
                code: ErrorCode::BadMessage,
                message: "send JSON text frames".into(),
            }),
            Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
            Some(Ok(Message::Close(_))) | Some(Err(_)) | None => break,
        };
        let msg = match read {
            Ok(msg) => msg,
            Err(refusal) => {
                replies.refuse(refusal);
                match strikes.strike() {
                    AfterStrike::Continue => continue,
                    AfterStrike::Close => break,
                }
            }
        };
        let Some(handle) = &room else {
            // Before the room accepted a hello: this message must be one, and any refusal closes.
            let entered = match (handshake::hello(msg), replies.strong.clone()) {
                (Ok(hello), Some(out)) => handshake::enter(&app, &code, conn, hello, out).await,
                (Ok(_), None) => break,
                (Err(refusal), _) => Err(refusal),
            };
            match entered {
                Ok(handle) => {
                    replies.strong = None;
                    room = Some(handle);
                    continue;
                }
                Err(refusal) => {
                    replies.refuse(refusal);
                    break;
                }
            }
        };
        match dispatch::route(conn, msg) {
            Route::Room(cmd) => {
                if handle.tx.send(cmd).await.is_err() {
                    break;
                }
            }
            Route::Answer(msg) => replies.send(&msg),
            Route::Refuse(refusal) => replies.refuse(refusal),
        }
    }
    if let Some(h) = room {
        let _ = h.tx.send(Command::Disconnect { conn }).await;
    }
    drop(replies);
    let _ = writer.await;
}
