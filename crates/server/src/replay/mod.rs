//! The room's finished games over HTTP, all built from the store alone (everything there is
//! committed) and replayed by the engine — never from a second copy of the truth:
//!
//! - `GET /api/rooms/{code}/games`: the archive, every game with its result (nothing of a game
//!   still being played but that it is) — `archive.rs`;
//! - `GET /api/rooms/{code}/games/{n}/steps?eyes=…`: a finished game step by step, as a spectator,
//!   as the requesting player's own seat, or (once both players agreed) with everything shown —
//!   `steps.rs`, for the replay page;
//! - `GET /api/rooms/{code}/games/{n}/replay`: the replay file (`proto/REPLAY.md`), once both
//!   players agreed to reveal the game — `file.rs`;
//! - `GET /api/rooms/{code}/seat`: where a seat's current game stands, for the list of a
//!   device's rooms — `seat.rs`.
//!
//! A game still being played has neither steps nor a file: live spectators watch it live. Each
//! answer is one response, gzipped when the client accepts it.

mod archive;
mod file;
mod record;
mod seat;
mod steps;

use std::io::Write;
use std::sync::Arc;

use axum::extract::{ConnectInfo, Request, State};
use axum::http::{HeaderMap, HeaderValue, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use evr_protocol::{ErrorCode, Opponent, RoomOptions, SpectatorPolicy};
use evr_rules::{ByFaction, Faction, Game, Mode, Outcome, Viewer};
use flate2::Compression;
use flate2::write::GzEncoder;
use serde::Serialize;

pub use self::archive::archive;
pub(crate) use self::archive::summary as game_summary;
pub use self::file::replay;
pub(crate) use self::record::seat_record;
pub use self::seat::seat_summary;
pub(crate) use self::seat::summary;
pub use self::steps::steps;

use crate::app::App;
use crate::refusal::ApiError;
use crate::secrets;
use evr_store::{GameResult, Store, StoreError, StoredGame, StoredRoom, StoredSeat};

/// Room `typed`'s stored room (its code canonical) and what `read` takes from the store for it,
/// read off the async threads; `room_not_found` for a room that does not exist, `storage_failed`
/// (logged) if the store fails.
/// Every route here plays a whole game again from the store: a client has `--replays-per-minute`
/// of them (`429 rate_limited` past it), so that a cheap request cannot cost the server a game's
/// work without end.
pub async fn bounded(
    State(app): State<Arc<App>>,
    ConnectInfo(addr): ConnectInfo<std::net::SocketAddr>,
    req: Request,
    next: Next,
) -> Response {
    if app
        .replay_limiter
        .check_key(&crate::listen::client_key(addr.ip()))
        .is_err()
    {
        return ApiError::new(ErrorCode::RateLimited, "too many replays; wait a minute").into_response();
    }
    next.run(req).await
}

pub(crate) async fn load<T: Send + 'static>(
    app: &App,
    typed: &str,
    what: &'static str,
    read: impl FnOnce(&dyn Store, &str) -> Result<T, StoreError> + Send + 'static,
) -> Result<(StoredRoom, T), ApiError> {
    let no_room = || ApiError::new(ErrorCode::RoomNotFound, "no such room");
    let code = secrets::canonical_room_code(typed).ok_or_else(no_room)?;
    let store = app.store.clone();
    let lookup = code.clone();
    let loaded = tokio::task::spawn_blocking(move || match store.load_room(&lookup)? {
        Some(room) => Ok(Some((room, read(store.as_ref(), &lookup)?))),
        None => Ok::<_, StoreError>(None),
    })
    .await;
    match loaded {
        Ok(Ok(Some(found))) => Ok(found),
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

/// Game `game_no` of room `typed`, with the room: `game_not_found` when the room has no such game.
async fn load_game(
    app: &App,
    typed: &str,
    game_no: &str,
    what: &'static str,
) -> Result<(StoredRoom, StoredGame), ApiError> {
    // the address's game number as typed: anything but 1, 2, 3… names no game
    let game_no: u32 = game_no.parse().map_err(|_| {
        ApiError::new(
            ErrorCode::GameNotFound,
            format!("games are numbered 1, 2, 3…: {game_no:?} is not one"),
        )
    })?;
    let (room, game) = load(app, typed, what, move |store, code| store.load_game(code, game_no)).await?;
    let game = game.ok_or_else(|| {
        ApiError::new(
            ErrorCode::GameNotFound,
            format!("room {} has no game {game_no}", room.code),
        )
    })?;
    Ok((room, game))
}

/// `value` as a JSON response, gzipped when the request's `Accept-Encoding` allows it;
/// `attachment` names the file a browser saves it as.
fn json_response(
    value: &impl Serialize,
    request: &HeaderMap,
    attachment: Option<String>,
) -> Result<Response, ApiError> {
    let json =
        serde_json::to_vec(value).map_err(|_| ApiError::new(ErrorCode::StorageFailed, "cannot write the answer"))?;
    let mut headers = HeaderMap::new();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    headers.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    if let Some(name) = attachment
        && let Ok(v) = HeaderValue::from_str(&format!("attachment; filename=\"{name}\""))
    {
        headers.insert(header::CONTENT_DISPOSITION, v);
    }
    let accepts = request
        .get(header::ACCEPT_ENCODING)
        .and_then(|v| v.to_str().ok())
        .is_some_and(crate::client::accepts_gzip);
    if accepts && let Some(gz) = gzip(&json) {
        headers.insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
        return Ok((headers, gz).into_response());
    }
    Ok((headers, json).into_response())
}

fn gzip(bytes: &[u8]) -> Option<Vec<u8>> {
    let mut encoder = GzEncoder::new(Vec::with_capacity(bytes.len() / 4), Compression::best());
    encoder.write_all(bytes).ok()?;
    encoder.finish().ok()
}

/// A stored game that does not replay: logged, and `storage_failed` for the client.
fn damaged(code: &str, game: &StoredGame, why: String) -> ApiError {
    tracing::error!(room = %code, game = game.game_no, why, "a stored game does not replay");
    ApiError::new(ErrorCode::StorageFailed, "the stored game does not replay")
}

/// Replays a stored game from its seed and actions, calling `each` with the game as it started
/// (no action) and after every action (its seat and the events it produced).
fn replay_each(
    code: &str,
    mode: Mode,
    game: &StoredGame,
    mut each: impl FnMut(&Game, Option<(u32, Faction, &[evr_rules::Event])>),
) -> Result<Game, ApiError> {
    let mut engine = Game::with_seed(mode, game.secret.game_seed()).map_err(|e| damaged(code, game, e.to_string()))?;
    each(&engine, None);
    for a in &game.actions {
        let events = engine
            .apply(a.seat, a.action)
            .map_err(|e| damaged(code, game, e.to_string()))?;
        each(&engine, Some((a.seq, a.seat, &events)));
    }
    Ok(engine)
}

/// How a stored game ended by the rules (`None`: not by the rules — still being played, or a
/// claimed win).
fn rules_outcome(code: &str, mode: Mode, game: &StoredGame) -> Result<Option<Outcome>, ApiError> {
    Ok(replay_each(code, mode, game, |_, _| {})?
        .view(Viewer::Spectator)
        .outcome)
}

/// A room that allows no spectators keeps its games to its players, during play and after: its
/// archive and replays answer only a request with one of its seats' tokens (the code alone, which
/// may have been seen over a shoulder or in a link, is `spectators_not_allowed`, as on the
/// WebSocket).
fn players_only(room: &StoredRoom, headers: &HeaderMap) -> Result<(), ApiError> {
    if room.options.spectators == SpectatorPolicy::AnyoneWithLink
        || crate::seat_api::request_token(headers).is_some_and(|t| seat_of_token(room, t).is_some())
    {
        return Ok(());
    }
    Err(ApiError::new(
        ErrorCode::SpectatorsNotAllowed,
        "this room does not allow spectators: its games are shown to its players (with a seat's token)",
    ))
}

/// The seat of a stored room that `token` holds (from its first device or one it was moved to).
pub fn seat_of_token(room: &StoredRoom, token: &str) -> Option<StoredSeat> {
    if secrets::token_matches(token, &room.creator_hash) {
        return Some(StoredSeat::Creator);
    }
    if room
        .guest_hash
        .as_deref()
        .is_some_and(|h| secrets::token_matches(token, h))
    {
        return Some(StoredSeat::Guest);
    }
    room.devices
        .iter()
        .find(|d| secrets::token_matches(token, &d.token_hash))
        .map(|d| d.seat)
}

/// The players' display names in `game`, by the side each played (sides swap at each rematch).
fn names(room: &StoredRoom, game: &StoredGame) -> ByFaction<Option<String>> {
    ByFaction::from_fn(|f| {
        if f == game.creator_faction {
            room.creator_name.clone()
        } else {
            room.guest_name.clone()
        }
    })
}

/// Whether a game with this result is over (by the rules, or by a claimed win).
fn is_over(outcome: Option<Outcome>, game: &StoredGame) -> bool {
    outcome.is_some() || game.result.is_some_and(|r| r.ended())
}

/// Why a game was won outside the rules, if it was.
fn forfeit_reason(game: &StoredGame) -> Option<evr_protocol::ForfeitReason> {
    game.result.filter(GameResult::ended).map(|r| r.reason)
}

/// The refusal for a game still being played.
fn not_over() -> ApiError {
    ApiError::new(
        ErrorCode::GameNotOver,
        "this game is being played: watch it live; its replay comes when it is over",
    )
}

/// Which sides agreed to reveal a game whose creator played `creator_faction` and whose players'
/// stored agreements are `stored`: each by `reveal_replay`; both at once in a room created to
/// reveal every game at its end; and the computer opponent (the guest's seat) once the game is
/// over — it has nothing to hide, and a player alone against it could otherwise never reveal.
pub fn agreed(options: &RoomOptions, creator_faction: Faction, stored: ByFaction<bool>, over: bool) -> ByFaction<bool> {
    if options.reveal_at_end {
        return ByFaction::splat(true);
    }
    let computer = matches!(options.opponent, Some(Opponent::Computer { .. }));
    ByFaction::from_fn(|f| stored[f] || (computer && over && f != creator_faction))
}

/// Whether both players agreed to reveal finished `game` (`agreed`).
fn revealed(options: &RoomOptions, game: &StoredGame) -> bool {
    let both = agreed(options, game.creator_faction, game.reveal, true);
    both.rebel && both.imperial
}
