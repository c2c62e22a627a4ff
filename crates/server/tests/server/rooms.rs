//! Room life: rematch with swapped sides, spectators staying, creation limits and metrics.

use anyhow::Result;
use evr_protocol::{ClientMsg, ErrorCode, Role, RoomStatus, SpectatorPolicy, room_path};
use evr_rules::{Action, Mode};
use serde_json::json;

use crate::support::{self, Client, seats};

#[tokio::test]
async fn a_rematch_needs_both_players_and_swaps_sides_while_spectators_stay() -> Result<()> {
    let server = support::start("rematch").await?;
    let seats = support::create_and_join(server.addr, Mode::Tutorial).await?;
    let (mut spectator, _) = Client::hello(server.addr, &seats.code, None, None).await?;
    let (mut a, wa) = Client::hello(server.addr, &seats.code, Some(&seats.creator_token), None).await?;
    let (mut b, wb) = Client::hello(server.addr, &seats.code, Some(&seats.guest_token), None).await?;

    a.send(&ClientMsg::Rematch).await?;
    assert_eq!(a.recv_error().await?, ErrorCode::GameNotOver);

    let (_, end) = support::play_random(&mut a, &mut b, &wa, &wb, 5000, 53).await?;
    assert!(end[0].outcome.is_some(), "the first game finished");
    // Over: everyone is told the game's seed and salt, under the commitment shown at its start.
    let commitment = wa.room.fairness.clone().expect("a commitment").commitment;
    for c in [&mut a, &mut b, &mut spectator] {
        let over = c.recv_room().await?.fairness.expect("fairness after the game");
        assert_eq!(over.commitment, commitment);
        assert!(
            over.seed.is_some() && over.salt.is_some(),
            "seed and salt told at the end"
        );
    }
    a.send(&ClientMsg::Rematch).await?;
    let asked = b.recv_room().await?;
    assert!(asked.rematch_requested[seats.creator]);
    assert!(!asked.rematch_requested[seats.guest]);
    b.send(&ClientMsg::Rematch).await?;

    let new_a = a.recv_welcome().await?;
    let new_b = b.recv_welcome().await?;
    let new_s = spectator.recv_welcome().await?;
    assert_eq!(new_a.room.game_number, 2);
    assert_eq!(new_a.you, Role::Seat(seats.guest), "sides swap");
    assert_eq!(new_b.you, Role::Seat(seats.creator), "sides swap");
    assert_eq!(new_s.you, Role::Spectator);
    assert!(new_s.view.outcome.is_none(), "the spectator watches the new game");
    server.stop().await
}

#[tokio::test]
async fn room_creation_is_limited_per_address() -> Result<()> {
    let mut config = evr_server::Config::for_tests(support::temp_dir("room-limit"));
    config.rooms_per_minute = 2;
    let server = support::start_with(config).await?;
    let mut options = support::options(Mode::Full);
    options.spectators = SpectatorPolicy::Off;
    for _ in 0..2 {
        support::create_room(server.addr, &options).await?;
    }
    let refused = support::post::<_, evr_protocol::CreatedRoom>(server.addr, evr_protocol::CREATE_ROOM_PATH, &options)
        .await?
        .map(|_| ())
        .map_err(|(status, e)| (status, e.code));
    assert_eq!(refused, Err((429, ErrorCode::TooManyRooms)));
    server.stop().await
}

#[tokio::test]
async fn health_readiness_and_metrics_are_served() -> Result<()> {
    let server = support::start("metrics").await?;
    let seats = support::create_and_join(server.addr, Mode::Full).await?;
    let (mut a, w) = Client::hello(server.addr, &seats.code, Some(&seats.creator_token), None).await?;
    let (_s, _) = Client::hello(server.addr, &seats.code, None, None).await?;
    a.send(&support::action(0, "m1", w.view.legal_actions[0])).await?;
    a.recv_ack().await?;
    a.send(&support::action(0, "m2", Action::Pass)).await?;
    a.recv_error().await?;

    assert_eq!(
        support::http(server.addr, "GET", "/healthz", None).await?,
        (200, "ok".to_string())
    );
    assert_eq!(support::http(server.addr, "GET", "/readyz", None).await?.0, 200);
    let (status, metrics) = support::http(server.addr, "GET", "/metrics", None).await?;
    assert_eq!(status, 200);
    for name in [
        "evr_rooms",
        "evr_connections{role=\"player\"}",
        "evr_connections{role=\"spectator\"}",
        "evr_actions_total",
        "evr_errors_total{code=\"stale_action\"}",
        "evr_action_to_broadcast_seconds",
    ] {
        assert!(metrics.contains(name), "/metrics lacks {name}:\n{metrics}");
    }
    server.stop().await
}

#[tokio::test]
async fn a_client_that_does_not_read_is_dropped_and_never_slows_the_room() -> Result<()> {
    let mut config = evr_server::Config::for_tests(support::temp_dir("slow"));
    config.outbound_queue = 4;
    config.socket_send_buffer = Some(4096);
    let server = support::start_with(config).await?;
    let seats = support::create_and_join(server.addr, Mode::Full).await?;
    // A spectator with a tiny receive window that never reads after its welcome.
    let socket = tokio::net::TcpSocket::new_v4()?;
    socket.set_recv_buffer_size(2048)?;
    let stream = socket.connect(server.addr).await?;
    let (mut stuck, _) =
        tokio_tungstenite::client_async(format!("ws://{}/ws/{}", server.addr, seats.code), stream).await?;
    use futures_util::SinkExt;
    stuck
        .send(tokio_tungstenite::tungstenite::Message::text(serde_json::to_string(
            &support::hello(None, None),
        )?))
        .await?;

    let (mut a, wa) = Client::hello(server.addr, &seats.code, Some(&seats.creator_token), None).await?;
    let (mut b, wb) = Client::hello(server.addr, &seats.code, Some(&seats.guest_token), None).await?;
    let started = std::time::Instant::now();
    let (_, end) = support::play_random(&mut a, &mut b, &wa, &wb, 5000, 134).await?;
    assert!(end[0].outcome.is_some(), "the game finished");
    assert!(
        started.elapsed() < std::time::Duration::from_secs(60),
        "the game was slowed down"
    );
    // The room let the stuck spectator go.
    let (_check, w) = Client::hello(server.addr, &seats.code, None, None).await?;
    assert_eq!(
        w.presence.spectators, 1,
        "only the new spectator is left: {:?}",
        w.presence
    );
    let (_, metrics) = support::http(server.addr, "GET", "/metrics", None).await?;
    assert!(metrics.contains("evr_slow_consumers_total"), "{metrics}");
    drop(stuck);
    server.stop().await
}

#[tokio::test]
async fn the_page_is_served_and_unknown_files_are_not_found() -> Result<()> {
    let server = support::start("page").await?;
    let (status, body) = support::http(server.addr, "GET", "/", None).await?;
    assert_eq!(status, 200);
    assert!(body.to_ascii_lowercase().contains("<!doctype html>"), "{body}");
    let (status, room_page) = support::http(server.addr, "GET", "/r/Q7XKMB4R2T/watch", None).await?;
    assert_eq!(
        (status, room_page == body),
        (200, true),
        "a room URL loads the same app"
    );
    assert_eq!(
        support::http(server.addr, "GET", "/assets/no-such-file.js", None)
            .await?
            .0,
        404
    );
    // An unknown room's join is refused with the protocol's error body.
    let (status, refusal) =
        support::post_raw(server.addr, "/api/rooms/ZZZZZZZZZZ/join", json!({"invite": "x"})).await?;
    assert_eq!((status, refusal["code"].as_str()), (404, Some("room_not_found")));
    server.stop().await
}

#[tokio::test]
async fn a_typed_code_and_join_code_take_the_free_seat_and_then_the_code_offers_to_watch() -> Result<()> {
    let server = support::start("code-join").await?;
    let addr = server.addr;
    let created = support::create_room(addr, &support::options(Mode::Full)).await?;
    assert_eq!(created.code.len(), 8, "codes are 8 characters: {}", created.code);
    let join_code = created.join_code.clone().expect("a room for a friend has a join code");
    assert!(
        join_code.len() == 6 && join_code.chars().all(|c| c.is_ascii_digit()),
        "{join_code}"
    );
    // As a person types it: lower case, in its two groups.
    let typed = format!("{}-{}", &created.code[..4], &created.code[4..]).to_lowercase();

    let status: Result<RoomStatus, _> = support::get(addr, &room_path(&typed)).await?;
    let expected = RoomStatus {
        code: created.code.clone(),
        seat_free: true,
        spectators: SpectatorPolicy::AnyoneWithLink,
    };
    assert_eq!(status.ok(), Some(expected.clone()));
    // the code alone lets one watch; it takes no seat
    let alone = support::join_room(addr, &typed, None).await?;
    assert_eq!(
        alone.err().map(|(s, e)| (s, e.code)),
        Some((400, ErrorCode::BadMessage))
    );
    // with the join code, as typed (spaces are forgiven), the friend is seated
    let spaced = format!("{} {}", &join_code[..3], &join_code[3..]);
    let joined = seats::join_by_code(addr, &typed, &spaced, None)
        .await?
        .map_err(|e| anyhow::anyhow!("the code and the join code take the free seat: {e:?}"))?;
    assert_eq!(joined.seat, created.seat.opponent());
    let status: Result<RoomStatus, _> = support::get(addr, &room_path(&typed)).await?;
    assert_eq!(
        status.ok(),
        Some(RoomStatus {
            seat_free: false,
            ..expected
        }),
        "now the code offers to watch"
    );
    let again = seats::join_by_code(addr, &typed, &join_code, None).await?;
    assert_eq!(again.err().map(|(s, e)| (s, e.code)), Some((409, ErrorCode::SeatTaken)));
    // The seat is the guest's: its token plays over the WebSocket, reached by the typed code too.
    let (_guest, welcome) = Client::hello(addr, &typed, Some(&joined.token), None).await?;
    assert_eq!(welcome.you, Role::Seat(created.seat.opponent()));
    assert_eq!(welcome.room.code, created.code);

    // An unknown or impossible code says so.
    for unknown in ["ZZZZ-ZZZZ", "KJCH_M97E", "KJCH-U97E"] {
        let status: Result<RoomStatus, _> = support::get(addr, &room_path(unknown)).await?;
        assert_eq!(
            status.err().map(|(s, e)| (s, e.code)),
            Some((404, ErrorCode::RoomNotFound)),
            "{unknown}"
        );
        let join = seats::join_by_code(addr, unknown, "123456", None).await?;
        assert_eq!(join.err().map(|(s, _)| s), Some(404), "{unknown}");
    }
    // The room's own code with a space in it (%20 in an address) is no spelling of it: the front
    // door hashes the decoded code as the server reads it and would send it to another node
    // (docker/haproxy.cfg); the web client takes out what people type around a code.
    let (head, tail) = created.code.split_at(4);
    for spaced in [
        format!("{head}%20{tail}"),
        format!("%20{}", created.code),
        format!("{head}%09{tail}"),
    ] {
        let status: Result<RoomStatus, _> = support::get(addr, &room_path(&spaced)).await?;
        assert_eq!(
            status.err().map(|(s, e)| (s, e.code)),
            Some((404, ErrorCode::RoomNotFound)),
            "{spaced}"
        );
    }
    // A wrong invite secret is refused even while the seat is free.
    let other = support::create_room(addr, &support::options(Mode::Full)).await?;
    let wrong = support::join_room(addr, &other.code, Some("0123456789abcdef0123456789abcdef")).await?;
    assert_eq!(wrong.err().map(|(s, e)| (s, e.code)), Some((403, ErrorCode::BadToken)));
    server.stop().await
}
