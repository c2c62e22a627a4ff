//! Views and log entries read back from their JSON exactly as they were (clients written in Rust,
//! such as the bot client, parse what the server sends).

// Test code: a failed unwrap is a failed test, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use evr_rules::{Faction, Game, LogEntry, Mode, View, Viewer};
use rand::{RngExt, SeedableRng};

#[test]
fn views_and_log_entries_survive_a_json_round_trip() {
    let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(11);
    let mut checked = 0usize;
    for seed in 0..150u64 {
        let mode = if seed % 10 == 0 { Mode::Tutorial } else { Mode::Full };
        let mut game = Game::new(mode, seed).expect("a new game");
        while !game.is_over() {
            if rng.random_range(0..4) == 0 {
                for viewer in Viewer::ALL {
                    let json = serde_json::to_string(&game.view(viewer)).expect("serialize");
                    let back: View = serde_json::from_str(&json).expect("a view reads back");
                    assert_eq!(serde_json::to_string(&back).expect("serialize"), json);
                    assert_eq!(back, game.view(viewer));
                    checked += 1;
                }
            }
            let seats: Vec<Faction> = game.seats_to_act();
            let seat = seats[rng.random_range(0..seats.len())];
            let legal = game.legal_actions(seat);
            let action = legal[rng.random_range(0..legal.len())];
            for event in game.apply(seat, action).expect("a legal action") {
                for viewer in Viewer::ALL {
                    let entry = event.project(viewer);
                    let back: LogEntry = serde_json::from_str(&serde_json::to_string(&entry).expect("serialize"))
                        .expect("a log entry reads back");
                    assert_eq!(back, entry);
                }
            }
        }
    }
    assert!(checked > 3000, "only {checked} views checked");
}
