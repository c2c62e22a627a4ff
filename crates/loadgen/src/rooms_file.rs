//! `--rooms-file`: one JSON line per room as the match goes, for tests that pick the games up
//! after the load generator (a restored backup's rooms resumed by their seats, `evr-server`'s
//! backup test): `{"code", "creator_token", "guest_token"}` once both seats are taken, then
//! `{"code", "over": true}` once both players saw the game end, or `{"code", "stopped_at": seq}`
//! when the driver stopped playing it (`--actions-per-match`, the run's end) with the game still on.
//!
//! The file holds seat tokens (whoever has one plays that seat): it is created readable by its
//! owner only. Lines are appended whole, in one write each, so driver processes may share it.

use std::fs::File;
use std::io::Write;
use std::path::Path;
use std::sync::Mutex;

use anyhow::{Context, Result};
use serde::Serialize;

pub struct RoomsFile {
    file: Mutex<File>,
}

#[derive(Serialize)]
#[serde(untagged)]
enum Line<'a> {
    Seated {
        code: &'a str,
        creator_token: &'a str,
        guest_token: &'a str,
    },
    Over {
        code: &'a str,
        over: bool,
    },
    Stopped {
        code: &'a str,
        stopped_at: u64,
    },
}

impl RoomsFile {
    /// Opens `path` for appending (creating it, owner-only).
    pub fn open(path: &Path) -> Result<RoomsFile> {
        let mut options = std::fs::OpenOptions::new();
        options.append(true).create(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        let file = options
            .open(path)
            .with_context(|| format!("opening --rooms-file {}", path.display()))?;
        Ok(RoomsFile { file: Mutex::new(file) })
    }

    fn write(&self, line: &Line<'_>) -> Result<()> {
        let mut text = serde_json::to_string(line)?;
        text.push('\n');
        let mut file = self
            .file
            .lock()
            .map_err(|_| anyhow::anyhow!("the rooms file's lock was poisoned"))?;
        // one write of the whole line (O_APPEND): readers never see half a line from two writers
        file.write_all(text.as_bytes()).context("writing the rooms file")?;
        file.flush().context("writing the rooms file")
    }

    pub fn seated(&self, code: &str, creator_token: &str, guest_token: &str) -> Result<()> {
        self.write(&Line::Seated {
            code,
            creator_token,
            guest_token,
        })
    }

    pub fn over(&self, code: &str) -> Result<()> {
        self.write(&Line::Over { code, over: true })
    }

    pub fn stopped(&self, code: &str, seq: u64) -> Result<()> {
        self.write(&Line::Stopped { code, stopped_at: seq })
    }
}
