//! Replay files of finished games (`proto/REPLAY.md`) and their verification: a file is verified
//! when SHA-256(salt ‖ seed) is the commitment published at the game's start and the rules engine,
//! started from that seed, accepts every recorded action in order and ends with the recorded result.

mod commitment;
mod format;
mod verify;

pub use commitment::{commitment, hex};
pub use format::{FORMAT, Replay, ReplayAction, VERSION};
pub use verify::{Mismatch, Verified, verify};
