//! Correspondence rooms across restarts, with nobody connected: reminders are recorded in the
//! store before they reach the notifier (an in-process recorder here; the real SMTP check is
//! the mail tests'), each at most once across restarts, never "your turn" to a player who is
//! connected; a deadline that passes while the server is down is enforced when it comes back,
//! with nobody connected — the loss on time stored, then seen by a player who connects later.

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::{Context, Result, bail, ensure};
use evr_protocol::{
    ClientMsg, ClockView, Correspondence, ErrorCode, ForfeitReason, RoomOptions, ServerMsg, SideChoice, TimeControl,
};
use evr_rules::{ByFaction, Faction, Mode};
use evr_server::notify::{Notifier, Reminder, ReminderKind};
use tokio_util::sync::CancellationToken;

use crate::support::{self, Client, TestServer};

/// Seconds in a test's "day": a decision is due within 10 s, "your turn" after 14 ms, "time is
/// running out" after 8 s.
const DAY_SECS: u64 = 10;

/// The reminders a server handed over, in order.
#[derive(Default)]
struct Recorder(Mutex<Vec<Reminder>>);

impl Notifier for Recorder {
    fn enabled(&self) -> bool {
        true
    }
    fn send(&self, reminder: Reminder) {
        if let Ok(mut sent) = self.0.lock() {
            sent.push(reminder);
        }
    }
}

impl Recorder {
    fn sent(&self) -> Vec<(Faction, ReminderKind, u64)> {
        self.0
            .lock()
            .map(|s| s.iter().map(|r| (r.side, r.kind, r.decision_seq)).collect())
            .unwrap_or_default()
    }
}

async fn start(data_dir: &Path, notifier: Arc<Recorder>) -> Result<TestServer> {
    let mut config = evr_server::Config::for_tests(data_dir.to_path_buf());
    config.day_secs = DAY_SECS;
    config.deadline_sweep_ms = 100;
    // an absent opponent could be claimed against at once in a live room, never here
    config.disconnect_grace_secs = 0;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    let shutdown = CancellationToken::new();
    let task = tokio::spawn(evr_server::run_with(listener, config, Some(notifier), shutdown.clone()));
    Ok(TestServer {
        addr,
        data_dir: data_dir.to_path_buf(),
        shutdown,
        task,
    })
}

/// Waits (up to a generous minute: the server's progress, not a guess of its speed) until `done`.
async fn until<T>(what: &str, mut done: impl FnMut() -> Result<Option<T>>) -> Result<T> {
    let give_up = tokio::time::Instant::now() + Duration::from_secs(60);
    loop {
        if let Some(t) = done()? {
            return Ok(t);
        }
        if tokio::time::Instant::now() > give_up {
            bail!("gave up waiting: {what}");
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// A recorded reminder as stored: side, decision, kind.
type Recorded = (String, i64, String);

/// The game's stored result (JSON) and the reminders recorded for the room, read from the file.
fn stored(data_dir: &Path, code: &str) -> Result<(Option<String>, Vec<Recorded>)> {
    let db = rusqlite::Connection::open(data_dir.join("evr.sqlite3"))?;
    let result = db.query_row(
        "SELECT result FROM games WHERE room_code = ?1 AND game_no = 1",
        [code],
        |r| r.get::<_, Option<String>>(0),
    )?;
    let mut stmt =
        db.prepare("SELECT side, decision_seq, kind FROM reminders WHERE room_code = ?1 ORDER BY 1, 2, 3")?;
    let reminders = stmt
        .query_map([code], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
        .collect::<Result<Vec<_>, _>>()?;
    Ok((result, reminders))
}

fn faction_text(f: Faction) -> &'static str {
    match f {
        Faction::Rebel => "rebel",
        Faction::Imperial => "imperial",
    }
}

fn kind_text(k: ReminderKind) -> &'static str {
    match k {
        ReminderKind::YourTurn => "your_turn",
        ReminderKind::TimeRunningOut => "time_running_out",
    }
}

fn welcome_clock(c: &Client) -> Result<ClockView> {
    c.frames
        .iter()
        .rev()
        .find_map(|f| match f {
            ServerMsg::Welcome { clock, .. } => *clock,
            _ => None,
        })
        .context("a welcome with the clock")
}

async fn recv_clock(c: &mut Client) -> Result<ClockView> {
    c.recv_until("clock", |m| match m {
        ServerMsg::Clock { clock } | ServerMsg::Update { clock: Some(clock), .. } => Some(clock),
        _ => None,
    })
    .await
}

#[tokio::test]
async fn deadlines_and_reminders_hold_across_restarts_with_nobody_connected() -> Result<()> {
    let dir = support::temp_dir("correspondence-restarts");
    let first = Arc::new(Recorder::default());
    let server = start(&dir, first.clone()).await?;
    let addr = server.addr;
    let options = RoomOptions {
        side: SideChoice::Rebel,
        clock: Some(TimeControl::Correspondence(Correspondence { days_per_decision: 1 })),
        ..support::options(Mode::Full)
    };
    let created = support::create_room(addr, &options).await?;
    let code = created.code.clone();
    // the creator (Rebel) is connected; the guest (Imperial) joins and leaves at once
    let (mut rebel, welcome) = Client::hello(addr, &code, Some(&created.token), None).await?;
    support::join_room(addr, &code, Some(&support::invite_secret(&created)?))
        .await?
        .map_err(|e| anyhow::anyhow!("join: {e:?}"))?;
    let started = recv_clock(&mut rebel).await?;
    ensure!(started.days_per_decision == Some(1), "{started:?}");
    let (Some(rebel_deadline), Some(imperial_deadline)) =
        (started.deadline_unix_ms.rebel, started.deadline_unix_ms.imperial)
    else {
        bail!("the character choice is simultaneous: both owe a decision: {started:?}");
    };
    ensure!(started.running == ByFaction::splat(true));
    ensure!(
        imperial_deadline - rebel_deadline == 0 && started.remaining_ms.imperial <= DAY_SECS * 1000,
        "both due a day after the game started: {started:?}"
    );

    // "your turn" reaches the Imperial, who is not connected, and not the connected Rebel
    until("the Imperial's 'your turn'", || {
        Ok(first
            .sent()
            .contains(&(Faction::Imperial, ReminderKind::YourTurn, 0))
            .then_some(()))
    })
    .await?;
    // the Rebel chooses: only the Imperial owes a decision now, with the deadline it had
    let choose = *welcome.view.legal_actions.first().context("a character choice")?;
    rebel.send(&support::action(welcome.seq, "c1", choose)).await?;
    let after = recv_clock(&mut rebel).await?;
    ensure!(
        after.deadline_unix_ms == ByFaction::new(None, Some(imperial_deadline)),
        "the waiting side keeps its deadline: {after:?}"
    );
    ensure!(
        !first.sent().iter().any(|(side, _, _)| *side == Faction::Rebel),
        "no reminder to the connected Rebel: {:?}",
        first.sent()
    );
    drop(rebel);
    server.stop().await?;

    // a restarted server: nobody connects; "time is running out" at a fifth left, once
    let second = Arc::new(Recorder::default());
    let server = start(&dir, second.clone()).await?;
    until("the Imperial's 'time is running out'", || {
        Ok(second
            .sent()
            .contains(&(Faction::Imperial, ReminderKind::TimeRunningOut, 0))
            .then_some(()))
    })
    .await?;
    ensure!(
        second.sent() == [(Faction::Imperial, ReminderKind::TimeRunningOut, 0)],
        "the restarted server sent nothing twice: {:?}",
        second.sent()
    );
    // the deadline is the moment it was, not pushed back by the time the server was down
    let (mut rebel, w) = Client::hello(server.addr, &code, Some(&created.token), None).await?;
    let clock = welcome_clock(&rebel)?;
    ensure!(
        clock.deadline_unix_ms == ByFaction::new(None, Some(imperial_deadline)),
        "the same deadline after a restart: {clock:?}"
    );
    // the Imperial is away, and that is no reason to win: only its deadline is
    ensure!(w.presence.seats.imperial.claim_in_seconds.is_none(), "{:?}", w.presence);
    rebel.send(&ClientMsg::ClaimWin).await?;
    ensure!(rebel.recv_error().await? == ErrorCode::CannotClaimWin);
    drop(rebel);
    server.stop().await?;

    // the deadline passes while the server is down
    let now = || {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_millis() as i64)
            .unwrap_or(0)
    };
    ensure!(
        stored(&dir, &code)?.0.is_none(),
        "the game was not over before its deadline"
    );
    while now() <= imperial_deadline {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let third = Arc::new(Recorder::default());
    let server = start(&dir, third.clone()).await?;
    let result = until("the loss on time, stored with nobody connected", || {
        stored(&dir, &code).map(|s| s.0)
    })
    .await?;
    let result: serde_json::Value = serde_json::from_str(&result)?;
    ensure!(
        result["forfeit_winner"] == "rebel" && result["reason"] == "time",
        "the Imperial lost on time: {result}"
    );
    // a player who connects later is told
    let (_rebel, w) = Client::hello(server.addr, &code, Some(&created.token), None).await?;
    ensure!(
        w.room.forfeit_winner == Some(Faction::Rebel) && w.room.forfeit_reason == Some(ForfeitReason::Time),
        "{:?}",
        w.room
    );
    ensure!(
        third.sent().is_empty(),
        "no reminder after the deadline: {:?}",
        third.sent()
    );
    server.stop().await?;

    // every reminder handed over was recorded first, and each once
    let mut sent: Vec<Recorded> = first
        .sent()
        .into_iter()
        .chain(second.sent())
        .map(|(side, kind, seq)| (faction_text(side).to_string(), seq as i64, kind_text(kind).to_string()))
        .collect();
    sent.sort();
    let (_, recorded) = stored(&dir, &code)?;
    ensure!(sent == recorded, "sent {sent:?}, recorded {recorded:?}");
    Ok(())
}
