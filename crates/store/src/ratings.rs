//! Ratings, kept beside the accounts. A rated game is rated **in the same transaction as its
//! result**: the write that ends it (the last action, `WriteOp::AppendAction`, or a result outside
//! the rules, `WriteOp::EndGame`) carries a [`RatedEnd`], and the store, once that write is applied
//! under the room's claim, reads both players' ratings, computes the new ones (`evr-ratings`,
//! [`rate`]) and writes them with a row of `rated_games` keyed by the room and game. So a game is
//! rated once: a second write of its end is refused (the action is a duplicate, or the result is
//! set already) before anything is rated, and the key refuses a second row; a crash loses the
//! result and the rating together or neither.
//!
//! The players are the accounts keeping the room's two seats (`account_seats`) when the game ends;
//! a game with a seat no account keeps is not rated. Ratings are stored as they were after each
//! player's last rated game, with its time; the deviation's growth with the days since is applied
//! when the next game is rated and whenever a rating is shown ([`RatingRow::today`]).

use evr_ratings::{GameScore, Rating, SideAdvantage};
use evr_rules::{ByFaction, Faction};

use crate::{AccountId, StoreError};

/// A day, in milliseconds: Glicko-2's rating period here.
const DAY_MS: i64 = 86_400_000;

/// What the write that ends a rated room's game carries: who won (`None`: nobody; a game with no
/// winner because both ran out of time is not rated at all, and carries no `RatedEnd`), the side
/// advantage to use, and when.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatedEnd {
    pub winner: Option<Faction>,
    pub advantage: SideAdvantage,
    /// Ms since 1970.
    pub at_ms: i64,
}

/// An account's stored rating: as it was after its last rated game, at `rated_at`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatingRow {
    pub account: AccountId,
    pub rating: Rating,
    pub games: u32,
    pub won: u32,
    pub lost: u32,
    pub drawn: u32,
    /// Ms since 1970.
    pub rated_at: i64,
}

impl RatingRow {
    /// A player never rated: 1500 ± 350.
    pub fn new(account: AccountId, now_ms: i64) -> RatingRow {
        RatingRow {
            account,
            rating: evr_ratings::START,
            games: 0,
            won: 0,
            lost: 0,
            drawn: 0,
            rated_at: now_ms,
        }
    }

    /// The rating at `now_ms`: its deviation grown by the whole days since the last rated game.
    pub fn today(&self, now_ms: i64) -> Rating {
        let days = (now_ms - self.rated_at).max(0) / DAY_MS;
        evr_ratings::after_time_away(&self.rating, u32::try_from(days).unwrap_or(u32::MAX))
    }
}

/// One rated game as stored: the two accounts, the winner, and each one's rating before (grown
/// with their time away) and after.
#[derive(Clone, Debug, PartialEq)]
pub struct RatedGameRow {
    pub code: String,
    pub game_no: u32,
    /// Ms since 1970.
    pub rated_at: i64,
    pub accounts: ByFaction<AccountId>,
    pub winner: Option<Faction>,
    /// The Rebel's edge used, in rating points.
    pub advantage: f64,
    pub before: ByFaction<Rating>,
    pub after: ByFaction<Rating>,
}

/// Both players' rows after a rated game, and the game's row: the arithmetic every store applies
/// in the transaction that ends the game. `rebel` and `imperial` are the players' stored rows
/// (new players' rows for those never rated).
pub fn rate(
    code: &str,
    game_no: u32,
    rebel: &RatingRow,
    imperial: &RatingRow,
    end: &RatedEnd,
) -> (RatingRow, RatingRow, RatedGameRow) {
    let before = ByFaction::new(rebel.today(end.at_ms), imperial.today(end.at_ms));
    let score = match end.winner {
        Some(side) => GameScore::Won(side),
        None => GameScore::Draw,
    };
    let (new_rebel, new_imperial) = evr_ratings::rate_game(&before.rebel, &before.imperial, score, end.advantage);
    let counted = |row: &RatingRow, side: Faction, rating: Rating| RatingRow {
        account: row.account,
        rating,
        games: row.games + 1,
        won: row.won + u32::from(end.winner == Some(side)),
        lost: row.lost + u32::from(end.winner == Some(side.opponent())),
        drawn: row.drawn + u32::from(end.winner.is_none()),
        rated_at: end.at_ms,
    };
    let game = RatedGameRow {
        code: code.to_string(),
        game_no,
        rated_at: end.at_ms,
        accounts: ByFaction::new(rebel.account, imperial.account),
        winner: end.winner,
        advantage: end.advantage.rebel_points,
        before,
        after: ByFaction::new(new_rebel, new_imperial),
    };
    (
        counted(rebel, Faction::Rebel, new_rebel),
        counted(imperial, Faction::Imperial, new_imperial),
        game,
    )
}

/// Ratings (reached by `Store::ratings`); the writing side is the game-ending writes'. Blocking
/// calls: use them off the async threads.
pub trait RatingStore: Send + Sync {
    /// `account`'s stored rating, `None` if it was never rated.
    fn rating(&self, account: &AccountId) -> Result<Option<RatingRow>, StoreError>;

    /// The rated games of `account`, newest first (at most `limit`).
    fn rated_games(&self, account: &AccountId, limit: u32) -> Result<Vec<RatedGameRow>, StoreError>;

    /// Game `game_no` of room `code`, if it was rated.
    fn rated_game(&self, code: &str, game_no: u32) -> Result<Option<RatedGameRow>, StoreError>;

    /// The rated accounts not deleted with at least `min_games` games and a stored deviation of at
    /// most `max_deviation`, the highest rating first (at most `limit`), with their usernames. The
    /// caller applies the time away (which only grows deviations).
    fn leaderboard(
        &self,
        min_games: u32,
        max_deviation: f64,
        limit: u32,
    ) -> Result<Vec<(RatingRow, String)>, StoreError>;
}

/// The columns of a `ratings` row, in the order the stores read them.
pub(crate) const RATING: &str = "account_id, rating, deviation, volatility, games, won, lost, drawn, rated_at";

/// [`RATING`]'s columns of the table called `alias` in a query (the leaderboard joins accounts).
pub(crate) fn rating_columns_of(alias: &str) -> String {
    RATING
        .split(", ")
        .map(|c| format!("{alias}.{c}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The columns of a `rated_games` row, in the order the stores read them: the game, then each
/// side's account and its rating before and after (rating, deviation, volatility each).
pub(crate) const RATED_GAME: &str = "room_code, game_no, rated_at, winner, advantage, \
     rebel_id, rebel_before, rebel_before_deviation, rebel_before_volatility, \
     rebel_after, rebel_after_deviation, rebel_after_volatility, \
     imperial_id, imperial_before, imperial_before_deviation, imperial_before_volatility, \
     imperial_after, imperial_after_deviation, imperial_after_volatility";
