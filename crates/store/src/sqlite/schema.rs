//! The SQLite store's schema and its versions (`rusqlite_migration`: the version is SQLite's
//! `user_version`), and how its connections are opened. The PostgreSQL store keeps the same tables
//! and columns (`postgres/schema.rs`).

use std::path::Path;

use rusqlite::Connection;
use rusqlite_migration::{M, Migrations};

use crate::StoreError;

pub(super) const SCHEMA: &str = "
CREATE TABLE rooms (
    code TEXT PRIMARY KEY,
    options TEXT NOT NULL,
    invite_hash BLOB NOT NULL,
    creator_hash BLOB NOT NULL,
    guest_hash BLOB,
    created_at INTEGER NOT NULL
);
CREATE TABLE games (
    room_code TEXT NOT NULL REFERENCES rooms(code),
    game_no INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    creator_faction TEXT NOT NULL,
    start_seq INTEGER NOT NULL,
    result TEXT,
    PRIMARY KEY (room_code, game_no)
);
CREATE TABLE actions (
    room_code TEXT NOT NULL,
    game_no INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    seat TEXT NOT NULL,
    action TEXT NOT NULL,
    action_id TEXT NOT NULL,
    PRIMARY KEY (room_code, seq),
    FOREIGN KEY (room_code, game_no) REFERENCES games(room_code, game_no)
);
";

/// Version 2: provably fair shuffles. A game started from a 256-bit key stores the key and the
/// salt of its commitment (`seed` is then 0); games stored before keep their 64-bit `seed` and
/// NULL here.
const SEED_KEYS: &str = "
ALTER TABLE games ADD COLUMN seed_key BLOB;
ALTER TABLE games ADD COLUMN seed_salt BLOB;
";

/// Version 3: each player's agreement to reveal a finished game in its replay.
const REVEAL: &str = "
ALTER TABLE games ADD COLUMN reveal_rebel INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN reveal_imperial INTEGER NOT NULL DEFAULT 0;
";

/// Version 4: when each game started (for the room's archive).
const STARTED_AT: &str = "ALTER TABLE games ADD COLUMN started_at INTEGER;";

/// Version 5: the room's chat. `channel`, `author` and `body` are the protocol's JSON.
const CHAT: &str = "
CREATE TABLE chat (
    room_code TEXT NOT NULL REFERENCES rooms(code),
    id INTEGER NOT NULL,
    game_no INTEGER NOT NULL,
    at INTEGER NOT NULL,
    channel TEXT NOT NULL,
    author TEXT NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (room_code, id)
);
";

/// Version 6: with a clock, each side's time left after each action (`[rebel, imperial]` in
/// milliseconds, JSON), so a restart resumes the clocks where the last action left them.
const CLOCKS: &str = "ALTER TABLE actions ADD COLUMN clock_ms TEXT;";

/// Version 7: the room's ownership claim (`crate::Epoch`); rooms stored before start unclaimed.
const OWNER_EPOCH: &str = "ALTER TABLE rooms ADD COLUMN owner_epoch INTEGER NOT NULL DEFAULT 0;";

/// Version 8: seats. The join code a friend types with the room code (its hash, and the wrong
/// codes tried since it was made), the players' display names (a seat's name, and a seat's name
/// on each of its chat messages), the devices a seat was moved to (each its own token's hash) and
/// the links that move a seat (one per seat, replaced by a newer one, deleted once used).
const SEATS: &str = "
ALTER TABLE rooms ADD COLUMN join_code_hash BLOB;
ALTER TABLE rooms ADD COLUMN join_failures INTEGER NOT NULL DEFAULT 0;
ALTER TABLE rooms ADD COLUMN creator_name TEXT;
ALTER TABLE rooms ADD COLUMN guest_name TEXT;
ALTER TABLE chat ADD COLUMN author_name TEXT;
CREATE TABLE seat_devices (
    room_code TEXT NOT NULL REFERENCES rooms(code),
    seat TEXT NOT NULL,
    token_hash BLOB NOT NULL,
    added_at INTEGER NOT NULL,
    PRIMARY KEY (room_code, token_hash)
);
CREATE TABLE seat_transfers (
    room_code TEXT NOT NULL REFERENCES rooms(code),
    seat TEXT NOT NULL,
    secret_hash BLOB NOT NULL,
    expires_at INTEGER NOT NULL,
    PRIMARY KEY (room_code, seat)
);
";

/// Version 9: correspondence deadlines (`deadlines.rs`): a room's deadlines and wake-up (indexed)
/// and the reminders recorded as sent.
const DEADLINES: &str = crate::deadlines::SCHEMA;

/// Version 10: the seats' email addresses for reminders, their unsubscribe links and the log of
/// confirmation mails the limits count (`sqlite/mail.rs`).
const MAIL: &str = super::mail::MAIL_SCHEMA;

/// Version 11: accounts (`accounts.rs`): usernames (their keys unique, kept after a deletion),
/// passkeys, sessions, WebAuthn ceremonies under way, the seats an account keeps, its email
/// address, sign-in links and the log of sign-in mails the limit counts (`sqlite/accounts.rs`).
const ACCOUNTS: &str = super::accounts::ACCOUNTS_SCHEMA;

/// Version 12: friends and challenges (`friends.rs`): the links between accounts (friends,
/// requests, blocks), who may challenge an account, and the challenges (open, or accepted with
/// the room they made) (`sqlite/friends.rs`).
const FRIENDS: &str = super::friends::FRIENDS_SCHEMA;

/// Version 13: ratings (`ratings.rs`): each rated account's rating and counts, and each rated
/// game with both players' ratings before and after (`sqlite/ratings.rs`).
const RATINGS: &str = super::ratings::RATINGS_SCHEMA;

/// Every version's statements, in order: version N is `STEPS[N - 1]`.
const STEPS: [&str; 13] = [
    SCHEMA,
    SEED_KEYS,
    REVEAL,
    STARTED_AT,
    CHAT,
    CLOCKS,
    OWNER_EPOCH,
    SEATS,
    DEADLINES,
    MAIL,
    ACCOUNTS,
    FRIENDS,
    RATINGS,
];

/// The schema version (SQLite's `user_version`) this store writes.
pub(super) const LATEST: i64 = STEPS.len() as i64;

fn migrations() -> Migrations<'static> {
    Migrations::new(STEPS.iter().map(|sql| M::up(sql)).collect())
}

pub(super) fn open(path: &Path) -> Result<Connection, StoreError> {
    let opening = |e: rusqlite::Error| StoreError::Open(format!("{}: {e}", path.display()));
    let mut conn = Connection::open(path).map_err(opening)?;
    conn.pragma_update(None, "journal_mode", "WAL").map_err(opening)?;
    // NORMAL in WAL mode: a commit survives a crash of this process (the test kills it with -9);
    // surviving a power cut as well would need FULL.
    conn.pragma_update(None, "synchronous", "NORMAL").map_err(opening)?;
    conn.pragma_update(None, "foreign_keys", "ON").map_err(opening)?;
    conn.busy_timeout(std::time::Duration::from_secs(5)).map_err(opening)?;
    migrations()
        .to_latest(&mut conn)
        .map_err(|e| StoreError::Open(format!("{}: migration: {e}", path.display())))?;
    Ok(conn)
}
