//! `GET /api/account/friends/{username}/record`: the record between the asking account and a
//! friend — games won, lost, drawn and unfinished, by the side the asker played — and their latest
//! games. Built from the store alone: the rooms both accounts keep a seat of (the asker's seat and
//! the other seat kept by the friend), every game of each, its end decided as the archive decides
//! it (`replay::game_summary`: the engine replays the game; a forfeit's winner is stored with it).
//! At most [`SHARED_ROOMS`] rooms (the asker's latest kept) are read, so that one request costs a
//! bounded number of replays.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::Json;
use axum::extract::{ConnectInfo, State};
use axum::http::HeaderMap;
use evr_protocol::{ErrorCode, GameEnd, GameSummary, HEAD_TO_HEAD_GAMES, HeadToHead, Record, SharedGame};
use evr_rules::Faction;
use evr_store::StoredSeat;

use super::{signed_in, stored};
use crate::app::App;
use crate::refusal::{ApiError, ApiPath};

/// The shared rooms read at most (the asker's latest kept first).
const SHARED_ROOMS: usize = 50;

/// How game `summary` ended for the player of `you`.
fn end_for(summary: &GameSummary, you: Faction) -> GameEnd {
    if !summary.over {
        return GameEnd::Unfinished;
    }
    let winner = summary
        .forfeit_winner
        .or_else(|| summary.outcome.and_then(|o| o.winner));
    match winner {
        Some(w) if w == you => GameEnd::Won,
        Some(_) => GameEnd::Lost,
        None => GameEnd::Drawn,
    }
}

fn count(record: &mut Record, end: GameEnd) {
    let n = match end {
        GameEnd::Won => &mut record.won,
        GameEnd::Lost => &mut record.lost,
        GameEnd::Drawn => &mut record.drawn,
        GameEnd::Unfinished => &mut record.unfinished,
    };
    *n += 1;
}

pub async fn head_to_head(
    State(app): State<Arc<App>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    ApiPath(username): ApiPath<String>,
    headers: HeaderMap,
) -> Result<Json<HeadToHead>, ApiError> {
    let me = signed_in(&app, addr.ip(), &headers).await?;
    let account = me.account;
    let record = stored(&app, "cannot read the record", move |s| {
        let (friend, username) = s.named(&username, &account)?;
        if !s.ok(s.friends.are_friends(&account, &friend))? {
            return Err(ApiError::new(
                ErrorCode::NotFriends,
                "the record is shown between friends only",
            ));
        }
        let mut record = HeadToHead {
            username,
            as_rebel: Record::default(),
            as_imperial: Record::default(),
            last_games: Vec::new(),
        };
        let mut shared = 0;
        for kept in s.ok(s.accounts.account_seats(&account))? {
            let other_seat = match kept.seat {
                StoredSeat::Creator => StoredSeat::Guest,
                StoredSeat::Guest => StoredSeat::Creator,
            };
            if s.ok(s.accounts.seat_account(&kept.code, other_seat))? != Some(friend) {
                continue;
            }
            shared += 1;
            if shared > SHARED_ROOMS {
                break;
            }
            let Some(room) = s.ok(s.rooms.load_room(&kept.code))? else {
                continue;
            };
            for n in s.ok(s.rooms.game_numbers(&kept.code))? {
                let Some(game) = s.ok(s.rooms.load_game(&kept.code, n))? else {
                    continue;
                };
                let you = match kept.seat {
                    StoredSeat::Creator => game.creator_faction,
                    StoredSeat::Guest => game.creator_faction.opponent(),
                };
                let summary = crate::replay::game_summary(&room, &game)?;
                let end = end_for(&summary, you);
                count(
                    match you {
                        Faction::Rebel => &mut record.as_rebel,
                        Faction::Imperial => &mut record.as_imperial,
                    },
                    end,
                );
                record.last_games.push(SharedGame {
                    code: room.code.clone(),
                    game_number: n,
                    started_at: game.started_at,
                    you,
                    end,
                });
            }
        }
        // newest first: by start, then (for games stored without a date) by room and number
        record.last_games.sort_by(|a, b| {
            b.started_at
                .cmp(&a.started_at)
                .then_with(|| b.game_number.cmp(&a.game_number))
        });
        record.last_games.truncate(HEAD_TO_HEAD_GAMES);
        Ok(record)
    })
    .await?;
    Ok(Json(record))
}
