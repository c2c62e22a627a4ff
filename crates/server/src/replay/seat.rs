//! `GET /api/rooms/{code}/seat` with a seat token: where that seat's game stands — whose turn,
//! the names, the score, the result — for the list of rooms a device holds. Built from the store
//! and the engine like the archive (no room is loaded into memory or claimed for it, so a device
//! listing old rooms moves none of them), from the token's side only: nothing hidden is in it.
//! In a correspondence room it carries the clock as the stored deadlines give it now, so the list
//! can put the games where this seat owes a decision first, with the time left.

use std::sync::Arc;

use axum::Json;
use axum::extract::State;
use axum::http::HeaderMap;
use evr_protocol::{ClockView, ErrorCode, Opponent, SeatState, SeatSummary, TimeControl};
use evr_rules::{ByFaction, Faction};

use super::{forfeit_reason, load, names, replay_each, seat_of_token};
use crate::app::App;
use crate::clock::CorrespondenceClock;
use crate::refusal::{ApiError, ApiPath};
use evr_store::{StoredRoom, StoredSeat};

pub async fn seat_summary(
    State(app): State<Arc<App>>,
    ApiPath(typed): ApiPath<String>,
    headers: HeaderMap,
) -> Result<Json<SeatSummary>, ApiError> {
    let token = crate::seat_api::request_token(&headers).unwrap_or_default().to_string();
    let (room, ()) = load(&app, &typed, "a seat's summary", |_, _| Ok(())).await?;
    let not_yours = || ApiError::new(ErrorCode::BadToken, "this seat token is not valid in this room");
    let seat = seat_of_token(&room, &token).ok_or_else(not_yours)?;
    summary(&app, room, seat).await.map(Json)
}

/// Where `seat` of stored `room` stands, as its player may know it.
pub(crate) async fn summary(app: &App, room: StoredRoom, seat: StoredSeat) -> Result<SeatSummary, ApiError> {
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
    let state = if engine.is_over() || game.result.is_some_and(|r| r.ended()) {
        SeatState::Over
    } else if guest_free {
        SeatState::WaitingForOpponent
    } else if engine.seats_to_act().contains(&you) {
        SeatState::YourTurn
    } else {
        SeatState::TheirTurn
    };
    let clock = match room.options.clock {
        Some(TimeControl::Correspondence(c)) if state != SeatState::Over => {
            correspondence_clock(app, &room.code, game.game_no, c.days_per_decision).await?
        }
        _ => None,
    };
    Ok(SeatSummary {
        names: names(&room, game),
        opponent,
        game_number: game.game_no,
        state,
        round: engine.round(),
        vp: ByFaction::from_fn(|f: Faction| engine.vp(f)),
        outcome: engine.outcome(),
        forfeit_winner,
        forfeit_reason: forfeit_reason(game),
        clock,
        you,
        code: room.code,
    })
}

/// A correspondence room's clock now, from the deadlines stored with its last action (`None`
/// before its game stored any).
async fn correspondence_clock(app: &App, code: &str, game_no: u32, days: u8) -> Result<Option<ClockView>, ApiError> {
    let store = app.store.clone();
    let room = code.to_string();
    let stored = tokio::task::spawn_blocking(move || store.load_deadlines(&room, game_no)).await;
    let failed = || ApiError::new(ErrorCode::StorageFailed, "cannot load the room's deadlines");
    let stored = match stored {
        Ok(Ok(stored)) => stored,
        Ok(Err(e)) => {
            tracing::error!(room = %code, error = %e, "cannot load the deadlines for a seat's summary");
            return Err(failed());
        }
        Err(e) => {
            tracing::error!(room = %code, error = %e, "the store reader stopped");
            return Err(failed());
        }
    };
    let Some(deadlines) = stored.deadlines.filter(|d| d.game_no == game_no) else {
        return Ok(None);
    };
    let clock = CorrespondenceClock::restore(days, app.config.day_ms(), deadlines.due);
    Ok(Some(clock.view(now_ms())))
}

fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}
