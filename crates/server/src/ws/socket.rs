//! A WebSocket on the connection's own TCP socket, after the HTTP upgrade: the read half turns
//! bytes into client messages (`rfc6455`), the write half sends each server message as one frame.
//!
//! Why not a WebSocket library: each of thousands of mostly idle connections would keep a read
//! buffer and a write buffer as large as the largest message it ever sent, and every message
//! would be copied into that buffer before being written. Here an idle connection holds no
//! buffer at all (bytes are read into the stack, and kept only while a frame is incomplete), and
//! a message is written straight from the room's shared bytes, its header beside it (`writev`).

use std::io::{self, IoSlice};

use bytes::Bytes;
use tokio::io::AsyncWriteExt;
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};

use super::rfc6455::{self, Decoder, Incoming, Violation};

/// Bytes read per `read` call (on the stack).
const READ_CHUNK: usize = 4096;

/// The reading half.
pub(crate) struct WsReader {
    stream: OwnedReadHalf,
    /// Bytes of frames not yet complete; empty (and unallocated) between messages.
    pending: Vec<u8>,
    decoder: Decoder,
}

/// What the read half got: a message, a violation of the protocol, or the end of the stream.
#[derive(Debug)]
pub(crate) enum Read {
    Message(Incoming),
    Violation(Violation),
    /// The client went away (or the socket failed).
    Closed,
}

impl WsReader {
    /// `already_read`: bytes that arrived with the upgrade request.
    pub(crate) fn new(stream: OwnedReadHalf, already_read: &[u8], max_message: usize) -> WsReader {
        WsReader {
            stream,
            pending: already_read.to_vec(),
            decoder: Decoder::new(max_message),
        }
    }

    /// The next client message.
    pub(crate) async fn next(&mut self) -> Read {
        loop {
            match self.decoder.decode(&mut self.pending) {
                Ok(Some(m)) => {
                    if self.pending.is_empty() {
                        // give the memory back: most connections are idle most of the time
                        self.pending = Vec::new();
                    }
                    return Read::Message(m);
                }
                Ok(None) => {}
                Err(v) => return Read::Violation(v),
            }
            if self.stream.readable().await.is_err() {
                return Read::Closed;
            }
            let mut chunk = [0u8; READ_CHUNK];
            match self.stream.try_read(&mut chunk) {
                Ok(0) => return Read::Closed,
                Ok(n) => self.pending.extend_from_slice(&chunk[..n]),
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
                Err(_) => return Read::Closed,
            }
        }
    }
}

/// The writing half.
pub(crate) struct WsWriter {
    stream: OwnedWriteHalf,
}

impl WsWriter {
    pub(crate) fn new(stream: OwnedWriteHalf) -> WsWriter {
        WsWriter { stream }
    }

    /// Sends each payload (UTF-8 JSON) as one text frame, all in one `writev`: the room often
    /// queues two messages at once (an `ack` and the `update` it produced), which then cost one
    /// system call and one TCP segment instead of two.
    pub(crate) async fn texts(&mut self, payloads: &[Bytes]) -> io::Result<()> {
        let headers: Vec<([u8; 10], usize)> = payloads
            .iter()
            .map(|p| rfc6455::header(rfc6455::OP_TEXT, p.len()))
            .collect();
        let mut parts: Vec<IoSlice<'_>> = Vec::with_capacity(2 * payloads.len());
        for ((h, n), p) in headers.iter().zip(payloads) {
            parts.push(IoSlice::new(&h[..*n]));
            parts.push(IoSlice::new(p));
        }
        self.write_all(&mut parts).await
    }

    pub(crate) async fn pong(&mut self, payload: &[u8]) -> io::Result<()> {
        self.frame(rfc6455::OP_PONG, payload).await
    }

    /// Sends a close frame with `code`, then shuts the sending direction down.
    pub(crate) async fn close(&mut self, code: u16) -> io::Result<()> {
        self.frame(rfc6455::OP_CLOSE, &code.to_be_bytes()).await?;
        self.stream.shutdown().await
    }

    async fn frame(&mut self, opcode: u8, payload: &[u8]) -> io::Result<()> {
        let (header, n) = rfc6455::header(opcode, payload.len());
        self.write_all(&mut [IoSlice::new(&header[..n]), IoSlice::new(payload)])
            .await
    }

    async fn write_all(&mut self, parts: &mut [IoSlice<'_>]) -> io::Result<()> {
        let mut slices = parts;
        while !slices.is_empty() {
            let written = self.stream.write_vectored(slices).await?;
            if written == 0 {
                return Err(io::ErrorKind::WriteZero.into());
            }
            IoSlice::advance_slices(&mut slices, written);
        }
        Ok(())
    }
}
