//! The writing half of a connection: sends the connection's bounded queue in order, answers the
//! client's pings, and sends a close frame once every sender has let go (the room dropped the
//! connection, or the reader ended) or the reader found the client breaking the protocol.

use std::time::Duration;

use tokio_util::sync::CancellationToken;

use super::rfc6455::close_code;
use super::socket::WsWriter;
use crate::outbox::{Next, OutboxReceiver};

/// One send to a client may take this long before the connection is dropped.
const SEND_TIMEOUT: Duration = Duration::from_secs(10);
/// The most queued messages written together.
const BATCH: usize = 16;

/// Sends `queue` until it ends; cancels `written` when done, so the reader stops waiting for a
/// client that does not answer the closing handshake.
pub(super) async fn write_loop(mut ws: WsWriter, mut queue: OutboxReceiver, written: CancellationToken) {
    let _done = written.drop_guard();
    let mut batch = Vec::new();
    let close_with = loop {
        match queue.next(&mut batch, BATCH).await {
            Next::Pong(payload) => {
                if !matches!(tokio::time::timeout(SEND_TIMEOUT, ws.pong(&payload)).await, Ok(Ok(()))) {
                    return;
                }
            }
            Next::Close(code) => break code,
            Next::Ended => break close_code::NORMAL,
            Next::Messages => {
                if !matches!(tokio::time::timeout(SEND_TIMEOUT, ws.texts(&batch)).await, Ok(Ok(()))) {
                    return;
                }
                batch.clear();
            }
        }
    };
    let _ = tokio::time::timeout(SEND_TIMEOUT, ws.close(close_with)).await;
}
