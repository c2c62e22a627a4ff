//! Accounts: an upgrade a player may take, never a gate. A username, passkeys (WebAuthn) to sign in,
//! a server-side session in a cookie, the seats a player keeps across devices, an email address for
//! sign-in links, their data to download and the account to delete.
//!
//! The session travels only in the `evr_session` cookie (`HttpOnly; SameSite=Lax; Path=/`, and
//! `Secure` when the site is served over https), never in a URL or a body. WebAuthn's options and
//! credentials cross as the JSON the browser's `PublicKeyCredential.parseCreationOptionsFromJSON`
//! / `toJSON()` use (base64url for binary fields); the server's library reads and writes them, so
//! they are `serde_json::Value` here.

use serde::{Deserialize, Serialize};

/// The cookie holding a signed-in device's session id.
pub const SESSION_COOKIE: &str = "evr_session";

/// Shortest and longest username, in characters.
pub const MIN_USERNAME_CHARS: usize = 2;
pub const MAX_USERNAME_CHARS: usize = 20;

/// How long a sign-in link mailed to an account's address works, in seconds.
pub const SIGN_IN_LINK_SECS: u64 = 15 * 60;

/// `GET`: who this device is signed in as, and which ways of signing in this server offers
/// ([`SessionState`]).
pub const SESSION_PATH: &str = "/api/session";
/// `POST` [`RegisterBegin`] → [`CeremonyStart`]: the options to create the account's first passkey.
pub const REGISTER_BEGIN_PATH: &str = "/api/account/register/begin";
/// `POST` [`CeremonyFinish`] → `201` [`AccountBrief`] and the session cookie: the account exists
/// and this device is signed in to it.
pub const REGISTER_FINISH_PATH: &str = "/api/account/register/finish";
/// `POST` (empty object) → [`CeremonyStart`]: the options to sign in with any passkey of this site
/// (no account named: also for the browser's passkey autofill).
pub const SIGN_IN_BEGIN_PATH: &str = "/api/account/sign-in/begin";
/// `POST` [`CeremonyFinish`] → [`AccountBrief`] and a new session cookie.
pub const SIGN_IN_FINISH_PATH: &str = "/api/account/sign-in/finish";
/// `POST` [`EmailSignIn`] → `202` whether or not an account has that address (nobody learns who
/// has one): a sign-in link is mailed to a confirmed address.
pub const EMAIL_SIGN_IN_PATH: &str = "/api/account/sign-in/email";
/// `POST` [`LinkSecret`] (the secret from the mailed link's fragment) → [`AccountBrief`] and a new
/// session cookie. A link works once, for [`SIGN_IN_LINK_SECS`].
pub const LINK_SIGN_IN_PATH: &str = "/api/account/sign-in/link";
/// `POST` (empty object) → `204`: this device's session ends and its cookie is cleared.
pub const SIGN_OUT_PATH: &str = "/api/account/sign-out";
/// `GET` → [`AccountDetails`].
pub const ACCOUNT_PATH: &str = "/api/account";
/// `POST` (empty object) → [`CeremonyStart`]: the options to add a passkey (signed in).
pub const ADD_PASSKEY_BEGIN_PATH: &str = "/api/account/passkeys/begin";
/// `POST` [`CeremonyFinish`] → [`PasskeyInfo`].
pub const ADD_PASSKEY_FINISH_PATH: &str = "/api/account/passkeys/finish";
/// `POST` (empty object) → [`SignedOutSessions`]: every other device's session ends.
pub const SIGN_OUT_OTHERS_PATH: &str = "/api/account/sessions/sign-out-others";
/// `POST` [`KeepSeats`] → [`KeptSeats`]: the seats this device holds become the account's.
pub const KEEP_SEATS_PATH: &str = "/api/account/seats";
/// `GET` → [`AccountRooms`]: the rooms of the seats the account keeps.
pub const ACCOUNT_ROOMS_PATH: &str = "/api/account/rooms";
/// `POST` [`SetAccountEmail`] → `202`: a confirmation link is mailed to the address (only when the
/// server sends mail).
pub const ACCOUNT_EMAIL_PATH: &str = "/api/account/email";
/// `POST` [`LinkSecret`] → `204`: the address is confirmed (the mailed link's page posts it).
pub const CONFIRM_ACCOUNT_EMAIL_PATH: &str = "/api/account/email/confirm";
/// `GET` → a JSON file of everything the account holds ([`AccountExport`]).
pub const ACCOUNT_EXPORT_PATH: &str = "/api/account/export";
/// `POST` [`DeleteAccount`] → `204`: personal data erased, the games kept with the name replaced,
/// the username reserved; the cookie is cleared.
pub const DELETE_ACCOUNT_PATH: &str = "/api/account/delete";

/// `DELETE`: removes one of the account's passkeys (`id` as in [`PasskeyInfo`]) → `204`.
pub fn passkey_path(id: &str) -> String {
    format!("/api/account/passkeys/{id}")
}

/// `DELETE`: ends one of the account's sessions (`id` as in [`SessionInfo`]) → `204`.
pub fn session_path(id: &str) -> String {
    format!("/api/account/sessions/{id}")
}

/// Room `code`'s seat the signed-in account keeps: `GET` → the seat's `SeatSummary` (for the list
/// of the account's rooms); `POST` (empty object) → `JoinedRoom`, a new seat token for this device.
pub fn account_seat_path(code: &str) -> String {
    format!("/api/rooms/{code}/account-seat")
}

/// Answer to `GET /api/session`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct SessionState {
    /// The account this device is signed in to (`null`: not signed in).
    pub account: Option<AccountBrief>,
    /// The WebAuthn relying party (the site's host name): passkeys work only on a page of this
    /// host. `null`: this server offers no accounts (its public origin is not a host name).
    pub passkey_rp_id: Option<String>,
    /// Whether sign-in links can be mailed (the server sends mail).
    pub email_sign_in: bool,
}

/// Who is signed in.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct AccountBrief {
    pub username: String,
}

/// Body of `POST /api/account/register/begin`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct RegisterBegin {
    /// [`MIN_USERNAME_CHARS`] to [`MAX_USERNAME_CHARS`] letters, digits, `_`, `-` or `.`; unique
    /// ignoring case and look-alike characters.
    pub username: String,
}

/// A WebAuthn ceremony begun: `options` for `navigator.credentials.create` or `.get` (as JSON), and
/// the ceremony's id to send back with the answer (it works once, for 5 minutes).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct CeremonyStart {
    pub ceremony: String,
    #[cfg_attr(feature = "ts", ts(type = "unknown"))]
    pub options: serde_json::Value,
}

/// The browser's answer to a ceremony: the credential as `PublicKeyCredential.toJSON()` gives it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct CeremonyFinish {
    pub ceremony: String,
    #[cfg_attr(feature = "ts", ts(type = "unknown"))]
    pub credential: serde_json::Value,
}

/// Body of `POST /api/account/sign-in/email`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct EmailSignIn {
    pub email: String,
    /// The mail's language.
    pub language: crate::MailLanguage,
}

/// A secret from a mailed link's fragment (sign-in, email confirmation).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct LinkSecret {
    pub secret: String,
}

/// Body of `POST /api/account/email`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct SetAccountEmail {
    pub email: String,
    pub language: crate::MailLanguage,
}

/// Answer to `GET /api/account`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct AccountDetails {
    pub username: String,
    /// Milliseconds since 1970.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub created_at_ms: i64,
    pub email: Option<String>,
    pub email_confirmed: bool,
    pub passkeys: Vec<PasskeyInfo>,
    /// Every signed-in device, this one first.
    pub sessions: Vec<SessionInfo>,
}

/// A passkey of the account.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct PasskeyInfo {
    /// The credential id, base64url.
    pub id: String,
    /// The browser and system it was made on ("Chrome on Linux").
    pub label: String,
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub created_at_ms: i64,
    #[cfg_attr(feature = "ts", ts(type = "number | null"))]
    pub last_used_at_ms: Option<i64>,
}

/// A signed-in device.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct SessionInfo {
    /// A handle for ending it (not the session id: the id is never shown).
    pub id: String,
    /// The browser and system ("Firefox on Windows").
    pub label: String,
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub created_at_ms: i64,
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub last_seen_at_ms: i64,
    /// This device's own session.
    pub current: bool,
}

/// Answer to `POST /api/account/sessions/sign-out-others`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct SignedOutSessions {
    pub signed_out: u32,
}

/// A seat this device holds: its room and its token.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct HeldSeat {
    pub code: String,
    pub token: String,
}

/// Most seats one `POST /api/account/seats` takes.
pub const MAX_SEATS_KEPT_AT_ONCE: usize = 50;

/// Body of `POST /api/account/seats`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct KeepSeats {
    /// At most [`MAX_SEATS_KEPT_AT_ONCE`].
    pub seats: Vec<HeldSeat>,
}

/// What became of one seat asked to be kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum KeepOutcome {
    /// The account keeps it now.
    Kept,
    /// The account kept it already.
    Already,
    /// Another account keeps it: it stays that account's.
    OtherAccount,
    /// The token holds no seat of that room (any more).
    NotASeat,
}

/// Answer to `POST /api/account/seats`, one per seat asked, in order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct KeptSeats {
    pub seats: Vec<KeptSeat>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct KeptSeat {
    pub code: String,
    pub outcome: KeepOutcome,
}

/// Answer to `GET /api/account/rooms`: newest kept first. Each room's state comes from
/// `GET /api/rooms/{code}/account-seat` (the room's own node answers).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct AccountRooms {
    pub rooms: Vec<AccountRoom>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct AccountRoom {
    pub code: String,
    /// When the account began keeping it, ms since 1970.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub kept_at_ms: i64,
}

/// Body of `POST /api/account/delete`: the username typed again, so that a stray click deletes
/// nothing.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct DeleteAccount {
    pub username: String,
}

/// The file `GET /api/account/export` gives: everything the account holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct AccountExport {
    pub account: AccountDetails,
    /// Each kept seat's room with its games as the account's player may see them: the replay
    /// (`ReplayFile` JSON) of each game the rules let this seat see, and the seat's chat lines.
    #[cfg_attr(feature = "ts", ts(type = "unknown[]"))]
    pub rooms: Vec<serde_json::Value>,
    /// The account's rating and every rated game it played, as its public page shows them
    /// (`null` on a server that keeps no ratings).
    pub ratings: Option<crate::PlayerPage>,
}
