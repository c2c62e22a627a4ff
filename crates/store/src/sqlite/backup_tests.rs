//! Backups of a store being written to: each holds everything acknowledged before it began, in one
//! consistent piece; targets are never half-written nor overwritten unasked; a restore refuses a
//! directory in use, a damaged file and a newer schema.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::time::Duration;

use evr_protocol::{RoomOptions, SideChoice, SpectatorPolicy};
use evr_rules::{Action, Faction, Mode};

use super::{BackupError, SQLITE_FILE};
use crate::{FIRST_EPOCH, GameSecret, SqliteStore, Store, WriteOp};

/// A fresh directory under the system's temporary one (removed by `Drop`).
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0);
        let dir = std::env::temp_dir().join(format!("evr-backup-{name}-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

const CODE: &str = "KJCHM97E";

async fn write(store: &SqliteStore, op: WriteOp) {
    store
        .submit(FIRST_EPOCH, op)
        .await
        .expect("answered")
        .expect("committed");
}

/// A room with its first game, and `actions` actions.
async fn room_with_actions(store: &SqliteStore, actions: u32) {
    let options = RoomOptions {
        side: SideChoice::Random,
        mode: Mode::Full,
        spectators: SpectatorPolicy::AnyoneWithLink,
        opponent: None,
        reveal_at_end: false,
        clock: None,
        rated: false,
    };
    write(
        store,
        WriteOp::CreateRoom {
            code: CODE.into(),
            options,
            invite_hash: vec![1; 32],
            join_code_hash: None,
            creator_hash: vec![2; 32],
            creator_name: None,
            created_at: 1_790_000_000,
        },
    )
    .await;
    write(
        store,
        WriteOp::StartGame {
            code: CODE.into(),
            game_no: 1,
            secret: GameSecret::Committed {
                key: [7; 32],
                salt: [8; 16],
            },
            creator_faction: Faction::Rebel,
            seq: 0,
            started_at: 1_790_000_000,
        },
    )
    .await;
    for seq in 1..=actions {
        write(store, append(seq)).await;
    }
}

fn append(seq: u32) -> WriteOp {
    WriteOp::AppendAction {
        code: CODE.into(),
        game_no: 1,
        seq,
        seat: Faction::Rebel,
        action: Action::Pass,
        action_id: format!("a{seq}"),
        clock_ms: None,
        wake: None,
        rated: None,
    }
}

/// The actions' seqs of the room stored in backup `file`, loaded by the store itself after a restore.
fn stored_seqs(file: &Path, scratch: &Path) -> Vec<u32> {
    SqliteStore::restore(file, scratch).expect("the backup restores");
    let store = SqliteStore::open(scratch).expect("the restored database opens");
    let room = store.load_room(CODE).expect("loads").expect("the room");
    room.game.expect("its game").actions.iter().map(|a| a.seq).collect()
}

fn files_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("listed")
        .map(|e| e.expect("an entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_backup_of_a_store_being_written_holds_everything_acknowledged_before_it_in_one_piece() {
    let live = TempDir::new("live");
    let out = TempDir::new("out");
    let store = Arc::new(SqliteStore::open(&live.0).expect("opens"));
    room_with_actions(&store, 0).await;
    // one action after another, as fast as they commit; `acked` is the last one acknowledged
    let acked = Arc::new(AtomicU32::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    let writer = {
        let (store, acked, stop) = (store.clone(), acked.clone(), stop.clone());
        tokio::spawn(async move {
            let mut seq = 1;
            while !stop.load(Ordering::Relaxed) {
                write(&store, append(seq)).await;
                acked.store(seq, Ordering::Release);
                seq += 1;
            }
        })
    };
    for n in 0..5u32 {
        // each backup after 300 more actions: tied to the writer's progress, not to the clock
        let target = (n + 1) * 300;
        while acked.load(Ordering::Acquire) < target {
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
        let before = acked.load(Ordering::Acquire);
        let (data, file) = (live.0.clone(), out.0.join(format!("b{n}.sqlite3")));
        let report = tokio::task::spawn_blocking(move || SqliteStore::backup(&data, &file, false))
            .await
            .expect("joined")
            .expect("backed up");
        let after = acked.load(Ordering::Acquire);
        assert_eq!((report.rooms, report.games), (1, 1), "backup {n}");
        let seqs = stored_seqs(&report.path, &out.0.join(format!("r{n}")));
        let count = seqs.len() as u32;
        assert!(
            count >= before,
            "backup {n}: {count} actions, {before} acknowledged before it began"
        );
        // (at most the one in flight when `after` was read was committed since)
        assert!(
            count <= after + 1,
            "backup {n}: {count} actions, {after} acknowledged after it"
        );
        assert_eq!(
            report.actions,
            u64::from(count),
            "backup {n}: the report counts the copy"
        );
        assert!(
            seqs.iter().copied().eq(1..=count),
            "backup {n}: the actions are a prefix of the log, none missing"
        );
        assert!(report.bytes > 0);
    }
    stop.store(true, Ordering::Relaxed);
    writer.await.expect("the writer ran");
    store.close();
    // only the backups and their restored directories: no temporary file left
    assert!(
        files_in(&out.0).iter().all(|f| !f.starts_with('.')),
        "{:?}",
        files_in(&out.0)
    );
}

#[tokio::test]
async fn a_backup_never_replaces_a_file_unasked_nor_leaves_a_partial_one() {
    let live = TempDir::new("exists");
    let out = TempDir::new("exists-out");
    let store = SqliteStore::open(&live.0).expect("opens");
    room_with_actions(&store, 3).await;
    let target = out.0.join("backup.sqlite3");
    std::fs::write(&target, b"precious").expect("written");
    match SqliteStore::backup(&live.0, &target, false) {
        Err(BackupError::Exists(p)) => assert_eq!(p, target),
        other => panic!("an existing target must be refused: {other:?}"),
    }
    assert_eq!(std::fs::read(&target).expect("read"), b"precious", "left as it was");
    let report = SqliteStore::backup(&live.0, &target, true).expect("replaced when asked");
    assert_eq!((report.rooms, report.games, report.actions), (1, 1, 3));
    assert_eq!(files_in(&out.0), ["backup.sqlite3"], "no temporary file left");
    // the database itself is no target
    match SqliteStore::backup(&live.0, &live.0.join(SQLITE_FILE), true) {
        Err(BackupError::SameFile(_)) => {}
        other => panic!("the database itself must be refused: {other:?}"),
    }
    // nothing to copy
    let empty = TempDir::new("nothing");
    match SqliteStore::backup(&empty.0, &out.0.join("x.sqlite3"), false) {
        Err(BackupError::NoDatabase(_)) => {}
        other => panic!("no database: {other:?}"),
    }
    assert_eq!(files_in(&out.0), ["backup.sqlite3"]);
    assert!(files_in(&empty.0).is_empty(), "a backup creates no database");
    store.close();
    // a stopped server's directory (no log beside the database) backs up the same
    let again = SqliteStore::backup(&live.0, &out.0.join("stopped.sqlite3"), false).expect("backed up");
    assert_eq!(again.actions, 3);
}

#[tokio::test]
async fn a_restore_refuses_a_directory_in_use_a_damaged_file_and_a_newer_schema() {
    let live = TempDir::new("restore");
    let out = TempDir::new("restore-out");
    let store = SqliteStore::open(&live.0).expect("opens");
    room_with_actions(&store, 2).await;
    let backup = out.0.join("b.sqlite3");
    SqliteStore::backup(&live.0, &backup, false).expect("backed up");

    // a directory with a database, or only the log of one, is in use
    for leftover in [SQLITE_FILE.to_string(), format!("{SQLITE_FILE}-wal")] {
        let dir = out.0.join(format!("in-use-{}", leftover.replace('.', "-")));
        std::fs::create_dir_all(&dir).expect("dir");
        std::fs::write(dir.join(&leftover), b"x").expect("written");
        match SqliteStore::restore(&backup, &dir) {
            Err(BackupError::DataDirInUse(_)) => {}
            other => panic!("{leftover}: must be refused: {other:?}"),
        }
        assert_eq!(files_in(&dir), [leftover.as_str()], "untouched");
    }

    // a damaged file: not a database at all, then a database whose pages were overwritten
    let garbage = out.0.join("garbage.sqlite3");
    std::fs::write(&garbage, vec![0x5a; 64 * 1024]).expect("written");
    let mut damaged = std::fs::read(&backup).expect("read");
    let page = 4096;
    assert!(damaged.len() > 2 * page, "more than one page");
    for b in &mut damaged[page + 8..2 * page] {
        *b = 0xa5;
    }
    let torn = out.0.join("torn.sqlite3");
    std::fs::write(&torn, damaged).expect("written");
    for (bad, name) in [(&garbage, "garbage"), (&torn, "torn")] {
        let dir = out.0.join(format!("from-{name}"));
        assert!(SqliteStore::restore(bad, &dir).is_err(), "{name} must be refused");
        assert!(
            files_in(&dir).is_empty(),
            "{name}: nothing left behind: {:?}",
            files_in(&dir)
        );
    }

    // a newer schema than this server's
    let newer = out.0.join("newer.sqlite3");
    std::fs::copy(&backup, &newer).expect("copied");
    rusqlite::Connection::open(&newer)
        .and_then(|c| c.pragma_update(None, "user_version", super::LATEST + 1))
        .expect("version set");
    match SqliteStore::restore(&newer, &out.0.join("from-newer")) {
        Err(BackupError::TooNew { found, .. }) => assert_eq!(found, super::LATEST + 1),
        other => panic!("a newer schema must be refused: {other:?}"),
    }
    assert!(files_in(&out.0.join("from-newer")).is_empty());

    // and the good one restores, into a new directory, and loads
    let restored = out.0.join("fresh");
    let report = SqliteStore::restore(&backup, &restored).expect("restored");
    assert_eq!((report.rooms, report.games, report.actions), (1, 1, 2));
    assert_eq!(files_in(&restored), [SQLITE_FILE]);
    let back = SqliteStore::open(&restored).expect("opens");
    let room = back.load_room(CODE).expect("loads").expect("the room");
    assert_eq!(room.game.expect("a game").actions.len(), 2);
    store.close();
}
