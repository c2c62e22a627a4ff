//! A replay of a whole game verifies; changing one action, the seed, the salt or the result is
//! reported as a mismatch at its step; a file of another format or version is refused.

// Test helpers: a failing expectation is the test's failure.
#![allow(clippy::expect_used)]

use evr_protocol::Fairness;
use evr_replay::{FORMAT, Mismatch, Replay, ReplayAction, VERSION, verify};
use evr_rules::{Action, Faction, Game, GameSeed, Mode, Viewer};
use sha2::{Digest, Sha256};

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A whole game from `key`, its actions chosen by a fixed sequence among the legal ones.
fn finished_game(key: [u8; 32], salt: [u8; 16], script: u64) -> Replay {
    let mut game = Game::with_seed(Mode::Full, GameSeed::Key(key)).expect("a game");
    let mut state = script;
    let mut actions = Vec::new();
    while !game.is_over() {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let seats = game.seats_to_act();
        let seat = seats[(state >> 33) as usize % seats.len()];
        let legal = game.legal_actions(seat);
        let action = legal[(state >> 17) as usize % legal.len()];
        game.apply(seat, action).expect("a legal action");
        actions.push(ReplayAction {
            seq: 10 + actions.len() as u32 + 1,
            seat,
            action,
        });
        assert!(actions.len() < 5000, "the game ends");
    }
    Replay {
        format: FORMAT.into(),
        version: VERSION,
        room: "KJCHM97E".into(),
        game_number: 2,
        mode: Mode::Full,
        creator_faction: Faction::Imperial,
        fairness: Fairness {
            commitment: hex(&Sha256::new().chain_update(salt).chain_update(key).finalize()),
            seed: Some(hex(&key)),
            salt: Some(hex(&salt)),
        },
        start_seq: 10,
        actions,
        outcome: game.view(Viewer::Spectator).outcome,
        forfeit_winner: None,
        forfeit_reason: None,
        names: evr_rules::ByFaction::new(None, Some("Ana".into())),
    }
}

fn replay() -> Replay {
    finished_game([9; 32], [4; 16], 3)
}

#[test]
fn a_recorded_game_verifies() {
    let r = replay();
    let v = verify(&r).expect("verified");
    assert_eq!(v.actions, r.actions.len());
    assert_eq!(v.outcome, r.outcome);
    // and survives its file format
    let text = serde_json::to_string(&r).expect("json");
    assert_eq!(
        verify(&Replay::from_json(&text).expect("read"))
            .expect("verified")
            .actions,
        r.actions.len()
    );
}

#[test]
fn a_changed_seed_or_salt_fails_the_commitment_at_step_0() {
    let mut r = replay();
    let mut seed = r.fairness.seed.clone().expect("seed").into_bytes();
    seed[0] = if seed[0] == b'0' { b'1' } else { b'0' };
    r.fairness.seed = Some(String::from_utf8(seed).expect("ascii"));
    let e = verify(&r).expect_err("a changed seed");
    assert!(matches!(e, Mismatch::Commitment { .. }), "{e}");
    assert_eq!(e.step(), Some(0));

    let mut r = replay();
    r.fairness.salt = Some("00".repeat(16));
    let e = verify(&r).expect_err("a changed salt");
    assert!(matches!(e, Mismatch::Commitment { .. }), "{e}");
    assert_eq!(e.step(), Some(0));
}

#[test]
fn a_changed_action_is_refused_at_its_step() {
    let mut r = replay();
    // a struggle action given to the other seat: not that seat's turn
    let k = r
        .actions
        .iter()
        .position(|a| matches!(a.action, Action::PlayCard | Action::Pass))
        .expect("a struggle action");
    r.actions[k].seat = r.actions[k].seat.opponent();
    let e = verify(&r).expect_err("a changed action");
    assert!(matches!(e, Mismatch::Refused { .. }), "{e}");
    assert_eq!(e.step(), Some(k + 1));
}

#[test]
fn a_dropped_action_breaks_the_seq_at_its_step() {
    let mut r = replay();
    r.actions.remove(5);
    let e = verify(&r).expect_err("a missing action");
    assert_eq!(
        e,
        Mismatch::Seq {
            step: 6,
            seq: 17,
            expected: 16
        }
    );
}

#[test]
fn a_changed_result_is_reported_at_the_last_step() {
    let mut r = replay();
    let n = r.actions.len();
    let outcome = r.outcome.as_mut().expect("an outcome");
    outcome.winner = match outcome.winner {
        Some(w) => Some(w.opponent()),
        None => Some(Faction::Rebel),
    };
    let e = verify(&r).expect_err("a changed result");
    assert!(matches!(e, Mismatch::Result { .. }), "{e}");
    assert_eq!(e.step(), Some(n));

    // a claimed win on a game the rules had already ended
    let mut r = replay();
    r.forfeit_winner = Some(Faction::Rebel);
    assert!(matches!(verify(&r), Err(Mismatch::Result { .. })));
    // and both out of time on a game the rules had already ended
    let mut r = replay();
    r.forfeit_reason = Some(evr_protocol::ForfeitReason::BothOutOfTime);
    assert!(matches!(verify(&r), Err(Mismatch::Result { .. })));
}

#[test]
fn a_game_both_ran_out_of_time_in_verifies_with_no_winner() {
    // the first few actions of a game, then both out of time: the rules had not ended it
    let mut r = replay();
    r.actions.truncate(3);
    r.outcome = None;
    let text = |r: &Replay| serde_json::to_string(r).expect("json");
    assert!(
        matches!(verify(&r), Err(Mismatch::Result { .. })),
        "unended with no reason"
    );
    r.forfeit_reason = Some(evr_protocol::ForfeitReason::BothOutOfTime);
    let read = Replay::from_json(&text(&r)).expect("read");
    assert!(text(&r).contains(r#""forfeit_reason":"both_out_of_time""#));
    assert_eq!(verify(&read).expect("verified").outcome, None);
    // a file of a game the rules ended carries no such field, as before
    assert!(!text(&replay()).contains("forfeit_reason"));
}

#[test]
fn other_files_are_refused_with_a_reason() {
    assert!(matches!(Replay::from_json("{"), Err(Mismatch::Malformed(_))));
    let mut r = replay();
    r.version = VERSION + 1;
    let text = serde_json::to_string(&r).expect("json");
    match Replay::from_json(&text) {
        Err(Mismatch::Malformed(why)) => assert!(why.contains("version"), "{why}"),
        other => panic!("expected a refusal, got {other:?}"),
    }
    let mut r = replay();
    r.fairness.seed = None;
    assert!(matches!(verify(&r), Err(Mismatch::Secret(_))));
}

/// `proto/examples/replay-v1.json`, the format's worked example (read by `evr verify`'s tests):
/// regenerated with `EVR_UPDATE_PROTO=1 cargo test -p evr-replay`, otherwise checked unchanged.
#[test]
fn the_example_replay_file_is_current_and_verifies() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../proto/examples/replay-v1.json");
    let mut text = serde_json::to_string_pretty(&finished_game([0x5e; 32], [0xa1; 16], 11)).expect("json");
    text.push('\n');
    if std::env::var_os("EVR_UPDATE_PROTO").is_some() {
        std::fs::create_dir_all(path.parent().expect("a folder")).expect("proto/examples");
        std::fs::write(&path, &text).expect("written");
    }
    let committed =
        std::fs::read_to_string(&path).expect("proto/examples/replay-v1.json (EVR_UPDATE_PROTO=1 writes it)");
    assert_eq!(
        committed, text,
        "proto/examples/replay-v1.json is stale: EVR_UPDATE_PROTO=1 cargo test -p evr-replay"
    );
    verify(&Replay::from_json(&committed).expect("read")).expect("verified");
}
