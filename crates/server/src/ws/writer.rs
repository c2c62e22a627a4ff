//! The writing half of a connection: sends the connection's bounded queue in order, answers the
//! client's pings, and sends a close frame once every sender has let go (the room dropped the
//! connection, or the reader ended) or the reader found the client breaking the protocol.

use std::time::Duration;

use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use super::rfc6455::close_code;
use super::socket::WsWriter;
use crate::room::Outbound;

/// One send to a client may take this long before the connection is dropped.
const SEND_TIMEOUT: Duration = Duration::from_secs(10);
/// The most queued messages written together.
const BATCH: usize = 16;

/// What the reading half asks the writing half to send.
#[derive(Debug)]
pub(super) enum Control {
    Pong(Vec<u8>),
    /// Close now with this code (a protocol violation).
    Close(u16),
}

/// Sends `queue` until it closes; cancels `written` when done, so the reader stops waiting for a
/// client that does not answer the closing handshake.
pub(super) async fn write_loop(
    mut ws: WsWriter,
    mut queue: mpsc::Receiver<Outbound>,
    mut control: mpsc::Receiver<Control>,
    written: CancellationToken,
) {
    let _done = written.drop_guard();
    let mut reader_gone = false;
    let mut batch = Vec::with_capacity(BATCH);
    let close_with = loop {
        tokio::select! {
            biased;
            c = control.recv(), if !reader_gone => match c {
                Some(Control::Pong(payload)) => {
                    if !matches!(tokio::time::timeout(SEND_TIMEOUT, ws.pong(&payload)).await, Ok(Ok(()))) {
                        return;
                    }
                }
                Some(Control::Close(code)) => break code,
                None => reader_gone = true,
            },
            n = queue.recv_many(&mut batch, BATCH) => {
                if n == 0 {
                    break close_code::NORMAL;
                }
                if !matches!(tokio::time::timeout(SEND_TIMEOUT, ws.texts(&batch)).await, Ok(Ok(()))) {
                    return;
                }
                batch.clear();
            },
        }
    };
    let _ = tokio::time::timeout(SEND_TIMEOUT, ws.close(close_with)).await;
}
