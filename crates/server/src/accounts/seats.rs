//! The seats an account keeps: this device's seats become the account's (`POST /api/account/seats`,
//! each proved by its token against the store), the list of the account's rooms, and on any device
//! signed in to it, each room's summary and a token of the device's own
//! (`…/account-seat`, answered by the room's own node: the front door routes it by the room code).

use std::net::SocketAddr;
use std::sync::Arc;

use axum::Json;
use axum::extract::{ConnectInfo, State};
use axum::http::HeaderMap;
use evr_protocol::{
    AccountRoom, AccountRooms, ErrorCode, JoinedRoom, KeepOutcome, KeepSeats, KeptSeat, KeptSeats,
    MAX_SEATS_KEPT_AT_ONCE, SeatSummary,
};
use evr_store::{AccountId, SeatKept, StoredSeat};
use tokio::sync::oneshot;

use super::session::required;
use super::{blocking, now_ms, offered, with_rooms};
use crate::app::App;
use crate::refusal::{ApiBody, ApiError, ApiPath, json};
use crate::room::Command;
use crate::secrets::canonical_room_code;

/// `POST /api/account/seats`: every seat whose token this device shows becomes the account's.
pub async fn keep_seats(
    State(app): State<Arc<App>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: ApiBody,
) -> Result<Json<KeptSeats>, ApiError> {
    offered(&app, addr.ip())?;
    let session = required(&app, &headers).await?;
    let KeepSeats { seats } = json(&body)?;
    if seats.len() > MAX_SEATS_KEPT_AT_ONCE {
        return Err(ApiError::new(
            ErrorCode::BadMessage,
            format!("at most {MAX_SEATS_KEPT_AT_ONCE} seats at once"),
        ));
    }
    let account = session.account;
    let now = now_ms();
    let kept = with_rooms(&app, "cannot keep the seats", move |store, accounts| {
        let mut kept = Vec::with_capacity(seats.len());
        for held in seats {
            let outcome = match canonical_room_code(&held.code) {
                None => KeepOutcome::NotASeat,
                Some(code) => match store.load_room(&code)? {
                    None => KeepOutcome::NotASeat,
                    Some(room) => match crate::replay::seat_of_token(&room, &held.token) {
                        None => KeepOutcome::NotASeat,
                        Some(seat) => match accounts.keep_seat(&account, &code, seat, now)? {
                            SeatKept::Kept => KeepOutcome::Kept,
                            SeatKept::Already => KeepOutcome::Already,
                            SeatKept::OtherAccount => KeepOutcome::OtherAccount,
                        },
                    },
                },
            };
            kept.push(KeptSeat {
                code: held.code,
                outcome,
            });
        }
        Ok(kept)
    })
    .await?;
    Ok(Json(KeptSeats { seats: kept }))
}

/// `GET /api/account/rooms`.
pub async fn rooms(
    State(app): State<Arc<App>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
) -> Result<Json<AccountRooms>, ApiError> {
    offered(&app, addr.ip())?;
    let session = required(&app, &headers).await?;
    let seats = blocking(&app, "cannot list the rooms", move |store| {
        store.account_seats(&session.account)
    })
    .await?;
    Ok(Json(AccountRooms {
        rooms: seats
            .into_iter()
            .map(|s| AccountRoom {
                code: s.code,
                kept_at_ms: s.added_at,
            })
            .collect(),
    }))
}

/// The seat of room `code` that `account` keeps, or `seat_not_kept`.
async fn kept_seat(app: &App, account: AccountId, code: String) -> Result<StoredSeat, ApiError> {
    let seat = blocking(app, "cannot read the room's seats", move |store| {
        for seat in [StoredSeat::Creator, StoredSeat::Guest] {
            if store.seat_account(&code, seat)? == Some(account) {
                return Ok(Some(seat));
            }
        }
        Ok(None)
    })
    .await?;
    seat.ok_or_else(|| ApiError::new(ErrorCode::SeatNotKept, "your account keeps no seat of this room"))
}

fn room_code(typed: &str) -> Result<String, ApiError> {
    canonical_room_code(typed).ok_or_else(|| ApiError::new(ErrorCode::RoomNotFound, "no such room"))
}

/// `GET /api/rooms/{code}/account-seat`: the summary of the seat the account keeps, read from the
/// store as `GET …/seat` is (no room is loaded or claimed for a list).
pub async fn account_seat_summary(
    State(app): State<Arc<App>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    ApiPath(typed): ApiPath<String>,
    headers: HeaderMap,
) -> Result<Json<SeatSummary>, ApiError> {
    offered(&app, addr.ip())?;
    let session = required(&app, &headers).await?;
    let seat = kept_seat(&app, session.account, room_code(&typed)?).await?;
    let (room, ()) = crate::replay::load(&app, &typed, "a kept seat's summary", |_, _| Ok(())).await?;
    crate::replay::summary(&app, room, seat).await.map(Json)
}

/// `POST /api/rooms/{code}/account-seat`: a token of this device's own for the seat the account
/// keeps.
pub async fn seat_on_this_device(
    State(app): State<Arc<App>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    ApiPath(typed): ApiPath<String>,
    headers: HeaderMap,
) -> Result<Json<JoinedRoom>, ApiError> {
    offered(&app, addr.ip())?;
    let session = required(&app, &headers).await?;
    let seat = kept_seat(&app, session.account, room_code(&typed)?).await?;
    let handle = crate::http::room_named(&app, &typed).await?;
    let gone = || ApiError::new(ErrorCode::ShuttingDown, "the room is closing");
    let (reply, answer) = oneshot::channel();
    handle
        .tx
        .send(Command::AccountDevice { seat, reply })
        .await
        .map_err(|_| gone())?;
    let joined = answer.await.map_err(|_| gone())?.map_err(|code| {
        let message = match code {
            ErrorCode::TooManyDevices => "this seat is played on as many devices as a seat may be",
            ErrorCode::SeatNotKept => "your account keeps no seat of this room",
            _ => "the server could not store this; nothing changed",
        };
        ApiError::new(code, message)
    })?;
    Ok(Json(JoinedRoom {
        seat: joined.faction,
        token: joined.token,
    }))
}

/// The signed-in player of a request that anyone may make (creating or joining a room): `None`
/// without a valid session, and also when the accounts cannot be read (logged), since an account
/// never stands in the way of a game.
pub(crate) async fn player(app: &App, headers: &HeaderMap) -> Option<super::session::SignedIn> {
    app.accounts.as_ref()?;
    super::session::current(app, headers).await.unwrap_or_default()
}

/// The seat a signed-in player just took becomes their account's (logged when it cannot be: the
/// seat's token works all the same, and the player can keep it from their device later).
pub(crate) async fn keep_new_seat(app: &App, player: &super::session::SignedIn, code: &str, seat: StoredSeat) {
    let (account, room) = (player.account, code.to_string());
    let now = now_ms();
    let kept = blocking(app, "cannot keep a new seat", move |store| {
        store.keep_seat(&account, &room, seat, now)
    })
    .await;
    if kept.is_err() {
        tracing::warn!(room = %code, "a signed-in player's new seat was not kept by their account");
    }
}
