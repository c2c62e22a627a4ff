//! The room's games over HTTP. `GET /api/rooms/{code}/games`: the archive, every game with its
//! result (nothing of a game still being played but that it is). `GET /api/rooms/{code}/games/{n}/replay`:
//! a finished game's replay file (`proto/REPLAY.md`),
//! served once both players agreed to reveal it — the file holds every action, so every secret
//! choice of the game. It is built from the store alone (everything there is committed) and the
//! engine replays it for its result: a game still being played has no replay. Sent in one
//! response, gzipped when the client accepts it.

use std::io::Write;
use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::{IntoResponse, Response};
use evr_protocol::{ErrorCode, Fairness, GameArchive, GameSummary, RoomOptions};
use evr_replay::{FORMAT, Replay, ReplayAction, VERSION};
use evr_rules::{Game, Mode, Outcome, Viewer};
use flate2::Compression;
use flate2::write::GzEncoder;

use crate::app::App;
use crate::fairness::{self, GameSecret};
use crate::http::ApiError;
use crate::secrets;
use crate::store::{Store, StoreError, StoredGame};

pub async fn replay(
    State(app): State<Arc<App>>,
    Path((typed, game_no)): Path<(String, u32)>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let (code, options, game) = load(&app, &typed, "a replay", move |store, code| {
        store.load_game(code, game_no)
    })
    .await?;
    let game =
        game.ok_or_else(|| ApiError::new(ErrorCode::GameNotFound, format!("room {code} has no game {game_no}")))?;
    let file = build(&code, &options, game)?;
    let json =
        serde_json::to_vec(&file).map_err(|_| ApiError::new(ErrorCode::StorageFailed, "cannot write the replay"))?;
    let mut response_headers = HeaderMap::new();
    response_headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    response_headers.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    if let Ok(v) = HeaderValue::from_str(&format!("attachment; filename=\"evr-{code}-game-{game_no}.json\"")) {
        response_headers.insert(header::CONTENT_DISPOSITION, v);
    }
    let accepts = headers
        .get(header::ACCEPT_ENCODING)
        .and_then(|v| v.to_str().ok())
        .is_some_and(crate::client::accepts_gzip);
    if accepts && let Some(gz) = gzip(&json) {
        response_headers.insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
        return Ok((response_headers, gz).into_response());
    }
    Ok((response_headers, json).into_response())
}

/// `GET /api/rooms/{code}/games`: the room's games, oldest first.
pub async fn archive(State(app): State<Arc<App>>, Path(typed): Path<String>) -> Result<Json<GameArchive>, ApiError> {
    let (code, options, games) = load(&app, &typed, "the archive", |store, code| {
        let mut games = Vec::new();
        for n in store.game_numbers(code)? {
            games.extend(store.load_game(code, n)?);
        }
        Ok(games)
    })
    .await?;
    let games = games
        .iter()
        .map(|g| summary(&code, &options, g))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Json(GameArchive { code, games }))
}

/// Room `typed`'s code and options and what `read` takes from the store for it, read off the async
/// threads; `room_not_found` for a room that does not exist, `storage_failed` (logged) if the store fails.
async fn load<T: Send + 'static>(
    app: &App,
    typed: &str,
    what: &'static str,
    read: impl FnOnce(&dyn Store, &str) -> Result<T, StoreError> + Send + 'static,
) -> Result<(String, RoomOptions, T), ApiError> {
    let no_room = || ApiError::new(ErrorCode::RoomNotFound, "no such room");
    let code = secrets::canonical_room_code(typed).ok_or_else(no_room)?;
    let store = app.store.clone();
    let lookup = code.clone();
    let loaded = tokio::task::spawn_blocking(move || match store.load_room(&lookup)? {
        Some(room) => Ok(Some((room.options, read(store.as_ref(), &lookup)?))),
        None => Ok::<_, StoreError>(None),
    })
    .await;
    match loaded {
        Ok(Ok(Some((options, found)))) => Ok((code, options, found)),
        Ok(Ok(None)) => Err(no_room()),
        Ok(Err(e)) => {
            tracing::error!(room = %code, error = %e, what, "cannot load from the store");
            Err(ApiError::new(ErrorCode::StorageFailed, "cannot load the room's games"))
        }
        Err(e) => {
            tracing::error!(room = %code, error = %e, what, "the store reader stopped");
            Err(ApiError::new(ErrorCode::StorageFailed, "cannot load the room's games"))
        }
    }
}

fn gzip(bytes: &[u8]) -> Option<Vec<u8>> {
    let mut encoder = GzEncoder::new(Vec::with_capacity(bytes.len() / 4), Compression::best());
    encoder.write_all(bytes).ok()?;
    encoder.finish().ok()
}

/// How a stored game ended by the rules, replayed from its seed and actions (`None`: not by the
/// rules — still being played, or a claimed win).
fn rules_outcome(code: &str, mode: Mode, game: &StoredGame) -> Result<Option<Outcome>, ApiError> {
    let damaged = |why: String| {
        tracing::error!(room = %code, game = game.game_no, why, "a stored game does not replay");
        ApiError::new(ErrorCode::StorageFailed, "the stored game does not replay")
    };
    let mut engine = Game::with_seed(mode, game.secret.game_seed()).map_err(|e| damaged(e.to_string()))?;
    for a in &game.actions {
        engine.apply(a.seat, a.action).map_err(|e| damaged(e.to_string()))?;
    }
    Ok(engine.view(Viewer::Spectator).outcome)
}

/// Whether both players agreed to reveal `game`: each by `reveal_replay`, or all at once by joining
/// a room created to reveal every game at its end.
fn revealed(options: &RoomOptions, game: &StoredGame) -> bool {
    options.reveal_at_end || (game.reveal.rebel && game.reveal.imperial)
}

/// One line of the archive.
fn summary(code: &str, options: &RoomOptions, game: &StoredGame) -> Result<GameSummary, ApiError> {
    let outcome = rules_outcome(code, options.mode, game)?;
    let forfeit_winner = game.result.and_then(|r| r.forfeit_winner);
    let over = outcome.is_some() || forfeit_winner.is_some();
    Ok(GameSummary {
        number: game.game_no,
        started_at: game.started_at,
        over,
        outcome,
        forfeit_winner,
        replay_available: over && matches!(game.secret, GameSecret::Committed { .. }) && revealed(options, game),
    })
}

/// The replay file of a stored game, or why there is none to serve.
fn build(code: &str, options: &RoomOptions, game: StoredGame) -> Result<Replay, ApiError> {
    let GameSecret::Committed { key, salt } = game.secret else {
        return Err(ApiError::new(
            ErrorCode::ReplayUnavailable,
            "this game was played before commitments existed: it has no verifiable replay",
        ));
    };
    let outcome = rules_outcome(code, options.mode, &game)?;
    let forfeit_winner = game.result.and_then(|r| r.forfeit_winner);
    if outcome.is_none() && forfeit_winner.is_none() {
        return Err(ApiError::new(
            ErrorCode::GameNotOver,
            "this game is being played: watch it live; its replay comes when it is over",
        ));
    }
    if !revealed(options, &game) {
        return Err(ApiError::new(
            ErrorCode::ReplayNotRevealed,
            "the replay shows everything: both players must agree to reveal it",
        ));
    }
    Ok(Replay {
        format: FORMAT.into(),
        version: VERSION,
        room: code.to_string(),
        game_number: game.game_no,
        mode: options.mode,
        creator_faction: game.creator_faction,
        fairness: Fairness {
            commitment: fairness::hex(&fairness::commitment(&key, &salt)),
            seed: Some(fairness::hex(&key)),
            salt: Some(fairness::hex(&salt)),
        },
        start_seq: game.start_seq,
        actions: game
            .actions
            .iter()
            .map(|a| ReplayAction {
                seq: a.seq,
                seat: a.seat,
                action: a.action,
            })
            .collect(),
        outcome,
        forfeit_winner,
    })
}
