//! The accounts' tables on PostgreSQL.

/// The schema version that adds the accounts (`postgres/schema.rs`), as SQLite's
/// (`sqlite/accounts.rs`).
pub(crate) const ACCOUNTS_SCHEMA: &str = "
CREATE TABLE accounts (
    id BYTEA PRIMARY KEY,
    username TEXT,
    username_key TEXT NOT NULL UNIQUE,
    created_at BIGINT NOT NULL,
    deleted_at BIGINT,
    email TEXT,
    email_confirmed BOOLEAN NOT NULL DEFAULT FALSE,
    email_confirm_hash BYTEA UNIQUE,
    email_confirm_expires_at BIGINT
);
CREATE INDEX accounts_email ON accounts (email);
CREATE TABLE account_passkeys (
    credential_id BYTEA PRIMARY KEY,
    account_id BYTEA NOT NULL REFERENCES accounts(id),
    passkey TEXT NOT NULL,
    label TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    last_used_at BIGINT
);
CREATE INDEX account_passkeys_account ON account_passkeys (account_id);
CREATE TABLE account_sessions (
    id_hash BYTEA PRIMARY KEY,
    account_id BYTEA NOT NULL REFERENCES accounts(id),
    label TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    last_seen_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);
CREATE INDEX account_sessions_account ON account_sessions (account_id);
CREATE TABLE account_ceremonies (
    id_hash BYTEA PRIMARY KEY,
    kind TEXT NOT NULL,
    account_id BYTEA,
    username TEXT,
    state TEXT NOT NULL,
    expires_at BIGINT NOT NULL
);
CREATE INDEX account_ceremonies_account ON account_ceremonies (account_id);
CREATE TABLE account_seats (
    room_code TEXT NOT NULL,
    seat TEXT NOT NULL,
    account_id BYTEA NOT NULL REFERENCES accounts(id),
    added_at BIGINT NOT NULL,
    PRIMARY KEY (room_code, seat)
);
CREATE INDEX account_seats_account ON account_seats (account_id, added_at);
CREATE TABLE account_sign_in_links (
    secret_hash BYTEA PRIMARY KEY,
    account_id BYTEA NOT NULL REFERENCES accounts(id),
    expires_at BIGINT NOT NULL
);
CREATE INDEX account_sign_in_links_account ON account_sign_in_links (account_id);
CREATE TABLE account_sign_in_mails (
    email_key BYTEA NOT NULL,
    sent_at BIGINT NOT NULL
);
CREATE INDEX account_sign_in_mails_key ON account_sign_in_mails (email_key, sent_at);
";
