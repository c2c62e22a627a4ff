//! The search tree, kept between decisions.
//!
//! Near the root (the first `BotConfig::split_levels` moves), a move's node has one child per
//! *observation*: the events of the move as the bot's seat sees them (the card a draw turned up, a
//! revealed strategy, the next event). There the tree's nodes are the bot's information sets, and
//! each observation node keeps a key of the bot's view at that point ([`view_key`]). When the bot
//! next searches, from the view after its own move and the opponent's answer, the node with that
//! view's key becomes the root and its statistics are kept ([`Tree::reroot`]); the rest is dropped.
//! Pondering rests on this: iterations run during the opponent's turn are found again when the
//! bot's turn comes. Deeper, moves are pooled over what they turn up: a tree split everywhere
//! spreads its visits too thinly (BENCHMARKS.md).

use std::collections::{HashMap, VecDeque};
use std::hash::{DefaultHasher, Hash, Hasher};
use std::io;

use evr_rules::{Action, Event, Faction, View, Viewer};

use crate::regret::Regrets;

/// An observation node gets its view's key on its visit after this many: a view costs as much as
/// many iterations, and a node visited less has little worth keeping.
pub(crate) const KEY_AFTER: u32 = 16;

/// Children are indexed by action beyond this many.
const INDEX_FROM: usize = 16;

pub(crate) struct Node {
    /// The move into this node; `None` for the root, an unobserved opponent move and an
    /// observation.
    pub action: Option<Action>,
    /// Who made that move.
    pub mover: Faction,
    /// For an observation node: the hash of what the bot observed of its parent's move.
    pub obs: Option<u64>,
    /// For an observation node visited [`KEY_AFTER`] times or more: the key of the bot's view
    /// there ([`view_key`]; 0 before).
    pub key: u64,
    pub children: Vec<u32>,
    /// Action to child, once there are many children (boxed: few nodes have one, and a kept tree
    /// holds every node in memory between moves: 8 bytes a node instead of 48).
    #[allow(clippy::box_collection)]
    pub index: Option<Box<HashMap<Action, u32>>>,
    pub visits: u32,
    pub avail: u32,
    pub reward: f64,
    /// Regret matching of a secret choice made at this node: [the bot's, the opponent's].
    pub regrets: [Option<Box<Regrets>>; 2],
}

impl Node {
    fn new(action: Option<Action>, mover: Faction) -> Node {
        Node {
            action,
            mover,
            obs: None,
            key: 0,
            children: Vec::new(),
            index: None,
            visits: 0,
            avail: 0,
            reward: 0.0,
            regrets: [None, None],
        }
    }
}

/// One seat's search tree; `nodes[0]` is the root, the information set of the view whose key is
/// `key`.
pub struct Tree {
    pub(crate) nodes: Vec<Node>,
    pub(crate) key: u64,
}

impl std::fmt::Debug for Tree {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tree")
            .field("nodes", &self.nodes.len())
            .field("root_visits", &self.nodes[0].visits)
            .finish()
    }
}

impl Tree {
    pub(crate) fn fresh(key: u64, me: Faction) -> Tree {
        Tree {
            nodes: vec![Node::new(None, me.opponent())],
            key,
        }
    }

    /// Iterations that went through the root so far.
    pub fn root_visits(&self) -> u32 {
        self.nodes[0].visits
    }

    /// Moves the root to the observation node of the view keyed `key`, where `actor` moves
    /// first, keeping its subtree and dropping the rest. False when no such node is found (or its
    /// children are another seat's moves): the caller then starts afresh.
    pub(crate) fn reroot(&mut self, key: u64, actor: Faction) -> bool {
        let found = if self.key == key { Some(0) } else { self.find(key) };
        let Some(at) = found else { return false };
        let children = &self.nodes[at].children;
        if children.iter().any(|c| self.nodes[*c as usize].mover != actor) {
            return false;
        }
        if at != 0 {
            self.keep_subtree(at);
        }
        self.key = key;
        true
    }

    /// Keeps only the subtree of the root's move `action`, the one played: the next search starts
    /// below it, and a kept tree holds no more memory than that.
    pub(crate) fn keep_move(&mut self, action: Action) {
        match self.find_child(0, action) {
            Some(c) => {
                self.keep_subtree(c);
                self.key = 0;
            }
            None => {
                // Nothing searched below it: an empty tree that no view's key finds.
                let mover = self.nodes[0].mover;
                self.nodes = vec![Node::new(None, mover)];
                self.key = 0;
            }
        }
    }

    /// The observation node keyed `key`, breadth first.
    fn find(&self, key: u64) -> Option<usize> {
        let mut queue = VecDeque::from([0usize]);
        while let Some(n) = queue.pop_front() {
            for c in &self.nodes[n].children {
                let c = *c as usize;
                let node = &self.nodes[c];
                if node.obs.is_some() && node.key == key {
                    return Some(c);
                }
                queue.push_back(c);
            }
        }
        None
    }

    /// Keeps the subtree under `at` (as the new root) and drops every other node.
    fn keep_subtree(&mut self, at: usize) {
        let mut old: Vec<Option<Node>> = std::mem::take(&mut self.nodes).into_iter().map(Some).collect();
        let mut order = vec![at];
        let mut i = 0;
        while i < order.len() {
            if let Some(n) = &old[order[i]] {
                order.extend(n.children.iter().map(|c| *c as usize));
            }
            i += 1;
        }
        let mut renumber: HashMap<u32, u32> = HashMap::with_capacity(order.len());
        for (new, old_index) in order.iter().enumerate() {
            renumber.insert(*old_index as u32, new as u32);
        }
        let mut nodes = Vec::with_capacity(order.len());
        for old_index in order {
            if let Some(mut n) = old[old_index].take() {
                for c in &mut n.children {
                    *c = renumber.get(c).copied().unwrap_or(*c);
                }
                if let Some(index) = &mut n.index {
                    for c in index.values_mut() {
                        *c = renumber.get(c).copied().unwrap_or(*c);
                    }
                }
                nodes.push(n);
            }
        }
        self.nodes = nodes;
    }

    /// The child of `parent` made by `action` (a new one when `None`), its mover `mover`.
    pub(crate) fn push_child(&mut self, parent: usize, action: Option<Action>, mover: Faction) -> usize {
        let i = self.nodes.len();
        self.nodes.push(Node::new(action, mover));
        let p = &mut self.nodes[parent];
        p.children.push(i as u32);
        if let Some(a) = action {
            if let Some(index) = &mut p.index {
                index.insert(a, i as u32);
            } else if p.children.len() > INDEX_FROM {
                let index: HashMap<Action, u32> = p
                    .children
                    .clone()
                    .iter()
                    .filter_map(|c| self.nodes[*c as usize].action.map(|a| (a, *c)))
                    .collect();
                self.nodes[parent].index = Some(Box::new(index));
            }
        }
        i
    }

    /// The child of `node` reached by `action`.
    pub(crate) fn find_child(&self, node: usize, action: Action) -> Option<usize> {
        let n = &self.nodes[node];
        match &n.index {
            Some(index) => index.get(&action).map(|c| *c as usize),
            None => n
                .children
                .iter()
                .map(|c| *c as usize)
                .find(|c| self.nodes[*c].action == Some(action)),
        }
    }

    /// Whether the move of `node` splits by observation: it already does, or it is new and still
    /// among the first `split_levels` observation levels (`level` of them above it, `u8::MAX`
    /// below a pooled move: nothing splits under one, or its observation nodes would not be the
    /// bot's information sets).
    pub(crate) fn splits(&self, node: usize, level: u8, split_levels: u8) -> bool {
        match self.nodes[node].children.first() {
            Some(c) => self.nodes[*c as usize].obs.is_some(),
            None => level < split_levels,
        }
    }

    /// The observation child of `node` for `obs`, and whether it is new.
    pub(crate) fn observation_child(&mut self, node: usize, obs: u64) -> (usize, bool) {
        let found = self.nodes[node]
            .children
            .iter()
            .map(|c| *c as usize)
            .find(|c| self.nodes[*c].obs == Some(obs));
        match found {
            Some(c) => (c, false),
            None => {
                let mover = self.nodes[node].mover;
                let c = self.push_child(node, None, mover);
                self.nodes[c].obs = Some(obs);
                (c, true)
            }
        }
    }
}

/// What `me` observed of one move: its events as `me`'s seat sees them.
pub(crate) fn observation(events: &[Event], me: Faction) -> u64 {
    let mut h = DefaultHasher::new();
    for e in events {
        e.project(Viewer::Seat(me)).hash(&mut h);
    }
    h.finish()
}

/// The key of a view: a hash of its JSON (`Game::sample_from_view` keeps a view byte for byte,
/// so a view reached inside the search has the key of the same view in the real game).
pub fn view_key(view: &View) -> u64 {
    struct HashWriter(DefaultHasher);
    impl io::Write for HashWriter {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.0.write(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }
    let mut w = HashWriter(DefaultHasher::new());
    // Serializing a view cannot fail (no maps with non-string keys); a failure only loses reuse.
    let _ = serde_json::to_writer(&mut w, view);
    w.0.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tree with a root, two moves, an observation below the first (keyed 7) and a move below it.
    fn small() -> Tree {
        let mut t = Tree::fresh(1, Faction::Rebel);
        let pass = t.push_child(0, Some(Action::Pass), Faction::Rebel);
        t.push_child(0, Some(Action::PlayCard), Faction::Rebel);
        let (seen, _) = t.observation_child(pass, 42);
        t.nodes[seen].key = 7;
        t.push_child(seen, Some(Action::PlayCard), Faction::Imperial);
        t
    }

    #[test]
    fn keeping_the_played_move_renumbers_its_subtree() {
        let mut t = small();
        t.keep_move(Action::Pass);
        assert_eq!(t.nodes.len(), 3, "the move, its observation and the move below");
        assert!(t.reroot(7, Faction::Imperial), "the observation is found by its key");
        assert_eq!(t.nodes.len(), 2);
        assert_eq!(t.find_child(0, Action::PlayCard), Some(1));
    }

    #[test]
    fn keeping_a_move_never_searched_leaves_an_empty_tree() {
        let mut t = small();
        let card = evr_rules::Card::all_of(Faction::Rebel).next().expect("a Rebel card");
        t.keep_move(Action::UsePower { card });
        assert_eq!(t.nodes.len(), 1);
        assert!(t.nodes[0].children.is_empty(), "no child numbers left pointing nowhere");
        assert!(!t.reroot(7, Faction::Imperial));
    }

    #[test]
    fn a_node_whose_moves_are_the_other_seats_is_not_a_root_for_this_one() {
        let mut t = small();
        t.keep_move(Action::Pass);
        assert!(!t.reroot(7, Faction::Rebel), "below the observation the Imperial moves");
    }
}
