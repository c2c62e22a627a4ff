//! The ladder's statistics, written from the formulas (no code copied).
//!
//! **Pairs, not games.** A duplicate pair is one deal played twice with the sides swapped; A's
//! points over the two games are 0, ½, 1, 1½ or 2, so the results of a match are a *pentanomial*
//! count `n[k]` of pairs that scored `k/2` points. Scoring per pair removes the luck of the deal
//! from the variance (the two games of a pair are correlated; treating them as independent games
//! would overstate the error when the deal decides, and understate it otherwise).
//!
//! - **Score:** `x_k = k/4` is a pair's score in [0, 1]; `μ = Σ n_k x_k / N` over `N` pairs and
//!   the per-pair variance `σ² = Σ n_k (x_k − μ)² / N`.
//! - **Elo** (logistic): `elo(μ) = −400 log10(1/μ − 1)`; the 95% interval is the image of
//!   `μ ± 1.96 σ/√N` (normal approximation of the mean of `N` pairs).
//! - **SPRT** (generalized SPRT with the normal approximation, as chess engine testing uses):
//!   with `μ0 = L(elo0)`, `μ1 = L(elo1)` (`L(e) = 1/(1 + 10^(−e/400))`), the log-likelihood ratio
//!   of `N` pair scores is `LLR = N (μ1 − μ0)(2μ − μ0 − μ1) / (2σ²)`; it stops for H1 (`elo ≥
//!   elo1`) when `LLR ≥ ln((1−β)/α)` and for H0 (`elo ≤ elo0`) when `LLR ≤ ln(β/(1−α))`, never
//!   before [`SPRT_MIN_PAIRS`] pairs: the approximation needs an estimate of the variance, and a
//!   few pairs give a poor one (one pair has none and would decide at once; measured: with a
//!   minimum of 10, Hard against the frozen Hard stopped for H1 [0, +100] after 10 pairs of
//!   variance 0.0625, and 150 pairs then measured +21 [−19, +61] with variance 0.127).
//! - **Rating list:** Bradley–Terry by maximum likelihood (Hunter's MM iteration) over the games of
//!   every match, one virtual drawn game per match as a prior (so a 100% score stays finite),
//!   anchored at a chosen player = 0; intervals by bootstrap: the pairs of every match resampled
//!   with replacement, the list refitted, the 2.5% and 97.5% quantiles of each rating taken.

use rand::rngs::ChaCha20Rng;
use rand::{RngExt, SeedableRng};

/// 1.959964: the two-sided 95% normal quantile.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Logistic Elo of a score in (0, 1) (±infinity at the ends).
pub fn elo_from_score(mu: f64) -> f64 {
    if mu <= 0.0 {
        return f64::NEG_INFINITY;
    }
    if mu >= 1.0 {
        return f64::INFINITY;
    }
    -400.0 * (1.0 / mu - 1.0).log10()
}

/// Expected score of a player `elo` stronger.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Pentanomial counts: `counts[k]` pairs in which A scored `k/2` points (k = 0..=4).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial {
    pub counts: [u64; 5],
}

/// Elo difference with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    pub elo: f64,
    pub lo: f64,
    pub hi: f64,
    /// Mean pair score in [0, 1].
    pub score: f64,
    /// Per-pair variance of the score.
    pub variance: f64,
    pub pairs: u64,
}

impl Pentanomial {
    /// Adds a pair in which A scored `half_points / 2` points (0..=4).
    pub fn add(&mut self, half_points: u8) {
        self.counts[usize::from(half_points.min(4))] += 1;
    }

    pub fn pairs(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// Mean pair score in [0, 1] and per-pair variance (`None` without pairs).
    pub fn mean_variance(&self) -> Option<(f64, f64)> {
        let n = self.pairs();
        if n == 0 {
            return None;
        }
        let n = n as f64;
        let x = |k: usize| k as f64 / 4.0;
        let mu = (0..5).map(|k| self.counts[k] as f64 * x(k)).sum::<f64>() / n;
        let var = (0..5).map(|k| self.counts[k] as f64 * (x(k) - mu).powi(2)).sum::<f64>() / n;
        Some((mu, var))
    }

    /// The Elo difference of A over B and its 95% interval.
    pub fn elo(&self) -> Option<EloEstimate> {
        let (mu, var) = self.mean_variance()?;
        let pairs = self.pairs();
        let half = Z95 * (var / pairs as f64).sqrt();
        Some(EloEstimate {
            elo: elo_from_score(mu),
            lo: elo_from_score(mu - half),
            hi: elo_from_score(mu + half),
            score: mu,
            variance: var,
            pairs,
        })
    }

    /// The GSPRT log-likelihood ratio of H1 (`elo1`) against H0 (`elo0`).
    pub fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        let Some((mu, var)) = self.mean_variance() else {
            return 0.0;
        };
        // A stream of identical pairs has no variance; a floor keeps the ratio finite (it then
        // grows with every pair, as it should).
        let var = var.max(1e-4);
        let (mu0, mu1) = (score_from_elo(elo0), score_from_elo(elo1));
        self.pairs() as f64 * (mu1 - mu0) * (2.0 * mu - mu0 - mu1) / (2.0 * var)
    }
}

/// The sequential test decides nothing before this many pairs.
pub const SPRT_MIN_PAIRS: u64 = 30;

/// What a sequential test has shown so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtState {
    /// H1 accepted: A is at least `elo1` better.
    H1,
    /// H0 accepted: A is not `elo1` better (at most `elo0`).
    H0,
    Continue,
}

/// A sequential probability ratio test between `elo0` and `elo1` with error rates α and β.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

impl Sprt {
    /// α = β = 0.05.
    pub fn new(elo0: f64, elo1: f64) -> Sprt {
        Sprt {
            elo0,
            elo1,
            alpha: 0.05,
            beta: 0.05,
        }
    }

    /// `(lower, upper)`: `ln(β/(1−α))` and `ln((1−β)/α)` (±2.944 for 0.05).
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    pub fn state(&self, p: &Pentanomial) -> SprtState {
        if p.pairs() < SPRT_MIN_PAIRS {
            return SprtState::Continue;
        }
        let llr = p.llr(self.elo0, self.elo1);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtState::H1
        } else if llr <= lower {
            SprtState::H0
        } else {
            SprtState::Continue
        }
    }
}

/// A match of a rating list: A's pair results against B.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchResult {
    pub a: usize,
    pub b: usize,
    /// A's half points of every pair (0..=4).
    pub pairs: Vec<u8>,
}

/// Bradley–Terry ratings (Elo, `anchor` = 0) by maximum likelihood over the games of `matches`
/// between `players` players, with one virtual draw per match. A player with no game gets 0.
pub fn bradley_terry(players: usize, matches: &[MatchResult], anchor: usize) -> Vec<f64> {
    // wins[i]: points of i; games[i][j]: games between i and j.
    let mut wins = vec![0.0f64; players];
    let mut games = vec![vec![0.0f64; players]; players];
    for m in matches {
        if m.a >= players || m.b >= players || m.a == m.b {
            continue;
        }
        let points: f64 = m.pairs.iter().map(|h| f64::from(*h) / 2.0).sum();
        let n = 2.0 * m.pairs.len() as f64 + 1.0;
        wins[m.a] += points + 0.5;
        wins[m.b] += n - points - 0.5;
        games[m.a][m.b] += n;
        games[m.b][m.a] += n;
    }
    let mut gamma = vec![1.0f64; players];
    for _ in 0..10_000 {
        let mut change = 0.0f64;
        for i in 0..players {
            let denom: f64 = (0..players)
                .filter(|j| *j != i && games[i][*j] > 0.0)
                .map(|j| games[i][j] / (gamma[i] + gamma[j]))
                .sum();
            if denom > 0.0 {
                let new = wins[i] / denom;
                change = change.max((new / gamma[i]).ln().abs());
                gamma[i] = new;
            }
        }
        // The scale is free: keep the anchor at 1 so the numbers stay in range.
        let g0 = gamma.get(anchor).copied().unwrap_or(1.0);
        if g0 > 0.0 {
            gamma.iter_mut().for_each(|g| *g /= g0);
        }
        if change < 1e-12 {
            break;
        }
    }
    gamma.iter().map(|g| 400.0 * g.log10()).collect()
}

/// Per player: the rating and its 95% bootstrap interval (`samples` resamplings, seeded).
pub fn bradley_terry_intervals(
    players: usize,
    matches: &[MatchResult],
    anchor: usize,
    samples: usize,
    seed: u64,
) -> Vec<(f64, f64, f64)> {
    let fit = bradley_terry(players, matches, anchor);
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let mut draws: Vec<Vec<f64>> = vec![Vec::with_capacity(samples); players];
    for _ in 0..samples {
        let resampled: Vec<MatchResult> = matches
            .iter()
            .map(|m| MatchResult {
                a: m.a,
                b: m.b,
                pairs: (0..m.pairs.len())
                    .map(|_| m.pairs[rng.random_range(0..m.pairs.len())])
                    .collect(),
            })
            .collect();
        for (i, r) in bradley_terry(players, &resampled, anchor).into_iter().enumerate() {
            draws[i].push(r);
        }
    }
    (0..players)
        .map(|i| {
            let d = &mut draws[i];
            d.sort_by(f64::total_cmp);
            let q = |p: f64| {
                if d.is_empty() {
                    fit[i]
                } else {
                    d[((d.len() - 1) as f64 * p).round() as usize]
                }
            };
            (fit[i], q(0.025), q(0.975))
        })
        .collect()
}
