//! Ratings across the cluster: a rated challenge's game played through HAProxy to its end, every
//! node killed with SIGKILL just after its last action was acknowledged, the nodes restarted — the
//! game is rated once, as every node reads it, and the room shows the change from whichever node
//! takes it. On the way, the challenge is told to each page listening on the other node (the
//! store's signals). (Games of one player ending on two nodes at once: `evr-store`'s contract test.)

use anyhow::{Context, Result, ensure};
use evr_protocol::ServerMsg;
use serde_json::{Value, json};

use crate::nodes::{cluster_with, postgres_url};
use crate::support::events::Events;
use crate::support::passkey::{register_at, request};
use crate::support::{self, Client};

const ORIGIN: &str = "http://evr.test";
/// Every game's deal (`--test-fixed-seed`) and the random moves' seed: the same game every run.
const DEAL_SEED: &str = "20261126";
const MOVES_SEED: u64 = 31;

async fn post(addr: std::net::SocketAddr, path: &str, body: Value, session: &str) -> Result<Value> {
    let a = request(addr, "POST", path, Some(&body), Some(session)).await?;
    ensure!((200..300).contains(&a.status), "POST {path}: {} {}", a.status, a.body);
    if a.body.is_empty() { Ok(Value::Null) } else { a.json() }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL and HAProxy: scripts/test.sh runs it"]
async fn a_rated_game_is_rated_once_through_every_node_killed_at_its_end() -> Result<()> {
    let url = support::postgres::fresh_database(&postgres_url()?, "cluster_ratings").await?;
    let (mut nodes, front) = cluster_with(
        "cluster-ratings",
        [&url, &url, &url],
        &["--public-origin", ORIGIN, "--test-fixed-seed", DEAL_SEED],
    )
    .await?;
    let [one, two] = [nodes[0].addr, nodes[1].addr];

    // friends on two nodes; a rated challenge made on one, accepted on the other
    let (_, jyn) = register_at(one, ORIGIN, "Jyn").await?;
    let (_, saw) = register_at(two, ORIGIN, "Saw").await?;
    post(one, "/api/account/friends", json!({"username": "Saw"}), &jyn).await?;
    post(two, "/api/account/friends/accept", json!({"username": "Jyn"}), &saw).await?;
    // Saw's page listens on the third node, Jyn's through HAProxy (on any node): the challenge made on
    // one and accepted on two is told to both at once, across nodes and through the front door
    let mut saws_page = Events::signed_in(nodes[2].addr, &saw).await?;
    let mut jyns_page = Events::signed_in(front.addr, &jyn).await?;
    let made = post(
        one,
        "/api/account/challenges",
        json!({"username": "Saw", "side": "rebel", "rated": true, "spectators": "off"}),
        &jyn,
    )
    .await?;
    let id = made["id"].as_str().context("an id")?;
    saws_page
        .until(1)
        .await
        .context("Saw's page on node three, after the challenge made on node one")?;
    let accepted = post(two, &format!("/api/account/challenges/{id}/accept"), json!({}), &saw).await?;
    jyns_page
        .until(2)
        .await
        .context("Jyn's page through HAProxy, after the accept on node two")?;
    let code = accepted["code"].as_str().context("a code")?.to_string();
    let seat = format!("/api/rooms/{code}/account-seat");
    let jyn_token = post(front.addr, &seat, json!({}), &jyn).await?["token"]
        .as_str()
        .context("a token")?
        .to_string();
    let saw_token = post(front.addr, &seat, json!({}), &saw).await?["token"]
        .as_str()
        .context("a token")?
        .to_string();

    // played to its end through the front door; every node killed once the last action's ack came
    let (mut a, wa) = Client::hello(front.addr, &code, Some(&jyn_token), None).await?;
    let (mut b, wb) = Client::hello(front.addr, &code, Some(&saw_token), None).await?;
    let (seq, views) = support::play_random(&mut a, &mut b, &wa, &wb, 20_000, MOVES_SEED)
        .await
        .with_context(|| format!("deal seed {DEAL_SEED}, moves' seed {MOVES_SEED}"))?;
    ensure!(
        views[0].outcome.is_some_and(|o| o.winner.is_some()),
        "the game ended with a winner (deal seed {DEAL_SEED}, moves' seed {MOVES_SEED})"
    );
    drop((a, b));
    for node in nodes.iter_mut() {
        node.kill()?;
    }
    for node in nodes.iter_mut() {
        node.start().await?;
    }

    // every node reads one rated game for each player
    for node in &nodes {
        for name in ["Jyn", "Saw"] {
            let (status, page) = support::http(node.addr, "GET", &format!("/api/players/{name}"), None).await?;
            let page: Value = serde_json::from_str(&page)?;
            ensure!(status == 200 && page["rated_games"] == 1, "{}: {page}", node.addr);
        }
    }
    // the room, taken by whichever node, shows the game's change
    let (a, wa) = Client::hello(front.addr, &code, Some(&jyn_token), Some(seq)).await?;
    let ratings = wa.room.ratings.context("ratings")?;
    ensure!(
        ratings.rebel.is_some_and(|s| s.change.is_some_and(|c| c != 0))
            && ratings.imperial.is_some_and(|s| s.change.is_some_and(|c| c != 0)),
        "{ratings:?}"
    );
    ensure!(
        !a.frames.iter().any(|f| matches!(f, ServerMsg::Error { .. })),
        "an error"
    );
    drop(a);
    drop(nodes);
    drop(front);
    Ok(())
}
