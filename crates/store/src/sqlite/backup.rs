//! Backups of the SQLite store that restore: a consistent copy of a database that a server may be
//! serving from this very moment, and its way back into a data directory.
//!
//! The copy is SQLite's online backup (`sqlite3_backup`) run in **one step**: one read transaction
//! over the whole copy, so it is a snapshot — everything committed before it began (in the main
//! file or still in the write-ahead log), nothing committed after, never a mix. In WAL mode a
//! reader blocks neither the server's writer nor its checkpoints (they only stop short of the
//! pages the reader still needs). A copy made page by page with pauses would start over at every
//! commit of the server, which on a busy server is every millisecond.
//!
//! The copy is written to a temporary file beside the target, switched to a rollback journal (a
//! single self-contained file; the server switches it back to WAL when it opens it), checked with
//! `PRAGMA integrity_check`, flushed to disk and only then renamed to its name: a crash never
//! leaves a half-written file under the name asked for.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rusqlite::backup::{Backup, StepResult};
use rusqlite::{Connection, OpenFlags};

use super::schema::LATEST;

/// The database's file in a data directory. Beside it, while a server has it open, SQLite keeps
/// `evr.sqlite3-wal` (commits not yet copied into the main file) and `evr.sqlite3-shm` (the log's
/// index): the three together are the database, the main file alone is not.
pub const SQLITE_FILE: &str = "evr.sqlite3";

/// The files SQLite may keep beside the database (a data directory holding any of them is in use).
const SIDE_FILES: [&str; 3] = ["-wal", "-shm", "-journal"];

/// How long a copy keeps trying when the source is locked (only while SQLite recovers a log
/// left by a crash, or a writer holds an exclusive lock).
const BUSY_PATIENCE: Duration = Duration::from_secs(10);

/// What a copy holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BackupReport {
    /// The file written.
    pub path: PathBuf,
    pub rooms: u64,
    pub games: u64,
    pub actions: u64,
    /// The copy's size on disk.
    pub bytes: u64,
    /// Its schema version (SQLite's `user_version`); a server of this version or newer opens it.
    pub schema_version: i64,
}

/// Why a backup or a restore did not happen. Whatever the error, no file is left under the name
/// asked for (an existing one is untouched) and no temporary file is left beside it.
#[derive(Debug, thiserror::Error)]
pub enum BackupError {
    /// There is no database to copy.
    #[error("no database at {0}")]
    NoDatabase(PathBuf),
    /// The target exists and overwriting was not asked for.
    #[error("{0} already exists (give --force to replace it)")]
    Exists(PathBuf),
    /// The target is the database being copied.
    #[error("{0} is the database itself: write the backup elsewhere")]
    SameFile(PathBuf),
    /// A restore into a data directory that already holds a database (or a log of one: copying a
    /// database beside another's write-ahead log would apply that log to it, corrupting it).
    #[error("{0} already holds a database: restore into an empty directory")]
    DataDirInUse(PathBuf),
    /// The database is newer than this server.
    #[error("{path}: schema version {found}, newer than this server's {LATEST}: use a newer evr-server")]
    TooNew { path: PathBuf, found: i64 },
    /// The copy failed SQLite's integrity check: it was not kept.
    #[error("the copy of {path} is damaged: {why}")]
    Damaged { path: PathBuf, why: String },
    /// The source stayed locked for too long.
    #[error("{0} stayed locked for {BUSY_PATIENCE:?}; try again")]
    Busy(PathBuf),
    /// SQLite failed.
    #[error("{path}: {error}")]
    Sqlite { path: PathBuf, error: rusqlite::Error },
    /// A file could not be written, flushed or renamed.
    #[error("{path}: {error}")]
    Io { path: PathBuf, error: std::io::Error },
}

fn sqlite(path: &Path) -> impl Fn(rusqlite::Error) -> BackupError + '_ {
    move |error| BackupError::Sqlite {
        path: path.to_path_buf(),
        error,
    }
}

fn io(path: &Path) -> impl Fn(std::io::Error) -> BackupError + '_ {
    move |error| BackupError::Io {
        path: path.to_path_buf(),
        error,
    }
}

/// Copies the database of `data_dir` to `to` while a server may be serving from it (see the
/// module's documentation). Refuses an existing `to` unless `overwrite`.
pub fn backup(data_dir: &Path, to: &Path, overwrite: bool) -> Result<BackupReport, BackupError> {
    let source = data_dir.join(SQLITE_FILE);
    if !source.is_file() {
        return Err(BackupError::NoDatabase(source));
    }
    if same_file(&source, to) {
        return Err(BackupError::SameFile(to.to_path_buf()));
    }
    if !overwrite && to.exists() {
        return Err(BackupError::Exists(to.to_path_buf()));
    }
    copy(&source, to, overwrite, false)
}

/// Puts backup `from` into `data_dir` as its database (creating the directory if needed), after
/// checking it; a server started with `--data-dir` on it serves from it. Refuses a directory that
/// already holds a database or its log, and a backup newer than this server.
pub fn restore(from: &Path, data_dir: &Path) -> Result<BackupReport, BackupError> {
    if !from.is_file() {
        return Err(BackupError::NoDatabase(from.to_path_buf()));
    }
    std::fs::create_dir_all(data_dir).map_err(io(data_dir))?;
    let target = data_dir.join(SQLITE_FILE);
    let in_use = std::iter::once(target.clone())
        .chain(SIDE_FILES.iter().map(|s| data_dir.join(format!("{SQLITE_FILE}{s}"))))
        .any(|p| p.exists());
    if in_use {
        return Err(BackupError::DataDirInUse(data_dir.to_path_buf()));
    }
    copy(from, &target, false, true)
}

/// Whether `to` names the file `source` is (both resolved; `to` need not exist).
fn same_file(source: &Path, to: &Path) -> bool {
    let resolved = |p: &Path| -> Option<PathBuf> {
        let name = p.file_name()?;
        let dir = match p.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        Some(dir.canonicalize().ok()?.join(name))
    };
    resolved(source).is_some_and(|s| resolved(to).is_some_and(|t| s == t))
}

/// `to`'s temporary sibling while it is written (a leading dot, this process's id).
fn temporary(to: &Path) -> Result<PathBuf, BackupError> {
    let name = to
        .file_name()
        .ok_or_else(|| BackupError::Io {
            path: to.to_path_buf(),
            error: std::io::Error::new(std::io::ErrorKind::InvalidInput, "not a file name"),
        })?
        .to_string_lossy();
    Ok(to.with_file_name(format!(".{name}.partial-{}", std::process::id())))
}

fn remove_with_side_files(path: &Path) {
    let _ = std::fs::remove_file(path);
    for side in SIDE_FILES {
        let mut p = path.as_os_str().to_owned();
        p.push(side);
        let _ = std::fs::remove_file(PathBuf::from(p));
    }
}

/// Copies database `source` to `to` through a checked temporary file (see the module); with
/// `refuse_newer`, not a database of a newer schema than this server's (a restore: this server
/// could not open it; a backup copies whatever it finds).
fn copy(source: &Path, to: &Path, overwrite: bool, refuse_newer: bool) -> Result<BackupReport, BackupError> {
    let partial = temporary(to)?;
    // a leftover of this same process id can only be from a process that is gone
    remove_with_side_files(&partial);
    let written = write_checked(source, &partial).and_then(|report| {
        if refuse_newer && report.schema_version > LATEST {
            return Err(BackupError::TooNew {
                path: source.to_path_buf(),
                found: report.schema_version,
            });
        }
        publish(&partial, to, overwrite)?;
        Ok(BackupReport {
            path: to.to_path_buf(),
            ..report
        })
    });
    if written.is_err() {
        remove_with_side_files(&partial);
    }
    written
}

/// The online backup of `source` into a new file `partial`, made self-contained, checked, counted
/// and flushed to disk.
fn write_checked(source: &Path, partial: &Path) -> Result<BackupReport, BackupError> {
    // read-only: a backup never writes to what it copies (nor creates it, nor migrates it)
    let from = Connection::open_with_flags(
        source,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(sqlite(source))?;
    from.busy_timeout(Duration::from_secs(5)).map_err(sqlite(source))?;
    create_private(partial)?;
    let mut to = Connection::open(partial).map_err(sqlite(partial))?;
    let started = Instant::now();
    loop {
        let backup = Backup::new(&from, &mut to).map_err(sqlite(partial))?;
        // -1: every page in one step, under one read transaction of the source (a snapshot)
        match backup.step(-1).map_err(sqlite(source))? {
            StepResult::Done => break,
            // (More cannot follow a step of every page; Busy and Locked are worth a retry)
            _ if started.elapsed() < BUSY_PATIENCE => std::thread::sleep(Duration::from_millis(50)),
            _ => return Err(BackupError::Busy(source.to_path_buf())),
        }
    }
    drop(from);
    // the copied header says WAL; one file is what a backup should be
    to.pragma_update(None, "journal_mode", "DELETE")
        .map_err(sqlite(partial))?;
    let problems: Vec<String> = to
        .prepare("PRAGMA integrity_check")
        .and_then(|mut s| s.query_map([], |r| r.get::<_, String>(0))?.collect())
        .map_err(sqlite(partial))?;
    if problems != ["ok"] {
        return Err(BackupError::Damaged {
            path: source.to_path_buf(),
            why: problems.join("; "),
        });
    }
    let schema_version: i64 = to
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .map_err(sqlite(partial))?;
    let count = |table: &str| -> Result<u64, BackupError> {
        // a database from before a table existed has none of it
        let exists: bool = to
            .query_row(
                "SELECT EXISTS (SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?1)",
                [table],
                |r| r.get(0),
            )
            .map_err(sqlite(partial))?;
        if !exists {
            return Ok(0);
        }
        to.query_row(&format!("SELECT count(*) FROM {table}"), [], |r| r.get::<_, i64>(0))
            .map(|n| n.max(0) as u64)
            .map_err(sqlite(partial))
    };
    let (rooms, games, actions) = (count("rooms")?, count("games")?, count("actions")?);
    to.close().map_err(|(_, e)| sqlite(partial)(e))?;
    let file = File::open(partial).map_err(io(partial))?;
    file.sync_all().map_err(io(partial))?;
    let bytes = file.metadata().map_err(io(partial))?.len();
    Ok(BackupReport {
        path: partial.to_path_buf(),
        rooms,
        games,
        actions,
        bytes,
        schema_version,
    })
}

/// Creates the empty file `partial` readable by its owner only: a copy holds what the database
/// holds (SQLite keeps the permissions of a file it opens).
fn create_private(partial: &Path) -> Result<(), BackupError> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options.open(partial).map(drop).map_err(io(partial))
}

/// Gives the checked `partial` its name `to`, atomically: replacing an existing `to` only when
/// `overwrite`; then flushes the directory so that the name survives a crash.
fn publish(partial: &Path, to: &Path, overwrite: bool) -> Result<(), BackupError> {
    if overwrite {
        std::fs::rename(partial, to).map_err(io(to))?;
    } else {
        // a hard link fails if `to` appeared meanwhile: no check-then-rename race
        match std::fs::hard_link(partial, to) {
            Ok(()) => std::fs::remove_file(partial).map_err(io(partial))?,
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                return Err(BackupError::Exists(to.to_path_buf()));
            }
            // a file system without hard links: the check made before copying has to do
            Err(_) if !to.exists() => std::fs::rename(partial, to).map_err(io(to))?,
            Err(_) => return Err(BackupError::Exists(to.to_path_buf())),
        }
    }
    let dir = match to.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    File::open(dir).and_then(|d| d.sync_all()).map_err(io(dir))
}

#[cfg(test)]
#[path = "backup_tests.rs"]
mod tests;
