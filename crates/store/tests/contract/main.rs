//! What every `Store` must do, whatever the database (`core.rs`: rooms, games, actions, chat,
//! claims; `seats.rs`: join codes, names, devices, transfer links; `accounts.rs`: accounts, passkeys,
//! sessions, ceremonies, kept seats, email, sign-in links). Each test runs against SQLite
//! always and PostgreSQL when `EVR_TEST_POSTGRES` names a server whose user may create databases
//! (scripts/test.sh starts a throwaway one).

// Test code: a failed unwrap is a failed test, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod account_lifecycle;
mod accounts;
mod core;
mod deadlines;
mod friends;
mod mail;
mod ratings;
mod seats;
mod signals;
mod support;
