//! Leaving and coming back: the same seat with the token, what was missed, presence, and a
//! graceful shutdown that tells clients.

use anyhow::Result;
use evr_protocol::{ClientMsg, ErrorCode, Role, ServerMsg};
use evr_rules::{LogEntry, Mode};

use crate::support::{self, Client};

#[tokio::test]
async fn a_reconnecting_player_resumes_the_seat_and_gets_what_it_missed() -> Result<()> {
    let server = support::start("resume").await?;
    let seats = support::create_and_join(server.addr, Mode::Full).await?;
    let (mut a, wa) = Client::hello(server.addr, &seats.code, Some(&seats.creator_token), None).await?;
    let (mut b, wb) = Client::hello(server.addr, &seats.code, Some(&seats.guest_token), None).await?;
    // A sees B arrive (after the presence of its own arrival).
    a.recv_presence_until(|p| p.seats.values().all(|s| s.connected)).await?;

    // A leaves; B sees it.
    drop(a);
    let gone = b.recv_presence_until(|p| !p.seats[seats.creator].connected).await?;
    assert!(gone.seats[seats.creator].claim_in_seconds.is_some());

    // B acts while A is away.
    b.send(&support::action(0, "b1", wb.view.legal_actions[0])).await?;
    b.recv_update().await?;

    // A comes back with its last seq: same seat, and the missed entry (B chose characters).
    let (_a, back) = Client::hello(server.addr, &seats.code, Some(&seats.creator_token), Some(wa.seq)).await?;
    assert_eq!(back.you, Role::Seat(seats.creator));
    assert_eq!(back.seq, 1);
    let missed = back.missed.unwrap_or_default();
    assert_eq!(missed.len(), 1, "{missed:?}");
    match &missed[0] {
        LogEntry::CharactersChosen { characters, .. } => {
            assert!(characters.is_none(), "A must not learn B's characters")
        }
        other => panic!("expected the characters chosen, got {other:?}"),
    }
    let again = b.recv_presence_until(|p| p.seats[seats.creator].connected).await?;
    assert!(again.seats[seats.creator].claim_in_seconds.is_none());
    server.stop().await
}

/// The welcome's log, then the events of every update `c` received.
fn log_seen(welcome: &support::Welcome, c: &Client) -> Vec<LogEntry> {
    let mut seen = welcome.log.clone();
    for f in &c.frames {
        if let ServerMsg::Update { events, .. } = f {
            seen.extend(events.iter().copied());
        }
    }
    seen
}

#[tokio::test]
async fn a_reload_gets_the_whole_log_of_the_game_as_its_viewer_knows_it() -> Result<()> {
    let server = support::start("reload-log").await?;
    let seats = support::create_and_join(server.addr, Mode::Full).await?;
    let (mut watcher, ww) = Client::hello(server.addr, &seats.code, None, None).await?;
    let (mut a, wa) = Client::hello(server.addr, &seats.code, Some(&seats.creator_token), None).await?;
    let (mut b, wb) = Client::hello(server.addr, &seats.code, Some(&seats.guest_token), None).await?;
    let (seq, _) = support::play_random(&mut a, &mut b, &wa, &wb, 80, 5).await?;
    watcher
        .recv_until("the last update", |m| match m {
            ServerMsg::Update { seq: s, .. } if s == seq => Some(()),
            _ => None,
        })
        .await?;

    // Reloading (a fresh hello, no last seq) brings back exactly what was seen live, for a seat and
    // for a spectator, each in its own projection.
    let (_a2, reload) = Client::hello(server.addr, &seats.code, Some(&seats.creator_token), None).await?;
    assert_eq!(reload.seq, seq);
    assert_eq!(reload.log, log_seen(&wa, &a), "the seat's whole log");
    assert!(
        reload.log.len() > reload.view.log.len(),
        "more than the current round: {} entries, {} in the round",
        reload.log.len(),
        reload.view.log.len()
    );
    let (_w2, rewatch) = Client::hello(server.addr, &seats.code, None, None).await?;
    assert_eq!(rewatch.log, log_seen(&ww, &watcher), "the spectator's whole log");
    assert_ne!(rewatch.log, reload.log, "a seat knows more than a spectator");
    server.stop().await
}

#[tokio::test]
async fn claiming_the_win_needs_the_grace_period() -> Result<()> {
    let mut config = evr_server::Config::for_tests(support::temp_dir("claim"));
    config.disconnect_grace_secs = 1;
    let server = support::start_with(config).await?;
    let seats = support::create_and_join(server.addr, Mode::Full).await?;
    let (a, _) = Client::hello(server.addr, &seats.code, Some(&seats.creator_token), None).await?;
    let (mut b, _) = Client::hello(server.addr, &seats.code, Some(&seats.guest_token), None).await?;
    b.send(&ClientMsg::ClaimWin).await?;
    assert_eq!(b.recv_error().await?, ErrorCode::CannotClaimWin);
    drop(a);
    let room = b.claim_win_once_allowed().await?;
    assert_eq!(room.forfeit_winner, Some(seats.guest));
    server.stop().await
}

#[tokio::test]
async fn shutdown_tells_clients() -> Result<()> {
    let server = support::start("shutdown").await?;
    let seats = support::create_and_join(server.addr, Mode::Full).await?;
    let (mut a, _) = Client::hello(server.addr, &seats.code, Some(&seats.creator_token), None).await?;
    server.shutdown.cancel();
    assert_eq!(a.recv_error().await?, ErrorCode::ShuttingDown);
    assert!(a.is_closed().await);
    server.task.await??;
    Ok(())
}
