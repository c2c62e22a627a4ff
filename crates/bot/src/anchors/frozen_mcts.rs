//! FROZEN ANCHOR: a copy of `src/mcts.rs` as it was on 2026-11-27 (commit 0072d80), the search of
//! that day's Normal and Hard. It must never change: the ladder's ratings are measured against it.
//! Only its interface changed from the original (an iteration budget and a time cap as arguments
//! instead of a `BotConfig`, which may evolve).
//!
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
//! - **simulation:** uniformly random legal play to the end of the game (capped);
//! - **backpropagation:** each node is credited from the point of view of the player who made
//!   its move (1 win, ½ draw, 0 loss).
//!
//! Opponent moves the bot cannot observe (its character choice, its own face-down strategy) are
//! not told apart in the tree: they share one child and are drawn at random, so the search never
//! lets either side react to a secret it could not see. When both seats must choose at once
//! (character choice, Planning), the bot's own choice comes first at the root and the opponent's
//! first below it.
//!
//! The move played is the root child with the most visits.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use evr_rules::{Action, Faction, Game, Outcome, View, Viewer};
use rand::RngExt;
use rand::rngs::ChaCha20Rng;

/// UCB1 exploration constant (rewards are in [0, 1]).
const EXPLORATION: f64 = 0.7;
/// A random playout that has not ended after this many actions is scored on VP.
const PLAYOUT_CAP: usize = 4_000;
/// Children are indexed by action beyond this many.
const INDEX_FROM: usize = 16;

/// SplitMix64: a small fast generator for playouts, seeded from the bot's stream.
struct Fast(u64);

impl Fast {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (((self.next() >> 32) * n as u64) >> 32) as usize
    }
}

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
}

/// The ISMCTS decision, `None` when the view cannot be searched (then the caller falls back).
pub fn search(view: &View, iterations: u32, time_limit: Option<Duration>, rng: &mut ChaCha20Rng) -> Option<Action> {
    let Viewer::Seat(me) = view.viewer else {
        return None;
    };
    if view.legal_actions.is_empty() {
        return None;
    }
    // A view that cannot be determinized gives no search; the caller plays a legal action.
    Game::sample_from_view(view, rng.random()).ok()?;
    let opp_located = match me.opponent() {
        Faction::Rebel => view.rebel.modifiers.located,
        Faction::Imperial => view.imperial.modifiers.located,
    };
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
    }];
    let mut buf: Vec<Action> = Vec::with_capacity(64);
    let mut path: Vec<usize> = Vec::with_capacity(64);
    let mut legal_children: Vec<usize> = Vec::with_capacity(64);
    let budget = iterations.max(1);
    let mut done = 0u32;
    while done < budget {
        if let Some(limit) = time_limit
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
                // One shared child for every secret opponent move, drawn at random.
                let a = buf[fast.below(buf.len())];
                let child = match nodes[node]
                    .children
                    .iter()
                    .find(|c| nodes[**c as usize].action.is_none())
                {
                    Some(c) => *c as usize,
                    None => {
                        expanded = true;
                        push_child(&mut nodes, node, None, seat)
                    }
                };
                nodes[child].avail += 1;
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
        let outcome = playout(&mut g, &mut fast, &mut buf);
        for (i, n) in path.iter().enumerate() {
            let n = &mut nodes[*n];
            n.visits += 1;
            if i > 0 {
                n.reward += reward(outcome, n.mover, &g);
            }
        }
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
    best.action
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

/// Whether the bot cannot see which of these opponent moves was made.
fn unobserved(a: &Action, me: Faction, opp_located: bool) -> bool {
    match a {
        Action::ChooseCharacters { .. } => true,
        Action::ChooseStrategy { target, .. } => *target != me && !opp_located,
        _ => false,
    }
}

/// Random legal play to the end (or the cap).
fn playout(g: &mut Game, fast: &mut Fast, buf: &mut Vec<Action>) -> Option<Outcome> {
    for _ in 0..PLAYOUT_CAP {
        if g.is_over() {
            break;
        }
        let mut acted = false;
        for f in Faction::BOTH {
            g.legal_actions_into(f, buf);
            if !buf.is_empty() {
                let a = buf[fast.below(buf.len())];
                if g.apply(f, a).is_err() {
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
