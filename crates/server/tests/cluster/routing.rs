//! HAProxy sends every request of a room to the node that serves it, however its code was typed:
//! `docker/haproxy.cfg` decodes the code and writes it as the server reads it (upper case, no dash,
//! O as 0, I and L as 1) before hashing it, and the server refuses every other spelling (a space,
//! `%20`) before it looks the room up. A request that reached another node would take the room over there
//! and send its players reconnecting.

use std::time::Duration;

use anyhow::{Result, ensure};
use evr_rules::Mode;

use std::collections::HashMap;
use std::sync::Arc;

use evr_store::{PostgresStore, Store};

use crate::nodes::{PLAYERS, cluster, metric, postgres_url};
use crate::support::{self, Client};

/// `code` as a person might type it: lower case, grouped with a dash, 0 as o and 1 as l.
fn typed(code: &str) -> String {
    let mut out = String::new();
    for (i, c) in code.chars().enumerate() {
        if i == 4 {
            out.push('-');
        }
        out.push(match c {
            '0' => 'o',
            '1' => 'l',
            c => c.to_ascii_lowercase(),
        });
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL and HAProxy: scripts/test.sh runs it"]
async fn every_request_of_a_room_reaches_one_node_however_its_code_is_typed() -> Result<()> {
    let url = support::postgres::fresh_database(&postgres_url()?, "cluster_routing").await?;
    let (nodes, front) = cluster("cluster-routing", [&url, &url, &url]).await?;

    let mut players = Vec::new();
    for _ in 0..12 {
        let seats = support::create_and_join(front.addr, Mode::Full).await?;
        let (p, _) = Client::hello(front.addr, &seats.code, Some(&seats.creator_token), None).await?;
        players.push((seats, p));
    }
    // A request that reached another node than the room's would claim the room there: its claim
    // (epoch) in the store would go up. Each room's claim is read once every room has been claimed
    // by its own node (its player's hello), and again after every typed request: no waiting on
    // the ownership checks, whatever the machine's speed.
    let store = Arc::new(tokio::task::spawn_blocking(move || PostgresStore::open(&url)).await??);
    let codes: Vec<String> = players.iter().map(|(s, _)| s.code.clone()).collect();
    let before = epochs(&store, &codes).await?;
    for (seats, _) in &players {
        let variant = typed(&seats.code);
        let (status, body) = support::http(front.addr, "GET", &format!("/api/rooms/{variant}"), None).await?;
        ensure!(status == 200, "{variant}: {status} {body}");
        let (status, _) = support::http(front.addr, "GET", &format!("/r/{variant}/watch"), None).await?;
        ensure!(status == 200, "the page of {variant}");
        // a spectator by the typed code, on the WebSocket
        let (_watcher, w) = Client::hello(front.addr, &variant, None, None).await?;
        ensure!(w.room.code == seats.code, "{variant} is room {}", seats.code);
    }
    // Spellings that only decoding tells apart: what decodes to a code's own characters (an
    // encoded letter or dash) is served by the room's node; a space or another character is
    // refused (404) by whichever node it reaches, before any lookup. Neither claims the room.
    for (seats, _) in &players {
        let code = &seats.code;
        let (head, tail) = code.split_at(4);
        let first = code.as_bytes()[0];
        let served = [
            format!("{head}%2D{tail}"),
            format!("%{first:02X}{}", &code[1..]),
            format!("{head}%2d{}", tail.to_lowercase()),
        ];
        let refused = [
            format!("{head}%20{tail}"),
            format!("%20{code}"),
            format!("{head}%09{tail}"),
            format!("{head}+{tail}"),
        ];
        for variant in served.iter().chain(&refused) {
            let (status, body) = support::http(front.addr, "GET", &format!("/api/rooms/{variant}"), None).await?;
            let expected = if served.contains(variant) { 200 } else { 404 };
            ensure!(status == expected, "{variant}: {status} (expected {expected}) {body}");
        }
    }
    let after = epochs(&store, &codes).await?;
    let moved: Vec<&String> = codes.iter().filter(|c| before.get(*c) != after.get(*c)).collect();
    ensure!(
        moved.is_empty(),
        "rooms claimed again by another node: a typed code was routed elsewhere: {moved:?}"
    );
    for (seats, p) in &mut players {
        ensure!(
            tokio::time::timeout(Duration::from_millis(200), p.recv_error())
                .await
                .is_err(),
            "{}: the player was not told to reconnect",
            seats.code
        );
    }
    let mut spread = Vec::new();
    for n in &nodes {
        spread.push(metric(n, PLAYERS).await?);
    }
    ensure!(
        spread.iter().sum::<u64>() == 12 && spread.iter().filter(|c| **c > 0).count() >= 2,
        "the twelve players are connected, over more than one node: {spread:?}"
    );
    Ok(())
}

/// The rooms' claims as the store has them.
async fn epochs(store: &Arc<PostgresStore>, codes: &[String]) -> Result<HashMap<String, u64>> {
    let (store, codes) = (store.clone(), codes.to_vec());
    let read = tokio::task::spawn_blocking(move || store.epochs(&codes)).await??;
    ensure!(read.len() == 12, "every room is stored: {read:?}");
    Ok(read.into_iter().collect())
}
