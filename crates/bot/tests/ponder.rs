//! The kept tree and pondering: what the bot searched during the opponent's move is found again
//! when its own move comes, only from its own views, deterministically.

// Test code: a failed unwrap is a failed test, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use evr_bot::mcts::{self, Tree};
use evr_bot::{Bot, BotConfig, Level};
use evr_rules::{Action, Faction, Game, Mode, Viewer};
use rand::rngs::ChaCha20Rng;
use rand::{RngExt, SeedableRng};

const ME: Faction = Faction::Rebel;

/// Decisions of a Hard search (`split_levels` as given) on the Rebel seat against a seeded random
/// Imperial, pondering `ponder` iterations during each Imperial decision with a choice: how many
/// decisions came after pondering, and how many of those started from kept iterations.
fn play(seed: u64, split_levels: u8, ponder: u32) -> (usize, usize, Vec<Action>) {
    let mut config = BotConfig::with_iterations(Level::Hard, seed, 400);
    config.split_levels = split_levels;
    let mut bot_rng = ChaCha20Rng::seed_from_u64(seed);
    let mut rng = ChaCha20Rng::seed_from_u64(seed ^ 0x5EED);
    let mut game = Game::new(Mode::Full, seed).unwrap();
    let mut tree: Option<Tree> = None;
    let (mut after_ponder, mut reused) = (0, 0);
    let mut pondered = false;
    let mut actions = Vec::new();
    let mut steps = 0;
    while !game.is_over() && steps < 400 {
        steps += 1;
        let view = game.view(Viewer::Seat(ME));
        if !view.legal_actions.is_empty() {
            let (a, stats) = mcts::decide(&mut tree, &view, &config, &mut bot_rng).unwrap();
            assert!(view.legal_actions.contains(&a), "seed {seed}: {a:?} not legal");
            if pondered && view.legal_actions.len() > 1 {
                after_ponder += 1;
                reused += usize::from(stats.reused > 0);
            }
            pondered = false;
            actions.push(a);
            game.apply(ME, a).unwrap();
            continue;
        }
        let legal = game.legal_actions(ME.opponent());
        if legal.len() > 1 {
            let done = mcts::ponder(&mut tree, &view, &config, ponder, &mut bot_rng);
            assert_eq!(
                done.is_some(),
                split_levels > 0,
                "seed {seed}: pondering without a kept tree"
            );
            pondered |= done.is_some();
        }
        game.apply(ME.opponent(), legal[rng.random_range(0..legal.len())])
            .unwrap();
    }
    (after_ponder, reused, actions)
}

#[test]
fn what_the_bot_pondered_is_found_again_at_its_next_decision() {
    let (mut after, mut reused) = (0, 0);
    for seed in 0..6u64 {
        let (a, r, _) = play(seed, 2, 800);
        println!("seed {seed}: {a} decisions after pondering, {r} started from kept iterations");
        after += a;
        reused += r;
    }
    assert!(after >= 30, "too few decisions after pondering to tell: {after}");
    // 95 of 167 when written (stop 45), 73 of 140 with playouts that stop after a round (stop 46).
    // The others: the random opponent's move, or the card it turned up, led to a node the
    // pondering visited too little to key (`KEY_AFTER`), or to one below the split levels (an
    // opponent's second move in a row).
    assert!(
        reused * 5 >= after * 2,
        "only {reused} of {after} decisions found the pondered tree"
    );
}

#[test]
fn without_split_levels_nothing_is_kept_and_nothing_pondered() {
    for seed in 0..3u64 {
        let (after, reused, _) = play(seed, 0, 300);
        assert_eq!((after, reused), (0, 0), "seed {seed}");
    }
}

#[test]
fn pondering_keeps_the_bot_deterministic() {
    for seed in 10..13u64 {
        assert_eq!(play(seed, 2, 150).2, play(seed, 2, 150).2, "seed {seed}");
    }
}

#[test]
fn a_bot_that_pondered_still_answers_every_view_legally() {
    for seed in 20..24u64 {
        let mut bot = Bot::new(BotConfig::with_iterations(Level::Hard, seed, 60));
        let mut rng = ChaCha20Rng::seed_from_u64(seed);
        let mut game = Game::new(Mode::Full, seed).unwrap();
        while !game.is_over() {
            let seats = game.seats_to_act();
            let seat = seats[rng.random_range(0..seats.len())];
            let mine = game.view(Viewer::Seat(ME));
            if seat == ME {
                let a = bot.decide(&mine);
                assert!(mine.legal_actions.contains(&a), "seed {seed}: {a:?}");
                game.apply(ME, a).unwrap();
            } else {
                if mine.legal_actions.is_empty() {
                    bot.ponder(&mine, 60);
                }
                let legal = game.legal_actions(seat);
                game.apply(seat, legal[rng.random_range(0..legal.len())]).unwrap();
            }
        }
    }
}
