//! Backups that restore, on PostgreSQL: while the load generator plays games against a node, a
//! `pg_dump -Fc` is taken (the procedure docker/README.md gives); `pg_restore` puts it in an empty
//! database, and a node started on it passes the same check as a restored SQLite backup
//! (`support/restore_check.rs`): every game over at dump time has a replay `evr verify` accepts,
//! every game being played resumes at its last stored action and takes a further move (so the
//! restored rooms' claims are taken over by the new node).
//!
//! `pg_dump` and `pg_restore` are the ones of the server's own major version
//! (`/usr/lib/postgresql/N/bin`); the password reaches them in `PGPASSWORD`, never on a command line.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, ensure};
use evr_store::{PostgresStore, Store};
use tokio::process::Command;

use crate::nodes::postgres_url;
use crate::support;
use crate::support::postgres::fresh_database;
use crate::support::processes::{Loadgen, ServerProcess, read_rooms_file};
use crate::support::restore_check::{check_restored, snapshot};

const GAMES: usize = 60;
/// The dump is taken once the load generator has seen this many games end.
const DUMP_AFTER: usize = 15;
/// Games stopped after 30 actions before the dump: in progress in it whatever the machine's speed.
const PARKED: usize = 3;

async fn query_one(url: &str, sql: &str) -> Result<String> {
    let (client, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls).await?;
    let driver = tokio::spawn(connection);
    let row = client.query_one(sql, &[]).await.with_context(|| sql.to_string())?;
    let value = match row.try_get::<_, String>(0) {
        Ok(s) => s,
        Err(_) => row.try_get::<_, i64>(0)?.to_string(),
    };
    drop(client);
    let _ = driver.await;
    Ok(value)
}

/// `tool` (pg_dump, pg_restore) of the server's own major version: an older client refuses a newer
/// server's dump, a newer one may write what an older pg_restore cannot read.
async fn pg_tool(url: &str, tool: &str) -> Result<PathBuf> {
    let version: u32 = query_one(url, "SHOW server_version_num").await?.parse()?;
    let path = PathBuf::from(format!("/usr/lib/postgresql/{}/bin/{tool}", version / 10_000));
    ensure!(
        path.is_file(),
        "{} not found (the server is version {version})",
        path.display()
    );
    Ok(path)
}

/// `tool` connecting to `url`'s database, the password in the environment only.
fn pg_command(tool: &Path, url: &str) -> Result<Command> {
    let config: tokio_postgres::Config = url.parse().context("the database URL")?;
    let host = match config.get_hosts().first().context("the URL names no host")? {
        tokio_postgres::config::Host::Tcp(h) => h.clone(),
        #[cfg(unix)]
        tokio_postgres::config::Host::Unix(p) => p.display().to_string(),
    };
    let port = config.get_ports().first().copied().unwrap_or(5432).to_string();
    let mut cmd = Command::new(tool);
    cmd.args(["-h", &host, "-p", &port])
        .args(["-U", config.get_user().context("the URL names no user")?])
        .args(["-d", config.get_dbname().context("the URL names no database")?])
        .env_remove("PGPASSWORD");
    if let Some(password) = config.get_password() {
        cmd.env("PGPASSWORD", String::from_utf8_lossy(password).as_ref());
    }
    Ok(cmd)
}

async fn run(mut cmd: Command, what: &str) -> Result<()> {
    let out = cmd.output().await.with_context(|| format!("running {what}"))?;
    ensure!(
        out.status.success(),
        "{what} failed ({}): {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL (EVR_TEST_POSTGRES), its pg_dump and pg_restore, evr-loadgen and evr: scripts/test.sh"]
async fn a_pg_dump_taken_while_games_are_played_restores_every_game() -> Result<()> {
    let started = std::time::Instant::now();
    let url = postgres_url()?;
    let (pg_dump, pg_restore) = (pg_tool(&url, "pg_dump").await?, pg_tool(&url, "pg_restore").await?);
    let live = fresh_database(&url, "backup_live").await?;
    let target = fresh_database(&url, "backup_restored").await?;
    let work = support::temp_dir("pg-backup");
    std::fs::create_dir_all(&work)?;
    let node = ServerProcess::start(&[OsStr::new("--store"), OsStr::new(&live)], &work.join("live.log")).await?;

    let parked_file = work.join("parked.jsonl");
    let mut loadgen = Loadgen::parked_then_games(node.addr, &work, PARKED, GAMES).await?;
    let games_file = work.join("games.jsonl");
    let seen_over = loadgen.wait_over(DUMP_AFTER).await?;
    let dump = work.join("evr.dump");
    let mut cmd = pg_command(&pg_dump, &live)?;
    cmd.arg("-Fc").arg("-f").arg(&dump);
    run(cmd, "pg_dump").await?;
    let figures = loadgen.finish().await?;
    ensure!(
        figures.contains(&format!("\"matches_finished\":{GAMES}")),
        "every game finished: {figures}"
    );
    node.stop().await?;

    let mut cmd = pg_command(&pg_restore, &target)?;
    cmd.args(["--no-owner", "--no-privileges", "--exit-on-error"])
        .arg(&dump);
    run(cmd, "pg_restore").await?;
    let mut rooms = read_rooms_file(&games_file)?.rooms;
    let parked = read_rooms_file(&parked_file)?.rooms;
    ensure!(parked.len() == PARKED && rooms.len() == GAMES, "every room seated");
    rooms.extend(parked.clone());
    let (restored_url, known) = (target.clone(), rooms.clone());
    let snap = tokio::task::spawn_blocking(move || -> Result<_> {
        let store = PostgresStore::open(&restored_url)?;
        let snap = snapshot(&store, &known);
        store.close();
        snap
    })
    .await??;
    let stored_rooms: usize = query_one(&target, "SELECT count(*) FROM rooms").await?.parse()?;
    ensure!(
        stored_rooms == snap.rooms(),
        "every restored room is one the load generator seated"
    );
    for code in &seen_over {
        ensure!(snap.is_over(code), "room {code} was over before the dump began");
    }
    for code in parked.keys() {
        ensure!(snap.is_in_progress(code), "parked room {code} is in progress");
    }
    ensure!(
        !snap.over.is_empty() && !snap.in_progress.is_empty(),
        "games over and in progress"
    );

    let node = ServerProcess::start(
        &[OsStr::new("--store"), OsStr::new(&target)],
        &work.join("restored.log"),
    )
    .await?;
    let checked = check_restored(node.addr, &snap, &rooms, &work.join("replays")).await?;
    node.stop().await?;
    println!(
        "pg_dump after {} games over: {} games over (replays verified: {}), {} in progress (resumed: {}, moved on: {}); {:.1} s",
        seen_over.len(),
        snap.over.len(),
        checked.verified,
        snap.in_progress.len(),
        checked.resumed,
        checked.moved,
        started.elapsed().as_secs_f64()
    );
    ensure!(checked.verified == snap.over.len() && checked.resumed == snap.in_progress.len());
    let _ = std::fs::remove_dir_all(&work);
    Ok(())
}
