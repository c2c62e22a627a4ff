//! Nothing acknowledged is lost: a real server process is killed with SIGKILL in the middle of
//! games; after a restart on the same data directory every acknowledged action is there, the
//! games resume exactly where they were and reconnecting players finish them. SIGTERM under load
//! drains: the server exits cleanly and nothing it acknowledged is missing after a restart.

use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use anyhow::{Context, Result, bail};
use evr_protocol::{ErrorCode, ReplayEyes};
use evr_rules::{Mode, View};
use rand::{RngExt, SeedableRng};

use crate::support::{self, Client, Seats, Welcome};

fn free_port() -> Result<u16> {
    Ok(std::net::TcpListener::bind("127.0.0.1:0")?.local_addr()?.port())
}

/// A server process, killed when dropped: a test that fails half-way leaves no server behind.
struct Server(Child);

impl Server {
    fn id(&self) -> u32 {
        self.0.id()
    }

    fn kill(&mut self) -> std::io::Result<()> {
        self.0.kill()
    }

    fn wait(&mut self) -> std::io::Result<std::process::ExitStatus> {
        self.0.wait()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

async fn spawn_server(port: u16, data_dir: &Path) -> Result<Server> {
    let child = Command::new(env!("CARGO_BIN_EXE_evr-server"))
        .args(["--bind", &format!("127.0.0.1:{port}")])
        // Scripted players act far faster than people: lift the per-connection rate limit.
        .args(["--messages-per-second", "10000"])
        .args(["--rooms-per-minute", "1000", "--replays-per-minute", "1000000"])
        .arg("--data-dir")
        .arg(data_dir)
        .env("RUST_LOG", "warn")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()?;
    let addr: SocketAddr = format!("127.0.0.1:{port}").parse()?;
    for _ in 0..200 {
        if let Ok((200, _)) = support::http(addr, "GET", "/healthz", None).await {
            return Ok(Server(child));
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    bail!("the server did not start")
}

async fn seat_clients(
    addr: SocketAddr,
    seats: &Seats,
    last: Option<u32>,
) -> Result<(Client, Welcome, Client, Welcome)> {
    let (a, wa) = Client::hello(addr, &seats.code, Some(&seats.creator_token), last).await?;
    let (b, wb) = Client::hello(addr, &seats.code, Some(&seats.guest_token), last).await?;
    Ok((a, wa, b, wb))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_server_resumes_every_game_where_it_was() -> Result<()> {
    let data_dir = support::temp_dir("kill9");
    let port = free_port()?;
    let addr: SocketAddr = format!("127.0.0.1:{port}").parse()?;
    let mut server = spawn_server(port, &data_dir).await?;

    let mut rooms = Vec::new();
    for g in 0..4u64 {
        let seats = support::create_and_join(addr, Mode::Full).await?;
        let (mut a, wa, mut b, wb) = seat_clients(addr, &seats, None).await?;
        let (acked, views) = support::play_random(&mut a, &mut b, &wa, &wb, 25 + 10 * g as usize, g).await?;
        rooms.push((seats, acked, views));
    }
    // In flight at the moment of the kill: an action sent without waiting.
    let (inflight_seats, _, _) = &rooms[0];
    let (mut a, wa, mut b, wb) = seat_clients(addr, inflight_seats, None).await?;
    let (mover, legal) = if wa.view.legal_actions.is_empty() {
        (&mut b, wb.view.legal_actions.first())
    } else {
        (&mut a, wa.view.legal_actions.first())
    };
    if let Some(action) = legal {
        mover.send(&support::action(wa.seq, "inflight", *action)).await?;
    }
    server.kill()?;
    server.wait()?;

    let mut server = spawn_server(port, &data_dir).await?;
    for (g, (seats, acked, views)) in rooms.iter().enumerate() {
        let (mut a, wa, mut b, wb) = seat_clients(addr, seats, Some(*acked)).await?;
        let seq = wa.seq;
        if g == 0 {
            // The in-flight action may or may not have been committed before the kill.
            assert!(
                seq == *acked || seq == *acked + 1,
                "seq {seq} after restart, {acked} acknowledged"
            );
        } else {
            assert_eq!(
                seq, *acked,
                "room {g}: every acknowledged action survived, nothing else appeared"
            );
            // (updates leave out the round's log, which the welcome carries)
            assert_eq!(
                support::without_log(&wa.view),
                views[0],
                "room {g}: the creator's view is exactly as before the crash"
            );
            assert_eq!(
                support::without_log(&wb.view),
                views[1],
                "room {g}: the guest's view is exactly as before the crash"
            );
        }
        // And the game goes on to its end.
        let (_, end) = support::play_random(&mut a, &mut b, &wa, &wb, 5000, 100 + g as u64).await?;
        assert!(
            end[0].outcome.is_some(),
            "room {g}: the game finished after the restart"
        );
        // Its replay, built from the stored actions, runs through the crash as if there were none:
        // each seat's step at the last acknowledged seq is the view it had before the kill, and
        // its last step the view it ended with.
        for (token, k) in [(&seats.creator_token, 0), (&seats.guest_token, 1)] {
            let replay = support::replay_steps(addr, &seats.code, ReplayEyes::Seat, Some(token)).await?;
            let cleared = |v: &View| View {
                log: Vec::new(),
                legal_actions: Vec::new(),
                ..v.clone()
            };
            let at_kill = replay
                .steps
                .iter()
                .find(|s| s.seq == seq)
                .context("the step at the kill")?;
            if g > 0 {
                assert_eq!(at_kill.view, cleared(&views[k]), "room {g}: the replay at the kill");
            }
            let last = replay.steps.last().context("steps")?;
            assert_eq!(last.view, cleared(&end[k]), "room {g}: the replay's last step");
            let seqs: Vec<u32> = replay.steps.iter().map(|s| s.seq).collect();
            assert!(
                seqs.windows(2).all(|w| w[1] == w[0] + 1),
                "room {g}: one step per stored action"
            );
        }
    }
    server.kill()?;
    server.wait()?;
    Ok(())
}

#[tokio::test]
async fn sigterm_tells_clients_and_exits_cleanly() -> Result<()> {
    let data_dir = support::temp_dir("sigterm");
    let port = free_port()?;
    let addr: SocketAddr = format!("127.0.0.1:{port}").parse()?;
    let mut server = spawn_server(port, &data_dir).await?;
    let seats = support::create_and_join(addr, Mode::Full).await?;
    let (mut a, _) = Client::hello(addr, &seats.code, Some(&seats.creator_token), None).await?;
    let status = Command::new("kill")
        .args(["-TERM", &server.id().to_string()])
        .status()?;
    assert!(status.success());
    assert_eq!(a.recv_error().await?, ErrorCode::ShuttingDown);
    assert!(a.is_closed().await);
    let exit = tokio::task::spawn_blocking(move || server.wait()).await??;
    assert!(exit.success(), "exit status {exit}");
    // The room is still there after a restart.
    let mut server = spawn_server(port, &data_dir).await?;
    let (_a, w) = Client::hello(addr, &seats.code, Some(&seats.creator_token), None).await?;
    assert_eq!(w.room.code, seats.code);
    server.kill()?;
    server.wait()?;
    Ok(())
}

/// Plays seeded random actions, one at a time, until the game ends or the connection fails.
/// Returns the highest seq acknowledged to this pair of players; counts each action in `played`.
async fn play_until_cut(
    mut a: Client,
    mut b: Client,
    wa: Welcome,
    wb: Welcome,
    seed: u64,
    played: Arc<AtomicU32>,
) -> u32 {
    let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
    let mut views = [wa.view, wb.view];
    let mut acked = wa.seq.max(wb.seq);
    for step in 0.. {
        let Some(i) = (0..2).find(|i| !views[*i].legal_actions.is_empty()) else {
            return acked; // the game is over
        };
        let legal = &views[i].legal_actions;
        let chosen = legal[rng.random_range(0..legal.len())];
        let c = if i == 0 { &mut a } else { &mut b };
        if c.send(&support::action(acked, format!("t{seed}-{step}"), chosen))
            .await
            .is_err()
        {
            return acked;
        }
        match c.recv_ack().await {
            Ok(seq) => acked = seq,
            Err(_) => return acked,
        }
        played.fetch_add(1, Ordering::Relaxed);
        for (k, client) in [&mut a, &mut b].into_iter().enumerate() {
            let update = client.recv_update_to(acked).await;
            match update {
                Ok(v) => views[k] = v,
                Err(_) => return acked,
            }
        }
    }
    acked
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_under_load_drains_and_loses_nothing_acknowledged() -> Result<()> {
    let data_dir = support::temp_dir("sigterm-load");
    let port = free_port()?;
    let addr: SocketAddr = format!("127.0.0.1:{port}").parse()?;
    let mut server = spawn_server(port, &data_dir).await?;

    // Twelve games played as fast as the players can, all at once; each counts its actions.
    let mut games = Vec::new();
    let mut counts = Vec::new();
    for g in 0..12u64 {
        let seats = support::create_and_join(addr, Mode::Full).await?;
        let (a, wa, b, wb) = seat_clients(addr, &seats, None).await?;
        let start = wa.seq;
        let played = Arc::new(AtomicU32::new(0));
        let task = tokio::spawn(play_until_cut(a, b, wa, wb, g, played.clone()));
        counts.push(played);
        games.push((seats, start, task));
    }
    // SIGTERM in the middle of it, once every game has had its first actions acknowledged (tied
    // to the games' progress, not to the time: on a busy machine a game may start late). A game
    // is ~140 actions: 20 each leaves every one of them under way.
    // (A game whose task ended early fails below, not here.)
    while counts
        .iter()
        .zip(&games)
        .any(|(c, (_, _, task))| c.load(Ordering::Relaxed) < 20 && !task.is_finished())
    {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let status = Command::new("kill")
        .args(["-TERM", &server.id().to_string()])
        .status()?;
    assert!(status.success());
    let exit = tokio::time::timeout(
        Duration::from_secs(20),
        tokio::task::spawn_blocking(move || server.wait()),
    )
    .await
    .context("the server did not exit within 20 s of SIGTERM")???;
    assert!(exit.success(), "exit status {exit}");

    let mut server = spawn_server(port, &data_dir).await?;
    for (g, (seats, start, task)) in games.into_iter().enumerate() {
        let acked = task.await?;
        assert!(acked > start, "game {g} was being played when the server stopped");
        let (mut a, wa, mut b, wb) = seat_clients(addr, &seats, Some(acked)).await?;
        // One action at a time per game: at most the one in flight was committed unacknowledged.
        assert!(
            wa.seq == acked || wa.seq == acked + 1,
            "game {g}: seq {} after the restart, {acked} acknowledged",
            wa.seq
        );
        let (_, end) = support::play_random(&mut a, &mut b, &wa, &wb, 5000, 200 + g as u64).await?;
        assert!(end[0].outcome.is_some(), "game {g} finished after the restart");
    }
    server.kill()?;
    server.wait()?;
    Ok(())
}
