//! Regret matching at the secret choices: it finds a dominant move, and mixes where any fixed
//! move can be exploited (matching pennies), which a best reply cannot.

// Test code: a failed unwrap is a failed test, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use evr_bot::playout::Fast;
use evr_bot::regret::Regrets;
use evr_rules::{Action, Faction, Strategy};

fn strategy(s: Strategy) -> Action {
    Action::ChooseStrategy {
        target: Faction::Rebel,
        strategy: s,
    }
}

fn prob(r: &Regrets, a: Action) -> f64 {
    r.average().into_iter().find(|(x, _)| *x == a).map_or(0.0, |(_, p)| p)
}

#[test]
fn regret_matching_finds_a_dominant_move() {
    let (good, bad) = (strategy(Strategy::DirectAssault), strategy(Strategy::Deception));
    let mut r = Regrets::default();
    let mut fast = Fast(1);
    for _ in 0..5_000 {
        let (a, s) = r.sample(&[bad, good], &mut fast);
        r.update(&s, if a == good { 0.9 } else { 0.2 });
    }
    assert!(prob(&r, good) > 0.8, "{:?}", r.average());
    // Purified, the move played is the dominant one.
    for u in [0.0, 0.5, 0.999] {
        assert_eq!(r.final_choice(u), Some(good));
    }
}

#[test]
fn regret_matching_mixes_in_matching_pennies() {
    // The row player wins when both pick the same, the column player when they differ: the only
    // equilibrium is ½–½, and any habit loses.
    let (h, t) = (strategy(Strategy::DirectAssault), strategy(Strategy::Deception));
    let (mut row, mut col) = (Regrets::default(), Regrets::default());
    let mut fast = Fast(7);
    for _ in 0..40_000 {
        let (a, sa) = row.sample(&[h, t], &mut fast);
        let (b, sb) = col.sample(&[h, t], &mut fast);
        let v = if a == b { 1.0 } else { 0.0 };
        row.update(&sa, v);
        col.update(&sb, 1.0 - v);
    }
    for r in [&row, &col] {
        let p = prob(r, h);
        assert!((0.4..0.6).contains(&p), "{:?}", r.average());
    }
    // Both moves are still played: sampled from the average strategy.
    let picks: Vec<_> = (0..20)
        .map(|i| row.final_choice(f64::from(i) / 20.0).unwrap())
        .collect();
    assert!(picks.contains(&h) && picks.contains(&t), "{picks:?}");
}

#[test]
fn regret_matching_copes_with_actions_legal_only_sometimes() {
    // An action legal in half the determinizations keeps its own statistics.
    let (a, b, c) = (
        strategy(Strategy::DirectAssault),
        strategy(Strategy::Deception),
        strategy(Strategy::Support),
    );
    let mut r = Regrets::default();
    let mut fast = Fast(3);
    for i in 0..6_000 {
        let legal: &[Action] = if i % 2 == 0 { &[a, b] } else { &[a, b, c] };
        let (x, s) = r.sample(legal, &mut fast);
        r.update(
            &s,
            if x == c {
                1.0
            } else if x == b {
                0.5
            } else {
                0.0
            },
        );
        assert!(legal.contains(&x));
    }
    assert!(prob(&r, a) < 0.15, "{:?}", r.average());
}
