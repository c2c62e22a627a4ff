//! The commitment to a game's seed, SHA-256(salt ‖ seed), shared by the server (which publishes it)
//! and the verifier (which checks it), so both compute exactly the same thing.

use sha2::{Digest, Sha256};

/// SHA-256(salt ‖ seed): the 16-byte salt, then the 32-byte seed.
pub fn commitment(seed: &[u8; 32], salt: &[u8; 16]) -> [u8; 32] {
    Sha256::new().chain_update(salt).chain_update(seed).finalize().into()
}

/// Lowercase hexadecimal, as the wire and the replay file write bytes.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
