//! The writing half of a connection: sends the connection's bounded queue in order, then a close
//! frame once every sender has let go (the room dropped the connection, or the reader ended).

use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket};
use futures_util::SinkExt;
use futures_util::stream::SplitSink;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use crate::room::Outbound;

/// One send to a client may take this long before the connection is dropped.
const SEND_TIMEOUT: Duration = Duration::from_secs(10);

/// Sends `queue` until it closes; cancels `written` when done, so the reader stops waiting for a
/// client that does not answer the closing handshake.
pub(super) async fn write_loop(
    mut sink: SplitSink<WebSocket, Message>,
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
