//! `evr-loadgen` as a library: the matches ([`drive`]) and their figures ([`report`]), for the
//! binary and for tests that play load against a cluster while they restart its nodes
//! (`crates/server/tests/cluster/roll.rs`).

pub mod matchplay;
pub mod report;
mod rooms_file;
mod viewer;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::Parser;
use evr_rules::Mode;

use crate::matchplay::Played;
use crate::report::{Figures, Stats};

/// Plays concurrent matches against the EvR match server and reports latency, throughput and, for
/// the server, CPU per action and memory per match.
#[derive(Parser, Debug, Clone)]
#[command(name = "evr-loadgen")]
pub struct Args {
    /// Concurrent matches (each: 2 players and 1 spectator = 3 WebSockets).
    #[arg(long, default_value_t = 1000)]
    pub matches: usize,
    /// Shortest think time before an action, in milliseconds.
    #[arg(long, default_value_t = 100)]
    pub think_min_ms: u64,
    /// Longest think time before an action, in milliseconds.
    #[arg(long, default_value_t = 400)]
    pub think_max_ms: u64,
    /// Stop after this many seconds whatever happens.
    #[arg(long, default_value_t = 600)]
    pub deadline_secs: u64,
    /// Fixed-duration mode: keep `--matches` matches live for this many seconds, each finished
    /// match replaced by a new one (without it, each match is played once).
    #[arg(long)]
    pub duration_secs: Option<u64>,
    /// With `--duration-secs`: the matches start spread over this many seconds (default: a quarter
    /// of the duration, at most 30 s).
    #[arg(long)]
    pub ramp_secs: Option<u64>,
    /// Use a server already listening here instead of starting one (start it with
    /// `--rooms-per-minute 1000000 --messages-per-second 1000 --max-connections-per-client 1000000`).
    #[arg(long)]
    pub addr: Option<SocketAddr>,
    /// The process id of the server at `--addr`, to read its CPU time and memory from /proc.
    #[arg(long)]
    pub server_pid: Option<u32>,
    /// Pin the server (all its threads) to this CPU core (`taskset`).
    #[arg(long)]
    pub pin_server: Option<usize>,
    /// Pin this driver (and its driver processes) to this CPU core.
    #[arg(long)]
    pub pin_driver: Option<usize>,
    /// Driver processes sharing the matches (each process may hold at most 20,000 sockets here).
    #[arg(long, default_value_t = 1)]
    pub processes: usize,
    /// Open every connection from this local address (e.g. 127.0.0.2). With `--processes`, each
    /// driver process uses its own: 127.0.0.2, 127.0.0.3, … (each address has ~28,000 ephemeral
    /// ports, fewer than thousands of matches need once closed HTTP connections wait in TIME_WAIT).
    #[arg(long)]
    pub source: Option<std::net::IpAddr>,
    /// Stop each match after this many actions (it stays unfinished in the server).
    #[arg(long)]
    pub actions_per_match: Option<u64>,
    /// Measure the memory of this many rooms held with nobody connected, on a server of our own
    /// (each played `--actions-per-match` actions, 70 by default), instead of playing matches.
    #[arg(long)]
    pub idle_rooms: Option<usize>,
    /// A driver process started by another: print only its figures, as one JSON line.
    #[arg(long, hide = true)]
    pub child: bool,
    /// Game mode of every room: full or tutorial.
    #[arg(long, default_value = "full", value_parser = parse_mode)]
    pub mode: Mode,
    /// Seed for the players' random choices.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Players and spectators whose connection drops, or who are told `shutting_down`, connect
    /// again with the last `seq` they saw (after the browser's delay: 250–500 ms, doubling, half
    /// of it random) and play on, as people do while servers restart; an action in flight is sent
    /// again if the game did not move on. A match fails only when a viewer cannot connect again
    /// (10 failures in a row). The report counts the reconnections per player. Without it, a
    /// dropped connection fails its match.
    #[arg(long)]
    pub reconnect: bool,
    /// Keep every acknowledged action (room, action id, seq) in the figures, for a check against
    /// the store (tests).
    #[arg(long, hide = true)]
    pub record_acks: bool,
    /// Create every room to reveal its games at their end (`reveal_at_end`): a finished game's
    /// replay file can then be downloaded at once.
    #[arg(long)]
    pub reveal_at_end: bool,
    /// Append one JSON line per room to this file: its code and both seats' tokens once they are
    /// taken, then whether its game ended or where the driver stopped it (`rooms_file.rs`). For
    /// tests that take the games over; the file holds seat tokens and is created owner-only.
    #[arg(long)]
    pub rooms_file: Option<std::path::PathBuf>,
}

/// A game mode by its wire name (`full`, `tutorial`).
fn parse_mode(name: &str) -> Result<Mode, String> {
    serde_json::from_value(serde_json::Value::String(name.to_string())).map_err(|e| e.to_string())
}

/// After a failed match, its slot waits this long before the next one.
const FAILURE_BACKOFF: Duration = Duration::from_secs(1);

/// Plays this process's share of the matches; returns what it measured.
pub async fn drive(args: &Args, addr: SocketAddr) -> Figures {
    drive_with(args, addr, Arc::new(Stats::default())).await
}

/// [`drive`], counting into `stats` (which another task may watch: the matches' progress).
pub async fn drive_with(args: &Args, addr: SocketAddr, stats: Arc<Stats>) -> Figures {
    let rooms_file = match &args.rooms_file {
        Some(path) => match rooms_file::RoomsFile::open(path) {
            Ok(f) => Some(Arc::new(f)),
            Err(e) => {
                stats.failed(&format!("{e:#}"));
                return stats.figures();
            }
        },
        None => None,
    };
    let started = Instant::now();
    let stop_at = args.duration_secs.map(|d| started + Duration::from_secs(d));
    // A match live when the duration is up ends after its action in flight: give it time.
    let deadline = Duration::from_secs(match args.duration_secs {
        Some(d) => args.deadline_secs.max(d + 60),
        None => args.deadline_secs,
    });
    let ramp = match args.duration_secs {
        Some(d) => Duration::from_secs(args.ramp_secs.unwrap_or((d / 4).min(30))),
        None => Duration::ZERO,
    };
    // Connections are opened in waves so that the listen backlog never overflows.
    let setup = Arc::new(tokio::sync::Semaphore::new(64));
    let mut tasks = Vec::with_capacity(args.matches);
    for slot in 0..args.matches {
        let (stats, setup, args, rooms_file) = (stats.clone(), setup.clone(), args.clone(), rooms_file.clone());
        let start_after = ramp.mul_f64(slot as f64 / args.matches.max(1) as f64);
        tasks.push(tokio::spawn(async move {
            tokio::time::sleep(start_after).await;
            for round in 0u64.. {
                let index = slot as u64 + round * args.matches as u64;
                let left = deadline.saturating_sub(started.elapsed());
                let played = tokio::time::timeout(
                    left,
                    matchplay::play(addr, &args, index, &stats, &setup, stop_at, rooms_file.as_deref()),
                )
                .await;
                match played {
                    Ok(Ok(Played::Finished)) => stats.finished(),
                    Ok(Ok(Played::Stopped)) => break,
                    Ok(Err(e)) => {
                        stats.failed(&format!("{e:#}"));
                        // a server that refuses everything must not be flooded with new rooms
                        tokio::time::sleep(FAILURE_BACKOFF).await;
                    }
                    Err(_) => {
                        stats.failed("deadline reached");
                        break;
                    }
                }
                // One match per slot, unless the run keeps its matches live for a duration.
                if stop_at.is_none_or(|t| Instant::now() >= t) {
                    break;
                }
            }
        }));
    }
    for t in tasks {
        let _ = t.await;
    }
    stats.figures()
}
