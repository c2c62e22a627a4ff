//! The bot's contract: a legal action for every view, determinism for a seed and an iteration
//! budget, and strength against random play on small seeded samples.

// Test code: a failed unwrap is a failed test, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use evr_bot::{Bot, BotConfig, Level};
use evr_rules::{ByFaction, Faction, Game, Mode, PhaseName, View, Viewer};
use rand::rngs::ChaCha20Rng;
use rand::{RngExt, SeedableRng};

fn random_step(game: &mut Game, rng: &mut ChaCha20Rng) {
    let seats = game.seats_to_act();
    let seat = seats[rng.random_range(0..seats.len())];
    let legal = game.legal_actions(seat);
    game.apply(seat, legal[rng.random_range(0..legal.len())]).unwrap();
}

#[derive(Default, Debug)]
struct Coverage {
    character_choice: usize,
    planning: usize,
    struggle: usize,
    struggle_pending: usize,
    dominance_pending: usize,
}

#[test]
fn every_level_returns_a_legal_action_in_every_phase() {
    let mut cov = Coverage::default();
    let mut bots: Vec<Bot> = [Level::Random, Level::Easy, Level::Normal, Level::Hard]
        .into_iter()
        .enumerate()
        .map(|(i, l)| Bot::new(BotConfig::with_iterations(l, i as u64, 25)))
        .collect();
    for seed in 0..25u64 {
        let mut rng = ChaCha20Rng::seed_from_u64(seed);
        let mut game = Game::new(Mode::Full, seed).unwrap();
        let mut steps = 0;
        while !game.is_over() && steps < 600 {
            for seat in Faction::BOTH {
                let view = game.view(Viewer::Seat(seat));
                if view.legal_actions.is_empty() {
                    continue;
                }
                match (view.phase, view.pending.is_some()) {
                    (PhaseName::CharacterChoice, _) => cov.character_choice += 1,
                    (PhaseName::Planning, _) => cov.planning += 1,
                    (PhaseName::Struggle, false) => cov.struggle += 1,
                    (PhaseName::Struggle, true) => cov.struggle_pending += 1,
                    (PhaseName::Dominance, _) => cov.dominance_pending += 1,
                    (PhaseName::GameOver, _) => {}
                }
                for bot in &mut bots {
                    let a = bot.decide(&view);
                    assert!(
                        view.legal_actions.contains(&a),
                        "{:?} chose {a:?}, not legal (seed {seed}, step {steps})",
                        bot.config().level
                    );
                    let mut copy = game.clone();
                    copy.apply(seat, a).unwrap();
                }
            }
            random_step(&mut game, &mut rng);
            steps += 1;
        }
    }
    eprintln!("{cov:?}");
    assert!(
        cov.character_choice > 0 && cov.planning > 0 && cov.struggle > 0,
        "{cov:?}"
    );
    assert!(cov.struggle_pending > 50 && cov.dominance_pending > 3, "{cov:?}");
}

#[test]
fn the_tutorial_is_played_legally() {
    for seed in 0..5u64 {
        let mut game = Game::new(Mode::Tutorial, seed).unwrap();
        let mut bots = ByFaction::new(
            Bot::new(BotConfig::with_iterations(Level::Hard, seed, 50)),
            Bot::new(BotConfig::with_iterations(Level::Easy, seed, 0)),
        );
        while !game.is_over() {
            for seat in game.seats_to_act() {
                let view = game.view(Viewer::Seat(seat));
                let a = bots[seat].decide(&view);
                game.apply(seat, a).unwrap();
            }
        }
    }
}

fn views_of_a_random_game(seed: u64) -> Vec<View> {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let mut game = Game::new(Mode::Full, seed).unwrap();
    let mut out = Vec::new();
    while !game.is_over() && out.len() < 60 {
        for seat in Faction::BOTH {
            let view = game.view(Viewer::Seat(seat));
            if view.legal_actions.len() > 1 {
                out.push(view);
            }
        }
        random_step(&mut game, &mut rng);
    }
    out
}

#[test]
fn decisions_are_deterministic_for_a_seed_and_an_iteration_budget() {
    let views = views_of_a_random_game(3);
    for level in [Level::Easy, Level::Normal, Level::Hard] {
        let run = || {
            let mut bot = Bot::new(BotConfig::with_iterations(level, 99, 60));
            views.iter().map(|v| bot.decide(v)).collect::<Vec<_>>()
        };
        assert_eq!(run(), run(), "{level:?}");
    }
}

#[test]
fn a_view_it_cannot_use_still_gives_a_legal_action_or_nothing() {
    let game = Game::new(Mode::Full, 8).unwrap();
    let mut bot = Bot::new(BotConfig::with_iterations(Level::Hard, 1, 50));
    // A spectator has nothing to do.
    assert_eq!(bot.try_decide(&game.view(Viewer::Spectator)), None);
    // A tampered view (sizes that do not add up) cannot be determinized: a listed action anyway.
    for mut view in views_of_a_random_game(4) {
        view.rebel.deck_size += 3;
        view.imperial.deck_size += 3;
        view.event_deck_size = 99;
        let a = bot.decide(&view);
        assert!(view.legal_actions.contains(&a));
    }
}

/// A's wins over `games` seeded games against `b`, sides swapped.
fn wins(a: Level, b: Level, iterations: u32, games: u64, seed: u64) -> u64 {
    let mut won = 0;
    for i in 0..games {
        let s = seed * 1000 + i;
        let mut game = Game::new(Mode::Full, s).unwrap();
        let a_seat = if i % 2 == 0 { Faction::Rebel } else { Faction::Imperial };
        let mut bots = [
            Bot::new(BotConfig::with_iterations(a, s ^ 1, iterations)),
            Bot::new(BotConfig::with_iterations(b, s ^ 2, iterations)),
        ];
        while !game.is_over() {
            for seat in game.seats_to_act() {
                let view = game.view(Viewer::Seat(seat));
                let who = usize::from(seat != a_seat);
                let action = bots[who].decide(&view);
                game.apply(seat, action).unwrap();
            }
        }
        if game.outcome().and_then(|o| o.winner) == Some(a_seat) {
            won += 1;
        }
    }
    won
}

#[test]
fn easy_beats_random_play() {
    // Measured: 79% over 200 games (evr-tournament easy random --games 200 --seed 1).
    let w = wins(Level::Easy, Level::Random, 0, 100, 1);
    eprintln!("easy won {w} of 100");
    assert!(w >= 65, "easy won {w} of 100");
}

#[test]
fn hard_beats_random_play_even_on_a_small_budget() {
    let w = wins(Level::Hard, Level::Random, 150, 12, 2);
    eprintln!("hard won {w} of 12");
    assert!(w >= 10, "hard won {w} of 12");
}
