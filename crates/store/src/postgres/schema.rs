//! The PostgreSQL store's schema and its versions. The same tables and columns as SQLite's latest
//! version (`sqlite/schema.rs`), in PostgreSQL's types. The version is kept in `evr_schema`; each server
//! that starts brings the database up to its own version under an advisory lock (so that nodes
//! starting together migrate once), and refuses a database whose version is newer than it knows.

use tokio_postgres::Client;

use crate::StoreError;

/// Each version's statements, in order: version N is `MIGRATIONS[N - 1]`. Version 1: SQLite's
/// version 7; version 2: seats (SQLite's version 8: join codes, names, devices, transfer links);
/// version 3: correspondence deadlines (SQLite's version 9); version 4: mail addresses (SQLite's
/// version 10); version 5: accounts (SQLite's version 11); version 6: friends and challenges
/// (SQLite's version 12); version 7: ratings (SQLite's version 13).
const MIGRATIONS: &[&str] = &[
    "
CREATE TABLE rooms (
    code TEXT PRIMARY KEY,
    options TEXT NOT NULL,
    invite_hash BYTEA NOT NULL,
    creator_hash BYTEA NOT NULL,
    guest_hash BYTEA,
    created_at BIGINT NOT NULL,
    owner_epoch BIGINT NOT NULL DEFAULT 0
);
CREATE TABLE games (
    room_code TEXT NOT NULL REFERENCES rooms(code),
    game_no BIGINT NOT NULL,
    seed BIGINT NOT NULL,
    seed_key BYTEA,
    seed_salt BYTEA,
    creator_faction TEXT NOT NULL,
    start_seq BIGINT NOT NULL,
    result TEXT,
    reveal_rebel BOOLEAN NOT NULL DEFAULT FALSE,
    reveal_imperial BOOLEAN NOT NULL DEFAULT FALSE,
    started_at BIGINT,
    PRIMARY KEY (room_code, game_no)
);
CREATE TABLE actions (
    room_code TEXT NOT NULL,
    game_no BIGINT NOT NULL,
    seq BIGINT NOT NULL,
    seat TEXT NOT NULL,
    action TEXT NOT NULL,
    action_id TEXT NOT NULL,
    clock_ms TEXT,
    PRIMARY KEY (room_code, seq),
    FOREIGN KEY (room_code, game_no) REFERENCES games(room_code, game_no)
);
CREATE TABLE chat (
    room_code TEXT NOT NULL REFERENCES rooms(code),
    id BIGINT NOT NULL,
    game_no BIGINT NOT NULL,
    at BIGINT NOT NULL,
    channel TEXT NOT NULL,
    author TEXT NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (room_code, id)
);
",
    "
ALTER TABLE rooms ADD COLUMN join_code_hash BYTEA;
ALTER TABLE rooms ADD COLUMN join_failures BIGINT NOT NULL DEFAULT 0;
ALTER TABLE rooms ADD COLUMN creator_name TEXT;
ALTER TABLE rooms ADD COLUMN guest_name TEXT;
ALTER TABLE chat ADD COLUMN author_name TEXT;
CREATE TABLE seat_devices (
    room_code TEXT NOT NULL REFERENCES rooms(code),
    seat TEXT NOT NULL,
    token_hash BYTEA NOT NULL,
    added_at BIGINT NOT NULL,
    PRIMARY KEY (room_code, token_hash)
);
CREATE TABLE seat_transfers (
    room_code TEXT NOT NULL REFERENCES rooms(code),
    seat TEXT NOT NULL,
    secret_hash BYTEA NOT NULL,
    expires_at BIGINT NOT NULL,
    PRIMARY KEY (room_code, seat)
);
",
    // version 3: correspondence deadlines (SQLite's version 9)
    crate::deadlines::SCHEMA,
    // version 4: the seats' email addresses for reminders (SQLite's version 10, `postgres/mail.rs`)
    super::mail::MAIL_SCHEMA,
    // version 5: accounts (SQLite's version 11, `postgres/accounts.rs`)
    super::accounts::ACCOUNTS_SCHEMA,
    // version 6: friends and challenges (SQLite's version 12, `postgres/friends.rs`)
    super::friends::FRIENDS_SCHEMA,
    // version 7: ratings (SQLite's version 13, `postgres/ratings.rs`)
    super::ratings::RATINGS_SCHEMA,
];

/// The schema version this server writes.
pub(super) const LATEST: i64 = MIGRATIONS.len() as i64;

/// Any number, the same for every node: the key of the advisory lock held while migrating.
const MIGRATION_LOCK: i64 = 0x0045_7652_5363_6865;

fn opening(what: &str, e: tokio_postgres::Error) -> StoreError {
    StoreError::Open(format!("{what}: {}", super::describe(&e)))
}

/// Brings the database to [`LATEST`]; refuses a database from a newer server.
pub(super) async fn migrate(client: &mut Client) -> Result<(), StoreError> {
    let tx = client.transaction().await.map_err(|e| opening("migration", e))?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
        .await
        .map_err(|e| opening("migration lock", e))?;
    tx.batch_execute("CREATE TABLE IF NOT EXISTS evr_schema (version BIGINT NOT NULL)")
        .await
        .map_err(|e| opening("schema version table", e))?;
    let stored: i64 = match tx
        .query_opt("SELECT version FROM evr_schema", &[])
        .await
        .map_err(|e| opening("schema version", e))?
    {
        Some(row) => row.try_get(0).map_err(|e| opening("schema version", e))?,
        None => {
            tx.execute("INSERT INTO evr_schema (version) VALUES (0)", &[])
                .await
                .map_err(|e| opening("schema version", e))?;
            0
        }
    };
    if stored > LATEST {
        return Err(StoreError::Open(format!(
            "the database's schema is version {stored}, newer than this server's {LATEST}: \
             it was written by a newer evr-server; run that version (or point --store at another database)"
        )));
    }
    for (i, sql) in MIGRATIONS.iter().enumerate().skip(stored as usize) {
        tx.batch_execute(sql)
            .await
            .map_err(|e| opening(&format!("migration to version {}", i + 1), e))?;
    }
    tx.execute("UPDATE evr_schema SET version = $1", &[&LATEST])
        .await
        .map_err(|e| opening("schema version", e))?;
    tx.commit().await.map_err(|e| opening("migration", e))
}
