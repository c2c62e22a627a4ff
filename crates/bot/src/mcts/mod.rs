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
//! - **simulation:** play to the end of the game (capped) with a cheap player-like policy
//!   ([`crate::playout`]; uniformly random with [`Policy::Random`]);
//! - **backpropagation:** each node is credited from the point of view of the player who made
//!   its move (1 win, ½ draw, 0 loss).
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

use std::collections::HashMap;
use std::time::Instant;

use evr_rules::{Action, Faction, Game, Outcome, View, Viewer};
use rand::RngExt;
use rand::rngs::ChaCha20Rng;

use crate::BotConfig;
use crate::playout::{Fast, playout};
use crate::regret::{Regrets, Sampled};

/// UCB1 exploration constant (rewards are in [0, 1]).
const EXPLORATION: f64 = 0.7;
/// Children are indexed by action beyond this many.
const INDEX_FROM: usize = 16;

struct Node {
    /// The move into this node; `None` for the root and for an unobserved opponent move.
    action: Option<Action>,
    /// Who made that move.
    mover: Faction,
    children: Vec<u32>,
    /// Action to child, once there are many children.
    index: Option<HashMap<Action, u32>>,
    visits: u32,
    avail: u32,
    reward: f64,
    /// Regret matching of a secret choice made at this node: [the bot's, the opponent's].
    regrets: [Option<Box<Regrets>>; 2],
}

/// Statistics of the last search, for tests and tournaments.
#[derive(Clone, Copy, Debug, Default)]
pub struct SearchStats {
    pub iterations: u32,
    pub nodes: usize,
}

/// The ISMCTS decision, `None` when the view cannot be searched (then the caller falls back).
pub fn search(view: &View, config: &BotConfig, rng: &mut ChaCha20Rng) -> Option<Action> {
    search_with_stats(view, config, rng).map(|(a, _)| a)
}

pub fn search_with_stats(view: &View, config: &BotConfig, rng: &mut ChaCha20Rng) -> Option<(Action, SearchStats)> {
    let Viewer::Seat(me) = view.viewer else {
        return None;
    };
    if view.legal_actions.is_empty() {
        return None;
    }
    // A view that cannot be determinized gives no search; the caller plays a legal action.
    Game::sample_from_view(view, rng.random()).ok()?;
    let opp_located = view.player(me.opponent()).modifiers.located;
    let me_located = view.player(me).modifiers.located;
    let start = Instant::now();
    let mut fast = Fast(rng.random());
    let mut nodes: Vec<Node> = vec![Node {
        action: None,
        mover: me.opponent(),
        children: Vec::new(),
        index: None,
        visits: 0,
        avail: 0,
        reward: 0.0,
        regrets: [None, None],
    }];
    let mut buf: Vec<Action> = Vec::with_capacity(64);
    let mut path: Vec<usize> = Vec::with_capacity(64);
    let mut legal_children: Vec<usize> = Vec::with_capacity(64);
    // The regret-matching selections of this iteration: node, whose (0 the bot, 1 the opponent).
    let mut sampled: Vec<(usize, usize, Sampled)> = Vec::new();
    let budget = config.iterations.max(1);
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
        while !expanded && !g.is_over() {
            // Who acts: the bot at the root; below it, the opponent first when both must act.
            let seat = if node == 0 {
                g.legal_actions_into(me, &mut buf);
                me
            } else {
                g.legal_actions_into(me.opponent(), &mut buf);
                if buf.is_empty() {
                    g.legal_actions_into(me, &mut buf);
                    me
                } else {
                    me.opponent()
                }
            };
            if buf.is_empty() {
                break;
            }
            if seat != me && unobserved(&buf[0], me, opp_located) {
                // One shared child for every secret opponent move, drawn by regret matching (or
                // at random).
                let a = if config.mixed {
                    let (a, s) = nodes[node].regrets[1].get_or_insert_default().sample(&buf, &mut fast);
                    sampled.push((node, 1, s));
                    a
                } else {
                    buf[fast.below(buf.len())]
                };
                let found = nodes[node]
                    .children
                    .iter()
                    .find(|c| nodes[**c as usize].action.is_none())
                    .map(|c| *c as usize);
                let child = take_child(&mut nodes, node, found, None, seat, &mut expanded);
                if g.apply(seat, a).is_err() {
                    break;
                }
                path.push(child);
                node = child;
                continue;
            }
            if seat == me && config.mixed && unobserved(&buf[0], me.opponent(), me_located) {
                // The bot's own secret choice: regret matching, the child by action.
                let (a, s) = nodes[node].regrets[0].get_or_insert_default().sample(&buf, &mut fast);
                sampled.push((node, 0, s));
                let found = find_child(&nodes[node], &nodes, a);
                let child = take_child(&mut nodes, node, found, Some(a), seat, &mut expanded);
                if g.apply(seat, a).is_err() {
                    break;
                }
                path.push(child);
                node = child;
                continue;
            }
            // Availability of the children legal here, and an untried action if any.
            let mut untried: Option<Action> = None;
            let mut n_untried = 0usize;
            legal_children.clear();
            for a in &buf {
                match find_child(&nodes[node], &nodes, *a) {
                    Some(c) => {
                        nodes[c].avail += 1;
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
            let (child, action) = if let Some(a) = untried {
                expanded = true;
                let c = push_child(&mut nodes, node, Some(a), seat);
                nodes[c].avail += 1;
                (c, a)
            } else {
                let mut best = usize::MAX;
                let mut best_score = f64::NEG_INFINITY;
                for c in &legal_children {
                    let n = &nodes[*c];
                    let visits = f64::from(n.visits.max(1));
                    let score = n.reward / visits + EXPLORATION * (f64::from(n.avail.max(1)).ln() / visits).sqrt();
                    if score > best_score {
                        best_score = score;
                        best = *c;
                    }
                }
                let Some(a) = nodes.get(best).and_then(|n| n.action) else {
                    break;
                };
                (best, a)
            };
            if g.apply(seat, action).is_err() {
                break;
            }
            path.push(child);
            node = child;
        }
        let outcome = playout(&mut g, config.playout, &mut fast, &mut buf);
        for (i, n) in path.iter().enumerate() {
            let n = &mut nodes[*n];
            n.visits += 1;
            if i > 0 {
                n.reward += reward(outcome, n.mover, &g);
            }
        }
        for (n, who, s) in &sampled {
            let seat = if *who == 0 { me } else { me.opponent() };
            let value = reward(outcome, seat, &g);
            if let Some(r) = nodes[*n].regrets[*who].as_mut() {
                r.update(s, value);
            }
        }
    }
    let stats = SearchStats {
        iterations: done,
        nodes: nodes.len(),
    };
    if let Some(a) = nodes[0].regrets[0].as_ref().and_then(|r| r.final_choice(rng.random())) {
        return Some((a, stats));
    }
    let root = &nodes[0];
    let best = root
        .children
        .iter()
        .map(|c| &nodes[*c as usize])
        .filter(|n| n.action.is_some())
        .max_by(|a, b| {
            a.visits
                .cmp(&b.visits)
                .then(a.reward.partial_cmp(&b.reward).unwrap_or(std::cmp::Ordering::Equal))
        })?;
    best.action.map(|a| (a, stats))
}

/// The child `found` of `parent`, or a new one for `action` (the iteration's expansion), counted as
/// available once more: the step into a secret choice's child, the opponent's or the bot's own.
fn take_child(
    nodes: &mut Vec<Node>,
    parent: usize,
    found: Option<usize>,
    action: Option<Action>,
    mover: Faction,
    expanded: &mut bool,
) -> usize {
    let child = found.unwrap_or_else(|| {
        *expanded = true;
        push_child(nodes, parent, action, mover)
    });
    nodes[child].avail += 1;
    child
}

fn push_child(nodes: &mut Vec<Node>, parent: usize, action: Option<Action>, mover: Faction) -> usize {
    let i = nodes.len();
    nodes.push(Node {
        action,
        mover,
        children: Vec::new(),
        index: None,
        visits: 0,
        avail: 0,
        reward: 0.0,
        regrets: [None, None],
    });
    let p = &mut nodes[parent];
    p.children.push(i as u32);
    if let Some(a) = action {
        if let Some(index) = &mut p.index {
            index.insert(a, i as u32);
        } else if p.children.len() > INDEX_FROM {
            let children = p.children.clone();
            let index: HashMap<Action, u32> = children
                .iter()
                .filter_map(|c| nodes[*c as usize].action.map(|a| (a, *c)))
                .collect();
            nodes[parent].index = Some(index);
        }
    }
    i
}

/// The child of `node` reached by `action`.
fn find_child(node: &Node, nodes: &[Node], action: Action) -> Option<usize> {
    match &node.index {
        Some(index) => index.get(&action).map(|c| *c as usize),
        None => node
            .children
            .iter()
            .map(|c| *c as usize)
            .find(|c| nodes[*c].action == Some(action)),
    }
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

fn reward(outcome: Option<Outcome>, f: Faction, g: &Game) -> f64 {
    let winner = match outcome {
        Some(o) => o.winner,
        None => {
            let (a, b) = (g.vp(f), g.vp(f.opponent()));
            if a > b {
                Some(f)
            } else if b > a {
                Some(f.opponent())
            } else {
                None
            }
        }
    };
    match winner {
        Some(w) if w == f => 1.0,
        Some(_) => 0.0,
        None => 0.5,
    }
}
