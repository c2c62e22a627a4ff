//! Playing against the computer: it holds the other seat from the start, acts on its own (its
//! decisions come from its seat's view only), accepts rematches, and spectators can watch.

use anyhow::{Result, bail};
use rand::{RngExt, SeedableRng};
use serde_json::{Value, json};

use crate::support::{self, Client};

/// The person plays random legal actions until the game is over; the computer plays its side.
/// Returns the last view and how many updates the computer's moves produced.
async fn play_against_computer(me: &mut Client, welcome: Value, seed: u64) -> Result<(Value, usize)> {
    let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
    let mut seq = welcome["seq"].as_u64().unwrap_or(0);
    let mut view = welcome["view"].clone();
    let mut acted_on = None;
    let mut mine = 0usize;
    let mut updates = 0usize;
    for _ in 0..5000 {
        if !view["outcome"].is_null() {
            return Ok((view, updates - mine));
        }
        let legal = view["legal_actions"].as_array().cloned().unwrap_or_default();
        if !legal.is_empty() && acted_on != Some(seq) {
            let action = legal[rng.random_range(0..legal.len())].clone();
            me.send(json!({"type": "action", "based_on": seq, "action_id": format!("p{seq}"), "action": action}))
                .await?;
            acted_on = Some(seq);
        }
        let m = me.recv().await?;
        match m["type"].as_str() {
            Some("update") | Some("welcome") => {
                seq = m["seq"].as_u64().unwrap_or(seq);
                view = m["view"].clone();
                if m["type"] == "update" {
                    updates += 1;
                }
            }
            Some("ack") => mine += 1,
            Some("error") if m["code"] == "stale_action" => acted_on = None,
            Some("error") => bail!("unexpected error {m}"),
            _ => {}
        }
    }
    bail!("the game did not end")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_game_against_the_computer_with_a_spectator() -> Result<()> {
    let server = support::start("computer").await?;
    let options = json!({"side": "random", "mode": "full", "spectators": "anyone_with_link",
                         "opponent": {"kind": "computer", "level": "easy"}});
    let (status, created) = support::post_json(server.addr, "/api/rooms", options).await?;
    assert_eq!(status, 201, "{created}");
    assert!(
        created["invite_url"].is_null(),
        "nobody else can take the computer's seat"
    );
    let code = created["code"].as_str().unwrap_or_default().to_string();
    let (status, _) =
        support::post_json(server.addr, &format!("/api/rooms/{code}/join"), json!({"invite": "x"})).await?;
    assert_eq!(status, 403);

    let (mut watcher, _) = Client::hello(server.addr, &code, None, None).await?;
    let (mut me, welcome) = Client::hello(server.addr, &code, created["token"].as_str(), None).await?;
    let computer = if created["seat"] == "rebel" { 1 } else { 0 };
    assert_eq!(
        welcome["presence"]["seats"][computer]["connected"], true,
        "the computer is always there"
    );

    let (end, computer_moves) = play_against_computer(&mut me, welcome, 7).await?;
    assert!(
        computer_moves > 10,
        "the computer played its side ({computer_moves} moves)"
    );
    assert!(!end["outcome"].is_null());
    // The spectator saw the same game end.
    loop {
        let m = watcher.recv().await?;
        if m["type"] == "update" && !m["view"]["outcome"].is_null() {
            assert!(m["view"]["legal_actions"].as_array().is_some_and(|l| l.is_empty()));
            break;
        }
    }
    // One request is enough for a rematch: the computer accepts; sides swap.
    me.send(json!({"type": "rematch"})).await?;
    let again = me.recv_type("welcome").await?;
    assert_eq!(again["room"]["game_number"], 2);
    assert_ne!(again["you"]["faction"], created["seat"]);
    // And claiming a win against an ever-present computer is refused.
    me.send(json!({"type": "claim_win"})).await?;
    assert_eq!(me.recv_type("error").await?["code"], "cannot_claim_win");
    server.stop().await
}
