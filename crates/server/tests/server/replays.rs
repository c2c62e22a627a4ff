//! Replay files over HTTP: none while the game is played, none until both players agreed to reveal
//! it; then a file that `evr verify`'s check accepts, whose commitment is the one shown at the start,
//! gzipped for a client that accepts it. Bad requests get their error codes.

use std::io::Read;
use std::net::SocketAddr;

use anyhow::{Context, Result, anyhow, bail};
use evr_protocol::{ClientMsg, ErrorCode, GameArchive, games_path, replay_path};
use evr_replay::{Replay, verify};
use evr_rules::Mode;

use crate::support::{self, Client};

async fn archive(addr: SocketAddr, code: &str) -> Result<GameArchive> {
    support::get::<GameArchive>(addr, &games_path(code))
        .await?
        .map_err(|(status, body)| anyhow!("archive refused: {status} {body:?}"))
}

async fn refused(addr: SocketAddr, path: &str) -> Result<(u16, ErrorCode)> {
    match support::get::<Replay>(addr, path).await? {
        Ok(_) => bail!("{path} was served"),
        Err((status, body)) => Ok((status, body.code)),
    }
}

#[tokio::test]
async fn a_replay_is_served_only_when_the_game_is_over_and_both_players_revealed_it() -> Result<()> {
    let server = support::start("replays").await?;
    let addr = server.addr;
    let seats = support::create_and_join(addr, Mode::Full).await?;
    let (mut spectator, _) = Client::hello(addr, &seats.code, None, None).await?;
    let (mut a, wa) = Client::hello(addr, &seats.code, Some(&seats.creator_token), None).await?;
    let (mut b, wb) = Client::hello(addr, &seats.code, Some(&seats.guest_token), None).await?;
    let path = replay_path(&seats.code, 1);

    // being played: the archive says only that; no replay, and nothing to reveal yet
    let during = archive(addr, &seats.code).await?;
    assert_eq!(during.games.len(), 1);
    let g = &during.games[0];
    assert!(g.number == 1 && !g.over && g.outcome.is_none() && !g.replay_available && g.started_at.is_some());
    assert_eq!(
        refused(addr, &games_path("ZZZZZZZZ")).await?,
        (404, ErrorCode::RoomNotFound)
    );
    assert_eq!(refused(addr, &path).await?, (409, ErrorCode::GameNotOver));
    a.send(&ClientMsg::RevealReplay).await?;
    assert_eq!(a.recv_error().await?, ErrorCode::GameNotOver);
    // bad requests
    assert_eq!(
        refused(addr, &replay_path("ZZZZZZZZ", 1)).await?,
        (404, ErrorCode::RoomNotFound)
    );
    assert_eq!(
        refused(addr, &replay_path(&seats.code, 9)).await?,
        (404, ErrorCode::GameNotFound)
    );

    let (_, end) = support::play_random(&mut a, &mut b, &wa, &wb, 5000, 77).await?;
    assert!(end[0].outcome.is_some(), "the game finished");
    for c in [&mut a, &mut b, &mut spectator] {
        let over = c.recv_room().await?;
        assert_eq!(over.reveal_agreed, [false, false]);
    }
    assert_eq!(refused(addr, &path).await?, (403, ErrorCode::ReplayNotRevealed));
    let after = archive(addr, &seats.code).await?;
    assert!(after.games[0].over && after.games[0].outcome == end[0].outcome && !after.games[0].replay_available);

    // a spectator has nothing to reveal; one player is not enough
    spectator.send(&ClientMsg::RevealReplay).await?;
    assert_eq!(spectator.recv_error().await?, ErrorCode::SpectatorCannotAct);
    a.send(&ClientMsg::RevealReplay).await?;
    let creator = seats.creator;
    for c in [&mut a, &mut b, &mut spectator] {
        let room = c.recv_room().await?;
        assert!(room.reveal_agreed[creator] && !room.reveal_agreed[creator.opponent()]);
    }
    assert_eq!(refused(addr, &path).await?, (403, ErrorCode::ReplayNotRevealed));
    b.send(&ClientMsg::RevealReplay).await?;
    for c in [&mut a, &mut b, &mut spectator] {
        assert_eq!(c.recv_room().await?.reveal_agreed, [true, true]);
    }

    // both agreed: the file, verified, under the commitment shown at the start
    let file = match support::get::<Replay>(addr, &path).await? {
        Ok(file) => file,
        Err((status, body)) => bail!("not served: {status} {body:?}"),
    };
    let checked = verify(&file).map_err(|e| anyhow!("the served replay does not verify: {e}"))?;
    assert_eq!(checked.outcome, end[0].outcome);
    let commitment = wa.room.fairness.clone().context("a commitment")?.commitment;
    assert_eq!(file.fairness.commitment, commitment);
    assert_eq!(file.game_number, 1);
    assert_eq!(file.creator_faction, seats.creator);

    // compressed for a client that accepts gzip; the same file inside
    let (status, head, body) = support::get_gzip(addr, &path, None).await?;
    assert_eq!(status, 200);
    assert!(head.contains("content-encoding: gzip"), "{head}");
    assert!(head.contains("content-disposition: attachment"), "{head}");
    let mut json = String::new();
    flate2::read::GzDecoder::new(&body[..]).read_to_string(&mut json)?;
    assert_eq!(serde_json::from_str::<Replay>(&json)?, file);
    println!(
        "replay of a {}-action game: {} bytes of JSON, {} bytes gzipped",
        file.actions.len(),
        json.len(),
        body.len()
    );
    assert!(
        body.len() < 30 * 1024,
        "a game's replay is under 30 KB gzipped ({} bytes)",
        body.len()
    );

    // a rematch keeps the archive: game 1 and its replay stay, game 2 is being played
    a.send(&ClientMsg::Rematch).await?;
    b.recv_room().await?;
    b.send(&ClientMsg::Rematch).await?;
    a.recv_welcome().await?;
    let kept = archive(addr, &seats.code).await?;
    assert_eq!(kept.games.iter().map(|g| g.number).collect::<Vec<_>>(), vec![1, 2]);
    assert!(kept.games[0].replay_available && kept.games[0].outcome == end[0].outcome);
    assert!(!kept.games[1].over && !kept.games[1].replay_available);
    assert!(
        support::get::<Replay>(addr, &path).await?.is_ok(),
        "game 1's replay is still served"
    );
    assert_eq!(
        refused(addr, &replay_path(&seats.code, 2)).await?,
        (409, ErrorCode::GameNotOver)
    );
    server.stop().await
}

#[tokio::test]
async fn a_room_created_to_reveal_at_the_end_serves_each_replay_without_asking() -> Result<()> {
    let server = support::start("reveal-at-end").await?;
    let addr = server.addr;
    let options = evr_protocol::RoomOptions {
        reveal_at_end: true,
        ..support::options(Mode::Tutorial)
    };
    let seats = support::create_and_join_with(addr, &options).await?;
    let (mut a, wa) = Client::hello(addr, &seats.code, Some(&seats.creator_token), None).await?;
    let (mut b, wb) = Client::hello(addr, &seats.code, Some(&seats.guest_token), None).await?;
    assert_eq!(
        wb.room.reveal_agreed,
        [true, true],
        "the guest joined a room that says so"
    );
    assert!(wb.room.options.reveal_at_end);
    let path = replay_path(&seats.code, 1);
    assert_eq!(
        refused(addr, &path).await?,
        (409, ErrorCode::GameNotOver),
        "still nothing during the game"
    );

    let (_, end) = support::play_random(&mut a, &mut b, &wa, &wb, 5000, 91).await?;
    assert!(end[0].outcome.is_some());
    let file = support::get::<Replay>(addr, &path)
        .await?
        .map_err(|(status, body)| anyhow!("not served: {status} {body:?}"))?;
    verify(&file).map_err(|e| anyhow!("does not verify: {e}"))?;
    assert!(archive(addr, &seats.code).await?.games[0].replay_available);
    server.stop().await
}

#[tokio::test]
async fn a_room_without_spectators_shows_its_games_to_its_players_only() -> Result<()> {
    let server = support::start("private-games").await?;
    let addr = server.addr;
    let options = evr_protocol::RoomOptions {
        spectators: evr_protocol::SpectatorPolicy::Off,
        ..support::options(Mode::Tutorial)
    };
    let seats = support::create_and_join_with(addr, &options).await?;
    let (mut a, wa) = Client::hello(addr, &seats.code, Some(&seats.creator_token), None).await?;
    let (mut b, wb) = Client::hello(addr, &seats.code, Some(&seats.guest_token), None).await?;
    let games = games_path(&seats.code);
    let steps = format!("{games}/1/steps");
    // What the room's code alone (or a token of no seat of it) gets, and what a seat's token gets.
    let answers = |path: String| {
        let (created, joined) = (seats.creator_token.clone(), seats.guest_token.clone());
        async move {
            let mut got = Vec::new();
            for token in [
                None,
                Some("0123456789abcdef0123456789abcdef"),
                Some(created.as_str()),
                Some(joined.as_str()),
            ] {
                let (status, body) = support::http_as(addr, "GET", &path, None, token).await?;
                // a refusal's error code (an answer's own `code` is the room's)
                let body: serde_json::Value = serde_json::from_str(&body)?;
                got.push((
                    status,
                    (status != 200)
                        .then(|| body["code"].as_str().map(str::to_owned))
                        .flatten(),
                ));
            }
            anyhow::Ok(got)
        }
    };
    let refused = (403, Some("spectators_not_allowed".to_owned()));
    // during play: the archive is its players'; the steps of a game being played are nobody's
    assert_eq!(
        answers(games.clone()).await?,
        [refused.clone(), refused.clone(), (200, None), (200, None)]
    );
    let not_over = (409, Some("game_not_over".to_owned()));
    assert_eq!(
        answers(steps.clone()).await?,
        [refused.clone(), refused.clone(), not_over.clone(), not_over]
    );
    let (_, end) = support::play_random(&mut a, &mut b, &wa, &wb, 5000, 93).await?;
    assert!(end[0].outcome.is_some());
    // after it: the same, and each player replays it
    assert_eq!(
        answers(games).await?,
        [refused.clone(), refused.clone(), (200, None), (200, None)]
    );
    assert_eq!(
        answers(steps).await?,
        [refused.clone(), refused.clone(), (200, None), (200, None)]
    );
    // the replay file, once both agreed to reveal it, is its players' too (since stop 41: anyone with
    // the code downloaded it)
    for c in [&mut a, &mut b] {
        c.send(&ClientMsg::RevealReplay).await?;
    }
    for c in [&mut a, &mut b] {
        while c.recv_room().await?.reveal_agreed != [true, true] {}
    }
    assert_eq!(
        answers(replay_path(&seats.code, 1)).await?,
        [refused.clone(), refused, (200, None), (200, None)]
    );
    server.stop().await
}
