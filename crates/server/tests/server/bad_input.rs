//! Bad input gets a clear error with a stable code and changes nothing; the connection stays
//! usable unless it is an authentication failure.

use anyhow::Result;
use evr_protocol::{ClientMsg, CreatedRoom, ErrorCode, PROTOCOL_VERSION, SideChoice, SpectatorPolicy};
use evr_rules::{Action, Card, Mode, RuleError};
use serde_json::json;

use crate::support::{self, Client};

async fn expect_error(c: &mut Client, code: ErrorCode) -> Result<()> {
    assert_eq!(c.recv_error().await?, code);
    Ok(())
}

async fn still_usable(c: &mut Client) -> Result<()> {
    c.send(&ClientMsg::Ping).await?;
    c.recv_until("pong", |m| matches!(m, evr_protocol::ServerMsg::Pong).then_some(()))
        .await
}

#[tokio::test]
async fn malformed_unknown_and_oversized_frames_get_errors_and_the_connection_stays() -> Result<()> {
    let server = support::start("bad-frames").await?;
    let seats = support::create_and_join(server.addr, Mode::Full).await?;
    let (mut c, _) = Client::hello(server.addr, &seats.code, Some(&seats.creator_token), None).await?;
    c.send_text("{not json".into()).await?;
    expect_error(&mut c, ErrorCode::BadMessage).await?;
    c.send_text(json!({"type": "teleport"}).to_string()).await?;
    expect_error(&mut c, ErrorCode::BadMessage).await?;
    c.send_text(format!("{{\"type\":\"ping\",\"pad\":\"{}\"}}", "x".repeat(20_000)))
        .await?;
    expect_error(&mut c, ErrorCode::FrameTooLarge).await?;
    c.send(&support::hello(None, None)).await?;
    expect_error(&mut c, ErrorCode::HelloRepeated).await?;
    still_usable(&mut c).await?;
    server.stop().await
}

#[tokio::test]
async fn authentication_failures_are_refused_and_closed() -> Result<()> {
    let server = support::start("bad-auth").await?;
    let seats = support::create_and_join(server.addr, Mode::Full).await?;

    let mut c = Client::connect(server.addr, &seats.code).await?;
    c.send(&support::hello(Some("00000000000000000000000000000000"), None))
        .await?;
    expect_error(&mut c, ErrorCode::BadToken).await?;
    assert!(c.is_closed().await);

    let mut c = Client::connect(server.addr, &seats.code).await?;
    c.send(&ClientMsg::Hello {
        version: PROTOCOL_VERSION + 998,
        token: None,
        last_seq: None,
    })
    .await?;
    expect_error(&mut c, ErrorCode::VersionMismatch).await?;
    assert!(c.is_closed().await);

    let mut c = Client::connect(server.addr, "ZZZZZZZZZZ").await?;
    c.send(&support::hello(None, None)).await?;
    expect_error(&mut c, ErrorCode::RoomNotFound).await?;

    let mut c = Client::connect(server.addr, &seats.code).await?;
    c.send(&ClientMsg::Ping).await?;
    expect_error(&mut c, ErrorCode::HelloExpected).await?;
    assert!(c.is_closed().await);
    server.stop().await
}

#[tokio::test]
async fn refused_actions_change_nothing() -> Result<()> {
    let server = support::start("refused").await?;
    let seats = support::create_and_join(server.addr, Mode::Full).await?;
    let (mut spectator, _) = Client::hello(server.addr, &seats.code, None, None).await?;
    let (mut a, welcome) = Client::hello(server.addr, &seats.code, Some(&seats.creator_token), None).await?;
    let seq = welcome.seq;
    let choice = welcome.view.legal_actions[0];

    // A spectator cannot act.
    spectator.send(&support::action(seq, "s1", choice)).await?;
    expect_error(&mut spectator, ErrorCode::SpectatorCannotAct).await?;
    // A rule error keeps the engine's code.
    a.send(&support::action(seq, "x1", Action::Pass)).await?;
    expect_error(&mut a, ErrorCode::Rule(RuleError::WrongPhase)).await?;
    // Stale: decided on an older view.
    a.send(&support::action(seq + 7, "x2", choice)).await?;
    expect_error(&mut a, ErrorCode::StaleAction).await?;
    let fresh = a.recv_welcome().await?;
    assert_eq!(fresh.seq, seq, "nothing changed");
    // A bad action id.
    a.send(&support::action(seq, "", choice)).await?;
    expect_error(&mut a, ErrorCode::BadActionId).await?;

    // The real action once, then the same id again: acknowledged twice with the same seq,
    // applied once.
    a.send(&support::action(seq, "c1", choice)).await?;
    assert_eq!(a.recv_ack().await?, seq + 1);
    a.recv_update().await?;
    a.send(&support::action(seq + 1, "c1", choice)).await?;
    assert_eq!(a.recv_ack().await?, seq + 1);
    still_usable(&mut a).await?;
    let (_, check) = Client::hello(server.addr, &seats.code, None, None).await?;
    assert_eq!(check.seq, seq + 1, "the repeated action was not applied again");
    server.stop().await
}

#[tokio::test]
async fn actions_wait_for_the_second_player_and_spectators_can_be_off() -> Result<()> {
    let server = support::start("waiting").await?;
    let mut options = support::options(Mode::Full);
    options.side = SideChoice::Rebel;
    options.spectators = SpectatorPolicy::Off;
    let created = support::create_room(server.addr, &options).await?;
    assert_eq!(created.seat, evr_rules::Faction::Rebel);
    assert_eq!(created.watch_url, None);
    assert_eq!(created.code.len(), 8);
    let (mut a, welcome) = Client::hello(server.addr, &created.code, Some(&created.token), None).await?;
    a.send(&support::action(0, "c1", welcome.view.legal_actions[0])).await?;
    expect_error(&mut a, ErrorCode::WaitingForOpponent).await?;

    let mut s = Client::connect(server.addr, &created.code).await?;
    s.send(&support::hello(None, None)).await?;
    expect_error(&mut s, ErrorCode::SpectatorsNotAllowed).await?;

    let refused = support::join_room(server.addr, &created.code, Some("nope")).await?;
    assert_eq!(
        refused.map(|_| ()).map_err(|(s, e)| (s, e.code)),
        Err((403, ErrorCode::BadToken))
    );
    // A body that is not room options at all.
    let (status, body) = support::post_raw(server.addr, "/api/rooms", json!({"side": "sideways"})).await?;
    assert_eq!((status, body["code"].as_str()), (400, Some("bad_message")));
    let typed = support::post::<_, CreatedRoom>(server.addr, "/api/rooms", &json!({"side": "sideways"})).await?;
    assert_eq!(
        typed.map(|_| ()).map_err(|(s, e)| (s, e.code)),
        Err((400, ErrorCode::BadMessage))
    );
    server.stop().await
}

#[tokio::test]
async fn a_flood_is_rate_limited() -> Result<()> {
    let mut config = evr_server::Config::for_tests(support::temp_dir("flood"));
    config.messages_per_second = 5;
    let server = support::start_with(config).await?;
    let seats = support::create_and_join(server.addr, Mode::Full).await?;
    let (mut c, _) = Client::hello(server.addr, &seats.code, Some(&seats.creator_token), None).await?;
    for _ in 0..40 {
        c.send(&ClientMsg::Ping).await?;
    }
    let mut limited = 0;
    for _ in 0..40 {
        if let evr_protocol::ServerMsg::Error {
            code: ErrorCode::RateLimited,
            ..
        } = c.recv().await?
        {
            limited += 1;
        }
    }
    assert!(limited >= 20, "only {limited} of 40 messages were limited");
    server.stop().await
}

#[tokio::test]
async fn websocket_origin_must_match_the_public_origin() -> Result<()> {
    let mut config = evr_server::Config::for_tests(support::temp_dir("origin"));
    config.public_origin = "https://evr.example".into();
    let server = support::start_with(config).await?;
    let seats = support::create_and_join(server.addr, Mode::Full).await?;
    let url = format!("ws://{}/ws/{}", server.addr, seats.code);
    let mut bad = tokio_tungstenite::tungstenite::client::IntoClientRequest::into_client_request(url.as_str())?;
    bad.headers_mut().insert("Origin", "https://evil.example".parse()?);
    assert!(tokio_tungstenite::connect_async(bad).await.is_err());
    let mut good = tokio_tungstenite::tungstenite::client::IntoClientRequest::into_client_request(url.as_str())?;
    good.headers_mut().insert("Origin", "https://evr.example".parse()?);
    assert!(tokio_tungstenite::connect_async(good).await.is_ok());
    server.stop().await
}

#[tokio::test]
async fn out_of_turn_other_seat_and_finished_game_actions_are_refused() -> Result<()> {
    let server = support::start("rules-refusals").await?;
    let seats = support::create_and_join(server.addr, Mode::Tutorial).await?;
    // In the tutorial the Rebel moves first.
    let (rebel_token, imperial_token) = if seats.creator == evr_rules::Faction::Rebel {
        (seats.creator_token.clone(), seats.guest_token.clone())
    } else {
        (seats.guest_token.clone(), seats.creator_token.clone())
    };
    let (mut rebel, _) = Client::hello(server.addr, &seats.code, Some(&rebel_token), None).await?;
    let (mut imperial, w) = Client::hello(server.addr, &seats.code, Some(&imperial_token), None).await?;
    let seq = w.seq;
    imperial.send(&support::action(seq, "i1", Action::PlayCard)).await?;
    expect_error(&mut imperial, ErrorCode::Rule(RuleError::NotYourTurn)).await?;
    // A card of the other seat.
    let vader: Card = serde_json::from_value(json!("Darth Vader"))?;
    rebel
        .send(&support::action(seq, "r0", Action::UsePower { card: vader }))
        .await?;
    expect_error(&mut rebel, ErrorCode::Rule(RuleError::UnknownCard)).await?;

    // Play the tutorial to its end: both keep passing after one card each.
    let script = [
        (true, Action::PlayCard),
        (false, Action::PlayCard),
        (true, Action::Pass),
        (false, Action::Pass),
    ];
    for (i, (by_rebel, action)) in script.into_iter().enumerate() {
        let c = if by_rebel { &mut rebel } else { &mut imperial };
        c.send(&support::action(seq + i as u32, format!("t{i}"), action))
            .await?;
        c.recv_ack().await?;
    }
    let mut last = rebel.recv_update().await?;
    while last.0 != seq + 4 {
        last = rebel.recv_update().await?;
    }
    assert!(last.1.outcome.is_some(), "the tutorial is over");
    rebel.send(&support::action(seq + 4, "late", Action::Pass)).await?;
    expect_error(&mut rebel, ErrorCode::Rule(RuleError::GameOver)).await?;
    still_usable(&mut rebel).await?;
    server.stop().await
}

/// Sends `request` on a fresh TCP connection and reads the response's head.
async fn raw_request(addr: std::net::SocketAddr, request: &str) -> Result<(tokio::net::TcpStream, String)> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut tcp = tokio::net::TcpStream::connect(addr).await?;
    tcp.write_all(request.as_bytes()).await?;
    let mut head = Vec::new();
    while !head.ends_with(b"\r\n\r\n") {
        let mut byte = [0u8; 1];
        if tcp.read(&mut byte).await? == 0 {
            break;
        }
        head.push(byte[0]);
    }
    Ok((tcp, String::from_utf8_lossy(&head).to_lowercase()))
}

fn upgrade_request(code: &str, version: &str) -> String {
    format!(
        "GET /ws/{code} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: keep-alive, Upgrade\r\n\
         Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: {version}\r\n\r\n"
    )
}

#[tokio::test]
async fn the_websocket_handshake_and_frames_follow_rfc_6455() -> Result<()> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let server = support::start("rfc6455").await?;
    let seats = support::create_and_join(server.addr, Mode::Full).await?;
    // not an upgrade, or another version: refused with what to do instead
    let (_, plain) = raw_request(
        server.addr,
        &format!("GET /ws/{} HTTP/1.1\r\nHost: x\r\n\r\n", seats.code),
    )
    .await?;
    assert!(plain.starts_with("http/1.1 426"), "{plain}");
    let (_, old) = raw_request(server.addr, &upgrade_request(&seats.code, "8")).await?;
    assert!(
        old.starts_with("http/1.1 400") && old.contains("sec-websocket-version: 13"),
        "{old}"
    );
    // the RFC's own example key, answered with the RFC's accept value
    let (mut tcp, head) = raw_request(server.addr, &upgrade_request(&seats.code, "13")).await?;
    assert!(head.starts_with("http/1.1 101"), "{head}");
    assert!(
        head.contains("sec-websocket-accept: s3pplmbitxaq9kygzzhzrbk+xoo="),
        "{head}"
    );
    // an unmasked client frame breaks the protocol: the server closes with 1002
    tcp.write_all(&[0x81, 0x02, b'h', b'i']).await?;
    let mut frame = [0u8; 4];
    tcp.read_exact(&mut frame).await?;
    assert_eq!(frame, [0x88, 0x02, 0x03, 0xEA], "a close frame with code 1002");
    server.stop().await
}

/// The hello deadline (15 s) runs from the connection's start: a socket that pings every 2 s and
/// never says hello is told `hello_expected` and closed then (each frame started the 15 s again,
/// and such a socket was held for as long as it pinged).
#[tokio::test]
async fn a_socket_that_never_says_hello_is_closed_at_the_deadline_however_often_it_pings() -> Result<()> {
    use futures_util::{SinkExt, StreamExt};
    use std::time::Duration;
    use tokio::time::Instant;
    use tokio_tungstenite::tungstenite::Message;

    let server = support::start("hello-deadline").await?;
    let seats = support::create_and_join(server.addr, Mode::Full).await?;
    let mut c = Client::connect(server.addr, &seats.code).await?;
    let started = Instant::now();
    // the deadline cannot come early; 10 s past it on the slowest machine is still a failure
    let give_up = started + Duration::from_secs(25);
    let refusal = 'pinging: loop {
        anyhow::ensure!(
            Instant::now() < give_up,
            "still open after 25 s of pings without a hello"
        );
        c.ws.send(Message::Ping(vec![1].into())).await?;
        let next_ping = Instant::now() + Duration::from_secs(2);
        while let Ok(frame) = tokio::time::timeout_at(next_ping, c.ws.next()).await {
            match frame {
                Some(Ok(Message::Text(t))) => break 'pinging t.to_string(),
                Some(Ok(_)) => {} // our pongs
                other => anyhow::bail!("closed without saying why: {other:?}"),
            }
        }
    };
    let waited = started.elapsed();
    assert!(refusal.contains("hello_expected"), "{refusal}");
    assert!(
        waited >= Duration::from_secs(14),
        "closed after {waited:?}, before the deadline"
    );
    assert!(c.is_closed().await, "closed after the refusal");
    server.stop().await
}
