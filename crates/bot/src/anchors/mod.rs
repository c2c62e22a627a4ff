//! # Anchors of the ladder — FROZEN: never change anything in this module
//!
//! The players the ladder (`evr-arena`, [`crate::arena`]) measures every other player against. A
//! rating means something only while its anchors stay the same, so nothing here may change once
//! frozen (2026-11-27): a fix or an improvement goes into the levels (`src/easy.rs`,
//! `src/mcts.rs`), never here. They are written apart from the levels on purpose: sharing code
//! with the ISMCTS would make an anchor move when the search changes.
//!
//! - [`Anchor::Random`]: a uniformly random legal action;
//! - [`Anchor::Greedy`]: one step ahead: every legal action applied on a few determinizations of
//!   the view, the resulting positions scored with a static evaluation ([`evaluate`]);
//! - [`Anchor::FlatMc`]: flat determinized Monte Carlo: the budget's playouts shared round-robin
//!   among the legal actions, each on a fresh determinization with uniformly random play to the
//!   end; the action with the best mean result is played;
//! - [`Anchor::FrozenEasy`], [`Anchor::FrozenNormal`], [`Anchor::FrozenHard`]: the levels as they
//!   were on 2026-11-27 ([`frozen_easy`], [`frozen_mcts`]: copies of that day's code), with that
//!   day's budgets (400 and 2,000 iterations).
//!
//! Like the levels, every anchor decides from its seat's [`View`] alone.

pub mod frozen_easy;
pub mod frozen_mcts;

use std::time::{Duration, Instant};

use evr_rules::{Action, Faction, Game, PhaseName, View, Viewer};
use rand::RngExt;
use rand::rngs::ChaCha20Rng;

/// The frozen players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Anchor {
    Random,
    Greedy,
    FlatMc,
    FrozenEasy,
    FrozenNormal,
    FrozenHard,
}

impl Anchor {
    /// The playouts (flat MC) or iterations (frozen search levels) of one decision by default:
    /// flat MC gets Hard's 2,000, so it is compared at an equal number of playouts.
    pub fn default_iterations(self) -> u32 {
        match self {
            Anchor::Random | Anchor::Greedy | Anchor::FrozenEasy => 0,
            Anchor::FrozenNormal => 400,
            Anchor::FlatMc | Anchor::FrozenHard => 2_000,
        }
    }
}

/// Determinizations per candidate action of the greedy player.
const GREEDY_SAMPLES: usize = 3;
/// A flat MC playout that has not ended after this many actions is scored on VP.
const PLAYOUT_CAP: usize = 4_000;

/// The anchor's action in `view` (always one of `view.legal_actions`), `None` when nothing is
/// legal. With one legal action it is returned without thinking, as the levels do.
pub fn decide(
    anchor: Anchor,
    view: &View,
    iterations: u32,
    time_limit: Option<Duration>,
    rng: &mut ChaCha20Rng,
) -> Option<Action> {
    let first = *view.legal_actions.first()?;
    if view.legal_actions.len() == 1 {
        return Some(first);
    }
    let action = match anchor {
        Anchor::Random => Some(view.legal_actions[rng.random_range(0..view.legal_actions.len())]),
        Anchor::Greedy => greedy(view, rng),
        Anchor::FlatMc => flat_mc(view, iterations, time_limit, rng),
        Anchor::FrozenEasy => frozen_easy::decide(view, rng),
        Anchor::FrozenNormal | Anchor::FrozenHard => frozen_mcts::search(view, iterations, time_limit, rng),
    };
    Some(action.filter(|a| view.legal_actions.contains(a)).unwrap_or(first))
}

/// A static evaluation of `g` for `me`: the game's result if it is over, otherwise 100 per VP of
/// lead, 3 per influence of lead and, during a struggle, 5 times the standing of the totals
/// against the objective (a bust is -10, the opponent's +10, otherwise the lead, capped at ±8).
pub fn evaluate(g: &Game, me: Faction) -> f64 {
    if let Some(o) = g.outcome() {
        return match o.winner {
            Some(w) if w == me => 1e6,
            Some(_) => -1e6,
            None => 0.0,
        };
    }
    let v = g.view(Viewer::Seat(me));
    let (mine, theirs) = (v.player(me), v.player(me.opponent()));
    let mut score = 100.0 * (f64::from(mine.vp) - f64::from(theirs.vp))
        + 3.0 * (f64::from(mine.influence) - f64::from(theirs.influence));
    if v.phase == PhaseName::Struggle
        && let Some(e) = v.event
    {
        let (t, o) = (mine.total, theirs.total);
        let standing = match (t > e.objective, o > e.objective) {
            (true, false) => -10.0,
            (false, true) => 10.0,
            (true, true) => 0.0,
            (false, false) => (f64::from(t) - f64::from(o)).clamp(-8.0, 8.0),
        };
        score += 5.0 * standing;
    }
    score
}

/// The legal action with the best mean [`evaluate`] one step ahead (ties: the first).
fn greedy(view: &View, rng: &mut ChaCha20Rng) -> Option<Action> {
    let Viewer::Seat(me) = view.viewer else {
        return None;
    };
    let games: Vec<Game> = (0..GREEDY_SAMPLES)
        .filter_map(|_| Game::sample_from_view(view, rng.random()).ok())
        .collect();
    if games.is_empty() {
        return None;
    }
    let mut best: Option<(Action, f64)> = None;
    for a in &view.legal_actions {
        let mut sum = 0.0;
        for g in &games {
            let mut g = g.clone();
            sum += match g.apply(me, *a) {
                Ok(_) => evaluate(&g, me),
                Err(_) => -1e9,
            };
        }
        if best.is_none_or(|(_, s)| sum > s + 1e-9) {
            best = Some((*a, sum));
        }
    }
    best.map(|(a, _)| a)
}

/// SplitMix64 for the playouts, seeded from the anchor's stream.
struct SplitMix(u64);

impl SplitMix {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        (((z >> 32) * n as u64) >> 32) as usize
    }
}

/// Flat determinized Monte Carlo: `iterations` playouts (at least one per legal action) shared
/// round-robin among the legal actions, stopped early by `time_limit` (checked every 16).
fn flat_mc(view: &View, iterations: u32, time_limit: Option<Duration>, rng: &mut ChaCha20Rng) -> Option<Action> {
    let Viewer::Seat(me) = view.viewer else {
        return None;
    };
    let legal = &view.legal_actions;
    let n = legal.len();
    let start = Instant::now();
    let mut fast = SplitMix(rng.random());
    let mut score = vec![0.0f64; n];
    let mut plays = vec![0u32; n];
    let mut buf = Vec::with_capacity(64);
    let budget = (iterations as usize).max(n);
    for k in 0..budget {
        if let Some(limit) = time_limit
            && k >= n
            && k % 16 == 0
            && start.elapsed() >= limit
        {
            break;
        }
        let i = k % n;
        let Ok(mut g) = Game::sample_from_view(view, rng.random()) else {
            continue;
        };
        if g.apply(me, legal[i]).is_err() {
            continue;
        }
        score[i] += playout_result(&mut g, me, &mut fast, &mut buf);
        plays[i] += 1;
    }
    let mut best: Option<(usize, f64)> = None;
    for i in 0..n {
        if plays[i] == 0 {
            continue;
        }
        let mean = score[i] / f64::from(plays[i]);
        if best.is_none_or(|(_, m)| mean > m + 1e-12) {
            best = Some((i, mean));
        }
    }
    best.map(|(i, _)| legal[i])
}

/// Uniformly random play to the end (or the cap, then scored on VP): 1 `me` won, ½ draw, 0 lost.
fn playout_result(g: &mut Game, me: Faction, fast: &mut SplitMix, buf: &mut Vec<Action>) -> f64 {
    'play: for _ in 0..PLAYOUT_CAP {
        if g.is_over() {
            break;
        }
        for f in Faction::BOTH {
            g.legal_actions_into(f, buf);
            if !buf.is_empty() {
                let a = buf[fast.below(buf.len())];
                if g.apply(f, a).is_err() {
                    break 'play;
                }
                continue 'play;
            }
        }
        break;
    }
    let winner = match g.outcome() {
        Some(o) => o.winner,
        None => match g.vp(me).cmp(&g.vp(me.opponent())) {
            std::cmp::Ordering::Greater => Some(me),
            std::cmp::Ordering::Less => Some(me.opponent()),
            std::cmp::Ordering::Equal => None,
        },
    };
    match winner {
        Some(w) if w == me => 1.0,
        Some(_) => 0.0,
        None => 0.5,
    }
}
