//! Ratings: a rated challenge's game played to its end rates both players once — their ratings
//! at the table with the game's change, their public pages with the game in their history — and
//! a rematch starts with no change shown; a rated game left by a player is that player's loss, and
//! one both players' clocks ended together is nobody's and not rated; a
//! room made by `POST /api/rooms` cannot be rated; and a server killed (SIGKILL) just after a
//! rated game's last action was acknowledged has rated it once after its restart, the last action
//! sent again rating nothing.

use std::net::SocketAddr;
use std::time::Duration;

use anyhow::{Context, Result, ensure};
use evr_protocol::{ClientMsg, ErrorCode, RoomInfo, ServerMsg};
use evr_rules::{Faction, Mode};
use serde_json::{Value, json};

use crate::friends::{befriend, post};
use crate::support::passkey::{self, Answer};
use crate::support::processes::ServerProcess;
use crate::support::{self, Client, Welcome};

/// The seed of the random legal moves that play the rated games.
const SEED: u64 = 20_261_128;
/// The seed of every game's deal (the server's `--test-fixed-seed`): with the moves' seed, the
/// rated games are the same game every run, one with a winner.
const DEAL_SEED: u64 = 20_261_126;

/// `a` challenges `b` (usernames after the sessions) to a rated game, `a` the Rebel; `b`
/// accepts. The room's code and each one's seat token.
async fn rated_room(addr: SocketAddr, a: (&str, &str), b: (&str, &str)) -> Result<(String, String, String)> {
    rated_room_with(
        addr,
        a,
        b,
        json!({"username": b.0, "side": "rebel", "rated": true, "spectators": "off"}),
    )
    .await
}

/// [`rated_room`] with the challenge `challenge`.
async fn rated_room_with(
    addr: SocketAddr,
    a: (&str, &str),
    b: (&str, &str),
    challenge: Value,
) -> Result<(String, String, String)> {
    befriend(addr, a.1, a.0, b.1, b.0).await?;
    let made = post(addr, "/api/account/challenges", challenge, a.1).await?;
    ensure!(made.status == 201, "{}", made.body);
    let id = made.json()?["id"].as_str().context("an id")?.to_string();
    let accepted = post(addr, &format!("/api/account/challenges/{id}/accept"), json!({}), b.1).await?;
    ensure!(accepted.status == 200, "{}", accepted.body);
    let code = accepted.json()?["code"].as_str().context("a code")?.to_string();
    let seat = format!("/api/rooms/{code}/account-seat");
    let token =
        |answer: Answer| -> Result<String> { Ok(answer.json()?["token"].as_str().context("a token")?.to_string()) };
    let a_token = token(post(addr, &seat, json!({}), a.1).await?)?;
    let b_token = token(post(addr, &seat, json!({}), b.1).await?)?;
    Ok((code, a_token, b_token))
}

/// The public page of `username`.
async fn page(addr: SocketAddr, username: &str) -> Result<Value> {
    let (status, text) = support::http(addr, "GET", &format!("/api/players/{username}"), None).await?;
    ensure!(status == 200, "{username}'s page: {status} {text}");
    Ok(serde_json::from_str(&text)?)
}

/// Plays the room's game to its end with seeded random moves; the winner.
async fn play_to_the_end(a: &mut Client, b: &mut Client, wa: &Welcome, wb: &Welcome) -> Result<Option<Faction>> {
    let (_, views) = support::play_random(a, b, wa, wb, 20_000, SEED)
        .await
        .with_context(|| format!("deal seed {DEAL_SEED}, moves' seed {SEED}"))?;
    let outcome = views[0]
        .outcome
        .with_context(|| format!("the game did not end (deal seed {DEAL_SEED}, moves' seed {SEED})"))?;
    Ok(outcome.winner)
}

/// The room facts once their ratings show the finished game's change.
async fn rated_facts(c: &mut Client) -> Result<RoomInfo> {
    loop {
        let room = c.recv_room().await?;
        let changed = room
            .ratings
            .as_ref()
            .is_some_and(|r| r.rebel.is_some_and(|s| s.change.is_some()));
        if changed {
            return Ok(room);
        }
    }
}

#[tokio::test]
async fn a_rated_challenge_game_rates_both_players_once_and_shows_it_at_the_table_and_on_their_pages() -> Result<()> {
    let mut config = evr_server::Config::for_tests(support::temp_dir("ratings-played"));
    config.test_fixed_seed = Some(DEAL_SEED);
    let server = support::start_with(config).await?;
    let addr = server.addr;
    let (_, rey) = passkey::register(addr, "Rey").await?;
    let (_, ben) = passkey::register(addr, "Ben").await?;
    let (code, rey_token, ben_token) = rated_room(addr, ("Rey", &rey), ("Ben", &ben)).await?;

    let (mut a, wa) = Client::hello(addr, &code, Some(&rey_token), None).await?;
    let (mut b, wb) = Client::hello(addr, &code, Some(&ben_token), None).await?;
    ensure!(wa.room.options.rated, "the room is rated");
    let at_start = wa.room.ratings.context("ratings at the table")?;
    for seat in [at_start.rebel, at_start.imperial] {
        let seat = seat.context("both players' ratings")?;
        ensure!(
            (seat.now.rating, seat.now.provisional, seat.change) == (1500, true, None),
            "{seat:?}"
        );
    }
    let winner = play_to_the_end(&mut a, &mut b, &wa, &wb)
        .await?
        .with_context(|| format!("a winner (deal seed {DEAL_SEED}, moves' seed {SEED})"))?;
    let room = rated_facts(&mut a).await?;
    let ratings = room.ratings.context("ratings")?;
    let (won, lost) = match winner {
        Faction::Rebel => (ratings.rebel, ratings.imperial),
        Faction::Imperial => (ratings.imperial, ratings.rebel),
    };
    let (won, lost) = (won.context("the winner's")?, lost.context("the loser's")?);
    // two new players, no side edge: 1500 ± 350 each, the winner gains what the loser loses
    let edge = evr_ratings::MEASURED.advantage().rebel_points;
    let (rebel, imperial) = evr_ratings::rate_game(
        &evr_ratings::START,
        &evr_ratings::START,
        evr_ratings::GameScore::Won(winner),
        evr_ratings::SideAdvantage { rebel_points: edge },
    );
    let expected = |f: Faction| match f {
        Faction::Rebel => rebel.rating.round() as i32,
        Faction::Imperial => imperial.rating.round() as i32,
    };
    ensure!(
        won.now.rating == expected(winner) && lost.now.rating == expected(winner.opponent()),
        "{won:?} {lost:?}"
    );
    ensure!(
        won.change == Some(won.now.rating - 1500) && lost.change == Some(lost.now.rating - 1500),
        "{won:?} {lost:?}"
    );
    ensure!(
        won.change.unwrap_or(0) > 0 && lost.change.unwrap_or(0) < 0,
        "{won:?} {lost:?}"
    );

    // the pages: one rated game each, the opponent named, the change as at the table
    let (rey_side, rey_page) = (Faction::Rebel, page(addr, "rey").await?);
    let rey_won = winner == rey_side;
    ensure!(
        rey_page["username"] == "Rey" && rey_page["rated_games"] == 1,
        "{rey_page}"
    );
    ensure!(
        rey_page["won"] == u32::from(rey_won) && rey_page["lost"] == u32::from(!rey_won),
        "{rey_page}"
    );
    let game = &rey_page["history"][0];
    ensure!(
        game["code"] == code.as_str()
            && game["game_number"] == 1
            && game["opponent"] == "Ben"
            && game["side"] == "rebel",
        "{rey_page}"
    );
    ensure!(game["result"] == if rey_won { "won" } else { "lost" }, "{rey_page}");
    ensure!(
        game["rating_after"] == expected(rey_side) && game["opponent_rating"] == 1500,
        "{rey_page}"
    );
    // Rey's data download holds the same
    let export = passkey::request(addr, "GET", "/api/account/export", None, Some(&rey)).await?;
    ensure!(export.status == 200, "{}", export.body);
    ensure!(
        export.json()?["ratings"] == rey_page,
        "the download's ratings differ from the page"
    );
    let ben_page = page(addr, "Ben").await?;
    ensure!(
        ben_page["rated_games"] == 1 && ben_page["history"].as_array().map(Vec::len) == Some(1),
        "{ben_page}"
    );
    ensure!(
        ben_page["established"] == false && ben_page["rating"]["provisional"] == true,
        "{ben_page}"
    );

    // the leaderboard: nobody with 10 games yet; the side edge explained
    let (status, board) = support::http(addr, "GET", "/api/leaderboard", None).await?;
    let board: Value = serde_json::from_str(&board)?;
    ensure!(status == 200 && board["players"] == json!([]), "{board}");
    ensure!(board["side_edge"]["measured_games"].as_u64() > Some(0), "{board}");

    // a rematch: the new game shows the ratings with no change yet
    a.send(&ClientMsg::Rematch).await?;
    b.send(&ClientMsg::Rematch).await?;
    let next = a
        .recv_until("the second game's facts", |m| match m {
            ServerMsg::Room { room } if room.game_number == 2 => Some(room),
            ServerMsg::Welcome { room, .. } if room.game_number == 2 => Some(room),
            _ => None,
        })
        .await?;
    let seats = next.ratings.context("ratings")?;
    ensure!(
        seats.rebel.is_some_and(|s| s.change.is_none()) && seats.imperial.is_some_and(|s| s.change.is_none()),
        "{seats:?}"
    );

    // nobody else can make a rated room
    let mut options = support::options(Mode::Full);
    options.rated = true;
    let refused = support::post::<_, Value>(addr, "/api/rooms", &json!({"options": options})).await?;
    ensure!(
        matches!(&refused, Err((400, e)) if e.code == ErrorCode::BadMessage),
        "{refused:?}"
    );
    server.stop().await
}

#[tokio::test]
async fn a_rated_game_left_by_a_player_is_that_players_loss() -> Result<()> {
    let mut config = evr_server::Config::for_tests(support::temp_dir("ratings-left"));
    config.disconnect_grace_secs = 1;
    let server = support::start_with(config).await?;
    let addr = server.addr;
    let (_, finn) = passkey::register(addr, "Finn").await?;
    let (_, hux) = passkey::register(addr, "Hux").await?;
    let (code, finn_token, hux_token) = rated_room(addr, ("Finn", &finn), ("Hux", &hux)).await?;
    let (mut f, _) = Client::hello(addr, &code, Some(&finn_token), None).await?;
    let (h, _) = Client::hello(addr, &code, Some(&hux_token), None).await?;
    drop(h);
    let room = f.claim_win_once_allowed().await?;
    ensure!(room.forfeit_winner == Some(Faction::Rebel), "{room:?}");
    let ratings = room.ratings.context("ratings")?;
    ensure!(
        ratings.rebel.and_then(|s| s.change).unwrap_or(0) > 0
            && ratings.imperial.and_then(|s| s.change).unwrap_or(0) < 0,
        "{ratings:?}"
    );
    let huxs = page(addr, "Hux").await?;
    ensure!(huxs["lost"] == 1 && huxs["history"][0]["result"] == "lost", "{huxs}");
    server.stop().await
}

#[tokio::test]
async fn a_rated_game_both_players_ran_out_of_time_in_is_not_rated() -> Result<()> {
    let server = support::start("ratings-both-out").await?;
    let addr = server.addr;
    let (_, qira) = passkey::register(addr, "Qira").await?;
    let (_, dryden) = passkey::register(addr, "Dryden").await?;
    let clock = json!({"bank_secs": 2, "increment_secs": 0});
    let challenge = json!({"username": "Dryden", "side": "rebel", "rated": true, "spectators": "off", "clock": clock});
    let (code, token, _) = rated_room_with(addr, ("Qira", &qira), ("Dryden", &dryden), challenge).await?;
    // neither chooses their characters: both clocks run out together
    let (mut q, _) = Client::hello(addr, &code, Some(&token), None).await?;
    let room = q
        .recv_until("the end", |m| match m {
            ServerMsg::Room { room } if room.forfeit_reason.is_some() => Some(room),
            _ => None,
        })
        .await?;
    ensure!(
        room.forfeit_reason == Some(evr_protocol::ForfeitReason::BothOutOfTime),
        "{room:?}"
    );
    let seats = room.ratings.context("ratings")?;
    ensure!(
        seats.rebel.is_some_and(|s| s.change.is_none()) && seats.imperial.is_some_and(|s| s.change.is_none()),
        "{seats:?}"
    );
    for name in ["Qira", "Dryden"] {
        let p = page(addr, name).await?;
        ensure!(p["rated_games"] == 0, "{p}");
    }
    server.stop().await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_game_whose_server_is_killed_at_its_end_is_rated_once_after_the_restart() -> Result<()> {
    let dir = support::temp_dir("ratings-killed");
    std::fs::create_dir_all(&dir)?;
    let log = dir.join("server.log");
    let deal = DEAL_SEED.to_string();
    let args = [
        std::ffi::OsStr::new("--data-dir"),
        dir.as_os_str(),
        std::ffi::OsStr::new("--test-fixed-seed"),
        std::ffi::OsStr::new(&deal),
    ];
    let server = ServerProcess::start(&args, &log).await?;
    let addr = server.addr;
    let (mut leia_key, leia) = passkey::register(addr, "Leia").await?;
    let (_, han) = passkey::register(addr, "Han").await?;
    let (code, leia_token, han_token) = rated_room(addr, ("Leia", &leia), ("Han", &han)).await?;
    let (mut a, wa) = Client::hello(addr, &code, Some(&leia_token), None).await?;
    let (mut b, wb) = Client::hello(addr, &code, Some(&han_token), None).await?;
    // every action but the last, then the last one acknowledged, then SIGKILL at once
    let (seq, views) = support::play_random(&mut a, &mut b, &wa, &wb, 20_000, SEED)
        .await
        .with_context(|| format!("deal seed {DEAL_SEED}, moves' seed {SEED}"))?;
    ensure!(
        views[0].outcome.is_some(),
        "the game ended (deal seed {DEAL_SEED}, moves' seed {SEED})"
    );
    let last = a
        .frames
        .iter()
        .chain(b.frames.iter())
        .any(|f| matches!(f, ServerMsg::Ack { seq: s, .. } if *s == seq));
    ensure!(last, "the last action was acknowledged");
    drop((a, b));
    server.kill9().await?;

    let server = ServerProcess::start(&args, &log).await?;
    let addr = server.addr;
    let leia_page = page(addr, "Leia").await?;
    let han_page = page(addr, "Han").await?;
    ensure!(
        leia_page["rated_games"] == 1 && han_page["rated_games"] == 1,
        "rated once: {leia_page} {han_page}"
    );
    // the room came back over, its ratings with the change; the last action sent again (a client
    // that never saw its ack) is answered as a duplicate and rates nothing
    let (mut a, wa) = Client::hello(addr, &code, Some(&leia_token), Some(seq)).await?;
    ensure!(wa.view.outcome.is_some(), "the game is over after the restart");
    let seats = wa.room.ratings.context("ratings")?;
    ensure!(seats.rebel.is_some_and(|s| s.change.is_some()), "{seats:?}");
    a.send(&ClientMsg::Rematch).await?;
    tokio::time::sleep(Duration::from_millis(200)).await;
    ensure!(page(addr, "Leia").await?["rated_games"] == 1, "rated twice");
    // the account still signs in on the restarted server, and its page is the same
    passkey::sign_in(addr, &mut leia_key).await?;
    ensure!(page(addr, "leia").await? == leia_page, "the page changed");
    drop(a);
    server.stop().await
}
