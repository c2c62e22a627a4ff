//! # evr-ratings — ratings for a game whose two sides are not the same seat
//!
//! Glicko-2 (Mark Glickman, <http://www.glicko.net/glicko/glicko2.pdf>) by the `skillratings`
//! crate. Each rated game updates both players at once (lichess's way, not a rating period's).
//! The Rebel and the Imperial seats may not be equal: a [`SideAdvantage`] of `d` rating points
//! makes the favoured side's player expected to score as if rated `d` higher, so that winning with
//! the favoured side gains a little less and losing with it costs a little more. Each player's
//! update is Glicko-2's with the other player's rating shifted by the advantage; with no advantage
//! it is plain Glicko-2.

use evr_rules::Faction;
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, decay_deviation, glicko2};

/// A player's rating: Glicko-2's rating, deviation and volatility.
pub type Rating = Glicko2Rating;

/// A new player's rating: 1500 ± 350, volatility 0.06.
pub const START: Rating = Glicko2Rating {
    rating: 1500.0,
    deviation: 350.0,
    volatility: 0.06,
};

/// A rating is provisional ("1500?") until its deviation is under this.
pub const PROVISIONAL_FROM: f64 = 110.0;

/// A player is established (on the leaderboard, with enough games) at or under this deviation.
pub const ESTABLISHED_AT: f64 = 75.0;

/// Glickman's τ: how fast the volatility may change (his "reasonable choices are between 0.3 and
/// 1.2"; 0.5 is his example's and skillratings' default).
pub const TAU: f64 = 0.5;

/// How a rated game ended for the rating: a side won, or nobody did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameScore {
    Won(Faction),
    Draw,
}

/// How much the favoured side is expected to score above an equal opponent, in rating points: a
/// positive `rebel_points` favours the Rebel, a negative one the Imperial.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SideAdvantage {
    pub rebel_points: f64,
}

impl SideAdvantage {
    /// No side is favoured.
    pub const NONE: SideAdvantage = SideAdvantage { rebel_points: 0.0 };

    /// The advantage that makes two equal players' expected score the Rebel's measured score
    /// `rebel_score` (its win rate, draws counting half), by the logistic curve of Elo and Glicko:
    /// `400 · log10(p / (1 − p))`.
    pub fn from_rebel_score(rebel_score: f64) -> SideAdvantage {
        let p = rebel_score.clamp(0.001, 0.999);
        SideAdvantage {
            rebel_points: 400.0 * (p / (1.0 - p)).log10(),
        }
    }

    /// The points `side` is given.
    pub fn for_side(self, side: Faction) -> f64 {
        match side {
            Faction::Rebel => self.rebel_points,
            Faction::Imperial => -self.rebel_points,
        }
    }
}

/// What the sides scored with equal players: games of the strongest computer against itself,
/// each player having each side equally often (BENCHMARKS.md, "Which side is favoured").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SidesMeasured {
    pub games: u32,
    pub rebel_wins: u32,
    pub draws: u32,
}

/// The sides as measured so far (`python3 scripts/sides.py sum` over `bench/sides.csv`: the
/// `hard` computer against itself, BENCHMARKS.md "Which side is favoured"): the edge every rated
/// game uses. Update it with the file.
pub const MEASURED: SidesMeasured = SidesMeasured {
    games: 20_000,
    rebel_wins: 10_324,
    draws: 0,
};

impl SidesMeasured {
    /// The Rebel's score: its wins and half its draws, of all games.
    pub fn rebel_score(self) -> f64 {
        if self.games == 0 {
            return 0.5;
        }
        (f64::from(self.rebel_wins) + f64::from(self.draws) / 2.0) / f64::from(self.games)
    }

    /// The Rebel's score's 95% Wilson interval.
    pub fn interval(self) -> (f64, f64) {
        if self.games == 0 {
            return (0.0, 1.0);
        }
        let (n, p, z) = (f64::from(self.games), self.rebel_score(), 1.959_964);
        let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
        let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / (1.0 + z * z / n);
        (centre - half, centre + half)
    }

    /// The advantage rated games use: the measured score's edge once its 95% interval leaves out
    /// an even game (50%), none before (an edge measured by chance would only add noise).
    pub fn advantage(self) -> SideAdvantage {
        let (low, high) = self.interval();
        if low > 0.5 || high < 0.5 {
            SideAdvantage::from_rebel_score(self.rebel_score())
        } else {
            SideAdvantage::NONE
        }
    }
}

fn shifted(r: &Rating, points: f64) -> Rating {
    Rating {
        rating: r.rating + points,
        ..*r
    }
}

/// Both players' ratings after one rated game: `rebel` played the Rebel side, `imperial` the
/// Imperial. Returns `(rebel, imperial)`.
pub fn rate_game(rebel: &Rating, imperial: &Rating, score: GameScore, advantage: SideAdvantage) -> (Rating, Rating) {
    let config = Glicko2Config {
        tau: TAU,
        ..Glicko2Config::new()
    };
    let outcome = match score {
        GameScore::Won(Faction::Rebel) => Outcomes::WIN,
        GameScore::Won(Faction::Imperial) => Outcomes::LOSS,
        GameScore::Draw => Outcomes::DRAW,
    };
    let edge = advantage.rebel_points;
    // each player against the other as the game's expected score sees them: the Rebel's opponent
    // shifted down by the Rebel's edge, the Imperial's opponent shifted up by it
    let (new_rebel, _) = glicko2(rebel, &shifted(imperial, -edge), &outcome, &config);
    let (_, new_imperial) = glicko2(&shifted(rebel, edge), imperial, &outcome, &config);
    (new_rebel, new_imperial)
}

/// The Rebel player's expected score in a game between `rebel` and `imperial` (Glicko-2's, with
/// the side advantage); the Imperial's is one minus it.
pub fn expected_score(rebel: &Rating, imperial: &Rating, advantage: SideAdvantage) -> f64 {
    skillratings::glicko2::expected_score(&shifted(rebel, advantage.rebel_points), imperial).0
}

/// `rating` after `days` without a rated game: Glicko-2's deviation grows by the volatility once a
/// day (a day is the rating period), up to a new player's 350. Two months away make an established
/// player provisional again.
pub fn after_time_away(rating: &Rating, days: u32) -> Rating {
    let mut r = *rating;
    for _ in 0..days.min(10_000) {
        if r.deviation >= START.deviation {
            break;
        }
        r = decay_deviation(&r);
    }
    r
}

/// Whether `rating` is still provisional (shown as "1500?").
pub fn is_provisional(rating: &Rating) -> bool {
    rating.deviation >= PROVISIONAL_FROM
}

/// Whether `rating`'s deviation is small enough for the leaderboard (which also asks for games).
pub fn is_established(rating: &Rating) -> bool {
    rating.deviation <= ESTABLISHED_AT
}

/// The rating as people read it: rounded, with a `?` while provisional.
pub fn shown(rating: &Rating) -> String {
    let r = rating.rating.round() as i64;
    if is_provisional(rating) {
        format!("{r}?")
    } else {
        r.to_string()
    }
}
