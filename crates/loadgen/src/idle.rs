//! The memory of rooms held with nobody connected (`--idle-rooms N`): N matches are played part-way
//! against a server of our own, which is then restarted on the same data; the rooms are brought
//! back into memory by asking for their status (plain HTTP, no WebSocket, so what the server's RSS
//! gains is the rooms' own memory, not that of connections gone by), 25 at a time, each wave
//! left to hibernate (after 1 s here) before the next, as rooms come and go in a real server.

use std::net::SocketAddr;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use evr_bot_client::http;
use serde::Serialize;

use evr_loadgen::{Args, drive};

use crate::{rss_kib, spawn_server};

/// Actions played in each match before it is left idle, unless `--actions-per-match` says.
const DEFAULT_ACTIONS: u64 = 70;
/// Rooms loaded at once.
const WAVE: usize = 25;

#[derive(Serialize)]
struct IdleSummary {
    idle_rooms: usize,
    actions_per_match: u64,
    rss_before_kib: u64,
    rss_after_kib: u64,
    kib_per_idle_room: f64,
}

pub async fn measure(args: &Args, rooms: usize) -> Result<()> {
    let mut args = args.clone();
    args.matches = rooms;
    args.think_min_ms = 0;
    args.think_max_ms = 0;
    args.duration_secs = None;
    let actions = *args.actions_per_match.get_or_insert(DEFAULT_ACTIONS);

    let first = spawn_server(None, &[]).await?;
    let figures = drive(&args, first.addr).await;
    if figures.error_count() > 0 || figures.rooms.len() != rooms {
        bail!(
            "setting up the rooms failed: {} errors, {} rooms ({:?})",
            figures.error_count(),
            figures.rooms.len(),
            figures.first_failure
        );
    }
    let data_dir = first.stop_gracefully()?;

    let server = spawn_server(Some(data_dir), &["--room-hibernate-secs", "1"]).await?;
    let pid = server.child.id();
    tokio::time::sleep(Duration::from_secs(1)).await;
    let before = rss_kib(pid).context("reading the server's RSS")?;
    let mut loaded = 0;
    for wave in figures.rooms.chunks(WAVE) {
        for code in wave {
            load(server.addr, code).await?;
        }
        loaded += wave.len();
        wait_until_hibernated(server.addr, loaded).await?;
    }
    let after = rss_kib(pid).context("reading the server's RSS")?;
    let summary = IdleSummary {
        idle_rooms: rooms,
        actions_per_match: actions,
        rss_before_kib: before,
        rss_after_kib: after,
        kib_per_idle_room: after.saturating_sub(before) as f64 / rooms.max(1) as f64,
    };
    println!(
        "idle rooms: {rooms} (each played {actions} actions, nobody connected)\n\
         server RSS: {:.1} MiB before loading them, {:.1} MiB after = {:.1} KiB per idle room",
        before as f64 / 1024.0,
        after as f64 / 1024.0,
        summary.kib_per_idle_room
    );
    println!("{}", serde_json::to_string(&summary)?);
    Ok(())
}

/// Waits until `rooms` rooms have hibernated.
async fn wait_until_hibernated(addr: SocketAddr, rooms: usize) -> Result<()> {
    for _ in 0..200 {
        let (_, metrics) = http::get(addr, "/metrics").await?;
        let hibernated = metrics
            .lines()
            .find_map(|l| l.strip_prefix("evr_rooms_hibernated_total "))
            .and_then(|v| v.trim().parse::<f64>().ok())
            .unwrap_or(0.0);
        if hibernated >= rooms as f64 {
            return Ok(());
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    bail!("the rooms did not hibernate within 20 s")
}

/// Brings room `code` into memory: its status loads it from the store.
async fn load(addr: SocketAddr, code: &str) -> Result<()> {
    let (status, body) = http::get(addr, &evr_protocol::room_path(code)).await?;
    if status != 200 {
        bail!("loading room {code}: {status} {body}");
    }
    Ok(())
}
