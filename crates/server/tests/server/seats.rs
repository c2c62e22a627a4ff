//! Seats: the room code lets people watch and never takes a seat; a friend takes the free seat with
//! the room code and its join code, whose wrong guesses are bounded per address and per room (in
//! the store, so a restart forgets nothing); a seat moves to another device with a one-time link;
//! a seat's summary says whose turn it is (and, over days, how long it has). Names are in `names.rs`.

use anyhow::{Result, anyhow, ensure};
use evr_protocol::{
    ClientMsg, Correspondence, ErrorCode, JoinRequest, MAX_SEAT_DEVICES, MAX_WRONG_JOIN_CODES, Role, RoomStatus,
    SeatState, ServerMsg, TRANSFER_LINK_SECS, TimeControl, room_path,
};
use evr_rules::Mode;
use evr_store::{FIRST_EPOCH, SqliteStore, Store, StoredSeat, WriteOp};
use serde_json::json;

use crate::support::{self, Client, seats};

/// A join code other than `right` (the `n`th).
fn wrong_code(right: &str, n: u32) -> String {
    let mut guess = format!("{:06}", (n * 7919 + 13) % 1_000_000);
    if guess == right {
        guess = format!("{:06}", (n * 7919 + 14) % 1_000_000);
    }
    guess
}

async fn seat_free(addr: std::net::SocketAddr, code: &str) -> Result<bool> {
    let status: RoomStatus = support::get(addr, &room_path(code))
        .await?
        .map_err(|e| anyhow!("status: {e:?}"))?;
    Ok(status.seat_free)
}

#[tokio::test]
async fn a_spectator_with_the_room_code_cannot_take_the_seat() -> Result<()> {
    let server = support::start("spectator-seat").await?;
    let addr = server.addr;
    let created = support::create_room(addr, &support::options(Mode::Full)).await?;
    // the spectator watches with the code alone, and reads it in the room's facts
    let (_watcher, welcome) = Client::hello(addr, &created.code, None, None).await?;
    assert_eq!(welcome.you, Role::Spectator);
    let code = welcome.room.code.clone();
    for body in [
        json!({}),
        json!({"invite": null}),
        json!({"join_code": null}),
        json!({"name": "Eve"}),
    ] {
        let (status, refusal) = support::post_raw(addr, &format!("/api/rooms/{code}/join"), body.clone()).await?;
        assert_eq!(
            (status, refusal["code"].as_str()),
            (400, Some("bad_message")),
            "{body}: the code alone takes no seat"
        );
    }
    let (status, refusal) = support::post_raw(
        addr,
        &format!("/api/rooms/{code}/join"),
        json!({"invite": "", "join_code": "1"}),
    )
    .await?;
    assert_eq!(
        (status, refusal["code"].as_str()),
        (400, Some("bad_message")),
        "one secret at a time"
    );
    let empty = support::join_room(addr, &code, Some("")).await?;
    assert_eq!(empty.err().map(|(s, e)| (s, e.code)), Some((403, ErrorCode::BadToken)));
    // a seat token it does not have: the watch link's room code is not one
    let mut c = Client::connect(addr, &code).await?;
    c.send(&support::hello(Some(&code), None)).await?;
    assert_eq!(c.recv_error().await?, ErrorCode::BadToken);
    assert!(seat_free(addr, &code).await?, "the seat is still free");
    server.stop().await
}

#[tokio::test]
async fn a_burst_of_wrong_join_codes_is_refused_and_takes_no_seat() -> Result<()> {
    // the release limits: 10 join codes a minute from one address
    let server = support::start("join-burst").await?;
    let addr = server.addr;
    let created = support::create_room(addr, &support::options(Mode::Full)).await?;
    let right = created.join_code.clone().expect("a join code");
    let mut answers = Vec::new();
    for n in 0..15 {
        let answer = seats::join_by_code(addr, &created.code, &wrong_code(&right, n), None).await?;
        answers.push(answer.err().map(|(s, e)| (s, e.code)));
    }
    let (first, rest) = answers.split_at(10);
    ensure!(
        first.iter().all(|a| *a == Some((403, ErrorCode::BadJoinCode))),
        "the first ten are wrong codes: {first:?}"
    );
    ensure!(
        rest.iter().all(|a| *a == Some((429, ErrorCode::TooManyJoinAttempts))),
        "then the address must wait: {rest:?}"
    );
    // even the right code waits now: nothing is learned by trying on
    let right_now = seats::join_by_code(addr, &created.code, &right, None).await?;
    assert_eq!(
        right_now.err().map(|(s, e)| (s, e.code)),
        Some((429, ErrorCode::TooManyJoinAttempts))
    );
    assert!(seat_free(addr, &created.code).await?, "no guess took the seat");
    // the invite link is not limited
    let joined = support::join_room(addr, &created.code, Some(&support::invite_secret(&created)?)).await?;
    assert!(joined.is_ok(), "{joined:?}");
    server.stop().await
}

#[tokio::test]
async fn a_room_takes_a_bounded_number_of_wrong_join_codes_even_across_a_restart() -> Result<()> {
    let dir = support::temp_dir("join-room-limit");
    let config = || {
        let mut c = evr_server::Config::for_tests(dir.clone());
        // this test is about the room's own bound: let one address try as often as it likes
        c.join_codes_per_minute = 10_000;
        c
    };
    let server = support::start_with(config()).await?;
    let addr = server.addr;
    let created = support::create_room(addr, &support::options(Mode::Full)).await?;
    let right = created.join_code.clone().expect("a join code");
    for n in 0..MAX_WRONG_JOIN_CODES {
        let answer = seats::join_by_code(addr, &created.code, &wrong_code(&right, n), None).await?;
        ensure!(
            answer.err().map(|(_, e)| e.code) == Some(ErrorCode::BadJoinCode),
            "wrong code {n} is refused as wrong"
        );
    }
    let locked = seats::join_by_code(addr, &created.code, &right, None).await?;
    assert_eq!(
        locked.err().map(|(s, e)| (s, e.code)),
        Some((429, ErrorCode::TooManyJoinAttempts)),
        "after {MAX_WRONG_JOIN_CODES} wrong codes the room's code stops working, the right one too"
    );
    server.stop().await?;

    // the count is stored: a restarted server still refuses the code
    let server = support::start_with(config()).await?;
    let addr = server.addr;
    let locked = seats::join_by_code(addr, &created.code, &right, None).await?;
    assert_eq!(locked.err().map(|(_, e)| e.code), Some(ErrorCode::TooManyJoinAttempts));
    // only the creator makes a new invite
    for token in [None, Some("0123456789abcdef0123456789abcdef")] {
        let refused = seats::new_invite(addr, &created.code, token).await?;
        assert_eq!(
            refused.err().map(|(s, e)| (s, e.code)),
            Some((403, ErrorCode::BadToken))
        );
    }
    let fresh = seats::new_invite(addr, &created.code, Some(&created.token))
        .await?
        .map_err(|e| anyhow!("the creator's new invite: {e:?}"))?;
    assert_ne!(fresh.join_code, right, "a new code");
    assert!(fresh.invite_url.contains(&format!("/r/{}/join#", created.code)));
    // the old invite link stopped working; the new code works
    let old = support::join_room(addr, &created.code, Some(&support::invite_secret(&created)?)).await?;
    assert_eq!(old.err().map(|(_, e)| e.code), Some(ErrorCode::BadToken));
    let joined = seats::join_by_code(addr, &created.code, &fresh.join_code, Some("Ben"))
        .await?
        .map_err(|e| anyhow!("the new join code: {e:?}"))?;
    assert_eq!(joined.seat, created.seat.opponent());
    // with both seats taken there is nothing to invite to; the guest is not the creator
    let taken = seats::new_invite(addr, &created.code, Some(&created.token)).await?;
    assert_eq!(taken.err().map(|(s, e)| (s, e.code)), Some((409, ErrorCode::SeatTaken)));
    let guest = seats::new_invite(addr, &created.code, Some(&joined.token)).await?;
    assert_eq!(guest.err().map(|(_, e)| e.code), Some(ErrorCode::NotRoomCreator));
    server.stop().await
}

#[tokio::test]
async fn a_transfer_link_seats_another_device_once_and_both_devices_play_the_seat() -> Result<()> {
    let dir = support::temp_dir("transfer");
    let server = support::start_with(evr_server::Config::for_tests(dir.clone())).await?;
    let addr = server.addr;
    let s = support::create_and_join(addr, Mode::Full).await?;
    // only a seat's token makes a link
    for token in [None, Some("0123456789abcdef0123456789abcdef"), Some(s.code.as_str())] {
        let refused = seats::transfer(addr, &s.code, token).await?;
        assert_eq!(
            refused.err().map(|(s, e)| (s, e.code)),
            Some((403, ErrorCode::BadToken))
        );
    }
    let before = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)?
        .as_millis() as i64;
    let link = seats::transfer(addr, &s.code, Some(&s.creator_token))
        .await?
        .map_err(|e| anyhow!("the creator's link: {e:?}"))?;
    assert!(link.url.starts_with(&format!("/r/{}/take#", s.code)), "{}", link.url);
    let lifetime = link.expires_at - before;
    assert!(
        (0..=1000 * TRANSFER_LINK_SECS as i64 + 1000).contains(&lifetime) && lifetime > 1000 * 590,
        "valid for ten minutes: {lifetime} ms"
    );
    let secret = seats::transfer_secret(&link);
    let phone = seats::take(addr, &s.code, &secret)
        .await?
        .map_err(|e| anyhow!("the link seats the other device: {e:?}"))?;
    assert_eq!(phone.seat, s.creator);
    assert_ne!(phone.token, s.creator_token, "the device gets a token of its own");
    let again = seats::take(addr, &s.code, &secret).await?;
    assert_eq!(
        again.err().map(|(s, e)| (s, e.code)),
        Some((410, ErrorCode::TransferLinkInvalid)),
        "a link works once"
    );

    // both devices hold the seat and see the same game; a move from either reaches both
    let (mut laptop, wl) = Client::hello(addr, &s.code, Some(&s.creator_token), None).await?;
    let (mut handset, wh) = Client::hello(addr, &s.code, Some(&phone.token), None).await?;
    assert_eq!((wl.you, wh.you), (Role::Seat(s.creator), Role::Seat(s.creator)));
    assert_eq!(wl.view, wh.view, "one seat, one view");
    let action = wh.view.legal_actions[0];
    handset.send(&support::action(wh.seq, "from-the-phone", action)).await?;
    let on_phone = handset.recv_update_to(wh.seq + 1).await?;
    let on_laptop = laptop.recv_update_to(wh.seq + 1).await?;
    assert_eq!(on_laptop, on_phone, "the laptop sees the phone's move");

    // a newer link replaces the older one
    let first = seats::transfer(addr, &s.code, Some(&phone.token))
        .await?
        .map_err(|e| anyhow!("{e:?}"))?;
    let second = seats::transfer(addr, &s.code, Some(&s.creator_token))
        .await?
        .map_err(|e| anyhow!("{e:?}"))?;
    let replaced = seats::take(addr, &s.code, &seats::transfer_secret(&first)).await?;
    assert_eq!(
        replaced.err().map(|(_, e)| e.code),
        Some(ErrorCode::TransferLinkInvalid)
    );
    // a link given out before a restart works after it, and the moved device keeps its seat
    drop((laptop, handset));
    server.stop().await?;
    let server = support::start_with(evr_server::Config::for_tests(dir.clone())).await?;
    let addr = server.addr;
    let tablet = seats::take(addr, &s.code, &seats::transfer_secret(&second))
        .await?
        .map_err(|e| anyhow!("a stored link survives a restart: {e:?}"))?;
    for token in [&phone.token, &tablet.token] {
        let (_c, w) = Client::hello(addr, &s.code, Some(token), None).await?;
        assert_eq!(w.you, Role::Seat(s.creator));
    }
    // a seat is played on at most MAX_SEAT_DEVICES devices
    let mut devices = 3;
    while devices < MAX_SEAT_DEVICES {
        let link = seats::transfer(addr, &s.code, Some(&s.creator_token))
            .await?
            .map_err(|e| anyhow!("{e:?}"))?;
        seats::take(addr, &s.code, &seats::transfer_secret(&link))
            .await?
            .map_err(|e| anyhow!("device {devices}: {e:?}"))?;
        devices += 1;
    }
    let full = seats::transfer(addr, &s.code, Some(&s.creator_token)).await?;
    assert_eq!(
        full.err().map(|(s, e)| (s, e.code)),
        Some((409, ErrorCode::TooManyDevices))
    );
    // the guest's seat is its own: its devices are counted apart
    assert!(seats::transfer(addr, &s.code, Some(&s.guest_token)).await?.is_ok());
    server.stop().await
}

#[tokio::test]
async fn an_expired_transfer_link_seats_nobody() -> Result<()> {
    let dir = support::temp_dir("transfer-expired");
    let server = support::start_with(evr_server::Config::for_tests(dir.clone())).await?;
    let s = support::create_and_join(server.addr, Mode::Full).await?;
    server.stop().await?;
    // a link that expired a second ago, as the store keeps it (waiting ten minutes is no test)
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)?
        .as_millis() as i64;
    {
        let store = SqliteStore::open(&dir)?;
        store
            .submit(
                FIRST_EPOCH,
                WriteOp::IssueTransfer {
                    code: s.code.clone(),
                    seat: StoredSeat::Guest,
                    secret_hash: evr_server::secrets::hash_token("an-old-link"),
                    expires_at: now - 1000,
                },
            )
            .await??;
        store.close();
    }
    let server = support::start_with(evr_server::Config::for_tests(dir)).await?;
    let expired = seats::take(server.addr, &s.code, "an-old-link").await?;
    assert_eq!(
        expired.err().map(|(s, e)| (s, e.code)),
        Some((410, ErrorCode::TransferLinkInvalid))
    );
    server.stop().await
}

#[tokio::test]
async fn a_seat_summary_says_whose_turn_it_is_to_that_seat_only() -> Result<()> {
    let server = support::start("seat-summary").await?;
    let addr = server.addr;
    let created = support::create_room(addr, &support::options(Mode::Tutorial)).await?;
    let mine = seats::summary(addr, &created.code, Some(&created.token))
        .await?
        .map_err(|e| anyhow!("{e:?}"))?;
    assert_eq!((mine.state, mine.you), (SeatState::WaitingForOpponent, created.seat));
    for token in [None, Some("nope")] {
        let refused = seats::summary(addr, &created.code, token).await?;
        assert_eq!(
            refused.err().map(|(s, e)| (s, e.code)),
            Some((403, ErrorCode::BadToken))
        );
    }
    let joined = seats::join(
        addr,
        &created.code,
        &JoinRequest {
            invite: Some(support::invite_secret(&created)?),
            join_code: None,
            name: Some("Ben".into()),
        },
    )
    .await?
    .map_err(|e| anyhow!("{e:?}"))?;
    let (mut a, wa) = Client::hello(addr, &created.code, Some(&created.token), None).await?;
    let (mut b, wb) = Client::hello(addr, &created.code, Some(&joined.token), None).await?;
    // the tutorial's struggle: exactly one side is to act, and each summary says which
    let (to_act, other) = if wa.view.legal_actions.is_empty() {
        (&joined.token, &created.token)
    } else {
        (&created.token, &joined.token)
    };
    let acting = seats::summary(addr, &created.code, Some(to_act))
        .await?
        .map_err(|e| anyhow!("{e:?}"))?;
    let waiting = seats::summary(addr, &created.code, Some(other))
        .await?
        .map_err(|e| anyhow!("{e:?}"))?;
    assert_eq!(
        (acting.state, waiting.state),
        (SeatState::YourTurn, SeatState::TheirTurn)
    );
    assert_eq!(waiting.names[joined.seat].as_deref(), Some("Ben"));
    support::play_random(&mut a, &mut b, &wa, &wb, 5000, 11).await?;
    let over = seats::summary(addr, &created.code, Some(&joined.token))
        .await?
        .map_err(|e| anyhow!("{e:?}"))?;
    assert_eq!(over.state, SeatState::Over);
    assert!(over.outcome.is_some(), "the result is told");
    // the seat's next game after a rematch: sides swap, and the summary follows
    a.send(&ClientMsg::Rematch).await?;
    b.send(&ClientMsg::Rematch).await?;
    a.recv_until("the rematch", |m| matches!(m, ServerMsg::Welcome { .. }).then_some(()))
        .await?;
    let next = seats::summary(addr, &created.code, Some(&joined.token))
        .await?
        .map_err(|e| anyhow!("{e:?}"))?;
    assert_eq!((next.game_number, next.you), (2, joined.seat.opponent()));
    server.stop().await
}

/// Milliseconds since 1970, as the server's deadlines are.
fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

#[tokio::test]
async fn a_seat_summary_tells_a_correspondence_rooms_deadlines_and_a_live_room_none() -> Result<()> {
    let server = support::start("seat-summary-days").await?;
    let addr = server.addr;
    let mut options = support::options(Mode::Full);
    options.clock = Some(TimeControl::Correspondence(Correspondence { days_per_decision: 2 }));
    let created = support::create_room(addr, &options).await?;
    let before = now_ms();
    seats::join(
        addr,
        &created.code,
        &JoinRequest {
            invite: Some(support::invite_secret(&created)?),
            join_code: None,
            name: None,
        },
    )
    .await?
    .map_err(|e| anyhow!("{e:?}"))?;
    // both choose their characters at once: both owe a decision, due when the guest sat down
    let mine = seats::summary(addr, &created.code, Some(&created.token))
        .await?
        .map_err(|e| anyhow!("{e:?}"))?;
    let after = now_ms();
    assert_eq!(mine.state, SeatState::YourTurn);
    let clock = mine
        .clock
        .ok_or_else(|| anyhow!("a correspondence room's summary carries its clock"))?;
    assert_eq!(clock.days_per_decision, Some(2));
    assert_eq!((clock.running.rebel, clock.running.imperial), (true, true));
    let two_days = 2 * 86_400_000;
    let deadline = clock.deadline_unix_ms[mine.you].ok_or_else(|| anyhow!("this seat's deadline"))?;
    ensure!(
        (before + two_days..=after + two_days).contains(&deadline),
        "the deadline {deadline} is two days after the decision became due ({before}..{after})"
    );
    let left = i64::try_from(clock.remaining_ms[mine.you])?;
    ensure!(
        (two_days - (after - before)..=two_days).contains(&left),
        "{left} ms left of two days"
    );
    // a live room's summary has none
    let live = support::create_room(addr, &support::options(Mode::Full)).await?;
    let plain = seats::summary(addr, &live.code, Some(&live.token))
        .await?
        .map_err(|e| anyhow!("{e:?}"))?;
    assert_eq!(plain.clock, None);
    server.stop().await
}
