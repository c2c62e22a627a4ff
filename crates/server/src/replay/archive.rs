//! `GET /api/rooms/{code}/games`: the room's games, oldest first, each with its result replayed by
//! the engine; a game being played says only that it is. A room without spectators answers its
//! players only (`players_only`).

use std::sync::Arc;

use axum::Json;
use axum::extract::State;
use axum::http::HeaderMap;
use evr_protocol::{GameArchive, GameSummary};

use super::{is_over, load, players_only, revealed, rules_outcome};
use crate::app::App;
use crate::fairness::GameSecret;
use crate::refusal::{ApiError, ApiPath};
use evr_store::{StoredGame, StoredRoom};

pub async fn archive(
    State(app): State<Arc<App>>,
    ApiPath(typed): ApiPath<String>,
    headers: HeaderMap,
) -> Result<Json<GameArchive>, ApiError> {
    let (room, games) = load(&app, &typed, "the archive", |store, code| {
        let mut games = Vec::new();
        for n in store.game_numbers(code)? {
            games.extend(store.load_game(code, n)?);
        }
        Ok(games)
    })
    .await?;
    players_only(&room, &headers)?;
    let games = games.iter().map(|g| summary(&room, g)).collect::<Result<Vec<_>, _>>()?;
    Ok(Json(GameArchive { code: room.code, games }))
}

/// One line of the archive.
pub(crate) fn summary(room: &StoredRoom, game: &StoredGame) -> Result<GameSummary, ApiError> {
    let options = &room.options;
    let outcome = rules_outcome(&room.code, options.mode, game)?;
    let over = is_over(outcome, game);
    Ok(GameSummary {
        number: game.game_no,
        started_at: game.started_at,
        over,
        outcome,
        forfeit_winner: game.result.and_then(|r| r.forfeit_winner),
        forfeit_reason: super::forfeit_reason(game),
        replay_available: over && matches!(game.secret, GameSecret::Committed { .. }) && revealed(options, game),
        names: super::names(room, game),
    })
}
