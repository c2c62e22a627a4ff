//! What every store must do with ratings (`RatingStore` and the game-ending writes that carry a
//! `RatedEnd`): a rated game's end rates both players in the write that ends it, once — a second
//! write of its end rates nothing — with the players' deviations grown by their days away; a game
//! with a seat no account keeps is not rated; the rated games are listed newest first and the
//! leaderboard highest first; and on PostgreSQL, games of one player ending at once on two nodes
//! lose no update.

use anyhow::{Context, Result, ensure};
use evr_protocol::ForfeitReason;
use evr_ratings::{GameScore, START, SideAdvantage, after_time_away, rate_game};
use evr_rules::{Action, Faction};
use evr_store::{GameResult, RatedEnd, RatingStore, Store, StoredSeat, WriteOp};

use crate::core::{append, create_room, start_game, stores, write};
use crate::friends::{accounts, id};

const NOW: i64 = 1_790_000_000_000;
const DAY: i64 = 86_400_000;

fn ratings(store: &dyn Store) -> Result<&dyn RatingStore> {
    store.ratings().context("this store keeps no ratings")
}

fn rated(winner: Option<Faction>, at_ms: i64) -> Option<RatedEnd> {
    Some(RatedEnd {
        winner,
        advantage: SideAdvantage::NONE,
        at_ms,
    })
}

fn end_game(code: &str, game_no: u32, winner: Faction, at_ms: i64) -> WriteOp {
    WriteOp::EndGame {
        code: code.into(),
        game_no,
        result: GameResult {
            forfeit_winner: Some(winner),
            reason: ForfeitReason::OpponentAway,
        },
        rated: rated(Some(winner), at_ms),
    }
}

/// Room `code` whose creator's seat account `creator` keeps, and its guest's `guest` (if any).
async fn kept_room(store: &std::sync::Arc<dyn Store>, code: &str, creator: u8, guest: Option<u8>) -> Result<()> {
    write(store, create_room(code)).await?;
    let a = store.accounts().context("accounts")?;
    a.keep_seat(&id(creator), code, StoredSeat::Creator, NOW)?;
    if let Some(g) = guest {
        a.keep_seat(&id(g), code, StoredSeat::Guest, NOW)?;
    }
    Ok(())
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

#[tokio::test]
async fn a_rated_games_end_rates_both_players_once() -> Result<()> {
    for opened in stores("ratings").await? {
        let (name, store) = (opened.name, opened.store);
        accounts(store.accounts().context("accounts")?, 3)?;
        let r = ratings(store.as_ref())?;
        ensure!(r.rating(&id(1))?.is_none(), "{name}: nobody is rated before a game");

        // game 1: account 1 (creator) is the Rebel and wins by the rules' last action
        kept_room(&store, "RATED001", 1, Some(2)).await?;
        write(&store, start_game("RATED001", 1, 1, Faction::Rebel)).await?;
        let mut last = append("RATED001", 1, 2, Faction::Rebel, Action::PlayCard);
        if let WriteOp::AppendAction { rated: r, .. } = &mut last {
            *r = rated(Some(Faction::Rebel), NOW);
        }
        write(&store, last.clone()).await?;
        let (rebel, imperial) = rate_game(&START, &START, GameScore::Won(Faction::Rebel), SideAdvantage::NONE);
        let one = r.rating(&id(1))?.context("account 1 rated")?;
        let two = r.rating(&id(2))?.context("account 2 rated")?;
        ensure!(
            close(one.rating.rating, rebel.rating) && close(two.rating.rating, imperial.rating),
            "{name}: {one:?} {two:?}"
        );
        ensure!(
            (one.games, one.won, one.lost, two.games, two.lost) == (1, 1, 0, 1, 1),
            "{name}: {one:?} {two:?}"
        );
        // the same end written again (the action a duplicate; then a result outside the rules):
        // nothing is rated twice
        ensure!(
            write(&store, last).await.is_err(),
            "{name}: a duplicate action is refused"
        );
        write(&store, end_game("RATED001", 1, Faction::Imperial, NOW + 1)).await?;
        let again = r.rating(&id(1))?.context("account 1 rated")?;
        ensure!(again == one, "{name}: rated twice: {again:?}");

        // game 2, three days later: account 1 is the Imperial now and wins by a claim
        write(&store, start_game("RATED001", 2, 3, Faction::Imperial)).await?;
        write(&store, end_game("RATED001", 2, Faction::Imperial, NOW + 3 * DAY)).await?;
        let game = r.rated_game("RATED001", 2)?.context("game 2 rated")?;
        let away = after_time_away(&one.rating, 3);
        ensure!(
            game.accounts.imperial == id(1)
                && game.accounts.rebel == id(2)
                && game.winner == Some(Faction::Imperial)
                && close(game.before.imperial.deviation, away.deviation)
                && away.deviation > one.rating.deviation,
            "{name}: {game:?}"
        );
        let one = r.rating(&id(1))?.context("account 1 rated")?;
        ensure!(
            (one.games, one.won, one.rated_at) == (2, 2, NOW + 3 * DAY)
                && close(one.rating.rating, game.after.imperial.rating),
            "{name}: {one:?}"
        );
        let listed: Vec<u32> = r.rated_games(&id(1), 10)?.iter().map(|g| g.game_no).collect();
        ensure!(listed == [2, 1], "{name}: newest first: {listed:?}");
        ensure!(r.rated_game("RATED001", 3)?.is_none(), "{name}: no game 3");

        // a seat no account keeps: not rated
        kept_room(&store, "RATED002", 3, None).await?;
        write(&store, start_game("RATED002", 1, 1, Faction::Rebel)).await?;
        write(&store, end_game("RATED002", 1, Faction::Rebel, NOW)).await?;
        ensure!(
            r.rating(&id(3))?.is_none() && r.rated_game("RATED002", 1)?.is_none(),
            "{name}: a half-kept room was rated"
        );

        // the leaderboard: at least 2 games, highest first, with usernames
        let board = r.leaderboard(2, 400.0, 10)?;
        let names: Vec<&str> = board.iter().map(|(_, n)| n.as_str()).collect();
        ensure!(names == ["player1", "player2"], "{name}: {names:?}");
        ensure!(r.leaderboard(3, 400.0, 10)?.is_empty(), "{name}: nobody has 3 games");
        ensure!(
            r.leaderboard(2, 50.0, 10)?.is_empty(),
            "{name}: nobody is that sure yet"
        );
    }
    Ok(())
}

/// Two nodes on one PostgreSQL end rated games of one player at once, in waves of ten, five on
/// each node: every game is rated, and the player's count takes them all (no update lost between
/// nodes).
#[tokio::test]
async fn games_of_one_player_ending_at_once_on_two_nodes_are_all_counted() -> Result<()> {
    let url = match std::env::var("EVR_TEST_POSTGRES") {
        Ok(url) if !url.is_empty() => url,
        _ => {
            eprintln!("EVR_TEST_POSTGRES is not set: two PostgreSQL nodes are not tested here");
            return Ok(());
        }
    };
    let database = "contract_ratings_nodes";
    let first: std::sync::Arc<dyn Store> =
        std::sync::Arc::new(crate::support::postgres::fresh_store(&url, database).await?);
    let second: std::sync::Arc<dyn Store> =
        std::sync::Arc::new(crate::support::postgres::same_database(&url, database).await?);
    accounts(first.accounts().context("accounts")?, 11)?;
    // waves of ten games between account 1 and ten others, each wave's ends written at once, half
    // on each node
    const WAVES: usize = 5;
    for wave in 0..WAVES {
        let codes: Vec<String> = (0..10).map(|i| format!("NODES{wave}{i:02}")).collect();
        for (i, code) in codes.iter().enumerate() {
            kept_room(&first, code, 1, Some(2 + i as u8)).await?;
            write(&first, start_game(code, 1, 1, Faction::Rebel)).await?;
        }
        // the rooms were created under the first claim on the shared database: either node writes
        let ends = codes.iter().enumerate().map(|(i, code)| {
            let node = if i % 2 == 0 { first.clone() } else { second.clone() };
            let op = end_game(code, 1, Faction::Rebel, NOW + (10 * wave + i) as i64);
            async move { write(&node, op).await }
        });
        for done in futures_util::future::join_all(ends).await {
            done?;
        }
    }
    let r = ratings(first.as_ref())?;
    let one = r.rating(&id(1))?.context("account 1 rated")?;
    let all = (10 * WAVES) as u32;
    ensure!((one.games, one.won) == (all, all), "an update was lost: {one:?}");
    ensure!(r.rated_games(&id(1), 100)?.len() == 10 * WAVES, "a game was not rated");
    Ok(())
}
