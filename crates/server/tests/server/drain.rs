//! SIGTERM drains: the server says at once that it is not ready (so that a front door takes it out
//! of rotation) and keeps serving — actions, new connections, new rooms — until `--drain-secs` is
//! over or a second SIGTERM comes; then it tells its clients to reconnect and exits cleanly.

use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail, ensure};
use evr_protocol::{ErrorCode, ServerMsg};
use evr_rules::Mode;

use crate::support::{self, Client};

/// A server process, killed when dropped.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

impl Server {
    async fn start(data_dir: &Path, drain_secs: u64) -> Result<(Server, SocketAddr)> {
        let port = std::net::TcpListener::bind("127.0.0.1:0")?.local_addr()?.port();
        let addr: SocketAddr = format!("127.0.0.1:{port}").parse()?;
        let child = Command::new(env!("CARGO_BIN_EXE_evr-server"))
            .args(["--bind", &addr.to_string(), "--drain-secs", &drain_secs.to_string()])
            .arg("--data-dir")
            .arg(data_dir)
            .env("RUST_LOG", "warn")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()?;
        let server = Server(child);
        for _ in 0..400 {
            if let Ok((200, _)) = support::http(addr, "GET", "/readyz", None).await {
                return Ok((server, addr));
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
        bail!("the server did not become ready")
    }

    fn sigterm(&self) -> Result<()> {
        let sent = Command::new("kill")
            .args(["-TERM", &self.0.id().to_string()])
            .status()?;
        ensure!(sent.success(), "kill -TERM");
        Ok(())
    }

    /// Waits (at most 20 s) for the process to exit; true if it exited successfully.
    async fn exited_cleanly(mut self) -> Result<bool> {
        let deadline = Instant::now() + Duration::from_secs(20);
        while Instant::now() < deadline {
            if let Some(status) = self.0.try_wait()? {
                return Ok(status.success());
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        bail!("the server did not exit within 20 s")
    }
}

/// The status `GET path` answers (0: no answer, the connection refused).
async fn status(addr: SocketAddr, path: &str) -> u16 {
    support::http(addr, "GET", path, None).await.map_or(0, |(s, _)| s)
}

#[tokio::test]
async fn sigterm_turns_unready_at_once_and_keeps_serving_until_the_drain_ends() -> Result<()> {
    // A drain far longer than the steps below take (each waits for what the server answers, not
    // for a time); the second SIGTERM ends it.
    let (server, addr) = Server::start(&support::temp_dir("drain"), 600).await?;
    let seats = support::create_and_join(addr, Mode::Full).await?;
    let (mut a, wa) = Client::hello(addr, &seats.code, Some(&seats.creator_token), None).await?;
    let (mut b, wb) = Client::hello(addr, &seats.code, Some(&seats.guest_token), None).await?;

    server.sigterm()?;
    let deadline = Instant::now() + Duration::from_secs(20);
    while status(addr, "/readyz").await != 503 {
        ensure!(Instant::now() < deadline, "/readyz still not 503 after SIGTERM");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(status(addr, "/healthz").await, 200, "alive while not ready");

    // the players still play: an action is applied, acknowledged and broadcast
    let (actor, other, view, seq) = if wa.view.legal_actions.is_empty() {
        (&mut b, &mut a, &wb.view, wb.seq)
    } else {
        (&mut a, &mut b, &wa.view, wa.seq)
    };
    actor
        .send(&support::action(seq, "during-the-drain", view.legal_actions[0]))
        .await?;
    assert_eq!(
        actor.recv_ack().await?,
        seq + 1,
        "an action during the drain is applied"
    );
    other.recv_update_to(seq + 1).await?;
    // a new connection is still accepted (the front door may send one before it notices), and a
    // new room still created
    let (mut watcher, w) = Client::hello(addr, &seats.code, None, None).await?;
    assert_eq!(w.seq, seq + 1);
    let created = support::create_room(addr, &support::options(Mode::Full)).await?;
    assert!(!created.code.is_empty());

    // the second SIGTERM ends the drain: everyone is told to reconnect, and the server exits
    server.sigterm()?;
    for (who, c) in [("creator", &mut a), ("guest", &mut b), ("spectator", &mut watcher)] {
        let told = c
            .recv_until("shutting_down", |m| match m {
                ServerMsg::Error {
                    code: ErrorCode::ShuttingDown,
                    ..
                } => Some(()),
                _ => None,
            })
            .await;
        told.with_context(|| format!("the {who} is told to reconnect"))?;
        assert!(c.is_closed().await, "the {who}'s connection is closed");
    }
    assert!(server.exited_cleanly().await?, "exit status 0");
    assert_eq!(status(addr, "/healthz").await, 0, "nothing listens any more");
    Ok(())
}

#[tokio::test]
async fn the_drain_ends_by_itself_after_drain_secs() -> Result<()> {
    let (server, addr) = Server::start(&support::temp_dir("drain-ends"), 1).await?;
    let seats = support::create_and_join(addr, Mode::Full).await?;
    let (mut a, _) = Client::hello(addr, &seats.code, Some(&seats.creator_token), None).await?;
    let signalled = Instant::now();
    server.sigterm()?;
    assert_eq!(a.recv_error().await?, ErrorCode::ShuttingDown);
    // a lower bound only: however fast the machine, not before the drain is over
    assert!(
        signalled.elapsed() >= Duration::from_secs(1),
        "told to reconnect {:?} after SIGTERM, before the 1 s drain ended",
        signalled.elapsed()
    );
    assert!(server.exited_cleanly().await?, "exit status 0");
    Ok(())
}
