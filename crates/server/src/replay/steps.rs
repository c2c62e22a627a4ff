//! `GET /api/rooms/{code}/games/{n}/steps?eyes=spectator|seat|everything`: a finished game step by
//! step for the replay page — the engine replays the stored actions and projects every step for
//! one viewer, exactly as live play projects each update:
//!
//! - `spectator` (the default): public information only, for anyone with the room's code (only its
//!   players, with a seat's token, when the room allows no spectators: `players_only`). Its bytes
//!   depend on nothing a spectator may not know (`tests/server/replays.rs` proves it);
//! - `seat`: the requesting player's own seat in that game (their seat token in
//!   `Authorization: Bearer …`; sides swap at a rematch, so the game says which side it was);
//! - `everything`: both sides' secrets and the decks' order, only once both players agreed.

use std::collections::HashMap;
use std::sync::Arc;

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use evr_protocol::{ErrorCode, ReplayEyes, ReplayStep, ReplaySteps};
use evr_rules::{Faction, Viewer};

use super::{is_over, json_response, load_game, not_over, players_only, replay_each, revealed};
use crate::app::App;
use crate::refusal::{ApiError, ApiPath, ApiQuery};
use evr_store::{StoredGame, StoredRoom, StoredSeat};

pub async fn steps(
    State(app): State<Arc<App>>,
    ApiPath((typed, game_no)): ApiPath<(String, String)>,
    ApiQuery(query): ApiQuery<HashMap<String, String>>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let eyes = match query.get("eyes").map(String::as_str) {
        None | Some("spectator") => ReplayEyes::Spectator,
        Some("seat") => ReplayEyes::Seat,
        Some("everything") => ReplayEyes::Everything,
        Some(other) => {
            return Err(ApiError::new(
                ErrorCode::BadMessage,
                format!("eyes={other:?}: ask for spectator, seat or everything"),
            ));
        }
    };
    let (room, game) = load_game(&app, &typed, &game_no, "a replay's steps").await?;
    players_only(&room, &headers)?;
    let your_faction = crate::seat_api::request_token(&headers).and_then(|t| faction_of_token(&room, &game, t));
    let body = build(&room, game, eyes, your_faction)?;
    json_response(&body, &headers, None)
}

/// The side the holder of `token` played in `game` (sides swap at each rematch).
fn faction_of_token(room: &StoredRoom, game: &StoredGame, token: &str) -> Option<Faction> {
    super::seat_of_token(room, token).map(|seat| match seat {
        StoredSeat::Creator => game.creator_faction,
        StoredSeat::Guest => game.creator_faction.opponent(),
    })
}

/// Every step of a finished game through `eyes`, or why it is refused.
fn build(
    room: &StoredRoom,
    game: StoredGame,
    eyes: ReplayEyes,
    your_faction: Option<Faction>,
) -> Result<ReplaySteps, ApiError> {
    let revealed = revealed(&room.options, &game);
    let viewer = match eyes {
        ReplayEyes::Spectator => Viewer::Spectator,
        ReplayEyes::Seat => Viewer::Seat(your_faction.ok_or_else(|| {
            ApiError::new(
                ErrorCode::BadToken,
                "a seat's replay needs that seat's token: you played no side of this game",
            )
        })?),
        ReplayEyes::Everything if revealed => Viewer::Omniscient,
        ReplayEyes::Everything => {
            return Err(ApiError::new(
                ErrorCode::ReplayNotRevealed,
                "everything is shown only once both players agreed to reveal the game",
            ));
        }
    };
    let mut steps = Vec::with_capacity(game.actions.len() + 1);
    let start_seq = game.start_seq;
    let end = replay_each(&room.code, room.options.mode, &game, |engine, acted| {
        let mut view = engine.view(viewer);
        let log = match acted {
            // the setup's entries (the first event, the balance token) belong to the start
            None => std::mem::take(&mut view.log),
            Some((_, _, events)) => events.iter().map(|e| e.project(viewer)).collect(),
        };
        // the log so far is the steps' logs; nothing is to be decided in a replay
        view.log.clear();
        view.legal_actions.clear();
        let (seq, seat) = acted.map_or((start_seq, None), |(seq, seat, _)| (seq, Some(seat)));
        steps.push(ReplayStep { seq, seat, view, log });
    })?;
    let outcome = end.outcome();
    if !is_over(outcome, &game) {
        return Err(not_over());
    }
    Ok(ReplaySteps {
        code: room.code.clone(),
        game_number: game.game_no,
        mode: room.options.mode,
        viewer,
        your_faction,
        revealed,
        fairness: crate::fairness::public(&game.secret, true),
        outcome,
        forfeit_winner: game.result.and_then(|r| r.forfeit_winner),
        forfeit_reason: super::forfeit_reason(&game),
        names: super::names(room, &game),
        steps,
    })
}
