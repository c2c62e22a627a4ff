//! Tests only (feature `test-days`, `--test-event-log PATH`): each server appends a line for every
//! game it timed out and every reminder it handed over, so that a cluster test can count, across
//! processes killed with SIGKILL, that each happened once. Without the feature it is nothing.

#[cfg(feature = "test-days")]
mod imp {
    use std::io::Write;
    use std::path::Path;
    use std::sync::{Mutex, OnceLock};

    static LOG: OnceLock<Mutex<std::fs::File>> = OnceLock::new();

    /// Appends to `path` from now on (one line per write: `O_APPEND` keeps the nodes' lines whole).
    pub fn open(path: &Path) -> std::io::Result<()> {
        let file = std::fs::OpenOptions::new().create(true).append(true).open(path)?;
        let _ = LOG.set(Mutex::new(file));
        Ok(())
    }

    pub fn record(line: impl FnOnce() -> String) {
        if let Some(log) = LOG.get()
            && let Ok(mut f) = log.lock()
        {
            let _ = f.write_all(format!("{}\n", line()).as_bytes());
        }
    }
}

#[cfg(feature = "test-days")]
pub use imp::{open, record};

/// Without the feature: nothing is recorded.
#[cfg(not(feature = "test-days"))]
pub fn record(_line: impl FnOnce() -> String) {}
