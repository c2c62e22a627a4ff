//! Accounts: a username, its passkeys, its sessions, the seats it keeps, its email address and the
//! sign-in links mailed to it (`AccountStore`, reached by `Store::accounts`). Like the mail
//! addresses they are not game state: written without a room's claim, by any node, each call one
//! transaction.
//!
//! Secrets are kept only as hashes (SHA-256, made by the server): a session's id, a ceremony's id,
//! a sign-in link's secret, an email confirmation secret. A passkey is kept as the server's
//! WebAuthn library serialises it (JSON, `passkey`), under its credential id.
//!
//! A username is unique by its *key* (`username_key`: the server folds case and look-alike
//! characters), and the key stays taken after the account is deleted, so that nobody can pose as
//! a deleted player.

use super::{StoreError, StoredSeat};

/// An account's id: 16 random bytes (the WebAuthn user handle).
pub type AccountId = [u8; 16];

/// An account as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredAccount {
    pub id: AccountId,
    /// `None` once the account was deleted (its key stays reserved).
    pub username: Option<String>,
    /// Ms since 1970.
    pub created_at: i64,
    /// Ms since 1970, when deleted.
    pub deleted_at: Option<i64>,
    /// The account's email address, if one was given.
    pub email: Option<String>,
    /// Whether its owner followed the confirmation link: sign-in links and reminders go only to a
    /// confirmed address.
    pub email_confirmed: bool,
}

/// A new account.
#[derive(Clone, Debug)]
pub struct NewAccount {
    pub id: AccountId,
    pub username: String,
    /// What makes usernames the same (case and look-alike characters folded): unique.
    pub username_key: String,
    pub created_at: i64,
}

/// A passkey of an account.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredPasskey {
    /// The credential id (unique over all accounts).
    pub credential_id: Vec<u8>,
    pub account: AccountId,
    /// The WebAuthn library's serialised passkey (public key, counter, …), JSON.
    pub passkey: String,
    /// What its owner sees it as ("Chrome on Linux, added 28 Nov 2026").
    pub label: String,
    /// Ms since 1970.
    pub created_at: i64,
    /// Ms since 1970, the last sign-in with it.
    pub last_used_at: Option<i64>,
}

/// A signed-in device's session.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredSession {
    /// SHA-256 of the session id (the cookie's value).
    pub id_hash: Vec<u8>,
    pub account: AccountId,
    /// What its owner sees it as ("Chrome on Linux").
    pub label: String,
    /// Ms since 1970.
    pub created_at: i64,
    /// Ms since 1970, the last request seen (updated at most every few minutes by the server).
    pub last_seen_at: i64,
    /// Ms since 1970: the absolute end, whatever the use.
    pub expires_at: i64,
}

/// A WebAuthn ceremony under way (its challenge and state between "begin" and "finish"), kept in
/// the store so that "finish" may reach another node than "begin".
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredCeremony {
    /// SHA-256 of the ceremony's id (given to the client with the challenge).
    pub id_hash: Vec<u8>,
    /// `register`, `sign_in` or `add_passkey` (the server's; the store does not read it).
    pub kind: String,
    /// The account it is for (`add_passkey`), if any.
    pub account: Option<AccountId>,
    /// For `register`: the username asked for.
    pub username: Option<String>,
    /// The WebAuthn library's state, JSON.
    pub state: String,
    /// Ms since 1970.
    pub expires_at: i64,
}

/// A seat an account keeps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AccountSeat {
    pub code: String,
    pub seat: StoredSeat,
    /// Ms since 1970.
    pub added_at: i64,
}

/// What [`AccountStore::create_account`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AccountCreated {
    Created,
    /// Another account (or a deleted one) has this username key. Nothing was written.
    UsernameTaken,
    /// The passkey's credential id is already registered. Nothing was written.
    PasskeyTaken,
}

/// What [`AccountStore::keep_seat`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeatKept {
    /// The seat is the account's now.
    Kept,
    /// It was already.
    Already,
    /// Another account keeps it. Nothing changed.
    OtherAccount,
}

/// What [`AccountStore::remove_passkey`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PasskeyRemoved {
    Removed,
    /// The account has no such passkey.
    NoSuch,
    /// It is the account's only passkey and the account has no confirmed email: it is kept, or
    /// nobody could sign in any more.
    LastWay,
}

/// What [`AccountStore::count_sign_in_mail`] decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MailAllowed {
    /// Counted: the mail may be sent.
    Yes,
    /// Refused: the address had its mails for the window. Nothing counted.
    AddressLimit,
}

/// The accounts. Every method blocks: call it off the async threads.
pub trait AccountStore: Send + Sync {
    /// Creates `account` with its first passkey and its first session, in one transaction.
    fn create_account(
        &self,
        account: &NewAccount,
        passkey: &StoredPasskey,
        session: &StoredSession,
    ) -> Result<AccountCreated, StoreError>;

    /// Account `id` (also a deleted one).
    fn account(&self, id: &AccountId) -> Result<Option<StoredAccount>, StoreError>;

    /// The account whose username key is `key` (also a deleted one).
    fn account_by_username_key(&self, key: &str) -> Result<Option<StoredAccount>, StoreError>;

    /// The account whose *confirmed* email address is `email` (compared as stored, lower case by
    /// the server), if any and not deleted.
    fn account_by_email(&self, email: &str) -> Result<Option<StoredAccount>, StoreError>;

    /// Adds a passkey; `false` (nothing written) when its credential id is registered already.
    fn add_passkey(&self, passkey: &StoredPasskey) -> Result<bool, StoreError>;

    /// The passkey with credential id `credential_id`, whichever account's.
    fn passkey(&self, credential_id: &[u8]) -> Result<Option<StoredPasskey>, StoreError>;

    /// The account's passkeys, oldest first.
    fn passkeys(&self, account: &AccountId) -> Result<Vec<StoredPasskey>, StoreError>;

    /// After a sign-in with it: the passkey's new serialised state (its counter) and when.
    fn passkey_used(&self, credential_id: &[u8], passkey: &str, now_ms: i64) -> Result<(), StoreError>;

    /// Removes the account's passkey `credential_id`, unless it is its last way to sign in.
    fn remove_passkey(&self, account: &AccountId, credential_id: &[u8]) -> Result<PasskeyRemoved, StoreError>;

    /// Stores a new session.
    fn create_session(&self, session: &StoredSession) -> Result<(), StoreError>;

    /// The session whose id hashes to `id_hash`, expired or not (the server decides).
    fn session(&self, id_hash: &[u8]) -> Result<Option<StoredSession>, StoreError>;

    /// Records a request of the session at `now_ms`.
    fn touch_session(&self, id_hash: &[u8], now_ms: i64) -> Result<(), StoreError>;

    /// The account's sessions, newest first.
    fn sessions(&self, account: &AccountId) -> Result<Vec<StoredSession>, StoreError>;

    /// Deletes the account's session `id_hash`; whether there was one (of that account).
    fn delete_session(&self, account: &AccountId, id_hash: &[u8]) -> Result<bool, StoreError>;

    /// Deletes every session of the account but `keep` (its hash); how many.
    fn delete_other_sessions(&self, account: &AccountId, keep: &[u8]) -> Result<u64, StoreError>;

    /// Stores a ceremony under way.
    fn put_ceremony(&self, ceremony: &StoredCeremony) -> Result<(), StoreError>;

    /// Takes (deletes and returns) the ceremony `id_hash`: a ceremony is finished once. `None`:
    /// no such ceremony, or it expired before `now_ms` (then it is deleted too).
    fn take_ceremony(&self, id_hash: &[u8], now_ms: i64) -> Result<Option<StoredCeremony>, StoreError>;

    /// Makes `seat` of room `code` the account's (a seat is kept by one account at most).
    fn keep_seat(&self, account: &AccountId, code: &str, seat: StoredSeat, now_ms: i64)
    -> Result<SeatKept, StoreError>;

    /// The seats the account keeps, newest first.
    fn account_seats(&self, account: &AccountId) -> Result<Vec<AccountSeat>, StoreError>;

    /// The account keeping `seat` of room `code`, if any.
    fn seat_account(&self, code: &str, seat: StoredSeat) -> Result<Option<AccountId>, StoreError>;

    /// Gives the account the address `email` (lower case), unconfirmed, with the hash of its
    /// confirmation secret valid until `expires_at`; replaces an earlier address.
    fn set_email(
        &self,
        account: &AccountId,
        email: &str,
        confirm_hash: &[u8],
        expires_at: i64,
    ) -> Result<(), StoreError>;

    /// Confirms the address whose confirmation secret hashes to `confirm_hash`, unless expired
    /// before `now_ms`; the account, or `None`. A confirmation secret works once.
    fn confirm_email(&self, confirm_hash: &[u8], now_ms: i64) -> Result<Option<AccountId>, StoreError>;

    /// Stores a sign-in link's secret hash for the account, valid until `expires_at`.
    fn put_sign_in_link(&self, account: &AccountId, secret_hash: &[u8], expires_at: i64) -> Result<(), StoreError>;

    /// Uses the sign-in link `secret_hash`: deletes it and returns its account, unless it expired
    /// before `now_ms` (deleted too) or was used. A link works once.
    fn use_sign_in_link(&self, secret_hash: &[u8], now_ms: i64) -> Result<Option<AccountId>, StoreError>;

    /// Counts one sign-in mail to the mailbox `email_key` (SHA-256 of its folded address) at
    /// `now_ms`, unless `limit` were counted in the `window_ms` before: then refuses and counts
    /// nothing. Atomic across nodes.
    fn count_sign_in_mail(
        &self,
        email_key: &[u8],
        now_ms: i64,
        window_ms: i64,
        limit: u32,
    ) -> Result<MailAllowed, StoreError>;

    /// Deletes the account's personal data at `now_ms`: its username (the key stays reserved),
    /// email, passkeys, sessions, ceremonies and sign-in links; the seats it kept stay listed
    /// for the games' records and are returned (the server replaces the names at those seats).
    fn delete_account(&self, account: &AccountId, now_ms: i64) -> Result<Vec<AccountSeat>, StoreError>;

    /// Deletes, as of `now_ms`: sessions past their `expires_at` or idle for `idle_ms`,
    /// ceremonies and sign-in links past their expiry, email confirmation secrets past theirs
    /// (the address stays unconfirmed), and the sign-in mail counts older than a day. How many
    /// sessions were deleted.
    fn purge_accounts(&self, now_ms: i64, idle_ms: i64) -> Result<u64, StoreError>;
}
