//! The ladder: its statistics against hand-computed values, the sequential test on synthetic
//! streams, the rating fit on known ratings, and duplicate pairs that really swap the sides of
//! one deal.

// Test code: a failed unwrap is a failed test, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use evr_bot::anchors::{self, Anchor};
use evr_bot::arena::stats::{
    MatchResult, Pentanomial, Sprt, SprtState, bradley_terry, bradley_terry_intervals, elo_from_score, score_from_elo,
};
use evr_bot::arena::{NAMES, PlayerSpec, pair_seed, play_pair};
use evr_rules::{Faction, Game, Mode, Viewer};
use rand::rngs::ChaCha20Rng;
use rand::{RngExt, SeedableRng};

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

#[test]
fn elo_and_interval_of_a_known_pentanomial() {
    // 10 pairs: 1 × 0, 2 × ½, 3 × 1, 2 × 1½, 2 × 2 points. By hand: μ = (0 + 2·.25 + 3·.5 +
    // 2·.75 + 2·1)/10 = .55; σ² = (.55² + 2·.3² + 3·.05² + 2·.2² + 2·.45²)/10 = .0975;
    // Elo = −400 log10(1/.55 − 1) = 34.86; μ ± 1.96·√(.0975/10) = [.35647, .74353] →
    // [−102.62, +184.91].
    let p = Pentanomial {
        counts: [1, 2, 3, 2, 2],
    };
    let e = p.elo().unwrap();
    assert_eq!(e.pairs, 10);
    assert!(close(e.score, 0.55, 1e-12), "{e:?}");
    assert!(close(e.variance, 0.0975, 1e-12), "{e:?}");
    assert!(close(e.elo, 34.860, 0.01), "{e:?}");
    assert!(close(e.lo, -102.619, 0.01), "{e:?}");
    assert!(close(e.hi, 184.906, 0.01), "{e:?}");
    // LLR for elo0 = 0, elo1 = 10: 10 (μ1 − μ0)(2μ − μ0 − μ1) / (2σ²) with μ1 = L(10) = .514387.
    assert!(close(p.llr(0.0, 10.0), 0.063_166, 1e-5), "{}", p.llr(0.0, 10.0));
    // Even scores are 0 Elo; the logistic conversions are inverses.
    assert!(close(
        Pentanomial {
            counts: [0, 0, 5, 0, 0]
        }
        .elo()
        .unwrap()
        .elo,
        0.0,
        1e-9
    ));
    assert!(close(elo_from_score(score_from_elo(123.0)), 123.0, 1e-9));
    assert!(close(score_from_elo(400.0), 10.0 / 11.0, 1e-12));
}

#[test]
fn sprt_bounds_are_those_of_five_percent_errors() {
    let (lo, hi) = Sprt::new(0.0, 10.0).bounds();
    assert!(close(lo, -2.944_439, 1e-5) && close(hi, 2.944_439, 1e-5), "{lo} {hi}");
}

/// Feeds a repeating stream of pair results (half points) until the test decides.
fn run(test: &Sprt, stream: &[u8], max: usize) -> (SprtState, usize) {
    let mut p = Pentanomial::default();
    for i in 0..max {
        p.add(stream[i % stream.len()]);
        let s = test.state(&p);
        if s != SprtState::Continue {
            return (s, i + 1);
        }
    }
    (SprtState::Continue, max)
}

#[test]
fn sprt_stops_for_a_clearly_better_stream_and_for_a_clearly_equal_one() {
    let test = Sprt::new(0.0, 50.0);
    // Mean .7 per pair (about +147 Elo): H1, and not on the first pairs.
    let (s, n) = run(&test, &[4, 3, 2, 3, 2, 4, 1, 3, 3, 3], 10_000);
    assert_eq!(s, SprtState::H1, "after {n} pairs");
    assert!((30..400).contains(&n), "H1 after {n} pairs");
    // Mean .5 (0 Elo): H0.
    let (s, n) = run(&test, &[2, 1, 3, 2, 2, 4, 0, 2], 10_000);
    assert_eq!(s, SprtState::H0, "after {n} pairs");
    assert!((30..2_000).contains(&n), "H0 after {n} pairs");
    // A clearly worse stream is H0 too.
    assert_eq!(run(&test, &[0, 1, 2, 1], 10_000).0, SprtState::H0);
    // Identical pairs have no variance: still a decision, not a division by zero, and not before
    // the minimum number of pairs.
    assert_eq!(run(&test, &[4], 100), (SprtState::H1, 30));
    assert_eq!(run(&test, &[2], 100), (SprtState::H0, 30));
}

#[test]
fn bradley_terry_recovers_known_ratings() {
    // Three players at 0, +100, +300: every match scores exactly its expected score over many
    // pairs (pair results 4 and 0 in the expected proportion), so the fit must find them.
    let truth = [0.0, 100.0, 300.0];
    let mut matches = Vec::new();
    for (a, b) in [(1, 0), (2, 1), (2, 0)] {
        let p = score_from_elo(truth[a] - truth[b]);
        let n = 200_000;
        let wins = (p * n as f64).round() as usize;
        let pairs: Vec<u8> = (0..n).map(|i| if i < wins { 4 } else { 0 }).collect();
        matches.push(MatchResult { a, b, pairs });
    }
    let r = bradley_terry(3, &matches, 0);
    for i in 0..3 {
        assert!(close(r[i], truth[i], 0.5), "{r:?}");
    }
    // Anchored elsewhere, the differences stay.
    let r1 = bradley_terry(3, &matches, 1);
    assert!(close(r1[0], -100.0, 0.5) && close(r1[2], 200.0, 0.5), "{r1:?}");
    // A clean sweep stays finite (the virtual draw): one pair won 2–0 is 2.5 points of 3 games
    // with the virtual draw, so γ1/γ0 = 2.5/0.5 and the gap is 400·log10(5) = 279.59.
    let sweep = [MatchResult {
        a: 1,
        b: 0,
        pairs: vec![4],
    }];
    let s = bradley_terry(2, &sweep, 0);
    assert!(close(s[0], 0.0, 1e-9) && close(s[1], 279.588, 0.01), "{s:?}");
    // The bootstrap interval holds the fit and is narrow with many pairs.
    let small: Vec<MatchResult> = matches
        .iter()
        .map(|m| MatchResult {
            a: m.a,
            b: m.b,
            pairs: m.pairs.iter().step_by(100).copied().collect(),
        })
        .collect();
    for (i, (r, lo, hi)) in bradley_terry_intervals(3, &small, 0, 200, 1).into_iter().enumerate() {
        assert!(lo <= r && r <= hi, "{i}: {r} [{lo}, {hi}]");
        if i > 0 {
            assert!(hi - lo < 80.0 && hi - lo > 5.0, "{i}: {r} [{lo}, {hi}]");
        }
    }
}

#[test]
fn a_duplicate_pair_plays_one_deal_twice_with_the_sides_swapped() {
    let a = PlayerSpec::parse("greedy").unwrap();
    let b = PlayerSpec::parse("random").unwrap();
    for i in 0..4 {
        let r = play_pair(&a, &b, 9, i).unwrap();
        let [g0, g1] = &r.games;
        assert_eq!(r.seed, pair_seed(9, i));
        assert_eq!((g0.seed, g1.seed), (r.seed, r.seed));
        assert_eq!(g0.a_seat, Faction::Rebel);
        assert_eq!(g1.a_seat, Faction::Imperial);
        assert_eq!(g0.deal, g1.deal, "pair {i}: two deals");
        assert_eq!(r.half_points(), g0.a_half_points + g1.a_half_points);
        // A's decisions are A's: greedy thinks, random does not, whichever side A is on.
        assert!(g0.times[0].iter().sum::<std::time::Duration>() > g0.times[1].iter().sum());
        assert!(g1.times[0].iter().sum::<std::time::Duration>() > g1.times[1].iter().sum());
    }
    // Other pairs are other deals.
    assert_ne!(
        play_pair(&a, &b, 9, 0).unwrap().games[0].deal,
        play_pair(&a, &b, 9, 1).unwrap().games[0].deal
    );
}

#[test]
fn pairs_with_iteration_budgets_are_a_function_of_their_seed() {
    let a = PlayerSpec::parse("frozen-hard@i40").unwrap();
    let b = PlayerSpec::parse("flatmc@i40").unwrap();
    let run = || {
        (0..2)
            .map(|i| play_pair(&a, &b, 3, i).unwrap().half_points())
            .collect::<Vec<_>>()
    };
    assert_eq!(run(), run());
}

#[test]
fn player_specs_parse_and_print_back() {
    for n in NAMES {
        let s = PlayerSpec::parse(n).unwrap();
        assert_eq!(s.name(), n);
    }
    for text in [
        "flatmc@i4000",
        "hard@t800",
        "normal@i100,t50",
        "frozen-hard@i10",
        "hard@rp,br",
        "normal@i10,br",
        "hard@rp,br,s0",
        "hard@i2000,p16000",
        "hard@i2000,v3",
        "hard@rp,br,s0,v0",
        "normal@i10,c40",
        "hard@i8000,t800",
    ] {
        assert_eq!(PlayerSpec::parse(text).unwrap().name(), text);
    }
    assert_eq!(PlayerSpec::parse("hard@t800").unwrap().iterations, u32::MAX);
    assert!(PlayerSpec::parse("hardest").is_err());
    assert!(PlayerSpec::parse("hard@x5").is_err());
    assert!(PlayerSpec::parse("hard@iabc").is_err());
    assert!(PlayerSpec::parse("frozen-hard@rp").is_err());
    assert!(PlayerSpec::parse("flatmc@p100").is_err());
    assert!(PlayerSpec::parse("flatmc@v1").is_err());
    assert!(PlayerSpec::parse("greedy@c50").is_err());
}

/// With the earlier playouts, no regret matching, no kept tree and playouts to the end of the game,
/// today's search is the frozen Hard's, decision for decision (what `hard@rp,br,s0,v0` is quoted
/// as in the README).
#[test]
fn hard_without_its_changes_decides_as_the_frozen_hard() {
    use evr_bot::arena::Player;
    let (mut compared, mut steps) = (0, 0);
    for seed in 0..3u64 {
        let mut today = Player::new(PlayerSpec::parse("hard@i150,rp,br,s0,v0").unwrap(), seed);
        let mut frozen = Player::new(PlayerSpec::parse("frozen-hard@i150").unwrap(), seed);
        let mut rng = ChaCha20Rng::seed_from_u64(seed);
        let mut game = Game::new(Mode::Full, seed).unwrap();
        while !game.is_over() && steps < 3000 {
            steps += 1;
            let seat = Faction::BOTH[rng.random_range(0..2)];
            let view = game.view(Viewer::Seat(seat));
            if view.legal_actions.is_empty() {
                continue;
            }
            let a = today.decide(&view).unwrap();
            assert_eq!(Some(a), frozen.decide(&view), "seed {seed}, step {steps}");
            compared += usize::from(view.legal_actions.len() > 1);
            game.apply(seat, a).unwrap();
        }
    }
    assert!(compared > 100, "only {compared} decisions with a choice compared");
}

#[test]
fn every_anchor_plays_legal_actions_from_its_seat_view() {
    for seed in 0..6u64 {
        let mut rng = ChaCha20Rng::seed_from_u64(seed);
        let mut game = Game::new(Mode::Full, seed).unwrap();
        let mut steps = 0;
        while !game.is_over() && steps < 120 {
            for seat in Faction::BOTH {
                let view = game.view(Viewer::Seat(seat));
                if view.legal_actions.is_empty() {
                    continue;
                }
                for anchor in [
                    Anchor::Random,
                    Anchor::Greedy,
                    Anchor::FlatMc,
                    Anchor::FrozenEasy,
                    Anchor::FrozenNormal,
                    Anchor::FrozenHard,
                ] {
                    let a = anchors::decide(anchor, &view, 20, None, &mut rng).unwrap();
                    assert!(view.legal_actions.contains(&a), "{anchor:?}: {a:?} (seed {seed})");
                }
            }
            let seats = game.seats_to_act();
            let seat = seats[rng.random_range(0..seats.len())];
            let legal = game.legal_actions(seat);
            game.apply(seat, legal[rng.random_range(0..legal.len())]).unwrap();
            steps += 1;
        }
    }
}
