//! Friends and challenges between accounts, kept beside the accounts (`accounts.rs`) and, like
//! them, written without a room's claim (they are not game state). Each call is one transaction,
//! so that what must be atomic is:
//!
//! - a friend request meeting the reverse one (two players adding each other at once) becomes one
//!   friendship, never two requests;
//! - a block removes the friendship, the requests and the open challenges both ways, with nothing
//!   left half done;
//! - a challenge is created only between friends, to an account that takes challenges, under the
//!   challenger's limit of open ones (checked and inserted together);
//! - a challenge is accepted once: the first `UPDATE … WHERE status = 'open' … RETURNING` takes
//!   it, a second one finds nothing.
//!
//! The stored rows: `friend_links` (one row per direction: `friend` both ways, `requested` from
//! the asker, `blocked` from the blocker), `friend_settings` (who may challenge an account) and
//! `challenges` (open, or accepted with the room it made; declined and withdrawn ones are deleted,
//! expired open ones purged). Times are milliseconds since 1970 (UTC), always given by the caller
//! ("now" comes from one place, so that expiry is tested without waiting).

use evr_protocol::RoomOptions;

use crate::{AccountId, StoreError};

/// How long a challenge waits for an answer: 7 days.
pub const CHALLENGE_TTL_MS: i64 = 7 * 24 * 3_600_000;

/// What one account is to another, from the first one's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinkState {
    /// Both agreed.
    Friends,
    /// This account asked; the other has not answered.
    RequestSent,
    /// The other asked this account.
    RequestReceived,
    /// This account blocked the other (the blocked one sees nothing of it).
    Blocked,
}

/// One of an account's links: the other account, what it is, since when.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FriendLink {
    pub other: AccountId,
    pub state: LinkState,
    /// Ms since 1970.
    pub since: i64,
}

/// What [`FriendStore::request_friend`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FriendRequested {
    /// The request waits for the other's answer.
    Sent,
    /// The other had asked too: they are friends now.
    BecameFriends,
    /// They were friends already (nothing changed).
    AlreadyFriends,
    /// The asker blocked the other: nothing is sent until they unblock.
    AskerBlocked,
    /// The other blocked the asker: nothing is stored (the asker is told as if it was sent).
    Ignored,
    /// The asker has `limit` friends and requests already.
    TooMany,
}

/// Who may challenge an account.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ChallengesFrom {
    /// Its friends (the default).
    #[default]
    Friends,
    /// Nobody.
    Nobody,
}

impl ChallengesFrom {
    pub fn as_str(self) -> &'static str {
        match self {
            ChallengesFrom::Friends => "friends",
            ChallengesFrom::Nobody => "nobody",
        }
    }

    pub fn from_text(text: &str) -> Result<ChallengesFrom, StoreError> {
        match text {
            "friends" => Ok(ChallengesFrom::Friends),
            "nobody" => Ok(ChallengesFrom::Nobody),
            other => Err(StoreError::Corrupt {
                what: format!("a challenge setting {other:?}"),
            }),
        }
    }
}

/// A challenge as stored. `options` are the room's to be (the side is the challenger's choice).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredChallenge {
    /// Random, shown to both players (not a secret: only they may act on it).
    pub id: String,
    pub from: AccountId,
    pub to: AccountId,
    pub options: RoomOptions,
    /// Whether the game is to be rated (kept for the ratings to come; nothing reads it yet).
    pub rated: bool,
    /// Ms since 1970.
    pub created_at: i64,
    /// Ms since 1970: refused from then on.
    pub expires_at: i64,
    /// The room it made, once accepted.
    pub room_code: Option<String>,
}

/// What [`FriendStore::create_challenge`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChallengeCreated {
    Created,
    /// Only friends challenge each other.
    NotFriends,
    /// The challenged account takes no challenges.
    Closed,
    /// The challenger has `limit` open challenges already.
    TooMany,
}

/// Friends and challenges (reached by `Store::friends`). Blocking calls: use them off the async
/// threads.
pub trait FriendStore: Send + Sync {
    /// `from` asks `to` to be friends, at `now`; `limit` caps `from`'s friends and requests sent.
    fn request_friend(
        &self,
        from: &AccountId,
        to: &AccountId,
        now_ms: i64,
        limit: u32,
    ) -> Result<FriendRequested, StoreError>;

    /// `account` accepts the request `from` sent: `false` if there is none.
    fn accept_friend(&self, account: &AccountId, from: &AccountId, now_ms: i64) -> Result<bool, StoreError>;

    /// Ends whatever friendship or request is between the two (either way), and the open
    /// challenges between them: `false` if there was none. A block stays.
    fn remove_friend(&self, account: &AccountId, other: &AccountId) -> Result<bool, StoreError>;

    /// `account` blocks `other`: their friendship, requests and open challenges (both ways) end.
    fn block(&self, account: &AccountId, other: &AccountId, now_ms: i64) -> Result<(), StoreError>;

    /// `account` unblocks `other`: `false` if it had not blocked it.
    fn unblock(&self, account: &AccountId, other: &AccountId) -> Result<bool, StoreError>;

    /// Every link of `account` (friends, requests both ways, the accounts it blocked), newest
    /// first. The accounts that blocked it are not among them.
    fn links(&self, account: &AccountId) -> Result<Vec<FriendLink>, StoreError>;

    /// Whether the two are friends.
    fn are_friends(&self, a: &AccountId, b: &AccountId) -> Result<bool, StoreError>;

    /// Who may challenge `account`.
    fn challenges_from(&self, account: &AccountId) -> Result<ChallengesFrom, StoreError>;

    fn set_challenges_from(&self, account: &AccountId, from: ChallengesFrom) -> Result<(), StoreError>;

    /// The latest request of any of `account`'s sessions (ms since 1970; written at most every
    /// few minutes), if it has a session.
    fn last_seen(&self, account: &AccountId) -> Result<Option<i64>, StoreError>;

    /// Stores `challenge` if its challenger and challenged are friends, the challenged takes
    /// challenges, and the challenger has fewer than `limit` open ones at `now`.
    fn create_challenge(
        &self,
        challenge: &StoredChallenge,
        now_ms: i64,
        limit: u32,
    ) -> Result<ChallengeCreated, StoreError>;

    /// `account`'s open challenges not expired at `now`, sent and received, newest first (at
    /// most `limit`).
    fn open_challenges(&self, account: &AccountId, now_ms: i64, limit: u32)
    -> Result<Vec<StoredChallenge>, StoreError>;

    /// The challenges `from` sent that were accepted (each with its room's code) and whose 7 days
    /// have not run out at `now`, newest first (at most `limit`): so that the challenger learns
    /// which room its accepted challenge made.
    fn accepted_challenges(
        &self,
        from: &AccountId,
        now_ms: i64,
        limit: u32,
    ) -> Result<Vec<StoredChallenge>, StoreError>;

    /// The challenged (`to`) accepts challenge `id`, open and not expired at `now`, for room
    /// `room_code`: the challenge as it was, once; `None` for every later call.
    fn accept_challenge(
        &self,
        id: &str,
        to: &AccountId,
        room_code: &str,
        now_ms: i64,
    ) -> Result<Option<StoredChallenge>, StoreError>;

    /// An accepted challenge whose room could not be made is open again.
    fn reopen_challenge(&self, id: &str) -> Result<(), StoreError>;

    /// Deletes open challenge `id` if `account` is its challenged (`as_challenger` false: a
    /// decline) or its challenger (true: a withdrawal): `false` if there is no such one.
    fn drop_challenge(&self, id: &str, account: &AccountId, as_challenger: bool) -> Result<bool, StoreError>;

    /// The accepted challenge that made room `code`, if any (whether it is rated).
    fn challenge_of_room(&self, code: &str) -> Result<Option<StoredChallenge>, StoreError>;

    /// Deletes the open challenges expired at `now`: how many.
    fn purge_challenges(&self, now_ms: i64) -> Result<u64, StoreError>;
}

/// The columns of a challenge, in the order the stores read them.
pub(crate) const CHALLENGE: &str = "id, from_id, to_id, options, rated, created_at, expires_at, room_code";
