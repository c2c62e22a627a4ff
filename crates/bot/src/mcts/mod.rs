//! Single-observer Information-Set Monte Carlo Tree Search (SO-ISMCTS, Cowling, Powley and
//! Whitehouse 2012) over the bot's view.
//!
//! Each iteration samples one determinization ([`Game::sample_from_view`]): a complete game that
//! agrees with everything the bot's seat sees, hidden parts drawn at random. The iteration then
//! walks one shared tree, restricted to the actions legal in that determinization:
//!
//! - **selection:** UCB1 where a child's exploration term uses its *availability* count (how
//!   often it was legal when its parent was visited) rather than the parent's visit count;
//! - **expansion:** one untried legal action;
//! - **simulation:** play on with a cheap player-like policy ([`crate::playout`]; uniformly random
//!   with [`crate::Policy::Random`]) until the round ends, then score the position by the table of
//!   [`crate::value`] (`BotConfig::value_rounds`; 0: to the end of the game, capped);
//! - **backpropagation:** each node is credited from the point of view of the player who made
//!   its move (1 win, ½ draw, 0 loss; the table's chance to win when the playout stopped).
//!
//! **The tree is kept between decisions** (`tree`): near the root, moves split by what the bot
//! observes of them, so that the next search, and the iterations run while the opponent thinks
//! ([`ponder`]), start from the node of the bot's new view with its statistics.
//!
//! Opponent moves the bot cannot observe (its character choice, its own face-down strategy) are
//! not told apart in the tree: they share one child, so the search never lets either side react
//! to a secret it could not see. When both seats must choose at once (character choice,
//! Planning), the bot's own choice comes first at the root and the opponent's first below it.
//!
//! Secret choices (the bot's own characters and face-down strategy, the opponent's unobserved
//! ones) are selected by regret matching ([`crate::regret`]) when `BotConfig::mixed` is on, and
//! the move played at such a root is sampled from the average strategy: a mixed strategy, no
//! fixed habit. Otherwise (and always at other nodes) the move played is the root child with the
//! most visits; with `mixed` off the opponent's secret moves are drawn uniformly.

mod tree;

use std::time::Instant;

use evr_rules::{Action, Faction, Game, Outcome, View, Viewer};
use rand::RngExt;
use rand::rngs::ChaCha20Rng;

use crate::BotConfig;
use crate::playout::{Fast, playout};
use crate::regret::Sampled;
pub use tree::{Tree, view_key};

/// Statistics of the last search, for tests and tournaments.
#[derive(Clone, Copy, Debug, Default)]
pub struct SearchStats {
    pub iterations: u32,
    pub nodes: usize,
    /// Iterations through the root kept from earlier searches (and pondering).
    pub reused: u32,
}

/// The ISMCTS decision on a fresh tree, `None` when the view cannot be searched (then the caller
/// falls back).
pub fn search(view: &View, config: &BotConfig, rng: &mut ChaCha20Rng) -> Option<Action> {
    search_with_stats(view, config, rng).map(|(a, _)| a)
}

pub fn search_with_stats(view: &View, config: &BotConfig, rng: &mut ChaCha20Rng) -> Option<(Action, SearchStats)> {
    decide(&mut None, view, config, rng)
}

/// The ISMCTS decision, searching on from `tree` where it holds the view's node (or afresh), and
/// leaving the tree there for the next search.
pub fn decide(
    tree: &mut Option<Tree>,
    view: &View,
    config: &BotConfig,
    rng: &mut ChaCha20Rng,
) -> Option<(Action, SearchStats)> {
    if view.legal_actions.is_empty() {
        return None;
    }
    let stats = grow(tree, view, config, config.iterations.max(1), rng)?;
    let t = tree.as_mut()?;
    let action = choose(t, rng)?;
    if config.split_levels > 0 {
        t.keep_move(action);
    } else {
        *tree = None;
    }
    Some((action, stats))
}

/// The move to play at the root: sampled from the average strategy at a secret choice, else
/// the most visited child.
fn choose(t: &Tree, rng: &mut ChaCha20Rng) -> Option<Action> {
    if let Some(a) = t.nodes[0].regrets[0]
        .as_ref()
        .and_then(|r| r.final_choice(rng.random()))
    {
        return Some(a);
    }
    let nodes = &t.nodes;
    nodes[0]
        .children
        .iter()
        .map(|c| &nodes[*c as usize])
        .filter(|n| n.action.is_some())
        .max_by(|a, b| {
            a.visits
                .cmp(&b.visits)
                .then(a.reward.partial_cmp(&b.reward).unwrap_or(std::cmp::Ordering::Equal))
        })?
        .action
}

/// Searches `iterations` from `view` while it is the opponent's move (pondering): the statistics
/// stay in `tree` for the bot's next decision. `None` when there is nothing to search (the bot's
/// own move, the game over, a view that cannot be determinized).
pub fn ponder(
    tree: &mut Option<Tree>,
    view: &View,
    config: &BotConfig,
    iterations: u32,
    rng: &mut ChaCha20Rng,
) -> Option<SearchStats> {
    if !view.legal_actions.is_empty() || view.outcome.is_some() || config.split_levels == 0 {
        return None;
    }
    let untimed = BotConfig {
        time_limit: None,
        ..*config
    };
    grow(tree, view, &untimed, iterations, rng)
}

/// Runs up to `budget` iterations (fewer at the time cap) from the node of `view` in `tree`.
fn grow(
    tree: &mut Option<Tree>,
    view: &View,
    config: &BotConfig,
    budget: u32,
    rng: &mut ChaCha20Rng,
) -> Option<SearchStats> {
    let Viewer::Seat(me) = view.viewer else {
        return None;
    };
    // A view that cannot be determinized gives no search; the caller plays a legal action.
    Game::sample_from_view(view, rng.random()).ok()?;
    // Who moves at the root: the bot when it has a move (it comes first when both choose at
    // once), else the opponent (pondering).
    let root_actor = if view.legal_actions.is_empty() {
        me.opponent()
    } else {
        me
    };
    let exploration = f64::from(config.exploration) / 100.0;
    let t = prepare(tree, view, me, root_actor, config);
    let reused = t.root_visits();
    let opp_located = view.player(me.opponent()).modifiers.located;
    let me_located = view.player(me).modifiers.located;
    let start = Instant::now();
    let mut fast = Fast(rng.random());
    let mut buf: Vec<Action> = Vec::with_capacity(64);
    let mut path: Vec<usize> = Vec::with_capacity(64);
    let mut legal_children: Vec<usize> = Vec::with_capacity(64);
    // The regret-matching selections of this iteration: node, whose (0 the bot, 1 the opponent).
    let mut sampled: Vec<(usize, usize, Sampled)> = Vec::new();
    let mut done = 0u32;
    while done < budget {
        if let Some(limit) = config.time_limit
            && done.is_multiple_of(16)
            && done > 0
            && start.elapsed() >= limit
        {
            break;
        }
        done += 1;
        let Ok(mut g) = Game::sample_from_view(view, rng.random()) else {
            continue;
        };
        path.clear();
        path.push(0);
        sampled.clear();
        let mut node = 0usize;
        let mut expanded = false;
        // Observation levels passed from the root (`u8::MAX` once under a pooled move).
        let mut level = 0u8;
        while !expanded && !g.is_over() {
            // Who acts: see `root_actor`; below the root, the opponent first when both must act.
            let first = if node == 0 { root_actor } else { me.opponent() };
            g.legal_actions_into(first, &mut buf);
            let seat = if buf.is_empty() {
                g.legal_actions_into(first.opponent(), &mut buf);
                first.opponent()
            } else {
                first
            };
            if buf.is_empty() {
                break;
            }
            let (child, action) = if seat != me && unobserved(&buf[0], me, opp_located) {
                // One shared child for every secret opponent move, drawn by regret matching (or
                // at random).
                let a = if config.mixed {
                    let (a, s) = t.nodes[node].regrets[1].get_or_insert_default().sample(&buf, &mut fast);
                    sampled.push((node, 1, s));
                    a
                } else {
                    buf[fast.below(buf.len())]
                };
                let found = t.nodes[node]
                    .children
                    .iter()
                    .find(|c| t.nodes[**c as usize].action.is_none())
                    .map(|c| *c as usize);
                (take_child(t, node, found, None, seat, &mut expanded), a)
            } else if seat == me && config.mixed && unobserved(&buf[0], me.opponent(), me_located) {
                // The bot's own secret choice: regret matching, the child by action.
                let (a, s) = t.nodes[node].regrets[0].get_or_insert_default().sample(&buf, &mut fast);
                sampled.push((node, 0, s));
                let found = t.find_child(node, a);
                (take_child(t, node, found, Some(a), seat, &mut expanded), a)
            } else {
                let Some((child, action, new)) =
                    select(t, node, seat, &buf, exploration, &mut legal_children, &mut fast)
                else {
                    break;
                };
                expanded |= new;
                (child, action)
            };
            let Ok(events) = g.apply_borrowed(seat, action) else {
                break;
            };
            path.push(child);
            node = child;
            if t.splits(child, level, config.split_levels) {
                level = level.saturating_add(1);
                let obs = tree::observation(events, me);
                let (c, new) = t.observation_child(child, obs);
                expanded |= new;
                let n = &mut t.nodes[c];
                if n.key == 0 && n.visits >= tree::KEY_AFTER {
                    // Every determinization here gives the bot this same view.
                    n.key = view_key(&g.view(Viewer::Seat(me)));
                }
                path.push(c);
                node = c;
            } else {
                level = u8::MAX;
            }
        }
        let outcome = playout(&mut g, config.playout, &mut fast, &mut buf, config.value_rounds);
        let rebel = rebel_reward(outcome, &g, config.value_rounds);
        let reward = |f: Faction| if f == Faction::Rebel { rebel } else { 1.0 - rebel };
        for (i, n) in path.iter().enumerate() {
            let n = &mut t.nodes[*n];
            n.visits += 1;
            if i > 0 {
                n.reward += reward(n.mover);
            }
        }
        for (n, who, s) in &sampled {
            let seat = if *who == 0 { me } else { me.opponent() };
            let value = reward(seat);
            if let Some(r) = t.nodes[*n].regrets[*who].as_mut() {
                r.update(s, value);
            }
        }
    }
    Some(SearchStats {
        iterations: done,
        nodes: t.nodes.len(),
        reused,
    })
}

/// The tree to search `view` in: `tree` moved to the view's node when it holds one (and the
/// search keeps trees), else a fresh one.
fn prepare<'t>(
    tree: &'t mut Option<Tree>,
    view: &View,
    me: Faction,
    actor: Faction,
    config: &BotConfig,
) -> &'t mut Tree {
    let key = if config.split_levels > 0 { view_key(view) } else { 0 };
    let keep = config.split_levels > 0 && tree.as_mut().is_some_and(|t| t.reroot(key, actor));
    if !keep {
        *tree = Some(Tree::fresh(key, me));
    }
    tree.get_or_insert_with(|| Tree::fresh(key, me))
}

/// UCB1 among the children legal here (their availability counted), or the expansion of an
/// untried legal action: the child, its action, and whether it is new (the expansion).
fn select(
    t: &mut Tree,
    node: usize,
    seat: Faction,
    legal: &[Action],
    exploration: f64,
    legal_children: &mut Vec<usize>,
    fast: &mut Fast,
) -> Option<(usize, Action, bool)> {
    let mut untried: Option<Action> = None;
    let mut n_untried = 0usize;
    legal_children.clear();
    for a in legal {
        match t.find_child(node, *a) {
            Some(c) => {
                t.nodes[c].avail += 1;
                legal_children.push(c);
            }
            None => {
                n_untried += 1;
                // Reservoir sampling: a uniform untried action.
                if fast.below(n_untried) == 0 {
                    untried = Some(*a);
                }
            }
        }
    }
    if let Some(a) = untried {
        let c = t.push_child(node, Some(a), seat);
        t.nodes[c].avail += 1;
        return Some((c, a, true));
    }
    let mut best = usize::MAX;
    let mut best_score = f64::NEG_INFINITY;
    for c in legal_children.iter() {
        let n = &t.nodes[*c];
        let visits = f64::from(n.visits.max(1));
        let score = n.reward / visits + exploration * (f64::from(n.avail.max(1)).ln() / visits).sqrt();
        if score > best_score {
            best_score = score;
            best = *c;
        }
    }
    let a = t.nodes.get(best).and_then(|n| n.action)?;
    Some((best, a, false))
}

/// The child `found` of `parent`, or a new one for `action` (the iteration's expansion), counted as
/// available once more: the step into a secret choice's child, the opponent's or the bot's own.
fn take_child(
    t: &mut Tree,
    parent: usize,
    found: Option<usize>,
    action: Option<Action>,
    mover: Faction,
    expanded: &mut bool,
) -> usize {
    let child = found.unwrap_or_else(|| {
        *expanded = true;
        t.push_child(parent, action, mover)
    });
    t.nodes[child].avail += 1;
    child
}

/// Whether `me` cannot see which of these moves of the other seat was made (the other seat's
/// character choice, or its own face-down strategy unless it is located).
fn unobserved(a: &Action, me: Faction, other_located: bool) -> bool {
    match a {
        Action::ChooseCharacters { .. } => true,
        Action::ChooseStrategy { target, .. } => *target != me && !other_located,
        _ => false,
    }
}

/// The Rebel's reward for a playout: 1 won, ½ draw, 0 lost; a game the playout left unfinished
/// is scored by [`crate::value`] when the playout stopped between rounds (`value_rounds` > 0), else
/// (the action cap) on VP.
fn rebel_reward(outcome: Option<Outcome>, g: &Game, value_rounds: u8) -> f64 {
    let winner = match outcome {
        Some(o) => o.winner,
        None if value_rounds > 0 => return crate::value::rebel_score(g),
        None => {
            let (a, b) = (g.vp(Faction::Rebel), g.vp(Faction::Imperial));
            if a > b {
                Some(Faction::Rebel)
            } else if b > a {
                Some(Faction::Imperial)
            } else {
                None
            }
        }
    };
    match winner {
        Some(Faction::Rebel) => 1.0,
        Some(Faction::Imperial) => 0.0,
        None => 0.5,
    }
}
