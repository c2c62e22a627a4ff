//! [`FriendStore`] on PostgreSQL, as the accounts are kept (`postgres/accounts.rs`): a read is
//! one statement on the reading connection; a write is one transaction on the accounts' own
//! connection. Between nodes: the two accounts' pair is locked (`pg_advisory_xact_lock` on the
//! pair, the same whichever way round) before a request, a block or a removal reads what is
//! between them, so two requests crossing become one friendship; a challenger's open challenges
//! are counted under a lock on the challenger's row; a challenge is accepted by one
//! `UPDATE … WHERE status = 'open' … RETURNING`, which one transaction at a time gets.

use futures_util::FutureExt;
use tokio_postgres::{Row, Transaction};

use super::PostgresStore;
use super::accounts::rows::{Param, bytes, get, id_at, read_error, text, write_error};
use crate::friends::{
    CHALLENGE, ChallengeCreated, ChallengesFrom, FriendLink, FriendRequested, FriendStore, LinkState, StoredChallenge,
};
use crate::{AccountId, StoreError};

/// The schema version that adds friends and challenges (`postgres/schema.rs`, version 6), as
/// SQLite's (`sqlite/friends.rs`).
pub(crate) const FRIENDS_SCHEMA: &str = "
CREATE TABLE friend_links (
    account_id BYTEA NOT NULL REFERENCES accounts(id),
    other_id BYTEA NOT NULL REFERENCES accounts(id),
    state TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (account_id, other_id)
);
CREATE INDEX friend_links_other ON friend_links (other_id, state);
CREATE TABLE friend_settings (
    account_id BYTEA PRIMARY KEY REFERENCES accounts(id),
    challenges_from TEXT NOT NULL
);
CREATE TABLE challenges (
    id TEXT PRIMARY KEY,
    from_id BYTEA NOT NULL REFERENCES accounts(id),
    to_id BYTEA NOT NULL REFERENCES accounts(id),
    options TEXT NOT NULL,
    rated BOOLEAN NOT NULL,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    status TEXT NOT NULL,
    room_code TEXT
);
CREATE INDEX challenges_from ON challenges (from_id, status, expires_at);
CREATE INDEX challenges_to ON challenges (to_id, status, expires_at);
CREATE INDEX challenges_room ON challenges (room_code);
CREATE INDEX challenges_expiry ON challenges (status, expires_at);
";

type PgResult<T> = Result<T, tokio_postgres::Error>;

fn challenge_row(r: &Row) -> Result<StoredChallenge, StoreError> {
    let id: String = get(r, 0)?;
    let options: String = get(r, 3)?;
    let options = serde_json::from_str(&options).map_err(|e| StoreError::Corrupt {
        what: format!("challenge {id}'s options: {e}"),
    })?;
    Ok(StoredChallenge {
        from: id_at(r, 1)?,
        to: id_at(r, 2)?,
        options,
        rated: get(r, 4)?,
        created_at: get(r, 5)?,
        expires_at: get(r, 6)?,
        room_code: get(r, 7)?,
        id,
    })
}

/// Locks the pair `a`, `b` (either order) until the transaction ends.
async fn lock_pair(tx: &Transaction<'_>, a: &[u8], b: &[u8]) -> PgResult<()> {
    let (low, high) = if a <= b { (a, b) } else { (b, a) };
    let key = format!("evr friends {}{}", hex(low), hex(high));
    tx.execute("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", &[&key])
        .await
        .map(|_| ())
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

async fn link(tx: &Transaction<'_>, a: &[u8], b: &[u8]) -> PgResult<Option<String>> {
    let row = tx
        .query_opt(
            "SELECT state FROM friend_links WHERE account_id = $1 AND other_id = $2",
            &[&a, &b],
        )
        .await?;
    row.map(|r| r.try_get(0)).transpose()
}

/// As SQLite's: every row between them but the blocks, and their open challenges.
async fn unlink(tx: &Transaction<'_>, a: &[u8], b: &[u8]) -> PgResult<u64> {
    let links = tx
        .execute(
            "DELETE FROM friend_links WHERE state <> 'blocked'
             AND ((account_id = $1 AND other_id = $2) OR (account_id = $2 AND other_id = $1))",
            &[&a, &b],
        )
        .await?;
    tx.execute(
        "DELETE FROM challenges WHERE status = 'open'
         AND ((from_id = $1 AND to_id = $2) OR (from_id = $2 AND to_id = $1))",
        &[&a, &b],
    )
    .await?;
    Ok(links)
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

impl FriendStore for PostgresStore {
    fn request_friend(
        &self,
        from: &AccountId,
        to: &AccountId,
        now_ms: i64,
        limit: u32,
    ) -> Result<FriendRequested, StoreError> {
        let (a, b) = (from.to_vec(), to.to_vec());
        self.account_tx(move |tx| {
            async move {
                lock_pair(&tx, &a, &b).await?;
                match link(&tx, &a, &b).await?.as_deref() {
                    Some("friend") => return Ok(FriendRequested::AlreadyFriends),
                    Some("blocked") => return Ok(FriendRequested::AskerBlocked),
                    Some(_) => return Ok(FriendRequested::Sent),
                    None => {}
                }
                match link(&tx, &b, &a).await?.as_deref() {
                    Some("blocked") => return Ok(FriendRequested::Ignored),
                    Some("requested") => {
                        tx.execute(
                            "UPDATE friend_links SET state = 'friend', created_at = $3 WHERE account_id = $2 AND other_id = $1",
                            &[&a, &b, &now_ms],
                        )
                        .await?;
                        tx.execute(
                            "INSERT INTO friend_links (account_id, other_id, state, created_at) VALUES ($1, $2, 'friend', $3)",
                            &[&a, &b, &now_ms],
                        )
                        .await?;
                        tx.commit().await?;
                        return Ok(FriendRequested::BecameFriends);
                    }
                    _ => {}
                }
                let count: i64 = tx
                    .query_one(
                        "SELECT COUNT(*) FROM friend_links WHERE account_id = $1 AND state <> 'blocked'",
                        &[&a],
                    )
                    .await?
                    .try_get(0)?;
                if count >= i64::from(limit) {
                    return Ok(FriendRequested::TooMany);
                }
                tx.execute(
                    "INSERT INTO friend_links (account_id, other_id, state, created_at) VALUES ($1, $2, 'requested', $3)",
                    &[&a, &b, &now_ms],
                )
                .await?;
                tx.commit().await?;
                Ok(FriendRequested::Sent)
            }
            .boxed()
        })
    }

    fn accept_friend(&self, account: &AccountId, from: &AccountId, now_ms: i64) -> Result<bool, StoreError> {
        let (me, them) = (account.to_vec(), from.to_vec());
        self.account_tx(move |tx| {
            async move {
                lock_pair(&tx, &me, &them).await?;
                let taken = tx
                    .execute(
                        "UPDATE friend_links SET state = 'friend', created_at = $3
                         WHERE account_id = $1 AND other_id = $2 AND state = 'requested'",
                        &[&them, &me, &now_ms],
                    )
                    .await?;
                if taken == 0 {
                    return Ok(false);
                }
                tx.execute(
                    "INSERT INTO friend_links (account_id, other_id, state, created_at) VALUES ($1, $2, 'friend', $3)
                     ON CONFLICT (account_id, other_id) DO UPDATE SET state = 'friend', created_at = $3",
                    &[&me, &them, &now_ms],
                )
                .await?;
                tx.commit().await?;
                Ok(true)
            }
            .boxed()
        })
    }

    fn remove_friend(&self, account: &AccountId, other: &AccountId) -> Result<bool, StoreError> {
        let (a, b) = (account.to_vec(), other.to_vec());
        self.account_tx(move |tx| {
            async move {
                lock_pair(&tx, &a, &b).await?;
                let removed = unlink(&tx, &a, &b).await?;
                tx.commit().await?;
                Ok(removed > 0)
            }
            .boxed()
        })
    }

    fn block(&self, account: &AccountId, other: &AccountId, now_ms: i64) -> Result<(), StoreError> {
        let (a, b) = (account.to_vec(), other.to_vec());
        self.account_tx(move |tx| {
            async move {
                lock_pair(&tx, &a, &b).await?;
                unlink(&tx, &a, &b).await?;
                tx.execute(
                    "INSERT INTO friend_links (account_id, other_id, state, created_at) VALUES ($1, $2, 'blocked', $3)
                     ON CONFLICT (account_id, other_id) DO NOTHING",
                    &[&a, &b, &now_ms],
                )
                .await?;
                tx.commit().await
            }
            .boxed()
        })
    }

    fn unblock(&self, account: &AccountId, other: &AccountId) -> Result<bool, StoreError> {
        let rows = self.account_statement(
            "DELETE FROM friend_links WHERE account_id = $1 AND other_id = $2 AND state = 'blocked' RETURNING 1".into(),
            vec![bytes(account), bytes(other)],
            write_error,
        )?;
        Ok(!rows.is_empty())
    }

    fn links(&self, account: &AccountId) -> Result<Vec<FriendLink>, StoreError> {
        let rows = self.account_statement(
            "SELECT other_id, state, created_at, TRUE FROM friend_links WHERE account_id = $1
             UNION ALL
             SELECT account_id, state, created_at, FALSE FROM friend_links WHERE other_id = $1 AND state = 'requested'
             ORDER BY 3 DESC, 1"
                .into(),
            vec![bytes(account)],
            read_error,
        )?;
        rows.iter()
            .map(|r| {
                Ok(FriendLink {
                    other: id_at(r, 0)?,
                    state: state_of(&get::<String>(r, 1)?, get(r, 3)?)?,
                    since: get(r, 2)?,
                })
            })
            .collect()
    }

    fn are_friends(&self, a: &AccountId, b: &AccountId) -> Result<bool, StoreError> {
        let rows = self.account_statement(
            "SELECT 1 FROM friend_links WHERE account_id = $1 AND other_id = $2 AND state = 'friend'".into(),
            vec![bytes(a), bytes(b)],
            read_error,
        )?;
        Ok(!rows.is_empty())
    }

    fn challenges_from(&self, account: &AccountId) -> Result<ChallengesFrom, StoreError> {
        let rows = self.account_statement(
            "SELECT challenges_from FROM friend_settings WHERE account_id = $1".into(),
            vec![bytes(account)],
            read_error,
        )?;
        match rows.first() {
            Some(r) => ChallengesFrom::from_text(&get::<String>(r, 0)?),
            None => Ok(ChallengesFrom::default()),
        }
    }

    fn set_challenges_from(&self, account: &AccountId, from: ChallengesFrom) -> Result<(), StoreError> {
        self.account_statement(
            "INSERT INTO friend_settings (account_id, challenges_from) VALUES ($1, $2)
             ON CONFLICT (account_id) DO UPDATE SET challenges_from = $2"
                .into(),
            vec![bytes(account), text(from.as_str())],
            write_error,
        )
        .map(|_| ())
    }

    fn last_seen(&self, account: &AccountId) -> Result<Option<i64>, StoreError> {
        let rows = self.account_statement(
            "SELECT MAX(last_seen_at) FROM account_sessions WHERE account_id = $1".into(),
            vec![bytes(account)],
            read_error,
        )?;
        rows.first()
            .map(|r| get::<Option<i64>>(r, 0))
            .transpose()
            .map(Option::flatten)
    }

    fn create_challenge(
        &self,
        challenge: &StoredChallenge,
        now_ms: i64,
        limit: u32,
    ) -> Result<ChallengeCreated, StoreError> {
        let options = serde_json::to_string(&challenge.options).map_err(|e| StoreError::Write(e.to_string()))?;
        let c = challenge.clone();
        self.account_tx(move |tx| {
            async move {
                let (a, b) = (c.from.to_vec(), c.to.to_vec());
                // the challenger's row locked: two challenges at once count each other
                tx.execute("SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE", &[&a]).await?;
                let friends = tx
                    .query_one(
                        "SELECT COUNT(*) FROM friend_links WHERE state = 'friend'
                         AND ((account_id = $1 AND other_id = $2) OR (account_id = $2 AND other_id = $1))",
                        &[&a, &b],
                    )
                    .await?
                    .try_get::<_, i64>(0)?;
                if friends != 2 {
                    return Ok(ChallengeCreated::NotFriends);
                }
                let setting = tx
                    .query_opt("SELECT challenges_from FROM friend_settings WHERE account_id = $1", &[&b])
                    .await?
                    .map(|r| r.try_get::<_, String>(0))
                    .transpose()?;
                if setting.as_deref() == Some("nobody") {
                    return Ok(ChallengeCreated::Closed);
                }
                let open: i64 = tx
                    .query_one(
                        "SELECT COUNT(*) FROM challenges WHERE from_id = $1 AND status = 'open' AND expires_at > $2",
                        &[&a, &now_ms],
                    )
                    .await?
                    .try_get(0)?;
                if open >= i64::from(limit) {
                    return Ok(ChallengeCreated::TooMany);
                }
                tx.execute(
                    "INSERT INTO challenges (id, from_id, to_id, options, rated, created_at, expires_at, status, room_code)
                     VALUES ($1, $2, $3, $4, $5, $6, $7, 'open', NULL)",
                    &[&c.id, &a, &b, &options, &c.rated, &c.created_at, &c.expires_at],
                )
                .await?;
                tx.commit().await?;
                Ok(ChallengeCreated::Created)
            }
            .boxed()
        })
    }

    fn open_challenges(
        &self,
        account: &AccountId,
        now_ms: i64,
        limit: u32,
    ) -> Result<Vec<StoredChallenge>, StoreError> {
        let sql = format!(
            "SELECT {CHALLENGE} FROM challenges WHERE status = 'open' AND expires_at > $2 AND from_id = $1
             UNION ALL
             SELECT {CHALLENGE} FROM challenges WHERE status = 'open' AND expires_at > $2 AND to_id = $1
             ORDER BY created_at DESC, id LIMIT $3"
        );
        let rows = self.account_statement(
            sql,
            vec![bytes(account), Param::Int(now_ms), Param::Int(i64::from(limit))],
            read_error,
        )?;
        rows.iter().map(challenge_row).collect()
    }

    fn accepted_challenges(
        &self,
        from: &AccountId,
        now_ms: i64,
        limit: u32,
    ) -> Result<Vec<StoredChallenge>, StoreError> {
        let sql = format!(
            "SELECT {CHALLENGE} FROM challenges WHERE from_id = $1 AND status = 'accepted' AND expires_at > $2
             ORDER BY created_at DESC, id LIMIT $3"
        );
        let rows = self.account_statement(
            sql,
            vec![bytes(from), Param::Int(now_ms), Param::Int(i64::from(limit))],
            read_error,
        )?;
        rows.iter().map(challenge_row).collect()
    }

    fn accept_challenge(
        &self,
        id: &str,
        to: &AccountId,
        room_code: &str,
        now_ms: i64,
    ) -> Result<Option<StoredChallenge>, StoreError> {
        let sql = format!(
            "UPDATE challenges SET status = 'accepted', room_code = $3
             WHERE id = $1 AND to_id = $2 AND status = 'open' AND expires_at > $4 RETURNING {CHALLENGE}"
        );
        let rows = self.account_statement(
            sql,
            vec![text(id), bytes(to), text(room_code), Param::Int(now_ms)],
            write_error,
        )?;
        rows.first().map(challenge_row).transpose()
    }

    fn reopen_challenge(&self, id: &str) -> Result<(), StoreError> {
        self.account_statement(
            "UPDATE challenges SET status = 'open', room_code = NULL WHERE id = $1".into(),
            vec![text(id)],
            write_error,
        )
        .map(|_| ())
    }

    fn drop_challenge(&self, id: &str, account: &AccountId, as_challenger: bool) -> Result<bool, StoreError> {
        let sql = if as_challenger {
            "DELETE FROM challenges WHERE id = $1 AND from_id = $2 AND status = 'open' RETURNING 1"
        } else {
            "DELETE FROM challenges WHERE id = $1 AND to_id = $2 AND status = 'open' RETURNING 1"
        };
        let rows = self.account_statement(sql.into(), vec![text(id), bytes(account)], write_error)?;
        Ok(!rows.is_empty())
    }

    fn challenge_of_room(&self, code: &str) -> Result<Option<StoredChallenge>, StoreError> {
        let sql = format!("SELECT {CHALLENGE} FROM challenges WHERE room_code = $1 AND status = 'accepted'");
        let rows = self.account_statement(sql, vec![text(code)], read_error)?;
        rows.first().map(challenge_row).transpose()
    }

    fn purge_challenges(&self, now_ms: i64) -> Result<u64, StoreError> {
        let rows = self.account_statement(
            "DELETE FROM challenges WHERE status = 'open' AND expires_at <= $1 RETURNING 1".into(),
            vec![Param::Int(now_ms)],
            write_error,
        )?;
        Ok(rows.len() as u64)
    }
}
