//! Idle rooms hibernate, then leave memory, and come back from the store exactly as they were.

use std::net::SocketAddr;
use std::time::Duration;

use anyhow::{Result, bail};
use evr_rules::Mode;

use crate::support::{self, Client, Seats, Welcome};

/// The value of a counter on `/metrics` (0 before it is first counted).
pub(crate) async fn counter(addr: SocketAddr, name: &str) -> Result<f64> {
    let (_, text) = support::http(addr, "GET", "/metrics", None).await?;
    Ok(text
        .lines()
        .find_map(|l| l.strip_prefix(name).and_then(|rest| rest.trim().parse::<f64>().ok()))
        .unwrap_or(0.0))
}

/// Waits (up to 15 s) until counter `name` reaches `at_least`; returns how long that took.
pub(crate) async fn counter_reaches(addr: SocketAddr, name: &str, at_least: f64) -> Result<Duration> {
    let mut waited = Duration::ZERO;
    while counter(addr, name).await? < at_least {
        if waited > Duration::from_secs(15) {
            bail!("{name} did not reach {at_least}");
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
        waited += Duration::from_millis(100);
    }
    Ok(waited)
}

async fn both(addr: SocketAddr, seats: &Seats, last: Option<u32>) -> Result<(Client, Welcome, Client, Welcome)> {
    let (a, wa) = Client::hello(addr, &seats.code, Some(&seats.creator_token), last).await?;
    let (b, wb) = Client::hello(addr, &seats.code, Some(&seats.guest_token), last).await?;
    Ok((a, wa, b, wb))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_rooms_leave_memory_and_come_back_exactly() -> Result<()> {
    let mut config = evr_server::Config::for_tests(support::temp_dir("idle"));
    config.room_idle_secs = 1;
    config.disconnect_grace_secs = 2;
    let server = support::start_with(config).await?;
    let addr = server.addr;
    let released_before = counter(addr, "evr_rooms_released_total").await?;
    let loaded_before = counter(addr, "evr_rooms_loaded_total").await?;

    // Two rooms, played for a while, then everybody leaves.
    let game = support::create_and_join(addr, Mode::Full).await?;
    let (mut a, wa, mut b, wb) = both(addr, &game, None).await?;
    let (seq, views) = support::play_random(&mut a, &mut b, &wa, &wb, 40, 1).await?;
    let claim = support::create_and_join(addr, Mode::Full).await?;
    let (c, _, d, _) = both(addr, &claim, None).await?;
    drop((a, b, c, d));

    // Both rooms are released (no connection for a second), not earlier than that.
    let waited = counter_reaches(addr, "evr_rooms_released_total", released_before + 2.0).await?;
    assert!(
        waited >= Duration::from_millis(500),
        "released after {waited:?}, before the idle time"
    );

    // Coming back loads the room from the store: same seq, same views, and it plays to the end.
    let (mut a, wa, mut b, wb) = both(addr, &game, Some(seq)).await?;
    assert_eq!(wa.seq, seq);
    // (updates leave out the round's log, which the welcome carries)
    assert_eq!(
        support::without_log(&wa.view),
        views[0],
        "the creator's view is exactly as it was"
    );
    assert_eq!(
        support::without_log(&wb.view),
        views[1],
        "the guest's view is exactly as it was"
    );
    assert!(counter(addr, "evr_rooms_loaded_total").await? >= loaded_before + 1.0);
    let (_, end) = support::play_random(&mut a, &mut b, &wa, &wb, 5000, 2).await?;
    assert!(end[0].outcome.is_some(), "the reloaded game finished");

    // In the other room only the guest comes back: the creator counts as away since the room was
    // loaded, so after the grace period the guest may claim the win.
    let (mut d, wd) = Client::hello(addr, &claim.code, Some(&claim.guest_token), None).await?;
    assert!(
        wd.presence.seats[claim.creator].claim_in_seconds.is_some(),
        "the absent creator has a claim clock: {:?}",
        wd.presence
    );
    let room = d.claim_win_once_allowed().await?;
    assert_eq!(room.forfeit_winner, Some(claim.guest));
    server.stop().await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_room_left_alone_hibernates_and_wakes_exactly_as_it_was() -> Result<()> {
    let mut config = evr_server::Config::for_tests(support::temp_dir("hibernate"));
    config.room_hibernate_secs = 1;
    config.disconnect_grace_secs = 5;
    let server = support::start_with(config).await?;
    let addr = server.addr;
    let hibernated_before = counter(addr, "evr_rooms_hibernated_total").await?;
    let woken_before = counter(addr, "evr_rooms_woken_total").await?;

    let game = support::create_and_join(addr, Mode::Full).await?;
    let (mut a, wa, mut b, wb) = both(addr, &game, None).await?;
    let (seq, views) = support::play_random(&mut a, &mut b, &wa, &wb, 40, 3).await?;
    let left = std::time::Instant::now();
    drop((a, b));

    counter_reaches(addr, "evr_rooms_hibernated_total", hibernated_before + 1.0).await?;
    assert!(
        left.elapsed() >= Duration::from_millis(900),
        "hibernated after {:?}, before the hibernation time",
        left.elapsed()
    );
    // Asleep, it still says whether the seat is free, without waking.
    let (status, body) = support::http(addr, "GET", &evr_protocol::room_path(&game.code), None).await?;
    assert_eq!(status, 200);
    assert!(body.contains(r#""seat_free":false"#), "{body}");
    assert_eq!(counter(addr, "evr_rooms_woken_total").await?, woken_before);

    // The guest comes back: the room wakes exactly as it was, and the creator's absence counted
    // all along (the claim clock did not restart when the room woke).
    while left.elapsed() < Duration::from_millis(2200) {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let (mut b, wb) = Client::hello(addr, &game.code, Some(&game.guest_token), Some(seq)).await?;
    assert_eq!(counter(addr, "evr_rooms_woken_total").await?, woken_before + 1.0);
    assert_eq!(wb.seq, seq);
    assert_eq!(
        support::without_log(&wb.view),
        views[1],
        "the guest's view is exactly as it was"
    );
    let claim = wb.presence.seats[game.creator].claim_in_seconds;
    assert!(
        claim.is_some_and(|s| s <= 3),
        "the creator has been away over 2 s of a 5 s grace: {claim:?}"
    );
    let (mut a, wa) = Client::hello(addr, &game.code, Some(&game.creator_token), Some(seq)).await?;
    assert_eq!(
        support::without_log(&wa.view),
        views[0],
        "the creator's view is exactly as it was"
    );
    let (_, end) = support::play_random(&mut a, &mut b, &wa, &wb, 5000, 4).await?;
    assert!(end[0].outcome.is_some(), "the woken game finished");
    server.stop().await
}
