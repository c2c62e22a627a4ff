//! The playouts' value table (`evr_bot::value`) and the playouts that stop between rounds.

use evr_bot::playout::{Fast, Policy, playout};
use evr_bot::value::{self, SIDE, TABLE};
use evr_rules::{Game, Mode};
use rand::rngs::ChaCha20Rng;
use rand::{RngExt, SeedableRng};

/// The committed table is the fit of the playout policy that `evr-arena values` prints: a change
/// of the policy (or of the rules) that is not refitted fails here (~3 s in release).
#[test]
fn the_value_table_is_what_its_fit_prints() {
    let fit = value::fit(200_000, 46);
    assert_eq!(
        fit.table(),
        TABLE,
        "refit: target/release/evr-arena values --games 200000 --seed 46"
    );
    // Every cell is measured, not the prior alone.
    let fewest = fit.decided.iter().flatten().min().copied().unwrap_or(0);
    assert!(fewest >= 5_000, "a cell has only {fewest} round starts");
}

/// More VP of one's own is worth more; more of the opponent's is worth less; level VP are close
/// to an even game.
#[test]
fn the_table_favours_the_side_ahead() {
    for r in 0..SIDE {
        for i in 0..SIDE {
            if r + 1 < SIDE {
                assert!(TABLE[r + 1][i] > TABLE[r][i], "[{r}][{i}] → [{}][{i}]", r + 1);
            }
            if i + 1 < SIDE {
                assert!(TABLE[r][i + 1] < TABLE[r][i], "[{r}][{i}] → [{r}][{}]", i + 1);
            }
        }
        let even = f64::from(TABLE[r][r]) / 10_000.0;
        assert!((even - 0.5).abs() < 0.05, "[{r}][{r}]: {even}");
    }
}

/// A playout told to stop after N rounds ends the game or stops at the start of the N-th next
/// round, wherever it starts; with 0 it plays to the end.
#[test]
fn a_playout_stops_when_its_rounds_have_ended() {
    let mut buf = Vec::new();
    let (mut stopped, mut over) = (0, 0);
    for seed in 0..100u64 {
        let mut rng = ChaCha20Rng::seed_from_u64(seed);
        let mut g = Game::new(Mode::Full, seed).unwrap();
        // A random point of the game to start from.
        let steps = rng.random_range(0..150);
        for _ in 0..steps {
            let seats = g.seats_to_act();
            if seats.is_empty() {
                break;
            }
            let f = seats[rng.random_range(0..seats.len())];
            let legal = g.legal_actions(f);
            g.apply(f, legal[rng.random_range(0..legal.len())]).unwrap();
        }
        if g.is_over() {
            continue;
        }
        let rounds = 1 + (seed % 3) as u8;
        let start = g.round();
        let mut fast = Fast(seed);
        let mut whole = g.clone();
        let outcome = playout(&mut g, Policy::Heuristic, &mut fast, &mut buf, rounds);
        if g.is_over() {
            over += 1;
            assert!(outcome.is_some(), "seed {seed}");
            assert!(g.round() <= start + u32::from(rounds), "seed {seed}");
        } else {
            stopped += 1;
            assert_eq!(outcome, None, "seed {seed}");
            assert_eq!(
                g.round(),
                start + u32::from(rounds),
                "seed {seed}: stopped in the wrong round"
            );
            let score = value::rebel_score(&g);
            assert!((0.0..=1.0).contains(&score), "seed {seed}: {score}");
        }
        assert!(playout(&mut whole, Policy::Heuristic, &mut Fast(seed), &mut buf, 0).is_some());
        assert!(whole.is_over(), "seed {seed}: a playout without rounds stopped early");
    }
    assert!(stopped > 40 && over > 0, "{stopped} stopped, {over} over");
}
