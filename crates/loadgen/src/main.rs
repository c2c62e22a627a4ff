//! `evr-loadgen`: concurrent scripted matches against a real server on loopback.

mod idle;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use clap::Parser;

use evr_bot_client::http;
use evr_rules::Mode;

use evr_loadgen::report::{Figures, RssSamples, ServerUse, Summary};
use evr_loadgen::{Args, drive};

struct SpawnedServer {
    child: Child,
    addr: SocketAddr,
    data_dir: PathBuf,
}

impl SpawnedServer {
    /// Stops the server with SIGTERM (it commits what it holds) and returns its data directory,
    /// kept for the next server.
    fn stop_gracefully(mut self) -> Result<PathBuf> {
        let pid = self.child.id().to_string();
        let sent = Command::new("kill").args(["-TERM", &pid]).status()?.success();
        if !sent {
            bail!("cannot send SIGTERM to the server");
        }
        self.child.wait()?;
        Ok(std::mem::take(&mut self.data_dir))
    }
}

impl Drop for SpawnedServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        if !self.data_dir.as_os_str().is_empty() {
            let _ = std::fs::remove_dir_all(&self.data_dir);
        }
    }
}

/// Starts `evr-server` on a free loopback port, on `data_dir` (a new temporary one if `None`),
/// with `extra` arguments.
async fn spawn_server(data_dir: Option<PathBuf>, extra: &[&str]) -> Result<SpawnedServer> {
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
    let data_dir =
        data_dir.unwrap_or_else(|| std::env::temp_dir().join(format!("evr-loadgen-{}-{port}", std::process::id())));
    let child = Command::new(&bin)
        .args([
            "--bind",
            &addr.to_string(),
            "--rooms-per-minute",
            "1000000",
            "--messages-per-second",
            "1000",
            // every player of the load comes from 127.0.0.1
            "--max-connections-per-client",
            "1000000",
        ])
        .args(extra)
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

/// The server's rooms in memory and connections, from its `/metrics`.
async fn rooms_line(addr: SocketAddr) -> String {
    let Ok((_, metrics)) = http::get(addr, "/metrics").await else {
        return "metrics unavailable".into();
    };
    let value = |name: &str| -> f64 {
        metrics
            .lines()
            .filter_map(|l| l.strip_prefix(name))
            .filter_map(|rest| rest.rsplit(' ').next()?.parse::<f64>().ok())
            .sum::<f64>()
            + 0.0 // (an empty sum is -0)
    };
    format!(
        "{} rooms in memory ({} asleep), {} released so far, {} connections",
        value("evr_rooms "),
        // (with the defaults every release is of a sleeping room)
        value("evr_rooms_hibernated_total ") - value("evr_rooms_woken_total ") - value("evr_rooms_released_total "),
        value("evr_rooms_released_total "),
        value("evr_connections{")
    )
}

/// Pins process `pid` (every thread) to CPU `core`.
fn pin(pid: u32, core: usize) -> Result<()> {
    let ok = Command::new("taskset")
        .args(["-a", "-cp", &core.to_string(), &pid.to_string()])
        .stdout(Stdio::null())
        .status()
        .context("running taskset")?
        .success();
    if !ok {
        bail!("taskset could not pin process {pid} to core {core}");
    }
    Ok(())
}

/// Runs `processes` driver processes over the matches and merges their figures.
async fn drive_in_processes(args: &Args, addr: SocketAddr) -> Result<Figures> {
    let exe = std::env::current_exe()?;
    let mut children = Vec::new();
    for i in 0..args.processes {
        let share = args.matches / args.processes + usize::from(i < args.matches % args.processes);
        let mut cmd = tokio::process::Command::new(&exe);
        cmd.args(["--child", "--addr", &addr.to_string()])
            .args(["--matches", &share.to_string()])
            .args(["--seed", &(args.seed.wrapping_add(i as u64 * 1_000_003)).to_string()])
            .args(["--think-min-ms", &args.think_min_ms.to_string()])
            .args(["--think-max-ms", &args.think_max_ms.to_string()])
            .args(["--deadline-secs", &args.deadline_secs.to_string()])
            .args(["--source", &format!("127.0.0.{}", 2 + i)])
            .args([
                "--mode",
                if args.mode == Mode::Tutorial {
                    "tutorial"
                } else {
                    "full"
                },
            ])
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        if let Some(d) = args.duration_secs {
            cmd.args(["--duration-secs", &d.to_string()]);
        }
        if let Some(r) = args.ramp_secs {
            cmd.args(["--ramp-secs", &r.to_string()]);
        }
        if let Some(n) = args.actions_per_match {
            cmd.args(["--actions-per-match", &n.to_string()]);
        }
        if let Some(c) = args.pin_driver {
            cmd.args(["--pin-driver", &c.to_string()]);
        }
        if args.reconnect {
            cmd.arg("--reconnect");
        }
        if args.record_acks {
            cmd.arg("--record-acks");
        }
        if args.reveal_at_end {
            cmd.arg("--reveal-at-end");
        }
        if let Some(f) = &args.rooms_file {
            cmd.arg("--rooms-file").arg(f);
        }
        children.push(cmd.spawn().context("starting a driver process")?);
    }
    let mut merged = Figures::default();
    for child in children {
        let out = child.wait_with_output().await?;
        let text = String::from_utf8_lossy(&out.stdout);
        let line = text.lines().last().context("a driver process printed nothing")?;
        merged.merge(serde_json::from_str(line).with_context(|| format!("a driver's figures: {line}"))?);
    }
    Ok(merged)
}

#[tokio::main]
async fn main() -> Result<()> {
    let args = Args::parse();
    if args.think_min_ms > args.think_max_ms {
        bail!("--think-min-ms must not exceed --think-max-ms");
    }
    if args.processes == 0 || args.processes > 200 {
        bail!("--processes must be between 1 and 200 (each takes its own address 127.0.0.2, …)");
    }
    if let Some(core) = args.pin_driver {
        pin(std::process::id(), core)?;
    }
    if let Some(rooms) = args.idle_rooms {
        return idle::measure(&args, rooms).await;
    }
    if args.child {
        let addr = args.addr.context("a driver process needs --addr")?;
        println!("{}", serde_json::to_string(&drive(&args, addr).await)?);
        return Ok(());
    }
    let spawned = match args.addr {
        Some(_) => None,
        None => Some(spawn_server(None, &[]).await?),
    };
    let addr = args
        .addr
        .or(spawned.as_ref().map(|s| s.addr))
        .context("no server address")?;
    let server_pid = spawned.as_ref().map(|s| s.child.id()).or(args.server_pid);
    if let (Some(pid), Some(core)) = (server_pid, args.pin_server) {
        pin(pid, core)?;
    }

    let rss_baseline = server_pid.and_then(rss_kib);
    let cpu_before = server_pid.and_then(cpu_seconds);
    let rss_samples = Arc::new(std::sync::Mutex::new(RssSamples::default()));
    let sampler = server_pid.map(|pid| {
        let samples = rss_samples.clone();
        let started = Instant::now();
        tokio::spawn(async move {
            let mut next_report = Duration::from_secs(60);
            loop {
                if let Some(kib) = rss_kib(pid)
                    && let Ok(mut s) = samples.lock()
                {
                    s.add(started.elapsed(), kib);
                }
                if started.elapsed() >= next_report {
                    eprintln!(
                        "[{:>4} s] server RSS {:.1} MiB, CPU {:.1} s, {}",
                        next_report.as_secs(),
                        rss_kib(pid).unwrap_or(0) as f64 / 1024.0,
                        cpu_seconds(pid).unwrap_or(0.0),
                        rooms_line(addr).await
                    );
                    next_report += Duration::from_secs(60);
                }
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
        })
    });
    let started = Instant::now();
    let figures = if args.processes > 1 {
        drive_in_processes(&args, addr).await?
    } else {
        drive(&args, addr).await
    };
    let elapsed = started.elapsed();
    if let Some(s) = sampler {
        s.abort();
    }
    let samples = rss_samples.lock().map(|s| s.clone()).unwrap_or_default();
    // A run's memory is judged after its warm-up: the ramp, and (in a long run) matches finishing,
    // being replaced and their rooms released; the second half of a fixed-duration run.
    let warm_up = args.duration_secs.map(|d| Duration::from_secs(d / 2));
    let server = ServerUse {
        cpu_seconds: server_pid
            .and_then(cpu_seconds)
            .zip(cpu_before)
            .map(|(after, before)| after - before),
        rss_baseline_kib: rss_baseline,
        rss_peak_kib: samples.peak(),
        rss_growth: warm_up.and_then(|w| samples.growth_after(w)),
    };
    let summary = Summary::new(
        args.matches,
        [args.think_min_ms, args.think_max_ms],
        elapsed,
        &figures,
        server,
    );
    print!("{}", summary.text(figures.first_failure.as_deref()));
    println!("{}", serde_json::to_string(&summary)?);
    drop(spawned);
    if figures.error_count() > 0 {
        std::process::exit(1);
    }
    Ok(())
}
