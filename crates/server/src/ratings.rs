//! Ratings as everyone may read them (proto/PROTOCOL.md, *Ratings*): a player's page — the rating
//! today, the counts, the rated games with what each changed — and the leaderboard of established
//! players, with the side edge every rated game uses. Public, as lichess's are, and counted against
//! the account routes' limit per client address. How games are rated is the rooms'
//! (`room/ratings.rs`) and the store's (`evr_store::rate`); this module only reads.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::{ConnectInfo, State};
use axum::routing::get;
use axum::{Json, Router};
use evr_protocol::{
    ErrorCode, GameEnd, LEADERBOARD_MIN_GAMES, LEADERBOARD_PATH, LEADERBOARD_PLAYERS, Leaderboard, LeaderboardEntry,
    PLAYER_PAGE_GAMES, PLAYER_PATH, PlayerPage, RatedGame, RatingShown, SideEdge,
};
use evr_ratings::Rating;
use evr_rules::Faction;
use evr_store::{AccountId, AccountStore, RatingRow, RatingStore, StoreError};

use crate::accounts::now_ms;
use crate::app::App;
use crate::refusal::{ApiError, ApiPath};

/// The public ratings' routes.
pub fn routes() -> Router<Arc<App>> {
    Router::new()
        .route(PLAYER_PATH, get(player))
        .route(LEADERBOARD_PATH, get(leaderboard))
}

/// A rating as people read it.
pub(crate) fn shown(r: &Rating) -> RatingShown {
    RatingShown {
        rating: r.rating.round() as i32,
        deviation: r.deviation.round() as i32,
        provisional: evr_ratings::is_provisional(r),
    }
}

/// The side edge rated games use, as the leaderboard explains it.
fn side_edge() -> SideEdge {
    let measured = evr_ratings::MEASURED;
    let points = measured.advantage().rebel_points;
    SideEdge {
        favoured: if points > 0.0 {
            Some(Faction::Rebel)
        } else if points < 0.0 {
            Some(Faction::Imperial)
        } else {
            None
        },
        points: points.abs().round() as i32,
        measured_score: measured.rebel_score(),
        measured_games: measured.games,
    }
}

fn not_found() -> ApiError {
    ApiError::new(ErrorCode::PlayerNotFound, "no player has this username")
}

/// `GET /api/players/{username}`.
async fn player(
    State(app): State<Arc<App>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    ApiPath(username): ApiPath<String>,
) -> Result<Json<PlayerPage>, ApiError> {
    crate::accounts::offered(&app, addr.ip())?;
    let store = app.store.clone();
    let now = now_ms();
    let page = tokio::task::spawn_blocking(move || -> Result<PlayerPage, ApiError> {
        let failed = |e: StoreError| ApiError::internal(ErrorCode::StorageFailed, "cannot read the ratings", &e);
        let (Some(accounts), Some(ratings)) = (store.accounts(), store.ratings()) else {
            return Err(ApiError::new(
                ErrorCode::AccountsDisabled,
                "this server keeps no ratings",
            ));
        };
        let key = crate::accounts::username::key(username.trim());
        let account = accounts
            .account_by_username_key(&key)
            .map_err(failed)?
            .ok_or_else(not_found)?;
        let username = account.username.ok_or_else(not_found)?;
        page_of(accounts, ratings, &account.id, username, now, PLAYER_PAGE_GAMES as u32).map_err(failed)
    })
    .await
    .map_err(|e| ApiError::internal(ErrorCode::StorageFailed, "cannot read the ratings", &e))??;
    Ok(Json(page))
}

/// The page of `account` (called `username`) at `now`, with its latest `games` rated games: the
/// public page, and the account's own data download (every rated game).
pub(crate) fn page_of(
    accounts: &dyn AccountStore,
    ratings: &dyn RatingStore,
    account_id: &AccountId,
    username: String,
    now: i64,
    games: u32,
) -> Result<PlayerPage, StoreError> {
    let row = ratings
        .rating(account_id)?
        .unwrap_or_else(|| RatingRow::new(*account_id, now));
    let today = row.today(now);
    let mut names: HashMap<AccountId, Option<String>> = HashMap::new();
    let mut history = Vec::new();
    for game in ratings.rated_games(account_id, games)? {
        let side = if game.accounts.rebel == *account_id {
            Faction::Rebel
        } else {
            Faction::Imperial
        };
        let other = game.accounts[side.opponent()];
        let opponent = match names.get(&other) {
            Some(name) => name.clone(),
            None => {
                let name = accounts.account(&other)?.and_then(|a| a.username);
                names.insert(other, name.clone());
                name
            }
        };
        let after = game.after[side].rating.round() as i32;
        history.push(RatedGame {
            code: game.code,
            game_number: game.game_no,
            ended_at_ms: game.rated_at,
            side,
            opponent,
            opponent_rating: game.before[side.opponent()].rating.round() as i32,
            result: match game.winner {
                Some(w) if w == side => GameEnd::Won,
                Some(_) => GameEnd::Lost,
                None => GameEnd::Drawn,
            },
            rating_after: after,
            change: after - game.before[side].rating.round() as i32,
        });
    }
    Ok(PlayerPage {
        username,
        rating: shown(&today),
        rated_games: row.games,
        won: row.won,
        lost: row.lost,
        drawn: row.drawn,
        established: evr_ratings::is_established(&today) && row.games >= LEADERBOARD_MIN_GAMES,
        history,
    })
}

/// `GET /api/leaderboard`: the established players (deviation ≤ 75 today, at least
/// [`LEADERBOARD_MIN_GAMES`] rated games), the highest first.
async fn leaderboard(
    State(app): State<Arc<App>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
) -> Result<Json<Leaderboard>, ApiError> {
    crate::accounts::offered(&app, addr.ip())?;
    let store = app.store.clone();
    let now = now_ms();
    let rows = tokio::task::spawn_blocking(move || {
        store.ratings().map(|r| {
            // more than are shown: some have been away long enough to leave the board today
            r.leaderboard(
                LEADERBOARD_MIN_GAMES,
                evr_ratings::ESTABLISHED_AT,
                4 * LEADERBOARD_PLAYERS as u32,
            )
        })
    })
    .await
    .map_err(|e| ApiError::internal(ErrorCode::StorageFailed, "cannot read the leaderboard", &e))?;
    let rows = match rows {
        Some(Ok(rows)) => rows,
        Some(Err(e)) => {
            return Err(ApiError::internal(
                ErrorCode::StorageFailed,
                "cannot read the leaderboard",
                &e,
            ));
        }
        None => {
            return Err(ApiError::new(
                ErrorCode::AccountsDisabled,
                "this server keeps no ratings",
            ));
        }
    };
    let mut players: Vec<(Rating, RatingRow, String)> = rows
        .into_iter()
        .map(|(row, name)| (row.today(now), row, name))
        .filter(|(today, _, _)| evr_ratings::is_established(today))
        .collect();
    players.sort_by(|a, b| b.0.rating.total_cmp(&a.0.rating).then_with(|| a.2.cmp(&b.2)));
    let players = players
        .into_iter()
        .take(LEADERBOARD_PLAYERS)
        .enumerate()
        .map(|(i, (today, row, username))| LeaderboardEntry {
            rank: i as u32 + 1,
            username,
            rating: today.rating.round() as i32,
            deviation: today.deviation.round() as i32,
            rated_games: row.games,
        })
        .collect();
    Ok(Json(Leaderboard {
        players,
        side_edge: side_edge(),
    }))
}
