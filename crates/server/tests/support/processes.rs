//! Real processes for the backup tests: `evr-server` (serving, `backup`, `restore`), `evr-loadgen`
//! and `evr`, the binaries built beside this test's `evr-server`. Each process is killed when its
//! handle is dropped, so a failing test leaves nothing running.

use std::collections::{BTreeMap, BTreeSet};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail, ensure};
use tokio::process::{Child, Command};

/// A binary of this workspace built beside the `evr-server` these tests run (`evr-loadgen`,
/// `evr`): scripts/test.sh builds them first (`cargo build --release -p evr-loadgen -p evr-cli`).
pub fn sibling_binary(name: &str) -> Result<PathBuf> {
    let server = PathBuf::from(env!("CARGO_BIN_EXE_evr-server"));
    let path = server.with_file_name(name);
    ensure!(
        path.is_file(),
        "{} not found: build it first (cargo build --release -p evr-loadgen -p evr-cli; scripts/test.sh does)",
        path.display()
    );
    Ok(path)
}

pub fn free_port() -> Result<u16> {
    Ok(std::net::TcpListener::bind("127.0.0.1:0")?.local_addr()?.port())
}

/// An `evr-server` serving on a free loopback port.
pub struct ServerProcess {
    pub addr: SocketAddr,
    child: Child,
}

impl ServerProcess {
    /// Starts `evr-server` with `store_args` (`--data-dir DIR` or `--store URL`), logging into
    /// `log`; returns once it is ready.
    pub async fn start(store_args: &[&std::ffi::OsStr], log: &Path) -> Result<ServerProcess> {
        let addr: SocketAddr = format!("127.0.0.1:{}", free_port()?).parse()?;
        let child = Command::new(env!("CARGO_BIN_EXE_evr-server"))
            .args(["--bind", &addr.to_string()])
            // scripted players act far faster than people
            .args(["--messages-per-second", "10000", "--rooms-per-minute", "1000000"])
            // all its clients are 127.0.0.1, and the backup tests check every game's replay
            .args([
                "--max-connections-per-client",
                "100000",
                "--replays-per-minute",
                "1000000",
            ])
            .args(store_args)
            .env("RUST_LOG", "warn")
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(log)?)
            .kill_on_drop(true)
            .spawn()?;
        let server = ServerProcess { addr, child };
        for _ in 0..400 {
            if let Ok((200, _)) = crate::support::http(addr, "GET", "/readyz", None).await {
                return Ok(server);
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
        bail!("the server on {addr} did not become ready (log: {})", log.display())
    }

    /// SIGKILL, as a crash: nothing is committed or closed on the way out.
    pub async fn kill9(mut self) -> Result<()> {
        self.child.start_kill()?;
        tokio::time::timeout(Duration::from_secs(30), self.child.wait())
            .await
            .context("the server did not die within 30 s of SIGKILL")??;
        Ok(())
    }

    /// SIGTERM, and waits for a clean exit (it commits what it holds).
    pub async fn stop(mut self) -> Result<()> {
        let pid = self.child.id().context("the server already exited")?;
        ensure!(
            std::process::Command::new("kill")
                .args(["-TERM", &pid.to_string()])
                .status()?
                .success(),
            "kill -TERM {pid}"
        );
        let status = tokio::time::timeout(Duration::from_secs(30), self.child.wait())
            .await
            .context("the server did not exit within 30 s of SIGTERM")??;
        ensure!(status.success(), "the server exited with {status}");
        Ok(())
    }
}

/// Runs `evr-server ARGS` (a command: `backup`, `restore`) to its end; its standard output.
pub async fn server_command(args: &[&std::ffi::OsStr]) -> Result<String> {
    let out = Command::new(env!("CARGO_BIN_EXE_evr-server"))
        .args(args)
        .env("RUST_BACKTRACE", "0")
        .env_remove("EVR_STORE")
        .output()
        .await?;
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    ensure!(
        out.status.success(),
        "evr-server {args:?}: {}\n{stdout}{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    Ok(stdout)
}

/// A run of `evr-loadgen` against a server, writing its rooms to `rooms_file`.
pub struct Loadgen {
    child: Child,
    pub rooms_file: PathBuf,
}

impl Loadgen {
    /// Starts `matches` matches against `addr`, rooms created to reveal their games at the end,
    /// with `extra` flags (think times, `--actions-per-match`).
    pub fn start(addr: SocketAddr, matches: usize, rooms_file: &Path, seed: u64, extra: &[&str]) -> Result<Loadgen> {
        let child = Command::new(sibling_binary("evr-loadgen")?)
            .args(["--addr", &addr.to_string(), "--matches", &matches.to_string()])
            .args(["--seed", &seed.to_string(), "--deadline-secs", "300", "--reveal-at-end"])
            .arg("--rooms-file")
            .arg(rooms_file)
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .kill_on_drop(true)
            .spawn()?;
        Ok(Loadgen {
            child,
            rooms_file: rooms_file.to_path_buf(),
        })
    }

    /// Waits until the load generator has seen at least `n` games end (the rooms file says so; a
    /// game it saw end is committed), failing if it exits first; the rooms whose game it saw end.
    pub async fn wait_over(&mut self, n: usize) -> Result<BTreeSet<String>> {
        let deadline = Instant::now() + Duration::from_secs(300);
        loop {
            let over = read_rooms_file(&self.rooms_file)?.over;
            if over.len() >= n {
                return Ok(over);
            }
            if let Some(status) = self.child.try_wait()? {
                bail!(
                    "the load generator exited ({status}) after {} games, before {n}",
                    over.len()
                );
            }
            ensure!(
                Instant::now() < deadline,
                "{} games over after 300 s, waiting for {n}",
                over.len()
            );
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }

    /// What a backup test copies while it is played: `parked` games played 30 actions in and left
    /// there (their rooms in `work/parked.jsonl`), then `games` matches started (rooms in
    /// `work/games.jsonl`), returned still running.
    pub async fn parked_then_games(addr: SocketAddr, work: &Path, parked: usize, games: usize) -> Result<Loadgen> {
        let parked_args = [
            "--actions-per-match",
            "30",
            "--think-min-ms",
            "1",
            "--think-max-ms",
            "5",
        ];
        Loadgen::start(addr, parked, &work.join("parked.jsonl"), 7, &parked_args)?
            .finish()
            .await
            .context("the parked games")?;
        let games_args = ["--think-min-ms", "1", "--think-max-ms", "15"];
        Loadgen::start(addr, games, &work.join("games.jsonl"), 1, &games_args)
    }

    /// Waits for the end of the run, which must have had no error; its last line (the figures).
    pub async fn finish(self) -> Result<String> {
        let out = tokio::time::timeout(Duration::from_secs(330), self.child.wait_with_output())
            .await
            .context("the load generator did not stop by its deadline")??;
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        ensure!(
            out.status.success(),
            "the load generator failed ({}):\n{text}",
            out.status
        );
        Ok(text.lines().last().unwrap_or_default().to_string())
    }
}

/// A room the load generator played: its seats' tokens.
#[derive(Clone, Debug)]
pub struct PlayedRoom {
    pub creator_token: String,
    pub guest_token: String,
}

/// What a rooms file says: every seated room by code, and the rooms whose game was seen to end.
#[derive(Debug, Default)]
pub struct RoomsFile {
    pub rooms: BTreeMap<String, PlayedRoom>,
    pub over: BTreeSet<String>,
}

#[derive(serde::Deserialize)]
struct Line {
    code: String,
    creator_token: Option<String>,
    guest_token: Option<String>,
    #[serde(default)]
    over: bool,
}

/// Reads the complete lines of rooms file `path` (a missing file: nothing yet).
pub fn read_rooms_file(path: &Path) -> Result<RoomsFile> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(RoomsFile::default()),
        Err(e) => return Err(e.into()),
    };
    let mut out = RoomsFile::default();
    // (a line still being written has no newline yet: only complete lines count)
    let complete = text.rfind('\n').map_or("", |end| &text[..end]);
    for line in complete.lines() {
        let l: Line = serde_json::from_str(line).with_context(|| format!("rooms file line {line:?}"))?;
        if let (Some(creator_token), Some(guest_token)) = (l.creator_token, l.guest_token) {
            out.rooms.insert(
                l.code.clone(),
                PlayedRoom {
                    creator_token,
                    guest_token,
                },
            );
        }
        if l.over {
            out.over.insert(l.code);
        }
    }
    Ok(out)
}

/// `evr verify FILE` on a replay file: whether it accepted it, and what it said.
pub async fn evr_verify(file: &Path) -> Result<(bool, String)> {
    let out = Command::new(sibling_binary("evr")?)
        .arg("verify")
        .arg(file)
        .output()
        .await?;
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    Ok((out.status.success(), said))
}
