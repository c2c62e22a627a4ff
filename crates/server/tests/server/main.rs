//! Integration tests of the match server: a real server on 127.0.0.1, real WebSocket clients.

// Test code: a failed unwrap is a failed test, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../support/mod.rs"]
mod support;

mod account_events;
mod accounts;
mod backup;
mod bad_input;
mod chat;
mod clocks;
mod computer;
mod correspondence;
mod defences;
mod devices;
mod drain;
mod durability;
mod friends;
mod front_door;
mod games;
mod hidden_info;
mod mail;
mod memory;
mod names;
mod old_release;
mod ratings;
mod refusals;
mod replay_steps;
mod replays;
mod resume;
mod rooms;
mod seats;
