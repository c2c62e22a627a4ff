//! HTTP routes: create rooms, look one up by its code, health, readiness and metrics. Taking and
//! moving seats is `seat_api.rs`; finished games are `replay/`.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::Json;
use axum::extract::{ConnectInfo, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use evr_protocol::{CreateRoom, CreatedRoom, ErrorCode, RoomStatus, SideChoice};
use evr_rules::Faction;
use tokio::sync::oneshot;

use crate::app::App;
pub use crate::refusal::ApiError;
use crate::refusal::{ApiBody, ApiPath, json};
use crate::room::{Command, NewRoom, Room, RoomHandle};
use crate::secrets;

pub async fn create_room(
    State(app): State<Arc<App>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: ApiBody,
) -> Result<(StatusCode, Json<CreatedRoom>), ApiError> {
    if app.shutdown.is_cancelled() {
        return Err(ApiError::new(ErrorCode::ShuttingDown, "shutting down"));
    }
    if app
        .room_limiter
        .check_key(&crate::listen::client_key(addr.ip()))
        .is_err()
    {
        return Err(ApiError::new(
            ErrorCode::TooManyRooms,
            "too many new rooms; wait a minute",
        ));
    }
    let CreateRoom { options, name } = json(&body)?;
    // a signed-in player keeps the room in their account, and is called by their username unless
    // they give another name
    let player = crate::accounts::player(&app, &headers).await;
    let creator_name = match checked_name(name)? {
        Some(name) => Some(name),
        None => player.as_ref().and_then(|p| crate::names::display_name(&p.username)),
    };
    if let Some(control) = options.clock
        && !control.is_sane(app.config.min_clock_bank_secs)
    {
        return Err(ApiError::new(
            ErrorCode::BadMessage,
            "a time control is a bank of 1 to 90 minutes and 0 to 120 seconds a decision",
        ));
    }
    if options.rated {
        // both players must be known accounts that agreed before the room exists
        return Err(ApiError::new(
            ErrorCode::BadMessage,
            "a rated game is made by challenging a friend (POST /api/account/challenges)",
        ));
    }
    // the operating system's randomness failed: the log says how, the client only that it failed
    let internal =
        |e: std::io::Error| ApiError::internal(ErrorCode::StorageFailed, "the room could not be made; try again", &e);
    let creator_faction = match options.side {
        SideChoice::Rebel => Faction::Rebel,
        SideChoice::Imperial => Faction::Imperial,
        SideChoice::Random => {
            if secrets::new_seed().map_err(internal)? & 1 == 0 {
                Faction::Rebel
            } else {
                Faction::Imperial
            }
        }
    };
    let code = secrets::new_room_code().map_err(internal)?;
    let invite = secrets::new_token().map_err(internal)?;
    let token = secrets::new_token().map_err(internal)?;
    let friend = options.opponent.unwrap_or_default() == evr_protocol::Opponent::Friend;
    let join_code = if friend {
        Some(crate::room::new_join_code().map_err(internal)?)
    } else {
        None
    };
    let new = NewRoom {
        code: code.clone(),
        options,
        creator_faction,
        invite: invite.clone(),
        join_code: join_code.clone(),
        creator_token: token.clone(),
        creator_name,
    };
    let room = Room::create(new, app.store.clone(), app.config.clone())
        .await
        .map_err(|e| ApiError::internal(ErrorCode::StorageFailed, "the room could not be stored; try again", &e))?;
    app.start_room(&code, room);
    if let Some(player) = &player {
        crate::accounts::keep_new_seat(&app, player, &code, evr_store::StoredSeat::Creator).await;
    }
    let origin = app.config.public_origin.trim_end_matches('/');
    let watch_url = (options.spectators == evr_protocol::SpectatorPolicy::AnyoneWithLink)
        .then(|| format!("{origin}/r/{code}/watch"));
    tracing::info!(room = %code, ?options, "room created");
    Ok((
        StatusCode::CREATED,
        Json(CreatedRoom {
            invite_url: friend.then(|| invite_url(origin, &code, &invite)),
            watch_url,
            join_code,
            code,
            seat: creator_faction,
            token,
        }),
    ))
}

/// The invite link of room `code` with secret `invite`: the secret in the fragment, which browsers
/// never send to servers.
pub fn invite_url(origin: &str, code: &str, invite: &str) -> String {
    format!("{origin}/r/{code}/join#{invite}")
}

/// A display name as given (`None`: none), or `bad_name`.
pub fn checked_name(name: Option<String>) -> Result<Option<String>, ApiError> {
    name.map(|n| crate::names::display_name(&n).ok_or_else(|| ApiError::new(ErrorCode::BadName, crate::names::REFUSED)))
        .transpose()
}

/// The live room a request names by `typed` code (loaded from the store if needed).
pub async fn room_named(app: &App, typed: &str) -> Result<RoomHandle, ApiError> {
    let not_found = || ApiError::new(ErrorCode::RoomNotFound, "no such room");
    let code = secrets::canonical_room_code(typed).ok_or_else(not_found)?;
    app.room(&code)
        .await
        .map_err(|e| {
            tracing::error!(room = %code, error = %e, "cannot load the room");
            ApiError::new(ErrorCode::StorageFailed, "cannot load the room")
        })?
        .ok_or_else(not_found)
}

/// `GET /api/rooms/{code}`: whether the seat is free and whether one may watch, for a person who
/// typed the code.
///
/// A room this node does not hold is read from the store, not loaded: a read must not claim a
/// room another node is serving (its players would be sent to reconnect), nor bring a room into
/// memory for anyone who knows a code.
pub async fn room_status(
    State(app): State<Arc<App>>,
    ApiPath(code): ApiPath<String>,
) -> Result<Json<RoomStatus>, ApiError> {
    let not_found = || ApiError::new(ErrorCode::RoomNotFound, "no such room");
    let canonical = secrets::canonical_room_code(&code).ok_or_else(not_found)?;
    let failed = |e: &dyn std::fmt::Display| ApiError::internal(ErrorCode::StorageFailed, "cannot read the room", e);
    let Some(handle) = app.held_room(&canonical).await.map_err(|e| failed(&e))? else {
        let store = app.store.clone();
        let stored = tokio::task::spawn_blocking(move || store.load_room(&canonical))
            .await
            .map_err(|e| failed(&e))?
            .map_err(|e| failed(&e))?;
        return Ok(Json(crate::room::stored_status(&stored.ok_or_else(not_found)?)));
    };
    let (reply, answer) = oneshot::channel();
    let gone = || ApiError::new(ErrorCode::ShuttingDown, "the room is closing");
    handle.tx.send(Command::Status { reply }).await.map_err(|_| gone())?;
    Ok(Json(answer.await.map_err(|_| gone())?))
}

pub async fn healthz() -> &'static str {
    "ok"
}

pub async fn readyz(State(app): State<Arc<App>>) -> Response {
    // (from SIGTERM on, through the drain: the front door takes the node out while it still serves)
    if app.draining.is_cancelled() {
        (StatusCode::SERVICE_UNAVAILABLE, "shutting down").into_response()
    } else if !app.store_reachable.load(std::sync::atomic::Ordering::Relaxed) {
        (StatusCode::SERVICE_UNAVAILABLE, "the store cannot be reached").into_response()
    } else {
        "ready".into_response()
    }
}

/// `GET /metrics` (Prometheus), for the clients of `--metrics-from` only: the node's counts are
/// its operator's, not every visitor's.
pub async fn metrics(State(app): State<Arc<App>>, ConnectInfo(addr): ConnectInfo<SocketAddr>) -> Response {
    if !crate::listen::is_listed(addr.ip(), &app.config.metrics_from) {
        return crate::refusal::not_found().into_response();
    }
    app.prometheus.render().into_response()
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use axum::extract::{ConnectInfo, State};
    use axum::response::IntoResponse;
    use evr_protocol::{ApiErrorBody, ErrorCode};

    use crate::app::App;
    use crate::config::Config;
    use crate::refusal::ApiBody;
    use crate::room::tests::SwitchableStore;

    /// A store that fails says so to the log, and to the client only that it failed: its own
    /// words (which can name tables, files or hosts) stay in the server.
    #[tokio::test]
    async fn a_failed_store_is_refused_without_its_own_words() {
        let store = Arc::new(SwitchableStore::default());
        store.fail(true);
        let config = Arc::new(Config::for_tests(std::env::temp_dir().join("evr-http-tests-unused")));
        let app = Arc::new(App::new(config, store, crate::prometheus()));
        let body = ApiBody(br#"{"mode":"full","side":"rebel","spectators":"off"}"#.as_slice().into());
        let Err(refused) = super::create_room(
            State(app),
            ConnectInfo(([127, 0, 0, 1], 9).into()),
            axum::http::HeaderMap::new(),
            body,
        )
        .await
        else {
            panic!("a room was created on a store that refuses every write");
        };
        let response = refused.into_response();
        assert_eq!(response.status(), 500);
        let bytes = axum::body::to_bytes(response.into_body(), 4096)
            .await
            .expect("the body");
        let body: ApiErrorBody = serde_json::from_slice(&bytes).expect("a {code, message} body");
        assert_eq!(body.code, ErrorCode::StorageFailed);
        assert_eq!(body.message, "the room could not be stored; try again");
        assert!(
            !body.message.contains("switched"),
            "the store's own error: {}",
            body.message
        );
    }
}
