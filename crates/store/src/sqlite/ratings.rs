//! [`RatingStore`] on SQLite, and the rating of a game in the batch transaction that ends it
//! ([`rate_in`], called by `apply` once the game-ending write was applied: one transaction, so the
//! result and the rating are committed together or not at all).

use evr_ratings::Rating;
use evr_rules::{ByFaction, Faction};
use rusqlite::{Connection, OptionalExtension, Row, params};

use super::SqliteStore;
use super::accounts::rows::id_at;
use crate::columns::{faction_from_text, faction_text};
use crate::ratings::{RATED_GAME, RATING, RatedEnd, RatedGameRow, RatingRow, RatingStore, rate, rating_columns_of};
use crate::{AccountId, StoreError};

/// The schema version that adds ratings (`sqlite/schema.rs`, version 13).
pub(crate) const RATINGS_SCHEMA: &str = "
CREATE TABLE ratings (
    account_id BLOB PRIMARY KEY REFERENCES accounts(id),
    rating REAL NOT NULL,
    deviation REAL NOT NULL,
    volatility REAL NOT NULL,
    games INTEGER NOT NULL,
    won INTEGER NOT NULL,
    lost INTEGER NOT NULL,
    drawn INTEGER NOT NULL,
    rated_at INTEGER NOT NULL
);
CREATE INDEX ratings_board ON ratings (rating);
CREATE TABLE rated_games (
    room_code TEXT NOT NULL,
    game_no INTEGER NOT NULL,
    rated_at INTEGER NOT NULL,
    winner TEXT,
    advantage REAL NOT NULL,
    rebel_id BLOB NOT NULL REFERENCES accounts(id),
    rebel_before REAL NOT NULL,
    rebel_before_deviation REAL NOT NULL,
    rebel_before_volatility REAL NOT NULL,
    rebel_after REAL NOT NULL,
    rebel_after_deviation REAL NOT NULL,
    rebel_after_volatility REAL NOT NULL,
    imperial_id BLOB NOT NULL REFERENCES accounts(id),
    imperial_before REAL NOT NULL,
    imperial_before_deviation REAL NOT NULL,
    imperial_before_volatility REAL NOT NULL,
    imperial_after REAL NOT NULL,
    imperial_after_deviation REAL NOT NULL,
    imperial_after_volatility REAL NOT NULL,
    PRIMARY KEY (room_code, game_no)
);
CREATE INDEX rated_games_rebel ON rated_games (rebel_id, rated_at);
CREATE INDEX rated_games_imperial ON rated_games (imperial_id, rated_at);
";

fn rating_row(r: &Row<'_>) -> rusqlite::Result<RatingRow> {
    Ok(RatingRow {
        account: id_at(r, 0)?,
        rating: Rating {
            rating: r.get(1)?,
            deviation: r.get(2)?,
            volatility: r.get(3)?,
        },
        games: r.get(4)?,
        won: r.get(5)?,
        lost: r.get(6)?,
        drawn: r.get(7)?,
        rated_at: r.get(8)?,
    })
}

fn rating_at(r: &Row<'_>, i: usize) -> rusqlite::Result<Rating> {
    Ok(Rating {
        rating: r.get(i)?,
        deviation: r.get(i + 1)?,
        volatility: r.get(i + 2)?,
    })
}

fn rated_game_row(r: &Row<'_>) -> rusqlite::Result<(RatedGameRow, Option<String>)> {
    Ok((
        RatedGameRow {
            code: r.get(0)?,
            game_no: r.get(1)?,
            rated_at: r.get(2)?,
            // decoded by `decoded`
            winner: None,
            advantage: r.get(4)?,
            accounts: ByFaction::new(id_at(r, 5)?, id_at(r, 12)?),
            before: ByFaction::new(rating_at(r, 6)?, rating_at(r, 13)?),
            after: ByFaction::new(rating_at(r, 9)?, rating_at(r, 16)?),
        },
        r.get(3)?,
    ))
}

fn decoded((mut game, winner): (RatedGameRow, Option<String>)) -> Result<RatedGameRow, StoreError> {
    game.winner = winner.as_deref().map(faction_from_text).transpose()?;
    Ok(game)
}

fn stored_rating(c: &Connection, account: &AccountId) -> rusqlite::Result<Option<RatingRow>> {
    c.prepare_cached(&format!("SELECT {RATING} FROM ratings WHERE account_id = ?1"))?
        .query_row([account.as_slice()], rating_row)
        .optional()
}

fn put_rating(c: &Connection, row: &RatingRow) -> rusqlite::Result<usize> {
    c.prepare_cached(
        "INSERT INTO ratings (account_id, rating, deviation, volatility, games, won, lost, drawn, rated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
         ON CONFLICT (account_id) DO UPDATE SET rating = ?2, deviation = ?3, volatility = ?4, games = ?5,
             won = ?6, lost = ?7, drawn = ?8, rated_at = ?9",
    )?
    .execute(params![
        row.account.as_slice(),
        row.rating.rating,
        row.rating.deviation,
        row.rating.volatility,
        row.games,
        row.won,
        row.lost,
        row.drawn,
        row.rated_at
    ])
}

/// The account keeping `seat` (`creator` or `guest`) of room `code`.
fn seat_account(c: &Connection, code: &str, seat: &str) -> rusqlite::Result<Option<AccountId>> {
    c.prepare_cached("SELECT account_id FROM account_seats WHERE room_code = ?1 AND seat = ?2")?
        .query_row(params![code, seat], |r| id_at(r, 0))
        .optional()
}

/// Rates game `game_no` of room `code`, just ended by a write applied in the transaction on
/// `conn`: both players' new ratings and the game's row, once (a game rated already, or with a
/// seat no account keeps, is left as it is).
pub(super) fn rate_in(conn: &Connection, code: &str, game_no: u32, end: &RatedEnd) -> rusqlite::Result<()> {
    let creator_faction: Option<String> = conn
        .prepare_cached("SELECT creator_faction FROM games WHERE room_code = ?1 AND game_no = ?2")?
        .query_row(params![code, game_no], |r| r.get(0))
        .optional()?;
    let Some(creator_faction) = creator_faction else {
        return Ok(());
    };
    let (Some(creator), Some(guest)) = (seat_account(conn, code, "creator")?, seat_account(conn, code, "guest")?)
    else {
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
    let row = |account: &AccountId| -> rusqlite::Result<RatingRow> {
        Ok(stored_rating(conn, account)?.unwrap_or_else(|| RatingRow::new(*account, end.at_ms)))
    };
    let (rebel, imperial, game) = rate(code, game_no, &row(&accounts.rebel)?, &row(&accounts.imperial)?, end);
    let b = (&game.before, &game.after);
    let inserted = conn
        .prepare_cached(&format!(
            "INSERT INTO rated_games ({RATED_GAME})
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19)
             ON CONFLICT DO NOTHING"
        ))?
        .execute(params![
            code,
            game_no,
            game.rated_at,
            game.winner.map(faction_text),
            game.advantage,
            accounts.rebel.as_slice(),
            b.0.rebel.rating,
            b.0.rebel.deviation,
            b.0.rebel.volatility,
            b.1.rebel.rating,
            b.1.rebel.deviation,
            b.1.rebel.volatility,
            accounts.imperial.as_slice(),
            b.0.imperial.rating,
            b.0.imperial.deviation,
            b.0.imperial.volatility,
            b.1.imperial.rating,
            b.1.imperial.deviation,
            b.1.imperial.volatility,
        ])?;
    if inserted == 0 {
        // rated already: the ratings changed then
        return Ok(());
    }
    put_rating(conn, &rebel)?;
    put_rating(conn, &imperial)?;
    Ok(())
}

impl RatingStore for SqliteStore {
    fn rating(&self, account: &AccountId) -> Result<Option<RatingRow>, StoreError> {
        self.account_read(|c| stored_rating(c, account))
    }

    fn rated_games(&self, account: &AccountId, limit: u32) -> Result<Vec<RatedGameRow>, StoreError> {
        let rows = self.account_read(|c| {
            c.prepare_cached(&format!(
                "SELECT {RATED_GAME} FROM rated_games WHERE rebel_id = ?1 OR imperial_id = ?1
                 ORDER BY rated_at DESC, room_code, game_no LIMIT ?2"
            ))?
            .query_map(params![account.as_slice(), limit], rated_game_row)?
            .collect::<rusqlite::Result<Vec<_>>>()
        })?;
        rows.into_iter().map(decoded).collect()
    }

    fn rated_game(&self, code: &str, game_no: u32) -> Result<Option<RatedGameRow>, StoreError> {
        let row = self.account_read(|c| {
            c.prepare_cached(&format!(
                "SELECT {RATED_GAME} FROM rated_games WHERE room_code = ?1 AND game_no = ?2"
            ))?
            .query_row(params![code, game_no], rated_game_row)
            .optional()
        })?;
        row.map(decoded).transpose()
    }

    fn leaderboard(
        &self,
        min_games: u32,
        max_deviation: f64,
        limit: u32,
    ) -> Result<Vec<(RatingRow, String)>, StoreError> {
        let columns = rating_columns_of("r");
        self.account_read(|c| {
            c.prepare_cached(&format!(
                "SELECT {columns}, a.username FROM ratings r JOIN accounts a ON a.id = r.account_id
                 WHERE r.games >= ?1 AND r.deviation <= ?2 AND a.username IS NOT NULL
                 ORDER BY r.rating DESC LIMIT ?3"
            ))?
            .query_map(params![min_games, max_deviation, limit], |r| {
                Ok((rating_row(r)?, r.get(9)?))
            })?
            .collect()
        })
    }
}
