//! Every refusal of the HTTP side is the documented `{"code", "message"}` body with its code's
//! status (proto/PROTOCOL.md): the API's own, and those the framework would otherwise answer in
//! plain text — a path or query it cannot read, an address or method it does not have, a body over
//! the limit, a plain request to the WebSocket address.

use anyhow::{Context, Result, ensure};
use evr_protocol::{ApiErrorBody, ErrorCode, MAX_FRAME_BYTES};
use evr_rules::Mode;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::support;

/// Sends `head` (request line and headers, without the blank line) and `body` on a fresh
/// connection; the status, the lowercased head and the body of the answer.
pub(crate) async fn exchange(addr: std::net::SocketAddr, head: &str, body: &[u8]) -> Result<(u16, String, String)> {
    let mut tcp = tokio::net::TcpStream::connect(addr).await?;
    let request = format!(
        "{head}\r\nHost: x\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    tcp.write_all(request.as_bytes()).await?;
    // a refused body is not read by the server: it may close before taking all of it
    let _ = tcp.write_all(body).await;
    let mut answer = Vec::new();
    tokio::time::timeout(std::time::Duration::from_secs(10), tcp.read_to_end(&mut answer)).await??;
    let text = String::from_utf8_lossy(&answer).to_string();
    let (head, body) = text.split_once("\r\n\r\n").context("an HTTP answer")?;
    let status = head.split_whitespace().nth(1).context("a status")?.parse()?;
    Ok((status, head.to_lowercase(), body.to_string()))
}

#[tokio::test]
async fn every_refusal_is_a_code_and_a_message_with_the_codes_status() -> Result<()> {
    let server = support::start("refusals").await?;
    let seats = support::create_and_join(server.addr, Mode::Tutorial).await?;
    let code = &seats.code;
    let big = vec![b' '; MAX_FRAME_BYTES + 1];
    let cases: Vec<(String, &[u8], ErrorCode)> = vec![
        // the example: a game number that is not a number
        (
            format!("GET /api/rooms/{code}/games/abc/steps HTTP/1.1"),
            b"",
            ErrorCode::GameNotFound,
        ),
        (
            format!("GET /api/rooms/{code}/games/abc/replay HTTP/1.1"),
            b"",
            ErrorCode::GameNotFound,
        ),
        (
            format!("GET /api/rooms/{code}/games/99999999999/steps HTTP/1.1"),
            b"",
            ErrorCode::GameNotFound,
        ),
        (
            format!("GET /api/rooms/{code}/games/-1/replay HTTP/1.1"),
            b"",
            ErrorCode::GameNotFound,
        ),
        (
            format!("GET /api/rooms/{code}/games/9/steps HTTP/1.1"),
            b"",
            ErrorCode::GameNotFound,
        ),
        // a path or query that is not valid UTF-8 once decoded
        (
            "GET /api/rooms/%FF%FE/games HTTP/1.1".into(),
            b"",
            ErrorCode::BadMessage,
        ),
        ("GET /api/rooms/%FF/seat HTTP/1.1".into(), b"", ErrorCode::BadMessage),
        (
            format!("GET /api/rooms/{code}/games/1/steps?eyes=nobody HTTP/1.1"),
            b"",
            ErrorCode::BadMessage,
        ),
        // addresses and methods the API does not have
        ("GET /api/nothing-here HTTP/1.1".into(), b"", ErrorCode::NotFound),
        ("POST /api/nothing-here HTTP/1.1".into(), b"{}", ErrorCode::NotFound),
        ("DELETE /somewhere HTTP/1.1".into(), b"", ErrorCode::NotFound),
        ("GET /assets/no-such-file.js HTTP/1.1".into(), b"", ErrorCode::NotFound),
        ("GET /api/rooms HTTP/1.1".into(), b"", ErrorCode::MethodNotAllowed),
        (
            format!("DELETE /api/rooms/{code} HTTP/1.1"),
            b"",
            ErrorCode::MethodNotAllowed,
        ),
        (
            format!("GET /api/rooms/{code}/join HTTP/1.1"),
            b"",
            ErrorCode::MethodNotAllowed,
        ),
        (
            format!("POST /api/rooms/{code}/games HTTP/1.1"),
            b"{}",
            ErrorCode::MethodNotAllowed,
        ),
        // bodies: too large, not JSON, not the message
        (
            "POST /api/rooms HTTP/1.1\r\nContent-Type: application/json".into(),
            &big,
            ErrorCode::FrameTooLarge,
        ),
        (
            format!("POST /api/rooms/{code}/join HTTP/1.1"),
            &big,
            ErrorCode::FrameTooLarge,
        ),
        ("POST /api/rooms HTTP/1.1".into(), b"not json", ErrorCode::BadMessage),
        (
            "POST /api/rooms HTTP/1.1".into(),
            b"{\"mode\":\"chess\"}",
            ErrorCode::BadMessage,
        ),
        (
            format!("POST /api/rooms/{code}/take HTTP/1.1"),
            b"[]",
            ErrorCode::BadMessage,
        ),
        // the API's own
        ("GET /api/rooms/ZZZZZZ HTTP/1.1".into(), b"", ErrorCode::RoomNotFound),
        (
            format!("POST /api/rooms/{code}/transfer HTTP/1.1"),
            b"",
            ErrorCode::BadToken,
        ),
        // the WebSocket address asked without an upgrade, or with another version
        (format!("GET /ws/{code} HTTP/1.1"), b"", ErrorCode::WebsocketRequired),
        (
            format!(
                "GET /ws/{code} HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
                 Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 8"
            ),
            b"",
            ErrorCode::BadMessage,
        ),
    ];
    for (head, body, expected) in &cases {
        let request = head.lines().next().unwrap_or_default();
        let (status, answer_head, text) = exchange(server.addr, head, body).await?;
        ensure!(
            status == expected.http_status(),
            "{request}: status {status}, not {}: {text}",
            expected.http_status()
        );
        ensure!(
            answer_head.contains("content-type: application/json"),
            "{request}: a JSON body: {answer_head}"
        );
        let refusal: ApiErrorBody =
            serde_json::from_str(&text).with_context(|| format!("{request}: a {{code, message}} body: {text}"))?;
        ensure!(refusal.code == *expected, "{request}: {refusal:?}, not {expected}");
        ensure!(!refusal.message.is_empty(), "{request}: a message for people");
        // the framework's own words never reach the client
        for framework in ["Invalid URL", "Cannot parse", "Failed to", "length limit"] {
            ensure!(!refusal.message.contains(framework), "{request}: {}", refusal.message);
        }
    }
    // and the server is still fine
    let (status, _) = support::http(server.addr, "GET", &format!("/api/rooms/{code}"), None).await?;
    ensure!(status == 200, "the room still answers");
    server.stop().await
}
