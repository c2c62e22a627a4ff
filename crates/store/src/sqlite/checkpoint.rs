//! Copying the write-ahead log back into the database (a checkpoint) on a thread of its own.
//!
//! Why: a checkpoint ends with an `fsync`, which on this kind of disk takes milliseconds. Run by
//! the writing connection (SQLite's default, every 1,000 pages), every commit queued behind it
//! waited too, and at 6,000 live matches that wait was the 99th percentile of the whole server. A
//! `PASSIVE` checkpoint from another connection never blocks the writer: the writer keeps
//! appending to the log while the checkpointer copies what was committed before it started.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

use rusqlite::Connection;

use crate::StoreError;

/// How often the checkpointer runs.
const EVERY: Duration = Duration::from_millis(200);

/// The writer's own automatic checkpoint, kept only as a safety net for a checkpointer that
/// cannot keep up (the log would otherwise grow without bound): 64 MiB of 4 KiB pages.
pub(super) const WRITER_AUTOCHECKPOINT_PAGES: u32 = 16_384;

/// The running checkpointer; [`Checkpointer::stop`] runs a last checkpoint and joins it.
pub(super) struct Checkpointer {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Checkpointer {
    pub(super) fn start(conn: Connection, path: &Path) -> Result<Checkpointer, StoreError> {
        let stop = Arc::new(AtomicBool::new(false));
        let stopping = stop.clone();
        let thread = std::thread::Builder::new()
            .name("evr-store-checkpoint".into())
            .spawn(move || {
                while !stopping.load(Ordering::Acquire) {
                    std::thread::park_timeout(EVERY);
                    checkpoint(&conn);
                }
            })
            .map_err(|e| StoreError::DataDir(path.to_path_buf(), e))?;
        Ok(Checkpointer {
            stop,
            thread: Some(thread),
        })
    }

    pub(super) fn stop(&mut self) {
        self.stop.store(true, Ordering::Release);
        if let Some(t) = self.thread.take() {
            t.thread().unpark();
            let _ = t.join();
        }
    }
}

impl Drop for Checkpointer {
    fn drop(&mut self) {
        self.stop();
    }
}

fn checkpoint(conn: &Connection) {
    // (busy, pages in the log, pages copied): nothing to act on, a failure is tried again later
    let done = conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |r| {
        Ok((r.get::<_, i64>(0)?, r.get::<_, i64>(1)?, r.get::<_, i64>(2)?))
    });
    if let Err(e) = done {
        tracing::warn!(error = %e, "WAL checkpoint failed");
    }
}
