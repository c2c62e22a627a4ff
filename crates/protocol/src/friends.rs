//! Friends and challenges between accounts (proto/PROTOCOL.md, *Friends and challenges*): a friend
//! request by username or from a room both accounts keep, accepted or declined; removing and
//! blocking; the friends list with each friend's presence (shown only to friends); challenges to
//! a friend, which make a room with both seats taken; the record between two friends.
//!
//! Every route needs a signed-in account (the session cookie) and counts against the account
//! routes' limit per client address.

use evr_rules::{Faction, Mode};
use serde::{Deserialize, Serialize};

use crate::{SideChoice, SpectatorPolicy, TimeControl};

/// `GET` → [`FriendList`]; `POST` [`AddFriend`] → [`FriendAdded`].
pub const FRIENDS_PATH: &str = "/api/account/friends";
/// `POST` [`FriendName`] → `204`: the request that account sent becomes a friendship.
pub const ACCEPT_FRIEND_PATH: &str = "/api/account/friends/accept";
/// `POST` [`FriendName`] → `204`: the request that account sent is declined (it is not told).
pub const DECLINE_FRIEND_PATH: &str = "/api/account/friends/decline";
/// `POST` [`FriendName`] → `204`: the friendship ends (or the request sent is withdrawn), and the
/// open challenges between the two.
pub const REMOVE_FRIEND_PATH: &str = "/api/account/friends/remove";
/// `POST` [`FriendName`] → `204`: that account can no longer send requests or challenges to this
/// one, and this one leaves its list.
pub const BLOCK_PATH: &str = "/api/account/friends/block";
/// `POST` [`FriendName`] → `204`.
pub const UNBLOCK_PATH: &str = "/api/account/friends/unblock";
/// `GET /api/account/friends/{username}/record` → [`HeadToHead`].
pub const HEAD_TO_HEAD_PATH: &str = "/api/account/friends/{username}/record";
/// `GET` → [`ChallengeList`] (cheap: a page may ask every 15 s); `POST` [`NewChallenge`] → `201`
/// [`Challenge`].
pub const CHALLENGES_PATH: &str = "/api/account/challenges";
/// Server-Sent Events telling a signed-in page that its challenges changed (`event: challenges`,
/// no data): the page then asks [`CHALLENGES_PATH`] again.
pub const ACCOUNT_EVENTS_PATH: &str = "/api/account/events";
/// `POST` [`ChallengeSettings`] → `204`.
pub const CHALLENGE_SETTINGS_PATH: &str = "/api/account/challenges/settings";
/// `POST /api/account/challenges/{id}/accept` (empty object) → [`ChallengeAccepted`].
pub const ACCEPT_CHALLENGE_PATH: &str = "/api/account/challenges/{id}/accept";
/// `POST /api/account/challenges/{id}/decline` (empty object) → `204`.
pub const DECLINE_CHALLENGE_PATH: &str = "/api/account/challenges/{id}/decline";
/// `DELETE /api/account/challenges/{id}` → `204`: the challenger withdraws it.
pub const CHALLENGE_PATH: &str = "/api/account/challenges/{id}";

/// Open challenges an account may have sent at once.
pub const MAX_OPEN_CHALLENGES: u32 = 20;
/// Friends and friend requests sent an account may have.
pub const MAX_FRIENDS: u32 = 200;
/// How long a challenge waits for its answer, in days.
pub const CHALLENGE_DAYS: u32 = 7;
/// A friend is `online` when any of their devices made a request within this many seconds (a
/// device's last request is written at most every 5 minutes).
pub const ONLINE_WITHIN_SECS: u32 = 600;
/// The games [`HeadToHead`] lists.
pub const HEAD_TO_HEAD_GAMES: usize = 10;

/// Body of `POST /api/account/friends`: exactly one of a username, or a room both accounts keep a
/// seat of (the friend is the account keeping the other seat).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct AddFriend {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub username: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub room: Option<String>,
}

/// What a friend request did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum FriendStatus {
    /// The request waits for the other's answer.
    Requested,
    /// They had asked too (or were friends already): friends now.
    Friends,
}

/// Answer to `POST /api/account/friends`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct FriendAdded {
    /// The other account's username, as it is written.
    pub username: String,
    pub status: FriendStatus,
}

/// Body naming another account.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct FriendName {
    pub username: String,
}

/// A friend, with their presence (shown to friends only).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Friend {
    pub username: String,
    /// Friends since, ms since 1970.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub since_ms: i64,
    /// A device of theirs made a request within the last [`ONLINE_WITHIN_SECS`].
    pub online: bool,
    /// They keep a seat of a room whose game is not over (among the rooms they kept lately).
    pub at_table: bool,
}

/// A request sent or received, or an account blocked.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct OtherAccount {
    pub username: String,
    /// Since, ms since 1970.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub since_ms: i64,
}

/// Answer to `GET /api/account/friends`, each list newest first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct FriendList {
    pub friends: Vec<Friend>,
    /// Requests to this account.
    pub incoming: Vec<OtherAccount>,
    /// Requests this account sent, not answered yet.
    pub outgoing: Vec<OtherAccount>,
    /// The accounts this one blocked.
    pub blocked: Vec<OtherAccount>,
}

/// Body of `POST /api/account/challenges`: who, and the room to be made.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct NewChallenge {
    /// A friend's username.
    pub username: String,
    /// The challenger's side.
    pub side: SideChoice,
    /// A live clock or correspondence, as a room takes it; absent: no clock.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub clock: Option<TimeControl>,
    /// Whether the room's games count for both players' ratings (both agree: the challenger by
    /// asking, the challenged by accepting).
    pub rated: bool,
    pub spectators: SpectatorPolicy,
}

/// A challenge as both players see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Challenge {
    pub id: String,
    /// The challenger's username.
    pub from: String,
    /// The challenged's username.
    pub to: String,
    /// The challenger's side.
    pub side: SideChoice,
    pub clock: Option<TimeControl>,
    pub rated: bool,
    pub spectators: SpectatorPolicy,
    pub mode: Mode,
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub created_at_ms: i64,
    /// Refused from then on.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub expires_at_ms: i64,
}

/// Who may challenge an account.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum WhoMayChallenge {
    /// Its friends (the default).
    #[default]
    Friends,
    Nobody,
}

/// Answer to `GET /api/account/challenges`: the open ones, newest first, and those the account sent
/// that were accepted, with their rooms.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ChallengeList {
    pub incoming: Vec<Challenge>,
    pub outgoing: Vec<Challenge>,
    /// Sent by this account and accepted, within their 7 days, newest first: so that the
    /// challenger's page says which room an accepted challenge made (one that left `outgoing`
    /// without being here was declined, withdrawn or expired).
    pub accepted: Vec<SentAccepted>,
    pub who_may_challenge: WhoMayChallenge,
}

/// A challenge this account sent, accepted: its room.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct SentAccepted {
    pub id: String,
    /// The challenged's username.
    pub to: String,
    /// The room it made.
    pub code: String,
}

/// Body of `POST /api/account/challenges/settings`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct ChallengeSettings {
    pub who_may_challenge: WhoMayChallenge,
}

/// Answer to accepting a challenge: the room made, both seats taken and kept by the two accounts;
/// each player takes theirs on any of their devices with `POST /api/rooms/{code}/account-seat`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ChallengeAccepted {
    pub code: String,
    /// The accepting player's side.
    pub seat: Faction,
}

/// Games between two accounts, as one of them played them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Record {
    pub won: u32,
    pub lost: u32,
    pub drawn: u32,
    /// Being played (or left unfinished).
    pub unfinished: u32,
}

/// How a game ended for the asking player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum GameEnd {
    Won,
    Lost,
    Drawn,
    Unfinished,
}

/// One game between the two.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct SharedGame {
    /// The room (its replay: `GET /api/rooms/{code}/games/{game_number}/…`).
    pub code: String,
    pub game_number: u32,
    /// Seconds since 1970 (UTC); `null` for games stored before dates were kept.
    #[cfg_attr(feature = "ts", ts(type = "number | null"))]
    pub started_at: Option<i64>,
    /// The asking player's side in it.
    pub you: Faction,
    pub end: GameEnd,
}

/// Answer to `GET /api/account/friends/{username}/record`: the games of the rooms both accounts
/// keep a seat of, as the asking player played them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct HeadToHead {
    pub username: String,
    pub as_rebel: Record,
    pub as_imperial: Record,
    /// The latest [`HEAD_TO_HEAD_GAMES`], newest first.
    pub last_games: Vec<SharedGame>,
}
