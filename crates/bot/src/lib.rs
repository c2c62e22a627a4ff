//! # evr-bot — the computer opponent
//!
//! A bot decides from exactly what its seat may know: the [`View`] the server would send. It never
//! sees the full [`evr_rules::Game`]; the search levels build complete games consistent with the
//! view ([`evr_rules::Game::sample_from_view`], a *determinization*) and search those.
//!
//! - [`Level::Random`]: a uniformly random legal action (a baseline for tournaments);
//! - [`Level::Easy`]: a simple heuristic ([`easy`]);
//! - [`Level::Normal`], [`Level::Hard`]: single-observer Information-Set Monte Carlo Tree Search
//!   ([`mcts`]) with an iteration budget and an optional wall-time cap.
//!
//! With no wall-time cap a bot is deterministic: the same seed, budget and sequence of views give
//! the same actions.

pub mod anchors;
pub mod arena;
pub mod easy;
pub mod mcts;
pub mod playout;
pub mod regret;
pub mod value;

use std::time::Duration;

use evr_rules::{Action, View};
pub use playout::Policy;
use rand::SeedableRng;
use rand::rngs::ChaCha20Rng;

/// The search levels' default [`BotConfig::exploration`]: UCB1's constant, in hundredths
/// (rewards are in [0, 1]).
pub const EXPLORATION: u16 = 70;

/// The search levels' default [`BotConfig::value_rounds`].
pub const VALUE_ROUNDS: u8 = 1;

/// The search levels' default [`BotConfig::split_levels`].
pub const SPLIT_LEVELS: u8 = 2;

/// How strong the bot plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Level {
    Random,
    Easy,
    Normal,
    Hard,
}

impl Level {
    pub fn name(self) -> &'static str {
        match self {
            Level::Random => "random",
            Level::Easy => "easy",
            Level::Normal => "normal",
            Level::Hard => "hard",
        }
    }

    pub fn parse(s: &str) -> Option<Level> {
        match s.to_ascii_lowercase().as_str() {
            "random" => Some(Level::Random),
            "easy" => Some(Level::Easy),
            "normal" => Some(Level::Normal),
            "hard" => Some(Level::Hard),
            _ => None,
        }
    }

    /// The default search budget of the level: ISMCTS iterations per decision. Normal's 100 (400
    /// before 2026-11-28, 200 until stop 46): with playouts that stop after a round (stop 46)
    /// 200 iterations came within 150 Elo of Hard (+140 [+84, +205]); at 100 Normal sits between
    /// Easy and Hard, 150+ Elo from each (BENCHMARKS.md, "The computer's strength").
    /// Hard's 8,000 (2,000 before stop 44) beat the Hard of 2026-11-27 by +100 Elo or more (an SPRT
    /// [0, +100] accepted it); it thinks ~0.05 s a move on average (~0.1 s before stop 46), within
    /// the humane delay a person waits for any computer move (`--computer-delay-ms`, 800 ms), and
    /// its cap cuts the longest.
    pub fn default_iterations(self) -> u32 {
        match self {
            Level::Random | Level::Easy => 0,
            Level::Normal => 100,
            Level::Hard => 8_000,
        }
    }

    /// The default wall-time cap per decision (the server's; tests and tournaments use none).
    pub fn default_time_limit(self) -> Option<Duration> {
        match self {
            Level::Random | Level::Easy => None,
            Level::Normal => Some(Duration::from_millis(300)),
            Level::Hard => Some(Duration::from_millis(800)),
        }
    }
}

/// A bot's configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BotConfig {
    pub level: Level,
    pub seed: u64,
    /// ISMCTS iterations per decision (search levels only).
    pub iterations: u32,
    /// Stops the search early when reached. `None`: iterations only (deterministic).
    pub time_limit: Option<Duration>,
    /// The search's playouts (default: the player-like [`Policy::Heuristic`]).
    pub playout: Policy,
    /// Secret choices by regret matching and a mixed move at such a root (default), or the most
    /// visited child against uniformly drawn opponent secrets (the search before 2026-11-28).
    pub mixed: bool,
    /// How many observation levels below the root split the search's tree by what the bot
    /// observes (a card drawn, a strategy revealed): there the tree is kept from one decision to
    /// the next and pondering can help ([`mcts::tree`](mcts)). 0: the tree is keyed by moves
    /// alone and made afresh for every decision (the search before stop 45).
    pub split_levels: u8,
    /// Playouts stop when this many rounds have ended and score the position with
    /// [`value::TABLE`] (0: played to the end of the game, the search before stop 46).
    pub value_rounds: u8,
    /// UCB1's exploration constant in hundredths ([`EXPLORATION`]).
    pub exploration: u16,
}

impl BotConfig {
    /// The level's defaults, including its wall-time cap.
    pub fn new(level: Level, seed: u64) -> BotConfig {
        BotConfig {
            level,
            seed,
            iterations: level.default_iterations(),
            time_limit: level.default_time_limit(),
            playout: Policy::Heuristic,
            mixed: true,
            split_levels: SPLIT_LEVELS,
            value_rounds: VALUE_ROUNDS,
            exploration: EXPLORATION,
        }
    }

    /// Deterministic: an iteration budget and no wall-time cap.
    pub fn with_iterations(level: Level, seed: u64, iterations: u32) -> BotConfig {
        BotConfig {
            level,
            seed,
            iterations,
            time_limit: None,
            playout: Policy::Heuristic,
            mixed: true,
            split_levels: SPLIT_LEVELS,
            value_rounds: VALUE_ROUNDS,
            exploration: EXPLORATION,
        }
    }
}

/// A computer player for one seat.
#[derive(Debug)]
pub struct Bot {
    config: BotConfig,
    rng: ChaCha20Rng,
    /// The search levels' tree, kept from one decision to the next.
    tree: Option<mcts::Tree>,
}

impl Bot {
    pub fn new(config: BotConfig) -> Bot {
        Bot {
            config,
            rng: ChaCha20Rng::seed_from_u64(config.seed),
            tree: None,
        }
    }

    pub fn config(&self) -> BotConfig {
        self.config
    }

    /// The action to take in `view`, always one of `view.legal_actions`. With no legal action
    /// (not this seat's move, or a spectator's view) it returns `Action::Pass`, which the engine
    /// would refuse: call it only when `view.legal_actions` is not empty.
    pub fn decide(&mut self, view: &View) -> Action {
        self.try_decide(view).unwrap_or(Action::Pass)
    }

    /// The action to take, or `None` when the view lists no legal action.
    /// Like [`Bot::try_decide`], searching no longer than `limit` (a clock's budget) when given.
    pub fn try_decide_within(&mut self, view: &View, limit: Option<Duration>) -> Option<Action> {
        let saved = self.config;
        if let Some(limit) = limit {
            self.config.time_limit = Some(self.config.time_limit.map_or(limit, |t| t.min(limit)));
        }
        let action = self.try_decide(view);
        self.config = saved;
        action
    }

    /// Thinks `iterations` more while it is not this seat's move (`view` is this seat's view,
    /// with no legal action), so that its next decision starts from what it found: pondering.
    /// Only the search levels ponder, and only with a kept tree; `None` when nothing was searched.
    pub fn ponder(&mut self, view: &View, iterations: u32) -> Option<mcts::SearchStats> {
        match self.config.level {
            Level::Normal | Level::Hard => mcts::ponder(&mut self.tree, view, &self.config, iterations, &mut self.rng),
            Level::Random | Level::Easy => None,
        }
    }

    pub fn try_decide(&mut self, view: &View) -> Option<Action> {
        let first = *view.legal_actions.first()?;
        if view.legal_actions.len() == 1 {
            return Some(first);
        }
        let action = match self.config.level {
            Level::Random => easy::random_action(view, &mut self.rng),
            Level::Easy => easy::decide(view, &mut self.rng),
            Level::Normal | Level::Hard => {
                mcts::decide(&mut self.tree, view, &self.config, &mut self.rng).map(|(a, _)| a)
            }
        };
        // Never return anything but a listed action, whatever a level computed.
        Some(action.filter(|a| view.legal_actions.contains(a)).unwrap_or(first))
    }
}
