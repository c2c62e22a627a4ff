//! `Game::sample_from_view` rebuilds a game the seat cannot tell from the real one: its view is
//! byte-identical (serde_json) and so are its legal actions, at every point of random games.

// Test code: a failed unwrap is a failed test, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use evr_rules::{Faction, Game, Mode, Viewer};
use rand::rngs::ChaCha20Rng;
use rand::{RngExt, SeedableRng};

fn first_difference(a: &serde_json::Value, b: &serde_json::Value, path: &str) -> Option<String> {
    match (a, b) {
        (serde_json::Value::Object(x), serde_json::Value::Object(y)) => {
            for (k, v) in x {
                let w = y.get(k).unwrap_or(&serde_json::Value::Null);
                if let Some(d) = first_difference(v, w, &format!("{path}.{k}")) {
                    return Some(d);
                }
            }
            None
        }
        _ if a != b => Some(format!("{path}: {a} != {b}")),
        _ => None,
    }
}

static PENDING: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

fn check_game(mode: Mode, seed: u64, samples_per_point: u64) -> usize {
    let mut game = Game::new(mode, seed).unwrap();
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let mut checked = 0;
    let mut steps = 0;
    while !game.is_over() && steps < 3000 {
        for seat in Faction::BOTH {
            let view = game.view(Viewer::Seat(seat));
            let json = serde_json::to_value(&view).unwrap();
            for k in 0..samples_per_point {
                let sampled = Game::sample_from_view(&view, seed * 7919 + steps * 31 + k)
                    .unwrap_or_else(|e| panic!("seed {seed} step {steps} {seat:?}: {e}\n{json}"));
                let again = serde_json::to_value(sampled.view(Viewer::Seat(seat))).unwrap();
                if let Some(d) = first_difference(&json, &again, "view") {
                    panic!("seed {seed} step {steps} {seat:?}: {d}");
                }
                // Byte-identical, not only equal as values.
                assert_eq!(
                    serde_json::to_string(&view).unwrap(),
                    serde_json::to_string(&sampled.view(Viewer::Seat(seat))).unwrap()
                );
                if view.pending.as_ref().is_some_and(|p| p.owner == seat) {
                    PENDING.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                }
                assert_eq!(sampled.legal_actions(seat), game.legal_actions(seat));
                checked += 1;
            }
        }
        let seats = game.seats_to_act();
        let seat = seats[rng.random_range(0..seats.len())];
        let legal = game.legal_actions(seat);
        let a = legal[rng.random_range(0..legal.len())];
        game.apply(seat, a).unwrap();
        steps += 1;
    }
    checked
}

#[test]
fn sampled_games_show_the_same_view_in_full_games() {
    let mut checked = 0;
    for seed in 0..150 {
        checked += check_game(Mode::Full, seed, 2);
    }
    let pending = PENDING.load(std::sync::atomic::Ordering::Relaxed);
    eprintln!("{checked} views checked, {pending} with the seat's own pending choice");
    assert!(checked > 10_000);
    assert!(pending > 500);
}

#[test]
fn sampled_games_show_the_same_view_in_the_tutorial() {
    for seed in 0..20 {
        check_game(Mode::Tutorial, seed, 2);
    }
}

#[test]
fn sampled_games_play_on_to_the_end() {
    // A determinization is a working game: random play from it finishes without errors.
    let mut rng = ChaCha20Rng::seed_from_u64(5);
    for seed in 0..30u64 {
        let mut game = Game::new(Mode::Full, seed).unwrap();
        for _ in 0..rng.random_range(0..400) {
            if game.is_over() {
                break;
            }
            let seats = game.seats_to_act();
            let seat = seats[rng.random_range(0..seats.len())];
            let legal = game.legal_actions(seat);
            game.apply(seat, legal[rng.random_range(0..legal.len())]).unwrap();
        }
        for seat in Faction::BOTH {
            let mut g = Game::sample_from_view(&game.view(Viewer::Seat(seat)), seed).unwrap();
            let mut n = 0;
            while !g.is_over() && n < 20_000 {
                let seats = g.seats_to_act();
                assert!(!seats.is_empty(), "seed {seed}: nobody can act");
                let s = seats[rng.random_range(0..seats.len())];
                let legal = g.legal_actions(s);
                g.apply(s, legal[rng.random_range(0..legal.len())]).unwrap();
                n += 1;
            }
            assert!(g.is_over());
        }
    }
}
