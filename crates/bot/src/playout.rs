//! The search's playouts: play to the end of the game like a player, cheaply.
//!
//! Uniformly random playouts make both sides bust or pass at random, so the search learns little
//! about the struggle, where most of the game is decided. The playout policy is a cheap version
//! of Easy's struggle rule, from the totals alone (public: it never looks at a determinized deck):
//!
//! - pass when the current totals win the round (own total within the objective, and the
//!   opponent's over it or below ours);
//! - play a card while the objective is at least `SAFE_GAP` away (no card's value is above 6);
//! - otherwise sometimes a power or an influence, sometimes a card while a card may still fit,
//!   otherwise pass;
//! - Direct Assault is not chosen on an objective below 14 (Easy's rule);
//! - everything else (characters, pending choices) uniformly at random, and any decision is
//!   uniformly random with probability `EPSILON`, so the playouts keep exploring.
//!
//! The objective is the current event's, read once per round from the round log's
//! `RoundStarted` entry (public).

use evr_rules::{Action, Faction, Game, LogEntry, Outcome, Strategy, Viewer, catalog};

/// A playout that has not ended after this many actions is scored on VP.
pub const PLAYOUT_CAP: usize = 4_000;
/// A card is always played while the objective is this far or farther (the largest value is 6).
const SAFE_GAP: u32 = 6;
/// Chance, in 1/256, that a decision of the policy is uniformly random instead.
const EPSILON: u64 = 26;

/// SplitMix64: a small fast generator for playouts, seeded from the bot's stream.
pub struct Fast(pub u64);

impl Fast {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (((self.next_u64() >> 32) * n as u64) >> 32) as usize
    }

    /// Uniform in [0, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// How the playouts choose.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Policy {
    /// Uniformly random legal play.
    Random,
    /// The cheap struggle rule above.
    Heuristic,
}

/// The current event's objective, from the round log (0 when it cannot be read).
fn objective(g: &Game) -> u32 {
    let Ok(cat) = catalog() else { return 0 };
    g.round_log()
        .iter()
        .find_map(|e| match e.project(Viewer::Omniscient) {
            LogEntry::RoundStarted { event, .. } => Some(cat.event(event).objective),
            _ => None,
        })
        .unwrap_or(0)
}

/// The heuristic policy's action for `f` among `legal` (not empty) in `g`, for one decision
/// (tests; the playouts read the objective once per round instead).
pub fn choose_for(g: &Game, f: Faction, legal: &[Action], fast: &mut Fast) -> Action {
    choose(g, f, legal, objective(g), fast)
}

/// The policy's action for `f` among `legal` (not empty).
fn choose(g: &Game, f: Faction, legal: &[Action], obj: u32, fast: &mut Fast) -> Action {
    let random = legal[fast.below(legal.len())];
    if (fast.next_u64() & 0xFF) < EPSILON {
        return random;
    }
    let (mut pass, mut play) = (false, false);
    let mut extra = 0usize;
    for a in legal {
        match a {
            Action::Pass => pass = true,
            Action::PlayCard => play = true,
            Action::UsePower { .. } | Action::SpendInfluence { .. } => extra += 1,
            Action::ChooseStrategy {
                strategy: Strategy::DirectAssault,
                target,
            } if *target == f && obj < 14 && legal.len() > 1 => {
                // Draw again among the others (Easy's rule against a likely bust).
                let others: usize = legal.len() - 1;
                let k = fast.below(others);
                return legal.iter().filter(|b| *b != a).nth(k).copied().unwrap_or(random);
            }
            _ => {}
        }
    }
    if !pass && !play {
        // Not a struggle turn: characters, strategies, pending choices.
        return random;
    }
    let (t, o) = (g.total(f), g.total(f.opponent()));
    let winning = t <= obj && (o > obj || t > o);
    if winning && pass {
        return Action::Pass;
    }
    if play && t + SAFE_GAP <= obj {
        return Action::PlayCard;
    }
    if extra > 0 && fast.below(2) == 0 {
        let k = fast.below(extra);
        if let Some(a) = legal
            .iter()
            .filter(|a| matches!(a, Action::UsePower { .. } | Action::SpendInfluence { .. }))
            .nth(k)
        {
            return *a;
        }
    }
    if play && t < obj && fast.below(3) == 0 {
        return Action::PlayCard;
    }
    if pass { Action::Pass } else { random }
}

/// Plays `g` with `policy` to the end, the cap, or (`rounds` > 0) until that many rounds have
/// ended; the outcome, `None` when the game is not over.
pub fn playout(g: &mut Game, policy: Policy, fast: &mut Fast, buf: &mut Vec<Action>, rounds: u8) -> Option<Outcome> {
    let mut round = u32::MAX;
    let mut obj = 0;
    let stop = match rounds {
        0 => u32::MAX,
        n => g.round().saturating_add(u32::from(n)),
    };
    for _ in 0..PLAYOUT_CAP {
        if g.is_over() || g.round() >= stop {
            break;
        }
        if policy == Policy::Heuristic && g.round() != round {
            round = g.round();
            obj = objective(g);
        }
        let mut acted = false;
        for f in Faction::BOTH {
            g.legal_actions_into(f, buf);
            if !buf.is_empty() {
                let a = match policy {
                    Policy::Random => buf[fast.below(buf.len())],
                    Policy::Heuristic => choose(g, f, buf, obj, fast),
                };
                if g.apply_borrowed(f, a).is_err() {
                    return g.outcome();
                }
                acted = true;
                break;
            }
        }
        if !acted {
            break;
        }
    }
    g.outcome()
}
