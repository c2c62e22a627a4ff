//! Provably fair shuffles. Every game's randomness comes from a 256-bit key drawn from the
//! operating system. When the game starts, everyone (seats and spectators) is shown a commitment to
//! it, SHA-256(salt ‖ key), the random 128-bit salt keeping the key from being guessed through the
//! hash. The key and salt stay in the server until the game is over; then everyone gets them, so
//! anyone can check the commitment and replay the shuffles. Games stored before keys existed keep
//! their 64-bit seed, with no commitment.

use evr_protocol::Fairness;
use sha2::{Digest, Sha256};

/// The commitment formula and hex, shared with the verifier (`evr verify`).
pub use evr_replay::{commitment, hex};

/// A game's secret randomness, as the store keeps it.
pub use evr_store::GameSecret;

/// A fresh key and salt from the operating system.
pub fn generate() -> Result<GameSecret, std::io::Error> {
    Ok(GameSecret::Committed {
        key: crate::secrets::random_bytes::<32>()?,
        salt: crate::secrets::random_bytes::<16>()?,
    })
}

/// A key and salt derived from a number, for tests that need the same game every time
/// (`--test-fixed-seed`); never used otherwise.
pub fn for_test(seed: u64) -> GameSecret {
    let key: [u8; 32] = Sha256::new()
        .chain_update(b"evr test key")
        .chain_update(seed.to_le_bytes())
        .finalize()
        .into();
    let salt_hash: [u8; 32] = Sha256::new()
        .chain_update(b"evr test salt")
        .chain_update(seed.to_le_bytes())
        .finalize()
        .into();
    let mut salt = [0u8; 16];
    salt.copy_from_slice(&salt_hash[..16]);
    GameSecret::Committed { key, salt }
}

/// What a viewer of the game is told: the commitment, and the key and salt once the game is over.
/// `None` for a legacy game.
pub fn public(secret: &GameSecret, game_over: bool) -> Option<Fairness> {
    match secret {
        GameSecret::Legacy(_) => None,
        GameSecret::Committed { key, salt } => Some(Fairness {
            commitment: hex(&commitment(key, salt)),
            seed: game_over.then(|| hex(key)),
            salt: game_over.then(|| hex(salt)),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_commitment_is_sha256_of_salt_then_key() {
        let key = [1u8; 32];
        let salt = [2u8; 16];
        let mut bytes = salt.to_vec();
        bytes.extend_from_slice(&key);
        assert_eq!(commitment(&key, &salt).to_vec(), Sha256::digest(&bytes).to_vec());
    }

    #[test]
    fn key_and_salt_are_told_only_after_the_game() {
        let secret = for_test(7);
        let during = public(&secret, false).expect("a committed game");
        assert!(during.seed.is_none() && during.salt.is_none());
        let after = public(&secret, true).expect("a committed game");
        assert_eq!(after.commitment, during.commitment);
        let GameSecret::Committed { key, salt } = secret else {
            panic!("committed")
        };
        assert_eq!(after.seed, Some(hex(&key)));
        assert_eq!(after.salt, Some(hex(&salt)));
        assert_eq!(hex(&commitment(&key, &salt)), during.commitment);
        assert_eq!(public(&GameSecret::Legacy(5), true), None);
    }

    #[test]
    fn generated_secrets_differ() {
        let a = generate().expect("OS randomness");
        let b = generate().expect("OS randomness");
        assert_ne!(a, b);
    }
}
