//! HTTP routes: create and join rooms, health, readiness and metrics.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::Json;
use axum::body::Bytes;
use axum::extract::{ConnectInfo, Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use evr_protocol::{ErrorCode, RoomOptions, SideChoice};
use evr_rules::Faction;
use serde::{Deserialize, Serialize};
use tokio::sync::oneshot;

use crate::app::App;
use crate::room::{Command, Room};
use crate::secrets;

/// An API error: a stable code and a sentence, as JSON, with a fitting status.
pub struct ApiError(StatusCode, ErrorCode, String);

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        metrics::counter!(crate::metrics_names::ERRORS, "code" => self.1.as_str()).increment(1);
        (self.0, Json(serde_json::json!({ "code": self.1, "message": self.2 }))).into_response()
    }
}

/// Answer to `POST /api/rooms`.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct CreatedRoom {
    pub code: String,
    pub seat: Faction,
    /// The creator's seat token: keep it to come back to the seat.
    pub token: String,
    /// Link for the other player (the secret is in the fragment, never sent to servers); none when
    /// the computer takes the other seat.
    pub invite_url: Option<String>,
    pub watch_url: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct JoinRequest {
    invite: String,
}

/// Answer to `POST /api/rooms/{code}/join`.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct JoinedRoom {
    pub seat: Faction,
    pub token: String,
}

fn bad(code: ErrorCode, msg: impl Into<String>) -> ApiError {
    ApiError(StatusCode::BAD_REQUEST, code, msg.into())
}

pub async fn create_room(
    State(app): State<Arc<App>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    body: Bytes,
) -> Result<(StatusCode, Json<CreatedRoom>), ApiError> {
    if app.shutdown.is_cancelled() {
        return Err(ApiError(
            StatusCode::SERVICE_UNAVAILABLE,
            ErrorCode::ShuttingDown,
            "shutting down".into(),
        ));
    }
    if app.room_limiter.check_key(&addr.ip()).is_err() {
        return Err(ApiError(
            StatusCode::TOO_MANY_REQUESTS,
            ErrorCode::TooManyRooms,
            "too many new rooms; wait a minute".into(),
        ));
    }
    let options: RoomOptions = serde_json::from_slice(&body).map_err(|e| bad(ErrorCode::BadMessage, e.to_string()))?;
    let internal = |e: std::io::Error| {
        ApiError(
            StatusCode::INTERNAL_SERVER_ERROR,
            ErrorCode::StorageFailed,
            e.to_string(),
        )
    };
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
    let store: Arc<dyn crate::store::Store> = app.store.clone();
    let room = Room::create(
        code.clone(),
        options,
        creator_faction,
        &invite,
        &token,
        store,
        app.config.clone(),
    )
    .await
    .map_err(|e| {
        ApiError(
            StatusCode::INTERNAL_SERVER_ERROR,
            ErrorCode::StorageFailed,
            e.to_string(),
        )
    })?;
    app.start_room(&code, room);
    let origin = app.config.public_origin.trim_end_matches('/');
    let watch_url = (options.spectators == evr_protocol::SpectatorPolicy::AnyoneWithLink)
        .then(|| format!("{origin}/r/{code}/watch"));
    tracing::info!(room = %code, ?options, "room created");
    Ok((
        StatusCode::CREATED,
        Json(CreatedRoom {
            invite_url: (options.opponent.unwrap_or_default() == evr_protocol::Opponent::Friend)
                .then(|| format!("{origin}/r/{code}/join#{invite}")),
            watch_url,
            code,
            seat: creator_faction,
            token,
        }),
    ))
}

pub async fn join_room(
    State(app): State<Arc<App>>,
    Path(code): Path<String>,
    body: Bytes,
) -> Result<Json<JoinedRoom>, ApiError> {
    let request: JoinRequest = serde_json::from_slice(&body).map_err(|e| bad(ErrorCode::BadMessage, e.to_string()))?;
    let not_found = || ApiError(StatusCode::NOT_FOUND, ErrorCode::RoomNotFound, "no such room".into());
    if !secrets::is_room_code(&code) {
        return Err(not_found());
    }
    let handle = app
        .room(&code)
        .await
        .map_err(|e| {
            tracing::error!(room = %code, error = %e, "cannot load the room");
            ApiError(
                StatusCode::INTERNAL_SERVER_ERROR,
                ErrorCode::StorageFailed,
                "cannot load the room".into(),
            )
        })?
        .ok_or_else(not_found)?;
    let (reply, answer) = oneshot::channel();
    handle
        .tx
        .send(Command::Join {
            invite: request.invite,
            reply,
        })
        .await
        .map_err(|_| not_found())?;
    match answer.await {
        Ok(Ok(j)) => Ok(Json(JoinedRoom {
            seat: j.faction,
            token: j.token,
        })),
        Ok(Err(code @ ErrorCode::SeatTaken)) => {
            Err(ApiError(StatusCode::CONFLICT, code, "both seats are taken".into()))
        }
        Ok(Err(code @ ErrorCode::BadToken)) => {
            Err(ApiError(StatusCode::FORBIDDEN, code, "this invite is not valid".into()))
        }
        Ok(Err(code)) => Err(ApiError(
            StatusCode::INTERNAL_SERVER_ERROR,
            code,
            "could not join".into(),
        )),
        Err(_) => Err(not_found()),
    }
}

pub async fn healthz() -> &'static str {
    "ok"
}

pub async fn readyz(State(app): State<Arc<App>>) -> Response {
    if app.shutdown.is_cancelled() {
        (StatusCode::SERVICE_UNAVAILABLE, "shutting down").into_response()
    } else {
        "ready".into_response()
    }
}

pub async fn metrics(State(app): State<Arc<App>>) -> String {
    app.prometheus.render()
}
