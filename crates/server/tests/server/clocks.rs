//! Clocks over real sockets: both run during simultaneous choices, only the deciding side's
//! otherwise; a clock that runs out ends the game for the other side (stored, told to everyone with
//! the reason); a restart resumes the clocks from the last action without charging the downtime;
//! the computer keeps to its time; bad time controls are refused.

use std::time::Duration;

use anyhow::{Context, Result, ensure};
use evr_protocol::{
    ClockView, ComputerLevel, ErrorCode, ForfeitReason, GameArchive, LiveClock, Opponent, RoomOptions, ServerMsg,
    TimeControl, games_path,
};
use evr_rules::{ByFaction, Mode};

use crate::support::{self, Client};

fn with_clock(bank_secs: u32, increment_secs: u32) -> RoomOptions {
    RoomOptions {
        clock: Some(TimeControl::Live(LiveClock {
            bank_secs,
            increment_secs,
        })),
        ..support::options(Mode::Full)
    }
}

async fn recv_clock(c: &mut Client) -> Result<ClockView> {
    c.recv_until("clock", |m| match m {
        ServerMsg::Clock { clock } => Some(clock),
        _ => None,
    })
    .await
}

async fn recv_update_clock(c: &mut Client) -> Result<(u32, ClockView)> {
    c.recv_until("update", |m| match m {
        ServerMsg::Update { seq, clock, .. } => Some((seq, clock?)),
        _ => None,
    })
    .await
}

#[tokio::test]
async fn a_clock_that_runs_out_loses_the_game_on_time() -> Result<()> {
    let server = support::start("clock-expiry").await?;
    let addr = server.addr;
    let created = support::create_room(addr, &with_clock(2, 0)).await?;
    let (mut a, wa) = Client::hello(addr, &created.code, Some(&created.token), None).await?;
    let before = wa
        .room
        .options
        .clock
        .and_then(|c| c.live())
        .context("the room's live clock")?;
    assert_eq!(before.bank_secs, 2);
    let c = recv_welcome_clock(&a)?;
    assert_eq!(
        c.running,
        ByFaction::splat(false),
        "nothing runs before the guest takes the seat"
    );
    let joined = support::join_room(addr, &created.code, Some(&support::invite_secret(&created)?))
        .await?
        .map_err(|e| anyhow::anyhow!("join: {e:?}"))?;
    let started = recv_clock(&mut a).await?;
    assert_eq!(
        started.running,
        ByFaction::splat(true),
        "the character choice is simultaneous: both run"
    );
    let (mut b, _) = Client::hello(addr, &created.code, Some(&joined.token), None).await?;
    let (mut spectator, ws) = Client::hello(addr, &created.code, None, None).await?;
    assert_eq!(
        recv_welcome_clock(&spectator)?.running,
        ByFaction::splat(true),
        "spectators see the clocks too"
    );

    // the creator chooses at once: its clock stands, the guest's runs on
    let me = created.seat;
    let choose = *wa.view.legal_actions.first().context("a character choice")?;
    a.send(&support::action(ws.seq, "c1", choose)).await?;
    let (_, after) = recv_update_clock(&mut b).await?;
    assert!(!after.running[me] && after.running[me.opponent()]);
    assert!(after.remaining_ms[me] <= 2000 && after.remaining_ms[me] > 1000);

    // the guest never chooses: after two seconds it has lost on time, and everyone is told why
    for c in [&mut a, &mut b, &mut spectator] {
        let room = c
            .recv_until("the end", |m| match m {
                ServerMsg::Room { room } if room.forfeit_winner.is_some() => Some(room),
                _ => None,
            })
            .await?;
        assert_eq!(room.forfeit_winner, Some(me));
        assert_eq!(room.forfeit_reason, Some(ForfeitReason::Time));
        let stopped = recv_clock(c).await?;
        assert_eq!(stopped.remaining_ms[me.opponent()], 0);
        assert_eq!(stopped.running, ByFaction::splat(false));
    }
    // the game is over: no more actions; the archive says so
    b.send(&support::action(ws.seq + 1, "late", choose)).await?;
    assert_eq!(b.recv_error().await?, ErrorCode::Rule(evr_rules::RuleError::GameOver));
    let archive = support::get::<GameArchive>(addr, &games_path(&created.code))
        .await?
        .map_err(|e| anyhow::anyhow!("{e:?}"))?;
    assert!(archive.games[0].over && archive.games[0].forfeit_winner == Some(me));
    server.stop().await
}

#[tokio::test]
async fn both_clocks_running_out_together_end_the_game_with_no_winner() -> Result<()> {
    let dir = support::temp_dir("clock-both-out");
    let server = support::start_with(evr_server::Config::for_tests(dir.clone())).await?;
    let addr = server.addr;
    let created = support::create_room(addr, &with_clock(2, 0)).await?;
    let (mut a, _) = Client::hello(addr, &created.code, Some(&created.token), None).await?;
    support::join_room(addr, &created.code, Some(&support::invite_secret(&created)?))
        .await?
        .map_err(|e| anyhow::anyhow!("join: {e:?}"))?;
    // neither chooses their characters: both clocks run out at the same moment
    let room = a
        .recv_until("the end", |m| match m {
            ServerMsg::Room { room } if room.forfeit_reason.is_some() => Some(room),
            _ => None,
        })
        .await?;
    assert_eq!(room.forfeit_winner, None, "not the Rebel's loss: nobody's win");
    assert_eq!(room.forfeit_reason, Some(ForfeitReason::BothOutOfTime));
    let archive = support::get::<GameArchive>(addr, &games_path(&created.code))
        .await?
        .map_err(|e| anyhow::anyhow!("{e:?}"))?;
    let game = &archive.games[0];
    assert!(
        game.over && game.forfeit_winner.is_none() && game.outcome.is_none(),
        "{game:?}"
    );
    assert_eq!(game.forfeit_reason, Some(ForfeitReason::BothOutOfTime));
    // and so it stays after a restart
    server.stop().await?;
    let server = support::start_with(evr_server::Config::for_tests(dir)).await?;
    let (mut a, w) = Client::hello(server.addr, &created.code, Some(&created.token), None).await?;
    assert_eq!(
        (w.room.forfeit_winner, w.room.forfeit_reason),
        (None, Some(ForfeitReason::BothOutOfTime))
    );
    let choose = *w.view.legal_actions.first().context("the engine's choice")?;
    a.send(&support::action(w.seq, "late", choose)).await?;
    assert_eq!(a.recv_error().await?, ErrorCode::Rule(evr_rules::RuleError::GameOver));
    server.stop().await
}

fn recv_welcome_clock(c: &Client) -> Result<ClockView> {
    c.frames
        .iter()
        .rev()
        .find_map(|f| match f {
            ServerMsg::Welcome { clock, .. } => *clock,
            _ => None,
        })
        .context("a welcome with the clocks")
}

#[tokio::test]
async fn a_restart_resumes_the_clocks_without_charging_the_downtime() -> Result<()> {
    let dir = support::temp_dir("clock-restart");
    let server = support::start_with(evr_server::Config::for_tests(dir.clone())).await?;
    let addr = server.addr;
    let created = support::create_room(addr, &with_clock(600, 5)).await?;
    let joined = support::join_room(addr, &created.code, Some(&support::invite_secret(&created)?))
        .await?
        .map_err(|e| anyhow::anyhow!("join: {e:?}"))?;
    let (mut a, wa) = Client::hello(addr, &created.code, Some(&created.token), None).await?;
    let (mut b, wb) = Client::hello(addr, &created.code, Some(&joined.token), None).await?;
    let (_, views) = support::play_random(&mut a, &mut b, &wa, &wb, 6, 3).await?;
    ensure!(views[0].outcome.is_none());
    let last = a
        .frames
        .iter()
        .rev()
        .find_map(|f| match f {
            ServerMsg::Update { clock, .. } => *clock,
            _ => None,
        })
        .context("an update with the clocks")?;
    assert!(
        evr_rules::Faction::BOTH
            .iter()
            .all(|f| last.remaining_ms[*f] > 600_000 - 5_000),
        "six quick decisions with +5 s: {last:?}"
    );
    server.stop().await?;
    // the banks as stored with the last action (what a restart resumes from)
    let stored = {
        let store = evr_store::SqliteStore::open(&dir)?;
        let room = evr_store::Store::load_room(&store, &created.code)?.context("the room is stored")?;
        let game = room.game.context("its game")?;
        let banks = game
            .actions
            .last()
            .and_then(|a| a.clock_ms)
            .context("banks stored with the last action")?;
        evr_store::Store::close(&store);
        banks
    };
    let down = Duration::from_millis(1500);
    tokio::time::sleep(down).await;

    let server = support::start_with(evr_server::Config::for_tests(dir)).await?;
    // The room is loaded by this hello, and its clock runs from then: it can have been charged for
    // no more than the hello took, however slow the machine (the downtime is longer than that).
    let asked = std::time::Instant::now();
    let (c, _) = Client::hello(server.addr, &created.code, Some(&created.token), None).await?;
    let hello_ms = u64::try_from(asked.elapsed().as_millis())? + 1;
    let resumed = recv_welcome_clock(&c)?;
    assert_eq!(resumed.running, last.running, "the same side decides");
    for f in evr_rules::Faction::BOTH {
        let (before, now) = (stored[f], resumed.remaining_ms[f]);
        assert!(now <= before, "{f:?}: nothing given back ({before} stored → {now})");
        assert!(
            before - now <= hello_ms,
            "{f:?}: not reset, and the {down:?} the server was down were not charged ({before} stored → {now}, the hello took {hello_ms} ms)"
        );
    }
    server.stop().await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_computer_keeps_to_its_time() -> Result<()> {
    let server = support::start("clock-computer").await?;
    let mut options = with_clock(8, 0);
    options.opponent = Some(Opponent::Computer {
        level: ComputerLevel::Normal,
    });
    let created = support::create_room(server.addr, &options).await?;
    let (mut me, welcome) = Client::hello(server.addr, &created.code, Some(&created.token), None).await?;
    let (end, computer_moves) = crate::computer::play_against_computer(&mut me, welcome, 11).await?;
    assert!(
        end.outcome.is_some(),
        "the game ended by the rules, nobody ran out of time"
    );
    assert!(computer_moves > 10, "the computer played ({computer_moves} decisions)");
    assert!(
        !me.frames
            .iter()
            .any(|f| matches!(f, ServerMsg::Room { room } if room.forfeit_reason == Some(ForfeitReason::Time))),
        "nobody lost on time"
    );
    server.stop().await
}

#[tokio::test]
async fn time_controls_out_of_bounds_are_refused() -> Result<()> {
    let mut config = evr_server::Config::for_tests(support::temp_dir("clock-bounds"));
    config.min_clock_bank_secs = TimeControl::MIN_BANK_SECS;
    let server = support::start_with(config).await?;
    for (bank, increment) in [(59, 0), (5_401, 0), (600, 121)] {
        let refused = support::post::<_, evr_protocol::CreatedRoom>(
            server.addr,
            evr_protocol::CREATE_ROOM_PATH,
            &with_clock(bank, increment),
        )
        .await?;
        let (status, body) = refused.err().context("refused")?;
        assert_eq!((status, body.code), (400, ErrorCode::BadMessage), "{bank}+{increment}");
    }
    for (bank, increment) in [(600, 10), (1200, 20), (60, 0), (5_400, 120)] {
        support::create_room(server.addr, &with_clock(bank, increment)).await?;
    }
    server.stop().await
}

#[tokio::test]
async fn an_away_players_clock_keeps_running_and_the_win_can_still_be_claimed() -> Result<()> {
    let mut config = evr_server::Config::for_tests(support::temp_dir("clock-away"));
    config.disconnect_grace_secs = 1;
    let server = support::start_with(config).await?;
    let addr = server.addr;
    let created = support::create_room(addr, &with_clock(600, 0)).await?;
    let joined = support::join_room(addr, &created.code, Some(&support::invite_secret(&created)?))
        .await?
        .map_err(|e| anyhow::anyhow!("join: {e:?}"))?;
    let (mut a, wa) = Client::hello(addr, &created.code, Some(&created.token), None).await?;
    let (b, _) = Client::hello(addr, &created.code, Some(&joined.token), None).await?;
    // the creator makes its character choice; the guest leaves before making its own
    let choose = *wa.view.legal_actions.first().context("a character choice")?;
    a.send(&support::action(wa.seq, "c1", choose)).await?;
    let (_, after) = recv_update_clock(&mut a).await?;
    let away = created.seat.opponent();
    assert!(after.running[away]);
    drop(b);
    tokio::time::sleep(Duration::from_millis(1300)).await;
    // the away player's clock ran on meanwhile, as a fresh connection is told
    let (watcher, _) = Client::hello(addr, &created.code, None, None).await?;
    let now = recv_welcome_clock(&watcher)?;
    assert!(now.running[away], "it still runs");
    assert!(
        now.remaining_ms[away] <= after.remaining_ms[away] - 1200,
        "it ran while the player was away: {} then {}",
        after.remaining_ms[away],
        now.remaining_ms[away]
    );
    // and the claim-win flow is unchanged: the clocks stop with the claim
    a.send(&evr_protocol::ClientMsg::ClaimWin).await?;
    let room = a.recv_room().await?;
    assert_eq!(room.forfeit_winner, Some(created.seat));
    assert_eq!(room.forfeit_reason, Some(ForfeitReason::OpponentAway));
    assert_eq!(recv_clock(&mut a).await?.running, ByFaction::splat(false));
    server.stop().await
}
