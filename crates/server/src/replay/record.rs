//! A seat's record, for its account's data (`GET /api/account/export`): each game of the room as
//! the archive shows it, the side the seat played, the seat's own actions, the whole replay file
//! where both players agreed to reveal it, and the seat's chat lines. Nothing the seat's player
//! could not see: the opponent's actions only in a revealed replay.

use serde_json::json;

use super::{file, load};
use crate::app::App;
use crate::refusal::ApiError;
use evr_protocol::{ChatAuthor, ErrorCode};
use evr_rules::Faction;
use evr_store::{StoredGame, StoredSeat};

/// The record of `seat` in room `code` as JSON.
pub(crate) async fn seat_record(app: &App, code: &str, seat: StoredSeat) -> Result<serde_json::Value, ApiError> {
    let (room, games) = load(app, code, "a seat's record", |store, code| {
        let mut games = Vec::new();
        for n in store.game_numbers(code)? {
            games.extend(store.load_game(code, n)?);
        }
        Ok(games)
    })
    .await?;
    let side = |game: &StoredGame| -> Faction {
        match seat {
            StoredSeat::Creator => game.creator_faction,
            StoredSeat::Guest => game.creator_faction.opponent(),
        }
    };
    let mut records = Vec::with_capacity(games.len());
    for game in &games {
        let you = side(game);
        let own: Vec<_> = game
            .actions
            .iter()
            .filter(|a| a.seat == you)
            .map(|a| json!({ "seq": a.seq, "action": a.action }))
            .collect();
        let replay = match file::build(&room.code, &room.options, game.clone()) {
            Ok(mut replay) => {
                replay.names = super::names(&room, game);
                Some(replay)
            }
            // not over, not revealed, or from before commitments: the seat's own actions only
            Err(_) => None,
        };
        records.push(json!({
            "summary": super::archive::summary(&room, game)?,
            "you": you,
            "your_actions": own,
            "replay": replay,
        }));
    }
    let chat: Vec<_> = room
        .chat
        .iter()
        .filter(|c| match &c.message.from {
            ChatAuthor::Seat(f) => games
                .iter()
                .find(|g| g.game_no == c.message.game)
                .is_some_and(|g| side(g) == *f),
            ChatAuthor::Spectator(_) => false,
        })
        .map(|c| &c.message)
        .collect();
    serde_json::to_value(json!({
        "code": room.code,
        "seat": seat.as_str(),
        "options": room.options,
        "games": records,
        "your_chat": chat,
    }))
    .map_err(|e| ApiError::internal(ErrorCode::StorageFailed, "cannot write the record", &e))
}
