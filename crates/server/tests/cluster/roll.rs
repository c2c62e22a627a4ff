//! A rolling restart, as an operator upgrades the cluster: 300 human-paced matches through HAProxy
//! to three nodes on one PostgreSQL database, and meanwhile each node in turn gets SIGTERM (it says
//! it is not ready, HAProxy takes it out and closes its sessions, it tells whoever is left to
//! reconnect, exits), and is started again once it has exited. No match may fail, no acknowledged
//! action may be missing from the store or be stored twice. With `EVR_ROLL_BASELINE=1` (the
//! benchmark in BENCHMARKS.md), then the same run without the roll, for the latency the roll costs:
//! a figure, not a check (every other cluster test plays without a roll), so scripts/test.sh leaves
//! it out (a minute of its run). The players are `evr-loadgen`'s (`--reconnect`: the browser's
//! reconnection delays).
//!
//! The nodes drain for up to a minute, and each is sent a second SIGTERM (which ends the drain) as
//! soon as HAProxy has taken it out: the test waits for what HAProxy does, not for how quickly it
//! does it. A drain that ends by itself after `--drain-secs` is `tests/server/drain.rs`'s.
//!
//! The "new binary" is the same build: CI has one. What the roll proves is the hand-over; a new
//! release of the protocol is refused with `version_mismatch` (proto/PROTOCOL.md), which the
//! browser turns into a reload.

use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, ensure};
use clap::Parser;
use evr_loadgen::report::{Figures, Stats};
use evr_loadgen::{Args, drive_with};
use evr_store::{PostgresStore, Store};

use crate::nodes::{Front, Node, cluster_with, postgres_url};
use crate::support;

const MATCHES: u64 = 300;
/// Actions per match: at 1–2 s a decision, a match lasts about a minute (a whole game is ~140
/// actions, which at this pace would take four), so that a run takes about a minute.
const ACTIONS: u64 = 40;
const THINK_MS: (u64, u64) = (1000, 2000);
/// The nodes' drain: far longer than HAProxy takes to notice (2 checks 500 ms apart); the test ends
/// it with a second SIGTERM once HAProxy has.
const DRAIN_SECS: &str = "60";

/// What one run measured.
struct Run {
    figures: Figures,
    /// Acknowledged actions missing from the store, stored at another seq, or stored twice.
    lost: usize,
    seconds: f64,
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL and HAProxy: scripts/test.sh runs it"]
async fn a_rolling_restart_through_haproxy_fails_no_match_and_loses_no_action() -> Result<()> {
    let roll = play("roll", true).await?;
    let baseline = match std::env::var_os("EVR_ROLL_BASELINE") {
        Some(_) => Some(play("roll_baseline", false).await?),
        None => None,
    };

    eprintln!(
        "\n{MATCHES} matches of {ACTIONS} actions, think {}-{} ms, through HAProxy to 3 nodes on PostgreSQL",
        THINK_MS.0, THINK_MS.1
    );
    eprintln!("                 failed  lost  reconnects per player  p50 ms  p99 ms  p99.9 ms  max ms  seconds");
    let runs: Vec<(&str, &Run)> = baseline
        .iter()
        .map(|b| ("without the roll", b))
        .chain([("rolling restart", &roll)])
        .collect();
    for &(name, run) in &runs {
        let f = &run.figures;
        let (mean, max, _) = f.reconnects_per_player();
        eprintln!(
            "{name:<17}{:>6}{:>6}  {mean:>5.2} mean, {max} max   {:>7.2} {:>7.2} {:>9.1} {:>7.1} {:>8.1}",
            f.matches_failed,
            run.lost,
            f.percentile_ms(0.5),
            f.percentile_ms(0.99),
            f.percentile_ms(0.999),
            f.max_latency_us as f64 / 1000.0,
            run.seconds
        );
    }
    for (name, run) in runs {
        let f = &run.figures;
        ensure!(
            f.matches_failed == 0 && f.error_count() == 0,
            "{name}: no match fails: {} failed, errors {:?}, first: {:?}",
            f.matches_failed,
            f.errors,
            f.first_failure
        );
        ensure!(
            f.matches_started == MATCHES && f.rooms.len() as u64 == MATCHES,
            "{name}: every match was played ({} started)",
            f.matches_started
        );
        ensure!(run.lost == 0, "{name}: {} acknowledged actions lost", run.lost);
        ensure!(!f.acks.is_empty(), "{name}: actions were acknowledged");
    }
    let (mean, _, players) = roll.figures.reconnects_per_player();
    ensure!(players == 2 * MATCHES, "every player counted");
    ensure!(
        mean > 0.0,
        "the roll moved players to other nodes (else it tested nothing)"
    );
    Ok(())
}

/// One run on a fresh database and a fresh cluster; with `roll`, the nodes are restarted one by
/// one as the matches progress.
async fn play(name: &str, roll: bool) -> Result<Run> {
    let url = support::postgres::fresh_database(&postgres_url()?, name).await?;
    let (mut nodes, front) = cluster_with(
        &format!("cluster-{name}"),
        [&url, &url, &url],
        &["--drain-secs", DRAIN_SECS],
    )
    .await?;
    let args = Args::try_parse_from([
        "evr-loadgen".to_string(),
        format!("--matches={MATCHES}"),
        format!("--think-min-ms={}", THINK_MS.0),
        format!("--think-max-ms={}", THINK_MS.1),
        format!("--actions-per-match={ACTIONS}"),
        "--deadline-secs=300".into(),
        "--seed=24".into(),
        "--reconnect".into(),
        "--record-acks".into(),
    ])?;
    let stats = Arc::new(Stats::default());
    let started = Instant::now();
    let load = tokio::spawn({
        let (stats, addr) = (stats.clone(), front.addr);
        async move { drive_with(&args, addr, stats).await }
    });
    if roll {
        for (k, node) in nodes.iter_mut().enumerate() {
            restart_when(node, k, &front, &stats, &load).await?;
        }
    }
    let figures = load.await?;
    let seconds = started.elapsed().as_secs_f64();
    let store = {
        let url = url.clone();
        Arc::new(tokio::task::spawn_blocking(move || PostgresStore::open(&url)).await??)
    };
    let lost = lost_actions(&store, &figures).await?;
    Ok(Run { figures, lost, seconds })
}

/// Node `k` (0-based) gets SIGTERM once every match is under way and the matches have made
/// (k+1)/4 of their actions — tied to the run's progress, not to a time — and a second SIGTERM
/// once HAProxy has taken it out; it is started again once it has exited. Returns when HAProxy has
/// it back.
async fn restart_when(
    node: &mut Node,
    k: usize,
    front: &Front,
    stats: &Stats,
    load: &tokio::task::JoinHandle<Figures>,
) -> Result<()> {
    let due = (k as u64 + 1) * MATCHES * ACTIONS / 4;
    while stats.matches_started() < MATCHES || stats.actions_so_far() < due {
        ensure!(!load.is_finished(), "the run ended before node{} was restarted", k + 1);
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let (downs, ups) = (front.times_marked(k + 1, "DOWN")?, front.times_marked(k + 1, "UP")?);
    let signalled = Instant::now();
    node.sigterm()?;
    // it drains: HAProxy sees it unready and takes it out (cutting its players' WebSockets: they
    // reconnect to the others) while it still serves
    let deadline = Instant::now() + Duration::from_secs(50);
    while front.times_marked(k + 1, "DOWN")? == downs {
        ensure!(
            node.still_running()?,
            "node{} exited before HAProxy took it out: it did not drain",
            k + 1
        );
        ensure!(Instant::now() < deadline, "HAProxy did not take node{} out", k + 1);
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    ensure!(
        node.still_running()?,
        "node{} still serves when HAProxy has taken it out",
        k + 1
    );
    let out = signalled.elapsed();
    // the drain's end: whoever is still connected is told to reconnect, and the node exits
    node.sigterm()?;
    let exit = node.exited(Duration::from_secs(60)).await?;
    ensure!(exit.success(), "node{} exits cleanly after its drain: {exit}", k + 1);
    let exited = signalled.elapsed();
    node.start().await?;
    // back in rotation before the next node goes: HAProxy says so (2 good checks)
    let deadline = Instant::now() + Duration::from_secs(60);
    while front.times_marked(k + 1, "UP")? == ups {
        ensure!(Instant::now() < deadline, "HAProxy did not take node{} back", k + 1);
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    eprintln!(
        "node{}: SIGTERM after {} actions; out of HAProxy {:.1} s later, exited at {:.1} s, back in HAProxy at {:.1} s",
        k + 1,
        stats.actions_so_far(),
        out.as_secs_f64(),
        exited.as_secs_f64(),
        signalled.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Acknowledged actions that are not stored exactly once at the seq their ack named, plus actions
/// stored twice (the same id twice in a game's log) — against the store, as `chaos.rs` checks.
async fn lost_actions(store: &Arc<PostgresStore>, figures: &Figures) -> Result<usize> {
    let mut lost = 0;
    for code in &figures.rooms {
        let (s, c) = (store.clone(), code.clone());
        let game = tokio::task::spawn_blocking(move || s.load_game(&c, 1))
            .await??
            .with_context(|| format!("{code}: game 1 is stored"))?;
        let seqs: Vec<u32> = game.actions.iter().map(|a| a.seq).collect();
        let from = game.start_seq + 1;
        ensure!(
            seqs == (from..from + seqs.len() as u32).collect::<Vec<_>>(),
            "{code}: the stored log has no hole: {seqs:?}"
        );
        let ids: std::collections::HashSet<&str> = game.actions.iter().map(|a| a.action_id.as_str()).collect();
        lost += game.actions.len() - ids.len();
        for ack in figures.acks.iter().filter(|a| &a.room == code) {
            let stored = game.actions.iter().filter(|a| a.action_id == ack.action_id).count();
            let at_seq = game
                .actions
                .iter()
                .any(|a| a.action_id == ack.action_id && u64::from(a.seq) == ack.seq);
            if stored != 1 || !at_seq {
                eprintln!(
                    "{code}: acknowledged {} at seq {} is stored {stored} times",
                    ack.action_id, ack.seq
                );
                lost += 1;
            }
        }
    }
    Ok(lost)
}
