//! Integration tests of the match server: a real server on 127.0.0.1, real WebSocket clients.

#[path = "../support/mod.rs"]
mod support;

mod bad_input;
mod computer;
mod durability;
mod games;
mod hidden_info;
mod memory;
mod resume;
mod rooms;
