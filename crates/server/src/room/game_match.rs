//! A game of the room and who plays which side of it: the creator and the guest keep their seats
//! across rematches while their factions swap.

use std::collections::HashMap;

use evr_protocol::ForfeitReason;
use evr_rules::{ByFaction, Event, Faction, Game};

use super::seat::{BySeat, Seat};
use crate::fairness::GameSecret;

/// A game of the room: game 1, then one per rematch.
pub(super) struct Match {
    pub(super) game_no: u32,
    pub(super) creator_faction: Faction,
    pub(super) game: Game,
    /// Its secret randomness (key and commitment salt), told to everyone once the game is over.
    pub(super) secret: GameSecret,
    /// The update `seq` this game started at.
    pub(super) start_seq: u32,
    /// What the game logged as it was set up, before any action (the start of its log).
    pub(super) opening: Vec<Event>,
    /// Events of every update of this game, for catch-up after a reconnect: `(seq, events)`.
    pub(super) history: Vec<(u32, Vec<Event>)>,
    /// Applied action ids per side, with the update `seq` they produced (idempotency).
    pub(super) applied: HashMap<(Faction, String), u32>,
    /// A win outside the rules: claimed because the opponent stayed away, or on time.
    pub(super) forfeit_winner: Option<Faction>,
    /// Why `forfeit_winner` won.
    pub(super) forfeit_reason: Option<ForfeitReason>,
    /// Which seats asked for a rematch of this (finished) game.
    pub(super) rematch: BySeat<bool>,
    /// Which players agreed to reveal this finished game in its replay (stored).
    pub(super) reveal: ByFaction<bool>,
}

impl Match {
    /// Game `game_no`, starting at update `start_seq`, before any action.
    pub(super) fn new(game_no: u32, creator_faction: Faction, game: Game, secret: GameSecret, start_seq: u32) -> Match {
        Match {
            game_no,
            creator_faction,
            opening: game.round_log().to_vec(),
            game,
            secret,
            start_seq,
            history: Vec::new(),
            applied: HashMap::new(),
            forfeit_winner: None,
            forfeit_reason: None,
            rematch: BySeat::default(),
            reveal: ByFaction::splat(false),
        }
    }

    pub(super) fn faction_of(&self, seat: Seat) -> Faction {
        match seat {
            Seat::Creator => self.creator_faction,
            Seat::Guest => self.creator_faction.opponent(),
        }
    }

    pub(super) fn seat_of(&self, f: Faction) -> Seat {
        if f == self.creator_faction {
            Seat::Creator
        } else {
            Seat::Guest
        }
    }

    /// Every event of this game so far, oldest first.
    pub(super) fn events(&self) -> impl Iterator<Item = &Event> {
        self.opening
            .iter()
            .chain(self.history.iter().flat_map(|(_, events)| events))
    }

    pub(super) fn is_over(&self) -> bool {
        self.game.is_over() || self.forfeit_winner.is_some()
    }
}
