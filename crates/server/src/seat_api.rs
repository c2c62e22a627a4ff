//! HTTP routes of the seats: the guest taking the free seat (`POST …/join`, with the invite link's
//! secret or the room code's join code), the creator's new invite (`POST …/invite`), a seat moved
//! to another device (`POST …/transfer`, then `POST …/take` on that device), a seat's devices
//! (`GET …/devices`) and the others signed out (`POST …/devices/sign-out-others`), and a seat's
//! summary for the list of a device's rooms (`GET …/seat`). The room actor decides
//! (`room/joining.rs`, `room/transfer.rs`, `room/devices.rs`); this file reads requests, limits join
//! codes per address, and answers.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::Json;
use axum::extract::{ConnectInfo, State};
use axum::http::{HeaderMap, StatusCode, header};
use evr_protocol::{ErrorCode, JoinRequest, JoinedRoom, NewInvite, SeatDevices, SeatTransfer, SignedOut, TakeSeat};
use tokio::sync::oneshot;

use crate::app::App;
use crate::http::{checked_name, invite_url, room_named};
use crate::refusal::{ApiBody, ApiError, ApiPath, json};
use crate::room::{Command, Join, JoinBy, Joined};

/// The seat token a request carries in `Authorization: Bearer {token}` (trimmed), if any.
pub(crate) fn request_token(headers: &HeaderMap) -> Option<&str> {
    headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::trim)
        .filter(|t| !t.is_empty())
}

/// The seat token of `Authorization: Bearer {token}`, or `bad_token`.
pub(crate) fn bearer(headers: &HeaderMap) -> Result<String, ApiError> {
    request_token(headers)
        .map(str::to_string)
        .ok_or_else(|| ApiError::new(ErrorCode::BadToken, "send your seat token: Authorization: Bearer …"))
}

/// Sends the command `make` builds to room `typed` and waits for its answer.
async fn ask<T>(
    app: &App,
    typed: &str,
    make: impl FnOnce(oneshot::Sender<Result<T, ErrorCode>>) -> Command,
) -> Result<(String, Result<T, ErrorCode>), ApiError> {
    let handle = room_named(app, typed).await?;
    let code = crate::secrets::canonical_room_code(typed).unwrap_or_default();
    let gone = || ApiError::new(ErrorCode::ShuttingDown, "the room is closing");
    let (reply, answer) = oneshot::channel();
    handle.tx.send(make(reply)).await.map_err(|_| gone())?;
    Ok((code, answer.await.map_err(|_| gone())?))
}

/// A refusal of the room, in words for people.
fn refused(code: ErrorCode) -> ApiError {
    let message = match code {
        ErrorCode::SeatTaken => "both seats are taken",
        ErrorCode::BadToken => "this invite or seat token is not valid here",
        ErrorCode::BadJoinCode => "the join code is wrong: ask the room's creator for it",
        ErrorCode::TooManyJoinAttempts => {
            "too many wrong join codes for this room: ask its creator for the invite link or a new code"
        }
        ErrorCode::TransferLinkInvalid => {
            "this link was used already, has expired, or was replaced: make a new one on the device that has the seat"
        }
        ErrorCode::TooManyDevices => "this seat is played on as many devices as a seat may be",
        ErrorCode::NotRoomCreator => "only the room's creator can make a new invite",
        ErrorCode::StorageFailed => "the server could not store this; nothing changed",
        _ => "refused",
    };
    ApiError::new(code, message)
}

fn joined(j: Joined) -> Json<JoinedRoom> {
    Json(JoinedRoom {
        seat: j.faction,
        token: j.token,
    })
}

/// `POST /api/rooms/{code}/join`: exactly one of `invite` and `join_code`.
pub async fn join_room(
    State(app): State<Arc<App>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    ApiPath(typed): ApiPath<String>,
    headers: HeaderMap,
    body: ApiBody,
) -> Result<Json<JoinedRoom>, ApiError> {
    let request: JoinRequest = json(&body)?;
    let by = match (request.invite, request.join_code) {
        (Some(invite), None) => JoinBy::Invite(invite),
        (None, Some(join_code)) => {
            if app
                .join_limiter
                .check_key(&crate::listen::client_key(addr.ip()))
                .is_err()
            {
                return Err(ApiError::new(
                    ErrorCode::TooManyJoinAttempts,
                    "too many join codes from this address: wait a minute",
                ));
            }
            JoinBy::JoinCode(join_code)
        }
        _ => {
            return Err(ApiError::new(
                ErrorCode::BadMessage,
                "give the invite link's secret or the join code (the room code alone lets you watch)",
            ));
        }
    };
    // a signed-in player keeps the seat in their account, called by their username by default
    let player = crate::accounts::player(&app, &headers).await;
    let name = match checked_name(request.name)? {
        Some(name) => Some(name),
        None => player.as_ref().and_then(|p| crate::names::display_name(&p.username)),
    };
    let (code, answer) = ask(&app, &typed, |reply| Command::Join(Box::new(Join { by, name, reply }))).await?;
    let seated = answer.map_err(refused)?;
    if let Some(player) = &player {
        crate::accounts::keep_new_seat(&app, player, &code, evr_store::StoredSeat::Guest).await;
    }
    Ok(joined(seated))
}

/// `POST /api/rooms/{code}/invite` (the creator's token): a new invite link and join code.
pub async fn new_invite(
    State(app): State<Arc<App>>,
    ApiPath(typed): ApiPath<String>,
    headers: HeaderMap,
) -> Result<Json<NewInvite>, ApiError> {
    let token = bearer(&headers)?;
    let (code, answer) = ask(&app, &typed, |reply| Command::NewInvite { token, reply }).await?;
    let invite = answer.map_err(refused)?;
    let origin = app.config.public_origin.trim_end_matches('/');
    Ok(Json(NewInvite {
        invite_url: invite_url(origin, &code, &invite.secret),
        join_code: invite.join_code,
    }))
}

/// `POST /api/rooms/{code}/transfer` (a seat's token): a link that moves that seat to another device.
pub async fn transfer(
    State(app): State<Arc<App>>,
    ApiPath(typed): ApiPath<String>,
    headers: HeaderMap,
) -> Result<(StatusCode, Json<SeatTransfer>), ApiError> {
    let token = bearer(&headers)?;
    let (code, answer) = ask(&app, &typed, |reply| Command::IssueTransfer { token, reply }).await?;
    let transfer = answer.map_err(refused)?;
    let origin = app.config.public_origin.trim_end_matches('/');
    Ok((
        StatusCode::CREATED,
        Json(SeatTransfer {
            url: format!("{origin}/r/{code}/take#{}", transfer.secret),
            expires_at: transfer.expires_at,
        }),
    ))
}

/// `POST /api/rooms/{code}/take`: the device opening a transfer link takes its seat.
pub async fn take(
    State(app): State<Arc<App>>,
    ApiPath(typed): ApiPath<String>,
    body: ApiBody,
) -> Result<Json<JoinedRoom>, ApiError> {
    let TakeSeat { secret } = json(&body)?;
    let (_, answer) = ask(&app, &typed, |reply| Command::TakeSeat { secret, reply }).await?;
    answer.map(joined).map_err(refused)
}

/// `GET /api/rooms/{code}/devices` (a seat's token): the devices that seat is played on.
pub async fn devices(
    State(app): State<Arc<App>>,
    ApiPath(typed): ApiPath<String>,
    headers: HeaderMap,
) -> Result<Json<SeatDevices>, ApiError> {
    let token = bearer(&headers)?;
    let (_, answer) = ask(&app, &typed, |reply| Command::Devices { token, reply }).await?;
    answer.map(Json).map_err(refused)
}

/// `POST /api/rooms/{code}/devices/sign-out-others` (a seat's token): the asking device is the
/// seat's only one; the others' tokens stop working.
pub async fn sign_out_others(
    State(app): State<Arc<App>>,
    ApiPath(typed): ApiPath<String>,
    headers: HeaderMap,
) -> Result<Json<SignedOut>, ApiError> {
    let token = bearer(&headers)?;
    let (_, answer) = ask(&app, &typed, |reply| Command::SignOutOthers { token, reply }).await?;
    answer.map(|devices| Json(SignedOut { devices })).map_err(refused)
}
