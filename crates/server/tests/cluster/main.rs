//! Several server nodes on one PostgreSQL store behind HAProxy (`docker/haproxy.cfg`): whole games
//! survive nodes killed with SIGKILL (`chaos.rs`), a node that lost a room to another can commit
//! nothing for it (`partition.rs`), every request of a room reaches one node however its code is
//! typed (`routing.rs`), a node cut off from the database steps aside while its games go on
//! elsewhere (`store_cut.rs`), bad store settings stop a server at start (`bad_config.rs`), TLS to
//! PostgreSQL checks what libpq's `sslmode` says (`tls.rs`, on a second PostgreSQL with `ssl=on` from
//! `EVR_TEST_POSTGRES_TLS`), a `pg_dump` taken during games restores every one of them
//! (`restore.rs`), and a rolling restart under 300 human-paced matches fails none and loses nothing
//! (`roll.rs`). Real processes on loopback: PostgreSQL from `EVR_TEST_POSTGRES` (scripts/test.sh
//! starts a throwaway cluster), `haproxy` from the PATH, `evr-server` as built for this test (and for
//! `restore.rs` `evr-loadgen` and `evr` beside it, `pg_dump`/`pg_restore` of the server's version).
//!
//! Ignored by a plain `cargo test` (they need those services); scripts/test.sh runs them with
//! `--ignored` once it has started PostgreSQL.

// Test code: a failed unwrap is a failed test, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../support/mod.rs"]
mod support;

mod accounts;
mod bad_config;
mod chaos;
mod deadlines;
mod front_door;
mod nodes;
mod partition;
mod player;
mod ratings;
mod restore;
mod roll;
mod routing;
mod store_cut;
mod tls;
