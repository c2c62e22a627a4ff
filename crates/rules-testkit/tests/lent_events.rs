//! `Game::apply_borrowed` (the computer's playouts) is `Game::apply` without the copy of the
//! events: over seeded random games of every kind, two copies of a game, one played with each,
//! give the same events and the same refusals at every step, and stay the same game (`Debug`,
//! which shows every field, included).

// Test code: a failed unwrap is a failed test, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

// The engine with its testing accessors, under the name every user of the engine knows.
extern crate evr_rules_testkit as evr_rules;

use evr_rules::{Action, Faction, Game};
use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};

mod common;
use common::{Kind, new_game, pick_seat};

/// An action to try: mostly a listed one of a seat that may act, sometimes one of the other
/// seat's or a bare `Pass`, which the engine may refuse.
fn pick(g: &Game, rng: &mut ChaCha8Rng) -> (Faction, Action) {
    let seat = pick_seat(g, rng);
    match rng.random_range(0..10u8) {
        0 => (seat.opponent(), Action::Pass),
        1 => {
            let theirs = g.legal_actions(seat.opponent());
            match theirs.first() {
                Some(a) => (seat, *a),
                None => (seat.opponent(), Action::Pass),
            }
        }
        _ => {
            let legal = g.legal_actions(seat);
            (seat, legal[rng.random_range(0..legal.len())])
        }
    }
}

#[test]
fn lent_events_are_the_events_apply_hands_over() {
    let (mut steps, mut refused) = (0u32, 0u32);
    for (kind, games) in [(Kind::Full, 120u64), (Kind::Tutorial, 30), (Kind::Setup, 60)] {
        for seed in 0..games {
            let seed = seed + 40_000_000 + 1_000_000 * kind as u64;
            let Some(mut handed) = new_game(kind, seed) else {
                continue;
            };
            let mut lent = handed.clone();
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            while !handed.is_over() {
                let (seat, action) = pick(&handed, &mut rng);
                let a = handed.apply(seat, action);
                let b = lent.apply_borrowed(seat, action).map(<[_]>::to_vec);
                assert_eq!(a, b, "{kind:?} seed {seed}: {seat:?} {action:?}");
                refused += u32::from(a.is_err());
                steps += 1;
                assert_eq!(
                    format!("{handed:?}"),
                    format!("{lent:?}"),
                    "{kind:?} seed {seed}: the games differ after {seat:?} {action:?}"
                );
            }
            assert!(lent.is_over(), "{kind:?} seed {seed}");
        }
    }
    // The comparison covered both answers of the engine, many times.
    assert!(steps > 20_000, "{steps} steps");
    assert!(refused > 1_000, "{refused} refusals");
}
