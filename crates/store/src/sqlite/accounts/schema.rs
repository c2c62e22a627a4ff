//! The accounts' tables on SQLite.

/// The schema version that adds the accounts (`sqlite/schema.rs`). A deleted account keeps its
/// row (its `username_key` stays taken) with its personal columns emptied; the seats it kept stay.
pub(crate) const ACCOUNTS_SCHEMA: &str = "
CREATE TABLE accounts (
    id BLOB PRIMARY KEY,
    username TEXT,
    username_key TEXT NOT NULL UNIQUE,
    created_at INTEGER NOT NULL,
    deleted_at INTEGER,
    email TEXT,
    email_confirmed INTEGER NOT NULL DEFAULT 0,
    email_confirm_hash BLOB UNIQUE,
    email_confirm_expires_at INTEGER
);
CREATE INDEX accounts_email ON accounts (email);
CREATE TABLE account_passkeys (
    credential_id BLOB PRIMARY KEY,
    account_id BLOB NOT NULL REFERENCES accounts(id),
    passkey TEXT NOT NULL,
    label TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    last_used_at INTEGER
);
CREATE INDEX account_passkeys_account ON account_passkeys (account_id);
CREATE TABLE account_sessions (
    id_hash BLOB PRIMARY KEY,
    account_id BLOB NOT NULL REFERENCES accounts(id),
    label TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    last_seen_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
);
CREATE INDEX account_sessions_account ON account_sessions (account_id);
CREATE TABLE account_ceremonies (
    id_hash BLOB PRIMARY KEY,
    kind TEXT NOT NULL,
    account_id BLOB,
    username TEXT,
    state TEXT NOT NULL,
    expires_at INTEGER NOT NULL
);
CREATE INDEX account_ceremonies_account ON account_ceremonies (account_id);
CREATE TABLE account_seats (
    room_code TEXT NOT NULL,
    seat TEXT NOT NULL,
    account_id BLOB NOT NULL REFERENCES accounts(id),
    added_at INTEGER NOT NULL,
    PRIMARY KEY (room_code, seat)
);
CREATE INDEX account_seats_account ON account_seats (account_id, added_at);
CREATE TABLE account_sign_in_links (
    secret_hash BLOB PRIMARY KEY,
    account_id BLOB NOT NULL REFERENCES accounts(id),
    expires_at INTEGER NOT NULL
);
CREATE INDEX account_sign_in_links_account ON account_sign_in_links (account_id);
CREATE TABLE account_sign_in_mails (
    email_key BLOB NOT NULL,
    sent_at INTEGER NOT NULL
);
CREATE INDEX account_sign_in_mails_key ON account_sign_in_mails (email_key, sent_at);
";
