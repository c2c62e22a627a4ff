//! Ratings (proto/PROTOCOL.md, *Ratings*): a rated game is one of a room made by a challenge both
//! players agreed was rated; when it ends with a winner (by the rules, on time, or by a claimed win)
//! both accounts' Glicko-2 ratings change, with the side each had taken into account. A player's
//! page and the leaderboard are public; the rating at the table is in the room's facts.

use evr_rules::Faction;
use serde::{Deserialize, Serialize};

use crate::GameEnd;

/// `GET /api/players/{username}` (the username percent-encoded) → [`PlayerPage`].
pub const PLAYER_PATH: &str = "/api/players/{username}";
/// `GET` → [`Leaderboard`].
pub const LEADERBOARD_PATH: &str = "/api/leaderboard";

/// The rated games a player's page lists, newest first.
pub const PLAYER_PAGE_GAMES: usize = 50;
/// The players the leaderboard lists.
pub const LEADERBOARD_PLAYERS: usize = 100;
/// Rated games a player needs for the leaderboard (with an established deviation).
pub const LEADERBOARD_MIN_GAMES: u32 = 10;

/// A rating as people read it: the rounded rating and deviation; `provisional` (shown "1500?")
/// while the deviation is 110 or more.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct RatingShown {
    pub rating: i32,
    pub deviation: i32,
    pub provisional: bool,
}

/// A seat's player's rating at the table of a rated room.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct SeatRating {
    /// As it is now (after the current game, once that was rated).
    pub now: RatingShown,
    /// What the current game changed (rounded ratings' difference), once it ended and was rated;
    /// `null` while it is played, and for a game that ended with no winner (unrated).
    pub change: Option<i32>,
}

/// One rated game on a player's page.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct RatedGame {
    /// The room (its replay: `GET /api/rooms/{code}/games/{game_number}/…`).
    pub code: String,
    pub game_number: u32,
    /// When it was rated, ms since 1970.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub ended_at_ms: i64,
    /// The page's player's side.
    pub side: Faction,
    /// `null` once the opponent deleted their account.
    pub opponent: Option<String>,
    /// The opponent's rating before the game.
    pub opponent_rating: i32,
    /// `won`, `lost` or `drawn`.
    pub result: GameEnd,
    /// The page's player's rating after the game, and what the game changed.
    pub rating_after: i32,
    pub change: i32,
}

/// Answer to `GET /api/players/{username}` (public).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct PlayerPage {
    pub username: String,
    /// Today's rating (the deviation grown with the days since the last rated game).
    pub rating: RatingShown,
    pub rated_games: u32,
    pub won: u32,
    pub lost: u32,
    pub drawn: u32,
    /// On the leaderboard: deviation ≤ 75 and at least [`LEADERBOARD_MIN_GAMES`] rated games.
    pub established: bool,
    /// The latest [`PLAYER_PAGE_GAMES`] rated games, newest first (the rating's history).
    pub history: Vec<RatedGame>,
}

/// One player on the leaderboard.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct LeaderboardEntry {
    /// 1 for the first.
    pub rank: u32,
    pub username: String,
    pub rating: i32,
    pub deviation: i32,
    pub rated_games: u32,
}

/// How much the favoured side is expected to score above an equal opponent in every rated game.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct SideEdge {
    /// `null`: neither side is favoured.
    pub favoured: Option<Faction>,
    /// Rating points the favoured side's player counts as higher.
    pub points: i32,
    /// Its measured score with equal players (e.g. 0.585), and the games it was measured over.
    pub measured_score: f64,
    pub measured_games: u32,
}

/// Answer to `GET /api/leaderboard` (public): the established players, best first.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Leaderboard {
    pub players: Vec<LeaderboardEntry>,
    pub side_edge: SideEdge,
}
