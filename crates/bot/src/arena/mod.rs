//! The ladder: players named by a spec, duplicate pairs of games between two of them, and the
//! statistics of [`stats`]. The `evr-arena` command drives it.
//!
//! A **duplicate pair** is one deal (one game seed) played twice: A as the Rebel, then A as the
//! Imperial, each player with the same bot seed in both games. Pair `i` of a run with seed `s`
//! uses the game seed [`pair_seed`]`(s, i)`. With iteration budgets (no `t` in a spec) a pair is a
//! pure function of its seed.

pub mod stats;

use std::hash::{DefaultHasher, Hash, Hasher};
use std::time::{Duration, Instant};

use evr_rules::{Action, Faction, Game, Mode, View, Viewer};
use rand::SeedableRng;
use rand::rngs::ChaCha20Rng;

use crate::anchors::{self, Anchor};
use crate::{Bot, BotConfig, Level, Policy};

/// What a spec names: a frozen anchor or one of today's levels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    Anchor(Anchor),
    Level(Level),
}

/// A player of the ladder: a name and an optional budget after `@`, comma-separated, e.g.
/// `hard`, `flatmc@i4000`, `hard@t800`, `hard@rp,br`. `iN`: iterations (search levels) or
/// playouts (flat MC) per decision; `tMS`: a wall-time cap per decision in ms (the run then
/// depends on the machine); for today's Normal and Hard only, `rp`: uniformly random playouts and
/// `br`: no regret matching (the most visited child), `sN`: N observation levels split (0: a tree
/// keyed by moves alone, made afresh each decision), to measure each change alone; `pN`: ponder N
/// iterations during each opponent decision that has a choice; `vN`: playouts stop after N rounds
/// and score the position by [`crate::value`] (0: to the end of the game); `cN`: UCB1's exploration
/// constant in hundredths (70: 0.7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PlayerSpec {
    pub kind: Kind,
    pub iterations: u32,
    pub time_limit: Option<Duration>,
    pub playout: Policy,
    pub mixed: bool,
    pub split_levels: u8,
    pub ponder: u32,
    pub value_rounds: u8,
    pub exploration: u16,
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum SpecError {
    #[error(
        "unknown player {0:?} (random, greedy, flatmc, frozen-easy, frozen-normal, frozen-hard, easy, normal, hard)"
    )]
    UnknownName(String),
    #[error("bad budget {0:?} in a player spec (iN for iterations, tMS for a time cap)")]
    BadBudget(String),
}

/// The names a spec may start with.
pub const NAMES: [&str; 9] = [
    "random",
    "greedy",
    "flatmc",
    "frozen-easy",
    "frozen-normal",
    "frozen-hard",
    "easy",
    "normal",
    "hard",
];

impl PlayerSpec {
    pub fn parse(s: &str) -> Result<PlayerSpec, SpecError> {
        let (name, budget) = s.split_once('@').unwrap_or((s, ""));
        let kind = match name {
            "random" => Kind::Anchor(Anchor::Random),
            "greedy" => Kind::Anchor(Anchor::Greedy),
            "flatmc" => Kind::Anchor(Anchor::FlatMc),
            "frozen-easy" => Kind::Anchor(Anchor::FrozenEasy),
            "frozen-normal" => Kind::Anchor(Anchor::FrozenNormal),
            "frozen-hard" => Kind::Anchor(Anchor::FrozenHard),
            other => Kind::Level(Level::parse(other).ok_or_else(|| SpecError::UnknownName(s.to_string()))?),
        };
        let mut spec = PlayerSpec {
            kind,
            iterations: match kind {
                Kind::Anchor(a) => a.default_iterations(),
                Kind::Level(l) => l.default_iterations(),
            },
            time_limit: None,
            playout: Policy::Heuristic,
            mixed: true,
            split_levels: crate::SPLIT_LEVELS,
            ponder: 0,
            value_rounds: crate::VALUE_ROUNDS,
            exploration: crate::EXPLORATION,
        };
        for part in budget.split(',').filter(|p| !p.is_empty()) {
            let bad = || SpecError::BadBudget(part.to_string());
            match (part, kind) {
                ("rp", Kind::Level(_)) => {
                    spec.playout = Policy::Random;
                    continue;
                }
                ("br", Kind::Level(_)) => {
                    spec.mixed = false;
                    continue;
                }
                ("rp" | "br", _) => return Err(bad()),
                _ => {}
            }
            let (unit, num) = part.split_at(1);
            let n: u64 = num.parse().map_err(|_| bad())?;
            match (unit, kind) {
                ("s", Kind::Level(_)) => spec.split_levels = u8::try_from(n).map_err(|_| bad())?,
                ("p", Kind::Level(_)) => spec.ponder = u32::try_from(n).map_err(|_| bad())?,
                ("v", Kind::Level(_)) => spec.value_rounds = u8::try_from(n).map_err(|_| bad())?,
                ("c", Kind::Level(_)) => spec.exploration = u16::try_from(n).map_err(|_| bad())?,
                ("s" | "p" | "v" | "c", _) => return Err(bad()),
                ("i", _) => spec.iterations = u32::try_from(n).map_err(|_| bad())?,
                ("t", _) => {
                    spec.time_limit = Some(Duration::from_millis(n));
                    // A time cap alone: the time decides, not a count.
                    if !budget.contains('i') {
                        spec.iterations = u32::MAX;
                    }
                }
                _ => return Err(bad()),
            }
        }
        Ok(spec)
    }

    /// The spec's canonical text (parses back to the same spec).
    pub fn name(&self) -> String {
        let base = match self.kind {
            Kind::Anchor(a) => NAMES[a as usize],
            Kind::Level(l) => l.name(),
        };
        let default = match self.kind {
            Kind::Anchor(a) => a.default_iterations(),
            Kind::Level(l) => l.default_iterations(),
        };
        let mut parts = Vec::new();
        // With a time cap, a budget left out would read back as none (`hard@t800`: time alone).
        if self.iterations != u32::MAX && (self.iterations != default || self.time_limit.is_some()) {
            parts.push(format!("i{}", self.iterations));
        }
        if let Some(t) = self.time_limit {
            parts.push(format!("t{}", t.as_millis()));
        }
        if self.playout == Policy::Random {
            parts.push("rp".into());
        }
        if !self.mixed {
            parts.push("br".into());
        }
        if self.split_levels != crate::SPLIT_LEVELS {
            parts.push(format!("s{}", self.split_levels));
        }
        if self.ponder > 0 {
            parts.push(format!("p{}", self.ponder));
        }
        if self.value_rounds != crate::VALUE_ROUNDS {
            parts.push(format!("v{}", self.value_rounds));
        }
        if self.exploration != crate::EXPLORATION {
            parts.push(format!("c{}", self.exploration));
        }
        if parts.is_empty() {
            base.to_string()
        } else {
            format!("{base}@{}", parts.join(","))
        }
    }
}

/// A player during one game.
pub enum Player {
    Anchor {
        spec: PlayerSpec,
        anchor: Anchor,
        rng: ChaCha20Rng,
    },
    Level(Bot),
}

impl Player {
    pub fn new(spec: PlayerSpec, seed: u64) -> Player {
        match spec.kind {
            Kind::Anchor(anchor) => Player::Anchor {
                spec,
                anchor,
                rng: ChaCha20Rng::seed_from_u64(seed),
            },
            Kind::Level(level) => {
                let mut config = BotConfig::with_iterations(level, seed, spec.iterations);
                config.time_limit = spec.time_limit;
                config.playout = spec.playout;
                config.mixed = spec.mixed;
                config.split_levels = spec.split_levels;
                config.value_rounds = spec.value_rounds;
                config.exploration = spec.exploration;
                Player::Level(Bot::new(config))
            }
        }
    }

    /// One of `view.legal_actions` (`None` when there is none).
    pub fn decide(&mut self, view: &View) -> Option<Action> {
        match self {
            Player::Anchor { spec, anchor, rng } => {
                anchors::decide(*anchor, view, spec.iterations, spec.time_limit, rng)
            }
            Player::Level(bot) => bot.try_decide(view),
        }
    }

    /// Thinks during the opponent's decision (`view` is this player's, with no legal action), as
    /// much as the spec's `pN` says; anchors never ponder.
    pub fn ponder(&mut self, view: &View, iterations: u32) {
        if let Player::Level(bot) = self
            && iterations > 0
        {
            bot.ponder(view, iterations);
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ArenaError {
    #[error("game seed {seed}: the deal could not be set up: {message}")]
    Setup { seed: u64, message: String },
    #[error("game seed {seed}, A as {a_seat:?}: nobody can act")]
    Stuck { seed: u64, a_seat: Faction },
    #[error("game seed {seed}, A as {a_seat:?}: {who} chose nothing or an illegal action {action:?}")]
    Illegal {
        seed: u64,
        a_seat: Faction,
        who: String,
        action: Option<Action>,
    },
}

/// One finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    pub seed: u64,
    pub a_seat: Faction,
    /// A hash of the omniscient view at the start: equal deals have equal hashes.
    pub deal: u64,
    /// A's points in half points: 2 won, 1 drawn, 0 lost.
    pub a_half_points: u8,
    /// Time of every decision with more than one legal action, per player (A, B).
    pub times: [Vec<Duration>; 2],
}

/// The two games of a duplicate pair.
#[derive(Clone, Debug)]
pub struct PairRecord {
    pub index: u64,
    pub seed: u64,
    pub games: [GameRecord; 2],
}

impl PairRecord {
    /// A's points over both games, in half points (0..=4).
    pub fn half_points(&self) -> u8 {
        self.games[0].a_half_points + self.games[1].a_half_points
    }
}

/// The game seed of pair `i` of a run seeded `base`.
pub fn pair_seed(base: u64, i: u64) -> u64 {
    base.wrapping_mul(1_000_003).wrapping_add(i)
}

/// The bot seeds of A and B in a pair: fixed per pair, the same in both games.
fn bot_seeds(seed: u64) -> (u64, u64) {
    (seed ^ 0xA11C_E000_0000_000A, seed ^ 0xB0B0_0000_0000_000B)
}

/// Plays one game of `a` against `b` on the deal `seed`, A in `a_seat`.
pub fn play_game(a: &PlayerSpec, b: &PlayerSpec, seed: u64, a_seat: Faction) -> Result<GameRecord, ArenaError> {
    let mut game = Game::new(Mode::Full, seed).map_err(|e| ArenaError::Setup {
        seed,
        message: e.to_string(),
    })?;
    let mut h = DefaultHasher::new();
    serde_json::to_string(&game.view(Viewer::Omniscient))
        .unwrap_or_default()
        .hash(&mut h);
    let deal = h.finish();
    let (seed_a, seed_b) = bot_seeds(seed);
    let mut players = [Player::new(*a, seed_a), Player::new(*b, seed_b)];
    let ponder = [a.ponder, b.ponder];
    let mut times = [Vec::new(), Vec::new()];
    while !game.is_over() {
        let seats = game.seats_to_act();
        if seats.is_empty() {
            return Err(ArenaError::Stuck { seed, a_seat });
        }
        for f in seats {
            let who = usize::from(f != a_seat);
            let view = game.view(Viewer::Seat(f));
            if view.legal_actions.is_empty() {
                continue;
            }
            let other = 1 - who;
            if ponder[other] > 0 && view.legal_actions.len() > 1 {
                // The other player thinks while this one does (a person takes time only to choose).
                let theirs = game.view(Viewer::Seat(f.opponent()));
                if theirs.legal_actions.is_empty() {
                    players[other].ponder(&theirs, ponder[other]);
                }
            }
            let started = Instant::now();
            let action = players[who].decide(&view);
            if view.legal_actions.len() > 1 {
                times[who].push(started.elapsed());
            }
            let illegal = || ArenaError::Illegal {
                seed,
                a_seat,
                who: if who == 0 { a.name() } else { b.name() },
                action,
            };
            let act = action.ok_or_else(illegal)?;
            game.apply(f, act).map_err(|_| illegal())?;
        }
    }
    let a_half_points = match game.outcome().and_then(|o| o.winner) {
        Some(w) if w == a_seat => 2,
        Some(_) => 0,
        None => 1,
    };
    Ok(GameRecord {
        seed,
        a_seat,
        deal,
        a_half_points,
        times,
    })
}

/// Pair `index` of a run seeded `base`: the deal played with A as the Rebel, then as the Imperial.
pub fn play_pair(a: &PlayerSpec, b: &PlayerSpec, base: u64, index: u64) -> Result<PairRecord, ArenaError> {
    let seed = pair_seed(base, index);
    let first = play_game(a, b, seed, Faction::Rebel)?;
    let second = play_game(a, b, seed, Faction::Imperial)?;
    Ok(PairRecord {
        index,
        seed,
        games: [first, second],
    })
}
