//! Usernames: what a player is found by and shown as. Written in NFKC (a full-width `Ｌ` is an `L`),
//! 2 to 20 letters of one writing system (mixing only as Japanese or Chinese text does, with Latin:
//! UTS #39's "highly restrictive"), digits, `_`, `-` and `.`, beginning with a letter or digit.
//! Two usernames are the same when their *keys* are: lower case, then Unicode's confusable
//! skeleton (UTS #39), so that `Luke`, `luke` and `1uke`, or a Latin and a Cyrillic `a`, cannot be
//! two players. The site's own words are reserved, and so is a deleted account's name (its key
//! stays in the store).

use evr_protocol::{ErrorCode, MAX_USERNAME_CHARS, MIN_USERNAME_CHARS};
use unicode_normalization::UnicodeNormalization;
use unicode_security::{RestrictionLevel, RestrictionLevelDetection, skeleton};

use crate::refusal::ApiError;

/// Words nobody may take as a name: they would speak for the site or stand for a seat.
const RESERVED: &[&str] = &[
    "admin",
    "administrator",
    "anonymous",
    "bot",
    "computer",
    "deleted",
    "evr",
    "evronline",
    "help",
    "imperial",
    "moderator",
    "null",
    "official",
    "rebel",
    "root",
    "security",
    "spectator",
    "staff",
    "support",
    "system",
];

/// A username as it will be stored, and its key.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Username {
    pub shown: String,
    pub key: String,
}

/// What makes two usernames the same.
pub(crate) fn key(name: &str) -> String {
    let lower: String = name.nfkc().collect::<String>().to_lowercase();
    skeleton(&lower).collect::<String>().to_lowercase()
}

/// `typed` as a username, or `bad_username` / `username_reserved` (whether another account has it
/// is the store's to say).
pub(crate) fn checked(typed: &str) -> Result<Username, ApiError> {
    let shown: String = typed.trim().nfkc().collect();
    let count = shown.chars().count();
    let bad = |why: &str| ApiError::new(ErrorCode::BadUsername, format!("a username {why}"));
    if !(MIN_USERNAME_CHARS..=MAX_USERNAME_CHARS).contains(&count) {
        return Err(bad("has 2 to 20 characters"));
    }
    if !shown
        .chars()
        .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.'))
    {
        return Err(bad("holds letters, digits, _, - and . only"));
    }
    if !shown.chars().next().is_some_and(char::is_alphanumeric) {
        return Err(bad("begins with a letter or a digit"));
    }
    let letters: String = shown.chars().filter(|c| c.is_alphanumeric()).collect();
    if !letters
        .as_str()
        .check_restriction_level(RestrictionLevel::HighlyRestrictive)
    {
        return Err(bad(
            "is written in one script (with Latin letters, as Japanese or Chinese text may)",
        ));
    }
    let key = key(&shown);
    if RESERVED.iter().any(|word| key == self::key(word)) {
        return Err(ApiError::new(ErrorCode::UsernameReserved, "this username is kept back"));
    }
    Ok(Username { shown, key })
}

#[cfg(test)]
mod tests {
    use super::{checked, key};

    #[test]
    fn look_alikes_and_case_are_one_name() {
        assert_eq!(key("Luke"), key("luke"));
        assert_eq!(key("luke"), key("1uke"));
        assert_eq!(key("Ｌｕｋｅ"), key("luke"));
        // a Cyrillic "а" in "vader"
        assert_eq!(key("v\u{430}der"), key("vader"));
        assert_ne!(key("luke"), key("leia"));
    }

    #[test]
    fn usernames_are_checked_and_written_in_nfkc() {
        assert_eq!(checked(" Ｌｕｋｅ ").map(|u| u.shown).ok(), Some("Luke".to_string()));
        assert!(checked("星際大戰").is_ok());
        assert!(checked("ルーク_skywalker").is_ok());
        assert!(checked("a").is_err(), "too short");
        assert!(checked("abcdefghijklmnopqrstu").is_err(), "21 characters");
        assert!(checked("luke skywalker").is_err(), "a space");
        assert!(checked("_luke").is_err(), "begins with _");
        assert!(checked("pаypal").is_err(), "Latin and Cyrillic mixed");
        assert!(checked("Admin").is_err(), "reserved");
        assert!(checked("\u{251}dmin").is_err(), "reserved by its look-alike (a Latin alpha)");
    }
}
