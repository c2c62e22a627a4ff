//! Bad input gets a clear error with a stable code and changes nothing; the connection stays
//! usable unless it is an authentication failure.

use anyhow::Result;
use serde_json::{Value, json};

use crate::support::{self, Client};

async fn expect_error(c: &mut Client, code: &str) -> Result<Value> {
    let e = c.recv_type("error").await?;
    assert_eq!(e["code"], code, "{e}");
    Ok(e)
}

async fn still_usable(c: &mut Client) -> Result<()> {
    c.send(json!({"type": "ping"})).await?;
    c.recv_type("pong").await?;
    Ok(())
}

#[tokio::test]
async fn malformed_unknown_and_oversized_frames_get_errors_and_the_connection_stays() -> Result<()> {
    let server = support::start("bad-frames").await?;
    let seats = support::create_and_join(server.addr, "full").await?;
    let (mut c, _) = Client::hello(server.addr, &seats.code, Some(&seats.creator_token), None).await?;
    c.send_text("{not json".into()).await?;
    expect_error(&mut c, "bad_message").await?;
    c.send(json!({"type": "teleport"})).await?;
    expect_error(&mut c, "bad_message").await?;
    c.send_text(format!("{{\"type\":\"ping\",\"pad\":\"{}\"}}", "x".repeat(20_000)))
        .await?;
    expect_error(&mut c, "frame_too_large").await?;
    c.send(json!({"type": "hello", "version": 1, "token": null, "last_seq": null}))
        .await?;
    expect_error(&mut c, "hello_expected").await?;
    still_usable(&mut c).await?;
    server.stop().await
}

#[tokio::test]
async fn authentication_failures_are_refused_and_closed() -> Result<()> {
    let server = support::start("bad-auth").await?;
    let seats = support::create_and_join(server.addr, "full").await?;

    let mut c = Client::connect(server.addr, &seats.code).await?;
    c.send(json!({"type": "hello", "version": 1, "token": "00000000000000000000000000000000", "last_seq": null}))
        .await?;
    expect_error(&mut c, "bad_token").await?;
    assert!(c.is_closed().await);

    let mut c = Client::connect(server.addr, &seats.code).await?;
    c.send(json!({"type": "hello", "version": 999, "token": null, "last_seq": null}))
        .await?;
    expect_error(&mut c, "version_mismatch").await?;
    assert!(c.is_closed().await);

    let mut c = Client::connect(server.addr, "ZZZZZZZZZZ").await?;
    c.send(json!({"type": "hello", "version": 1, "token": null, "last_seq": null}))
        .await?;
    expect_error(&mut c, "room_not_found").await?;

    let mut c = Client::connect(server.addr, &seats.code).await?;
    c.send(json!({"type": "ping"})).await?;
    expect_error(&mut c, "hello_expected").await?;
    assert!(c.is_closed().await);
    server.stop().await
}

#[tokio::test]
async fn refused_actions_change_nothing() -> Result<()> {
    let server = support::start("refused").await?;
    let seats = support::create_and_join(server.addr, "full").await?;
    let (mut spectator, _) = Client::hello(server.addr, &seats.code, None, None).await?;
    let (mut a, welcome) = Client::hello(server.addr, &seats.code, Some(&seats.creator_token), None).await?;
    let seq = welcome["seq"].as_u64().unwrap_or(0);
    let choice = welcome["view"]["legal_actions"][0].clone();

    // A spectator cannot act.
    spectator
        .send(json!({"type": "action", "based_on": seq, "action_id": "s1", "action": choice}))
        .await?;
    expect_error(&mut spectator, "spectator_cannot_act").await?;
    // A rule error keeps the engine's code.
    a.send(json!({"type": "action", "based_on": seq, "action_id": "x1", "action": {"type": "pass"}}))
        .await?;
    expect_error(&mut a, "wrong_phase").await?;
    // Stale: decided on an older view.
    a.send(json!({"type": "action", "based_on": seq + 7, "action_id": "x2", "action": choice}))
        .await?;
    expect_error(&mut a, "stale_action").await?;
    let fresh = a.recv_type("welcome").await?;
    assert_eq!(fresh["seq"], seq, "nothing changed");
    // A bad action id.
    a.send(json!({"type": "action", "based_on": seq, "action_id": "", "action": choice}))
        .await?;
    expect_error(&mut a, "bad_action_id").await?;

    // The real action once, then the same id again: acknowledged twice with the same seq,
    // applied once.
    a.send(json!({"type": "action", "based_on": seq, "action_id": "c1", "action": choice}))
        .await?;
    let ack = a.recv_type("ack").await?;
    assert_eq!(ack["seq"], seq + 1);
    a.recv_type("update").await?;
    a.send(json!({"type": "action", "based_on": seq + 1, "action_id": "c1", "action": choice}))
        .await?;
    let again = a.recv_type("ack").await?;
    assert_eq!(again["seq"], seq + 1);
    still_usable(&mut a).await?;
    let (_, check) = Client::hello(server.addr, &seats.code, None, None).await?;
    assert_eq!(check["seq"], seq + 1, "the repeated action was not applied again");
    server.stop().await
}

#[tokio::test]
async fn actions_wait_for_the_second_player_and_spectators_can_be_off() -> Result<()> {
    let server = support::start("waiting").await?;
    let (status, created) = support::post_json(
        server.addr,
        "/api/rooms",
        json!({"side": "rebel", "mode": "full", "spectators": "off"}),
    )
    .await?;
    assert_eq!(status, 201);
    assert_eq!(created["seat"], "rebel");
    assert!(created["watch_url"].is_null());
    let code = created["code"].as_str().unwrap_or_default().to_string();
    assert_eq!(code.len(), 10);
    let token = created["token"].as_str().unwrap_or_default().to_string();
    let (mut a, welcome) = Client::hello(server.addr, &code, Some(&token), None).await?;
    let choice = welcome["view"]["legal_actions"][0].clone();
    a.send(json!({"type": "action", "based_on": 0, "action_id": "c1", "action": choice}))
        .await?;
    expect_error(&mut a, "waiting_for_opponent").await?;

    let mut s = Client::connect(server.addr, &code).await?;
    s.send(json!({"type": "hello", "version": 1, "token": null, "last_seq": null}))
        .await?;
    expect_error(&mut s, "spectators_not_allowed").await?;

    let (status, body) = support::post_json(
        server.addr,
        &format!("/api/rooms/{code}/join"),
        json!({"invite": "nope"}),
    )
    .await?;
    assert_eq!((status, body["code"].as_str()), (403, Some("bad_token")));
    let (status, body) = support::post_json(server.addr, "/api/rooms", json!({"side": "sideways"})).await?;
    assert_eq!((status, body["code"].as_str()), (400, Some("bad_message")));
    server.stop().await
}

#[tokio::test]
async fn a_flood_is_rate_limited() -> Result<()> {
    let mut config = evr_server::Config::for_tests(support::temp_dir("flood"));
    config.messages_per_second = 5;
    let server = support::start_with(config).await?;
    let seats = support::create_and_join(server.addr, "full").await?;
    let (mut c, _) = Client::hello(server.addr, &seats.code, Some(&seats.creator_token), None).await?;
    for _ in 0..40 {
        c.send(json!({"type": "ping"})).await?;
    }
    let mut limited = 0;
    for _ in 0..40 {
        let m = c.recv().await?;
        if m["type"] == "error" && m["code"] == "rate_limited" {
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
    let seats = support::create_and_join(server.addr, "full").await?;
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
    let seats = support::create_and_join(server.addr, "tutorial").await?;
    // In the tutorial the Rebel moves first.
    let (rebel_token, imperial_token) = if seats.creator == "rebel" {
        (seats.creator_token.clone(), seats.guest_token.clone())
    } else {
        (seats.guest_token.clone(), seats.creator_token.clone())
    };
    let (mut rebel, _) = Client::hello(server.addr, &seats.code, Some(&rebel_token), None).await?;
    let (mut imperial, w) = Client::hello(server.addr, &seats.code, Some(&imperial_token), None).await?;
    let seq = w["seq"].as_u64().unwrap_or(0);
    imperial
        .send(json!({"type": "action", "based_on": seq, "action_id": "i1", "action": {"type": "play_card"}}))
        .await?;
    expect_error(&mut imperial, "not_your_turn").await?;
    // A card of the other seat.
    rebel.send(json!({"type": "action", "based_on": seq, "action_id": "r0", "action": {"type": "use_power", "card": "Darth Vader"}})).await?;
    expect_error(&mut rebel, "unknown_card").await?;

    // Play the tutorial to its end: both keep passing after one card each.
    let script = [
        (true, json!({"type": "play_card"})),
        (false, json!({"type": "play_card"})),
        (true, json!({"type": "pass"})),
        (false, json!({"type": "pass"})),
    ];
    for (i, (by_rebel, action)) in script.into_iter().enumerate() {
        let c = if by_rebel { &mut rebel } else { &mut imperial };
        c.send(json!({"type": "action", "based_on": seq + i as u64, "action_id": format!("t{i}"), "action": action}))
            .await?;
        c.recv_type("ack").await?;
    }
    let end = rebel.recv_type("update").await?;
    let mut last = end;
    while last["seq"].as_u64() != Some(seq + 4) {
        last = rebel.recv_type("update").await?;
    }
    assert!(!last["view"]["outcome"].is_null(), "the tutorial is over");
    rebel
        .send(json!({"type": "action", "based_on": seq + 4, "action_id": "late", "action": {"type": "pass"}}))
        .await?;
    expect_error(&mut rebel, "game_over").await?;
    still_usable(&mut rebel).await?;
    server.stop().await
}
