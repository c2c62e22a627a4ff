//! Room codes and seat tokens. Codes are short but unguessable (50 bits in an alphabet without
//! look-alike characters); tokens are 128-bit secrets that the server stores only as SHA-256 hashes.

use rand::TryRng;
use rand::rngs::SysRng;
use sha2::{Digest, Sha256};

/// 32 characters without 0/O, 1/I/L and U: five bits each.
const CODE_ALPHABET: &[u8; 32] = b"23456789ABCDEFGHJKMNPQRSTVWXYZab";
/// 10 characters × 5 bits = 50 bits.
pub const CODE_LEN: usize = 10;

fn random_bytes<const N: usize>() -> Result<[u8; N], std::io::Error> {
    let mut buf = [0u8; N];
    SysRng
        .try_fill_bytes(&mut buf)
        .map_err(|e| std::io::Error::other(e.to_string()))?;
    Ok(buf)
}

/// A new room code.
pub fn new_room_code() -> Result<String, std::io::Error> {
    let bytes = random_bytes::<CODE_LEN>()?;
    Ok(bytes.iter().map(|b| CODE_ALPHABET[(b & 31) as usize] as char).collect())
}

/// Whether `code` could be a room code (checked before any lookup).
pub fn is_room_code(code: &str) -> bool {
    code.len() == CODE_LEN && code.bytes().all(|b| CODE_ALPHABET.contains(&b))
}

/// A new 128-bit secret, as 32 lowercase hex digits.
pub fn new_token() -> Result<String, std::io::Error> {
    let bytes = random_bytes::<16>()?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// A 64-bit game seed from the operating system.
pub fn new_seed() -> Result<i64, std::io::Error> {
    Ok(i64::from_le_bytes(random_bytes::<8>()?))
}

/// What the store keeps instead of a token.
pub fn hash_token(token: &str) -> Vec<u8> {
    Sha256::digest(token.as_bytes()).to_vec()
}

/// Constant-time comparison of a presented token with a stored hash.
pub fn token_matches(token: &str, hash: &[u8]) -> bool {
    let presented = hash_token(token);
    presented.len() == hash.len() && presented.iter().zip(hash).fold(0u8, |acc, (a, b)| acc | (a ^ b)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_have_fifty_bits_in_the_alphabet() {
        let a = new_room_code().unwrap();
        let b = new_room_code().unwrap();
        assert!(is_room_code(&a) && is_room_code(&b));
        assert_ne!(a, b);
        assert_eq!(CODE_ALPHABET.len(), 32);
        assert!(!is_room_code("0000000000"));
        assert!(!is_room_code("ABC"));
    }

    #[test]
    fn tokens_are_stored_as_hashes_and_compared() {
        let t = new_token().unwrap();
        assert_eq!(t.len(), 32);
        let h = hash_token(&t);
        assert!(token_matches(&t, &h));
        assert!(!token_matches(&new_token().unwrap(), &h));
        assert!(!token_matches(&t, &h[..31]));
    }
}
