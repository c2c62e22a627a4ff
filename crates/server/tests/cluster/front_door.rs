//! Behind the shipped HAProxy (`docker/haproxy.cfg`, `send-proxy-v2`) every node knows each
//! client by its own address, not HAProxy's: one client spending its room limit leaves every other
//! client creating rooms. Two loopback addresses (127.0.0.2 and 127.0.0.3) are the two clients.

use std::net::{IpAddr, SocketAddr};

use anyhow::{Result, ensure};
use evr_protocol::CREATE_ROOM_PATH;
use evr_rules::Mode;

use crate::nodes::{cluster_with, postgres_url};
use crate::support;

async fn create_room(front: SocketAddr, from: IpAddr) -> Result<(u16, String)> {
    let tcp = support::connect_from(from, front).await?;
    let body = serde_json::to_value(support::options(Mode::Full))?;
    support::http_on(tcp, front, "POST", CREATE_ROOM_PATH, Some(&body), None).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL and HAProxy: scripts/test.sh runs it"]
async fn behind_haproxy_one_clients_room_limit_leaves_the_others_creating_rooms() -> Result<()> {
    let url = support::postgres::fresh_database(&postgres_url()?, "cluster_front_door").await?;
    let (_nodes, front) = cluster_with("cluster-front-door", [&url, &url, &url], &["--rooms-per-minute", "2"]).await?;
    let (a, b) = (IpAddr::from([127, 0, 0, 2]), IpAddr::from([127, 0, 0, 3]));

    // rooms go round robin, each node counting its own: a's limit is reached within 3 × 2 rooms
    let mut made = 0;
    let refusal = loop {
        let (status, body) = create_room(front.addr, a).await?;
        match status {
            201 => made += 1,
            _ => break (status, body),
        }
        ensure!(
            made <= 6,
            "127.0.0.2 made {made} rooms with 2 a minute on each of 3 nodes"
        );
    };
    ensure!(
        refusal.0 == 429 && refusal.1.contains("too_many_rooms"),
        "127.0.0.2's refusal: {refusal:?}"
    );
    // the other client is not the first one's
    for _ in 0..2 {
        let (status, body) = create_room(front.addr, b).await?;
        ensure!(
            status == 201,
            "127.0.0.3 was refused a room after 127.0.0.2 spent its own: {status} {body}"
        );
    }
    Ok(())
}

/// A room's status read on a node that does not hold the room is read from the store: the room
/// is not claimed there (its claim in the store stays where it is) and its players stay put.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL and HAProxy: scripts/test.sh runs it"]
async fn reading_a_room_on_another_node_leaves_it_with_its_own() -> Result<()> {
    use evr_store::{PostgresStore, Store};
    let url = support::postgres::fresh_database(&postgres_url()?, "cluster_read_only").await?;
    let (nodes, front) = crate::nodes::cluster("cluster-read-only", [&url, &url, &url]).await?;
    let seats = support::create_and_join(front.addr, Mode::Full).await?;
    // the player's hello makes the room its node's
    let (_player, _) = support::Client::hello(front.addr, &seats.code, Some(&seats.creator_token), None).await?;
    let store = std::sync::Arc::new(tokio::task::spawn_blocking(move || PostgresStore::open(&url)).await??);
    let epoch = || {
        let (store, code) = (store.clone(), seats.code.clone());
        async move { anyhow::Ok(tokio::task::spawn_blocking(move || store.epochs(&[code])).await??) }
    };
    let before = epoch().await?;
    for node in &nodes {
        let (status, body) = support::http(node.addr, "GET", &format!("/api/rooms/{}", seats.code), None).await?;
        ensure!(status == 200, "{}: {status} {body}", node.addr);
        let read: evr_protocol::RoomStatus = serde_json::from_str(&body)?;
        ensure!(!read.seat_free && read.code == seats.code, "{}: {read:?}", node.addr);
    }
    let after = epoch().await?;
    ensure!(
        before == after,
        "reading the room claimed it: {before:?} then {after:?}"
    );
    Ok(())
}
