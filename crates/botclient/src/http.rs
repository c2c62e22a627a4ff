//! A minimal HTTP/1.1 client for the server's JSON API (no client library needed for two
//! endpoints), typed with the protocol's bodies; the load generator uses it too.

use std::net::SocketAddr;
use std::time::Duration;

use evr_protocol::{ApiErrorBody, CREATE_ROOM_PATH, CreatedRoom, JoinRequest, JoinedRoom, RoomOptions, join_room_path};
use serde::Serialize;
use serde::de::DeserializeOwned;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::{ClientError, Dialer};

/// How long one request may take.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

/// Sends one request and returns the status and the body (`Connection: close`, so the body is
/// everything after the head).
async fn request(
    dialer: Dialer,
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: &str,
) -> Result<(u16, String), ClientError> {
    let mut stream = dialer.connect(addr).await?;
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(req.as_bytes()).await?;
    let mut buf = Vec::new();
    tokio::time::timeout(REQUEST_TIMEOUT, stream.read_to_end(&mut buf))
        .await
        .map_err(|_| ClientError::Timeout)??;
    let text = String::from_utf8_lossy(&buf);
    let malformed = || ClientError::Http {
        status: 0,
        body: text.to_string(),
    };
    let (head, rest) = text.split_once("\r\n\r\n").ok_or_else(malformed)?;
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(malformed)?;
    Ok((status, rest.to_string()))
}

/// `GET path`: the status and the body.
pub async fn get(addr: SocketAddr, path: &str) -> Result<(u16, String), ClientError> {
    request(Dialer::default(), addr, "GET", path, "").await
}

/// `POST path` with a JSON body; a 2xx answer is read as `T`, anything else as the protocol's
/// [`ApiErrorBody`].
pub async fn post<B: Serialize, T: DeserializeOwned>(addr: SocketAddr, path: &str, body: &B) -> Result<T, ClientError> {
    post_via(Dialer::default(), addr, path, body).await
}

/// [`post`] over a connection from `dialer`.
pub async fn post_via<B: Serialize, T: DeserializeOwned>(
    dialer: Dialer,
    addr: SocketAddr,
    path: &str,
    body: &B,
) -> Result<T, ClientError> {
    let (status, text) = request(dialer, addr, "POST", path, &serde_json::to_string(body)?).await?;
    if (200..300).contains(&status) {
        return Ok(serde_json::from_str(&text)?);
    }
    match serde_json::from_str::<ApiErrorBody>(&text) {
        Ok(body) => Err(ClientError::Api { status, body }),
        Err(_) => Err(ClientError::Http { status, body: text }),
    }
}

/// `POST /api/rooms`.
pub async fn create_room(addr: SocketAddr, options: &RoomOptions) -> Result<CreatedRoom, ClientError> {
    create_room_via(Dialer::default(), addr, options).await
}

/// [`create_room`] over a connection from `dialer`.
pub async fn create_room_via(
    dialer: Dialer,
    addr: SocketAddr,
    options: &RoomOptions,
) -> Result<CreatedRoom, ClientError> {
    post_via(dialer, addr, CREATE_ROOM_PATH, options).await
}

/// `POST /api/rooms/{code}/join`.
pub async fn join_room(addr: SocketAddr, code: &str, invite: &str) -> Result<JoinedRoom, ClientError> {
    join_room_via(Dialer::default(), addr, code, invite).await
}

/// [`join_room`] over a connection from `dialer`.
pub async fn join_room_via(
    dialer: Dialer,
    addr: SocketAddr,
    code: &str,
    invite: &str,
) -> Result<JoinedRoom, ClientError> {
    let body = JoinRequest {
        invite: Some(invite.to_string()),
        join_code: None,
        name: None,
    };
    post_via(dialer, addr, &join_room_path(code), &body).await
}
