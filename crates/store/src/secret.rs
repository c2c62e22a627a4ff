//! A game's secret randomness as it is stored: a 64-bit seed for games created before keys, or a
//! 256-bit key and the salt of its commitment. What a viewer is told of it, and how a new one is
//! drawn, are the server's business (`evr-server`'s `fairness`); the store only keeps it.

use evr_rules::GameSeed;

/// A game's secret randomness, as the server holds and stores it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameSecret {
    /// A 64-bit seed of a game created before keys (no commitment was shown for it).
    Legacy(i64),
    /// The game's key and the salt of its commitment.
    Committed { key: [u8; 32], salt: [u8; 16] },
}

impl GameSecret {
    /// What the rules engine draws every shuffle and random choice from.
    pub fn game_seed(&self) -> GameSeed {
        match *self {
            GameSecret::Legacy(seed) => GameSeed::Legacy(seed as u64),
            GameSecret::Committed { key, .. } => GameSeed::Key(key),
        }
    }
}
