//! The `evr-server` command line: with flags only it serves (`Config`); `backup` and `restore`
//! copy the embedded SQLite database out of and into a data directory (`evr_store`'s
//! `sqlite/backup.rs` does the copying and the checks).

use std::path::PathBuf;

use clap::{Parser, Subcommand};
use evr_store::{BackupError, BackupReport, SqliteStore};

use crate::Config;

/// EvR Online match server. With no command it serves.
#[derive(Debug, Parser)]
#[command(name = "evr-server", version, about, args_conflicts_with_subcommands = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    #[command(flatten)]
    pub serve: Config,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Copy the SQLite database of a data directory to FILE while a server may be serving from
    /// it: a consistent snapshot of everything committed before the copy began, checked with
    /// SQLite's integrity check before it is given its name. (PostgreSQL: use pg_dump, see
    /// docker/README.md.)
    Backup(BackupArgs),
    /// Put a backup into an empty data directory as its database (checked first); then start the
    /// server with `--data-dir` on that directory.
    Restore(RestoreArgs),
}

#[derive(Debug, clap::Args)]
pub struct BackupArgs {
    /// The file to write (a temporary file beside it is renamed to it once checked).
    #[arg(long, value_name = "FILE")]
    pub to: PathBuf,
    /// The data directory whose database (`evr.sqlite3`) is copied.
    #[arg(long, env = "EVR_DATA_DIR", default_value = "data")]
    pub data_dir: PathBuf,
    /// Replace FILE if it exists (otherwise an existing FILE is refused).
    #[arg(long)]
    pub force: bool,
    /// The server's `--store`: a backup copies the embedded SQLite database only, so a PostgreSQL
    /// URL here is refused (read from `EVR_STORE`, so that a backup run beside a server on
    /// PostgreSQL does not copy an unused SQLite file).
    #[arg(long, env = "EVR_STORE", default_value = "", hide_env_values = true)]
    pub store: String,
}

#[derive(Debug, clap::Args)]
pub struct RestoreArgs {
    /// The backup to restore (a file written by `evr-server backup`).
    #[arg(long, value_name = "FILE")]
    pub from: PathBuf,
    /// The data directory to restore into: created if needed, and it must hold no database yet.
    #[arg(long, env = "EVR_DATA_DIR", default_value = "data")]
    pub data_dir: PathBuf,
}

/// Why a command failed.
#[derive(Debug, thiserror::Error)]
pub enum CommandError {
    #[error(transparent)]
    Backup(#[from] BackupError),
    #[error(
        "this server stores its rooms in PostgreSQL (--store / EVR_STORE): back it up with pg_dump (docker/README.md)"
    )]
    NotSqlite,
}

/// `evr-server backup`: the copy and what it holds.
pub fn backup(args: &BackupArgs) -> Result<BackupReport, CommandError> {
    if !args.store.trim().is_empty() {
        return Err(CommandError::NotSqlite);
    }
    Ok(SqliteStore::backup(&args.data_dir, &args.to, args.force)?)
}

/// `evr-server restore`: the database put in place and what it holds.
pub fn restore(args: &RestoreArgs) -> Result<BackupReport, CommandError> {
    Ok(SqliteStore::restore(&args.from, &args.data_dir)?)
}

/// One line saying what a copy holds.
pub fn describe(report: &BackupReport) -> String {
    format!(
        "{}: {} rooms, {} games, {} actions, {} bytes (schema version {}), integrity check ok",
        report.path.display(),
        report.rooms,
        report.games,
        report.actions,
        report.bytes,
        report.schema_version
    )
}
