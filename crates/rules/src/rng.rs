//! The game's random number generator: ChaCha20 (reproducible across releases, R-9.5), made
//! cloneable so that a `Game` can be copied (bots search on copies).

use std::convert::Infallible;

use rand::rngs::ChaCha20Rng;
use rand::{SeedableRng, TryRng};

/// A seeded ChaCha20 stream.
#[derive(Debug, PartialEq, Eq)]
pub struct GameRng(ChaCha20Rng);

impl GameRng {
    pub fn seed_from_u64(seed: u64) -> GameRng {
        GameRng(ChaCha20Rng::seed_from_u64(seed))
    }

    /// A 256-bit key used as ChaCha20's key, unchanged.
    pub fn from_key(key: [u8; 32]) -> GameRng {
        GameRng(ChaCha20Rng::from_seed(key))
    }
}

impl Clone for GameRng {
    /// The same seed, stream and position: the copy yields exactly what the original would.
    fn clone(&self) -> GameRng {
        let mut copy = ChaCha20Rng::from_seed(self.0.get_seed());
        copy.set_stream(self.0.get_stream());
        copy.set_word_pos(self.0.get_word_pos());
        GameRng(copy)
    }
}

impl TryRng for GameRng {
    type Error = Infallible;

    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        self.0.try_next_u32()
    }

    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        self.0.try_next_u64()
    }

    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), Infallible> {
        self.0.try_fill_bytes(dest)
    }
}

#[cfg(test)]
mod tests {
    use rand::RngExt;

    use super::GameRng;

    #[test]
    fn r9_5_a_cloned_rng_continues_the_same_stream() {
        let mut a = GameRng::seed_from_u64(7);
        for _ in 0..13 {
            let _: u32 = a.random();
        }
        let mut b = a.clone();
        let xs: Vec<u64> = (0..40).map(|_| a.random()).collect();
        let ys: Vec<u64> = (0..40).map(|_| b.random()).collect();
        assert_eq!(xs, ys);
        let mut c = GameRng::seed_from_u64(8);
        let zs: Vec<u64> = (0..40).map(|_| c.random()).collect();
        assert_ne!(xs, zs);
    }
}
