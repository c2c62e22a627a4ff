//! `evr-loadgen`: concurrent scripted matches against a real server on loopback.

mod matchplay;
mod report;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use clap::Parser;

use evr_bot_client::http;
use evr_rules::Mode;

use crate::report::Stats;

/// Plays concurrent matches against the EvR match server and reports latency and throughput.
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
    /// Use a server already listening here instead of starting one.
    #[arg(long)]
    pub addr: Option<SocketAddr>,
    /// Game mode of every room: full or tutorial.
    #[arg(long, default_value = "full", value_parser = parse_mode)]
    pub mode: Mode,
    /// Seed for the players' random choices.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// A game mode by its wire name (`full`, `tutorial`).
fn parse_mode(name: &str) -> Result<Mode, String> {
    serde_json::from_value(serde_json::Value::String(name.to_string())).map_err(|e| e.to_string())
}

struct SpawnedServer {
    child: Child,
    addr: SocketAddr,
    data_dir: PathBuf,
}

impl Drop for SpawnedServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.data_dir);
    }
}

async fn spawn_server() -> Result<SpawnedServer> {
    let exe = std::env::current_exe()?;
    let bin = exe.with_file_name("evr-server");
    if !bin.exists() {
        bail!(
            "{} not found: build it first (cargo build --release -p evr-server)",
            bin.display()
        );
    }
    let port = std::net::TcpListener::bind("127.0.0.1:0")?.local_addr()?.port();
    let addr: SocketAddr = format!("127.0.0.1:{port}").parse()?;
    let data_dir = std::env::temp_dir().join(format!("evr-loadgen-{}-{port}", std::process::id()));
    let child = Command::new(&bin)
        .args([
            "--bind",
            &addr.to_string(),
            "--rooms-per-minute",
            "1000000",
            "--messages-per-second",
            "1000",
        ])
        .arg("--data-dir")
        .arg(&data_dir)
        .env("RUST_LOG", "warn")
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .with_context(|| format!("starting {}", bin.display()))?;
    let server = SpawnedServer { child, addr, data_dir };
    for _ in 0..400 {
        if http::get(addr, "/healthz").await.is_ok_and(|(s, _)| s == 200) {
            return Ok(server);
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    bail!("the server did not become healthy")
}

/// CPU seconds (user + system) a process has used (Linux, 100 ticks per second).
fn cpu_seconds(pid: u32) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let after = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = after.split_whitespace().collect();
    let utime: f64 = fields.get(11)?.parse().ok()?;
    let stime: f64 = fields.get(12)?.parse().ok()?;
    Some((utime + stime) / 100.0)
}

/// Resident memory of a process in KiB (Linux).
fn rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[tokio::main]
async fn main() -> Result<()> {
    let args = Args::parse();
    if args.think_min_ms > args.think_max_ms {
        bail!("--think-min-ms must not exceed --think-max-ms");
    }
    let spawned = match args.addr {
        Some(_) => None,
        None => Some(spawn_server().await?),
    };
    let addr = args
        .addr
        .or(spawned.as_ref().map(|s| s.addr))
        .context("no server address")?;
    let server_pid = spawned.as_ref().map(|s| s.child.id());

    let stats = Arc::new(Stats::default());
    let started = Instant::now();
    let deadline = Duration::from_secs(args.deadline_secs);
    // Connections are opened in waves so that the listen backlog never overflows.
    let setup = Arc::new(tokio::sync::Semaphore::new(64));
    let peak_rss = Arc::new(std::sync::atomic::AtomicU64::new(0));
    let sampler = server_pid.map(|pid| {
        let peak = peak_rss.clone();
        tokio::spawn(async move {
            loop {
                if let Some(kib) = rss_kib(pid) {
                    peak.fetch_max(kib, std::sync::atomic::Ordering::Relaxed);
                }
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
        })
    });
    let mut tasks = Vec::with_capacity(args.matches);
    for i in 0..args.matches {
        let (stats, setup, args) = (stats.clone(), setup.clone(), args.clone());
        tasks.push(tokio::spawn(async move {
            let result = tokio::time::timeout(deadline, matchplay::play(addr, &args, i as u64, &stats, &setup)).await;
            match result {
                Ok(Ok(())) => stats.finished(),
                Ok(Err(e)) => stats.failed(&format!("{e:#}")),
                Err(_) => stats.failed("deadline reached"),
            }
        }));
    }
    for t in tasks {
        let _ = t.await;
    }
    let elapsed = started.elapsed();
    if let Some(s) = sampler {
        s.abort();
    }
    let rss_end = server_pid.and_then(rss_kib);
    let server_cpu = server_pid.and_then(cpu_seconds);
    let peak = peak_rss.load(std::sync::atomic::Ordering::Relaxed);
    let report = stats.report(&args, elapsed, rss_end, (peak > 0).then_some(peak));
    println!("{report}");
    if let Some(cpu) = server_cpu {
        println!(
            "server CPU: {cpu:.1} s ({:.0}% of one core)",
            100.0 * cpu / elapsed.as_secs_f64().max(1e-9)
        );
    }
    drop(spawned);
    if stats.error_count() > 0 {
        std::process::exit(1);
    }
    Ok(())
}
