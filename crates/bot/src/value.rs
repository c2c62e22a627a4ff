//! What a position is worth between rounds: the Rebel's chance to win the game from its VP and
//! the Imperial's, as the search's own playout policy plays it out.
//!
//! A playout to the end of the game spends most of its actions, and most of its noise, on rounds
//! after the one being searched: whether the decision won this round moves the result by a few
//! points, the later rounds' luck by all of it. With `BotConfig::value_rounds` = N the playout
//! stops when N rounds have ended and scores the position with [`TABLE`]: the *expected* result
//! of playing on with the same policy, without the noise of one particular continuation, and at
//! a fraction of the cost.
//!
//! [`TABLE`] is measured, not guessed: [`fit`] plays whole games with the playout policy from
//! the start (the search's [`playout`] for both seats) and counts, for every round's start,
//! who went on to win. `evr-arena values` prints it. Only the two VP counts are kept: over 100,000
//! games the log loss of the prediction is 0.6159 with the VP alone, 0.6155 with the influence
//! difference and the balance token as well (stop 46, measured once by a throwaway program that
//! was not kept), so the rest was not worth its cells.

use evr_rules::{Faction, Game, Mode};

use crate::playout::{Fast, Policy, playout};

/// VP counts 0..=6 (7 ends the game).
pub const SIDE: usize = 7;

/// The Rebel's chance to win, in 1/10,000, at the start of a round with `[rebel VP][imperial VP]`
/// (`evr-arena values --games 200000 --seed 46`).
pub const TABLE: [[u16; SIDE]; SIDE] = [
    [4970, 4263, 3540, 2717, 1947, 1252, 667],
    [5706, 4972, 4225, 3409, 2407, 1778, 1016],
    [6395, 5666, 4969, 4151, 3040, 2211, 1330],
    [7238, 6542, 5772, 4958, 3817, 2927, 1876],
    [8038, 7528, 6870, 6065, 4930, 4062, 2916],
    [8689, 8265, 7662, 7040, 5857, 4969, 3812],
    [9371, 9030, 8616, 8087, 7010, 6101, 4921],
];

/// The Rebel's expected score from the table for a game between rounds (or anywhere not over).
pub fn rebel_score(g: &Game) -> f64 {
    let vp = |f| (g.vp(f) as usize).min(SIDE - 1);
    f64::from(TABLE[vp(Faction::Rebel)][vp(Faction::Imperial)]) / 10_000.0
}

/// Counts of the table's cells: `[rebel VP][imperial VP]` → (Rebel wins, games decided).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fit {
    pub rebel_wins: [[u32; SIDE]; SIDE],
    pub decided: [[u32; SIDE]; SIDE],
}

impl Fit {
    /// The table: each cell's Rebel win rate with one win and one loss added (a cell reached by
    /// few games stays near even rather than at 0 or 1).
    pub fn table(&self) -> [[u16; SIDE]; SIDE] {
        let mut t = [[0u16; SIDE]; SIDE];
        for (r, row) in t.iter_mut().enumerate() {
            for (i, cell) in row.iter_mut().enumerate() {
                let p = (f64::from(self.rebel_wins[r][i]) + 1.0) / (f64::from(self.decided[r][i]) + 2.0);
                *cell = (p * 10_000.0).round() as u16;
            }
        }
        t
    }
}

/// Plays `games` whole games (`Game::new(Full, seed * 1_000_003 + k)`) with the search's own
/// playouts ([`playout`], one round at a time) and counts each round's start by the game's winner.
/// Drawn games (the 100-round valve) and games that end at the action cap are left out.
pub fn fit(games: u32, seed: u64) -> Fit {
    let mut fit = Fit {
        rebel_wins: [[0; SIDE]; SIDE],
        decided: [[0; SIDE]; SIDE],
    };
    let mut fast = Fast(seed ^ 0x05EE_D0F7_AB1E);
    let mut buf = Vec::with_capacity(64);
    let mut starts = Vec::with_capacity(32);
    for k in 0..u64::from(games) {
        let Ok(mut g) = Game::new(Mode::Full, seed.wrapping_mul(1_000_003).wrapping_add(k)) else {
            continue;
        };
        starts.clear();
        // A round at a time: the game is over, or it stopped at a round's start.
        let mut outcome = None;
        while outcome.is_none() {
            let round = g.round();
            outcome = playout(&mut g, Policy::Heuristic, &mut fast, &mut buf, 1);
            if outcome.is_none() {
                if g.round() == round {
                    break; // the action cap within the round
                }
                let vp = |f| (g.vp(f) as usize).min(SIDE - 1);
                starts.push((vp(Faction::Rebel), vp(Faction::Imperial)));
            }
        }
        let Some(winner) = outcome.and_then(|o| o.winner) else {
            continue;
        };
        for (r, i) in &starts {
            fit.decided[*r][*i] += 1;
            fit.rebel_wins[*r][*i] += u32::from(winner == Faction::Rebel);
        }
    }
    fit
}
