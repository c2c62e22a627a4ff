//! Regret matching for the simultaneous choices (characters, strategies) inside the search.
//!
//! At a node where a seat chooses secretly, a best reply (the most visited child) is a fixed
//! habit a person can learn and exploit. Both seats' secret choices are instead selected by
//! regret matching with outcome sampling, as in simultaneous-move MCTS (Lanctot, Lisý and Winands
//! 2013): the current strategy is proportional to the positive cumulative regrets, mixed with
//! `GAMMA` of uniform exploration; after the playout, each legal action's regret grows by its
//! importance-sampled value minus the value obtained. The average of the current strategies
//! converges towards an equilibrium strategy; the bot plays a move sampled from it
//! ([`Regrets::final_choice`]).
//!
//! The legal actions can differ between determinizations (the opponent's hidden strategies), so
//! the statistics are kept per action and every step works on the actions legal in this one.

use evr_rules::Action;

use crate::playout::Fast;

/// Uniform exploration mixed into the sampling strategy.
const GAMMA: f64 = 0.15;
/// Actions whose average probability is below this share of the largest are not played: they
/// are mostly exploration noise (purification).
const PURIFY: f64 = 0.2;

/// Cumulative regrets and strategy of one seat's secret choice at one node.
#[derive(Debug, Default)]
pub struct Regrets {
    actions: Vec<Action>,
    regret: Vec<f64>,
    strategy_sum: Vec<f64>,
}

/// What one selection picked, for the update after the playout.
#[derive(Debug, Clone)]
pub struct Sampled {
    /// Indices into the node's actions of the actions legal this time.
    legal: Vec<usize>,
    /// Position of the chosen action in `legal`, and its sampling probability.
    chosen: usize,
    prob: f64,
}

impl Regrets {
    fn index(&mut self, a: Action) -> usize {
        match self.actions.iter().position(|x| *x == a) {
            Some(i) => i,
            None => {
                self.actions.push(a);
                self.regret.push(0.0);
                self.strategy_sum.push(0.0);
                self.actions.len() - 1
            }
        }
    }

    /// Samples one of `legal` (not empty) and records the current strategy in the average.
    pub fn sample(&mut self, legal: &[Action], fast: &mut Fast) -> (Action, Sampled) {
        let idx: Vec<usize> = legal.iter().map(|a| self.index(*a)).collect();
        let positive: f64 = idx.iter().map(|i| self.regret[*i].max(0.0)).sum();
        let n = idx.len() as f64;
        // No positive regret among the actions legal here (their regrets were mostly earned
        // where other actions were legal too): the one with the largest regret, rather than
        // uniform, which would give a bad action an equal share.
        let best = idx
            .iter()
            .enumerate()
            .max_by(|x, y| self.regret[*x.1].total_cmp(&self.regret[*y.1]))
            .map_or(0, |(k, _)| k);
        let sigma: Vec<f64> = idx
            .iter()
            .enumerate()
            .map(|(k, i)| {
                if positive > 0.0 {
                    self.regret[*i].max(0.0) / positive
                } else if self.regret[*i] == 0.0 && self.strategy_sum[*i] == 0.0 || k == best {
                    // (a new action, or the best so far)
                    1.0
                } else {
                    0.0
                }
            })
            .collect();
        let total: f64 = sigma.iter().sum();
        let sigma: Vec<f64> = sigma.iter().map(|s| s / total).collect();
        for (k, i) in idx.iter().enumerate() {
            self.strategy_sum[*i] += sigma[k];
        }
        let mut x = fast.unit();
        let mut chosen = idx.len() - 1;
        for (k, s) in sigma.iter().enumerate() {
            let p = GAMMA / n + (1.0 - GAMMA) * s;
            if x < p {
                chosen = k;
                break;
            }
            x -= p;
        }
        let prob = GAMMA / n + (1.0 - GAMMA) * sigma[chosen];
        let action = self.actions[idx[chosen]];
        (
            action,
            Sampled {
                legal: idx,
                chosen,
                prob,
            },
        )
    }

    /// After the playout: `value` in [0, 1] for the choosing seat.
    pub fn update(&mut self, s: &Sampled, value: f64) {
        for (k, i) in s.legal.iter().enumerate() {
            let estimate = if k == s.chosen { value / s.prob } else { 0.0 };
            self.regret[*i] += estimate - value;
        }
    }

    /// The move to play: sampled (with `unit`, uniform in [0, 1)) from the average strategy,
    /// purified; `None` before any sample.
    pub fn final_choice(&self, unit: f64) -> Option<Action> {
        let max = self.strategy_sum.iter().copied().fold(0.0f64, f64::max);
        if max <= 0.0 {
            return None;
        }
        let kept: Vec<(Action, f64)> = self
            .actions
            .iter()
            .zip(&self.strategy_sum)
            .filter(|(_, s)| **s >= PURIFY * max)
            .map(|(a, s)| (*a, *s))
            .collect();
        let total: f64 = kept.iter().map(|(_, s)| s).sum();
        let mut x = unit * total;
        for (a, s) in &kept {
            if x < *s {
                return Some(*a);
            }
            x -= s;
        }
        kept.last().map(|(a, _)| *a)
    }

    /// The average strategy (for tests): each action and its probability, unpurified.
    pub fn average(&self) -> Vec<(Action, f64)> {
        let total: f64 = self.strategy_sum.iter().sum();
        self.actions
            .iter()
            .zip(&self.strategy_sum)
            .map(|(a, s)| (*a, if total > 0.0 { s / total } else { 0.0 }))
            .collect()
    }
}
