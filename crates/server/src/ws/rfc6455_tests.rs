use proptest::prelude::*;

use super::*;

const MAX: usize = 1024;

/// A client frame: masked with `mask`, as a browser sends it.
fn client_frame(fin: bool, opcode: u8, payload: &[u8], mask: [u8; 4]) -> Vec<u8> {
    let (h, n) = header(opcode, payload.len());
    let mut out = h[..n].to_vec();
    if !fin {
        out[0] &= 0x7F;
    }
    out[1] |= 0x80;
    out.extend_from_slice(&mask);
    out.extend(payload.iter().enumerate().map(|(i, b)| b ^ mask[i % 4]));
    out
}

fn text(payload: &str) -> Vec<u8> {
    client_frame(true, OP_TEXT, payload.as_bytes(), [0x37, 0xfa, 0x21, 0x3d])
}

fn decode_all(bytes: &[u8]) -> Result<Vec<Incoming>, Violation> {
    let mut d = Decoder::new(MAX);
    let mut buf = bytes.to_vec();
    let mut out = Vec::new();
    while let Some(m) = d.decode(&mut buf)? {
        out.push(m);
    }
    Ok(out)
}

#[test]
fn masked_text_frames_decode_to_their_text() {
    let mut bytes = text(r#"{"type":"ping"}"#);
    bytes.extend(text("héllo ✓"));
    assert_eq!(
        decode_all(&bytes),
        Ok(vec![
            Incoming::Text(r#"{"type":"ping"}"#.into()),
            Incoming::Text("héllo ✓".into())
        ])
    );
}

#[test]
fn lengths_of_7_16_and_64_bits_are_read() {
    for len in [0, 125, 126, 127, 65_535, 65_536] {
        let body = "x".repeat(len);
        let mut d = Decoder::new(len.max(1));
        let mut buf = text(&body);
        assert_eq!(d.decode(&mut buf), Ok(Some(Incoming::Text(body))), "{len}");
        assert!(buf.is_empty());
    }
    assert_eq!(header(OP_TEXT, 125).1, 2);
    assert_eq!(header(OP_TEXT, 126).1, 4);
    assert_eq!(header(OP_TEXT, 65_536).1, 10);
}

#[test]
fn a_frame_arriving_byte_by_byte_decodes_once_complete() {
    let whole = text(&"y".repeat(300));
    let mut d = Decoder::new(MAX);
    let mut buf = Vec::new();
    for (i, b) in whole.iter().enumerate() {
        buf.push(*b);
        let got = d.decode(&mut buf);
        if i + 1 < whole.len() {
            assert_eq!(got, Ok(None), "byte {i}");
        } else {
            assert_eq!(got, Ok(Some(Incoming::Text("y".repeat(300)))));
        }
    }
}

#[test]
fn fragments_are_joined_and_control_frames_may_come_between_them() {
    let m = [1, 2, 3, 4];
    let mut bytes = client_frame(false, OP_TEXT, b"{\"type\":", m);
    bytes.extend(client_frame(true, OP_PING, b"hi", m));
    bytes.extend(client_frame(false, OP_CONTINUATION, b"\"pi", m));
    bytes.extend(client_frame(true, OP_CONTINUATION, b"ng\"}", m));
    assert_eq!(
        decode_all(&bytes),
        Ok(vec![
            Incoming::Ping(b"hi".to_vec()),
            Incoming::Text(r#"{"type":"ping"}"#.into())
        ])
    );
}

#[test]
fn close_binary_and_pong_frames_are_reported() {
    let m = [9, 8, 7, 6];
    let mut bytes = client_frame(true, OP_BINARY, &[0, 1, 2], m);
    bytes.extend(client_frame(true, OP_PONG, b"", m));
    bytes.extend(client_frame(true, OP_CLOSE, &[0x03, 0xE8, b'o', b'k'], m));
    bytes.extend(client_frame(true, OP_CLOSE, &[], m));
    assert_eq!(
        decode_all(&bytes),
        Ok(vec![
            Incoming::Binary,
            Incoming::Pong,
            Incoming::Close(Some(1000)),
            Incoming::Close(None)
        ])
    );
}

#[test]
fn protocol_violations_close_with_their_code() {
    let m = [5, 5, 5, 5];
    let unmasked = {
        let (h, n) = header(OP_TEXT, 2);
        let mut v = h[..n].to_vec();
        v.extend_from_slice(b"hi");
        v
    };
    let mut rsv = text("hi");
    rsv[0] |= 0x40;
    let mut fragmented_ping = client_frame(true, OP_PING, b"", m);
    fragmented_ping[0] &= 0x7F;
    let mut nested = client_frame(false, OP_TEXT, b"a", m);
    nested.extend(client_frame(true, OP_TEXT, b"b", m));
    let cases: Vec<(&str, Vec<u8>, u16)> = vec![
        ("unmasked", unmasked, close_code::PROTOCOL_ERROR),
        ("reserved bits", rsv, close_code::PROTOCOL_ERROR),
        (
            "unknown opcode",
            client_frame(true, 0x3, b"", m),
            close_code::PROTOCOL_ERROR,
        ),
        (
            "long ping",
            client_frame(true, OP_PING, &[0; 126], m),
            close_code::PROTOCOL_ERROR,
        ),
        ("fragmented ping", fragmented_ping, close_code::PROTOCOL_ERROR),
        (
            "stray continuation",
            client_frame(true, OP_CONTINUATION, b"a", m),
            close_code::PROTOCOL_ERROR,
        ),
        ("message inside a message", nested, close_code::PROTOCOL_ERROR),
        (
            "half a close code",
            client_frame(true, OP_CLOSE, &[3], m),
            close_code::PROTOCOL_ERROR,
        ),
        (
            "not UTF-8",
            client_frame(true, OP_TEXT, &[0xC3, 0x28], m),
            close_code::NOT_UTF8,
        ),
        ("too large", text(&"z".repeat(MAX + 1)), close_code::TOO_BIG),
    ];
    for (what, bytes, code) in cases {
        assert_eq!(decode_all(&bytes).map_err(|v| v.code), Err(code), "{what}");
    }
}

#[test]
fn a_too_large_message_is_refused_from_its_header_alone() {
    let whole = text(&"z".repeat(MAX + 1));
    let mut d = Decoder::new(MAX);
    let mut header_only = whole[..4].to_vec();
    assert_eq!(d.decode(&mut header_only).map_err(|v| v.code), Err(close_code::TOO_BIG));
    // fragments count together
    let m = [1, 1, 1, 1];
    let mut bytes = client_frame(false, OP_TEXT, &[b'a'; 600], m);
    bytes.extend(client_frame(true, OP_CONTINUATION, &[b'a'; 600], m));
    assert_eq!(decode_all(&bytes).map_err(|v| v.code), Err(close_code::TOO_BIG));
}

#[test]
fn the_accept_key_is_the_rfc_example() {
    // RFC 6455 §1.3
    assert_eq!(accept_key(b"dGhlIHNhbXBsZSBub25jZQ=="), "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
}

proptest! {
    #[test]
    fn any_bytes_decode_without_panicking(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        let mut d = Decoder::new(MAX);
        let mut buf = bytes;
        for _ in 0..300 {
            match d.decode(&mut buf) {
                Ok(Some(_)) => {}
                Ok(None) | Err(_) => break,
            }
        }
    }

    #[test]
    fn a_message_split_anywhere_decodes_the_same(body in "\\PC{0,200}", cut in 0usize..400, mask in any::<[u8; 4]>()) {
        let whole = client_frame(true, OP_TEXT, body.as_bytes(), mask);
        let cut = cut.min(whole.len());
        let mut d = Decoder::new(MAX);
        let mut buf = whole[..cut].to_vec();
        let first = d.decode(&mut buf);
        let got = match first {
            Ok(Some(m)) => m,
            Ok(None) => {
                buf.extend_from_slice(&whole[cut..]);
                d.decode(&mut buf).ok().flatten().ok_or_else(|| TestCaseError::fail("no message"))?
            }
            Err(v) => return Err(TestCaseError::fail(format!("{v:?}"))),
        };
        prop_assert_eq!(got, Incoming::Text(body));
        prop_assert!(buf.is_empty());
    }
}
