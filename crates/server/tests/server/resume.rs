//! Leaving and coming back: the same seat with the token, what was missed, presence, and a
//! graceful shutdown that tells clients.

use anyhow::Result;
use serde_json::json;

use crate::support::{self, Client};

/// Reads presence updates until one satisfies `done`; returns it.
async fn presence_until(c: &mut Client, done: impl Fn(&serde_json::Value) -> bool) -> Result<serde_json::Value> {
    loop {
        let p = c.recv_type("presence").await?;
        if done(&p["presence"]) {
            return Ok(p);
        }
    }
}

#[tokio::test]
async fn a_reconnecting_player_resumes_the_seat_and_gets_what_it_missed() -> Result<()> {
    let server = support::start("resume").await?;
    let seats = support::create_and_join(server.addr, "full").await?;
    let (mut a, wa) = Client::hello(server.addr, &seats.code, Some(&seats.creator_token), None).await?;
    let (mut b, wb) = Client::hello(server.addr, &seats.code, Some(&seats.guest_token), None).await?;
    // A sees B arrive (after the presence of its own arrival).
    presence_until(&mut a, |p| {
        p["seats"][0]["connected"] == true && p["seats"][1]["connected"] == true
    })
    .await?;

    // A leaves; B sees it.
    drop(a);
    let creator_index = if seats.creator == "rebel" { 0 } else { 1 };
    let gone = presence_until(&mut b, |p| p["seats"][creator_index]["connected"] == false).await?;
    assert!(
        gone["presence"]["seats"][creator_index]["claim_in_seconds"]
            .as_u64()
            .is_some()
    );

    // B acts while A is away.
    let choice = wb["view"]["legal_actions"][0].clone();
    b.send(json!({"type": "action", "based_on": 0, "action_id": "b1", "action": choice}))
        .await?;
    b.recv_type("update").await?;

    // A comes back with its last seq: same seat, and the missed entry (B chose characters).
    let (_a, back) = Client::hello(
        server.addr,
        &seats.code,
        Some(&seats.creator_token),
        wa["seq"].as_u64().map(|s| s as u32),
    )
    .await?;
    assert_eq!(back["you"]["faction"], seats.creator);
    assert_eq!(back["seq"], 1);
    let missed = back["missed"].as_array().cloned().unwrap_or_default();
    assert_eq!(missed.len(), 1, "{missed:?}");
    assert_eq!(missed[0]["type"], "characters_chosen");
    assert!(missed[0]["characters"].is_null(), "A must not learn B's characters");
    let again = presence_until(&mut b, |p| p["seats"][creator_index]["connected"] == true).await?;
    assert!(again["presence"]["seats"][creator_index]["claim_in_seconds"].is_null());
    server.stop().await
}

#[tokio::test]
async fn claiming_the_win_needs_the_grace_period() -> Result<()> {
    let mut config = evr_server::Config::for_tests(support::temp_dir("claim"));
    config.disconnect_grace_secs = 1;
    let server = support::start_with(config).await?;
    let seats = support::create_and_join(server.addr, "full").await?;
    let (a, _) = Client::hello(server.addr, &seats.code, Some(&seats.creator_token), None).await?;
    let (mut b, _) = Client::hello(server.addr, &seats.code, Some(&seats.guest_token), None).await?;
    b.send(json!({"type": "claim_win"})).await?;
    let e = b.recv_type("error").await?;
    assert_eq!(e["code"], "cannot_claim_win");
    drop(a);
    tokio::time::sleep(std::time::Duration::from_millis(1300)).await;
    b.send(json!({"type": "claim_win"})).await?;
    let room = b.recv_type("room").await?;
    assert_eq!(room["room"]["forfeit_winner"], seats.guest);
    server.stop().await
}

#[tokio::test]
async fn shutdown_tells_clients() -> Result<()> {
    let server = support::start("shutdown").await?;
    let seats = support::create_and_join(server.addr, "full").await?;
    let (mut a, _) = Client::hello(server.addr, &seats.code, Some(&seats.creator_token), None).await?;
    server.shutdown.cancel();
    let e = a.recv_type("error").await?;
    assert_eq!(e["code"], "shutting_down");
    assert!(a.is_closed().await);
    server.task.await??;
    Ok(())
}
