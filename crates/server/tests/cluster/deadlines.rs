//! Correspondence deadlines and reminders across three nodes on PostgreSQL behind HAProxy, with
//! nobody connected and two nodes killed with SIGKILL while they fall due: every game is timed out
//! exactly once (one time-out announced across all nodes, one result stored), no reminder is
//! handed over twice, every reminder handed over was recorded first, and a "time is running out"
//! is recorded for every side that owed a decision then — none lost, whichever node acted. A
//! game where one side owed loses it for that side; where both missed the same deadline (nobody
//! chose their characters), nobody wins (`both_out_of_time`).
//!
//! Needs the server built with `--features test-days` (scripts/test.sh builds it so): a "day" of
//! `DAY_SECS` seconds (`--day-secs`), and `--test-event-log`, where each node appends the games it
//! timed out and the reminders it handed over, so that the test can count them across processes.

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use anyhow::{Context, Result, bail, ensure};
use evr_protocol::{Correspondence, RoomOptions, SideChoice, TimeControl};
use evr_rules::{Faction, Mode};
use rand::{RngExt, SeedableRng};

use crate::nodes::{Front, Node, postgres_url};
use crate::support::{self, Client};

const ROOMS: usize = 50;
/// A decision is due within this many seconds; "time is running out" comes 24 s after it became
/// due, "your turn" after 42 ms. Long enough for a killed node's rooms to be taken over by the
/// others (a sweep every 200 ms) between the two.
const DAY_SECS: u64 = 30;

/// Each room as made: its code, and the side that owes the first decision alone (`None`: both
/// owe the character choice; `Some(f)`: the other side chose at once).
struct Made {
    code: String,
    owes: Option<Faction>,
}

/// The store's view: (code, side, seq, kind) of each recorded reminder, and each game's result.
async fn read_store(url: &str) -> Result<(BTreeSet<(String, String, i64, String)>, BTreeMap<String, String>)> {
    let (client, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls).await?;
    let driver = tokio::spawn(connection);
    let reminders = client
        .query("SELECT room_code, side, decision_seq, kind FROM reminders", &[])
        .await?
        .iter()
        .map(|r| Ok((r.try_get(0)?, r.try_get(1)?, r.try_get(2)?, r.try_get(3)?)))
        .collect::<Result<BTreeSet<_>, tokio_postgres::Error>>()?;
    let results = client
        .query("SELECT room_code, result FROM games WHERE result IS NOT NULL", &[])
        .await?
        .iter()
        .map(|r| Ok((r.try_get(0)?, r.try_get(1)?)))
        .collect::<Result<BTreeMap<_, _>, tokio_postgres::Error>>()?;
    drop(client);
    driver.abort();
    Ok((reminders, results))
}

/// Waits (generously: the nodes' progress, not a guess of their speed) until the store says `done`.
async fn until_store<T>(
    url: &str,
    what: &str,
    mut done: impl FnMut(&BTreeSet<(String, String, i64, String)>, &BTreeMap<String, String>) -> Option<T>,
) -> Result<T> {
    let give_up = tokio::time::Instant::now() + Duration::from_secs(DAY_SECS + 90);
    loop {
        let (reminders, results) = read_store(url).await?;
        if let Some(t) = done(&reminders, &results) {
            return Ok(t);
        }
        if tokio::time::Instant::now() > give_up {
            bail!("gave up waiting: {what}");
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL, HAProxy and the test-days build: scripts/test.sh runs it"]
async fn deadlines_and_reminders_of_50_rooms_through_two_kills_happen_once() -> Result<()> {
    ensure!(
        cfg!(feature = "test-days"),
        "build with --features evr-server/test-days: the nodes need --day-secs"
    );
    let url = support::postgres::fresh_database(&postgres_url()?, "cluster_deadlines").await?;
    let logs = support::temp_dir("cluster-deadlines");
    std::fs::create_dir_all(&logs)?;
    let events = logs.join("events.log");
    let (day, events_arg) = (DAY_SECS.to_string(), events.display().to_string());
    let extra = [
        "--day-secs",
        &day,
        "--deadline-sweep-ms",
        "200",
        "--test-event-log",
        &events_arg,
    ];
    let mut nodes = [
        Node::new(&url, &extra, &logs, "node1")?,
        Node::new(&url, &extra, &logs, "node2")?,
        Node::new(&url, &extra, &logs, "node3")?,
    ];
    for n in &mut nodes {
        n.start().await?;
    }
    let front = Front::start(&nodes, &logs).await?;

    // 50 correspondence rooms through the front door; in every other one the creator makes the
    // character choice at once (its deadline is then stored with an action), then everyone leaves
    let options = RoomOptions {
        side: SideChoice::Random,
        clock: Some(TimeControl::Correspondence(Correspondence { days_per_decision: 1 })),
        ..support::options(Mode::Full)
    };
    let mut made = Vec::new();
    for r in 0..ROOMS {
        let created = support::create_room(front.addr, &options).await?;
        support::join_room(front.addr, &created.code, Some(&support::invite_secret(&created)?))
            .await?
            .map_err(|e| anyhow::anyhow!("join: {e:?}"))?;
        let mut owes = None;
        if r % 2 == 0 {
            let (mut c, w) = Client::hello(front.addr, &created.code, Some(&created.token), None).await?;
            let choose = *w.view.legal_actions.first().context("a character choice")?;
            c.send(&support::action(w.seq, "c1", choose)).await?;
            c.recv_ack().await?;
            owes = Some(created.seat.opponent());
        }
        made.push(Made {
            code: created.code,
            owes,
        });
    }

    // kill 1: once every room's absent guest got "your turn" (the rooms of the killed node must
    // then be taken over before their next reminder); kill 2: once "time is running out" is being
    // recorded (some rooms have theirs, the others are due within moments). Each node back half
    // a second later.
    let mut rng = rand::rngs::SmallRng::seed_from_u64(20261123);
    for (kill, (what, kind, count)) in [
        ("every room's 'your turn'", "your_turn", ROOMS),
        ("a 'time is running out'", "time_running_out", 1),
    ]
    .into_iter()
    .enumerate()
    {
        until_store(&url, what, |reminders, _| {
            (reminders.iter().filter(|(_, _, _, k)| k == kind).count() >= count).then_some(())
        })
        .await?;
        let victim = rng.random_range(0..nodes.len());
        nodes[victim].kill()?;
        eprintln!("kill {}: node{} once {what} was recorded", kill + 1, victim + 1);
        tokio::time::sleep(Duration::from_millis(500)).await;
        nodes[victim].start().await?;
    }

    // every game ends on time, with nobody connected (where neither chose, with nobody's win)
    let (reminders, results) = until_store(&url, "every game lost on time", |reminders, results| {
        (results.len() == ROOMS).then(|| (reminders.clone(), results.clone()))
    })
    .await?;
    // (a last sweep may still be under way on a node: give the event log a moment to settle)
    tokio::time::sleep(Duration::from_millis(500)).await;
    let lines = std::fs::read_to_string(&events)?;
    let mut timeouts: BTreeMap<&str, usize> = BTreeMap::new();
    let mut sent = Vec::new();
    for line in lines.lines() {
        match line.split(' ').collect::<Vec<_>>()[..] {
            ["timeout", code, "1", _loser] => *timeouts.entry(code).or_default() += 1,
            ["reminder", code, "1", side, seq, kind] => sent.push((
                code.to_string(),
                side.to_lowercase(),
                seq.parse::<i64>()?,
                kind.to_string(),
            )),
            _ => bail!("an event line of another shape: {line:?}"),
        }
    }
    for m in &made {
        let result: serde_json::Value = serde_json::from_str(results.get(&m.code).context("a result")?)?;
        match m.owes {
            // the creator chose: the guest alone owed, and lost on time
            Some(owes) => ensure!(
                result["reason"] == "time" && result["forfeit_winner"] == owes.opponent().name().to_lowercase(),
                "{}: the side that owed lost on time: {result}",
                m.code
            ),
            // nobody chose: both missed the same deadline, and nobody won
            None => ensure!(
                result["reason"] == "both_out_of_time" && result["forfeit_winner"].is_null(),
                "{}: both out of time, nobody's win: {result}",
                m.code
            ),
        }
        ensure!(
            timeouts.get(m.code.as_str()) == Some(&1),
            "{}: timed out once across the nodes, not {:?}",
            m.code,
            timeouts.get(m.code.as_str())
        );
        for side in Faction::BOTH {
            if m.owes.is_none_or(|o| o == side) {
                let name = side.name().to_lowercase();
                ensure!(
                    reminders
                        .iter()
                        .any(|(c, s, _, k)| *c == m.code && *s == name && k == "time_running_out"),
                    "{}: 'time is running out' recorded for the {name} side",
                    m.code
                );
            }
        }
    }
    let unique: BTreeSet<_> = sent.iter().cloned().collect();
    ensure!(unique.len() == sent.len(), "a reminder was handed over twice");
    let unrecorded: Vec<_> = unique.difference(&reminders).collect();
    ensure!(unrecorded.is_empty(), "handed over without a record: {unrecorded:?}");
    // a node killed between a reminder's record and its hand-over loses that one (at most once)
    let lost = reminders.len() - unique.len();
    eprintln!(
        "{ROOMS} games timed out once each through 2 kills; {} reminders recorded, {} handed over ({lost} lost to the kills)",
        reminders.len(),
        sent.len()
    );
    ensure!(lost <= 10, "{lost} reminders recorded but never handed over");
    ensure!(
        timeouts.len() == ROOMS,
        "time-outs of rooms the test did not make: {timeouts:?}"
    );
    drop(front);
    Ok(())
}
