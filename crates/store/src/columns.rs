//! How stored values become columns, the same in every store: factions as `rebel`/`imperial`,
//! options, actions, results and chat as JSON, a game's secret as a 64-bit seed (games stored
//! before keys) or a key and its salt.

use evr_rules::Faction;
use serde::Serialize;
use serde::de::DeserializeOwned;

use super::StoreError;
use crate::GameSecret;

/// The stored columns of a game's secret: `(seed, seed_key, seed_salt)`.
pub(super) fn secret_columns(secret: &GameSecret) -> (i64, Option<Vec<u8>>, Option<Vec<u8>>) {
    match secret {
        GameSecret::Legacy(seed) => (*seed, None, None),
        GameSecret::Committed { key, salt } => (0, Some(key.to_vec()), Some(salt.to_vec())),
    }
}

pub(super) fn secret_from_columns(
    seed: i64,
    key: Option<Vec<u8>>,
    salt: Option<Vec<u8>>,
    what: impl Fn() -> String,
) -> Result<GameSecret, StoreError> {
    match (key, salt) {
        (None, None) => Ok(GameSecret::Legacy(seed)),
        (Some(key), Some(salt)) => match (
            <[u8; 32]>::try_from(key.as_slice()),
            <[u8; 16]>::try_from(salt.as_slice()),
        ) {
            (Ok(key), Ok(salt)) => Ok(GameSecret::Committed { key, salt }),
            _ => Err(StoreError::Corrupt {
                what: format!("{}: seed key of {} bytes, salt of {}", what(), key.len(), salt.len()),
            }),
        },
        _ => Err(StoreError::Corrupt {
            what: format!("{}: a seed key without its salt (or the reverse)", what()),
        }),
    }
}

pub(super) fn faction_text(f: Faction) -> &'static str {
    match f {
        Faction::Rebel => "rebel",
        Faction::Imperial => "imperial",
    }
}

pub(super) fn faction_from_text(s: &str) -> Result<Faction, StoreError> {
    match s {
        "rebel" => Ok(Faction::Rebel),
        "imperial" => Ok(Faction::Imperial),
        other => Err(StoreError::Corrupt {
            what: format!("faction {other:?}"),
        }),
    }
}

pub(super) fn json(value: &impl Serialize) -> Result<String, serde_json::Error> {
    serde_json::to_string(value)
}

pub(super) fn from_json<T: DeserializeOwned>(text: &str, what: impl FnOnce() -> String) -> Result<T, StoreError> {
    serde_json::from_str(text).map_err(|e| StoreError::Corrupt {
        what: format!("{}: {e}", what()),
    })
}

/// An account's id (`accounts.rs`) as stored: 16 bytes.
pub(super) fn account_id_from_column(bytes: &[u8]) -> Result<crate::AccountId, StoreError> {
    crate::AccountId::try_from(bytes).map_err(|_| StoreError::Corrupt {
        what: format!("an account id of {} bytes", bytes.len()),
    })
}
