//! `evr-socket-floor`: what the sockets alone cost a server per action on this machine — the floor
//! under `evr-loadgen`'s "server CPU per action".
//!
//! The same traffic as a match of the flat-out benchmark, with nothing else: per match three
//! loopback TCP connections (two players, a spectator); a player sends an action (120 bytes) and
//! the server, with no rules, no store and no JSON, writes what an action costs it on the wire — the
//! acknowledgement and update to the actor in one write (1,263 bytes), an update to the opponent and
//! one to the spectator (1,203 bytes each, the measured average update frame) — one system call per
//! connection, as `evr-server` does. The server is a tokio runtime like `evr-server`'s; it counts
//! its own CPU time (from `/proc/self/stat`) over the actions after the first tenth.
//!
//! ```sh
//! taskset -c 0 target/release/evr-socket-floor serve 127.0.0.1:9500 150000 &
//! taskset -c 1 target/release/evr-socket-floor drive 127.0.0.1:9500 500 150000
//! ```

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use anyhow::{Context, bail};
use rand::{RngExt, SeedableRng};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::tcp::OwnedWriteHalf;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Mutex;

const ACTION: usize = 120;
const UPDATE: usize = 1_203;
const ACK_AND_UPDATE: usize = 60 + UPDATE;
/// Between a player's view arriving and its next action, as in the flat-out benchmark (unless
/// given).
const THINK_MS: (u64, u64) = (1, 10);

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
        ["serve", addr, actions] => serve(addr, actions.parse()?).await,
        ["drive", addr, matches, actions] => drive(addr, matches.parse()?, actions.parse()?, THINK_MS).await,
        ["drive", addr, matches, actions, min, max] => {
            drive(addr, matches.parse()?, actions.parse()?, (min.parse()?, max.parse()?)).await
        }
        _ => {
            bail!("usage: evr-socket-floor serve ADDR ACTIONS | drive ADDR MATCHES ACTIONS [THINK_MIN_MS THINK_MAX_MS]")
        }
    }
}

/// This process's CPU time (user + system) in seconds.
fn cpu_seconds() -> anyhow::Result<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat")?;
    // the fields after the command's closing parenthesis; utime and stime are the 12th and 13th
    let after = stat.rsplit_once(')').context("/proc/self/stat")?.1;
    let fields: Vec<&str> = after.split_whitespace().collect();
    let ticks: u64 =
        fields.get(11).context("utime")?.parse::<u64>()? + fields.get(12).context("stime")?.parse::<u64>()?;
    // USER_HZ is 100 on Linux
    Ok(ticks as f64 / 100.0)
}

struct Match {
    writers: [Mutex<OwnedWriteHalf>; 3],
}

async fn serve(addr: &str, actions: u64) -> anyhow::Result<()> {
    let listener = TcpListener::bind(addr).await?;
    let counted = Arc::new(AtomicU64::new(0));
    let warm_up = actions / 10;
    let (done_tx, mut done_rx) = tokio::sync::mpsc::channel::<(f64, f64)>(1);
    let accepting: tokio::task::JoinHandle<anyhow::Result<()>> = tokio::spawn({
        let counted = counted.clone();
        async move {
            let start_cpu = Arc::new(std::sync::Mutex::new(None::<f64>));
            loop {
                let mut halves = Vec::new();
                let mut readers = Vec::new();
                for _ in 0..3 {
                    let (s, _) = listener.accept().await?;
                    s.set_nodelay(true)?;
                    let (r, w) = s.into_split();
                    readers.push(r);
                    halves.push(Mutex::new(w));
                }
                let writers: [Mutex<OwnedWriteHalf>; 3] = match halves.try_into() {
                    Ok(w) => w,
                    Err(_) => bail!("three connections per match"),
                };
                let game = Arc::new(Match { writers });
                for (seat, mut reader) in readers.into_iter().enumerate() {
                    let game = game.clone();
                    let counted = counted.clone();
                    let start_cpu = start_cpu.clone();
                    let done = done_tx.clone();
                    tokio::spawn(async move {
                        let mut action = [0u8; ACTION];
                        let ack_and_update = vec![b'a'; ACK_AND_UPDATE];
                        let update = vec![b'u'; UPDATE];
                        while reader.read_exact(&mut action).await.is_ok() {
                            for (to, w) in game.writers.iter().enumerate() {
                                let bytes = if to == seat { &ack_and_update } else { &update };
                                if w.lock().await.write_all(bytes).await.is_err() {
                                    return;
                                }
                            }
                            let n = counted.fetch_add(1, Ordering::Relaxed) + 1;
                            if n == warm_up
                                && let (Ok(mut s), Ok(cpu)) = (start_cpu.lock(), cpu_seconds())
                            {
                                *s = Some(cpu);
                            }
                            if n == actions {
                                let start = start_cpu.lock().ok().and_then(|s| *s);
                                if let (Some(start), Ok(end)) = (start, cpu_seconds()) {
                                    let _ = done.try_send((start, end));
                                }
                            }
                        }
                    });
                }
            }
        }
    });
    let (start, end) = done_rx.recv().await.context("the run did not finish")?;
    accepting.abort();
    let measured = actions - warm_up;
    println!(
        "socket floor: {:.1} µs of server CPU per action ({:.2} s over {measured} actions after {warm_up} to warm up)",
        (end - start) * 1e6 / measured as f64,
        end - start
    );
    Ok(())
}

async fn drive(addr: &str, matches: usize, actions: u64, think_ms: (u64, u64)) -> anyhow::Result<()> {
    let left = Arc::new(AtomicU64::new(actions));
    let mut tasks = Vec::new();
    for m in 0..matches {
        let mut sockets = Vec::new();
        for _ in 0..3 {
            let s = TcpStream::connect(addr).await?;
            s.set_nodelay(true)?;
            sockets.push(s);
        }
        let left = left.clone();
        tasks.push(tokio::spawn(async move {
            let mut rng = rand::rngs::StdRng::seed_from_u64(m as u64);
            let mut buf = vec![0u8; ACK_AND_UPDATE];
            let mut turn = 0usize;
            while left
                .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| n.checked_sub(1))
                .is_ok()
            {
                tokio::time::sleep(Duration::from_millis(
                    rng.random_range(think_ms.0..=think_ms.1.max(think_ms.0)),
                ))
                .await;
                let actor = turn % 2;
                turn += 1;
                sockets[actor].write_all(&[b'x'; ACTION]).await?;
                for (i, s) in sockets.iter_mut().enumerate() {
                    let n = if i == actor { ACK_AND_UPDATE } else { UPDATE };
                    s.read_exact(&mut buf[..n]).await?;
                }
            }
            Ok::<(), anyhow::Error>(())
        }));
    }
    for t in tasks {
        t.await??;
    }
    Ok(())
}
