//! A node cut off from the database (its connections stop answering, as in a network partition;
//! the other nodes still reach it): it says it is not ready, HAProxy takes it out and cuts its
//! WebSockets, and its players go on playing on the other nodes. When the database answers it
//! again, the node is ready again.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use anyhow::{Context, Result, ensure};
use evr_rules::Mode;
use tokio::net::{TcpListener, TcpStream};

use crate::nodes::{PLAYERS, cluster, metric, postgres_url};
use crate::player::{self, Pace, Script};
use crate::support;

/// A TCP relay in front of PostgreSQL that can stop relaying: its connections then stay open and
/// silent, and new ones are accepted and never answered — what a node sees of a database behind a
/// network cut.
struct Relay {
    port: u16,
    open: Arc<AtomicBool>,
}

impl Relay {
    async fn start(target: String) -> Result<Relay> {
        let listener = TcpListener::bind("127.0.0.1:0").await?;
        let port = listener.local_addr()?.port();
        let open = Arc::new(AtomicBool::new(true));
        let flag = open.clone();
        tokio::spawn(async move {
            while let Ok((mut inbound, _)) = listener.accept().await {
                let (flag, target) = (flag.clone(), target.clone());
                tokio::spawn(async move {
                    let Ok(mut outbound) = TcpStream::connect(&target).await else {
                        return;
                    };
                    let (mut ri, mut wi) = inbound.split();
                    let (mut ro, mut wo) = outbound.split();
                    let mut a = [0u8; 16384];
                    let mut b = [0u8; 16384];
                    use tokio::io::{AsyncReadExt, AsyncWriteExt};
                    loop {
                        // bytes are carried only while the relay is open; closed, both sides hang
                        tokio::select! {
                            n = ri.read(&mut a) => match n {
                                Ok(n) if n > 0 => { while !flag.load(Ordering::Relaxed) { tokio::time::sleep(Duration::from_millis(50)).await; } if wo.write_all(&a[..n]).await.is_err() { return } }
                                _ => return,
                            },
                            n = ro.read(&mut b) => match n {
                                Ok(n) if n > 0 => { while !flag.load(Ordering::Relaxed) { tokio::time::sleep(Duration::from_millis(50)).await; } if wi.write_all(&b[..n]).await.is_err() { return } }
                                _ => return,
                            },
                        }
                    }
                });
            }
        });
        Ok(Relay { port, open })
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL and HAProxy: scripts/test.sh runs it"]
async fn a_node_cut_off_from_the_database_steps_aside_and_its_games_go_on_elsewhere() -> Result<()> {
    let url = support::postgres::fresh_database(&postgres_url()?, "cluster_cut").await?;
    let (login, rest) = url.split_once('@').context("a user in the URL")?;
    let (server, database) = rest.split_once('/').context("a database in the URL")?;
    let relay = Relay::start(server.to_string()).await?;
    let relayed = format!("{login}@127.0.0.1:{}/{database}", relay.port);
    // node 1 reaches the database through the relay
    let (nodes, front) = cluster("cluster-cut", [&relayed, &url, &url]).await?;

    // games under way, held short of their end (the shortest random games last 27 actions) until
    // node 1's players have moved: the test waits for what it needs, not for a time
    let mut games = Vec::new();
    let mut paces = Vec::new();
    for r in 0..12u64 {
        let seats = support::create_and_join(front.addr, Mode::Full).await?;
        let pace = Pace::held_at(20);
        paces.push(pace.clone());
        for (token, seed) in [
            (Some(seats.creator_token.clone()), 2 * r),
            (Some(seats.guest_token.clone()), 2 * r + 1),
        ] {
            games.push(tokio::spawn(player::run(Script {
                front: front.addr,
                code: seats.code.clone(),
                token,
                seed: 500 + seed,
                think_ms: (60, 140),
                deadline: Duration::from_secs(600),
                pace: pace.clone(),
            })));
        }
    }
    for pace in &paces {
        pace.wait_for(5, Duration::from_secs(120)).await?;
    }
    let before = metric(&nodes[0], PLAYERS).await?;
    ensure!(before > 0, "some of the twelve games are played on node 1");

    relay.open.store(false, Ordering::Relaxed);
    let cut = std::time::Instant::now();
    let mut refused = false;
    for _ in 0..600 {
        let (status, _) = support::http(nodes[0].addr, "GET", "/readyz", None).await?;
        if status == 503 {
            refused = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    ensure!(refused, "node 1 says it is not ready within a minute of the cut");
    // HAProxy takes it out (two failed checks) and cuts its WebSockets; the players move
    let mut gone = false;
    for _ in 0..1200 {
        if metric(&nodes[0], PLAYERS).await? == 0 {
            gone = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    ensure!(gone, "node 1's {before} players left it");
    let unfinished = games.iter().filter(|g| !g.is_finished()).count();
    eprintln!(
        "cut: node 1 not ready and its {before} players gone after {:?}; {unfinished} players still playing",
        cut.elapsed()
    );
    ensure!(
        unfinished > 0,
        "games are still under way after the move (they are held)"
    );

    relay.open.store(true, Ordering::Relaxed);
    for pace in &paces {
        pace.allow_until(u32::MAX);
    }
    for g in games {
        let seen = g.await.context("a player's task")??;
        ensure!(seen.finished, "every game finished");
    }
    let mut ready = false;
    for _ in 0..600 {
        if support::http(nodes[0].addr, "GET", "/readyz", None).await?.0 == 200 {
            ready = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    ensure!(ready, "node 1 is ready again once the database answers");
    Ok(())
}
