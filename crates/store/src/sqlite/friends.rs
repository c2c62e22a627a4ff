//! [`FriendStore`] on SQLite, as the accounts are kept (`sqlite/accounts.rs`): every write is one
//! immediate transaction on the writing connection between two group commits, so that writes are
//! one at a time (a crossing request, a block, a challenge's limit and its accept are atomic);
//! reads on the reading connection.

use rusqlite::{Connection, OptionalExtension, Row, params};

use super::SqliteStore;
use super::accounts::rows::id_at;
use crate::friends::{
    CHALLENGE, ChallengeCreated, ChallengesFrom, FriendLink, FriendRequested, FriendStore, LinkState, StoredChallenge,
};
use crate::{AccountId, StoreError};

/// The schema version that adds friends and challenges (`sqlite/schema.rs`, version 12).
pub(crate) const FRIENDS_SCHEMA: &str = "
CREATE TABLE friend_links (
    account_id BLOB NOT NULL REFERENCES accounts(id),
    other_id BLOB NOT NULL REFERENCES accounts(id),
    state TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (account_id, other_id)
);
CREATE INDEX friend_links_other ON friend_links (other_id, state);
CREATE TABLE friend_settings (
    account_id BLOB PRIMARY KEY REFERENCES accounts(id),
    challenges_from TEXT NOT NULL
);
CREATE TABLE challenges (
    id TEXT PRIMARY KEY,
    from_id BLOB NOT NULL REFERENCES accounts(id),
    to_id BLOB NOT NULL REFERENCES accounts(id),
    options TEXT NOT NULL,
    rated INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    status TEXT NOT NULL,
    room_code TEXT
);
CREATE INDEX challenges_from ON challenges (from_id, status, expires_at);
CREATE INDEX challenges_to ON challenges (to_id, status, expires_at);
CREATE INDEX challenges_room ON challenges (room_code);
CREATE INDEX challenges_expiry ON challenges (status, expires_at);
";

fn challenge_row(r: &Row<'_>) -> rusqlite::Result<(StoredChallenge, String)> {
    Ok((
        StoredChallenge {
            id: r.get(0)?,
            from: id_at(r, 1)?,
            to: id_at(r, 2)?,
            // decoded by `decoded` (a rusqlite error cannot say "corrupt JSON" well)
            options: PLACEHOLDER_OPTIONS,
            rated: r.get(4)?,
            created_at: r.get(5)?,
            expires_at: r.get(6)?,
            room_code: r.get(7)?,
        },
        r.get(3)?,
    ))
}

const PLACEHOLDER_OPTIONS: evr_protocol::RoomOptions = evr_protocol::RoomOptions {
    side: evr_protocol::SideChoice::Random,
    mode: evr_rules::Mode::Full,
    spectators: evr_protocol::SpectatorPolicy::Off,
    opponent: None,
    reveal_at_end: false,
    clock: None,
    rated: false,
};

/// The challenge with its options decoded from their JSON.
fn decoded((mut challenge, options): (StoredChallenge, String)) -> Result<StoredChallenge, StoreError> {
    challenge.options = serde_json::from_str(&options).map_err(|e| StoreError::Corrupt {
        what: format!("challenge {}'s options: {e}", challenge.id),
    })?;
    Ok(challenge)
}

fn state_of(text: &str, mine: bool) -> Result<LinkState, StoreError> {
    match (text, mine) {
        ("friend", _) => Ok(LinkState::Friends),
        ("requested", true) => Ok(LinkState::RequestSent),
        ("requested", false) => Ok(LinkState::RequestReceived),
        ("blocked", true) => Ok(LinkState::Blocked),
        (other, _) => Err(StoreError::Corrupt {
            what: format!("a friend link {other:?}"),
        }),
    }
}

/// The state of the row `a` → `b`, if any.
fn link(c: &Connection, a: &[u8], b: &[u8]) -> rusqlite::Result<Option<String>> {
    c.prepare_cached("SELECT state FROM friend_links WHERE account_id = ?1 AND other_id = ?2")?
        .query_row(params![a, b], |r| r.get(0))
        .optional()
}

/// Deletes every row between `a` and `b` but the blocks, and their open challenges: how many
/// links went.
fn unlink(c: &Connection, a: &[u8], b: &[u8]) -> rusqlite::Result<usize> {
    let links = c
        .prepare_cached(
            "DELETE FROM friend_links WHERE state <> 'blocked'
             AND ((account_id = ?1 AND other_id = ?2) OR (account_id = ?2 AND other_id = ?1))",
        )?
        .execute(params![a, b])?;
    c.prepare_cached(
        "DELETE FROM challenges WHERE status = 'open'
         AND ((from_id = ?1 AND to_id = ?2) OR (from_id = ?2 AND to_id = ?1))",
    )?
    .execute(params![a, b])?;
    Ok(links)
}

impl FriendStore for SqliteStore {
    fn request_friend(
        &self,
        from: &AccountId,
        to: &AccountId,
        now_ms: i64,
        limit: u32,
    ) -> Result<FriendRequested, StoreError> {
        let (a, b) = (from.as_slice(), to.as_slice());
        self.account_write(|tx| {
            match link(tx, a, b)?.as_deref() {
                Some("friend") => return Ok(FriendRequested::AlreadyFriends),
                Some("blocked") => return Ok(FriendRequested::AskerBlocked),
                Some(_) => return Ok(FriendRequested::Sent),
                None => {}
            }
            match link(tx, b, a)?.as_deref() {
                Some("blocked") => return Ok(FriendRequested::Ignored),
                Some("requested") => {
                    // the other asked too: one friendship, both ways
                    tx.prepare_cached("UPDATE friend_links SET state = 'friend', created_at = ?3 WHERE account_id = ?2 AND other_id = ?1")?
                        .execute(params![a, b, now_ms])?;
                    tx.prepare_cached("INSERT INTO friend_links (account_id, other_id, state, created_at) VALUES (?1, ?2, 'friend', ?3)")?
                        .execute(params![a, b, now_ms])?;
                    return Ok(FriendRequested::BecameFriends);
                }
                _ => {}
            }
            let count: i64 = tx
                .prepare_cached("SELECT COUNT(*) FROM friend_links WHERE account_id = ?1 AND state <> 'blocked'")?
                .query_row([a], |r| r.get(0))?;
            if count >= i64::from(limit) {
                return Ok(FriendRequested::TooMany);
            }
            tx.prepare_cached(
                "INSERT INTO friend_links (account_id, other_id, state, created_at) VALUES (?1, ?2, 'requested', ?3)",
            )?
            .execute(params![a, b, now_ms])?;
            Ok(FriendRequested::Sent)
        })
    }

    fn accept_friend(&self, account: &AccountId, from: &AccountId, now_ms: i64) -> Result<bool, StoreError> {
        let (me, them) = (account.as_slice(), from.as_slice());
        self.account_write(|tx| {
            let taken = tx
                .prepare_cached(
                    "UPDATE friend_links SET state = 'friend', created_at = ?3
                     WHERE account_id = ?1 AND other_id = ?2 AND state = 'requested'",
                )?
                .execute(params![them, me, now_ms])?;
            if taken == 0 {
                return Ok(false);
            }
            tx.prepare_cached(
                "INSERT INTO friend_links (account_id, other_id, state, created_at) VALUES (?1, ?2, 'friend', ?3)
                 ON CONFLICT (account_id, other_id) DO UPDATE SET state = 'friend', created_at = ?3",
            )?
            .execute(params![me, them, now_ms])?;
            Ok(true)
        })
    }

    fn remove_friend(&self, account: &AccountId, other: &AccountId) -> Result<bool, StoreError> {
        let (a, b) = (account.as_slice(), other.as_slice());
        self.account_write(|tx| unlink(tx, a, b).map(|n| n > 0))
    }

    fn block(&self, account: &AccountId, other: &AccountId, now_ms: i64) -> Result<(), StoreError> {
        let (a, b) = (account.as_slice(), other.as_slice());
        self.account_write(|tx| {
            unlink(tx, a, b)?;
            tx.prepare_cached(
                "INSERT INTO friend_links (account_id, other_id, state, created_at) VALUES (?1, ?2, 'blocked', ?3)
                 ON CONFLICT (account_id, other_id) DO NOTHING",
            )?
            .execute(params![a, b, now_ms])?;
            Ok(())
        })
    }

    fn unblock(&self, account: &AccountId, other: &AccountId) -> Result<bool, StoreError> {
        let (a, b) = (account.as_slice(), other.as_slice());
        self.account_write(|tx| {
            tx.prepare_cached("DELETE FROM friend_links WHERE account_id = ?1 AND other_id = ?2 AND state = 'blocked'")?
                .execute(params![a, b])
                .map(|n| n > 0)
        })
    }

    fn links(&self, account: &AccountId) -> Result<Vec<FriendLink>, StoreError> {
        let rows = self.account_read(|c| {
            let mut stmt = c.prepare_cached(
                "SELECT other_id, state, created_at, 1 FROM friend_links WHERE account_id = ?1
                 UNION ALL
                 SELECT account_id, state, created_at, 0 FROM friend_links WHERE other_id = ?1 AND state = 'requested'
                 ORDER BY 3 DESC, 1",
            )?;
            let rows = stmt.query_map([account.as_slice()], |r| {
                Ok((
                    id_at(r, 0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, i64>(2)?,
                    r.get::<_, bool>(3)?,
                ))
            })?;
            rows.collect::<rusqlite::Result<Vec<_>>>()
        })?;
        rows.into_iter()
            .map(|(other, state, since, mine)| {
                Ok(FriendLink {
                    other,
                    state: state_of(&state, mine)?,
                    since,
                })
            })
            .collect()
    }

    fn are_friends(&self, a: &AccountId, b: &AccountId) -> Result<bool, StoreError> {
        self.account_read(|c| Ok(link(c, a.as_slice(), b.as_slice())?.as_deref() == Some("friend")))
    }

    fn challenges_from(&self, account: &AccountId) -> Result<ChallengesFrom, StoreError> {
        let stored = self.account_read(|c| {
            c.prepare_cached("SELECT challenges_from FROM friend_settings WHERE account_id = ?1")?
                .query_row([account.as_slice()], |r| r.get::<_, String>(0))
                .optional()
        })?;
        stored
            .map(|s| ChallengesFrom::from_text(&s))
            .transpose()
            .map(Option::unwrap_or_default)
    }

    fn set_challenges_from(&self, account: &AccountId, from: ChallengesFrom) -> Result<(), StoreError> {
        self.account_write(|tx| {
            tx.prepare_cached(
                "INSERT INTO friend_settings (account_id, challenges_from) VALUES (?1, ?2)
                 ON CONFLICT (account_id) DO UPDATE SET challenges_from = ?2",
            )?
            .execute(params![account.as_slice(), from.as_str()])
            .map(|_| ())
        })
    }

    fn last_seen(&self, account: &AccountId) -> Result<Option<i64>, StoreError> {
        self.account_read(|c| {
            c.prepare_cached("SELECT MAX(last_seen_at) FROM account_sessions WHERE account_id = ?1")?
                .query_row([account.as_slice()], |r| r.get(0))
        })
    }

    fn create_challenge(
        &self,
        challenge: &StoredChallenge,
        now_ms: i64,
        limit: u32,
    ) -> Result<ChallengeCreated, StoreError> {
        let options = serde_json::to_string(&challenge.options).map_err(|e| StoreError::Write(e.to_string()))?;
        let (a, b) = (challenge.from.as_slice(), challenge.to.as_slice());
        self.account_write(|tx| {
            if link(tx, a, b)?.as_deref() != Some("friend") || link(tx, b, a)?.as_deref() != Some("friend") {
                return Ok(ChallengeCreated::NotFriends);
            }
            let setting: Option<String> = tx
                .prepare_cached("SELECT challenges_from FROM friend_settings WHERE account_id = ?1")?
                .query_row([b], |r| r.get(0))
                .optional()?;
            if setting.as_deref() == Some("nobody") {
                return Ok(ChallengeCreated::Closed);
            }
            let open: i64 = tx
                .prepare_cached(
                    "SELECT COUNT(*) FROM challenges WHERE from_id = ?1 AND status = 'open' AND expires_at > ?2",
                )?
                .query_row(params![a, now_ms], |r| r.get(0))?;
            if open >= i64::from(limit) {
                return Ok(ChallengeCreated::TooMany);
            }
            tx.prepare_cached(
                "INSERT INTO challenges (id, from_id, to_id, options, rated, created_at, expires_at, status, room_code)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 'open', NULL)",
            )?
            .execute(params![
                challenge.id,
                a,
                b,
                options,
                challenge.rated,
                challenge.created_at,
                challenge.expires_at
            ])?;
            Ok(ChallengeCreated::Created)
        })
    }

    fn open_challenges(
        &self,
        account: &AccountId,
        now_ms: i64,
        limit: u32,
    ) -> Result<Vec<StoredChallenge>, StoreError> {
        let sql = format!(
            "SELECT {CHALLENGE} FROM challenges WHERE status = 'open' AND expires_at > ?2 AND from_id = ?1
             UNION ALL
             SELECT {CHALLENGE} FROM challenges WHERE status = 'open' AND expires_at > ?2 AND to_id = ?1
             ORDER BY created_at DESC, id LIMIT ?3"
        );
        let rows = self.account_read(|c| {
            let mut stmt = c.prepare_cached(&sql)?;
            let rows = stmt.query_map(params![account.as_slice(), now_ms, limit], challenge_row)?;
            rows.collect::<rusqlite::Result<Vec<_>>>()
        })?;
        rows.into_iter().map(decoded).collect()
    }

    fn accepted_challenges(
        &self,
        from: &AccountId,
        now_ms: i64,
        limit: u32,
    ) -> Result<Vec<StoredChallenge>, StoreError> {
        let sql = format!(
            "SELECT {CHALLENGE} FROM challenges WHERE from_id = ?1 AND status = 'accepted' AND expires_at > ?2
             ORDER BY created_at DESC, id LIMIT ?3"
        );
        let rows = self.account_read(|c| {
            let mut stmt = c.prepare_cached(&sql)?;
            let rows = stmt.query_map(params![from.as_slice(), now_ms, limit], challenge_row)?;
            rows.collect::<rusqlite::Result<Vec<_>>>()
        })?;
        rows.into_iter().map(decoded).collect()
    }

    fn accept_challenge(
        &self,
        id: &str,
        to: &AccountId,
        room_code: &str,
        now_ms: i64,
    ) -> Result<Option<StoredChallenge>, StoreError> {
        let sql = format!(
            "UPDATE challenges SET status = 'accepted', room_code = ?3
             WHERE id = ?1 AND to_id = ?2 AND status = 'open' AND expires_at > ?4 RETURNING {CHALLENGE}"
        );
        let taken = self.account_write(|tx| {
            tx.prepare_cached(&sql)?
                .query_row(params![id, to.as_slice(), room_code, now_ms], challenge_row)
                .optional()
        })?;
        taken.map(decoded).transpose()
    }

    fn reopen_challenge(&self, id: &str) -> Result<(), StoreError> {
        self.account_write(|tx| {
            tx.prepare_cached("UPDATE challenges SET status = 'open', room_code = NULL WHERE id = ?1")?
                .execute([id])
                .map(|_| ())
        })
    }

    fn drop_challenge(&self, id: &str, account: &AccountId, as_challenger: bool) -> Result<bool, StoreError> {
        let sql = if as_challenger {
            "DELETE FROM challenges WHERE id = ?1 AND from_id = ?2 AND status = 'open'"
        } else {
            "DELETE FROM challenges WHERE id = ?1 AND to_id = ?2 AND status = 'open'"
        };
        self.account_write(|tx| {
            tx.prepare_cached(sql)?
                .execute(params![id, account.as_slice()])
                .map(|n| n > 0)
        })
    }

    fn challenge_of_room(&self, code: &str) -> Result<Option<StoredChallenge>, StoreError> {
        let sql = format!("SELECT {CHALLENGE} FROM challenges WHERE room_code = ?1 AND status = 'accepted'");
        let row = self.account_read(|c| c.prepare_cached(&sql)?.query_row([code], challenge_row).optional())?;
        row.map(decoded).transpose()
    }

    fn purge_challenges(&self, now_ms: i64) -> Result<u64, StoreError> {
        self.account_write(|tx| {
            tx.prepare_cached("DELETE FROM challenges WHERE status = 'open' AND expires_at <= ?1")?
                .execute([now_ms])
                .map(|n| n as u64)
        })
    }
}
