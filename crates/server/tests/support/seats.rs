//! Requests of the seats' API (`proto/PROTOCOL.md`, *Seats*): joining with a join code, a new
//! invite, moving a seat to another device, a seat's devices, a seat's summary.
#![allow(dead_code)]

use std::net::SocketAddr;

use anyhow::Result;
use evr_protocol::{
    ApiErrorBody, JoinRequest, JoinedRoom, NewInvite, SeatDevices, SeatSummary, SeatTransfer, SignedOut, TakeSeat,
    devices_path, invite_path, join_room_path, seat_path, sign_out_others_path, take_seat_path, transfer_path,
};

/// An answer: typed on success, the error body (with its status) on refusal.
pub type Answer<T> = Result<T, (u16, ApiErrorBody)>;

/// `POST /api/rooms/{code}/join` with `body`.
pub async fn join(addr: SocketAddr, code: &str, body: &JoinRequest) -> Result<Answer<JoinedRoom>> {
    super::post(addr, &join_room_path(code), body).await
}

/// Joins with the room code and a join code (as a friend who typed both), under `name`.
pub async fn join_by_code(
    addr: SocketAddr,
    code: &str,
    join_code: &str,
    name: Option<&str>,
) -> Result<Answer<JoinedRoom>> {
    let body = JoinRequest {
        invite: None,
        join_code: Some(join_code.to_string()),
        name: name.map(str::to_string),
    };
    join(addr, code, &body).await
}

async fn post_as<T: serde::de::DeserializeOwned>(
    addr: SocketAddr,
    path: &str,
    body: Option<&serde_json::Value>,
    token: Option<&str>,
) -> Result<Answer<T>> {
    let (status, text) = super::http_as(addr, "POST", path, body, token).await?;
    super::answer(status, &text)
}

/// `POST /api/rooms/{code}/invite` with `token`.
pub async fn new_invite(addr: SocketAddr, code: &str, token: Option<&str>) -> Result<Answer<NewInvite>> {
    post_as(addr, &invite_path(code), None, token).await
}

/// `POST /api/rooms/{code}/transfer` with `token`.
pub async fn transfer(addr: SocketAddr, code: &str, token: Option<&str>) -> Result<Answer<SeatTransfer>> {
    post_as(addr, &transfer_path(code), None, token).await
}

/// The secret of a transfer link (its fragment).
pub fn transfer_secret(t: &SeatTransfer) -> String {
    t.url.split_once('#').map(|(_, s)| s.to_string()).unwrap_or_default()
}

/// `POST /api/rooms/{code}/take` with a transfer link's secret.
pub async fn take(addr: SocketAddr, code: &str, secret: &str) -> Result<Answer<JoinedRoom>> {
    super::post(
        addr,
        &take_seat_path(code),
        &TakeSeat {
            secret: secret.to_string(),
        },
    )
    .await
}

/// `GET /api/rooms/{code}/seat` with `token`.
pub async fn summary(addr: SocketAddr, code: &str, token: Option<&str>) -> Result<Answer<SeatSummary>> {
    let (status, text) = super::http_as(addr, "GET", &seat_path(code), None, token).await?;
    super::answer(status, &text)
}

/// `GET /api/rooms/{code}/devices` with `token`.
pub async fn devices(addr: SocketAddr, code: &str, token: Option<&str>) -> Result<Answer<SeatDevices>> {
    let (status, text) = super::http_as(addr, "GET", &devices_path(code), None, token).await?;
    super::answer(status, &text)
}

/// `POST /api/rooms/{code}/devices/sign-out-others` with `token`.
pub async fn sign_out_others(addr: SocketAddr, code: &str, token: Option<&str>) -> Result<Answer<SignedOut>> {
    post_as(addr, &sign_out_others_path(code), None, token).await
}
