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
mod rfc6455;
mod socket;
mod strikes;
mod writer;

use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::extract::{Path, Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use bytes::Bytes;
use evr_protocol::{ErrorCode, MAX_FRAME_BYTES, ServerMsg};
use governor::{Quota, RateLimiter};
use hyper_util::rt::TokioIo;
use tokio::net::TcpStream;
use tokio_util::sync::CancellationToken;

use self::dispatch::Route;
use self::frame::Refusal;
use self::rfc6455::Incoming;
use self::socket::{Read, WsReader, WsWriter};
use self::strikes::{AfterStrike, MAX_STRIKES, Strikes};
use crate::app::App;
use crate::outbox::{Outbound, Outbox, WeakOutbox, outbox};
use crate::refusal::ApiError;
use crate::room::{Command, ConnId, RoomHandle};

/// Messages above this close the connection (1009); messages between [`MAX_FRAME_BYTES`] and this
/// get a `frame_too_large` error and the connection stays.
const HARD_FRAME_LIMIT: usize = 4 * MAX_FRAME_BYTES;
/// A client must say hello within this time of its connection's start.
const HELLO_TIMEOUT: Duration = Duration::from_secs(15);

/// Whether a comma-separated header holds `token` (case-insensitive), as `Connection: keep-alive, Upgrade`.
fn has_token(headers: &HeaderMap, name: header::HeaderName, token: &str) -> bool {
    headers
        .get_all(name)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|t| t.trim().eq_ignore_ascii_case(token))
}

/// The `Sec-WebSocket-Key` of a valid WebSocket upgrade request, or the answer refusing it.
fn upgrade_key(headers: &HeaderMap) -> Result<&HeaderValue, Box<Response>> {
    if !has_token(headers, header::UPGRADE, "websocket") || !has_token(headers, header::CONNECTION, "upgrade") {
        let refused = ApiError::new(ErrorCode::WebsocketRequired, "this address takes WebSocket connections");
        let mut r = refused.into_response();
        r.headers_mut()
            .insert(header::UPGRADE, HeaderValue::from_static("websocket"));
        return Err(Box::new(r));
    }
    if headers.get(header::SEC_WEBSOCKET_VERSION).map(|v| v.as_bytes()) != Some(b"13") {
        let mut r = ApiError::new(ErrorCode::BadMessage, "WebSocket version 13 only").into_response();
        r.headers_mut()
            .insert(header::SEC_WEBSOCKET_VERSION, HeaderValue::from_static("13"));
        return Err(Box::new(r));
    }
    match headers.get(header::SEC_WEBSOCKET_KEY) {
        Some(key) if key.len() == 24 => Ok(key),
        _ => {
            let refused = ApiError::new(ErrorCode::BadMessage, "missing or malformed Sec-WebSocket-Key");
            Err(Box::new(refused.into_response()))
        }
    }
}

pub async fn upgrade(Path(code): Path<String>, State(app): State<Arc<App>>, mut req: Request) -> Response {
    // (a GET: the router's check of state-changing requests does not see it)
    if !crate::same_origin::allowed(req.headers(), &app.config.public_origin) {
        let refused = ApiError::new(ErrorCode::OriginNotAllowed, "pages of another site may not connect");
        return refused.into_response();
    }
    let accept = match upgrade_key(req.headers()) {
        Ok(key) => rfc6455::accept_key(key.as_bytes()),
        Err(refused) => return *refused,
    };
    let upgraded = hyper::upgrade::on(&mut req);
    // the connection's place among the node's connections, kept while the socket lives
    let held = req.extensions_mut().remove::<crate::listen::HeldConnection>();
    let tracker = app.tracker.clone();
    tokio::spawn(tracker.track_future(async move {
        let _held = held;
        let upgraded = match upgraded.await {
            Ok(u) => u,
            Err(e) => return tracing::debug!(error = %e, "the WebSocket upgrade failed"),
        };
        match upgraded.downcast::<TokioIo<TcpStream>>() {
            Ok(parts) => connection(parts.io.into_inner(), parts.read_buf, app, code).await,
            Err(_) => tracing::error!("a WebSocket upgrade not on a TCP stream of ours"),
        }
    }));
    let mut response = Response::new(Body::empty());
    *response.status_mut() = StatusCode::SWITCHING_PROTOCOLS;
    let h = response.headers_mut();
    h.insert(header::UPGRADE, HeaderValue::from_static("websocket"));
    h.insert(header::CONNECTION, HeaderValue::from_static("upgrade"));
    match HeaderValue::from_str(&accept) {
        Ok(v) => {
            h.insert(header::SEC_WEBSOCKET_ACCEPT, v);
        }
        // (the key is the client's, checked above: its answer is base64, always a valid header)
        Err(_) => return ApiError::new(ErrorCode::BadMessage, "the WebSocket key cannot be answered").into_response(),
    }
    response
}

fn encode(msg: &ServerMsg) -> Option<Outbound> {
    serde_json::to_string(msg).ok().map(Bytes::from)
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
    strong: Option<Outbox>,
    weak: WeakOutbox,
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

async fn connection(tcp: TcpStream, already_read: Bytes, app: Arc<App>, code: String) {
    let conn: ConnId = app.next_conn_id();
    let (read_half, write_half) = tcp.into_split();
    let mut stream = WsReader::new(read_half, &already_read, HARD_FRAME_LIMIT);
    drop(already_read);
    let (out, out_rx) = outbox(app.config.outbound_queue.max(4));
    // Cancelled when the writer has sent its close frame: the reader then stops waiting for a
    // client that does not answer the closing handshake.
    let written = CancellationToken::new();
    let writer = tokio::spawn(writer::write_loop(WsWriter::new(write_half), out_rx, written.clone()));

    let mut replies = Replies {
        weak: out.downgrade(),
        strong: Some(out),
    };
    let mut room: Option<RoomHandle> = None;
    let per_second = NonZeroU32::new(app.config.messages_per_second).unwrap_or(NonZeroU32::MIN);
    let burst = per_second.saturating_mul(NonZeroU32::MIN.saturating_add(1));
    let limiter = RateLimiter::direct(Quota::per_second(per_second).allow_burst(burst));
    let mut strikes = Strikes::new(MAX_STRIKES);

    // one deadline from the connection's start: a socket that pings (or sends anything but a
    // hello) is not held open longer for it
    let hello_by = tokio::time::Instant::now() + HELLO_TIMEOUT;
    loop {
        let next = tokio::select! {
            n = stream.next() => n,
            () = tokio::time::sleep_until(hello_by), if room.is_none() => {
                replies.send(&error_msg(ErrorCode::HelloExpected, "say hello first"));
                break;
            }
            () = written.cancelled() => break,
        };
        let read = match next {
            Read::Message(Incoming::Text(_)) if limiter.check().is_err() => Err(Refusal {
                code: ErrorCode::RateLimited,
                message: "too many messages; slow down".into(),
            }),
            Read::Message(Incoming::Text(t)) => frame::read(&t),
            Read::Message(Incoming::Binary) => Err(Refusal {
                code: ErrorCode::BadMessage,
                message: "send JSON text frames".into(),
            }),
            Read::Message(Incoming::Ping(payload)) => {
                // a client that pings faster than we answer gets no answer to some pings
                replies.weak.pong(payload);
                continue;
            }
            Read::Message(Incoming::Pong) => continue,
            Read::Message(Incoming::Close(_)) | Read::Closed => break,
            Read::Violation(v) => {
                tracing::debug!(
                    conn,
                    reason = v.reason,
                    "closing a connection that broke the WebSocket protocol"
                );
                replies.weak.close(v.code);
                break;
            }
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
