//! The bot client joins a real server with an invite link and plays its seat to the end against a
//! person-like client choosing random legal actions.

// Test code: a failed unwrap is a failed test, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use anyhow::{Context, Result, bail};
use evr_bot::{Bot, BotConfig, Level};
use evr_bot_client::{Connection, Invite, http, join, play_seat};
use evr_protocol::{ClientMsg, ErrorCode, RoomOptions, ServerMsg, SideChoice, SpectatorPolicy};
use evr_rules::Mode;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bot_client_joins_by_invite_and_plays_a_whole_game() -> Result<()> {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("botclient-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut config = evr_server::Config::for_tests(dir);
    config.public_origin = String::new();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    let shutdown = tokio_util::sync::CancellationToken::new();
    let server = tokio::spawn(evr_server::run(listener, config, shutdown.clone()));

    let options = RoomOptions {
        side: SideChoice::Rebel,
        mode: Mode::Full,
        spectators: SpectatorPolicy::Off,
        opponent: None,
        reveal_at_end: false,
        clock: None,
        rated: false,
    };
    let created = http::create_room(addr, &options).await?;
    assert_eq!(created.watch_url, None, "no watch link in a room without spectators");
    let invite = Invite::parse(&format!("http://{addr}{}", created.invite_url.unwrap_or_default()))?;
    assert_eq!(invite.code, created.code);
    let seat = join(&invite).await?;
    assert_eq!(seat.faction, evr_rules::Faction::Imperial);
    let bot_task = tokio::spawn(async move {
        let mut bot = Bot::new(BotConfig::with_iterations(Level::Easy, 3, 0));
        play_seat(invite.server, &invite.code, &seat.token, &mut bot, 1).await
    });

    // The person: random legal actions, one decision per view.
    let mut ws = Connection::hello(addr, &created.code, Some(&created.token), None).await?;
    let mut rng = StdRng::seed_from_u64(5);
    let mut acted_on = None;
    loop {
        let Some(m) = ws.recv().await? else {
            bail!("closed by the server")
        };
        let (seq, view) = match m {
            ServerMsg::Welcome { seq, .. } | ServerMsg::Update { seq, .. } => {
                (seq, ws.view().cloned().context("a view")?)
            }
            ServerMsg::Error {
                code: ErrorCode::StaleAction,
                ..
            } => {
                acted_on = None;
                continue;
            }
            _ => continue,
        };
        if view.outcome.is_some() {
            break;
        }
        let legal = &view.legal_actions;
        if !legal.is_empty() && acted_on != Some(seq) {
            let action = legal[rng.random_range(0..legal.len())];
            ws.send(&ClientMsg::Action {
                based_on: seq,
                action_id: format!("p{seq}"),
                action,
            })
            .await?;
            acted_on = Some(seq);
        }
    }
    let summary = bot_task.await??;
    assert_eq!(summary.games, 1);
    assert!(summary.actions > 10, "the bot played its side: {summary:?}");
    shutdown.cancel();
    server.await??;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_seat_is_reported_with_its_fatal_code_and_not_retried() -> Result<()> {
    let dir =
        std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("botclient-bad-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    let shutdown = tokio_util::sync::CancellationToken::new();
    let server = tokio::spawn(evr_server::run(
        listener,
        evr_server::Config::for_tests(dir),
        shutdown.clone(),
    ));
    let options = RoomOptions {
        side: SideChoice::Random,
        mode: Mode::Tutorial,
        spectators: SpectatorPolicy::AnyoneWithLink,
        opponent: None,
        reveal_at_end: false,
        clock: None,
        rated: false,
    };
    let created = http::create_room(addr, &options).await?;
    let mut bot = Bot::new(BotConfig::with_iterations(Level::Easy, 3, 0));
    let started = std::time::Instant::now();
    let err = play_seat(addr, &created.code, "not-a-token", &mut bot, 1)
        .await
        .unwrap_err();
    match &err {
        evr_bot_client::ClientError::Refused { code, .. } => assert_eq!(*code, ErrorCode::BadToken),
        other => bail!("expected a refusal, got {other}"),
    }
    assert!(!err.is_retryable());
    assert!(
        started.elapsed().as_secs() < 2,
        "a fatal refusal is not retried with backoff"
    );
    let joined = http::join_room(addr, &created.code, "wrong-secret").await.unwrap_err();
    match joined {
        evr_bot_client::ClientError::Api { status, body } => {
            assert_eq!((status, body.code), (403, ErrorCode::BadToken));
        }
        other => bail!("expected an API refusal, got {other}"),
    }
    shutdown.cancel();
    server.await??;
    Ok(())
}
