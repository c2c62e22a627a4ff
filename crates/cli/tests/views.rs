//! `evr views`: its output is what the server would send each viewer, so a client replaying it
//! replays real games. Checked here: the changes rebuild each viewer's view exactly, the events are
//! the viewer's projection, `--fields` keeps only the named fields, bad input exits with 2.

// Test code: a failed unwrap is a failed test, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::process::Command;

use serde_json::Value;

use evr_cli::random::play_random;
use evr_cli::scenario::EXIT_BAD_INPUT;
use evr_cli::views::{VIEWERS, viewer_games};
use evr_rules::{LogEntry, Mode, View, ViewChanges};

fn evr(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_evr"))
        .args(args)
        .output()
        .expect("run the evr binary")
}

#[test]
fn each_viewers_changes_rebuild_its_view_and_its_events_are_its_projection() {
    for seed in [3, 4] {
        let received = viewer_games(Mode::Full, seed).unwrap();
        let mut events_by_step = Vec::new();
        let game = play_random(Mode::Full, seed, |_, events| events_by_step.push(events.to_vec())).unwrap();
        assert!(game.is_over());
        assert_eq!(received.len(), VIEWERS.len());
        for (viewer, got) in VIEWERS.iter().zip(&received) {
            assert_eq!(got.viewer, *viewer);
            assert_eq!(got.updates.len() + 1, events_by_step.len(), "one update per action");
            let mut view: View = serde_json::from_value(Value::Object(got.view.clone())).unwrap();
            let start_log: Vec<LogEntry> = events_by_step[0].iter().map(|e| e.project(*viewer)).collect();
            assert_eq!(view.log, start_log);
            for (update, events) in got.updates.iter().zip(&events_by_step[1..]) {
                let changes: ViewChanges = serde_json::from_value(Value::Object(update.changes.clone())).unwrap();
                view.apply_changes(changes);
                let projected: Vec<LogEntry> = events.iter().map(|e| e.project(*viewer)).collect();
                assert_eq!(update.events, projected);
            }
            view.log = Vec::new();
            assert_eq!(view, game.view_without_log(*viewer), "seed {seed}, {viewer:?}");
        }
    }
}

#[test]
fn the_command_prints_a_line_per_game_and_viewer_keeps_only_the_fields_asked_and_is_deterministic() {
    let out = evr(&[
        "views",
        "--games",
        "2",
        "--first-seed",
        "7",
        "--fields",
        "rounds,pending",
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let again = evr(&[
        "views",
        "--games",
        "2",
        "--first-seed",
        "7",
        "--fields",
        "rounds,pending",
    ]);
    assert_eq!(out.stdout, again.stdout);
    let lines: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 6);
    for (i, line) in lines.iter().enumerate() {
        assert_eq!(line["seed"], 7 + i as u64 / 3);
        assert_eq!(line["viewer"], serde_json::to_value(VIEWERS[i % 3]).unwrap());
        let keys: Vec<&String> = line["view"].as_object().unwrap().keys().collect();
        assert_eq!(keys, ["pending", "rounds"]);
        for u in line["updates"].as_array().unwrap() {
            assert!(
                u["changes"]
                    .as_object()
                    .unwrap()
                    .keys()
                    .all(|k| k == "rounds" || k == "pending")
            );
        }
    }
    // Every round a game played is decided in every viewer's log.
    let decided = lines[0]["updates"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|u| u["events"].as_array().unwrap())
        .filter(|e| e["type"] == "round_decided")
        .count();
    assert!(decided > 0);
}

#[test]
fn bad_input_exits_with_2() {
    for args in [
        &["views"][..],
        &["views", "--games", "x"],
        &["views", "--games", "1", "--fields", "rounds,nope"],
        &["views", "--games", "1", "--mode", "both"],
        &["views", "--games"],
    ] {
        let out = evr(args);
        assert_eq!(out.status.code(), Some(EXIT_BAD_INPUT), "{args:?}");
        assert!(!out.stderr.is_empty());
    }
}
