//! Email addresses for reminders, one per seat of a room (`mail_addresses`), apart from the rooms'
//! own tables: they are not game state, so they are written without a room's claim (any node may
//! take an address or a click on a link) and never loaded with a room.
//!
//! An address is kept as it is mailed with a key for the limits (`email_key`): the SHA-256 of the
//! mailbox it names, as the server works it out (`evr-server`'s `mail/address.rs`: lower case,
//! no `+tag`, an ASCII domain), so that the log of confirmation mails (`mail_confirmations`, kept
//! a day) counts a mailbox however its address is typed. The links in the
//! mails carry secrets the store keeps only as hashes: one confirmation secret per address, one
//! unsubscribe secret per mail sent (`mail_unsubscribe`), all deleted with the address.
//!
//! An address is deleted when its seat's player unsubscribes or asks (`forget`), when its
//! confirmation link expired unused, and [`KEEP_AFTER_GAME_OVER_MS`] after the room's game was
//! seen over (`set_over`, by the server's periodic check, which knows the rules; a rematch clears
//! the mark). [`MailStore::purge`] does all of that for a given "now".

use super::{StoreError, StoredSeat};

/// How long an address is kept once its room's game is over: 7 days.
pub const KEEP_AFTER_GAME_OVER_MS: i64 = 7 * 24 * 3600 * 1000;

/// The window of the limits on confirmation mails: a day.
pub const LIMIT_WINDOW_MS: i64 = 24 * 3600 * 1000;

/// A seat's address as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredAddress {
    pub code: String,
    pub seat: StoredSeat,
    pub email: String,
    /// The language of its mails (`en`, `zh-Hant`, `ja`).
    pub language: String,
    /// Whether its player followed the confirmation link: nothing but the confirmation mail is
    /// sent before.
    pub confirmed: bool,
    /// When the confirmation link stops working, ms since 1970.
    pub confirm_expires_at: i64,
}

/// An address given for a seat, with the hashes of the secrets of its confirmation mail.
#[derive(Clone, Debug)]
pub struct NewAddress {
    pub code: String,
    pub seat: StoredSeat,
    pub email: String,
    /// SHA-256 of the address in lower case: what the limits count.
    pub email_key: Vec<u8>,
    pub language: String,
    pub confirm_hash: Vec<u8>,
    /// The unsubscribe link of the confirmation mail.
    pub unsubscribe_hash: Vec<u8>,
    /// Ms since 1970.
    pub now_ms: i64,
    pub confirm_expires_at: i64,
}

/// The limits on confirmation mails, over the last [`LIMIT_WINDOW_MS`].
#[derive(Clone, Copy, Debug)]
pub struct MailLimits {
    /// Confirmation mails to one address (whichever rooms asked).
    pub per_address: u32,
    /// Distinct addresses one room's seats may ask confirmation mails for.
    pub addresses_per_room: u32,
}

/// What [`MailStore::register_address`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Registered {
    /// Stored unconfirmed (replacing the seat's address, if any); its confirmation mail is due and
    /// counted.
    ConfirmationDue,
    /// The seat's address was this one and confirmed already: only its language was updated.
    AlreadyConfirmed,
    /// Refused: this address had its confirmation mails for the day. Nothing changed.
    AddressLimit,
    /// Refused: this room asked for as many addresses as it may in a day. Nothing changed.
    RoomLimit,
}

/// Which link of a mail.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MailLink {
    Confirm,
    Unsubscribe,
}

/// What one purge deleted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Purged {
    /// Addresses of games over for [`KEEP_AFTER_GAME_OVER_MS`].
    pub after_game: u64,
    /// Addresses never confirmed whose link expired.
    pub unconfirmed: u64,
}

/// The addresses of seats. Every method blocks: call it off the async threads.
pub trait MailStore: Send + Sync {
    /// Stores `new` as its seat's address, unconfirmed, and counts its confirmation mail, unless a
    /// limit refuses; all in one transaction, so that concurrent requests (on any node) cannot
    /// pass a limit together. The same address confirmed already is kept confirmed.
    fn register_address(&self, new: &NewAddress, limits: MailLimits) -> Result<Registered, StoreError>;

    /// The address of `seat` in room `code`, confirmed or not.
    fn seat_address(&self, code: &str, seat: StoredSeat) -> Result<Option<StoredAddress>, StoreError>;

    /// The address a link's secret (its hash) belongs to.
    fn address_by_link(&self, link: MailLink, secret_hash: &[u8]) -> Result<Option<StoredAddress>, StoreError>;

    /// Confirms the address whose confirmation secret hashes to `secret_hash`, unless its link
    /// expired before `now_ms` (a confirmed one stays confirmed). `None`: no such address, or
    /// expired.
    fn confirm(&self, secret_hash: &[u8], now_ms: i64) -> Result<Option<StoredAddress>, StoreError>;

    /// Another unsubscribe link for `seat`'s address (one per mail).
    fn add_unsubscribe(&self, code: &str, seat: StoredSeat, secret_hash: &[u8]) -> Result<(), StoreError>;

    /// Deletes the address an unsubscribe link belongs to; `None`: no such link (used already).
    fn unsubscribe(&self, secret_hash: &[u8]) -> Result<Option<StoredAddress>, StoreError>;

    /// Deletes `seat`'s address; whether there was one.
    fn forget(&self, code: &str, seat: StoredSeat) -> Result<bool, StoreError>;

    /// Every room with an address, and since when its game is known to be over (ms; `None`: not
    /// seen over).
    fn rooms_with_addresses(&self) -> Result<Vec<(String, Option<i64>)>, StoreError>;

    /// Marks room `code`'s game over since `now_ms` (kept if marked already), or, `over` false,
    /// not over (a rematch began).
    fn set_over(&self, code: &str, over: bool, now_ms: i64) -> Result<(), StoreError>;

    /// Deletes, as of `now_ms`: addresses of games over since [`KEEP_AFTER_GAME_OVER_MS`],
    /// unconfirmed addresses whose link expired, unsubscribe links of deleted addresses, and the
    /// log of confirmation mails older than [`LIMIT_WINDOW_MS`].
    fn purge(&self, now_ms: i64) -> Result<Purged, StoreError>;
}
