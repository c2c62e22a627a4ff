//! Backups that restore (SQLite): while the load generator plays 200 games against a real server
//! process, the real `evr-server backup` copies its database three times; each copy, put in a new
//! data directory by `evr-server restore`, starts a server on which every game that was over at
//! backup time has a replay `evr verify` accepts and every game being played resumes at its last
//! stored action and takes a further move.
//!
//! Ignored by a plain `cargo test`: it runs `evr-loadgen` and `evr`, built beside `evr-server`;
//! scripts/test.sh builds them and runs it (`-- --ignored backup::`).

use std::ffi::OsStr;

use anyhow::{Result, ensure};
use evr_store::{SqliteStore, Store};

use crate::support::processes::{Loadgen, ServerProcess, read_rooms_file, server_command};
use crate::support::restore_check::{check_restored, snapshot};
use crate::support::{self};

/// The games the load generator plays to their end while the backups are taken.
const GAMES: usize = 200;
/// Each backup is taken once the load generator has seen this many games end: tied to the run's
/// progress, not to the clock.
const BACKUP_AFTER: [usize; 3] = [20, 80, 140];
/// Games stopped after 30 actions before the backups (a game is ~130): in progress in every
/// backup, however fast or slow the machine plays the others.
const PARKED: usize = 4;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "runs evr-loadgen and evr built beside evr-server: scripts/test.sh builds them and runs it"]
async fn backups_taken_while_200_games_are_played_restore_every_game() -> Result<()> {
    let started = std::time::Instant::now();
    let work = support::temp_dir("backup");
    std::fs::create_dir_all(&work)?;
    let live = work.join("live");
    let server = ServerProcess::start(&[OsStr::new("--data-dir"), live.as_os_str()], &work.join("live.log")).await?;

    let parked_file = work.join("parked.jsonl");
    let mut loadgen = Loadgen::parked_then_games(server.addr, &work, PARKED, GAMES).await?;
    let games_file = work.join("games.jsonl");
    let mut backups = Vec::new();
    for (i, after) in BACKUP_AFTER.into_iter().enumerate() {
        let seen_over = loadgen.wait_over(after).await?;
        let file = work.join(format!("backup-{i}.sqlite3"));
        let said = server_command(&[
            OsStr::new("backup"),
            OsStr::new("--to"),
            file.as_os_str(),
            OsStr::new("--data-dir"),
            live.as_os_str(),
        ])
        .await?;
        println!("backup {i} (after {} games over): {}", seen_over.len(), said.trim());
        backups.push((file, seen_over));
    }
    let figures = loadgen.finish().await?;
    ensure!(
        figures.contains(&format!("\"matches_finished\":{GAMES}")),
        "every game finished: {figures}"
    );
    server.stop().await?;
    println!(
        "{GAMES} games played and 3 backups taken in {:.1} s",
        started.elapsed().as_secs_f64()
    );

    let mut rooms = read_rooms_file(&games_file)?.rooms;
    let parked = read_rooms_file(&parked_file)?.rooms;
    ensure!(parked.len() == PARKED && rooms.len() == GAMES, "every room seated");
    rooms.extend(parked.clone());
    for (i, (file, seen_over)) in backups.iter().enumerate() {
        // what the backup holds, read from the file itself (a restored copy of its own)
        let scratch = work.join(format!("read-{i}"));
        let (f, s, r) = (file.clone(), scratch.clone(), rooms.clone());
        let snap = tokio::task::spawn_blocking(move || -> Result<_> {
            SqliteStore::restore(&f, &s)?;
            let store = SqliteStore::open(&s)?;
            let snap = snapshot(&store, &r);
            store.close();
            snap
        })
        .await??;
        let stored_rooms: i64 = rusqlite::Connection::open(scratch.join(evr_store::SQLITE_FILE))?.query_row(
            "SELECT count(*) FROM rooms",
            [],
            |r| r.get(0),
        )?;
        ensure!(
            stored_rooms as usize == snap.rooms(),
            "backup {i}: every stored room is one the load generator seated"
        );
        // everything committed before the backup began is in it
        for code in seen_over {
            ensure!(
                snap.is_over(code),
                "backup {i}: room {code} was over before the backup began"
            );
        }
        for code in parked.keys() {
            ensure!(
                snap.is_in_progress(code),
                "backup {i}: parked room {code} is in progress"
            );
        }
        ensure!(
            !snap.over.is_empty() && !snap.in_progress.is_empty(),
            "backup {i}: games over and games in progress"
        );

        let restored = work.join(format!("restored-{i}"));
        let said = server_command(&[
            OsStr::new("restore"),
            OsStr::new("--from"),
            file.as_os_str(),
            OsStr::new("--data-dir"),
            restored.as_os_str(),
        ])
        .await?;
        ensure!(
            said.contains(&format!("{stored_rooms} rooms")),
            "restore {i} says what it restored: {said}"
        );
        let server = ServerProcess::start(
            &[OsStr::new("--data-dir"), restored.as_os_str()],
            &work.join(format!("restored-{i}.log")),
        )
        .await?;
        let checked = check_restored(server.addr, &snap, &rooms, &work.join(format!("replays-{i}"))).await?;
        server.stop().await?;
        println!(
            "backup {i}: {} games over (replays verified: {}), {} in progress (resumed: {}, moved on: {})",
            snap.over.len(),
            checked.verified,
            snap.in_progress.len(),
            checked.resumed,
            checked.moved
        );
        ensure!(checked.verified == snap.over.len() && checked.resumed == snap.in_progress.len());
    }
    println!("done in {:.1} s", started.elapsed().as_secs_f64());
    let _ = std::fs::remove_dir_all(&work);
    Ok(())
}
