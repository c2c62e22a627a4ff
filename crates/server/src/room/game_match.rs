//! The players of a room and the game they are playing: the creator and the guest keep their
//! seats across rematches while their factions swap.

use std::collections::HashMap;

use evr_rules::{Event, Faction, Game};

/// The two people in a room: the creator and the guest who joined with the invite link.
/// Their factions swap with every rematch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Player {
    Creator,
    Guest,
}

impl Player {
    pub(super) const BOTH: [Player; 2] = [Player::Creator, Player::Guest];

    pub(super) fn index(self) -> usize {
        self as usize
    }
}

/// A game of the room: game 1, then one per rematch.
pub(super) struct Match {
    pub(super) game_no: u32,
    pub(super) creator_faction: Faction,
    pub(super) game: Game,
    /// The update `seq` this game started at.
    pub(super) start_seq: u32,
    /// Events of every update of this game, for catch-up after a reconnect: `(seq, events)`.
    pub(super) history: Vec<(u32, Vec<Event>)>,
    /// Applied action ids per seat, with the update `seq` they produced (idempotency).
    pub(super) applied: HashMap<(Faction, String), u32>,
    /// A win claimed because the opponent stayed away (not a rules outcome).
    pub(super) forfeit_winner: Option<Faction>,
    pub(super) rematch: [bool; 2],
}

impl Match {
    pub(super) fn faction_of(&self, p: Player) -> Faction {
        match p {
            Player::Creator => self.creator_faction,
            Player::Guest => self.creator_faction.opponent(),
        }
    }

    pub(super) fn player_of(&self, f: Faction) -> Player {
        if f == self.creator_faction {
            Player::Creator
        } else {
            Player::Guest
        }
    }

    pub(super) fn is_over(&self) -> bool {
        self.game.is_over() || self.forfeit_winner.is_some()
    }
}
