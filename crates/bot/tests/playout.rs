//! The search's playout policy: it finishes games from any determinized position, and plays the
//! struggle like a player (it beats uniformly random play from the same positions).

// Test code: a failed unwrap is a failed test, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use evr_bot::playout::{Fast, Policy, playout};
use evr_rules::{Faction, Game, Mode, Viewer};
use rand::rngs::ChaCha20Rng;
use rand::{RngExt, SeedableRng};

#[test]
fn heuristic_playouts_finish_and_beat_random_ones() {
    let mut rng = ChaCha20Rng::seed_from_u64(11);
    let mut fast = Fast(5);
    let mut buf = Vec::new();
    // The heuristic side's wins over random play, each side in turn, from early positions.
    let (mut won, mut played) = (0, 0);
    for seed in 0..40u64 {
        let mut game = Game::new(Mode::Full, seed).unwrap();
        for _ in 0..rng.random_range(0..30) {
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
            assert!(
                playout(&mut g, Policy::Heuristic, &mut fast, &mut buf, 0).is_some(),
                "seed {seed}"
            );
        }
        // Heuristic against random: the heuristic's seat acts by the policy, the other at random.
        for heuristic in Faction::BOTH {
            let mut g = game.clone();
            while !g.is_over() {
                let f = g.seats_to_act()[0];
                let legal = g.legal_actions(f);
                let a = if f == heuristic {
                    evr_bot::playout::choose_for(&g, f, &legal, &mut fast)
                } else {
                    legal[fast.below(legal.len())]
                };
                g.apply(f, a).unwrap();
            }
            played += 1;
            if g.outcome().unwrap().winner == Some(heuristic) {
                won += 1;
            }
        }
    }
    eprintln!("the heuristic won {won} of {played}");
    assert!(won * 100 >= played * 65, "the heuristic won {won} of {played}");
}
