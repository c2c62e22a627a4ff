//! FROZEN ANCHOR: a copy of `src/easy.rs` as it was on 2026-11-27 (commit 0072d80), that day's
//! Easy level. It must never change: the ladder's ratings are measured against it.
//!
//! The Easy level: a simple heuristic over the view's legal actions.
//!
//! - **Struggle:** pass when the current totals win the round (and always once the opponent has
//!   passed while we win: that ends the struggle); play a card while the chance of not busting
//!   is good (estimated from the deck contents the owner knows); otherwise use the power or
//!   spend the influence that most improves the standing, judged one action ahead on a few
//!   determinizations; otherwise pass.
//! - **Pending choices:** the option that gives the best standing one step ahead.
//! - **Characters and strategies:** random among the legal ones (strategies: Direct Assault is
//!   avoided when the objective is low).

use evr_rules::view::PlayerView;
use evr_rules::{Action, Card, Faction, Game, PhaseName, Strategy, View, Viewer, catalog};
use rand::rngs::ChaCha20Rng;
use rand::{Rng, RngExt};

/// Determinizations per candidate action in the one-step look-ahead.
const SAMPLES: usize = 3;

/// A uniformly random legal action.
pub fn random_action<R: Rng>(view: &View, rng: &mut R) -> Option<Action> {
    let n = view.legal_actions.len();
    if n == 0 {
        return None;
    }
    Some(view.legal_actions[rng.random_range(0..n)])
}

fn player(view: &View, f: Faction) -> &PlayerView {
    match f {
        Faction::Rebel => &view.rebel,
        Faction::Imperial => &view.imperial,
    }
}

/// How good a struggle standing is for `me`: winning (and by how much) is positive.
pub fn standing(mine: u32, theirs: u32, objective: u32, balance_me: bool) -> f64 {
    match (mine > objective, theirs > objective) {
        (false, true) => 10.0 + f64::from(mine) * 0.1,
        (true, false) => -10.0,
        (true, true) => 0.0,
        (false, false) => {
            let d = f64::from(mine) - f64::from(theirs);
            let tie = if mine == theirs && balance_me { 0.5 } else { 0.0 };
            d.clamp(-8.0, 8.0) + tie + f64::from(mine) * 0.05
        }
    }
}

/// The Easy decision, `None` when nothing is legal.
pub fn decide(view: &View, rng: &mut ChaCha20Rng) -> Option<Action> {
    let Viewer::Seat(me) = view.viewer else {
        return None;
    };
    if view.legal_actions.is_empty() {
        return None;
    }
    if view.pending.as_ref().is_some_and(|p| p.owner == me) {
        return greedy(view, me, &view.legal_actions, rng);
    }
    match view.phase {
        PhaseName::Planning => Some(planning(view, me, rng)),
        PhaseName::Struggle => struggle(view, me, rng),
        _ => random_action(view, rng),
    }
}

fn planning(view: &View, me: Faction, rng: &mut ChaCha20Rng) -> Action {
    let objective = view.event.map_or(0, |e| e.objective);
    let mut options: Vec<Action> = view
        .legal_actions
        .iter()
        .copied()
        .filter(|a| match a {
            // Direct Assault on a low objective is likely to bust us.
            Action::ChooseStrategy { target, strategy } if *target == me => {
                !(*strategy == Strategy::DirectAssault && objective < 14)
            }
            _ => true,
        })
        .collect();
    if options.is_empty() {
        options = view.legal_actions.clone();
    }
    options[rng.random_range(0..options.len())]
}

fn struggle(view: &View, me: Faction, rng: &mut ChaCha20Rng) -> Option<Action> {
    let opp = me.opponent();
    let mine = player(view, me);
    let theirs = player(view, opp);
    let objective = view.event.map_or(0, |e| e.objective);
    let (t, o) = (mine.total, theirs.total);
    let balance_me = view.balance == Some(me);
    let winning = t <= objective && (o > objective || t > o || (t == o && balance_me));
    let legal = &view.legal_actions;
    let can_pass = legal.contains(&Action::Pass);
    if winning && can_pass {
        return Some(Action::Pass);
    }
    // Play a card when it is unlikely to bust us.
    if legal.contains(&Action::PlayCard) && t < objective {
        let cat = catalog().ok()?;
        let values: Vec<u32> = match (mine.deck_top, mine.deck_contents) {
            (Some(c), _) => vec![cat.card(c).ready_value],
            (None, Some(m)) if !m.is_empty() => m.iter().map(|c: Card| cat.card(c).ready_value).collect(),
            _ => mine.discard_pile.iter().map(|c| cat.card(*c).ready_value).collect(),
        };
        let safe = values.iter().filter(|v| t + **v <= objective).count();
        if !values.is_empty() && safe * 10 >= values.len() * 6 {
            return Some(Action::PlayCard);
        }
    }
    // Otherwise a power or influence if it improves the standing.
    let candidates: Vec<Action> = legal
        .iter()
        .copied()
        .filter(|a| matches!(a, Action::UsePower { .. } | Action::SpendInfluence { .. }))
        .collect();
    let now = standing(t, o, objective, balance_me);
    if !candidates.is_empty()
        && let Some((best, score)) = scored_best(view, me, &candidates, rng)
        && score > now + 0.25
    {
        return Some(best);
    }
    if can_pass {
        return Some(Action::Pass);
    }
    random_action(view, rng)
}

/// The candidate with the best standing one action ahead (ties: the first).
fn greedy(view: &View, me: Faction, candidates: &[Action], rng: &mut ChaCha20Rng) -> Option<Action> {
    scored_best(view, me, candidates, rng)
        .map(|(a, _)| a)
        .or_else(|| random_action(view, rng))
}

fn scored_best(view: &View, me: Faction, candidates: &[Action], rng: &mut ChaCha20Rng) -> Option<(Action, f64)> {
    let objective = view.event.map_or(0, |e| e.objective);
    let balance_me = view.balance == Some(me);
    let games: Vec<Game> = (0..SAMPLES)
        .filter_map(|_| Game::sample_from_view(view, rng.random()).ok())
        .collect();
    if games.is_empty() {
        return None;
    }
    let mut best: Option<(Action, f64)> = None;
    for a in candidates {
        let mut sum = 0.0;
        for g in &games {
            let mut g = g.clone();
            if g.apply(me, *a).is_err() {
                sum -= 100.0;
                continue;
            }
            sum += standing(g.total(me), g.total(me.opponent()), objective, balance_me);
        }
        let score = sum / games.len() as f64;
        if best.is_none_or(|(_, s)| score > s + 1e-9) {
            best = Some((*a, score));
        }
    }
    best
}
