//! The WebSocket wire format (RFC 6455), server side: decoding the client's masked frames into
//! whole messages and writing the header of an unmasked server frame. Pure (bytes in, messages
//! out) so that every rule is tested without a socket; `socket.rs` does the reading and writing.
//!
//! Only what the protocol needs: no extensions are negotiated (so the RSV bits must be 0), text
//! messages carry the JSON; binary messages are read (to be refused politely by the connection).

/// The close codes this server sends (RFC 6455 §7.4.1).
pub(crate) mod close_code {
    pub(crate) const NORMAL: u16 = 1000;
    pub(crate) const PROTOCOL_ERROR: u16 = 1002;
    pub(crate) const NOT_UTF8: u16 = 1007;
    pub(crate) const TOO_BIG: u16 = 1009;
}

const OP_CONTINUATION: u8 = 0x0;
pub(crate) const OP_TEXT: u8 = 0x1;
const OP_BINARY: u8 = 0x2;
pub(crate) const OP_CLOSE: u8 = 0x8;
const OP_PING: u8 = 0x9;
pub(crate) const OP_PONG: u8 = 0xA;

/// A whole message (fragments joined) or a control frame from the client.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Incoming {
    Text(String),
    Binary,
    Ping(Vec<u8>),
    Pong,
    /// The client closes, with its status code if it gave one.
    Close(Option<u16>),
}

/// Why the connection must close: the close code to send and a reason for logs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Violation {
    pub(crate) code: u16,
    pub(crate) reason: &'static str,
}

fn protocol(reason: &'static str) -> Violation {
    Violation {
        code: close_code::PROTOCOL_ERROR,
        reason,
    }
}

/// Reads client frames out of a byte buffer, joining fragmented messages.
#[derive(Debug)]
pub(crate) struct Decoder {
    /// The largest message accepted; a larger one closes the connection (1009).
    max_message: usize,
    /// A fragmented message in progress: whether it is text, and its payload so far.
    partial: Option<(bool, Vec<u8>)>,
}

impl Decoder {
    pub(crate) fn new(max_message: usize) -> Decoder {
        Decoder {
            max_message,
            partial: None,
        }
    }

    /// Takes complete frames from the front of `buf` until one finishes a message or is a control
    /// frame. `Ok(None)`: more bytes are needed (what was consumed is kept inside the decoder).
    pub(crate) fn decode(&mut self, buf: &mut Vec<u8>) -> Result<Option<Incoming>, Violation> {
        loop {
            let Some(frame) = self.take_frame(buf)? else {
                return Ok(None);
            };
            if let Some(message) = self.accept(frame)? {
                return Ok(Some(message));
            }
        }
    }

    /// One whole frame from the front of `buf`, unmasked, or `None` if it is not all there.
    fn take_frame(&self, buf: &mut Vec<u8>) -> Result<Option<Frame>, Violation> {
        let [b0, b1, ..] = buf[..] else { return Ok(None) };
        if b0 & 0x70 != 0 {
            return Err(protocol("reserved bits set without an extension"));
        }
        if b1 & 0x80 == 0 {
            return Err(protocol("client frames must be masked"));
        }
        let fin = b0 & 0x80 != 0;
        let opcode = b0 & 0x0F;
        let (len, mut at) = match b1 & 0x7F {
            126 => match buf.get(2..4) {
                Some(b) => (u64::from(u16::from_be_bytes([b[0], b[1]])), 4),
                None => return Ok(None),
            },
            127 => match buf.get(2..10).and_then(|b| <[u8; 8]>::try_from(b).ok()) {
                Some(b) => (u64::from_be_bytes(b), 10),
                None => return Ok(None),
            },
            n => (u64::from(n), 2),
        };
        if opcode >= OP_CLOSE && (!fin || len > 125) {
            return Err(protocol("control frames are short and never fragmented"));
        }
        let so_far = self.partial.as_ref().map_or(0, |(_, p)| p.len()) as u64;
        if len.saturating_add(so_far) > self.max_message as u64 {
            return Err(Violation {
                code: close_code::TOO_BIG,
                reason: "message too large",
            });
        }
        let len = len as usize;
        let Some(mask) = buf.get(at..at + 4).and_then(|m| <[u8; 4]>::try_from(m).ok()) else {
            return Ok(None);
        };
        at += 4;
        let Some(payload) = buf.get(at..at + len) else {
            return Ok(None);
        };
        let payload = payload
            .iter()
            .enumerate()
            .map(|(i, b)| b ^ mask[i % 4])
            .collect::<Vec<u8>>();
        buf.drain(..at + len);
        Ok(Some(Frame { fin, opcode, payload }))
    }

    /// What one frame adds: a finished message, a control frame, or nothing yet.
    fn accept(&mut self, frame: Frame) -> Result<Option<Incoming>, Violation> {
        let Frame { fin, opcode, payload } = frame;
        match opcode {
            OP_CLOSE => Ok(Some(Incoming::Close(close_status(&payload)?))),
            OP_PING => Ok(Some(Incoming::Ping(payload))),
            OP_PONG => Ok(Some(Incoming::Pong)),
            OP_TEXT | OP_BINARY if self.partial.is_some() => Err(protocol("a new message inside a fragmented one")),
            OP_TEXT | OP_BINARY if !fin => {
                self.partial = Some((opcode == OP_TEXT, payload));
                Ok(None)
            }
            OP_TEXT | OP_BINARY => finish(opcode == OP_TEXT, payload).map(Some),
            OP_CONTINUATION => {
                let Some((text, mut so_far)) = self.partial.take() else {
                    return Err(protocol("a continuation with no message to continue"));
                };
                so_far.extend_from_slice(&payload);
                if fin {
                    finish(text, so_far).map(Some)
                } else {
                    self.partial = Some((text, so_far));
                    Ok(None)
                }
            }
            _ => Err(protocol("unknown opcode")),
        }
    }
}

struct Frame {
    fin: bool,
    opcode: u8,
    payload: Vec<u8>,
}

fn finish(text: bool, payload: Vec<u8>) -> Result<Incoming, Violation> {
    if !text {
        return Ok(Incoming::Binary);
    }
    String::from_utf8(payload).map(Incoming::Text).map_err(|_| Violation {
        code: close_code::NOT_UTF8,
        reason: "a text message that is not UTF-8",
    })
}

/// The status code of a close frame's payload (none, or two bytes and an optional UTF-8 reason).
fn close_status(payload: &[u8]) -> Result<Option<u16>, Violation> {
    match payload {
        [] => Ok(None),
        [_] => Err(protocol("a close frame with half a status code")),
        [hi, lo, reason @ ..] => {
            if std::str::from_utf8(reason).is_err() {
                return Err(Violation {
                    code: close_code::NOT_UTF8,
                    reason: "a close reason that is not UTF-8",
                });
            }
            Ok(Some(u16::from_be_bytes([*hi, *lo])))
        }
    }
}

/// The header of a final, unmasked server frame carrying `len` bytes: the bytes and how many of
/// them are used.
pub(crate) fn header(opcode: u8, len: usize) -> ([u8; 10], usize) {
    let mut h = [0u8; 10];
    h[0] = 0x80 | opcode;
    if len < 126 {
        h[1] = len as u8;
        (h, 2)
    } else if let Ok(short) = u16::try_from(len) {
        h[1] = 126;
        h[2..4].copy_from_slice(&short.to_be_bytes());
        (h, 4)
    } else {
        h[1] = 127;
        h[2..10].copy_from_slice(&(len as u64).to_be_bytes());
        (h, 10)
    }
}

/// The value of `Sec-WebSocket-Accept` answering `Sec-WebSocket-Key` `key`.
pub(crate) fn accept_key(key: &[u8]) -> String {
    use base64::Engine;
    use sha1::{Digest, Sha1};
    let mut sha = Sha1::new();
    sha.update(key);
    sha.update(b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11");
    base64::engine::general_purpose::STANDARD.encode(sha.finalize())
}

#[cfg(test)]
#[path = "rfc6455_tests.rs"]
mod tests;
