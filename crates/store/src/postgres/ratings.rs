//! [`RatingStore`] on PostgreSQL, and the rating of a game in the transaction that ends it
//! ([`rate_in`], run by the group commit after the batch's statements, before its `COMMIT`, for
//! each game-ending write that was applied). Between nodes: both players' rating rows are locked
//! (`FOR UPDATE`, in the accounts' order, so that two games ending at once on two nodes wait for
//! each other instead of deadlocking) before they are read, so no update is lost; the game's row
//! is keyed by the room and game, so it is rated once.

use evr_ratings::Rating;
use evr_rules::{ByFaction, Faction};
use tokio_postgres::{Row, Transaction};

use super::PostgresStore;
use super::accounts::rows::{Param, bytes, get, id_at, read_error, text};
use crate::columns::{faction_from_text, faction_text};
use crate::ratings::{RATED_GAME, RATING, RatedEnd, RatedGameRow, RatingRow, RatingStore, rate, rating_columns_of};
use crate::{AccountId, StoreError};

/// The schema version that adds ratings (`postgres/schema.rs`, version 7), as SQLite's
/// (`sqlite/ratings.rs`).
pub(crate) const RATINGS_SCHEMA: &str = "
CREATE TABLE ratings (
    account_id BYTEA PRIMARY KEY REFERENCES accounts(id),
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games BIGINT NOT NULL,
    won BIGINT NOT NULL,
    lost BIGINT NOT NULL,
    drawn BIGINT NOT NULL,
    rated_at BIGINT NOT NULL
);
CREATE INDEX ratings_board ON ratings (rating);
CREATE TABLE rated_games (
    room_code TEXT NOT NULL,
    game_no BIGINT NOT NULL,
    rated_at BIGINT NOT NULL,
    winner TEXT,
    advantage DOUBLE PRECISION NOT NULL,
    rebel_id BYTEA NOT NULL REFERENCES accounts(id),
    rebel_before DOUBLE PRECISION NOT NULL,
    rebel_before_deviation DOUBLE PRECISION NOT NULL,
    rebel_before_volatility DOUBLE PRECISION NOT NULL,
    rebel_after DOUBLE PRECISION NOT NULL,
    rebel_after_deviation DOUBLE PRECISION NOT NULL,
    rebel_after_volatility DOUBLE PRECISION NOT NULL,
    imperial_id BYTEA NOT NULL REFERENCES accounts(id),
    imperial_before DOUBLE PRECISION NOT NULL,
    imperial_before_deviation DOUBLE PRECISION NOT NULL,
    imperial_before_volatility DOUBLE PRECISION NOT NULL,
    imperial_after DOUBLE PRECISION NOT NULL,
    imperial_after_deviation DOUBLE PRECISION NOT NULL,
    imperial_after_volatility DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (room_code, game_no)
);
CREATE INDEX rated_games_rebel ON rated_games (rebel_id, rated_at);
CREATE INDEX rated_games_imperial ON rated_games (imperial_id, rated_at);
";

fn count(r: &Row, i: usize) -> Result<u32, StoreError> {
    Ok(u32::try_from(get::<i64>(r, i)?).unwrap_or(u32::MAX))
}

fn rating_row(r: &Row) -> Result<RatingRow, StoreError> {
    Ok(RatingRow {
        account: id_at(r, 0)?,
        rating: Rating {
            rating: get(r, 1)?,
            deviation: get(r, 2)?,
            volatility: get(r, 3)?,
        },
        games: count(r, 4)?,
        won: count(r, 5)?,
        lost: count(r, 6)?,
        drawn: count(r, 7)?,
        rated_at: get(r, 8)?,
    })
}

fn rating_at(r: &Row, i: usize) -> Result<Rating, StoreError> {
    Ok(Rating {
        rating: get(r, i)?,
        deviation: get(r, i + 1)?,
        volatility: get(r, i + 2)?,
    })
}

fn rated_game_row(r: &Row) -> Result<RatedGameRow, StoreError> {
    let winner: Option<String> = get(r, 3)?;
    Ok(RatedGameRow {
        code: get(r, 0)?,
        game_no: u32::try_from(get::<i64>(r, 1)?).unwrap_or(u32::MAX),
        rated_at: get(r, 2)?,
        winner: winner.as_deref().map(faction_from_text).transpose()?,
        advantage: get(r, 4)?,
        accounts: ByFaction::new(id_at(r, 5)?, id_at(r, 12)?),
        before: ByFaction::new(rating_at(r, 6)?, rating_at(r, 13)?),
        after: ByFaction::new(rating_at(r, 9)?, rating_at(r, 16)?),
    })
}

async fn seat_account(tx: &Transaction<'_>, code: &str, seat: &str) -> Result<Option<AccountId>, StoreError> {
    let row = tx
        .query_opt(
            "SELECT account_id FROM account_seats WHERE room_code = $1 AND seat = $2",
            &[&code, &seat],
        )
        .await
        .map_err(read_error)?;
    row.map(|r| id_at(&r, 0)).transpose()
}

async fn put_rating(tx: &Transaction<'_>, row: &RatingRow) -> Result<(), StoreError> {
    tx.execute(
        "UPDATE ratings SET rating = $2, deviation = $3, volatility = $4, games = $5, won = $6, lost = $7,
             drawn = $8, rated_at = $9 WHERE account_id = $1",
        &[
            &row.account.as_slice(),
            &row.rating.rating,
            &row.rating.deviation,
            &row.rating.volatility,
            &i64::from(row.games),
            &i64::from(row.won),
            &i64::from(row.lost),
            &i64::from(row.drawn),
            &row.rated_at,
        ],
    )
    .await
    .map_err(|e| StoreError::Write(super::describe(&e)))?;
    Ok(())
}

/// Rates game `game_no` of room `code`, just ended by a write applied in transaction `tx`: both
/// players' new ratings and the game's row, once (a game rated already, or with a seat no account
/// keeps, is left as it is).
pub(super) async fn rate_in(tx: &Transaction<'_>, code: &str, game_no: u32, end: &RatedEnd) -> Result<(), StoreError> {
    let write = |e: tokio_postgres::Error| StoreError::Write(super::describe(&e));
    let creator_faction: Option<String> = tx
        .query_opt(
            "SELECT creator_faction FROM games WHERE room_code = $1 AND game_no = $2",
            &[&code, &i64::from(game_no)],
        )
        .await
        .map_err(read_error)?
        .map(|r| get(&r, 0))
        .transpose()?;
    let Some(creator_faction) = creator_faction else {
        return Ok(());
    };
    let (Some(creator), Some(guest)) = (
        seat_account(tx, code, "creator").await?,
        seat_account(tx, code, "guest").await?,
    ) else {
        tracing::warn!(room = %code, game_no, "a rated game with a seat no account keeps is not rated");
        return Ok(());
    };
    if creator == guest {
        return Ok(());
    }
    let accounts = if creator_faction == faction_text(Faction::Rebel) {
        ByFaction::new(creator, guest)
    } else {
        ByFaction::new(guest, creator)
    };
    // both rows exist (a new player's) and are locked, in the accounts' order
    let mut ordered = [creator, guest];
    ordered.sort();
    let mut rows = Vec::with_capacity(2);
    for account in &ordered {
        let fresh = RatingRow::new(*account, end.at_ms);
        tx.execute(
            "INSERT INTO ratings (account_id, rating, deviation, volatility, games, won, lost, drawn, rated_at)
             VALUES ($1, $2, $3, $4, 0, 0, 0, 0, $5) ON CONFLICT (account_id) DO NOTHING",
            &[
                &account.as_slice(),
                &fresh.rating.rating,
                &fresh.rating.deviation,
                &fresh.rating.volatility,
                &fresh.rated_at,
            ],
        )
        .await
        .map_err(write)?;
        let row = tx
            .query_one(
                &format!("SELECT {RATING} FROM ratings WHERE account_id = $1 FOR UPDATE"),
                &[&account.as_slice()],
            )
            .await
            .map_err(read_error)?;
        rows.push(rating_row(&row)?);
    }
    let row_of = |account: &AccountId| rows.iter().find(|r| r.account == *account).copied();
    let (Some(rebel_row), Some(imperial_row)) = (row_of(&accounts.rebel), row_of(&accounts.imperial)) else {
        return Ok(());
    };
    let (rebel, imperial, game) = rate(code, game_no, &rebel_row, &imperial_row, end);
    let (b, a) = (&game.before, &game.after);
    let inserted = tx
        .execute(
            &format!(
                "INSERT INTO rated_games ({RATED_GAME})
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)
                 ON CONFLICT DO NOTHING"
            ),
            &[
                &code,
                &i64::from(game_no),
                &game.rated_at,
                &game.winner.map(faction_text),
                &game.advantage,
                &accounts.rebel.as_slice(),
                &b.rebel.rating,
                &b.rebel.deviation,
                &b.rebel.volatility,
                &a.rebel.rating,
                &a.rebel.deviation,
                &a.rebel.volatility,
                &accounts.imperial.as_slice(),
                &b.imperial.rating,
                &b.imperial.deviation,
                &b.imperial.volatility,
                &a.imperial.rating,
                &a.imperial.deviation,
                &a.imperial.volatility,
            ],
        )
        .await
        .map_err(write)?;
    if inserted == 0 {
        // rated already: the ratings changed then
        return Ok(());
    }
    put_rating(tx, &rebel).await?;
    put_rating(tx, &imperial).await
}

impl RatingStore for PostgresStore {
    fn rating(&self, account: &AccountId) -> Result<Option<RatingRow>, StoreError> {
        let rows = self.account_statement(
            format!("SELECT {RATING} FROM ratings WHERE account_id = $1"),
            vec![bytes(account)],
            read_error,
        )?;
        rows.first().map(rating_row).transpose()
    }

    fn rated_games(&self, account: &AccountId, limit: u32) -> Result<Vec<RatedGameRow>, StoreError> {
        let rows = self.account_statement(
            format!(
                "SELECT {RATED_GAME} FROM rated_games WHERE rebel_id = $1 OR imperial_id = $1
                 ORDER BY rated_at DESC, room_code, game_no LIMIT $2"
            ),
            vec![bytes(account), Param::Int(i64::from(limit))],
            read_error,
        )?;
        rows.iter().map(rated_game_row).collect()
    }

    fn rated_game(&self, code: &str, game_no: u32) -> Result<Option<RatedGameRow>, StoreError> {
        let rows = self.account_statement(
            format!("SELECT {RATED_GAME} FROM rated_games WHERE room_code = $1 AND game_no = $2"),
            vec![text(code), Param::Int(i64::from(game_no))],
            read_error,
        )?;
        rows.first().map(rated_game_row).transpose()
    }

    fn leaderboard(
        &self,
        min_games: u32,
        max_deviation: f64,
        limit: u32,
    ) -> Result<Vec<(RatingRow, String)>, StoreError> {
        let columns = rating_columns_of("r");
        let rows = self.account_statement(
            format!(
                "SELECT {columns}, a.username FROM ratings r JOIN accounts a ON a.id = r.account_id
                 WHERE r.games >= $1 AND r.deviation <= $2 AND a.username IS NOT NULL
                 ORDER BY r.rating DESC LIMIT $3"
            ),
            vec![
                Param::Int(i64::from(min_games)),
                Param::Float(max_deviation),
                Param::Int(i64::from(limit)),
            ],
            read_error,
        )?;
        rows.iter().map(|r| Ok((rating_row(r)?, get(r, 9)?))).collect()
    }
}
