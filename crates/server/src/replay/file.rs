//! `GET /api/rooms/{code}/games/{n}/replay`: a finished game's replay file (`proto/REPLAY.md`),
//! served once both players agreed to reveal it — the file holds every action, so every secret
//! choice of the game — to anyone with the room's code, or only to its players (a seat's token)
//! when the room allows no spectators (`players_only`).

use std::sync::Arc;

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use evr_protocol::{ErrorCode, Fairness, RoomOptions};
use evr_replay::{FORMAT, Replay, ReplayAction, VERSION};
use evr_rules::ByFaction;

use super::{is_over, json_response, load_game, not_over, players_only, revealed, rules_outcome};
use crate::app::App;
use crate::fairness::{self, GameSecret};
use crate::refusal::{ApiError, ApiPath};
use evr_store::{GameResult, StoredGame};

pub async fn replay(
    State(app): State<Arc<App>>,
    ApiPath((typed, game_no)): ApiPath<(String, String)>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let (room, game) = load_game(&app, &typed, &game_no, "a replay").await?;
    players_only(&room, &headers)?;
    let names = super::names(&room, &game);
    let number = game.game_no;
    let mut file = build(&room.code, &room.options, game)?;
    file.names = names;
    json_response(&file, &headers, Some(format!("evr-{}-game-{number}.json", room.code)))
}

/// The replay file of a stored game, or why there is none to serve.
pub(crate) fn build(code: &str, options: &RoomOptions, game: StoredGame) -> Result<Replay, ApiError> {
    let GameSecret::Committed { key, salt } = game.secret else {
        return Err(ApiError::new(
            ErrorCode::ReplayUnavailable,
            "this game was played before commitments existed: it has no verifiable replay",
        ));
    };
    let outcome = rules_outcome(code, options.mode, &game)?;
    if !is_over(outcome, &game) {
        return Err(not_over());
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
        forfeit_winner: game.result.and_then(|r| r.forfeit_winner),
        forfeit_reason: game.result.filter(GameResult::ended).map(|r| r.reason),
        names: ByFaction::default(),
    })
}
