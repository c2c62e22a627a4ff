//! `GET /api/rooms/{code}/seat` with a seat token: where that seat's game stands — whose turn,
//! the names, the score, the result — for the list of rooms a device holds. Built from the store
//! and the engine like the archive (no room is loaded into memory or claimed for it, so a device
//! listing old rooms moves none of them), from the token's side only: nothing hidden is in it.

use std::sync::Arc;

use axum::Json;
use axum::extract::State;
use axum::http::{HeaderMap, header};
use evr_protocol::{ErrorCode, Opponent, SeatState, SeatSummary};
use evr_rules::{ByFaction, Faction};

use super::{forfeit_reason, load, names, replay_each, seat_of_token};
use crate::app::App;
use crate::refusal::{ApiError, ApiPath};
use evr_store::StoredSeat;

pub async fn seat_summary(
    State(app): State<Arc<App>>,
    ApiPath(typed): ApiPath<String>,
    headers: HeaderMap,
) -> Result<Json<SeatSummary>, ApiError> {
    let token = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .unwrap_or_default()
        .trim()
        .to_string();
    let (room, ()) = load(&app, &typed, "a seat's summary", |_, _| Ok(())).await?;
    let not_yours = || ApiError::new(ErrorCode::BadToken, "this seat token is not valid in this room");
    let seat = seat_of_token(&room, &token).ok_or_else(not_yours)?;
    let game = room.game.as_ref().ok_or_else(|| {
        tracing::error!(room = %room.code, "a stored room without a game");
        ApiError::new(ErrorCode::StorageFailed, "cannot load the room's game")
    })?;
    let you = match seat {
        StoredSeat::Creator => game.creator_faction,
        StoredSeat::Guest => game.creator_faction.opponent(),
    };
    let engine = replay_each(&room.code, room.options.mode, game, |_, _| {})?;
    let forfeit_winner = game.result.and_then(|r| r.forfeit_winner);
    let opponent = room.options.opponent.unwrap_or_default();
    let guest_free = room.guest_hash.is_none() && opponent == Opponent::Friend;
    let state = if engine.is_over() || forfeit_winner.is_some() {
        SeatState::Over
    } else if guest_free {
        SeatState::WaitingForOpponent
    } else if engine.seats_to_act().contains(&you) {
        SeatState::YourTurn
    } else {
        SeatState::TheirTurn
    };
    Ok(Json(SeatSummary {
        names: names(&room, game),
        opponent,
        game_number: game.game_no,
        state,
        round: engine.round(),
        vp: ByFaction::from_fn(|f: Faction| engine.vp(f)),
        outcome: engine.outcome(),
        forfeit_winner,
        forfeit_reason: forfeit_reason(game),
        clock: None,
        you,
        code: room.code,
    }))
}
