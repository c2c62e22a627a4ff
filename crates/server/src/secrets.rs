//! Room codes and seat tokens. Codes are typed by people and read aloud: 8 characters of
//! Crockford's base32 (40 bits; no I, L, O or U), shown in two groups (`KJCH-M97E`) and read
//! case-insensitively, with the look-alikes a person may type (O for 0, I or L for 1) taken as the
//! character they resemble. Tokens are 128-bit secrets that the server stores only as SHA-256 hashes.

use rand::TryRng;
use rand::rngs::SysRng;
use sha2::{Digest, Sha256};

/// Crockford's base32: 32 characters, five bits each; I, L, O and U never appear.
const CODE_ALPHABET: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";
/// 8 characters × 5 bits = 40 bits.
pub const CODE_LEN: usize = 8;
/// Codes of rooms created before the current format (10 case-sensitive characters, 50 bits); they
/// keep working exactly as they were written.
const LEGACY_ALPHABET: &[u8; 32] = b"23456789ABCDEFGHJKMNPQRSTVWXYZab";
const LEGACY_LEN: usize = 10;

pub(crate) fn random_bytes<const N: usize>() -> Result<[u8; N], std::io::Error> {
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

/// The room code a person meant by `typed` (any case, with or without the group separator, O for
/// 0, I or L for 1), or `None` if it cannot be a room code. Checked before any lookup.
///
/// Only letters, digits and `-` are read: the front door (`docker/haproxy.cfg`) sends a room's
/// requests to one node by hashing the code as this function writes it, decoding the path and
/// then doing what this does to those characters; a spelling it would hash otherwise (a space, a
/// character of another script) reached another node, which took the room over and sent its
/// players reconnecting. The web client reads what people type (spaces too) before it builds an
/// address (`web-client/src/net/roomCode.ts`).
pub fn canonical_room_code(typed: &str) -> Option<String> {
    if !typed.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-') {
        return None;
    }
    let kept: String = typed.chars().filter(|c| *c != '-').collect();
    if kept.len() == LEGACY_LEN && kept.bytes().all(|b| LEGACY_ALPHABET.contains(&b)) {
        return Some(kept);
    }
    let code: String = kept
        .chars()
        .map(|c| match c.to_ascii_uppercase() {
            'O' => '0',
            'I' | 'L' => '1',
            c => c,
        })
        .collect();
    (code.len() == CODE_LEN && code.bytes().all(|b| CODE_ALPHABET.contains(&b))).then_some(code)
}

/// A new 128-bit secret, as 32 lowercase hex digits.
pub fn new_token() -> Result<String, std::io::Error> {
    let bytes = random_bytes::<16>()?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// 64 random bits from the operating system: the computer opponent's own randomness and a random
/// side. (A game's shuffles come from a 256-bit key: `crate::fairness`.)
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
    fn codes_have_forty_bits_without_look_alikes() {
        let a = new_room_code().unwrap();
        let b = new_room_code().unwrap();
        assert_eq!(canonical_room_code(&a).as_deref(), Some(a.as_str()));
        assert_ne!(a, b);
        assert_eq!(a.len(), CODE_LEN);
        assert_eq!(CODE_ALPHABET.len(), 32, "five bits a character, 40 bits a code");
        for look_alike in [b'I', b'L', b'O', b'U'] {
            assert!(!CODE_ALPHABET.contains(&look_alike));
        }
    }

    #[test]
    fn codes_are_read_as_people_type_them() {
        let code = Some("KJCHM97E".to_string());
        for typed in ["KJCHM97E", "kjch-m97e", "Kjch-M97e", "KJ-CH-M97E"] {
            assert_eq!(canonical_room_code(typed), code, "{typed:?}");
        }
        // what the front door would hash otherwise (it decodes the path, then reads letters,
        // digits and dashes as this does): refused, never looked up
        for typed in [
            " KJCH M97E ",
            "KJCH M97E",
            "KJCH\tM97E",
            "KJCH%20M97E",
            "ＫJCHM97E",
            "KJCH_M97E",
            "KJCH.M97E",
        ] {
            assert_eq!(canonical_room_code(typed), None, "{typed:?}");
        }
        assert_eq!(
            canonical_room_code("1o1I-l0ab").as_deref(),
            Some("101110AB"),
            "O is 0, I and L are 1"
        );
        assert_eq!(canonical_room_code("KJCH-M97"), None, "too short");
        assert_eq!(canonical_room_code("KJCH-M97E2"), None, "too long");
        assert_eq!(canonical_room_code("KJCH-M97!"), None);
        assert_eq!(canonical_room_code("KJCH-U97E"), None, "U is never in a code");
        // Rooms made before this format keep their exact, case-sensitive codes.
        assert_eq!(canonical_room_code("Q7XKMB4a2T").as_deref(), Some("Q7XKMB4a2T"));
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
