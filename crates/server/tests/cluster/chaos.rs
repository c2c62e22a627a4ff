//! Whole games through HAProxy while nodes are killed with SIGKILL at random moments of the games.
//!
//! The kills are tied to the games' progress, not to the clock: kill k waits until every game has
//! reached a given `seq` (one or two actions after the last kill's), while the games may go only a
//! few actions further (`Pace`), so every kill hits games in motion, on any machine.

use std::collections::HashSet;
use std::time::Duration;

use anyhow::{Context, Result, ensure};
use evr_protocol::ReplayEyes;
use evr_rules::Mode;
use evr_store::GameSecret;
use evr_store::{PostgresStore, Store};
use rand::{RngExt, SeedableRng};

use crate::nodes::{cluster, postgres_url};
use crate::player::{self, Pace, Script, Seen};
use crate::support;

const ROOMS: usize = 6;
const KILLS: usize = 12;
/// Kill k falls when every game reached `seq` `FIRST_KILL_SEQ + k` (plus 0 or 1), with the games
/// allowed `AHEAD` actions further; the last kill is at seq 15 at most, the games held at 18 at
/// most until then: the shortest of 2,000 random games ends after 27 actions (`evr views --games
/// 2000`), so the games are under way at every kill.
const FIRST_KILL_SEQ: u32 = 3;
const AHEAD: u32 = 3;
/// How long a game may take to reach the next kill's `seq` (it takes about a second).
const PATIENCE: Duration = Duration::from_secs(120);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL and HAProxy: scripts/test.sh runs it"]
async fn games_through_haproxy_survive_nodes_killed_at_random() -> Result<()> {
    let url = support::postgres::fresh_database(&postgres_url()?, "cluster_chaos").await?;
    let (mut nodes, front) = cluster("cluster-chaos", [&url, &url, &url]).await?;

    // rooms created through the front door (any node), each with two players and a spectator
    let mut games = Vec::new();
    let mut paces = Vec::new();
    for r in 0..ROOMS {
        let seats = support::create_and_join(front.addr, Mode::Full).await?;
        let pace = Pace::held_at(FIRST_KILL_SEQ + AHEAD);
        paces.push(pace.clone());
        let script = |token: Option<String>, seed: u64| Script {
            front: front.addr,
            code: seats.code.clone(),
            token,
            seed,
            think_ms: (40, 120),
            deadline: Duration::from_secs(600),
            pace: pace.clone(),
        };
        let base = 1000 * r as u64;
        games.push((
            seats.clone(),
            [
                tokio::spawn(player::run(script(Some(seats.creator_token.clone()), base + 1))),
                tokio::spawn(player::run(script(Some(seats.guest_token.clone()), base + 2))),
                tokio::spawn(player::run(script(None, base + 3))),
            ],
        ));
    }

    // the chaos: a random node killed when every game reached the kill's seq, back 0.3–1.2 s later
    let mut rng = rand::rngs::SmallRng::seed_from_u64(20261125);
    for kill in 0..KILLS {
        let at = FIRST_KILL_SEQ + kill as u32 + rng.random_range(0..2);
        for pace in &paces {
            pace.allow_until(at + AHEAD);
        }
        for pace in &paces {
            pace.wait_for(at, PATIENCE).await?;
        }
        let playing = paces.iter().filter(|p| !p.is_finished()).count();
        ensure!(playing > 0, "games are under way at kill {} (they are held)", kill + 1);
        let victim = rng.random_range(0..nodes.len());
        nodes[victim].kill()?;
        eprintln!(
            "kill {} at seq {at}: node{} with {playing} games under way",
            kill + 1,
            victim + 1
        );
        tokio::time::sleep(Duration::from_millis(rng.random_range(300..1200))).await;
        nodes[victim].start().await?;
    }
    ensure!(nodes.iter().all(|n| n.is_running()), "every node is back");
    for pace in &paces {
        pace.allow_until(u32::MAX);
    }

    let store = {
        let url = url.clone();
        std::sync::Arc::new(tokio::task::spawn_blocking(move || PostgresStore::open(&url)).await??)
    };
    let mut reconnects = 0;
    for (seats, viewers) in games {
        let mut seen: Vec<Seen> = Vec::new();
        for v in viewers {
            seen.push(v.await.context("a viewer's task")??);
        }
        reconnects += seen.iter().map(|s| s.reconnects).sum::<u32>();
        ensure!(
            seen.iter().all(|s| s.finished),
            "{}: every viewer saw the end",
            seats.code
        );
        check_store(&store, &seats.code, &seen).await?;
        check_views(front.addr, &seats, &seen).await?;
    }
    eprintln!("{ROOMS} games finished through {KILLS} kills; {reconnects} reconnections");
    ensure!(
        reconnects > 0,
        "the kills cut some connections (else this test tested nothing)"
    );
    Ok(())
}

/// Every acknowledged action is stored exactly once at the seq its ack named, and the log has no
/// hole and no action twice. And the game's key and salt (its shuffles) reached nobody before the
/// end, whichever node served them.
async fn check_store(store: &std::sync::Arc<PostgresStore>, code: &str, seen: &[Seen]) -> Result<()> {
    let (s, c) = (store.clone(), code.to_string());
    let game = tokio::task::spawn_blocking(move || s.load_game(&c, 1))
        .await??
        .context("game 1 is stored")?;
    let seqs: Vec<u32> = game.actions.iter().map(|a| a.seq).collect();
    let from = game.start_seq + 1;
    ensure!(
        seqs == (from..from + seqs.len() as u32).collect::<Vec<_>>(),
        "{code}: the stored log has no hole: {seqs:?}"
    );
    let GameSecret::Committed { key, salt } = game.secret else {
        anyhow::bail!("{code}: a new game has a committed key");
    };
    let hex = |bytes: &[u8]| bytes.iter().map(|b| format!("{b:02x}")).collect::<String>();
    let (key, salt) = (hex(&key), hex(&salt));
    for viewer in seen {
        ensure!(
            viewer.frames_until_end.len() > 10,
            "{code}: frames were recorded ({})",
            viewer.frames_until_end.len()
        );
        for frame in &viewer.frames_until_end {
            let frame = frame.to_ascii_lowercase();
            ensure!(
                !frame.contains(&key) && !frame.contains(&salt),
                "{code}: the key or salt was sent before the end: {frame}"
            );
        }
    }
    let ids: HashSet<&str> = game.actions.iter().map(|a| a.action_id.as_str()).collect();
    ensure!(ids.len() == game.actions.len(), "{code}: no action stored twice");
    for viewer in seen {
        for (id, seq) in &viewer.acked {
            let stored: Vec<_> = game.actions.iter().filter(|a| &a.action_id == id).collect();
            ensure!(
                stored.len() == 1 && stored[0].seq == *seq,
                "{code}: acknowledged {id} at seq {seq} is stored once there: {stored:?}"
            );
        }
    }
    Ok(())
}

/// What each viewer saw live, at every seq it saw, is exactly its view rebuilt from the stored
/// log (the replay): through all the moves between nodes, nobody was sent anything else.
async fn check_views(front: std::net::SocketAddr, seats: &support::Seats, seen: &[Seen]) -> Result<()> {
    let eyes = [
        (ReplayEyes::Seat, Some(seats.creator_token.as_str())),
        (ReplayEyes::Seat, Some(seats.guest_token.as_str())),
        (ReplayEyes::Spectator, None),
    ];
    for ((eyes, token), viewer) in eyes.into_iter().zip(seen) {
        let replay = support::replay_steps(front, &seats.code, eyes, token).await?;
        for (seq, live) in &viewer.views {
            let step = replay
                .steps
                .iter()
                .find(|s| s.seq == *seq)
                .with_context(|| format!("{}: the replay has seq {seq}", seats.code))?;
            ensure!(
                &step.view == live,
                "{}: {eyes:?} view at seq {seq} is what the store says it may see",
                seats.code
            );
        }
    }
    Ok(())
}
