//! `evr random`: a random legal game, told in English (for demos and smoke checks).
//!
//! The game's own randomness comes from `--seed`; the choice of actions comes from a small
//! generator seeded with the same number, so the same command prints the same game.

use anyhow::{Result, anyhow, bail};

use evr_rules::{Event, Faction, Game, Mode, Viewer, catalog};

/// Safety net: no real game comes near this many actions (R-4.9 and bound every game).
const ACTION_LIMIT: usize = 1_000_000;

/// What to play and whose log to print.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RandomGame {
    pub seed: u64,
    pub mode: Mode,
    /// Whose projection of the log is printed.
    pub viewer: Viewer,
}

/// SplitMix64: tiny, deterministic and good enough to pick among legal actions.
struct Picker(u64);

impl Picker {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

impl RandomGame {
    /// Plays the game to its end; returns the log as the viewer sees it, one sentence per line.
    pub fn play(&self) -> Result<Vec<String>> {
        let cat = catalog().map_err(|e| anyhow!("{e}"))?;
        let mut lines = Vec::new();
        play_random(self.mode, self.seed, |_, events| {
            lines.extend(events.iter().map(|e| e.project(self.viewer).describe(cat)));
        })?;
        Ok(lines)
    }
}

/// Plays a random legal game to its end: the engine is seeded with `seed`, and a picker seeded from
/// the same number chooses a seat that may act and one of its legal actions, uniformly. `on` sees
/// the game as it starts (with the events of its start) and after each action (with that action's
/// events). `evr random` and `evr views` share it, so the same seed is the same game in both.
pub fn play_random(mode: Mode, seed: u64, mut on: impl FnMut(&Game, &[Event])) -> Result<Game> {
    let mut game = Game::new(mode, seed).map_err(|e| anyhow!("cannot create the game: {e}"))?;
    on(&game, game.round_log());
    let mut picker = Picker(seed ^ 0x5EED_0FAC_710B_5EED);
    let mut actions = 0;
    while !game.is_over() {
        let seats: Vec<Faction> = game.seats_to_act();
        let Some(&seat) = seats.get(picker.below(seats.len())) else {
            bail!("the game is stuck: nobody can act (round {})", game.round());
        };
        let legal = game.legal_actions(seat);
        let Some(&action) = legal.get(picker.below(legal.len())) else {
            bail!("{} has no legal action", seat.name());
        };
        let events = game
            .apply(seat, action)
            .map_err(|e| anyhow!("a legal action was refused ({action:?}: {e})"))?;
        on(&game, &events);
        actions += 1;
        if actions >= ACTION_LIMIT {
            bail!("no end after {ACTION_LIMIT} actions");
        }
    }
    Ok(game)
}
