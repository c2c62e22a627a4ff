//! What a game's randomness starts from. New games take a 256-bit key straight from the
//! operating system: a 64-bit seed could in principle be searched from the shuffles a player sees.
//! Games stored before keys existed keep their 64-bit seed and replay exactly as they were played.

use crate::rng::GameRng;

/// A game's seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameSeed {
    /// A 64-bit seed, expanded by ChaCha20's `seed_from_u64` (games created before keys).
    Legacy(u64),
    /// A 256-bit ChaCha20 key used as it is.
    Key([u8; 32]),
}

impl GameSeed {
    pub(crate) fn rng(self) -> GameRng {
        match self {
            GameSeed::Legacy(seed) => GameRng::seed_from_u64(seed),
            GameSeed::Key(key) => GameRng::from_key(key),
        }
    }
}
